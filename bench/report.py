#!/usr/bin/env python3
"""bench/report.py RECORDS RAW RES — the benchmark report from its records.

Reads the records bench/records.py made of one bench/report run (JSON
lines, RECORDS), checks that every run ended well and printed what it
must, writes the plots' data in RAW and the plots (gnuplot) and the report
(latest.md) in RES.  Prints "failed: ..." on stderr and exits 1 when a run
failed.  The targets of the headline and of the plots are TARGETS below;
the tables and prose are the report's.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time

# The targets (issues 6, 12, 14, 15, 17): (comparison, limit, goal as the
# headline writes it).  The headline's "met" column and the plots' target
# lines read them here.
TARGETS = {
    "host_speed": ("<=", 1.00, "≤ 1.00×"),
    "gc_step_us": ("<=", 120, "≤ 120 µs"),
    "mmu_1ms_pct": (">=", 70, "≥ 70%"),
    "misses": ("<=", 0, "0"),
    "boot_bytes": ("<=", 2048, "≤ 2,048 bytes"),
    "pause_us": ("<=", 200, "≤ 200 µs"),
    "finpeak_ratio": ("<=", 2, "≤ 2×"),
    "board_geomean": ("<=", 0.90, "≤ 0.90×"),
    "board_worst": ("<=", 1.00, "≤ 1.00×"),
    "density": ("<=", None, "≤ stock Lua's"),
    "biglist": ("==", "runs", "runs"),
    "flash_bytes": ("<=", 160000, "≤ 160,000 bytes"),
    "emergencies": ("<=", 0, "0"),
    "image_arena_pct": ("<=", 5, "≤ 5%"),
    "protos": ("<=", 0, "0"),
    "all": ("==", "all", "all"),
    "reported": (None, None, "reported"),
    "soak_growth_pct": ("<=", 1, "within 1%"),
}
# the collector's step budget in the benchmarks (not a target: the
# setting the step target is measured at)
BUDGET_US = 100
MMU_WINDOWS = [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000]
PLOTS = ["gc-step-histogram", "gc-mmu", "gc-worst-step", "control-lateness"]
# how the soak's fields are written in its section
SOAK_FORMAT = {"worst_late_us": "%.1f", "worst_step_us": "%.1f",
               "growth_pct": "%.3f"}


def say(msg):
    print("bench/report: " + msg, file=sys.stderr)


def num(s):
    """awk's s + 0: the number at the start of s, else 0."""
    if s is None:
        return 0.0
    m = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", str(s))
    return float(m.group(0)) if m else 0.0


def g6(x):
    """awk's print of a number (%.6g, integers whole)."""
    if x == int(x) and abs(x) < 1e16:
        return str(int(x))
    return "%.6g" % x


def met(key, value):
    """The "met" cell of TARGETS[key] for a measured value."""
    op, limit, _ = TARGETS[key]
    if value is None or value == "" or value == "-":
        return "not measured"
    v = num(value)
    ok = v <= limit if op == "<=" else v >= limit
    return "yes" if ok else "**no**"


def f2(x):
    """A per-object byte count as bench/density.lua prints it."""
    return None if x is None else "%.2f" % x


def comma(x):
    """An integer with thousands separators; "-" for none."""
    return "-" if x is None else "{:,}".format(x)


def block(L, text):
    """Appends TEXT's lines to L, its common indent removed ("\\"
    after the opening quotes: no blank line first)."""
    L.extend(textwrap.dedent(text).split("\n"))


def goal(key):
    return TARGETS[key][2]


class Records:
    def __init__(self, path):
        self.all = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    self.all.append(json.loads(line))
        self.params = next((r for r in self.all if r["kind"] == "params"),
                           {})
        self.jobs = {r["job"]: r for r in self.all if r["kind"] == "job"}

    def of(self, kind, job=None, **eq):
        """Records of KIND (of JOB; JOB may end in "*"), fields equal to EQ."""
        out = []
        for r in self.all:
            if r["kind"] != kind:
                continue
            if job is not None:
                if job.endswith("*"):
                    if not r["job"].startswith(job[:-1]):
                        continue
                elif r["job"] != job:
                    continue
            # the runners' numbers are JSON numbers: compared as text
            if all(str(r.get(k)) == str(v) for k, v in eq.items()):
                out.append(r)
        return out

    def first(self, kind, job=None, field=None, **eq):
        rs = self.of(kind, job, **eq)
        if not rs:
            return None
        return rs[0] if field is None else rs[0].get(field)

    def ran(self, job):
        return job in self.jobs

    def nomem(self, job):
        return bool(self.jobs.get(job, {}).get("nomem"))


class Report:
    def __init__(self, recs, raw, res):
        self.r = recs
        self.raw = raw
        self.res = res
        p = recs.params
        self.p = p
        self.smoke = p.get("smoke") == "1"
        self.board = p.get("board", "mps2-an385")
        self.boards = p.get("boards", self.board).split()
        self.rates = p.get("rates", "").split()
        self.utils = p.get("utils", "").split()
        self.lives = p.get("lives", "").split()
        self.advkib = p.get("advkib", "").split()
        self.advlist = p.get("advlist", "").split()
        self.failed = []
        runs = recs.of("run", "gc")
        self.hz = int(runs[0]["hz"]) if runs else 25000000
        self.sizes = sorted({int(x["kib"]) for x in runs})

    def us(self, cycles):
        return num(cycles) * 1e6 / self.hz

    # ---- checks ------------------------------------------------------
    def tail(self, job):
        for ext in ("err", "out"):
            path = os.path.join(self.raw, job + "." + ext)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    lines = f.read().splitlines()[-5:]
            except OSError:
                continue
            print("    ==> %s <==" % path, file=sys.stderr)
            for line in lines:
                print("    " + line, file=sys.stderr)

    def check(self, job, need=0, what=None, count=None):
        """The job exited 0, and printed NEED of WHAT (a description)."""
        rc = self.r.jobs.get(job, {}).get("rc")
        if rc != 0:
            self.failed.append(job)
            say("%s failed (status %s)" % (job, "missing" if rc is None
                                           else rc))
            self.tail(job)
            return False
        if need and count < need:
            self.failed.append(job)
            say("%s printed %d of %d lines matching %s" % (job, count, need,
                                                          what))
            return False
        return True

    def checks(self):
        r = self.r
        self.check("speed", 1, "a speed record", len(r.of("speed",
                                                           "speed")))
        if r.ran("latency-host"):
            self.check("latency-host")
        self.check("boot", 1, "arena after boot", len(r.of("boot", "boot")))
        for job in ("gc", "gc-real"):
            self.check(job, 15, "a run record", len(r.of("run", job)))
        for hz in self.rates:
            for u in self.utils:
                job = "ctl-%s-%s" % (hz, u)
                self.check(job, 1, "deadline misses",
                           len([x for x in r.of("ctl", job) if "misses" in x]))
        for k in self.lives:
            self.check("stats-" + k, 1, "a stats record", len(r.of("stats",
                                                           "stats-" + k)))
        self.check("board", len(self.boards), "a fib record",
                   len(r.of("bench", "board", name="fib")))
        if r.ran("footprint"):
            self.check("footprint")
        if r.ran("image"):
            st = r.first("startup", "image", board=self.board) or {}
            self.check("image", 2, "start-up figures",
                       len([k for k in ("source", "image")
                            if st.get(k) is not None]))
        for p in ("0", "5"):
            ops = [x for x in r.of("pause", "pauses-" + p)
                   if x["op"] in ("rep64k", "intern", "collide")]
            self.check("pauses-" + p, 3, "a pause record", len(ops))
            self.check("rehash-" + p, 3, "rehash mode=loop",
                       len(r.of("rehash", "rehash-" + p, mode="loop")))
        self.check("finpeak-rtlua", 1, "a finpeak record",
                   len(r.of("finpeak", "finpeak-rtlua")))
        self.check("soak", 1, "a soak record", len(r.of("soak", "soak")))
        for job in ("finpeak-lua", "finpeak-luainc"):
            self.check(job, 1, "a finpeak record", len(r.of("finpeak", job)))
        if r.ran("finpeak-luaref"):
            self.check("finpeak-luaref", 1, "luaref peak=",
                       len(r.of("luaref_peak", "finpeak-luaref")))
        if not r.of("finpeak", "finpeak-board") and \
                not r.nomem("finpeak-board"):
            self.check("finpeak-board", 1, "a finpeak record", 0)
        for job in ("finpeak-tight-board", "finpeak-tight-board5"):
            if r.ran(job) and not r.nomem(job):
                self.check(job, 1, "a finpeak_tight record",
                           len(r.of("finpeak_tight", job)))
        if r.ran("finpeak-tight-luaref"):
            self.check("finpeak-tight-luaref", 1, "luaref peak=",
                       len(r.of("luaref_peak", "finpeak-tight-luaref")))

    # ---- issue 12's adversarial runs, one row a run --------------------
    def adv_rows(self):
        """PACE MODE WORKLOAD KIB STATUS WORST STEPS EMERG CYCLES MISSES
        LATE_US MMU_PERMILLE LIVE_BYTES N, as dicts; STATUS ok, nofit
        (memory ran out) or failed; None where there is no figure."""
        r = self.r
        rows = []
        for wn in self.advlist:
            w = wn.split(":")[0]
            lj = "adv-live-" + w
            live = r.first("live", lj, field="live")
            if live is None and not r.nomem(lj):
                self.check(lj, 1, "a live record", 0)
            for k in self.advkib:
                for m in ("free", "loop"):
                    for p in ("0", "5"):
                        job = "adv-%s-%s-%s-%s" % (p, m, w, k)
                        rc = r.jobs.get(job, {}).get("rc")
                        adv = r.first("adv", job)
                        if rc == 0 and adv is not None:
                            st = "ok"
                        elif r.nomem(job):
                            st = "nofit"
                        else:
                            st = "failed"
                            self.check(job, 1, "an adv record", 0)
                        advs = r.of("adv", job)
                        loop = r.of("loop", job)
                        if st == "ok" and any("error" in x for x in loop):
                            # an allocation failed in an rt.loop body:
                            # the loop ended with "not enough memory"
                            st = "nofit"
                        # the exact MMU, from the collector's trace of its
                        # steps (bench/report runs free mode on a trace
                        # build); else the mutator's view, only as fine as
                        # one of its iterations
                        mmu = r.of("mmu_exact", job)
                        exact = bool(mmu)
                        if not mmu:
                            mmu = r.of("mmu", job)
                        a = advs[-1] if advs else None
                        lp = loop[-1] if loop else None
                        mu = mmu[-1] if mmu else None
                        ok = st == "ok"
                        rows.append({
                            "pace": p, "mode": m, "w": w, "kib": k,
                            "st": st,
                            "worst": a["worst"] if ok and a else None,
                            "steps": a["steps"] if ok and a else None,
                            "emerg": a["emergencies"] if ok and a else None,
                            "cycles": a["cycles"] if ok and a else None,
                            "misses": lp.get("misses")
                            if ok and m == "loop" and lp else None,
                            "late": lp.get("worst_late_us")
                            if ok and m == "loop" and lp else None,
                            "mmu": mu["permille"] if ok and mu else None,
                            "exact": exact,
                            "gcpct": mu.get("gc_pct") if ok and mu and exact
                            else None,
                            "live": live,
                            "n": a["n"] if a else None})
        return rows

    # ---- data for the plots, in RAW --------------------------------------
    def plot_data(self):
        r, raw, hz = self.r, self.raw, self.hz
        with open(os.path.join(raw, "gc-hist.dat"), "w") as f:
            for k in self.sizes:
                f.write("# arena %d KiB\n" % k)
                h = {}
                top = 0
                for x in r.of("hist", "gc"):
                    if int(x["kib"]) == k:
                        b = int(x["bin"])
                        h[b] = h.get(b, 0) + int(x["steps"])
                        top = max(top, b)
                for b in range(0, top + 51, 50):
                    f.write("%.1f %s\n" % (b * 1e6 / hz, h.get(b, 0.5)))
                f.write("\n\n")
        with open(os.path.join(raw, "gc-mmu.dat"), "w") as f:
            for k in self.sizes:
                f.write("# arena %d KiB\n" % k)
                m = {}
                for x in r.of("mmu", "gc"):
                    if int(x["kib"]) == k:
                        w, v = int(x["window_us"]), int(x["permille"])
                        m[w] = min(m.get(w, v), v)
                for w in sorted(m):
                    f.write("%s %.1f\n" % (g6(w / 1000), m[w] / 10))
                f.write("\n\n")
        with open(os.path.join(raw, "gc-worst.dat"), "w") as f:
            per = {}
            for x in r.of("run", "gc"):
                a = per.setdefault(int(x["kib"]), {"p": 0, "m": 0})
                a[x["workload"]] = self.us(x["worst"])
                a["p"] = max(a["p"], self.us(x["p999"]))
                a["m"] = max(a["m"], self.us(x["median"]))
            for k in sorted(per):
                a = per[k]
                f.write("%d %.1f %.1f %.1f %.1f %.1f\n" % (
                    k, a.get("churn", 0), a.get("table", 0),
                    a.get("list", 0), a["p"], a["m"]))
        with open(os.path.join(raw, "gc-worst-real.dat"), "w") as f:
            per = {}
            for x in r.of("run", "gc-real"):
                k = int(x["kib"])
                per[k] = max(per.get(k, 0), self.us(x["worst"]))
            for k in sorted(per):
                f.write("%d %.1f\n" % (k, per[k]))
        for job in sorted(x for x in r.jobs if x.startswith("ctl-")):
            with open(os.path.join(raw, job + ".dat"), "w") as f:
                for x in r.of("late", job):
                    f.write("%s %s\n" % (x["t_ms"], x["late_us"]))

    def plots(self):
        raw, res = self.raw, self.res
        if not shutil.which("gnuplot"):
            self.failed.append("gnuplot")
            say("gnuplot is missing (tools/setup installs gnuplot-nox)")
            return
        step = TARGETS["gc_step_us"][1]
        mmu = TARGETS["mmu_1ms_pct"][1]
        hist = ", ".join(
            "'%s/gc-hist.dat' index %d using 1:2 with histeps lw 2 "
            "title '%d KiB'" % (raw, i, k) for i, k in enumerate(self.sizes))
        mmus = ", ".join(
            "'%s/gc-mmu.dat' index %d using 1:2 with linespoints lw 2 pt 7 "
            "title '%d KiB'" % (raw, i, k) for i, k in enumerate(self.sizes))
        lat = ["set multiplot layout %d,1 title 'examples/control_loop.lua "
               "on %s: start lateness of every iteration, 25%% utilisation'"
               % (len(self.rates), self.board), "set xlabel ''"]
        for n, hzr in enumerate(self.rates, 1):
            per = g6(1000 / num(hzr[:-3]))
            worst = self.r.first("ctl", "ctl-%s-25" % hzr,
                                 field="worst_late")
            for x in self.r.of("ctl", "ctl-%s-25" % hzr):
                if "worst_late" in x:
                    worst = x["worst_late"]
                    break
            if n == len(self.rates):
                lat.append("set xlabel 'time (ms)'")
            lat.append("set yrange [0.01:%s * 5]" % per)
            lat.append("set title '%s (period %s us), worst lateness %s' "
                       "offset 0,-0.6" % (hzr, per, worst or "?"))
            lat.append("plot '%s/ctl-%s-25.dat' using 1:($2 > 0.01 ? $2 : "
                       "0.01) with points pt 7 ps 0.4 lc %d title "
                       "'lateness', %s with lines dt 2 lc rgb 'red' title "
                       "'one period: a miss above'" % (raw, hzr, n, per))
        lat.append("unset multiplot")
        script = """\
set terminal pngcairo size 900,540 font "sans,11" noenhanced
set grid
set key top right

set output '{res}/gc-step-histogram.png'
set title 'Collector step lengths, {board}, {budget} us budget, 25% utilisation (3 workloads)'
set xlabel 'step length (us, 2 us bins)'
set ylabel 'steps'
set logscale y
set yrange [0.8:*]
set xrange [0:*]
set key top left
plot {hist}
unset logscale y
set xrange [*:*]
set yrange [*:*]
set key top right

set output '{res}/gc-mmu.png'
set title 'Minimum mutator utilisation, lowest of 3 workloads, 25% utilisation'
set xlabel 'window (ms)'
set ylabel 'MMU (%)'
set logscale x
set yrange [0:100]
set key bottom right
plot {mmus}, {mmu} with lines dt 2 lc rgb 'black' title 'target at 1 ms: {mmu}%'
unset logscale x
set yrange [*:*]
set key top right

set output '{res}/gc-worst-step.png'
set title 'Longest collector step against arena size, {budget} us budget'
set xlabel 'arena (KiB)'
set ylabel 'step (us)'
set logscale x 2
set yrange [0:260]
set key below maxrows 3
plot '{raw}/gc-worst.dat' using 1:2 with linespoints lw 2 pt 7 title 'worst, churn', \\
     '' using 1:3 with linespoints lw 2 pt 5 title 'worst, table', \\
     '' using 1:4 with linespoints lw 2 pt 9 title 'worst, list', \\
     '' using 1:6 with linespoints lw 1 dt 3 title 'median (highest)', \\
     '{raw}/gc-worst-real.dat' using 1:2 with linespoints lw 2 pt 11 lc rgb 'black' title 'worst of all, at a real board pace (shift=5)', \\
     {step} with lines dt 2 lc rgb 'red' title 'target: {step} us', \\
     {budget} with lines dt 4 lw 1.5 lc rgb '#707070' title 'budget: {budget} us'
unset logscale x
set yrange [*:*]

set terminal pngcairo size 900,800 font "sans,10" noenhanced
set output '{res}/control-lateness.png'
set ylabel 'us (log; 0 drawn at 0.01)'
set logscale y
set format y '%g'
set key right center
{lat}
""".format(res=res, raw=raw, board=self.board, budget=BUDGET_US,
           hist=hist, mmus=mmus, mmu=mmu, step=step, lat="\n".join(lat))
        with open(os.path.join(raw, "gnuplot.log"), "w") as log:
            rc = subprocess.run(["gnuplot"], input=script, text=True,
                                stdout=log, stderr=subprocess.STDOUT)
        if rc.returncode != 0:
            self.failed.append("plots")
            with open(os.path.join(raw, "gnuplot.log")) as log:
                sys.stderr.write(log.read())
        for p in PLOTS:
            path = os.path.join(res, p + ".png")
            if not os.path.isfile(path) or os.path.getsize(path) == 0:
                self.failed.append("plot-" + p)
                say("no " + path)

    # ---- the figures ---------------------------------------------------
    def speed_ok(self):
        return [x for x in self.r.of("speed", "speed")
                if x.get("status") == "ok" and num(x.get("rtlua_ir")) > 0 and
                num(x.get("lua_ir")) > 0]

    def speed_geomean(self):
        ok = self.speed_ok()
        if not ok:
            return None
        logs = sum(math.log(num(x["rtlua_ir"]) / num(x["lua_ir"]))
                   for x in ok)
        return "%.2f" % math.exp(logs / len(ok))

    def speed_table(self, L):
        L.append("| script | size | rtlua Ir | lua5.4 Ir | ratio |")
        L.append("|---|---:|---:|---:|---:|")
        ok = self.speed_ok()
        for x in self.r.of("speed", "speed"):
            if x in ok:
                rt, ref = num(x["rtlua_ir"]), num(x["lua_ir"])
                L.append("| %s | %s | %.0f | %.0f | %.2f |" % (
                    x["script"], x["size"], rt, ref, rt / ref))
            else:
                L.append("| %s | %s | %s | | |" % (x["script"], x["size"],
                                                  x.get("status")))
        if ok:
            L.append("| geometric mean | | | | %s |" % self.speed_geomean())

    def worst_step(self, job):
        best, at = 0, None
        for x in self.r.of("run", job):
            if num(x["worst"]) > best:
                best, at = num(x["worst"]), "%s, %s KiB" % (x["workload"],
                                                           x["kib"])
        return ("%.1f" % (best * 1e6 / self.hz), at) if at else (None, None)

    def figures(self):
        r, f = self.r, {}
        f["geomean"] = self.speed_geomean()
        f["worst"] = self.worst_step("gc")
        f["worst_real"] = self.worst_step("gc-real")
        m1 = None
        for x in r.of("mmu", "gc", window_us="1000"):
            if m1 is None or num(x["permille"]) < m1[0]:
                m1 = (num(x["permille"]), "%s, %s KiB" % (x["workload"],
                                                          x["kib"]))
        f["mmu1"] = ("%.1f" % (m1[0] / 10), m1[1]) if m1 else (None, None)
        ch = [num(x["permille"]) for x in r.of("mmu", "gc", window_us="1000",
                                               workload="churn")]
        f["mmu1_churn"] = "%.1f" % (min(ch) / 10) if ch else None
        misses = 0
        for u in self.utils:
            m = [x["misses"] for x in r.of("ctl", "ctl-1kHz-" + u)
                 if "misses" in x]
            misses += int(m[0]) if m else 999999
        f["misses1k"] = str(misses)
        f["boot"] = r.first("boot", "boot", field="bytes")
        return f

    def issue12(self, adv):
        r, hz = self.r, self.hz

        def worst(pace, job):
            cands = [(num(a["worst"]), "%s %s (%s), %s KiB" % (
                a["worst"], a["w"], a["mode"], a["kib"]))
                for a in adv if a["pace"] == pace and a["st"] == "ok"]
            cands += [(num(x["worst"]), "%s %s (C), %s KiB" % (
                x["worst"], x["workload"], x["kib"]))
                for x in r.of("run", job)]
            if not cands:
                return None, None
            c = max(cands)
            return "%.1f" % (c[0] * 1e6 / hz), c[1].split(" ", 1)[1]

        f = {"w0": worst("0", "gc"), "w5": worst("5", "gc-real")}
        loops = [a for a in adv if a["mode"] == "loop" and a["st"] == "ok"]
        nofit = []
        for a in adv:
            # (where its live set fits: "out of memory" in the tables)
            if a["mode"] == "loop" and a["st"] == "nofit" and \
                    a["live"] is not None and \
                    num(a["live"]) <= num(a["kib"]) * 1024 and \
                    "%s %s KiB shift=%s" % (a["w"], a["kib"], a["pace"]) \
                    not in nofit:
                nofit.append("%s %s KiB shift=%s" % (a["w"], a["kib"],
                                                     a["pace"]))
        if loops:
            bad = []
            for a in loops:
                if num(a["misses"]) > 0 and a["w"] not in bad:
                    bad.append(a["w"])
            f["loop"] = (str(int(sum(num(a["misses"]) for a in loops))),
                         str(len(loops)), ", ".join(bad) or "none",
                         ", ".join(nofit) or "none")
        else:
            f["loop"] = None

        def pause(p):
            c = []
            for x in r.of("pause", "pauses-" + p):
                if x["op"] in ("rep64k", "intern", "collide"):
                    v = "%.1f" % (num(x["worst"]) * 1e6 / hz)
                    c.append((float(v), "%s µs (%s)" % (v, x["op"])))
            for x in r.of("rehash", "rehash-" + p, mode="loop"):
                v = x.get("worst_store_us", "")
                c.append((num(v), "%s µs (rehash %s)" % (v, x["table"])))
            return max(c)[1] if c else None

        f["pz0"], f["pz5"] = pause("0"), pause("5")
        ps = [p.split(" ", 1)[0] for p in (f["pz0"], f["pz5"]) if p]
        f["pause"] = max(ps, key=lambda s: (num(s), s)) if ps else None
        c = [(num(a["mmu"]), "%s %s, %s KiB" % (a["mmu"], a["w"], a["kib"]))
             for a in adv
             if a["pace"] == "0" and a["mode"] == "free" and a["mmu"]]
        c += [(num(x["permille"]), "%s %s (C), %s KiB" % (
            x["permille"], x["workload"], x["kib"]))
            for x in r.of("mmu", "gc", window_us="1000")]
        if c:
            v, line = min(c)
            f["mmu"] = ("%.1f" % (v / 10), line.split(" ", 1)[1])
        else:
            f["mmu"] = (None, None)
        m5 = None
        for a in adv:
            if a["pace"] == "5" and a["mode"] == "free" and a["mmu"]:
                if m5 is None or num(a["mmu"]) < m5[0]:
                    m5 = (num(a["mmu"]), "%s, %s KiB" % (a["w"], a["kib"]))
        f["mmu5"] = "%.1f%% (%s)" % (m5[0] / 10, m5[1]) if m5 else None
        # emergencies where the workload's live set fits in half the
        # arena; a run that ran out of memory there counts as one
        n = e = oom = 0
        for a in adv:
            if a["live"] is not None and \
                    num(a["live"]) * 2 <= num(a["kib"]) * 1024 and \
                    a["st"] != "failed":
                n += 1
                if a["st"] == "nofit":
                    oom += 1
                    e += 1
                else:
                    e += int(num(a["emerg"]))
        f["emerg"] = (str(e), str(n), str(oom)) if n else None
        return f

    def finpeak(self):
        r = self.r
        f = {}
        f["rt"] = r.first("arena_peak", "finpeak-rtlua", field="peak")
        lua = r.first("finpeak", "finpeak-lua", field="peak_kib")
        f["lua"] = "%d" % (num(lua) * 1024) if lua is not None else None
        inc = r.first("finpeak", "finpeak-luainc", field="peak_kib")
        f["inc"] = "%d" % (num(inc) * 1024) if inc is not None else None
        f["ratio"] = "%.1f" % (num(f["rt"]) / num(f["lua"])) \
            if f["rt"] and num(f["lua"]) > 0 else None
        brd = r.of("arena_peak", "finpeak-board")
        brd = [x["peak"] for x in brd if x["stream"] == "out"] + \
            [x["peak"] for x in brd if x["stream"] == "err"]
        f["brd"] = brd[0] if brd else None
        if r.nomem("finpeak-board"):
            f["brd"] = "out of memory"
        f["ref"] = r.first("luaref_peak", "finpeak-luaref", field="peak")
        def ratio(peak, ref):
            # "%.1f" of peak / ref where both are byte counts, else None
            if peak and re.fullmatch(r"[0-9]+", peak) and num(ref) > 0:
                return "%.1f" % (num(peak) / num(ref))
            return None

        b = ratio(f["brd"], f["ref"])
        f["bratio"] = b + "×" if b else None
        # bench/finpeak_tight.lua: the loop alone, exact peaks on the
        # board at both paces (t0, t5; their ratios t0r, t5r), against
        # stock Lua's (tref)
        f["tref"] = r.first("luaref_peak", "finpeak-tight-luaref",
                            field="peak")
        for key, job in (("t0", "finpeak-tight-board"),
                         ("t5", "finpeak-tight-board5")):
            t = [x["peak"] for x in r.of("arena_peak", job)]
            f[key] = "out of memory" if r.nomem(job) else \
                t[0] if t else None
            f[key + "r"] = ratio(f[key], f["tref"])
        tr = [num(f[k]) for k in ("t0r", "t5r") if f[k]]
        f["tratio"] = "%.1f" % max(tr) if tr else None
        # the worst ratio measured: the headline's (a tight run out of
        # memory where stock Lua's ran is worse than any ratio)
        ws = [num(x) for x in (f["ratio"], f["tratio"]) if x is not None]
        f["worst"] = "%.1f" % max(ws) if ws else None
        f["oom"] = "out of memory" in (f["t0"], f["t5"])
        return f

    @staticmethod
    def kib(b):
        if b is not None and re.fullmatch(r"[0-9]+", b):
            return "%.0f KiB" % (int(b) / 1024)
        return "-" if b is None or b == "" else b

    # ---- the report ------------------------------------------------------
    def write(self):
        r, hz, board = self.r, self.hz, self.board
        self.checks()
        adv = self.adv_rows()
        self.plot_data()
        self.plots()
        F = self.figures()
        A = self.issue12(adv)
        P = self.finpeak()
        L = []
        w = L.append

        def d(v):
            return "-" if v is None or v == "" else v

        def row(what, measured, key, met_cell=None):
            w("| %s | %s | %s | %s |" % (
                what, measured, goal(key),
                met_cell if met_cell is not None else "—"))

        # header: the commit measured (bench/report's params), else now's
        commit = self.p.get("commit")
        if not commit:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                                    capture_output=True,
                                    text=True).stdout.strip()
            if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", ".",
                               ":!bench/results", ":!README.md"]).returncode:
                commit += " (modified)"
        w("# rtlua benchmark report")
        w("")
        w("%s, commit %s," % (time.strftime("%Y-%m-%d %H:%M UTC",
                                            time.gmtime()), commit))
        w("%d cores, %s; `bench/report%s`" % (
            os.cpu_count(), os.uname().machine,
            " --smoke" if self.smoke else ""))
        w("(`make bench`). Every figure below comes from this one run.")
        w("Board figures are virtual time under `qemu -icount shift=0`")
        w("(one instruction = 1 ns) with the cycle counter at the board's")
        w("%d MHz SysTick clock: see \"How this is measured\" below."
          % (hz // 1000000))
        w("")
        w("## Headline")
        w("")
        w("| target | measured | goal | met |")
        w("|---|---|---|---|")
        gm = F["geomean"]
        row("host speed, geometric mean of rtlua/lua5.4 instructions",
            "%s×" % d(gm), "host_speed", met("host_speed", gm))
        v, at = F["worst"]
        row("worst GC step at a %d µs budget, every arena 16 KiB–4 MiB"
            % BUDGET_US, "%s µs (%s)" % (d(v), at or ""), "gc_step_us",
            met("gc_step_us", v))
        v, at = F["worst_real"]
        row("the same at a real board's pace (32 ns an instruction, "
            "`-icount shift=5`)", "%s µs (%s)" % (d(v), at or ""),
            "gc_step_us", met("gc_step_us", v))
        v, at = F["mmu1"]
        row("MMU over 1 ms at 25% utilisation, lowest of all workloads and "
            "arenas", "%s%% (%s; churn alone: %s%%)" % (
                d(v), at or "", d(F["mmu1_churn"])), "mmu_1ms_pct",
            met("mmu_1ms_pct", v))
        row("deadline misses at 1 kHz (%s%% utilisation, %s s each)" % (
            ", ".join(self.utils), self.p.get("seconds")), F["misses1k"],
            "misses", met("misses", F["misses1k"]))
        row("arena in use after boot, all libraries open (%s)" % board,
            "%s bytes" % d(F["boot"]), "boot_bytes",
            met("boot_bytes", F["boot"]))
        v, at = A["w0"]
        row("**issue 12:** worst GC step at a %d µs budget, every workload "
            "(adversarial and C) and arena, shift=0" % BUDGET_US,
            "%s µs (%s)" % (d(v), at or ""), "gc_step_us",
            met("gc_step_us", v))
        v, at = A["w5"]
        row("the same at shift=5", "%s µs (%s)" % (d(v), at or ""),
            "gc_step_us", met("gc_step_us", v))
        lp = A["loop"] or (None, "", "", "")
        row("`rt.loop` at 1 kHz with 150 µs slack, every adversarial "
            "workload, arena and pace",
            "%s misses (in %s runs; with misses: %s; out of memory, "
            "not counted: %s)" % (d(lp[0]), lp[1], lp[2], lp[3]),
            "misses", met("misses", lp[0]) if lp[3] in ("none", "") else
            "**no** (out of memory)")
        row("worst mutator pause (rehash in `rt.loop`, interning, "
            "`string.rep` of 64 KB)", "%s µs (shift=0: %s; shift=5: %s)" % (
                d(A["pause"]), d(A["pz0"]), d(A["pz5"])), "pause_us",
            met("pause_us", A["pause"]))
        v, at = A["mmu"]
        row("MMU over 1 ms at 25% utilisation, lowest of all workloads "
            "(shift=0)", "%s%% (%s; shift=5: %s)" % (d(v), at or "",
                                                     d(A["mmu5"])),
            "mmu_1ms_pct", met("mmu_1ms_pct", v))
        finn = self.p.get("finn")
        tight = ""
        if P["t0"] or P["t5"]:
            tight = ("; the loop alone, on %s: %s, at shift=5 %s, against "
                     "stock Lua's %s%s" % (
                         board, self.kib(P["t0"]), self.kib(P["t5"]),
                         self.kib(P["tref"]),
                         ", " + P["tratio"] + "×" if P["tratio"] else ""))
        row("peak arena for %s short-lived `__gc` tables against lua5.4 "
            "(host) and stock Lua (board), the worst" % finn,
            "%s (host: %s against %s, %s×; on %s: %s against stock Lua's "
            "%s%s%s)" % (
                "out of memory" if P["oom"] else d(P["worst"]) + "×",
                self.kib(P["rt"]), self.kib(P["lua"]),
                d(P["ratio"]), board,
                self.kib(P["brd"]), self.kib(P["ref"]),
                ", " + P["bratio"] if P["bratio"] else "", tight),
            "finpeak_ratio", "**no** (out of memory)" if P["oom"] else
            met("finpeak_ratio", P["worst"]))
        self.emerg = A["emerg"]
        self.issue14_rows(row, d)
        self.issue15_rows(row, d)
        sk = {}
        for x in r.of("soak", "soak"):
            sk.update(x)
        g = sk.get("growth_pct")
        soak_abs = "%.3f" % abs(float(g)) if g is not None else None
        g = "%.3f" % g if g is not None else None
        row("**issue 17:** soak, `rt.loop` at 1 kHz for %s s of virtual time "
            "at shift=5, the workload changing every second: deadline misses"
            % self.p.get("soaksecs"),
            "%s (in %s iterations; worst GC step %s µs, worst lateness %s µs)"
            % (d(sk.get("misses")), d(sk.get("iterations")),
               d(sk.get("worst_step_us")), d(sk.get("worst_late_us"))),
            "misses", met("misses", sk.get("misses")))
        row("the soak's arena after the last full collection against after "
            "the first minute", "%s%% (%s → %s bytes)" % (
                d(g), d(sk.get("arena_first")), d(sk.get("arena_last"))),
            "soak_growth_pct", met("soak_growth_pct", soak_abs))
        w("")
        if self.failed:
            w("**Runs that failed:** %s (see %s)." % (" ".join(self.failed),
                                                      self.raw))
            w("")
        self.sections(L, F, A, P, adv)
        return L

    def issue14_rows(self, row, d):
        r, board = self.r, self.board
        absent = self.luaref_absent()
        gm, wst = {}, None
        for m in ("32", "64"):
            g, w = self.board_ratios(board, m)
            gm[m] = g
            if w and num(w[0]) > (num(wst[0]) if wst else 0):
                wst = (w[0], "%s, %s-bit" % (w[1], m))
        rs, ls, bad = [], [], 0
        for x in r.of("density", "board", model="32"):
            rs.append(f2(x["rtlua"]) or "-")
            ls.append(f2(x["luaref_spent"]) or "-")
            if x["luaref_spent"] is None or x["rtlua"] is None:
                bad = 2
            elif num(x["rtlua"]) > num(x["luaref_spent"]) and bad < 2:
                bad = 1
        dens = " / ".join(rs)
        note = "not measured (../shared/luaref is absent)"
        what = ("**issue 14:** run-phase instructions on %s against stock "
                "Lua 5.4.8, geometric mean, 32-bit" % board)
        dwhat = ("bytes per list node, `{i}` element, string key, "
                 "1-upvalue closure (32-bit)")
        if absent:
            row(what, note, "board_geomean", "not measured")
            row("the same, 64-bit", note, "board_geomean", "not measured")
            row("the worst single benchmark, either model", note,
                "board_worst", "not measured")
            row(dwhat, "%s bytes; %s" % (dens, note), "density",
                "not measured")
        else:
            row(what, "%s×" % d(gm.get("32")), "board_geomean",
                met("board_geomean", gm.get("32")))
            row("the same, 64-bit", "%s×" % d(gm.get("64")),
                "board_geomean", met("board_geomean", gm.get("64")))
            row("the worst single benchmark, either model", "%s× (%s)" % (
                d(wst[0] if wst else None), wst[1] if wst else ""),
                "board_worst", met("board_worst", wst[0] if wst else None))
            row(dwhat + ", against stock Lua's malloc",
                "%s against %s" % (dens, " / ".join(ls)) if rs else "",
                "density", {0: "yes", 1: "**no**"}.get(bad, "not measured")
                if rs else "not measured")
        big = r.first("biglist", "board", model="32")
        st = big["status"] if big else None
        bign = r.first("board", "board", field="biglist_n", board=board) \
            or ""
        row("the big list, %s nodes with 4 temporary tables each, in %s's "
            "arena (32-bit)" % (bign, board),
            "runs, peak %s bytes" % big["peak"] if st == "ok" else
            "not enough memory" if st == "nomem" else "failed",
            "biglist", "yes" if st == "ok" else "**no**")
        flash = r.first("flash", "board", field="bytes", board=board)
        row("firmware flash, %s, every library and the REPL" % board,
            "%s bytes" % d(flash), "flash_bytes", met("flash_bytes", flash))

    def issue15_rows(self, row, d):
        r, board = self.r, self.board
        em = self.emerg
        row("emergencies in adversarial runs whose live set fits in half "
            "the arena", "%s (in %s runs, %s of them out of memory)" % (
                d(em[0] if em else None), em[1] if em else "",
                em[2] if em else "0"), "emergencies",
            met("emergencies", em[0] if em else None))

        def img(key, **eq):
            return r.of(key, "image", **eq)

        def arena_pct(model):
            a = img("arena", board="mps2-an385", model=model,
                    module="module1000")
            a = a[0] if a else {}
            src, im = a.get("source"), a.get("image")
            pct = "%.1f" % (100 * num(im) / num(src)) \
                if num(src) > 0 and im is not None else None
            return pct, src, im
        pct, src, im = arena_pct("32")
        # the target holds in both number models (--smoke measures the
        # 32-bit one only)
        pct64 = arena_pct("64")[0]
        s = img("arena", board="mps2-an385", model="32",
                module="module1000s")
        pcts = "%.1f%%" % (100 * num(s[0]["image"]) / num(s[0]["source"])) \
            if s and num(s[0].get("source")) > 0 and \
            s[0].get("image") is not None else None
        row("**issue 15:** arena after `require` of a 1,000-line module from "
            "its flash image, against compiling it on the board (%s, 32-bit"
            "%s)" % (board, "; 64-bit" if pct64 is not None else ""),
            "%s%% (%s of %s bytes%s; the same lines in 51 functions: "
            "%s)" % (d(pct), d(im), d(src),
                     "; 64-bit: %s%%" % pct64 if pct64 is not None else "",
                     d(pcts)), "image_arena_pct",
            met("image_arena_pct",
                pct if pct is None or pct64 is None
                else max(pct, pct64, key=num)))
        def protos(way):
            a = img("app", board=board, way=way, ran=True)
            return a[0]["protos"].replace(" ", "") if a else "-"

        pi, ps = protos("image"), protos("source")
        row("prototypes a collector traverses while a program runs from "
            "flash (`examples/app`, 1 s at 1 kHz)", "%s (from source: %s)" % (
                d(pi), d(ps)), "protos", met("protos", pi))
        # Of the topic scripts a small board runs, those marked as needing
        # more arena or C stack than microbit has are skipped there ("where
        # they fit"); every other one must pass.
        mb = img("microbit")
        mbs = ", ".join("%d of %d (%d-bit; %d need more arena or C stack)"
                        % (num(x["passed"]), num(x["total"]),
                           num(x["model"]), num(x["medium"]))
                        for x in mb)
        short = any(num(x["passed"]) < num(x["total"]) - num(x["medium"])
                    for x in mb)
        row("microbit runs every `tests/lua` topic script that fits it from "
            "a flash image",
            mbs or "not measured", "all",
            ("**no**" if short else "yes") if mb else "not measured")
        st = img("startup", board=board)
        row("start-up to the first line of main.lua, instructions "
            "(`examples/app`, %s)" % board,
            "%s from source, %s from the image" % (
                d(st[0]["source"]), d(st[0]["image"])) if st else "-",
            "reported")
        ram = img("ram", board="mps2-an385")
        ramb = img("ram", board="microbit")
        row("arena in use with `examples/app` loaded, its loop about to "
            "start (%s, 32-bit): the RAM its code costs" % board,
            ("%s bytes from source, %s from the image" % (
                d(ram[0]["source"]), d(ram[0]["image"])) if ram else "-") +
            ("; microbit: %s from source, %s from the image" % (
                "does not fit" if ramb[0]["source"] is None else
                ramb[0]["source"], d(ramb[0]["image"])) if ramb else ""),
            "reported")
        gc = img("gc", board="mps2-an385", model="32", module="module1000")
        row("one full collection of a heap holding the 1,000-line module "
            "(%s, 32-bit)" % board,
            "%s instructions and %s prototypes from source, %s and %s from "
            "the image" % tuple(d(gc[0][k]) for k in (
                "source_ins", "source_protos", "image_ins", "image_protos"))
            if gc else "-", "reported")
        fl = r.first("image_flips", "image-flips", field="bytes")
        row("corrupted images (every byte flipped in turn, every truncation) "
            "refused with a message",
            "all, for a %s-byte image (tests/image/test_image.c)" % fl
            if fl else "not measured", "all",
            "yes" if fl else "not measured")

    def sections(self, L, F, A, P, adv):
        r = self.r
        block(L, """\
            ## Speed on the host

            `bench/run-speed`: instructions counted by callgrind, rtlua (64-bit
            numbers, -O2) against lua5.4 on the same scripts; both must print
            the same checksum. A ratio below 1 means rtlua ran fewer instructions.
            """)
        self.speed_table(L)
        block(L, """
            ## Speed on the boards

            `bench/run-board`: the instructions of each benchmark's run phase
            (the pcall of its loaded chunk, `bench/luarun.c`), rtlua against
            stock Lua 5.4.8 (`../shared/luaref`: the same script, N and number
            model, measured the same way; both print the same checksum). A ratio
            below 1 means rtlua ran fewer instructions. Every benchmark fits a
            256 KiB arena at its N.""")
        if self.luaref_absent():
            block(L, """
                ../shared/luaref is absent on this machine: stock Lua's columns
                are left out.""")
        L.append("")
        self.board_text(L)
        self.gc_sections(L)
        self.stats_section(L)
        self.control_section(L)
        self.adv_section(L, adv, P)
        self.tail_sections(L, F)

    # ---- bench/run-board's records ------------------------------------
    def luaref_absent(self):
        return self.r.first("board", "board", field="luaref",
                            board=self.board) is False

    def board_ratios(self, board, model):
        """The geometric mean of a board's ratios in a model, and its
        worst (ratio, name): None where there is no ratio."""
        rs = [x for x in self.r.of("bench", "board", board=board,
                                   model=model) if x["ratio"] is not None]
        if not rs:
            return None, None
        g = math.exp(sum(math.log(x["ratio"]) for x in rs) / len(rs))
        w = rs[0]
        for x in rs:
            if x["ratio"] > w["ratio"]:
                w = x
        return "%.3f" % g, ("%.3f" % w["ratio"], w["name"])

    def seed_spread(self, board, side):
        """The widest range over the seeds, a side: a sentence, or ''."""
        out = []
        for who in ("rtlua", "luaref") if side else ("rtlua",):
            best = None
            for x in self.r.of("bench", "board", board=board):
                lo, hi = x.get(who + "_min"), x.get(who + "_max")
                if lo and hi and (best is None or hi / lo > best[0]):
                    best = (hi / lo, x["name"], x["model"], lo, hi)
            if best and best[0] > 1:
                out.append("%s %s, %s-bit: %s to %s (%.1f%%)" % (
                    "rtlua's" if who == "rtlua" else "stock Lua's",
                    best[1], best[2], comma(best[3]), comma(best[4]),
                    100 * (best[0] - 1)))
        return (" The widest ranges: " + "; ".join(out) + ".") if out else ""

    def board_text(self, L):
        """bench/run-board's tables: speed per board, and on mps2-an385
        bytes per object and the big list."""
        r = self.r
        for bd in r.of("board", "board"):
            b, side = bd["board"], bd["luaref"]
            L.extend(["### " + b, ""])
            if side:
                L.append("| benchmark | covers | N | rtlua 32-bit | Lua 5.4.8 "
                         "32-bit | ratio | rtlua 64-bit | Lua 5.4.8 64-bit | "
                         "ratio |")
                L.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
            else:
                L.append("| benchmark | covers | N | rtlua 32-bit | rtlua "
                         "64-bit |")
                L.append("|---|---|---:|---:|---:|")
            rows = {}
            for x in r.of("bench", "board", board=b):
                row = rows.setdefault(x["name"], "| %s | %s | %s" % (
                    x["name"], x["covers"], x["n"]))
                if x["status"] == "failed":
                    row += " | failed" + (" | |" if side else "")
                elif not side:
                    row += " | " + comma(x["rtlua"])
                elif x["status"] == "luaref failed":
                    row += " | %s | failed | " % comma(x["rtlua"])
                elif x["status"] == "checksum differs":
                    row += " | %s | %s | checksum differs" % (
                        comma(x["rtlua"]), comma(x["luaref"]))
                else:
                    row += " | %s | %s | %.3f" % (
                        comma(x["rtlua"]), comma(x["luaref"]), x["ratio"])
                rows[x["name"]] = row
            L.extend(row + " |" for row in rows.values())
            if side:
                gw = [self.board_ratios(b, m) for m in ("32", "64")]
                L.append("| geometric mean | | " + "".join(
                    "| | | %s " % (g or "-") for g, _ in gw) + "|")
                L.append("| worst | | " + "".join(
                    "| | | %s " % ("%s (%s)" % w if w else "-")
                    for _, w in gw) + "|")
            L.append("")
            k = bd.get("seeds") or 1
            if k > 1:
                spread = self.seed_spread(b, side)
                block(L, """\
                    Each count is the mean of %d runs, one a string-hash seed
                    (rtlua: the arena's first word at boot; stock Lua: its
                    stack moved, `pad=`), and the ratio is of the means: under
                    QEMU an image has one seed, and the benchmarks that hash
                    strings move by several per cent with it.%s
                    """ % (k, spread))
            if b != "mps2-an385":
                continue
            block(L, """\
                Bytes per object (`bench/density.lua %d`, ext=1): rtlua's arena
                bytes in use (block headers included) against stock Lua's newlib
                malloc (chunk headers included) and, in brackets, the bytes stock Lua
                asks malloc for.
                """ % bd["density_n"])
            if side:
                L.append("| object | rtlua 32-bit | Lua 5.4.8 32-bit | rtlua "
                         "64-bit | Lua 5.4.8 64-bit |")
                L.append("|---|---:|---:|---:|---:|")
            else:
                L.append("| object | rtlua 32-bit | rtlua 64-bit |")
                L.append("|---|---:|---:|")
            rows = {}
            for x in r.of("density", "board", board=b):
                row = rows.get(x["object"], "| " + x["object"])
                row += " | " + (f2(x["rtlua"]) or "failed")
                if side:
                    row += " | %s (%s)" % (f2(x["luaref_spent"]) or "failed",
                                           f2(x["luaref_asked"]) or "-")
                rows[x["object"]] = row
            L.extend(row + " |" for row in rows.values())
            block(L, """

                The big list (`bench/biglist.lua %d`: that many nodes
                `{next = h, v = i}` kept, with 4 temporary tables made at each),
                rtlua in %s's own arena:

                | model | result | peak bytes in use | run-phase instructions |
                |---|---|---:|---:|""" % (bd["biglist_n"], b))
            for x in r.of("biglist", "board", board=b):
                L.append("| %d-bit | %s | %s | %s |" % (
                    x["model"], {"ok": "runs",
                                 "nomem": "**not enough memory**"}.get(
                                     x["status"], "**failed**"),
                    comma(x["peak"]), comma(x["run_ns"])))
            L.extend(["", ""])

    # ---- bench/run-image's records ------------------------------------------
    def image_text(self):
        """The flash images' tables and prose (docs/images.md)."""
        r = self.r

        def d(v):
            return "-" if v is None else v

        L = []
        block(L, """\
            ### Arena: a module from flash against compiled on the board

            Arena bytes a `require` of the module costs (after two full
            collections, `bench/image/arena/main.lua`): compiled on the board
            from source, and run from a flash image made by rtluac.

            | board | numbers | module | from source | from the image | image / source | image size |
            |---|---|---|---:|---:|---:|---:|""")
        for x in r.of("arena", "image"):
            head = "| %s | %d-bit | %s.lua" % (x["board"], x["model"],
                                              x["module"])
            if not x["fits"]:
                L.append(head + " | | larger than the image region | | |")
                continue
            src, im = x["source"], x["image"]
            L.append(head + " (%d lines) | %s | %s | %s | %d%s |" % (
                x["lines"], "does not compile (arena)" if src is None
                else src, d(im), "%.1f%%" % (100 * (im or 0) / src)
                if src else "-", x["image_size"],
                " (stripped)" if x["stripped"] else ""))
        block(L, """
            ### The collector's work: the module's code in RAM and in flash

            One full collection (`collectgarbage()`) of the heap that holds the
            module just required, as above: its instructions under
            `-icount shift=0` (rt.cycles), and the prototypes it traversed.
            From source the module's prototypes, constants and line information
            are in the arena and every cycle traverses them; from the image they
            are in flash and no cycle touches them.

            | board | numbers | module | from source: instructions | prototypes traversed | from the image: instructions | prototypes traversed |
            |---|---|---|---:|---:|---:|---:|""")
        for x in r.of("gc", "image"):
            L.append("| %s | %d-bit | %s.lua | %s | %s | %s | %s |" % (
                x["board"], x["model"], x["module"],
                "does not compile" if x["source_ins"] is None
                else x["source_ins"], d(x["source_protos"]),
                d(x["image_ins"]), d(x["image_protos"])))
        ups = r.of("startup", "image")
        main = next((x for x in ups if x["board"] == "mps2-an385"), {})
        block(L, """
            ### Start-up: reset to the first line of main.lua

            Instructions from the tick's start in `port_init` (a few hundred
            after reset) to the first line of the application's main.lua
            (`examples/app` with a first line that reads `rt.cycles()`),
            mps2-an385, 32-bit numbers: from source main.lua is compiled at
            boot; from the image (all three modules, %s bytes) the
            image is checked at boot (CRC, every pointer, the bytecode verifier).

            | way | instructions |
            |---|---:|
            | from source | %s |
            | from the image | %s |
            """ % (main.get("image_size") or "?", d(main.get("source")),
                   d(main.get("image"))))
        small = [x for x in ups if x["board"] != "mps2-an385"]
        if small:
            block(L, """\
                The same on the small board (32-bit numbers):

                | board | from source | from the image | image size |
                |---|---:|---:|---:|""")
            for x in small:
                L.append("| %s | %s | %s | %s |" % (
                    x["board"], "does not compile (arena)"
                    if x["source"] is None else x["source"], d(x["image"]),
                    d(x["image_size"])))
            L.append("")
        block(L, """\
            ### examples/app from source and from its image

            The controller, filter and telemetry modules, 1,000 periods of
            `rt.loop` at 1 kHz (32-bit numbers), figures its telemetry prints at
            the end. "Loaded" is the arena in use where the loop would start
            (its modules required, its objects made, after full collections):
            the RAM the application's code costs from source, and what is left
            of it from the image.

            | board | way | arena in use, loaded | arena in use at the end | deadline misses | GC steps, cycles | prototypes traversed by the collector |
            |---|---|---:|---:|---:|---|---:|""")
        for x in r.of("app", "image"):
            ram = r.first("ram", "image", field=x["way"], board=x["board"])
            head = "| %s | %s | %s |" % (
                x["board"], "from source" if x["way"] == "source"
                else "from the image", d(ram))
            if x["ran"]:
                L.append(head + " %s | %s | %s | %s |" % (
                    x["arena_end"], x["misses"], x["gc"], x["protos"]))
            else:
                L.append(head + " does not run: %s | | | |" %
                         x["error"].replace("|", "\\|"))
        block(L, """
            ### Flash

            Each firmware's flash (code, read-only data, the initial data), the
            share of it that `lang/image.c` (the checks, attaching, the
            searcher) takes, the images of examples/app and of
            bench/image/module1000.lua (with bench/image/arena/main.lua), and the
            image region the board keeps at the top of its flash.

            | board | numbers | firmware | of it lang/image.c | examples/app's image | module1000's image | image region |
            |---|---|---:|---:|---:|---:|---:|""")
        for x in r.of("flash", "image"):
            L.append("| %s | %d-bit | %s | %s | %s | %s | %s |" % (
                x["board"], x["model"], *("" if x[k] is None else x[k]
                                          for k in ("firmware", "image_o",
                                                    "app_image",
                                                    "module_image")),
                x["region"]))
        L.append("")
        mb = r.of("microbit", "image")
        if mb:
            block(L, """\
                ### microbit: the Lua test scripts from flash images

                microbit (16 KiB of RAM, a 7.5 KiB arena) cannot compile the
                topic scripts of tests/lua (from source it runs smoke.lua only);
                from images (tests/image/run) it runs those whose own data fit its
                arena.  The others (first line `--! medium` or `--! medium64`)
                need 8 to 30 KiB.

                | numbers | run from images | topic scripts | need more arena |
                |---|---:|---:|---:|""")
            for x in mb:
                L.append("| %d-bit | %d | %d | %d |" % (
                    x["model"], x["passed"], x["total"], x["medium"]))
            L.append("")
        return L

    # ---- bench/run-footprint's records --------------------------------------
    def footprint_text(self):
        """The footprint's three tables and their notes."""
        r = self.r
        L = ["| board | flash bytes | code | rodata | data | RAM bytes | bss "
             "| arena | stack |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        keys = ["flash", "code", "rodata", "data", "ram", "bss", "arena",
                "stack"]
        for x in r.of("image", "footprint"):
            if x["status"] == "ok":
                L.append("| %s |" % x["board"] + "".join(
                    " %s |" % comma(x[k]) for k in keys))
            else:
                L.append("| %s | %s | | | | | | | |" % (x["board"],
                                                      x["status"]))
        block(L, """
            32-bit number model, `make BOARD=b`; flash = code + rodata + data
            image, RAM = data + bss; the arena is the RAM left between .bss and
            the stack.

            | interpreter | target | numbers | after opening the libraries | at script start | after a full collection |
            |---|---|---|---:|---:|---:|""")
        for x in r.of("heap", "footprint"):
            head = "| %s | %s | %s |" % (x["interpreter"], x["target"],
                                        x["numbers"])
            if x["status"] == "ok":
                L.append(head + " %s | %s | %s |" % (
                    "—" if x["libs"] is None else comma(x["libs"]),
                    comma(x["start"]), comma(x["after"])))
            elif x["status"] == "published":
                L.append(head + " %s | | |" % comma(x["libs"]))
            else:
                L.append(head + " %s | | |" % x["status"])
        block(L, """
            Bytes of heap in use.  rtlua counts its arena's bytes with block
            headers; lua5.4 counts what it asked malloc for (host, 64-bit
            pointers and numbers), so its row is for scale, not a like-for-like
            figure.  "At script start" includes bench/footprint.lua's own chunk
            and the arg table (and, for rtlua, the garbage of compiling it); the
            full collection removes start-up garbage.  The published Lua 5.4.8
            figures are after luaL_openlibs.  Issue 6 target for rtlua on
            mps2-an385: at most 2,048 bytes after boot (measured here, not checked).

            | script | size | peak arena bytes | checksum |
            |---|---:|---:|---|""")
        for x in r.of("peak", "footprint"):
            if x["status"] == "ok":
                L.append("| %s | %s | %s | %s |" % (
                    x["script"], x["size"], comma(x["peak"]), x["checksum"]))
            else:
                L.append("| %s | %s | failed | |" % (x["script"], x["size"]))
        arena = r.first("arena", "footprint", field="bytes")
        block(L, """
            mps2-an385, 32-bit numbers, under QEMU: the highest arena bytes in use
            (block headers included) over the whole run: state, libraries,
            compiling and running the script, with the collector paced by time as
            usual.  The arena is %s bytes.""" % (
            "" if arena is None else comma(arena)))
        return L

    # ---- bench/run-latency-host's records ---------------------------------
    def latency_text(self):
        """The host latency table, its ratios and notes."""
        r = self.r
        cols = ["worst_gap_us", "p999_us", "median_us", "cpu_worst_gap_us",
                "cpu_p999_us"]
        L = ["| interpreter | worst gap µs | p99.9 µs | median µs | CPU worst "
             "gap µs | CPU p99.9 µs | iterations | live entries |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
        runs = r.of("latency", "latency-host")
        for x in runs:
            if x["status"] != "ok":
                L.append("| %s | failed | | | | | | |" % x["interpreter"])
            else:
                L.append("| %s |" % x["interpreter"] + "".join(
                    " %s |" % x[c] for c in cols + ["iterations", "live"]))
        ok = [x for x in runs if x["status"] == "ok"]
        if runs and runs[0] in ok:
            for x in runs[1:]:
                if x in ok:
                    L.append("| rtlua / %s |" % x["interpreter"] + "".join(
                        " %s |" % ("%.2f" % (runs[0][c] / x[c]) if x[c] > 0
                                   else "-") for c in cols) + " | |")
        h = r.first("host", "latency-host") or {}
        block(L, """
            One run each, one after the other in the same invocation (rtlua,
            lua5.4, lua5.4 incremental), on this host: %s CPUs, load average
            %s at the end.  The lua5.4 program runs its
            collector in generational mode (its lua.c asks for it); the incremental
            row is the same program after `collectgarbage("incremental")`.
            Host wall-clock figures are noisy: the process can be preempted, so a
            wall gap may include time when neither interpreter was running; the CPU
            columns (os.clock, 1 µs steps) leave that out.  Each timed iteration
            replaces one entry of a live table of small tables (a fresh table and
            string each time, fixed-seed order); gaps include reading both clocks.""" % (
            h.get("cpus", "?"), h.get("loadavg", "?")))
        c = r.first("collector", "latency-host")
        if c:
            block(L, """\
                rtlua's collector was paced by the host tick (SIGALRM; %s Hz
                seen during the loop), with its default settings, as `make run` uses
                them: %d%% utilisation, %s µs step budget, assist
                below %s free bytes.  rt.stats() after the loop:
                %s steps, worst %s µs, %s cycles completed, %s assists,
                %s emergency collections.""" % (
                c["tick_hz"], int(c["budget"] * 100), c["step_us"],
                c["reserve"], c["steps"], c["worst_step_us"], c["cycles"],
                c["assists"], c["emergencies"]))
        return L

    # ---- bench/gc_latency.c's table -------------------------------------
    def gc_table(self, L, job):
        """One row a run of gc_latency.c (JOB: gc or gc-real)."""
        L.append("| workload | arena | budget us | worst us | p99.9 us | "
                 "median us | steps | MMU 1ms | MMU 10ms | cycles | "
                 "emergencies | peak KiB |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        per_us = self.hz // 1000000

        def us1(c):  # as the C program wrote it: rounded to 0.1
            t = (c * 10 + per_us // 2) // per_us
            return "%d.%d" % (t // 10, t % 10)

        for x in self.r.all:
            if x.get("job") != job or x["kind"] not in ("run", "failed"):
                continue
            if x["kind"] == "failed":
                L.append("| %s | %d KiB | state_open failed |" % (
                    x["workload"], x["kib"]))
                continue
            m = {}
            for y in self.r.of("mmu", job, workload=x["workload"],
                               kib=x["kib"]):
                m[y["window_us"]] = y["permille"]

            def pct(w):
                v = m.get(w)
                return "-" if v is None else "%d.%d%%" % (v // 10, v % 10)

            L.append("| %s | %d KiB | %d | %s | %s | %s | %d | %s | %s | %d "
                     "| %d | %d |" % (
                         x["workload"], x["kib"], x["budget"] // per_us,
                         us1(x["worst"]), us1(x["p999"]), us1(x["median"]),
                         x["steps"], pct(1000), pct(10000), x["completed"],
                         x["emergencies"], x["peak_kib"]))

    def by_arena(self, L, head):
        L.append("| %s |" % head + "".join(" %d KiB |" % k
                                           for k in self.sizes))
        L.append("|---|" + "---:|" * len(self.sizes))

    def gc_sections(self, L):
        r = self.r
        block(L, """\
            ## Collector latency on %s

            `bench/gc_latency.c`: three C workloads (churn: small tables made
            and dropped; table: one table of integer and string keys rewritten;
            list: a live linked list relinked), each at five arena sizes, for
            %s ms of virtual time with SysTick pacing at 25%% utilisation
            and a %d µs step budget. Every step is recorded; p99.9 and median
            are exact. MMU is the lowest share of any window of that length left
            to the mutator.
            """ % (self.board, r.first("head", "gc", field="ms") or "",
                   BUDGET_US))
        self.gc_table(L, "gc")
        block(L, """
            Assist steps (run by allocation when free memory is under the
            reserve, beside the paced ones) among all steps:
            """)
        self.by_arena(L, "workload")
        for wl in ("churn", "table", "list"):
            a = {}
            for x in r.of("run", "gc", workload=wl):
                a[int(x["kib"])] = "%s of %s" % (x["assists"], x["steps"])
            L.append("| %s |" % wl + "".join(" %s |" % a.get(k, "-")
                                             for k in self.sizes))
        block(L, """
            Minimum mutator utilisation by window (lowest of the three workloads):
            """)
        self.by_arena(L, "window")
        for win in MMU_WINDOWS:
            m = {}
            for x in r.of("mmu", "gc", window_us=str(win)):
                k, v = int(x["kib"]), int(x["permille"])
                m[k] = min(m.get(k, v), v)
            if not m:
                continue
            label = "%d µs" % win if win < 1000 else "%s ms" % g6(win / 1000)
            L.append("| %s |" % label + "".join(
                " %s |" % ("%.1f%%" % (m[k] / 10) if k in m else "-")
                for k in self.sizes))
        block(L, """
            ### The same sweep at a real board's pace

            Under `-icount shift=0` the emulated core runs 1,000 instructions a
            microsecond, 40 times what a 25 MHz Cortex-M3 runs. Steps check the
            cycle counter, so their budget holds at any pace, but a work unit that
            overruns it costs its instructions: at `-icount shift=5` (32 ns an
            instruction, close to the real board) the overrun shows at its true
            length.
            """)
        self.gc_table(L, "gc-real")
        block(L, """
            Plots: [step histogram](gc-step-histogram.png),
            [MMU](gc-mmu.png), [worst step against arena](gc-worst-step.png).
            """)

    def stats_section(self, L):
        r, hz = self.r, self.hz
        st = r.of("stats", "stats-*")
        block(L, """\
            ## The collector seen from Lua: rt.stats()

            `bench/gc_stats.lua LIVE_KIB MS` on %s (the firmware's
            %s arena): keeps LIVE_KIB KiB of small tables and strings,
            replaces them at random and makes garbage for MS ms, then reads
            rt.stats(). Its median is that of a uniform sample of the steps
            (exact up to 128 steps), its p99.9 the top of the log2 histogram's
            bucket past 128 steps (capped at the worst step); emergencies are
            not steps; rt.stats() counts from start-up.

            | live KiB | ms | iterations | steps | worst µs | p99.9 µs ≤ | median µs | cycles | emergencies | in use at end |
            |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|""" % (
            self.board, "%d KiB" % (int(st[0]["arena"]) // 1024) if st
            else ""))
        for x in (y for k in self.lives for y in r.of("stats", "stats-" + k)):
            L.append("| %d | %d | %d | %d | %.1f | %.1f | %.1f | %d | %d | %d |"
                     % (x["live_kib"], x["ms"], x["iterations"], x["steps"],
                        x["worst_us"], x["p999_us"], x["median_us"],
                        x["cycles"], x["emergencies"], x["in_use"]))
        block(L, """
            Step-length histogram from `rt.stats().hist` (steps per log2 bucket):
            """)
        L.append("| cycles |" + "".join(" live %s KiB |" % k
                                        for k in self.lives))
        L.append("|---|" + "---:|" * len(self.lives))
        h = {}
        for x in r.of("hist", "stats-*"):
            h[(str(x["live_kib"]), int(x["bucket"]))] = int(x["steps"])
        bs = [b for _, b in h]
        lo, top = (min(bs), max(bs)) if bs else (0, 0)
        for b in range(lo, top + 1):
            L.append("| %d–%d (%.1f–%.1f µs) |" % (
                int(2 ** (b - 1)), 2 ** b - 1, 2 ** (b - 1) * 1e6 / hz,
                2 ** b * 1e6 / hz) +
                "".join(" %d |" % h.get((k, b), 0) for k in self.lives))
        L.append("")

    def control_section(self, L):
        r = self.r
        block(L, """\
            ## Control loop

            `examples/control_loop.lua RATE UTIL SECONDS` on %s: a PID loop
            through `rt.loop`, a fresh table and formatted string every period,
            the collector in the slack and at the tick (UTIL via `rt.budget`).
            A miss is an iteration that started after the next release; lateness
            is start minus release. The GC columns are from rt.stats(). Each
            run keeps its lateness trace (a number an iteration) for the plot,
            which adds to its garbage.

            | rate | utilisation | iterations | misses | worst lateness µs | worst GC step µs | GC steps | GC cycles |
            |---|---:|---:|---:|---:|---:|---:|---:|""" % self.board)

        def field(job, key):
            for x in r.of("ctl", job):
                if key in x:
                    return x[key]
            return None

        same = True
        for hzr in self.rates:
            seen = set()
            for u in self.utils:
                job = "ctl-%s-%s" % (hzr, u)
                late = re.fullmatch(r"([0-9.]*) us",
                                    field(job, "worst_late") or "")
                step = re.match(r"([0-9.]*) us",
                                field(job, "worst_step") or "")
                L.append("| %s | %s%% | %s | %s | %s | %s | %s | %s |" % (
                    hzr, u, field(job, "iterations") or "",
                    field(job, "misses") or "",
                    late.group(1) if late else "",
                    step.group(1) if step else "",
                    field(job, "steps") or "", field(job, "cycles") or ""))
                seen.add(tuple(field(job, k) for k in (
                    "misses", "worst_step", "steps", "cycles", "rest")))
            if len(seen) != 1 or None in next(iter(seen), (None,)):
                same = False
        L.append("")
        if same:
            block(L, """\
                At each rate the utilisation settings gave the same collector
                figures (steps, cycles, worst step) and the same misses: with
                `rt.loop` handing each period's slack to the collector, the setting
                made no measurable difference in these runs.
                """)
        block(L, """\
            Plot: [lateness over time](control-lateness.png) (the runs at 25%).
            """)

    def adv_table(self, L, adv, mode, cell):
        us = 1e6 / self.hz
        L.append("| workload | N | live KiB | pace |" +
                 "".join(" %s KiB |" % k for k in self.advkib))
        L.append("|---|---:|---:|---|" + "---:|" * len(self.advkib))
        order, v, live, nn = [], {}, {}, {}
        for a in adv:
            if a["mode"] != mode:
                continue
            key = (a["w"], a["pace"])
            if key not in order:
                order.append(key)
            if a["st"] == "nofit":
                c = "does not fit"
            elif a["st"] == "failed":
                c = "**failed**"
            elif cell == "step":
                c = "%.1f" % (num(a["worst"]) * us)
            elif cell == "loop":
                c = "%d, %.1f, %.1f" % (num(a["misses"]), num(a["late"]),
                                        num(a["worst"]) * us)
            else:
                c = "-" if a["mmu"] is None else "%.1f%%" % (
                    num(a["mmu"]) / 10)
                if a["mmu"] is not None and not a["exact"]:
                    c += " (mutator's view)"
            if a["st"] == "ok" and cell != "mmu" and num(a["emerg"]) > 0:
                c += " (%d emerg.)" % num(a["emerg"])
            if a["st"] == "nofit" and a["live"] is not None and \
                    num(a["live"]) <= num(a["kib"]) * 1024:
                c = "**out of memory**"
            v[key, a["kib"]] = c
            if a["live"] is not None:
                live[a["w"]] = a["live"]
            if a["n"] is not None:
                nn[a["w"]] = a["n"]
        for key in order:
            wl, pace = key
            L.append("| %s | %s | %s | shift=%s |" % (
                wl, nn.get(wl, "-"),
                "%.0f" % (num(live[wl]) / 1024) if wl in live else "-",
                pace) + "".join(" %s |" % v.get((key, k), "-")
                                for k in self.advkib))

    def adv_section(self, L, adv, P):
        r, board, p = self.r, self.board, self.p
        block(L, """\
            ## Adversarial workloads (issue 12)

            `bench/gc_adversarial.lua WORKLOAD N MODE` on %s, at each arena
            (`rtlua -A BYTES`: the state's whole arena, the script's own code
            included; 4 MiB lives in the board's PSRAM), at shift=0 and at
            shift=5 (`RTLUA_ICOUNT=shift=5,sleep=off`, 32 ns an instruction: a real
            board's pace). Every workload the script lists (`workloads`) runs at
            its own N. The live set is in_use after full collections at the
            workload's fullest point, in the largest arena (the script's own code
            and the state included: about 13 KiB, so 16 KiB leaves little). A run
            that ended with "not enough memory" is "does not fit" when its live set
            is larger than the arena, else **out of memory**. Step
            figures come from rt.stats() and count from start-up, the workload's
            build included.

            Worst step (µs; budget %d µs), paced at 25%% utilisation:
            """ % (board, BUDGET_US))
        self.adv_table(L, adv, "free", "step")
        block(L, """
            In `rt.loop` at 1 kHz, each body busy for 850 µs (150 µs of slack):
            misses, worst lateness (µs), worst step (µs):
            """)
        self.adv_table(L, adv, "loop", "loop")
        block(L, """
            Minimum mutator utilisation over 1 ms windows of the garbage
            phase, exact to the cycle: from the collector's own record of its
            steps (paced, assists, emergencies: `rt.stats("trace")`, a build
            with `RTLUA_GC_TRACE=4096`, whose arena is 48 KiB smaller), every
            window that starts at a step's start or ends at a step's end.
            "mutator's view" marks a run without the trace, where the figure
            is the mutator's own (a gap between its iterations longer than
            the fastest one), only as fine as an iteration (90 µs at
            shift=5):
            """)
        self.adv_table(L, adv, "free", "mmu")
        pa = p.get("pauseargs", "")
        block(L, """
            ### Mutator pauses

            `bench/pauses.lua%s` (the longest single operation, the
            collector stopped) and `bench/rehash.lua %s` (the longest table store
            while tables grow, from an `rt.loop` at 1 kHz with a %d µs step
            budget; 100 stores a period at shift=0, 3 at shift=5), in µs:

            | operation | shift=0 | shift=5 |
            |---|---:|---:|""" % (" " + pa if pa else "", p.get("rehashn"),
                                   BUDGET_US))
        for op in ("rep64k", "rep1m", "repsep", "intern", "longhash",
                   "collide"):
            c = [r.first("pause", "pauses-" + pace, op=op)
                 for pace in ("0", "5")]
            L.append("| %s | %s | %s |" % ((op,) + tuple(
                "%.1f" % self.us(x["worst"]) if x else "-" for x in c)))
        for kd in ("array", "hash", "field"):
            for md in ("free", "loop"):
                c = [r.first("rehash", "rehash-" + pace, table=kd, mode=md)
                     for pace in ("0", "5")]
                L.append("| rehash %s (%s) | %s | %s |" % ((kd, md) + tuple(
                    (x.get("worst_store_us") if x else None) or "-"
                    for x in c)))
        block(L, """
            The headline counts rep64k, intern, collide and the rt.loop stores.

            ### Short-lived `__gc` tables

            `bench/finpeak.lua %s`: that many tables with a `__gc`, each
            dropped at once. Peak bytes: rtlua's exact peak (`rtlua -T`), lua5.4's
            largest `collectgarbage("count")` after each table (lua5.4's standalone
            interpreter runs in generational mode), stock Lua 5.4.8's exact peak on
            %s (../shared/luaref, incremental mode). lua5.4's generational
            peak is sensitive to its start-up heap: one command-line argument more
            changed it several-fold, whatever N was, when this report was written.
            `bench/finpeak_tight.lua` makes the same tables in a loop that does
            nothing else (the count after each table halves the rate of garbage):
            only the exact peaks measure it, on %s at both paces. The headline
            is the worst ratio of the host's and the loop alone's.

            | where | rtlua | reference | ratio | finalizers run (rtlua, reference) |
            |---|---:|---:|---:|---|""" % (p.get("finn"), board, board))

        def fins(job):
            return r.first("finpeak", job, field="finalized") or ""

        kib = self.kib
        inc = "%.1f×" % (num(P["rt"]) / num(P["inc"])) \
            if P["rt"] and num(P["inc"]) > 0 else "-"
        L.append("| host | %s | %s (lua5.4) | %s× | %s, %s |" % (
            kib(P["rt"]), kib(P["lua"]), P["ratio"] or "-",
            fins("finpeak-rtlua"), fins("finpeak-lua")))
        L.append("| host, lua5.4 in incremental mode | %s | %s (lua5.4) | %s "
                 "| %s, %s |" % (kib(P["rt"]), kib(P["inc"]), inc,
                                 fins("finpeak-rtlua"),
                                 fins("finpeak-luainc")))
        L.append("| %s | %s | %s (Lua 5.4.8) | %s | %s, %s |" % (
            board, kib(P["brd"]), kib(P["ref"]), P["bratio"] or "-",
            fins("finpeak-board"), fins("finpeak-luaref")))
        for key, job, pace in (("t0", "finpeak-tight-board", "shift=0"),
                               ("t5", "finpeak-tight-board5", "shift=5")):
            t = P[key + "r"] + "×" if P[key + "r"] else "-"
            L.append("| %s, the loop alone (`bench/finpeak_tight.lua`), %s "
                     "| %s | %s (Lua 5.4.8) | %s | %s, %s |" % (
                         board, pace, kib(P[key]), kib(P["tref"]), t,
                         r.first("finpeak_tight", job,
                                 field="finalized") or "",
                         r.first("finpeak_tight", "finpeak-tight-luaref",
                                 field="finalized") or ""))
        L.append("")

    def tail_sections(self, L, F):
        r, board = self.r, self.board
        # the runners' own sections, carried as they print them
        for job, title, ran, absent in (
                ("latency-host", "## Collector pauses on the host",
                 "`bench/run-latency-host` (raw gaps in "
                 "build/bench/latency-host-*.dat):",
                 "Not run: bench/run-latency-host is not in this tree."),
                ("footprint", "## Footprint", "`bench/run-footprint`:",
                 "`bench/run-footprint`: not run (not in this tree)."),
                ("image", "## Flash images (issue 15)",
                 "`bench/run-image` (docs/images.md):",
                 "`bench/run-image`: not run (not in this tree).")):
            L.extend([title, ""])
            if job == "footprint":
                block(L, """\
                    Arena in use after boot on %s, all libraries open, after a full
                    collection (`tests/unit/test_romtab.c`, the figure `make size` prints): %s bytes.
                    """ % (board, F["boot"] or "-"))
            if r.ran(job):
                L.extend([ran, ""] + {"latency-host": self.latency_text,
                                      "footprint": self.footprint_text,
                                      "image": self.image_text}[job]())
            else:
                L.append(absent)
            L.append("")
        block(L, """\
            ## Soak (issue 17)

            `bench/soak.lua %s` on %s at `RTLUA_ICOUNT=shift=5,sleep=off`
            (32 ns an instruction): `rt.loop` at 1 kHz, the workload changing
            every second among churn, a big table, strings, coroutines, a weak
            cache and finalizers.  After the first minute (a sixth of a shorter
            run) and at the end, the workloads' live data is dropped and two full
            collections run; the arena in use is measured there.

            ```""" % (self.p.get("soaksecs"), board))
        for x in r.of("soak", "soak"):
            for k, v in x.items():
                if k in ("runner", "kind", "units", "job"):
                    continue
                kv = "%s %s" % (k, SOAK_FORMAT.get(k, "%s") % v)
                if k.startswith("largest_free_"):  # beside its arena_
                    L[-1] += " " + kv
                else:
                    L.append("@soak " + kv)
        mhz = self.hz // 1000000
        block(L, """\
            ```

            ## Plots

            - [Collector step lengths (log scale)](gc-step-histogram.png)
            - [Minimum mutator utilisation by window](gc-mmu.png)
            - [Worst step against arena size](gc-worst-step.png)
            - [Control-loop lateness over time](control-lateness.png)

            ## How this is measured

            - Host speed is an instruction count (callgrind), not a time: it does
              not depend on the machine's load, and lua5.4 runs the same scripts
              in the same run.
            - On the boards QEMU runs with `-icount shift=0,sleep=off`: virtual
              time advances 1 ns an instruction, so a run does not depend on the
              host either. QEMU does not emulate DWT CYCCNT: port_cycles() counts
              the SysTick clock (%d MHz), so 1 µs here is 1,000
              instructions. A real %d MHz Cortex-M3 runs about
              %d instructions a microsecond: the step budget holds
              there too (steps check the cycle counter), but the overrun past the
              budget (one work unit, measured here in instructions) would be about
              %d× longer in real time.
            - The run took %d s of wall-clock time on this machine.""" % (
            mhz, mhz, mhz, 1000 // mhz,
            int(time.time()) - int(self.p.get("start", time.time()))))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: bench/report.py RECORDS RAW RES")
    recs = Records(sys.argv[1])
    rep = Report(recs, sys.argv[2], sys.argv[3])
    lines = rep.write()
    path = os.path.join(sys.argv[3], "latest.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    if rep.failed:
        say("failed: " + " ".join(rep.failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
