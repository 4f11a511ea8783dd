#!/usr/bin/env python3
"""Refuse an image that holds an instruction a 68010 does not have.

    check_68010.py [--objdump PROG] [--allow FUNCTION]... [--delete-on-failure] [-v] IMAGE

IMAGE is an m68k ELF file (an executable or an object). Every executable section is
disassembled twice with GNU objdump: once for the whole 680x0 family (68020-68060, 68881,
CPU32: how the bytes decode on a later processor) and once as a 68010. An instruction is
refused when

  - it is one the 68010 lacks: bit fields, CAS/CAS2, CHK2/CMP2, CHK.L, 32-bit MULS/MULU/
    DIVS/DIVU, EXTB.L, LINK.L, PACK/UNPK, RTM, CALLM, TRAPcc, BRA.L/BSR.L/Bcc.L (32-bit
    displacements), coprocessor and 68881 instructions, MMU and 68040 instructions (MOVE16,
    CINV, CPUSH, PFLUSH, ...), a MOVEC of a control register other than SFC/DFC/USP/VBR, or
    any other the 68010 disassembly does not decode to the same instruction (TST.L An, CMPI
    with a PC-relative operand, ...);
  - an indexed operand uses the 68020's extension word: a scaled index (*2, *4, *8), a full
    extension word (32-bit or suppressed base and index, memory indirect [...]). A 68010
    ignores those bits and computes another address, so these are refused too.

GCC's jump tables (a `jmp %pc@(T,%dN:w)` followed by a table of 16-bit offsets, inside the
code) are data: they are recognised and skipped, not disassembled.

Each refused instruction is printed with the image, the function (the nearest preceding
symbol that is a function or global; the nearest label too when it is closer), the address,
the bytes and the disassembly; exit status 1. --allow FUNCTION accepts 68020 code inside that
function (printed as a note: an image that carries such code and never runs it, said so
where the image is built). --delete-on-failure removes the refused image, so that a build
cannot go on with it and the next build links it again. Exit status 2: not an m68k ELF file
or objdump missing.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------------------------------------
# ELF: executable sections and symbols.

SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
SHT_PROGBITS, SHT_SYMTAB = 1, 2
STT_NOTYPE, STT_FUNC = 0, 2
STB_GLOBAL, STB_WEAK = 1, 2


class Refuse(Exception):
    pass


def read_elf(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:4] != b'\x7fELF' or len(data) < 52:
        raise Refuse('not an ELF file')
    if data[4] != 1 or data[5] != 2:
        raise Refuse('not a 32-bit big-endian ELF file')
    (e_machine,) = struct.unpack_from('>H', data, 18)
    if e_machine != 4:
        raise Refuse('not an m68k ELF file (e_machine %d)' % e_machine)
    e_shoff, = struct.unpack_from('>I', data, 32)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from('>HHH', data, 46)
    sections = []
    for i in range(e_shnum):
        sections.append(struct.unpack_from('>IIIIIIIIII', data, e_shoff + i * e_shentsize))
    if not sections:
        raise Refuse('no section headers')
    shstr = sections[e_shstrndx]

    def name_at(strtab, off):
        base = strtab[4] + off
        return data[base:data.index(b'\0', base)].decode('latin-1')

    code = []  # (index, name, address, file offset, size)
    for i, s in enumerate(sections):
        name, typ, flags, addr, off, size = s[:6]
        if typ == SHT_PROGBITS and flags & SHF_ALLOC and flags & SHF_EXECINSTR and size:
            code.append((i, name_at(shstr, name), addr, off, size))
    symbols = {}  # section index -> [(address, name, is_function)]
    for s in sections:
        if s[1] != SHT_SYMTAB:
            continue
        strtab = sections[s[6]]
        for k in range(1, s[5] // 16):
            st_name, value, _size, info, _other, shndx = struct.unpack_from('>IIIBBH', data, s[4] + k * 16)
            typ, bind = info & 15, info >> 4
            if typ not in (STT_NOTYPE, STT_FUNC) or not st_name:
                continue
            name = name_at(strtab, st_name)
            is_function = typ == STT_FUNC or bind in (STB_GLOBAL, STB_WEAK)
            symbols.setdefault(shndx, []).append((value, name, is_function))
    for v in symbols.values():
        v.sort()
    return data, code, symbols


def where(symbols, addr):
    """'function+0xoff' for an address, with the nearest label when that is closer."""
    func = label = None
    for value, name, is_function in symbols:
        if value > addr:
            break
        label = (value, name)
        if is_function:
            func = (value, name)
    if not func and not label:
        return '?', None
    func = func or label
    text = '%s+0x%x' % (func[1], addr - func[0])
    if label and label[0] > func[0]:
        text += ' (at %s+0x%x)' % (label[1], addr - label[0])
    return text, func[1]


# ---------------------------------------------------------------------------------------------
# objdump listings

LINE = re.compile(r'^\s*([0-9a-f]+):\t([0-9a-f]{4}(?: [0-9a-f]{4})*)\s*\t(.*)$')


def listing(objdump, path, section, arch, start=None, stop=None):
    """{address: (bytes as hex words, text)} of one section of an ELF file. objdump starts
    afresh at each symbol, so padding between functions does not put it out of step."""
    cmd = [objdump, '-d', '-j', section, '-m', arch, '--insn-width=24']
    if start is not None:
        cmd += ['--start-address=0x%x' % start, '--stop-address=0x%x' % stop]
    out = subprocess.run(cmd + [path], check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            text = ' '.join(m.group(3).split())
            result[int(m.group(1), 16)] = (m.group(2).split(), text)
    return result


# ---------------------------------------------------------------------------------------------
# What the 68010 lacks

CC = r'(?:ra|sr|hi|ls|cc|hs|cs|lo|ne|eq|vc|vs|pl|mi|ge|lt|gt|le)'
MNEMONICS = [
    (re.compile(r'^bf(chg|clr|exts|extu|ffo|ins|set|tst)$'), 'bit-field instruction (68020)'),
    (re.compile(r'^cas2?[bwl]?$'), 'CAS/CAS2 (68020)'),
    (re.compile(r'^(chk2|cmp2)[bwl]?$'), 'CHK2/CMP2 (68020)'),
    (re.compile(r'^chkl$'), 'CHK.L (68020)'),
    (re.compile(r'^(muls|mulu)l$'), '32-bit multiply MULS.L/MULU.L (68020)'),
    (re.compile(r'^(divs|divu)(l|ll)$'), '32-bit divide DIVS.L/DIVU.L (68020)'),
    (re.compile(r'^extbl$'), 'EXTB.L (68020)'),
    (re.compile(r'^linkl$'), 'LINK.L (68020)'),
    (re.compile(r'^(pack|unpk)$'), 'PACK/UNPK (68020)'),
    (re.compile(r'^(rtm|callm)$'), 'RTM/CALLM (68020)'),
    (re.compile(r'^trap(t|f|hi|ls|cc|cs|ne|eq|vc|vs|pl|mi|ge|lt|gt|le)[wl]?$'), 'TRAPcc (68020)'),
    (re.compile(r'^b' + CC + r'l$'), 'branch with a 32-bit displacement (68020)'),
    (re.compile(r'^f'), '68881/68882 floating-point instruction'),
    (re.compile(r'^cp'), 'coprocessor instruction (68020)'),
    (re.compile(r'^p(?!ea$)[a-z]+$'), 'MMU instruction (68030/68851/68040)'),
    (re.compile(r'^(move16|cinv[a-z]*|cpush[a-z]*)$'), '68040 instruction'),
    (re.compile(r'^(lpstop|tbl[a-z]*|bgnd)$'), 'CPU32 instruction'),
]
MOVEC_68010 = {'%sfc', '%dfc', '%usp', '%vbr'}


def mnemonic_reason(mnemonic, operands):
    for pattern, reason in MNEMONICS:
        if pattern.match(mnemonic):
            return reason
    if mnemonic == 'movec':
        control = [r for r in re.findall(r'%[a-z]+[0-9]?', operands)
                   if not re.match(r'^%([ad][0-7]|sp|fp)$', r)]
        if len(control) != 1 or control[0] not in MOVEC_68010:
            return 'MOVEC of %s, not a 68010 control register (SFC, DFC, USP, VBR)' % (
                ','.join(control) or operands)
    return None


IMMEDIATE_OPS = re.compile(r'^(ori|andi|subi|addi|eori|cmpi)([bwl])$')
STATIC_BIT_OPS = re.compile(r'^(btst|bchg|bclr|bset)$')
MOVE = re.compile(r'^movea?([bwl])$')


def ea_extension_words(mode, reg, size):
    """Extension words of a 68010 effective address (brief index format)."""
    if mode in (5, 6):
        return 1
    if mode == 7:
        return {0: 1, 1: 2, 2: 1, 3: 1, 4: 2 if size == 'l' else 1}.get(reg, 0)
    return 0


def extension_word_problem(words, mnemonic, operands):
    """Check each indexed operand's extension word: a 68010 knows only the brief format
    with no scale (bits 10-8 clear)."""
    op = int(words[0], 16)
    # (mode, reg, offset in words of its extension) for the instruction's effective addresses
    eas = []
    m = MOVE.match(mnemonic)
    if m:
        src_mode, src_reg = (op >> 3) & 7, op & 7
        eas.append((src_mode, src_reg, 1))
        eas.append(((op >> 6) & 7, (op >> 9) & 7, 1 + ea_extension_words(src_mode, src_reg, m.group(1))))
    else:
        first = 0
        im = IMMEDIATE_OPS.match(mnemonic)
        if im and operands.startswith('#'):
            first = 2 if im.group(2) == 'l' else 1
        elif STATIC_BIT_OPS.match(mnemonic) and operands.startswith('#'):
            first = 1
        elif mnemonic.startswith('movem') or mnemonic.startswith('moves'):
            first = 1
        eas.append(((op >> 3) & 7, op & 7, 1 + first))
    for mode, reg, at in eas:
        if mode == 6 or (mode == 7 and reg == 3):
            if at >= len(words):
                return 'truncated indexed operand'
            ext = int(words[at], 16)
            if ext & 0x0100:
                return '68020 addressing mode: full extension word (memory indirect, 32-bit or suppressed base/index)'
            if ext & 0x0600:
                return '68020 addressing mode: scaled index (*%d)' % (1 << ((ext >> 9) & 3))
    return None


def operand_reason(operands):
    if re.search(r':[wl]:[248]\b', operands):
        return '68020 addressing mode: scaled index'
    if ')@(' in operands or '%zpc' in operands or re.search(r'(^|[ ,])@\(', operands):
        return '68020 addressing mode: memory indirect or suppressed base'
    return None


# ---------------------------------------------------------------------------------------------
# Jump tables

JMP_TABLE = re.compile(r'^jmp %pc@\((?:0x)?([0-9a-f]+)(?: <[^>]*>)?,%[ad][0-7]:w\)$')


def jump_table(data, base, start, lo, hi):
    """The extent [start, stop) of a table of 16-bit offsets from `start` (GCC's casesi for
    the 68000), inside the function [lo, hi): every entry is an even offset to a place in the
    function; the table ends where the first target after it is."""
    pos, stop = start, hi
    while pos + 2 <= stop:
        (entry,) = struct.unpack_from('>h', data, pos - base)
        target = start + entry
        if not lo <= target < hi or target & 1 or start <= target <= pos:
            break  # not an offset to code: the table ended before
        if target > pos:
            stop = min(stop, target)
        pos += 2
    return start, pos


# ---------------------------------------------------------------------------------------------

def check_section(objdump, image, elf, section, symbols):
    """[(address, words, text, reason)] for one executable section."""
    _index, name, addr, offset, size = section
    end = addr + size
    data = elf[offset:offset + size]
    tables = []  # [(start, stop)]
    patched = bytearray(elf)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, os.path.basename(image))
        # Find the jump tables, fill them with NOPs (in a copy), disassemble again; repeat until
        # no new one turns up (a table can hide the next dispatch from a listing out of step).
        for _ in range(50):
            with open(path, 'wb') as f:
                f.write(patched)
            full = listing(objdump, path, name, 'm68k')
            new = False
            for a, (_words, text) in sorted(full.items()):
                m = JMP_TABLE.match(text)
                if not m:
                    continue
                start = int(m.group(1), 16)
                if not addr <= start < end or any(t[0] == start for t in tables):
                    continue
                lo = max([v for v, _n, _f in symbols if v <= a] + [addr])
                hi = min([v for v, _n, _f in symbols if v > a] + [end])
                t = jump_table(data, addr, start, lo, hi)
                tables.append(t)
                patched[offset + t[0] - addr:offset + t[1] - addr] = b'\x4e\x71' * ((t[1] - t[0]) // 2)
                new = True
            if not new:
                break
        m68010 = listing(objdump, path, name, 'm68k:68010')
        findings = []
        for a, (words, text) in sorted(full.items()):
            if any(s <= a < e for s, e in tables):
                continue
            mnemonic, _, operands = text.partition(' ')
            reason = mnemonic_reason(mnemonic, operands)
            if not reason and '@(' in operands:
                reason = extension_word_problem(words, mnemonic, operands) or operand_reason(operands)
            if not reason:
                other = m68010.get(a)
                if other is None or other[0] != words:
                    # the 68010 listing is out of step here: decode this instruction alone
                    other = listing(objdump, path, name, 'm68k:68010', a, a + 2 * len(words)).get(a)
                if other is None or other != (words, text):
                    reason = 'not a 68010 instruction (as a 68010: %s)' % (other[1] if other else '?')
            if reason:
                findings.append((a, words, text, reason))
    return findings, len(full), len(tables)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('image')
    ap.add_argument('--objdump', default='m68k-linux-gnu-objdump')
    ap.add_argument('--allow', action='append', default=[], metavar='FUNCTION')
    ap.add_argument('--delete-on-failure', action='store_true')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    base = os.path.basename(args.image)
    try:
        elf, code, symbols = read_elf(args.image)
    except (OSError, Refuse) as e:
        print('check_68010: %s: %s' % (args.image, e), file=sys.stderr)
        return 2
    refused, notes = [], []
    for section in code:
        syms = symbols.get(section[0], [])
        try:
            findings, count, tables = check_section(args.objdump, args.image, elf, section, syms)
        except (OSError, subprocess.CalledProcessError) as e:
            print('check_68010: %s: cannot run %s: %s' % (args.image, args.objdump, e), file=sys.stderr)
            return 2
        if args.verbose:
            print('check_68010: %s: %s: %d instructions, %d jump tables' % (base, section[1], count, tables))
        for a, words, text, reason in findings:
            place, func = where(syms, a)
            line = '%s: %s: %s (0x%x): %s  %s: %s' % (base, section[1], place, a, ' '.join(words),
                                                      text, reason)
            (notes if func in args.allow else refused).append((func, line))
    if notes:
        funcs = sorted(set(f for f, _ in notes))
        print('check_68010: %s: note: 68020 code allowed in %s (%d instructions)' % (
            base, ', '.join(funcs), len(notes)))
        if args.verbose:
            for _, line in notes:
                print('check_68010: allowed: ' + line)
    if refused:
        for _, line in refused:
            print('check_68010: ' + line, file=sys.stderr)
        funcs = sorted(set(f or '?' for f, _ in refused))
        print('check_68010: %s: refused: %d instruction%s a 68010 does not have, in %s' % (
            base, len(refused), '' if len(refused) == 1 else 's', ', '.join(funcs)), file=sys.stderr)
        if args.delete_on_failure:
            try:
                os.remove(args.image)
            except OSError:
                pass
        return 1
    if args.verbose:
        print('check_68010: %s: 68010-clean' % base)
    return 0


if __name__ == '__main__':
    sys.exit(main())
