#!/usr/bin/env python3
"""What reverse execution costs (issue #63), printed as figures: TOS on six boards, every board
running `busy 2 600000 256/10` (two compute-bound threads and 256-byte messages to the other
boards every 10 ms, for ten minutes of simulated time), runs under the gdb stub for a while of host
time, then a raw RSP client measures

  - how far the machine got, with the history kept and without it (`--gdb PORT,noreverse`);
  - the checkpoints kept (processes of the session) and the memory they hold (their PSS);
  - a reverse-stepi on earth: host time, and that it went back one instruction;
  - a reverse-continue with no breakpoint: back to the history's beginning, how far and how long.

usage: scripts/reverse-bench.py [--bin build/bin] [--firmware build/firmware] [--seconds 10] [--port 25000]
"""
import argparse, os, re, signal, socket, subprocess, sys, tempfile, time


class Rsp:
    def __init__(self, port):
        deadline = time.time() + 30
        while True:
            try:
                self.s = socket.create_connection(("127.0.0.1", port), timeout=600)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)

    def send(self, body):
        self.s.sendall(b"$" + body + b"#%02x" % (sum(body) & 0xFF))

    def reply(self):
        buf = b""
        while True:
            c = self.s.recv(1)
            if not c:
                raise RuntimeError("connection closed")
            if c in b"+-" and not buf:
                continue
            buf += c
            if len(buf) >= 3 and buf[-3:-2] == b"#":
                self.s.sendall(b"+")
                return buf[1:-3]

    def ask(self, body):
        self.send(body)
        return self.reply()

    def monitor(self, cmd):
        r = self.ask(b"qRcmd," + cmd.encode().hex().encode())
        return bytes.fromhex(r.decode()).decode() if r not in (b"OK", b"") and not r.startswith(b"E") else ""


def machine(rsp):
    text = rsp.monitor("machine")
    t = re.search(r"kernel time (\S+) (\w+)", text)
    boards = {m.group(1): int(m.group(3)) for m in re.finditer(r"^(\w+): cycles (\d+) instructions (\d+)$", text, re.M)}
    scale = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
    return float(t.group(1)) * scale[t.group(2)], boards


def session_pss(front):
    """The processes of the session under `front` (the front itself left out) and their PSS in MB."""
    pids, total = [], 0.0
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == front:
            continue
        try:
            stat = open("/proc/%s/stat" % p).read()
            cmd = open("/proc/%s/cmdline" % p, "rb").read()
        except OSError:
            continue
        if b"testbed" not in cmd or b"--gdb" not in cmd:
            continue
        pgrp = int(stat.rsplit(")", 1)[1].split()[2])
        if pgrp != front:
            continue
        pids.append(int(p))
        try:
            for line in open("/proc/%s/smaps_rollup" % p):
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) / 1024.0
        except OSError:
            pass
    return pids, total


def run(args, reverse):
    port = args.port + (0 if reverse else 10)
    out = tempfile.mkdtemp(prefix="reverse-bench-")
    rc = os.path.join(out, "rc")
    open(rc, "w").write("* busy 2 600000 256/10 &\n")
    fs = os.path.join(out, "busy.fs")
    subprocess.run([os.path.join(args.bin, "tos-mkfs"), "-o", fs, os.path.join(args.firmware, "busy.elf"), "rc=" + rc],
                   check=True, stdout=subprocess.DEVNULL)
    spec = str(port) + ("" if reverse else ",noreverse")
    p = subprocess.Popen([os.path.join(args.bin, "testbed"), "--gdb", spec, "--set", "board.filestore=" + fs, "--out", out],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        rsp = Rsp(port + 1)  # earth
        rsp.ask(b"qSupported:swbreak+;hwbreak+")
        rsp.ask(b"?")
        rsp.send(b"c")
        time.sleep(args.seconds)
        rsp.s.sendall(b"\x03")
        rsp.reply()
        t, boards = machine(rsp)
        res = {"simulated": t, "earth": boards.get("earth", 0)}
        if reverse:
            pids, pss = session_pss(p.pid)
            res["processes"], res["pss"] = len(pids), pss
            t0 = time.time()
            rsp.ask(b"bs")
            res["bs_s"] = time.time() - t0
            res["bs_back"] = res["earth"] - machine(rsp)[1].get("earth", 0)
            t0 = time.time()
            stop = rsp.ask(b"bc")
            res["bc_s"] = time.time() - t0
            res["bc_begin"] = b"replaylog:begin" in stop
            res["bc_to"] = machine(rsp)[0]
        rsp.send(b"k")  # no reply: the simulation ends
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--firmware", default="build/firmware")
    ap.add_argument("--seconds", type=float, default=10.0, help="host seconds the machine runs forward")
    ap.add_argument("--port", type=int, default=25000)
    args = ap.parse_args()
    plain = run(args, False)
    rev = run(args, True)
    print("reverse execution, TOS on six boards running `busy 2 600000 256/10`, under the gdb stub, %.0f s of host "
          "time forward" % args.seconds)
    print("| figure | value |")
    print("|---|---|")
    print("| simulated time reached without history (`,noreverse`) | %.3f s |" % plain["simulated"])
    print("| simulated time reached with history | %.3f s (%.2fx) |"
          % (rev["simulated"], rev["simulated"] / plain["simulated"] if plain["simulated"] else 0))
    print("| checkpoints kept (processes of the session besides the front) | %d |" % rev["processes"])
    print("| memory they hold (PSS, the live process's included) | %.0f MB |" % rev["pss"])
    print("| reverse-stepi on earth: host time | %.2f s |" % rev["bs_s"])
    print("| reverse-stepi: instructions earth went back | %d |" % rev["bs_back"])
    print("| reverse-continue, no breakpoint: host time | %.2f s |" % rev["bc_s"])
    print("| reverse-continue, no breakpoint: reached the history's beginning | %s |" % ("yes" if rev["bc_begin"] else "no"))
    print("| ... at simulated time | %.6f s (back %.3f s) |" % (rev["bc_to"], rev["simulated"] - rev["bc_to"]))
    ok = rev["bs_back"] == 1 and rev["bc_begin"]
    if not ok:
        print("FAIL: reverse-stepi did not go back one instruction, or reverse-continue did not reach the beginning")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
