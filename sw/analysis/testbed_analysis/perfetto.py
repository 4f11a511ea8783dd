"""A Chrome / Perfetto trace-event JSON of a decoded trace (ui.perfetto.dev, chrome://tracing):
one process track per board, every event an instant, communication requests and MPC services
as slices, and the MPC flights (focus, rtr, msg, page request, page) as flow arrows from the
board that sent to the board that served."""
import json

from . import fsm
from .trace import board_name, event_table


def export(trace, path, remote_pairs=()):
    codes, conv = event_table()
    sched = conv["continue_bit"] | conv["schedule_bit"]
    ev = []
    for b in trace.boards():
        name = board_name(b)
        ev.append({"ph": "M", "name": "process_name", "pid": b, "args": {"name": "%s (board %d)" % (name, b)}})
        for tid, tn in ((0, "events"), (1, "requests"), (2, "MPC services"), (3, "threads")):
            ev.append({"ph": "M", "name": "thread_name", "pid": b, "tid": tid, "args": {"name": tn}})
    us = lambda t: round(t * 1000.0, 3)
    for e in trace.events:
        ev.append({"ph": "i", "s": "t", "name": e.name, "pid": e.board, "tid": 0, "ts": us(e.t),
                   **({"args": {"arg": e.arg}} if e.arg >= 0 else {})})
    reqs = fsm.requests(trace)
    # thread slices: a thread holds its board's CPU from its scheduling ([TID+0x4000] of the
    # profile class, or its leaving the ready queue, [TID] of the rq class) to the next one or IDLE
    idle = fsm.C("IDLE")
    cur = {}
    for e in trace.events:
        if e.word in codes and e.word != idle:
            continue
        tid = None
        if e.word == idle:
            tid = -1
        elif reqs.tids_known and fsm.is_rq_leave(e.word):
            tid = e.word
        elif not reqs.tids_known and (e.word & sched) == conv["schedule_bit"]:
            tid = e.word & conv["tid_mask"]
        if tid is None:
            continue
        if e.board in cur:
            t0, who = cur[e.board]
            if who >= 0 and e.t > t0:
                ev.append({"ph": "X", "name": "thread %04x" % who, "pid": e.board, "tid": 3, "ts": us(t0),
                           "dur": us(e.t - t0), "args": {"tid": who}})
        cur[e.board] = (e.t, tid)
    for r in reqs.all:
        if r.t_served >= 0:
            ev.append({"ph": "X", "name": "request (%s)" % r.kind, "pid": r.board, "tid": 1, "ts": us(r.t_req),
                       "dur": us(r.t_served - r.t_req), "args": {"tid": r.tid, "timer_ticks": r.ticks}})
        if r.kind == "blocked" and r.t_release >= 0:
            ev.append({"ph": "X", "name": "blocked until %s" % r.release_by, "pid": r.board, "tid": 1,
                       "ts": us(r.t_served), "dur": us(r.t_release - r.t_served), "args": {"tid": r.tid}})
    flow = [0]

    def arrow(name, b0, t0, b1, t1):
        if t0 is None or t1 is None:
            return
        flow[0] += 1
        ev.append({"ph": "X", "name": name + " flight", "pid": b0, "tid": 2, "ts": us(t0), "dur": 0.001})
        ev.append({"ph": "s", "id": flow[0], "name": name, "cat": "mpc", "pid": b0, "tid": 2, "ts": us(t0)})
        ev.append({"ph": "X", "name": name + " served", "pid": b1, "tid": 2, "ts": us(t1), "dur": 0.001})
        ev.append({"ph": "f", "bp": "e", "id": flow[0], "name": name, "cat": "mpc", "pid": b1, "tid": 2, "ts": us(t1)})

    for s, r in remote_pairs:
        for o in fsm.remote_ocms(trace, reqs, s, r):
            arrow("focus", s, o.t_blk, r, o.focus_arrive)
            arrow("rtr", r, o.focus_end, s, o.rtr_arrive)
            arrow("msg", s, o.submit if o.submit is not None else o.rtr_end, r, o.msg_arrive)
    for pc in fsm.page_copies(trace):
        if pc.home is not None:
            arrow("page request", pc.board, pc.t_req, pc.home, pc.t_home)
            arrow("page", pc.home, pc.t_home, pc.board, pc.t_in)
    with open(path, "w") as f:
        json.dump({"traceEvents": ev, "displayTimeUnit": "ms",
                   "otherData": {"source": trace.path, "events": len(trace.events)}}, f)
    return len(ev)
