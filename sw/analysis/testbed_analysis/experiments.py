"""The experiments of seed 000 section 3, each one simulation (overflow: one per trial) of the
Testbed running Appendix A's programs, analysed into the report's figures and tables.

Every seed number below is the report's (section 3.3 and Table 6), never an input to the
model: the model's numbers come from the 68010 model running TOS, the Centrenet and monitor
models, and nothing else. A "K" of message length is 1000 bytes, as in Figures 24 and 25
(y = 1.95e-3 * x + ..., x in bytes)."""
import os
import re

import numpy as np

from . import fsm, perfetto, plots, runner, stats
from .trace import BOARD_NAMES, SLAVE_NAMES, board_name, read  # SLAVE_NAMES: balance.py takes it from here

SEED = {
    "local_slope": 1.95, "local_intercept": 1.025, "local_bounds": 0.275,
    "timer_blip": 0.25,
    "remote_sndr_service": 1.2, "remote_rcvr_service": 0.45,
    "rtr_service_1k": 4.5, "msg_service_1k": 3.5,
    "focus_flight": 1.5, "rtr_flight": 1.5, "pure_flight_1k": 3.0, "msg_queued_max": 20.0,
    "remote_slope": 2.77, "remote_intercept": 7.35, "remote_bounds": 0.35,
    "mig_pack": 3.4, "mig_flight": 2.5, "mig_unpack": 2.5, "migration": 8.4,
    "page_fault_to_req": 2.0, "page_flight": 12.0, "page_total": 16.9, "page_min": 13.9, "page_max": 32.2,
    "mp_local_lo": 1.0, "mp_local_hi": 3.0, "mp_remote_lo": 10.0, "mp_remote_hi": 130.0,
    "mp_phase_ends": [3.0, 5.5, 8.0, 11.0, 13.0, 15.0, 18.5],
    "rate_ok": 1129.0, "rate_lost": 1146.0, "rate_per_slave": 220.0,
}

# The latency experiments need every event: the logger keeps the words in RAM (-r) and orders
# them after the run. Section 3.3.7's logger (merging and logging each pair to a file as it
# comes) sustains about a thousand pairs a second, less than these experiments make (the overflow
# experiment measures it, with OVERFLOW_LOGGER).
LOGGER = "master logger -r -q 400 -o monitor.raw &\n"
OVERFLOW_LOGGER = "master logger -q 400 -o monitor.raw &\n"

# Repetitions of one size served the same way differ by a few µs (where the 68010 stands against
# the monitor's clock); the two ways of serving a send differ by the receive's service (Figure 10
# lower, hundreds of µs). Within this much, two repetitions count as the same.
SAME_MODE_MS = 0.02

# name -> (programs, rc for (size), what it reproduces)
SIZES = {
    "full": {"migration": (60, 100), "local": (5000, 50, 10), "remote": (5000, 100, 1), "busy": (5000, 500, 1, 25000),
             "multi-phase": (10, 5000, 1000), "overflow_ms": 5000,
             "overflow_rates": [10, 25, 50, 100, 200, 300, 400, 550, 700, 850, 1000, 1150, 1300, 1500, 0]},
    "reduced": {"migration": (10, 50), "local": (2100, 50, 4), "remote": (5000, 250, 1), "busy": (2100, 300, 1, 12000),
                "multi-phase": (2, 2000, 100), "overflow_ms": 3000,
                "overflow_rates": [20, 100, 0]},
}


class Report:
    """What an experiment found: rows seed vs simulated, checks, figures, notes."""

    def __init__(self, name, title, out_dir):
        self.name, self.title, self.out_dir = name, title, out_dir
        self.rows, self.checks, self.figures, self.notes = [], [], [], []
        self.lost_by_board = {}  # board -> events its SMI lost (FIFO full), set by _losses

    def row(self, what, seed, ours, unit="ms", note=""):
        ratio = (ours / seed) if (isinstance(seed, (int, float)) and isinstance(ours, (int, float))
                                  and seed and ours == ours) else None
        self.rows.append((what, seed, ours, unit, ratio, note))

    def check(self, what, ok, detail):
        self.checks.append((what, bool(ok), detail))

    def fig(self, number, name, caption, panels, **kw):
        files = plots.figure(os.path.join(self.out_dir, "figures"), name, "Figure %s: %s" % (number, caption), panels, **kw)
        self.figures.append((number, os.path.relpath(files[0], self.out_dir), caption))

    def ok(self):
        return all(c[1] for c in self.checks)

    def markdown(self, fig_prefix=None, level=2):
        h = "#" * level
        out = ["%s %s\n" % (h, self.title)]
        for n in self.notes:
            out.append(n + "\n")
        if self.rows:
            out.append("| quantity | seed 000 | simulated | ratio | note |\n|---|---|---|---|---|")
            for what, seed, ours, unit, ratio, note in self.rows:
                f = lambda v: ("%.3g %s" % (v, unit)).strip() if isinstance(v, (int, float)) and v == v else (str(v) if v is not None else "-")
                r = "%.2f" % ratio if ratio is not None else "-"
                flag = " **>25%**" if ratio is not None and abs(ratio - 1) > 0.25 else ""
                out.append("| %s | %s | %s | %s%s | %s |" % (what, f(seed), f(ours), r, flag, note))
            out.append("")
        if self.checks:
            out.append("Checks:\n")
            for what, ok, detail in self.checks:
                out.append("- %s %s: %s" % ("PASS" if ok else "**FAIL**", what, detail))
            out.append("")
        for number, path, caption in self.figures:
            p = path if fig_prefix is None else os.path.join(fig_prefix, os.path.basename(path))
            out.append("Figure %s: %s\n\n![Figure %s](%s)\n" % (number, caption, number, p))
        return "\n".join(out) + "\n"


def _losses(rep, out_dir, testbed_log):
    lost = runner.monitor_losses(testbed_log)
    rep.lost_by_board = {b: v["lost"] for b, v in lost.items() if v["lost"]}
    total = sum(v["lost"] for v in lost.values())
    written = sum(v["written"] for v in lost.values())
    master = runner.console(out_dir, "master")
    m = re.search(r"(\d+) dropped", master)
    dropped = int(m.group(1)) if m else 0
    if total or dropped:
        rep.notes.append("**The monitor lost events in this run: %d of %d at the SMIs (FIFO full)%s.** Figures that "
                         "depend on the lost events may be incomplete." % (total, written, ", %d dropped by the logger" % dropped if dropped else ""))
    else:
        rep.notes.append("Monitor: %d events written by the slaves, none lost (probe, SMI counters and the logger agree)." % written)
    return total + dropped


def _load(rep, out_dir, pairs=()):
    path = os.path.join(out_dir, "monitor.trace.txt")
    tr = read(path)
    perfetto.export(tr, os.path.join(out_dir, "trace.perfetto.json"), remote_pairs=pairs)
    if tr.wrap_gaps:
        rep.notes.append("The trace's wrap markers skip %d time(s) (an SMI FIFO was full): first on board %d at %.1f ms."
                         % (len(tr.wrap_gaps), tr.wrap_gaps[0][0], tr.wrap_gaps[0][1]))
    return tr


def _sizes(mx, step, reps):
    return [n for n in range(1, mx + 1, step) for _ in range(reps)]


def _unmatched_check(rep, reqs, where):
    """Every request closed, every release and block matched -- except on a board whose SMI lost
    events: a lost TRAP70 or COMMS leaves its request open, and the SMI does not say where in the
    stream it lost them (its wrap markers are kept), so there the count is reported, not judged."""
    bad, sr, sb = reqs.unmatched()
    boards = {r.board for r in bad} | {x[0] for x in sr} | {x[0] for x in sb}
    unexplained = sorted(b for b in boards if not rep.lost_by_board.get(b))
    why = ""
    if boards and not unexplained:
        why = "; all on board(s) whose SMI lost events (FIFO full): %s" % ", ".join(
            "board %d lost %d" % (b, rep.lost_by_board[b]) for b in sorted(boards))
    rep.check("phase extraction accounts for every communication (%s)" % where, not unexplained,
              "%d requests, %d unmatched, %d stray releases, %d stray blocks%s%s"
              % (len(reqs.all), len(bad), len(sr), len(sb),
                 "" if not bad else "; first unmatched on board %d at %.3f ms (%s)" % (bad[0].board, bad[0].t_req, bad[0].kind),
                 why))


# ---------------------------------------------------------------- 3.3.1 local
def rc_local(size):
    mx, step, reps = size
    return LOGGER + "earth dgl @earth +comms +tick\nearth local %d %d %d\nearth dgl @* -all\n" % (mx, step, reps)


def local_messages(reqs, board, n_expected):
    """local's messages: the sender's requests (second party, TRAP7 .. TRAP72) and the
    receiver's (first party, blocked until that TRAP72), in order."""
    snd = [r for r in reqs.all if r.board == board and r.kind == "second"]
    rcv = [r for r in reqs.all if r.board == board and r.kind == "blocked" and r.release_by == "TRAP72"]
    return snd[:n_expected], rcv[:n_expected]


# A timer interrupt taken inside a service enters through entry.S's `exception` (its first two
# instructions test the stacked S bit), then `from_kernel`, `intr` and `timer_intr`, and leaves by
# from_kernel's RTE.
TICK_PATH = (("exception", 2), ("from_kernel", None), ("intr", None), ("timer_intr", None))


def tick_path(out_dir, elf):
    """A kernel-mode timer interrupt's handler, in cycles a tick by part, from the run's cycle
    profile of earth (trace.cycle_profile), and the run's clock in MHz; None without a profile.
    The 68010's own exception processing is not in it: the profile counts it to the instruction
    the interrupt came after."""
    path = os.path.join(out_dir, "earth.cycles")
    if not os.path.exists(path):
        return None
    from . import kernel_profile
    parts = [(n, kernel_profile.per_entry(path, elf, n, first=f)[0]) for n, f in TICK_PATH]
    mhz = runner.clock_mhz(out_dir)
    return (parts, mhz) if mhz else None


def analyse_local(rep, tr, size, seed=SEED, tick=None):
    """tick: tick_path()'s (parts, MHz), the interrupt the blip is set against."""
    mx, step, reps = size
    sizes = _sizes(mx, step, reps)
    reqs = fsm.requests(tr)
    snd, rcv = local_messages(reqs, 1, len(sizes))
    _unmatched_check(rep, reqs, "local")
    rep.check("every message of `local` found", len(snd) == len(sizes) and len(rcv) == len(sizes),
              "%d sender and %d receiver requests for %d messages" % (len(snd), len(rcv), len(sizes)))
    n = min(len(snd), len(sizes))
    if n < 8:
        return
    x = np.array(sizes[:n], float)
    y = np.array([r.service for r in snd[:n]])
    ticks = np.array([r.ticks for r in snd[:n]])
    clean = ticks == 0
    # the timer interrupt's cost: interrupted minus uninterrupted at the same size
    base = {}
    for xi, yi, c in zip(x, y, clean):
        if c:
            base[xi] = min(yi, base.get(xi, yi))
    blips = [yi - base[xi] for xi, yi, t in zip(x, y, ticks) if t and xi in base]
    blip = float(np.median(blips)) if blips else 0.0
    ycorr = y - ticks * blip
    rep.fig(9, "fig09_local_send_service", "time to service a local send request (copy included, both threads restarted)",
            [{"xlabel": "message length (bytes)", "ylabel": "time (ms)",
              "series": [{"x": x, "y": y, "label": "sender's request TRAP7 -> TRAP72"}]}])
    yr = np.array([r.service for r in rcv[:n]])
    rep.fig(10, "fig10_local_corrected", "upper: local send service corrected for timer interrupts; lower: receive request service",
            [{"title": "send request, timer interrupts subtracted (%.3f ms each)" % blip, "xlabel": "message length (bytes)",
              "ylabel": "time (ms)", "series": [{"x": x, "y": ycorr}]},
             {"title": "receive request (TRAP7 -> TRAP70)", "xlabel": "message length (bytes)", "ylabel": "time (ms)",
              "series": [{"x": x, "y": yr}]}])
    f = stats.fit(x / 1000.0, y)
    # the majority, not the minimum: a tick that pre-empts the receiver on its way back to its
    # receive lets the sender arrive first, and that repetition's copy is the receive's service
    xs, ymed = stats.per_size_majority(*((x[clean], ycorr[clean]) if clean.sum() > 8 else (x, ycorr)), agree=SAME_MODE_MS)
    steps, verdict, why = stats.page_steps(xs, ymed)
    fline = stats.fit(np.array(xs) / 1000.0, ymed)
    rep.check("local service time grows linearly with length (r^2 > 0.9)", fline["r2"] > 0.9,
              "r^2 = %.4f of %.4f ms/K x + %.4f ms over %d sizes" % (fline["r2"], fline["slope"], fline["intercept"], len(xs)))
    rep.check("steps at each 1024-byte page boundary (Figure 10)", verdict,
              "%s; steps at %s bytes" % (why, ", ".join("%d" % s for s in steps[:12])))
    rep.fig(24, "fig24_local_bounds", "latency of a single local send between the least-squares line's bounds",
            [{"xlabel": "message length (bytes)", "ylabel": "time (ms)", "series": [{"x": x, "y": y, "label": "simulated"}],
              "lines": [(f["slope"] / 1000, f["intercept"] + f["above"], "ours: upper bound"),
                        (f["slope"] / 1000, f["intercept"] - f["below"], "ours: lower bound"),
                        (seed["local_slope"] / 1000, 1.5, "seed: 1.95e-3 x + 1.5"),
                        (seed["local_slope"] / 1000, 0.8, "seed: 1.95e-3 x + 0.8")]}])
    rep.row("local communication, slope (Table 6)", seed["local_slope"], f["slope"], "ms/K")
    rep.row("local communication, intercept (Table 6)", seed["local_intercept"], f["intercept"], "ms")
    # what sets the bounds: the message furthest from the line, its timer interrupts and how far
    # it is from the other repetitions of its size (a repetition served the other way round)
    med = dict(zip(*stats.per_size_median(x, y)))
    far = ["%s %d bytes, %d timer interrupt(s) in its service, %+.3f ms from its size's median" % (w, x[i], ticks[i], y[i] - med[x[i]])
           for w, i in zip(("above:", "below:"), extremes(f, x, y))]
    rep.row("local communication, bounds (Table 6, +-)", seed["local_bounds"], (f["above"] + f["below"]) / 2, "ms",
            "ours: +%.3f / -%.3f; furthest %s; furthest %s" % (f["above"], f["below"], far[0], far[1]))
    rep.row("timer interrupt inside a service (3.3.1/3.3.2)", seed["timer_blip"], blip, "ms",
            "%d of %d sends interrupted" % (int((ticks > 0).sum()), n))
    if tick:
        parts, mhz = tick
        cyc = sum(c for _n, c in parts)
        rep.row("the timer interrupt's handler, from the cycle profile", None, cyc / mhz / 1000.0, "ms",
                "%.0f cycles at %.3g MHz: %s; the blip above is %.2f times it (the 68010's exception "
                "processing is not in it: the profile counts it to the instruction the interrupt came after)"
                % (cyc, mhz, ", ".join("%s %.0f" % p for p in parts), blip * mhz * 1000.0 / cyc))
    rep.row("receive request service, local (Figure 10 lower)", None, float(np.mean(yr)), "ms", "seed: constant, value not given")
    rep.results = {"fit": f, "blip": blip, "sizes": x, "service": y}
    return f


# ---------------------------------------------------------------- 3.3.2 remote (+ 3.3.4 page copy)
def rc_remote(size):
    mx, step, reps = size
    return (LOGGER + "earth dgl @earth @air +comms +tick\nearth local %d %d 1\nearth dgl @earth @air +phase\n"
            "earth remote 2 %d %d %d\nearth dgl @* -all\n" % (mx, step, mx, step, reps))


def slower_everywhere(sizes, remote, local):
    """The sizes (with both times) where remote is not slower than local: none is the check."""
    return [(s, d) for s, d in zip(sizes, remote) if s in local and not d > local[s]]


def spread(v):
    return float(np.nanmax(v) - np.nanmin(v))


def extremes(f, x, y):
    """The indices of the messages furthest above and below the fit `f` (x in bytes, y in ms):
    what sets Table 6's bounds."""
    r = y - (f["slope"] * x / 1000.0 + f["intercept"])
    return int(np.nanargmax(r)), int(np.nanargmin(r))


def analyse_remote(rep, tr, size, seed=SEED):
    mx, step, reps = size
    sizes = _sizes(mx, step, reps)
    lsizes = _sizes(mx, step, 1)
    reqs = fsm.requests(tr)
    _unmatched_check(rep, reqs, "remote")
    lsnd, _ = local_messages(reqs, 1, len(lsizes))
    ocms = fsm.remote_ocms(tr, reqs, 1, 2)[: len(sizes)]
    complete = [o for o in ocms if None not in o.times().values()]
    rep.check("every remote message found with all its phases (Figure 6)", len(complete) == len(sizes),
              "%d of %d messages complete (%d found)" % (len(complete), len(sizes), len(ocms)))
    n = min(len(ocms), len(sizes))
    if n < 4:
        return
    x = np.array(sizes[:n], float)
    T = {k: np.array([o.times()[k] if o.times()[k] is not None else np.nan for o in ocms[:n]]) for k in ocms[0].times()}
    L = "message length (bytes)"
    P = lambda key, title: {"title": title, "xlabel": L, "ylabel": "time (ms)", "series": [{"x": x, "y": T[key]}]}
    rep.fig(11, "fig11_remote_requests", "service of send (upper) and receive (lower) requests over a remote channel",
            [P("sndr_service", "send request (TRAP7 -> TRAP70, focus queued)"), P("rcvr_service", "receive request (TRAP7 -> TRAP70)")])
    # Where the kernel packs the msg shows in the trace: COMMS ends the rtr's service (report
    # 3.3.2, 1994 DMA: packed into the controller's buffer there) or follows the send phase.
    packed_in_rtr = _packed_in_rtr(T)
    rtr_what = ("rtr: served in the receive phase, the msg packed into the controller's buffer there" if packed_in_rtr
                else "rtr: served in the receive phase + msg packed into Centrenet in the send phase")
    rep.fig(12, "fig12_mpc_services", "service of an incoming rtr (upper), msg (middle), focus (lower)",
            [P("rtr_service_packing", rtr_what),
             P("msg_service", "msg: every piece copied in, receiver released"),
             P("focus_service", "focus: rtr returned")])
    rep.fig(13, "fig13_mpc_flights", "flight time of msg (upper), rtr (centre), focus (lower)",
            [P("msg_flight", "msg"), P("rtr_flight", "rtr"), P("focus_flight", "focus")])
    rep.fig(14, "fig14_msg_queue_and_pure_flight", "msg queued until its send phase (upper); pure flight (lower)",
            [P("msg_queued", "rtr served -> send phase hands the msg to Centrenet"), P("pure_flight", "send phase -> msg served")])
    rep.fig(15, "fig15_total_delays", "total delay of the receiver (upper) and the sender (lower)",
            [P("receiver_delay", "sender's request -> receiver released (COMMR)"), P("sender_delay", "sender's request -> sender released (COMMS)")])
    # Table 6 and the flight checks leave out the channel's first message: it goes by advert
    # (the report ignores adverts, Figure 12) and waits for the receiver's first page copies,
    # served by earth's loop between the sender's slices; Table 6's figures are best cases.
    f = stats.fit(x[1:] / 1000.0, T["sender_delay"][1:])
    rep.fig(25, "fig25_remote_bounds", "latency of a single remote send between the least-squares line's bounds",
            [{"xlabel": L, "ylabel": "time (ms)", "series": [{"x": x, "y": T["sender_delay"], "label": "simulated"}],
              "lines": [(f["slope"] / 1000, f["intercept"] + f["above"], "ours: upper bound"),
                        (f["slope"] / 1000, f["intercept"] - f["below"], "ours: lower bound"),
                        (seed["remote_slope"] / 1000, 7.7, "seed: 2.77e-3 x + 7.7"),
                        (seed["remote_slope"] / 1000, 7.0, "seed: 2.77e-3 x + 7")]}])
    at = lambda key, kb: float(np.polyval(np.polyfit(x / 1000.0, np.nan_to_num(T[key]), 1), kb))
    mean = lambda key: float(np.nanmean(T[key]))
    rep.row("send request service, remote (Figure 11)", seed["remote_sndr_service"], float(np.nanmedian(T["sndr_service"])), "ms", "median")
    rep.row("receive request service, remote (Figure 11)", seed["remote_rcvr_service"], float(np.nanmedian(T["rcvr_service"])), "ms", "median")
    rep.row("rtr service at 1 K (Figure 12)", seed["rtr_service_1k"], at("rtr_service_packing", 1.0), "ms",
            "line at 1000 bytes; " + ("the msg packed in the rtr's service, the sender released there (COMMS)" if packed_in_rtr
                                      else "TOS packs the msg in the send phase after the rtr's service: both counted"))
    rep.row("rtr service in the receive phase", None, float(np.nanmedian(T["rtr_service"])), "ms", "median over all sizes")
    rep.row("msg service at 1 K (Figure 12)", seed["msg_service_1k"], at("msg_service", 1.0), "ms", "line at 1000 bytes")
    rep.row("focus service (Figure 12)", None, float(np.nanmedian(T["focus_service"])), "ms", "seed: constant, value not given")
    rep.row("focus flight (Figure 13)", seed["focus_flight"], float(np.nanmedian(T["focus_flight"])), "ms", "median")
    rep.row("rtr flight (Figure 13)", seed["rtr_flight"], float(np.nanmedian(T["rtr_flight"])), "ms", "median")
    rep.row("msg queued before its send phase, max (Figure 14)", seed["msg_queued_max"], float(np.nanmax(T["msg_queued"])), "ms",
            "seed: up to a 20 ms slice")
    rep.row("pure msg flight at 1 K (Figure 14)", seed["pure_flight_1k"], at("pure_flight", 1.0), "ms", "line at 1000 bytes")
    rep.row("remote communication, slope (Table 6)", seed["remote_slope"], f["slope"], "ms/K", "sender's delay, the first (advert) message left out")
    rep.row("remote communication, intercept (Table 6)", seed["remote_intercept"], f["intercept"], "ms")
    # what sets the bounds: the phase of the sender's delay that puts the message furthest from
    # the line (the phases in order; what follows the rtr's arrival up to the sender's release last)
    chain = ("sndr_service", "focus_flight", "focus_service", "rtr_flight")
    part = {k: T[k][1:] for k in chain}
    part["rtr_to_release"] = T["sender_delay"][1:] - sum(part[k] for k in chain)
    line = {k: stats.fit(x[1:][np.isfinite(v)] / 1000.0, v[np.isfinite(v)]) for k, v in part.items()}
    far = []
    for w, i in zip(("above:", "below:"), extremes(f, x[1:], T["sender_delay"][1:])):
        dev = {k: v[i] - (line[k]["slope"] * x[1:][i] / 1000.0 + line[k]["intercept"]) for k, v in part.items()}
        k = max(dev, key=lambda k: abs(dev[k]) if not np.isnan(dev[k]) else -1)
        far.append("%s %d bytes, its %s %.3f ms (%+.3f from that phase's line)" % (w, x[1:][i], k.replace("_", " "), part[k][i], dev[k]))
    rep.row("remote communication, bounds (Table 6, +-)", seed["remote_bounds"], (f["above"] + f["below"]) / 2, "ms",
            "ours: +%.3f / -%.3f; furthest %s; furthest %s" % (f["above"], f["below"], far[0], far[1]))
    # remote vs local at every size both sent
    lmap = {}
    for s, r in zip(lsizes, lsnd):
        lmap[s] = min(r.service, lmap.get(s, r.service))
    worse = slower_everywhere(x, T["sender_delay"], lmap)
    rep.check("remote latency exceeds local at every size", len(lmap) >= 2 and not worse,
              "%d sizes compared%s" % (len([s for s in x if s in lmap]),
                                       "" if not worse else "; not at %d bytes (%.3f vs %.3f ms)" % (worse[0][0], worse[0][1], lmap[worse[0][0]])))
    rg = lambda k: spread(T[k][1:])
    rep.check("msg flights spread wider than focus and rtr flights (Figure 13, the first message's advert left out)",
              rg("msg_flight") > rg("focus_flight") and rg("msg_flight") > rg("rtr_flight"),
              "ranges: msg %.3f ms, focus %.3f ms, rtr %.3f ms" % (rg("msg_flight"), rg("focus_flight"), rg("rtr_flight")))
    # An rtr is a few words: microseconds on the idle 10 MB/s bus. Its flight is the receiver's
    # way to its next send phase and the sender's board's to its next receive phase, both boards
    # otherwise idle (the sender blocked in its send, the receiver in its receive): a loop pass
    # each, about a millisecond. A median of several ms means a board with work is not running
    # its loop (a kernel phase stalled) or pages are moving inside the flight (a buffer shared).
    rtr_med = float(np.nanmedian(T["rtr_flight"][1:]))
    rep.check("rtr flight median under 5 ms (an idle bus and two idle boards' loop passes)", rtr_med < 5.0,
              "median %.3f ms over %d messages (the first message's advert left out)" % (rtr_med, n - 1))
    rep.page = analyse_pages(rep, tr, "quiet machine: the receiver's pages copied from earth to air", seed,
                             send_service=float(np.nanmedian(T["sndr_service"])))
    rep.results = {"fit": f, "T": T}
    return f


def _slowest_copy(tr, pcs):
    """Where the slowest page copy's time went at its home, from the home's own events: the
    longest stretch without one while the request waited (a user thread in its slice: the loop
    serves messages between slices), and how long the page its service queued waited for the
    home's next send phase (the loop sends, receives, then runs a thread: section 3.2.1)."""
    p = max(pcs, key=lambda c: c.times()["total"])
    if p.t_home is None or p.t_sent is None:
        return "the slowest: %.1f ms, its service at the home not found in the trace" % p.times()["total"]
    home = tr.on(p.home)
    during = [e.t for e in home if p.t_sent <= e.t <= p.t_home]
    quiet = max((b - a for a, b in zip([p.t_sent] + during, during + [p.t_home])), default=0.0)
    send = next((e.t for e in home if e.t > p.t_home and e.name == "PHASE_SEND"), None)
    return ("the slowest, %.1f ms: its request waited %.1f ms at %s, which logged no event for %.1f ms of it (no loop "
            "pass: a user thread ran); the page its service queued left with that board's next send phase, %s later"
            % (p.times()["total"], p.t_home - p.t_sent, board_name(p.home), quiet,
               "%.1f ms" % (send - p.t_home) if send is not None else "no send phase"))


def analyse_pages(rep, tr, what, seed=SEED, figure=True, send_service=None):
    """send_service: the same run's remote send request service (Figure 11), the service the
    fault's is set against."""
    pcs = [p for p in fsm.page_copies(tr) if p.t_in is not None]
    if not pcs:
        rep.notes.append("No remote page copies in this trace.")
        return None
    T = {k: np.array([p.times()[k] if p.times()[k] is not None else np.nan for p in pcs]) for k in pcs[0].times()}
    i = np.arange(1, len(pcs) + 1)
    if figure:
        rep.fig(17, "fig17_page_copy", "page flight (upper), page request flight (middle), fault to request (lower): " + what,
                [{"title": t, "xlabel": "page copy (in order)", "ylabel": "time (ms)", "series": [{"x": i, "y": T[k]}]}
                 for k, t in (("page_flight", "page located, packed, flown, thread restarted"),
                              ("request_flight", "request transmitted -> served at the home board"),
                              ("fault_to_request", "bus error -> request transmitted (the next send phase)"))])
        rep.fig(27, "fig27_page_copy_bounds", "latency of a remote page copy (bus error to thread restarted): " + what,
                [{"xlabel": "page copy (in order)", "ylabel": "time (ms)", "series": [{"x": i, "y": T["total"]}],
                  "hlines": [(seed["page_min"], "seed 13.9"), (seed["page_total"], "seed mean 16.9"), (seed["page_max"], "seed 32.2")]}])
    s = stats.summary(T["total"])
    s["parts"] = {k: float(np.nanmean(T[k])) for k in ("fault_to_request", "request_flight", "page_flight")}
    rep.row("remote page copy, mean (Table 6) [%s]" % what, seed["page_total"], s["mean"], "ms", "%d pages" % s["n"])
    rep.row("remote page copy, min (Figure 27)", seed["page_min"], s["min"], "ms")
    rep.row("remote page copy, max (Figure 27)", seed["page_max"], s["max"], "ms", _slowest_copy(tr, pcs))
    f2r, queued = float(np.nanmean(T["fault_to_request"])), float(np.nanmean(T["queued"]))
    rep.row("bus error -> page request transmitted (Figure 17)", seed["page_fault_to_req"], f2r, "ms",
            "mean: the fault's service queues the request, the board's next send phase transmits it")
    rep.row("bus error -> page request queued (the fault's service)", None, queued, "ms",
            "mean; then %.3f ms to the send phase" % (f2r - queued))
    if send_service:
        # The profile's clock is set so that TOS's code does the report's work in the report's
        # time; a service of the same loop that lands on the report's (Figure 11's send request)
        # and a fault path that does not put the difference in the fault path's own work.
        rep.row("bus error -> request transmitted, over the remote send request's service (Figure 17 over Figure 11)",
                seed["page_fault_to_req"] / seed["remote_sndr_service"], f2r / send_service, "x",
                "the send request's service here %.3f ms (seed %.3g)" % (send_service, seed["remote_sndr_service"]))
    rep.row("page flight (Figure 17)", seed["page_flight"], float(np.nanmean(T["page_flight"])), "ms", "mean")
    return s


# ---------------------------------------------------------------- 3.3.3 migration
def rc_migration(size):
    moves, ms = size
    return LOGGER + "earth dgl @* +comms +phase\nearth migrate %d %d\nearth dgl @* -all\n" % (moves, ms)


# migrate's first thread stays on earth and computes between its sends (Appendix A.3); the second
# tours the slaves, so every fifth move ends on earth, where a thread is running
MIGRATE_MAIN_BOARD = 1


def _split_by_destination(whole, T):
    """The moves in three kinds, by what their destination had to do: the first arrival on a board
    (the process's part made there: a page table cleared, vm_clear), an arrival on the board whose
    thread computes (it waits for that thread's trap or slice end, the report's 3.3.5: "delayed by
    a time-slice"), and the rest, onto a slave that is idle and holds the process already."""
    seen, first = {MIGRATE_MAIN_BOARD}, []
    for m in whole:
        first.append(m.dst not in seen)
        seen.add(m.dst)
    first = np.array(first)
    busy = np.array([m.dst == MIGRATE_MAIN_BOARD for m in whole]) & ~first
    rest = ~first & ~busy
    part = lambda sel, what: ("%s %d: mean %.2f ms (packing %.2f, flight %.2f, unpacking %.2f)" % (
        what, int(sel.sum()), T["total"][sel].mean(), T["pack"][sel].mean(), T["flight"][sel].mean(), T["unpack"][sel].mean())
        if sel.any() else "%s: none" % what)
    return "; ".join((part(first, "first arrivals on a board (its process part made)"),
                      part(busy, "onto earth, where the first thread computes"),
                      part(rest, "onto an idle slave holding the process")))


def _check_packing_alike(rep, whole, T):
    """The same thread with the same channels leaves every idle slave: its packing must cost the
    same on each. It did not when a receiver's plain focus marked its process as routing psends,
    and every later move from that board looked at all 128 channels (1994 profile: 14.3 ms on
    fire and water against 2.5 ms on air and space)."""
    by = {}
    for m, p in zip(whole, T["pack"]):
        if m.src != MIGRATE_MAIN_BOARD:
            by.setdefault(m.src, []).append(p)
    if len(by) < 2:
        return
    means = {b: float(np.mean(v)) for b, v in by.items()}
    lo, hi = min(means, key=means.get), max(means, key=means.get)
    rep.check("packing costs the same from every idle slave (the slowest board's mean within 25% of the fastest's)",
              means[hi] <= 1.25 * means[lo], "slowest %s %.2f ms, fastest %s %.2f ms" % (
                  board_name(hi), means[hi], board_name(lo), means[lo]))


def analyse_migration(rep, tr, size, seed=SEED):
    migs = fsm.migrations(tr)
    if migs is None:
        rep.notes.append("Thread migration: the event table has no MIGRATE / MIGRATE_SENT / RX_THREAD / MIGRATE_IN.")
        return None
    whole = [m for m in migs if m.t_in is not None]
    rep.check("every migration found whole in the trace (Figure 7: packing, flight, unpacking)",
              len(whole) == len(migs) == size[0], "%d of %d moves whole, %d expected" % (len(whole), len(migs), size[0]))
    if not whole:
        return None
    T = {k: np.array([m.times()[k] for m in whole], float) for k in whole[0].times()}
    _check_packing_alike(rep, whole, T)
    i = np.arange(1, len(whole) + 1)
    rep.fig(16, "fig16_migration", "thread migration: packing (upper), flight (middle), unpacking (lower)",
            [{"title": t, "xlabel": "migration (in order)", "ylabel": "time (ms)", "series": [{"x": i, "y": T[k]}],
              "hlines": [(seed[sk], "seed %.1f" % seed[sk])]}
             for k, t, sk in (("pack", "packing: locate, unlink, pack TCB + CCBs + PTEs, delete (MDisconnect)", "mig_pack"),
                              ("flight", "thread flight: queued -> the destination starts unpacking", "mig_flight"),
                              ("unpack", "unpacking: connect channels and pages, ready (MConnect)", "mig_unpack"))])
    rep.fig(26, "fig26_migration_bounds", "latency of thread migration (packing to ready on the destination)",
            [{"xlabel": "migration (in order)", "ylabel": "time (ms)", "series": [{"x": i, "y": T["total"]}],
              "hlines": [(7.9, "seed 7.9"), (seed["migration"], "seed 8.4"), (8.9, "seed 8.9")]}])
    for k, w in (("pack", "packing (Figure 16)"), ("flight", "thread flight (Figure 16)"), ("unpack", "unpacking (Figure 16)")):
        rep.row(w, seed["mig_" + k], float(np.mean(T[k])), "ms", "mean; min %.3f, max %.3f" % (T[k].min(), T[k].max()))
    s = stats.summary(T["total"])
    split = _split_by_destination(whole, T)
    rep.row("thread migration (Table 6, Figure 26)", seed["migration"], s["mean"], "ms",
            "%d moves; min %.3f, max %.3f; median %.3f; %s" % (s["n"], s["min"], s["max"], float(np.median(T["total"])), split))
    rep.results = {"migration": s, "parts": {k: float(np.mean(T[k])) for k in ("pack", "flight", "unpack")}, "split": split}
    analyse_pages(rep, tr, "stack pages a migrated thread left behind, copied when touched", seed, figure=False)
    return s


# ---------------------------------------------------------------- 3.3.5 busy
def rc_busy(size, clock_reads=False):
    """clock_reads: the A/B run, its background threads computing by reading the clock (busy -c)."""
    mx, step, reps, ms = size
    c = "-c " if clock_reads else ""
    return (LOGGER + "earth dgl @earth @air +comms +tick +phase\n"
            "earth local %d %d %d\nearth remote 2 %d %d %d\n"
            "earth busy %s2 %d 0 1 2 &\nearth busy %s2 %d 5000/2 3 4 &\n"
            "earth local %d %d %d\nearth remote 2 %d %d %d\nearth dgl @* -all\n"
            % (mx, step, reps, mx, step, reps, c, ms, c, ms, mx, step, reps, mx, step, reps))


def busy_extensions(tr, size):
    """The remote runs of a busy trace against its quiet ones. 3.3.5's worst case is a
    derivation: each of the protocol's three MPCs (focus, rtr, msg) may be held up for a slice
    on a compute-bound board, so the protocol may be extended by more than three. The same
    derivation from this run's own waits: each MPC's longest flight on the busy machine over its
    quiet median, summed. Also the protocols observed whole (the sender's request to the
    receiver's release, busy minus quiet at the same size). None if the trace lacks a run."""
    mx, step, reps, _ms = size
    sizes = _sizes(mx, step, reps)
    n = len(sizes) + 1
    ocms = fsm.remote_ocms(tr, fsm.requests(tr), 1, 2)
    quiet_r, busy_r = ocms[:len(sizes)], ocms[n:n + len(sizes)]
    if len(quiet_r) != len(sizes) or len(busy_r) != len(sizes):
        return None
    g = lambda rs, k: np.array([o.times()[k] for o in rs if o.times()[k] is not None])
    held = {k: float(np.max(g(busy_r, k)) - np.median(g(quiet_r, k))) for k in ("focus_flight", "rtr_flight", "msg_flight")}
    span = lambda rs: np.array([o.t_commr - o.t_req if o.t_commr is not None else np.nan for o in rs])
    ext = span(busy_r) - span(quiet_r)
    w = int(np.nanargmax(ext))
    return {"bound": sum(held.values()), "held": held, "worst": float(ext[w]), "worst_bytes": sizes[w],
            "mean": float(np.nanmean(ext))}


def analyse_busy(rep, tr, size, seed=SEED, tr_clock=None):
    mx, step, reps, _ms = size
    sizes = _sizes(mx, step, reps)
    reqs = fsm.requests(tr)
    snd = [r for r in reqs.all if r.board == 1 and r.kind == "second"]
    n = len(sizes) + 1
    quiet_l, busy_l = snd[:len(sizes)], snd[n:n + len(sizes)]
    ocms = fsm.remote_ocms(tr, reqs, 1, 2)
    quiet_r, busy_r = ocms[:len(sizes)], ocms[n:n + len(sizes)]
    rep.check("busy: all four runs found", len(quiet_l) == len(busy_l) == len(sizes) and len(quiet_r) == len(busy_r) == len(sizes),
              "local %d + %d, remote %d + %d of %d each" % (len(quiet_l), len(busy_l), len(quiet_r), len(busy_r), len(sizes)))
    if not busy_r or not busy_l:
        return
    g = lambda rs, k: np.array([o.times()[k] for o in rs if o.times()[k] is not None])
    ls = lambda rs: np.array([r.service for r in rs])
    x = np.array(sizes, float)
    rep.fig("9 (busy)", "fig09b_local_service_busy", "local send service on a quiet and a busy machine",
            [{"xlabel": "message length (bytes)", "ylabel": "time (ms)",
              "series": [{"x": x[:len(quiet_l)], "y": ls(quiet_l), "label": "quiet"}, {"x": x[:len(busy_l)], "y": ls(busy_l), "label": "busy"}]}])
    rep.fig("13/15 (busy)", "fig15b_remote_busy", "remote communication on a quiet and a busy machine",
            [{"title": "msg flight", "xlabel": "message length (bytes)", "ylabel": "time (ms)",
              "series": [{"x": x[:len(quiet_r)], "y": g(quiet_r, "msg_flight"), "label": "quiet"},
                         {"x": x[:len(busy_r)], "y": g(busy_r, "msg_flight"), "label": "busy"}]},
             {"title": "sender's total delay", "xlabel": "message length (bytes)", "ylabel": "time (ms)",
              "series": [{"x": x[:len(quiet_r)], "y": g(quiet_r, "sender_delay"), "label": "quiet"},
                         {"x": x[:len(busy_r)], "y": g(busy_r, "sender_delay"), "label": "busy"}]}])
    rep.notes.append("Background load (`busy`, %d ms): two compute-bound threads on each of earth and air (CPU), two threads on each of "
                     "fire and water sending 5000-byte messages to water and space every 2 ms of computing (Centrenet and "
                     "those boards' CPUs). The seed's statements are " % _ms + 
                     "qualitative; its column gives 1.0 where it says 'unchanged' and the slice-bound worst cases.")
    rl = float(np.median(ls(busy_l) / ls(quiet_l)))
    rep.row("local send service, busy / quiet (median of per-size ratios)", 1.0, rl, "x", "seed: not affected (kernel not pre-empted)")
    for k, w in (("sndr_service", "remote send request service"), ("msg_service", "msg service"),
                 ("focus_flight", "focus flight"), ("rtr_flight", "rtr flight"), ("msg_flight", "msg flight"),
                 ("sender_delay", "sender's total delay"), ("receiver_delay", "receiver's total delay")):
        qa, ba = g(quiet_r, k), g(busy_r, k)
        rep.row("%s, busy (mean)" % w, "unchanged" if "service" in k else "increases",
                float(np.mean(ba)), "ms", "quiet %.3f, busy max %.3f, busy/quiet %.2f" % (np.mean(qa), np.max(ba), np.mean(ba) / np.mean(qa)))
    first = [r for r in reqs.all if r.board == 1 and r.kind == "blocked" and r.release_by == "TRAP72"]
    fq, fb = [r.total for r in first[:len(sizes)]], [r.total for r in first[n:n + len(sizes)]]
    if fq and fb:
        rep.row("local: the first partner's total delay (receiver: request to release), busy mean", "increases",
                float(np.mean(fb)), "ms", "quiet %.3f, busy max %.3f; the sender computes 10 ms of CPU work (a calibrated loop) between messages: longer when it shares the CPU"
                % (np.mean(fq), np.max(fb)))
    e = busy_extensions(tr, size)
    # Quiet, an rtr waits for a loop pass on each board; held by a compute-bound thread's slice
    # (3.3.5) it waits up to the slice: ten times its quiet median is only reached that way.
    rq = float(np.median(g(quiet_r, "rtr_flight")))
    rep.check("an MPC waits for a compute-bound thread's slice (3.3.5): the longest busy rtr flight over ten quiet medians",
              e["held"]["rtr_flight"] > 9 * rq, "longest busy rtr flight %.1f ms, quiet median %.2f ms"
              % (e["held"]["rtr_flight"] + rq, rq))
    held = lambda e: "focus %.1f, rtr %.1f, msg %.1f" % tuple(e["held"][k] for k in ("focus_flight", "rtr_flight", "msg_flight"))
    rep.row("worst remote communication when busy (3.3.5: can exceed three 20 ms slices)", 60.0, e["bound"], "ms",
            "each MPC's longest busy flight over its quiet median, summed: %s; the protocols observed whole (request "
            "to release, busy minus quiet at the same size): worst %.1f (%d bytes), mean %.1f; the sender's own delay, "
            "released at the rtr, max %.1f" % (held(e), e["worst"], e["worst_bytes"], e["mean"], np.max(g(busy_r, "sender_delay"))))
    if tr_clock is not None:
        ab = busy_extensions(tr_clock, size)
        if ab is not None:
            rep.row("the same, the background threads computing by reading the clock (A/B: `busy -c`)", 60.0, ab["bound"], "ms",
                    "a system call every 100 rounds of their loop, each a way into the main loop for a waiting MPC before the "
                    "slice ends: %s; observed worst %.1f, mean %.1f" % (held(ab), ab["worst"], ab["mean"]))
    _unmatched_check(rep, reqs, "busy")


# ---------------------------------------------------------------- 3.3.6 multi-phase
def rc_multiphase(size):
    it, mx, pause = size
    return (LOGGER + "earth dgl @* +comms +rq\nearth dgl @earth +overflow\nearth multi-phase %d %d %d\n"
            "earth dgl @* -all\n" % (it, mx, pause))


def _setup_rows(rep, tr, t0, bounds):
    """What comes before phase 1 (Figure 19's times count from the trace's first event): the
    program starts its workers on the five boards, and each worker's first touches of its code,
    data and stack are remote page copies from earth. The rows give the setup's length, the page
    copies in it and the time those copies' threads waited, and the phases' ends counted from
    phase 1's start."""
    copies = [c for c in fsm.page_copies(tr) if c.t_in is not None and c.t_fault < bounds[0]]
    waited = sum(c.t_in - c.t_fault for c in copies) / 1000.0
    rep.row("setup before phase 1 (the trace's start to phase 1's mark: workers started, their pages copied)", None,
            (bounds[0] - t0) / 1000.0, "s", "%d remote page copies before phase 1, their threads waiting %.2f s in all"
            % (len(copies), waited))
    rep.row("end of phase 1, counted from phase 1's start", None, (bounds[1] - bounds[0]) / 1000.0, "s",
            "phases 1-7 end at %s s from phase 1's start" % ", ".join("%.1f" % ((b - bounds[0]) / 1000.0)
                                                                     for b in bounds[1:8]))


# The A/B runs of multi-phase: the seed does not give its long messages' length (MAX_MSG), so
# phase 8's latencies are also measured with long messages of these fractions of ours.
MP_LENGTHS = (5, 2)  # mx // k


def phase_latencies(tr):
    """{phase 1..8: [latency of each request made in it]} (TRAP7 to its thread's release), None
    without the eight phase marks and the end mark."""
    marks = fsm.user_marks(tr)
    starts = [t for t, k in marks if 1 <= k <= 8]
    end = [t for t, k in marks if k == 0xFF]
    if len(starts) < 8 or not end:
        return None
    bounds = starts + end
    done = [r for r in fsm.requests(tr).all if r.kind in ("blocked", "second")]
    lat = lambda r: (r.t_release if r.kind == "blocked" else r.t_served) - r.t_req
    return {k: [lat(r) for r in done if bounds[k - 1] <= r.t_req < bounds[k]] for k in range(1, 9)}


def analyse_multiphase(rep, tr, size, seed=SEED, ab=()):
    """ab: [(long message bytes, trace)] of the A/B runs (MP_LENGTHS)."""
    it, mx, pause = size
    reqs = fsm.requests(tr)
    _unmatched_check(rep, reqs, "multi-phase")
    rep.check("threads known for every request (ready-queue class)", reqs.tids_known, "rq events %s" % ("present" if reqs.tids_known else "absent"))
    marks = fsm.user_marks(tr)
    starts = [t for t, k in marks if 1 <= k <= 8]
    end = [t for t, k in marks if k == 0xFF]
    rep.check("eight phases marked", len(starts) == 8 and len(end) == 1, "%d phase marks, %d end marks" % (len(starts), len(end)))
    if len(starts) < 8 or not end:
        return
    t0 = tr.events[0].t
    bounds = starts + end
    done = [r for r in reqs.all if r.kind in ("blocked", "second")]
    lat = lambda r: (r.t_release if r.kind == "blocked" else r.t_served) - r.t_req
    # Figure 19: ready queue lengths
    rq = fsm.ready_queues(tr)
    rep.fig(19, "fig19_ready_queues", "length of the ready queue on each slave during multi-phase",
            [{"title": BOARD_NAMES[b], "xlabel": "time (s)", "ylabel": "queue length",
              "series": [{"x": [(t - t0) / 1000 for t, _ in rq[b]], "y": [v for _, v in rq[b]], "style": "step"}]}
             for b in sorted(rq) if 1 <= b <= 5], sharex=True)
    # Figure 20: OCMs completed per 50 ms
    comp = sorted([r.t_served for r in reqs.all if r.kind == "second"] +
                  [r.t_release for r in reqs.all if r.kind == "blocked" and r.release_by == "COMMR"])
    tend = max(e.t for e in tr.events)
    bins = np.arange(t0, tend + 50, 50)
    h, _ = np.histogram(comp, bins)
    rep.fig(20, "fig20_sends_per_50ms", "number of send requests (messages completed) per 50 ms",
            [{"xlabel": "time (s)", "ylabel": "sends per 50 ms", "series": [{"x": (bins[:-1] - t0) / 1000, "y": h, "style": "step"}]}])
    rep.fig(21, "fig21_send_latency", "time to service a communication request (TRAP7 to TRAP70 / TRAP72) during the program",
            [{"xlabel": "time (s)", "ylabel": "time (ms)",
              "series": [{"x": [(r.t_req - t0) / 1000 for r in done], "y": [r.service for r in done]}]}])
    ph = {k: [lat(r) for r in done if bounds[k - 1] <= r.t_req < bounds[k]] for k in range(1, 9)}
    cut = float(np.percentile(ph[8], 95)) if ph[8] else 1.0
    p8 = [v for v in ph[8] if v <= cut]
    p6 = [v for v in ph[6] if v <= cut]
    rep.fig(22, "fig22_latency_distributions",
            "distribution of communication latencies: phase 6 (local, dashed; %d of %d beyond the axis) and phase 8 "
            "(remote, its 95%%)" % (len(ph[6]) - len(p6), len(ph[6])),
            [{"xlabel": "latency (ms)", "ylabel": "requests", "xlim": (0, cut),
              "series": [{"x": p6, "style": "hist", "bins": 60, "range": (0, cut), "label": "phase 6 local long", "linestyle": "--"},
                         {"x": p8, "style": "hist", "bins": 60, "range": (0, cut), "label": "phase 8 remote long (95%)"}]}])
    names = ["compute-bound local short", "compute-bound local long", "compute-bound remote short", "compute-bound remote long",
             "comm-bound local short", "comm-bound local long", "comm-bound remote short", "comm-bound remote long"]
    for k in range(1, 9):
        s = stats.summary(ph[k])
        rep.row("phase %d (%s): latency median [min..max]" % (k, names[k - 1]), None, s["median"], "ms",
                "%d requests, %.2f..%.2f ms, phase %.2f s" % (s["n"], s["min"], s["max"], (bounds[k] - bounds[k - 1]) / 1000))
    sv6 = stats.summary([r.service for r in done if r.kind == "second" and bounds[5] <= r.t_req < bounds[6]])
    rep.row("phase 6: service of the second party's request (copy included), median [min..max]", None, sv6["median"], "ms",
            "%.2f..%.2f ms" % (sv6["min"], sv6["max"]))
    pc = lambda v, q: float(np.percentile(v, q)) if len(v) else float("nan")
    rep.row("phase 6 local latency, low end (Figure 22; ours: 5th percentile)", seed["mp_local_lo"], pc(ph[6], 5), "ms")
    rep.row("phase 6 local latency, high end (Figure 22; ours: 95th percentile)", seed["mp_local_hi"], pc(ph[6], 95), "ms")
    rep.row("phase 8 remote latency, low end (Figure 22; ours: 5th percentile)", seed["mp_remote_lo"], pc(ph[8], 5), "ms")
    rep.row("phase 8 remote latency, high end of 95% (Figure 22)", seed["mp_remote_hi"], pc(ph[8], 95), "ms",
            "long messages of %d bytes" % mx)
    for n, t in ab:
        ph_ab = phase_latencies(t)
        if ph_ab and ph_ab[8]:
            rep.row("the same, long messages of %d bytes (A/B: the seed does not give its length)" % n, seed["mp_remote_hi"],
                    pc(ph_ab[8], 95), "ms", "phase 8's median %.1f, low end %.1f" % (pc(ph_ab[8], 50), pc(ph_ab[8], 5)))
    ends = [(b - t0) / 1000 for b in bounds[1:8]]
    for i, (se, oe) in enumerate(zip(seed["mp_phase_ends"], ends)):
        rep.row("end of phase %d (Figure 19: between phases)" % (i + 1), se, oe, "s")
    _setup_rows(rep, tr, t0, bounds)
    rep.notes.append("multi-phase %d steps per phase, long messages %d bytes, %d ms between phases (seed: 10 steps, "
                     "MAX_MSG not given, 1000 ms). Latency of a request: TRAP7 to the release of its thread (TRAP72, COMMS "
                     "or COMMR, attributed by the ready-queue events)." % (it, mx, pause))
    analyse_pages(rep, tr, "busy machine: multi-phase's workers", seed, figure=False)


# ---------------------------------------------------------------- 3.3.7 overflow


def rc_overflow(rate, ms, slaves):
    on = " ".join("@" + b for b in SLAVE_NAMES[:slaves])
    return (OVERFLOW_LOGGER + "earth dgl %s +overflow\nearth overflow %d %d %d\nearth dgl @* -all\n"
            % (on, rate, ms, slaves))


def overflow_result(out_dir, testbed_log):
    """One trial: the program's own line, and the rate written from the trace: events of the
    generating slaves between the first and the last user event, plus those the probe saw lost."""
    txt = runner.console(out_dir, "earth")
    m = re.search(r"overflow: (\d+) slaves x (\d+)/s for (\d+) ms: sent (\d+), lost (\d+)", txt)
    if not m:
        return None
    n = int(m.group(1))
    probe = runner.monitor_losses(testbed_log)
    lost = sum(probe.get(b, {}).get("lost", 0) for b in range(1, n + 1))
    tr = read(os.path.join(out_dir, "monitor.trace.txt"))
    user = [e.t for e in tr.events if e.word == 0 and 1 <= e.board <= n]
    if len(user) < 2:
        return None
    t0, t1 = min(user), max(user)
    inside = sum(1 for e in tr.events if 1 <= e.board <= n and t0 <= e.t <= t1)
    ms = re.search(r"logger: sustained (\d+) pairs/s: (\d+) pairs logged in (\d+) ms", runner.console(out_dir, "master"))
    clock = runner.clock_mhz_of(testbed_log)
    return {"slaves": n, "calls": int(m.group(2)), "ms": int(m.group(3)), "sent": int(m.group(4)), "lost": int(m.group(5)),
            "written": inside + lost, "probe_lost": lost, "window_ms": t1 - t0,
            "rate": (inside + lost) / n / max(t1 - t0, 1e-3) * 1000.0,
            "sustained": (int(ms.group(1)), int(ms.group(2)), int(ms.group(3))) if ms else None,
            "clock_mhz": clock}


def analyse_overflow(rep, trials, seed=SEED):
    rep.notes.append(
        "Each trial is one simulation: `overflow CALLS MS SLAVES` calls send_event(0) CALLS times a second on each of "
        "SLAVES slaves (the report's Appendix A.5: events emitted at a rate the experimenter sets), with only the "
        "overflow class on, while the master's logger (`firmware/tos/programs/logger.c`, section 3.3.7's least work: "
        "poll the MMI, pair each SMI's time stamp with its event, merge the SMIs' streams in time order as they come, "
        "log each pair to a file in the master's filestore) drains the MMI; a trial stops at the first event an SMI "
        "could not store (TOS_INFO_EVENTS_LOST, the seed's send_event() failure). The rate is the events actually "
        "written per second per slave (the generating slaves' events in the trace between the trial's first and last "
        "user event, plus those the SMIs lost, over that time), time stamp + event pairs as in the report. The report "
        "measured one slave; its rows are compared with our one-slave trials. The logger's own pace is measured "
        "directly: in a trial that overflows, the longest stretch of polls that never found the MMI empty, the pairs "
        "it logged over that time (`logger: sustained` on the master's console).")
    rows = []
    for n in sorted({t["slaves"] for t in trials}):
        ts = sorted([t for t in trials if t["slaves"] == n], key=lambda t: t["rate"])
        ok = [t for t in ts if t["lost"] == 0 and t["probe_lost"] == 0]
        bad = [t for t in ts if t["lost"] > 0 or t["probe_lost"] > 0]
        min_bad = min((t["rate"] for t in bad), default=None)
        max_ok = max((t["rate"] for t in ok if min_bad is None or t["rate"] < min_bad), default=None)
        clean = all((t["lost"] == 0) for t in ts if max_ok is not None and t["rate"] <= max_ok)
        rep.check("overflow on %d slave(s): a finite maximum rate, no loss below it, loss above" % n,
                  max_ok is not None and min_bad is not None and clean,
                  "no loss up to %s events/s per slave, loss from %s" % ("%.0f" % max_ok if max_ok else None,
                                                                        "%.0f" % min_bad if min_bad else None))
        tot = lambda r: r * n if r is not None else None
        rep.row("%d slave(s): highest total rate with no loss (3.3.7)" % n, seed["rate_ok"] if n == 1 else None, tot(max_ok),
                "pairs/s", "per slave %s" % ("%.0f" % max_ok if max_ok else "-"))
        rep.row("%d slave(s): lowest total rate that lost events" % n, seed["rate_lost"] if n == 1 else None, tot(min_bad), "pairs/s",
                "no trial wrote between %s and %s pairs/s: the bracket's width; the sustained row measures the logger itself"
                % ("%.0f" % tot(max_ok) if max_ok else "-", "%.0f" % tot(min_bad) if min_bad else "-"))
        sus = [(t["sustained"], t.get("clock_mhz")) for t in ts if t.get("sustained") and t["sustained"][2] >= 1000]
        if sus:
            best, mhz = max(sus, key=lambda v: v[0][2])
            cyc = "; %.0f cycles of the master a pair at %.3g MHz (the report's 1,130 pairs/s: %.0f instructions a pair at "\
                  "its 1.2 MIPS)" % (mhz * 1e6 / best[0], mhz, 1.2e6 / seed["rate_ok"]) if mhz and best[0] else ""
            rep.row("%d slave(s): the logger's sustained rate (MMI never empty)" % n, seed["rate_ok"] if n == 1 else None,
                    float(best[0]), "pairs/s", "%d pairs logged in %d ms%s" % (best[1], best[2], cyc))
        if n == 5:
            rep.row("sustainable rate per slave, 5 slaves (the report's 1100 / 5)", seed["rate_per_slave"], max_ok, "pairs/s")
        rows.append((n, ts))
    rep.results = {"sustained": {n: max((t["sustained"] for t in ts if t.get("sustained")), key=lambda v: v[2], default=None)
                                 for n, ts in rows}}
    rep.fig("3.3.7", "overflow_rates", "events lost against the rate written, per number of generating slaves",
            [{"xlabel": "events written per second per slave", "ylabel": "events lost (SMI FIFO full)",
              "series": [{"x": [t["rate"] for t in ts], "y": [t["probe_lost"] for t in ts], "label": "%d slave(s)" % n,
                          "style": "line"} for n, ts in rows]}])
    lines = ["| slaves | send_event calls/s asked | trial ms | events written in it | per slave per s | lost |", "|---|---|---|---|---|---|"]
    for n, ts in rows:
        for t in ts:
            lines.append("| %d | %s | %.0f | %d | %.0f | %d |" % (n, t["calls"] or "as fast as it can", t["window_ms"], t["written"], t["rate"], t["probe_lost"]))
    rep.notes.append("Trials:\n\n" + "\n".join(lines))


# ---------------------------------------------------------------- the overview of docs/results/section3.md
INDEX = [
    ("Figure 5", "FSM for local communication", "`fsm.requests`: TRAP7, TRAP70, TRAP72 per board", "3.3.1"),
    ("Figure 6", "FSM for remote communication", "`fsm.remote_ocms`: focus, rtr, msg with their services and flights", "3.3.2"),
    ("Figure 7", "FSM for thread migration", "`fsm.migrations`: MIGRATE, MIGRATE_SENT on the source, RX_THREAD, MIGRATE_IN on the destination", "3.3.3"),
    ("Figure 8", "FSM for remote page copying", "`fsm.page_copies`: PAGE_FAULT, PAGE_REQ, served at home, PAGE_IN", "3.3.2"),
    ("Figures 9, 10", "local send / receive service", "plots", "3.3.1"),
    ("Figures 11-15", "remote requests, MPC services, flights, msg queueing, total delays", "plots", "3.3.2"),
    ("Figure 16", "migration packing, flight, unpacking", "plots", "3.3.3"),
    ("Figure 17", "page copy phases", "plot (quiet machine)", "3.3.2"),
    ("Figure 18", "multi-phase's threads and channels", "`firmware/tos/programs/multi-phase.c`: 5 x 5 grid, rings per board (local) and per row (remote)", "3.3.6"),
    ("Figures 19-22", "ready queues, sends per 50 ms, service over time, latency distributions", "plots", "3.3.6"),
    ("Figure 23", "event collection pathways", "the model's own: SMI per slave, MMI, the master's logger (3.3.7 measures it)", "3.3.7"),
    ("Figures 24, 25, 27", "Table 6's bounds", "plots with the seed's lines", "3.3.1, 3.3.2"),
    ("Figure 26", "migration bounds", "plot with the seed's lines", "3.3.3"),
    ("Table 3", "events of remote communication", "`sw/tables/events.toml`: TRAP7, TRAP70, RX_MPC, RX_FOCUS, COMMS, COMMR (+ ours: RX_RTR, RX_MSG)", "-"),
    ("Table 4", "FSM transitions and the formal specification's schemas", "no formal specification in this project: not reproduced", "-"),
    ("Table 5", "multi-phase's eight phases", "`multi-phase` runs them; per-phase rows", "3.3.6"),
    ("Table 6", "summary of latencies", "the table above", "-"),
    ("Table 7", "other systems' latencies", "not a Testbed measurement: not reproduced", "-"),
]


SEED_PARTS = {"sndr_service": "remote_sndr_service", "focus_flight": "focus_flight", "rtr_flight": "rtr_flight",
              "pack": "mig_pack", "flight": "mig_flight", "unpack": "mig_unpack",
              "fault_to_request": "page_fault_to_req", "page_flight": "page_flight"}
PART_NAMES = {"sndr_service": "send request service", "focus_flight": "focus flight", "focus_service": "focus service",
              "rtr_flight": "rtr flight", "rtr_service_packing": "rtr service + packing", "pure_flight": "pure msg flight",
              "msg_service": "msg service", "pack": "packing", "flight": "flight", "unpack": "unpacking",
              "fault_to_request": "bus error to request", "request_flight": "request flight", "page_flight": "page flight"}


def _parts(parts, total):
    """A measured breakdown, largest first, each beside the seed's figure where the report gives one."""
    out = []
    for k, v in sorted(parts.items(), key=lambda kv: -kv[1]):
        sd = SEED.get(SEED_PARTS.get(k, ""), None)
        out.append("%s %.2f%s" % (PART_NAMES.get(k, k), v, " (seed %.3g)" % sd if sd else ""))
    return "measured in this run (ms): %s; sum %.2f" % (", ".join(out), total)


def _why_local(f, clock_mhz):
    """Local communication is one board's CPU alone: its cost per K in cycles is the code's."""
    cyc = f["slope"] * clock_mhz * 1000.0
    return ("CPU only (one board): %.0f cycles per K copied and %.0f cycles a message at %.3g MHz; the 1994 profile's "
            "one calibration is this slope (docs/profiles.md)" % (cyc, f["intercept"] * clock_mhz * 1000.0, clock_mhz))


def _packed_in_rtr(T):
    """Did every message's COMMS end its rtr's service (the msg packed there, report 3.3.2)?"""
    p = T["msg_packing"][~np.isnan(T["msg_packing"])]
    return bool(len(p) and p.max() == 0.0)


def _why_remote(r):
    """The sender's delay at n = 0 split into the phases of Figure 6 (medians of this run)."""
    T = r.results["T"]
    med = lambda k: float(np.nanmedian(T[k][1:]))
    keys = ["sndr_service", "focus_flight", "focus_service", "rtr_flight", "rtr_service_packing"]
    if not _packed_in_rtr(T):  # the sender released after its msg left: the msg's phases are in its delay
        keys += ["pure_flight", "msg_service"]
    parts = {k: med(k) for k in keys}
    return "the sender's delay in Figure 6's phases (medians over all sizes), " + _parts(parts, sum(parts.values()))


def overview(reps, clock_mhz=None):
    by = {r.name: r for r in reps}
    out = ["## Table 6 and the figures\n",
           "A ratio beyond 25% is explained in the last column by a measurement of this run (a phase breakdown "
           "from the trace), never by free text; the sections below give every phase's row.\n",
           "| service | seed average (ms) | seed bounds (ms) | simulated average (ms) | simulated bounds (ms) | ratio of averages at 1 K | figure | why (this run) |",
           "|---|---|---|---|---|---|---|---|"]
    def line(name, key, a, b, bounds, fig, why):
        r = by.get(name)
        f = getattr(r, "results", {}).get("fit") if r is not None else None
        if not f:
            out.append("| %s | %.3g n + %.4g | %s | not run | - | - | %s | - |" % (key, a, b, bounds, fig))
            return
        ratio = (f["slope"] + f["intercept"]) / (a + b)
        flag = abs(ratio - 1) > 0.25
        out.append("| %s | %.3g n + %.4g | %s | %.3g n + %.3g | +%.3f / -%.3f | %.2f%s | %s | %s |"
                   % (key, a, b, bounds, f["slope"], f["intercept"], f["above"], f["below"], ratio,
                      " **>25%**" if flag else "", fig, why(r, f) if why else "-"))
    line("local", "local communication (n K sent)", SEED["local_slope"], SEED["local_intercept"], "+-0.275", 24,
         (lambda r, f: _why_local(f, clock_mhz)) if clock_mhz else None)
    line("remote", "remote communication (n K sent)", SEED["remote_slope"], SEED["remote_intercept"], "+-0.35", 25,
         lambda r, f: _why_remote(r))
    mr = getattr(by.get("migration"), "results", {})
    mg = mr.get("migration")
    if mg:
        r = mg["mean"] / SEED["migration"]
        out.append("| thread migration | 8.4 | +-0.5 | %.3g | +%.3g -%.3g | %.2f%s | 26 | %s |"
                   % (mg["mean"], mg["max"] - mg["mean"], mg["mean"] - mg["min"], r, " **>25%**" if abs(r - 1) > 0.25 else "",
                      _parts(mr["parts"], sum(mr["parts"].values())) + "; the moves " + mr.get("split", "")))
    else:
        out.append("| thread migration | 8.4 | +-0.5 | not run | - | - | 26 | - |")
    pg = getattr(by.get("remote"), "page", None)
    if pg:
        r = pg["mean"] / SEED["page_total"]
        out.append("| remote page copy | 16.9 | +15.3 -3 | %.3g | +%.3g -%.3g | %.2f%s | 27 | %s |"
                   % (pg["mean"], pg["max"] - pg["mean"], pg["mean"] - pg["min"], r, " **>25%**" if abs(r - 1) > 0.25 else "",
                      _parts(pg["parts"], sum(pg["parts"].values()))))
    out.append("\nWhere each figure and table of section 3 is reproduced:\n")
    out.append("| seed | what | here | section below |\n|---|---|---|---|")
    for a, b, c, d in INDEX:
        out.append("| %s | %s | %s | %s |" % (a, b, c, d))
    checks = [(r.name, c) for r in reps for c in r.checks]
    out.append("\nChecks of this run: %d of %d pass%s.\n" % (sum(1 for _n, c in checks if c[1]), len(checks),
               "" if all(c[1] for _n, c in checks) else " (**failures listed in their sections**)"))
    return "\n".join(out) + "\n"
