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
# The good program as the loader sees it: its program headers and what they load, without the
# section headers and debug information after them (tos-mkfs strips a good ELF's; a bad one it
# stores as it is, and six copies of a -g program would not fit a filestore).
end = phoff + 32 * phnum
for i in range(phnum):
    p_offset, p_filesz = struct.unpack_from(">I", good, phoff + 32 * i + 4)[0], struct.unpack_from(">I", good, phoff + 32 * i + 16)[0]
    end = max(end, p_offset + p_filesz)
good = bytearray(good[:end])
struct.pack_into(">I", good, 32, 0)       # e_shoff: no section headers
struct.pack_into(">HHH", good, 46, 0, 0, 0)  # e_shentsize, e_shnum, e_shstrndx
good = bytes(good)


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


def with_phdrs(extra_before, extra_after):
    """The good program with a new program header table (appended to the file): extra_before,
    the good one's own segments, extra_after. Each extra is (flags, offset, vaddr, filesz, memsz)."""
    b = bytearray(good)
    while len(b) % 4:
        b.append(0)
    own = [bytes(good[phoff + 32 * i:phoff + 32 * i + 32]) for i in range(phnum)]
    def ph(flags, offset, vaddr, filesz, memsz):
        return struct.pack(">8I", 1, offset, vaddr, vaddr, filesz, memsz, flags, 0x400)
    table = [ph(*e) for e in extra_before] + own + [ph(*e) for e in extra_after]
    struct.pack_into(">I", b, 28, len(b))
    struct.pack_into(">H", b, 44, len(table))
    return bytes(b + b"".join(table))


R, RW = 4, 6
bad = {
    "bad-truncated": good[:60],                                   # corrupt: cut short
    "bad-x86": patched(lambda b: struct.pack_into(">H", b, 18, 62)),  # e_machine x86-64
    "bad-large": patched(too_large),
    "bad-address": patched(wrong_address),
    # For loader_frees_only_frames: a valid program whose read-only segments are listed
    # out of order (an extra read-only page of its code, mapped high, first) ...
    "odd-order": with_phdrs([(R, 0x400, 0x70000, 0x400, 0x400)], []),
    # ... and one refused half-way through mapping a read-only segment: its second page is one a
    # data segment listed before it has taken (the first, a filestore block, is mapped by then).
    "bad-overlap": with_phdrs([], [(RW, 0, 0x60400, 0, 0x400), (R, 0, 0x60000, 0x800, 0x800)]),
}
for name, data in bad.items():
    (out / f"{name}.elf").write_bytes(data)
