"""The four FSMs of seed 000 section 3.2.2 (Figures 5-8) run over a decoded trace.

Every event below is TOS's (sw/tables/events.toml); the kernel emits them where the report
says (TRAP7 at a communication request, TRAP70 when its thread blocks, TRAP72 when a local copy
is done and both threads go on; RX_MPC + RX_FOCUS / RX_RTR / RX_MSG as an MPC is served;
COMMS / COMMR when the sender / receiver of a remote message goes back to the ready queue;
PAGE_FAULT, PAGE_REQ, PAGE_IN around a remote page copy).

TOS emits one event at the start of an MPC service and none at its end (the report's kernel
emitted one at each end). The end of a service is taken as the next event the same board emits
(with the `phase` class on, the schedule phase's PHASE_SCHEDULE that follows the receive phase),
so experiments that measure service times switch `phase` on.

Requests are followed per board: the kernel serves one system call at a time, so a TRAP7 is
followed by its TRAP70 (blocked), its TRAP72 (it was the second party of a local
communication, and the copy is done), or a PAGE_FAULT (its buffer is still on another board: the
call is rerun when the page has come). With the ready-queue class on (Table 2: [TID] leaves,
[TID+0x4000] joins), the thread that asked is the one the schedule phase last took off the ready
queue, and the thread a TRAP72 / COMMS / COMMR released is the next to join it: then every
request is matched to its own release even when many threads communicate at once. Without it,
blocked requests are released first-in first-out (right for the one-pair test programs).
"""
from dataclasses import dataclass, field

from .trace import TID, code_of, event_table

_C = {}


def C(name):
    if name not in _C:
        _C[name] = code_of(name)
    return _C[name]


# The rq class's words: [TID] leaves, [TID+0x4000] joins; a slave's TID (board 1 on) is at least this.
_FIRST_SLAVE_TID = 1 << TID.board_shift


def is_rq_leave(w):
    c = event_table()[1]
    return _FIRST_SLAVE_TID <= w < c["rq_join_bit"] and not (w & c["continue_bit"])


def is_rq_join(w):
    c = event_table()[1]
    return (w & (c["continue_bit"] | c["rq_join_bit"])) == c["rq_join_bit"] and (w & c["tid_mask"]) >= _FIRST_SLAVE_TID


@dataclass
class Request:
    board: int
    t_req: float
    tid: int = -1
    kind: str = "open"          # blocked | second | refetch | error | open
    t_served: float = -1.0      # TRAP70 or TRAP72
    ticks: int = 0              # timer interrupts inside the service
    t_release: float = -1.0     # blocked: when released
    release_by: str = ""        # TRAP72 | COMMS | COMMR

    @property
    def service(self):
        return self.t_served - self.t_req

    @property
    def total(self):
        return self.t_release - self.t_req


@dataclass
class Requests:
    all: list = field(default_factory=list)
    stray_releases: list = field(default_factory=list)   # (board, t, by): a release no blocked request explains
    stray_blocks: list = field(default_factory=list)     # (board, t): TRAP70 with no request
    tids_known: bool = False

    def unmatched(self):
        """Requests the FSM could not close: errors, cut off, never released; and stray events."""
        bad = [r for r in self.all if r.kind in ("error", "open") or (r.kind == "blocked" and r.t_release < 0)]
        return bad, self.stray_releases, self.stray_blocks


def requests(trace):
    """Figure 5 (and the request halves of Figure 6): every TRAP7 with its outcome."""
    TRAP7, TRAP70, TRAP72 = C("TRAP7"), C("TRAP70"), C("TRAP72")
    COMMS, COMMR, PF, TICK = C("COMMS"), C("COMMR"), C("PAGE_FAULT"), C("TICK")
    WF = C("PAGE_WFAULT")
    codes, _ = event_table()
    out = Requests()
    out.tids_known = any(is_rq_leave(e.word) and e.word not in codes for e in trace.events)
    per = {}
    for e in trace.events:
        st = per.setdefault(e.board, {"running": -1, "pending": None, "blocked": [], "await": None})
        w = e.code
        if out.tids_known and w not in codes:
            if is_rq_leave(w):
                st["running"] = w
                continue
            if is_rq_join(w):
                aw = st["await"]
                if aw is not None:
                    st["await"] = None
                    tid = w & event_table()[1]["tid_mask"]
                    hit = [r for r in st["blocked"] if r.tid == tid]
                    if hit:
                        r = hit[0]
                        st["blocked"].remove(r)
                        r.t_release, r.release_by = aw
                    else:
                        out.stray_releases.append((e.board, aw[0], aw[1]))
                continue
        p = st["pending"]
        if w == TRAP7:
            if p is not None:
                p.kind = "error"
            st["pending"] = Request(board=e.board, t_req=e.t, tid=st["running"])
            out.all.append(st["pending"])
        elif w == TRAP70:
            if p is None:
                out.stray_blocks.append((e.board, e.t))
                continue
            p.kind, p.t_served = "blocked", e.t
            st["blocked"].append(p)
            st["pending"] = None
        elif w in (TRAP72, COMMS, COMMR):
            by = {TRAP72: "TRAP72", COMMS: "COMMS", COMMR: "COMMR"}[w]
            if w == TRAP72:
                if p is None:
                    out.stray_releases.append((e.board, e.t, by))
                    continue
                p.kind, p.t_served = "second", e.t
                st["pending"] = None
            if out.tids_known:
                if st["await"] is not None:
                    out.stray_releases.append((e.board,) + st["await"])
                st["await"] = (e.t, by)
            elif st["blocked"]:
                r = st["blocked"].pop(0)
                r.t_release, r.release_by = e.t, by
            else:
                out.stray_releases.append((e.board, e.t, by))
        elif w in (PF, WF):  # (a write to a read copy asks for the page as a fault does)
            if p is not None:
                p.kind, p.t_served = "refetch", e.t
                st["pending"] = None
            else:  # a blocked receive whose buffer's page went elsewhere is run again (pages.c)
                mask = event_table()[1]["tid_mask"]
                hit = [r for r in st["blocked"] if (r.tid & mask) == (e.arg & mask)] if out.tids_known \
                    else st["blocked"][:1]  # (without TIDs: the one-pair programs' receiver)
                if hit:
                    st["blocked"].remove(hit[0])
                    hit[0].kind, hit[0].t_served = "refetch", e.t
        elif w == TICK:
            if p is not None:
                p.ticks += 1
    return out


def _by_board(trace):
    b = {}
    for i, e in enumerate(trace.events):
        b.setdefault(e.board, []).append(e)
    return b


def _next_after(evs, i):
    """The end of the service that event i began: the board's next event, a timer interrupt
    inside the service not counted (the timer runs free, so it may interrupt any service)."""
    tick = C("TICK")
    for e in evs[i + 1:]:
        if e.word != tick:
            return e.t
    return None


@dataclass
class RemoteOCM:
    """One message over a remote channel (Figure 6), sender on board s, receiver on board r."""
    s: int
    r: int
    t_req: float
    t_blk: float
    t_comms: float
    sndr_ticks: int = 0
    rcvr_service: float = None
    focus_arrive: float = None
    focus_end: float = None
    rtr_arrive: float = None
    rtr_end: float = None
    submit: float = None
    msg_arrive: float = None
    msg_service: float = None
    pieces: int = 0
    t_commr: float = None

    def _packing(self):
        """Packing the msg after the rtr's service: TOS packs it in the rtr's service and releases
        the sender there (COMMS ends the service, section 3.3.2), so 0; a kernel that packed it
        in the send phase released the sender after the submit."""
        if self.submit is None or self.t_comms <= self.submit:
            return 0.0 if self.rtr_end is not None and self.t_comms <= self.rtr_end else None
        return self.t_comms - self.submit

    def times(self):
        """The report's times of interest (ms); None where the trace does not show them."""
        d = lambda a, b: (b - a) if a is not None and b is not None else None
        return {
            "sndr_service": self.t_blk - self.t_req,
            "rcvr_service": self.rcvr_service,
            "focus_flight": d(self.t_blk, self.focus_arrive),
            "focus_service": d(self.focus_arrive, self.focus_end),
            "rtr_flight": d(self.focus_end, self.rtr_arrive),
            "rtr_service": d(self.rtr_arrive, self.rtr_end),
            "msg_queued": d(self.rtr_end, self.submit),
            "msg_packing": self._packing(),
            "rtr_service_packing": (d(self.rtr_arrive, self.rtr_end) + self._packing())
            if None not in (self.rtr_arrive, self.rtr_end) and self._packing() is not None else None,
            "msg_flight": d(self.rtr_end, self.msg_arrive),
            "pure_flight": d(self.submit, self.msg_arrive),
            "msg_service": self.msg_service,
            "sender_delay": self.t_comms - self.t_req,
            "receiver_delay": d(self.t_req, self.t_commr),
        }


def remote_ocms(trace, reqs, sender, receiver):
    """Figure 6 for a program whose messages go one at a time from `sender` to `receiver`."""
    RX_MPC, RX_FOCUS, RX_RTR, RX_MSG = C("RX_MPC"), C("RX_FOCUS"), C("RX_RTR"), C("RX_MSG")
    COMMR, PHASE_SEND = C("COMMR"), C("PHASE_SEND")
    bb = _by_board(trace)
    S, R = bb.get(sender, []), bb.get(receiver, [])
    sends = [q for q in reqs.all if q.board == sender and q.kind == "blocked" and q.release_by == "COMMS"]
    recvs = [q for q in reqs.all if q.board == receiver and q.kind == "blocked" and q.release_by == "COMMR"]
    out = []
    ri = si = 0
    for q in sends:
        o = RemoteOCM(s=sender, r=receiver, t_req=q.t_req, t_blk=q.t_served, t_comms=q.t_release, sndr_ticks=q.ticks)
        # focus (or advert) served on the receiver's board
        while ri < len(R) and R[ri].t < q.t_served:
            ri += 1
        j = ri
        while j < len(R) and R[j].word != RX_FOCUS:
            j += 1
        if j < len(R):
            o.focus_arrive = R[j - 1].t if j > 0 and R[j - 1].word == RX_MPC else R[j].t
            o.focus_end = _next_after(R, j)
            ri = j + 1
        # rtr served on the sender's board
        while si < len(S) and S[si].t < (o.focus_arrive if o.focus_arrive is not None else q.t_served):
            si += 1
        j = si
        while j < len(S) and S[j].word != RX_RTR and S[j].t <= q.t_release:
            j += 1
        if j < len(S) and S[j].word == RX_RTR:
            o.rtr_arrive = S[j - 1].t if S[j - 1].word == RX_MPC else S[j].t
            o.rtr_end = _next_after(S, j)
            k = j + 1  # the send phase that hands the msg to Centrenet: the next one on this board
            while k < len(S) and S[k].word != PHASE_SEND and S[k].word != RX_RTR:
                k += 1
            if k < len(S) and S[k].word == PHASE_SEND:
                o.submit = S[k].t
            si = j + 1
        # msg pieces and the receiver's release
        if o.rtr_arrive is not None:
            k = ri
            while k < len(R) and R[k].t < o.rtr_arrive:
                k += 1
            serv = 0.0
            while k < len(R) and R[k].word != COMMR:
                if R[k].word == RX_MSG:
                    start = R[k - 1].t if R[k - 1].word == RX_MPC else R[k].t
                    if o.msg_arrive is None:
                        o.msg_arrive = start
                    nxt = _next_after(R, k)
                    if nxt is not None:
                        serv += nxt - start
                    o.pieces += 1
                k += 1
            if k < len(R):
                o.t_commr = R[k].t
                o.msg_service = serv
                ri = k + 1
        rq = [x for x in recvs if o.t_commr is not None and x.t_release == o.t_commr]
        if rq:
            o.rcvr_service = rq[0].service
        out.append(o)
    return out


@dataclass
class PageCopy:
    board: int            # where the thread faulted
    home: int = None
    t_fault: float = 0.0
    t_req: float = None   # PAGE_REQ: request queued for Centrenet, thread blocked
    t_sent: float = None  # PHASE_SEND: the faulting board's next send phase hands it to Centrenet
    t_home: float = None  # the home board starts serving the request
    t_in: float = None    # PAGE_IN: page mapped, thread restarted

    def times(self):
        """Figure 17's three parts sum to the copy: its lower graph ends at the request's
        transmission, so fault_to_request runs to the send phase; `queued` is its first part."""
        d = lambda a, b: (b - a) if a is not None and b is not None else None
        sent = self.t_sent if self.t_sent is not None else self.t_req
        return {"fault_to_request": d(self.t_fault, sent), "request_flight": d(sent, self.t_home),
                "page_flight": d(self.t_home, self.t_in), "total": d(self.t_fault, self.t_in),
                "queued": d(self.t_fault, self.t_req)}


def page_copies(trace):
    """Figure 8. A page request's service at the home is an RX_MPC that no RX_FOCUS / RX_RTR /
    RX_MSG / PAGE_IN follows; the page's arrival is the RX_MPC before PAGE_IN. Requests from one
    board are answered in order (one Centrenet queue per board pair)."""
    RX_MPC, PF, PREQ, PIN, PSEND = C("RX_MPC"), C("PAGE_FAULT"), C("PAGE_REQ"), C("PAGE_IN"), C("PHASE_SEND")
    faults = {PF, C("PAGE_WFAULT")}  # a write to a read copy asks for the page as a fault does
    typed = {C("RX_FOCUS"), C("RX_RTR"), C("RX_MSG"), PIN}
    bb = _by_board(trace)
    home_serv = []  # (t, board)
    for b, evs in bb.items():
        for i, e in enumerate(evs):
            if e.word == RX_MPC and (i + 1 >= len(evs) or evs[i + 1].word not in typed):
                home_serv.append([e.t, b, False])
    home_serv.sort()
    out = []
    for b, evs in bb.items():
        open_ = []
        for e in evs:
            if e.code in faults:
                pc = PageCopy(board=b, t_fault=e.t)
                open_.append(pc)
                out.append(pc)
            elif e.word == PREQ:
                for pc in open_:
                    if pc.t_req is None:
                        pc.t_req = e.t
                        break
            elif e.word == PSEND:  # (traces without phase events: sent is taken as queued)
                for pc in open_:
                    if pc.t_req is not None and pc.t_sent is None:
                        pc.t_sent = e.t
            elif e.word == PIN:
                for pc in open_:
                    if pc.t_req is not None:
                        pc.t_in = e.t
                        open_.remove(pc)
                        break
    for pc in sorted(out, key=lambda p: p.t_req if p.t_req is not None else 1e300):
        if pc.t_req is None:
            continue
        for hs in home_serv:
            if not hs[2] and hs[1] != pc.board and hs[0] >= pc.t_req and (pc.t_in is None or hs[0] <= pc.t_in):
                hs[2] = True
                pc.t_home, pc.home = hs[0], hs[1]
                break
    return out


@dataclass
class Migration:
    src: int
    dst: int = None
    t_start: float = 0.0  # MIGRATE: the source starts packing (MDisconnect)
    t_sent: float = None  # MIGRATE_SENT: packed, queued for Centrenet, local copy deleted
    t_rx: float = None    # RX_THREAD: the destination starts unpacking (MConnect)
    t_in: float = None    # MIGRATE_IN: connected and in the ready queue

    def times(self):
        d = lambda a, b: (b - a) if a is not None and b is not None else None
        return {"pack": d(self.t_start, self.t_sent), "flight": d(self.t_sent, self.t_rx),
                "unpack": d(self.t_rx, self.t_in), "total": d(self.t_start, self.t_in)}


def migrations(trace):
    """Figure 7: MIGRATE .. MIGRATE_SENT on the source is the packing (arcs 1-2-3, MDisconnect),
    RX_THREAD .. MIGRATE_IN on the destination the unpacking (arcs 3-4-1, MConnect), and the
    thread's flight lies between. Arrivals are matched to departures in time order, each to the
    first departure before it (one thread in flight at a time, as in the migrate program).
    None if the event table has no migration events."""
    codes, _ = event_table()
    names = {n for (n, _f) in codes.values()}
    if not {"MIGRATE", "MIGRATE_SENT", "RX_THREAD", "MIGRATE_IN"} <= names:
        return None
    M, MS, RX, MI = C("MIGRATE"), C("MIGRATE_SENT"), C("RX_THREAD"), C("MIGRATE_IN")
    outs, ins = [], []
    for b, evs in _by_board(trace).items():
        packing, unpacking = None, None
        for e in evs:
            if e.code == M:
                packing = Migration(src=b, t_start=e.t)
                outs.append(packing)
            elif e.code == MS and packing is not None:
                packing.t_sent, packing = e.t, None
            elif e.code == RX:
                unpacking = [e.t, b, None]
                ins.append(unpacking)
            elif e.code == MI and unpacking is not None:
                unpacking[2], unpacking = e.t, None
    outs.sort(key=lambda m: m.t_start)
    ins.sort()
    used = 0
    for m in outs:
        if m.t_sent is None:
            continue
        while used < len(ins) and ins[used][0] < m.t_sent:
            used += 1  # an arrival with no departure before it (the trace began in flight)
        if used < len(ins):
            m.t_rx, m.dst, m.t_in = ins[used][0], ins[used][1], ins[used][2]
            used += 1
    return outs


def ready_queues(trace):
    """Figure 19: per board, (t, length) after every join / leave (Table 2's class)."""
    codes, _ = event_table()
    out = {}
    for e in trace.events:
        if e.word in codes:
            continue
        if is_rq_join(e.word):
            d = 1
        elif is_rq_leave(e.word):
            d = -1
        else:
            continue
        s = out.setdefault(e.board, [(e.t, 0)])
        n = max(0, s[-1][1] + d)
        s.append((e.t, n))
    return out


def user_marks(trace, base=None):
    """multi-phase's phase marks: user events user_phase_mark (events.toml) + phase (1..8), + 0xFF at the end."""
    if base is None:
        base = event_table()[1]["user_phase_mark"]
    return [(e.t, e.word - base) for e in trace.events if base < e.word <= base + 0xFF]
