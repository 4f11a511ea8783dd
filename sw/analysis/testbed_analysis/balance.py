"""Seed 000 section 4.3: the load balancer's case studies on the simulated Testbed (Table 9,
Figures 42-58). Each application does a fixed amount of work and runs three ways: all its
threads on earth with no balancer (sequential), placed at random by TOS, and all on earth
(wator: on the seed's regions) with the master's `balancer` moving work. The balancer's log
(Figure 41's TIM / LNK / RQL lines, its requests and the slaves' answers) gives the figures."""
import collections
import os
import re

import numpy as np

from . import runner
from .experiments import SLAVE_NAMES
LINK_NAMES = ["%d-%d" % (a, b) for a in range(1, 6) for b in range(a + 1, 6)]

# Table 9 (seconds): sequential, random, balancing. The report gives no mixed row, and wator
# has no sequential run ("wator excepted").
SEED9 = {"compute": (54.0, 15.0, 21.0), "comm": (72.0, 41.0, 35.0), "mixed": (None, None, None),
         "adder": (93.0, 183.0, 126.0), "wator": (None, 900.0, 550.0)}
TITLE9 = {"compute": "20 compute-bound threads", "comm": "20 communication-bound pairs", "mixed": "20 mixed pairs",
          "adder": "`adder` simulation", "wator": "`wator` simulation"}

# What each case does, by size: the synthetic kinds' (count, amount), adder's additions,
# wator's (ocean side, steps); sample = migration period (ms) as the seed's one second, and
# wator's ten seconds ("the load balancing sampling period is increased to 10 seconds").
SIZES = {
    # comm: 1,100 messages a pair, the report's run length (its 72 s sequential at about 3 ms a
    # local message, Table 6)
    "full": {"compute": (20, 3000), "comm": (20, 1100), "mixed": (20, 100), "period": 1000,
             "adder": 1024, "wator": (100, 100), "wator_period": 10000},
    "reduced": {"compute": (20, 3000), "comm": (10, 150), "mixed": (10, 30), "period": 200,
                "adder": 48, "wator": (40, 30), "wator_period": 2000},
}
# The balancer stops after `quiet` samples in a row with no load once it has seen some: at least
# three, and at least 3 s, so that a short sample period (the reduced size's 200 ms) does not end
# it between dgl's own brief load on the slaves and the program's start on earth.
BALANCER = "master balancer -P %s -p %d -m %d -t 2 -q %d %s&\n"


def _quiet(period):
    return max(3, 3000 // period)


def _balancer(policy, period, classes="+rqlen +links", extra=""):
    return "earth dgl @* %s\n" % classes + BALANCER % (policy, period, period, _quiet(period), extra)


# The A/B run of the communication-bound case: the balancer with its link rule off (a link
# threshold no link reaches), to measure what the link requests (driven by the messages on
# the links) do to the balanced run.
NOLINK = "-l 1000000 "

# The communication-bound case's random placement over more deals than TOS's one (synthetic.c
# `random SEED`: the same kind of deal from the program's own sequence). The pairs' time depends
# on which ends share a board, so Table 9's order (balanced < random) is judged against the mean
# of every deal, with their spread shown, not against one deal.
COMM_DEALS = (1, 2, 3, 4)

# The A/B run of the communication-bound case with the balancer's sample and migration periods
# halved: the balancer moves at most one thread a period (the report's second), however fast
# the machine does the work, so on a machine that runs the program in less time it has fewer
# moves to spread the pairs before the end.
FAST = "balanced-half"


def rc_case(case, size, how):
    """The boot script of one run: how = seq | random | balanced | none (wator's regions, logged)."""
    s, period = SIZES[size], SIZES[size]["period"]
    if case in ("compute", "comm", "mixed"):
        n, amount = s[case]
        place = "random" if how == "random" else "random " + how[len("random-s"):] if how.startswith("random-s") else "here"
        pre = (_balancer("testbed", period) if how == "balanced" else
               _balancer("testbed", period // 2) if how == FAST else
               _balancer("testbed", period, extra=NOLINK) if how == "nolink" else "")
        return pre + "earth synthetic %s %d %d %s\n" % (case, n, amount, place)
    if case == "adder":
        place = "random" if how == "random" else "here"
        pre = _balancer("testbed", period) if how == "balanced" else ""
        return pre + "earth adder %d %s\n" % (s["adder"], place)
    side, steps = s["wator"]
    wp = s["wator_period"]
    how, _, food = how.partition("-")  # "-double": the A/B run whose food is software doubles
    # balanced starts where random does (the same seed deals the regions alike): what it gains
    # over random is the balancer's; none keeps the seed's Figure 54 regions, unbalanced
    place = how if how in ("random", "strips", "here") else "random" if how == "balanced" else "regions"
    pre = ""
    if how in ("balanced", "none"):
        pre = "earth dgl @* +rqlen +links\n" + BALANCER % ("testbed" if how == "balanced" else "none", wp, wp, _quiet(wp), "")
    return pre + "earth wator -n %d -k 1%s %d %s\n" % (side, " -f " + food if food else "", steps, place)


# wator's A/B runs: the strips dealt one by one (a placement the report's program, a thread a
# region, could not make), and random and balanced with the food grown in software doubles in
# every cell (the work then the same in every region whatever lives there).
WATOR_AB = ("strips", "random-double", "balanced-double")
WATOR_AB_LABELS = {"strips": "random placement strip by strip (A/B)",
                   "random-double": "random placement, food in doubles (A/B)",
                   "balanced-double": "balanced, food in doubles (A/B)"}

PROGRAMS = {"compute": ["synthetic"], "comm": ["synthetic"], "mixed": ["synthetic"], "adder": ["adder"], "wator": ["wator"]}


def run_time(text, case):
    """Seconds the program says it took, or None."""
    pats = {"adder": r"adder: \d+ additions \(\w+\) correct in (\d+) ms", "wator": r"wator: \d+ steps \(\w+\) in (\d+) ms"}
    m = re.search(pats.get(case, r"synthetic: \d+ [\w -]+ \(\w+\) done in (\d+) ms"), text)
    return int(m.group(1)) / 1000.0 if m else None


def parse_log(text):
    """Figure 41's log from the master's console; None if it does not parse."""
    t, tim, lnk, rql, reqs, moves, arrivals = None, [], [], [], [], [], []
    for line in text.splitlines():
        if line.startswith("TIM: "):
            t = int(line.split()[1])
        elif line.startswith(("LNK: ", "RQL: ", "NTH: ")):
            m = re.match(r"(\w+): ([\d ]+) \(av -?\d+\)$", line)
            if not m or t is None:
                return None
            vals = [int(v) for v in m.group(2).split()]
            if m.group(1) == "LNK":
                lnk.append(vals)
            else:
                rql.append(vals)
                tim.append(t / 1000.0)
        elif line.startswith("move work from "):
            m = re.match(r"move work from (\d+) to (\d+) to (relieve processor \d+|quieten link (\d+)/\d+-\d+) \(mig #(\d+)\)", line)
            if not m:
                return None
            reqs.append({"t": t, "from": int(m.group(1)), "to": int(m.group(2)), "link": m.group(4) is not None,
                         "n": int(m.group(5))})
        elif line.startswith("mig #"):
            m = re.match(r"mig #(\d+): 0x([0-9a-f]+) leaves (\d+) for (\d+)", line)
            if m:
                moves.append({"t": t, "n": int(m.group(1)), "tid": int(m.group(2), 16), "from": int(m.group(3)),
                              "to": int(m.group(4))})
            m = re.match(r"mig #(\d+): 0x([0-9a-f]+) arrives at (\d+), time (\d+)", line)
            if m:
                arrivals.append(int(m.group(4)))
    summ = re.search(r"balancer: (\d+) requests, (\d+) migrations. (.*)", text)
    if not summ or not rql or len(lnk) != len(rql) or any(len(r) != len(rql[0]) for r in rql):
        return None
    return {"t": np.array(tim), "rql": np.array(rql), "lnk": np.array(lnk), "reqs": reqs, "moves": moves,
            "requests": int(summ.group(1)), "moved": int(summ.group(2)), "summary": summ.group(0),
            "even": "within" in summ.group(3) and "never" not in summ.group(3)}


def parent_moves(log):
    """Moves of a program's main thread (slot 0) while it was still a parent. Once the program has
    stopped its elements the main thread has no children and Figure 40 may move it: such a move is
    followed, to the end of the log, by samples with no thread in any ready queue. The links are
    not quiet then: the moved thread fetches its pages from its old board and the ended elements'
    boards give their pages back (the reduced adder run once moved its main thread at its end with
    249 messages on earth-air and 39 on earth-fire in the next sample)."""
    def after_the_work(t_ms):
        later = log["t"] * 1000.0 > t_ms
        return bool(later.any()) and not log["rql"][later].any()
    return [m for m in log["moves"] if m["tid"] & 63 == 0 and not after_the_work(m["t"])]


# Runs whose boards count their cycles by instruction address (testbed's trace.cycle_profile; the
# counts change nothing a run does): the communication-bound pairs' CPU a message by function
# (sequential: earth; random: the five slaves), and wator's instructions a step by mode.
PROFILED = {("comm", "seq"): ("earth",), ("comm", "random"): tuple(SLAVE_NAMES), ("wator", "here"): ("earth",)}


def random_deals(runs):
    """The random placement's times over every deal run (TOS's and the seeded ones), or [] when
    the case ran no seeded deal; None in it when a run did not finish."""
    seeded = sorted(h for h in runs if h.startswith("random-s"))
    return [runs[h]["time"] for h in ["random"] + seeded] if seeded else []


def run_case(case, size, sim, out):
    """Simulate the case's runs; returns {how: {"time", "log"}}."""
    hows = ("none", "random", "balanced") if case == "wator" else ("seq", "random", "balanced")
    if case == "comm":
        hows += ("nolink", FAST) + tuple("random-s%d" % k for k in COMM_DEALS)
    if case == "wator":  # the whole ocean on earth alone: the work of a step, for its cost per cell
        hows += WATOR_AB + ("here",)
    runs = {}
    for how in hows:
        d = os.path.join(out, case + "-" + how)
        progs = PROGRAMS[case] + (["balancer", "dgl"] if how.partition("-")[0] in ("balanced", "none", "nolink") else [])
        boards = PROFILED.get((case, how))
        sim(progs, rc_case(case, size, how), d,
            **({"sets": ('trace.cycle_profile="%s"' % ",".join(boards),)} if boards else {}))
        earth = runner.console(d, "earth")
        # the program starts on earth, but once its children have ended the balancer may move its
        # main thread (Figure 40 moves threads without children), which then prints its result on
        # the board it is on: earth's console first, then the other slaves'
        slaves = earth + "".join(runner.console(d, b) for b in ("air", "fire", "water", "space"))
        runs[how] = {"time": run_time(slaves, case), "log": runner.console(d, "master"), "earth": earth, "dir": d}
    return runs


FIGS = {  # case: (ready queues, links, migrations) figure numbers of the balanced run
    "compute": (42, 43, 44), "comm": (45, 46, 47), "mixed": (48, None, None), "adder": (50, 51, 52), "wator": (56, 57, 58)}


def _rql_fig(rep, num, name, what, log):
    rep.fig(num, name, "length of the ready queue on each slave, %s" % what,
            [{"xlabel": "program time (s)", "ylabel": "threads in the ready queue", "series": [
                {"x": log["t"], "y": log["rql"][:, k], "label": SLAVE_NAMES[k], "style": "step"}
                for k in range(log["rql"].shape[1])]}])


def _lnk_fig(rep, num, name, what, log):
    rep.fig(num, name, "communications on each link per sample, %s" % what,
            [{"xlabel": "program time (s)", "ylabel": "messages per sample", "series": [
                {"x": log["t"], "y": log["lnk"][:, i], "label": LINK_NAMES[i], "style": "step"}
                for i in range(log["lnk"].shape[1])]}])


def _mig_fig(rep, num, name, what, log, period_s):
    series = []
    for m in log["moves"]:
        t = m["t"] / 1000.0
        series.append({"x": [t, t + 0.6 * period_s], "y": [m["from"], m["to"]], "style": "line", "color": "C0"})
    rep.fig(num, name, "thread migrations, %s (a line from the source slave to the destination, later to the right)" % what,
            [{"xlabel": "program time (s)", "ylabel": "slave (1 earth .. 5 space)", "series": series}])


def analyse_case(rep, case, runs, size):
    s = SIZES[size]
    period = s["wator_period"] if case == "wator" else s["period"]
    seed = SEED9[case]
    hows = ("none", "random", "balanced") if case == "wator" else ("seq", "random", "balanced")
    labels = {"seq": "sequential", "none": "regions, no balancing", "random": "random placement", "balanced": "balanced"}
    full = size == "full"
    for i, how in enumerate(hows):
        sd = seed[i] if full else None
        if case == "wator" and how == "none":
            sd = None
        rep.row("Table 9, %s: %s" % (TITLE9[case], labels[how]), sd, runs[how]["time"], "s")
    if "nolink" in runs:
        rep.row("Table 9, %s: balanced with the link rule off (A/B)" % TITLE9[case], None, runs["nolink"]["time"], "s",
                "balancer -l 1000000: requests for ready-queue imbalance only")
    if FAST in runs:
        fl = parse_log(runs[FAST]["log"]) if runs[FAST].get("log") else None
        rep.row("Table 9, %s: balanced with the balancer's periods halved (A/B)" % TITLE9[case], None, runs[FAST]["time"],
                "s", "balancer -p %d -m %d%s" % (period // 2, period // 2,
                                                 "; %d requests, %d threads moved" % (len(fl["reqs"]), len(fl["moves"]))
                                                 if fl is not None else ""))
    deals = random_deals(runs)
    if deals and None not in deals:
        rep.row("Table 9, %s: random placement, mean of the deals" % TITLE9[case], None,
                round(float(np.mean(deals)), 2), "s", "%d deals, TOS's and `random SEED` for seeds %s: %s s; sd %.2f s"
                % (len(deals), ", ".join(str(k) for k in COMM_DEALS), ", ".join("%.1f" % t for t in deals),
                   float(np.std(deals))))
        # (the order against balanced is the claims ledger's, at the report's size: t9-comm)

    for how in WATOR_AB if case == "wator" else ():
        rep.row("Table 9, %s: %s" % (TITLE9[case], WATOR_AB_LABELS[how]), None, runs[how]["time"], "s")
    if "here" in runs:
        rep.row("wator: the whole ocean on earth alone (its work, for the cost of a step)", None, runs["here"]["time"], "s",
                "no balancer; the report has no such run")
    ran = hows + (WATOR_AB if case == "wator" else ()) + tuple(h for h in runs if h.startswith("random-s"))
    ok = all(runs[h]["time"] for h in ran)
    rep.check("%s: every run finished" % case, ok, ", ".join("%s %s s" % (h, runs[h]["time"]) for h in ran))
    busy = {h: slaves_busy(runs[h]["dir"]) for h in ran}
    rep.check("%s: every run's testbed.log gives each slave's working and stopped clocks (the busy shares)" % case,
              all(b is not None and 0 < min(b[0]) and max(b[0]) <= b[1] for b in busy.values()),
              ", ".join("%s %s" % (h, "missing" if b is None else "/".join("%.1f" % x for x in b[0]) + " of %.1f s" % b[1])
                        for h, b in busy.items()))
    if case == "comm":  # Table 6's message alone is taken at the size the program says
        sizes = [message_bytes({h: runs[h]}) for h in hows]
        rep.check("comm: every run's program says its messages' size (synthetic.c MSG)",
                  None not in sizes and len(set(sizes)) == 1, ", ".join("%s %s" % (h, b) for h, b in zip(hows, sizes)))
    for (pc, ph), boards in PROFILED.items():
        if case == pc:
            # every instruction a board committed but its last (whose end the profile never saw), once:
            # a run rolled back and done again in exact mode is counted as it happened, not twice
            profs = [profiled_counts(runs[ph]["dir"], b) for b in boards]
            rep.check("%s: each cycle profile of the %s run holds each instruction its board ran once (all but "
                      "the last) and its cycles (all but the last instruction's and the reset's)"
                      % (case, {"seq": "sequential", "here": "whole-ocean"}.get(ph, ph)),
                      all(profile_holds_run(p) for p in profs),
                      "; ".join("%s: %s" % (b, "no profile, or no counts in testbed.log" if p is None else
                                            "%d of %d instructions, %d of %d cycles" % (p[0][1], p[1][1], p[0][0], p[1][0]))
                                for b, p in zip(boards, profs)))
    for h in ran:
        if "WRONG" in runs[h]["earth"]:
            rep.check("%s %s: the program's result is right" % (case, h), False, "its console says WRONG")
    if case == "compute" and ok:
        rep.check("balancing makes the compute-bound run faster than sequential", runs["balanced"]["time"] < runs["seq"]["time"],
                  "%.1f s against %.1f s" % (runs["balanced"]["time"], runs["seq"]["time"]))
    log = parse_log(runs["balanced"]["log"])
    rep.check("%s: the balancer's log parses (TIM / LNK / RQL lines, requests, summary)" % case, log is not None,
              "master's console of the balanced run")
    if log is None:
        return None
    times = [r["t"] for r in log["reqs"]]
    gaps = np.diff(times) if len(times) > 1 else np.array([])
    rep.check("%s: no request more often than the migration period" % case, len(gaps) == 0 or gaps.min() >= period,
              "%d requests, smallest gap %s ms (period %d ms)" % (len(times), int(gaps.min()) if len(gaps) else "-", period))
    parents = parent_moves(log)
    rep.check("%s: no thread with children moved" % case, not parents,
              "%d migrations, none of a program's main thread" % len(log["moves"]) if not parents else "moved %s" % parents)
    links = sum(1 for r in log["reqs"] if r["link"])
    rep.row("%s: requests (link overloads among them)" % case, None, "%d (%d)" % (log["requests"], links), "")
    rep.row("%s: threads moved at once by the slaves" % case, None, log["moved"], "")
    if case == "compute" and not full:
        rep.check("compute: the slaves' ready queues came within 2 of the mean", log["even"], log["summary"])
    rq, lk, mg = FIGS[case]
    what = {"compute": "20 compute-bound threads", "comm": "communication-bound pairs", "mixed": "mixed pairs",
            "adder": "adder", "wator": "wator with load balancing"}[case]
    _rql_fig(rep, rq, "fig%d_ready_queues" % rq, what, log)
    if lk:
        _lnk_fig(rep, lk, "fig%d_links" % lk, what, log)
    if mg:
        _mig_fig(rep, mg, "fig%d_migrations" % mg, what, log, period / 1000.0)
    if case == "wator":
        base = parse_log(runs["none"]["log"])
        rep.check("wator: the unbalanced run's log parses", base is not None, "policy none")
        if base is not None:
            _rql_fig(rep, 54, "fig54_ready_queues_unbalanced", "wator without load balancing", base)
            _lnk_fig(rep, 55, "fig55_links_unbalanced", "wator without load balancing", base)
        fish = [(int(a), [int(v) for v in b.split()]) for a, b in
                re.findall(r"wator: step (\d+) fish \d+ sharks \d+ \(fish by region ([\d ]+)\)", runs["none"]["earth"])]
        if fish:
            steps = [f[0] for f in fish]
            regions = np.array([f[1] for f in fish])
            rep.fig(53, "fig53_fish", "fish in each region during the wator simulation",
                    [{"xlabel": "simulation step", "ylabel": "fish", "series": [
                        {"x": steps, "y": regions[:, r], "label": "region %d" % (r + 1), "style": "line"}
                        for r in range(regions.shape[1])]}])
    return log


CASES = ["compute", "comm", "mixed", "adder", "wator"]


def board_counts(run_dir):
    """The run's testbed.log: each board's (instructions, cycles, cycles stopped in TOS's idle
    loop) by name, and the clock in Hz; None if it does not say."""
    try:
        text = open(os.path.join(run_dir, "testbed.log")).read()
    except OSError:
        return None
    mhz = runner.clock_mhz_of(text)
    boards = dict((b, (int(i), int(c), int(st))) for b, i, c, st in
                  re.findall(r"^board (\w+) .*? (\d+) instructions, (\d+) cycles \((\d+) stopped\)", text, re.M))
    return (boards, mhz * 1e6) if mhz and boards else None


def slaves_busy(run_dir):
    """Seconds each slave's CPU worked (its cycles less those it spent stopped) and the run's
    length; None if the run's testbed.log does not say."""
    counts = board_counts(run_dir)
    if counts is None or any(n not in counts[0] for n in SLAVE_NAMES):
        return None
    boards, hz = counts
    return [(boards[n][1] - boards[n][2]) / hz for n in SLAVE_NAMES], max(boards[n][1] for n in SLAVE_NAMES) / hz


# Messages a communication-bound run sends (pairs x messages a pair), for its CPU per message.
def _messages(case, size):
    return SIZES[size]["comm"][0] * SIZES[size]["comm"][1] if case == "comm" else None


def message_bytes(runs):
    """The pairs' message size as the communication-bound runs' program printed it (synthetic.c's
    MSG), or None."""
    for r in runs.values():
        m = re.search(r"synthetic: \d+ pairs, \d+ messages of (\d+) bytes each", r.get("earth", ""))
        if m:
            return int(m.group(1))
    return None


def message_alone(section3_md, msg_bytes, shown="docs/results/section3.md"):
    """One message of msg_bytes alone on a quiet machine, sender to receiver, from the same
    profile's section 3 (Table 6's fitted slope and intercept, local and remote): text, or None."""
    if not msg_bytes:
        return None
    try:
        text = open(section3_md).read()
    except OSError:
        return None
    fit = {}
    for kind in ("local", "remote"):
        sl = re.search(r"\| %s communication, slope \(Table 6\) \| [^|]+\| ([\d.]+) ms/K" % kind, text)
        ic = re.search(r"\| %s communication, intercept \(Table 6\) \| [^|]+\| ([\d.]+) ms" % kind, text)
        if not sl or not ic:
            return None
        fit[kind] = float(sl.group(1)) * msg_bytes / 1024.0 + float(ic.group(1))
    return ("one %d-byte message alone, sender to receiver (Table 6's fits, %s): local %.2f ms, remote %.2f ms"
            % (msg_bytes, shown, fit["local"], fit["remote"]))


def cpu_by_function(run_dir, messages, kernel_elf, boards=("earth",), top=8):
    """The CPU a message of the boards' cycle profiles summed (earth's in a run whose every thread
    is there, the five slaves' in a random run), by kernel function and the programs' user mode:
    text, or None when the run lacks a profile or its log."""
    from . import kernel_profile as KP
    counts = board_counts(run_dir)
    if counts is None or any(b not in counts[0] for b in boards) or not kernel_elf:
        return None
    by = collections.Counter()
    try:
        for b in boards:
            by.update(KP.cycles_by_function(os.path.join(run_dir, b + ".cycles"), kernel_elf)[0])
    except KP.ProfileError:
        return None
    total = sum(by.values())
    idle = by.pop("cpu_idle", 0)
    ms = lambda c: 1000.0 * c / counts[1] / messages
    shown = by.most_common(top)
    rest = total - idle - sum(c for _, c in shown)
    who = "earth's" if boards == ("earth",) else "the slaves'"
    return ("%s CPU a message by function (%s cycle profile%s, trace.cycle_profile): %s, the other %d functions "
            "%.2f ms (%.2f ms in all; %.2f ms idle, not in it)"
            % (who, "its" if len(boards) == 1 else "their", "" if len(boards) == 1 else "s",
               ", ".join("%s %.2f ms" % ("user mode (the pairs' loops and library)" if f == KP.USER else f, ms(c))
                         for f, c in shown), len(by) - len(shown), ms(rest), ms(total - idle), ms(idle)))


def user_by_file(profile, kernel_elf, program):
    """A cycle profile's user-mode instructions by the source file of `program`'s function that
    holds each pc (the program the board's user mode ran): a Counter, or None without them."""
    from . import kernel_profile as KP
    if not kernel_elf or not program or not os.path.exists(program):
        return None
    try:
        by = KP.instructions_by_function(profile, kernel_elf, program=program)[0]
        files = KP.source_files(program)
    except KP.ProfileError:
        return None
    out = collections.Counter()
    for f, n in by.items():
        if f.startswith("user: "):
            out[files.get(f[len("user: "):], "(no line information)")] += n
    return out or None


def profiled_counts(run_dir, board="earth"):
    """(the board's profile's (cycles, instructions), its (cycles, instructions) from testbed.log),
    or None when the run has no profile or no counts."""
    from . import kernel_profile as KP
    counts = board_counts(run_dir)
    if counts is None or board not in counts[0]:
        return None
    try:
        m = KP.mode_totals(os.path.join(run_dir, board + ".cycles"))
    except KP.ProfileError:
        return None
    return (m["S"][0] + m["U"][0], m["S"][1] + m["U"][1]), (counts[0][board][1], counts[0][board][0])


def profile_holds_run(prof):
    """A cycle profile (profiled_counts' answer) holds every instruction its board committed but
    the last, each once, and its cycles but the last instruction's and the reset's (< 1000)."""
    return prof is not None and prof[0][1] == prof[1][1] - 1 and 0 <= prof[1][0] - prof[0][0] <= 1000


def busy_column(case, runs, size):
    """Each run's slaves busy (share of the run they were not stopped idle), and for the
    communication-bound pairs the slaves' CPU per message: what a run's time is made of."""
    out = []
    n = _messages(case, size)
    for how in ("seq", "none", "random", "balanced", "nolink") + (WATOR_AB if case == "wator" else ()):
        b = slaves_busy(runs[how]["dir"]) if how in runs and runs[how].get("dir") else None
        if b is None:
            continue
        secs, length = b
        part = "%s %s%%" % (how, "/".join("%.0f" % (100.0 * s / length) for s in secs))
        if n:  # sequential: earth's CPU (every thread is there); else the five slaves'
            part += " (%.1f ms of %s CPU a message)" % (1000.0 * (secs[0] if how == "seq" else sum(secs)) / n,
                                                         "earth's" if how == "seq" else "the slaves'")
        out.append(part)
    if not out:
        return None
    text = "slaves busy (e/a/f/w/s, share of the run not idle in STOP): " + ", ".join(out)
    if n and size == "full":
        seed = SEED9[case]
        text += ("; the report's times, were its messages as many as ours, allow at most %.1f ms (sequential, "
                 "earth alone) and %.1f ms (random, five slaves) of CPU a message"
                 % (1000.0 * seed[0] / n, 1000.0 * 5 * seed[1] / n))
    return text


def pages_asked(run_dir):
    """Pages the five slaves asked a home for in a run (each board's end-of-run "pages asked for"
    line, kernel/main.c say_done; a board that asked none prints no line)."""
    total = 0
    for b in SLAVE_NAMES:
        m = re.search(r"tos: \w+: pages asked for (\d+);", runner.console(run_dir, b))
        total += int(m.group(1)) if m else 0
    return total


def measured(case, runs, size, alone=None, kernel_elf=None):
    """What this run measured about the case, for Table 9's last column: the balancer's work and the
    load it saw (from Figure 41's log of the balanced run), and wator's cost per step."""
    out = []
    if case == "wator":
        steps = SIZES[size]["wator"][1]
        per = ["%s %.0f ms" % (h, 1000.0 * runs[h]["time"] / steps) for h in ("none", "random", "balanced") + WATOR_AB
               if runs.get(h, {}).get("time")]
        out.append("a step takes %s (seed: random 9,000 ms, balanced 5,500)" % ", ".join(per))
        here = runs.get("here", {})
        counts = board_counts(here["dir"]) if here.get("dir") else None
        e = counts[0].get("earth") if counts else None
        # earth's instructions and working cycles in the whole-ocean run, and its clock in MHz
        earth = (e[0], e[1] - e[2], "%g" % (counts[1] / 1e6)) if e else None
        strips = re.search(r"wator: strips on boards((?: \d+)+)", here.get("earth", ""))
        if here.get("time") and earth and strips:
            side = SIZES[size]["wator"][0]
            cells = steps * side * side
            out.append("the whole ocean on earth alone (all %d strips, their exchanges local): %.0f ms a step; earth "
                       "executed %.0f instructions a cell a step (%.1f cycles each at %s MHz, boot and exchanges "
                       "included); the report's 9 s a step on five 1.2 MIPS slaves is up to %.0f instructions a cell"
                       % (len(strips.group(1).split()), 1000.0 * here["time"] / steps, earth[0] / cells,
                          earth[1] / earth[0], earth[2], 9.0 * 5 * 1.2e6 / (side * side)))
            from . import kernel_profile as KP
            try:
                modes = KP.mode_totals(os.path.join(here["dir"], "earth.cycles"))
            except KP.ProfileError:
                modes = None
            if modes:
                out.append("of them (earth's cycle profile) %.0f in user mode, the strips' update and their library "
                           "calls, and %.0f in the kernel, their exchanges and the main loop (%.0f%% of earth's cycles "
                           "in user mode)" % (modes["U"][1] / cells, modes["S"][1] / cells,
                                              100.0 * modes["U"][0] / max(1, modes["U"][0] + modes["S"][0])))
                byfile = user_by_file(os.path.join(here["dir"], "earth.cycles"), kernel_elf,
                                      os.path.join(os.path.dirname(kernel_elf), "wator.elf") if kernel_elf else None)
                if byfile:
                    shown = byfile.most_common(4)
                    out.append("user mode by source file (wator's image; instructions a cell a step): %s, the rest %.0f"
                               % (", ".join("%s %.0f" % (f, n / cells) for f, n in shown),
                                  (sum(byfile.values()) - sum(n for _, n in shown)) / cells))
        asked = {h: pages_asked(runs[h]["dir"]) for h in ("none", "random", "balanced") + WATOR_AB
                 if runs.get(h, {}).get("dir")}
        if asked:  # remote paging: what the strips asked earth (their process's home) for
            out.append("pages the slaves asked their home for (their end-of-run lines): %s"
                       % ", ".join("%s %d" % (h, n) for h, n in asked.items()))
        regions = re.search(r"\(fish by region ([\d ]+)\)", runs.get("none", {}).get("earth", ""))
        nreg = len(regions.group(1).split()) if regions else None
        for h in ("none", "random", "strips"):  # which regions share a slave: a slave of one region has its season
            m = re.search(r"wator: strips on boards((?: \d+)+)", runs.get(h, {}).get("earth", ""))
            if m and nreg:
                on = [int(b) for b in m.group(1).split()]
                per = ["%s %s" % (SLAVE_NAMES[b - 1][0], "".join(str(t * nreg // len(on) + 1) for t, x in enumerate(on) if x == b) or "-")
                       for b in range(1, 6)]
                out.append("%s: the region of each strip on each slave, a digit a strip, %s" % (h, " / ".join(per)))
    log = parse_log(runs["balanced"]["log"]) if runs.get("balanced", {}).get("log") else None
    if log is not None and len(log["rql"]):
        rq = log["rql"].mean(axis=0)
        earth_links = [i for i, n in enumerate(LINK_NAMES) if n.startswith("1-")]
        lk = log["lnk"].sum(axis=0)
        tot = lk.sum()
        out.append("balanced: mean ready queue %s; %d requests (%d for links), %d threads moved; %.0f%% of the "
                   "messages on earth's links"
                   % (" / ".join("%s %.1f" % (SLAVE_NAMES[k][0], v) for k, v in enumerate(rq)), log["requests"],
                      sum(1 for r in log["reqs"] if r["link"]), log["moved"], 100.0 * lk[earth_links].sum() / tot if tot else 0))
    nl = parse_log(runs["nolink"]["log"]) if runs.get("nolink", {}).get("log") else None
    if nl is not None and runs["nolink"].get("time"):
        out.append("A/B, the link rule off: %.1f s, mean ready queue %s, %d requests, %d threads moved"
                   % (runs["nolink"]["time"], " / ".join("%s %.1f" % (SLAVE_NAMES[k][0], v) for k, v in enumerate(nl["rql"].mean(axis=0))),
                      nl["requests"], nl["moved"]))
    busy = busy_column(case, runs, size)
    if busy:
        out.append(busy)
    if busy and alone and _messages(case, size):
        out.append(alone)
    for how in ("seq", "random"):
        boards = PROFILED.get((case, how))
        prof = (cpu_by_function(runs[how]["dir"], _messages(case, size), kernel_elf, boards)
                if boards and runs.get(how, {}).get("dir") else None)
        if prof:
            out.append("%s: %s" % (how, prof))
    return "; ".join(out) if out else "-"


def table9(results, size, alone=None, kernel_elf=None):
    """Table 9 as markdown, seed beside simulated, and what the run measured about each case."""
    out = ["| application | seed: sequential / random / balancing (s) | simulated: sequential / random / balancing (s) | measured in this run |",
           "|---|---|---|---|"]
    f = lambda v: "%.1f" % v if isinstance(v, (int, float)) else "-"
    for case in CASES:
        if case not in results:
            continue
        runs = results[case]
        sim = [runs.get("seq", {}).get("time"), runs["random"]["time"], runs["balanced"]["time"]]
        seed = SEED9[case]
        base = sim[0] if sim[0] else sim[1]
        pct = lambda v: " (%d%%)" % round(100 * v / base) if isinstance(v, (int, float)) and base else ""
        flag = any(isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(b / a - 1) > 0.25
                   for a, b in zip(seed, sim)) and size == "full"
        out.append("| %s | %s | %s%s | %s |" % (TITLE9[case], " / ".join(f(v) for v in seed),
                                               " / ".join(f(v) + pct(v) for v in sim), " **>25%**" if flag else "",
                                               measured(case, runs, size, alone, kernel_elf)))
    note = ("" if size == "full" else "\nReduced size: the runs are shorter than the report's, so only the shape compares.\n")
    return "\n".join(out) + "\n" + note


def migration_bound(section3_md, slice_ms, wait_slices, shown="docs/results/section3.md"):
    """Section 4.2.2's lower bound on the migration period, from our own section 3 numbers (the
    generated docs/results/section3.md): a request's flight (a focus's, the same small message)
    plus a slice on each side for the send and receive phases, the thread's migration plus a
    slice, and the slices a request may wait for a candidate. Markdown, or None."""
    try:
        text = open(section3_md).read()
    except OSError:
        return None
    f = re.search(r"\| focus flight \(Figure 13\) \| [^|]+\| ([\d.]+) ms", text)
    m = re.search(r"\| thread migration \(Table 6, Figure 26\) \| [^|]+\| ([\d.]+) ms", text)
    if not f or not m:
        return None
    flight, mig = float(f.group(1)), float(m.group(1))
    request, move, wait = flight + 2 * slice_ms, mig + slice_ms, wait_slices * slice_ms
    return ("The migration period's lower bound (section 4.2.2), from our section 3 numbers (%s: "
            "focus flight %.2f ms, thread migration %.2f ms), the %d ms slice and a request's wait of %d slices "
            "(tos.toml reconf_wait_ticks): request %.1f + migration %.1f + waiting %d = **%.1f ms** (the seed: 41.5 + 28.4 + "
            "500 = 569.9 ms). The case studies' periods (1 s; wator 10 s) are above it.\n"
            % (shown, flight, mig, slice_ms, wait_slices, request, move, wait, request + move + wait))
