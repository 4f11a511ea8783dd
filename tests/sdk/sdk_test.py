#!/usr/bin/env python3
"""The TOS SDK (ctest -L sdk): `cmake --install` to a prefix, then a program built outside the
tree with that prefix alone -- with tos-cc and with find_package(TOS) + tos_add_program -- put
in a filestore with the installed tos-mkfs and booted with the installed testbed; what the
board prints is compared with what the same C program prints on the host.

usage: sdk_test.py install   --build DIR --prefix DIR
       sdk_test.py SCENARIO  --prefix DIR [--build DIR]      (SCENARIO: below)
"""
import argparse, os, re, shutil, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from installed_prefix import fail, prefix_env, run  # noqa: E402
PROGRAM = os.path.join(HERE, "program")
A = None


def sdk_env():
    """The environment of someone who installed the SDK: its bin/ first on PATH, no build tree."""
    return prefix_env(A.prefix)


def scratch(name):
    """A fresh folder outside the clone with the program's sources."""
    d = tempfile.mkdtemp(prefix="tos-sdk-%s-" % name)
    for f in os.listdir(PROGRAM):
        shutil.copy(os.path.join(PROGRAM, f), d)
    return d


def elf_sections(path):
    _, out = run(["m68k-linux-gnu-objdump", "-h", path], os.path.dirname(path))
    return set(re.findall(r"^\s*\d+\s+(\.\S+)", out, re.M))


def build_with_tos_cc(d):
    run(["tos-cc", "-o", "stats.elf", "stats.c", "stats_util.c", "-Wall", "-Wextra", "-Werror", "-lm"], d,
        env=sdk_env())
    return os.path.join(d, "stats.elf")


def build_with_cmake(d):
    run(["cmake", "-S", ".", "-B", "build", "-G", "Ninja", "-DCMAKE_PREFIX_PATH=" + A.prefix], d, env=sdk_env())
    run(["cmake", "--build", "build"], d, env=sdk_env())
    return os.path.join(d, "build", "stats.elf")


def host_output(d):
    run(["cc", "-O2", "-o", "stats-host", "stats.c", "stats_util.c", "-lm"], d)
    return run([os.path.join(d, "stats-host")], d)[1].splitlines()


def boot(d, elf, tag, name="stats"):
    """Boots TOS on the default machine with `earth NAME` as the boot script; earth's lines
    that start with NAME's "NAME:"."""
    with open(os.path.join(d, "rc"), "w") as f:
        f.write("earth %s\n" % name)
    fs = "%s.fs" % tag
    run(["tos-mkfs", "-o", fs, "%s=%s" % (name, elf), "rc=rc"], d, env=sdk_env())
    # stored without DWARF: the ELF on the host keeps it for gdb
    _, listing = run(["tos-mkfs", "--list", fs], d, env=sdk_env())
    m = re.search(r"^%s\s+(\d+)\s" % name, listing, re.M)
    if not m or int(m.group(1)) >= os.path.getsize(elf):
        fail("tos-mkfs stored the program with its debug sections", listing)
    out_dir = os.path.join(d, "out-" + tag)
    rc, out = run(["testbed", "--set", "board.filestore=" + fs, "--console", "earth", "--out", out_dir], d,
                  env=sdk_env(), ok=False)
    if rc != 0:
        fail("testbed exited %d booting %s" % (rc, elf), out)
    if not re.search(r"^machine: .* from %s/share/testbed/configs/testbed.toml$" % re.escape(A.prefix), out, re.M) \
            or not re.search(r"image %s/share/testbed/firmware/tos.elf" % re.escape(A.prefix), out):
        fail("the installed testbed did not take its machine and TOS from the prefix", out)
    return [l for l in out.splitlines() if l.startswith(name + ":")], out


# ---------------------------------------------------------------------------------- scenarios

def install():
    """cmake --install to a fresh prefix, and what a firmware developer needs is there."""
    if os.path.exists(A.prefix):
        shutil.rmtree(A.prefix)
    run(["cmake", "--install", A.build, "--prefix", A.prefix], "/")
    need = ["bin/tos-cc", "bin/tos-mkfs", "bin/testbed", "bin/testbed-board", "lib/cmake/TOS/TOSConfig.cmake",
            "lib/cmake/TOS/tos_add_program.cmake", "lib/cmake/TOS/m68k-toolchain.cmake", "m68k-tos/lib/user.ld",
            "m68k-tos/lib/tos_user_layout.ld", "m68k-tos/include/stdio.h", "m68k-tos/include/tos/tos.h",
            "m68k-tos/include/testbed/tos.h", "libexec/tos/check_68010.py", "share/testbed/firmware/tos.elf",
            "share/testbed/configs/testbed.toml", "bin/tbwaves", "bin/tos-profile", "bin/testbed-experiment",
            "bin/testbed-analyse", "share/testbed/waveforms/monitor.gtkw", "share/testbed/waveforms/events.filter",
            "share/testbed/python/testbed_analysis/driver.py", "share/doc/testbed/README.md", "share/doc/testbed/docs/tos_abi.md",
            "share/doc/testbed/firmware/tos/README.md", "share/testbed/gdb/tos-sources.gdb",
            "src/testbed/firmware/tos/lib/crt0.S", "src/newlib/newlib/libc/stdio/printf.c"]
    missing = [p for p in need if not os.path.exists(os.path.join(A.prefix, p))]
    if missing:
        fail("not installed: " + ", ".join(missing))
    # the installed scripts find their package, version and tables under the prefix, from anywhere
    d = tempfile.mkdtemp(prefix="tos-sdk-tools-")
    for tool in ("testbed-experiment", "testbed-analyse", "tos-profile"):
        rc, out = run([tool, "--version"], d, env=sdk_env(), ok=False)
        if rc != 0 or not out.startswith(tool + " "):
            fail("the installed %s --version did not answer" % tool, out)
    rc, out = run(["testbed-experiment", "--help"], d, env=sdk_env(), ok=False)
    if rc != 0 or "usage" not in out:
        fail("the installed testbed-experiment does not load its package", out)
    rc, out = run(["tbwaves", "--help"], d, env=sdk_env(), ok=False)
    if rc != 0 or "--around" not in out:
        fail("the installed tbwaves does not start", out)


def builds_and_boots():
    """Built twice outside the tree (tos-cc, find_package(TOS)), both with debug info, both boot
    and print the host's first line; the two images print the same."""
    d = scratch("boot")
    host = host_output(d)
    results = []
    for tag, build in (("tos-cc", build_with_tos_cc), ("cmake", build_with_cmake)):
        elf = build(d)
        if ".debug_info" not in elf_sections(elf) or ".debug_line" not in elf_sections(elf):
            fail("%s built %s without debug info" % (tag, elf))
        lines, out = boot(d, elf, tag)
        if len(lines) != 3:
            fail("%s: the program's three lines are not on earth's console" % tag, out)
        if lines[0] != host[0]:
            fail("%s: the board printed %r, the host %r" % (tag, lines[0], host[0]), out)
        results.append(lines)
    if results[0] != results[1]:
        fail("the tos-cc and the CMake builds print differently", repr(results))
    print("\n".join(results[0]))


def prints_numbers_as_the_host():
    """printf("%llu %f %e %g") of computed 64-bit and double values, and a line of ctype, assert
    and <math.h> results (tos-cc -lm): the host's digits exactly."""
    d = scratch("printf")
    host = host_output(d)
    lines, out = boot(d, build_with_tos_cc(d), "printf")
    if len(lines) != 3 or lines[1:] != host[1:]:
        fail("the board printed %r, the host %r" % (lines[1:] or None, host[1:]), out)
    print("\n".join(lines[1:]))


def c_library_agrees_with_its_headers():
    """tests/sdk/c_library.c built with tos-cc from the prefix alone (time functions, the wide
    printf and scanf on strings, strtold, wcstold, towctrans, hcreate/hsearch, on_exit) and run
    on earth prints, line for line, what the host's C library prints for it."""
    d = tempfile.mkdtemp(prefix="tos-sdk-libc-")
    shutil.copy(os.path.join(HERE, "c_library.c"), d)
    run(["cc", "-O2", "-o", "libc-host", "c_library.c"], d)
    host = [l for l in run([os.path.join(d, "libc-host")], d)[1].splitlines() if l.startswith("libc:")]
    run(["tos-cc", "-o", "libc.elf", "c_library.c", "-Wall", "-Wextra", "-Werror"], d, env=sdk_env())
    lines, out = boot(d, os.path.join(d, "libc.elf"), "libc", name="libc")
    if len(host) < 30:
        fail("the host's run printed %d lines, not the program's" % len(host), "\n".join(host))
    diff = [(h, b) for h, b in zip(host, lines) if h != b]
    if len(lines) != len(host) or diff:
        fail("the board and the host differ: %d lines against %d; first differences:\n%s" % (
            len(lines), len(host), "\n".join("host:  %s\nboard: %s" % p for p in diff[:8])), out)
    print("\n".join(lines))


def refuses_68020_code():
    """tos-cc runs the 68010 check after the link: a 68020 instruction fails it and no image is left."""
    d = scratch("check")
    with open(os.path.join(d, "wide.c"), "w") as f:
        # EXTB.L D0 as raw bytes: the assembler refuses the mnemonic with -m68010, a library
        # built for the 68020 would not
        f.write("int main(void) { __asm__ volatile(\".short 0x49c0\"); return 0; }\n")
    rc, out = run(["tos-cc", "-o", "wide.elf", "wide.c"], d, env=sdk_env(), ok=False)
    if rc == 0 or os.path.exists(os.path.join(d, "wide.elf")):
        fail("tos-cc accepted a program with a 68020 instruction", out)
    if not re.search(r"main", out) or not re.search(r"extb", out, re.I):
        fail("the refusal does not name the function and the instruction", out)
    rc, out = run(["tos-cc", "-c", "stats.c"], d, env=sdk_env(), ok=False)
    if rc != 0 or not os.path.exists(os.path.join(d, "stats.o")):
        fail("tos-cc -c did not compile", out)


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--build")
    A = ap.parse_args()
    A.prefix = os.path.abspath(A.prefix)
    fn = {"install": install, "builds_and_boots": builds_and_boots,
          "prints_numbers_as_the_host": prints_numbers_as_the_host,
          "c_library_agrees_with_its_headers": c_library_agrees_with_its_headers, "refuses_68020_code": refuses_68020_code}.get(A.scenario)
    if not fn:
        fail("unknown scenario " + A.scenario)
    fn()
    print("PASS", A.scenario)


if __name__ == "__main__":
    main()
