#!/usr/bin/env python3
"""Writes the fuzz corpus's ELF seeds (tests/fuzz/corpus/elf/): a minimal valid m68k image
(one PT_LOAD segment), one with .symtab/.strtab sections, and a few broken variants. The trace
seeds are a real MMI stream of the default run (build/bin/testbed: testbed-out/monitor.raw) and
cuts of it; the configuration seeds are sim/configs/*.toml and small edge cases.
usage: make_corpus.py CORPUS_DIR [MONITOR_RAW]"""
import os
import shutil
import struct
import sys

root = sys.argv[1]
for d in ("elf", "trace", "config"):
    os.makedirs(os.path.join(root, d), exist_ok=True)


def elf(with_symbols):
    code = bytes.fromhex("4e7160fe")  # nop; bra.s *
    ehsize, phentsize, shentsize = 52, 32, 40
    phoff = ehsize
    data_off = phoff + phentsize
    strtab = b"\0start\0"
    shstrtab = b"\0.symtab\0.strtab\0.shstrtab\0"
    sym = struct.pack(">IIIBBH", 0, 0, 0, 0, 0, 0) + struct.pack(">IIIBBH", 1, 0x1000, 0, 0x12, 0, 1)
    body = code
    sections = b""
    shoff = shnum = shstrndx = 0
    if with_symbols:
        sym_off = data_off + len(body)
        body += sym
        str_off = data_off + len(body)
        body += strtab
        shs_off = data_off + len(body)
        body += shstrtab
        shoff = data_off + len(body)
        sh = [struct.pack(">IIIIIIIIII", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
              struct.pack(">IIIIIIIIII", 1, 2, 0, 0, sym_off, len(sym), 2, 1, 4, 16),
              struct.pack(">IIIIIIIIII", 9, 3, 0, 0, str_off, len(strtab), 0, 0, 1, 0),
              struct.pack(">IIIIIIIIII", 17, 3, 0, 0, shs_off, len(shstrtab), 0, 0, 1, 0)]
        sections = b"".join(sh)
        shnum, shstrndx = 4, 3
    hdr = b"\x7fELF" + bytes([1, 2, 1, 0]) + bytes(8)
    hdr += struct.pack(">HHIIIIIHHHHHH", 2, 4, 1, 0x1000, phoff, shoff, 0, ehsize, phentsize, 1,
                       shentsize, shnum, shstrndx)
    ph = struct.pack(">IIIIIIII", 1, data_off, 0x1000, 0x1000, len(code), len(code) + 64, 7, 2)
    return bytearray(hdr + ph + body + sections)


def put(name, b):
    with open(os.path.join(root, "elf", name), "wb") as f:
        f.write(bytes(b))


good = elf(False)
put("minimal.elf", good)
put("symbols.elf", elf(True))
bad = bytearray(good); bad[18:20] = struct.pack(">H", 3); put("not-m68k.elf", bad)         # EM_386
bad = bytearray(good); bad[5] = 1; put("little-endian.elf", bad)
bad = bytearray(good); bad[52 + 16:52 + 24] = struct.pack(">II", 8, 4); put("filesz-over-memsz.elf", bad)
bad = bytearray(good); bad[52 + 4:52 + 8] = struct.pack(">I", 0xFFFFFFF0); put("segment-outside-file.elf", bad)
put("truncated.elf", good[:40])

if len(sys.argv) > 2:
    raw = open(sys.argv[2], "rb").read()
    for name, b in (("default-run.raw", raw), ("default-run-head.raw", raw[:256]),
                    ("default-run-cut.raw", raw[:257]), ("empty.raw", b"")):
        with open(os.path.join(root, "trace", name), "wb") as f:
            f.write(b)

here = os.path.dirname(os.path.abspath(__file__))
configs = os.path.join(here, "..", "..", "sim", "configs")
for n in sorted(os.listdir(configs)):
    if n.endswith(".toml"):
        shutil.copy(os.path.join(configs, n), os.path.join(root, "config", n))
small = {
    "override.toml": '#cpu.clock_mhz=8\n[board]\nimage = "tos.elf"\n',
    "two-boards.toml": '[board]\nimage = "x.elf"\n[[boards]]\nname = "m"\nslot = 0\n[[boards]]\nname = "s"\nslot = 1\n',
    "bad-types.toml": '[cpu]\nclock_mhz = "ten"\n[monitor]\nsmis = -1\n',
    "empty.toml": "",
    # found by libFuzzer: toml++ cast this float to an integer unchecked (undefined behaviour)
    "float-for-integer.toml": "\n[[boards]]\nnode=68068000000000000E21",
}
for n, t in small.items():
    with open(os.path.join(root, "config", n), "w") as f:
        f.write(t)
