#!/usr/bin/env python3
"""bench/records.py RAW — the benchmark runs as records.

bench/report runs every job of the report with its stdout in RAW/NAME.out,
its stderr in RAW/NAME.err and its exit status in RAW/NAME.rc.  This
program gathers them into one stream of JSON lines on stdout, each with
its "job" and "kind"; the report program (bench/report.py) reads nothing
else.

  runner records  the JSON lines the benchmark runners print themselves
           (bench/run-speed, run-board, run-image, run-footprint,
           run-latency-host, gc_latency.c, gc_stats.lua,
           gc_adversarial.lua, finpeak.lua, pauses.lua, rehash.lua,
           soak.lua: each with "runner", "kind" and "units"), as they are
  job      every job: rc (null when it never ended), nomem (it printed
           "not enough memory")
  params   RAW/params (KEY=VALUE lines that bench/report writes): the
           run's settings (smoke, board, rates, ...)
  LINES    the figures of programs that are not benchmark runners and
           print for people: examples/control_loop.lua, the romtab and
           image unit tests, `rtlua -T`, and stock Lua's harness
           (../shared/luaref)
"""
import json
import os
import re
import sys

# the lines of the programs that print for people, by job family:
# (regex, kind, field names)
LINES = {
    "ctl": [
        (r"^iterations: (\d+)$", "ctl", ["iterations"]),
        (r"^deadline misses: (\d+)$", "ctl", ["misses"]),
        (r"^worst lateness: (.*)$", "ctl", ["worst_late"]),
        (r"^worst GC step: (.*)$", "ctl", ["worst_step"]),
        (r"^GC steps: (\d+), cycles completed: (\d+),(.*)$", "ctl",
         ["steps", "cycles", "rest"]),
        (r"^@late (\S+) (\S+)$", "late", ["t_ms", "late_us"]),
    ],
    "boot": [(r"^# arena in use after boot with every library: (\d+) bytes",
              "boot", ["bytes"])],
    "finpeak": [(r"^rtlua: arena .* peak (\d+) bytes$", "arena_peak",
                 ["peak"]),
                (r"^luaref .* peak=(\d+)", "luaref_peak", ["peak"])],
    "image-flips": [(r"^# image: (\d+)-byte image, every flip and "
                     r"truncation refused$", "image_flips", ["bytes"])],
}


def family(job):
    """The job's family: "ctl-1kHz-25" -> "ctl"."""
    for f in ("ctl", "finpeak"):
        if job.startswith(f + "-"):
            return f
    return job


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return None


def job_records(raw, job):
    fam = family(job)
    rc = read(os.path.join(raw, job + ".rc"))
    out = read(os.path.join(raw, job + ".out")) or []
    err = read(os.path.join(raw, job + ".err")) or []
    nomem = any("not enough memory" in line for line in out + err)
    yield {"kind": "job", "job": job,
           "rc": int(rc[0]) if rc and rc[0].strip().isdigit() else None,
           "nomem": nomem}
    for stream, lines in (("out", out), ("err", err)):
        for line in lines:
            if stream == "out" and line.startswith("{"):
                try:
                    rec = json.loads(line)
                except ValueError:
                    rec = None
                if isinstance(rec, dict) and "kind" in rec:
                    rec["job"] = job
                    yield rec
                    continue
            for rx, kind, names in LINES.get(fam, []):
                m = re.search(rx, line)
                if m:
                    rec = {"kind": kind, "job": job, "stream": stream}
                    rec.update(zip(names, m.groups()))
                    yield rec


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bench/records.py RAW")
    raw = sys.argv[1]
    params = {}
    for line in read(os.path.join(raw, "params")) or []:
        if "=" in line:
            k, v = line.split("=", 1)
            params[k] = v
    recs = [dict(kind="params", job="report", **params)]
    jobs = sorted(f[:-3] for f in os.listdir(raw) if f.endswith(".rc"))
    for job in jobs:
        recs.extend(job_records(raw, job))
    for rec in recs:
        print(json.dumps(rec, ensure_ascii=False))


if __name__ == "__main__":
    main()
