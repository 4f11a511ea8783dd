#!/usr/bin/env python3
"""What a machine snapshot costs (README "Snapshots"): its size in memory and on disk, the host time
to save and to restore it, and what starting from it saves, for the main job and migration_stress,
and for a TOS session started from a booted snapshot (--snapshot-at-prompt: the machine saved when the
session script's first prompt appeared) on six and on 32 boards.

  scripts/snapshot-bench.py [--build build]
"""
import argparse, os, re, subprocess, tempfile, time


def run(cmd):
    t = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise SystemExit(f"{cmd[0]} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return time.monotonic() - t, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    tb, fw = os.path.join(a.build, "bin", "testbed"), os.path.join(a.build, "firmware")
    stress = ["--set", "board.image=tos.elf", "--set", "board.filestore=tos-migration_stress_seed1.fs",
              "--set", "run.stop_ms=900000"]
    tmp = tempfile.mkdtemp(prefix="snapshot-bench-")
    print("| run | snapshot at | state | file | save | restore | whole run | run from the snapshot |")
    print("|---|---|---|---|---|---|---|---|")
    session = ["--set", "board.image=tos.elf", "--set", "board.filestore=tos-sessions.fs", "--input",
               os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "tos", "sessions",
                            "shell_basics.txt"), "--stop-ms", "120000"]
    boards32 = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sim", "configs", "boards-32.toml")]
    for name, args, ms in (("main job", [], 2000), ("migration_stress (1994 NI)", stress, 60000),
                           ("TOS session, booted (6 boards)", session, None),
                           ("TOS session, booted (32 boards)", boards32 + session, None)):
        base = [tb, "--firmware-dir", fw] + args
        whole, _ = run(base + ["--out", os.path.join(tmp, "whole")])
        snap = os.path.join(tmp, "s.tbs")
        when = ["--snapshot-ms", str(ms)] if ms is not None else ["--snapshot-at-prompt"]
        _, err = run(base + ["--out", os.path.join(tmp, "save"), "--snapshot", snap] + when)
        m = re.search(r"snapshot \S+ at (.*?) \((\d+) bytes of state", err)
        saved = float(re.search(r"snapshot saved in ([\d.]+) ms", err).group(1))
        rest, err = run(base + ["--out", os.path.join(tmp, "restore"), "--restore", snap])
        restored = float(re.search(r"restored \S+ at .* in ([\d.]+) ms", err).group(1))
        print(f"| {name} | {m.group(1)} | {int(m.group(2)) / 1e6:.1f} MB | {os.path.getsize(snap) / 1e6:.2f} MB | "
              f"{saved:.0f} ms | {restored:.0f} ms | {whole:.2f} s | {rest:.2f} s |")


if __name__ == "__main__":
    main()
