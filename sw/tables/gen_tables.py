#!/usr/bin/env python3
"""Generate every derived form of the shared tables (memory map, IRQs, event codes).

One definition (memory_map.toml, registers/*.toml, events.toml), many consumers:
  testbed/memory_map.h     C header (C, C++, firmware, m68k assembly): addresses, offsets, and
                           each register field's mask (TB_<R>_<REG>_<F>) and _SHIFT, enumerated
                           values (TB_<R>_<REG>_<F>_<V>), RAM layouts (TB_<R>_<L>_<F>)
  testbed/board_names.h    C++: the Testbed's board names (tos.toml's [boards])
  testbed/register_tables.h C++ declarations the device models use: one struct per register
                           (offset, width, access, reset, fields), one RegSpec table per region
  verilog/testbed_regs_pkg.sv SystemVerilog package with the same names as the C header
  verilog/memory_map.vh    Verilog `defines (bases and offsets)
  gtkwave/*.filter         translate filters (event codes; register addresses on the bus VCD)
  testbed/file_service_protocol.h  the host file service's sync bytes (file_service.toml)
  docs/*.md                Markdown tables (checked in; a test fails when they are stale)
Usage: gen_tables.py --out DIR [--docs DIR] [--check-docs DIR] [--tables DIR]
"""
import argparse
import pathlib
import re
import sys
import tomllib

import tables
from tables import elements, field_mask, reg_reset

HERE = tables.HERE


def load(folder=HERE):
    """The tables, read and checked by tables.py, and the SMI filter's view of the events."""
    try:
        mm = tables.memory_map(folder)
        ev = tables.events(folder)
        tos = tables.tos(folder)
    except tables.TableError as e:
        fail(e)
    # The SMI filter's event classes are TOS's dgl classes (tos.toml event_class bits).
    ev["_classes"] = {c["name"]: c["bit"] for c in tos.get("event_class", [])}
    ev["_tid"] = tables.tid_layout_of(tos)
    ev["_board_names"] = tos["boards"]["names"]
    filter_table(ev)
    return mm, ev


def fail(msg):
    sys.exit(f"gen_tables: {msg}")


def validate(mm):
    try:
        tables.validate_memory_map(mm)
    except tables.TableError as e:
        fail(e)


def region_symbols(mm, r):
    """The named constants of one region, in order: (name, value, bits, comment). bits is the
    width of the value (24 for addresses, 16 for offsets, the register's or field's width for
    masks and values, 0 for plain numbers). The C header and the SystemVerilog package both
    print exactly this list."""
    out = [(f"TB_{r['name']}_BASE", r["base"], 24, r["desc"]),
           (f"TB_{r['name']}_SIZE", r["size"], 24, None)]

    def fields(prefix, fl, width):
        for f in fl:
            n = f"{prefix}_{f['name']}"
            fb = f["msb"] - f["lsb"] + 1
            bits = f"bit {f['lsb']}" if fb == 1 else f"bits {f['msb']}..{f['lsb']}"
            out.append((n, field_mask(f), width, f"{bits} {f['access']}: {f['desc']}"))
            out.append((f"{n}_SHIFT", f["lsb"], 0, None))
            for v in f.get("values", []):
                out.append((f"{n}_{v['name']}", v["value"], fb, v.get("desc")))

    for reg in mm.get("register", []):
        if reg["region"] != r["name"]:
            continue
        n = f"TB_{r['name']}_{reg['name']}"
        desc = reg["desc"] if "instance_of" not in reg else f"as {reg['instance_of']}.{reg['name']}"
        if "count" in reg:
            out.append((f"{n}_COUNT", reg["count"], 0, f"{reg['width']}-bit {reg['access']}: {desc}"))
            out.append((f"{n}_STRIDE", reg["stride"], 0, None))
            if reg.get("first_as_base"):  # the array's own name is its first element
                out.append((f"{n}_OFF", reg["offset"], 16, f"{reg['width']}-bit {reg['access']}: element 0 of {reg['name']}"))
                out.append((n, r["base"] + reg["offset"], 24, None))
        for name, off in elements(reg):
            note = desc if "count" not in reg else f"element of {reg['name']}"
            out.append((f"TB_{r['name']}_{name}_OFF", off, 16, f"{reg['width']}-bit {reg['access']}: {note}"))
            out.append((f"TB_{r['name']}_{name}", r["base"] + off, 24, None))
        fields(n, reg.get("field", []), reg["width"])
        for v in reg.get("values", []):
            out.append((f"{n}_{v['name']}", v["value"], reg["width"], v.get("desc")))
        # its value after reset, where the table gives one that is not 0 (a register array's
        # elements share it): the RTL's reset and the firmware take it from here, as the TLM
        # takes regs::<R>::<REG>::reset
        reset = reg_reset(reg)
        if not isinstance(reset, bool) and isinstance(reset, int) and reset:
            out.append((f"{n}_RESET", reset, reg["width"], "value after reset"))
    for lay in mm.get("layout", []):
        if lay["region"] == r["name"]:
            out.append((f"TB_{r['name']}_{lay['name']}_BITS", lay["width"], 0, f"layout: {lay['desc']}"))
            fields(f"TB_{r['name']}_{lay['name']}", lay.get("field", []), lay["width"])
    return out


def all_symbols(mm):
    syms = [s for r in mm["region"] for s in region_symbols(mm, r)]
    seen = {}
    for s in syms:
        if s[0] in seen:
            fail(f"two definitions of {s[0]} (rename a register, field, value or layout)")
        seen[s[0]] = s
    return syms


def c_hex(value, bits, name):
    if name.endswith("_OFF"):
        return f"0x{value:02X}"
    return f"0x{value:0{(bits + 3) // 4}X}"


def c_header(mm, ev):
    out = ["/* Generated by sw/tables/gen_tables.py from memory_map.toml and events.toml.",
           " * Do not edit: change the tables. Valid in C, C++ and m68k assembly. */",
           "#ifndef TESTBED_MEMORY_MAP_H", "#define TESTBED_MEMORY_MAP_H", ""]
    b = mm["board"]
    out += [f"#define TB_ADDRESS_BITS {b['address_bits']}",
            f"#define TB_PAGE_SIZE {b['page_size']}",
            f"#define TB_PAGE_SHIFT {b['page_size'].bit_length() - 1}",
            f"#define TB_CPU_CLOCK_HZ {b['cpu_clock_hz']}",
            f"#define TB_RAM_DEFAULT_BYTES 0x{b['ram_default_bytes']:06X}",
            f"#define TB_RAM_MAX_BYTES 0x{b['ram_max_bytes']:06X}", ""]
    all_symbols(mm)  # refuses clashing names
    for r in mm["region"]:
        syms = region_symbols(mm, r)
        out.append(f"/* {syms[0][3]} */")
        for name, value, bits, note in syms[1:] and syms:
            text = c_hex(value, bits, name) if bits else str(value)
            out.append(f"#define {name} {text}" + (f" /* {note.replace('*/', '* /')} */" if note and name != syms[0][0] else ""))
            n = name[:-len("_STRIDE")]
            if name.endswith("_STRIDE") and not any(s[0] == n for s in syms):  # address of element n
                out.append(f"#define {n}(n) ({n}0 + {n}_STRIDE * (n))")
        out.append("")
    for name, lvl in mm.get("irq", {}).items():
        out.append(f"#define TB_IRQ_{name} {lvl}")
    out += ["", "#endif", ""]
    return "\n".join(out)


def cxx_field(f, indent):
    """A field as a nested struct: mask, shift, width, access, reset, get/put, its values."""
    acc = f["access"].upper()
    reset = f.get("reset", 0)
    lines = [f"{indent}struct {f['name']} : tables::Field<0x{field_mask(f):X}u, {f['lsb']}, "
             f"tables::FieldAccess::{acc}, {0 if reset == 'config' else reset}u, {str(reset == 'config').lower()}> {{",
             f"{indent}  static constexpr const char* name = \"{f['name']}\";"]
    vals = f.get("values", [])
    for v in vals:
        lines.append(f"{indent}  static constexpr uint32_t {v['name']} = 0x{v['value']:X}u;")
    if vals:
        lines.append(f"{indent}  static constexpr tables::ValueSpec values[] = {{"
                     + ", ".join(f"{{\"{v['name']}\", {v['name']}}}" for v in vals) + "};")
    lines.append(f"{indent}}};")
    return lines


def cxx_field_table(fields, indent):
    if not fields:
        return [f"{indent}static constexpr const tables::FieldSpec* fields = nullptr;",
                f"{indent}static constexpr unsigned field_count = 0;"]
    items = []
    for f in fields:
        n = f["name"]
        vals = f"{n}::values, {len(f['values'])}" if f.get("values") else "nullptr, 0"
        items.append(f"{{\"{n}\", {n}::mask, {n}::shift, {n}::access, {n}::reset, {n}::reset_from_config, {vals}}}")
    return [f"{indent}static constexpr tables::FieldSpec fields[] = {{",
            *[f"{indent}    {i}," for i in items], f"{indent}}};",
            f"{indent}static constexpr unsigned field_count = {len(fields)};"]


def register_tables(mm):
    """C++ only: one struct per register (and RAM layout) with its fields, for the device models,
    and each region's table of registers (arrays expanded) for the register decoder."""
    out = ["// Generated by sw/tables/gen_tables.py from sw/tables/registers/*.toml. Do not edit.",
           "// The TOML is the one place a register's offset, width, access, reset and fields are written.",
           "//   testbed::regs::<region>::<REG>            offset, address, bytes, access, reset, fields[]",
           "//   testbed::regs::<region>::<REG>::<FIELD>   mask, shift, width, get(v), put(x), its values",
           "//   testbed::tables::k<Region><Set>Registers  the region's registers for RegisterTarget",
           "//   testbed::tables::kRegions, kLayouts       everything, for tests and tools",
           "#pragma once", "#include <cstddef>", "#include <cstdint>", "", "namespace testbed::tables {", "",
           "enum class RegAccess : uint8_t { RO, WO, RW };",
           "// RO read-only, WO write-only, RW read/write, W1C write 1 to clear, RC cleared by reading.",
           "enum class FieldAccess : uint8_t { RO, WO, RW, W1C, RC };",
           "struct ValueSpec {", "  const char* name;", "  uint32_t value;", "};",
           "struct FieldSpec {", "  const char* name;", "  uint32_t mask;", "  uint8_t shift;",
           "  FieldAccess access;", "  uint32_t reset;", "  bool reset_from_config;",
           "  const ValueSpec* values;", "  unsigned value_count;",
           "  constexpr uint32_t get(uint32_t reg) const { return (reg & mask) >> shift; }",
           "  constexpr uint32_t put(uint32_t v) const { return (v << shift) & mask; }", "};",
           "struct RegSpec {", "  uint32_t offset;", "  uint8_t bytes;", "  RegAccess access;",
           "  const char* name;", "  const FieldSpec* fields = nullptr;", "  unsigned field_count = 0;",
           "  const ValueSpec* values = nullptr;", "  unsigned value_count = 0;",
           "  const char* base_name = nullptr;  // element 0 of an array that also has the array's name",
           "  uint32_t reset = 0;  // the value after reset (0 where a board parameter sets it)",
           "  bool reset_from_config = false;",
           "};",
           "// A field of a register or layout: Field<mask, shift, ...>::get(reg), ::put(value).",
           "template <uint32_t Mask, unsigned Shift, FieldAccess Access, uint32_t Reset, bool ResetFromConfig>",
           "struct Field {",
           "  static constexpr uint32_t mask = Mask;",
           "  static constexpr unsigned shift = Shift;",
           "  static constexpr unsigned width = [] { unsigned n = 0; for (uint32_t m = Mask >> Shift; m; m >>= 1) ++n; return n; }();",
           "  static constexpr FieldAccess access = Access;",
           "  static constexpr uint32_t reset = Reset;",
           "  static constexpr bool reset_from_config = ResetFromConfig;",
           "  static constexpr uint32_t get(uint32_t reg) { return (reg & Mask) >> Shift; }",
           "  static constexpr uint32_t put(uint32_t v) { return (v << Shift) & Mask; }",
           "};", "", "}  // namespace testbed::tables", "", "namespace testbed::regs {", ""]
    tables_out = ["namespace testbed::tables {", ""]
    region_rows = []
    for r in mm["region"]:
        regs = [reg for reg in mm.get("register", []) if reg["region"] == r["name"]]
        lays = [lay for lay in mm.get("layout", []) if lay["region"] == r["name"]]
        ns = r["name"].lower()
        if not regs and not lays:
            region_rows.append(f"    {{\"{r['name']}\", \"\", 0x{r['base']:06X}u, 0x{r['size']:X}u, nullptr, 0}},")
            continue
        out += [f"// {r['name']}: {r['desc']}", f"namespace {ns} {{",
                f"inline constexpr uint32_t kBase = 0x{r['base']:06X}u;",
                f"inline constexpr uint32_t kSize = 0x{r['size']:X}u;", ""]
        for reg in regs:
            reset = reg_reset(reg)
            out.append(f"struct {reg['name']} {{")
            out.append(f"  static constexpr const char* name = \"{reg['name']}\";")
            out.append(f"  static constexpr uint32_t offset = 0x{reg['offset']:02X}u;")
            out.append(f"  static constexpr uint32_t address = 0x{r['base'] + reg['offset']:06X}u;")
            out.append(f"  static constexpr unsigned bytes = {reg['width'] // 8};")
            out.append(f"  static constexpr tables::RegAccess access = tables::RegAccess::{reg['access'].upper()};")
            out.append(f"  static constexpr uint32_t reset = 0x{0 if reset == 'config' else reset:X}u;")
            out.append(f"  static constexpr bool reset_from_config = {str(reset == 'config').lower()};")
            if "count" in reg:
                out.append(f"  static constexpr unsigned count = {reg['count']};")
                out.append(f"  static constexpr uint32_t stride = {reg['stride']};")
                out.append("  static constexpr uint32_t offset_of(unsigned n) { return offset + n * stride; }")
                out.append(f"  static constexpr bool first_as_base = {str(bool(reg.get('first_as_base'))).lower()};")
            for f in reg.get("field", []):
                out += cxx_field(f, "  ")
            out += cxx_field_table(reg.get("field", []), "  ")
            vals = reg.get("values", [])
            for v in vals:
                out.append(f"  static constexpr uint32_t {v['name']} = 0x{v['value']:X}u;")
            if vals:
                out.append("  static constexpr tables::ValueSpec values[] = {"
                           + ", ".join(f"{{\"{v['name']}\", {v['name']}}}" for v in vals) + "};")
            out.append("};")
        for lay in lays:
            out.append(f"// Layout (RAM): {lay['desc']}")
            out.append(f"struct {lay['name']} {{")
            out.append(f"  static constexpr const char* name = \"{lay['name']}\";")
            out.append(f"  static constexpr unsigned bits = {lay['width']};")
            for f in lay.get("field", []):
                out += cxx_field(f, "  ")
            out += cxx_field_table(lay.get("field", []), "  ")
            out.append("};")
        out += [f"}}  // namespace {ns}", ""]
        for rset in dict.fromkeys(reg.get("set", "") for reg in regs):
            ident = "k" + r["name"].capitalize() + rset.capitalize() + "Registers"
            tables_out.append(f"// {r['name']}{' (' + rset + ')' if rset else ''}: {r['desc']}")
            tables_out.append(f"inline constexpr RegSpec {ident}[] = {{")
            for reg in regs:
                if reg.get("set", "") != rset:
                    continue
                q = f"regs::{ns}::{reg['name']}"
                vals = f"{q}::values, {len(reg['values'])}" if reg.get("values") else "nullptr, 0"
                for i, (name, off) in enumerate(elements(reg)):
                    o = f"{q}::offset_of({i})" if "count" in reg else f"{q}::offset"
                    alias = f"\"{reg['name']}\"" if reg.get("first_as_base") and i == 0 else "nullptr"
                    tables_out.append(f"    {{{o}, {q}::bytes, {q}::access, \"{name}\", {q}::fields, {q}::field_count, {vals}, "
                                      f"{alias}, {q}::reset, {q}::reset_from_config}},")
            tables_out.append("};")
            tables_out.append("")
            region_rows.append(f"    {{\"{r['name']}\", \"{rset}\", regs::{ns}::kBase, regs::{ns}::kSize, {ident}, sizeof({ident}) / sizeof({ident}[0])}},")
    out += ["}  // namespace testbed::regs", ""] + tables_out
    out += ["struct RegionSpec {", "  const char* name;", "  const char* set;  // \"\" unless the region has several register sets",
            "  uint32_t base, size;", "  const RegSpec* registers;", "  std::size_t count;", "};",
            "inline constexpr RegionSpec kRegions[] = {", *region_rows, "};", "",
            "struct LayoutSpec {", "  const char* region;", "  const char* name;", "  unsigned bits;",
            "  const FieldSpec* fields;", "  unsigned field_count;", "};",
            "inline constexpr LayoutSpec kLayouts[] = {"]
    for lay in mm.get("layout", []):
        q = f"regs::{lay['region'].lower()}::{lay['name']}"
        out.append(f"    {{\"{lay['region']}\", \"{lay['name']}\", {q}::bits, {q}::fields, {q}::field_count}},")
    out += ["};", "", "}  // namespace testbed::tables", ""]
    return "\n".join(out)


def sv_package(mm):
    """SystemVerilog package for the RTL: the C header's names and values (registers, fields,
    values, layouts). `import testbed_regs_pkg::*;` in a module that decodes registers."""
    out = ["// Generated by sw/tables/gen_tables.py from sw/tables/*.toml. Do not edit.",
           "// The same names and values as <testbed/memory_map.h>: TB_<R>_<REG>_OFF (16-bit offset),",
           "// TB_<R>_<REG> (24-bit address), TB_<R>_<REG>_<F> (mask, register width) and _SHIFT,",
           "// TB_<R>_<REG>_<F>_<V> (value, field width), TB_<R>_<L>_<F> (RAM layouts).",
           "// A copy is checked in as rtl/generated/testbed_regs_pkg.sv (a test fails when it is stale),",
           "// so that rtl/ lints on its own; the modules `include it (guarded), in any order of files.",
           "`ifndef TESTBED_REGS_PKG_SV", "`define TESTBED_REGS_PKG_SV",
           "// verilator lint_off UNUSEDPARAM", "package testbed_regs_pkg;"]
    syms = all_symbols(mm)
    for name, value, bits, note in syms:
        if bits:
            out.append(f"  localparam logic [{bits - 1}:0] {name} = {bits}'h{value:0{(bits + 3) // 4}X};")
        else:
            out.append(f"  localparam int {name} = {value};")
    out += ["endpackage", "// verilator lint_on UNUSEDPARAM", "`endif", ""]
    return "\n".join(out)


def gtkwave_registers_filter(mm):
    """Translate filter for the 24-bit address of the board bus VCD: register names."""
    lines = []
    base = {r["name"]: r["base"] for r in mm["region"]}
    seen = {}
    for reg in mm.get("register", []):
        for name, off in elements(reg):
            a = base[reg["region"]] + off
            seen.setdefault(a, []).append(f"{reg['region']}.{name}")
    for a in sorted(seen):
        lines.append(f"{a:06X} {'/'.join(seen[a])}")
    return "\n".join(lines) + "\n"


def filter_table(ev):
    """The SMI filter's view of each event code: (name, code, class id, index, follows). The
    class id is the event's dgl class bit; the index (0..127) its place in events.toml, which
    FLT_CODE_PASS<index / 16> bit index % 16 passes or drops."""
    conv = ev["convention"]
    sched, other = conv.get("filter_class_sched", 14), conv.get("filter_class_other", 15)
    rows = []
    for i, e in enumerate(ev.get("event", [])):
        cls = ev["_classes"].get(e["class"])
        if cls is None:
            cls = other  # gen_tos.py rejects an undefined class; here the event is OTHER
        if cls in (sched, other):
            fail(f"event {e['name']}: class {e['class']} uses bit {cls}, the filter's SCHED/OTHER class")
        if i >= 128:
            fail(f"event {e['name']}: more than 128 events; FLT_CODE_PASS has 128 bits")
        if e.get("follows", 0) > 3:
            fail(f"event {e['name']}: follows {e['follows']} > 3 (the SMI filter's continuation counter)")
        if e["code"] & conv["schedule_bit"] or e["code"] & conv["continue_bit"]:
            fail(f"event {e['name']}: code 0x{e['code']:04X} uses the schedule or continue bit")
        rows.append((e["name"], e["code"], cls, i, e.get("follows", 0)))
    ev["_filter"] = rows


def sv_events_package(ev):
    """SystemVerilog: the SMI filter's code lookup (class, index, follows) from events.toml."""
    conv = ev["convention"]
    out = ["// Generated by sw/tables/gen_tables.py from events.toml and tos.toml. Do not edit.",
           "// The SMI filter's lookup of an event code (first word's bits 13..0): whether events.toml",
           "// has it, its class (dgl bit), its index (FLT_CODE_PASS bit) and its continuation words.",
           "// Checked in as rtl/generated/testbed_events_pkg.sv (a test fails when it is stale).",
           "`ifndef TESTBED_EVENTS_PKG_SV", "`define TESTBED_EVENTS_PKG_SV",
           "// verilator lint_off UNUSEDPARAM", "package testbed_events_pkg;",
           f"  localparam logic [15:0] EV_WRAP_MARKER_VALUE = 16'h{conv['wrap_marker_value']:04X};",
           f"  localparam logic [15:0] EV_FILTER_MARKER_VALUE = 16'h{conv['filter_marker_value']:04X};",
           f"  localparam logic [3:0] EV_FILTER_CLASS_SCHED = 4'd{conv['filter_class_sched']};",
           f"  localparam logic [3:0] EV_FILTER_CLASS_OTHER = 4'd{conv['filter_class_other']};",
           "  // ev_info(code) = {known, class[3:0], index[6:0], follows[1:0]} (a vector: yosys reads it)",
           "  function automatic logic [13:0] ev_info(input logic [13:0] code);",
           "    logic [13:0] r;",
           f"    r = {{1'b0, 4'd{conv['filter_class_other']}, 7'd0, 2'd0}};",
           "    case (code)"]
    for name, code, cls, idx, fol in ev["_filter"]:
        out.append(f"      14'h{code:04X}: r = {{1'b1, 4'd{cls}, 7'd{idx}, 2'd{fol}}};  // {name}")
    out += ["      default: ;", "    endcase", "    ev_info = r;", "  endfunction",
            "endpackage", "// verilator lint_on UNUSEDPARAM", "`endif", ""]
    return "\n".join(out)


def events_header(ev):
    conv = ev["convention"]
    out = ["/* Generated by sw/tables/gen_tables.py from events.toml. Do not edit. */",
           "#ifndef TESTBED_EVENTS_H", "#define TESTBED_EVENTS_H", ""]
    for k, v in conv.items():
        out.append(f"#define EV_{k.upper()} 0x{v:04X}")
    out.append("")
    for e in ev.get("event", []):
        first = e["code"] | (conv["continue_bit"] if e.get("follows", 0) else 0)
        out.append(f"#define EV_{e['name']} 0x{first:04X} /* {e['desc']} */")
        out.append(f"#define EV_{e['name']}_FOLLOWS {e.get('follows', 0)}")
    out += ["", "/* X-macro list for tables: X(NAME, FIRST_WORD, FOLLOWS, \"description\") */",
            "#define TB_EVENT_LIST(X) \\"]
    for e in ev.get("event", []):
        desc = e["desc"].replace('"', '\\"')
        out.append(f"  X({e['name']}, EV_{e['name']}, {e.get('follows', 0)}, \"{desc}\") \\")
    out += ["", "/* The SMI filter: each code's class (its dgl bit) and FLT_CODE_PASS index. */"]
    for name, code, cls, idx, fol in ev["_filter"]:
        out.append(f"#define EV_FILTER_INDEX_{name} {idx}")
    for name, bit in sorted(ev["_classes"].items(), key=lambda x: x[1]):
        out.append(f"#define EV_FILTER_CLASS_{name.upper()} {bit}")
    out += ["/* X(NAME, CODE, CLASS, INDEX, FOLLOWS) */", "#define TB_EVENT_FILTER_LIST(X) \\"]
    for name, code, cls, idx, fol in ev["_filter"]:
        out.append(f"  X({name}, 0x{code:04X}, {cls}, {idx}, {fol}) \\")
    out += ["", "#endif", ""]
    return "\n".join(out)


def board_names_header(ev):
    """C++: the Testbed's board names by number (tos.toml's [boards] names), for the simulator."""
    names = ev["_board_names"]
    return "\n".join(["// Generated by sw/tables/gen_tables.py from tos.toml ([boards] names). Do not edit.",
                      "#pragma once", "#include <array>", "", "namespace testbed::tables {", "",
                      "// The Testbed's boards by number (seed 000 section 2.1.1): the machine a file without",
                      "// [[boards]] has; a larger machine's further boards are board<N>.",
                      f"inline constexpr std::array<const char*, {len(names)}> kBoardNames = {{"
                      + ", ".join(f'"{n}"' for n in names) + "};", "",
                      "}  // namespace testbed::tables", ""])


def verilog(mm, ev):
    out = ["// Generated by sw/tables/gen_tables.py. Do not edit.",
           "`ifndef TESTBED_MEMORY_MAP_VH", "`define TESTBED_MEMORY_MAP_VH"]
    for r in mm["region"]:
        out.append(f"`define TB_{r['name']}_BASE 24'h{r['base']:06X}")
        out.append(f"`define TB_{r['name']}_SIZE 24'h{r['size']:06X}")
        for reg in mm.get("register", []):
            if reg["region"] == r["name"]:
                for name, off in elements(reg):
                    out.append(f"`define TB_{r['name']}_{name}_OFF 8'h{off:02X}")
    conv = ev["convention"]
    for k, v in conv.items():
        out.append(f"`define EV_{k.upper()} 16'h{v:04X}")
    out += ["`endif", ""]
    return "\n".join(out)


def gtkwave_filter(ev):
    """GTKWave translate filter file: '<hex value> <text>' per line (File > Translate Filter)."""
    conv = ev["convention"]
    lines = []
    for e in ev.get("event", []):
        first = e["code"] | (conv["continue_bit"] if e.get("follows", 0) else 0)
        lines.append(f"{first:04X} {e['name']}")
    for n in range(256):
        lines.append(f"{conv['wrap_marker_value'] | n:04X} WRAP_{n:02X}")
    if "filter_marker_value" in conv:
        for n in range(256):
            lines.append(f"{conv['filter_marker_value'] | n:04X} FILTER_{n:02X}")
    # [TID+0x4000]: thread TID scheduled (profile class; the rq class's join uses the same
    # word). TID: tos.toml's [tid].
    t = ev["_tid"]
    for tid in range(conv["tid_mask"] + 1):
        lines.append(f"{conv['schedule_bit'] | tid:04X} SCHED(b{t.board(tid)}.{t.name(tid)})")
    return "\n".join(lines) + "\n"


def docs_memory_map(mm):
    out = ["# Board memory map", "",
           "Generated from `sw/tables/memory_map.toml` by `sw/tables/gen_tables.py`; edit the table, "
           "then run `cmake --build build --target docs-tables`.", "",
           "| region | base | end | size | description |", "|---|---|---|---|---|"]
    for r in mm["region"]:
        out.append(f"| {r['name']} | 0x{r['base']:06X} | 0x{r['base'] + r['size'] - 1:06X} "
                   f"| 0x{r['size']:X} | {r['desc']} |")
    out += ["", "## Registers", "",
            "A register without fields holds one number. Bits not listed under its fields read 0 "
            "and are ignored on writes. Reset `config`: set from the board's configuration.", "",
            "| register | address | width | access | reset | description |",
            "|---|---|---|---|---|---|"]
    base = {r["name"]: r["base"] for r in mm["region"]}

    def reset_text(v):
        return v if v == "config" else f"0x{v:X}"

    def values_text(vals):
        return "; ".join(f"{v['value']} {v['name']}" + (f" ({v['desc']})" if v.get("desc") else "")
                         for v in vals)

    for reg in mm.get("register", []):
        if "count" in reg:
            last = reg["count"] - 1
            name = f"{reg['region']}.{reg['name']}0..{reg['name']}{last}"
            if reg.get("first_as_base"):
                name += f" ({reg['name']} = {reg['name']}0)"
            addr = (f"0x{base[reg['region']] + reg['offset']:06X} + {reg['stride']}n")
        else:
            name = f"{reg['region']}.{reg['name']}"
            addr = f"0x{base[reg['region']] + reg['offset']:06X}"
        desc = reg["desc"] if "instance_of" not in reg else f"As {reg['instance_of']}.{reg['name']}."
        if reg.get("values"):
            desc += " Values: " + values_text(reg["values"]) + "."
        out.append(f"| {name} | {addr} | {reg['width']} | {reg['access']} | {reset_text(reg_reset(reg))} | {desc} |")

    def field_rows(owner, fields):
        rows = []
        for f in fields:
            bits = str(f["lsb"]) if f["lsb"] == f["msb"] else f"{f['msb']}..{f['lsb']}"
            desc = f["desc"]
            if f.get("values"):
                desc += " Values: " + values_text(f["values"]) + "."
            rows.append(f"| {owner} | {bits} | {f['name']} | {f['access']} | "
                        f"{reset_text(f.get('reset', 0))} | {desc} |")
        return rows

    out += ["", "## Register fields", "",
            "C: `TB_<REGION>_<REG>_<FIELD>` is the field's mask in place, `..._SHIFT` its lowest bit, "
            "`..._<VALUE>` an enumerated value (unshifted). Access: ro, wo, rw, w1c (write 1 to clear), "
            "rc (cleared by reading the register). SERIAL1's fields are SERIAL0's.", "",
            "| register | bits | field | access | reset | meaning |", "|---|---|---|---|---|---|"]
    for reg in mm.get("register", []):
        if "instance_of" not in reg:
            out += field_rows(f"{reg['region']}.{reg['name']}", reg.get("field", []))
    out += ["", "## RAM layouts", "",
            "Structures in memory that the hardware reads or writes; C: `TB_<REGION>_<LAYOUT>_<FIELD>` "
            "and `..._SHIFT`.", "",
            "| layout | bits | field | access | reset | meaning |", "|---|---|---|---|---|---|"]
    for lay in mm.get("layout", []):
        out.append(f"| {lay['region']}.{lay['name']} | {lay['width']} | | | | {lay['desc']} |")
        out += field_rows(f"{lay['region']}.{lay['name']}", lay.get("field", []))
    out += ["", "## Interrupt levels", "", "| source | IPL | autovector |", "|---|---|---|"]
    for name, lvl in mm.get("irq", {}).items():
        out.append(f"| {name} | {lvl} | {24 + lvl} |")
    return "\n".join(out) + "\n"


def docs_events(ev):
    conv = ev["convention"]
    out = ["# Monitoring event codes", "",
           "Generated from `sw/tables/events.toml` by `sw/tables/gen_tables.py`.", "",
           f"Wrap marker: 0x{conv['wrap_marker_value']:04X}|nn. Schedule bit: 0x{conv['schedule_bit']:04X} "
           f"(thread id in bits 13..0). Continue bit: 0x{conv['continue_bit']:04X}."
           + (f" Filter marker: 0x{conv['filter_marker_value']:04X}|nn (the SMI's event filter changed its settings; "
              "nn = its generation; hw/monitor/MONITOR_SPEC.md \"The event filter\")." if "filter_marker_value" in conv else ""),
           "",
           "The SMI filter's class of an event is its dgl class bit (tos.toml); index = its FLT_CODE_PASS bit.", "",
           "| name | first word | words after it | filter class, index | description |", "|---|---|---|---|---|"]
    info = {name: (cls, idx) for name, code, cls, idx, fol in ev["_filter"]}
    for e in ev.get("event", []):
        first = e["code"] | (conv["continue_bit"] if e.get("follows", 0) else 0)
        cls, idx = info[e["name"]]
        out.append(f"| {e['name']} | 0x{first:04X} | {e.get('follows', 0)} | {e['class']} ({cls}), {idx} | {e['desc']} |")
    return "\n".join(out) + "\n"


def file_service_header(folder):
    """The host file service's framing bytes (file_service.toml), for the model and firmware."""
    try:
        sync = tables.file_service(folder)["sync"]
    except tables.TableError as e:
        fail(str(e))
    return "\n".join(["/* Generated by sw/tables/gen_tables.py from file_service.toml. Do not edit. C and C++. */",
                      "#ifndef TESTBED_FILE_SERVICE_PROTOCOL_H", "#define TESTBED_FILE_SERVICE_PROTOCOL_H",
                      f"#define TB_FS_REQUEST_SYNC 0x{sync['request']:02X} /* first byte of a request */",
                      f"#define TB_FS_REPLY_SYNC 0x{sync['reply']:02X} /* first byte of a reply */",
                      "#endif", ""])


def write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text() == text:
        return
    path.write_text(text)


def device_tables(path, out):
    """A user device's own register table (README "Building on the models"): the project's
    [[register]] format under a [device] (name, size, desc), checked by the same rules. Writes
    <name>_regs.h (C, for its driver: <NAME>_<REG>_OFF offsets from the device's window,
    <NAME>_<REG>_<F> masks and _SHIFT, values) and <name>_registers.h (C++, for its model:
    testbed::regs::<name>::<REG> and testbed::tables::k<Name>Registers for RegisterTarget).
    Errors name the file and the line."""
    path = pathlib.Path(path)
    text = path.read_text()

    def line_of(name):
        for i, ln in enumerate(text.splitlines(), 1):
            if re.match(rf'\s*name\s*=\s*"{re.escape(name)}"', ln):
                return i
        return 1

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+)", str(e))
        sys.exit(f"{path}:{m.group(1) if m else 1}: {e}")
    try:
        dev = doc.get("device")
        if not isinstance(dev, dict) or not isinstance(dev.get("name"), str) or not re.fullmatch(r"[a-z][a-z0-9_]*", dev["name"]):
            fail("[device] needs name = \"...\" (lower case letters, digits, _), size and desc")
        name = dev["name"].upper()
        size = dev.get("size")
        if not isinstance(size, int) or not 2 <= size <= 0xFF00 or size % 2:
            fail(f"device {name}: size must be an even number of bytes, 2..0xFF00 (a window in the DEV region)")
        project, _ = load()
        if name in {r["name"] for r in project["region"]}:
            fail(f"device {name}: the name of one of the board's own regions; choose another")
        regs = doc.get("register", [])
        if not regs:
            fail(f"device {name}: no [[register]]")
        for r in regs:
            if r.get("region", name) != name:
                fail(f"register {name}.{r.get('name')}: region must be {name} (or left out)")
            r["region"] = name
        for key in ("layout", "instance"):
            if key in doc:
                fail(f"device {name}: [[{key}]] is for the board's own tables")
        mm = {"board": project["board"], "region": [{"name": name, "base": 0, "size": size, "desc": dev.get("desc", name)}],
              "register": regs}
        validate(mm)
    except SystemExit as e:
        msg = str(e.code)
        # The last register the message names is the one found wrong (an overlap names the earlier first).
        m = re.findall(r"\b[A-Z][A-Z0-9_]*\.([A-Za-z0-9_]+)", msg)
        sys.exit(f"{path}:{line_of(m[-1]) if m else 1}: {msg.removeprefix('gen_tables: ')}")
    r = mm["region"][0]
    syms = region_symbols(mm, r)
    offs = {n for n, *_ in syms if n.endswith("_OFF")}
    guard = f"{name}_REGS_H"
    c = [f"/* Generated by testbed-gen-device (sw/tables/gen_tables.py --device) from {path.name}. Do not edit.",
         f" * {r['desc']}", f" * Offsets from the device's window (its address: the machine file, or dev(TOS_DEV_ADDR, n, 0) in TOS). */",
         f"#ifndef {guard}", f"#define {guard}", ""]
    for n, value, bits, note in syms:
        if n == f"TB_{name}_BASE" or n + "_OFF" in offs:
            continue  # no absolute addresses: the machine file places the device
        text_v = c_hex(value, bits, n) if bits else str(value)
        c.append(f"#define {n[3:]} {text_v}" + (f" /* {note.replace('*/', '* /')} */" if note else ""))
    c += ["", "#endif", ""]
    cxx = register_tables(mm)
    body = cxx[cxx.index("namespace testbed::regs {"):cxx.index("struct RegionSpec {")]
    cxx = "\n".join([f"// Generated by testbed-gen-device (sw/tables/gen_tables.py --device) from {path.name}. Do not edit.",
                     f"// {r['desc']}", "#pragma once", "#include <testbed/register_tables.h>", "", body.rstrip(),
                     "", "}  // namespace testbed::tables", ""])
    out = pathlib.Path(out)
    write_if_changed(out / f"{dev['name']}_regs.h", "\n".join(c))
    write_if_changed(out / f"{dev['name']}_registers.h", cxx)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", help="a user device's register table (TOML): write its C and C++ headers into --out")
    ap.add_argument("--out", help="build folder for generated headers and filters")
    ap.add_argument("--docs", help="write the Markdown docs into this folder")
    ap.add_argument("--check-docs", help="fail if the Markdown docs in this folder are stale")
    ap.add_argument("--rtl", help="write the checked-in copy of the SystemVerilog package into this folder")
    ap.add_argument("--check-rtl", help="fail if the checked-in SystemVerilog package in this folder is stale")
    ap.add_argument("--tables", default=str(HERE), help="folder of the TOML tables (tests)")
    a = ap.parse_args()
    if a.device:
        if not a.out:
            sys.exit("gen_tables: --device needs --out")
        device_tables(a.device, a.out)
        return
    mm, ev = load(pathlib.Path(a.tables))
    docs = {"memory_map.md": docs_memory_map(mm), "events.md": docs_events(ev)}
    if a.out:
        out = pathlib.Path(a.out)
        write_if_changed(out / "include/testbed/memory_map.h", c_header(mm, ev))
        write_if_changed(out / "include/testbed/events.h", events_header(ev))
        write_if_changed(out / "include/testbed/register_tables.h", register_tables(mm))
        write_if_changed(out / "include/testbed/board_names.h", board_names_header(ev))
        write_if_changed(out / "verilog/memory_map.vh", verilog(mm, ev))
        write_if_changed(out / "verilog/testbed_regs_pkg.sv", sv_package(mm))
        write_if_changed(out / "verilog/testbed_events_pkg.sv", sv_events_package(ev))
        write_if_changed(out / "gtkwave/registers.filter", gtkwave_registers_filter(mm))
        write_if_changed(out / "gtkwave/events.filter", gtkwave_filter(ev))
        write_if_changed(out / "include/testbed/file_service_protocol.h", file_service_header(pathlib.Path(a.tables)))
    if a.docs:
        for name, text in docs.items():
            write_if_changed(pathlib.Path(a.docs) / name, text)
    if a.rtl:
        write_if_changed(pathlib.Path(a.rtl) / "testbed_regs_pkg.sv", sv_package(mm))
        write_if_changed(pathlib.Path(a.rtl) / "testbed_events_pkg.sv", sv_events_package(ev))
    if a.check_rtl:
        for name, text in (("testbed_regs_pkg.sv", sv_package(mm)), ("testbed_events_pkg.sv", sv_events_package(ev))):
            p = pathlib.Path(a.check_rtl) / name
            if not p.exists() or p.read_text() != text:
                sys.exit(f"gen_tables: {p} is stale (run the docs-tables target)")
        print("rtl package up to date")
    if a.check_docs:
        stale = [n for n, t in docs.items()
                 if not (pathlib.Path(a.check_docs) / n).exists()
                 or (pathlib.Path(a.check_docs) / n).read_text() != t]
        if stale:
            sys.exit("gen_tables: stale docs (run the docs-tables target): " + ", ".join(stale))
        print("docs up to date")


if __name__ == "__main__":
    main()
