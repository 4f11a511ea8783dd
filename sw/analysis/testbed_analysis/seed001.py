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

from . import runner
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
            "reduced": ([1, 256, 4096], 2, 3)}
PP_PEER = 2  # air
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
    return res


def one_factor(a, b):
    """The seed's equation 1 for two systems of n observations each: y_ij = mu + alpha_j + e_ij.
    Returns alpha_2 (b's effect), its standard deviation, the share of the variation the system
    explains (SSA / SST) and F = (SSA / 1) / (SSE / (2 (n - 1)))."""
    n = len(a)
    mu = (sum(a) + sum(b)) / (2.0 * n)
    al2 = sum(b) / n - mu
    sse = sum((y - sum(a) / n) ** 2 for y in a) + sum((y - sum(b) / n) ** 2 for y in b)
    ssa = 2 * n * al2 * al2
    se2 = sse / (2 * (n - 1)) if n > 1 else 0.0
    sd = (se2 / (2 * n)) ** 0.5  # Jain: s_alpha = s_e sqrt((a - 1) / (a n)), a = 2 systems
    sst = ssa + sse
    return al2, sd, (ssa / sst if sst > 0 else 1.0), (ssa / se2 if se2 > 0 else float("inf"))


def pingpong(rep, args, size):
    sizes, obs, reps = PP_SIZES[size]
    d = os.path.join(rep.out, "run")
    runner.run_testbed(args.bin_dir, args.firmware_dir, "seed001-pingpong", ["pvmpong"],
                       "earth pvmpong %d %d %d %s\n" % (PP_PEER, obs, reps, " ".join(str(x) for x in sizes)), d,
                       quiet=args.quiet)
    con = runner.console(d, "earth")
    done = "pvmpong: done" in con
    if not done and "pvmpong: obs" not in con:
        fails = re.findall(r"pvmpong: FAIL.*", con)
        raise runner.RunError("pvmpong did not finish: %s (see %s)" % ("; ".join(fails) or "no end line", d))
    # half a round trip, microseconds, per observation
    t = {"plain": {}, "pvm": {}}
    for n, mode, r, us in re.findall(r"pvmpong: obs (\d+) (plain|pvm) (\d+) (\d+)", con):
        t[mode].setdefault(int(n), []).append(int(us) / (2.0 * int(r)))
    complete = done and all(len(t[m].get(n, [])) == obs for m in t for n in sizes)
    rows = ["| size (bytes) | plain TOS (µs) | PVM-style (µs) | overhead | effect α₂ ± s.d. (µs) | SSA/SST | "
            "seed PVM (µs) | seed DynamicPVM (µs) |", "|---|---|---|---|---|---|---|---|"]
    res = []
    for n in sizes:
        a, b = t["plain"].get(n, []), t["pvm"].get(n, [])
        if not a or len(a) != len(b):
            continue
        pa, pb = sum(a) / len(a), sum(b) / len(b)
        al2, sd, share, _f = one_factor(a, b)
        res.append((n, pa, pb, al2, sd))
        seed = SEED_T2.get(n)
        rows.append("| %d | %.0f | %.0f | %+.1f%% | %+.0f ± %.1f | %.3f | %s | %s |" % (
            n, pa, pb, 100 * (pb - pa) / pa, al2, sd, share, "%d" % seed[0] if seed else "-",
            "%d (%.1f%%)" % (seed[1], 100.0 * (seed[1] - seed[0]) / seed[0]) if seed else "-"))
    rep.parts.append("Half the round trip of a message of each size between a task on earth and one on air (the seed's "
                     "t for length n), grand mean of %d observations of %d round trips each, plain TOS channels "
                     "(`send_block`/`receive` of the bytes) and the PVM-style task layer (`pvm_initsend`, `pvm_pkbyte`, "
                     "`pvm_send`; `pvm_recv`, `pvm_upkbyte`), interleaved. The effect α₂ of the layer is the seed's "
                     "one-factor model (their equation 1; α₁ = -α₂), SSA/SST the share of the variation it explains. "
                     "The seed's columns are its Table 2 (low network load, SparcStation 4s on 10 Mb/s Ethernet).\n\n%s\n"
                     % (obs, reps, "\n".join(rows)))
    pct = [100 * (pb - pa) / pa for _n, pa, pb, _a, _s in res]
    seed_pct = [100.0 * (v[1] - v[0]) / v[0] for v in SEED_T2.values()]
    seed_mean = sum(seed_pct) / len(seed_pct)
    if res:
        holds = all(0 < p <= 2 * max(seed_pct) for p in pct)
        rep.parts.append("The seed concludes that DynamicPVM's task layer costs a small, roughly constant share of a "
                         "message's time (%.1f%% on average in Table 2, %.1f..%.1f%%). On the Testbed the PVM-style layer "
                         "costs %.1f..%.1f%% (%.1f%% on average): the seed's conclusion **%s**%s.\n"
                         % (seed_mean, min(seed_pct), max(seed_pct), min(pct), max(pct), sum(pct) / len(pct),
                            "holds" if holds else "does not hold",
                            "" if holds else " (above twice the seed's largest overhead, %.1f%%, at %d of %d sizes)"
                            % (2 * max(seed_pct), sum(1 for p in pct if p > 2 * max(seed_pct)), len(pct))))
        xs = [r[0] for r in res]
        rep.fig("3", "fig3", "the effect α₂ of the task layer on the ping-pong time by message size (the seed's Figure 3), "
                "and its overhead in percent beside the seed's",
                [{"title": "effect α₂ of the PVM-style layer (µs, one-factor model), earth <-> air",
                  "xlabel": "message size (bytes)", "ylabel": "α₂ (µs)", "logx": True,
                  "series": [{"x": xs, "y": [r[3] for r in res], "label": "ours: PVM-style vs plain TOS", "style": "line"},
                             {"x": [n for n in sorted(SEED_T2) if n <= max(xs)],
                              "y": [(SEED_T2[n][1] - SEED_T2[n][0]) / 2.0 for n in sorted(SEED_T2) if n <= max(xs)],
                              "label": "seed: DynamicPVM vs PVM (Table 2)", "style": "dots"}]},
                 {"title": "overhead of the task layer (%)", "xlabel": "message size (bytes)", "ylabel": "%", "logx": True,
                  "series": [{"x": xs, "y": pct, "label": "ours", "style": "line"},
                             {"x": sorted(SEED_T2), "y": [100.0 * (SEED_T2[n][1] - SEED_T2[n][0]) / SEED_T2[n][0]
                                                          for n in sorted(SEED_T2)], "label": "seed (Table 2)",
                              "style": "dots"}]}])
    rep.check("every round trip completed", complete,
              "%s; %d of %d observations, each reply compared with what was sent" % (
                  "pvmpong: done" if done else "no end line", sum(len(v) for m in t for v in t[m].values()),
                  2 * obs * len(sizes)))
    rep.check("the layer costs something at every size", bool(res) and all(r[3] > 0 for r in res),
              "α₂ at each size: %s µs" % ", ".join("%.0f" % r[3] for r in res))
    grows = len(res) >= 2 and res[-1][2] - res[-1][1] > res[0][2] - res[0][1]
    rep.check("its cost grows with the size", grows,
              "overhead %.0f µs at %d bytes, %.0f µs at %d (the layer copies the bytes into its buffer and out again)"
              % ((res[0][2] - res[0][1]) if res else 0, res[0][0] if res else 0,
                 (res[-1][2] - res[-1][1]) if res else 0, res[-1][0] if res else 0))
    return res


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
    body = [open(os.path.join(here, "seed001_intro.md")).read(), "Run: size `%s`, %.0f s on this host.\n\n" % (size, secs)]
    body += [rep.markdown(fig_prefix=os.path.basename(figdir), level=2) for rep in reps]
    body.append(open(os.path.join(here, "seed001_why.md")).read())
    with open(path, "w") as f:
        f.write("".join(body))
