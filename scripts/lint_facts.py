#!/usr/bin/env python3
"""Every machine fact named once (issue #65): fail when one is written by hand outside its home.

A fact (a marker value, a status register bit, the page table entry's layout, a protocol's sync
byte, a link address) has one definition, in sw/tables/*.toml or a small header, and every other
file uses the name generated or declared from it. A copy typed in by hand agrees today and
silently disagrees the day the definition changes: this check finds the copies.

Each row of FACTS is one fact: its name, where its one definition lives (`home`), why a copy
is harmful, the regular expressions that find a copy written by hand (`patterns`), the files
searched (`where`: globs on the file's name, and `under`: globs on its path from the
repository's top, `*` crossing folders; a file must match both) and the files allowed to hold
it (`allowed`: its home and the files generated from it). A pattern finds the fact as it is
written where it would be copied (`sr & 0x2000`, `0xAA00`), not every number that happens to
share its digits (0x2000 is also an instruction word and an address).
To cover another fact, or the same fact in another language (the Python side: board names, net
message types, TID bits), add a row; `--self-test` then proves the row can fail.

Usage: lint_facts.py [ROOT]        check the tree at ROOT (default: this repository)
       lint_facts.py --self-test   each row fails on a copy made for it, and passes without
"""
import fnmatch
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field

C_CXX = ["*.c", "*.h", "*.cpp", "*.hpp", "*.cc"]
CXX = ["*.cpp", "*.hpp", "*.cc", "*.h"]
SV = ["*.sv", "*.svh", "*.v", "*.vh"]
ASM_LD = ["*.S", "*.s", "*.ld"]
SOURCES = C_CXX + SV + ASM_LD
# Generated and checked in (rtl/generated: gen_tables.py --rtl): the names' other home.
GENERATED = ["rtl/generated/*"]
# Never searched: build trees, outputs and version control.
SKIP_DIRS = re.compile(r"^(\.git|build.*|testbed-out.*|__pycache__)$")
# This file writes every fact in its rows' samples (a row may come to search *.py).
SKIP_FILES = {"scripts/lint_facts.py"}


@dataclass
class Fact:
    name: str
    home: str
    why: str
    patterns: list
    where: list = field(default_factory=lambda: list(SOURCES))
    under: list = field(default_factory=lambda: ["*"])
    allowed: list = field(default_factory=list)
    # A line the check must flag, written into a file at `sample_path` by --self-test.
    sample: str = ""
    sample_path: str = ""


FACTS = [
    Fact(name="monitor wrap and filter markers",
         home="sw/tables/events.toml wrap_marker_value, filter_marker_value, wrap_marker_mask "
              "(EV_WRAP_MARKER_VALUE, EV_FILTER_MARKER_VALUE, EV_WRAP_MARKER_MASK; SV: testbed_events_pkg)",
         why="the SMI inserts them, the engine, the RTL, the decoder, the logger and their references "
             "recognise them: a copy that drifts makes a marker an event",
         patterns=[r"\b0[xX][aA][aAbB]00\b", r"'[hH][aA][aAbB](00)?\b",
                   r"0[xX][fF][fF]00\s*\)\s*==\s*EV_\w*MARKER"],
         where=SOURCES + ["*.py"], allowed=GENERATED,
         sample="  if ((w & 0xFF00) == 0xAA00) w ^= 0x100;", sample_path="tests/test_copy.cpp"),
    Fact(name="68000 status register bits",
         home="hw/cpu/m68k_sr.h (m68k::kSrSupervisor, kSrTrace, kSrIntMask, kSrReset)",
         why="the CPU packs SR from them; the debugger, the machine's report and the tests read "
             "the supervisor bit of the same SR",
         patterns=[r"\bsr\s*&\s*0[xX][0-9a-fA-F]+", r"\bsr\s*=\s*0[xX]0*[1-9a-fA-F][0-9a-fA-F]*\b",
                   r"\b[st]_\s*\?\s*0[xX][0-9a-fA-F]+", r"unpack_sr\(\s*0[xX]",
                   r"\b(sr|v)\s*>>\s*(8|13|15)\s*\)\s*&"],
         where=CXX, allowed=["hw/cpu/m68k_sr.h"],
         sample="  bool user = !(r.sr & 0x2000);", sample_path="sim/gdb/copy.cpp"),
    Fact(name="page table entry layout and page size",
         home="sw/tables/registers/mmu.toml [[layout]] PTE (TB_MMU_PTE_*), memory_map.toml "
              "board.page_size (TB_PAGE_SIZE, TB_PAGE_SHIFT)",
         why="the MMU model walks the table the kernel writes and the debugger reads",
         patterns=[r"(?i)\bpte\w*\s*&\s*(0x[0-9a-f]+|\d+)\b", r"\bva\w*\s*>>\s*10\b",
                   r"\bva\w*\s*&\s*0[xX]3[fF][fF]\b"],
         where=C_CXX, under=["hw/board/*", "sim/*", "firmware/*"],
         sample="  pa = (pte & 0xFFFC00u) | (va & 0x3FF);", sample_path="sim/gdb/copy.cpp"),
    Fact(name="file service sync bytes",
         home="sw/tables/file_service.toml (TB_FS_REQUEST_SYNC, TB_FS_REPLY_SYNC in the generated "
              "<testbed/file_service_protocol.h>)",
         why="the host's file service and the firmware's clients (board test, demo, TOS's LAN link) "
             "frame every request and reply with them",
         patterns=[r"(?i)#\s*define\s+\w*SYNC\w*\s+0x", r"(?i)\b\w*sync\w*\s*=\s*0x[0-9a-f]+\b"],
         sample="#define TB_FS_REQUEST_SYNC 0xA5", sample_path="firmware/include/copy.h"),
    Fact(name="file service sync bytes, in the protocol's own files",
         home="sw/tables/file_service.toml (TB_FS_REQUEST_SYNC, TB_FS_REPLY_SYNC)",
         why="the protocol's implementations name the bytes, even in their comments",
         patterns=[r"\b0[xX](A5|a5|5A|5a)\b"],
         under=["hw/board/file_service*", "firmware/include/testbed_board.h", "firmware/tos/kernel/lan.c"],
         sample="//   request : 0xA5  op  name_len", sample_path="hw/board/file_service.h"),
    Fact(name="TOS kernel's extent (kernel_stack_top)",
         home="sw/tables/tos.toml layout.kernel_stack_top (TOS_KERNEL_STACK_TOP; the kernel's "
              "MEMORY in the generated tos_kernel_memory.ld)",
         why="the kernel's image must end below its stack: a link script's own copy lets one move alone",
         patterns=[r"(?i)\b0x0*FF000\b", r"(?i)\bLENGTH\s*=\s*0x"],
         under=["firmware/*"],
         sample="MEMORY { kernel (rwx) : ORIGIN = 0x000000, LENGTH = 0x0FF000 }",
         sample_path="firmware/tos/kernel/kernel.ld"),
    # The Python side and the kernel's TOS tables (sw/tables/tables.py reads them for every script).
    Fact(name="the six board names",
         home="sw/tables/tos.toml [boards] (C++: testbed::tables::kBoardNames in <testbed/board_names.h>; "
              "Python: tables.board_names())",
         why="the machine, the configuration generator, the waveform tool and the analysis name boards "
             "by number: a list that drifts names the wrong board",
         patterns=[r"""["']master["'],\s*["']earth["'],\s*["']air["']"""],
         where=C_CXX + ["*.py"],
         sample='SLAVES = ["master", "earth", "air", "fire", "water", "space"]',
         sample_path="sw/analysis/testbed_analysis/copy.py"),
    Fact(name="Centrenet message types",
         home="sw/tables/tos.toml [[net_type]] (the generated <testbed/tos_net.h>; Python: tables.net_types())",
         why="the kernel's handlers, the tests that forge messages and tbwaves decode the same numbers",
         patterns=[r"\benum\s+net_type\s*\{", r"\bNET_[A-Z][A-Z_0-9]*\s*=\s*[0-9]"],
         where=C_CXX + ["*.py"], allowed=["sw/tables/gen_tos.py"],
         sample="  NET_CREATE = 11, /* home -> board */", sample_path="firmware/tos/kernel/copy.h"),
    Fact(name="the TID's fields",
         home="sw/tables/tos.toml [tid] (TOS_TID_*_SHIFT, TOS_TID_*_MASK; Python: tables.TidLayout)",
         why="a TID packs board, process and slot: a hand-written shift or mask takes one field for another "
             "(a four-bit board mask let board 17's messages pass as board 1's)",
         patterns=[r"\btid\w*\)?\s*>>\s*(6|10)\b", r"\btid\w*\s*&\s*(63|0[xX]3[fF])\b",
                   r"^(?!\s*#).*>>\s*(6|10)\)\s*&\s*(15|0[xX][fF]|63|0[xX]3[fF])\b"],
         where=["*.c", "*.h", "*.py"], under=["firmware/tos/kernel/*", "sw/analysis/*", "waveforms/*"],
         sample="  uint32_t board = tid >> 10 & 63;", sample_path="firmware/tos/kernel/copy.c"),
    Fact(name="event word bits in the analysis",
         home="sw/tables/events.toml [convention] (tid_mask, schedule_bit, continue_bit) and the markers",
         why="the analysis and tbwaves decode the words the kernel writes with the generated names",
         patterns=[r"^(?!\s*#).*(?<!TID\+)\b0[xX](3FFF|4000|C000|7FFF|AA00|AB00|FF00)\b"],
         where=["*.py"], under=["sw/analysis/*", "waveforms/*"],
         sample="    if w & 0xFF00 == 0xAA00:", sample_path="waveforms/copy.py"),
    Fact(name="the random-number generator's step",
         home="firmware/tos/include/tos/rand.h (TOS_RAND_NEXT)",
         why="the kernel's and the programs' pseudo-random sequences are one generator: a copy with "
             "another constant changes a run's placements",
         patterns=[r"\b1103515245(?![0-9])"],
         where=C_CXX + ["*.py"], under=["firmware/*", "tests/tos/*", "examples/*"],
         allowed=["firmware/tos/include/tos/rand.h"],
         sample="  state = state * 1103515245ul + 12345ul;", sample_path="firmware/tos/programs/copy.c"),
    Fact(name="the page size in the table generators",
         home="sw/tables/memory_map.toml board.page_size",
         why="the generators derive TOS's layout from the board's page: a second page size splits them",
         patterns=[r"(?i)\bpage\w*\s*=\s*1024\b", r"PAGE_SIZE\s+1024\b"],
         where=["*.py"], under=["sw/tables/*"],
         sample="PAGE = 1024", sample_path="sw/tables/copy.py"),
]


def matches(path, globs):
    return any(fnmatch.fnmatchcase(path, g) for g in globs)


def files(root):
    for top, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not SKIP_DIRS.match(d))
        for n in sorted(names):
            path = os.path.relpath(os.path.join(top, n), root).replace(os.sep, "/")
            if path not in SKIP_FILES:
                yield path


def check(root, facts=FACTS):
    """Every copy: (path, line number, fact, text)."""
    found = []
    compiled = [(f, [re.compile(p) for p in f.patterns]) for f in facts]
    for path in files(root):
        todo = [(f, ps) for f, ps in compiled
                if matches(os.path.basename(path), f.where) and matches(path, f.under) and not matches(path, f.allowed)]
        if not todo:
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            continue
        for f, ps in todo:
            for no, text in enumerate(lines, 1):
                if any(p.search(text) for p in ps):
                    found.append((path, no, f, text.strip()))
    return found


def report(found):
    for path, no, f, text in found:
        print(f"{path}:{no}: {f.name} written by hand: {text}\n    one definition: {f.home}\n    why: {f.why}")


def self_test():
    """Each row flags the copy made for it, and a tree without copies passes: the check can fail."""
    bad = 0
    for f in FACTS:
        if not f.sample or not f.sample_path:
            print(f"FAIL {f.name}: the row has no sample copy to prove it can fail")
            bad += 1
            continue
        with tempfile.TemporaryDirectory() as tmp:
            p = os.path.join(tmp, f.sample_path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as fh:
                fh.write("/* clean line */\n" + f.sample + "\n")
            got = [x for x in check(tmp) if x[2] is f]
            ok = len(got) == 1 and got[0][1] == 2
            print(f"{'ok  ' if ok else 'FAIL'} {f.name}: a copy in {f.sample_path} is flagged ({len(got)} found)")
            bad += not ok
            # The same copy in a file the row allows, or does not search, is not flagged.
            for g in f.allowed:
                q = os.path.join(tmp, g.replace("*", "allowed" + os.path.splitext(f.sample_path)[1]))
                os.makedirs(os.path.dirname(q), exist_ok=True)
                with open(q, "w") as fh:
                    fh.write(f.sample + "\n")
            got = [x for x in check(tmp) if x[2] is f]
            ok = len(got) == 1
            print(f"{'ok  ' if ok else 'FAIL'} {f.name}: its allowed files are not flagged")
            bad += not ok
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "hw/clean.cpp")
        os.makedirs(os.path.dirname(p))
        with open(p, "w") as fh:
            fh.write("bool s = regs.sr & m68k::kSrSupervisor;\nuint16_t m = EV_WRAP_MARKER_VALUE | 1;\n")
        got = check(tmp)
        ok = not got
        print(f"{'ok  ' if ok else 'FAIL'} a tree that uses the names passes ({len(got)} found)")
        bad += not ok
        build = os.path.join(tmp, "build/generated")
        os.makedirs(build)
        with open(os.path.join(build, "x.h"), "w") as fh:
            fh.write(FACTS[0].sample + "\n")
        ok = not check(tmp)
        print(f"{'ok  ' if ok else 'FAIL'} build trees are not searched")
        bad += not ok
    return bad


def main():
    if sys.argv[1:] == ["--self-test"]:
        bad = self_test()
        print("lint_facts self-test: " + ("OK" if not bad else f"{bad} failed"))
        return 1 if bad else 0
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
        print(__doc__)
        return 2
    root = sys.argv[1] if len(sys.argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = check(root)
    report(found)
    print(f"lint_facts: {len(found)} fact(s) written by hand outside their one definition" if found
          else f"lint_facts: every fact of {len(FACTS)} rows named once")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
