#!/usr/bin/env python3
"""tbwaves: the Testbed as waveforms a person can read (issue #20).

From what a run leaves behind - the decoded monitor trace (monitor.trace.txt, also one recorded
earlier), optionally the Centrenet VCD (trace.centrenet_vcd) and the monitor VCD
(trace.monitor_vcd) - it writes one dump with the system's state per board and one GTKWave save
file that opens on the activity and works opened alone (`gtkwave OUT.gtkw`).

Per board (scope = the board's name, from sw/tables/tos.toml):
  thread   the thread owning the CPU's time slice: P<process>.T<slot> (TID = board<<10 |
           process<<6 | slot) from the profile class's [TID+0x4000] (TOS emits it when a slice
           starts); "idle" at IDLE
  phase    the main loop (section 3.2.1): send / receive / schedule / user / service / idle;
           "schedule>user" when the slice owner went on running (no event marks the return to
           user mode, so the stretch holds schedule() and the thread's run)
  user     1 from a thread's scheduling to the next kernel event (service phase, SYSCALL,
           PREEMPT, TRAP7, TICK), schedule() itself included
  event    every event by name, operands included: CREATE(P1.T2), SYSCALL(write), EXIT(P1.T0)
  rq_len   ready-queue length (rq class: [TID+0x4000] joins, [TID] leaves), when the class is on
  events   events so far
  smi_fill, smi_full, lost   with --monitor: the SMI's fill level (analog), at its full mark, and
           a pulse per lost event
Centrenet (scope net): frame (each frame on the bus as a named interval: "earth>master CON_OUT
  #12 40B"), busy, and txq_<board> (frames waiting in each controller's output queue).
mmi_fill (scope monitor) with --monitor.

Names come from sw/tables/events.toml and tos.toml (read here through sw/tables/tables.py, so a new
event is named without code changes), Centrenet message types from tos.toml's [[net_type]] (TOS's
enum net_type).
String-valued signals (VCD `string`), so no translate filter is needed and nothing shows as a
number it is not.
"""
import argparse
import bisect
import math
import os
import re
import shutil
import subprocess
import sys

# The clone's root (this file is waveforms/tbwaves.py), or an install's prefix (bin/tbwaves).
ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def tables_dir(root):
    """sw/tables in the clone or, in an install, share/testbed/tables (cmake/install.cmake)."""
    p = os.path.join(root, "sw", "tables")
    q = os.path.join(root, "share", "testbed", "tables")
    return q if not os.path.exists(p) and os.path.exists(q) else p


sys.path.insert(0, tables_dir(ROOT))
import tables  # noqa: E402  (sw/tables/tables.py: the one reader of the tables)

TID = tables.tid_layout(tables_dir(ROOT))


# ---- tables -------------------------------------------------------------------------------------
def load_tables(root=ROOT, net_types_file=None):
    folder = tables_dir(root)
    ev = tables.events(folder)
    tos = tables.tos(folder)
    events = {}
    conv = ev["convention"]
    for e in ev.get("event", []):
        first = e["code"] | (conv["continue_bit"] if e.get("follows", 0) else 0)
        # What the operand words are, from the table's description: a thread (TID, CTID), a
        # system call number, a channel; otherwise a number.
        d = e.get("desc", "")
        kind = ("tid" if re.search(r"\bC?TID\b", d) else "syscall" if "call number" in d
                else "channel" if "channel" in d.lower() else "number")
        events[first] = (e["name"], e.get("follows", 0), kind)
    syscalls = {s["number"]: s["name"] for s in tos.get("syscall", [])}
    boards = tables.board_names(folder)
    net_types = tables.net_types(net_types_file) if net_types_file else {
        n["value"]: n["name"] for n in tos.get("net_type", [])}
    return conv, events, syscalls, boards, net_types


def board_name(boards, k):
    return tables.board_name(k, boards)


def tid_name(tid):
    return TID.name(tid)


# ---- input --------------------------------------------------------------------------------------
def read_trace(path):
    """monitor.trace.txt: '<ticks> <time_ns> <board> 0x<word> <name>' -> [(ns, board, word, marker)]"""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            p = line.split()
            out.append((int(p[1]), int(p[2]), int(p[3], 16), p[4].startswith("WRAP_")))
    return out


def read_vcd(path, wanted):
    """A VCD's changes of the variables whose full names `wanted(name)` accepts:
    {name: [(time_in_ps, value)]}, plus the file's timescale in ps."""
    scale = {"s": 10**12, "ms": 10**9, "us": 10**6, "ns": 10**3, "ps": 1, "fs": 1e-3}
    ids, scope, out, ts_ps, t = {}, [], {}, 1, 0
    with open(path) as f:
        header = True
        for line in f:
            if header:
                tok = line.split()
                if not tok:
                    continue
                if tok[0] == "$timescale":
                    txt = " ".join(tok[1:]) if len(tok) > 1 else next(f).strip()
                    m = re.match(r"(\d+)\s*(\w+)", txt)
                    ts_ps = int(m.group(1)) * scale[m.group(2)]
                elif tok[0] == "$scope":
                    scope.append(tok[2])
                elif tok[0] == "$upscope":
                    scope.pop()
                elif tok[0] == "$var":
                    name = ".".join(scope + [tok[4]])
                    if wanted(name):
                        ids.setdefault(tok[3], []).append(name)
                        out[name] = []
                elif tok[0] == "$enddefinitions":
                    header = False
                continue
            c = line[0] if line else ""
            if c == "#":
                t = int(line[1:]) * ts_ps
            elif c in "bBrR":
                v, i = line[1:].split()
                if i in ids:
                    val = int(v, 2) if c in "bB" and set(v) <= {"0", "1"} else (float(v) if c in "rR" else None)
                    for n in ids[i]:
                        out[n].append((t, val))
            elif c in "sS":
                v, i = line[1:].rsplit(None, 1)
                if i in ids:
                    for n in ids[i]:
                        out[n].append((t, v))
            elif c in "01xXzZ":
                i = line[1:].strip()
                if i in ids:
                    for n in ids[i]:
                        out[n].append((t, int(c) if c in "01" else None))
    return out


# ---- the model of what the events mean ----------------------------------------------------------
class Board:
    def __init__(self, k, name):
        self.k, self.name = k, name
        self.sig = {}  # signal -> [(ps, value)]
        self.cont = 0  # argument words still to come
        self.pending = None  # (name, follows) of the event whose arguments come
        self.args = []
        self.rq = 0
        self.count = 0
        self.first = None

    def put(self, sig, t, v):
        if sig == "user" and not self.sig.get("thread"):
            return
        s = self.sig.setdefault(sig, [])
        if s and s[-1][0] == t:
            if sig == "event" and s[-1][1] != v:
                v = s[-1][1] + ", " + v
            s[-1] = (t, v)
        elif not s or s[-1][1] != v or sig == "event":
            s.append((t, v))


def interpret(trace, tables, tick_ps_hint=None):
    conv, events, syscalls, boards, _ = tables
    B = {}
    rq_boards = set()
    # A board's ready-queue class is on when a bare TID word (not in the table) appears.
    cont = {}
    for ns, k, w, marker in trace:
        if marker:
            continue
        if cont.get(k):
            cont[k] -= 1
            continue
        if w in events:
            cont[k] = events[w][1]
        elif not w & (conv["continue_bit"] | conv["schedule_bit"]):
            rq_boards.add(k)
    for ns, k, w, marker in trace:
        if marker:
            continue
        b = B.get(k) or B.setdefault(k, Board(k, board_name(boards, k)))
        t = ns * 1000
        b.count += 1
        b.put("events", t, b.count)
        if b.first is None:
            b.first = t
        if b.cont:  # an operand of the event before
            b.args.append(w & ~conv["continue_bit"])
            b.cont -= 1
            if not b.cont:
                name, kind = b.pending
                a = b.args
                fmt = {"tid": tid_name, "syscall": lambda x: syscalls.get(x, str(x)),
                       "channel": lambda x: f"ch{x}"}.get(kind, str)
                txt = f"{name}({', '.join(fmt(x) for x in a)})"
                b.put("event", t, txt)
                if name == "SYSCALL":
                    b.put("user", t, 0)
                    b.put("phase", t, "service")
            continue
        if w in events:
            name, follows, kind = events[w]
            if follows:
                b.cont, b.pending, b.args = follows, (name, kind), []
                continue
            b.put("event", t, name)
            if name.startswith("PHASE_"):
                ph = name[6:].lower()
                ps = b.sig.get("phase", [])
                if ph == "service" and ps and ps[-1][1] == "schedule" and b.sig.get("thread"):
                    # The slice owner went on running: TOS emits [TID+0x4000] only when a slice
                    # starts, and nothing where it returns to user mode.
                    ps[-1] = (ps[-1][0], "schedule>user")
                    b.put("user", ps[-1][0], 1)
                b.put("phase", t, ph)
                b.put("user", t, 0)
            elif name == "IDLE":
                b.put("phase", t, "idle")
                b.put("thread", t, "idle")
                b.put("user", t, 0)
            elif name in ("PREEMPT", "TRAP7", "TICK"):
                b.put("user", t, 0)
            continue
        if w & conv["continue_bit"]:
            b.put("event", t, f"EVENT_{w:04X}")
            continue
        tid = w & conv["tid_mask"]
        if k in rq_boards:
            if w & conv["rq_join_bit"]:
                b.rq += 1
                b.put("event", t, f"RQ_JOIN({tid_name(tid)})")
            else:
                b.rq = max(0, b.rq - 1)
                b.put("event", t, f"RQ_LEAVE({tid_name(tid)})")
            b.put("rq_len", t, b.rq)
        elif w & conv["schedule_bit"]:
            b.put("event", t, f"SCHED({tid_name(tid)})")
            b.put("thread", t, tid_name(tid))
            b.put("phase", t, "user")
            b.put("user", t, 1)
        else:
            b.put("event", t, f"EVENT_{w:04X}")
    return B


def net_signals(cn, tables):
    """Centrenet VCD changes -> frame (string), busy, txq_<board>."""
    _, _, _, boards, net_types = tables
    out = {}
    for n, ch in cn.items():  # the NIs' input queues: <...>.ni_<node>_<slot>.in_queue
        m = re.search(r"ni_(\d+)_(\d+)\.in_queue$", n)
        if m:
            out[f"net.inq_{board_name(boards, int(m.group(1)) * 16 + int(m.group(2)))}"] = ch
    for bus in sorted({n.rsplit(".", 1)[0] for n in cn if n.endswith(".busy")}):
        pre = "net" if bus.endswith("bus0") or bus.count("bus") == 0 else "net_" + bus.split(".")[-1]
        get = lambda s: cn.get(f"{bus}.{s}", [])
        busy = get("busy")
        out[f"{pre}.busy"] = [(t, v) for t, v in busy]
        # value of a signal at time t
        def at(name, t):
            ch = get(name)
            i = bisect.bisect_right(ch, (t, float("inf"))) - 1
            return ch[i][1] if i >= 0 else None
        frames = []
        for t, v in busy:
            if v == 1:
                owner = at("owner", t)
                src = at("src", t)
                dst = at("dst", t)
                hdr = at("header", t)
                nb = at("bytes", t)
                fid = at("frame", t)
                s = board_name(boards, src if src is not None and src >= 0 else (owner or 0))
                if src is None and owner is not None and owner >= 2**31:
                    s = "?"
                d = "all" if dst is not None and (dst == -1 or dst >= 2**31) else (board_name(boards, dst) if dst is not None else "?")
                typ = net_types.get(hdr & 0xFF, f"type{hdr & 0xFF}") if hdr is not None else "frame"
                txt = f"{s}>{d} {typ}" + (f" #{fid & 0xFFFFFFFF:d}" if fid is not None else "") + (f" {nb}B" if nb else "")
                frames.append((t, txt))
            else:
                frames.append((t, ""))
        out[f"{pre}.frame"] = frames
        # A frame lasts microseconds: at a millisecond zoom it is a sliver. last_frame holds each
        # frame's name until the next one starts, so it reads at any zoom.
        out[f"{pre}.last_frame"] = [(t, v) for t, v in frames if v]
        n, cnt = 0, []
        for t, v in frames:
            if v:
                n += 1
                cnt.append((t, n))
        out[f"{pre}.frames"] = cnt
        for n in cn:
            if n.startswith(bus + ".txq_"):
                lab = n.rsplit("txq_", 1)[1]
                m = re.fullmatch(r"ni_(\d+)_(\d+)", lab)  # the NI of node n, slot s
                if m:
                    lab = board_name(boards, int(m.group(1)) * 16 + int(m.group(2)))
                elif lab.isdigit():
                    continue  # a port nobody is attached to
                out[f"{pre}.txq_{lab}"] = cn[n]
    return out


# ---- output -------------------------------------------------------------------------------------
class Writer:
    """A VCD of string, integer, real and 1-bit variables, 1 ns resolution."""

    def __init__(self):
        self.vars = []  # (scope, name, kind, width, changes[(ps, v)])

    def add(self, scope, name, kind, width, changes):
        if name not in ("event", "frame", "last_frame"):  # a repeated value is no change
            changes = [c for i, c in enumerate(changes) if i == 0 or c[1] != changes[i - 1][1]]
        if changes:
            self.vars.append((scope, name, kind, width, changes))

    def full(self, v):
        return f"{v[0]}.{v[1]}" + (f"[{v[3] - 1}:0]" if v[2] == "int" and v[3] > 1 else "")

    def estimate(self):
        return sum(len(v[4]) for v in self.vars) * 18 + 200 * len(self.vars)

    def write(self, path):
        ident = lambda n: "".join(chr(33 + (n // 94 ** i) % 94) for i in range(1 + (n >= 94) + (n >= 94 * 94)))
        byscope = {}
        for i, v in enumerate(self.vars):
            byscope.setdefault(v[0], []).append((i, v))
        ev = []
        with open(path, "w") as f:
            f.write("$comment Testbed system view (waveforms/tbwaves.py) $end\n$timescale 1ns $end\n")
            for sc, vs in byscope.items():
                f.write(f"$scope module {sc} $end\n")
                for i, (s, n, kind, w, ch) in vs:
                    typ = {"str": "string", "real": "real"}.get(kind, "wire")
                    width = 1 if kind in ("str", "real") else w
                    rng = f" [{w - 1}:0]" if kind == "int" and w > 1 else ""
                    f.write(f"$var {typ} {width} {ident(i)} {n}{rng} $end\n")
                    for t, val in ch:
                        ev.append((t // 1000, i, val))
                f.write("$upscope $end\n")
            f.write("$enddefinitions $end\n")
            ev.sort(key=lambda e: (e[0], e[1]))
            last = None
            for t, i, val in ev:
                if t != last:
                    f.write(f"#{t}\n")
                    last = t
                kind, w = self.vars[i][2], self.vars[i][3]
                idc = ident(i)
                if val is None:
                    f.write(f"x{idc}\n" if kind == "bit" else f"bx {idc}\n")
                elif kind == "str":
                    s = re.sub(r"\s+", "_", str(val)) if val != "" else "-"
                    f.write(f"s{s} {idc}\n")
                elif kind == "real":
                    f.write(f"r{val:g} {idc}\n")
                elif kind == "bit":
                    f.write(f"{int(val) & 1}{idc}\n")
                else:
                    f.write(f"b{int(val) & ((1 << w) - 1):b} {idc}\n")


def activity(b):
    """The changes that show what a board does: its phase, else its thread, else its events."""
    for s in ("phase", "thread", "event"):
        if b.sig.get(s):
            return [t for t, _ in b.sig[s]]
    return []


def around_hit(B, net, show, around):
    """--around NAME: (start, end, label) in ps of the first Centrenet frame of that type on the
    bus (end: where the frame signal next changes), else of the first event of that name (end =
    start) on a board shown."""
    hits = []
    for n, ch in net.items():
        if n.endswith(".frame"):
            for i, (t, v) in enumerate(ch):
                if v and re.search(r"\b" + around + r"\b", v):
                    hits.append((t, ch[i + 1][0] if i + 1 < len(ch) else t, v))
    for k in show:
        if k in B:
            hits += [(t, t, v) for t, v in B[k].sig.get("event", []) if re.match(around + r"\b", v)]
    if not hits:
        raise SystemExit(f"tbwaves: --around {around}: no such frame or event")
    return min(hits)


def choose_window(B, net, mode, t_end, show, around=None):
    """(start, end) in ps: 'all', 'A:B' in ms, or 'auto': the first stretch where the boards shown
    are all going (the last of their first threads, else the first event), long enough for about
    40 changes of the busiest board's phase (or thread, or events) and one change of every other
    busy board, and for the first Centrenet frame after it if one comes soon."""
    if mode == "all":
        return 0, t_end
    if ":" in mode:
        a, b = mode.split(":")
        return int(float(a) * 1e9), int(float(b) * 1e9)
    bs = [B[k] for k in show if k in B]
    if around:
        # Sized by the frame itself: at least 20 of its lengths (its neighbours on the bus), at
        # most 200 (a frame of microseconds is not lost in a window of seconds when the boards
        # go quiet after it); within that, about 40 changes of the busiest board shown. An event
        # has no length: 10 us to 10 ms.
        t0, t1, _ = around_hit(B, net, show, around)
        lo, hi = (20 * (t1 - t0), 200 * (t1 - t0)) if t1 > t0 else (10_000_000, 10_000_000_000)
        spans = []
        for b in bs:
            ch = [t for t in activity(b) if t > t0]
            if ch:
                spans.append(ch[min(40, len(ch) - 1)] - t0)
        span = min(max(min(spans) if spans else 0, lo), hi)
        return max(0, t0 - span // 4), t0 + span
    if not bs:
        return 0, t_end
    firsts = []
    for b in bs:
        th = [t for t, v in b.sig.get("thread", []) if v not in ("kernel", "idle", "-")]
        if th:
            firsts.append(th[0])
    t0 = max(firsts) if firsts else min(b.first for b in bs)
    spans, reach = [], 0
    for b in bs:
        ch = [t for t in activity(b) if t > t0]
        if len(ch) > 40:
            spans.append(ch[40] - t0)
        elif ch:
            spans.append(ch[-1] - t0)
        if ch:
            reach = max(reach, ch[0] - t0)
    span = min(spans) if spans else 0
    span = max(span, reach)
    fr = [t for t, v in net.get("net.frame", []) if v and t >= t0]
    if fr and fr[0] - t0 > span and fr[0] - t0 < 20 * max(span, 1):
        span = fr[0] - t0 + span // 4
    span = max(span, 10_000_000)  # at least 10 us
    pad = span // 20
    return max(0, t0 - pad), t0 + span + pad


def write_gtkw(path, dump, sigs, win, markers, title, quiet=(), width=1400, sigw=260, unit_ps=1000, extra=()):
    """A save file GTKWave opens alone, on [win]: zoom from GTKWave's 200 px per time unit at zoom 0
    (time unit = the dump's 1 ns)."""
    start_ns, end_ns = win[0] / unit_ps, win[1] / unit_ps  # in the dump's time unit
    wave_px = width - sigw - 40
    units_per_px = max((end_ns - start_ns) / wave_px, 1e-9)
    zoom = -math.log2(units_per_px / 0.005)
    zoom = math.floor(zoom * 1000) / 1000  # never narrower than asked
    named = ["-1"] * 26
    inside = [t for t, _ in markers if win[0] <= t <= win[1]]
    primary = int(inside[0] / unit_ps) if inside else -1
    for i, (t, _) in enumerate(markers[:26]):
        named[i] = str(int(t / unit_ps))
    lines = [f"[*] {title}",
             f"[*] Made by waveforms/tbwaves.py; open alone: gtkwave {os.path.basename(path)}",
             f"[*] Not listed (no change in this window): {' '.join(quiet) or 'none'}",
             f"[dumpfile] \"{os.path.abspath(dump)}\"",
             f"[savefile] \"{os.path.abspath(path)}\"",
             f"[timestart] {int(start_ns)}",
             f"[size] {width} 900",
             "[pos] -1 -1",
             f"*{zoom:.6f} {primary} " + " ".join(named),
             f"[signals_width] {sigw}",
             "[sst_width] 1",
             "[sst_expanded] 0"]
    for i, (t, label) in enumerate(markers[:26]):
        lines.append(f"[markername] {chr(65 + i)}{label}")
    lines += list(extra)
    for s in sigs:
        if isinstance(s, str):
            lines += ["@200", s]
        else:
            name, flags = s
            lines += [f"@{flags}", name]
            if str(flags).startswith("80"):  # an analog trace: two more rows of height
                lines += ["@20000", "-", "@20000", "-"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def from_template(a):
    """A save file of waveforms/ post-processed for one dump: it names the dump and the filter by
    absolute path (so it opens alone) and opens on the dump's first activity."""
    body = open(a.template).read().splitlines()
    dump = a.dump
    if dump.endswith(".fst"):  # read through GTKWave's fst2vcd
        a.dump = a.out + ".read.vcd"
        with open(a.dump, "w") as f:
            subprocess.run(["fst2vcd", dump], check=True, stdout=f)
    scopes = set()
    with open(a.dump) as f:
        for line in f:
            if line.startswith("$scope"):
                scopes.add(line.split()[2])
            if line.startswith("$enddefinitions"):
                break
    keep, names = [], []
    for line in body:
        if line.startswith(("[dumpfile]", "[savefile]", "[timestart]", "[size]", "[pos]", "*")):
            continue
        if line.startswith("^") and " " in line:
            n, path = line.split(" ", 1)
            line = f"{n} {os.path.join(a.root, path) if not os.path.isabs(path) else path}"
        elif line and line[0] not in "[*@#^-":
            sc = line.split(".")[0]
            if sc not in scopes and len(scopes) == 1:
                line = next(iter(scopes)) + line[len(sc):]
            names.append(re.sub(r"\[\d+:\d+\]$", "", line))
        keep.append(line)
    ch = read_vcd(a.dump, lambda n: n in names)
    # The SMIs' wrap markers come every 65.5 ms whatever happens: they are not activity.
    conv = tables.events(tables_dir(a.root))["convention"]
    wraps = {t for c in ch.values() for t, v in c
             if (isinstance(v, str) and v.startswith("WRAP_")) or (isinstance(v, int) and v & conv["wrap_marker_mask"] == conv["wrap_marker_value"]
                                                                           and v <= 0xFFFF)}
    # Values at the dump's first time stamp are where signals start, not changes.
    t_min = min((c[0][0] for c in ch.values() if c), default=0)
    moves = {n: [t for t, _ in c if t > t_min and t not in wraps] for n, c in ch.items()}
    t_end = max([m[-1] for m in moves.values() if m] + [1])
    if a.window == "all":
        win = (0, t_end)
    elif ":" in a.window:
        x, y = a.window.split(":")
        win = (int(float(x) * 1e9), int(float(y) * 1e9))
    else:
        firsts = [m[0] for m in moves.values() if m]
        t0 = min(firsts) if firsts else 0
        spans = [m[min(40, len(m) - 1)] - t0 for m in moves.values() if m]
        spans.sort()  # the median signal shows ~40 changes: busier ones more, quieter ones fewer
        span = max(spans[len(spans) // 2] if spans else 0, 1000)
        win = (max(0, t0 - span // 20), t0 + span + span // 20)
    quiet = [n for n in names if not any(win[0] < t <= win[1] for t in moves.get(n, []))]
    sigs = []
    flags = None
    for line in keep:  # back to (name, flags) pairs and comment groups for write_gtkw
        if line.startswith("@"):
            flags = line[1:]
        elif line.startswith("-"):
            sigs.append(line)
        elif line and line[0] not in "[*#^":
            if re.sub(r"\[\d+:\d+\]$", "", line) not in quiet:
                sigs.append((line, flags or "22"))
    sigs = [s for i, s in enumerate(sigs)  # no heading over nothing
            if not isinstance(s, str) or (i + 1 < len(sigs) and not isinstance(sigs[i + 1], str))]
    extra = [l for l in keep if l.startswith(("^", "[sst", "[signals_width]"))]
    with open(a.dump) as f:
        ts = re.search(r"\$timescale\s*(\d+)\s*(\w+)", f.read(4096))
    unit_ps = int(ts.group(1)) * {"s": 10**12, "ms": 10**9, "us": 10**6, "ns": 10**3, "ps": 1}[ts.group(2)]
    if a.dump != dump:
        os.remove(a.dump)
    write_gtkw(a.out + ".gtkw", dump, sigs, win, [], f"{os.path.basename(a.template)} for {os.path.abspath(dump)}",
               quiet, unit_ps=unit_ps, extra=[l for l in extra if l.startswith("^")])
    print(f"tbwaves: wrote {a.out}.gtkw from {a.template} (opens on {win[0] / 1e9:.6f}..{win[1] / 1e9:.6f} ms)")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trace", help="decoded monitor trace (testbed-out/monitor.trace.txt)")
    ap.add_argument("--template", help="instead: post-process this save file (waveforms/*.gtkw) for --dump")
    ap.add_argument("--dump", help="with --template: the VCD/FST it is for")
    ap.add_argument("--centrenet", help="Centrenet VCD (trace.centrenet_vcd)")
    ap.add_argument("--monitor", help="monitor VCD (trace.monitor_vcd): SMI/MMI fill, lost events")
    ap.add_argument("--boards", help="boards to show, by name (default: those with events)")
    ap.add_argument("--window", default="auto", help="auto (the first activity), all, or A:B in ms")
    ap.add_argument("--around", help="open on the first Centrenet frame of this type (MSG, RF_DATA, ...) "
                    "or the first event of this name (TRAP7, CREATE, ...)")
    ap.add_argument("--net-types", help="a TOML file of [[net_type]] entries (name, value) naming Centrenet "
                    "messages (default: sw/tables/tos.toml's; a trace recorded with another kernel: its own)")
    ap.add_argument("--smi-depth", type=int, default=1024, help="SMI FIFO entries (monitor.smi_depth): the full mark")
    ap.add_argument("--fst", action="store_true", help="write FST (vcd2fst) instead of VCD")
    ap.add_argument("--max-mb", type=float, default=200, help="refuse to write a dump estimated above this")
    ap.add_argument("--out", required=True, help="output prefix: OUT.vcd (or OUT.fst) and OUT.gtkw")
    ap.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.template:
        if not a.dump:
            ap.error("--template needs --dump")
        return from_template(a)
    if not a.trace:
        ap.error("--trace (or --template) is required")
    tables = load_tables(a.root, a.net_types)
    conv, events, syscalls, boards, net_types = tables
    trace = read_trace(a.trace)
    B = interpret(trace, tables)
    show = [boards.index(n) if n in boards else int(n.replace("board", "")) for n in a.boards.split(",")] if a.boards else sorted(B)
    net = {}
    if a.centrenet:
        cn = read_vcd(a.centrenet, lambda n: re.search(r"\.(owner|frame|busy|src|dst|header|bytes|txq_\w+|in_queue)$", n) is not None)
        net = net_signals(cn, tables)
    mon = {}
    if a.monitor:
        mon = read_vcd(a.monitor, lambda n: re.search(r"\.(smi\d+_level|smi\d+_lost|mmi_level)$", n) is not None)
    t_end = max([trace[-1][0] * 1000 if trace else 0] + [ch[-1][0] for ch in net.values() if ch] +
                [ch[-1][0] for ch in mon.values() if ch])
    w = Writer()
    sigs = []
    for k in show:
        b = B.get(k)
        nm = board_name(boards, k)
        sigs.append(f"-{nm}")
        if b:
            for s, kind, width, fl in (("thread", "str", 1, 28), ("phase", "str", 1, 28), ("user", "bit", 1, 28),
                                       ("event", "str", 1, 28), ("rq_len", "int", 8, 24), ("events", "int", 32, 24)):
                if b.sig.get(s) and (s != "user" or b.sig.get("thread")):
                    ch = b.sig[s]
                    if ch[0][0] > 0:  # before the first event: nothing known yet
                        ch = [(0, "-" if kind == "str" else 0)] + ch
                    w.add(nm, s, kind, width, ch)
                    sigs.append((w.full(w.vars[-1]), fl))
        lv = mon.get(f"monitor.smi{k}_level")
        if lv:
            w.add(nm, "smi_fill", "real", 1, [(t, float(v)) for t, v in lv])
            sigs.append((f"{nm}.smi_fill", "8028"))
            w.add(nm, "smi_full", "bit", 1, [(t, int(v is not None and v >= a.smi_depth)) for t, v in lv])
            sigs.append((f"{nm}.smi_full", 28))
        lost = mon.get(f"monitor.smi{k}_lost")
        if lost and any(v for _, v in lost):
            pulses, prev = [], 0
            for t, v in lost:
                if v and v > prev:
                    pulses += [(t, 1), (t + 1000, 0)]
                prev = v or 0
            w.add(nm, "lost", "bit", 1, [(0, 0)] + pulses)
            sigs.append((f"{nm}.lost", 28))
        if net:
            for key, sig in (("txq", "ni_out_queue"), ("inq", "ni_in_queue")):
                q = net.get(f"net.{key}_{nm}")
                if q and any(v for _, v in q):
                    w.add(nm, sig, "int", 8, q)
                    sigs.append((f"{nm}.{sig}[7:0]", 24))
    if net:
        sigs.append("-Centrenet")
        for n in sorted(net):
            if n.endswith(".frame") or n.endswith(".last_frame"):
                w.add(n.split(".")[0], n.split(".")[1], "str", 1, [(0, "")] + net[n])
                sigs.append((n, 28))
            elif n.endswith(".frames"):
                w.add(n.split(".")[0], "frames", "int", 32, [(0, 0)] + net[n])
                sigs.append((n + "[31:0]", 24))
            elif n.endswith(".busy"):
                w.add(n.split(".")[0], "busy", "bit", 1, net[n])
                sigs.append((n, 28))
    if mon.get("monitor.mmi_level"):
        sigs.append("-MMI")
        w.add("monitor", "mmi_fill", "real", 1, [(t, float(v)) for t, v in mon["monitor.mmi_level"]])
        sigs.append(("monitor.mmi_fill", "8028"))
    est = w.estimate()
    print(f"tbwaves: {len(w.vars)} signals, {sum(len(v[4]) for v in w.vars)} changes, about {est / 1e6:.1f} MB of VCD")
    if est > a.max_mb * 1e6:
        print(f"tbwaves: refusing to write more than --max-mb {a.max_mb}: narrow --boards or raise --max-mb", file=sys.stderr)
        return 1
    vcd = a.out + ".vcd"
    w.write(vcd)
    dump = vcd
    if a.fst:
        if not shutil.which("vcd2fst"):
            print("tbwaves: vcd2fst (gtkwave) not found", file=sys.stderr)
            return 1
        dump = a.out + ".fst"
        subprocess.run(["vcd2fst", "-v", vcd, "-f", dump], check=True, stdout=subprocess.DEVNULL)
        os.remove(vcd)
    win = choose_window(B, net, a.window, t_end, show, a.around)
    # Markers: where each shown board's first thread runs, and the first Centrenet frame in view.
    markers = []
    for k in show:
        b = B.get(k)
        th = [t for t, v in (b.sig.get("thread", []) if b else []) if v not in ("kernel", "idle", "-")]
        if th:
            markers.append((th[0], f"{board_name(boards, k)}_first_thread"))
        elif b and b.first is not None:
            markers.append((b.first, f"{board_name(boards, k)}_first_event"))
    for v in w.vars:  # the first lost event of each board, in view
        if v[1] == "lost":
            lost = [t for t, x in v[4] if x == 1 and win[0] <= t <= win[1]]
            if lost:
                markers.append((lost[0], f"{v[0]}_lost_event"))
    if a.around and a.window == "auto":  # on the frame or event asked for, not the first in view
        t, _, label = around_hit(B, net, show, a.around)
        markers.append((t, "around_" + re.sub(r"\W+", "_", label.split(" #")[0].replace(">", "_to_")).strip("_")))
    else:
        fr = [(t, v) for t, v in net.get("net.frame", []) if v and win[0] <= t <= win[1]]
        if fr:
            markers.append((fr[0][0], "frame_" + fr[0][1].split(" #")[0].replace(" ", "_").replace(">", "_to_")))
    markers.sort()
    # A signal that does not change in the window the file opens on is left out of the list (and
    # named in the file's comments): GTKWave's Signals tree still has it.
    changes = {w.full(v): v[4] for v in w.vars}
    quiet = [s[0] for s in sigs if not isinstance(s, str) and
             not any(win[0] < t <= win[1] for t, _ in changes.get(s[0], []))]
    sigs = [s for s in sigs if isinstance(s, str) or s[0] not in quiet]
    sigs = [s for i, s in enumerate(sigs)  # no heading over nothing
            if not isinstance(s, str) or (i + 1 < len(sigs) and not isinstance(sigs[i + 1], str))]
    write_gtkw(a.out + ".gtkw", dump, sigs, win, markers,
               f"Testbed system view of {os.path.abspath(a.trace)}", quiet)
    print(f"tbwaves: wrote {dump} and {a.out}.gtkw (opens on {win[0] / 1e9:.3f}..{win[1] / 1e9:.3f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
