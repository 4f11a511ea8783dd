#!/usr/bin/env python3
"""Bad executables for bad_executables_are_refused: each a copy of a good TOS program with one
thing wrong, as a user might upload by mistake. Usage: make_bad_executables.py GOOD.elf OUTDIR"""
import pathlib
import struct
import sys

good = pathlib.Path(sys.argv[1]).read_bytes()
out = pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
phoff, = struct.unpack_from(">I", good, 28)
phnum, = struct.unpack_from(">H", good, 44)


def patched(edit):
    b = bytearray(good)
    edit(b)
    return bytes(b)


def each_load(b, fn):
    for i in range(phnum):
        off = phoff + 32 * i
        if struct.unpack_from(">I", b, off)[0] == 1:  # PT_LOAD
            fn(b, off)


def too_large(b):  # a data segment of 600 KB
    def grow(b, off):
        if struct.unpack_from(">I", b, off + 24)[0] & 2:
            struct.pack_into(">I", b, off + 20, 600 * 1024)
    each_load(b, grow)


def wrong_address(b):  # linked at 4 MB instead of the user image area
    struct.pack_into(">I", b, 24, struct.unpack_from(">I", b, 24)[0] + 0x400000)
    def move(b, off):
        for f in (8, 12):
            struct.pack_into(">I", b, off + f, struct.unpack_from(">I", b, off + f)[0] + 0x400000)
    each_load(b, move)


bad = {
    "bad-truncated": good[:60],                                   # corrupt: cut short
    "bad-x86": patched(lambda b: struct.pack_into(">H", b, 18, 62)),  # e_machine x86-64
    "bad-large": patched(too_large),
    "bad-address": patched(wrong_address),
}
for name, data in bad.items():
    (out / f"{name}.elf").write_bytes(data)
