"""Seed 001 (Overeinder et al. 1996, DynamicPVM) on the Testbed: whole-process migration time
against process size (their Figure 4), direct and indirect checkpoints, measured by
firmware/tos/programs/pmigbench.c under TOS (kernel/pmigrate.c), earth -> fire; and the
ping-pong of their section 4.2 (Tables 2-3, Figure 3): the PVM-style task layer (lib/pvm.c)
against plain TOS channels, measured by firmware/tos/programs/pvmpong.c, earth <-> air.

  testbed-experiment seed001|seed001-fig4|seed001-pingpong|seed001-app [--size reduced] [--doc1 FILE]
(seed001-app, Tables 4-5 and Figures 5-6: seed001_app.py)
"""
import os
import re
import shutil
import time

from . import kernel_profile, runner
from . import seed001_app  # Tables 4-5, Figures 5-6: the application gaining from migration
from .stats import fit
from .seed003 import Rep

NAMES = ["seed001-fig4", "seed001-pingpong", "seed001-app"]
# KB of data: TOS's process image is at most 512 KB (code, data, heap), not the 2 MB of a
# Sun's process; the range stays inside it.
SIZES = {"full": (0, 384, 48, 2), "reduced": (0, 192, 96, 1)}
# The seed's section 4.3: direct about 1 MB/s (Ethernet's bandwidth), indirect (NFS) about 450 KB/s.
SEED_KBPS = {"direct": 1000.0, "indirect": 450.0}
DEST = 3  # fire
# ping-pong: message sizes (bytes; 16 KB is PVM_MAX_BYTES, the layer's largest), observations per
# size and system, round trips per observation (the seed: 30 observations of 1000)
PP_SIZES = {"full": ([1, 4, 16, 64, 256, 1024, 2048, 4096, 8192, 16384], 5, 20),
            "reduced": ([1, 4096], 2, 3)}
PP_PEER = 2  # air
# The routing's own cost, A/B: pvmpong -layer fixed and -layer pvm, each alone, one-byte round
# trips, with the cycle profile of both ends; (observations, round trips) by size.
ROUTING_AB = {"full": (1, 100), "reduced": (1, 10)}
ROUTING_FUNCS = ("sys_psend", "route_lookup")  # the kernel's routed-send entry and table lookup
# The seed's Table 2 (low network load): size -> (PVM, DynamicPVM) microseconds
SEED_T2 = {1: (7268, 7619), 4: (7170, 7568), 8: (7196, 7680), 16: (7170, 7626), 32: (7172, 7794), 64: (7236, 7723),
           128: (7288, 7913), 256: (7676, 8137), 512: (7844, 8454), 1024: (8482, 9048), 2048: (9853, 10594),
           4096: (14904, 15856), 8192: (22091, 23248), 16384: (36980, 38437), 32768: (65150, 67808),
           65536: (120756, 126199), 131072: (232304, 242082), 262144: (453843, 475323),
           524288: (900094, 937909), 1048576: (1785052, 1854352)}


def fig4(rep, args, size):
    lo, hi, step, reps = SIZES[size]
    d = os.path.join(rep.out, "run")
    runner.run_testbed(args.bin_dir, args.firmware_dir, "seed001-fig4", ["pmigbench"],
                       "earth pmigbench run %d %d %d %d %d\n" % (lo, hi, step, reps, DEST), d, quiet=args.quiet)
    con = runner.console(d, "earth")
    if "pmigbench: done" not in con:
        fails = re.findall(r"pmigbench: FAIL.*", con)
        raise runner.RunError("pmigbench did not finish: %s (see %s)" % ("; ".join(fails) or "no end line", d))
    pts = {"direct": {}, "indirect": {}}
    for kb, mode, us in re.findall(r"pmigbench: (\d+) (direct|indirect) (\d+)", con):
        pts[mode].setdefault(int(kb), []).append(int(us))
    res = {}
    for mode in ("direct", "indirect"):
        xs = sorted(pts[mode])
        ys = [min(pts[mode][x]) / 1000.0 for x in xs]  # ms, the best of the repetitions
        res[mode] = (xs, ys, fit(xs, ys))
    rows = ["| data KB | direct ms | indirect ms | indirect / direct | seed direct ms (1 MB/s) | seed indirect ms (450 KB/s) |",
            "|---|---|---|---|---|---|"]
    xs = res["direct"][0]
    for i, x in enumerate(xs):
        dm, im = res["direct"][1][i], res["indirect"][1][i]
        rows.append("| %d | %.1f | %.1f | %.2f | %.0f | %.0f |" % (x, dm, im, im / dm, (x + 75) / SEED_KBPS["direct"] * 1000,
                                                                      (x + 75) / SEED_KBPS["indirect"] * 1000))
    fd, fi = res["direct"][2], res["indirect"][2]
    rep.parts.append("Migration time of a process (pmigbench's code, fixed; data 0..%d KB), from the call to the process "
                     "running on the destination, best of %d:\n\n%s\n" % (hi, reps, "\n".join(rows)))
    rep.parts.append("Fits: direct %.3f ms/KB + %.1f ms (r² %.4f, %.0f KB/s), indirect %.3f ms/KB + %.1f ms (r² %.4f, "
                     "%.0f KB/s); slope ratio indirect/direct %.2f (the seed: about 2.2, 1000 vs 450 KB/s).\n"
                     % (fd["slope"], fd["intercept"], fd["r2"], 1000.0 / fd["slope"] if fd["slope"] > 0 else 0,
                        fi["slope"], fi["intercept"], fi["r2"], 1000.0 / fi["slope"] if fi["slope"] > 0 else 0,
                        fi["slope"] / fd["slope"] if fd["slope"] > 0 else 0))
    rep.fig("4", "fig4", "migration time against data size, direct and indirect checkpoints (the seed's Figure 4)",
            [{"title": "pmigrate earth -> fire, a process with fixed code and a data array of 0..%d KB" % hi,
              "xlabel": "data (KB)", "ylabel": "ms",
              "series": [{"x": res[m][0], "y": res[m][1], "label": "ours, " + m, "style": "line"} for m in res] +
                        [{"x": xs, "y": [(x + 75) / SEED_KBPS[m] * 1000 for x in xs], "label": "seed (75 KB code), " + m,
                          "style": "dots"} for m in SEED_KBPS]}])
    rep.check("linear in size", fd["r2"] > 0.98 and fi["r2"] > 0.98 and fd["slope"] > 0 and fi["slope"] > 0,
              "r² direct %.4f, indirect %.4f (> 0.98), slopes positive" % (fd["r2"], fi["r2"]))
    ratio = fi["slope"] / fd["slope"] if fd["slope"] > 0 else 0
    rep.check("indirect slower", 1.4 <= ratio <= 3.5 and all(i > d for d, i in zip(res["direct"][1], res["indirect"][1])),
              "indirect/direct slope %.2f (1.4..3.5; the seed about 2) and indirect slower at every size" % ratio)
    direct_breakdown(rep, args, size, fd["slope"])
    pmig_phases(rep, args, size)
    return res


# DynamicPVM's five phases as kernel/pmigrate.c marks them (class threads; sw/tables/events.toml)
PMIG_EVENTS = ("PMIG_CONTEXT", "PMIG_DISCONNECT", "PMIG_CHECKPOINT", "PMIG_MOVE", "PMIG_RESTART")
PMIG_LABELS = {"PMIG_DISCONNECT": "2: every thread stopped outside a call (home)",
               "PMIG_CHECKPOINT": "3: the image's first page sent (home)",
               "PMIG_CONTEXT": "1: the new context made (destination; indirect: at the restore)",
               "PMIG_MOVE": "4: the image whole at the destination",
               "PMIG_RESTART": "5: every thread sent to restart (home)"}


def pmig_phases(rep, args, size):
    """One migration of each kind at the largest size and at 0 KB, traced with the threads class:
    the time between the five phases' events on the monitor's global clock, and the image's part
    a page (its pages from PMIG_CHECKPOINT's word)."""
    from .trace import read
    kb = SIZES[size][1]
    got = {}
    for mode in ("direct", "indirect"):
        for k in (0, kb):
            d = os.path.join(rep.out, "phases-%s-%d" % (mode, k))
            # (quiet for 5 s before the logger stops: the task writes its array, with no event, first)
            rc = ("master logger -q 5000 -o monitor.raw &\nearth dgl @* +threads\n"
                  "earth pmigbench run %d %d 1 1 %d %s\n" % (k, k, DEST, mode))
            runner.run_testbed(args.bin_dir, args.firmware_dir, "seed001-phases", ["pmigbench", "dgl", "logger"], rc, d,
                               quiet=args.quiet)
            if "pmigbench: done" not in runner.console(d, "earth"):
                raise runner.RunError("pmigbench %s %d KB did not finish (see %s)" % (mode, k, d))
            tr = read(os.path.join(d, "monitor.trace.txt"))
            ev = {}
            for e in tr.events:
                if e.name in PMIG_EVENTS and e.name not in ev:
                    ev[e.name] = e
            got[(mode, k)] = ev if len(ev) == len(PMIG_EVENTS) and not tr.lost_somewhere() else None
    whole = all(v is not None for v in got.values())
    rep.check("every phase of each traced migration found (five PMIG events, no event lost)", whole,
              ", ".join("%s %d KB: %s" % (m, k, "whole" if v else "incomplete") for (m, k), v in got.items()))
    if not whole:
        return
    span = lambda ev, a, b: ev[b].t - ev[a].t
    cols = [(m, k) for m in ("direct", "indirect") for k in (0, kb)]
    rows = ["| event (ms after phase 2's) | " + " | ".join("%s %d KB" % (m, k) for m, k in cols) + " |",
            "|---|" + "---|" * len(cols)]
    for name in sorted(PMIG_EVENTS, key=lambda n: got[cols[-1]][n].t):  # in the order the largest run saw them
        rows.append("| %s | %s |" % (PMIG_LABELS[name], " | ".join("%.1f" % span(got[c], "PMIG_DISCONNECT", name)
                                                                    for c in cols)))
    pages = {c: got[c]["PMIG_CHECKPOINT"].arg for c in cols}
    per = {m: (span(got[(m, kb)], "PMIG_CHECKPOINT", "PMIG_MOVE") - span(got[(m, 0)], "PMIG_CHECKPOINT", "PMIG_MOVE"))
           / max(1, pages[(m, kb)] - pages[(m, 0)]) for m in ("direct", "indirect")}
    rep.parts.append("**The five phases** (`pmigbench run K K 1 1 3 direct|indirect` with the threads class on: the "
                     "monitor's global clock at each of `kernel/pmigrate.c`'s PMIG events, the first migration of each "
                     "run; pages in the image: %s).\n\n%s\n\nThe image's part grows by %.2f ms a page direct and %.2f "
                     "ms indirect; the other phases hardly change with the size.\n"
                     % (", ".join("%s %d KB %d" % (m, k, pages[(m, k)]) for m, k in cols), "\n".join(rows),
                        per["direct"], per["indirect"]))
    grow = lambda m, a, b: span(got[(m, kb)], a, b) - span(got[(m, 0)], a, b)
    rep.check("the image's phase carries the size (it grows with the pages, the phases around it by less)",
              all(grow(m, "PMIG_CHECKPOINT", "PMIG_MOVE") > max(abs(grow(m, "PMIG_DISCONNECT", "PMIG_CHECKPOINT")),
                                                               abs(grow(m, "PMIG_MOVE", "PMIG_RESTART")))
                  for m in ("direct", "indirect")),
              "image phase %s" % ", ".join("%s %.1f -> %.1f ms" % (m, span(got[(m, 0)], "PMIG_CHECKPOINT", "PMIG_MOVE"),
                                                                  span(got[(m, kb)], "PMIG_CHECKPOINT", "PMIG_MOVE"))
                                           for m in ("direct", "indirect")))


def _profile_run(rep, args, name, kb, only):
    """pmigbench at one size, one mode (or none: the control), earth (home) and fire (destination)
    cycle-profiled: their cycles by function together, and the clock in MHz."""
    d = os.path.join(rep.out, name)
    runner.run_testbed(args.bin_dir, args.firmware_dir, "seed001-" + name, ["pmigbench"],
                       "earth pmigbench run %d %d 1 1 %d %s\n" % (kb, kb, DEST, only), d, quiet=args.quiet,
                       sets=('trace.cycle_profile="earth,fire"',))
    if "pmigbench: done" not in runner.console(d, "earth"):
        raise runner.RunError("pmigbench %s did not finish (see %s)" % (name, d))
    return boards_profile(args, d, ("earth", "fire"), "pmigbench")


def boards_profile(args, d, boards, program):
    """A run's cycle profiles of `boards` (trace.cycle_profile) added up by function (the kernel's
    by name, `user: NAME` the program's), and the run's clock in MHz (None if testbed.log lacks it)."""
    elf, prog = os.path.join(args.firmware_dir, "tos.elf"), os.path.join(args.firmware_dir, program + ".elf")
    by = {}
    for b in boards:
        f, _total, _n = kernel_profile.cycles_by_function(os.path.join(d, b + ".cycles"), elf, program=prog)
        for k, v in f.items():
            by[k] = by.get(k, 0) + v
    return by, runner.clock_mhz(d)


def direct_breakdown(rep, args, size, slope_ms):
    """Where a direct checkpoint's time a KB goes, in 68010 cycles on the two boards: pmigbench at
    the largest size and at 0 KB, each with the migration and without it (none: spawn, array,
    wait and kill alike), all four cycle-profiled. (mig(K) - none(K)) - (mig(0) - none(0)), over K,
    is what the migration of one more KB costs each function."""
    kb = SIZES[size][1]
    runs = {(k, o): _profile_run(rep, args, "breakdown-%s-%d" % (o, k), k, o) for k in (0, kb) for o in ("direct", "none")}
    mhz = runs[(kb, "direct")][1]
    names = set().union(*(r[0] for r in runs.values()))
    per = {n: ((runs[(kb, "direct")][0].get(n, 0) - runs[(kb, "none")][0].get(n, 0)) -
               (runs[(0, "direct")][0].get(n, 0) - runs[(0, "none")][0].get(n, 0))) / float(kb) for n in names}
    idle = per.pop("cpu_idle", 0.0)
    work = sum(per.values())
    ok = mhz is not None and all(r[1] == mhz for r in runs.values()) and work > 0
    rep.check("the direct checkpoint's cycle breakdown: four profiled runs on one clock, with work a KB",
              bool(ok), "%s MHz; %.0f cycles a KB of work on earth and fire" % (mhz, work))
    if not ok:
        return
    top = sorted(per.items(), key=lambda kv: -kv[1])[:8]
    rows = ["| function (earth and fire) | cycles a KB | µs a KB |", "|---|---|---|"]
    rows += ["| `%s` | %.0f | %.1f |" % (n, c, c / mhz) for n, c in top]
    rows.append("| the rest | %.0f | %.1f |" % (work - sum(c for _, c in top), (work - sum(c for _, c in top)) / mhz))
    rep.parts.append("**Where a direct checkpoint's time goes.** pmigbench at %d KB and at 0 KB, each with the direct "
                     "migration and without it (`pmigbench ... none`: the same spawn, array, wait and kill), with the "
                     "cycle profile of earth and fire: what one more KB of data costs each function of the two boards "
                     "(kernel functions by name, `user: ...` the programs'), against the fit's %.3f ms a KB.\n\n%s\n\n"
                     "One more KB costs %.0f cycles of work on the two boards together (%.2f ms at %g MHz) and %+.0f "
                     "cycles idle (%.2f ms); the fit's slope is %.3f ms a KB (%.0f KB/s).\n"
                     % (kb, slope_ms, "\n".join(rows), work, work / mhz / 1000.0, mhz, idle, idle / mhz / 1000.0,
                        slope_ms, 1000.0 / slope_ms))


# Student's t, 0.975 quantile, by degrees of freedom (a 95% confidence interval); 1.96 past 30
T975 = [0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def one_factor(a, b):
    """The seed's equation 1 for two systems of n observations each: y_ij = mu + alpha_j + e_ij.
    Returns alpha_2 (b's effect), the half width of its 95% confidence interval (Jain: s_alpha =
    s_e sqrt((a - 1) / (a n)), a = 2 systems, t with a (n - 1) degrees of freedom), the share of
    the variation the system explains (SSA / SST) and F = (SSA / 1) / (SSE / (2 (n - 1)))."""
    n = len(a)
    mu = (sum(a) + sum(b)) / (2.0 * n)
    al2 = sum(b) / n - mu
    sse = sum((y - sum(a) / n) ** 2 for y in a) + sum((y - sum(b) / n) ** 2 for y in b)
    ssa = 2 * n * al2 * al2
    df = 2 * (n - 1)
    se2 = sse / df if df > 0 else 0.0
    ci = T975[df] if df < len(T975) else 1.96
    half = ci * (se2 / (2 * n)) ** 0.5
    sst = ssa + sse
    return al2, half, (ssa / sst if sst > 0 else 1.0), (ssa / se2 if se2 > 0 else float("inf"))


# The overhead in percent as the seed's Tables 2 and 3 print it (the authors' rounding of their
# own means: 4096 bytes at medium load is 1.8% there, where its two means give 1.9%)
SEED_T2_PCT = {1: 4.8, 4: 5.6, 8: 6.7, 16: 6.4, 32: 8.7, 64: 6.7, 128: 8.6, 256: 6.0, 512: 7.8, 1024: 6.7,
               2048: 7.5, 4096: 6.4, 8192: 5.2, 16384: 3.9, 32768: 4.1, 65536: 4.5, 131072: 4.2, 262144: 4.7,
               524288: 4.2, 1048576: 3.9}
SEED_T3_PCT = {1: 2.5, 4: 3.9, 8: 3.6, 16: 2.5, 32: 2.4, 64: 2.2, 128: 3.1, 256: 2.6, 512: 2.5, 1024: 2.1,
               2048: 1.5, 4096: 1.8, 8192: 2.0, 16384: 0.8}
# The seed's Table 3 (medium network load): size -> (PVM, DynamicPVM) microseconds
SEED_T3 = {1: (7425, 7612), 4: (7372, 7660), 8: (7367, 7635), 16: (7402, 7588), 32: (7432, 7611), 64: (7489, 7652),
           128: (7570, 7806), 256: (7817, 8017), 512: (8311, 8519), 1024: (9232, 9426), 2048: (11151, 11322),
           4096: (17081, 17398), 8192: (25623, 26149), 16384: (43328, 43689)}
PP_LOAD = (3, 4)  # the medium load: fire sends 1 KB messages to water without pause
SYSTEMS = ("plain", "fixed", "pvm")


def _pct(a, b):
    return 100.0 * (b - a) / a if a else 0.0


def pingpong(rep, args, size):
    sizes, obs, reps = PP_SIZES[size]
    d = os.path.join(rep.out, "run")
    runner.run_testbed(args.bin_dir, args.firmware_dir, "seed001-pingpong", ["pvmpong"],
                       "earth pvmpong %d %d %d %d:%d %s\n" % (PP_PEER, obs, reps, PP_LOAD[0], PP_LOAD[1],
                                                              " ".join(str(x) for x in sizes)), d, quiet=args.quiet)
    con = runner.console(d, "earth")
    done = "pvmpong: done" in con
    if not done and "pvmpong: obs" not in con:
        fails = re.findall(r"pvmpong: FAIL.*", con)
        raise runner.RunError("pvmpong did not finish: %s (see %s)" % ("; ".join(fails) or "no end line", d))
    # half a round trip, microseconds, per observation: t[load][system][size]
    t = {ld: {m: {} for m in SYSTEMS} for ld in ("low", "medium")}
    for ld, n, mode, r, us in re.findall(r"pvmpong: obs (low|medium) (\d+) (plain|fixed|pvm) (\d+) (\d+)", con):
        t[ld][mode].setdefault(int(n), []).append(int(us) / (2.0 * int(r)))
    lm = re.search(r"pvmpong: load (\d+) (\d+) (\d+)", con)
    load_bytes, load_us, medium_us = (int(lm.group(1)), int(lm.group(2)), int(lm.group(3))) if lm else (0, 0, 0)
    load_kbps = load_bytes / 1024.0 / (load_us / 1e6) if load_us else 0.0
    with open(os.path.join(d, "testbed.log")) as f:
        um = re.search(r"centrenet.bus0: frames \d+ bytes \d+ utilisation ([0-9.]+)%", f.read())
    bus_util = float(um.group(1)) if um else -1.0
    complete = done and all(len(t[ld][m].get(n, [])) == obs for ld in t for m in SYSTEMS for n in sizes)
    res = {}
    for ld, seedt, seedp, table in (("low", SEED_T2, SEED_T2_PCT, "2"), ("medium", SEED_T3, SEED_T3_PCT, "3")):
        rows = ["| size (bytes) | plain TOS (µs) | PVM-style, fixed tids (µs) | PVM-style, routed (µs) | routing overhead | "
                "effect α₂ of the routing, 95% c.i. (µs) | SSA/SST | layer vs plain | seed PVM (µs) | seed DynamicPVM (µs) |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        res[ld] = []
        for n in sizes:
            p, f, r = (t[ld][m].get(n, []) for m in SYSTEMS)
            if not p or not (len(p) == len(f) == len(r)):
                continue
            mp, mf, mr = sum(p) / len(p), sum(f) / len(f), sum(r) / len(r)
            al2, half, share, _f = one_factor(f, r)
            res[ld].append({"n": n, "plain": mp, "fixed": mf, "pvm": mr, "a2": al2, "ci": half, "layer_a2": one_factor(p, f)[0]})
            sd = seedt.get(n)
            rows.append("| %d | %.0f | %.0f | %.0f | %+.2f%% | %+.1f ± %.1f | %.3f | %+.1f%% | %s | %s |" % (
                n, mp, mf, mr, _pct(mf, mr), al2, half, share, _pct(mp, mf), "%d" % sd[0] if sd else "-",
                "%d (%.1f%%)" % (sd[1], seedp[n]) if sd else "-"))
        rep.parts.append("**Table %s (%s network load%s).** Half the round trip of a message of each size between a "
                         "task on earth and one on air, grand mean of %d observations of %d round trips each, the three "
                         "systems interleaved: plain TOS channels (`send_block`/`receive` of the bytes), the PVM-style "
                         "layer with fixed tids (`pvm_setopt(PvmRoute, PvmRouteFixed)`: `send_block` on the pair's "
                         "channel, no table: the seed's PVM) and the same layer routed by the boards' tables (`psend`: "
                         "the seed's DynamicPVM). The routing overhead and its effect α₂ are the seed's one-factor model "
                         "(equation 1, α₁ = -α₂) of routed against fixed, with the 95%% confidence interval of α₂ "
                         "(t with 2(n-1) degrees of freedom); SSA/SST is the share of the variation the routing "
                         "explains; \"layer vs plain\" is the fixed layer against raw channels. The seed's columns are "
                         "its Table %s.\n\n%s\n" % (
                             table, ld, "" if ld == "low" else ": fire sends 1 KB messages to water without pause, "
                             "%.0f KB/s measured by the load's sender over %.1f s; Centrenet's bus busy %.3f%% of "
                             "the whole run" % (load_kbps, load_us / 1e6, bus_util),
                             obs, reps, table, "\n".join(rows)))
    low, med = res["low"], res["medium"]
    pl = [_pct(x["fixed"], x["pvm"]) for x in low]
    pm = [_pct(x["fixed"], x["pvm"]) for x in med]
    s2 = list(SEED_T2_PCT.values())
    s3 = list(SEED_T3_PCT.values())
    if low and med:
        rep.parts.append("The seed's DynamicPVM costs %.1f%% on average over PVM at low load (Table 2) and %.1f%% at "
                         "medium load (Table 3). On the Testbed the routed layer costs %.2f%% on average over the fixed "
                         "one at low load (%.2f..%.2f%%) and %.2f%% at medium load (%.2f..%.2f%%); the load "
                         "slows the plain 1-byte ping-pong by %+.1f%% and the largest by %+.1f%%.\n" % (
                             sum(s2) / len(s2), sum(s3) / len(s3), sum(pl) / len(pl), min(pl), max(pl),
                             sum(pm) / len(pm), min(pm), max(pm), _pct(low[0]["plain"], med[0]["plain"]),
                             _pct(low[-1]["plain"], med[-1]["plain"])))
        xs = [x["n"] for x in low]
        rep.fig("3", "fig3", "the effect α₂ of the routing indirection on the ping-pong time by message size, with its "
                "95% confidence interval (the seed's Figure 3), and the overheads in percent beside the seed's",
                [{"title": "effect α₂ of routing (routed vs fixed tids, µs), earth <-> air", "xlabel": "message size (bytes)",
                  "ylabel": "α₂ (µs)", "logx": True,
                  "series": [{"x": xs, "y": [x["a2"] for x in low], "label": "ours, low load", "style": "line"},
                             {"x": xs + xs, "y": [x["a2"] + x["ci"] for x in low] + [x["a2"] - x["ci"] for x in low],
                              "label": "ours, low load: ends of the 95% c.i.", "style": "dots"},
                             {"x": [x["n"] for x in med], "y": [x["a2"] for x in med], "label": "ours, medium load",
                              "style": "line"},
                             {"x": [n for n in sorted(SEED_T2) if n <= max(xs)],
                              "y": [(SEED_T2[n][1] - SEED_T2[n][0]) / 2.0 for n in sorted(SEED_T2) if n <= max(xs)],
                              "label": "seed: DynamicPVM vs PVM (Table 2)", "style": "dots"}]},
                 {"title": "overhead (%)", "xlabel": "message size (bytes)", "ylabel": "%", "logx": True,
                  "series": [{"x": xs, "y": pl, "label": "ours: routing, low load", "style": "line"},
                             {"x": [x["n"] for x in med], "y": pm, "label": "ours: routing, medium load", "style": "line"},
                             {"x": sorted(SEED_T2), "y": [SEED_T2_PCT[n] for n in sorted(SEED_T2)],
                              "label": "seed, low (Table 2)", "style": "dots"},
                             {"x": sorted(SEED_T3), "y": [SEED_T3_PCT[n] for n in sorted(SEED_T3)],
                              "label": "seed, medium (Table 3)", "style": "dots"}]}])
    nobs = sum(len(v) for ld in t for m in SYSTEMS for v in t[ld][m].values())
    rep.check("every round trip completed", complete,
              "%s; %d of %d observations (3 systems, 2 loads), each reply compared with what was sent" % (
                  "pvmpong: done" if done else "no end line", nobs, 2 * 3 * obs * len(sizes)))
    rep.check("the layer costs something at every size", bool(low) and all(x["layer_a2"] > 0 for x in low + med),
              "α₂ of the fixed layer against plain channels: %s µs" % ", ".join("%.0f" % x["layer_a2"] for x in low + med))
    grows = len(low) >= 2 and low[-1]["fixed"] - low[-1]["plain"] > low[0]["fixed"] - low[0]["plain"]
    rep.check("its cost grows with the size", grows,
              "layer overhead %.0f µs at %d bytes, %.0f µs at %d (it copies the bytes into its buffer and out again)"
              % ((low[0]["fixed"] - low[0]["plain"]) if low else 0, low[0]["n"] if low else 0,
                 (low[-1]["fixed"] - low[-1]["plain"]) if low else 0, low[-1]["n"] if low else 0))
    both = pl + pm
    mean = sum(both) / len(both) if both else 0.0
    # Two-sided: the routed layer may differ from the fixed one by at most 10% either way (the
    # seed's overheads are 0.8..8.7%); a routed layer 10% quicker would be as wrong as one 10%
    # slower. Whether the sign and size are the seed's is the claims ledger's row (t2-overhead-low,
    # sw/analysis/claims/seed001.toml), not this check: at the reduced size routing's cost (~1%)
    # is below the run's timing effects (routed vs fixed 1.09, -1.55, 1.25, -1.37% seen). The
    # sizes whose 95% c.i. lies below 0 are named.
    cheaper = [x["n"] for x in low + med if x["a2"] + x["ci"] < 0]
    rep.check("the routing indirection costs a small share, either way", bool(pl) and bool(pm)
              and max(both) <= 10.0 and min(both) >= -10.0,
              "routed vs fixed: %s%%, mean %.2f%% (all within -10..+10%%: the seed's 0.8..8.7%%; sizes significantly "
              "cheaper routed, alpha2 + its 95%% c.i. below 0: %s)"
              % (", ".join("%.2f" % p for p in both), mean, ", ".join("%d bytes" % n for n in cheaper) or "none"))
    routing_ab(rep, args, size)
    rep.check("the load ran through every medium-load observation", load_kbps > 0 and load_us >= medium_us > 0,
              "load %.0f KB/s for %.2f s, the medium-load observations %.2f s" % (load_kbps, load_us / 1e6, medium_us / 1e6))
    return res


def routing_ab(rep, args, size):
    """Each layer alone (pvmpong -layer), its boards' CPU counted by function: the CPU a routed
    message costs over a fixed one, and what of it is the routing's own (its system call and its
    table lookup). The ping-pong's half round trip is mostly waiting (the boards idle in STOP), so
    the routing's cycles are measured here, not inferred from the times."""
    obs, reps = ROUTING_AB[size]
    got = {}
    for layer in ("fixed", "pvm"):
        d = os.path.join(rep.out, "layer-" + layer)
        runner.run_testbed(args.bin_dir, args.firmware_dir, "seed001-layer-" + layer, ["pvmpong"],
                           "earth pvmpong -layer %s %d %d %d none 1\n" % (layer, PP_PEER, obs, reps), d,
                           quiet=args.quiet, sets=('trace.cycle_profile="earth,air"',))
        con = runner.console(d, "earth")
        times = [int(us) / (2.0 * int(r)) for r, us in re.findall(r"pvmpong: obs low 1 %s (\d+) (\d+)" % layer, con)]
        by, mhz = boards_profile(args, d, ("earth", "air"), "pvmpong")
        got[layer] = {"half": sum(times) / len(times) if times else None, "by": by, "mhz": mhz}
    f, r = got["fixed"], got["pvm"]
    ok = f["half"] is not None and r["half"] is not None and f["mhz"] and f["mhz"] == r["mhz"]
    rep.check("the routing A/B: each layer alone finished its round trips, on the same clock",
              bool(ok), "fixed %s µs, routed %s µs a half round trip" % (f["half"], r["half"]))
    if not ok:
        return
    msgs = 2 * obs * reps  # one-way messages observed; the warm-up is the same in both runs
    busy = lambda by: sum(v for k, v in by.items() if k != "cpu_idle")
    extra = (busy(r["by"]) - busy(f["by"])) / float(msgs)
    own = sum(r["by"].get(k, 0) - f["by"].get(k, 0) for k in ROUTING_FUNCS) / float(msgs)
    us = lambda cyc: cyc / f["mhz"]
    diffs = sorted(((r["by"].get(k, 0) - f["by"].get(k, 0)) / float(msgs), k) for k in set(r["by"]) | set(f["by"])
                   if k != "cpu_idle")
    moved = [d for d in diffs if abs(d[0]) >= 20]
    # The layers share every call but the send's routing: they may differ by no more CPU than the
    # routing's own. The fixed send's partner check once scanned all 64 thread slots at every send
    # (kernel/rchan.c partner_here), and a routed message came out about 1,900 cycles cheaper.
    rep.check("the routed and the fixed layer differ by no more CPU a message than the routing's own functions take",
              abs(extra) <= own, "routed %+.0f cycles a message over fixed; the routing's own %.0f" % (extra, own))
    rows = ["| layer alone (%d one-byte round trips) | half round trip (µs) | CPU a message over the fixed layer's, both "
            "boards, not idle (cycles) |" % reps, "|---|---|---|",
            "| fixed tids (`send_block`) | %.0f | 0 |" % f["half"],
            "| routed (`psend`) | %.0f | %+.0f |" % (r["half"], extra)]
    rep.parts.append("**The routing's own cost (A/B).** `pvmpong -layer fixed` and `-layer pvm` run each layer alone, "
                     "with the cycle profile of earth and air (testbed's `trace.cycle_profile`); the warm-up is the "
                     "same in both, so the difference is the messages'.\n\n%s\n\nA routed message costs %+.0f cycles of "
                     "CPU over a fixed one (%+.1f µs at %g MHz); the routing's own functions (%s) take %.0f of them "
                     "(%.1f µs, %.2f%% of the fixed layer's half round trip); the functions that differ by 20 cycles "
                     "a message or more: %s. The routed half round trip is %+.1f µs from the fixed one's.\n"
                     % ("\n".join(rows), extra, us(extra), f["mhz"], ", ".join("`%s`" % k for k in ROUTING_FUNCS), own,
                        us(own), 100.0 * us(own) / f["half"],
                        ", ".join("`%s` %+.0f" % (k, d) for d, k in moved) or "none", r["half"] - f["half"]))


CASES = {"seed001-fig4": ("4.3 Checkpoint overhead (Figure 4)", fig4),
         "seed001-pingpong": ("4.2 Communication overhead: ping-pong (Tables 2-3, Figure 3)", pingpong),
         "seed001-app": ("4.4-4.5 Applications that gain from migration (Tables 4-5, Figures 5-6)", seed001_app.app)}


def main(names, args):
    if args.name in CASES:
        names = [args.name]
    reps, total, failed = [], 0.0, False
    for name in names:
        out = os.path.join(args.out, name)
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(out)
        title, fn = CASES[name]
        rep = Rep(name, title, out)
        t0 = time.time()
        try:
            fn(rep, args, args.size)
        except runner.RunError as e:
            print("testbed-experiment: %s: %s" % (name, e))
            return 1
        secs, bad = rep.finish(args.size, t0)
        total += secs
        failed = failed or bool(bad)
        reps.append(rep)
    if getattr(args, "doc1", None):
        write_doc(args.doc1, reps, args.size, total)
        print("wrote %s" % args.doc1)
    return 1 if failed else 0


def write_doc(path, reps, size, secs):
    figdir = os.path.splitext(path)[0]
    if os.path.isdir(figdir):
        shutil.rmtree(figdir)
    os.makedirs(figdir)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for rep in reps:
        for _n, p, _c in rep.figures:
            base = os.path.splitext(os.path.join(rep.out, p))[0]
            for ext in (".png", ".svg"):
                shutil.copy(base + ext, figdir)
    from .docwriter import opening
    with open(os.path.join(here, "seed001_intro.md")) as f:
        about = f.read()
    body = [opening("Seed 001 on the Testbed: DynamicPVM's process migration and task layer (Overeinder et al. 1996)",
                    "build/bin/testbed-experiment seed001 --doc1 docs/results/seed001.md", "docs-seed001", about,
                    size, secs)]
    body += [rep.markdown(fig_prefix=os.path.basename(figdir), level=2) for rep in reps]
    from .claims import doc_tail  # the prose filled from this run, then the claims rows
    body.append(doc_tail("001", os.path.basename(path), "".join(body), os.path.join(here, "seed001_why.md")))
    with open(path, "w") as f:
        f.write("".join(body))
