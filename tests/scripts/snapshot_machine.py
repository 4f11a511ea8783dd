#!/usr/bin/env python3
"""The whole machine saved at a simulated time and restored in a new process runs to the same end.

  snapshot_machine.py --ms 2000 [--ms ...] -- TESTBED [ARGS...]

Runs TESTBED ARGS --out A (uninterrupted); for each --ms, TESTBED ARGS --out B --snapshot FILE
--snapshot-ms MS and TESTBED ARGS --out C --restore FILE. Checks:
  - B is A: exit status, stdout and every file of its folder (taking a snapshot changes nothing);
  - C ends as A: exit status, and stdout from "----- end of run" on (the boards' ends, Centrenet's
    and the monitor's counts, the decoded trace's analysis), host timings aside;
  - each board's console log in C is A's from the byte it had reached at the snapshot ("consoles
    at bytes ..."), and every other file C writes equals A's (those written whole before the
    snapshot are A's alone).
"""
import argparse
import filecmp
import os
import re
import subprocess
import sys
import tempfile


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1800)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def stable(out, folder):
    """stdout without host timings, the folder's name made neutral."""
    keep = [l for l in out.splitlines() if not l.startswith(("host:", "threads:"))]
    return [l.replace(folder + "/", "OUT/").replace("results in " + folder, "results in OUT") for l in keep]


def tail_report(lines):
    for i, l in enumerate(lines):
        if l.startswith("----- end of run"):
            return lines[i:]
    fail("no '----- end of run' line")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ms", type=float, action="append", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    tmp = tempfile.mkdtemp(prefix="snapshot-machine-")
    A = os.path.join(tmp, "A")
    rc_a, out_a, _ = run(cmd + ["--out", A])
    print(f"A: rc {rc_a}, {len(os.listdir(A))} files")
    for ms in a.ms:
        B, C, snap = (os.path.join(tmp, f"{x}{ms:g}") for x in ("B", "C", "s"))
        snap += ".tbs"
        rc_b, out_b, err_b = run(cmd + ["--out", B, "--snapshot", snap, "--snapshot-ms", f"{ms:g}"])
        m = re.search(r"snapshot \S+ at (.*?) \((\d+) bytes of state; consoles at bytes ([\d,]+)[;)]", err_b)
        if not m:
            fail(f"no snapshot at {ms} ms:\n{err_b}")
        at, consoles = m.group(1), [int(x) for x in m.group(3).split(",")]
        print(f"B: snapshot at {at} (asked {ms:g} ms): {m.group(2)} bytes of state, {os.path.getsize(snap)} on disk, "
              f"consoles at bytes {consoles}")
        if rc_b != rc_a or stable(out_b, B) != stable(out_a, A):
            fail(f"taking the snapshot changed the run's stdout or status (rc {rc_b})")
        cmp = filecmp.dircmp(A, B)
        if cmp.diff_files or cmp.left_only or cmp.right_only:
            fail(f"taking the snapshot changed the run's files: {cmp.diff_files + cmp.left_only + cmp.right_only}")
        rc_c, out_c, err_c = run(cmd + ["--out", C, "--restore", snap])
        if rc_c != rc_a or tail_report(stable(out_c, C)) != tail_report(stable(out_a, A)):
            diff = [f"  A: {x}\n  C: {y}" for x, y in zip(tail_report(stable(out_a, A)), tail_report(stable(out_c, C))) if x != y]
            fail(f"the restored run ended otherwise (rc {rc_c} against {rc_a}):\n" + "\n".join(diff[:10]) + "\n" + err_c[-2000:])
        logs = sorted(f for f in os.listdir(A) if f.endswith(".console.log"))
        if len(logs) != len(consoles):
            fail(f"{len(logs)} console logs, {len(consoles)} byte counts")
        # The consoles' order is the boards' (master, earth, ...); the logs are named for them.
        names = [l.split()[0] for l in out_a.splitlines() if re.match(r"^  \S+\s+node \d+ slot", l)]
        for name, n in zip(names, consoles):
            f = f"{name}.console.log"
            whole, rest = open(os.path.join(A, f), "rb").read(), open(os.path.join(C, f), "rb").read()
            if rest != whole[n:]:
                fail(f"{f}: the restored run's log is not the rest of the uninterrupted one's from byte {n}")
        others = [f for f in os.listdir(C) if not f.endswith(".console.log")]
        for f in others:
            if not filecmp.cmp(os.path.join(A, f), os.path.join(C, f), shallow=False):
                fail(f"{f} differs between the uninterrupted and the restored run")
        print(f"C: rc {rc_c}, the same end; {len(logs)} console logs continue A's, {len(others)} other files equal A's")
    print("PASS")


if __name__ == "__main__":
    main()
