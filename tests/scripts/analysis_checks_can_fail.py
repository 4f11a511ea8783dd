"""The shape checks of the section 3 experiments can fail: each one, fed data that lacks the
shape, says no (and says yes to data that has it)."""
import os
import sys

sys.path.insert(0, sys.argv[1])  # sw/analysis
import numpy as np  # noqa: E402

from testbed_analysis import experiments, fsm, stats  # noqa: E402
from testbed_analysis.trace import read  # noqa: E402

fails = 0


def expect(what, got, want):
    global fails
    ok = bool(got) == want
    print("%s %s: %s" % ("ok  " if ok else "FAIL", what, got))
    fails += not ok


x = np.arange(1, 5001, 50, dtype=float)
line = 1e-3 * x + 0.25
_, v, why = stats.page_steps(x, line)
expect("no steps in a straight line", v, False)
steps = line + 0.05 * (np.floor((x + 100) / 1024) + np.floor((x + 900) / 1024))
_, v, why = stats.page_steps(x, steps)
expect("pairs of steps every 1024 bytes", v, True)
spiked = steps.copy()
spiked[[37, 57]] += 0.09  # two sizes served slowly: up, then back down at the next size
_, v, why = stats.page_steps(x, spiked)
expect("pairs of steps every 1024 bytes, with one-size spikes between them", v, True)
kept = line + 0.05 * (np.floor((x + 100) / 1024) + np.floor((x + 900) / 1024) + np.floor((x + 500) / 1024))
_, v, why = stats.page_steps(x, kept)
expect("a third family of steps that stay is still refused", v, False)
gap = np.delete(np.arange(len(x)), [66, 67])  # two sizes with no uninterrupted repetition
_, v, why = stats.page_steps(x[gap], steps[gap])
expect("a gap of missing sizes rises as the line does, it is not a step", v, True)
jumped = steps.copy()
jumped[67:] += 0.05
_, v, why = stats.page_steps(x[gap], jumped[gap])
expect("a step inside a gap of missing sizes is still a step (a third family)", v, False)
xs, ys = stats.per_size_median([1, 1, 1, 51, 51, 51], [2.0, 1.5, 2.0, 3.0, 3.0, 9.0])
expect("each size's median is what most repetitions took", ys == [2.0, 3.0], True)
xs, ys = stats.per_size_majority([1, 1, 1, 51, 51, 101, 101, 101], [2.0, 2.01, 2.5, 3.0, 3.3, 4.0, 4.0, 4.0], 0.02)
expect("a size whose repetitions split evenly has no level; a majority's is its median",
       (xs, ys) == ([1, 101], [2.005, 4.0]), True)
split = steps.copy()
split[68] -= 0.13  # the mid-point of a size split between two modes (below), then a gap: a false step
_, v, why = stats.page_steps(np.delete(x, [69, 70]), np.delete(split, [69, 70]))
expect("a split size's mid-point after a gap reads as a third family", v, False)
odd = line + 0.05 * np.floor(x / 700)
_, v, why = stats.page_steps(x, odd)
expect("steps every 700 bytes are not page steps", v, False)
rng = np.random.default_rng(1)
expect("r^2 > 0.9 of noise", stats.fit(x, rng.normal(size=len(x)))["r2"] > 0.9, False)
expect("r^2 > 0.9 of a line with steps", stats.fit(x, steps)["r2"] > 0.9, True)

out = sys.argv[2]
os.makedirs(out, exist_ok=True)
head = "# testbed monitor trace v1: ticks time_ns board word name (tick = 1000000 ps)\n"
def trace(lines, name):
    p = os.path.join(out, name)
    with open(p, "w") as f:
        f.write(head + "".join("%d %d %d 0x%04X X\n" % (t, t * 1000, b, w) for t, b, w in lines)
                + "# events %d markers 0 empty_reads 0 ok\n" % len(lines))
    return read(p)
good = trace([(10, 1, 0x07), (12, 1, 0x46), (20, 1, 0x07), (25, 1, 0x48)], "good.txt")
expect("a whole local communication leaves nothing unmatched", not any(fsm.requests(good).unmatched()), True)
bad = trace([(10, 1, 0x07), (12, 1, 0x46), (20, 1, 0x07), (30, 1, 0x07), (35, 1, 0x48)], "bad.txt")
expect("a request with no outcome is unmatched", not any(fsm.requests(bad).unmatched()), False)
stray = trace([(10, 1, 0x53)], "stray.txt")
expect("a release with no request is unmatched", not any(fsm.requests(stray).unmatched()), False)

from testbed_analysis import balance  # noqa: E402
samples = {"t": np.array([1.0, 2.0, 3.0]), "lnk": np.array([[5, 1], [4, 0], [0, 0]]), "rql": np.array([[2, 0], [1, 1], [0, 0]])}
main_moved = lambda t: dict(samples, moves=[{"t": t, "n": 1, "tid": 0x400, "from": 1, "to": 3}])
expect("a main thread moved while its program still ran is a parent moved", balance.parent_moves(main_moved(1500)), True)
expect("a main thread moved once the work was over is not", balance.parent_moves(main_moved(2500)), False)
expect("a cycle profile that holds the run's instructions but the last holds the run",
       balance.profile_holds_run(((41223350 * 12, 41223350), (41223350 * 12 + 74, 41223351))), True)
expect("a profile that counted a rolled-back run again does not",
       balance.profile_holds_run(((41223350 * 12, 41223350 + 2000), (41223350 * 12 + 74, 41223351))), False)
expect("a profile short of cycles does not",
       balance.profile_holds_run(((41223350 * 12 - 5000, 41223350), (41223350 * 12 + 74, 41223351))), False)
expect("no profile does not", balance.profile_holds_run(None), False)
expect("a main thread moved at the last sample is counted (nothing shows the work over)", balance.parent_moves(main_moved(3500)), True)
paging = dict(samples, lnk=np.array([[5, 1], [4, 0], [249, 39]]), moves=[{"t": 2500, "n": 1, "tid": 0x400, "from": 1, "to": 2}])
expect("a main thread moved at the work's end, its pages and the elements' page returns still on the links, is not",
       balance.parent_moves(paging), False)


def unmatched_ok(tr, lost):
    rep = experiments.Report("u", "t", out)
    rep.lost_by_board = lost
    experiments._unmatched_check(rep, fsm.requests(tr), "t")
    return rep.checks[-1][1]
expect("an open request where the board lost nothing fails the check", unmatched_ok(bad, {}), False)
expect("an open request on a board whose SMI lost events is put down to the loss", unmatched_ok(bad, {1: 3}), True)
expect("a loss on another board does not explain it", unmatched_ok(bad, {2: 3}), False)

local = {1: 0.3, 1001: 1.3, 2001: 2.4}
expect("remote slower than local at every size", not experiments.slower_everywhere([1, 1001, 2001], [5, 6, 7], local), True)
expect("remote not slower at one size", not experiments.slower_everywhere([1, 1001, 2001], [5, 1.2, 7], local), False)
expect("msg spread wider than a flat flight", experiments.spread([1.8, 2.5, 3.3]) > experiments.spread([1.6, 1.6, 1.61]), True)
expect("msg spread not wider than a scattered flight", experiments.spread([1.8, 2.0, 2.1]) > experiments.spread([0.6, 1.4, 0.7]), False)


def overflow(trials):
    rep = experiments.Report("overflow", "t", out)
    experiments.analyse_overflow(rep, trials)
    return all(c[1] for c in rep.checks)
T = lambda r, lost: {"slaves": 1, "calls": r, "ms": 1000, "sent": r, "lost": lost, "written": r, "probe_lost": lost,
                     "window_ms": 1000.0, "rate": float(r)}
expect("overflow: no loss anywhere has no finite maximum", overflow([T(100, 0), T(200, 0)]), False)
expect("overflow: loss everywhere has no rate without loss", overflow([T(100, 3), T(200, 5)]), False)
expect("overflow: no loss below, loss above", overflow([T(100, 0), T(200, 0), T(400, 7)]), True)
# Section 4.1's load metrics (metrics.py): each relevance check says no to a metric that does not
# show multi-phase's phases. Phases 1..8 of 1 s each: bounds 0, 1000, ..., 8000 ms.
from testbed_analysis import metrics  # noqa: E402
B = [1000.0 * k for k in range(9)]
slaves = metrics.SLAVES
hi_first = {b: [(0.0, 3), (4000.0, 1)] for b in slaves}
expect("RQ-LENGTH: queues longer in phases 1-4", metrics.rq_relevant(hi_first, B)[0], True)
expect("RQ-LENGTH: flat queues do not show the phases", metrics.rq_relevant({b: [(0.0, 2)] for b in slaves}, B)[0], False)
expect("RQ-LENGTH: queues longer in 5-8 do not", metrics.rq_relevant({b: [(0.0, 1), (4000.0, 3)] for b in slaves}, B)[0], False)
busy = {b: [(t, t + 15.0) for t in np.arange(0, 4000, 20.0)] + [(t, t + 2.0) for t in np.arange(4000, 8000, 20.0)] for b in slaves}
expect("CPU-TIME: busier in phases 1-4", metrics.cpu_relevant(busy, B)[0], True)
even = {b: [(t, t + 10.0) for t in np.arange(0, 8000, 20.0)] for b in slaves}
expect("CPU-TIME: the same % everywhere does not show the phases", metrics.cpu_relevant(even, B)[0], False)
S = lambda per_phase: [(1000.0 * (k + 1), 1, 2, per_phase[k]) for k in range(8)]
expect("REM-COMM: more messages in phases 3, 4, 7, 8", metrics.links_relevant(S([1, 1, 9, 9, 1, 1, 9, 9]), B, 1000.0)[0], True)
expect("REM-COMM: as many in local phases does not", metrics.links_relevant(S([5] * 8), B, 1000.0)[0], False)
expect("REM-COMM: more in local phases does not", metrics.links_relevant(S([9, 9, 1, 1, 9, 9, 1, 1]), B, 1000.0)[0], False)
expect("N-THREADS: 26 threads at phase 1", metrics.threads_consistent({1: [(0, 6), (9, 0)], 2: [(0, 20), (9, 0)]}, 5)[0], True)
expect("N-THREADS: a thread missing at phase 1 is caught", metrics.threads_consistent({1: [(0, 5), (9, 0)], 2: [(0, 20)]}, 5)[0], False)
expect("N-THREADS: a count below 0 is caught", metrics.threads_consistent({1: [(0, 6), (3, -1), (4, 6)], 2: [(0, 20)]}, 5)[0], False)

# The slowest page copy taken apart at its home (Figure 27's maximum): the home's quiet stretch
# while the request waited, and the wait of the page its service queued for the next send phase.
from testbed_analysis.trace import Event, Trace  # noqa: E402
slow = fsm.PageCopy(board=2, home=1, t_fault=0.0, t_req=0.4, t_sent=0.5, t_home=17.0, t_in=40.0)
fast = fsm.PageCopy(board=2, home=1, t_fault=50.0, t_req=50.4, t_sent=50.5, t_home=52.0, t_in=60.0)
home = Trace("t", [Event(1.0, 1, 0, "PHASE_SCHEDULE"), Event(16.5, 1, 0, "TICK"), Event(36.0, 1, 0, "PHASE_SEND")])
why = experiments._slowest_copy(home, [fast, slow])
expect("the slowest copy: its request's wait, the home's quiet stretch and the page's wait for a send phase",
       "40.0 ms: its request waited 16.5 ms at earth, which logged no event for 15.5 ms" in why
       and "next send phase, 19.0 ms later" in why, True)
busy = Trace("t", [Event(t, 1, 0, "PHASE_RECEIVE") for t in range(1, 17)] + [Event(17.5, 1, 0, "PHASE_SEND")])
expect("a home that ran its loop throughout has no long quiet stretch",
       "logged no event for 1.0 ms" in experiments._slowest_copy(busy, [slow]), True)
sys.exit(1 if fails else 0)
