#!/usr/bin/env python3
"""The build refuses an image with a 68020 instruction (firmware/lib/runtime/check_68010.py,
the POST_BUILD step of every firmware image), naming the function; it accepts 68010 code.

    run_test.py --cmake CMAKE --generator GEN --firmware FIRMWARE_SOURCE_DIR --build SCRATCH_DIR
                --clean-image ELF

Configures this folder (CMakeLists.txt: two sample images) with the firmware's m68k toolchain
in SCRATCH_DIR, then:
  1. clean_68010.elf (68010 code and a switch jump table in .text) builds, and the check
     finds the jump table and calls the image 68010-clean;
  2. uses_68020.elf does not build: the check names each function with its 68020 instruction
     (EXTB.L, BSR.L, a scaled index, a memory-indirect operand, MULS.L from C compiled for the
     68020), says the image is refused, and the image is deleted;
  3. the check accepts a real firmware image (--clean-image, e.g. build/firmware/hello.elf).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def expect(cond, what, output=''):
    if not cond:
        print(output)
        print('FAIL: ' + what)
        sys.exit(1)
    print('ok: ' + what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cmake', required=True)
    ap.add_argument('--generator', required=True)
    ap.add_argument('--firmware', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('--clean-image', required=True)
    args = ap.parse_args()
    check = os.path.join(args.firmware, 'lib', 'runtime', 'check_68010.py')

    shutil.rmtree(args.build, ignore_errors=True)
    rc, out = run([args.cmake, '-S', HERE, '-B', args.build, '-G', args.generator,
                   '-DCMAKE_TOOLCHAIN_FILE=' + os.path.join(args.firmware, 'cmake', 'm68k-toolchain.cmake'),
                   '-DTESTBED_FIRMWARE_SOURCE_DIR=' + args.firmware])
    expect(rc == 0, 'the sample project configures with the m68k toolchain', out)

    # 1. 68010 code with a jump table: built and accepted
    rc, out = run([args.cmake, '--build', args.build, '--target', 'clean_68010'])
    clean = os.path.join(args.build, 'clean_68010.elf')
    expect(rc == 0 and os.path.exists(clean), 'clean_68010.elf builds (the check accepts it)', out)
    rc, out = run([sys.executable, check, '-v', clean])
    expect(rc == 0 and '1 jump tables' in out and '68010-clean' in out,
           'the check skips the jump table of clean_68010.elf', out)

    # 2. 68020 code: refused, each function named, the image deleted
    rc, out = run([args.cmake, '--build', args.build, '--target', 'uses_68020'])
    print(out)
    expect(rc != 0, 'the build of uses_68020.elf fails')
    for func, insn, reason in [
            ('uses_extb', 'extbl', r'EXTB\.L \(68020\)'),
            ('calls_far', 'bsrl', r'branch with a 32-bit displacement'),
            ('scaled_index', r'movel %a0@\(0,%d0:l:4\)', r'scaled index \(\*4\)'),
            ('memory_indirect', 'movel', r'full extension word'),
            ('wide_multiply', 'mulsl', r'32-bit multiply MULS\.L')]:
        pattern = r'uses_68020\.elf: \.text: %s\+0x[0-9a-f]+ \(0x[0-9a-f]+\): [0-9a-f ]+ %s.*: %s' % (
            func, insn, reason)
        expect(re.search(pattern, out), 'the check names %s and its %s' % (func, insn.split(' ')[0]))
    expect(re.search(r'uses_68020\.elf: refused: 5 instructions a 68010 does not have, in '
                     r'calls_far, memory_indirect, scaled_index, uses_extb, wide_multiply', out),
           'the check says the image is refused, with the functions')
    expect(not os.path.exists(os.path.join(args.build, 'uses_68020.elf')), 'the refused image is deleted')
    rc, out = run([args.cmake, '--build', args.build, '--target', 'uses_68020'])
    expect(rc != 0 and 'refused' in out, 'the next build links and refuses it again', out)

    # 3. a real firmware image
    rc, out = run([sys.executable, check, '-v', args.clean_image])
    expect(rc == 0 and '68010-clean' in out, 'the check accepts %s' % os.path.basename(args.clean_image), out)

    # not an m68k ELF file: exit status 2
    rc, out = run([sys.executable, check, __file__])
    expect(rc == 2 and 'not an ELF file' in out, 'the check refuses to judge a file that is not an ELF file', out)
    print('runtime_check_refuses_68020: PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
