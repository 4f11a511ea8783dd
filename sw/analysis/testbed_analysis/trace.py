"""Reading a decoded monitor trace (sw/monitor_decoder's text or binary output).

Text (monitor.trace.txt):
    # testbed monitor trace v1: ticks time_ns board word name (tick = <ps> ps)
    <ticks> <time_ns> <board> 0x<word> <name>
    ...
    # events <n> markers <m> empty_reads <k> ok|BROKEN: <why>
Binary (monitor.trace.bin): "TBMT", u16 version 1, u16 0, u64 tick_ps, u64 count, then per
record u64 ticks, u8 board, u8 flags (bit 0: wrap marker), u16 word; big-endian.

Anything else, or a trace cut short, raises TraceError naming the file and the line (or byte
offset) where it stops making sense. Event names and argument counts come from
sw/tables/events.toml, the project's one definition of the codes.
"""
import os
import struct
import sys
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
# sw/tables in the clone; share/testbed/tables beside share/testbed/python in an install.
TABLES = os.path.normpath(os.path.join(HERE, "..", "..", "tables"))
if TABLES not in sys.path:
    sys.path.insert(0, TABLES)
import tables  # noqa: E402  (sw/tables/tables.py: the one reader of the tables)

BOARD_NAMES = tables.board_names(TABLES)  # master, earth, air, fire, water, space (tos.toml)
SLAVE_NAMES = BOARD_NAMES[1:]
TID = tables.tid_layout(TABLES)  # board << 10 | process << 6 | slot (tos.toml's [tid])


def board_name(k):
    return tables.board_name(k, BOARD_NAMES)


class TraceError(Exception):
    """A trace that is not one, or not whole: the message says what and where."""


@dataclass
class Event:
    t: float        # ms since the global clock's zero
    board: int
    word: int
    name: str
    arg: int = -1   # the following word of a two-word event (CREATE, EXIT, PAGE_FAULT, ...)
    line: object = 0  # where it was read ("line N", or "record N (byte B)")

    @property
    def code(self):
        """The event's code: the word without the continue bit (bit 15: a word follows)."""
        return self.word & ~event_table()[1]["continue_bit"]


@dataclass
class Trace:
    path: str
    events: list = field(default_factory=list)      # time order, wrap markers and ARG words out
    markers: dict = field(default_factory=dict)      # board -> list of (t ms, nn)
    wrap_gaps: list = field(default_factory=list)    # (board, t ms, nn before, nn after): SMI FIFO was full
    tick_ps: int = 0
    footer: str = ""

    def boards(self):
        return sorted({e.board for e in self.events})

    def on(self, board):
        return [e for e in self.events if e.board == board]

    def lost_somewhere(self):
        return bool(self.wrap_gaps)


_table = None


def event_table(folder=TABLES):
    """code -> (name, follows), plus the conventions."""
    global _table
    if _table is None:
        doc = tables.events(folder)
        codes = {e["code"]: (e["name"], e.get("follows", 0)) for e in doc["event"]}
        _table = (codes, doc["convention"])
    return _table


def code_of(name):
    codes, _ = event_table()
    for c, (n, _f) in codes.items():
        if n == name:
            return c
    raise KeyError(name)


def _name(word):
    codes, conv = event_table()
    if (word & conv["wrap_marker_mask"]) == conv["wrap_marker_value"]:
        return "WRAP_%02X" % (word & 0xFF)
    base = word & ~conv["continue_bit"] & 0xFFFF
    if base in codes:
        return codes[base][0]
    if word & conv["schedule_bit"]:
        return "SCHED(%d)" % (word & conv["tid_mask"])
    return "EVENT_%04X" % word


def _is_marker(word):
    _, conv = event_table()
    return (word & conv["wrap_marker_mask"]) == conv["wrap_marker_value"]


def _build(path, raw, tick_ps, footer):
    """raw: list of (ticks, board, word, is_marker, where) in file order."""
    _, conv = event_table()
    tr = Trace(path=path, tick_ps=tick_ps, footer=footer)
    cont = {}
    last_t = -1
    last_nn = {}
    for ticks, board, word, marker, where in raw:
        t = ticks * tick_ps / 1e9  # ms
        if ticks < last_t:
            raise TraceError("%s: %s: time goes back (%d after %d): not a time-ordered trace" % (path, where, ticks, last_t))
        last_t = ticks
        if marker:
            nn = word & 0xFF
            tr.markers.setdefault(board, []).append((t, nn))
            if board in last_nn:
                step = (nn - last_nn[board]) & 0xFF
                if step > 1:
                    tr.wrap_gaps.append((board, t, last_nn[board], nn))
            last_nn[board] = nn
            continue
        if cont.get(board):
            cont[board] = bool(word & conv["continue_bit"])
            prev = cont.get(("ev", board))
            if prev is not None:
                prev.arg = word & ~conv["continue_bit"]
            continue
        e = Event(t=t, board=board, word=word, name=_name(word), line=where)
        cont[board] = bool(word & conv["continue_bit"])
        cont[("ev", board)] = e
        tr.events.append(e)
    return tr


def read_text(path):
    try:
        f = open(path, "r", encoding="ascii", errors="strict")
    except OSError as e:
        raise TraceError("%s: cannot open: %s" % (path, e.strerror))
    with f:
        try:
            lines = f.read().split("\n")
        except UnicodeDecodeError as e:
            raise TraceError("%s: byte %d is not ASCII: not a monitor trace (monitor.trace.txt)" % (path, e.start))
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].startswith("# testbed monitor trace v1"):
        raise TraceError("%s: line 1: not a testbed monitor trace (expected '# testbed monitor trace v1 ...', got %r)"
                         % (path, (lines[0] if lines else "")[:60]))
    tick_ps = 0
    head = lines[0]
    if "tick = " in head:
        try:
            tick_ps = int(head.split("tick = ")[1].split()[0])
        except (ValueError, IndexError):
            pass
    if tick_ps <= 0:
        raise TraceError("%s: line 1: no tick length ('tick = <ps> ps') in the header" % path)
    if len(lines) < 2 or not lines[-1].startswith("# events "):
        raise TraceError("%s: truncated after line %d: the closing '# events ... ok' line is missing" % (path, len(lines)))
    footer = lines[-1]
    if "BROKEN" in footer:
        raise TraceError("%s: line %d: the decoder found the monitor stream broken: %s" % (path, len(lines), footer[2:]))
    raw = []
    for i, ln in enumerate(lines[1:-1], start=2):
        p = ln.split()
        if len(p) != 5 or not p[3].startswith("0x"):
            raise TraceError("%s: line %d: expected '<ticks> <time_ns> <board> 0x<word> <name>', got %r" % (path, i, ln[:80]))
        try:
            ticks, board, word = int(p[0]), int(p[2]), int(p[3], 16)
        except ValueError:
            raise TraceError("%s: line %d: a field is not a number: %r" % (path, i, ln[:80]))
        if not 1 <= board <= 15 or word > 0xFFFF:
            raise TraceError("%s: line %d: board %d / word 0x%X out of range" % (path, i, board, word))
        raw.append((ticks, board, word, p[4].startswith("WRAP_"), "line %d" % i))
    try:
        fp = footer.split()
        n_ev, n_mk = int(fp[2]), int(fp[4])
    except (ValueError, IndexError):
        raise TraceError("%s: truncated after line %d: the closing line %r is cut short" % (path, len(lines), footer))
    have_mk = sum(1 for r in raw if r[3])
    if n_ev + n_mk != len(raw) or n_mk != have_mk:
        raise TraceError("%s: the closing line counts %d events and %d markers but the file has %d and %d: lines are missing"
                         % (path, n_ev, n_mk, len(raw) - have_mk, have_mk))
    return _build(path, raw, tick_ps, footer)


def read_binary(path):
    try:
        data = open(path, "rb").read()
    except OSError as e:
        raise TraceError("%s: cannot open: %s" % (path, e.strerror))
    if len(data) < 24 or data[:4] != b"TBMT":
        raise TraceError("%s: byte 0: not a binary monitor trace (no 'TBMT' header)" % path)
    version, _z, tick_ps, count = struct.unpack(">HHQQ", data[4:24])
    if version != 1:
        raise TraceError("%s: byte 4: version %d, this reader knows 1" % (path, version))
    need = 24 + 12 * count
    if len(data) != need:
        raise TraceError("%s: byte %d: the header promises %d records (%d bytes) but the file has %d bytes: %s"
                         % (path, min(len(data), need), count, need, len(data),
                            "truncated" if len(data) < need else "trailing bytes"))
    raw = []
    for i in range(count):
        ticks, board, flags, word = struct.unpack_from(">QBBH", data, 24 + 12 * i)
        raw.append((ticks, board, word, bool(flags & 1), "record %d (byte %d)" % (i, 24 + 12 * i)))
    return _build(path, raw, tick_ps, "")


def read(path):
    """A decoded trace, text or binary by content."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as e:
        raise TraceError("%s: cannot open: %s" % (path, e.strerror))
    if head == b"TBMT":
        return read_binary(path)
    return read_text(path)
