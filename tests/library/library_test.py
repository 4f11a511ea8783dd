"""The models as a library (ctest -L library; README "Building on the models"): `cmake --install`
to a prefix, then the installed examples built outside the tree with find_package(TestbedModels)
and the installed TOS SDK alone, and run with the installed testbed.

usage: library_test.py install  --build DIR --prefix DIR
       library_test.py SCENARIO --prefix DIR           (SCENARIO: below)
"""
import argparse, filecmp, os, re, shutil, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from installed_prefix import fail, prefix_env, run as run_as_installed  # noqa: E402

A = None


def run(argv, cwd, timeout=900, ok=True):
    return run_as_installed(argv, cwd, timeout=timeout, env=prefix_env(A.prefix), ok=ok)


def example(name):
    """A fresh copy of the INSTALLED example, outside the clone."""
    d = tempfile.mkdtemp(prefix="testbed-library-%s-" % name)
    shutil.copytree(os.path.join(A.prefix, "share/testbed/examples", name), d, dirs_exist_ok=True)
    return d


def cmake_build(d):
    run(["cmake", "-S", ".", "-B", "build", "-G", "Ninja", "-DCMAKE_PREFIX_PATH=" + A.prefix], d)
    run(["cmake", "--build", "build"], d)


def install():
    if os.path.exists(A.prefix):
        shutil.rmtree(A.prefix)
    run(["cmake", "--install", A.build, "--prefix", A.prefix], "/")
    need = ["lib/cmake/TestbedModels/TestbedModelsConfig.cmake", "lib/cmake/TestbedModels/TestbedModelsTargets.cmake",
            "lib/libtestbed_board.a", "lib/libtestbed_machine.a", "include/testbed/board.h", "include/testbed/device.h",
            "include/testbed/machine_builder.h", "include/testbed/register_target.h", "include/testbed/memory_map.h",
            "include/testbed/register_tables.h", "bin/testbed", "bin/testbed-gen-device", "bin/tos-cc",
            "lib/cmake/TOS/TOSConfig.cmake", "share/testbed/examples/compose/compose.cpp",
            "share/testbed/examples/crc_device/crc.toml", "share/testbed/examples/dma_device/dmafill.toml"]
    missing = [p for p in need if not os.path.exists(os.path.join(A.prefix, p))]
    if missing:
        fail("not installed: " + ", ".join(missing))


def headers_say_what_they_are():
    """Every installed header opens with a comment saying what it is for; the internals (the
    core's decoder and executor, tool plumbing) are not installed."""
    inc = os.path.join(A.prefix, "include/testbed")
    bad = []
    for h in sorted(os.listdir(inc)):
        first = open(os.path.join(inc, h)).readline()
        if not re.match(r"\s*(//|/\*)\s*\S", first):
            bad.append(h)
    if bad:
        fail("headers without a first line saying what they are for: " + ", ".join(bad))
    internal = [h for h in ("m68k_exec.h", "m68k_decode.h", "tool_args.h", "install_paths.h")
                if os.path.exists(os.path.join(inc, h))]
    if internal:
        fail("internal headers installed: " + ", ".join(internal))
    print("%d public headers" % len(os.listdir(inc)))


def compose_two_boards_and_a_monitor():
    """examples/compose: a machine written in C++ (MachineBuilder) boots TOS on two boards; the
    slave's events reach the master through the monitor."""
    d = example("compose")
    cmake_build(d)
    _, out = run([os.path.join(d, "build", "compose"), os.path.join(d, "out")], d)
    for board in ("master", "earth"):
        if not re.search(r"^%s: .*console: TOS on %s" % (board, board), out, re.M):
            fail("board %s did not boot TOS" % board, out)
    m = re.search(r"^monitor: (\d+) events written by the slave, (\d+) kept", out, re.M)
    if not m or int(m.group(1)) == 0 or m.group(1) != m.group(2):
        fail("the monitor recorded no events from the slave", out)
    print(out[out.index("master:"):].strip())


def build_device(d):
    """The plugin (libcrc_unit.so) and the TOS driver (crcdrive.elf), then a filestore."""
    cmake_build(d)
    tos = os.path.join(d, "tos")
    cmake_build(tos)
    return os.path.join(tos, "build", "crcdrive.elf")


def filestore(d, elf, rc_lines, name="crc.fs"):
    with open(os.path.join(d, "rc"), "w") as f:
        f.write("".join(l + "\n" for l in rc_lines))
    run(["tos-mkfs", "-o", name, "crcdrive=" + elf, "rc=rc"] +
        (["logger=" + os.path.join(A.prefix, "share/testbed/firmware/logger.elf")] if any("logger" in l for l in rc_lines) else []), d)
    return name


def device_on_a_board():
    """examples/crc_device: the plugin mapped on earth by the machine file, TOS booted, the driver
    run: the device's CRC equals the program's, its interrupt was taken once, and the kernel's
    checks held (an address outside the window EINVAL, a refused access EIO, another process
    EBUSY while the driver owns the device)."""
    d = example("crc_device")
    elf = build_device(d)
    fs = filestore(d, elf, ["earth crcdrive"])
    # TOS stays up after the boot script (the run ends when nothing has moved for run.no_progress_ms).
    rc, out = run(["testbed", "machine.toml", "--set", "board.filestore=" + fs, "--console", "earth",
                   "--out", "out"], d, ok=False)
    if not re.search(r"device crc0 \(crc\) at 0xFE1000, from .*libcrc_unit\.so", out):
        fail("the machine's description does not show the device", out)
    log = open(os.path.join(d, "out", "earth.console.log")).read()
    m = re.search(r"crcdrive: words 16, status 0x1, interrupts 1 \(after \d+ us\), result (0x[0-9a-f]+), expected (0x[0-9a-f]+)", log)
    if not m or m.group(1) != m.group(2):
        fail("the device's CRC or its interrupt is wrong", log)
    if "crcdrive: a second process is refused the device (EBUSY)" not in log:
        fail("a second process reached the driver's device (it is its owner's)", log)
    if "crcdrive: PASS" not in log or "tos: earth: all programs done" not in log:
        fail("the driver failed", log)
    print(log.strip())


def dma_device_on_a_board():
    """examples/dma_device: the DMA fill engine's plugin mapped on earth, its TOS driver built with
    the installed SDK: the kernel gives the driver a DMA buffer and its bus address, the device
    fills the buffer through the board's DMA port and raises its interrupt, the driver finds every
    byte and frees the buffer, and the board ends with every frame free (issue #62)."""
    d = example("dma_device")
    cmake_build(d)
    tos = os.path.join(d, "tos")
    cmake_build(tos)
    with open(os.path.join(d, "rc"), "w") as f:
        f.write("earth dmadrive\n")
    run(["tos-mkfs", "-o", "dma.fs", "dmadrive=" + os.path.join(tos, "build", "dmadrive.elf"), "rc=rc"], d)
    rc, out = run(["testbed", "machine.toml", "--set", "board.filestore=dma.fs", "--console", "earth",
                   "--out", "out"], d, ok=False)
    if not re.search(r"device dma0 \(dmafill\) at 0xFE1000, from .*libdma_fill\.so", out):
        fail("the machine's description does not show the device", out)
    log = open(os.path.join(d, "out", "earth.console.log")).read()
    if not re.search(r"dmadrive: buffer at 0x[0-9a-f]+, bus address 0x[0-9a-f]+ \(2 frames\); status 0x1, "
                     r"2000 bytes written, 0 wrong; freed", log) or "dmadrive: PASS" not in log:
        fail("the device's DMA did not reach the driver's buffer", log)
    boot = re.search(r"(\d+) frames free, \d+ TCBs\n", log)
    end = re.search(r"all programs done, (\d+) frames free", log)
    if not boot or not end or boot.group(1) != end.group(1):
        fail("earth did not end with every frame free", log)
    print(log.strip())


def refused_before_the_machine_is_built():
    """A second CRC unit overlapping the first, a missing library, and a bad register table are
    refused naming the file and the line, before anything is simulated."""
    d = example("crc_device")
    cmake_build(d)
    text = open(os.path.join(d, "machine.toml")).read()
    clash = text + '\n[[boards.devices]]\nname = "crc1"\nlibrary = "build/libcrc_unit.so"\naddress = 0xFE1010\n'
    open(os.path.join(d, "clash.toml"), "w").write(clash)
    line = clash.count("\n", 0, clash.index("address = 0xFE1010")) + 1
    rc, out = run(["testbed", "clash.toml", "--out", "out"], d, ok=False)
    want = r"clash\.toml:%d: boards\.1\.devices\.1\.address: board earth: device crc1 at 0xFE1010\.\.0xFE102F overlaps device crc0 at 0xFE1000\.\.0xFE101F" % line
    if rc == 0 or not re.search(want, out) or "TOS on" in out:
        fail("the clash was not refused as expected (%s)" % want, out)
    print(re.search(want, out).group(0))
    missing = text.replace("build/libcrc_unit.so", "build/libnone.so")
    open(os.path.join(d, "missing.toml"), "w").write(missing)
    line = missing.count("\n", 0, missing.index("libnone")) + 1
    rc, out = run(["testbed", "missing.toml", "--out", "out"], d, ok=False)
    want = r"missing\.toml:%d: boards\.1\.devices\.0\.library = \"build/libnone\.so\" \(device crc0\): no such library" % line
    if rc == 0 or not re.search(want, out):
        fail("the missing library was not refused as expected", out)
    print(re.search(want, out).group(0))
    table = open(os.path.join(d, "crc.toml")).read().replace("offset = 0x0C", "offset = 0x0A")
    open(os.path.join(d, "bad.toml"), "w").write(table)
    line = table.count("\n", 0, table.index('name = "RESULT"')) + 1
    rc, out = run(["testbed-gen-device", "bad.toml", "gen"], d, ok=False)
    want = r"bad\.toml:%d: registers CRC\.DATA and CRC\.RESULT overlap" % line
    if rc == 0 or not re.search(want, out):
        fail("the bad table was not refused as expected", out)
    print(re.search(want, out).group(0))


def exact_with_the_device_at_two_quanta():
    """Exact mode: TOS with the CRC unit on earth, earth's every system call a monitor event
    (dgl +cpu), gives bit-identical consoles (the driver prints when its interrupt came), monitor
    VCD and instruction counts at a 10 us and the default 1 ms quantum, with rollbacks at both."""
    d = example("crc_device")
    elf = build_device(d)
    at_two_quanta(d, filestore(d, elf, ["earth dgl +cpu", "earth crcdrive"]), "crcdrive: PASS")


def exact_with_the_dma_device_at_two_quanta():
    """The same for the DMA fill engine (issue #62): its transfer writes RAM by DMA while the CPU
    runs ahead; the board's DMA port rolls the CPU back, so the runs are bit-identical."""
    d = example("dma_device")
    cmake_build(d)
    tos = os.path.join(d, "tos")
    cmake_build(tos)
    with open(os.path.join(d, "rc"), "w") as f:
        f.write("earth dgl +cpu\nearth dmadrive\n")
    run(["tos-mkfs", "-o", "dma.fs", "dmadrive=" + os.path.join(tos, "build", "dmadrive.elf"), "rc=rc"], d)
    at_two_quanta(d, "dma.fs", "dmadrive: PASS")


def at_two_quanta(d, fs, passed):
    files = ["master.console.log", "earth.console.log", "monitor.vcd"]
    counts = {}
    for q in ("10", "1000"):
        out_dir = os.path.join(d, "out-" + q)
        os.makedirs(out_dir)
        rc, out = run(["testbed", "machine.toml", "--set", "board.filestore=" + fs, "--set", "cpu.quantum_us=" + q,
                       "--set", "trace.monitor_vcd=" + os.path.join(out_dir, "monitor.vcd"), "--out", out_dir], d, ok=False)
        if passed not in open(os.path.join(out_dir, "earth.console.log")).read():
            fail("the driver failed at quantum %s us" % q, out)
        counts[q] = re.findall(r"^board (\w+) .* (\d+) instructions, .* exact: \d+ commits, (\d+) rollbacks", out, re.M)
        if len(counts[q]) != 2:
            fail("no summary of the two boards at quantum %s us" % q, out)
    if [c[:2] for c in counts["10"]] != [c[:2] for c in counts["1000"]]:
        fail("instruction counts differ between quanta: %r" % counts)
    for f in files:
        a, b = (os.path.join(d, "out-" + q, f) for q in ("10", "1000"))
        if not filecmp.cmp(a, b, shallow=False):
            rc, diff = run(["diff", a, b], d, ok=False)
            fail("%s differs between quanta" % f, diff[:3000])
    changes = sum(1 for l in open(os.path.join(d, "out-10", "monitor.vcd")) if l.startswith("#"))
    print("identical at 10 us and 1 ms: %s (%d monitor VCD time steps), instructions %r, rollbacks %s / %s"
          % (", ".join(files), changes, [c[:2] for c in counts["10"]], [c[2] for c in counts["10"]],
             [c[2] for c in counts["1000"]]))


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--build")
    A = ap.parse_args()
    A.prefix = os.path.abspath(A.prefix)
    scenarios = {f.__name__: f for f in (install, headers_say_what_they_are, compose_two_boards_and_a_monitor,
                                          device_on_a_board, dma_device_on_a_board, refused_before_the_machine_is_built,
                                          exact_with_the_device_at_two_quanta,
                                          exact_with_the_dma_device_at_two_quanta)}
    if A.scenario not in scenarios:
        fail("no scenario " + A.scenario)
    scenarios[A.scenario]()


if __name__ == "__main__":
    main()
