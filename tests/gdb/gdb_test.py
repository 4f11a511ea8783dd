#!/usr/bin/env python3
"""gdb tests (ctest -L gdb): start the simulator with its GDB stub (--gdb PORT) in the background,
run `gdb-multiarch -batch` (or a raw RSP client) against it and check what gdb prints, what the
firmware prints and that the simulator survives. Every step is bounded in time; the simulator is
killed at the end whatever happens.

usage: gdb_test.py SCENARIO --bin DIR --firmware DIR [--gdb gdb-multiarch] [--sdk PREFIX]
"""
import argparse, os, re, shutil, signal, socket, struct, subprocess, sys, tempfile, time, zlib

A = None
# The simulator's bound in host seconds (the tests' ctest TIMEOUT), not in simulated cycles: a
# board nobody holds runs free (gdb-target's spin loop: about 200 s simulated in 2 s of host), so
# a cycle bound can end the run between one client leaving and the next attaching.
HOST_LIMIT = 300


def fail(msg, *outputs):
    print("FAIL:", msg)
    for o in outputs:
        print("----\n" + o)
    sys.exit(1)


def free_port(name, count):
    """A base port derived from the test's name, moved on until `count` ports are free."""
    base = 20000 + zlib.crc32(name.encode()) % 30000
    for p in range(base, base + 2000, 8):
        ok = True
        for k in range(count):
            s = socket.socket()
            try:
                s.bind(("127.0.0.1", p + k))
            except OSError:
                ok = False
            finally:
                s.close()
        if ok:
            return p
    fail("no free ports")


class Sim:
    def __init__(self, argv, port):
        self.out = tempfile.TemporaryFile(mode="w+")
        self.err = tempfile.TemporaryFile(mode="w+")
        if shutil.which("timeout"):  # never outlives the test, even if this script is killed
            argv = ["timeout", "-s", "KILL", str(HOST_LIMIT)] + argv
        self.p = subprocess.Popen(argv, stdout=self.out, stderr=self.err, stdin=subprocess.DEVNULL,
                                  start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:  # until the stub says it listens (a probe would attach)
            if self.p.poll() is not None:
                fail("the simulator ended before listening", self.text())
            self.err.seek(0)
            if "gdb stub on" in self.err.read():
                break
            time.sleep(0.1)
        else:
            fail("the stub does not listen", self.text())
        time.sleep(0.2)

    def text(self):
        self.out.seek(0)
        self.err.seek(0)
        return "stdout:\n" + self.out.read() + "\nstderr:\n" + self.err.read()

    def stdout(self):
        self.out.seek(0)
        return self.out.read()

    def wait(self, timeout):
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        """Ends the simulator (if gdb has not) and fails on a sanitizer's report (ASan/UBSan builds)."""
        self.wait(20)  # a `kill` or the guest's exit: let it finish on its own
        if self.p.poll() is None:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()
        self.err.seek(0)
        err = self.err.read()
        if "ERROR: AddressSanitizer" in err or "runtime error:" in err or "ERROR: LeakSanitizer" in err:
            fail("the simulator reported a sanitizer error", err)


def gdb(port, cmds, elf=None, timeout=120):
    argv = [A.gdb, "-batch", "-nx", "-ex", "set architecture m68k", "-ex", "set pagination off",
            "-ex", "target remote 127.0.0.1:%d" % port]
    for c in cmds:
        argv += ["-ex", c]
    if elf:
        argv.append(elf)
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        fail("gdb timed out", (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""))
    return r.stdout + r.stderr


def expect(out, pattern, what, *more):
    m = re.search(pattern, out, re.M)
    if not m:
        fail("%s: no match for %r" % (what, pattern), out, *more)
    return m


def elf_symbol_bytes(path, name, n):
    """n bytes of symbol `name` as the ELF (32-bit big-endian) holds them."""
    d = open(path, "rb").read()
    shoff, = struct.unpack_from(">I", d, 0x20)
    shentsize, shnum = struct.unpack_from(">HH", d, 0x2E)
    secs = [struct.unpack_from(">IIIIIIIIII", d, shoff + i * shentsize) for i in range(shnum)]
    for s in secs:
        if s[1] == 2:  # SHT_SYMTAB
            strtab = secs[s[6]]
            for k in range(s[5] // 16):
                st_name, value, size, info, other, shndx = struct.unpack_from(">IIIBBH", d, s[4] + 16 * k)
                end = d.index(b"\0", strtab[4] + st_name)
                if d[strtab[4] + st_name:end].decode() == name:
                    sec = secs[shndx]
                    off = sec[4] + value - sec[3]
                    return d[off:off + n]
    fail("no symbol %s in %s" % (name, path))


def target_elf():
    return os.path.join(A.firmware, "gdb-target.elf")


def board_sim(port, extra=()):
    return Sim([os.path.join(A.bin, "testbed-board"), "--gdb", str(port), *extra, target_elf()], port)


# ---------------------------------------------------------------------------------- scenarios

def break_registers_memory(name):
    port = free_port(name, 1)
    sim = board_sim(port)
    try:
        out = gdb(port, ["break bump", "break report", "continue", "set var message = 0xBEEF", "delete 1",
                         "continue", "info registers", "x/4x &table", "delete", "set var hold = 0", "continue"],
                  target_elf())
        expect(out, r"^Breakpoint 2, report \(v=48879\)", "stopped at report() with the value gdb wrote")
        expect(out, r"^pc\s+0x[0-9a-f]+\s+0x[0-9a-f]+ <report>", "info registers: pc at report")
        expect(out, r"^d0\s+0x[0-9a-f]+", "info registers: d0")
        expect(out, r"^sp\s+0x[0-9a-f]+", "info registers: sp")
        words = struct.unpack(">4I", elf_symbol_bytes(target_elf(), "table", 16))
        expect(out, r"<table>:\s+" + r"\s+".join("0x%08x" % w for w in words), "x/4x &table equals the ELF")
        if sim.wait(60) is None:
            fail("the firmware did not finish after the last continue", out, sim.text())
        expect(sim.stdout(), r"^message 0x0000BEEF$", "the firmware prints what gdb wrote", out)
        expect(sim.stdout(), r"^released$", "the firmware ran to the end", out)
        expect(out, r"\[Inferior 1 \(Remote target\) exited normally\]", "gdb hears that the guest exited")
    finally:
        sim.kill()


def watchpoint(name):
    port = free_port(name, 1)
    sim = board_sim(port)
    try:
        out = gdb(port, ["break main", "continue", "watch counter", "continue", "bt 1", "continue", "kill"],
                  target_elf())
        expect(out, r"Hardware watchpoint 2: counter", "hardware watchpoint set")
        expect(out, r"Old value = 0\s+New value = 1", "stops on the first store")
        expect(out, r"^#0\s+.*bump \(\)", "stopped in bump(), the store's function")
        expect(out, r"Old value = 1\s+New value = 2", "stops on the second store")
    finally:
        sim.kill()


def stepi(name):
    port = free_port(name, 1)
    sim = board_sim(port)
    try:
        out = gdb(port, ["break bump", "continue", "x/2i $pc", "stepi", "p/x $pc", "stepi", "p/x $pc",
                         "kill"], target_elf())
        m = expect(out, r"^=> (0x[0-9a-f]+) <bump[+0-9]*>:.*\n\s+(0x[0-9a-f]+) <bump", "x/2i before the step")
        nxt = int(m.group(2), 16)
        pcs = [int(v, 16) for v in re.findall(r"^\$\d+ = (0x[0-9a-f]+)", out, re.M)]
        if not pcs or pcs[0] != nxt:
            fail("stepi went to %s, the next instruction is 0x%x" % (pcs, nxt), out)
        if len(pcs) < 2 or pcs[1] <= pcs[0]:
            fail("a second stepi did not advance", out)
    finally:
        sim.kill()


def all_stop(name):
    """Two boards of the machine stopped at once: while gdb holds the master at a breakpoint, a
    second gdb on earth reads earth's cycle counter twice, a second apart: it has not moved."""
    port = free_port(name, 6)
    sim = Sim([os.path.join(A.bin, "testbed"), "--gdb", str(port), "--stop-ms", "3000", "--out",
               tempfile.mkdtemp(prefix="gdb-all-stop-")], port)
    inner = "%s -batch -nx -ex 'set architecture m68k' -ex 'target remote 127.0.0.1:%d' " \
            "-ex 'monitor cycles' -ex 'shell sleep 1' -ex 'monitor cycles' -ex 'detach'" % (A.gdb, port + 1)
    try:
        out = gdb(port, ["break schedule", "continue", "continue", "monitor cycles", "shell " + inner,
                         "shell sleep 0.5", "monitor cycles", "delete", "detach"],
                  os.path.join(A.firmware, "tos.elf"), timeout=180)
        expect(out, r"Breakpoint 1, .*schedule", "the master stopped at schedule()")
        earth = [int(c) for c in re.findall(r"^earth: cycles (\d+)", out, re.M)]
        master = [int(c) for c in re.findall(r"^master: cycles (\d+)", out, re.M)]
        if len(earth) != 2 or earth[0] == 0 or earth[0] != earth[1]:
            fail("earth's cycle counter moved while the master was stopped: %s" % earth, out, sim.text())
        if len(master) != 2 or master[0] != master[1]:
            fail("the master's cycle counter moved while stopped: %s" % master, out)
    finally:
        sim.kill()


class Raw:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=60)  # generous: a loaded CI host

    def send(self, b):
        self.s.sendall(b)

    def packet(self, body):
        return b"$" + body + b"#%02x" % (sum(body) & 0xFF)

    def reply(self):
        """The next packet's body (acks skipped)."""
        buf = b""
        while True:
            c = self.s.recv(1)
            if not c:
                fail("connection closed while waiting for a reply")
            if c in b"+-" and not buf:
                continue
            buf += c
            if len(buf) >= 3 and buf[-3:-2] == b"#":
                return buf[1:-3]

    def ack(self):
        return self.s.recv(1)

    def ask(self, body):
        self.send(self.packet(body))
        return self.reply()


def bad_input(name):
    port = free_port(name, 1)
    sim = board_sim(port)
    try:
        r = Raw(port)
        r.send(b"$g#00")  # wrong checksum: NAK, nothing else
        if r.ack() != b"-":
            fail("a wrong checksum is not refused")
        checks = [
            (b"?", rb"T05thread:1;"),
            (b"mzz,4", rb"E01"),
            (b"m400", rb"E01"),
            (b"m400,", rb"E01"),
            (b"m123456789,4", rb"E01"),
            (b"mfd8000,4", rb"E14"),       # a hole in the memory map
            (b"m1000000,4", rb"E14"),      # past the 24-bit bus
            (b"mf00000,10", rb"E14"),      # RAM not fitted
            (b"M400,4:zz", rb"E01"),
            (b"Mfd8000,2:0000", rb"E14"),
            (b"G1234", rb"E01"),
            (b"p99", rb"E00"),
            (b"Pz=1", rb"E01"),
            (b"Z9,400,2", rb""),
            (b"Z0,zz,2", rb"E01"),
            (b"qRcmd,zz", rb"E01"),
            (b"vCont?", rb"vCont;c;C;s;S"),  # offered, so that a step names its thread
            (b"vCont;", rb"E01"),             # no action
            (b"vCont;x", rb"E01"),            # an action not offered
            (b"vCont;s:zz", rb"E01"),         # a thread that is not a number
            (b"vCont;s:p1", rb"E01"),         # a multiprocess id without its thread
            (b"x", rb""),
            (b"m400,4", rb"[0-9a-f]{8}"),
        ]
        for body, want in checks:
            got = r.ask(body)
            if not re.fullmatch(want, got):
                fail("%r answered %r, expected %r" % (body, got, want), sim.text())
        r.send(b"$" + b"a" * 40000 + b"#00")  # oversized
        got = r.reply()
        if got != b"E02":
            fail("an oversized packet answered %r" % got)
        if r.ask(b"?") != b"T05thread:1;":
            fail("no answer after an oversized packet")
        r.send(r.packet(b"c"))  # run, then Ctrl-C: stopped with SIGINT
        time.sleep(0.3)
        r.send(b"\x03")
        got = r.reply()
        if not re.fullmatch(rb"T02thread:1;", got):
            fail("Ctrl-C answered %r" % got)
        r.send(b"$m400,4")  # and disconnect half-way through a packet
        r.s.close()
        time.sleep(0.3)
        r = Raw(port)  # attach again
        if r.ask(b"?") != b"T05thread:1;":
            fail("no stop reply after attaching again")
        r.send(b"$m40")  # half a packet again, and at once a new client: the old one's close and
        r.s.close()      # the new connection are seen together; the new one is not refused as busy
        r = Raw(port)
        if r.ask(b"?") != b"T05thread:1;":
            fail("no stop reply after a close and an immediate attach", sim.text())
        r.s.close()
        time.sleep(0.3)  # the board runs free (nobody holds it) until gdb attaches
        out = gdb(port, ["info registers pc", "x/4x &table", "detach"], target_elf())
        expect(out, r"^pc\s+0x[0-9a-f]+", "gdb attaches after bad input", sim.text())
        expect(out, r"<table>:\s+0x11223344", "gdb reads memory after bad input", sim.text())
        expect(out, r"\[Inferior 1 \(Remote target\) detached\]", "gdb detaches", sim.text())
        out = gdb(port, ["info registers pc", "kill"], target_elf())  # and once more, to the end
        expect(out, r"^pc\s+0x[0-9a-f]+", "gdb attaches again after a detach", sim.text())
        if sim.wait(30) is None:
            fail("kill did not end the simulation", sim.text())
    finally:
        sim.kill()


def pc_in_hole(name):
    """A debugger's PC in a hole of the memory map (issue #30): the board halts with a message
    naming the address; the simulator does not abort (it died of an uncaught m68k::Group0)."""
    port = free_port(name, 1)
    sim = board_sim(port)
    try:
        out = gdb(port, ["break report", "continue", "set $pc = 0xfd8000", "continue"], target_elf())
        rc = sim.wait(60)
        if rc is None:
            fail("the simulator did not end after its only board halted", out, sim.text())
        if rc < 0:
            fail("the simulator died of signal %d" % -rc, out, sim.text())
        expect(sim.text(), r"no memory at the PC the debugger set, 0xFD8000 \(bus error", "the halt names the PC",
               out)
        if rc != 3:
            fail("testbed-board exited %d, not 3 (the CPU halted)" % rc, out, sim.text())
    finally:
        sim.kill()


def tos_threads(name):
    """TOS threads as gdb threads: earth stops in a program with five threads; `info threads`
    lists them from the kernel's TCBs (process, state, id), `thread N` shows a saved context and
    memory reads use that thread's process's address space. The server says that exact mode is
    off under it and the default 1 ms quantum is kept at 10 us."""
    port = free_port(name, 6)
    prog = os.path.join(A.firmware, "gdb_five_threads.elf")
    sim = Sim([os.path.join(A.bin, "testbed"), "--gdb", str(port), "--stop-ms", "5000",
               "--set", "board.filestore=tos-gdb_five_threads.fs", "--console", "earth",
               "--out", tempfile.mkdtemp(prefix="gdb-tos-threads-")], port)
    try:
        out = gdb(port + 1, ["monitor space user", "break all_started", "continue", "info threads",
                             "thread 3", "info registers pc", "p/x $sp", "x/2x worker", "x/2x 0x3ff000",
                             "thread 1", "monitor space supervisor", "x/2x 0x3ff000", "delete", "detach"],
                  prog, timeout=240)
        expect(out, r"Breakpoint 1, .*all_started", "earth stopped in the program")
        lines = re.findall(r"^[ *]\s+\d+\s+Thread \d+ \(tid 0x([0-9a-f]{4}) process (\d+) gdb_five_threa.*\)", out, re.M)
        if len(lines) != 5:
            fail("info threads lists %d threads of the program, not 5" % len(lines), out, sim.text())
        if len(set(p for _, p in lines)) != 1:
            fail("the five threads are not of one process", out)
        expect(out, r"^\*\s+\d+\s+Thread \d+ \(.*on the CPU\).* all_started", "the current thread is the one in all_started")
        expect(out, r"Thread \d+ \(.*(ready|receive)", "a worker's state")
        expect(out, r"\[Switching to thread 3 ", "thread 3 selected")
        want = struct.unpack(">2I", elf_symbol_bytes(prog, "worker", 8))
        expect(out, r"<worker>:\s+0x%08x\s+0x%08x" % want, "the program's code read in its address space")
        expect(sim.text(), r"^gdb: exact mode is off while a debugger is attached; quantum 1 ms -> 10 us$",
               "the server says that exact mode is off and the default quantum is kept at 10 us")
        # a physical address (RAM's top: a DMA buffer's bus address) is not in a thread's space;
        # the error reply is a number, so the server says why on its console (issue #62)
        expect(out, r"Cannot access memory at address 0x3ff000", "a physical address refused in thread 3's space")
        expect(sim.text(), r"^gdb: earth: 0x[0-9a-f]+ is not mapped in the address space of thread tid 0x[0-9a-f]{4} "
               r"process \d+ .*it is a physical address of the board: `thread 1` \(the board's CPU\) and "
               r"`monitor space supervisor` read it", "the server says why the address was refused")
        expect(out, r"^0x3ff000:\s+0x[0-9a-f]{8}\s+0x[0-9a-f]{8}$", "the physical address read in thread 1")
    finally:
        sim.kill()


def marked_lines(program="gdb_next_over_calls"):
    """The lines of tests/tos/PROGRAM.c by the markers in their comments."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tos", program + ".c")
    lines = {}
    for n, text in enumerate(open(src), 1):
        m = re.search(r"/\* line: (\w+) \*/", text)
        if m:
            lines[m.group(1)] = n
    return lines


def next_over_calls_sim(name, prefix):
    """The machine running tests/tos/gdb_next_over_calls.c with its gdb server on a free port, in
    the NI mode of --dma: (port, Sim)."""
    port = free_port(name, 6)
    return port, Sim([os.path.join(A.bin, "testbed"), "--gdb", str(port), "--stop-ms", "3000",
                      "--set", "board.filestore=tos-gdb_next_over_calls.fs", "--set", "centrenet.dma=" + A.dma,
                      "--console", "earth", "--out", tempfile.mkdtemp(prefix=prefix)], port)


def next_over_calls(name):
    """`next` over system calls in a TOS thread (issue #62): earth stops at the printf line of
    tests/tos/gdb_next_over_calls.c, then `next` three times: over printf (a write to the console),
    over a channel send and over a channel receive, each of which blocks main while the kernel
    runs its partner thread; each line first reads a page the page protocol brings back from the
    board main visited (a bus error in the step). Each `next` lands on the program's next source
    line in the same thread; none stops in the kernel or in another thread. Then `stepi` over the
    `trap` of a receive, which waits while the partner computes in user code, lands on the
    instruction after it in main's thread, and with `monitor step kernel` a stepi over a trap
    stops in the kernel (thread 1). Once per NI mode (--dma): the pages come home through the NI either way."""
    lines = marked_lines()
    prog = os.path.join(A.firmware, "gdb_next_over_calls.elf")
    port, sim = next_over_calls_sim(name, "gdb-next-")
    try:
        out = gdb(port + 1, ["monitor space user", "break gdb_next_over_calls.c:%d" % lines["printf"], "continue",
                             "thread", "next", "thread", "next", "thread", "next", "thread", "info frame",
                             # stepi over the trap itself, then the same with `monitor step kernel`
                             "tbreak gdb_next_over_calls.c:%d" % lines["stepi"], "continue",
                             "break __tos_syscall thread 2", "continue", "stepi", "stepi", "stepi", "x/i $pc",
                             "thread", "monitor step kernel", "continue", "stepi", "stepi", "stepi", "thread",
                             "monitor step user", "delete", "detach"], prog, timeout=240)
        expect(out, r"hit Breakpoint 1, main \(\) at .*gdb_next_over_calls.c:%d" % lines["printf"], "earth stopped at the printf line",
               sim.text())
        nexts = out[:out.index("Stack level 0")] if "Stack level 0" in out else out
        got = [int(n) for n in re.findall(r"^(\d+)\t", nexts, re.M)]
        want = [lines["printf"], lines["send"], lines["receive"], lines["after"]]
        if got != want:
            fail("`next` went through lines %s, not %s (printf, send, receive, the line after)" % (got, want), out,
                 sim.text())
        threads = [int(t) for t in re.findall(r"^\[Current thread is \d+ \(Thread (\d+)\)\]", nexts, re.M)]
        if len(threads) != 4 or len(set(threads)) != 1 or threads[0] < 0x10000:
            fail("the thread after each `next` is not the TOS thread stopped at the breakpoint: %s" % threads, out)
        if "Switching to" in nexts[nexts.index("hit Breakpoint 1"):]:
            fail("a `next` stopped in another thread", out)
        expect(out, r"^Stack level 0, frame at 0x[0-9a-f]+:\s+pc = 0x[0-9a-f]+ in main \(.*gdb_next_over_calls.c:%d\)"
               % lines["after"], "the frame is main's, at the line after the receive")
        expect(out, r"^=> 0x[0-9a-f]+ <__tos_syscall\+\d+>:\s+moveml %%sp@\+[^\n]*\n\[Current thread is 2 \(Thread %d\)\]"
               % threads[0], "stepi over the trap of a receive that waits: the instruction after it, in the same thread")
        expect(out, r"^a step stops at the kernel's first instruction$", "monitor step kernel answers")
        hits = [m.start() for m in re.finditer(r"hit Breakpoint \d+, __tos_syscall", out)]
        if len(hits) != 2:
            fail("__tos_syscall's breakpoint was not hit twice", out)
        after = out[hits[1]:]
        expect(after, r"^\[Switching to Thread 1\]", "with `monitor step kernel` a stepi over the trap stops in the kernel")
        expect(after, r"^\[Current thread is 1 \(Thread 1\)\]", "... in thread 1, the CPU")
        if sim.wait(60) is None:
            fail("the program did not end after the detach", out, sim.text())
        expect(sim.stdout(), r"^gdb_next_over_calls: back, 1\s*$", "printf printed once, after the moves", out)
        expect(sim.stdout(), r"^gdb_next_over_calls: ok\s*$", "main received the partner's reply", out)
        expect(sim.stdout(), r"^gdb_next_over_calls: PASS\s*$", "the program ran to its end", out)
    finally:
        sim.kill()


def next_over_migrate(name):
    """A TOS thread followed across its migrations (issue #62): earth stops at main's line that
    migrates it to air (tests/tos/gdb_next_over_calls.c); `next` lands on the next line, which
    runs on air, in the same thread, and earth's gdb lists it there, reads its registers and its
    memory there (the pages it wrote on air); `next` again, then the move home stepped by hand:
    `stepi` over migrate's `trap` on air lands on the instruction after it, back on earth, in the
    same thread; two more `stepi` (out of __tos_syscall, which has no frame information) and
    `finish` come back to main. Once per NI mode (--dma)."""
    lines = marked_lines()
    prog = os.path.join(A.firmware, "gdb_next_over_calls.elf")
    port, sim = next_over_calls_sim(name, "gdb-migrate-")
    try:
        out = gdb(port + 1, ["monitor space user", "break gdb_next_over_calls.c:%d" % lines["migrate"], "continue",
                             "thread", "next", "thread", "info threads", "next", "thread", "p moved[2][0]",
                             "echo ==home==\\n",
                             # the move home by hand: main's system calls (gettid, then migrate)
                             "break __tos_syscall thread 2", "continue", "continue", "stepi", "stepi", "stepi",
                             "x/i $pc", "thread", "info threads", "delete 2",
                             "echo ==main==\\n", "stepi", "stepi", "finish", "thread", "delete", "detach"],
                  prog, timeout=240)
        expect(out, r"hit Breakpoint 1, main \(\) at .*gdb_next_over_calls.c:%d" % lines["migrate"],
               "earth stopped at the migrate line", sim.text())
        away, home, rest = out.partition("==home==")[0], *out.partition("==home==")[2].partition("==main==")[::2]
        got = [int(n) for n in re.findall(r"^(\d+)\t", away, re.M)]
        want = [lines["migrate"], lines["away"], lines["back"]]
        if got != want:
            fail("`next` went through lines %s, not %s (the migrate line, the line on air, the line back)"
                 % (got, want), out, sim.text())
        threads = [int(t) for t in re.findall(r"^\[Current thread is 2 \(Thread (\d+)\)\]", out, re.M)]
        if len(threads) != 5 or len(set(threads)) != 1 or threads[0] < 0x10000:
            fail("the thread after each step is not main's TOS thread, gdb's thread 2: %s" % threads, out, sim.text())
        if "Switching to" in away[away.index("hit Breakpoint 1"):]:
            fail("a `next` stopped in another thread", out)
        tid = threads[0] - 0x10000
        expect(away, r"^\*\s+2\s+Thread %d \(tid 0x%04x process \d+ [^,]*, on the CPU, on air\)"
               % (threads[0], tid), "earth's gdb lists main's thread on air, running there")
        expect(away, r"^\$1 = 3$", "main's memory read where it is (the page it wrote on air)")
        expect(home, r"^=> 0x[0-9a-f]+ <__tos_syscall\+\d+>:\s+moveml %sp@\+", "stepi over the trap: the instruction after it")
        expect(home, r"^\*\s+2\s+Thread %d \(tid 0x%04x process \d+ gdb_next_over_c[^,]*, on the CPU\)"
               % (threads[0], tid), "... on earth again, running there")
        hits = re.findall(r"hit Breakpoint 2, [^\n]*__tos_syscall", home)
        if len(hits) != 2:
            fail("main's two system calls on the way home did not stop at __tos_syscall", out, sim.text())
        m = expect(rest, r"^main \(\) at .*gdb_next_over_calls.c:(\d+)$", "finish comes back to main")
        if int(m.group(1)) not in (lines["back"], lines["printf"]):
            fail("finish came back to main at line %s, not the migrate line or the one after it" % m.group(1), out)
        if sim.wait(60) is None:
            fail("the program did not end after the detach", out, sim.text())
        expect(sim.stdout(), r"^gdb_next_over_calls: back, 1\s*$", "the move home happened once", out)
        expect(sim.stdout(), r"^gdb_next_over_calls: PASS\s*$", "the program ran to its end", out)
    finally:
        sim.kill()


def dma_buffer(name):
    """gdb and a DMA buffer (issue #62): on the two-board machine with the example DMA device
    (--config), earth's driver of tests/tos/dma_buffer_reaches_driver.c stops after the device
    filled its buffer. In the driver's thread gdb reads the device's bytes through the buffer's
    address and writes one there; its read and its write of the buffer's bus address are refused
    ("Cannot access memory"), and the simulator says for each why and how to reach it. As thread 1
    with `monitor space supervisor` gdb reads its byte at the bus address and writes one more, which
    the driver's thread then sees in its buffer; the driver goes on and passes."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tos", "dma_buffer_reaches_driver.c")
    line = next(n for n, text in enumerate(open(src), 1) if "/* line: filled" in text)
    prog = os.path.join(A.firmware, "dma_buffer_reaches_driver.elf")
    port = free_port(name, 2)
    sim = Sim([os.path.join(A.bin, "testbed"), A.config, "--gdb", str(port), "--stop-ms", "5000",
               "--set", "board.image=tos.elf", "--set", "board.filestore=tos-dma_buffer_reaches_driver.fs",
               "--console", "earth", "--out", tempfile.mkdtemp(prefix="gdb-dma-")], port)
    try:
        out = gdb(port + 1, ["monitor space user", "break dma_buffer_reaches_driver.c:%d" % line, "continue",
                             "set $b = b", "set $bus = bus", "p/x $bus", "x/4xb $b", "set {unsigned char}$b = 0xa5",
                             "x/1xb $bus", "set {unsigned char}$bus = 1",
                             "thread 1", "monitor space supervisor", "x/2xb $bus", "set {unsigned char}($bus + 1) = 0x3c",
                             "thread 2", "monitor space user", "x/2xb $b", "delete", "detach"], prog, timeout=240)
        expect(out, r"hit Breakpoint 1, driver \(.*dma_buffer_reaches_driver.c:%d" % line, "the driver stopped after the fill",
               sim.text())
        bus = int(expect(out, r"^\$1 = (0x[0-9a-f]+)$", "the buffer's bus address").group(1), 16)
        expect(out, r"^0x[0-9a-f]+:\s+0x5a\s+0x5b\s+0x5c\s+0x5d$", "the device's bytes through the buffer's address")
        refused = re.findall(r"^Cannot access memory at address 0x%x$" % bus, out, re.M)
        if len(refused) != 2:
            fail("the read and the write of the bus address in the driver's thread are not both refused", out)
        why = r"^gdb: earth: 0x%x is not mapped in the address space of thread tid 0x[0-9a-f]{4} process \d+ .*, so gdb " \
              r"cannot %s it there; it is a physical address of the board: `thread 1` \(the board's CPU\) and " \
              r"`monitor space supervisor` %s it \(said once per gdb%s\)$"
        expect(sim.text(), why % (bus, "access", "read", ""), "the refused read is explained", out)
        expect(sim.text(), why % (bus, "write to", "write", " for writes"), "the refused write is explained", out)
        expect(out, r"^0x%x:\s+0xa5\s+0x5b$" % bus, "gdb's byte in the buffer at the bus address")
        expect(out, r"^0x[0-9a-f]+:\s+0xa5\s+0x3c$", "the byte gdb wrote at the bus address, in the driver's buffer")
        if sim.wait(120) is None:
            fail("the program did not end after the detach", out, sim.text())
        expect(sim.stdout(), r"^dma_buffer_reaches_driver: PASS\s*$", "the driver and the launcher passed", out)
    finally:
        sim.kill()


def sdk_debug_build(name):
    """The SDK's debug builds (issue #62 item 8): tests/sdk/program built outside the tree from the
    installed SDK with `tos-cc -Og` and with CMake's Debug configuration (find_package(TOS),
    -DCMAKE_BUILD_TYPE=Debug, which the installed toolchain file makes -Og -g); in each, gdb stopped
    at the first pass of sum_of_cubes' loop shows every local with its value, `cube` (which -O2
    keeps in registers only, <optimized out>) among them, and the source's producer line names -Og
    (CMake's own Debug default is -g alone, -O0)."""
    if not A.sdk:
        fail("sdk_debug_build needs --sdk PREFIX (the installed SDK)")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sdk", "program")
    env = dict(os.environ, PATH=os.path.join(A.sdk, "bin") + os.pathsep + os.environ.get("PATH", ""))
    builds = {"tos-cc -Og": [["tos-cc", "-Og", "-o", "stats.elf", "stats.c", "stats_util.c"]],
              "CMake Debug": [["cmake", "-S", ".", "-B", "build", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug",
                               "-DCMAKE_PREFIX_PATH=" + A.sdk], ["cmake", "--build", "build"],
                              ["cp", "build/stats.elf", "stats.elf"]]}
    for k, (how, argvs) in enumerate(sorted(builds.items())):
        d = tempfile.mkdtemp(prefix="gdb-sdk-debug-")
        for f in os.listdir(src):
            shutil.copy(os.path.join(src, f), d)
        with open(os.path.join(d, "rc"), "w") as f:
            f.write("earth stats\n")
        for argv in argvs + [["tos-mkfs", "-o", "stats.fs", "stats.elf", "rc=rc"]]:
            r = subprocess.run(argv, cwd=d, env=env, capture_output=True, text=True, timeout=300)
            if r.returncode:
                fail("%s: %s failed" % (how, " ".join(argv)), r.stdout + r.stderr)
        port = free_port(name + str(k), 6)
        sim = Sim([os.path.join(A.sdk, "bin", "testbed"), "--gdb", str(port), "--stop-ms", "5000",
                   "--set", "board.filestore=" + os.path.join(d, "stats.fs"), "--console", "earth",
                   "--out", os.path.join(d, "out")], port)
        try:
            out = gdb(port + 1, ["monitor space user", "break stats_util.c:14", "continue", "info locals", "info source",
                                 "delete", "detach"], os.path.join(d, "stats.elf"), timeout=240)
            expect(out, r"Breakpoint 1, sum_of_cubes \(n=1000\) at (.*/)?stats_util.c:14", how + ": stopped at the line",
                   sim.text())
            for local in ("cube = 1", "i = 1", "s = 0"):
                expect(out, r"^%s$" % re.escape(local), "%s: info locals shows %s" % (how, local), sim.text())
            if "<optimized out>" in out:
                fail(how + ": a value is <optimized out>", out)
            expect(out, r"^Producer is GNU C.* -Og\b", how + ": compiled with -Og (the DWARF's producer)")
        finally:
            sim.kill()


def sdk_library_sources(name):
    """The library sources in the install (issue #62 item 8): a program built outside the tree
    with the installed tos-cc, and gdb given the installed share/testbed/gdb/tos-sources.gdb,
    lists newlib's printf and TOS's __tos_syscall (crt0.S) from the files under the prefix's src/,
    not the build's paths (no simulator: the ELF alone)."""
    if not A.sdk:
        fail("sdk_library_sources needs --sdk PREFIX (the installed SDK)")
    d = tempfile.mkdtemp(prefix="gdb-sdk-src-")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sdk", "program")
    for f in os.listdir(src):
        shutil.copy(os.path.join(src, f), d)
    env = dict(os.environ, PATH=os.path.join(A.sdk, "bin") + os.pathsep + os.environ.get("PATH", ""))
    r = subprocess.run(["tos-cc", "-o", "stats.elf", "stats.c", "stats_util.c"], cwd=d, env=env,
                       capture_output=True, text=True, timeout=120)
    if r.returncode:
        fail("tos-cc failed", r.stdout + r.stderr)
    script = os.path.join(A.sdk, "share", "testbed", "gdb", "tos-sources.gdb")
    r = subprocess.run([A.gdb, "-batch", "-nx", "-x", script, "-ex", "list printf", "-ex", "info source",
                        "-ex", "list __tos_syscall", "-ex", "info source", os.path.join(d, "stats.elf")],
                       cwd=d, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    out = r.stdout + r.stderr
    src_dir = re.escape(os.path.join(A.sdk, "src"))
    expect(out, r"^\d+\s+printf \(const char \*__restrict fmt, \.\.\.\)$", "newlib's printf listed")
    expect(out, r"^Located in %s/newlib/newlib/libc/stdio/printf\.c$" % src_dir, "printf.c read from the install")
    expect(out, r"^\d+\s+trap\s+#TOS_SYSCALL_TRAP$", "TOS's __tos_syscall listed")
    expect(out, r"^Located in %s/testbed/firmware/tos/lib/crt0\.S$" % src_dir, "crt0.S read from the install")


def sdk_backtrace(name):
    """A program built outside the tree with the installed SDK (tests/sdk/program, `tos-cc`, -g by
    default) and booted with the installed testbed: gdb stops in it and shows source lines,
    arguments and locals, and `bt` goes down to main with no frame unknown."""
    if not A.sdk:
        fail("sdk_backtrace needs --sdk PREFIX (the installed SDK)")
    d = tempfile.mkdtemp(prefix="gdb-sdk-")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sdk", "program")
    for f in os.listdir(src):
        shutil.copy(os.path.join(src, f), d)
    env = dict(os.environ, PATH=os.path.join(A.sdk, "bin") + os.pathsep + os.environ.get("PATH", ""))
    for argv in (["tos-cc", "-o", "stats.elf", "stats.c", "stats_util.c"],
                 ["tos-mkfs", "-o", "stats.fs", "stats.elf", "rc=rc"]):
        if argv[0] == "tos-mkfs":
            with open(os.path.join(d, "rc"), "w") as f:
                f.write("earth stats\n")
        r = subprocess.run(argv, cwd=d, env=env, capture_output=True, text=True, timeout=120)
        if r.returncode:
            fail(" ".join(argv) + " failed", r.stdout + r.stderr)
    elf = os.path.join(d, "stats.elf")
    port = free_port(name, 6)
    sim = Sim([os.path.join(A.sdk, "bin", "testbed"), "--gdb", str(port), "--stop-ms", "5000",
               "--set", "board.filestore=" + os.path.join(d, "stats.fs"), "--console", "earth",
               "--out", os.path.join(d, "out")], port)
    try:
        out = gdb(port + 1, ["monitor space user", "break stats_util.c:14", "continue", "bt", "info args",
                             "info locals", "list sum_of_cubes", "delete", "detach"], elf, timeout=240)
        expect(out, r"Breakpoint 1, sum_of_cubes \(n=1000\) at stats_util.c:14", "stopped at the line, with the argument")
        bt = re.findall(r"^#\d+ .*$", out, re.M)
        if len(bt) != 2 or not re.match(r"#0\s+sum_of_cubes \(n=1000\) at stats_util.c:14", bt[0]) \
                or not re.match(r"#1\s+0x[0-9a-f]+ in main \(\) at stats.c:\d+", bt[1]):
            fail("bt is not sum_of_cubes then main, each with its file and line", out, sim.text())
        expect(out, r"^n = 1000$", "info args")
        # at the first pass: the loop counter and the sum (cube itself lives only in registers
        # at -O2, and gdb says <optimized out>)
        expect(out, r"^i = 1$", "info locals: the loop counter, with its value")
        expect(out, r"^s = 0$", "info locals: the sum, with its value")
        expect(out, r"^\d+\s+unsigned long long sum_of_cubes\(unsigned n\) \{", "list shows the source")
    finally:
        sim.kill()


def registers(out, tag):
    """The `info registers` block after the line `tag` (echoed) as {name: value}."""
    part = out.split(tag, 1)[1]
    regs = {}
    for m in re.finditer(r"^(d[0-7]|a[0-7]|fp|sp|ps|pc)\s+(0x[0-9a-f]+)", part, re.M):
        if m.group(1) in regs:
            break
        regs[m.group(1)] = m.group(2)
    return regs


def reverse_board(name):
    """Reverse execution on one board (issue #63): at main's report() line, `stepi` then
    `reverse-stepi` gives back every register and `stepi` forward again the same ones;
    `reverse-step` goes back into bump(), the last call, and `reverse-finish` out of it to main;
    `watch counter` and reverse-continue stop at each of bump()'s three stores, newest first, with
    gdb's old and new values, then at the beginning of the history. The guest's output is
    written once, however often its stretch runs again."""
    port = free_port(name, 1)
    sim = board_sim(port)
    try:
        out = gdb(port, ["break gdb_target.c:29", "continue", "monitor history", "stepi", "echo ==r1==\\n", "info registers",
                         "reverse-stepi", "echo ==r0==\\n", "info registers", "x/1x &counter",
                         "stepi", "echo ==r1b==\\n", "info registers",
                         "reverse-stepi", "reverse-step", "bt 2", "reverse-finish", "echo ==out==\\n", "bt 1",
                         "continue", "watch counter", "reverse-continue", "p counter", "reverse-continue",
                         "p counter", "reverse-continue", "p counter", "reverse-continue",
                         "delete", "break spin", "continue", "set var hold = 0", "delete", "continue"],
                  target_elf())
        r1, r0, r1b = registers(out, "==r1=="), registers(out, "==r0=="), registers(out, "==r1b==")
        if len(r1) != 18 or r1 != r1b:
            fail("stepi forward again after reverse-stepi does not give the same registers", out)
        line_pc = expect(out, r"^Breakpoint 1 at (0x[0-9a-f]+): file .*gdb_target.c, line 29", "the line's address").group(1)
        if r0 == r1 or r0.get("pc") != line_pc:
            fail("reverse-stepi did not go back to the line's first instruction (%s)" % line_pc, out)
        expect(out, r"<counter>:\s+0x00000003", "memory after reverse-stepi: bump() has run three times")
        expect(out, r"^#0\s+0x[0-9a-f]+ in bump \(\) at .*gdb_target.c:20\n#1\s+0x[0-9a-f]+ in main \(\)",
               "reverse-step went back into bump(), called from main")
        expect(out.split("==out==")[1], r"^#0\s+main \(\) at .*gdb_target.c:28", "reverse-finish came out to main")
        news = re.findall(r"Old value = (\d+)\s+New value = (\d+)", out)
        if news[:3] != [("3", "2"), ("2", "1"), ("1", "0")]:
            fail("reverse-continue with `watch counter` stopped at %s, not at the three stores newest first" % news, out)
        expect(out, r"^\$\d+ = 2\n(.|\n)*^\$\d+ = 1\n(.|\n)*^\$\d+ = 0$", "counter as each store found it")
        expect(out, r"No more reverse-execution history", "the beginning of the history")
        expect(out, r"^reverse execution: \d+ instant\(s\) kept\n0: kernel time 0 s, board$",
               "monitor history lists the instants kept, the first at the start")
        if sim.wait(60) is None:
            fail("the firmware did not finish after the last continue", out, sim.text())
        so = sim.stdout()
        for line in ("gdb-target up", "message 0x00001234", "counter 0x00000003", "released"):
            if so.count(line) != 1:
                fail("the guest's line %r was written %d times, not once" % (line, so.count(line)), out, sim.text())
    finally:
        sim.kill()


def machine_counts(out):
    """Each `monitor machine`'s every board (cycles, instructions), in order (gdb writes a monitor
    command's output to stderr: the gdb() helper puts it after stdout)."""
    return [re.findall(r"^(\w+): cycles (\d+) instructions (\d+)$", m, re.M)
            for m in re.findall(r"^kernel time [^\n]*\n((?:\w+: cycles \d+ instructions \d+\n?)+)", out, re.M)]


def reverse_machine(name):
    """Reverse execution of the whole machine (issue #63): TOS on six boards, earth's gdb at the
    kernel's schedule() three times, each instant's every board noted (`monitor machine`); two
    reverse-continues take all six boards back to the second and then the first instant, bit for
    bit; continue twice comes forward to the same two instants again; after a detach the run ends.
    Every output file (consoles, monitor trace, event VCDs) and stdout but the host's lines are
    then those of a run whose gdb only attached and detached: stops, going back and replays change
    nothing, and nothing is written twice. In the NI mode of --dma."""
    port = free_port(name, 6)
    outs = {}
    texts = {}
    for run in ("plain", "travel"):
        d = tempfile.mkdtemp(prefix="gdb-reverse-%s-" % run)
        outs[run] = d
        sim = Sim([os.path.join(A.bin, "testbed"), "--gdb", str(port), "--stop-ms", "3000",
                   "--set", "centrenet.dma=" + A.dma, "--out", d], port)
        try:
            cmds = ["detach"]
            if run == "travel":
                cmds = ["break schedule", "continue 20", "monitor machine", "continue", "monitor machine", "continue",
                        "monitor machine", "reverse-continue", "monitor machine", "reverse-continue", "monitor machine",
                        "continue", "monitor machine", "continue", "monitor machine", "delete", "detach"]
            out = gdb(port + 1, cmds, os.path.join(A.firmware, "tos.elf"), timeout=240)
            if sim.wait(120) is None:
                fail("the run did not end after the detach", out, sim.text())
            if sim.p.returncode != 0:
                fail("the run ended with status %s" % sim.p.returncode, out, sim.text())
            texts[run] = sim.stdout()
            if run == "travel":
                m = machine_counts(out)
                if len(m) != 7 or len(m[0]) != 6 or m[0] == m[1] or m[1] == m[2]:
                    fail("three different instants of six boards were not noted", out)
                a, b, c = m[0], m[1], m[2]
                for got, want, what in ((m[3], b, "the first reverse-continue"), (m[4], a, "the second reverse-continue"),
                                        (m[5], b, "continue after going back"), (m[6], c, "the second continue")):
                    if got != want:
                        fail("%s: the machine is at %s, not %s" % (what, got, want), out)
        finally:
            sim.kill()
    for f in sorted(os.listdir(outs["plain"])):
        if open(os.path.join(outs["plain"], f), "rb").read() != open(os.path.join(outs["travel"], f), "rb").read():
            fail("%s differs between the run that went back and forth and the one that did not" % f)
    host = re.compile(r"^(host:|results in|monitor: decoded|threads:).*$", re.M)
    if host.sub("", texts["plain"]).replace(outs["plain"], "OUT") != host.sub("", texts["travel"]).replace(outs["travel"], "OUT"):
        fail("stdout differs between the run that went back and forth and the one that did not",
             texts["plain"], texts["travel"])


def reverse_threads(name):
    """Reverse execution among TOS threads (issue #63): earth runs tests/tos/gdb_next_over_calls.c;
    a breakpoint in the library's receive() is hit by main (thread 2) and then by its partner
    (thread 3); reverse-continue stops at the partner's hit and then at main's, each reported in
    its own thread; reverse-stepi in a thread from after its __tos_syscall's trap goes back to the
    `trap` a stepi went over (main blocked in it while the partner ran). The program still passes."""
    lines = marked_lines()
    prog = os.path.join(A.firmware, "gdb_next_over_calls.elf")
    port, sim = next_over_calls_sim(name, "gdb-reverse-threads-")
    try:
        out = gdb(port + 1, ["monitor space user", "break gdb_next_over_calls.c:%d" % lines["printf"], "continue",
                             "delete", "break receive", "continue", "continue", "continue",
                             "echo ==back==\\n", "reverse-continue", "thread", "reverse-continue", "thread",
                             "delete", "break __tos_syscall", "continue", "delete", "stepi", "stepi", "stepi", "x/i $pc",
                             "echo ==syscall==\\n", "reverse-stepi", "x/i $pc", "thread",
                             "delete", "detach"], prog, timeout=240)
        fwd, back = out.split("==back==")
        order = re.findall(r"Thread (\d) hit Breakpoint 2, receive", fwd)
        if order[:2] != ["2", "3"]:
            fail("receive() was not hit by main and then by its partner: %s" % order, out)
        rev = re.findall(r"Thread (\d) hit Breakpoint 2, receive", back)
        if rev[:2] != ["3", "2"]:
            fail("reverse-continue did not stop at the partner's hit and then main's: %s" % rev, out, sim.text())
        expect(out.split("==syscall==")[0], r"^=> 0x[0-9a-f]+ <__tos_syscall\+\d+>:\s+moveml %sp@\+",
               "three stepi from __tos_syscall's entry: over the trap, to the instruction after it")
        sys_part = out.split("==syscall==")[1]
        expect(sys_part, r"^=> 0x[0-9a-f]+ <__tos_syscall\+\d+>:\s+trap #0", "reverse-stepi went back to the trap")
        if sim.wait(60) is None:
            fail("the program did not end after the detach", out, sim.text())
        expect(sim.stdout(), r"^gdb_next_over_calls: PASS\s*$", "the program ran to its end", out)
        if sim.stdout().count("gdb_next_over_calls: back, 1") != 1:
            fail("the program's first line was not written exactly once", out, sim.text())
    finally:
        sim.kill()


def reverse_across_boards(name):
    """Reverse execution across two boards and two gdbs (issue #63): earth runs
    tests/tos/gdb_cross_board.c; earth's gdb stops main at its receive line while the partner, on
    air, waits in its send; air's gdb (a second gdb, from earth's through `shell`) selects the
    partner's thread, watches `sent[0]` there and reverse-continues: the whole machine goes back to
    the partner's second store on air (gdb's old value the one sent, the new one the first
    store's), then to its first store (from 0). Both gdbs detach; the program runs forward again
    from there, receives the second value and prints each line once. In the NI mode of --dma."""
    lines = marked_lines("gdb_cross_board")
    prog = os.path.join(A.firmware, "gdb_cross_board.elf")
    v = 0
    for i in range(1, 11):
        v = v * 3 + i
    port = free_port(name, 6)
    sim = Sim([os.path.join(A.bin, "testbed"), "--gdb", str(port), "--stop-ms", "5000",
               "--set", "board.filestore=tos-gdb_cross_board.fs", "--set", "centrenet.dma=" + A.dma,
               "--console", "earth", "--out", tempfile.mkdtemp(prefix="gdb-cross-")], port)
    inner = ("%s -batch -nx -ex 'set architecture m68k' -ex 'target remote 127.0.0.1:%d' -ex 'monitor space user' "
             "-ex 'info threads' -ex 'thread 2' -ex 'watch -l sent[0]' -ex 'reverse-continue' -ex 'thread' "
             "-ex 'reverse-continue' -ex 'delete' -ex 'detach' %s" % (A.gdb, port + 2, prog))
    try:
        out = gdb(port + 1, ["monitor space user", "break gdb_cross_board.c:%d" % lines["receive"], "continue",
                             "echo ==air==\\n", "shell " + inner, "echo ==earth==\\n", "delete", "detach"],
                  prog, timeout=240)
        expect(out, r"hit Breakpoint 1, main \(\) at .*gdb_cross_board.c:%d" % lines["receive"], "earth stopped main")
        air = out.split("==air==")[1].split("==earth==")[0]
        expect(air, r"^\s*2\s+Thread \d+ \(tid 0x[0-9a-f]{4} process \d+ [^,]*, send\)",
               "air's gdb lists the partner, waiting in its send", sim.text())
        news = re.findall(r"Old value = (-?\d+)\s+New value = (-?\d+)", air)
        if news[:2] != [(str(v + 1), str(v)), (str(v), "0")]:
            fail("air's reverse-continues stopped at %s, not at the second store (%d -> %d) and the first (%d -> 0)"
                 % (news, v + 1, v, v), out, sim.text())
        stops = re.findall(r"^(\d+)\t\s+sent\[0\] = ", air, re.M)
        if [int(x) for x in stops[:2]] != [lines["second"], lines["first"]]:
            fail("the stops are on lines %s, not the second and the first store (%d, %d)"
                 % (stops, lines["second"], lines["first"]), out)
        expect(air, r"^\[Current thread is 2 \(Thread \d+\)\]", "the stop is in the partner's thread, on air")
        if sim.wait(60) is None:
            fail("the program did not end after both gdbs detached", out, sim.text())
        so = sim.stdout()
        for line in ("gdb_cross_board: got %d" % (v + 1), "gdb_cross_board: PASS"):
            if so.count(line) != 1:
                fail("the program's line %r was written %d times, not once" % (line, so.count(line)), out, sim.text())
    finally:
        sim.kill()


def end_report(text, folder):
    """stdout from "----- end of run" on, host timings aside, the output folder's name neutral."""
    lines = [l.replace(folder + "/", "OUT/").replace("results in " + folder, "results in OUT")
             for l in text.splitlines() if not l.startswith(("host:", "threads:"))]
    for i, l in enumerate(lines):
        if l.startswith("----- end of run"):
            return lines[i:]
    fail("no '----- end of run' line", text)


def snapshot_from_gdb(name):
    """Snapshots and gdb (issue #63): TOS on six boards, earth's gdb stops at the kernel's
    schedule() and asks `monitor snapshot FILE`; the file is written when the machine runs again,
    and the run goes on as one whose gdb only attached and detached (every file the same). The
    snapshot restored with --gdb and no gdb attaching ends as that run, its consoles continuing
    from the bytes it had reached; with a gdb, it attaches at the snapshot's instant (every
    board's counts those saved, no earlier), stops again at schedule() and detaches, and the run
    still ends the same. Restored without --gdb it is refused: its boards are out of exact mode,
    as a debugger keeps them. In the NI mode of --dma."""
    port = free_port(name, 6)
    tmp = tempfile.mkdtemp(prefix="gdb-snapshot-")
    snap = os.path.join(tmp, "at-schedule.tbs")
    base = [os.path.join(A.bin, "testbed"), "--stop-ms", "3000", "--set", "centrenet.dma=" + A.dma]
    runs = {}

    def run(tag, extra, cmds):
        d = os.path.join(tmp, tag)
        if cmds is None:
            p = subprocess.run(base + extra + ["--out", d], capture_output=True, text=True, timeout=HOST_LIMIT)
            runs[tag] = (d, p.returncode, p.stdout, p.stderr, "")
            return
        sim = Sim(base + extra + ["--gdb", str(port), "--out", d], port)
        try:
            out = gdb(port + 1, cmds, os.path.join(A.firmware, "tos.elf"), timeout=240)
            if sim.wait(120) is None:
                fail("%s: the run did not end after the detach" % tag, out, sim.text())
            sim.err.seek(0)
            runs[tag] = (d, sim.p.returncode, sim.stdout(), sim.err.read(), out)
        finally:
            sim.kill()

    run("plain", [], ["detach"])
    run("saved", [], ["break schedule", "continue 20", "monitor machine", "monitor snapshot " + snap, "delete", "detach"])
    err, out = runs["saved"][3], runs["saved"][4]
    expect(out, r"^snapshot %s: written at the first instant" % re.escape(snap), "gdb's monitor snapshot answer")
    m = expect(err, r"snapshot %s at (.*?) \((\d+) bytes of state; consoles at bytes ([\d,]+)[;)]" % re.escape(snap),
               "the snapshot written when the machine ran again", out)
    at, state_bytes, consoles = m.group(1), m.group(2), [int(x) for x in m.group(3).split(",")]
    held = machine_counts(out)[0]
    for tag in ("plain", "saved"):
        if runs[tag][1] != 0:
            fail("%s: the run ended with status %s" % (tag, runs[tag][1]), runs[tag][2], runs[tag][3])
    for f in sorted(os.listdir(runs["plain"][0])):
        if open(os.path.join(runs["plain"][0], f), "rb").read() != open(os.path.join(runs["saved"][0], f), "rb").read():
            fail("%s differs between the run that took a snapshot from gdb and the one that did not" % f)
    want = end_report(runs["plain"][2], runs["plain"][0])
    run("refused", ["--restore", snap], None)
    if runs["refused"][1] != 2 or "exact mode (off under --gdb) is 0 in the snapshot, 1 in this machine" not in runs["refused"][3]:
        fail("a snapshot taken under gdb restored without --gdb was not refused naming exact mode (rc %s)"
             % runs["refused"][1], runs["refused"][3][-2000:])
    run("restored", ["--gdb", "%d,nowait" % port, "--restore", snap], None)
    run("debugged", ["--restore", snap], ["monitor machine", "monitor time", "break schedule", "continue", "bt 1",
                                          "monitor machine", "delete", "detach"])
    for tag in ("restored", "debugged"):
        d, rc, so, se, out = runs[tag]
        if rc != 0 or end_report(so, d) != want:
            diff = [" plain: %s\n %s: %s" % (x, tag, y) for x, y in zip(want, end_report(so, d)) if x != y]
            fail("%s: the run restored from gdb's snapshot does not end as the uninterrupted one (rc %s)" % (tag, rc),
                 "\n".join(diff[:10]), se[-3000:], out)
        names = [l.split()[0] for l in runs["plain"][2].splitlines() if re.match(r"^  \S+\s+node \d+ slot", l)]
        for board, n in zip(names, consoles):
            f = board + ".console.log"
            whole = open(os.path.join(runs["plain"][0], f), "rb").read()
            if open(os.path.join(d, f), "rb").read() != whole[n:]:
                fail("%s: %s is not the uninterrupted run's from byte %d" % (tag, f, n))
    out = runs["debugged"][4]
    m = machine_counts(out)
    if len(m) != 2 or len(m[0]) != 6:
        fail("the restored run's gdb did not note the machine twice", out)
    for (b, _, n), (b0, _, n0) in zip(m[0], held):
        if b != b0 or int(n) < int(n0) or int(n) > int(n0) + 100000:
            fail("the restored machine's %s attached at %s instructions, not just after the %s saved" % (b, n, n0), out)
    expect(out, r"^#0\s+(0x[0-9a-f]+ in )?schedule \(", "the restored run stopped again at schedule()")
    if m[1] == m[0]:
        fail("the restored machine did not run between the two notes", out)
    print("snapshot from gdb at %s (%s bytes of state); restored under --gdb with and without a gdb attached, both "
          "end as the plain run; refused without --gdb"
          % (at, state_bytes))


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--firmware", required=True)
    ap.add_argument("--gdb", default="gdb-multiarch")
    ap.add_argument("--sdk", help="the installed SDK's prefix (sdk_backtrace)")
    ap.add_argument("--dma", default="1994", help="the NI mode, centrenet.dma (next_over_calls)")
    ap.add_argument("--config", help="the machine file (dma_buffer: the one with the example DMA device)")
    A = ap.parse_args()
    if A.sdk:
        A.sdk = os.path.abspath(A.sdk)
    fn = globals().get(A.scenario)
    if not callable(fn):
        fail("unknown scenario " + A.scenario)
    fn("gdb_" + A.scenario + ("" if A.dma == "1994" else "_" + A.dma))
    print("PASS", A.scenario)


if __name__ == "__main__":
    main()
