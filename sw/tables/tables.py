"""The shared tables (sw/tables/*.toml), read and checked in one place for every Python tool.

The generators (gen_tables.py, gen_tos.py), the waveform view (waveforms/tbwaves.py) and the
analysis (sw/analysis/testbed_analysis) take their machine facts from here, so a fact written in
a table is read one way everywhere: event codes and their conventions (events.toml), TOS's
interface (tos.toml: system calls, board names, the TID's layout, Centrenet message types) and
the board with its registers (memory_map.toml, registers/*.toml).

A tool finds this file beside the tables: sw/tables in the clone, share/testbed/tables in an
install (cmake/install.cmake puts both there). Errors raise TableError naming the table and the
entry; the generators turn it into their own message. Each call reads the files again and hands
out its own copy (a generator adds derived keys to what it gets).
"""
import pathlib
import re
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
    validate_events(ev)
    return ev


def validate_events(ev):
    """Each code once, clear of the wrap marker, the schedule bit and the continue bit."""
    conv = ev["convention"]
    codes = {}
    for e in ev.get("event", []):
        c = e["code"]
        if not 0 <= c <= 0xFFFF:
            raise TableError(f"event {e['name']}: code out of 16 bits")
        if (c & conv["wrap_marker_mask"]) == conv["wrap_marker_value"]:
            raise TableError(f"event {e['name']}: code 0x{c:04X} collides with the wrap marker 0xAAnn")
        if c & conv["schedule_bit"]:
            raise TableError(f"event {e['name']}: code 0x{c:04X} has the schedule bit (14) set")
        if c & conv["continue_bit"]:
            raise TableError(f"event {e['name']}: give the code without bit 15; set follows instead")
        if c in codes:
            raise TableError(f"events {codes[c]} and {e['name']} share code 0x{c:04X}")
        codes[c] = e["name"]


def memory_map(folder=HERE):
    """memory_map.toml with each device's registers/<device>.toml ([[register]], [[layout]],
    [[instance]]) merged in, checked, and instances expanded (a region whose registers are another's)."""
    folder = pathlib.Path(folder)
    mm = _read(folder, "memory_map.toml")
    for extra in sorted((folder / "registers").glob("*.toml")):
        doc = _read(extra.parent, extra.name)
        for key in ("register", "layout", "instance"):
            mm.setdefault(key, []).extend(doc.get(key, []))
    validate_memory_map(mm)
    expand_instances(mm)
    return mm


FIELD_ACCESS = ("ro", "wo", "rw", "w1c", "rc")
# Field access kinds a register's access allows (a read-only register has no writable field).
ALLOWED_FIELD_ACCESS = {"ro": ("ro", "rc"), "wo": ("wo",), "rw": FIELD_ACCESS}


def field_bits(where, f, width):
    """(lsb, msb) of a field: bits = N or "HI..LO"."""
    b = f.get("bits")
    try:
        if isinstance(b, int) and not isinstance(b, bool):
            hi = lo = b
        else:
            hi, lo = (int(x) for x in str(b).split(".."))
    except ValueError:
        raise TableError(f"{where}.{f.get('name')}: bits must be N or \"HI..LO\", not {b!r}")
    if lo < 0 or hi < lo:
        raise TableError(f"{where}.{f['name']}: bits {b!r} must be HI..LO with HI >= LO >= 0")
    if hi >= width:
        raise TableError(f"{where}.{f['name']}: bits {b!r} exceed the {width}-bit width")
    return lo, hi


def field_mask(f):
    return ((1 << (f["msb"] - f["lsb"] + 1)) - 1) << f["lsb"]


def check_values(where, vals, bits):
    seen_n, seen_v = set(), set()
    for v in vals:
        if not isinstance(v.get("name"), str) or not isinstance(v.get("value"), int):
            raise TableError(f"{where}: each value needs a name and an integer value")
        check_name(where, v["name"])
        if v["name"] in seen_n:
            raise TableError(f"{where}: value {v['name']} defined twice")
        if v["value"] in seen_v:
            raise TableError(f"{where}: two values share {v['value']}")
        if not 0 <= v["value"] < (1 << bits):
            raise TableError(f"{where}: value {v['name']} = {v['value']} does not fit in {bits} bits")
        seen_n.add(v["name"])
        seen_v.add(v["value"])


def check_reset(where, reset, bits):
    if reset == "config":
        return
    if isinstance(reset, bool) or not isinstance(reset, int) or not 0 <= reset < (1 << bits):
        raise TableError(f"{where}: reset must be an integer that fits in {bits} bits, or \"config\"")


IDENT = re.compile(r"[A-Z][A-Z0-9_]*$")


def check_name(where, name):
    if not isinstance(name, str) or not IDENT.match(name):
        raise TableError(f"{where}: name {name!r} must be upper case letters, digits and _ (a C, C++ and SV name)")


def check_fields(where, fields, width, reg_access=None, owner=None):
    """Parses and checks the fields of a register or layout in place (adds lsb, msb)."""
    taken = {}
    names = set()
    for f in fields:
        if not isinstance(f.get("name"), str):
            raise TableError(f"{where}: a field without a name")
        fw = f"{where}.{f['name']}"
        check_name(fw, f["name"])
        if f["name"] == owner:
            raise TableError(f"{fw}: a field may not have its register's name")
        if f.get("access") not in FIELD_ACCESS:
            raise TableError(f"{fw}: field access must be one of {', '.join(FIELD_ACCESS)}")
        if reg_access and f["access"] not in ALLOWED_FIELD_ACCESS[reg_access]:
            raise TableError(f"{fw}: a {f['access']} field in a {reg_access} register")
        if f["name"] in names:
            raise TableError(f"{where}: field {f['name']} defined twice")
        names.add(f["name"])
        f["lsb"], f["msb"] = field_bits(where, f, width)
        for b in range(f["lsb"], f["msb"] + 1):
            if b in taken:
                raise TableError(f"{where}: fields {taken[b]} and {f['name']} overlap (bit {b})")
            taken[b] = f["name"]
        check_reset(fw, f.get("reset", 0), f["msb"] - f["lsb"] + 1)
        check_values(fw, f.get("values", []), f["msb"] - f["lsb"] + 1)


def reg_reset(reg):
    """The register's value after reset: its own `reset`, or its fields' resets put together;
    "config" when a board parameter sets it."""
    if "reset" in reg:
        return reg["reset"]
    v = 0
    for f in reg.get("field", []):
        r = f.get("reset", 0)
        if r == "config":
            return "config"
        v |= r << f["lsb"]
    return v


def expand_instances(mm):
    """[[instance]] region = R, of = S: region R has the register file of region S (one model,
    several instances, as the two serial ports). Its registers are S's, renamed in region."""
    for inst in mm.get("instance", []):
        for reg in [r for r in mm["register"] if r["region"] == inst["of"]]:
            copy = dict(reg, region=inst["region"], instance_of=inst["of"])
            mm["register"].append(copy)


def elements(reg):
    """(name, offset) of each register a [[register]] entry defines: itself, or for an array
    (count, stride) NAME0 .. NAME<count-1>."""
    n = reg.get("count")
    if n is None:
        return [(reg["name"], reg["offset"])]
    return [(f"{reg['name']}{i}", reg["offset"] + i * reg["stride"]) for i in range(n)]


def validate_memory_map(mm):
    """memory_map.toml with registers/*.toml merged in: regions, registers, fields, layouts, IRQs."""
    regions = mm["region"]
    names = set()
    spans = []
    top = 1 << mm["board"]["address_bits"]
    for r in regions:
        if r["name"] in names:
            raise TableError(f"region {r['name']} defined twice")
        names.add(r["name"])
        if r["base"] + r["size"] > top:
            raise TableError(f"region {r['name']} ends past the {mm['board']['address_bits']}-bit address space")
        spans.append((r["base"], r["base"] + r["size"], r["name"]))
    spans.sort()
    for a, b in zip(spans, spans[1:]):
        if a[1] > b[0]:
            raise TableError(f"regions {a[2]} and {b[2]} overlap")
    by_name = {r["name"]: r for r in regions}
    seen = set()
    used = {}  # (region, byte offset) -> register
    for reg in mm.get("register", []):
        r = by_name.get(reg["region"])
        if r is None:
            raise TableError(f"register {reg['name']} names unknown region {reg['region']}")
        if reg["width"] not in (16, 32):
            raise TableError(f"register {reg['region']}.{reg['name']}: width must be 16 or 32")
        if reg["access"] not in ("ro", "wo", "rw"):
            raise TableError(f"register {reg['region']}.{reg['name']}: access must be ro, wo or rw")
        if ("count" in reg) != ("stride" in reg) or reg.get("count", 1) < 1:
            raise TableError(f"register {reg['region']}.{reg['name']}: an array needs count >= 1 and stride")
        if reg.get("first_as_base") and "count" not in reg:
            raise TableError(f"register {reg['region']}.{reg['name']}: first_as_base is for arrays")
        for name, off in elements(reg):
            key = (reg["region"], name)
            if key in seen:
                raise TableError(f"register {reg['region']}.{name} defined twice")
            seen.add(key)
            if off + reg["width"] // 8 > r["size"]:
                raise TableError(f"register {reg['region']}.{name} lies outside its region")
            if off % min(2, reg["width"] // 8):
                raise TableError(f"register {reg['region']}.{name} is misaligned")
            # Registers of different sets (MON: the slave's SMI, the master's MMI) may share an
            # address, since a board decodes one set; within a set nothing may overlap.
            for b in range(off, off + reg["width"] // 8):
                other = used.get((reg["region"], reg.get("set", ""), b))
                if other:
                    raise TableError(f"registers {reg['region']}.{other} and {reg['region']}.{name} overlap")
                used[(reg["region"], reg.get("set", ""), b)] = name
        where = f"register {reg['region']}.{reg['name']}"
        if "field" in reg and "values" in reg:
            raise TableError(f"{where}: give values to a field, or to a register without fields, not both")
        check_name(where, reg["name"])
        check_fields(where, reg.get("field", []), reg["width"], reg["access"], reg["name"])
        check_reset(where, reg.get("reset", 0), reg["width"])
        check_values(where, reg.get("values", []), reg["width"])
    for inst in mm.get("instance", []):
        if inst.get("region") not in by_name or inst.get("of") not in by_name:
            raise TableError(f"instance {inst.get('region')} of {inst.get('of')}: unknown region")
        if any(reg["region"] == inst["region"] for reg in mm.get("register", [])):
            raise TableError(f"instance {inst['region']}: the region has registers of its own")
    for lay in mm.get("layout", []):
        where = f"layout {lay.get('region')}.{lay.get('name')}"
        if lay.get("region") not in by_name:
            raise TableError(f"{where}: unknown region")
        if lay.get("width") not in (8, 16, 32):
            raise TableError(f"{where}: width must be 8, 16 or 32")
        if (lay["region"], lay["name"]) in seen:
            raise TableError(f"{where}: a register of that name exists")
        check_name(where, lay.get("name"))
        check_fields(where, lay.get("field", []), lay["width"], owner=lay["name"])
    for name in mm.get("irq", {}):
        if name not in by_name:
            raise TableError(f"irq {name} names unknown region")
        if not 1 <= mm["irq"][name] <= 7:
            raise TableError(f"irq {name}: level must be 1..7")


def board(folder=HERE):
    """memory_map.toml's [board]: address bits, page size, clock, RAM."""
    b = _read(folder, "memory_map.toml")["board"]
    if b["page_size"] <= 0 or b["page_size"] & (b["page_size"] - 1):
        raise TableError(f"memory_map.toml: board.page_size {b['page_size']} is not a power of two")
    return b


def file_service(folder=HERE):
    """file_service.toml: the host file service's sync bytes, two different bytes."""
    fs = _read(folder, "file_service.toml")
    sync = fs["sync"]
    for k in ("request", "reply"):
        if not isinstance(sync.get(k), int) or not 0 <= sync[k] <= 0xFF:
            raise TableError(f"file_service.toml: sync.{k} = {sync.get(k)} is not a byte")
    if sync["request"] == sync["reply"]:
        raise TableError("file_service.toml: the request and reply sync bytes must differ")
    return fs


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
                ("gs_word", "TOS_GS_", "`gs_serve` words"),
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
