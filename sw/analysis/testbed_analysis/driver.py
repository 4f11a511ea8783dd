"""testbed-experiment NAME|all: simulate, analyse, write testbed-out/experiments/<name>/."""
import argparse
import os
import shutil
import sys
import time

from . import fsm, perfetto, runner
from .docwriter import opening
from .trace import TraceError, read

NAMES = ["local", "remote", "migration", "busy", "multi-phase", "overflow"]
# section 4 (not part of `all`, which is section 3): each balance-* runs its cases (balance.py);
# table9 runs them all
CASES4 = {"balance-synthetic": ["compute", "comm", "mixed"], "balance-adder": ["adder"], "balance-wator": ["wator"],
          "table9": ["compute", "comm", "mixed", "adder", "wator"]}
NAMES4 = list(CASES4) + ["metrics", "seed004", "filter-overflow", "filter-metrics"]
TITLES = {
    "local": "3.3.1 Latency of local communication (Figures 9, 10, 24; Table 6)",
    "remote": "3.3.2 Latency of remote communication (Figures 11-15, 25; Table 6) and 3.3.4 remote page copy (Figures 17, 27)",
    "migration": "3.3.3 Thread migration latency (Figures 7, 16, 26)",
    "busy": "3.3.5 The effects of a busy environment",
    "multi-phase": "3.3.6 Typical communication latencies (multi-phase: Table 5, Figures 19-22)",
    "overflow": "3.3.7 Event rates (overflow)",
    "balance-synthetic": "4.3.1 Load balancing the synthetic programs (Table 9, Figures 42-48)",
    "balance-adder": "4.3.2 Load balancing an asynchronous circuit simulation: adder (Table 9, Figures 50-52)",
    "balance-wator": "4.3.3 Load balancing a population simulation: wator (Table 9, Figures 53-58)",
    "table9": "4.3 The balancer's case studies (Table 9, Figures 42-58)",
    "seed004": "Seed 004 on the Testbed: barriers with two-phase waiting, SSR and elapsed time against load (issue 34)",
    "filter-overflow": "Beyond the report: section 3.3.7's overflow on the full machine with the SMI's event filter (issue 37)",
    "filter-metrics": "Beyond the report: Table 8's CPU-TIME on the full machine with the SMI's event filter (issue 37)",
    "metrics": "4.1 Load metrics case study: N-THREADS, RQ-LENGTH, CPU-TIME, REM-COMM (Figures 33-38, Table 8)",
}


def run_one(name, args):
    from . import experiments as X  # matplotlib: only when plotting
    size = X.SIZES[args.size]
    out = os.path.join(args.out, name)
    if args.reanalyse and name == "seed004":
        pass  # its runs are kept: analysed again
    elif os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)
    rep = X.Report(name, TITLES[name], out)
    t0 = time.time()
    sim_secs = None
    sim = lambda progs, rc, d=out, **kw: runner.run_testbed(args.bin_dir, args.firmware_dir, name, progs, rc, d,
                                                            quiet=args.quiet, profile=args.profile, **kw)
    if name == "local":
        log, _ = sim(["local", "dgl", "logger"], X.rc_local(size["local"]), sets=('trace.cycle_profile="earth"',))  # (the timer's handler)
        X._losses(rep, out, log)
        X.analyse_local(rep, X._load(rep, out), size["local"], tick=X.tick_path(out, os.path.join(args.firmware_dir, "tos.elf")))
    elif name == "remote":
        log, _ = sim(["local", "remote", "dgl", "logger"], X.rc_remote(size["remote"]))
        X._losses(rep, out, log)
        X.analyse_remote(rep, X._load(rep, out, [(1, 2)]), size["remote"])
    elif name == "migration":
        log, _ = sim(["migrate", "dgl", "logger"], X.rc_migration(size["migration"]))
        X._losses(rep, out, log)
        X.analyse_migration(rep, X._load(rep, out), size["migration"])
    elif name == "busy":
        log, _ = sim(["local", "remote", "busy", "dgl", "logger"], X.rc_busy(size["busy"]))
        X._losses(rep, out, log)
        ab = os.path.join(out, "clock-reads")
        os.makedirs(ab, exist_ok=True)
        sim(["local", "remote", "busy", "dgl", "logger"], X.rc_busy(size["busy"], clock_reads=True), d=ab)
        X.analyse_busy(rep, X._load(rep, out, [(1, 2)]), size["busy"], tr_clock=read(os.path.join(ab, "monitor.trace.txt")))
    elif name == "multi-phase":
        log, _ = sim(["multi-phase", "dgl", "logger"], X.rc_multiphase(size["multi-phase"]))
        X._losses(rep, out, log)
        it, mx, pause = size["multi-phase"]
        ab = []
        for k in X.MP_LENGTHS:
            d = os.path.join(out, "max-msg-%d" % (mx // k))
            os.makedirs(d, exist_ok=True)
            sim(["multi-phase", "dgl", "logger"], X.rc_multiphase((it, mx // k, pause)), d=d)
            ab.append((mx // k, read(os.path.join(d, "monitor.trace.txt"))))
        X.analyse_multiphase(rep, X._load(rep, out), size["multi-phase"], ab=ab)
    elif name in CASES4:
        from . import balance as B
        results = {}
        kernel_elf = os.path.join(args.firmware_dir, "tos.elf")  # the cycle profile's functions
        for case in CASES4[name]:
            results[case] = B.run_case(case, args.size, sim, out)
            B.analyse_case(rep, case, results[case], args.size)
        from .paths import results_doc
        # the same profile's section 3 (the 1994 profile's migration is not the default's)
        s3 = "section3.md" if args.profile == "default" else "section3-%s.md" % args.profile
        alone = B.message_alone(results_doc(s3), B.message_bytes(results.get("comm", {})),
                                "docs/results/" + s3)
        rep.notes.append("Table 9 (seconds; in brackets, percent of the sequential run, or of the random one for wator):\n\n"
                         + B.table9(results, args.size, alone, kernel_elf))
        from .metrics import _tos_limits
        limits = _tos_limits()
        bound = B.migration_bound(results_doc(s3), limits["slice_us"] / 1000.0,
                                  limits["reconf_wait_ticks"], "docs/results/" + s3)
        if bound:
            rep.notes.append(bound)
    elif name == "metrics":
        from . import metrics
        metrics.run(rep, sim, out, metrics.SIZES[args.size])
    elif name == "seed004":
        from . import seed004
        if args.reanalyse:
            sim_secs = seed004.reanalyse(rep, out)
        else:
            seed004.run(rep, sim, out, args.size)
    elif name == "filter-overflow":
        from . import filter_overflow
        filter_overflow.run(rep, sim, out, args.size)
    elif name == "filter-metrics":
        from . import filter_overflow
        filter_overflow.run_metrics(rep, sim, out, args.size)
    elif name == "overflow":
        trials = []
        for n in (1, 2, 5):
            for calls in size["overflow_rates"]:
                d = os.path.join(out, "trial-%d-%s" % (n, calls or "max"))
                log, _ = sim(["overflow", "dgl", "logger"], X.rc_overflow(calls, size["overflow_ms"], n), d)
                r = X.overflow_result(d, log)
                if r is None:
                    rep.check("overflow trial %d slaves %s calls/s ran" % (n, calls), False, "no result line on earth's console (%s)" % d)
                    continue
                trials.append(r)
                if not args.quiet:
                    sys.stderr.write("[overflow] %d slave(s), %s calls/s: %.0f events/s per slave, lost %d\n"
                                     % (n, calls or "max", r["rate"], r["probe_lost"]))
        X.analyse_overflow(rep, trials)
    secs = time.time() - t0
    if args.reanalyse and name == "seed004":
        rep.notes.append("Size: %s; machine profile `%s`; simulated in %s on this host, analysed again (--reanalyse) in %.0f s."
                         % (args.size, args.profile, "%.0f s" % sim_secs if sim_secs else "a time not recorded", secs))
    else:
        rep.notes.append("Size: %s; machine profile `%s`; simulated in %.0f s on this host." % (args.size, args.profile, secs))
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(rep.markdown(level=1))
    return rep, secs


# What each doc is about (docwriter.opening writes its title, command and run line around it).
INTRO = """Every simulated number comes from the 68010 model running TOS (firmware/tos), the
Centrenet model and the monitor: nothing in the kernel or the models is set to reach the
report's numbers. The experiments, their programs (Appendix A) and the analysis are in
`sw/analysis/` (README there). A ratio is simulated / seed; **>25%** marks a difference larger
than a quarter, explained under "Why the numbers differ"."""


INTRO4 = """Everything runs as 68010 code on the simulated machine: the kernel's metric events (classes
threads, rqlen, cpu, links), the master's balancer (`firmware/tos/programs/balancer/`: the load
assessor reading the monitor, a policy module as the decision maker: `testbed`, `random` or
`none`), Figure 40's candidate selection on the slaves (`firmware/tos/kernel/balance.c`) and the
case-study programs (`synthetic`, `adder`, `wator` in `firmware/tos/programs/`). Nothing is set
to reach the report's numbers; the differences are explained at the end."""


INTRO_FILTER = """TOS runs on all six boards and the master's logger (section 3.3.7's, reading the MMI)
takes the events; the filter is programmed from the master's shell during the run. The
monitor-level figures at the report's master rate are in [filter.md](filter.md)."""



def main(argv=None, bin_dir=None, firmware_dir=None):
    ap = argparse.ArgumentParser(prog="testbed-experiment", description=__doc__)
    ap.add_argument("name", help="one of %s, or all (section 3's); seed003-ops, seed003-migration, seed003-phases, "
                    "seed003-micro, seed003-cnet, seed003-btree, or seed003 (all six)" % ", ".join(NAMES + NAMES4))
    ap.add_argument("--size", choices=["full", "reduced"], default="full")
    ap.add_argument("--profile", choices=["default", "1994"], default="default",
                    help="the machine profile (sim/configs/testbed.toml: profile; docs/profiles.md)")
    ap.add_argument("--out", default="testbed-out/experiments")
    ap.add_argument("--doc", help="also write the combined report here (with its figures beside it)")
    ap.add_argument("--why", help="markdown explaining the differences, appended to --doc (default: sw/analysis/section3_why.md)")
    ap.add_argument("--doc4", help="write section 4's report here (its figures beside it): the balance experiments run")
    ap.add_argument("--bin-dir", default=bin_dir)
    ap.add_argument("--firmware-dir", default=firmware_dir)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--doc3", help="seed003 experiments: write docs/results/seed003.md here (its figures beside it)")
    ap.add_argument("--doc-filter", help="filter-overflow: write its page here (docs/results/filter-machine.md), "
                    "its figures beside it")
    ap.add_argument("--doc1", help="seed001 experiments: write docs/results/seed001.md here (its figures beside it)")
    ap.add_argument("--doc2", help="seed002: write docs/results/seed002.md here (its figures beside it)")
    ap.add_argument("--reanalyse", action="store_true", help="seed004, seed003-btree: analyse OUT's kept runs again, no simulation")
    args = ap.parse_args(argv)
    from . import seed001  # seed 001 (DynamicPVM): whole-process migration (seed001.py)
    if args.name in ("seed001",) + tuple(seed001.NAMES):
        return seed001.main(seed001.NAMES, args)
    from . import seed002  # seed 002 (RHODOS global scheduling): seed002.py
    if args.name == "seed002":
        return seed002.main(seed002.NAMES, args)
    from . import seed003  # seed 003 (Hsieh 1995): its own cases and report (seed003.py)
    if args.name == "seed003" or all(n in seed003.NAMES for n in args.name.split(",")):
        return seed003.main(seed003.NAMES if args.name == "seed003" else args.name.split(","), args)
    names = NAMES if args.name == "all" else args.name.split(",")  # a,b: several (docs-section4)
    if any(n not in NAMES + NAMES4 for n in names):
        ap.error("unknown experiment %r (one of %s, or all)" % (args.name, ", ".join(NAMES + NAMES4)))
    reps, failed, t_all = [], False, time.time()
    for n in names:
        try:
            rep, secs = run_one(n, args)
        except (TraceError, runner.RunError) as e:
            print("testbed-experiment: %s: %s" % (n, e), file=sys.stderr)
            return 1
        reps.append(rep)
        bad = [c for c in rep.checks if not c[1]]
        failed |= bool(bad)
        print("%-12s %s  %3.0f s  %s" % (n, "ok  " if not bad else "FAIL", secs, os.path.join(args.out, n, "results.md")))
        for what, _ok, detail in bad:
            print("  FAIL %s: %s" % (what, detail))
    if args.doc_filter:
        figdir = os.path.splitext(args.doc_filter)[0]
        if os.path.isdir(figdir):
            shutil.rmtree(figdir)
        os.makedirs(figdir)
        body = [opening("Beyond the report: the SMI event filter on the full machine (issue #37)",
                        "build/bin/testbed-experiment filter-overflow,filter-metrics --doc-filter docs/results/filter-machine.md",
                        "docs-filter-machine", INTRO_FILTER, args.size, time.time() - t_all, args.profile)]
        for rep in reps:
            for _n, path, _c in rep.figures:
                for ext in (".png", ".svg"):  # the page shows the PNG; the SVG beside it
                    shutil.copy(os.path.join(rep.out_dir, os.path.splitext(path)[0] + ext), figdir)
            body.append(rep.markdown(fig_prefix=os.path.basename(figdir), level=2))
        from .claims import doc_tail
        body.append(doc_tail("000", os.path.basename(args.doc_filter), "".join(body)))
        with open(args.doc_filter, "w") as f:
            f.write("".join(body))
        print("wrote %s" % args.doc_filter)
    if args.doc4:
        figdir = os.path.splitext(args.doc4)[0]
        if os.path.isdir(figdir):
            shutil.rmtree(figdir)
        os.makedirs(figdir)
        cmd = "build/bin/testbed-experiment table9,metrics%s --doc4 docs/results/%s" % (
            " --profile " + args.profile if args.profile != "default" else "", os.path.basename(args.doc4))
        body = [opening("Seed 000 section 4 on the simulated Testbed", cmd,
                        "docs-section4" + ("" if args.profile == "default" else "-" + args.profile), INTRO4,
                        args.size, time.time() - t_all, args.profile)]
        for rep in reps:
            for _n, path, _c in rep.figures:
                shutil.copy(os.path.join(rep.out_dir, path), figdir)
            if rep.name == "metrics":  # Table 8's section (section 4.1)
                from .metrics import table8_markdown
                body.append(table8_markdown(rep, fig_prefix=os.path.basename(figdir), level=2))
                continue
            body.append(rep.markdown(fig_prefix=os.path.basename(figdir), level=2))
        from .claims import doc_tail  # the prose filled from this run, then the claims rows
        why = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "section4_why.md")
        body.append(doc_tail("000", os.path.basename(args.doc4), "".join(body), why))
        with open(args.doc4, "w") as f:
            f.write("".join(body))
        print("wrote %s" % args.doc4)
    if args.doc:
        figdir = os.path.splitext(args.doc)[0]
        if os.path.isdir(figdir):
            shutil.rmtree(figdir)
        os.makedirs(figdir)
        from .experiments import overview
        cmd = "build/bin/testbed-experiment all%s --doc docs/results/%s" % (
            " --profile " + args.profile if args.profile != "default" else "", os.path.basename(args.doc))
        body = [opening("Seed 000 section 3 on the simulated Testbed", cmd,
                        "docs-section3" + ("" if args.profile == "default" else "-" + args.profile), INTRO,
                        args.size, time.time() - t_all, args.profile, " for all experiments"),
                overview(reps, runner.clock_mhz(os.path.join(args.out, "local")))]
        for rep in reps:
            for _n, path, _c in rep.figures:
                shutil.copy(os.path.join(rep.out_dir, path), figdir)
            body.append(rep.markdown(fig_prefix=os.path.basename(figdir), level=2))
        from .claims import doc_tail  # the prose filled from this run, then the claims rows
        why = args.why or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "section3_why.md")
        body.append(doc_tail("000", os.path.basename(args.doc), "".join(body), why))
        with open(args.doc, "w") as f:
            f.write("".join(body))
        print("wrote %s" % args.doc)
    return 1 if failed else 0


def analyse_main(argv=None):
    """testbed-analyse TRACE [--perfetto OUT.json]: the FSMs over any decoded trace."""
    ap = argparse.ArgumentParser(prog="testbed-analyse")
    ap.add_argument("trace")
    ap.add_argument("--perfetto", help="write a Chrome / Perfetto trace-event JSON here")
    ap.add_argument("--pair", action="append", default=[], help="SENDER:RECEIVER boards for remote messages (e.g. 1:2)")
    args = ap.parse_args(argv)
    try:
        tr = read(args.trace)
    except TraceError as e:
        print("testbed-analyse: %s" % e, file=sys.stderr)
        return 2
    reqs = fsm.requests(tr)
    bad, sr, sb = reqs.unmatched()
    kinds = {}
    for r in reqs.all:
        kinds[(r.board, r.kind, r.release_by)] = kinds.get((r.board, r.kind, r.release_by), 0) + 1
    print("%s: %d events on boards %s%s" % (args.trace, len(tr.events), tr.boards(),
                                            ", SMI FIFO full %d time(s)" % len(tr.wrap_gaps) if tr.wrap_gaps else ""))
    for (b, k, by), n in sorted(kinds.items()):
        print("  board %d: %5d requests %s%s" % (b, n, k, " (released by %s)" % by if by else ""))
    pcs = [p for p in fsm.page_copies(tr) if p.t_in is not None]
    print("  remote page copies: %d" % len(pcs))
    pairs = [tuple(int(v) for v in p.split(":")) for p in args.pair]
    for s, r in pairs:
        print("  remote messages %d -> %d: %d" % (s, r, len(fsm.remote_ocms(tr, reqs, s, r))))
    print("  unmatched: %d requests, %d stray releases, %d stray blocks" % (len(bad), len(sr), len(sb)))
    if args.perfetto:
        n = perfetto.export(tr, args.perfetto, remote_pairs=pairs)
        print("  wrote %s (%d trace events)" % (args.perfetto, n))
    return 0
