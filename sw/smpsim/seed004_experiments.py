"""Seed 004's experiments (Tsafrir 2001, chapters 3, 4 and 7) on build/bin/smpsim.

Each experiment writes the seed's configuration file for its figure, runs the simulator, plots
the curves (PNG and SVG) and checks the shape the seed describes. The checks are computed from
the simulated rows; the seed's numbers enter only where a check tests a claim the thesis states
as a number (7.7's SSR and elapsed-time tables: THESIS_7_7_*), and in seed004_doc.py's columns.

  smpsim-experiment NAME[,NAME...]|all [--size reduced|full] [--out DIR] [--doc FILE] [--quiet] [--jobs N]

Exit status: 0 every check passed, 1 a check failed, 2 bad arguments or a failed simulator run.
"""

import argparse
import math
import os
import random
import subprocess
import sys
import time

MACHINE = "p=32 q=100 in=3% out=3%"  # chapter 3's machine: CS = 6% of the quantum
SIGMA = "90/15%"                      # the seed's usual spread: 90% of intervals in mu +- 15%
P = 32


class Failure(Exception):
    pass


class Ctx:
    def __init__(self, smpsim, out, size, quiet, reuse=False, jobs=1):
        self.smpsim, self.out, self.size, self.quiet, self.reuse, self.jobs = smpsim, out, size, quiet, reuse, jobs
        self.full = size == "full"
        self.cache = {}

    def run(self, name, cfg, extra=()):
        """Runs smpsim on cfg; returns {label: [row dict, ...]} in x order."""
        key = (cfg, tuple(extra))
        if key in self.cache:
            return self.cache[key]
        os.makedirs(self.out, exist_ok=True)
        path = os.path.join(self.out, name + ".cfg")
        tsv = os.path.join(self.out, name + ".tsv")
        outputs = [tsv] + [extra[i + 1] for i, a in enumerate(extra) if a in ("--trace-out", "--jobs-out")]
        # --reuse: the same configuration already simulated by this very smpsim binary.
        fresh = self.reuse and all(os.path.exists(o) and os.path.getmtime(o) > os.path.getmtime(self.smpsim)
                                   for o in outputs + [path]) and open(path).read() == cfg
        if not fresh:
            with open(path, "w") as f:
                f.write(cfg)
            par = ["-j", str(self.jobs)] if self.jobs > 1 else []  # the same tables, N runs at once
            r = subprocess.run([self.smpsim, path, "-o", tsv, *par, *extra], capture_output=True, text=True)
            if r.returncode != 0:
                raise Failure(f"smpsim {path} exited {r.returncode}: {r.stderr.strip()}")
        rows = {}
        with open(tsv) as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                d = dict(zip(head, line.rstrip("\n").split("\t")))
                for k in ("x", "threads", "sync_threads", "spins", "successes", "blocks", "switches",
                          "elapsed", "completed", "woken_many", "woken_to_prev", "woken_prev_idle_lost"):
                    d[k] = int(d[k])
                d["ssr"] = float(d["ssr"])
                rows.setdefault(d["label"], []).append(d)
        for v in rows.values():  # curve lines sharing a label make one curve
            v.sort(key=lambda r: r["x"])
        self.cache[key] = rows
        return rows


# ---------------------------------------------------------------- helpers

def mean(xs):
    xs = [x for x in xs if not math.isnan(x)]
    return sum(xs) / len(xs) if xs else float("nan")


def spearman(xs, ys):
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        for k, i in enumerate(order):
            r[i] = k
        return r
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = mean(rx), mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return num / den if den else 0.0


def series(rows, x="x", y="ssr"):
    return [r[x] for r in rows], [r[y] for r in rows]


def over(rows, lo, y="ssr", key="threads"):
    """Mean of y over the rows whose `key` is above lo."""
    return mean([r[y] for r in rows if r[key] > lo])


def check(res, name, ok, detail):
    res["checks"].append((name, bool(ok), detail))


def explain(res, name, ok, text):
    """The A/B of a check that may fail: `ok` says whether the A/B (itself a check) moved our value
    into the thesis's band; only then does a failure of `name` count as explained by `text`."""
    res["explained"][name] = (bool(ok), text)


def plot(ctx, res, stem, curves, xlabel, ylabel="SSR (%)", title="", kind="line", vlines=(), ylim=(0, 105)):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "seed004"  # the same SVG bits for the same curves
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    if kind == "bar":
        labels = list(curves)
        n = len(next(iter(curves.values()))[0]) if curves else 0
        width = 0.8 / max(1, len(labels))
        for k, lab in enumerate(labels):
            xs, ys = curves[lab]
            ax.bar([i + k * width for i in range(n)], ys, width, label=lab)
        xs0 = next(iter(curves.values()))[0] if curves else []
        ax.set_xticks([i + 0.4 - width / 2 for i in range(n)])
        ax.set_xticklabels([str(x) for x in xs0])
    elif kind == "stack":
        xs, (a, b, c) = curves
        ax.stackplot(xs, a, b, c, labels=["running", "ready", "blocked"], step="post",
                     colors=["tab:green", "tab:red", "tab:blue"])
    else:
        if len(curves) > 10:
            ax.set_prop_cycle(color=plt.cm.tab20.colors)
        for lab, (xs, ys) in curves.items():
            ax.plot(xs, ys, label=lab, lw=1.1)
    for v in vlines:
        ax.axvline(v, color="grey", lw=0.6, ls=":")
    if ylim:
        ax.set_ylim(*ylim)
    if ylabel.startswith("SSR"):
        ax.axhline(50, color="black", lw=0.5, ls="--")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    d = os.path.join(ctx.out, "figures")
    os.makedirs(d, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(d, f"{stem}.{ext}"), dpi=110,
                    metadata={"Date": None} if ext == "svg" else {"Software": None})
    plt.close(fig)
    res["figures"].append(stem)


def new(name):
    return {"name": name, "checks": [], "figures": [], "values": {}, "notes": [], "explained": {}}


def nst_curve(mus, barriers=50, rand_ord=0, sigma=None, machine=MACHINE, nosync="0-200", spin="6%",
              wakeup="tail", labels=None):
    """wakeup: a SCHED_RR placement (tail, head, preempt) or "sched=linux wakeup=SCHEME"."""
    cfg = []
    wake = wakeup if "=" in wakeup else f"wakeup={wakeup}"
    for i, mu in enumerate(mus):
        lab = labels[i] if labels else f"mu={mu}"
        cfg.append(f"{machine} nosync={nosync} rand_ord={rand_ord} {wake} label=\"{lab}\"")
        sig = f" rand_cmput_sigma={sigma}" if sigma else ""
        cfg.append(f"sync=11 barrier={barriers} spin={spin} cmput={mu}{sig}")
    return "\n".join(cfg) + "\n"


# ---------------------------------------------------------------- chapter 3

def fig3_1(ctx):
    res = new("fig3_1")
    rows = ctx.run("fig3_1", nst_curve(["1%", "10%", "100%"]))
    plot(ctx, res, "fig3_1", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title="Figure 3.1: one 11-thread job, no randomization, 50 barriers")
    full_load = min(r["ssr"] for v in rows.values() for r in v if r["threads"] <= P)
    check(res, "SSR 100% up to full load (all mu, <= 32 threads)", full_load >= 99.9, f"minimum {full_load:.1f}%")
    fine = rows["mu=1%"]
    fine_min = min(r["ssr"] for r in fine)
    check(res, "fine grain stays high (> 70% at every load)", fine_min > 70, f"minimum {fine_min:.1f}%")
    by = {r["x"]: r["ssr"] for r in fine}
    check(res, "fine grain: 100% up to |NST|=42, below from 43 (3.2.1.2-3)",
          by[42] >= 99.9 and by[43] < 99.9, f"NST=42: {by[42]:.1f}%, NST=43: {by[43]:.1f}%")
    m = {k: over(v, P) for k, v in rows.items()}
    res["values"]["mean SSR above 32 threads"] = {k: round(v, 1) for k, v in m.items()}
    check(res, "fine > medium > coarse (mean SSR above 32 threads)",
          m["mu=1%"] > m["mu=10%"] > m["mu=100%"], ", ".join(f"{k} {v:.1f}%" for k, v in m.items()))
    return res


def fig3_2(ctx):
    res = new("fig3_2")
    rows = ctx.run("fig3_1", nst_curve(["1%", "10%", "100%"]))
    fine = rows["mu=1%"]
    plot(ctx, res, "fig3_2", {"mu=1%": series(fine, "threads")}, "threads (|THREADS| = |ST| + |NST|)",
         title="Figure 3.2: the cycle of the fine-grain simulation", vlines=[32, 53, 64, 96, 128, 160, 192])
    by = {r["threads"]: r["ssr"] for r in fine}
    pairs = [(t, t + 32) for t in range(32, 180) if t in by and t + 32 in by]
    bad = [(a, b) for a, b in pairs if abs(by[a] - by[b]) > 1e-9]
    check(res, "SSR(|THREADS|=32+i) = SSR(32(1+c)+i) (3.2.1.4)", pairs and not bad,
          f"{len(pairs)} pairs compared, {len(bad)} differ" + (f" (first {bad[0]})" if bad else ""))
    return res


def fig3_3(ctx):
    res = new("fig3_3")
    counts = [50, 100, 200, 500, 1000] if ctx.full else [50, 200, 1000]
    cfg = "".join(nst_curve(["1%"], barriers=b, labels=[f"{b} barriers"]) for b in counts)
    rows = ctx.run("fig3_3", cfg)
    plot(ctx, res, "fig3_3", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title="Figure 3.3: fine grain (mu=1%) with more barriers")
    m = [over(rows[f"{b} barriers"], P) for b in counts]
    res["values"]["mean SSR above 32 threads"] = dict(zip(counts, [round(x, 1) for x in m]))
    check(res, "more barriers, lower SSR (the grace period weighs less)",
          all(a > b for a, b in zip(m, m[1:])), " > ".join(f"{x:.1f}" for x in m))
    alt = mean([r["ssr"] for r in rows[f"{counts[-1]} barriers"] if 43 <= r["x"] <= 52])
    check(res, f"{counts[-1]} barriers, |NST|=43..52 (alternating): SSR below 50%", alt < 50, f"{alt:.1f}%")
    return res


def fig3_4(ctx):
    res = new("fig3_4")
    b = 500
    rows = ctx.run("fig3_4", nst_curve(["1%", "10%", "100%"], barriers=b))
    base = ctx.run("fig3_1", nst_curve(["1%", "10%", "100%"]))
    plot(ctx, res, "fig3_4", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title=f"Figure 3.4: as 3.1 with {b} barriers")
    gap50 = over(base["mu=1%"], P) - over(base["mu=100%"], P)
    gapb = over(rows["mu=1%"], P) - over(rows["mu=100%"], P)
    check(res, "fine-grain curve closer to the coarse one with more barriers", gapb < gap50,
          f"gap of means above 32 threads: {gap50:.1f} points at 50 barriers, {gapb:.1f} at {b}")
    return res


def fig3_5(ctx):
    res = new("fig3_5")
    rows = ctx.run("fig3_5", nst_curve(["1%", "10%", "100%"], rand_ord=1))
    base = ctx.run("fig3_1", nst_curve(["1%", "10%", "100%"]))
    plot(ctx, res, "fig3_5", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title="Figure 3.5: ready queue shuffled on startup")
    full_load = min(r["ssr"] for v in rows.values() for r in v if r["threads"] <= P)
    check(res, "SSR 100% up to full load", full_load >= 99.9, f"minimum {full_load:.1f}%")
    m = {k: over(v, P) for k, v in rows.items()}
    res["values"]["mean SSR above 32 threads"] = {k: round(v, 1) for k, v in m.items()}
    check(res, "no grace period: fine grain lower than unshuffled", m["mu=1%"] < over(base["mu=1%"], P) - 10,
          f"{m['mu=1%']:.1f}% shuffled vs {over(base['mu=1%'], P):.1f}% unshuffled")
    spread = max(m.values()) - min(m.values())
    check(res, "the three granularities fairly similar (means within 15 points)", spread < 15, f"{spread:.1f} points")
    low = sum(r["ssr"] < 50 for v in rows.values() for r in v if r["threads"] > P + 16)
    tot = sum(1 for v in rows.values() for r in v if r["threads"] > P + 16)
    check(res, "low (< 50%) once threads exceed processors by more than 16", low >= 0.9 * tot,
          f"{low} of {tot} points")
    return res


def fig3_6(ctx):
    res = new("fig3_6")
    rows = ctx.run("fig3_6", nst_curve(["1%", "10%", "100%"], rand_ord=1, sigma=SIGMA))
    base = ctx.run("fig3_5", nst_curve(["1%", "10%", "100%"], rand_ord=1))
    plot(ctx, res, "fig3_6", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title="Figure 3.6: shuffled, intervals N(mu, sigma=90/15%)")
    d = {k: over(rows[k], P) - over(base[k], P) for k in rows}
    res["values"]["change of mean SSR above 32 threads vs 3.5"] = {k: round(v, 1) for k, v in d.items()}
    check(res, "only the coarse grain declines", d["mu=100%"] < -5 and abs(d["mu=1%"]) < 5 and abs(d["mu=10%"]) < 5,
          ", ".join(f"{k} {v:+.1f}" for k, v in d.items()))
    return res


def fig3_7(ctx):
    res = new("fig3_7")
    m10k = "p=32 q=10000 in=3% out=3%"
    rows = ctx.run("fig3_7", nst_curve(["1%", "10%", "100%"], rand_ord=1, sigma=SIGMA, machine=m10k))
    base = ctx.run("fig3_6", nst_curve(["1%", "10%", "100%"], rand_ord=1, sigma=SIGMA))
    plot(ctx, res, "fig3_7", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title="Figure 3.7: as 3.6 with a 10000-cycle quantum")
    d = {k: abs(over(rows[k], P) - over(base[k], P)) for k in rows}
    check(res, "almost identical to the 100-cycle quantum (means within 8 points)", max(d.values()) < 8,
          ", ".join(f"{k} {v:.1f}" for k, v in d.items()))
    c100 = over(rows["mu=100%"], P)
    check(res, "coarse grain still the lowest", c100 < min(over(rows["mu=1%"], P), over(rows["mu=10%"], P)),
          f"mu=100% {c100:.1f}%")
    return res


def fig3_8(ctx):
    res = new("fig3_8")
    mus = [15, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 90] if ctx.full else [15, 30, 50, 90]
    m1k = "p=32 q=1000 in=3% out=3%"
    cfg = nst_curve([f"{m}%" for m in mus], rand_ord=1, sigma=SIGMA, machine=m1k, nosync="0-70")
    rows = ctx.run("fig3_8", cfg)
    plot(ctx, res, "fig3_8", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title="Figure 3.8: sigma-interval 15% of mu, q=1000, spin 60 cycles")
    m = [over(rows[f"mu={x}%"], P) for x in mus]
    res["values"]["mean SSR above 32 threads"] = dict(zip(mus, [round(x, 1) for x in m]))
    rho = spearman(mus, m)
    check(res, "bigger sigma-interval (bigger mu), lower SSR", rho < -0.8, f"Spearman rho {rho:.2f}")
    return res


def fig3_9(ctx):
    res = new("fig3_9")
    m1k = "p=32 q=1000 in=3% out=3%"
    # 20-100:20 in the seed; 100% is outside the open domain (0,100) of 2.2.1, so 95% instead.
    panels = {"5%": [20, 40, 60, 80, 95], "10%": list(range(5, 60, 5)), "100%": list(range(5, 60, 5))}
    if not ctx.full:
        panels = {"5%": [20, 60, 95], "10%": [5, 25, 55], "100%": [5, 25, 55]}
    for mu, sigmas in panels.items():
        cfg = "".join(nst_curve([mu], rand_ord=1, sigma=f"90/{s}%", machine=m1k, nosync="0-70",
                                labels=[f"sigma=90/{s}%"]) for s in sigmas)
        rows = ctx.run(f"fig3_9_{mu.rstrip('%')}", cfg)
        stem = f"fig3_9{'abc'[list(panels).index(mu)]}"
        plot(ctx, res, stem, {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
             title=f"Figure 3.9: mu={mu}, various sigma-intervals")
        m = [over(rows[f"sigma=90/{s}%"], P) for s in sigmas]
        res["values"][f"mu={mu}: mean SSR above 32 threads"] = dict(zip(sigmas, [round(x, 1) for x in m]))
        rho = spearman(sigmas, m)
        check(res, f"mu={mu}: bigger sigma, lower SSR", rho < -0.6, f"Spearman rho {rho:.2f}")
    return res


# ---------------------------------------------------------------- chapter 4

SIZES_FULL = [2, 3, 4, 5, 10, 11, 15, 16, 22, 25, 32]
SIZES_RED = [2, 3, 10, 16, 32]


def jobs_cfg(sizes, mus, max_threads, barriers=50, rand_ord=1, dense=False, seed=None):
    cfg = []
    sd = f" seed={seed}" if seed is not None else ""
    for s in sizes:
        kmax = max(2, -(-max_threads // s))
        step = 1 if dense else max(1, kmax // 40)
        for mu in mus:
            cfg.append(f"{MACHINE} nosync=0 rand_ord={rand_ord}{sd} label=\"size{s}_mu{mu.rstrip('%')}\"")
            cfg.append(f"sync={s} barrier={barriers} spin=6% cmput={mu} rand_cmput_sigma={SIGMA} "
                       f"instance_num=1-{kmax}:{step}")
    return "\n".join(cfg) + "\n"


def chapter4(ctx, rand_ord=1, barriers=50, name="fig4_1"):
    sizes = SIZES_FULL if ctx.full else SIZES_RED
    maxt = 600 if ctx.full else 240
    rows = ctx.run(name, jobs_cfg(sizes, ["1%", "10%", "100%"], maxt, barriers=barriers, rand_ord=rand_ord))
    return sizes, maxt, rows


def converge(rows, maxt):
    """The SSR a curve converges to: its mean over the last half of the thread range."""
    return mean([r["ssr"] for r in rows if r["threads"] > maxt / 2])


def fig4_1(ctx):
    res = new("fig4_1")
    sizes, maxt, rows = chapter4(ctx)
    for mu in ("1", "10", "100"):
        plot(ctx, res, f"fig4_1_mu{mu}",
             {f"size {s}": series(rows[f"size{s}_mu{mu}"], "x") for s in sizes}, "synchronizing jobs",
             title=f"Figure 4.1: homogeneous jobs, mu={mu}%, shuffled, 50 barriers")
    start = {mu: min(r["ssr"] for s in sizes for r in rows[f"size{s}_mu{mu}"] if r["threads"] <= P) for mu in ("1", "10")}
    # Medium grain with 32 threads on 32 processors loses a few spins to the spread of the
    # intervals (4.5 says the same of bigger jobs at 10%), hence 85% rather than 100% there.
    check(res, "fine grain starts at 100%, medium grain near it (<= 32 threads)",
          start["1"] >= 99.9 and start["10"] >= 85, f"minimum mu=1% {start['1']:.1f}%, mu=10% {start['10']:.1f}%")
    flat = []
    for s in sizes[1:]:  # size 2 converges to zero, more slowly (4.3.5)
        for mu in ("1", "10"):
            tail = [r["ssr"] for r in rows[f"size{s}_mu{mu}"] if r["threads"] > maxt / 2]
            h = len(tail) // 2
            flat.append(abs(mean(tail[:h]) - mean(tail[h:])))
    check(res, "converge regardless of load (sizes > 2: two halves of the tail within 5 points)", max(flat) < 5,
          f"largest difference {max(flat):.1f}")
    return res


def table4_1(ctx):
    res = new("table4_1")
    sizes, maxt, rows = chapter4(ctx)
    table = {s: {mu: converge(rows[f"size{s}_mu{mu}"], maxt) for mu in ("1", "10", "100")} for s in sizes}
    res["values"]["table"] = table
    res["values"]["max_threads"] = maxt
    band = [(s, mu, v) for s in sizes if s > 2 for mu, v in table[s].items() if mu != "100"]
    outside = [(s, mu, round(v, 1)) for s, mu, v in band if not 20 <= v < 50]
    check(res, "sizes > 2, mu=1%,10%: converge below 50% and above 20% (4.4.1)", not outside,
          f"{len(band) - len(outside)} of {len(band)} inside" + (f"; outside: {outside}" if outside else ""))
    check(res, "size 2 converges towards zero (4.3.5)", table[2]["1"] < 15 and table[2]["10"] < 15,
          f"mu=1% {table[2]['1']:.1f}, mu=10% {table[2]['10']:.1f}")
    worse = [s for s in sizes if s >= 4 and not table[s]["100"] < table[s]["10"]]
    check(res, "coarse grain converges lowest (sizes >= 4)", not worse, f"exceptions: {worse}" if worse else "all")
    big = [s for s in sizes if s >= 10]
    dec = [table[s]["100"] for s in big]
    check(res, "coarse grain: bigger jobs, lower SSR (sizes >= 10)", all(a >= b for a, b in zip(dec, dec[1:])),
          " > ".join(f"{x:.1f}" for x in dec))
    return res


def fig4_2(ctx):
    res = new("fig4_2")
    cfg = f"{MACHINE} nosync=0 rand_ord=1 label=\"19x10\"\nsync=10 barrier=50 spin=6% cmput=10% " \
          f"rand_cmput_sigma={SIGMA} instance_num=19\n"
    until = 1200
    never_all_ready, blocked_share = [], []
    for j in (0, 1, 2):
        tr = os.path.join(ctx.out, f"fig4_2_job{j}.tsv")
        ctx.run(f"fig4_2_j{j}", cfg, ["--trace-job", str(j), "--trace-until", str(until), "--trace-out", tr])
        pts = []
        with open(tr) as f:
            f.readline()
            for line in f:
                t, rd, rn, bl = map(int, line.split())
                pts.append((t, rd, rn, bl))
        xs = [p[0] for p in pts]
        plot(ctx, res, f"fig4_2_job{j}", (xs, ([p[2] for p in pts], [p[1] for p in pts], [p[3] for p in pts])),
             "time (cycles)", ylabel="threads of the job", kind="stack", ylim=(0, 10.5),
             title=f"Figure 4.2: job {j} of 19 jobs x 10 threads, mu=10%")
        first_block = next((p[0] for p in pts if p[3] > 0), None)
        after = [p for p in pts if first_block is not None and p[0] > first_block]
        never_all_ready.append(all(p[1] < 10 for p in after))
        dur = blk = 0
        for a, b in zip(pts, pts[1:]):
            if a[0] >= (first_block or 0):
                dur += b[0] - a[0]
                blk += (b[0] - a[0]) if a[3] > 0 else 0
        blocked_share.append(blk / dur if dur else 0)
    check(res, "after the start, never all of a job's threads in the ready queue (4.3.2)", all(never_all_ready),
          f"jobs 0-2: {never_all_ready}")
    check(res, "alternating: some threads blocked most of the time", min(blocked_share) > 0.5,
          ", ".join(f"{x:.0%}" for x in blocked_share))
    return res


def power_of_two(s):
    return s & (s - 1) == 0


def fig4_3(ctx):
    res = new("fig4_3")
    sizes, maxt, rows = chapter4(ctx, rand_ord=0, name="fig4_3")
    _, _, shuf = chapter4(ctx)
    for mu in ("1", "10"):
        plot(ctx, res, f"fig4_3_mu{mu}", {f"size {s}": series(rows[f"size{s}_mu{mu}"], "x") for s in sizes},
             "synchronizing jobs", title=f"Figure 4.3: not shuffled, mu={mu}%, 50 barriers")
    p2 = [s for s in sizes if power_of_two(s)]
    gang = min(r["ssr"] for s in p2 for r in rows[f"size{s}_mu1"])
    check(res, f"power-of-two sizes {p2}, mu=1%: 100% at every load (gang scheduled)", gang >= 99.9,
          f"minimum {gang:.1f}%")
    other = [s for s in sizes if not power_of_two(s)]
    higher = [(s, round(converge(rows[f"size{s}_mu1"], maxt) - converge(shuf[f"size{s}_mu1"], maxt), 1))
              for s in other]
    check(res, "other sizes: higher than shuffled (the grace period)", all(d > 0 for _, d in higher),
          f"difference (points): {higher}")
    return res


def fig4_4(ctx):
    res = new("fig4_4")
    sizes, maxt, rows = chapter4(ctx, rand_ord=0, barriers=500, name="fig4_4")
    _, _, b50 = chapter4(ctx, rand_ord=0, name="fig4_3")
    for mu in ("1", "10"):
        plot(ctx, res, f"fig4_4_mu{mu}", {f"size {s}": series(rows[f"size{s}_mu{mu}"], "x") for s in sizes},
             "synchronizing jobs", title=f"Figure 4.4: not shuffled, mu={mu}%, 500 barriers")
    other = [s for s in sizes if not power_of_two(s)]
    d = [(s, round(converge(rows[f"size{s}_mu1"], maxt) - converge(b50[f"size{s}_mu1"], maxt), 1)) for s in other]
    check(res, "500 barriers: non-power-of-two sizes lower than with 50", all(x < 0 for _, x in d),
          f"difference (points): {d}")
    return res


def dense(ctx):
    sizes = SIZES_FULL if ctx.full else SIZES_RED
    return sizes, ctx.run("fig4_5", jobs_cfg(sizes, ["1%", "10%"], 100, dense=True))


def fig4_5(ctx):
    res = new("fig4_5")
    sizes, rows = dense(ctx)
    for mu in ("1", "10"):
        plot(ctx, res, f"fig4_5_mu{mu}",
             {f"size {s}": series([r for r in rows[f"size{s}_mu{mu}"] if r["threads"] <= 100], "threads")
              for s in sizes}, "threads", vlines=[32], title=f"Figure 4.5: up to 100 threads, mu={mu}%")
    ok = [s for s in sizes if s < 25 and any(50 < r["ssr"] for r in rows[f"size{s}_mu1"] if r["threads"] > P)]
    want = [s for s in sizes if s < 25]
    check(res, "sizes < 25 keep SSR > 50% somewhere above 32 threads (mu=1%)", ok == want, f"{ok} of {want}")
    return res


def surplus(rows):
    """Figure 4.6's N: the largest surplus (threads - 32) up to which every point has SSR > 50%."""
    n, vals = 0, []
    for r in sorted(rows, key=lambda r: r["threads"]):
        if r["threads"] <= P:
            continue
        if r["ssr"] <= 50:
            break
        n = r["threads"] - P
        vals.append(r["ssr"])
    return n, (mean(vals) if vals else float("nan")), (min(vals) if vals else float("nan"))


def fig4_6(ctx):
    res = new("fig4_6")
    sizes, rows = dense(ctx)
    tab = {mu: [surplus(rows[f"size{s}_mu{mu}"]) for s in sizes] for mu in ("1", "10")}
    res["values"]["surplus"] = {mu: dict(zip(sizes, v)) for mu, v in tab.items()}
    # The thesis ran one seed. N is where a step curve first drops to 50%, and near 2 x 32 threads
    # a 50-barrier run either falls into alternating synchronization (SSR ~40%) or not (65-85%)
    # depending on the seed: so N is measured over seeds, and the bound is checked on the median.
    seeds = list(range(1, 21)) if ctx.full else list(range(1, 6))
    per = {mu: {s: [] for s in sizes} for mu in ("1", "10")}
    for sd in seeds:
        r = rows if sd == 1 else ctx.run(f"fig4_6_seed{sd}", jobs_cfg(sizes, ["1%", "10%"], 100, dense=True, seed=sd))
        for mu in per:
            for s in sizes:
                per[mu][s].append(surplus(r[f"size{s}_mu{mu}"])[0])
    med = {mu: {s: sorted(v)[len(v) // 2] for s, v in d.items()} for mu, d in per.items()}
    res["values"]["seeds"] = len(seeds)
    res["values"]["median N over seeds (mu=1%)"] = med["1"]
    res["values"]["median N over seeds (mu=10%)"] = med["10"]
    res["values"]["seeds with N >= 32 (mu=1%)"] = {s: sum(n >= P for n in per["1"][s]) for s in sizes}
    plot(ctx, res, "fig4_6", {f"mu={mu}%": (sizes, [med[mu][s] for s in sizes]) for mu in med}, "job size",
         ylabel="N: surplus threads with SSR > 50%", kind="bar", ylim=None,
         title=f"Figure 4.6: maximal surplus with SSR > 50% (median of {len(seeds)} seeds)")
    over32 = [s for s in sizes if s > 2 and med["1"][s] >= P]
    check(res, f"surplus bounded by the processor count (sizes > 2, median N of {len(seeds)} seeds)", not over32,
          f"exceptions: {over32}" if over32 else "all < 32")
    seed1 = [s for s, v in zip(sizes, tab["1"]) if s > 2 and v[0] >= P]
    res["notes"].append(f"seed 1 alone (the table): N >= 32 for sizes {seed1 or 'none'}")
    if ctx.full:
        # The A/B of the cause: the same runs with 500 barriers, where a run has time to fall into
        # alternating synchronization whatever its seed.
        long_n = {s: [] for s in sizes}
        for sd in seeds:
            r = ctx.run(f"fig4_6_b500_seed{sd}", jobs_cfg(sizes, ["1%"], 100, barriers=500, dense=True, seed=sd))
            for s in sizes:
                long_n[s].append(surplus(r[f"size{s}_mu1"])[0])
        med500 = {s: sorted(v)[len(v) // 2] for s, v in long_n.items()}
        res["values"]["median N over seeds, 500 barriers (mu=1%)"] = med500
        over500 = [s for s in sizes if s > 2 and med500[s] >= P]
        check(res, "cause: with 500 barriers the median N stays below 32 (sizes > 2)", not over500,
              f"exceptions: {over500}" if over500 else "all < 32: " + ", ".join(f"{s}: {n}" for s, n in med500.items()))
        explain(res, f"surplus bounded by the processor count (sizes > 2, median N of {len(seeds)} seeds)", not over500,
                "with 500 barriers (the same loads and seeds) the median N is below 32 at every size > 2: "
                + ", ".join(f"{s}: {n}" for s, n in med500.items() if s > 2))
    # The A/B of the cause at every size: the surplus above the processor count comes from runs
    # that end within a few quanta of their start, before the jobs fall into alternating
    # synchronization. Sizes 3 and 4, fine grain, the main sweep's loads above 32 threads (up to
    # 100, so that N >= 32 can be seen), the same seeds, and only the number of barriers changed:
    # median N, the seeds with N >= 32, the mean SSR at the load nearest 2 x 32 threads and how
    # many quanta that run lasts.
    sweep = {}
    for s in (3, 4):
        ks = list(range(P // s + 1, -(-100 // s) + 1))
        k2 = 2 * P // s
        for nb in (50, 100, 200, 500):
            ns, ssr, quanta = [], [], []
            for sd in seeds:
                cfg = (f"{MACHINE} nosync=0 rand_ord=1 seed={sd} label=\"ab\"\n"
                       f"sync={s} barrier={nb} spin=6% cmput=1% rand_cmput_sigma={SIGMA} instance_num={ks[0]}-{ks[-1]}\n")
                r = ctx.run(f"fig4_6_ab_size{s}_b{nb}_seed{sd}", cfg)["ab"]
                ns.append(surplus(r)[0])
                at2 = next(x for x in r if x["x"] == k2)
                ssr.append(at2["ssr"])
                quanta.append(at2["elapsed"] / 100)
            sweep[(s, nb)] = (sorted(ns)[len(ns) // 2], sum(n >= P for n in ns), mean(ssr), mean(quanta), s * k2)
    res["values"]["ab_barriers"] = sweep
    for s in (3, 4):
        row = [sweep[(s, nb)] for nb in (50, 100, 200, 500)]
        check(res, f"cause, size {s}: at {row[0][4]} threads 500 barriers lower the SSR of 50 by more than 10 points",
              row[0][2] - row[-1][2] > 10,
              ", ".join(f"{nb}: {v[2]:.1f}% in {v[3]:.0f} quanta" for nb, v in zip((50, 100, 200, 500), row)))
    fine_wins = sum(med["1"][s] >= med["10"][s] for s in sizes)
    check(res, "fine grain reaches a bigger surplus than medium grain (most sizes, medians)", fine_wins > len(sizes) / 2,
          f"{fine_wins} of {len(sizes)} sizes")
    # Size 16: its loads above 32 threads are 48, 64, ... so N moves in steps of 16 and both grains
    # can reach the same N. The A/B at a step of one thread: three 16-thread jobs and 0-15
    # non-synchronizing threads (loads 48-63; 64 threads is the sweep's next point), the same seeds.
    if 16 in sizes:
        cfg = "".join(f"{MACHINE} nosync=0-15 rand_ord=1 seed={sd} label=\"mu{mu} seed{sd}\"\n"
                      f"sync=16 barrier=50 spin=6% cmput={mu}% rand_cmput_sigma={SIGMA} instance_num=3\n"
                      for mu in ("1", "10") for sd in seeds)
        r = ctx.run("fig4_6_step1_size16", cfg)
        step1 = {mu: sorted(surplus(r[f"mu{mu} seed{sd}"])[0] for sd in seeds) for mu in ("1", "10")}
        res["values"]["ab_step1"] = {mu: {"median": v[len(v) // 2], "lowest": v[0], "highest": v[-1],
                                          "above16": sum(n > 16 for n in v), "sweep": med[mu][16]}
                                     for mu, v in step1.items()}
        a, b = res["values"]["ab_step1"]["1"]["median"], res["values"]["ab_step1"]["10"]["median"]
        check(res, f"size 16 at a step of one thread: fine grain reaches a bigger surplus than medium grain (median N "
              f"of {len(seeds)} seeds)", a > b, f"fine {a}, medium {b}; the sweep's step of 16: {med['1'][16]} and "
              f"{med['10'][16]}")
    return res


# ---------------------------------------------------------------- chapter 5

MACHINE64 = "p=64 q=100 in=3% out=3%"  # chapter 5's machine (5.2.1: 64 processors)
P64 = 64
SIZES_5 = [(4, 7, 9), (8, 12, 1)]       # 5.2.1: job size 4-7 : 9, 8-12 : 1
Z90 = 1.6448536269514722                # Pr(|Z| <= Z90) = 90% for a standard normal Z


def draw(rng, dist, integer=False):
    """5.1.3's notation: an interval chosen by weight, then a value uniform in it; (value, class)."""
    u = rng.uniform(0, sum(w for _, _, w in dist))
    for k, (lo, hi, w) in enumerate(dist):
        if u < w or k == len(dist) - 1:
            return (rng.randint(lo, hi) if integer else rng.uniform(lo, hi)), k
        u -= w


def job_sequence(seed, max_threads, mus, sigmas, by):
    """5.1.5's random permutation mode: jobs drawn until their threads exceed max_threads; each job
    is (size, mu %, rand_cmput_sigma, class), its class the interval of `by` ("mu" or "sigma")."""
    rng = random.Random(seed)
    seq, total = [], 0
    while total <= max_threads:
        size, _ = draw(rng, SIZES_5, integer=True)
        mu, mc = draw(rng, mus)
        if sigmas is None:
            sig, sc = SIGMA, 0
        else:
            # 90% of the intervals within mu +- z (2.2.2), given in the direct format: with mu below z
            # the symbolic one is refused, and a negative draw counts as 0 (2.2.1's truncation).
            z, sc = draw(rng, sigmas)
            sig = f"{z / Z90:.4f}"
        seq.append((size, round(mu, 2), sig, mc if by == "mu" else sc))
        total += size
    return seq


def run_jobs(ctx, name, cfg):
    """Simulate cfg's runs (labelled "n<i>"); returns the runs' rows and, from --jobs-out, each
    job's fields as (i, the job's index j, fields)."""
    path = os.path.join(ctx.out, name + "_jobs.tsv")
    rows = ctx.run(name, cfg, ["--jobs-out", path])
    jobs = []
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            d = dict(zip(head, line.rstrip("\n").split("\t")))
            jobs.append((int(d["label"][1:]), int(d["job"]), d))
    return rows, jobs


def permutation_runs(ctx, name, seed, barriers, max_threads, mus, sigmas=None, by="mu"):
    """The k simulations of one job sequence (the i-th runs its first i jobs, ending at the first
    thread's exit, 5.1.4); returns {class: [(threads, mean SSR of the class's jobs)]}."""
    seq = job_sequence(seed, max_threads, mus, sigmas, by)
    cfg = ""
    for i in range(1, len(seq) + 1):
        cfg += f"{MACHINE64} nosync=0 rand_ord=1 seed={seed} stop=first label=\"n{i}\"\n"
        cfg += "".join(f"sync={z} barrier={barriers} spin=6% cmput={mu}% rand_cmput_sigma={sig}\n"
                       for z, mu, sig, _ in seq[:i])
    rows, jobs = run_jobs(ctx, name, cfg)
    per = {}
    for i, j, d in jobs:
        if int(d["spins"]):
            per.setdefault(i, {}).setdefault(seq[j][3], []).append(100 * int(d["successes"]) / int(d["spins"]))
    curves = {}
    for i in range(1, len(seq) + 1):
        threads = rows[f"n{i}"][0]["threads"]
        for c, v in per.get(i, {}).items():
            curves.setdefault(c, []).append((threads, mean(v)))
    return curves


def inter(curve, lo=P64, hi=2 * P64):
    return mean([y for x, y in curve if lo < x <= hi])


def maxt_5(ctx):
    return 2 * P64 + 32 if ctx.full else 2 * P64


def chapter5(ctx, res, name, mus, sigmas, by, labels, title, barrier_counts):
    seeds = [0, 1, 2, 3] if ctx.full else [0, 1]  # the thesis's seeds (5.2.1); a mean needs two
    maxt = maxt_5(ctx)
    out = {}
    for sd in seeds:
        for b in barrier_counts:
            cur = permutation_runs(ctx, f"{name}_s{sd}b{b}", sd, b, maxt, mus, sigmas, by)
            out[(sd, b)] = cur
            plot(ctx, res, f"{name}_s{sd}b{b}", {labels[c]: tuple(zip(*cur[c])) for c in sorted(cur)}, "threads",
                 vlines=[P64, 2 * P64], title=f"{title}: s{sd}b{b}")
    return seeds, out


def fig5_1(ctx):
    """5.2: sigma-interval 15% of mu, mu classes 1-20% ... 51-60% (Figures 5.1-5.2)."""
    res = new("fig5_1")
    mus = [(1, 20, 1), (21, 30, 1), (31, 40, 1), (41, 50, 1), (51, 60, 1)]
    labels = [f"mu={lo}-{hi}%" for lo, hi, _ in mus]
    counts = [50, 200, 1000] if ctx.full else [200]
    seeds, out = chapter5(ctx, res, "fig5_1", mus, None, "mu", labels, "Figure 5.1", counts)
    b = counts[-1]
    m = {sd: {c: inter(out[(sd, b)][c]) for c in out[(sd, b)]} for sd in seeds}
    res["values"][f"mean class SSR, 64 < threads <= 128, {b} barriers"] = {
        sd: {labels[c]: round(v, 1) for c, v in sorted(d.items())} for sd, d in m.items()}
    top = [sd for sd in seeds if max(m[sd], key=m[sd].get) == 0]
    check(res, f"mu=1-20% the best class in the intermediate load ({b} barriers, every seed)", len(top) == len(seeds),
          f"seeds {top} of {seeds}")
    rho = mean([spearman(sorted(m[sd]), [m[sd][c] for c in sorted(m[sd])]) for sd in seeds])
    check(res, "bigger mu, lower SSR (mean Spearman rho over seeds < -0.8)", rho < -0.8, f"rho {rho:.2f}")
    reach = []
    for sd in seeds:
        fine = out[(sd, b)][0]
        above = [x for x, y in fine if x > P64 and y > 50]
        first_low = min([x for x, y in fine if x > P64 and y <= 50], default=None)
        reach.append((sd, max(above, default=None), first_low))
    ok = all(a is not None for _, a, _ in reach)
    name = "mu=1-20% keeps SSR > 50% at some load above 64 threads (every seed; thesis: up to 80-88)"
    check(res, name, ok, ", ".join(f"seed {sd}: last above {a}, first below {lo}" for sd, a, lo in reach))
    # The A/B of the seed: the thesis's four sequences were drawn by its own generator, so ours are
    # other sequences; the same check over 20 of them (5 at the reduced size), the same barriers.
    many = list(range(20 if ctx.full else 5))
    last = {}
    for sd in many:
        fine = (out[(sd, b)] if sd in seeds else
                permutation_runs(ctx, f"fig5_1_ab_s{sd}b{b}", sd, b, maxt_5(ctx), mus)).get(0, [])
        last[sd] = max([x for x, y in fine if x > P64 and y > 50], default=None)
    kept = [sd for sd in many if last[sd] is not None]
    # a sequence with no such load counts as 64 (no surplus)
    loads = sorted(last[sd] or P64 for sd in many)
    med = loads[len(loads) // 2]
    res["values"]["ab_sequences"] = {"seeds": len(many), "kept": len(kept), "last": last, "median_last": med}
    ok_ab = 80 <= med <= 88
    if ctx.full:  # the thesis's 80-88 is read off its 1000-barrier runs (5.2.2)
        check(res, f"cause: over {len(many)} of our sequences, the median last load with SSR > 50% in the thesis's "
              f"80-88 ({b} barriers)", ok_ab, f"median {med}; {len(kept)} of {len(many)} keep SSR > 50% above 64 threads")
        explain(res, name, ok_ab, f"over {len(many)} of our sequences the median last load with SSR > 50% is {med}, "
                f"thesis 80-88; {len(kept)} of {len(many)} keep SSR > 50% above 64 threads")
    low = [(sd, labels[c]) for sd in seeds for c in m[sd] if c >= 2 and m[sd][c] >= 50]
    check(res, "mu >= 31%: below 50% in the intermediate load", not low, f"exceptions {low}" if low else "none")
    return res


def fig5_3(ctx):
    """5.3: a constant sigma-interval (90/0.15-1.5 cycles) with big mu (Figures 5.3-5.4)."""
    res = new("fig5_3")
    mus = [(51, 60, 1), (61, 70, 1), (71, 80, 1), (81, 90, 1), (94, 100, 1)]
    labels = [f"mu={lo}-{hi}%" for lo, hi, _ in mus]
    counts = [1000]  # the reversed order needs the long runs, at both sizes
    seeds, out = chapter5(ctx, res, "fig5_3", mus, [(0.15, 1.5, 1)], "mu", labels, "Figure 5.3", counts)
    b = counts[-1]
    m = {sd: {c: inter(out[(sd, b)][c], P64, 10 ** 9) for c in out[(sd, b)]} for sd in seeds}
    res["values"][f"mean class SSR above 64 threads, {b} barriers"] = {
        sd: {labels[c]: round(v, 1) for c, v in sorted(d.items())} for sd, d in m.items()}
    best = [sd for sd in seeds if 4 in m[sd] and max(m[sd], key=m[sd].get) == 4 and m[sd][4] > 50]
    check(res, "mu=94-100%: the highest SSR, above 50% (5.3.2.1; every seed)", len(best) == len(seeds),
          f"seeds {best} of {seeds}")
    rho = mean([spearman([c for c in sorted(m[sd]) if c < 4], [m[sd][c] for c in sorted(m[sd]) if c < 4])
                for sd in seeds])
    check(res, "the other classes in reversed order: bigger mu, higher SSR (5.3.2.2; mean rho > 0.6)", rho > 0.6,
          f"rho {rho:.2f}")
    ends = [sd for sd in seeds if 0 in m[sd] and 3 in m[sd] and m[sd][3] > m[sd][0]]
    check(res, "mu=81-90% above mu=51-60% (every seed)", len(ends) == len(seeds), f"seeds {ends} of {seeds}")
    hi = [(sd, labels[c]) for sd in seeds for c in m[sd] if c < 4 and inter(out[(sd, b)][c]) >= 50]
    check(res, "mu=51-90%: no intermediate load with mean SSR > 50% (5.3.2.3)", not hi, f"exceptions {hi}" if hi else "none")
    return res


def fig5_5(ctx):
    """5.4: random mu and sigma, jobs classified by sigma-interval (Figure 5.5)."""
    res = new("fig5_5")
    mus = [(1, 20, 1), (21, 30, 1), (31, 90, 1)]
    sigmas = [(0.15, 0.75, 1), (0.9, 1.5, 1), (1.65, 3, 1), (3.15, 15, 3)]
    labels = [f"sigma-interval {lo}-{hi}" for lo, hi, _ in sigmas]
    counts = [1000] if ctx.full else [200]
    seeds, out = chapter5(ctx, res, "fig5_5", mus, sigmas, "sigma", labels, "Figure 5.5", counts)
    b = counts[-1]
    m = {sd: {c: inter(out[(sd, b)][c]) for c in out[(sd, b)]} for sd in seeds}
    res["values"][f"mean class SSR, 64 < threads <= 128, {b} barriers"] = {
        sd: {labels[c]: round(v, 1) for c, v in sorted(d.items())} for sd, d in m.items()}
    wide = [(sd, round(m[sd][3], 1)) for sd in seeds if 3 in m[sd]]
    check(res, "sigma-interval 3.15-15 (dispersal above the spin): below 50% in the intermediate load (every seed)",
          all(v < 50 for _, v in wide), ", ".join(f"seed {sd}: {v}%" for sd, v in wide))
    lowest = [sd for sd in seeds if 3 in m[sd] and min(m[sd], key=m[sd].get) == 3]
    check(res, "sigma-interval 3.15-15 the lowest class (every seed)", len(lowest) == len(seeds),
          f"seeds {lowest} of {seeds}")
    return res


# ---------------------------------------------------------------- chapter 7

# The claims of 7.7 that the checks test (Tsafrir 2001, tables of 7.7.1 and 7.7.2): per wake-up
# scheme and grain, the mean over loads above 32 threads and its absolute deviation.
THESIS_7_7_SSR = {  # (scheme, mu) -> {spin: (mean SSR, deviation)}
    ("smart", "1%"): {"CS": (54, 10.6), "CS+": (83.1, 7), "2CS+": (94.2, 2.6)},
    ("aip", "1%"): {"CS": (48.9, 10.3), "CS+": (79, 8.1), "2CS+": (93.9, 3)},
    ("silly", "1%"): {"CS": (38.5, 8.9), "CS+": (69.9, 10.4), "2CS+": (91.9, 4.5)},
    ("smart", "10%"): {"CS": (28.1, 7.8), "CS+": (41.6, 13.5), "2CS+": (76.7, 8.8)},
    ("aip", "10%"): {"CS": (24.7, 6.8), "CS+": (37.5, 12.5), "2CS+": (75.2, 9.2)},
    ("silly", "10%"): {"CS": (23, 5.8), "CS+": (34.7, 11.5), "2CS+": (73.8, 9.5)},
}
THESIS_7_7_SPEEDUP = {  # (scheme, mu) -> {pair: (mean speedup %, deviation)}; 100 (T_Y - T_X) / T_Y
    ("smart", "1%"): {"2CS+ vs CS": (45.9, 7.5), "CS+ vs CS": (36.8, 7.8), "2CS+ vs CS+": (13.4, 11.1)},
    ("aip", "1%"): {"2CS+ vs CS": (50.5, 7.7), "CS+ vs CS": (35.1, 10.9), "2CS+ vs CS+": (21.2, 13.4)},
    ("silly", "1%"): {"2CS+ vs CS": (53.6, 9.6), "CS+ vs CS": (32.9, 10.3), "2CS+ vs CS+": (28.8, 15.8)},
    ("smart", "10%"): {"2CS+ vs CS": (20.3, 7.5), "CS+ vs CS": (5.4, 5.4), "2CS+ vs CS+": (15.6, 6.7)},
    ("aip", "10%"): {"2CS+ vs CS": (22.2, 8.4), "CS+ vs CS": (5, 5.1), "2CS+ vs CS+": (17.9, 7.6)},
    ("silly", "10%"): {"2CS+ vs CS": (21.7, 10.3), "CS+ vs CS": (4.3, 5.1), "2CS+ vs CS+": (18, 9.2)},
}
# A check passes when ours lies within the thesis's mean +- (its absolute deviation + MARGIN): a
# band, so it fails when ours is too high as well as too low (a shorter or a longer run).
MARGIN = 10
SCHEMES = ("smart", "aip", "silly")


def lx(scheme="smart"):
    return f"sched=linux wakeup={scheme}"


def fig7_1(ctx):
    res = new("fig7_1")
    rows = ctx.run("fig7_1", nst_curve(["1%", "10%", "100%"], rand_ord=1, sigma=SIGMA, spin="CS", wakeup=lx()))
    plot(ctx, res, "fig7_1", {k: series(v) for k, v in rows.items()}, "non-synchronizing threads",
         title="Figure 7.1: Linux SCHED_OTHER (SMART), spin CS, 50 barriers")
    m = {k: over(v, P) for k, v in rows.items()}
    res["values"]["mean SSR above 32 threads"] = {k: round(v, 1) for k, v in m.items()}
    check(res, "coarse grain fails most spins (mean < 50%)", m["mu=100%"] < 50, f"{m['mu=100%']:.1f}%")
    check(res, "fine grain above medium grain", m["mu=1%"] > m["mu=10%"], f"{m['mu=1%']:.1f}% vs {m['mu=10%']:.1f}%")
    return res


def peak_lift(curve, m, top=212):
    """Mean over the loads that are multiples of m from 48 on of SSR(load) minus the median SSR of
    the loads within 8 that are not multiples of 16 (Figure 7.2's peaks)."""
    lifts = []
    for t in range(48, top, m):
        nb = sorted(curve[u] for u in range(t - 8, t + 9) if u in curve and u % 16)
        if t in curve and nb:
            lifts.append(curve[t] - nb[len(nb) // 2])
    return mean(lifts)


def fig7_2(ctx):
    res = new("fig7_2")
    counts = [2000, 5000, 10000] if ctx.full else [2000, 5000]
    nos = "0-200" if ctx.full else "21-200:8"  # reduced: threads 32, 40, ... (multiples of 16 included)
    cfg = ""
    for mu in ("1%", "10%"):
        for b in counts:
            cfg += nst_curve([mu], barriers=b, rand_ord=1, sigma=SIGMA, spin="CS", wakeup=lx(), nosync=nos,
                             labels=[f"mu={mu} {b} barriers"])
            if not ctx.full:  # the intermediate load, 33-35 threads, at every step
                cfg += nst_curve([mu], barriers=b, rand_ord=1, sigma=SIGMA, spin="CS", wakeup=lx(),
                                 nosync="22-24", labels=[f"mu={mu} {b} barriers"])
    rows = ctx.run("fig7_2", cfg)
    plot(ctx, res, "fig7_2", {k: series(v, "threads") for k, v in rows.items()}, "threads",
         vlines=[16 * k for k in range(2, 14)], title="Figure 7.2: Linux SCHED_OTHER (SMART), spin CS, long runs")
    for mu in ("1%", "10%"):
        ms = [over(rows[f"mu={mu} {b} barriers"], P) for b in counts]
        res["values"][f"mu={mu}: mean SSR above 32 threads"] = dict(zip(counts, [round(x, 1) for x in ms]))
        check(res, f"mu={mu}: curves for {counts} barriers almost indistinguishable (means within 5 points)",
              max(ms) - min(ms) < 5, " / ".join(f"{x:.1f}" for x in ms))
        inter = [r["ssr"] for r in rows[f"mu={mu} {counts[-1]} barriers"] if P < r["threads"] <= P + 4]
        check(res, f"mu={mu}: SSR > 50% at an intermediate load (33-36 threads)", inter and max(inter) > 50,
              f"best {max(inter):.1f}%" if inter else "no point")
    # 7.4 point 2 and 7.5.5: a peak whenever the total load is 32 + 16n (PROC_CHANGE_PENALTY and
    # epochs keep groups of 16 threads together): SSR at such a load against the median of the
    # loads within 8 that are not multiples of 16.
    fine = {r["threads"]: r["ssr"] for r in rows[f"mu=1% {counts[-1]} barriers"]}
    peaks = {m: peak_lift(fine, m) for m in (16, 32)}
    res["values"]["peak lift (points above neighbours' median)"] = {m: round(v, 1) for m, v in peaks.items()}
    check(res, "mu=1%: peaks at multiples of 16 (48, 64, 80, ...: > 10 points above the median of the loads "
          "within 8)", peaks[16] > 10, f"{peaks[16]:+.1f} points on average")
    res["notes"].append(f"peaks: loads at multiples of 16 lie {peaks[16]:+.1f} points above their neighbours' "
                        f"median, multiples of 32 {peaks[32]:+.1f} (the thesis: a peak at every 32 + 16n)")
    return res


def band(ours, thesis):
    mu, dev = thesis
    if not dev:  # chapters 8-9 give no deviation
        return abs(ours - mu) <= MARGIN, f"ours {ours:.1f}, thesis {mu} (band +-{MARGIN})"
    return abs(ours - mu) <= dev + MARGIN, f"ours {ours:.1f}, thesis {mu} +- {dev} (band +-{dev + MARGIN:.1f})"


SPINS = ["block", "CS", "CS+", "2CS+"]
PAIRS = (("2CS+", "CS"), ("CS+", "CS"), ("2CS+", "CS+"), ("2CS+", "block"), ("CS", "block"))


def spin_table(rows, tag):
    """SSR means and speedups (7.7.2's formula, averaged over loads) of one placement and grain."""
    el = {s: [r["elapsed"] for r in rows[f"{tag} {s}"]] for s in SPINS}
    ssr = {s: mean([r["ssr"] for r in rows[f"{tag} {s}"]]) for s in SPINS if s != "block"}
    spd = {f"{x} vs {y}": mean([100 * (ey - ex) / ey for ex, ey in zip(el[x], el[y])]) for x, y in PAIRS}
    return ssr, spd


def fig7_spin(ctx):
    """Figures 7.7-7.10: SSR and elapsed time of CS, CS+ and 2CS+ (and always-block) under Linux's
    three wake-up schemes, as the thesis ran them; SCHED_RR's tail and preempt placements beside
    them as the A/B that shows what the elapsed-time result rests on."""
    res = new("fig7_spin")
    b = 2000 if ctx.full else 500
    nos = "22-200:2" if ctx.full else "22-200:12"
    # A/Bs: Linux without PROC_CHANGE_PENALTY, and SCHED_RR's tail and preempt placements.
    places = [(w, lx(w)) for w in SCHEMES] + [("smart-pcp0", lx() + " proc_change_penalty=0"),
                                              ("rr-preempt", "preempt"), ("rr-tail", "tail")]
    cfg = ""
    for w, wake in places:
        for mu in ("1%", "10%"):
            for s in SPINS:
                cfg += nst_curve([mu], barriers=b, rand_ord=1, sigma=SIGMA, spin=s, wakeup=wake, nosync=nos,
                                 labels=[f"{w} mu={mu} {s}"])
    rows = ctx.run("fig7_spin", cfg)
    table = {}
    for w, _ in places:
        for mu in ("1%", "10%"):
            table[(w, mu)] = spin_table(rows, f"{w} mu={mu}")
    for mu, fig in (("1%", "7.7"), ("10%", "7.8")):
        plot(ctx, res, f"fig7_spin_mu{mu.rstrip('%')}",
             {f"{w} {s}": series(rows[f"{w} mu={mu} {s}"], "threads") for w in SCHEMES for s in SPINS if s != "block"},
             "threads", title=f"Figure {fig}: SSR, mu={mu}, Linux wake-up schemes, {b} barriers")
    for mu, fig in (("1%", "7.9"), ("10%", "7.10")):
        plot(ctx, res, f"fig7_speedup_mu{mu.rstrip('%')}",
             {f"{w} {x} vs {y}": ([r["threads"] for r in rows[f"{w} mu={mu} CS"]],
                                  [100 * (ry["elapsed"] - rx["elapsed"]) / ry["elapsed"]
                                   for rx, ry in zip(rows[f"{w} mu={mu} {x}"], rows[f"{w} mu={mu} {y}"])])
              for w in SCHEMES for x, y in PAIRS[:3]}, "threads", ylabel="speedup (%)", ylim=None,
             title=f"Figure {fig}: speedup (elapsed time), mu={mu}, Linux wake-up schemes")
    plot(ctx, res, "fig7_speedup_rr",
         {f"{w} mu={mu} 2CS+ vs CS": ([r["threads"] for r in rows[f"{w} mu={mu} CS"]],
                                      [100 * (ry["elapsed"] - rx["elapsed"]) / ry["elapsed"]
                                       for rx, ry in zip(rows[f"{w} mu={mu} 2CS+"], rows[f"{w} mu={mu} CS"])])
          for w in ("rr-preempt", "rr-tail") for mu in ("1%", "10%")}, "threads", ylabel="speedup (%)", ylim=None,
         title="A/B: speedup of 2CS+ over CS under SCHED_RR (tail, preempt)")
    res["values"]["table"] = table
    res["values"]["barriers"] = b
    res["values"]["load range (threads)"] = (rows["rr-tail mu=1% CS"][0]["threads"], rows["rr-tail mu=1% CS"][-1]["threads"])
    # 7.7.1 and 7.7.2, one check per claim; 7.7.3's wake-up comparisons are shown, not checked.
    for (w, mu), spins in THESIS_7_7_SSR.items():
        ssr, spd = table[(w, mu)]
        for s, th in spins.items():
            ok, d = band(ssr[s], th)
            check(res, f"SSR {w} mu={mu} {s} (7.7.1)", ok, d)
        for pair, th in THESIS_7_7_SPEEDUP[(w, mu)].items():
            ok, d = band(spd[pair], th)
            check(res, f"elapsed {w} mu={mu}: {pair} (7.7.2)", ok, d)
    # Who finishes first, as the thesis states it: 2CS+ before CS for both grains and every scheme.
    for w in SCHEMES:
        for mu in ("1%", "10%"):
            sp = table[(w, mu)][1]["2CS+ vs CS"]
            check(res, f"elapsed {w} mu={mu}: 2CS+ finishes before CS (7.7.2)", sp > 0, f"speedup {sp:+.1f}%")
    ssr, _ = table[("rr-tail", "1%")]
    check(res, "tail (TOS, SCHED_RR): CS below 50% (alternating synchronization)", ssr["CS"] < 50,
          f"CS {ssr['CS']:.1f}%")
    return res


def fig7_6(ctx):
    """Figure 7.6 and its table (7.6): load 80 (= 16 x 5), mu=1%, CS/CS+/2CS+ over many seeds:
    the longer spin reaches the transition point sooner, has the higher SSR and finishes first."""
    res = new("fig7_6")
    seeds = range(1, 101) if ctx.full else range(1, 11)
    cfg = ""
    for sd in seeds:
        for s in ("CS", "CS+", "2CS+"):
            cfg += (f"{MACHINE} nosync=69 rand_ord=1 {lx()} seed={sd} label=\"{s}\"\n"
                    f"sync=11 barrier=2000 spin={s} cmput=1% rand_cmput_sigma={SIGMA}\n")
    rows = ctx.run("fig7_6", cfg)
    avg = {s: (mean([r["ssr"] for r in rows[s]]), mean([r["elapsed"] for r in rows[s]])) for s in rows}
    res["values"]["mean SSR and elapsed over seeds"] = {s: (round(a, 1), round(e)) for s, (a, e) in avg.items()}
    res["values"]["seeds"] = len(seeds)
    by_seed = {s: [r["elapsed"] for r in rows[s]] for s in rows}
    plot(ctx, res, "fig7_6", {s: (list(range(len(by_seed[s]))), by_seed[s]) for s in by_seed}, "seed",
         ylabel="elapsed (cycles)", ylim=None, title="Figure 7.6(c): completion time, load 80, mu=1%")
    check(res, "SSR: CS < CS+ < 2CS+ (7.6: 81.1, 96.6, 99.2)", avg["CS"][0] < avg["CS+"][0] < avg["2CS+"][0],
          ", ".join(f"{s} {a:.1f}%" for s, (a, e) in avg.items()))
    check(res, "elapsed: 2CS+ <= CS+ < CS (7.6: 17,013, 17,644, 26,194 cycles)",
          avg["2CS+"][1] <= avg["CS+"][1] < avg["CS"][1], ", ".join(f"{s} {e:.0f}" for s, (a, e) in avg.items()))
    return res


# ---------------------------------------------------------------- chapter 8

# The claims of chapter 8 that the checks test (Tsafrir 2001, 8.3-8.6), the thesis's numbers.
THESIS_8_3_SURPLUS = {  # (scheme, mu) -> {spin: mean over the sizes of the maximal surplus with SSR > 50%}
    ("silly", "1%"): {"CS": 10.4, "CS+": 23.8, "2CS+": 41.6}, ("silly", "10%"): {"CS": 6.9, "CS+": 10.4, "2CS+": 24.7},
    ("aip", "1%"): {"CS": 16.7, "CS+": 31.1, "2CS+": 45.5}, ("aip", "10%"): {"CS": 12, "CS+": 14.2, "2CS+": 29.9},
    ("smart", "1%"): {"CS": 16.5, "CS+": 31.1, "2CS+": 48.9}, ("smart", "10%"): {"CS": 10.6, "CS+": 13.8, "2CS+": 29.9},
}
THESIS_8_3_TWO25 = {"1%": {"smart": 93.4, "aip": 94.1, "silly": 35.2},  # SSR of two 25-thread jobs, 2CS+
                    "10%": {"smart": 72, "aip": 63.3, "silly": 33.6}}
THESIS_8_4_WAKE = {  # mu -> {pair: {spin: mean speedup (%) over loads 33-64, all sizes}}
    "1%": {"smart vs silly": {"CS": 4, "CS+": 10, "2CS+": 6}, "aip vs silly": {"CS": 5, "CS+": 9, "2CS+": 6},
           "smart vs aip": {"CS": -1, "CS+": 1, "2CS+": -1}},
    "10%": {"smart vs silly": {"CS": 2, "CS+": 2, "2CS+": 3}, "aip vs silly": {"CS": 2, "CS+": 2, "2CS+": 3},
            "smart vs aip": {"CS": 0, "CS+": 0, "2CS+": 0}},
}
THESIS_8_4_TWO25 = {  # the same pairs for the two 25-thread jobs
    "1%": {"smart vs silly": {"CS": 56, "CS+": 57, "2CS+": 73}, "aip vs silly": {"CS": 49, "CS+": 59, "2CS+": 73},
           "smart vs aip": {"CS": 14, "CS+": -4, "2CS+": -2}},
    "10%": {"smart vs silly": {"CS": 7, "CS+": 10, "2CS+": 31}, "aip vs silly": {"CS": 5, "CS+": 8, "2CS+": 24},
            "smart vs aip": {"CS": 1, "CS+": 2, "2CS+": 9}},
}
# 8.5 (AIP): alpha = loads 33-64, beta = 65-96, gamma = 97-320.
THESIS_8_5 = {"1%": {"2CS+ vs CS": (25, 0, -34), "CS+ vs CS": (17, 2, -4), "2CS+ vs CS+": (11, -4, -28)},
              "10%": {"2CS+ vs CS": (4, -16, -24), "CS+ vs CS": (0, -3, -3), "2CS+ vs CS+": (4, -13, -20)}}
RANGES_8_5 = ((P + 1, 2 * P), (2 * P + 1, 3 * P), (3 * P + 1, 10 * P))
# 8.6 (AIP), against always-block: fine alpha 1-32, beta 33-64, gamma 97-320; medium beta split at 48.
THESIS_8_6 = {"1%": {"2CS+ vs block": (60, 41, -107), "CS+ vs block": (60, 34, -64), "CS vs block": (60, 18, -59)},
              "10%": {"2CS+ vs block": (22, 10, -9, -54), "CS+ vs block": (22, 7, -13, -29),
                      "CS vs block": (21, 6, -13, -25)}}
RANGES_8_6 = {"1%": ((1, P), (P + 1, 2 * P), (3 * P + 1, 10 * P)),
              "10%": ((1, P), (P + 1, 3 * P // 2), (3 * P // 2 + 1, 2 * P), (3 * P + 1, 10 * P))}
# A band check passes when ours lies within the thesis's value +- these margins (the thesis gives
# no deviations in chapters 8-9): MARGIN points for SSR and speedups (chapter 7's), SURPLUS_MARGIN
# threads for a surplus (ours: half the processor count, the step of the bigger job sizes' loads).
SURPLUS_MARGIN = 16
SPINS8 = ["block", "CS", "CS+", "2CS+"]


def ch8_loads(s, maxt, full):
    """The job counts of one size: every count up to 3 x 32 threads (the loads where spinning can
    pay, 8.5's alpha and beta), then about ten counts up to maxt (full) or every few (reduced)."""
    kmax = max(2, -(-maxt // s))
    dense = [k for k in range(1, kmax + 1) if s * k <= 3 * P]
    step = 1 if full else max(1, len(dense) // 16)
    ks = dense[::step]
    rest = [k for k in range(1, kmax + 1) if s * k > 3 * P]
    if rest:
        ks += rest[::max(1, len(rest) // (10 if full else 4))]
        if rest[-1] not in ks:
            ks.append(rest[-1])
    if 2 not in ks:  # the two-job point (8.3's two 25-thread jobs)
        ks.append(2)
    return sorted(set(ks))


def ch8_runs(ctx):
    sizes = SIZES_FULL if ctx.full else [2, 3, 11, 25]
    maxt = 10 * P if ctx.full else 4 * P
    b = 2000 if ctx.full else 200  # 8.2: 2000 barriers; reduced: 200
    if "ch8" in ctx.cache:
        return ctx.cache["ch8"]
    cfg = ""
    for w in SCHEMES:
        for mu in ("1%", "10%"):
            for s in sizes:
                ks = ch8_loads(s, maxt, ctx.full)
                for sp in SPINS8:
                    cfg += "".join(f"{MACHINE} nosync=0 rand_ord=1 {lx(w)} label=\"{w} mu={mu} {sp} size{s}\"\n"
                                   f"sync={s} barrier={b} spin={sp} cmput={mu} rand_cmput_sigma={SIGMA} "
                                   f"instance_num={k}\n" for k in ks)
    # 8.7: AIP, fine grain, spins of 4, 8 and 12 CS against 2CS+ (CS = 6 cycles here).
    for m in (4, 8, 12):
        for s in sizes:
            ks = ch8_loads(s, maxt, ctx.full)
            cfg += "".join(f"{MACHINE} nosync=0 rand_ord=1 {lx('aip')} label=\"aip mu=1% {m}CS size{s}\"\n"
                           f"sync={s} barrier={b} spin={6 * m} cmput=1% rand_cmput_sigma={SIGMA} "
                           f"instance_num={k}\n" for k in ks)
    rows = ctx.run("fig8", cfg)
    ctx.cache["ch8"] = (sizes, maxt, b, rows)
    return ctx.cache["ch8"]


def speedup(tx, ty):
    return 100 * (ty - tx) / ty


def load_mean(pairs, lo, hi):
    """pairs: [(threads, value)]; the mean over loads in [lo, hi] of the mean at each load (the
    thesis's averaging: each load weighs the same, 8.4)."""
    by = {}
    for t, v in pairs:
        if lo <= t <= hi:
            by.setdefault(t, []).append(v)
    return mean([mean(v) for v in by.values()])


def ch8_speedups(rows, sizes, x, y):
    """[(threads, speedup of x over y)] over every size; x, y: (scheme, mu, spin)."""
    out = []
    for s in sizes:
        rx, ry = rows[f"{x[0]} mu={x[1]} {x[2]} size{s}"], rows[f"{y[0]} mu={y[1]} {y[2]} size{s}"]
        out += [(a["threads"], speedup(a["elapsed"], c["elapsed"])) for a, c in zip(rx, ry)]
    return out


def fig8(ctx):
    """Chapter 8: homogeneous jobs under Linux's scheduler, the chapter 4 sequences with 2000
    barriers, CS/CS+/2CS+ (and always-block for 8.6) under SMART, AIP and SILLY (Figures 8.1-8.10)."""
    res = new("fig8")
    sizes, maxt, b, rows = ch8_runs(ctx)
    res["values"]["sizes"], res["values"]["barriers"], res["values"]["max_threads"] = sizes, b, maxt
    plot(ctx, res, "fig8_1", {f"mu={mu} size {s}": series(rows[f"aip mu={mu} 2CS+ size{s}"], "threads")
                              for mu in ("1%", "10%") for s in sizes},
         "threads", vlines=[P, 2 * P], title=f"Figure 8.1: homogeneous jobs, Linux (AIP), 2CS+, {b} barriers")
    sur = {(w, mu): {sp: {s: surplus(rows[f"{w} mu={mu} {sp} size{s}"])[0] for s in sizes} for sp in SPINS8[1:]}
           for w in SCHEMES for mu in ("1%", "10%")}
    avg = {k: {sp: mean(list(d.values())) for sp, d in v.items()} for k, v in sur.items()}
    res["values"]["surplus"] = sur
    res["values"]["surplus_avg"] = avg
    for mu, fig in (("1%", "8.2"), ("10%", "8.3")):
        plot(ctx, res, f"fig8_{fig[-1]}", {f"{w} {sp}": (sizes, [sur[(w, mu)][sp][s] for s in sizes])
                                            for w in SCHEMES for sp in SPINS8[1:]}, "job size",
             ylabel="surplus threads with SSR > 50%", kind="bar", ylim=None,
             title=f"Figure {fig}: maximal surplus with SSR > 50%, mu={mu}")
    # 8.3's claims.
    for mu in ("1%", "10%"):
        o = avg[("aip", mu)]
        th = THESIS_8_3_SURPLUS[("aip", mu)]
        check(res, f"surplus AIP mu={mu}, mean over sizes: 2CS+ > CS+ > CS (8.3: {th['2CS+']}, {th['CS+']}, {th['CS']})",
              o["2CS+"] > o["CS+"] > o["CS"],
              ", ".join(f"{sp} {v:.1f}" for sp, v in o.items()))
        for sp in SPINS8[1:]:
            worse = avg[("silly", mu)][sp] <= min(avg[("aip", mu)][sp], avg[("smart", mu)][sp])
            th = ", ".join(f"{w.upper()} {THESIS_8_3_SURPLUS[(w, mu)][sp]}" for w in SCHEMES)
            check(res, f"surplus mu={mu} {sp}: SILLY's mean no bigger than AIP's and SMART's (8.3: {th})", worse,
                  ", ".join(f"{w} {avg[(w, mu)][sp]:.1f}" for w in SCHEMES))
    if 2 in sizes:
        eq = [(mu, sp) for mu in ("1%", "10%") for sp in SPINS8[1:] if len({sur[(w, mu)][sp][2] for w in SCHEMES}) > 1]
        check(res, "size 2: the same surplus under every scheme (8.3: always equal, one woken thread)", not eq,
              f"differ: {eq}" if eq else "equal for every grain and spin")
    two25 = {mu: {w: next(r["ssr"] for r in rows[f"{w} mu={mu} 2CS+ size25"] if r["threads"] == 50) for w in SCHEMES}
             for mu in ("1%", "10%")} if 25 in sizes else {}
    res["values"]["two25_ssr"] = two25
    for mu, d in two25.items():
        th = ", ".join(f"{w.upper()} {v}" for w, v in THESIS_8_3_TWO25[mu].items())
        check(res, f"SSR two 25-thread jobs mu={mu}, 2CS+: SILLY's below AIP's and SMART's (8.3: {th})",
              d["silly"] < min(d["aip"], d["smart"]), ", ".join(f"{w} {v:.1f}%" for w, v in d.items()))
    # 8.4: the wake-up schemes' speedups.
    wake = {mu: {f"{a} vs {c}": {sp: load_mean(ch8_speedups(rows, sizes, (a, mu, sp), (c, mu, sp)), P + 1, 2 * P)
                                   for sp in SPINS8[1:]}
                 for a, c in (("smart", "silly"), ("aip", "silly"), ("smart", "aip"))} for mu in ("1%", "10%")}
    res["values"]["wake"] = wake
    for mu, fig in (("1%", "8.4"), ("10%", "8.5")):
        curves = {}
        for pair in wake[mu]:
            a, c = pair.split(" vs ")
            for sp in SPINS8[1:]:
                pts = ch8_speedups(rows, sizes, (a, mu, sp), (c, mu, sp))
                xs = sorted({t for t, _ in pts})
                curves[f"{pair} {sp}"] = (xs, [load_mean(pts, t, t) for t in xs])
        plot(ctx, res, f"fig8_{fig[-1]}", curves, "threads", ylabel="speedup (%)", ylim=None, vlines=[P, 2 * P],
             title=f"Figure {fig}: wake-up schemes compared (elapsed time), mu={mu}, mean over sizes")
    if 25 in sizes:
        w25 = {mu: {pair: {sp: speedup(next(r["elapsed"] for r in rows[f"{pair.split(' vs ')[0]} mu={mu} {sp} size25"]
                                             if r["threads"] == 50),
                                        next(r["elapsed"] for r in rows[f"{pair.split(' vs ')[1]} mu={mu} {sp} size25"]
                                             if r["threads"] == 50))
                           for sp in SPINS8[1:]} for pair in wake[mu]} for mu in ("1%", "10%")}
        res["values"]["wake_two25"] = w25
        for sp in SPINS8[1:]:
            v = w25["1%"]["aip vs silly"][sp]
            th = THESIS_8_4_TWO25["1%"]["aip vs silly"][sp]
            check(res, f"elapsed two 25-thread jobs mu=1% {sp}: AIP finishes before SILLY (8.4: {th:+})", v > 0,
                  f"speedup {v:+.1f}%")
    # 8.5 and 8.6: spins against each other and against always-block (AIP).
    spin = {mu: {pair: [load_mean(ch8_speedups(rows, sizes, ("aip", mu, pair.split(" vs ")[0]),
                                               ("aip", mu, pair.split(" vs ")[1])), lo, hi) for lo, hi in RANGES_8_5]
                 for pair in THESIS_8_5[mu]} for mu in ("1%", "10%")}
    blk = {mu: {pair: [load_mean(ch8_speedups(rows, sizes, ("aip", mu, pair.split(" vs ")[0]), ("aip", mu, "block")),
                                 lo, hi) for lo, hi in RANGES_8_6[mu]]
                for pair in THESIS_8_6[mu]} for mu in ("1%", "10%")}
    res["values"]["spin"], res["values"]["block"] = spin, blk
    for mu, fig in (("1%", "8.6"), ("10%", "8.7")):
        curves = {}
        for pair in THESIS_8_5[mu]:
            x, y = pair.split(" vs ")
            pts = ch8_speedups(rows, sizes, ("aip", mu, x), ("aip", mu, y))
            xs = sorted({t for t, _ in pts})
            curves[pair] = (xs, [load_mean(pts, t, t) for t in xs])
        plot(ctx, res, f"fig8_{fig[-1]}", curves, "threads", ylabel="speedup (%)", ylim=None,
             vlines=[P, 2 * P, 3 * P], title=f"Figure {fig}: spin durations compared (AIP), mu={mu}, mean over sizes")
    for mu, fig in (("1%", "8.8"), ("10%", "8.9")):
        curves = {}
        for pair in THESIS_8_6[mu]:
            pts = ch8_speedups(rows, sizes, ("aip", mu, pair.split(" vs ")[0]), ("aip", mu, "block"))
            xs = sorted({t for t, _ in pts})
            curves[pair] = (xs, [load_mean(pts, t, t) for t in xs])
        plot(ctx, res, f"fig8_{fig[-1]}", curves, "threads", ylabel="speedup (%)", ylim=None,
             vlines=[P, 2 * P, 3 * P], title=f"Figure {fig}: spinning against always-block (AIP), mu={mu}")
    a = spin["1%"]["2CS+ vs CS"][0]
    check(res, f"elapsed AIP mu=1%, loads 33-64: 2CS+ finishes before CS (8.5: {THESIS_8_5['1%']['2CS+ vs CS'][0]:+})",
          a > 0, f"speedup {a:+.1f}%")
    for mu in ("1%", "10%"):
        v = blk[mu]["2CS+ vs block"][1]
        check(res, f"elapsed AIP mu={mu}, loads 33-{2 * P if mu == '1%' else 3 * P // 2}: 2CS+ finishes before "
              f"always-block (8.6: {THESIS_8_6[mu]['2CS+ vs block'][1]:+})", v > 0, f"speedup {v:+.1f}%")
    if maxt > 3 * P:
        g = blk["1%"]["2CS+ vs block"][-1]
        check(res, f"elapsed AIP mu=1%, loads above 96: always-block finishes before 2CS+ "
              f"(8.6: {THESIS_8_6['1%']['2CS+ vs block'][2]:+})", g < 0,
              f"speedup of 2CS+ {g:+.1f}%")
    # 8.7: longer spins than 2CS+ (AIP, fine grain) over every load above 32.
    longer = {m: load_mean(ch8_speedups(rows, sizes, ("aip", "1%", "2CS+"), ("aip", "1%", f"{m}CS")), P + 1, 10 * P)
              for m in (4, 8, 12)}
    res["values"]["longer"] = longer
    plot(ctx, res, "fig8_10", {f"2CS+ vs {m}CS": (lambda pts: (sorted({t for t, _ in pts}),
                                                                 [load_mean(pts, t, t) for t in sorted({t for t, _ in pts})]))(
        ch8_speedups(rows, sizes, ("aip", "1%", "2CS+"), ("aip", "1%", f"{m}CS"))) for m in (4, 8, 12)},
         "threads", ylabel="speedup (%)", ylim=None, title="Figure 8.10: 2CS+ against longer spins (AIP, mu=1%)")
    check(res, "elapsed AIP mu=1%: 2CS+ before 4, 8, 12 CS, and 4CS before 8CS before 12CS (8.7: the longer "
          "the spin, the longer the run)",
          0 < longer[4] < longer[8] < longer[12], ", ".join(f"vs {m}CS {v:+.1f}%" for m, v in longer.items()))
    if ctx.full:
        # The thesis's numbers as bands (its full runs only: the reduced run has fewer sizes and loads).
        for (w, mu), d in THESIS_8_3_SURPLUS.items():
            for sp, th in d.items():
                ours = avg[(w, mu)][sp]
                check(res, f"surplus {w} mu={mu} {sp} (8.3)", abs(ours - th) <= SURPLUS_MARGIN,
                      f"ours {ours:.1f}, thesis {th} (band +-{SURPLUS_MARGIN})")
        for mu, d in THESIS_8_3_TWO25.items():
            for w, th in d.items():
                ok, det = band(two25[mu][w], (th, 0))
                check(res, f"SSR two 25-thread jobs {w} mu={mu} 2CS+ (8.3)", ok, det)
        for mu, d in THESIS_8_4_WAKE.items():
            for pair, dd in d.items():
                for sp, th in dd.items():
                    ok, det = band(wake[mu][pair][sp], (th, 0))
                    check(res, f"elapsed mu={mu} {pair} {sp}, loads 33-64 (8.4)", ok, det)
        for mu, d in THESIS_8_4_TWO25.items():
            for pair, dd in d.items():
                for sp, th in dd.items():
                    ok, det = band(res["values"]["wake_two25"][mu][pair][sp], (th, 0))
                    check(res, f"elapsed two 25-thread jobs mu={mu} {pair} {sp} (8.4)", ok, det)
        for mu, d in THESIS_8_5.items():
            for pair, ths in d.items():
                for name, ours, th in zip(("alpha", "beta", "gamma"), spin[mu][pair], ths):
                    ok, det = band(ours, (th, 0))
                    check(res, f"elapsed AIP mu={mu} {pair}, {name} (8.5)", ok, det)
        for mu, d in THESIS_8_6.items():
            names = ("alpha", "beta", "gamma") if mu == "1%" else ("alpha", "beta1", "beta2", "gamma")
            for pair, ths in d.items():
                for name, ours, th in zip(names, blk[mu][pair], ths):
                    ok, det = band(ours, (th, 0))
                    check(res, f"elapsed AIP mu={mu} {pair}, {name} (8.6)", ok, det)
    ch8_ab(ctx, res, sizes, b, rows)
    return res


# The band rows of chapter 8 that fail here, and the A/B that measures each one's cause:
# "size2": the same runs averaged without the size-2 collections (8.5's beta and 8.6's beta of
# fine grain, where the size-2 loads alone cover most of the load range); "seeds": the two
# 25-thread jobs (one run each, one seed in the thesis) over 20 seeds, the median speedup;
# "lifo": the same 20 seeds with __wake_up_common walking a barrier's blocked threads latest
# first (wake_order=lifo) instead of in the order they blocked (the seed leaves the order open).
AB_8 = {"elapsed AIP mu=1% 2CS+ vs CS, beta (8.5)": ("size2", "8.5", "2CS+ vs CS", 1),
        "elapsed AIP mu=1% CS+ vs CS, beta (8.5)": ("size2", "8.5", "CS+ vs CS", 1),
        "elapsed AIP mu=1% 2CS+ vs CS+, beta (8.5)": ("size2", "8.5", "2CS+ vs CS+", 1),
        "elapsed AIP mu=1% CS vs block, beta (8.6)": ("size2", "8.6", "CS vs block", 1),
        "elapsed two 25-thread jobs mu=1% aip vs silly CS+ (8.4)": ("seeds", "8.4", "aip vs silly", "CS+"),
        "elapsed two 25-thread jobs mu=1% smart vs aip CS+ (8.4)": ("lifo", "8.4", "smart vs aip", "CS+")}


def ch8_ab(ctx, res, sizes, b, rows):
    """Chapter 8's A/Bs (AB_8): the fine-grain ranges of 8.5 and 8.6 without the size-2
    collections, and the two 25-thread jobs over seeds; at the full size each is a check that the
    A/B lies in the thesis's band, which is what lets the failing row count as explained."""
    no2 = [s for s in sizes if s != 2]
    spin = {pair: [load_mean(ch8_speedups(rows, no2, ("aip", "1%", pair.split(" vs ")[0]),
                                          ("aip", "1%", pair.split(" vs ")[1])), lo, hi) for lo, hi in RANGES_8_5]
            for pair in THESIS_8_5["1%"]}
    blk = {pair: [load_mean(ch8_speedups(rows, no2, ("aip", "1%", pair.split(" vs ")[0]), ("aip", "1%", "block")),
                            lo, hi) for lo, hi in RANGES_8_6["1%"]] for pair in THESIS_8_6["1%"]}
    # what size 2 does there: its mean SSR per spin over 8.5's beta (65-96 threads)
    ssr2 = {sp: mean([r["ssr"] for r in rows[f"aip mu=1% {sp} size2"] if 2 * P < r["threads"] <= 3 * P])
            for sp in SPINS8[1:]} if 2 in sizes else {}
    res["values"]["ab_no_size2"] = {"8.5": spin, "8.6": blk, "size2_ssr_beta": ssr2}
    seeds = list(range(1, 21 if ctx.full else 6))
    two, lifo, per = {}, {}, {}
    if 25 in sizes:
        for order, name, out in (("", "fig8_ab_two25_seeds", two), (" wake_order=lifo", "fig8_ab_two25_lifo", lifo)):
            cfg = "".join(f"{MACHINE} nosync=0 rand_ord=1 {lx(w)}{order} seed={sd} label=\"{w} {sp} two25 seed{sd}\"\n"
                          f"sync=25 barrier={b} spin={sp} cmput=1% rand_cmput_sigma={SIGMA} instance_num=2\n"
                          for w in SCHEMES for sp in SPINS8[1:] for sd in seeds)
            r = ctx.run(name, cfg)
            for pair in THESIS_8_4_TWO25["1%"]:
                x, y = pair.split(" vs ")
                for sp in SPINS8[1:]:
                    v = sorted(speedup(r[f"{x} {sp} two25 seed{sd}"][0]["elapsed"],
                                       r[f"{y} {sp} two25 seed{sd}"][0]["elapsed"]) for sd in seeds)
                    out[(pair, sp)] = (v[len(v) // 2], v[0], v[-1])
            # what each scheme does with either order: median elapsed, mean SSR, mean context switches
            for w in SCHEMES:
                for sp in SPINS8[1:]:
                    rs = [r[f"{w} {sp} two25 seed{sd}"][0] for sd in seeds]
                    many = sum(x["woken_many"] for x in rs)
                    per[(order.strip() or "wake_order=fifo", w, sp)] = (
                        sorted(x["elapsed"] for x in rs)[len(rs) // 2], mean([x["ssr"] for x in rs]),
                        mean([x["switches"] for x in rs]),
                        100 * sum(x["woken_to_prev"] for x in rs) / many if many else float("nan"),
                        100 * sum(x["woken_prev_idle_lost"] for x in rs) / many if many else float("nan"))
    res["values"]["ab_two25_seeds"] = {"seeds": len(seeds), "speedups": two, "lifo": lifo, "per_scheme": per}
    if not ctx.full:
        return  # the rows are the full size's bands
    for name, (kind, sec, pair, k) in AB_8.items():
        th = (THESIS_8_5 if sec == "8.5" else THESIS_8_6 if sec == "8.6" else THESIS_8_4_TWO25)["1%"][pair]
        if kind == "size2":
            v, th = (spin if sec == "8.5" else blk)[pair][k], th[k]
            ok, det = band(v, (th, 0))
            check(res, f"cause: {name} without the size-2 collections (the same runs) in the band", ok, det)
            explain(res, name, ok, f"without the size-2 collections (the same runs) {v:+.1f}, thesis {th:+}")
        elif kind == "lifo" and (pair, k) in lifo:
            (med, lo, hi), th = lifo[(pair, k)], th[k]
            ok, det = band(med, (th, 0))
            check(res, f"cause: {name}, the woken threads walked latest first (wake_order=lifo), median over "
                  f"{len(seeds)} seeds in the band", ok, det.replace("ours", "median") + f"; seeds from {lo:+.1f} to "
                  f"{hi:+.1f}; in the order they blocked {two[(pair, k)][0]:+.1f}")
            explain(res, name, ok, f"with the woken threads walked latest first (wake_order=lifo) the median over "
                    f"{len(seeds)} seeds is {med:+.1f} (from {lo:+.1f} to {hi:+.1f}), thesis {th:+}; in the order "
                    f"they blocked {two[(pair, k)][0]:+.1f}")
        elif (pair, k) in two:
            (med, lo, hi), th = two[(pair, k)], th[k]
            ok, det = band(med, (th, 0))
            check(res, f"cause: {name}, median over {len(seeds)} seeds in the band", ok,
                  det.replace("ours", "median") + f"; seeds from {lo:+.1f} to {hi:+.1f}")
            explain(res, name, ok, f"median over {len(seeds)} seeds {med:+.1f} (from {lo:+.1f} to {hi:+.1f}), "
                    f"thesis {th:+}")


# ---------------------------------------------------------------- chapter 9

SIZES_9 = [(2, 8, 2), (9, 16, 1)]                 # 9.2: job size 2-8 : 2, 9-16 : 1
MUS_9 = [(1, 2, 1), (3, 20, 1), (21, 90, 1)]      # 9.2: mu 1-2% : 1, 3-20% : 1, 21-90% : 1 (fine, medium, coarse)
THESIS_9_SURPLUS_AIP_2CS_FINE = 52.2              # 9.3: the mean surplus of the fine class, AIP 2CS+
GRAINS_9 = ("fine", "medium", "coarse")


def sequence_9(seed, max_threads, sizes=SIZES_9):
    """5.1.5's random permutation with 9.2's constraint: a job of each class among the first three
    (a sequence that breaks it is drawn again from the same stream). Jobs: (size, mu %, class)."""
    rng = random.Random(seed)
    while True:
        seq, total = [], 0
        while total <= max_threads:
            size, _ = draw(rng, sizes, integer=True)
            mu, c = draw(rng, MUS_9, integer=True)  # whole percents, as 9.3's example (mu 1, 7, 14, 17, 20, 68, ...)
            seq.append((size, mu, c))
            total += size
        if len(seq) >= 3 and {c for _, _, c in seq[:3]} == {0, 1, 2}:
            return seq


def runs_9(ctx, seed, w, sp, b, maxt, stop):
    """One sequence's runs (the i-th runs its first i jobs). stop=first (5.1.4, the permutation
    mode's end: the load does not thin out) for the classes' SSR; stop=last for the elapsed time of
    the whole collection (9.3 weighs the coarse jobs' loss against the fine jobs' gain)."""
    seq = sequence_9(seed, maxt)
    cfg = ""
    for i in range(1, len(seq) + 1):
        cfg += f"{MACHINE} nosync=0 rand_ord=1 seed={seed} {lx(w)} stop={stop} label=\"n{i}\"\n"
        cfg += "".join(f"sync={z} barrier={b} spin={sp} cmput={mu}% rand_cmput_sigma={SIGMA}\n" for z, mu, _ in seq[:i])
    name = f"fig9_s{seed}_{w}_{sp.replace('+', 'p')}_{stop}"
    rows, jobs = run_jobs(ctx, name, cfg)
    per = {}
    for i, j, d in jobs:
        per.setdefault(i, {}).setdefault(seq[j][2], [0, 0])
        per[i][seq[j][2]][0] += int(d["successes"])
        per[i][seq[j][2]][1] += int(d["spins"])
    curves, elapsed = {}, []
    for i in range(1, len(seq) + 1):
        t = rows[f"n{i}"][0]["threads"]
        elapsed.append((t, rows[f"n{i}"][0]["elapsed"]))
        for c, (ok, n) in per.get(i, {}).items():
            if n:
                curves.setdefault(c, []).append((t, 100 * ok / n))
    return curves, elapsed


def last_surplus(curve):
    """9.3's surplus of a class: the load of the last simulation with SSR > 50%, minus 32."""
    return max([t - P for t, y in curve if y > 50 and t > P], default=0)


def fig9(ctx):
    """Chapter 9: heterogeneous jobs under Linux's scheduler (9.2's random sequences on 32
    processors), per class SSR and surplus (Figures 9.1-9.2), spins against always-block (9.3)."""
    res = new("fig9")
    seeds = list(range(20)) if ctx.full else [0, 1]
    b = 2000 if ctx.full else 200
    maxt = 10 * P if ctx.full else 4 * P
    schemes = SCHEMES if ctx.full else ("aip",)
    res["values"]["seeds"], res["values"]["barriers"], res["values"]["max_threads"] = len(seeds), b, maxt
    sur = {}
    el = {}
    for w in schemes:
        for sp in SPINS8:
            for sd in seeds:
                if w == "aip":  # Figure 9.3 is AIP's
                    el[(w, sp, sd)] = runs_9(ctx, sd, w, sp, b, maxt, "last")[1]
                if sp == "block":
                    continue
                cur = runs_9(ctx, sd, w, sp, b, maxt, "first")[0]
                for c in (0, 1):
                    sur.setdefault((w, sp, c), []).append(last_surplus(cur.get(c, [])))
                if w == "aip" and sp == "2CS+" and sd < 4:
                    plot(ctx, res, f"fig9_1_s{sd}", {GRAINS_9[c]: tuple(zip(*cur[c])) for c in sorted(cur)}, "threads",
                         vlines=[P, 2 * P], title=f"Figure 9.1: heterogeneous jobs, AIP 2CS+, seed {sd}")
    avg = {k: (mean(v), mean([abs(x - mean(v)) for x in v])) for k, v in sur.items()}
    res["values"]["surplus"] = avg
    plot(ctx, res, "fig9_2", {f"{w} {GRAINS_9[c]}": (SPINS8[1:], [avg[(w, sp, c)][0] for sp in SPINS8[1:]])
                              for w in schemes for c in (0, 1)}, "maximal spin", ylabel="mean surplus (threads)",
         kind="bar", ylim=None, title=f"Figure 9.2: mean surplus with SSR > 50% over {len(seeds)} seeds")
    # 9.3: each spin against always-block, AIP, the mean over seeds of the speedup at each load.
    spd = {}
    for sp in SPINS8[1:]:
        pts = [(t, speedup(a, c)) for sd in seeds for (t, a), (_, c) in zip(el[("aip", sp, sd)], el[("aip", "block", sd)])]
        spd[sp] = pts
    res["values"]["vs_block"] = {sp: (load_mean(p, P + 1, 2 * P), load_mean(p, 2 * P + 1, 10 * P)) for sp, p in spd.items()}
    plot(ctx, res, "fig9_3", {f"{sp} vs block": (sorted({t for t, _ in p}), [load_mean(p, t, t) for t in sorted({t for t, _ in p})])
                              for sp, p in spd.items()}, "threads", ylabel="speedup (%)", ylim=None, vlines=[P, 2 * P],
         title="Figure 9.3: spinning against always-block, heterogeneous jobs (AIP)")
    f2, m2 = avg[("aip", "2CS+", 0)][0], avg[("aip", "2CS+", 1)][0]
    check(res, f"surplus AIP 2CS+: the fine class above the medium class (9.3: fine {THESIS_9_SURPLUS_AIP_2CS_FINE}, "
          f"medium below the homogeneous {THESIS_8_3_SURPLUS[('aip', '10%')]['2CS+']})", f2 > m2,
          f"fine {f2:.1f}, medium {m2:.1f}")
    vb = res["values"]["vs_block"]
    check(res, "elapsed AIP, loads 33-64: 2CS+ and CS both finish before always-block (9.3: both positive up to "
          "2 x 32 threads)",
          vb["2CS+"][0] > 0 and vb["CS"][0] > 0, f"2CS+ {vb['2CS+'][0]:+.1f}%, CS {vb['CS'][0]:+.1f}%")
    homo = ctx.cache.get("ch8")
    if homo:
        # 9.3's comparison with chapter 8 (our own homogeneous runs of this very invocation).
        _, _, _, rows8 = homo
        sizes8 = homo[0]
        gap8 = (load_mean(ch8_speedups(rows8, sizes8, ("aip", "1%", "2CS+"), ("aip", "1%", "block")), P + 1, 2 * P)
                - load_mean(ch8_speedups(rows8, sizes8, ("aip", "1%", "CS"), ("aip", "1%", "block")), P + 1, 2 * P))
        gap9 = vb["2CS+"][0] - vb["CS"][0]
        res["values"]["2CS+ minus CS against block, loads 33-64 (homogeneous fine, heterogeneous)"] = (round(gap8, 1),
                                                                                                       round(gap9, 1))
        check(res, "elapsed AIP, loads 33-64: CS closer to 2CS+ with heterogeneous jobs than with homogeneous "
              "fine-grain jobs (9.3: much closer than in 8.8)", abs(gap9) < abs(gap8),
              f"gap {gap9:+.1f} points against {gap8:+.1f}")
        h8 = mean(list(sur8 := {s: surplus(rows8[f"aip mu=1% 2CS+ size{s}"])[0] for s in sizes8}.values()))
        res["values"]["homogeneous fine surplus, AIP 2CS+ (mean over sizes)"] = round(h8, 1)
    if homo and ctx.full:  # the thesis's mean over its eleven sizes (the reduced run has four, up to 128 threads)
        check(res, f"surplus AIP 2CS+: the heterogeneous fine class at least the homogeneous fine jobs' mean "
              f"(9.3: {THESIS_9_SURPLUS_AIP_2CS_FINE} against {THESIS_8_3_SURPLUS[('aip', '1%')]['2CS+']})",
              f2 >= h8, f"{f2:.1f} against {h8:.1f} ({len(sur8)} sizes)")
    if ctx.full:
        ok = abs(f2 - THESIS_9_SURPLUS_AIP_2CS_FINE) <= SURPLUS_MARGIN
        check(res, "surplus AIP 2CS+ fine class (9.3)", ok,
              f"ours {f2:.1f}, thesis {THESIS_9_SURPLUS_AIP_2CS_FINE} (band +-{SURPLUS_MARGIN})")
    return res


EXPERIMENTS = {f.__name__: f for f in (fig3_1, fig3_2, fig3_3, fig3_4, fig3_5, fig3_6, fig3_7, fig3_8, fig3_9,
                                       fig4_1, table4_1, fig4_2, fig4_3, fig4_4, fig4_5, fig4_6,
                                       fig5_1, fig5_3, fig5_5,
                                       fig7_1, fig7_2, fig7_spin, fig7_6, fig8, fig9)}


def main(smpsim, argv=None):
    ap = argparse.ArgumentParser(prog="smpsim-experiment", description=__doc__.split("\n\n")[0])
    ap.add_argument("names", help="experiment names separated by commas, or all: " + ", ".join(EXPERIMENTS))
    ap.add_argument("--size", choices=("reduced", "full"), default="reduced")
    ap.add_argument("--out", default="smpsim-out")
    ap.add_argument("--doc", help="write the results document (docs/results/seed004.md)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--testbed", help="with --doc: the Testbed's results (testbed-experiment seed004's output folder, "
                    "OUT/seed004), put after the simulator's")
    ap.add_argument("--reuse", action="store_true",
                    help="reuse OUT's tables of identical configurations made by the same smpsim (regenerate the doc)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="simulate N runs of a configuration at once (smpsim -j N; the tables are the same)")
    a = ap.parse_args(argv)
    names = list(EXPERIMENTS) if a.names == "all" else a.names.split(",")
    bad = [n for n in names if n not in EXPERIMENTS]
    if bad:
        print(f"smpsim-experiment: unknown experiment(s) {bad}; known: {', '.join(EXPERIMENTS)}", file=sys.stderr)
        return 2
    if a.jobs < 1:
        print("smpsim-experiment: --jobs takes a positive number", file=sys.stderr)
        return 2
    ctx = Ctx(smpsim, os.path.abspath(a.out), a.size, a.quiet, a.reuse, a.jobs)
    results, failed = [], 0
    t0 = time.time()
    for n in names:
        t = time.time()
        try:
            r = EXPERIMENTS[n](ctx)
        except Failure as e:
            print(f"smpsim-experiment: {n}: {e}", file=sys.stderr)
            return 2
        r["seconds"] = time.time() - t
        results.append(r)
        for name, ok, detail in r["checks"]:
            failed += not ok
            if not a.quiet or not ok:
                print(f"{n}: {'PASS' if ok else 'FAIL'}: {name}: {detail}")
    if a.doc:
        from seed004_doc import write_doc
        write_doc(a.doc, results, ctx, time.time() - t0, testbed=a.testbed)
    print(f"smpsim-experiment: {sum(len(r['checks']) for r in results) - failed} of "
          f"{sum(len(r['checks']) for r in results)} checks pass ({a.size}, {time.time() - t0:.0f} s)")
    if a.doc:
        # A failed check of the full run is a result (reported in the document), not an error.
        print(f"smpsim-experiment: {a.doc} written; {failed} failed check(s) reported in it")
        return 0
    return 1 if failed else 0
