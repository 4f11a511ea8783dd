"""The shared tables (sw/tables/*.toml), read and checked in one place for every Python tool.

The generators (gen_tables.py, gen_tos.py), the waveform view (waveforms/tbwaves.py) and the
analysis (sw/analysis/testbed_analysis) take their machine facts from here, so a fact written in
a table is read one way everywhere: event codes and their conventions (events.toml), TOS's
interface (tos.toml: system calls, board names, the TID's layout, Centrenet message types) and
the board (memory_map.toml).

A tool finds this file beside the tables: sw/tables in the clone, share/testbed/tables in an
install (cmake/install.cmake puts both there). Errors raise TableError naming the table and the
entry; the generators turn it into their own message. Each call reads the files again and hands
out its own copy (a generator adds derived keys to what it gets).
"""
import pathlib
import tomllib
from dataclasses import dataclass

HERE = pathlib.Path(__file__).resolve().parent


class TableError(Exception):
    """A table that contradicts itself or another table: the message says which entry."""


def _read(folder, name):
    with open(pathlib.Path(folder) / name, "rb") as f:
        return tomllib.load(f)


def events(folder=HERE):
    """events.toml: [convention] and [[event]]."""
    ev = _read(folder, "events.toml")
    conv = ev["convention"]
    if conv["tid_mask"] & (conv["schedule_bit"] | conv["continue_bit"]):
        raise TableError("events.toml: tid_mask overlaps the schedule or continue bit")
    return ev


def board(folder=HERE):
    """memory_map.toml's [board]: address bits, page size, clock, RAM."""
    b = _read(folder, "memory_map.toml")["board"]
    if b["page_size"] <= 0 or b["page_size"] & (b["page_size"] - 1):
        raise TableError(f"memory_map.toml: board.page_size {b['page_size']} is not a power of two")
    return b


def tos(folder=HERE):
    """tos.toml, checked against itself, events.toml's classes and the board's page size."""
    t = _read(folder, "tos.toml")
    validate_tos(t, events(folder), board(folder)["page_size"])
    return t


# Further tables of named values in tos.toml: (table, C prefix, heading in the docs).
VALUE_TABLES = [("mon_status", "TOS_MON_", "`mon_status` selectors"), ("lan_flag", "TOS_LAN_", "`lan_put` flags"),
                ("reconf", "TOS_RECONF_", "`reconfigure` kinds"),
                ("cm_mode", "TOS_CM_", "`rgn_cm` modes"), ("cm_result", "TOS_CM_", "`rgn_cm` results"),
                ("cm_policy", "TOS_CM_", "`rgn_policy` policies"), ("cm_count", "TOS_CM_", "`rgn_policy` counts"),
                ("barrier_policy", "TOS_BARRIER_", "`barrier_arrive` waiting policies"),
                ("wakeup", "TOS_WAKE_", "`sched_wakeup` placements"), ("dev_op", "TOS_DEV_", "`dev` operations"),
                ("pmig_mode", "TOS_PMIG_", "`pmigrate` checkpoint modes"),
                ("route_info", "TOS_ROUTE_", "`route_info` selectors")]
ARG_REGS = ["d1", "d2", "d3", "a0", "a1", "a2"]
C_TYPES = {"char": 1, "uint8_t": 1, "uint16_t": 2, "uint32_t": 4, "int32_t": 4}
# who may make a system call (tos.toml's comment above [[syscall]]; kernel/privilege.c checks it)
PRIVILEGES = {"any": "every process", "privileged": "a process the boot script started (EPERM otherwise)",
              "own": "any, on its own process or descendants; privileged, on any",
              "owner": "the device's owner",
              "privileged_to_set": "any, to read; a privileged process, to set"}


def validate_tos(tos, ev, page):
    lim, lay = tos["limits"], tos["layout"]
    for k, v in lay.items():
        if v % page:
            raise TableError(f"layout.{k} = 0x{v:X} is not a multiple of the {page}-byte page")
    if lay["user_image_top"] - lay["user_base"] != lim["image_bytes"]:
        raise TableError("layout: user_image_top - user_base must equal limits.image_bytes")
    if lay["user_image_top"] > lay["stack_base"]:
        raise TableError("layout: the image overlaps the stack windows")
    if lay["stack_base"] + lim["threads"] * lay["stack_window"] != lay["user_top"]:
        raise TableError("layout: user_top must be stack_base + threads * stack_window")
    if (lim["stack_pages"] + 1) * page != lay["stack_window"]:
        raise TableError("layout: stack_window must be limits.stack_pages pages and a guard page")
    if lay["kernel_stack_top"] > lay["fs_base"]:
        raise TableError("layout: the kernel stack must lie below the filestore")
    for group, key in (("syscall", "number"), ("error", "value"), ("info", "value"), ("event_class", "bit"),
                       ("open_flag", "value"), ("whence", "value"), ("net_type", "value"),
                       *((t, "value") for t, _, _ in VALUE_TABLES)):
        seen = {}
        for e in tos.get(group, []):
            if e[key] in seen:
                raise TableError(f"{group} {seen[e[key]]} and {e['name']} share {key} {e[key]}")
            seen[e[key]] = e["name"]
    for s in tos["syscall"]:
        if len(s["args"]) > len(ARG_REGS):
            raise TableError(f"syscall {s['name']} has more than {len(ARG_REGS)} arguments")
        if s.get("privilege", "any") not in PRIVILEGES:
            raise TableError(f"syscall {s['name']}: privilege '{s['privilege']}' is not one of {sorted(PRIVILEGES)}")
    for c in tos["event_class"]:
        if not 0 <= c["bit"] < 16:
            raise TableError(f"event class {c['name']}: bit {c['bit']} is not 0..15")
    for f in tos.get("open_flag", []):
        if f["value"] <= 0 or f["value"] & (f["value"] - 1):
            raise TableError(f"open flag {f['name']}: {f['value']} is not a single bit")
    for st in tos.get("struct", []):
        for fld in st["fields"]:
            if fld["type"] not in C_TYPES:
                raise TableError(f"struct {st['name']}.{fld['name']}: type {fld['type']} is not one of {sorted(C_TYPES)}")
    classes = {c["name"] for c in tos["event_class"]}
    for e in ev.get("event", []):
        if e["class"] not in classes:
            raise TableError(f"event {e['name']} names class '{e['class']}', which tos.toml does not define")
    # The TID's fields must hold every slot, process and board, and the monitor's words (tid_mask)
    # a slave's whole TID.
    t = tos["tid"]
    for field, most in (("slot_bits", lim["threads"]), ("process_bits", lim["processes"]),
                        ("board_bits", tos["boards"]["max"])):
        if 1 << t[field] < most:
            raise TableError(f"tid.{field} = {t[field]} cannot number {most}")
    if t["slot_bits"] + t["process_bits"] + t["board_bits"] > 16:
        raise TableError("tid: a TID is 16 bits (uint16_t)")
    lay = tid_layout_of(tos)
    if ev["convention"]["tid_mask"] >> lay.board_shift < len(tos["boards"]["names"]) - 1:
        raise TableError("events.toml's tid_mask cuts the board of a named board's TID")
    types = tos["net"]["types"]
    for n in tos.get("net_type", []):
        if not 0 < n["value"] < types:
            raise TableError(f"net_type {n['name']}: value {n['value']} is not 1..net.types-1 ({types - 1})")
    if types > 256:
        raise TableError("net.types: a message's type is its header's bits 7..0")


@dataclass(frozen=True)
class TidLayout:
    """TID = board << board_shift | process << process_shift | slot (tos.toml's [tid])."""
    slot_bits: int
    process_bits: int
    board_bits: int

    @property
    def process_shift(self):
        return self.slot_bits

    @property
    def board_shift(self):
        return self.slot_bits + self.process_bits

    @property
    def slot_mask(self):
        return (1 << self.slot_bits) - 1

    @property
    def process_mask(self):
        return (1 << self.process_bits) - 1

    @property
    def board_mask(self):
        return (1 << self.board_bits) - 1

    def slot(self, tid):
        return tid & self.slot_mask

    def process(self, tid):
        return (tid >> self.process_shift) & self.process_mask

    def board(self, tid):
        return (tid >> self.board_shift) & self.board_mask

    def name(self, tid):
        """P<process>.T<slot>: a thread within its board."""
        return f"P{self.process(tid)}.T{self.slot(tid)}"


def tid_layout_of(tos_doc):
    t = tos_doc["tid"]
    return TidLayout(t["slot_bits"], t["process_bits"], t["board_bits"])


def tid_layout(folder=HERE):
    return tid_layout_of(tos(folder))


def board_names(folder=HERE):
    """The Testbed's boards by number: master, earth, air, fire, water, space. A larger machine's
    further boards are board<N> (board_name)."""
    return list(tos(folder)["boards"]["names"])


def board_name(k, names=None):
    names = board_names() if names is None else names
    return names[k] if 0 <= k < len(names) else f"board{k}"


def net_types(path=None):
    """Centrenet message types, value -> name (CON_OUT, MSG, ...): tos.toml's [[net_type]], or
    those of another TOML file of [[net_type]] entries (a trace recorded with another kernel)."""
    doc = tos() if path is None else _read(pathlib.Path(path).parent, pathlib.Path(path).name)
    return {n["value"]: n["name"] for n in doc.get("net_type", [])}
