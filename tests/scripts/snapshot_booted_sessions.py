#!/usr/bin/env python3
"""A booted machine saved once takes other session scripts: each run restored from it with its own
script ends as that script's whole run, and what it cannot take is refused.

  snapshot_booted_sessions.py --boot SCRIPT --script S [--script S ...] -- TESTBED [ARGS...]

Boots once: TESTBED ARGS --input BOOT --snapshot F --snapshot-at-prompt (the snapshot is taken when
the script's first prompt has appeared, before it types). For each --script S: TESTBED ARGS --input
S (whole) and TESTBED ARGS --input S --restore F (restored). Checks, as snapshot_machine.py does:
the same exit status and end of run, each console log the rest of the whole run's from the byte
the snapshot had reached, every other file equal. Then the refusals: a script whose first line
waits for something else, a run without a script, and a snapshot whose script had begun typing.
Prints each run's host time (the figures README "Snapshots" gives for what booting once saves).
"""
import argparse
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from snapshot_machine import fail, run, stable, tail_report  # noqa: E402


def timed(cmd):
    t0 = time.monotonic()
    rc, out, err = run(cmd)
    return rc, out, err, time.monotonic() - t0


def board_names(out):
    return [l.split()[0] for l in out.splitlines() if re.match(r"^  \S+\s+node \d+ slot", l)]


def same_end(script, whole, rest, consoles):
    (rc_w, out_w, _, W), (rc_r, out_r, err_r, R) = whole, rest
    name = os.path.basename(script)
    if rc_r != rc_w or tail_report(stable(out_r, R)) != tail_report(stable(out_w, W)):
        diff = [f"  whole:    {x}\n  restored: {y}" for x, y in
                zip(tail_report(stable(out_w, W)), tail_report(stable(out_r, R))) if x != y]
        fail(f"{name}: the restored run ended otherwise (rc {rc_r} against {rc_w}):\n" + "\n".join(diff[:10]) +
             "\n" + err_r[-2000:])
    for board, n in zip(board_names(out_w), consoles):
        f = f"{board}.console.log"
        whole_log, rest_log = open(os.path.join(W, f), "rb").read(), open(os.path.join(R, f), "rb").read()
        if rest_log != whole_log[n:]:
            fail(f"{name}: {f} of the restored run is not the rest of the whole run's from byte {n}")
    for f in os.listdir(R):
        if not f.endswith(".console.log") and open(os.path.join(W, f), "rb").read() != open(os.path.join(R, f), "rb").read():
            fail(f"{name}: {f} differs between the whole and the restored run")


def refused(cmd, why, regex):
    rc, _, err = run(cmd)
    if rc != 2 or not re.search(regex, err):
        fail(f"{why}: expected exit 2 and /{regex}/ on stderr, got rc {rc}:\n{err[-1500:]}")
    print(f"refused ({why}): " + re.search(regex, err).group(0))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boot", required=True, help="the script of the run that boots and is saved")
    ap.add_argument("--script", action="append", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    tmp = tempfile.mkdtemp(prefix="snapshot-booted-")
    snap = os.path.join(tmp, "booted.tbs")
    rc, _, err, t_boot = timed(cmd + ["--input", a.boot, "--out", os.path.join(tmp, "boot"), "--snapshot", snap,
                                      "--snapshot-at-prompt"])
    m = re.search(r"snapshot \S+ at (.*?) \((\d+) bytes of state; consoles at bytes ([\d,]+); "
                  r"the session script has typed nothing yet\)", err)
    if not m:
        fail(f"no booted snapshot (rc {rc}):\n{err[-2000:]}")
    at, consoles = m.group(1), [int(x) for x in m.group(3).split(",")]
    print(f"booted snapshot at {at}: {m.group(2)} bytes of state, {os.path.getsize(snap)} on disk "
          f"(the booting run, to its end: {t_boot:.2f} s)")
    for i, script in enumerate(a.script):
        W, R = os.path.join(tmp, f"whole{i}"), os.path.join(tmp, f"restored{i}")
        rc_w, out_w, _, t_w = timed(cmd + ["--input", script, "--out", W])
        rc_r, out_r, err_r, t_r = timed(cmd + ["--input", script, "--out", R, "--restore", snap])
        same_end(script, (rc_w, out_w, None, W), (rc_r, out_r, err_r, R), consoles)
        print(f"{os.path.basename(script)}: rc {rc_w}, the same end from the booted snapshot; "
              f"host {t_w:.2f} s whole, {t_r:.2f} s restored")
    waits = os.path.join(tmp, "waits_first.txt")
    with open(waits, "w") as f:
        f.write("@wait no such text\necho never typed\n")
    R = os.path.join(tmp, "refused")
    refused(cmd + ["--input", waits, "--out", R, "--restore", snap], "a script that begins otherwise",
            r"snapshot: its session script's first line waits for `.*`, this run's for `no such text`")
    refused(cmd + ["--out", R, "--restore", snap], "no script",
            r"snapshot: taken with a session script, restored without one")
    # A snapshot of the boot script's run once it has typed its first line: only that script.
    later = os.path.join(tmp, "begun.tbs")
    at_ms = float(at.split()[0]) * {"s": 1e3, "ms": 1, "us": 1e-3, "ns": 1e-6, "ps": 1e-9}[at.split()[1]]
    rc, _, err = run(cmd + ["--input", a.boot, "--out", os.path.join(tmp, "begun"), "--snapshot", later,
                            "--snapshot-ms", f"{at_ms + 500:g}"])
    if "the session script has typed nothing yet" in err or not os.path.exists(later):
        fail(f"the snapshot 500 ms after the prompt should have a begun script:\n{err[-1500:]}")
    refused(cmd + ["--input", a.script[0], "--out", R, "--restore", later], "a script begun",
            r"snapshot: its session script had typed \d+ byte\(s\) \(\d+ line\(s\)\): restore it with the same script")
    print("PASS")


if __name__ == "__main__":
    main()
