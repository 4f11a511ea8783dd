#!/usr/bin/env python3
"""Writes a copy of an m68k ELF whose first PT_LOAD segment has more file bytes than memory
bytes (filesz > memsz): the crafted image that overflowed m68k-bench's own loader (issue #19).
usage: craft_bad_elf.py GOOD.elf OUT.elf"""
import struct
import sys

good, out = sys.argv[1], sys.argv[2]
d = bytearray(open(good, "rb").read())
phoff = struct.unpack(">I", d[28:32])[0]
phnum = struct.unpack(">H", d[44:46])[0]
for i in range(phnum):
    ph = phoff + i * 32
    if struct.unpack(">I", d[ph:ph + 4])[0] == 1:  # PT_LOAD
        filesz = struct.unpack(">I", d[ph + 16:ph + 20])[0]
        d[ph + 20:ph + 24] = struct.pack(">I", max(0, filesz - 4))  # memsz < filesz
        break
else:
    sys.exit(f"{good}: no PT_LOAD segment")
open(out, "wb").write(d)
