"""Seed 003 (Hsieh 1995) on the Testbed: shared regions and computation migration measured by
firmware/tos/programs/rgnbench.c under TOS, in both network-interface modes (1994: the DMA
reaches only the controller's buffer and the processor copies, as on the CM-5; dma-anywhere: the
DMA works from and to memory, as on Alewife). Each experiment runs the simulator, reads the
program's lines from earth's console, fits the seed's regressions and writes results.md with the
seed's Alewife and CM-5 values beside ours.

  testbed-experiment seed003-ops|seed003-migration|seed003-phases|seed003-micro|seed003-cnet|seed003-btree|seed003 [--size reduced] [--doc3 FILE]
  testbed-experiment seed003-btree --doc3 FILE: only the B-tree's section of FILE regenerated
"""
import glob
import os
import re
import shutil
import time

from . import balance, paths, runner
from .stats import fit
from .trace import board_name

NAMES = ["seed003-ops", "seed003-migration", "seed003-phases", "seed003-micro", "seed003-cnet", "seed003-btree"]
MODES = ["1994", "dma-anywhere"]
MODE_LABEL = {"1994": "1994 NI (processor copies; the CM-5's side)", "dma-anywhere": "DMA-anywhere NI (Alewife's side)"}
# The B-tree (7.3.2): machine, lookup percentages, runs, operations per thread in run 1, initial
# keys, leaf and inner-node capacities. The seed: 32 processors, 200,000 keys, 500/500 (about
# 2000/4000 bytes), 0..100% lookups, 6 runs of 100 i operations. Here every board may have to
# hold a copy of every node, and a process may hold 64 region records on a board
# (regions_per_process, tos.toml), so the tree and its spare leaves (one per leaf, for splits) stay
# under 64 regions: the seed's node sizes with 9,000 keys (about 26 leaves and as many spares).
BTREE_FULL = {"boards": 32, "pcts": "0,20,50,80,90,100", "runs": 3, "iters": 6, "init": 9000, "leaf": 500,
              "inner": 500, "fill": 69}
# CTest: 8 boards, the seed's node sizes, five leaves filled to 95% so that leaves split (the
# splits and the checks after them run).
BTREE_REDUCED = {"boards": 8, "pcts": "0,100", "runs": 2, "iters": 4, "init": 2370, "leaf": 500, "inner": 500,
                 "fill": 95}
SIZES = {
    "full": {"ops": (64, 4), "mig": ("16,64,128,256,512,768,1024,1536,2048", 33, 4),
             "micro": ("0,10,20,30,40,50,60,70,80,90,100", 5, 20),
             # the counting network: machine (boards), client counts, runs, iterations, methods
             "cnet": (58, "1,2,4,8,16,32", 3, 8, ("data", "static", "repeat", "static+oam", "static+onward",
                                                   "static+oam+onward")), "btree": BTREE_FULL,
             "phases": 256, "micro_timed": ("50,90", 300), "cnet_cm5": ("16,32", (0, 1, 2, 3, 4, 5), 4, 12)},
    "reduced": {"ops": (9, 2), "mig": ("16,256,2048", 17, 4), "micro": ("0,50,100", 3, 6),
                "cnet": (40, "1,12", 3, 4, ("data", "static", "static+oam", "static+oam+onward")), "btree": BTREE_REDUCED, "phases": 256,
                "micro_timed": ("50", 30), "cnet_cm5": ("12", (0,), 3, 4)},
}
METHODS = ["data", "rpc", "static", "repeat"]
# The seed ran its migrated computations as optimistic active messages (6.2.3): each method that
# migrates computation runs again with "+oam" (the home runs it in the message handler).
OAM_METHODS = [m + "+oam" for m in METHODS[1:]]
MICRO_METHODS = METHODS + OAM_METHODS
ABORTS = ["busy", "page", "budget", "call"]
ABORT_LABEL = {"busy": "region busy", "page": "page away", "budget": "past the budget", "call": "system call"}
OPS = [("read_hit", "start read, hit"), ("end_read", "end read"), ("read_miss", "start read, miss, no invalidations"),
       ("write_inv1", "start write, miss, one invalidation"),
       ("write_inv3", "start write, miss, three invalidations (seed: six)")]
# Tables 7.1 and 7.2 (microseconds): CM-5, Alewife
SEED_T71 = {"read_hit": (2.1, 3.5), "end_read": (2.8, 3.9), "read_miss": (62.3, 58.5), "write_inv1": (92.2, 99.0),
            "write_inv3": (130.1, 170.5)}
SEED_T72 = {"read_miss": (126.5, 70.1), "write_inv1": (156.2, 107.8), "write_inv3": (193.8, 180.6)}


class Rep:
    def __init__(self, name, title, out):
        self.name, self.title, self.out = name, title, out
        self.checks, self.figures, self.parts = [], [], []

    def check(self, what, ok, detail):
        self.checks.append((what, bool(ok), detail))

    def fig(self, number, name, caption, panels):
        from . import plots  # matplotlib: only when plotting
        files = plots.figure(os.path.join(self.out, "figures"), name, "Figure %s: %s" % (number, caption), panels)
        self.figures.append((number, os.path.relpath(files[0], self.out), caption))

    def markdown(self, fig_prefix=None, level=2):
        h = "#" * level
        out = ["%s %s\n" % (h, self.title)] + [p + "\n" for p in self.parts]
        for number, path, caption in self.figures:
            p = path if fig_prefix is None else os.path.join(fig_prefix, os.path.basename(path))
            out.append("![Figure %s](%s)\n\n*Figure %s: %s* (also as SVG beside it)\n" % (number, p, number, caption))
        if self.checks:
            out.append("Checks (each can fail):\n")
            for what, ok, detail in self.checks:
                out.append("- %s **%s**: %s" % (what, "holds" if ok else "FAILS", detail))
            out.append("")
        return "\n".join(out) + "\n"

    def finish(self, size, t0):
        """The run's end for a one-report experiment: its size and host time in the report,
        results.md written, one summary line and the failed checks printed. Returns (seconds,
        failed checks)."""
        secs = time.time() - t0
        self.parts.append("Size: %s; simulated in %.0f s on this host." % (size, secs))
        with open(os.path.join(self.out, "results.md"), "w") as f:
            f.write(self.markdown(level=1))
        bad = [c for c in self.checks if not c[1]]
        print("%-18s %s  %3.0f s  %s" % (self.name, "ok  " if not bad else "FAIL", secs, os.path.join(self.out, "results.md")))
        for what, _ok, detail in bad:
            print("  FAIL %s: %s" % (what, detail))
        return secs, bad


def _run(args, name, rc, mode, out, program="rgnbench", config=None, boards=6):
    d = os.path.join(out, mode)
    log, _ = runner.run_testbed(args.bin_dir, args.firmware_dir, name, [program], rc, d, quiet=args.quiet,
                                sets=[('centrenet.dma="%s"' if config else "centrenet.dma=%s") % mode], config=config)
    con = runner.console(d, "earth")
    if "%s: done" % program not in con:
        names = [board_name(b) for b in range(boards)]
        fails = re.findall(r"%s: FAIL.*" % program, "".join(runner.console(d, b) for b in names[1:boards]))
        raise runner.RunError("%s (%s): %s did not finish: %s (see %s)" % (name, mode, program, "; ".join(fails) or
                                                                          "no end line", d))
    return con


OAM_LINE = re.compile(r"optimistic active messages: (\d+) completed, (\d+) aborted \(region busy (\d+), page away "
                      r"(\d+), past the budget (\d+), system call (\d+)\), (\d+) faulted")


def _kernel_lines(d, pattern):
    """The sums of a pattern's groups over the end-of-run lines of every board of a run (d)."""
    tot = None
    for f in glob.glob(os.path.join(d, "*.console.log")):
        for m in pattern.finditer(open(f, errors="replace").read()):
            v = [int(x) for x in m.groups()]
            tot = v if tot is None else [x + y for x, y in zip(tot, v)]
    return tot or [0] * pattern.groups


def oam_counts(d):
    """The kernels' end-of-run lines of a run's boards (every *.console.log in d) summed: how its
    optimistic active messages ended."""
    return dict(zip(["completed", "aborted"] + ABORTS + ["faulted"], _kernel_lines(d, OAM_LINE)))


def oam_sentence(c):
    n = c["completed"] + c["aborted"]
    return ("%d handlers began or were refused: %d completed (%.0f%%), %s aborted (%s), %d faulted"
            % (n, c["completed"], 100.0 * c["completed"] / n if n else 0, c["aborted"],
               ", ".join("%s %d" % (ABORT_LABEL[a], c[a]) for a in ABORTS), c["faulted"]))


def _slope(points):
    xs, ys = zip(*sorted(points))
    return fit(xs, ys)


# ---- Tables 7.1 / 7.2 ----
def ops(rep, args, size):
    maxn, step = SIZES[args.size]["ops"]
    res = {}
    for mode in MODES:
        for rsize in (16, 256):
            con = _run(args, "seed003-ops", "earth rgnbench ops %d %d %d\n" % (rsize, maxn, step), mode,
                       os.path.join(rep.out, str(rsize)))
            pts = {}
            for m in re.finditer(r"^ops (\w+) (\d+) (\d+)", con, re.M):
                pts.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3))))
            res[(mode, rsize)] = {k: _slope(v) for k, v in pts.items()}
    for rsize, seed in ((16, SEED_T71), (256, SEED_T72)):
        lines = ["**Table 7.%d** (%d-byte regions), microseconds per operation: the slope of the regression over "
                 "n = 1..%d regions (step %d), as the seed; r² in brackets. Our client is air, the home earth; the "
                 "Testbed has five slaves, so the most invalidations one write can cause is three, not six.\n"
                 % (1 if rsize == 16 else 2, rsize, maxn, step),
                 "| operation | 1994 NI | DMA-anywhere NI | CM-5 (seed) | Alewife (seed) |", "|---|---|---|---|---|"]
        for key, label in OPS:
            if rsize == 256 and key not in seed:
                continue
            c = []
            for mode in MODES:
                f = res[(mode, rsize)].get(key)
                c.append("%.0f (%.3f)" % (f["slope"], f["r2"]) if f else "-")
            cm5, ale = seed.get(key, ("-", "-"))
            lines.append("| %s | %s | %s | %s | %s |" % (label, c[0], c[1], cm5, ale))
        rep.parts.append("\n".join(lines) + "\n")
        for mode in MODES:
            r = res[(mode, rsize)]
            bad = [k for k, f in r.items() if not (f["r2"] > 0.9)]
            rep.check("linear in n (%s, %d bytes)" % (mode, rsize), not bad,
                      "every operation's time grows linearly with the regions touched (r² > 0.9)%s"
                      % (": not " + ", ".join(bad) if bad else ""))
            order = [r[k]["slope"] for k in ("read_hit", "read_miss", "write_inv1", "write_inv3") if k in r]
            rep.check("ordering (%s, %d bytes)" % (mode, rsize), order == sorted(order) and len(order) == 4,
                      "hit < read miss < write miss with one invalidation < with three: %s µs"
                      % ", ".join("%.0f" % v for v in order))
    for mode in MODES:
        a, b = res[(mode, 16)]["read_miss"]["slope"], res[(mode, 256)]["read_miss"]["slope"]
        rep.check("size costs (%s)" % mode, b > a, "a 256-byte read miss (%.0f µs) costs more than a 16-byte one (%.0f µs)"
                  % (b, a))
    a, b = res[("1994", 256)]["read_miss"]["slope"], res[("dma-anywhere", 256)]["read_miss"]["slope"]
    rep.check("DMA pays (256 bytes)", b < a, "a 256-byte read miss is cheaper with DMA-anywhere (%.0f µs) than with the "
              "1994 NI (%.0f µs), as Alewife's is cheaper than the CM-5's (70.1 vs 126.5 µs)" % (b, a))
    rep.results = res
    return res


# ---- Figures 7-1..7-6 ----
def migration(rep, args, size):
    sizes, maxn, step = SIZES[args.size]["mig"]
    res = {}
    for mode in MODES:
        pts = {}
        for oam in ("", " oam"):  # the second run: the home runs the migrated computations as handlers
            con = _run(args, "seed003-migration", "earth rgnbench mig %s %d %d%s\n" % (sizes, maxn, step, oam), mode,
                       os.path.join(rep.out, "oam") if oam else rep.out)
            for m in re.finditer(r"^mig (\w+) (\d+) (\d+) (\d+)", con, re.M):
                if oam and m.group(1) != "dyncomp":
                    continue
                kind = "oam" if oam else m.group(1)
                pts.setdefault((kind, int(m.group(2))), []).append((int(m.group(3)), int(m.group(4))))
        cost = {}
        for (kind, s), p in pts.items():
            cost.setdefault(kind, {})[s] = _slope(p)["slope"]
        res[mode] = cost
        xs = sorted(cost["data"])
        fig_no = {"dma-anywhere": ("7-1/7-2", "Alewife"), "1994": ("7-5/7-6", "CM-5")}[mode]
        rep.fig(fig_no[0] + " (" + mode + ")", "migration-" + mode,
                "cost of one remote read vs region size, %s (the seed's %s figures)" % (MODE_LABEL[mode], fig_no[1]),
                [{"title": "data migration (CRL calls), dynamic data migration and dynamic computation migration (null "
                           "computation), each the slope over 1..%d regions" % maxn,
                  "xlabel": "region size (bytes)", "ylabel": "µs per access",
                  "series": [{"x": xs, "y": [cost[k][x] for x in xs], "label": lab, "style": "line"}
                             for k, lab in (("data", "data migration"), ("dyndata", "dynamic data migration"),
                                            ("dyncomp", "dynamic computation migration"),
                                            ("oam", "dynamic computation migration, optimistic active messages"))]}])
        d, c = cost["data"], cost["dyncomp"]
        big, small = xs[-1], xs[0]
        rep.check("data grows with size (%s)" % mode, d[big] > 1.2 * d[small],
                  "data migration: %.0f µs at %d bytes, %.0f µs at %d" % (d[small], small, d[big], big))
        flat = max(c.values()) / min(c.values())
        rep.check("computation flat (%s)" % mode, flat < 1.15,
                  "computation migration varies by %.0f%% over the sizes (%.0f..%.0f µs)"
                  % ((flat - 1) * 100, min(c.values()), max(c.values())))
        if mode == "1994":  # the CM-5's side: computation migration wins for large regions there
            rep.check("computation wins for large regions (%s)" % mode, c[big] < d[big],
                      "at %d bytes computation migration %.0f µs, data migration %.0f µs: %.0f%% faster (the CM-5's "
                      "curves cross too)" % (big, c[big], d[big], (d[big] / c[big] - 1) * 100))
        o = cost["oam"]
        rep.check("computation as OAM flat (%s)" % mode, max(o.values()) / min(o.values()) < 1.15,
                  "computation migration as optimistic active messages varies by %.0f%% over the sizes (%.0f..%.0f µs)"
                  % ((max(o.values()) / min(o.values()) - 1) * 100, min(o.values()), max(o.values())))
        # size by size: each size's handler against the same size's server thread (the sizes' own
        # costs differ by more than the two ways do)
        rep.check("OAM cheaper than a server thread (%s)" % mode, all(o[x] < c[x] for x in o if x in c),
                  "one computation migration as an optimistic active message against a server thread, by size: %s"
                  % ", ".join("%d bytes %.0f against %.0f µs" % (x, o[x], c[x]) for x in sorted(o) if x in c))
        fd = fit(xs, [d[x] for x in xs])
        mc = sum(c.values()) / len(c)
        res.setdefault("crossover", {})[mode] = (mc - fd["intercept"]) / fd["slope"] if fd["slope"] > 0 else float("inf")
        mo = sum(o.values()) / len(o)
        res.setdefault("crossover_oam", {})[mode] = ((mo - fd["intercept"]) / fd["slope"] if fd["slope"] > 0
                                                     else float("inf"))
        cross_o = next((x for x in xs if o[x] < d[x]), None)
        cross = next((x for x in xs if c[x] < d[x]), None)
        rep.parts.append("%s: data migration %s µs; dynamic data migration %s; computation migration %s (sizes %s). "
                         "Computation migration is faster %s; at %d bytes it is %.0f%% faster (negative: slower; the seed: 111%% "
                         "on Alewife, 71%% on the ideal Alewife; on the CM-5 computation migration also wins for "
                         "large regions). Dynamic data migration costs %.0f%% more than pure data migration at 256 "
                         "bytes (Alewife about 7%%; on the CM-5 it needs an extra round trip)."
                         % (MODE_LABEL[mode], ", ".join("%.0f" % d[x] for x in xs),
                            ", ".join("%.0f" % cost["dyndata"][x] for x in xs), ", ".join("%.0f" % c[x] for x in xs),
                            ", ".join(map(str, xs)), "from %d bytes on" % cross if cross else "at no size measured", big, (d[big] / c[big] - 1) * 100,
                            (cost["dyndata"].get(256, float("nan")) / d.get(256, float("nan")) - 1) * 100))
        rep.parts.append("%s, computation migration as optimistic active messages: %s µs (sizes %s). It is faster than "
                         "data migration %s; at %d bytes it is %.0f%% faster (negative: slower); at %d bytes it costs "
                         "%.0f µs against data migration's %.0f µs."
                         % (MODE_LABEL[mode], ", ".join("%.0f" % o[x] for x in xs), ", ".join(map(str, xs)),
                            "from %d bytes on" % cross_o if cross_o else "at no size measured", big,
                            (d[big] / o[big] - 1) * 100, small, o[small], d[small]))
    co = res.pop("crossover")
    coo = res.pop("crossover_oam")
    rep.parts.append("Crossover as optimistic active messages (data migration's fitted line meets their mean cost): "
                     "%.0f bytes with the 1994 NI, %.0f bytes with DMA-anywhere." % (coo["1994"], coo["dma-anywhere"]))
    rep.check("DMA moves the crossover out (OAM)", coo["dma-anywhere"] > coo["1994"],
              "as optimistic active messages: %.0f bytes with the 1994 NI, %.0f with DMA-anywhere"
              % (coo["1994"], coo["dma-anywhere"]))
    rep.check("DMA moves the crossover out", co["dma-anywhere"] > co["1994"],
              "data migration's line meets computation migration's cost at %.0f bytes with the 1994 NI and at %.0f "
              "bytes with DMA-anywhere: cheap data movement favours data migration (the seed's architectural finding)"
              % (co["1994"], co["dma-anywhere"]))
    rep.parts.append("Crossover (data migration's fitted line meets computation migration's mean cost): %.0f bytes with "
                     "the 1994 NI, %.0f bytes with DMA-anywhere." % (co["1994"], co["dma-anywhere"]))
    slope = {m: (res[m]["data"][max(res[m]["data"])] - res[m]["data"][min(res[m]["data"])]) /
             (max(res[m]["data"]) - min(res[m]["data"])) for m in MODES}
    rep.check("DMA moves data faster", slope["dma-anywhere"] < slope["1994"],
              "data migration's cost per byte: %.2f µs with DMA-anywhere, %.2f µs with the 1994 NI (the seed: Alewife "
              "moves about 18 MB/s, the CM-5 9 MB/s)" % (slope["dma-anywhere"], slope["1994"]))
    rep.parts.append("Marginal cost of data migration: %.2f µs per byte with the 1994 NI (%.2f MB/s), %.2f µs per byte "
                     "with DMA-anywhere (%.2f MB/s)." % (slope["1994"], 1 / slope["1994"] if slope["1994"] > 0 else 0,
                                                          slope["dma-anywhere"],
                                                          1 / slope["dma-anywhere"] if slope["dma-anywhere"] > 0 else 0))
    rep.results = res
    return res


# ---- One migration taken apart (the monitor's trace) ----
EARTH, AIR = 1, 2  # the regions' home and the client (rgnbench)
PHASES = [("trap", "the caller's trap (system call to the request posted)"),
          ("out", "request out and flight (posted to the home's handler)"),
          ("dispatch", "the home's dispatch (handler to the computation's start; data: to the data sent)"),
          ("decide", "of it, the decision (handler to RGN_CM_COMPUTE)"),
          ("setup", "of it, the start (RGN_CM_COMPUTE to the computation's start)"),
          ("user", "the user computation (its start to the result posted)"),
          ("reply", "reply out and flight (posted to the caller's handler)"),
          ("resume", "the caller's resume (handler to the thread running)"),
          ("total", "total (the caller's trap to its resume)")]
PH_COLS = [("data", "data migration"), ("thread", "computation, server thread"),
           ("oam", "computation, optimistic active message")]


def _after(evs, t, board, name):
    return next((e for e in evs if e.t > t and e.board == board and e.name == name), None)


def _before(evs, t, board, name):
    return next((e for e in reversed(evs) if e.t < t and e.board == board and e.name == name), None)


def phases_of(evs, kind):
    """One migration's phases (µs) from the trace of `rgnbench mig SIZE 2 1`: kind "data" is the
    client's (air's) last read miss (a miss right after its RGN_START), "comp" its last migration
    (the null computation run at earth): each the second of its kind in a row, so that no
    first-time cost (a handler stack mapped, a page brought) is in it. Every boundary is an event
    of the regions, profile or cpu class; None if one is missing."""
    ra = [e for e in evs if e.board == AIR and e.name.startswith("RGN_")]
    misses = [e for i, e in enumerate(ra) if e.name == "RGN_MISS" and (kind != "data" or
                                                                      (i and ra[i - 1].name == "RGN_START"))]
    if not misses:
        return None
    miss = misses[-1]
    trap = _before(evs, miss.t, AIR, "SYSCALL")
    rx = _after(evs, miss.t, EARTH, "RGN_RX")
    if kind == "data":
        home = _after(evs, rx.t, EARTH, "RGN_DATA") if rx else None
        start = sent = home
    else:
        home = _after(evs, rx.t, EARTH, "RGN_CM_COMPUTE") if rx else None
        sent = _after(evs, home.t, EARTH, "RGN_CM_RESULT") if home else None
        # a handler begins at its grant; a server thread when the home's loop gives it the CPU
        g = _after(evs, home.t, EARTH, "RGN_GRANTED") if home else None
        u = _after(evs, home.t, EARTH, "USER_ON") if home else None
        start = g if g and sent and g.t < sent.t and (not u or g.t < u.t) else u
    back = _after(evs, sent.t, AIR, "RGN_RX") if sent else None
    run = _after(evs, back.t, AIR, "USER_ON") if back else None
    if None in (trap, rx, home, start, sent, back, run):
        return None
    us = lambda a, b: (b.t - a.t) * 1000.0
    more = {} if kind == "data" else {"decide": us(rx, home), "setup": us(home, start)}
    return {**more, "trap": us(trap, miss), "out": us(miss, rx), "dispatch": us(rx, start), "user": us(start, sent),
            "reply": us(sent, back), "resume": us(back, run), "total": us(trap, run)}


def phases(rep, args, size):
    from .trace import read
    rsize = SIZES[args.size]["phases"]
    res = {}
    for mode in MODES:
        for oam in ("", " oam"):
            d = os.path.join(rep.out, mode + ("-oam" if oam else ""))
            rc = ("master logger -q 400 -o monitor.raw &\nearth dgl @* +regions +profile +cpu\n"
                  "earth rgnbench mig %d 2 1%s\n" % (rsize, oam))
            runner.run_testbed(args.bin_dir, args.firmware_dir, "seed003-phases", ["rgnbench", "dgl", "logger"], rc, d,
                               quiet=args.quiet, sets=["centrenet.dma=%s" % mode])
            if "rgnbench: done" not in runner.console(d, "earth"):
                raise runner.RunError("seed003-phases (%s%s): rgnbench did not finish (see %s)" % (mode, oam, d))
            tr = read(os.path.join(d, "monitor.trace.txt"))
            rep.check("the trace whole (%s%s)" % (mode, oam), not tr.lost_somewhere(),
                      "no SMI FIFO overflowed: %d events" % len(tr.events))
            evs = tr.events
            if not oam:
                res[(mode, "data")] = phases_of(evs, "data")
            res[(mode, "oam" if oam else "thread")] = phases_of(evs, "comp")
            for k in (("oam",) if oam else ("data", "thread")):
                rep.check("every phase seen (%s, %s)" % (mode, k), res[(mode, k)] is not None,
                          "each boundary event of the %s found in the trace" % dict(PH_COLS)[k])
    cols = [(m, k) for m in MODES for k, _ in PH_COLS]
    table = ["| phase | " + " | ".join("%s (%s)" % (dict(PH_COLS)[k], "1994 NI" if m == "1994" else "DMA-anywhere NI")
                                       for m, k in cols) + " |", "|---|" + "---|" * len(cols)]
    for key, label in PHASES:
        cells = []
        for m, k in cols:
            v = (res.get((m, k)) or {}).get(key)
            cells.append("-" if v is None or (k == "data" and key == "user") else "%.0f" % v)
        table.append("| %s | %s |" % (label, " | ".join(cells)))
    rep.parts.append(
        "**One migration taken apart**, µs on the monitor's global clock: one read of a %d-byte region homed on earth "
        "by a thread on air, by data migration (rgn_start_read on a flushed copy) and by computation migration of a "
        "null computation (cm_call, policy RPC) run at earth in its server thread or as an optimistic active message "
        "(`rgnbench mig %d 2 1 [oam]` with the regions, profile and cpu event classes on; of the two of each kind in a row, the second: no first-time cost is in it). Boundaries: the caller's "
        "SYSCALL, its RGN_MISS (the request posted), the home's RGN_RX (its handler begins), the home's RGN_DATA "
        "(data) or RGN_CM_COMPUTE then the computation's start (a handler's RGN_GRANTED, a server thread's USER_ON) and "
        "RGN_CM_RESULT, the caller's RGN_RX and its thread's USER_ON. A flight includes the sender's send phase and the "
        "receiver's receive phase (the Centrenet transfer has no event of its own). Data migration has no user "
        "computation at the home: its access runs at the caller after the resume.\n\n%s\n"
        % (rsize, rsize, "\n".join(table)))
    for m in MODES:
        t, o, dm = res.get((m, "thread")), res.get((m, "oam")), res.get((m, "data"))
        if t and o:
            rep.check("OAM runs the computation sooner done (%s)" % m, o["user"] < t["user"],
                      "the computation from its start to its result posted: %.0f µs as an optimistic active message "
                      "(no system call), %.0f µs in a server thread" % (o["user"], t["user"]))
        if t and dm:
            rep.check("data flies longer than a request (%s, %d bytes)" % (m, rsize), dm["reply"] > t["reply"],
                      "the data's reply out and flight %.0f µs, a computation's result %.0f µs"
                      % (dm["reply"], t["reply"]))
    rep.results = res
    return res


# ---- Figures 7-7..7-10 ----
def micro(rep, args, size):
    pcts, runs, iters = SIZES[args.size]["micro"]
    res = {}
    for mode in MODES:
        for method in MICRO_METHODS:
            con = _run(args, "seed003-micro", "earth rgnbench micro %s %s %d %d\n" % (method, pcts, runs, iters), mode,
                       os.path.join(rep.out, method))
            pts = {}
            for m in re.finditer(r"^micro (\S+) (\d+) (\d+) (\d+)", con, re.M):
                if m.group(1) == method:
                    pts.setdefault(int(m.group(2)), []).append((int(m.group(3)), int(m.group(4))))
            res[(mode, method)] = {p: _slope(v)["slope"] for p, v in pts.items()}
            if method in OAM_METHODS:  # the home's counts after each share: each share's own by difference
                was = [0] * 6
                for m in re.finditer(r"^micro-oam (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$", con, re.M):
                    now = [int(x) for x in m.groups()[1:]]
                    d = [a - b for a, b in zip(now, was)]
                    was = now
                    res[("oam", mode, method, int(m.group(1)))] = dict(zip(["computed", "completed"] + ABORTS, d))
    for mode, (fs, fr, machine) in (("dma-anywhere", ("7-7", "7-8", "Alewife")), ("1994", ("7-9", "7-10", "CM-5"))):
        for h, number in (("static", fs), ("repeat", fr)):
            xs = sorted(res[(mode, h)])
            rep.fig("%s (%s)" % (number, mode), "micro-%s-%s" % (h, mode),
                    "cost per microbenchmark iteration under %s, %s (the seed's %s figure): 5 slaves, one thread each, "
                    "a 256-byte region" % (h.upper(), MODE_LABEL[mode], machine),
                    [{"title": "slope over %d runs of i x %d iterations per thread" % (runs, iters),
                      "xlabel": "reads (%)", "ylabel": "ms per iteration",
                      "series": [{"x": xs, "y": [res[(mode, k)][x] / 1000.0 for x in xs], "label": lab, "style": "line"}
                                 for k, lab in ((h, h.upper() + " heuristic"),
                                                (h + "+oam", h.upper() + " heuristic, optimistic active messages"),
                                                ("data", "data migration"),
                                                ("rpc", "RPC (computation migration always)"),
                                                ("rpc+oam", "RPC, optimistic active messages"))]}])
        lo, hi = min(res[(mode, "data")]), max(res[(mode, "data")])
        d0, c0 = res[(mode, "data")][lo], res[(mode, "rpc")][lo]
        rep.check("writes: computation beats data (%s)" % mode, c0 < d0,
                  "at %d%% reads computation migration %.1f ms per iteration, data migration %.1f ms: %.1f times faster "
                  "(seed: 2.9 on Alewife, 4.6 on the CM-5)" % (lo, c0 / 1000, d0 / 1000, d0 / c0 if c0 else 0))
        d1, r1 = res[(mode, "data")][hi], res[(mode, "rpc")][hi]
        rep.check("reads: replication beats RPC (%s)" % mode, d1 < r1,
                  "at %d%% reads data migration %.1f ms per iteration, RPC %.1f ms" % (hi, d1 / 1000, r1 / 1000))
        s0 = res[(mode, "static")][lo]
        rep.check("STATIC at 0%% reads (%s)" % mode, s0 < d0,
                  "STATIC %.1f ms < data migration %.1f ms (every write migrates)" % (s0 / 1000, d0 / 1000))
        o0 = res[(mode, "rpc+oam")][lo]
        rep.check("writes: computation as OAM beats data (%s)" % mode, o0 < d0,
                  "at %d%% reads computation migration as optimistic active messages %.1f ms per iteration, data "
                  "migration %.1f ms: %.1f times faster (seed: 2.9 on Alewife, 4.6 on the CM-5)"
                  % (lo, o0 / 1000, d0 / 1000, d0 / o0 if o0 else 0))
        rep.check("OAM pays with writes only (%s)" % mode, o0 < c0,
                  "at %d%% reads RPC as optimistic active messages %.1f ms per iteration, in a server thread %.1f ms"
                  % (lo, o0 / 1000, c0 / 1000))
        table = ["| reads | " + " | ".join(MICRO_METHODS) + " |", "|---|" + "---|" * len(MICRO_METHODS)]
        for p in sorted(res[(mode, "data")]):
            table.append("| %d%% | %s |" % (p, " | ".join("%.1f" % (res[(mode, k)].get(p, float("nan")) / 1000)
                                                     for k in MICRO_METHODS)))
        rep.parts.append("%s, ms per iteration (all five threads iterate at once; \"+oam\": the home runs the "
                         "migrated computations as optimistic active messages):\n\n%s\n" % (MODE_LABEL[mode],
                                                                                             "\n".join(table)))
        ab = ["| reads | method | run at the home | completed as handlers | " +
              " | ".join("aborted: %s" % ABORT_LABEL[a] for a in ABORTS) + " | completed (%) |",
              "|---|---|---|---|" + "---|" * len(ABORTS) + "---|"]
        for p in sorted(res[(mode, "data")]):
            for k in OAM_METHODS:
                c = res.get(("oam", mode, k, p))
                if c is None:
                    continue
                ab.append("| %d%% | %s | %d | %d | %s | %.0f |" % (p, k, c["computed"], c["completed"],
                                                                  " | ".join("%d" % c[a] for a in ABORTS),
                                                                  100.0 * c["completed"] / c["computed"]
                                                                  if c["computed"] else 0))
        rep.parts.append("%s, how the home's optimistic active messages ended (counts over all runs of a share, "
                         "from rgn_count):\n\n%s\n" % (MODE_LABEL[mode], "\n".join(ab)))
        mid = min(res[(mode, "data")], key=lambda p: abs(p - 50))
        c = res.get(("oam", mode, "static+oam", mid))
        if c and c["computed"]:
            s_t, s_o = res[(mode, "static")][mid], res[(mode, "static+oam")][mid]
            rep.parts.append(
                "%s at %d%% reads: STATIC as optimistic active messages costs %.1f ms per iteration against %.1f ms in "
                "a server thread (%+.0f%%); of its %d computations run at the home %d (%.0f%%) completed as handlers, "
                "%d (%.0f%%) found the region busy (its access would have blocked, or no server thread waited for work) "
                "and ran from their start in the one server thread, %d were aborted past the "
                "budget and %d at a system call.\n"
                % (MODE_LABEL[mode], mid, s_o / 1000, s_t / 1000, (s_o / s_t - 1) * 100 if s_t else 0, c["computed"],
                   c["completed"], 100.0 * c["completed"] / c["computed"], c["busy"], 100.0 * c["busy"] / c["computed"],
                   c["budget"], c["call"]))
    micro_servers_ab(rep, args, res)
    micro_timed(rep, args, res)
    # which NI mode gains more: the seed's claim, checked at full size only (at the reduced size the
    # two gains are a few runs' noise apart)
    for k, how in (("rpc", "in a server thread"), ("rpc+oam", "as optimistic active messages")) if size == "full" else ():
        gain = {}
        for mode in MODES:
            lo = min(res[(mode, "data")])
            gain[mode] = res[(mode, "data")][lo] / res[(mode, k)][lo] if res[(mode, k)][lo] else 0
        rep.check("computation migration gains more without DMA (%s)" % k, gain["1994"] > gain["dma-anywhere"],
                  "at 0%% reads computation migration %s is %.1f times faster than data migration with the 1994 NI "
                  "and %.1f times with DMA-anywhere (the seed: 4.6 on the CM-5, 2.9 on Alewife)"
                  % (how, gain["1994"], gain["dma-anywhere"]))
    rep.results = res
    return res


# The microbenchmark's A/B: the server threads at the home. rgnbench starts one, so a migrated
# computation (or an aborted handler) waits behind another's blocked access (a write waiting for
# its invalidations' answers); the seed's thread implementation created a thread for every
# migration that arrived (its 7.3.1), so with five callers at most five run at once: SERVERS = 5.
MICRO_AB_SERVERS = 5
MICRO_AB_METHODS = ("static+oam", "repeat+oam")


def micro_servers_ab(rep, args, res):
    pcts, runs, iters = SIZES[args.size]["micro"]
    mode = "1994"
    for method in MICRO_AB_METHODS:
        con = _run(args, "seed003-micro", "earth rgnbench micro %s %s %d %d %d\n" % (method, pcts, runs, iters,
                                                                                   MICRO_AB_SERVERS),
                   mode, os.path.join(rep.out, "ab-servers", method))
        pts = {}
        for m in re.finditer(r"^micro (\S+) (\d+) (\d+) (\d+)", con, re.M):
            if m.group(1) == method:
                pts.setdefault(int(m.group(2)), []).append((int(m.group(3)), int(m.group(4))))
        res[("ab-servers", mode, method)] = {p: _slope(v)["slope"] for p, v in pts.items()}
        was = [0] * 6
        for m in re.finditer(r"^micro-oam (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$", con, re.M):
            now = [int(x) for x in m.groups()[1:]]
            res[("ab-servers-oam", mode, method, int(m.group(1)))] = dict(
                zip(["computed", "completed"] + ABORTS, [a - b for a, b in zip(now, was)]))
            was = now
    cols = [(k, 1) for k in MICRO_AB_METHODS] + [(k, MICRO_AB_SERVERS) for k in MICRO_AB_METHODS]
    table = ["| reads | " + " | ".join("%s, %d server%s" % (k, n, "s" if n > 1 else "") for k, n in cols) + " |",
             "|---|" + "---|" * len(cols)]
    for p in sorted(res[(mode, "data")]):
        table.append("| %d%% | %s |" % (p, " | ".join(
            "%.1f" % ((res[(mode, k)] if n == 1 else res[("ab-servers", mode, k)]).get(p, float("nan")) / 1000)
            for k, n in cols)))
    mid = min(res[(mode, "data")], key=lambda p: abs(p - 50))
    busy = []
    for n, key in ((1, "oam"), (MICRO_AB_SERVERS, "ab-servers-oam")):
        c = res.get((key, mode, "repeat+oam", mid))
        if c and c["computed"]:
            busy.append("%.0f%% with %d server%s" % (100.0 * c["busy"] / c["computed"], n, "s" if n > 1 else ""))
    rep.parts.append(
        "**A/B, one server thread per caller** (%s, ms per iteration; `rgnbench micro METHOD PCTS RUNS ITERS %d`): "
        "the same runs with %d server threads at the home instead of one. The seed's thread implementation created "
        "a thread for every migration that arrived, so no migrated computation waited behind another's blocked "
        "access; with one server, a write that must wait for its invalidations' answers holds the server, and "
        "every computation that arrives meanwhile (a REPEAT read among them) is refused as a handler and queues "
        "behind it. REPEAT's handlers found the region busy at %d%% reads in %s.\n\n%s\n"
        % (MODE_LABEL[mode], MICRO_AB_SERVERS, MICRO_AB_SERVERS, mid, " and ".join(busy) or "no run",
           "\n".join(table)))


MICRO_TIMED_METHODS = ("data", "static+oam", "repeat+oam")
MICRO_OP = re.compile(r"^micro-op (\S+) (\d+) (\d+) clock (\d+) reads (\d+) (\d+) writes (\d+) (\d+)$", re.M)


def micro_timed(rep, args, res):
    """Where an iteration's time goes: the reads' and the writes' costs apart (`rgnbench micro ...
    timed`: each thread reads the clock around every access; one clock read, timed at the
    thread's start, is taken off each access). The claims of 7.2.3 compare heuristics that differ
    in how they do one kind of access: STATIC and data migration in their writes, REPEAT and STATIC
    in their reads."""
    pcts, iters = SIZES[args.size]["micro_timed"]
    mode = "1994"
    for method in MICRO_TIMED_METHODS:
        con = _run(args, "seed003-micro", "earth rgnbench micro %s %s 1 %d 1 timed\n" % (method, pcts, iters), mode,
                   os.path.join(rep.out, "timed", method))
        for m in MICRO_OP.finditer(con):
            if m.group(1) != method:
                continue
            c = int(m.group(4))
            rn, ru, wn, wu = (int(x) for x in m.groups()[4:])
            t = res.setdefault(("timed", mode, method, int(m.group(2))), {"reads": 0, "read_us": 0, "writes": 0,
                                                                           "write_us": 0})
            t["reads"] += rn
            t["read_us"] += ru - rn * c
            t["writes"] += wn
            t["write_us"] += wu - wn * c
    def ms(method, p, kind):  # ms per access of that kind, and how many; None when none ran
        t = res.get(("timed", mode, method, p))
        n = t[kind + "s"] if t else 0
        return (t[kind + "_us"] / n / 1000.0, n) if n else None

    ps = [int(p) for p in pcts.split(",")]
    cols = [(k, kind) for k in MICRO_TIMED_METHODS for kind in ("read", "write")]
    table = ["| reads | " + " | ".join("%s: %s" % (k, kind) for k, kind in cols) + " |", "|---|" + "---|" * len(cols)]
    for p in ps:
        cells = ["%.1f (%d)" % ms(k, p, kind) if ms(k, p, kind) else "-" for k, kind in cols]
        table.append("| %d%% | %s |" % (p, " | ".join(cells)))
    rep.parts.append(
        "**Where an iteration goes: one access timed** (%s; `rgnbench micro METHOD %s 1 %d 1 timed`: every thread "
        "reads the clock around each access, %d iterations each; ms per access, the accesses of that kind in "
        "brackets; one clock read, timed at each thread's start, taken off). The seed's STATIC rests on migrated writes "
        "being cheaper than data migration's (\"it is intuitively a clear benefit to always migrate writes\", 3.3.3, "
        "the STATIC heuristic); REPEAT and STATIC differ in the reads they migrate.\n\n%s\n" % (MODE_LABEL[mode], pcts, iters, iters,
                                                                        "\n".join(table)))
    for p in ps:
        got = [ms("data", p, "write"), ms("static+oam", p, "write"), ms("static+oam", p, "read"),
               ms("repeat+oam", p, "read")]
        if None in got:
            continue
        dw, sw, sr, rr = (g[0] for g in got)
        rep.parts.append("At %d%% reads (%s): a write costs %.1f ms under STATIC as optimistic active messages and "
                         "%.1f ms under data migration; a read %.1f ms under REPEAT as optimistic active messages and "
                         "%.1f ms under STATIC.\n" % (p, MODE_LABEL[mode], sw, dw, rr, sr))


# ---- Figures 7-11..7-13 ----
def _network_figure(rep, con):
    """Figure 7-11 from the network cnet built and ran (its "cnet wire" and "cnet node" lines):
    balancers by stage (the longest path from an input), wires between them; a check that it is
    the seed's shape, six stages of four balancers."""
    wires = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^cnet wire (\d+) (\d+)$", con, re.M)}
    nodes = {int(m.group(1)): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
             for m in re.finditer(r"^cnet node (\d+) (\d+) (\d+) (\d+)$", con, re.M)}
    stage = {n: 0 for n in set(wires.values())}
    for _ in range(len(nodes) + 1):  # longest path from an input (the network is acyclic)
        for n, (a, b, _board) in nodes.items():
            for x in (a, b):
                if x in nodes and n in stage and stage.get(x, -1) < stage[n] + 1:
                    stage[x] = stage[n] + 1
    by_stage = {}
    for n in sorted(nodes):
        by_stage.setdefault(stage.get(n, -1), []).append(n)
    shape = sorted(len(v) for v in by_stage.values())
    rep.check("the network is Figure 7-11's", len(nodes) == 24 and shape == [4] * 6 and len(wires) == 8,
              "%d balancers in %d stages of %s (the seed: 24 in six stages of four)"
              % (len(nodes), len(by_stage), "/".join(str(len(by_stage[s])) for s in sorted(by_stage))))
    pos = {}
    for s, ns in by_stage.items():
        for i, n in enumerate(ns):
            pos[n] = (s + 1, 3 - i)
    for j in range(8):
        pos[24 + j] = (len(by_stage) + 1, 3.5 - j / 2.0)
    series = []
    for w, n in sorted(wires.items()):
        if n in pos:
            series.append({"x": [0, pos[n][0]], "y": [3.5 - w / 2.0, pos[n][1]], "style": "line", "color": "gray"})
    for n, (a, b, _board) in nodes.items():
        for x in (a, b):
            if n in pos and x in pos:
                series.append({"x": [pos[n][0], pos[x][0]], "y": [pos[n][1], pos[x][1]], "style": "line",
                               "color": "gray"})
    series.append({"x": [pos[n][0] for n in nodes if n in pos], "y": [pos[n][1] for n in nodes if n in pos],
                   "style": "dots", "label": "balancer (a region homed on its own board)", "color": "C0"})
    series.append({"x": [pos[24 + j][0] for j in range(8)], "y": [pos[24 + j][1] for j in range(8)], "style": "dots",
                   "label": "output counter (homed on its last-stage balancer's board)", "color": "C3"})
    rep.fig("7-11", "cnet-network", "the eight-input, eight-output bitonic counting network as cnet built and ran it "
            "(balancer n on board 2 + n)",
            [{"title": "stages left to right; input wires at x = 0, output counters on the right",
              "xlabel": "stage", "ylabel": "balancer in its stage", "series": series}])



def _cnet_breakeven(mode, machine, c, d, so, dm, acc=7, what=""):
    """Why computation migration does or does not win with c clients, from the run's own counts:
    a client's value costs data migration d[1] (acc hits, one client: seven on the 8x8 network,
    four on the 4x4) plus its misses, each at
    the cost the run shows; STATIC as optimistic active messages pays a migration per access. The
    seed's machine for comparison: its write miss with one invalidation over its read miss
    (Table 7.1), the read miss being what its Figure 7-1 finds virtually identical to a tiny
    region's migration."""
    m = dm.get(c, 0.0)
    hop = so[c] / float(acc)
    per_miss = (d[c] - d[1]) / m if m > 0 else float("nan")
    ratio, need = per_miss / hop, (so[c] - d[1]) / (m * hop) if m > 0 else float("nan")
    col = 0 if machine == "CM-5" else 1
    seed_ratio = SEED_T71["write_inv1"][col] / SEED_T71["read_miss"][col]
    # The same value priced with the seed's own latencies (our misses per value, its costs): which
    # way its Table 7.1 points at this client count, whatever our machine's costs are.
    hit, miss, mig = (SEED_T71["read_hit"][col] + SEED_T71["end_read"][col], SEED_T71["write_inv1"][col],
                      SEED_T71["read_miss"][col])
    seed_d, seed_c = acc * hit + m * miss, acc * mig
    seed_need = (seed_c - acc * hit) / miss
    words = {7: "seven", 4: "four"}[acc]
    return ("%s%s, why %d clients stand where they do: under data migration a client misses on %.2f of a value's "
            "%s accesses (its board's count); each miss adds %.2f ms to the one-client cost (%.1f ms a value), "
            "%.2f migrations as an optimistic active message (%.2f ms each: STATIC's %.1f ms over %s). Computation "
            "migration wins once a miss costs more than %.2f migrations. On %s the seed's write miss with one "
            "invalidation costs %.2f of its read miss (Table 7.1: %.1f against %.1f µs), the read miss that its "
            "Figure 7-1 finds virtually identical to a tiny region's migration. Priced with the seed's own latencies "
            "(a hit its start read hit and end read, %.1f µs, Table 7.1 having no write hit; a miss its write miss "
            "with one invalidation; a migration its read miss), a value with these %.2f misses costs %.1f µs under "
            "data migration and %.1f µs migrated: the seed's own figures put %s ahead at %d clients, and put "
            "computation migration ahead only from %.2f misses per value.\n"
            % (MODE_LABEL[mode], what, c, m, words, per_miss / 1000, d[1] / 1000, ratio, hop / 1000, so[c] / 1000, words,
               need, machine,
               seed_ratio, SEED_T71["write_inv1"][col], SEED_T71["read_miss"][col], hit, m, seed_d, seed_c,
               "data migration" if seed_d < seed_c else "computation migration", c, seed_need))


SETUP_LINE = re.compile(r"set-up round trips before migration requests \(as on the CM-5\): (\d+), (\d+) us spun")
# The CM-5's minimum round-trip active message and its read miss (seed 003 4.2.2 and Table 7.1), in µs
SEED_CM5_ROUND_TRIP_US, SEED_CM5_READ_MISS_US = 12.0, SEED_T71["read_miss"][0]


CNET_FIRST_BALANCER, CNET_FIRST_CLIENT = 2, 26  # balancer n on board 2 + n, client k on board 26 + k


def _cnet_run(args, d, method, clients, mode, seed=None, runs_iters=None, width=8, first_counter=0):
    """One cnet run on the full machine of this size (its results under d/mode): {clients: µs per
    iteration, the slope over the runs}, and earth's console. seed None: cnet's line without one;
    runs_iters: (runs, iterations) other than the size's; width 4: the 4x4 network; first_counter:
    the output counters on boards of their own from this one on (0: on their feeders' boards)."""
    boards, _c, runs, iters, _m = SIZES[args.size]["cnet"]
    runs, iters = runs_iters or (runs, iters)
    line = "earth cnet %s %d %d %s %d %d" % (method, CNET_FIRST_BALANCER, CNET_FIRST_CLIENT, clients, runs, iters)
    if width != 8 or first_counter:
        line += " %d %d" % (seed or 0, width)
        if first_counter:
            line += " %d" % first_counter
    elif seed is not None:
        line += " %d" % seed
    con = _run(args, "seed003-cnet", line + "\n", mode, d, program="cnet",
               config=paths.config("boards-%d.toml" % boards), boards=boards)
    pts = {}
    for m in re.finditer(r"^cnet \w+ (\d+) (\d+) (\d+)$", con, re.M):
        pts.setdefault(int(m.group(1)), []).append((int(m.group(2)), int(m.group(3))))
    return {c: _slope(v)["slope"] for c, v in pts.items()}, con


# (the last: Figure 7-13's thread version going onward, against its optimistic active messages at 16 clients)
AB_CM5 = ("data", "static+oam", "static+oam+cm5", "static+oam+onward", "static+oam+onward+cm5", "static+onward")
AB_CM5_LABEL = {"data": "data", "static+oam": "static+oam", "static+oam+cm5": "static+oam, the CM-5's set-up",
                "static+oam+onward": "static+oam, onward",
                "static+oam+onward+cm5": "static+oam, onward, the CM-5's set-up",
                "static+onward": "static, onward, in server threads"}
ONWARD_LINE = re.compile(r"migrated computations sent onward from here: (\d+); onward steps lost here: (\d+)")
SEED_VARIES = re.compile(r"^cnet seed \d+: client starts 0\.\.(\d+) us late, node steps 0\.\.(\d+) loop", re.M)
NOISE_SE = 2.0  # a difference of two means inside this many standard errors of it is inside the noise
CNET_STAGES = 6  # Bitonic[8]'s depth (cnet.c builds it; "cnet node" lines): a value's accesses are these + its counter's


def _gap(mean, sem, a, b, c):
    """b's mean over a's at c clients (ms a value) and that difference in its standard errors."""
    se = (sem[(a, c)] ** 2 + sem[(b, c)] ** 2) ** 0.5
    return mean[(b, c)] - mean[(a, c)], (mean[(b, c)] - mean[(a, c)]) / se if se > 0 else float("nan")


def _cnet_misses(con):
    """A client's misses per value by client count (the slope over the runs of all clients' misses,
    cnet's "cnet misses" lines, over the count), and how many runs said "cnet check ... ok"."""
    pts = {}
    for m in re.finditer(r"^cnet misses \w+ (\d+) (\d+) (\d+)$", con, re.M):
        pts.setdefault(int(m.group(1)), []).append((int(m.group(2)), int(m.group(3))))
    return ({c: _slope(v)["slope"] / c for c, v in pts.items()},
            len(re.findall(r"^cnet check \w+ \d+ \d+ ok$", con, re.M)))


def _cnet_seeded(rep, args, sub, methods, width, first_counter=0):
    """Each method with each of the A/B's seeds (cnet's SEED), 1994 NI, under rep.out/sub: the
    client counts, the means over the seeds (ms a value), their least and most, the standard error
    of each mean, the kernels' set-up and onward counts by method, and cnet's line naming what a seed
    varies. first_counter: as for _cnet_run."""
    clients, seeds, runs, iters = SIZES[args.size]["cnet_cm5"]
    got, setups, onward = {}, {k: [0, 0] for k in methods}, {k: [0, 0] for k in methods}
    varied = None
    for method in methods:
        for sd in seeds:
            d = os.path.join(rep.out, sub, "%s-%d" % (method, sd))
            us, con = _cnet_run(args, d, method, clients, "1994", sd, (runs, iters), width, first_counter)
            varied = SEED_VARIES.search(con) or varied
            got[(method, sd)] = {c: v / 1000.0 for c, v in us.items()}
            setups[method] = [x + y for x, y in zip(setups[method], _kernel_lines(os.path.join(d, "1994"), SETUP_LINE))]
            onward[method] = [x + y for x, y in zip(onward[method], _kernel_lines(os.path.join(d, "1994"), ONWARD_LINE))]
    cl = sorted(got[(methods[0], seeds[0])])
    mean = {(k, c): sum(got[(k, sd)][c] for sd in seeds) / len(seeds) for k in methods for c in cl}
    span = {(k, c): (min(got[(k, sd)][c] for sd in seeds), max(got[(k, sd)][c] for sd in seeds)) for k in methods
            for c in cl}
    # the standard error of each mean (the seeds' sample standard deviation over the root of their number)
    sem = {(k, c): (sum((got[(k, sd)][c] - mean[(k, c)]) ** 2 for sd in seeds) / (len(seeds) - 1)) ** 0.5 /
           len(seeds) ** 0.5 if len(seeds) > 1 else float("nan") for k in methods for c in cl}
    return cl, mean, span, sem, setups, onward, varied


def cnet_cm5_ab(rep, args, res):
    """A/B for Figure 7-13's return to data migration at 32 processors, with the two things the
    seed names (7.3.1, 7.4) as named machine facts: the CM-5's message limit (4.2.1: an active
    message carries four words; every message of the dynamic protocol is longer, so each needs an
    extra round trip during which the sender spins, while pure data migration's requests fit) and
    its protocol's onward migration (its computation goes on from balancer to balancer, so the
    spinning sender is a balancer's processor). STATIC as optimistic active messages, 1994 NI,
    with and without each: "+cm5" (cm_map, kernel/region.c's short_msgs) puts a set-up round trip
    before every migration request and onward step, "+onward" (cm_onward) sends the computation on.
    The round trip is TOS's own cheapest one (a two-word kernel message answered at once by the
    receiving kernel), as the CM-5's was its cheapest active message: nothing is scaled. A full
    network's cost depends on the clients' phases, so each method runs with several seeds (cnet's
    SEED: each client's start delayed by up to a millisecond, each node's step made a few loop
    iterations longer, since a full network's cost turns on a step's cost to the cycle) and the
    means are compared."""
    clients, seeds, runs, iters = SIZES[args.size]["cnet_cm5"]
    mode = "1994"
    cl, mean, span, sem, setups, onward, varied = _cnet_seeded(rep, args, "ab-cm5", AB_CM5, 8)
    so1 = res[(mode, "static+oam")]
    one = so1.get(1, so1[min(so1)]) / 7.0 if so1 else float("nan")  # µs: a lone client's migration
    n, spun = setups["static+oam+cm5"]
    per = spun / n if n else float("nan")
    n_on, spun_on = setups["static+oam+onward+cm5"]
    per_on = spun_on / n_on if n_on else float("nan")
    head = "| clients | " + " | ".join(AB_CM5_LABEL[k] for k in AB_CM5) + " |"
    table = [head, "|---|" + "---|" * len(AB_CM5)]
    spread = [head, "|---|" + "---|" * len(AB_CM5)]
    for c in cl:
        table.append("| %d | %s |" % (c, " | ".join("%.1f" % mean[(k, c)] for k in AB_CM5)))
        spread.append("| %d | %s |" % (c, " | ".join("%.1f..%.1f (± %.1f)" % (span[(k, c)] + (sem[(k, c)],))
                                                     for k in AB_CM5)))
    oam_on = oam_counts(os.path.join(rep.out, "ab-cm5", "static+oam+onward-%d" % seeds[0], mode))
    rep.parts.append(
        "**A/B, the CM-5's message limit** (%s, ms per iteration, the mean over %d seeds; `cnet METHOD 2 26 %s %d %d "
        "SEED`, SEED %s): the CM-5's active messages carry four words (4.2.1), every message of the dynamic protocol "
        "is longer, and so each needs an extra round trip to set up its transfer, during which the sending processor "
        "spins rather than yield (7.3.1: \"the round-trip message blocks the processor for at least 12 "
        "microseconds\"); pure data migration's requests fit in four words. With \"+cm5\" each migration request "
        "waits for a set-up round trip to the region's home (TOS's cheapest: a two-word kernel message the home's "
        "kernel answers at once), its board running no thread meanwhile. The seed's computation went on from "
        "balancer to balancer (7.3.1: its optimistic active messages at the first five stages abort because they "
        "invoke the migration protocol), so its set-ups spun the balancers' processors, the network's bottleneck. "
        "With \"+onward\" ours does so too (cm_onward, kernel/region.c's RGN_CM_FWD): a balancer's step ends by "
        "sending the rest of the computation to the next node's home, and only the counter's home answers the "
        "client; without it the computation comes back to the client at each stage, and a set-up spins only the "
        "client's board. A full network's cost depends on the clients' phases and on a step's cost to the cycle "
        "(each seed but 0 starts the clients 0 to %s µs late and makes each node's step 0 to %s iterations of an "
        "empty loop longer, wherever it runs), so every method ran with each seed. Returning to the client, the "
        "clients' kernels "
        "counted %d set-ups, %.0f µs of spin each on average: %.2f of a migration's cost with one client (%.0f µs, "
        "STATIC's cost over seven), where the CM-5's minimum round trip, %.0f µs, is %.2f of its read miss (%.1f µs, "
        "Table 7.1), which its Figure 7-1 finds virtually identical to a tiny region's migration. Onward, the "
        "boards counted %d set-ups, %.0f µs each, and %d onward steps (%d lost); the onward runs' handlers (seed %d, "
        "every run of the clients): %s.\n\n%s\n\nThe spread over the seeds (least..most, and the standard error of "
        "the mean):\n\n%s\n"
        % (MODE_LABEL[mode], len(seeds), clients, runs, iters, ", ".join(str(s) for s in seeds),
           varied.group(1) if varied else "?", varied.group(2) if varied else "?", n, per,
           per / one if one else float("nan"), one, SEED_CM5_ROUND_TRIP_US, SEED_CM5_ROUND_TRIP_US / SEED_CM5_READ_MISS_US,
           SEED_CM5_READ_MISS_US, n_on, per_on, onward["static+oam+onward+cm5"][0], onward["static+oam+onward+cm5"][1],
           seeds[0], oam_sentence(oam_on), "\n".join(table), "\n".join(spread)))
    # every access of every client migrates (STATIC, writes only), run 0 included: returning to the client,
    # one set-up per access; onward, the client's first request and each step to the next balancer's board
    # (the last stage's step to its counter stays on its board: cnet homes a counter with its feeder)
    values = len(seeds) * sum(c * (iters + sum(i * iters for i in range(1, runs + 1))) for c in cl)
    acc = CNET_STAGES + 1
    rep.check("one set-up per migration request (1994)", n == values * acc,
              "the clients' kernels counted %d set-up round trips; %d values x %d accesses were migrated"
              % (n, values, acc))
    rep.check("onward: a step per stage, a set-up per step off the board (1994)",
              onward["static+oam+onward+cm5"] == [values * CNET_STAGES, 0] and n_on == values * CNET_STAGES,
              "%d onward steps (%d lost) and %d set-ups for %d values: each value's computation went on from each of "
              "its %d balancers, and every set-up but the last stage's (its counter is homed on its board) was paid"
              % (onward["static+oam+onward+cm5"][0], onward["static+oam+onward+cm5"][1], n_on, values, CNET_STAGES))
    hi, lo = cl[-1], cl[0]
    dat, so, cm5, on, oncm5 = ({c: mean[(k, c)] for c in cl} for k in AB_CM5[:5])

    def gap(k, c):  # data migration's lead over method k in standard errors of the difference
        return _gap(mean, sem, "data", k, c)[1]
    rep.parts.append("Data migration's lead with %d clients, in standard errors of the difference of the means (over "
                     "%d seeds), and past the noise (a lead inside %g of them is inside it): %s.\n"
                     % (hi, len(seeds), NOISE_SE, "; ".join("over %s %.1f ms, %.1f, %.1f past" % (
                         AB_CM5_LABEL[k], mean[(k, hi)] - dat[hi], gap(k, hi), gap(k, hi) - NOISE_SE)
                         for k in AB_CM5[1:])))
    th_lead, th_z = _gap(mean, sem, "static+onward", "static+oam+onward", lo)
    rep.parts.append("Going onward with %d clients the thread version (every migrated computation in a server thread) "
                     "costs %.1f ms a value and the optimistic active messages' %.1f ms, the means over %d seeds (the "
                     "threads' lead %+.1f ms, %.1f standard errors of the difference).\n"
                     % (lo, mean[("static+onward", lo)], mean[("static+oam+onward", lo)], len(seeds), th_lead, th_z))
    if len(seeds) > 1:  # (a reduced run's one short run per method is not the seed's measure)
        rep.check("onward: threads ahead of optimistic active messages at %d clients, the means over the seeds (1994)"
                  % lo, th_lead > 0,
                  "STATIC going onward %.1f ms per iteration in server threads, %.1f ms as optimistic active messages, "
                  "the means over %d seeds (the seed's Figure 7-13: the thread version better for sixteen or less)"
                  % (mean[("static+onward", lo)], mean[("static+oam+onward", lo)], len(seeds)))
    if one:
        # first order: seven set-ups a value, each at the CM-5's share of a migration, against STATIC's lead
        lead, scaled = dat[hi] - so[hi], 7 * SEED_CM5_ROUND_TRIP_US / SEED_CM5_READ_MISS_US * one / 1000
        rep.parts.append(
            "With %d clients STATIC as optimistic active messages %s data migration by %.1f ms a value without the "
            "set-up (the means). Priced at the CM-5's share instead of ours (%.2f of a migration each, %.0f µs here), "
            "a value's seven set-ups would add %.1f ms to its cost (before any contention they add at the homes): "
            "%s.\n" % (hi, "led" if lead >= 0 else "trailed", abs(lead), SEED_CM5_ROUND_TRIP_US / SEED_CM5_READ_MISS_US,
                       SEED_CM5_ROUND_TRIP_US / SEED_CM5_READ_MISS_US * one, scaled,
                       "more than the lead, so the seed's own proportion would put data migration ahead too"
                       if scaled > lead else "less than the lead: at the seed's proportion the set-up alone would "
                       "not put data migration ahead"))
    if hi >= 32:
        rep.check("the seed's protocol with the CM-5's set-up: data migration ahead at %d clients past the noise "
                  "(1994)" % hi, gap("static+oam+onward+cm5", hi) > NOISE_SE,
                  "data migration %.1f ms per iteration, STATIC as optimistic active messages going onward with the "
                  "set-up round trips %.1f ms, the means over %d seeds: a lead of %.1f standard errors of the difference, "
                  "inside %g is inside the noise (the seed's "
                  "Figure 7-13: data migration ahead from 32 processors)"
                  % (dat[hi], oncm5[hi], len(seeds), gap("static+oam+onward+cm5", hi), NOISE_SE))
        ab = oam_counts(os.path.join(rep.out, "ab-cm5", "static+oam+onward-%d" % seeds[0], mode))
        began = ab["completed"] + ab["aborted"]
        rep.parts.append(
            "Going onward without the set-up, a value costs %.1f ms with %d clients and %.1f ms with %d (data migration "
            "%.1f and %.1f ms; returning to the client at each stage, %.1f and %.1f ms). The set-up changes a value's "
            "cost onward by %+.1f ms with %d clients and by %+.1f ms with %d (%.1f standard errors). Each balancer's board has one "
            "server thread (a process has the report's thread limit), and onward every handler that goes on aborts "
            "to it; in seed %d's run %.0f%% of the handlers found no server waiting (\"region busy\", %d of %d).\n"
            % (on[lo], lo, on[hi], hi, dat[lo], dat[hi], so[lo], so[hi], oncm5[lo] - on[lo], lo, oncm5[hi] - on[hi],
               hi, _gap(mean, sem, "static+oam+onward", "static+oam+onward+cm5", hi)[1],
               seeds[0], 100.0 * ab["busy"] / began if began else float("nan"), ab["busy"], began))
    if lo < hi:
        rep.check("the seed's protocol with the CM-5's set-up: computation migration still ahead at %d clients "
                  "(1994)" % lo, oncm5[lo] < dat[lo],
                  "STATIC as optimistic active messages going onward with the set-up round trips %.1f ms per "
                  "iteration, data migration %.1f ms, the means over %d seeds (the seed's Figure 7-13: computation "
                  "migration ahead for two to sixteen)" % (oncm5[lo], dat[lo], len(seeds)))
    return cl, mean, sem


SMALL = ("data", "static+oam")  # the seed's Alewife run of the 4x4 network: data against STATIC
AB_SMALL = ("data", "static+oam+onward", "static+oam+onward+cm5")
CNET_SMALL_FIRST_COUNTER = 8  # the 4x4 network's counters on boards of their own: 8..11, after its balancers' 2..7


def _busy(d):
    """Each board's busy share of a run (d: its folder): the cycles it did not spend stopped over
    its cycles (balance.board_counts, testbed.log's end-of-run lines), the whole run (boot,
    building the network and every client count)."""
    counts = balance.board_counts(d)
    if counts is None:
        raise runner.RunError("%s: testbed.log gives no board's cycles" % d)
    return {b: (c - st) / c for b, (_i, c, st) in counts[0].items() if c}


def _cnet_boards(con):
    """The network's boards as cnet built it ("cnet node" and "cnet wire" lines): the balancers'
    boards, those of the last stage (whose balancers feed the output counters), and the number of
    counters (the network's width)."""
    nodes = [(int(m.group(2)), int(m.group(4))) for m in re.finditer(r"^cnet node (\d+) (\d+) (\d+) (\d+)$", con, re.M)]
    return ({board_name(b) for _n, b in nodes}, {board_name(b) for nxt, b in nodes if nxt >= len(nodes)},
            len(re.findall(r"^cnet wire \d+ \d+$", con, re.M)))


def cnet_small(rep, args, ab8):
    """The 4x4 network (Bitonic[4], cnet's WIDTH 4: three stages of two balancers, four counters),
    which the seed ran on Alewife to see how far its protocol scales (7.3.1), on the same boards:
    the seed's sweep with DMA-anywhere, and the CM-5 A/B's methods with the 1994 NI, where 32
    clients fill this network (each balancer sees half of the values instead of a quarter)."""
    _b, clients, runs, iters, _m = SIZES[args.size]["cnet"]
    ncl = [int(c) for c in clients.split(",")]
    mode, res, miss, want = "dma-anywhere", {}, {}, (runs + 1) * len(ncl)
    for method in SMALL:
        us, con = _cnet_run(args, os.path.join(rep.out, "small", method), method, clients, mode, width=4)
        res[method] = us
        miss[method], ok = _cnet_misses(con)
        rep.check("every count once (4x4, %s, %s)" % (mode, method), ok == want,
                  "%d of %d runs handed out exactly the next c x iterations integers, each once" % (ok, want))
    d, so = res["data"], res["static+oam"]
    table = ["| clients | data | static+oam | data: misses per value |", "|---|---|---|---|"]
    for c in ncl:
        table.append("| %d | %.1f | %.1f | %.2f |" % (c, d[c] / 1000, so[c] / 1000, miss["data"].get(c, float("nan"))))
    many = [c for c in ncl if c >= 2]
    behind = [c for c in many if so[c] >= d[c]]
    rep.parts.append(
        "**The 4x4 network** (Bitonic[4]: three stages of two balancers and four output counters, a value four accesses; "
        "`cnet METHOD 2 26 %s %d %d 0 4`, balancers on boards 2 to 7, the clients where the 8x8 network's were). The "
        "seed ran it on Alewife to see how far its protocol scales (7.3.1: \"dynamic computation migration outperforms "
        "pure data migration for two to thirty-two processors\"). %s, ms per iteration:\n\n%s\n\nSTATIC as optimistic "
        "active messages is behind data migration with %s client(s) (of %s).\n"
        % (clients, runs, iters, MODE_LABEL[mode], "\n".join(table),
           ", ".join(str(c) for c in behind) if behind else "no", ", ".join(str(c) for c in many)))
    if 2 in ncl and ncl[-1] >= 32:  # (the seed's range: a reduced run's few short runs are not its measure)
        rep.check("the 4x4 network: computation migration ahead from two clients on (%s)" % mode, not behind,
                  "STATIC as optimistic active messages behind data migration with %s client(s) (the seed's Alewife: "
                  "ahead for two to thirty-two)" % (", ".join(str(c) for c in behind) or "no"))
    if len(ncl) > 1 and ncl[0] == 1:
        rep.parts.append(_cnet_breakeven(mode, "Alewife", ncl[1], d, so, miss["data"], acc=4, what=", the 4x4 network"))
    # the 1994 NI: the CM-5 A/B's methods on a network that 32 clients fill
    cl, mean, span, sem, setups, _onw, _v = _cnet_seeded(rep, args, "small-cm5", AB_SMALL, 4)
    cl8, mean8, sem8 = ab8
    _c, seeds, r2, i2 = SIZES[args.size]["cnet_cm5"]
    head = "| clients | " + " | ".join(AB_CM5_LABEL[k] for k in AB_SMALL) + " |"
    table = [head, "|---|" + "---|" * len(AB_SMALL)]
    for c in cl:
        table.append("| %d | %s |" % (c, " | ".join("%.1f (%.1f..%.1f)" % ((mean[(k, c)],) + span[(k, c)])
                                                   for k in AB_SMALL)))
    lo, hi = cl[0], cl[-1]
    on, cm5 = "static+oam+onward", "static+oam+onward+cm5"
    cost4, z4 = _gap(mean, sem, on, cm5, hi)
    cost8, z8 = _gap(mean8, sem8, on, cm5, hi) if hi in cl8 else (float("nan"), float("nan"))
    lead4, zl4 = _gap(mean, sem, "data", cm5, hi)
    grow = {k: mean[(k, hi)] / mean[(k, lo)] for k in AB_SMALL} if lo < hi else {}
    grow8 = {k: mean8[(k, hi)] / mean8[(k, lo)] for k in AB_SMALL} if lo < hi and lo in cl8 else {}
    rep.parts.append(
        "%s, the 4x4 network, ms per iteration, the mean over %d seeds and their least..most (`cnet METHOD 2 26 %s %d %d "
        "SEED 4`): the CM-5 A/B's methods (its set-up round trips as above).\n\n%s\n\n" % (
            MODE_LABEL["1994"], len(seeds), ",".join(str(c) for c in cl), r2, i2, "\n".join(table)) +
        ("A value's cost from %d to %d clients grows %s times on the 4x4 network and %s times on the 8x8 (data "
         "migration, onward, onward with the set-up; twice the clients cost twice as much a value once a network is "
         "full). " % (lo, hi, ", ".join("%.2f" % grow[k] for k in AB_SMALL),
                      ", ".join("%.2f" % grow8[k] for k in AB_SMALL) if grow8 else "?") if grow else "") +
        "With %d clients the set-up costs the seed's protocol going onward %+.1f ms a value on the 4x4 network "
        "(%.1f standard errors) and %+.1f ms on the 8x8 (%.1f standard errors); data migration's lead over the "
        "protocol with the set-up is then %+.1f ms on the 4x4 network (%.1f standard errors).\n"
        % (hi, cost4, z4, cost8, z8, lead4, zl4))
    if len(seeds) > 1:
        rep.check("a full network: the CM-5's set-up costs the seed's protocol past the noise at %d clients (1994, 4x4)"
                  % hi, z4 > NOISE_SE,
                  "going onward with the set-up round trips %.1f ms a value, without %.1f ms: %.1f standard errors of "
                  "the difference over %d seeds (the seed, 7.3.1: in a full network the sender's spin \"is not hidden at "
                  "all\")" % (mean[(cm5, hi)], mean[(on, hi)], z4, len(seeds)))
    _cnet_small_nodes(rep, args, mean)


def _cnet_small_nodes(rep, args, mean_fed):
    """The 4x4 network's CM-5 A/B again with every node on a board of its own (cnet's FIRST_COUNTER:
    the counters on boards of their own instead of their feeders'), and the boards' busy shares of
    the first seed's runs in both layouts (mean_fed: the A/B's means with the counters on their
    feeders' boards, as cnet_small ran it)."""
    _c, seeds, r2, i2 = SIZES[args.size]["cnet_cm5"]
    fc = CNET_SMALL_FIRST_COUNTER
    cl, mean, span, sem, _s, _o, _v = _cnet_seeded(rep, args, "small-cm5-nodes", AB_SMALL, 4, fc)
    on, cm5 = "static+oam+onward", "static+oam+onward+cm5"
    table = ["| clients | " + " | ".join(AB_CM5_LABEL[k] for k in AB_SMALL) + " |", "|---|" + "---|" * len(AB_SMALL)]
    for c in cl:
        table.append("| %d | %s |" % (c, " | ".join("%.1f (%.1f..%.1f)" % ((mean[(k, c)],) + span[(k, c)])
                                                   for k in AB_SMALL)))
    share = {}
    for layout, sub_ in (("fed", "small-cm5"), ("own", "small-cm5-nodes")):
        for k in AB_SMALL:
            d = os.path.join(rep.out, sub_, "%s-%d" % (k, seeds[0]), "1994")
            busy, (bal, last, width) = _busy(d), _cnet_boards(runner.console(d, "earth"))
            counters = {board_name(fc + j) for j in range(width)}
            share[(layout, k)] = tuple(100 * sum(busy[b] for b in g) / len(g) for g in (last, bal - last, counters))

    def shares(layout, k):
        last, first, cnt = share[(layout, k)]
        return "%s %.0f%% and %.0f%%%s" % (AB_CM5_LABEL[k], last, first, ", its counters' %.0f%%" % cnt
                                           if layout == "own" else "")
    hi = cl[-1]
    lead, zl = _gap(mean, sem, "data", cm5, hi)
    lead_on, zo = _gap(mean, sem, "data", on, hi)
    rep.parts.append(
        "**Every node on a board of its own** (the same methods and seeds, `cnet METHOD 2 26 %s %d %d SEED 4 %d`: each "
        "of the four output counters made and served by a thread of its own on boards %d to %d, instead of on the "
        "board of the last-stage balancer that feeds it). The seed laid its network out one balancer per processor "
        "(7.3.1: \"Placing the balancers on separate processors maximizes the throughput of the counting "
        "network\") and does not say where its counters were; with each counter on its feeder's board, the last "
        "stage's two boards serve three nodes each and every value passes one of them twice. The boards' busy share "
        "over seed %d's whole run (boot, building the network, every client count), the last stage's boards against "
        "the first two stages': with the counters on their feeders' boards %s; with every node on its own board %s.\n\n"
        "%s, ms per iteration, the mean over %d seeds and their least..most:\n\n%s\n\n"
        "Data migration's lead with %d clients, every node on a board of its own, in standard errors of the "
        "difference of the means (over %d seeds), and past the noise: over %s %+.1f ms, %.1f, %.1f past; without "
        "the set-up the seed's protocol (%s) leads data migration by %+.1f ms, %.1f, %.1f past (with the counters on "
        "their feeders' boards data migration %.1f ms, the protocol with the set-up %.1f ms).\n"
        % (",".join(str(c) for c in cl), r2, i2, fc, fc, fc + 3, seeds[0],
           "; ".join(shares("fed", k) for k in AB_SMALL), "; ".join(shares("own", k) for k in AB_SMALL),
           MODE_LABEL["1994"], len(seeds), "\n".join(table), hi, len(seeds), AB_CM5_LABEL[cm5], lead, zl,
           zl - NOISE_SE, AB_CM5_LABEL[on], -lead_on, -zo, -zo - NOISE_SE,
           mean_fed.get(("data", hi), float("nan")), mean_fed.get((cm5, hi), float("nan"))))
    if len(seeds) > 1:
        rep.check("a full network, every node on a board of its own: data migration ahead of the seed's protocol "
                  "with the CM-5's set-up at %d clients past the noise (1994, 4x4)" % hi, zl > NOISE_SE,
                  "data migration %.1f ms a value, going onward with the set-up round trips %.1f ms: %.1f standard "
                  "errors of the difference over %d seeds (the seed's Figure 7-13: data migration ahead once the "
                  "network is full)" % (mean[("data", hi)], mean[(cm5, hi)], zl, len(seeds)))
        rep.check("a full network, every node on a board of its own: without the set-up the seed's protocol ahead "
                  "of data migration at %d clients past the noise (1994, 4x4)" % hi, -zo > NOISE_SE,
                  "going onward without the set-up %.1f ms a value, data migration %.1f ms: %.1f standard errors of "
                  "the difference over %d seeds (the seed names the set-up's extra round trip as what puts data "
                  "migration ahead)" % (mean[(on, hi)], mean[("data", hi)], -zo, len(seeds)))


def _cnet_onward(rep, mode, ncl, methods, res):
    """The counting network with the computation going on from balancer to balancer (cnet's
    "+onward", as the seed's did), beside its return to the client at each stage."""
    on, so, d = res[(mode, "static+oam+onward")], res[(mode, "static+oam")], res[(mode, "data")]
    cross = next((c for c in ncl if on[c] < d[c]), None)
    mid = max(c for c in ncl if c <= 16)
    text = ("%s, going onward (STATIC as optimistic active messages): computation migration is faster %s; with %d "
            "client(s) a value costs %.1f ms against %.1f ms returning to the client at each stage. Its handlers "
            "(every run of the clients): %s." % (MODE_LABEL[mode], "from %d client(s) on" % cross if cross else
                                                  "at no client count measured", mid, on[mid] / 1000,
                                                  so[mid] / 1000, oam_sentence(res[("oam", mode, "static+oam+onward")])))
    if "static+onward" in methods:
        th = res[(mode, "static+onward")]
        text += (" In server threads it costs %.1f ms with %d client(s), where every handler that goes on aborts on "
                 "the call and continues in a server thread (the seed, 7.3.1: \"for "
                 "sixteen or less processors, the thread version of computation migration actually performs better "
                 "than the optimistic active message version\")." % (th[mid] / 1000, mid))
        rep.check("onward: threads ahead of optimistic active messages at %d clients (%s)" % (mid, mode),
                  th[mid] < on[mid], "STATIC going onward %.1f ms per iteration in server threads, %.1f ms as "
                  "optimistic active messages (the seed's Figure 7-13: the thread version better for sixteen or less)"
                  % (th[mid] / 1000, on[mid] / 1000))
    rep.parts.append(text + "\n")


def cnet(rep, args, size):
    """The 8x8 bitonic counting network (firmware/tos/programs/cnet.c), one balancer per board on
    boards 2..25 of a generated machine, clients on the boards after them."""
    boards, clients, runs, iters, methods = SIZES[args.size]["cnet"]
    first_bal, first_client = CNET_FIRST_BALANCER, CNET_FIRST_CLIENT
    res, checks_ok = {}, {}
    for mode in MODES:
        for method in methods:
            res[(mode, method)], con = _cnet_run(args, os.path.join(rep.out, method), method, clients, mode)
            res[("miss", mode, method)], checks_ok[(mode, method)] = _cnet_misses(con)
            if "+oam" in method:
                res[("oam", mode, method)] = oam_counts(os.path.join(rep.out, method, mode))
    ncl = [int(c) for c in clients.split(",")]
    want = (runs + 1) * len(ncl)  # (and the untimed run 0)
    _network_figure(rep, con)
    rep.parts.append("The network of Figure 7-11 (Bitonic[8]: six stages of four balancers), built by `cnet` from "
                     "Aspnes, Herlihy and Shavit's recursive construction: balancer n is a 32-byte region (the seed's "
                     "nodes are eight words) homed on board %d + n of a %d-board machine "
                     "(`sim/configs/boards-%d.toml`), made there by a thread of the process that then serves migrated "
                     "computations; the eight output counters are regions homed on the boards of the last stage. "
                     "Client k runs on board %d + k, enters on input wire k mod 8 and makes one write access per "
                     "balancer and one at the counter (seven per value). Cost per iteration: the slope over %d runs "
                     "of i x %d values per client, all clients at once, after an untimed run of as many (the clients' "
                     "boards map the 32 regions; a lone client under data migration gathers its balancers) (the seed: each processor accesses the "
                     "network in a tight loop). What every step reads besides its node (the nodes' region ids, the "
                     "wires, the run's settings) is on a page of the process that nothing writes once the clients "
                     "start: a process's pages are shared by its threads on every board, one writer at a time, and "
                     "the seed's SPMD program had such data in each processor's own memory. Data migration is CRL's rgn_start_write/rgn_end_write; STATIC and "
                     "REPEAT are cm_call with the home's policy: every access is a write, so both migrate the "
                     "computation, and the output wire comes back as its result (the seed ran STATIC only, for that "
                     "reason). The computation returns to the client after each balancer (one round trip per "
                     "stage), except with \"+onward\": the seed's went on from balancer to balancer (7.3.1: its "
                     "optimistic active messages at the first five stages abort because they invoke the migration "
                     "protocol), and so does ours then (cm_onward: a balancer's step sends the rest of the "
                     "computation to the next node's home, whose kernel runs it, the handler aborting to a server "
                     "thread for the call as the seed's did; the counter's home answers the client)."
                     % (first_bal, boards, boards, first_client, runs, iters))
    for mode, (fig, machine) in (("dma-anywhere", ("7-12", "Alewife")), ("1994", ("7-13", "CM-5"))):
        for method in methods:
            rep.check("every count once (%s, %s)" % (mode, method), checks_ok[(mode, method)] == want,
                      "%d of %d runs handed out exactly the next c x iterations integers, each once (the counters "
                      "of a quiescent counting network hold the step property)" % (checks_ok[(mode, method)], want))
        rep.fig("%s (%s)" % (fig, mode), "cnet-%s" % mode,
                "cost per iteration of the 8x8 counting network, %s (the seed's %s figure): 24 balancers, one per board"
                % (MODE_LABEL[mode], machine),
                [{"title": "slope over %d runs of i x %d values per client" % (runs, iters),
                  "xlabel": "clients (boards)", "ylabel": "ms per iteration",
                  "series": [{"x": ncl, "y": [res[(mode, k)][c] / 1000.0 for c in ncl], "label": lab, "style": "line"}
                             for k, lab in (("data", "data migration"), ("static", "STATIC heuristic"),
                                            ("repeat", "REPEAT heuristic"),
                                            ("static+oam", "STATIC, optimistic active messages"),
                                            ("static+onward", "STATIC onward, threads"),
                                            ("static+oam+onward", "STATIC onward, optimistic active messages"))
                             if k in methods]}])
        d, st = res[(mode, "data")], res[(mode, "static")]
        lo, hi = ncl[0], ncl[-1]
        rep.check("data migration degrades with clients (%s)" % mode, d[hi] > 1.5 * d[lo],
                  "data migration %.1f ms per iteration with %d client(s), %.1f ms with %d: the balancers' only copies "
                  "move from client to client" % (d[lo] / 1000, lo, d[hi] / 1000, hi))
        mid = max(c for c in ncl if c <= 16)
        rep.check("computation migration wins under contention (%s)" % mode, st[mid] < d[mid],
                  "with %d clients STATIC %.1f ms per iteration, data migration %.1f ms (%.1f times faster; the seed: "
                  "computation migration wins from two clients on on Alewife, for two to sixteen on the CM-5)"
                  % (mid, st[mid] / 1000, d[mid] / 1000, d[mid] / st[mid] if st[mid] else 0))
        if lo == 1:
            rep.check("one client: data migration wins (%s)" % mode, d[lo] < st[lo],
                      "with one client data migration %.1f ms per iteration, STATIC %.1f ms: the client's balancers all "
                      "end up cached on its board (the seed: data migration wins with one processor on both machines)"
                      % (d[lo] / 1000, st[lo] / 1000))
        if 1 in ncl and 4 in ncl:
            rep.check("computation migration flat to four clients (%s)" % mode, st[4] < 1.25 * st[1],
                      "STATIC %.1f ms per iteration with one client, %.1f ms with four: the network is four balancers "
                      "wide, so four clients do not meet (the seed: the same cost for one, two and four)"
                      % (st[1] / 1000, st[4] / 1000))
        dm = res[("miss", mode, "data")]
        table = ["| clients | " + " | ".join(methods) + " | data: misses per value |",
                 "|---|" + "---|" * (len(methods) + 1)]
        for c in ncl:
            table.append("| %d | %s | %.2f |" % (c, " | ".join("%.1f" % (res[(mode, k)].get(c, float("nan")) / 1000)
                                                           for k in methods), dm.get(c, float("nan"))))
        one = "data migration %s STATIC with one client (%.1f vs %.1f ms: the seed: data migration wins with one " \
              "client, whose balancers all end up cached on it)" % ("beats" if d[lo] < st[lo] else "does not beat",
                                                                    d[lo] / 1000, st[lo] / 1000) if lo == 1 else ""
        cross = next((c for c in ncl if st[c] < d[c]), None)
        rep.parts.append("%s, ms per iteration (one value: seven accesses):\n\n%s\n\nComputation migration is "
                         "faster %s; %s." % (MODE_LABEL[mode], "\n".join(table),
                                             "from %d client(s) on" % cross if cross else "at no client count measured",
                                             one))
        if "static+oam" in methods:
            so = res[(mode, "static+oam")]
            if lo == 1 and len(ncl) > 1:
                rep.parts.append(_cnet_breakeven(mode, machine, ncl[1], d, so, dm))
            cross_o = next((c for c in ncl if so[c] < d[c]), None)
            rep.check("computation migration as OAM wins under contention (%s)" % mode, so[mid] < d[mid],
                      "with %d clients STATIC as optimistic active messages %.1f ms per iteration, data migration "
                      "%.1f ms" % (mid, so[mid] / 1000, d[mid] / 1000))
            rep.parts.append("%s, STATIC as optimistic active messages: computation migration is faster %s; with %d "
                             "client(s) it costs %.1f ms per value against %.1f ms in a server thread. Its handlers "
                             "(every run of the client counts): %s.\n"
                             % (MODE_LABEL[mode], "from %d client(s) on" % cross_o if cross_o else
                                "at no client count measured", hi, so[hi] / 1000, st[hi] / 1000,
                                oam_sentence(res[("oam", mode, "static+oam")])))
        if "static+oam+onward" in methods:
            _cnet_onward(rep, mode, ncl, methods, res)
    if "static+oam" in methods:
        cnet_small(rep, args, cnet_cm5_ab(rep, args, res))
    hi = ncl[-1]
    q = {m: res[(m, "static")][hi] / res[(m, "data")][hi] for m in MODES}
    rep.parts.append("With %d clients STATIC costs %.2f times data migration with the 1994 NI and %.2f times with "
                     "DMA-anywhere (the seed: on the CM-5 data migration wins from 32 processors on; on Alewife "
                     "computation migration still wins at 32)." % (hi, q["1994"], q["dma-anywhere"]))
    rep.results = res
    return res


# ---- Figures 7-15..7-18: the B-tree (7.3.2) ----
BT_METHODS = ["data", "static", "repeat", "static+oam", "repeat+oam"]
# The seed's B-tree figures are plots without data; its text gives these gains over data migration
# (percent, by lookup share): Alewife STATIC 44% at 0% and 5% at 80%, REPEAT 23% at 80%; on the
# CM-5 both heuristics "approximately twice as well" (+100%) below 90% lookups.
SEED_BTREE_GAIN = {("Alewife", "static"): [(0, 44), (80, 5)], ("Alewife", "repeat"): [(80, 23)],
                   ("CM-5", "static"): [(0, 100), (20, 100), (50, 100), (80, 100)],
                   ("CM-5", "repeat"): [(0, 100), (20, 100), (50, 100), (80, 100)]}


def btree(rep, args, size):
    z = SIZES[args.size]["btree"]
    config = paths.config("boards-%d.toml" % z["boards"])
    res, built, homed, host_s = {}, "", "", [0.0, 0.0]
    for mode in MODES:
        for method in BT_METHODS:
            d = os.path.join(rep.out, mode, method)
            rc = "earth btree %s %s %d %d %d %d %d %d\n" % (method, z["pcts"], z["runs"], z["iters"], z["init"],
                                                          z["leaf"], z["inner"], z["fill"])
            if not (getattr(args, "reanalyse", False) and os.path.exists(os.path.join(d, "earth.console.log"))):
                runner.run_testbed(args.bin_dir, args.firmware_dir, "seed003-btree", ["btree"], rc, d,
                                   quiet=args.quiet, sets=['centrenet.dma="%s"' % mode], config=config)
            con = runner.console(d, "earth")
            m = re.search(r"^host: ([0-9.]+) s for ([0-9.]+) s simulated", open(os.path.join(d, "testbed.log")).read(), re.M)
            if m:
                host_s[0] += float(m.group(1))
                host_s[1] += float(m.group(2))
            for m in re.finditer(r"^btree: (check|lookups): (.*)", con, re.M):
                res.setdefault(("line", mode, method, m.group(1)), m.group(2))
            m = re.search(r"^btree: built (.*)", con, re.M)
            built = m.group(1) if m else built
            m = re.search(r"^btree: (\d+) boards could not home regions.*", con, re.M)
            homed = m.group(0) if m else homed
            if "btree: done" not in con:
                fails = re.findall(r"btree: FAIL.*", con)
                rep.check("the tree whole (%s, %s)" % (mode, method), False,
                          "btree did not finish: %s (see %s)" % ("; ".join(fails) or "no end line", d))
                raise runner.RunError("%s (%s): btree did not finish: %s" % (method, mode, "; ".join(fails)))
            rep.check("the tree whole (%s, %s)" % (mode, method), True,
                      "%s; %s" % (res[("line", mode, method, "check")], res[("line", mode, method, "lookups")]))
            pts = {}
            for m in re.finditer(r"^btree \w+ (cold|warm) (\d+) (\d+) (\d+)", con, re.M):
                pts.setdefault((m.group(1), int(m.group(2))), []).append((int(m.group(3)), int(m.group(4))))
            for (phase, p), v in pts.items():
                res[(mode, method, phase, p)] = _slope(v)["slope"]
            if method.endswith("+oam"):
                res[("oam", mode, method)] = oam_counts(d)
    pcts = sorted(int(p) for p in z["pcts"].split(","))
    rep.parts.append("The %d simulations (5 methods x 2 NI modes) took %.0f s of host time for %.0f s of simulated time."
                     % (2 * len(BT_METHODS), host_s[0], host_s[1]))
    rep.parts.append(
        "Machine: %d boards (sim/configs/boards-%d.toml), one client thread on each slave (%d), every operation a "
        "lookup (the given share) or an insert of a random key in 0..1,000,000, a yield after each. Tree: %s.%s Cost "
        "per operation: the slope of a run's time over %d runs of i x %d operations per thread (cold: every copy "
        "flushed before each run; warm: the runs after, copies kept). The seed: 32 processors, 200,000 keys, 6 runs of "
        "100 i operations. The tree is smaller than the seed's because a process may hold %s region records on a TOS "
        "board (regions_per_process, tos.toml), and under data migration one board may come to hold a copy of every "
        "node: fewer than that many regions (%d initial keys; the seed's node sizes are kept, so each access moves as many bytes as the seed's). Inserts "
        "split leaves as the seed's do, but the inserting thread does the split itself by data migration (the seed "
        "starts a background thread at the parent's home); leaves are always acquired for writing by inserts, as the "
        "seed's modified code does."
        % (z["boards"], z["boards"], z["boards"] - 1, built, (" " + homed + ".") if homed else "", z["runs"],
           z["iters"], "64", z["init"]))
    for mode, (fs, fr, machine) in (("dma-anywhere", ("7-15", "7-16", "Alewife")), ("1994", ("7-17", "7-18", "CM-5"))):
        for h, number in (("static", fs), ("repeat", fr)):
            series = []
            for k, lab in ((h, h.upper() + " heuristic"), (h + "+oam", h.upper() + ", optimistic active messages"),
                           ("data", "data migration")):
                for phase in ("cold", "warm"):
                    series.append({"x": pcts, "y": [res[(mode, k, phase, p)] / 1000.0 for p in pcts],
                                   "label": "%s, %s" % (lab, phase), "style": "line"})
            seed_pts = SEED_BTREE_GAIN[(machine, h)]
            rep.fig("%s (%s)" % (number, mode), "btree-%s-%s" % (h, mode),
                    "cost per B-tree operation under %s, %s (the seed's %s figure): %d client boards; below: the "
                    "gain over data migration beside the gains the seed's text gives" % (h.upper(), MODE_LABEL[mode],
                                                                                       machine, z["boards"] - 1),
                    [{"title": "slope over %d runs of i x %d operations per thread" % (z["runs"], z["iters"]),
                      "xlabel": "lookups (%)", "ylabel": "ms per operation", "series": series},
                     {"title": "%s's gain over data migration (warm)" % h.upper(), "xlabel": "lookups (%)",
                      "ylabel": "% better than data migration",
                      "series": [{"x": pcts, "y": [(res[(mode, "data", "warm", p)] / res[(mode, h, "warm", p)] - 1) * 100
                                                   if res[(mode, h, "warm", p)] > 0 else 0 for p in pcts],
                                  "label": "here (%s)" % mode, "style": "line"},
                                 {"x": pcts, "y": [(res[(mode, "data", "warm", p)] / res[(mode, h + "+oam", "warm", p)] - 1)
                                                   * 100 if res[(mode, h + "+oam", "warm", p)] > 0 else 0 for p in pcts],
                                  "label": "here, optimistic active messages (%s)" % mode, "style": "line"},
                                 {"x": [x for x, _ in seed_pts], "y": [y for _, y in seed_pts],
                                  "label": "the seed, %s (its text)" % machine, "style": "dots"}]}])
        table = ["| lookups | " + " | ".join("%s %s" % (k, ph) for k in BT_METHODS for ph in ("cold", "warm")) + " |",
                 "|---|" + "---|" * (2 * len(BT_METHODS))]
        for p in pcts:
            table.append("| %d%% | %s |" % (p, " | ".join("%.1f" % (res[(mode, k, ph, p)] / 1000)
                                                     for k in BT_METHODS for ph in ("cold", "warm"))))
        rep.parts.append("%s, ms per operation (every client at once):\n\n%s\n" % (MODE_LABEL[mode], "\n".join(table)))
        lo, hi = pcts[0], pcts[-1]
        for k in BT_METHODS:
            a, b = res[(mode, k, "warm", lo)], res[(mode, k, "warm", hi)]
            rep.check("inserts cost more than lookups (%s, %s)" % (mode, k), a > b,
                      "%s: %.1f ms per operation at %d%% lookups, %.1f ms at %d%% (an insert writes a leaf; the seed's "
                      "curves all fall as lookups grow)" % (k, a / 1000, lo, b / 1000, hi))
        for h in ("static", "repeat", "static+oam", "repeat+oam"):
            if size != "full":  # who wins at 0%: the seed's claim, checked on the full machine only (below)
                continue
            d0, h0 = res[(mode, "data", "warm", lo)], res[(mode, h, "warm", lo)]
            rep.check("inserts: %s beats data migration (%s)" % (h.upper(), mode), h0 < d0,
                      "at %d%% lookups (warm) %s %.1f ms per operation, data migration %.1f ms: %.0f%% better (seed: "
                      "Alewife 44%% with STATIC, the CM-5 about twice)" % (lo, h.upper(), h0 / 1000, d0 / 1000,
                                                                            (d0 / h0 - 1) * 100 if h0 else 0))
        gain = {h: {p: (res[(mode, "data", "warm", p)] / res[(mode, h, "warm", p)] - 1) * 100 for p in pcts}
                for h in ("static", "repeat", "static+oam", "repeat+oam")}
        better = [p for p in pcts if gain["repeat"][p] > gain["static"][p]]
        rep.parts.append(
            "%s (warm): against data migration STATIC is %s better and REPEAT %s (lookups %s; negative: worse). The "
            "seed's %s: %s Here REPEAT beats STATIC at %s.\n"
            % (MODE_LABEL[mode], ", ".join("%+.0f%%" % gain["static"][p] for p in pcts),
               ", ".join("%+.0f%%" % gain["repeat"][p] for p in pcts), ", ".join("%d%%" % p for p in pcts), machine,
               "STATIC generally better than REPEAT, both better than data migration below 90% lookups; at 80% REPEAT "
               "+23%, STATIC +5%; at 0% lookups STATIC +44%." if machine == "Alewife" else
               "both heuristics about twice as good as data migration (a 2000-byte leaf takes 1/3 s to move); REPEAT "
               "at least as good as STATIC.",
               ", ".join("%d%%" % p for p in better) + " lookups" if better else "no share measured"))
        better_o = [p for p in pcts if gain["repeat+oam"][p] > gain["static+oam"][p]]
        rep.parts.append(
            "%s (warm), as optimistic active messages: against data migration STATIC is %s better and REPEAT %s "
            "(lookups %s). Here REPEAT beats STATIC at %s. Their handlers: STATIC %s; REPEAT %s.\n"
            % (MODE_LABEL[mode], ", ".join("%+.0f%%" % gain["static+oam"][p] for p in pcts),
               ", ".join("%+.0f%%" % gain["repeat+oam"][p] for p in pcts), ", ".join("%d%%" % p for p in pcts),
               ", ".join("%d%%" % p for p in better_o) + " lookups" if better_o else "no share measured",
               oam_sentence(res[("oam", mode, "static+oam")]), oam_sentence(res[("oam", mode, "repeat+oam")])))
        d1, s1 = res[(mode, "data", "warm", hi)], res[(mode, "static", "warm", hi)]
        d0 = res[(mode, "data", "warm", lo)]
        rep.check("lookups only: STATIC is data migration (%s)" % mode, abs(s1 - d1) < 0.25 * d0,
                  "at %d%% lookups (warm) STATIC %.1f ms, data migration %.1f ms: STATIC migrates data for every read, "
                  "so the two differ by less than a quarter of an insert's cost under data migration (%.1f ms at %d%%)"
                  % (hi, s1 / 1000, d1 / 1000, d0 / 1000, lo))
    lo = pcts[0]
    g = {(m, h): (res[(m, "data", "warm", lo)] / res[(m, h, "warm", lo)] - 1) * 100 for m in MODES
         for h in ("static", "repeat", "static+oam", "repeat+oam")}
    rep.parts.append(
        "Does the seed's conclusion hold here? Computation migration for writes pays on the B-tree when data "
        "movement is dear: with the 1994 NI (the CM-5's side) at %d%% lookups STATIC is %+.0f%% and REPEAT %+.0f%% "
        "against data migration (the seed's CM-5: about +100%%); with DMA-anywhere (Alewife's side) STATIC %+.0f%%, "
        "REPEAT %+.0f%% (the seed's Alewife: STATIC +44%%). Cheaper data movement %s the heuristics' gain here (the "
        "seed's two machines: it shrinks it). How far one tree's random build and keys move these gains is measured "
        "over seeds below. "
        "As optimistic active messages, as the seed ran them: at %d%% lookups STATIC %+.0f%% and REPEAT %+.0f%% with "
        "the 1994 NI, STATIC %+.0f%% and REPEAT %+.0f%% with DMA-anywhere."
        % (lo, g[("1994", "static")], g[("1994", "repeat")], g[("dma-anywhere", "static")], g[("dma-anywhere", "repeat")],
           "shrinks" if all(g[("1994", h)] > g[("dma-anywhere", h)] for h in ("static", "repeat")) else
           "does not always shrink", lo, g[("1994", "static+oam")], g[("1994", "repeat+oam")],
           g[("dma-anywhere", "static+oam")], g[("dma-anywhere", "repeat+oam")]))
    btree_seeds(rep, args, z, config, res)
    rep.results = res
    return res


# The B-tree over more seeds (btree's SEED: the tree's keys, the homes, the clients' keys): the
# CM-5's claim at 0% lookups ("about twice") judged on the mean over seeds, not on one tree.
BT_SEEDS = {"full": (2, 3, 4), "reduced": (2,)}
BT_SEED_METHODS = ("data", "static", "static+oam")


def btree_seeds(rep, args, z, config, res):
    mode, p = "1994", 0
    ratio = {1: {h: res[(mode, "data", "warm", p)] / res[(mode, h, "warm", p)] for h in BT_SEED_METHODS[1:]}}
    for sd in BT_SEEDS[args.size]:
        got = {}
        for method in BT_SEED_METHODS:
            d = os.path.join(rep.out, "seeds", "%s-%d" % (method, sd))
            rc = "earth btree %s %d %d %d %d %d %d %d %d\n" % (method, p, z["runs"], z["iters"], z["init"], z["leaf"],
                                                              z["inner"], z["fill"], sd)
            if not (getattr(args, "reanalyse", False) and os.path.exists(os.path.join(d, "earth.console.log"))):
                runner.run_testbed(args.bin_dir, args.firmware_dir, "seed003-btree", ["btree"], rc, d,
                                   quiet=args.quiet, sets=['centrenet.dma="%s"' % mode], config=config)
            con = runner.console(d, "earth")
            v = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(r"^btree \w+ warm %d (\d+) (\d+)" % p, con, re.M)]
            rep.check("the B-tree with seed %d (%s, %s): its run finished" % (sd, mode, method),
                      "btree: done" in con and len(v) >= 2, os.path.relpath(d, rep.out))
            if "btree: done" not in con or len(v) < 2:
                return
            got[method] = _slope(v)["slope"]
        ratio[sd] = {h: got["data"] / got[h] for h in BT_SEED_METHODS[1:]}
    seeds = sorted(ratio)
    mean = {h: sum(ratio[sd][h] for sd in seeds) / len(seeds) for h in BT_SEED_METHODS[1:]}
    rep.parts.append(
        "The B-tree over %d seeds (btree's SEED: the tree's keys, the regions' homes and the clients' keys; seed 1 is "
        "the runs above; %s, %d%% lookups, warm): data migration's cost over STATIC's %s (mean %.2f, %.2f..%.2f); over "
        "STATIC as optimistic active messages %s (mean over seeds %.2f, %.2f..%.2f). The seed's CM-5: about 2.\n"
        % (len(seeds), MODE_LABEL[mode], p, ", ".join("%.2f" % ratio[sd]["static"] for sd in seeds), mean["static"],
           min(ratio[sd]["static"] for sd in seeds), max(ratio[sd]["static"] for sd in seeds),
           ", ".join("%.2f" % ratio[sd]["static+oam"] for sd in seeds), mean["static+oam"],
           min(ratio[sd]["static+oam"] for sd in seeds), max(ratio[sd]["static+oam"] for sd in seeds)))


def write_btree_section(path, rep):
    """Only the B-tree's section of an existing seed003.md regenerated (between its markers), its
    figures copied beside it: the B-tree runs on its own (docs-seed003-btree)."""
    figdir = os.path.splitext(path)[0]
    os.makedirs(figdir, exist_ok=True)
    for _n, p, _c in rep.figures:
        base = os.path.splitext(os.path.join(rep.out, p))[0]
        for ext in (".png", ".svg"):
            shutil.copy(base + ext, figdir)
    from .claims import doc_tail, run_part
    with open(path) as f:
        text = f.read()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    why = os.path.join(here, "seed003_why.md")
    text = run_part(text)  # the prose and the claims close the doc: written again below
    with open(why) as f:
        w = text.find(f.read().splitlines()[0] + "\n")  # a doc written before the markers
    if w >= 0:
        text = text[:w]
    block = BT_BEGIN + "\n" + rep.markdown(fig_prefix=os.path.basename(figdir), level=2) + BT_END + "\n"
    a, b = text.find(BT_BEGIN), text.find(BT_END)
    if a >= 0 and b > a:
        text = text[:a] + block + text[b + len(BT_END) + 1:]
    else:
        text = text + block
    text += doc_tail("003", os.path.basename(path), text, why)  # (before the file is opened: a failure keeps it)
    with open(path, "w") as f:
        f.write(text)


BT_BEGIN, BT_END = "<!-- seed003-btree: generated by testbed-experiment seed003-btree -->", "<!-- /seed003-btree -->"

TITLES = {"seed003-ops": "7.2.1 Operation latencies (Tables 7.1 and 7.2)",
          "seed003-migration": "7.2.2 Migration latency (Figures 7-1 to 7-6)",
          "seed003-phases": "7.2.2 One migration taken apart (the monitor's trace)",
          "seed003-micro": "7.2.3 The microbenchmark (Figures 7-7 to 7-10)",
          "seed003-cnet": "7.3.1 The counting network (Figures 7-11 to 7-13)",
          "seed003-btree": "7.3.2 The B-tree (Figures 7-14 to 7-18)"}
RUN = {"seed003-ops": ops, "seed003-migration": migration, "seed003-phases": phases, "seed003-micro": micro, "seed003-cnet": cnet,
       "seed003-btree": btree}


def run_one(name, args):
    out = os.path.join(args.out, name)
    if os.path.isdir(out) and not (getattr(args, "reanalyse", False) and name == "seed003-btree"):
        shutil.rmtree(out)  # (--reanalyse: the B-tree's kept runs analysed again, no simulation)
    os.makedirs(out, exist_ok=True)
    rep = Rep(name, TITLES[name], out)
    t0 = time.time()
    RUN[name](rep, args, args.size)
    secs = time.time() - t0
    if getattr(args, "reanalyse", False) and name == "seed003-btree":
        rep.parts.append("Size: %s; the kept runs analysed again (--reanalyse) in %.0f s." % (args.size, secs))
    else:
        rep.parts.append("Size: %s; simulated in %.0f s on this host." % (args.size, secs))
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(rep.markdown(level=1))
    return rep, secs


def main(names, args):
    reps, failed, t_all = [], False, time.time()
    for n in names:
        try:
            rep, secs = run_one(n, args)
        except runner.RunError as e:
            print("testbed-experiment: %s: %s" % (n, e))
            return 1
        reps.append(rep)
        bad = [c for c in rep.checks if not c[1]]
        failed |= bool(bad)
        print("%-18s %s  %3.0f s  %s" % (n, "ok  " if not bad else "FAIL", secs, os.path.join(args.out, n, "results.md")))
        for what, _ok, detail in bad:
            print("  FAIL %s: %s" % (what, detail))
    if getattr(args, "doc3", None) and names == ["seed003-btree"] and os.path.exists(args.doc3):
        write_btree_section(args.doc3, reps[0])
        print("wrote the B-tree's section of %s" % args.doc3)
    elif getattr(args, "doc3", None):
        write_doc(args.doc3, reps, args.size, time.time() - t_all)
        print("wrote %s" % args.doc3)
    return 1 if failed else 0


def write_doc(path, reps, size, secs):
    figdir = os.path.splitext(path)[0]
    if os.path.isdir(figdir):
        shutil.rmtree(figdir)
    os.makedirs(figdir)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    from .docwriter import opening
    with open(os.path.join(here, "seed003_intro.md")) as f:
        about = f.read()
    body = [opening("Seed 003 on the simulated Testbed: shared regions and dynamic computation migration",
                    "build/bin/testbed-experiment seed003 --doc3 docs/results/seed003.md", "docs-seed003", about,
                    size, secs)]
    for rep in reps:
        for _n, p, _c in rep.figures:
            base = os.path.splitext(os.path.join(rep.out, p))[0]
            for ext in (".png", ".svg"):
                shutil.copy(base + ext, figdir)
        md = rep.markdown(fig_prefix=os.path.basename(figdir), level=2)
        body.append(BT_BEGIN + "\n" + md + BT_END + "\n" if rep.name == "seed003-btree" else md)
    from .claims import doc_tail  # the prose filled from this run, then the claims rows
    body.append(doc_tail("003", os.path.basename(path), "".join(body), os.path.join(here, "seed003_why.md")))
    with open(path, "w") as f:
        f.write("".join(body))
