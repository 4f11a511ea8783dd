#!/usr/bin/env python3
"""A snapshot taken in the middle of a run, restored in a new process, gives the rest of the run.

  snapshot_roundtrip.py --tool testbed-board --ms 100 [--ms ...] [--other-image ELF] -- CMD ARGS...

Runs CMD ARGS once uninterrupted (A); then, for each --ms, once with --snapshot FILE --snapshot-ms
MS (B) and once with --restore FILE (C). Checks:
  - B's exit status, stdout and final line equal A's (taking a snapshot changes nothing);
  - C's exit status and final line equal A's, and its stdout is A's from the byte the console had
    reached when B saved (the line "console at byte N");
  - with --refusals: a corrupted snapshot (a byte flipped), one cut short, a file that is not one,
    one whose header names another build (its CRC made good again), and, with --other-image, one
    restored into another machine, are each refused with exit status 2 and a message saying why.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import zlib


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1200)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def final_line(err, tool):
    lines = [l for l in err.splitlines() if l.startswith(tool + ": ") and "snapshot" not in l and "restored" not in l]
    return lines[-1] if lines else ""


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--ms", type=float, action="append", required=True)
    ap.add_argument("--refusals", action="store_true")
    ap.add_argument("--other-image")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    tmp = tempfile.mkdtemp(prefix="snapshot-")
    rc_a, out_a, err_a = run(cmd)
    end_a = final_line(err_a, a.tool)
    print(f"A: rc {rc_a}, {len(out_a)} bytes of console, {end_a}")
    snap = None
    for ms in a.ms:
        snap = os.path.join(tmp, f"at{ms:g}.tbs")
        rc_b, out_b, err_b = run(cmd + ["--snapshot", snap, "--snapshot-ms", f"{ms:g}"])
        m = re.search(r"snapshot \S+ at (.*?) \(.*console at byte (\d+)\)", err_b)
        if not m:
            fail(f"B at {ms} ms wrote no snapshot:\n{err_b}")
        at, n = m.group(1), int(m.group(2))
        print(f"B: snapshot at {at} (asked {ms:g} ms), console at byte {n}, {os.path.getsize(snap)} bytes on disk")
        if (rc_b, out_b, final_line(err_b, a.tool)) != (rc_a, out_a, end_a):
            fail(f"taking the snapshot at {ms} ms changed the run: rc {rc_b}, {final_line(err_b, a.tool)}")
        rc_c, out_c, err_c = run(cmd + ["--restore", snap])
        end_c = final_line(err_c, a.tool)
        print(f"C: rc {rc_c}, {len(out_c)} bytes of console, {end_c}")
        if rc_c != rc_a or end_c != end_a:
            fail(f"the run restored from {ms} ms ended otherwise: rc {rc_c} against {rc_a}\n{err_c}")
        if out_c != out_a[n:]:
            fail(f"the restored run's console is not the rest of the uninterrupted one's from byte {n}")
        if n == 0 or n >= len(out_a):
            print(f"note: the snapshot at {ms} ms lies outside the console's output (byte {n} of {len(out_a)})")
    if not a.refusals:
        print("PASS")
        return
    data = open(snap, "rb").read()

    def refused(name, blob, why, extra=None):
        path = os.path.join(tmp, name)
        open(path, "wb").write(blob)
        rc, _, err = run((extra or cmd) + ["--restore", path])
        print(f"{name}: rc {rc}: {err.strip().splitlines()[-1] if err.strip() else ''}")
        if rc != 2 or not re.search(why, err):
            fail(f"{name} was not refused with /{why}/:\n{err}")

    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    refused("corrupted.tbs", bytes(flipped), r"corrupted \(its CRC-32")
    refused("cut.tbs", data[: len(data) // 3], r"corrupted|cut short")
    refused("not.tbs", b"#!/bin/sh\necho hello\n", r"not a snapshot")
    other = data[:-4].replace(b"build: ", b"build: another ", 1)
    refused("other-build.tbs", other + zlib.crc32(other).to_bytes(4, "little"), r"written by another build")
    if a.other_image:
        image = next(x for x in cmd if x.endswith(".elf"))
        refused("other-machine.tbs", data, r"of another machine",
                [a.other_image if x == image else x for x in cmd])
    print("PASS")


if __name__ == "__main__":
    main()
