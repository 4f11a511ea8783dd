"""Seed 004 on the Testbed: the SSR read from a monitor trace, against a trace checked by hand
(tests/data/seed004_hand_trace.txt), and the experiment's shape checks fed results without the
seed's shape, which must fail.

The hand trace, by thread: 1025 spins and succeeds (1), spins again and blocks (a failed
spin), is released; 1026 spins and ends as the last arriver (not counted), then spins and
succeeds (2); 1027 blocks at once (no spin); 1028 spins, blocks, and then learns that its own
arrival was the last (BAR_LAST: neither success nor failure). So 3 spins counted, 2 successes, 1 failure: SSR
2/3 = 66.7%. The spin-limit sweep's checks are fed a sweep with the shape (they pass) and without it (they fail)."""
import sys

sys.path.insert(0, sys.argv[1])
from testbed_analysis import seed004  # noqa: E402
from testbed_analysis.trace import read  # noqa: E402
from testbed_analysis.experiments import Report  # noqa: E402

tr = read(sys.argv[2])
n, ok, fail, ssr = seed004.ssr_from_trace(seed004.trace_events(tr))
print("hand trace: %d spins, %d ok, %d failed, SSR %.1f%%" % (n, ok, fail, ssr))
bad = []
if (n, ok, fail) != (3, 2, 1) or abs(ssr - 200.0 / 3) > 1e-9:
    bad.append("hand trace: expected 3 spins, 2 ok, 1 failed, SSR 66.7%")

# results without the shape: at load 1, 2CS+ succeeding less often than CS (8 of 16 against 0 of
# 16, beyond the spins' count) and always-spin failing; CS's SSR rising with surplus threads
# (reported, not held); a spin longer than the release succeeding less
# often at the head than at the tail; a monitor count that disagrees with the program's; waits
# not accounted for
size = {"barriers": 4, "bg": [0, 2], "mu": [0.01], "policies": ["block", "cs", "2cs+", "spin", "5000"], "wake": ["tail", "head"],
        "jobs": [], "job_policies": []}
base = {"mu": 0.01, "wake": "tail", "cs_us": 100, "trace_lost": False, "jobs": 1, "alternation": None, "dir": "/nonexistent"}
res = [dict(base, bg=0, policy="block", limit_us=0, elapsed_us=1000, spins=0, ok=0, blocks=16, last=4, trace=(0, 0, 0, None)),
       dict(base, bg=0, policy="cs", limit_us=100, elapsed_us=900, spins=16, ok=8, blocks=8, last=4, trace=(16, 8, 8, 50.0)),
       dict(base, bg=0, policy="2cs+", limit_us=210, elapsed_us=2000, spins=16, ok=0, blocks=16, last=4, trace=(14, 0, 14, 0.0)),
       dict(base, bg=0, policy="spin", limit_us=0, elapsed_us=800, spins=16, ok=15, blocks=1, last=3, trace=(16, 15, 1, 93.8)),
       dict(base, bg=2, policy="cs", limit_us=100, elapsed_us=900, spins=16, ok=16, blocks=0, last=4, trace=(16, 16, 0, 100.0)),
       dict(base, bg=0, policy="5000", wake="head", limit_us=5000, elapsed_us=900, spins=16, ok=16, blocks=0, last=4, trace=(16, 16, 0, 100.0)),
       dict(base, bg=2, policy="5000", wake="head", limit_us=5000, elapsed_us=900, spins=16, ok=4, blocks=12, last=4, trace=(16, 4, 12, 25.0)),
       dict(base, bg=2, policy="5000", wake="tail", limit_us=5000, elapsed_us=900, spins=16, ok=8, blocks=8, last=4, trace=(16, 8, 8, 50.0))]
rep = Report("seed004", "t", "/tmp")
seed004.figures = lambda *a: None  # no plot needed
seed004.analyse(rep, res, [], size)
failed = {w for w, okk, _ in rep.checks if not okk}
for want in ("2CS+ spins succeed at least as often", "always spin succeeds", "SSR accounting",
             "every wait accounted", "a 5000 us spin succeeds more often with the head placement"):
    if not any(w.startswith(want) for w in failed):
        bad.append("the check '%s' did not fail on data without the shape" % want)
# CS's SSR with surplus threads (tail) is measured and reported beside its load-1 value, with
# the chance that the spins' count alone made the rise: 16 of 16 against 8 of 16
if not any(n.startswith("CS's SSR with surplus threads") and "100.0 (16 of 16; at load 1 50.0, 8 of 16; Fisher's exact test, "
           "one-sided: 0.001)" in n for n in rep.notes):
    bad.append("CS's SSR with surplus threads was not reported beside its load-1 value")
# a tail run whose spins never failed: the placement comparison is reported as not measured (no
# check) at any size; at the full size, no comparison measured at all is itself a failure
quiet = res[:-1] + [dict(res[-1], ok=16, blocks=0, trace=(16, 16, 0, 100.0))]
for must_act in (False, True):
    rep = Report("seed004", "t", "/tmp")
    seed004.analyse(rep, quiet, [], dict(size, placement_must_act=must_act))
    placement = [okk for w, okk, _ in rep.checks if w.startswith("a 5000 us spin succeeds more often")]
    acted = [okk for w, okk, _ in rep.checks if w.startswith("the wake-up placement acted")]
    noted = any(n.startswith("Not measured in this run: a 5000 us spin") for n in rep.notes)
    if placement or not noted:
        bad.append("a tail run that never blocked was not reported as 'not measured'")
    if must_act and acted != [False]:
        bad.append("a full-size run where the placement never acted did not fail")
    if not must_act and acted:
        bad.append("a reduced run checked that the placement acted")

# The spin-limit sweep's checks, fed a sweep with the shape (all pass) and one without it (each
# fails): SSR falling as the limit grows at load 1 (16 of 16 at 1000 us, 0 of 16 at 4000 us), a
# limit of twice the release far below always-spin's SSR, limits that do not bracket the release,
# a release on one board longer than across, always-spin on one board faster than always-block.
# On one board an SSR that falls as the limit grows is reported in the text, not held.
ssize = {"barriers": 4, "spin_limits_us": [1000, 4000, 10000]}


def sweep_run(place, pol, elapsed, ok, blocks, release, spins=16):
    return {"placement": place, "bg": 0, "policy": pol, "elapsed_us": elapsed * 1000, "spins": spins, "ok": ok, "blocks": blocks,
            "last": 20 - ok - blocks, "barriers": 4, "trace": (spins, ok, spins - ok, None), "trace_lost": False,
            "release_ms": release}


good = [sweep_run("across", "block", 1000, 0, 16, 3.5, spins=0), sweep_run("across", "1000", 1000, 0, 16, 3.5),
        sweep_run("across", "4000", 1000, 4, 12, 3.6), sweep_run("across", "10000", 900, 16, 0, 4.2),
        sweep_run("across", "spin", 900, 16, 0, 4.2),
        sweep_run("same", "block", 1000, 0, 16, 0.3, spins=0), sweep_run("same", "1000", 1200, 1, 15, 0.3),
        sweep_run("same", "4000", 1500, 3, 13, 7.0), sweep_run("same", "10000", 1900, 7, 9, 17.0),
        sweep_run("same", "spin", 4000, 16, 0, 70.0)]
rep = Report("seed004", "t", "/tmp")
text = seed004.analyse_sweep(rep, good, ssize)
if not all(okk for _w, okk, _d in rep.checks) or len(rep.checks) < 20:
    bad.append("the sweep's checks did not all pass on data with the shape: %s" % [w for w, okk, _d in rep.checks if not okk])
if "Across boards (a job thread on each of the five slaves; a release is a kernel message from the home, earth, to each " \
   "other board), release 3.50 ms: at load 1 the smallest is 10000 us: 900.0 ms against always-block's 1000.0 ms" not in text \
        or "release 0.30 ms: at load 1 none of the swept limits (1000 to 10000 us) does (the fastest, 1000 us: -20.0%)" \
        not in text:
    bad.append("the sweep's answer did not name the smallest limit that beats always-block (or none)")
rep = Report("seed004", "t", "/tmp")
fall = {("same", "4000"): dict(ok=10, blocks=6, trace=(16, 10, 6, None)),
        ("same", "10000"): dict(ok=0, blocks=16, trace=(16, 0, 16, None))}
text = seed004.analyse_sweep(rep, [dict(r, **fall.get((r["placement"], r["policy"]), {})) for r in good], ssize)
if not all(okk for _w, okk, _d in rep.checks) or "it falls from 62.5% at 4000 us to 0.0% at 10000 us" not in text:
    bad.append("a same-board SSR falling with the limit was not reported (or was held as a check)")
shapeless = [sweep_run("across", "block", 1000, 0, 16, 3.5, spins=0), sweep_run("across", "1000", 1000, 16, 0, 3.5),
             sweep_run("across", "4000", 1000, 0, 16, 3.6), sweep_run("across", "10000", 1000, 4, 12, 4.2),
             sweep_run("across", "spin", 900, 16, 0, 4.2),
             sweep_run("same", "block", 4000, 0, 16, 12.0, spins=0), sweep_run("same", "spin", 1000, 16, 0, 70.0)]
rep = Report("seed004", "t", "/tmp")
seed004.analyse_sweep(rep, shapeless, ssize)
failed = {w for w, okk, _ in rep.checks if not okk}
for want in ("sweep, across, load 1: SSR does not fall from a 1000 us limit to 4000 us",
             "sweep, across boards, load 1: a 10000 us limit (at least twice the 3.50 ms release) gets an SSR within",
             "sweep: the release on one board is shorter than across boards", "sweep, one board, load 1: always-spin is slower"):
    if not any(w.startswith(want) for w in failed):
        bad.append("the check '%s' did not fail on data without the shape" % want)
rep = Report("seed004", "t", "/tmp")
seed004.analyse_sweep(rep, [dict(r, release_ms=12.0) if r["placement"] == "across" else r for r in good], ssize)
failed = {w for w, okk, _ in rep.checks if not okk}
for want in ("sweep, across boards: the limits bracket the measured release", "sweep, across boards, load 1: a limit at least twice"):
    if not any(w.startswith(want) for w in failed):
        bad.append("the check '%s' did not fail with a release beyond the sweep" % want)

for b in bad:
    print("FAIL:", b)
print("seed004 SSR accounting and checks: %s" % ("FAIL" if bad else "PASS"))
sys.exit(1 if bad else 0)
