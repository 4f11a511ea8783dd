"""Seed 000 section 4.1's load-metric case study (Figures 33-38, Table 8): `multi-phase` run once
with no metric class on (the baseline) and once per metric with only that metric's event class
on, each trace turned into the metric's figure, and Table 8 regenerated with measured event
rates, the cost in run time, and checks that the metric shows the program's phases.

The seed's numbers (SEED8) are only the comparison column: nothing here feeds them to the model.
"""
import os

import numpy as np

from . import fsm, runner
from .trace import BOARD_NAMES, TABLES, event_table, read, tables

SLAVES = list(range(1, len(BOARD_NAMES)))
NAMES = {b: BOARD_NAMES[b] for b in SLAVES}
# The ten links (unordered pairs of slaves), in the seed's key order '1-2', '1-3', ...
LINKS = [(a, b) for a in SLAVES for b in SLAVES if a < b]
COMPUTE, COMM = (1, 2, 3, 4), (5, 6, 7, 8)     # Table 5: phases 1-4 compute-bound, 5-8 communication-bound
LOCAL, REMOTE = (1, 2, 5, 6), (3, 4, 7, 8)     # Table 5: phases 3, 4, 7, 8 talk between boards

# metric -> (event class, event driven? (Table 8), seed's events/s and where the seed says it)
METRICS = [
    ("N-THREADS", "threads", "yes", 100 / 33.0, "about 100 events in 33 s (3/s)"),
    ("RQ-LENGTH", "rqlen", "yes", 16800 / 33.0, "16800 events in 33 s (about 500/s)"),
    ("CPU-TIME", "cpu", "yes", 615.0, "about 615 events/s (ten thousand schedulings)"),
    ("REM-COMM", "links", "sampling", 20.0, "four per second from each slave (20/s)"),
]
SEED8 = {"cost": {"N-THREADS": "low", "RQ-LENGTH": "high", "CPU-TIME": "very high", "REM-COMM": "low"},
         "relevant": {"N-THREADS": "no", "RQ-LENGTH": "yes", "CPU-TIME": "perhaps", "REM-COMM": "yes"},
         "timeliness": {"N-THREADS": "guaranteed", "RQ-LENGTH": "guaranteed", "CPU-TIME": "guaranteed", "REM-COMM": "depends"}}

# multi-phase's (steps per phase, long message bytes, pause ms): the full size is section 3's
# multi-phase run; the reduced one keeps the five runs of the CTest entry near two minutes.
SIZES = {"full": (10, 5000, 1000), "reduced": (5, 5000, 500)}
# The baseline's only events are the nine phase marks, seconds apart at the full size (a phase
# and its pause): the logger's quiet time must outlast the longest gap or it stops after phase 1
# and the marks after it are written to nobody.
LOGGER = "master logger -r -q 6000 -o monitor.raw &\n"  # every event kept (experiments.LOGGER)
PERIOD_MS = 20.0   # CPU-TIME's fixed period: the seed's choice, which is also TOS's slice (tos.toml slice_us)


def _tos_limits():
    return tables.tos(TABLES)["limits"]


def rc_metric(size, cls):
    """multi-phase with only `cls` on (None: the baseline). The phase marks (class overflow on
    earth, nine events) are on in every run so that all runs are cut and timed the same way.
    `dgl @* -all` at the end also stops the slaves' link samples, which would otherwise keep the
    logger from ever going quiet."""
    it, mx, pause = size
    on = "earth dgl @* +%s\n" % cls if cls else ""
    return (LOGGER + "earth dgl @earth +overflow\n" + on + "earth multi-phase %d %d %d\nearth dgl @* -all\n"
            % (it, mx, pause))


# ---------------------------------------------------------------- reading the metrics out of a trace
def phase_bounds(tr):
    """[start of phase 1, ..., start of phase 8, end] (ms) from multi-phase's marks, or None."""
    marks = fsm.user_marks(tr)
    starts = [t for t, k in marks if 1 <= k <= 8]
    end = [t for t, k in marks if k == 0xFF]
    if len(starts) != 8 or len(end) != 1:
        return None
    return starts + end


def class_events(tr, cls):
    """The trace's events of one class (each two-word event once)."""
    names = {"threads": ("THREAD_IN", "THREAD_OUT"), "rqlen": ("RQ_GROW", "RQ_SHRINK"), "cpu": ("USER_ON", "USER_OFF"),
             "links": ("LINK_COUNT",)}[cls]
    return [e for e in tr.events if e.name in names]


def rq_lengths(tr):
    """Figure 34: per slave, (t, length) after every RQ_GROW / RQ_SHRINK (class rqlen: the report's
    ready queue, the running thread included; a thread ready before the class was on is seen
    only leaving, so the count does not go below zero)."""
    out = {}
    for e in tr.events:
        d = {"RQ_GROW": 1, "RQ_SHRINK": -1}.get(e.name)
        if d is None:
            continue
        s = out.setdefault(e.board, [(e.t, 0)])
        s.append((e.t, max(0, s[-1][1] + d)))
    return out


def n_threads(tr):
    """Figure 33: per slave, (t, threads on it) after every THREAD_IN / THREAD_OUT. Threads that
    were there before the class was switched on (dgl's own, on every slave) show only as a
    THREAD_OUT of a TID never seen coming in: they are counted from the trace's start, so the
    count is the board's, not just the changes since monitoring began."""
    out = {b: [] for b in SLAVES}
    seen = {b: set() for b in SLAVES}
    before = {b: 0 for b in SLAVES}
    evs = [e for e in tr.events if e.name in ("THREAD_IN", "THREAD_OUT") and e.board in out]
    for e in evs:
        if e.arg not in seen[e.board] and e.name == "THREAD_OUT":
            before[e.board] += 1
        seen[e.board].add(e.arg)
    t0 = tr.events[0].t if tr.events else 0.0
    for b in SLAVES:
        out[b].append((t0, before[b]))
    for e in evs:
        s = out[e.board]
        s.append((e.t, s[-1][1] + (1 if e.name == "THREAD_IN" else -1)))
    return out


def count_at(series, t):
    v = 0
    for tt, n in series:
        if tt > t:
            break
        v = n
    return v


def user_intervals(tr):
    """CPU-TIME: per slave, the (on, off) times a user thread held the CPU."""
    out, on = {b: [] for b in SLAVES}, {}
    for e in tr.events:
        if e.board not in out:
            continue
        if e.name == "USER_ON":
            on[e.board] = e.t
        elif e.name == "USER_OFF" and on.get(e.board) is not None:
            out[e.board].append((on.pop(e.board), e.t))
    return out


def busy_fraction(intervals, a, b):
    """The share of [a, b) covered by the intervals."""
    tot = sum(max(0.0, min(off, b) - max(on, a)) for on, off in intervals)
    return tot / (b - a) if b > a else float("nan")


def cpu_percent(intervals, t0, t1, period=PERIOD_MS):
    """Figure 35: per period of `period` ms from t0, the % of it a user thread held the CPU."""
    edges = np.arange(t0, t1 + period, period)
    busy = np.zeros(len(edges) - 1)
    for on, off in intervals:
        i = int((on - t0) // period)
        while i < len(busy) and edges[i] < off:
            busy[i] += max(0.0, min(off, edges[i + 1]) - max(on, edges[i]))
            i += 1
    return edges[1:], 100.0 * busy / period


def sliding(pct, n):
    """Figures 36, 37: at each period, the mean of it and the n - 1 before (fewer at the start)."""
    c = np.cumsum(np.concatenate([[0.0], pct]))
    idx = np.arange(1, len(pct) + 1)
    lo = np.maximum(0, idx - n)
    return (c[idx] - c[lo]) / (idx - lo)


def link_samples(tr):
    """REM-COMM: (t, sender, other, count) for every LINK_COUNT."""
    _, conv = event_table()
    return [(e.t, e.board, e.arg >> conv["link_board_shift"], e.arg & conv["link_count_mask"])
            for e in tr.events if e.name == "LINK_COUNT" and e.arg >= 0]


def link_series(samples, t0, period):
    """Figure 38: per link, the messages over it per sample period (both ends' counts added,
    each end's sample put in the period it ends in, counted from t0)."""
    if not samples:
        return np.array([]), {}
    nb = int((max(t for t, *_ in samples) - t0) // period) + 1
    out = {l: np.zeros(nb) for l in LINKS}
    for t, a, b, n in samples:
        l = (min(a, b), max(a, b))
        if l in out and t >= t0:
            out[l][int((t - t0) // period)] += n
    return t0 + period * (np.arange(nb) + 1), out


# ---------------------------------------------------------------- relevance: does the metric show the phases?
def _span(bounds, phases):
    return [(bounds[k - 1], bounds[k]) for k in phases]


def step_mean(points, spans):
    """Time-weighted mean of a step function [(t, v)] over the spans."""
    tot = dur = 0.0
    for a, b in spans:
        dur += b - a
        v = 0.0
        last = a
        for t, val in points:
            if t <= a:
                v = val
                continue
            if t >= b:
                break
            tot += v * (t - last)
            last, v = t, val
        tot += v * (b - last)
    return tot / dur if dur else float("nan")


def rq_relevant(rq, bounds):
    """RQ-LENGTH: the slaves' mean ready-queue length over phases 1-4 above that over 5-8."""
    hi = np.mean([step_mean(rq.get(b, []), _span(bounds, COMPUTE)) for b in SLAVES])
    lo = np.mean([step_mean(rq.get(b, []), _span(bounds, COMM)) for b in SLAVES])
    return hi > lo, hi, lo


def cpu_relevant(intervals, bounds):
    """CPU-TIME: the slaves' user-CPU % over phases 1-4 above that over 5-8."""
    f = lambda ph: 100 * np.mean([sum(busy_fraction(intervals.get(b, []), a, z) * (z - a) for a, z in _span(bounds, ph))
                                  / sum(z - a for a, z in _span(bounds, ph)) for b in SLAVES])
    hi, lo = f(COMPUTE), f(COMM)
    return hi > lo, hi, lo


def links_relevant(samples, bounds, period):
    """REM-COMM: messages per second over all links in the remote phases (3, 4, 7, 8) above the
    local phases' (1, 2, 5, 6). A sample counts the period before it: its count is shared out
    over the phases that period overlaps, so phases shorter than a sample period still count."""
    def rate(phases):
        n = 0.0
        for t, _a, _b, c in samples:
            for a, z in _span(bounds, phases):
                n += c * max(0.0, min(t, z) - max(t - period, a)) / period
        return 1000.0 * n / sum(z - a for a, z in _span(bounds, phases))
    hi, lo = rate(REMOTE), rate(LOCAL)
    return hi > lo, hi, lo


# multi-phase.c: its main thread and WORKERS = BOARDS * ROWS = 25 workers, all alive from before
# phase 1 to its end mark.
MP_THREADS = 1 + 25


def threads_consistent(nt, at, expected=MP_THREADS):
    """N-THREADS: no slave's count below zero, and at time `at` (phase 1's start) the slaves
    together hold the program's threads."""
    neg = [b for b, s in nt.items() if any(v < 0 for _t, v in s)]
    total = sum(count_at(s, at) for s in nt.values())
    return not neg and total == expected, neg, total


# ---------------------------------------------------------------- the experiment
def run(rep, sim, out, size, args=None):
    """Five simulations: baseline, then one per metric; rep gets the figures, Table 8, checks."""
    runs = {}
    for key, cls in [("baseline", None)] + [(m, c) for m, c, *_ in METRICS]:
        d = os.path.join(out, key.lower())
        log, secs = sim(["multi-phase", "dgl", "logger"], rc_metric(size, cls), d)
        probe = runner.monitor_losses(log)
        runs[key] = {"dir": d, "host_s": secs, "lost": sum(v["lost"] for v in probe.values()),
                     "dropped": _dropped(d), "tr": read(os.path.join(d, "monitor.trace.txt"))}
    analyse(rep, runs, size)
    return runs


def _dropped(d):
    import re
    m = re.search(r"(\d+) dropped", runner.console(d, "master"))
    return int(m.group(1)) if m else 0


def _per_slave_steps(steps, x0, ylabel):
    """One panel per slave: its (t ms, value) steps from x0, in seconds (Figures 33, 34)."""
    return [{"title": NAMES[s], "xlabel": "time (s)", "ylabel": ylabel,
             "series": [{"x": [(t - x0) / 1000 for t, _ in steps[s]], "y": [v for _, v in steps[s]], "style": "step"}]}
            for s in SLAVES]


def analyse(rep, runs, size):
    it, mx, pause = size
    period = _tos_limits()["link_sample_us"] / 1000.0
    rep.notes.append(
        "`multi-phase %d %d %d` (Table 5's eight phases, %d steps each, long messages %d bytes, %d ms of computing "
        "between phases) run five times on the default machine: with no metric class on (the baseline) and with only "
        "each metric's class on all slaves (`earth dgl @* +threads`, `+rqlen`, `+cpu`, `+links`), the master's `logger` "
        "draining the monitor. Every run also has multi-phase's nine phase marks on (class overflow on earth) to cut "
        "and time it. Run time: multi-phase's first phase mark to its end mark (simulated). Rate: the class's events "
        "from the trace's first event to the end mark, over that time (a two-word event counts once, as the seed's "
        "'events')." % (it, mx, pause, it, mx, pause))
    info = {}
    for key, r in runs.items():
        b = phase_bounds(r["tr"])
        rep.check("%s run: eight phases marked" % key, b is not None, os.path.basename(r["dir"]))
        info[key] = b
    base = info.get("baseline")
    if base is None or any(info.get(m) is None for m, *_ in METRICS):
        return
    t_base = (base[-1] - base[0]) / 1000.0
    table = ["| metric | event driven? (Table 8) | events/s, seed | events/s, simulated | events (run) | run time | "
             "cost: run time - baseline | events lost | seed cost | relevant (seed) | relevant (here: shows the phases) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    rel = {}
    for m, cls, driven, seed_rate, seed_txt in METRICS:
        r, b = runs[m], info[m]
        tr = r["tr"]
        t0 = tr.events[0].t
        n = sum(1 for e in class_events(tr, cls) if e.t <= b[-1])
        secs = (b[-1] - b[0]) / 1000.0
        rate = n / ((b[-1] - t0) / 1000.0)
        cost = secs - t_base
        r.update(rate=rate, n=n, secs=secs, cost=cost)
        rep.row("%s: events per second (Table 8's cost; seed: %s)" % (m, seed_txt), seed_rate, rate, "/s",
                "%d events" % n)
        rep.row("%s: multi-phase run time with the class on - baseline" % m, None, cost, "s",
                "%.3f s against %.3f s (%+.1f%%)" % (secs, t_base, 100 * cost / t_base))
        t_end = b[-1]
        x0 = t0  # time since monitoring began, as the seed's figures
        if cls == "threads":
            nt = n_threads(tr)
            ok, neg, total = threads_consistent(nt, b[0])
            rep.check("N-THREADS: no count below 0, and the slaves hold multi-phase's %d threads at phase 1" % MP_THREADS,
                      ok, "%d threads at phase 1; slaves below 0: %s" % (total, neg or "none"))
            rel[m] = ("no test (the seed: phases not visible)", None)
            rep.fig(33, "fig33_n_threads", "N-THREADS: threads on each slave during multi-phase",
                    _per_slave_steps({s: nt[s] + [(max(t_end, nt[s][-1][0]), nt[s][-1][1])] for s in SLAVES}, x0,
                                     "threads"), sharex=True)
        elif cls == "rqlen":
            rq = rq_lengths(tr)
            ok, hi, lo = rq_relevant(rq, b)
            rep.check("RQ-LENGTH shows the phases: mean ready queue over phases 1-4 above 5-8", ok,
                      "%.2f against %.2f threads (mean over the slaves)" % (hi, lo))
            rel[m] = ("%s: queue %.2f in 1-4, %.2f in 5-8" % ("yes" if ok else "no", hi, lo), ok)
            rep.fig(34, "fig34_rq_length", "RQ-LENGTH: ready-queue length of each slave during multi-phase",
                    _per_slave_steps({s: rq.get(s, []) for s in SLAVES}, x0, "queue length"), sharex=True)
        elif cls == "cpu":
            iv = user_intervals(tr)
            ok, hi, lo = cpu_relevant(iv, b)
            rep.check("CPU-TIME shows the phases: user CPU % over phases 1-4 above 5-8", ok,
                      "%.1f%% against %.1f%% (mean over the slaves)" % (hi, lo))
            rel[m] = ("%s: %.0f%% in 1-4, %.0f%% in 5-8" % ("yes" if ok else "no", hi, lo), ok)
            per = {s: cpu_percent(iv[s], t0, t_end) for s in SLAVES}
            for num, n_avg, what in ((35, 1, "over the previous 20 ms period"), (36, 10, "over the previous ten 20 ms periods"),
                                     (37, 100, "over the previous hundred 20 ms periods")):
                rep.fig(num, "fig%d_cpu_time_%d" % (num, n_avg), "CPU-TIME: % of user CPU time " + what + ", every 20 ms",
                        [{"title": NAMES[s], "xlabel": "time (s)", "ylabel": "user CPU %", "ylim": (0, 100),
                          "series": [{"x": (per[s][0] - x0) / 1000, "y": sliding(per[s][1], n_avg), "style": "line"}]}
                         for s in SLAVES], sharex=True)
        elif cls == "links":
            smp = [s for s in link_samples(tr) if s[0] <= t_end + period]
            ok, hi, lo = links_relevant(smp, b, period)
            rep.check("REM-COMM shows the phases: messages per second over the links in phases 3, 4, 7, 8 above 1, 2, 5, 6",
                      ok, "%.1f against %.1f messages/s (all links)" % (hi, lo))
            rel[m] = ("%s: %.0f msgs/s remote phases, %.0f local" % ("yes" if ok else "no", hi, lo), ok)
            ts, ser = link_series(smp, t0, period)
            rep.fig(38, "fig38_rem_comm", "REM-COMM: messages over each of the ten links in the last sample period (%.0f ms)" % period,
                    [{"xlabel": "time (s)", "ylabel": "messages per sample", "legend": "upper right",
                      "series": [{"x": (ts - x0) / 1000, "y": ser[l], "style": "line", "label": "%d-%d" % l} for l in LINKS]}])
            rep.check("REM-COMM: four samples per slave per period (a link per other slave)",
                      all(sum(1 for s in smp if s[1] == sl) >= 4 for sl in SLAVES),
                      "%d LINK_COUNT events from %d slaves" % (len(smp), len({s[1] for s in smp})))
        lost = r["lost"] + r["dropped"]
        table.append("| %s | %s | %.0f | %.0f | %d | %.2f s | %+.3f s (%+.1f%%) | %s | %s | %s | %s |"
                     % (m, driven, seed_rate, rate, n, secs, cost, 100 * cost / t_base,
                        "%d (SMI %d, logger %d)" % (lost, r["lost"], r["dropped"]) if lost else "none",
                        SEED8["cost"][m], SEED8["relevant"][m], rel.get(m, ("-", None))[0]))
    rep.table8 = "\n".join(table) + "\n"
    rep.notes.append("**Table 8, measured** (baseline run time %.2f s with no metric class on):\n\n%s" % (t_base, rep.table8))


def table8_markdown(rep, fig_prefix=None, level=2):
    """The Table 8 section for docs/results/section4.md (driver --doc4): the experiment's report,
    Table 8 first, with its checks and Figures 33-38 (their paths under fig_prefix)."""
    return rep.markdown(fig_prefix=fig_prefix, level=level)
