"""Writes docs/results/seed004.md from the results of seed004_experiments.

The seed's values and descriptions below are the comparison column only: nothing in the
simulator or the checks reads them.
"""

import os
import shutil

# What the seed shows in each figure (Tsafrir 2001), in its words where short.
SEED = {
    "fig3_1": ("Figure 3.1", "One 11-thread job among 0-200 non-synchronizing threads, no randomization, 50 barriers. "
               "Fine grain (mu=1%) achieves the best SSR (always more than 77%), coarse grain (100%) the worst, "
               "medium grain in between; 100% up to |NST|=42 for fine grain, alternating synchronization from 43 "
               "(3.2.1.2-3)."),
    "fig3_2": ("Figure 3.2", "The fine-grain simulation has a cycle: SSR(|THREADS|=32+i) = SSR(|THREADS|=32(1+c)+i) "
               "(3.2.1.4)."),
    "fig3_3": ("Figure 3.3", "More barriers in the fine-grain simulation: the more barriers, the lower the SSR, since "
               "the weight of the grace period diminishes; after it the SSR drops below 50%."),
    "fig3_4": ("Figure 3.4", "As 3.1 with more than 50 barriers: the fine-grain curve gets closer to the coarse one."),
    "fig3_5": ("Figure 3.5", "Ready queue shuffled on startup: no grace period, SSR low from the moment the number of "
               "threads exceeds the processors; the granularities fairly similar."),
    "fig3_6": ("Figure 3.6", "Intervals N(mu, sigma=90/15%): only the coarse-grain SSR declines (to around 10%); fine "
               "and medium grain stay more or less the same."),
    "fig3_7": ("Figure 3.7", "As 3.6 with a 10000-cycle quantum: almost identical, so the discrete nature of the "
               "simulation is not the reason."),
    "fig3_8": ("Figure 3.8", "q=1000, spin 60 cycles, sigma-interval 15% of mu for mu=15..90%: the bigger the "
               "sigma-interval relative to the spin, the lower the SSR."),
    "fig3_9": ("Figure 3.9", "mu=5%, 10%, 100% with various sigma-intervals: for each mu, bigger sigma, lower SSR."),
    "fig4_1": ("Figure 4.1", "Homogeneous jobs (sizes 2-32), shuffled, sigma=90/15%: mu=1%,10% start at 100% and drop "
               "until they converge to a value below 50% but above 25% (size 2 converges to zero); the value does "
               "not depend on the load."),
    "table4_1": ("Table 4.1", "The SSR each curve of Figure 4.1 converges to."),
    "fig4_2": ("Figure 4.2", "Thread states of three jobs of 19 jobs x 10 threads, mu=10%: staircases of running "
               "threads that spin, fail and block, a red wall of released threads: alternating synchronization; "
               "a job's threads are never all in the ready queue at once."),
    "fig4_3": ("Figure 4.3", "Not shuffled: sizes not a power of two behave as in 4.1 but higher (grace period); "
               "power-of-two sizes at mu=1% are gang scheduled and achieve 100%."),
    "fig4_4": ("Figure 4.4", "As 4.3 with 500 barriers: the SSRs of the non-power-of-two sizes are reduced."),
    "fig4_5": ("Figure 4.5", "Figure 4.1 up to 100 threads: jobs of size less than 25 still achieve a decent SSR with "
               "more than 32 threads."),
    "fig4_6": ("Figure 4.6", "N, the maximal surplus of threads with SSR > 50%: fine grain bigger than medium grain, "
               "smaller jobs do better, the surplus is bounded by the number of CPUs (except size 2)."),
    "fig5_1": ("Figures 5.1-5.2", "64 processors, random job sequences (sizes 4-7:9, 8-12:1; mu classes 1-20%, 21-30%, "
               "31-40%, 41-50%, 51-60%; sigma 90/15%), seeds 0-3, 50/200/1000 barriers, each run ending at the first "
               "exit: only mu=1-20% keeps SSR > 50% in the intermediate load, up to 80-88 threads; bigger mu, lower "
               "SSR."),
    "fig5_3": ("Figures 5.3-5.4", "The same with big mu (51-60% ... 81-90%, 94-100%) and a constant sigma-interval "
               "90/0.15-1.5 cycles: mu=94-100% achieves high SSR at every load; the other classes in reversed order "
               "(bigger mu, higher SSR) and none worth spinning in the intermediate load."),
    "fig5_5": ("Figure 5.5", "Random mu (1-20%, 21-30%, 31-90%) and sigma-interval (0.15-0.75, 0.9-1.5, 1.65-3, "
               "3.15-15:3), jobs classed by sigma: the widest class (dispersal above the spin) cannot reach SSR > 50%; "
               "no clear winner among the others."),
    "fig7_6": ("Figure 7.6", "Load 80 (16 x 5), mu=1%, spins CS/CS+/2CS+ over 100 seeds: mean SSR 81.1, 96.6, 99.2 "
               "and completion time 26,194, 17,644, 17,013 cycles: the longer spin reaches the transition point "
               "sooner and finishes first."),
    "fig7_1": ("Figure 7.1", "Linux SCHED_OTHER (SMART wake-up), spin CS, 50 barriers: fine and medium grain show "
               "many peaks and valleys; coarse grain fails in almost every spin."),
    "fig7_2": ("Figure 7.2", "2000/5000/10000 barriers: curves almost indistinguishable; a peak whenever the total load "
               "is a multiple of 16; both fine and medium grain show an intermediate load with SSR > 50%."),
    "fig7_spin": ("Figures 7.7-7.10", "CS, CS+ (=CS+1) and 2CS+ under the SMART, AIP and SILLY wake-up schemes: 2CS+ "
                  "raises the fine-grain SSR to about 94% (CS about 54%, CS+ 83%, SMART) and is about 50% (fine) and "
                  "20% (medium) faster than CS; CS+ is about 35% faster than CS for fine grain, 5% for medium."),
    "fig8": ("Figures 8.1-8.10", "Chapter 4's homogeneous sequences under Linux's scheduler (32 processors, 2000 "
             "barriers, sigma 90/15%, shuffled; sizes 2-32, spins CS/CS+/2CS+, SMART/AIP/SILLY, up to 320 threads): "
             "SSR > 50% in an intermediate load, then towards 0; mean surplus (AIP) 16.7/31.1/45.5 threads for "
             "CS/CS+/2CS+ fine grain, SILLY never above the others, equal for size 2; two 25-thread jobs with 2CS+: "
             "SILLY 35.2% against AIP 94.1%; 2CS+ 25% faster than CS for loads 33-64 and 34% slower above 96; "
             "against always-block +41% (fine, 33-64) and -107% (above 96); spins longer than 2CS+ only slower."),
    "fig9": ("Figures 9.1-9.3", "Heterogeneous jobs under Linux's scheduler: random sequences (sizes 2-8:2, 9-16:1; "
             "mu 1-2%, 3-20%, 21-90%, a job of each class first), 20 seeds: the fine class's mean surplus (AIP 2CS+) "
             "52.2 threads against 45.5 for homogeneous jobs; CS close to 2CS+ against always-block, both faster "
             "than it up to 2 x 32 threads."),
}

# Table 4.1 of the seed: job size -> SSR converged to at mu = 1%, 10%, 100%.
SEED_TABLE_4_1 = {3: (25, 24, 20), 4: (32.4, 32.1, 18.5), 5: (36.1, 35.9, 16.5), 10: (41.5, 39.1, 11.5),
                  11: (41.7, 38.5, 10.9), 15: (41.9, 35.6, 9.2), 16: (41.8, 34.8, 8.8), 22: (40.7, 30.8, 7.2),
                  25: (39.9, 29.9, 6.6), 32: (37.6, 24.9, 5.5)}

# Sections 7.7.1 and 7.7.2: the checked claims live with the checks.
from seed004_experiments import THESIS_7_7_SSR, THESIS_7_7_SPEEDUP, SCHEMES  # noqa: E402
from seed004_experiments import (THESIS_8_3_SURPLUS, THESIS_8_3_TWO25, THESIS_8_4_WAKE, THESIS_8_4_TWO25,  # noqa: E402
                                 THESIS_8_5, THESIS_8_6, SURPLUS_MARGIN, MARGIN)
import re  # noqa: E402

# Values an experiment shows as its own tables rather than as a list.
TABULATED = {"table", "surplus", "max_threads", "surplus_avg", "two25_ssr", "wake", "wake_two25", "spin", "block",
             "longer", "vs_block", "ab_barriers", "ab_no_size2", "ab_two25_seeds", "ab_sequences", "ab_step1"}


# Where this simulator's result differs from the seed's although the checks may pass.
DIFFERS = {
    "fig4_6": "N depends on the seed (the table is seed 1; the values give the median over seeds, the seeds with "
              "N >= 32, and the same runs with 500 barriers, the A/B of the cause: near 2 x 32 threads a 50-barrier "
              "run may end before it falls into alternating synchronization; at size 16 the loads, and so N, move in "
              "steps of 16 threads: the A/B at a step of one thread)",
}


def _cell(text):
    return text.replace("|", "\\|")


def _img(stem):
    return f"![{stem}](seed004/{stem}.png) ([SVG](seed004/{stem}.svg))"


def _testbed(w, figdir, tdir):
    """The Testbed's half (testbed-experiment seed004, its results.md and figures): the same
    questions asked of TOS's barriers on the simulated boards."""
    text = open(os.path.join(tdir, "results.md")).read()
    for f in os.listdir(os.path.join(tdir, "figures")):
        shutil.copyfile(os.path.join(tdir, "figures", f), os.path.join(figdir, f))
    body, checks = text.split("\nChecks:\n", 1) if "\nChecks:\n" in text else (text, "")
    figs = checks[checks.find("Figure "):] if "Figure " in checks else ""
    n_ok = checks.count("- PASS ")
    n_all = n_ok + checks.count("- **FAIL** ")
    body = body.split("\n", 1)[1]  # its own title
    w("## The Testbed: TOS barriers on the simulated boards")
    w("")
    w("Generated from `build/bin/testbed-experiment seed004 --size full` (its output folder's `results.md`); "
      "the kernel's barriers are `firmware/tos/kernel/barrier.c`, the job is `firmware/tos/programs/barjob.c`, the "
      "runs and their analysis `sw/analysis/testbed_analysis/seed004.py`. Every number is measured on the "
      "simulated 68010 boards running TOS; the monitor's trace gives the SSR a second time. "
      f"Checks of this run: {n_ok} of {n_all} pass.")
    w("")
    w(body.replace("](figures/", "](seed004/").rstrip())
    w("")
    w(figs.replace("](figures/", "](seed004/").rstrip())
    w("")


def write_doc(path, results, ctx, seconds, testbed=None):
    figdir = os.path.join(os.path.dirname(os.path.abspath(path)), "seed004")
    os.makedirs(figdir, exist_ok=True)
    for r in results:
        for stem in r["figures"]:
            for ext in ("png", "svg"):
                shutil.copyfile(os.path.join(ctx.out, "figures", f"{stem}.{ext}"), os.path.join(figdir, f"{stem}.{ext}"))
    by = {r["name"]: r for r in results}
    n_checks = sum(len(r["checks"]) for r in results)
    n_pass = sum(ok for r in results for _, ok, _ in r["checks"])
    L = []
    w = L.append
    w("# Seed 004 reproduced: the reference SMP simulator (Tsafrir 2001, chapters 2-9)")
    w("")
    w("Generated by `cmake --build build --target docs-seed004` (`build/bin/smpsim-experiment all --size full "
      "--doc docs/results/seed004.md`); do not edit by hand. The simulator is `build/bin/smpsim` "
      "(`sw/smpsim/`, README section there), written from the seed's chapter 2; the experiments, their "
      "configuration files and the shape checks are `sw/smpsim/seed004_experiments.py`. The seed's numbers "
      "appear only in the comparison columns of this page.")
    w("")
    how = (f"the simulator's tables reused from an earlier run of the same binary (`--reuse`), {seconds:.0f} s for "
           f"the plots" if ctx.reuse else f"{seconds:.0f} s on this host")
    w(f"Run: size `{ctx.size}`, {how}. Checks of this run: {n_pass} of {n_checks} pass.")
    w("")
    w("The Testbed half of issue 34 (TOS barriers, the same experiments on the simulated boards) is the last "
      "section, \"The Testbed: TOS barriers on the simulated boards\"." if testbed else
      "The Testbed half of issue 34 (TOS barriers, the same experiments on the simulated boards) is not on this "
      "page: this run was made without `--testbed`.")
    w("")
    w("## The simulator in one paragraph")
    w("")
    w("Event driven, cycles as integers, one pending event per processor, events at the same cycle serialized by "
      "processor id (7.5.4). A processor switches a thread in (`in` cycles), runs it for a quantum `q` and, if the "
      "global ready queue is not empty, switches it out (`out` cycles) to the tail. Non-synchronizing threads "
      "compute forever; a synchronizing thread computes N(mu, sigma) cycles (rounded, at least 0), reaches the "
      "barrier one cycle later (the seed's examples: 3.2.1.1, 7.5.4), and unless it is the last of its job spins "
      "up to `spin` cycles, polling once a cycle, then yields and blocks. The last arrival releases the blocked "
      "threads; a thread whose barrier completes while it is being switched out is not blocked but made ready "
      "(4.3.4). SSR = successful spins / spins, the last arriver not counted (2.3.1); elapsed time = the cycle the "
      "last synchronizing thread passes its last barrier. The scheduler is a curve-line setting. `sched=rr` is the "
      "seed's SCHED_RR of chapters 2-5 with a wake-up placement: `tail` (the seed's, and TOS's), `head`, or "
      "`preempt` (runs at once by preempting another job's thread). `sched=linux` is chapter 6's SCHED_OTHER of "
      "Linux 2.2-2.4 (`sw/smpsim/linux_sched.cpp`): goodness with PROC_CHANGE_PENALTY and the same-address-space "
      "bonus, counters with cycle accuracy run down on the processor, epochs recalculated as counter/2 + "
      "NICE_TO_TICKS when every runnable task is exhausted, `schedule()` choosing the next task when a processor is "
      "given up (the wait4cs state of 7.2), `reschedule_idle` for a task that becomes runnable, and the SMART, AIP "
      "and SILLY wake-up schemes of 6.6.1.2; parameters at Linux 2.2's shares of the quantum (6.6.2: 75%, 5%, 5%). "
      "Chapters 7-9 run on `sched=linux`, as the thesis ran them.")
    w("")
    w("## Summary")
    w("")
    w("| seed | holds here? | checks | where it differs |")
    w("|---|---|---|---|")
    for r in results:
        title, _ = SEED.get(r["name"], (r["name"], ""))
        ok = sum(o for _, o, _ in r["checks"])
        verdict = "yes" if ok == len(r["checks"]) else ("partly" if ok else "no")
        w(f"| {title} | {verdict} | {ok}/{len(r['checks'])} | {_cell(DIFFERS.get(r['name'], _explained_note(r)))} |")
    w("")
    for r in results:
        title, desc = SEED.get(r["name"], (r["name"], ""))
        w(f"## {title}")
        w("")
        w(f"**Seed:** {desc}")
        if r["name"] in DIFFERS:
            w("")
            w(f"**Differs:** {DIFFERS[r['name']]}.")
        w("")
        for stem in r["figures"]:
            w(_img(stem))
            w("")
        if r["name"] == "table4_1":
            _table_4_1(w, r)
        if r["name"] == "fig7_spin":
            _spin_table(w, r)
        if r["name"] == "fig8":
            _ch8_tables(w, r)
        if r["name"] == "fig9":
            _ch9_tables(w, r)
        if r["name"] == "fig5_1" and "ab_sequences" in r["values"]:
            a = r["values"]["ab_sequences"]
            w(f"A/B of the sequences (the thesis's four were drawn by its own generator): mu=1-20% over {a['seeds']} "
              f"of our sequences, the same barriers: {a['kept']} keep SSR > 50% above 64 threads; the last such load "
              "per sequence: " + ", ".join(f"{sd}: {v}" for sd, v in a["last"].items()) + ".")
            w("")
        if r["name"] == "fig4_6":
            w("| size | " + " | ".join(f"N, avg, min (mu={mu}%)" for mu in r["values"]["surplus"]) + " |")
            w("|---|" + "---|" * len(r["values"]["surplus"]))
            sizes = list(next(iter(r["values"]["surplus"].values())))
            for s in sizes:
                cells = []
                for mu, d in r["values"]["surplus"].items():
                    n, a, m = d[s]
                    cells.append(f"{n}, {a:.1f}, {m:.1f}" if n else "0")
                w(f"| {s} | " + " | ".join(cells) + " |")
            w("")
            _fig4_6_ab(w, r)
        for k, v in r["values"].items():
            if k in TABULATED:
                continue
            w(f"- {k}: {v}")
        for n in r["notes"]:
            w(f"- {n}")
        w("")
        w("**Here:**")
        w("")
        for name, ok, detail in r["checks"]:
            w(f"- {'PASS' if ok else 'FAIL'}: {name} ({detail}){_explained_suffix(r, name, ok)}")
        verdict = all(ok for _, ok, _ in r["checks"])
        w("")
        w(f"The seed's shape {'holds' if verdict else 'does not fully hold'} here"
          f"{'' if verdict else ': see the failed checks above'}.")
        w("")
    if "fig7_spin" in by:
        _answer(w, by)
    if testbed:
        _testbed(w, figdir, testbed)
    w("## Not reproduced here")
    w("")
    w("- Chapter 8's coarse grain (mu=100%): the thesis ran it but shows no figure or number of it; not run. "
      "Figure 9.4 (64, 128 and 256 processors): not run. Chapter 9's Figure 9.2 is drawn for SMART, AIP and SILLY "
      "at full size, for AIP only at the reduced size.")
    w("- Chapter 5's figures are drawn per seed and barrier count, without 5.2's zoom (Figure 5.2 is Figure 5.1's "
      "intermediate load).")
    w("- Chapter 7's transition-point traces (Figures 7.3-7.5) and the wake-up schemes' speedup comparison (7.7.3, "
      "Figures 7.11-7.12): the runs are there (`fig7_spin`'s table), the figures are not drawn.")
    w("- Figure 3.9a: the seed's sigma list 90/20-100:20% includes 100%, outside the open domain (0,100) of its own "
      "2.2.1; 95% is used instead.")
    w("")
    with open(path, "w") as f:
        f.write("\n".join(L))


def _table_4_1(w, r):
    t = r["values"]["table"]
    w(f"Converged value = mean SSR over the second half of the thread range (up to {r['values']['max_threads']} "
      "threads).")
    w("")
    w("| job size | seed mu=1% | here mu=1% | seed mu=10% | here mu=10% | seed mu=100% | here mu=100% |")
    w("|---|---|---|---|---|---|---|")
    for s in sorted(t):
        sd = SEED_TABLE_4_1.get(s, ("-", "-", "-"))
        here = [t[s][m] for m in ("1", "10", "100")]
        w(f"| {s} | {sd[0]} | {here[0]:.1f} | {sd[1]} | {here[1]:.1f} | {sd[2]} | {here[2]:.1f} |")
    w("")


def _spin_table(w, r):
    t = r["values"]["table"]
    w(f"Mean SSR over loads above 32 threads and mean speedup (100 (T_Y - T_X) / T_Y, the seed's 7.7.2) of the "
      f"elapsed time, {r['values']['barriers']} barriers; `rr-*` rows are SCHED_RR with the tail and preempt "
      f"placements (the A/B), the others Linux's SCHED_OTHER with its wake-up schemes:")
    w("")
    w("| wake-up | mu | SSR CS | SSR CS+ | SSR 2CS+ | 2CS+ vs CS | CS+ vs CS | 2CS+ vs CS+ | 2CS+ vs block | "
      "CS vs block |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for (wk, mu), (ssr, spd) in t.items():
        w(f"| {wk} | {mu} | {ssr['CS']:.1f} | {ssr['CS+']:.1f} | {ssr['2CS+']:.1f} | {spd['2CS+ vs CS']:+.1f} | "
          f"{spd['CS+ vs CS']:+.1f} | {spd['2CS+ vs CS+']:+.1f} | {spd['2CS+ vs block']:+.1f} | "
          f"{spd['CS vs block']:+.1f} |")
        th = THESIS_7_7_SSR.get((wk, mu))
        if th:
            sp = THESIS_7_7_SPEEDUP[(wk, mu)]
            w(f"| thesis {wk} | {mu} | {th['CS'][0]} | {th['CS+'][0]} | {th['2CS+'][0]} | {sp['2CS+ vs CS'][0]:+} | "
              f"{sp['CS+ vs CS'][0]:+} | {sp['2CS+ vs CS+'][0]:+} | - | - |")
    w("")


def _answer(w, by):
    """The closing note: every SSR and elapsed-time claim of chapter 7 checked here, the thesis's
    value, ours, the verdict; then what the SCHED_RR A/B shows."""
    r = by["fig7_spin"]
    t = r["values"]["table"]
    w("## Closing note: the thesis's SSR and elapsed-time claims, checked")
    w("")
    w("Each line is a check of this run (a band of the thesis's mean +- its absolute deviation + 10 points, so "
      "it fails when ours is too high as well as too low).")
    w("")
    w(f"Chapters 8-9 (`fig8`, `fig9`): the thesis gives no deviations, so a band is its value +- {MARGIN} points "
      f"(+- {SURPLUS_MARGIN} threads for a surplus, half the processor count: ours); the bands are checked at the "
      "full size, whose sizes, loads and barriers are the thesis's; the other rows, which say who finishes first or "
      "which is higher, at both sizes.")
    w("")
    w("| claim | thesis | here | verdict |")
    w("|---|---|---|---|")
    for name, ok, detail in r["checks"]:
        if "thesis" in detail:
            ours = detail.split(",")[0].replace("ours ", "")
            th = detail.split("thesis ")[1].split(" (")[0]
            w(f"| {name} | {th} | {ours} | {'reproduced' if ok else '**not reproduced**'} |")
        else:
            w(f"| {name} | - | {detail} | {'reproduced' if ok else '**not reproduced**'} |")
    for ch in ("fig8", "fig9"):
        for name, ok, detail in by.get(ch, {}).get("checks", []):
            if not name.startswith("cause: "):  # an A/B's own check shows in its row's verdict
                _claim_row(w, name, ok, detail, by[ch]["explained"].get(name))
    if "fig7_6" in by:
        for name, ok, detail in by["fig7_6"]["checks"]:
            claim, th = name.split(" (7.6: ")
            w(f"| Figure 7.6, {claim} | {th.rstrip(')')} | {detail} | {'reproduced' if ok else '**not reproduced**'} |")
    w("")
    lx = [(wk, mu) for wk in SCHEMES for mu in ("1%", "10%")]
    faster = sum(t[k][1]["2CS+ vs CS"] > 0 for k in lx)
    pre, tail = t[("rr-preempt", "1%")][1], t[("rr-tail", "1%")][1]
    prem, tailm = t[("rr-preempt", "10%")][1], t[("rr-tail", "10%")][1]
    sm1, sm10 = t[("smart", "1%")][1]["2CS+ vs CS"], t[("smart", "10%")][1]["2CS+ vs CS"]
    p0 = t[("smart-pcp0", "1%")]
    p0m = t[("smart-pcp0", "10%")]
    w(f"Under Linux's scheduler 2CS+ finishes before CS in {faster} of {len(lx)} scheme-grain pairs (SMART: "
      f"{sm1:+.1f}% fine grain, {sm10:+.1f}% medium grain). The A/Bs on the same loads, spins and seeds: with "
      f"SCHED_RR instead, `tail` {tail['2CS+ vs CS']:+.1f}% / {tailm['2CS+ vs CS']:+.1f}% and `preempt` "
      f"{pre['2CS+ vs CS']:+.1f}% / {prem['2CS+ vs CS']:+.1f}% (fine / medium): the elapsed-time gain of the "
      f"longer spin belongs to Linux's scheduler, not to spinning as such. With Linux's scheduler but "
      f"PROC_CHANGE_PENALTY 0 (`smart-pcp0`), CS already succeeds {p0[0]['CS']:.1f}% / {p0m[0]['CS']:.1f}% of its "
      f"spins (SMART with the penalty: {t[('smart', '1%')][0]['CS']:.1f}% / {t[('smart', '10%')][0]['CS']:.1f}%) "
      f"and 2CS+ gains {p0[1]['2CS+ vs CS']:+.1f}% / {p0m[1]['2CS+ vs CS']:+.1f}%: the penalty, which ties a "
      f"released thread to its previous processor, is what makes a CS spin too short under Linux (7.5.4-7.6)"
      + (", and it carries part of the fine-grain gain." if p0[1]["2CS+ vs CS"] < sm1 else
         "; without it the fine-grain gain does not shrink, so the penalty does not explain the gain."))
    w("")


def _fig4_6_ab(w, r):
    """Figure 4.6's A/B: the same loads and seeds with only the number of barriers changed."""
    sur = r["values"]["surplus"]
    if 16 in sur["1"]:
        (nf, af, _), (nm, am, _) = sur["1"][16], sur["10"][16]
        w(f"At size 16 the loads above 32 threads are 48, 64, ... threads, so N moves in steps of 16: here N = {nf} "
          f"for fine grain and {nm} for medium grain, and the mean SSR over that surplus is {af:.1f}% against "
          f"{am:.1f}%" + (" (a tie of N at this resolution)." if nf == nm else "."))
        w("")
    st = r["values"].get("ab_step1")
    if st:
        w(f"**Size 16 at a step of one thread (A/B, {r['values']['seeds']} seeds: three 16-thread jobs and 0-15 "
          "non-synchronizing threads, loads 48-63; the next load, 64 threads, is the sweep's):**")
        w("")
        w("| grain | median N | lowest N | highest N | seeds with N > 16 | median N, step of 16 |")
        w("|---|---|---|---|---|---|")
        for mu, d in st.items():
            w(f"| mu={mu}% | {d['median']} | {d['lowest']} | {d['highest']} | {d['above16']} | {d['sweep']} |")
        w("")
    ab = r["values"].get("ab_barriers")
    if not ab:
        return
    counts = sorted({nb for _, nb in ab})
    w(f"**Why the surplus exceeds the processor count here (A/B, {r['values']['seeds']} seeds, fine grain, the "
      "sweep's loads up to 100 threads, only the number of barriers changed):**")
    w("")
    w("| size | barriers | median N | seeds with N >= 32 | mean SSR at the load nearest 2 x 32 | quanta that run lasts |")
    w("|---|---|---|---|---|---|")
    for (s, nb), (n, k, ssr, q, t) in sorted(ab.items()):
        w(f"| {s} | {nb} | {n} | {k} | {ssr:.1f}% ({t} threads) | {q:.0f} |")
    w("")
    s = min(x for x, _ in ab)
    a, b = ab[(s, counts[0])], ab[(s, counts[-1])]
    w(f"Size {s}: with {counts[0]} barriers, the seed's count, a fine-grain run at {a[4]} threads lasts {a[3]:.0f} "
      f"quanta, its SSR is {a[2]:.1f}% and {a[1]} of {r['values']['seeds']} seeds keep N >= 32; with {counts[-1]} "
      f"barriers ({b[3]:.0f} quanta) the same loads and seeds give {b[2]:.1f}% and {b[1]} such seeds. The SSR of "
      "a load falls as the run lengthens: a surplus above the processor count is measured in runs of a few quanta, "
      "while the jobs have not yet settled into alternating synchronization (4.3), and it goes as the runs "
      f"lengthen. The thesis's runs had the same {counts[0]} barriers; why its jobs settled sooner is not "
      "measured here.")
    w("")


def two25_table(w, speedups):
    """8.4's two 25-thread jobs: each pair's speedup (%) per spin, median (lowest, highest) / the thesis's."""
    w("| pair | CS | CS+ | 2CS+ |")
    w("|---|---|---|---|")
    for pair in THESIS_8_4_TWO25["1%"]:
        w(f"| {pair} | " + " | ".join(
            f"{speedups[(pair, sp)][0]:+.1f} ({speedups[(pair, sp)][1]:+.1f}, "
            f"{speedups[(pair, sp)][2]:+.1f}) / {THESIS_8_4_TWO25['1%'][pair][sp]:+}"
            for sp in ("CS", "CS+", "2CS+")) + " |")
    w("")


def _ch8_tables(w, r):
    v = r["values"]
    w(f"Sizes {v['sizes']}, {v['barriers']} barriers, up to {v['max_threads']} threads; every job count up to 96 "
      "threads, about ten above (`ch8_loads`). Surplus: chapter 4's N (the largest surplus up to which every load "
      "has SSR > 50%) at the loads run, averaged over the sizes.")
    w("")
    w("Mean surplus (threads) over the sizes, ours / the thesis's (8.3):")
    w("")
    w("| wake-up | fine CS | fine CS+ | fine 2CS+ | medium CS | medium CS+ | medium 2CS+ |")
    w("|---|---|---|---|---|---|---|")
    for wk in ("silly", "aip", "smart"):
        cells = [f"{v['surplus_avg'][(wk, mu)][sp]:.1f} / {THESIS_8_3_SURPLUS[(wk, mu)][sp]}"
                 for mu in ("1%", "10%") for sp in ("CS", "CS+", "2CS+")]
        w(f"| {wk} | " + " | ".join(cells) + " |")
    w("")
    if v.get("two25_ssr"):
        w("Two 25-thread jobs, 2CS+: SSR (%), ours / the thesis's (8.3):")
        w("")
        w("| grain | SMART | AIP | SILLY |")
        w("|---|---|---|---|")
        for mu, d in v["two25_ssr"].items():
            w(f"| {mu} | " + " | ".join(f"{d[wk]:.1f} / {THESIS_8_3_TWO25[mu][wk]}" for wk in ("smart", "aip", "silly"))
              + " |")
        w("")
    w("Wake-up schemes compared: mean speedup (%) of the elapsed time, ours / the thesis's (8.4); loads 33-64 over "
      "every size, and the two 25-thread jobs:")
    w("")
    w("| grain | loads | pair | CS | CS+ | 2CS+ |")
    w("|---|---|---|---|---|---|")
    for mu in ("1%", "10%"):
        for pair, d in v["wake"][mu].items():
            w(f"| {mu} | 33-64 | {pair} | " + " | ".join(f"{d[sp]:+.1f} / {THESIS_8_4_WAKE[mu][pair][sp]:+}"
                                                  for sp in ("CS", "CS+", "2CS+")) + " |")
        for pair, d in v.get("wake_two25", {}).get(mu, {}).items():
            w(f"| {mu} | 2 x 25 | {pair} | " + " | ".join(f"{d[sp]:+.1f} / {THESIS_8_4_TWO25[mu][pair][sp]:+}"
                                                   for sp in ("CS", "CS+", "2CS+")) + " |")
    w("")
    w("Spin durations compared (AIP, 8.5: alpha = loads 33-64, beta = 65-96, gamma = 97-320) and against "
      "always-block (8.6: alpha = 1-32, beta = 33-64 (medium: beta1 33-48, beta2 49-64), gamma = 97-320); mean "
      "speedup (%), ours / the thesis's; a range beyond this run's loads shows nan:")
    w("")
    w("| grain | pair | ranges |")
    w("|---|---|---|")
    for mu in ("1%", "10%"):
        for pair, vals in v["spin"][mu].items():
            w(f"| {mu} | {pair} | " + ", ".join(f"{o:+.1f} / {t:+}" for o, t in zip(vals, THESIS_8_5[mu][pair])) + " |")
        for pair, vals in v["block"][mu].items():
            w(f"| {mu} | {pair} | " + ", ".join(f"{o:+.1f} / {t:+}" for o, t in zip(vals, THESIS_8_6[mu][pair])) + " |")
    w("")
    ab = v.get("ab_no_size2")
    if ab:
        w("A/B of the size-2 collections (AIP, fine grain, the same runs averaged without size 2; 8.5's ranges alpha, "
          "beta, gamma and 8.6's alpha, beta, gamma): mean speedup (%), all sizes / without size 2 / the thesis's:")
        w("")
        w("| pair | ranges |")
        w("|---|---|")
        for sec, th, ours in (("8.5", THESIS_8_5["1%"], v["spin"]["1%"]), ("8.6", THESIS_8_6["1%"], v["block"]["1%"])):
            for pair, vals in ab[sec].items():
                w(f"| {pair} ({sec}) | " + ", ".join(f"{o:+.1f} / {n:+.1f} / {t:+}" for o, n, t in zip(ours[pair], vals, th[pair]))
                  + " |")
        w("")
        if ab["size2_ssr_beta"]:
            w("Size 2 at 65-96 threads (8.5's beta), mean SSR: " + ", ".join(
                f"{sp} {x:.1f}%" for sp, x in ab["size2_ssr_beta"].items()) + ".")
            w("")
    t2 = v.get("ab_two25_seeds")
    if t2 and t2["speedups"]:
        w(f"A/B of the seed, two 25-thread jobs, fine grain (one run each in the table, seed 1): speedup (%) over "
          f"{t2['seeds']} seeds, median (lowest, highest) / the thesis's:")
        w("")
        two25_table(w, t2["speedups"])
    if t2 and t2.get("lifo"):
        w(f"A/B of the wake order, the same {t2['seeds']} seeds: the seed's Algorithm 3 walks a barrier's blocked "
          "threads in an order it does not give; ours walks them in the order they blocked (the table above), here "
          "latest first (`wake_order=lifo`, as Linux 2.4's `add_wait_queue` queues a waiter at the head). Speedup "
          "(%), median (lowest, highest) / the thesis's:")
        w("")
        two25_table(w, t2["lifo"])
        per = t2["per_scheme"]
        w("Each scheme in either order, over the same seeds: median elapsed (cycles), mean SSR (%), mean context "
          "switches, and of the threads woken several at once the share sent to their previous processor and the "
          "share whose previous processor was idle at the wake-up but went to another thread or stayed idle:")
        w("")
        w("| scheme | spin | blocked order | latest first |")
        w("|---|---|---|---|")
        for wk in ("smart", "aip", "silly"):
            for sp in ("CS", "CS+", "2CS+"):
                w(f"| {wk} | {sp} | " + " | ".join(
                    "{:.0f}, {:.1f}%, {:.0f}, {:.1f}% / {:.1f}%".format(*per[(o, wk, sp)])
                    for o in ("wake_order=fifo", "wake_order=lifo"))
                  + " |")
        w("")
        a0, a1 = per[("wake_order=fifo", "aip", "CS+")], per[("wake_order=lifo", "aip", "CS+")]
        s0, s1 = per[("wake_order=fifo", "smart", "CS+")], per[("wake_order=lifo", "smart", "CS+")]
        w(f"With CS+, AIP walking the woken threads in the order they blocked sends {a0[3]:.1f}% of them to their "
          f"previous processor and takes the idle previous processor of {a0[4]:.1f}% to another thread or leaves it "
          f"(median {a0[0]:.0f} cycles, {a0[2]:.0f} switches); latest first, {a1[3]:.1f}% and {a1[4]:.1f}% "
          f"({a1[0]:.0f} cycles, {a1[2]:.0f} switches). SMART, whose first step gives every woken thread its idle "
          f"previous processor before any other is handed out (6.6.1.2), {s0[3]:.1f}% and {s0[4]:.1f}% "
          f"({s0[0]:.0f} cycles) against {s1[3]:.1f}% and {s1[4]:.1f}% ({s1[0]:.0f} cycles).")
        th = THESIS_8_4_TWO25["1%"]["smart vs aip"]
        inb = {o: [sp for sp in ("CS", "CS+", "2CS+") if abs(d[("smart vs aip", sp)][0] - th[sp]) <= MARGIN]
               for o, d in (("blocked order", t2["speedups"]), ("latest first", t2["lifo"]))}
        w("SMART vs AIP, median, blocked order / latest first / the thesis's one run: " + ", ".join(
            f"{sp} {t2['speedups'][('smart vs aip', sp)][0]:+.1f} / {t2['lifo'][('smart vs aip', sp)][0]:+.1f} / "
            f"{th[sp]:+}" for sp in ("CS", "CS+", "2CS+")) + "; within +-" + str(MARGIN) + " of the thesis: "
          + "; ".join(f"{o} {', '.join(v) or 'none'}" for o, v in inb.items()) + ".")
        w("")
    w("Spins longer than 2CS+ (8.7, AIP, fine grain, loads above 32): speedup of 2CS+ over them: "
      + ", ".join(f"{m}CS {x:+.1f}%" for m, x in v["longer"].items()) + ".")
    w("")


def _ch9_tables(w, r):
    v = r["values"]
    w(f"{v['seeds']} seeds, {v['barriers']} barriers, job sequences until their threads exceed {v['max_threads']}; "
      "the classes' SSR from runs that end at the first exit (5.1.4, the permutation mode of 5.1.5 that 9.2 uses: the "
      "load does not thin out), the elapsed time (AIP) from runs of the same sequences that end with their last job "
      "(9.3 weighs the coarse jobs' loss against the fine jobs' gain; the thesis does not say which end it used). "
      "Surplus of a class: the load of the last run where the class's SSR is above 50%, minus 32 (9.3's seed-0 "
      "example).")
    w("")
    w("Mean surplus (threads) over the seeds, and its mean absolute deviation (Figure 9.2):")
    w("")
    w("| wake-up | spin | fine | medium |")
    w("|---|---|---|---|")
    for wk in SCHEMES:
        for sp in ("CS", "CS+", "2CS+"):
            if (wk, sp, 0) in v["surplus"]:
                (m, dev), (md, mdev) = v["surplus"][(wk, sp, 0)], v["surplus"][(wk, sp, 1)]
                w(f"| {wk} | {sp} | {m:.1f} ({dev:.1f}) | {md:.1f} ({mdev:.1f}) |")
    w("")
    w("Against always-block (AIP, mean over seeds of the speedup at each load, Figure 9.3): "
      + ", ".join(f"{sp} {a:+.1f}% at loads 33-64, {b:+.1f}% above 64" for sp, (a, b) in v["vs_block"].items()) + ".")
    w("")


def _explained_note(r):
    """The Summary's "where it differs" of an experiment whose failing checks have an A/B."""
    failing = [n for n, ok, _ in r["checks"] if not ok]
    expl = [n for n in failing if r["explained"].get(n, (False,))[0]]
    if not expl:
        return "-"
    return (f"{len(expl)} of {len(failing)} failing check{'s' if len(failing) > 1 else ''} explained by an A/B run: "
            + "; ".join(f"{n}: {r['explained'][n][1]}" for n in expl))


def _explained_suffix(r, name, ok):
    if ok or name not in r["explained"]:
        return ""
    good, text = r["explained"][name]
    return f"; **explained** by the A/B: {text}" if good else f"; not explained by the A/B: {text}"


def _claim_row(w, name, ok, detail, explained=None):
    """One closing-note row: the thesis's value from a band's detail or from the check's name
    ("claim (8.3: value)"), ours from the detail; a failing row with an A/B that moves it into the
    thesis's band is explained, by the A/B's measured value."""
    verdict = "reproduced" if ok else "**not reproduced**"
    if not ok and explained:
        verdict = (f"explained: {_cell(explained[1])}" if explained[0] else
                   f"**not reproduced** (the A/B: {_cell(explained[1])})")
    if "thesis" in detail:
        ours = detail.split(",")[0].replace("ours ", "")
        th = detail.split("thesis ")[1].split(" (")[0]
        w(f"| {name} | {th} | {ours} | {verdict} |")
        return
    m = re.search(r" \((\d\.\d+): ([^()]*(?:\([^()]*\)[^()]*)*)\)$", name)
    if m:
        w(f"| {name[:m.start()]} ({m.group(1)}) | {_cell(m.group(2))} | {_cell(detail)} | {verdict} |")
    else:
        w(f"| {name} | - | {_cell(detail)} | {verdict} |")
