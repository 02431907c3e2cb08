#!/usr/bin/env python3
"""bench/records.py RAW [IMAGE_FIGURES] — the benchmark runs as records.

bench/report runs every job of the report with its stdout in RAW/NAME.out,
its stderr in RAW/NAME.err and its exit status in RAW/NAME.rc.  This
program reads them once and prints one JSON object a line on stdout, one
a measurement, each with its "job" and "kind" and named fields; the
report program (bench/report.py) reads nothing else.  The kinds:

  KIND     a line of JSON a runner printed (bench/run-speed's "speed"),
           as it is
  job      every job: rc (null when it never ended), nomem (it printed
           "not enough memory")
  params   RAW/params (KEY=VALUE lines that bench/report writes): the
           run's settings (smoke, board, rates, ...)
  text     a job's stdout lines that are not data: the tables and prose
           that runners (bench/run-speed, run-board, run-footprint,
           run-image, run-latency-host, gc_latency.c, gc_stats.lua) print
           for the report to carry as they are
  one kind a data line: the positional "@TAG ..." lines get the field
           names of SCHEMA below, the "key: value" lines of the control
           loop, the romtab test, rtlua -T, luaref, pauses.lua and
           rehash.lua theirs
IMAGE_FIGURES is bench/run-image's "@image KEY ..." file (job "image").
Numbers stay the strings the runs printed ("-" where there is none): the
report formats them.
"""
import json
import os
import re
import sys

# "@TAG" lines: the names of the fields after the tag, by the job that
# prints them ("*": any job).  A name ending in "*" takes the rest.
SCHEMA = {
    # bench/gc_latency.c, cycles at hz
    ("gc", "run"): ["workload", "kib", "hz", "budget", "worst", "p999",
                    "median", "steps", "nsteps", "cycles", "emergencies",
                    "assists", "peak_kib"],
    ("gc", "hist"): ["workload", "kib", "bin", "steps"],
    ("gc", "mmu"): ["workload", "kib", "window_us", "permille"],
    # bench/gc_stats.lua
    ("stats", "stats"): ["live_kib", "ms", "steps", "worst_us", "p999_us",
                         "median_us", "cycles", "emergencies", "assists",
                         "arena"],
    ("stats", "hist"): ["live_kib", "bucket", "steps"],
    # bench/gc_adversarial.lua
    ("adv", "adv"): ["workload", "n", "worst", "steps", "emergencies",
                     "cycles"],
    ("adv", "mmu"): ["workload", "n", "window_us", "permille"],
    ("adv", "live"): ["workload", "n", "live", "arena"],
    ("adv", "loop"): ["workload", "pairs*"],
    ("adv", "workload"): ["workload"],
    # bench/finpeak.lua: N, peak KiB, finalizers run
    ("*", "finpeak"): ["n", "peak_kib", "finalized"],
    # examples/control_loop.lua ... trace: time (ms), lateness (us)
    ("ctl", "late"): ["t_ms", "late_us"],
    # bench/soak.lua: KEY VALUE [KEY VALUE]
    ("soak", "soak"): ["pairs*"],
    # bench/run-board (its header lists them)
    ("board", "ratio"): ["model", "name", "n", "rtlua", "luaref", "ratio"],
    ("board", "geomean"): ["model", "ratio"],
    ("board", "worst"): ["model", "name", "ratio"],
    ("board", "density"): ["model", "object", "rtlua", "luaref_asked",
                           "luaref_spent"],
    ("board", "biglist"): ["model", "status", "peak", "run_ns"],
    ("board", "flash"): ["board", "bytes"],
    ("board", "luaref"): ["state"],
}

# bench/run-image's figures: "@image KEY FIELDS...", by KEY
IMAGE = {
    "arena": ["board", "model", "module", "source", "image"],
    "gc": ["board", "model", "module", "source_ins", "source_protos",
           "image_ins", "image_protos"],
    "startup": ["source", "image"],
    "ram": ["board", "source", "image"],
    "app": ["source_protos", "image_protos"],
    "microbit": ["model", "passed", "total"],
}

# "key: value" lines, by job family: (regex, kind, field names)
LINES = {
    "ctl": [
        (r"^iterations: (\d+)$", "ctl", ["iterations"]),
        (r"^deadline misses: (\d+)$", "ctl", ["misses"]),
        (r"^worst lateness: (.*)$", "ctl", ["worst_late"]),
        (r"^worst GC step: (.*)$", "ctl", ["worst_step"]),
        (r"^GC steps: (\d+), cycles completed: (\d+),(.*)$", "ctl",
         ["steps", "cycles", "rest"]),
    ],
    "gc": [(r"^gc_latency on \S+, (\d+) Hz, (\d+) ms per run", "gc_head",
            ["hz", "ms"])],
    "boot": [(r"^# arena in use after boot with every library: (\d+) bytes",
              "boot", ["bytes"])],
    "finpeak": [(r"^rtlua: arena .* peak (\d+) bytes$", "arena_peak",
                 ["peak"]),
                (r"^luaref .* peak=(\d+)", "luaref_peak", ["peak"])],
    "pauses": [(r"^(\S+) +worst=(\d+) ", "pause", ["op", "worst"])],
    "rehash": [(r"^rehash (.*)$", "rehash", ["pairs="])],
    "image-flips": [(r"^# image: (\d+)-byte image, every flip and "
                     r"truncation refused$", "image_flips", ["bytes"])],
    "board": [(r"^The big list \(`bench/biglist.lua (\d+)`", "biglist_n",
               ["n"])],
}

# jobs whose stdout's other lines the report carries as they are
TEXT = ("board", "gc", "stats", "latency-host", "footprint",
        "image")


def family(job):
    """The job's family: "adv-0-free-list-256" -> "adv"."""
    for f in ("adv", "ctl", "stats", "finpeak", "pauses", "rehash"):
        if job.startswith(f + "-") or job == f:
            return f
    if job == "gc-real":
        return "gc"
    return job


def fields(names, words):
    """Names a line's words; "pairs*" reads KEY VALUE pairs."""
    rec = {}
    for i, name in enumerate(names):
        if name == "pairs*":
            rest = words[i:]
            pairs = list(zip(rest[0::2], rest[1::2]))
            rec["pairs"] = pairs
            rec.update(dict(pairs))
            break
        rec[name] = words[i] if i < len(words) else None
    return rec


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
    text = []
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
            if stream == "out" and line.startswith("@"):
                words = line.split()
                tag = words[0][1:]
                names = SCHEMA.get((fam, tag)) or SCHEMA.get(("*", tag))
                if names is not None:
                    rec = {"kind": tag, "job": job}
                    rec.update(fields(names, words[1:]))
                    yield rec
                continue
            for rx, kind, names in LINES.get(fam, []):
                m = re.search(rx, line)
                if not m:
                    continue
                rec = {"kind": kind, "job": job, "stream": stream}
                if names == ["pairs="]:
                    for kv in m.group(1).split():
                        if "=" in kv:
                            k, v = kv.split("=", 1)
                            rec[k + "_" if k in rec else k] = v
                else:
                    rec.update(zip(names, m.groups()))
                yield rec
            if stream == "out" and fam in TEXT:
                text.append(line)
    if text or (fam in TEXT and rc is not None):
        yield {"kind": "text", "job": job, "lines": text}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: bench/records.py RAW [IMAGE_FIGURES]")
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
    if len(sys.argv) == 3:
        for line in read(sys.argv[2]) or []:
            words = line.split()
            if len(words) >= 2 and words[0] == "@image":
                names = IMAGE.get(words[1])
                if names is None:
                    continue
                rec = {"kind": "image", "job": "image", "key": words[1]}
                rec.update(fields(names, words[2:]))
                recs.append(rec)
    for rec in recs:
        print(json.dumps(rec, ensure_ascii=False))


if __name__ == "__main__":
    main()
