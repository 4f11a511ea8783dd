#!/usr/bin/env python3
"""The table generator refuses register definitions that would give two models or two
documents different ideas of a register: overlaps within a set, arrays without a stride,
widths other than 16/32 and unknown access kinds; and bit fields that overlap, exceed the
register's width, have an unknown access kind (or one the register does not allow), or values
that do not fit the field. Each case edits a copy of sw/tables and
expects gen_tables.py to fail with a message naming the register."""
import pathlib
import shutil
import subprocess
import sys
import tempfile

src = pathlib.Path(sys.argv[1])
gen = src / "gen_tables.py"
CASES = [
    ("overlap", 'name = "ACKS"\noffset = 0x08', 'name = "ACKS"\noffset = 0x02', "overlap"),
    ("array without stride", "count = 6\nstride = 2\n", "count = 6\n", "needs count"),
    ("bad width", 'name = "ACKS"\noffset = 0x08\nwidth = 32', 'name = "ACKS"\noffset = 0x08\nwidth = 24',
     "width must be"),
    ("bad access", 'name = "ACKS"\noffset = 0x08\nwidth = 32\naccess = "ro"',
     'name = "ACKS"\noffset = 0x08\nwidth = 32\naccess = "rx"', "access must be"),
    ("fields overlap", 'name = "NET"\nbits = 1\naccess = "ro"', 'name = "NET"\nbits = "1..0"\naccess = "ro"',
     "overlap"),
    ("field past the width", 'name = "LEVEL"\nbits = "2..0"', 'name = "LEVEL"\nbits = "16..14"', "exceed the 16-bit width"),
    ("field bits reversed", 'name = "LEVEL"\nbits = "2..0"', 'name = "LEVEL"\nbits = "0..2"', "HI >= LO"),
    ("bad field access", 'name = "MON"\nbits = 4\naccess = "rw"', 'name = "MON"\nbits = 4\naccess = "rx"',
     "field access must be"),
    ("writable field in a read-only register", 'name = "MON"\nbits = 4\naccess = "ro"',
     'name = "MON"\nbits = 4\naccess = "rw"', "a rw field in a ro register"),
    ("field reset too wide", 'name = "LEVEL"\nbits = "2..0"\naccess = "ro"',
     'name = "LEVEL"\nbits = "2..0"\naccess = "ro"\nreset = 8', "reset must be"),
]
failures = 0
with tempfile.TemporaryDirectory() as tmp:
    ok = subprocess.run([sys.executable, str(gen), "--tables", str(src), "--out", tmp + "/ok"],
                        capture_output=True, text=True)
    if ok.returncode != 0:
        sys.exit("the real tables are refused: " + ok.stderr)
    for name, old, new, want in CASES:
        copy = pathlib.Path(tmp) / name.replace(" ", "_")
        shutil.copytree(src, copy, ignore=shutil.ignore_patterns("__pycache__"))
        intc = copy / "registers" / "intc.toml"
        text = intc.read_text()
        if old not in text:
            sys.exit(f"{name}: the case no longer applies to registers/intc.toml")
        intc.write_text(text.replace(old, new, 1))
        r = subprocess.run([sys.executable, str(gen), "--tables", str(copy), "--out", str(copy / "out")],
                           capture_output=True, text=True)
        if r.returncode == 0 or want not in r.stderr or "INTC." not in r.stderr:
            print(f"FAIL {name}: exit {r.returncode}, {r.stderr.strip()!r}")
            failures += 1
        else:
            print(f"ok   {name}: {r.stderr.strip()}")
sys.exit(1 if failures else 0)
