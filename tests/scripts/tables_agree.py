#!/usr/bin/env python3
"""The three generated forms of the register tables agree, and follow the tables.

  C header      testbed/memory_map.h       (read through the C preprocessor: cc -dM -E)
  C++           testbed/register_tables.h  (compiled: tables_dump.cpp prints kRegions/kLayouts)
  SystemVerilog testbed_regs_pkg.sv        (parsed; linted by verilator when given)

Part 1: for the real tables, every register address and offset, field mask and shift,
enumerated value and layout field has the same name and value in all three, and nothing is in
one form only. Part 2: a copy of the tables with a field moved (TIMER.CTRL.PERIODIC to bit 5), a
register moved (TIMER.RELOAD to 0x1C) and a value added (MMU FAULT_STATUS.REASON 4 TEST) is
generated into a temporary folder: all three forms change the same way, and still agree.
Usage: tables_agree.py SW_TABLES_DIR CC CXX [VERILATOR]"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

src = pathlib.Path(sys.argv[1])
cc, cxx = sys.argv[2], sys.argv[3]
verilator = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
gen = src / "gen_tables.py"
dump_src = pathlib.Path(__file__).resolve().parent / "tables_dump.cpp"
# Names of the C header that are not per-region (board constants, interrupt levels).
NOT_REGION = re.compile(r"TB_(ADDRESS_BITS|PAGE_SIZE|PAGE_SHIFT|CPU_CLOCK_HZ|RAM_DEFAULT_BYTES|RAM_MAX_BYTES|IRQ_\w+)$")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(map(str, cmd))}\n{r.stdout}{r.stderr}")
    return r.stdout


def c_names(out):
    text = run([cc, "-dM", "-E", "-x", "c", str(out / "include/testbed/memory_map.h")])
    names = {}
    for line in text.splitlines():
        m = re.match(r"#define (TB_\w+) (0x[0-9A-Fa-f]+|\d+)\s*$", line)
        if m and not NOT_REGION.match(m.group(1)):
            names[m.group(1)] = int(m.group(2), 0)
    return names


def cxx_names(out, tmp):
    exe = tmp / "tables_dump"
    run([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", str(out / "include"), str(dump_src), "-o", str(exe)])
    names, regs = {}, {}
    lines = run([str(exe)]).splitlines()
    arrays = set()
    for line in lines:
        if line.startswith("#REG "):
            _, reg, nbytes, access = line.split()
            regs[reg] = (int(nbytes), access)
    for reg in regs:  # arrays: NAME0 .. NAMEn-1
        m = re.fullmatch(r"(.*\D)0", reg)
        if m and f"{m.group(1)}1" in regs:
            arrays.add(m.group(1))
    for line in lines:
        if line.startswith("#"):
            continue
        name, value = line.split()
        if "|" in name:  # a register's field or value: an array element's belong to the array
            reg, rest = name.split("|")
            base = re.sub(r"\d+$", "", reg)
            if base in arrays:
                reg = base
            name = f"{reg}_{rest}"
        if name in names and names[name] != int(value):
            sys.exit(f"FAIL: C++ gives {name} two values")
        names[name] = int(value)
    for base in arrays:  # the C header's array constants (element count and stride)
        n = sum(1 for r in regs if re.fullmatch(re.escape(base) + r"\d+", r))
        names[f"{base}_COUNT"] = n
        names[f"{base}_STRIDE"] = names[f"{base}1_OFF"] - names[f"{base}0_OFF"] if n > 1 else 0
    return names


def sv_names(out, tmp):
    pkg = out / "verilog/testbed_regs_pkg.sv"
    if verilator:
        top = tmp / "pkg_lint_top.sv"
        top.write_text("module pkg_lint_top(output logic [23:0] a);\n  import testbed_regs_pkg::*;\n"
                       "  assign a = TB_TIMER_CTRL;\nendmodule\n")
        run([verilator, "--lint-only", "-Wall", str(pkg), str(top)])
    names = {}
    for line in pkg.read_text().splitlines():
        m = re.match(r"\s*localparam (?:logic \[(\d+):0\]|int) (\w+) = (?:(\d+)'h([0-9A-F]+)|(\d+));$", line)
        if m:
            hi, name, w, hexv, dec = m.groups()
            if hexv is not None:
                if int(w) != int(hi) + 1:
                    sys.exit(f"FAIL: SV {name}: literal width {w} for a [{hi}:0] parameter")
                names[name] = int(hexv, 16)
            else:
                names[name] = int(dec)
        elif "localparam" in line:
            sys.exit(f"FAIL: SV line not understood: {line}")
    return names


def agree(label, out, tmp):
    c, cpp, sv = c_names(out), cxx_names(out, tmp), sv_names(out, tmp)
    bad = []
    for other_label, other in (("C++", cpp), ("SystemVerilog", sv)):
        for n in sorted(set(c) | set(other)):
            if n not in c:
                bad.append(f"{n} only in {other_label}")
            elif n not in other:
                bad.append(f"{n} missing from {other_label}")
            elif c[n] != other[n]:
                bad.append(f"{n}: C 0x{c[n]:X}, {other_label} 0x{other[n]:X}")
    if bad:
        sys.exit(f"FAIL {label}: the generated forms disagree:\n  " + "\n  ".join(bad[:40]))
    fields = sum(1 for n in c if n.endswith("_SHIFT"))
    print(f"ok   {label}: C, C++ and SystemVerilog agree on {len(c)} names ({fields} fields)")
    return c, cpp, sv


with tempfile.TemporaryDirectory() as t:
    tmp = pathlib.Path(t)
    run([sys.executable, str(gen), "--tables", str(src), "--out", str(tmp / "real")])
    before = agree("the tables", tmp / "real", tmp)

    copy = tmp / "tables"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("__pycache__"))
    timer = copy / "registers" / "timer.toml"
    text = timer.read_text()
    edits = [('name = "PERIODIC"\nbits = 1\n', 'name = "PERIODIC"\nbits = 5\n'),
             ('name = "RELOAD"\noffset = 0x04\n', 'name = "RELOAD"\noffset = 0x1C\n')]
    for old, new in edits:
        if old not in text:
            sys.exit(f"FAIL: the case no longer applies to registers/timer.toml: {old!r}")
        text = text.replace(old, new, 1)
    timer.write_text(text)
    mmu = copy / "registers" / "mmu.toml"
    text = mmu.read_text()
    old = '  { name = "NOT_USER", value = 3, desc = "page without USER" },\n'
    if old not in text:
        sys.exit("FAIL: the case no longer applies to registers/mmu.toml")
    mmu.write_text(text.replace(old, old + '  { name = "TEST", value = 4, desc = "a test" },\n', 1))
    run([sys.executable, str(gen), "--tables", str(copy), "--out", str(tmp / "changed")])
    after = agree("the changed tables", tmp / "changed", tmp)

    want = {"TB_TIMER_CTRL_PERIODIC": (0x2, 0x20), "TB_TIMER_CTRL_PERIODIC_SHIFT": (1, 5),
            "TB_TIMER_RELOAD_OFF": (0x04, 0x1C), "TB_TIMER_RELOAD": (0xFF0104, 0xFF011C),
            "TB_MMU_FAULT_STATUS_REASON_TEST": (None, 4)}
    failures = 0
    for label, b, a in zip(("C", "C++", "SystemVerilog"), before, after):
        for name, (old, new) in want.items():
            if b.get(name) != old or a.get(name) != new:
                print(f"FAIL {label}: {name} was {b.get(name)}, is {a.get(name)}; want {old} -> {new}")
                failures += 1
        changed = sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))
        if set(changed) != set(want):
            print(f"FAIL {label}: unexpected changes {sorted(set(changed) ^ set(want))}")
            failures += 1
    if failures:
        sys.exit(1)
    print("ok   a changed table changes the C header, the C++ declarations and the SV package alike")
