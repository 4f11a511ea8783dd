"""Running one simulation for an experiment: a filestore with the programs and a boot script,
build/bin/testbed on it, a progress line while it runs, and what the monitor says it lost."""
import os
import re
import subprocess
import sys
import time


class RunError(Exception):
    pass


def make_filestore(bin_dir, firmware_dir, programs, rc_text, out_dir, files=None):
    """files: more text files for the filestore, name -> text (a shell script the rc runs)."""
    os.makedirs(out_dir, exist_ok=True)
    rc = os.path.join(out_dir, "rc")
    with open(rc, "w") as f:
        f.write(rc_text)
    fs = os.path.join(out_dir, "experiment.fs")
    args = [os.path.join(bin_dir, "tos-mkfs"), "-o", fs, "--size", "1024"]
    args += [os.path.join(firmware_dir, p + ".elf") for p in programs] + ["rc=" + rc]
    for name, text in (files or {}).items():
        path = os.path.join(out_dir, name)
        with open(path, "w") as f:
            f.write(text)
        args.append("%s=%s" % (name, path))
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RunError("tos-mkfs failed: " + (r.stderr or r.stdout).strip())
    return fs


def _last_line(path):
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            n = f.tell()
            f.seek(max(0, n - 400))
            lines = [l for l in f.read().decode("ascii", "replace").replace("\r", "").split("\n") if l.strip()]
            return lines[-1] if lines else ""
    except OSError:
        return ""


def run_testbed(bin_dir, firmware_dir, name, programs, rc_text, out_dir, stop_ms=0, quiet=False, watch="earth", sets=(),
                profile="default", files=None, config=None):
    """Boot the six boards on the experiment's filestore in a machine profile (sim/configs/testbed.toml:
    profile); returns (stdout text, seconds). sets: more machine settings (KEY=VALUE, as --set takes them).
    config: another machine file (sim/configs/boards-N.toml) instead of the six boards."""
    fs = make_filestore(bin_dir, firmware_dir, programs, rc_text, out_dir, files)
    # the kernel from the same firmware folder as the programs: without --firmware-dir, testbed took
    # the build tree's tos.elf, and a run on a snapshot of the firmware booted whatever was built since
    args = [os.path.join(bin_dir, "testbed")] + ([config] if config else []) + [
            "--firmware-dir", os.path.abspath(firmware_dir), "--set", 'board.filestore="%s"' % os.path.abspath(fs),
            "--set", 'run.out_dir="%s"' % out_dir, "--set", 'run.console="none"',
            "--set", "run.stop_ms=%d" % stop_ms, "--set", 'profile="%s"' % profile]
    for kv in sets:
        args += ["--set", kv]
    t0 = time.time()
    log = open(os.path.join(out_dir, "testbed.log"), "w")
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=os.getcwd())
    tty = sys.stderr.isatty() and not quiet
    last = ""
    # wait() rather than sleep(): a run ends when the simulator does, not up to a second later
    # (CTest runs two of these at once on two cores, and a sleeping runner leaves a core idle)
    while True:
        try:
            p.wait(timeout=1.0)
            break
        except subprocess.TimeoutExpired:
            pass
        if quiet:
            continue
        line = _last_line(os.path.join(out_dir, watch + ".console.log"))[:70]
        msg = "[%s] simulating: %5.0f s host  %s: %s" % (name, time.time() - t0, watch, line)
        if tty:
            sys.stderr.write("\r" + msg.ljust(118)[:118])
            sys.stderr.flush()
        elif line != last:
            sys.stderr.write(msg + "\n")
            last = line
    if tty:
        sys.stderr.write("\r" + " " * 118 + "\r")
    log.close()
    secs = time.time() - t0
    out = open(os.path.join(out_dir, "testbed.log")).read()
    # 1 with the monitor's report printed: the run ended but the monitor's record is not whole
    # (events lost or dropped); the experiment says so in its results and goes on.
    if p.returncode == 1 and "----- end of run at" in out and "monitor: board" in out:
        return out, secs
    if p.returncode != 0:
        raise RunError("%s: build/bin/testbed exited %d; the end of %s/testbed.log:\n%s"
                       % (name, p.returncode, out_dir, "\n".join(out.splitlines()[-15:])))
    return out, secs


def monitor_losses(testbed_log):
    """The probe's count of events written and lost per board (the testbed's own report)."""
    res = {}
    for m in re.finditer(r"^monitor:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+|-)", testbed_log, re.M):
        res[int(m.group(1))] = {"written": int(m.group(2)), "lost": int(m.group(3)),
                                "decoded": int(m.group(4)) if m.group(4) != "-" else None}
    return res


def clock_mhz_of(testbed_log):
    """The CPU clock in MHz a run's testbed.log text says its machine had (testbed prints it on
    its cpu: line), or None."""
    m = re.search(r"cpu: 680\d0 at ([\d.]+) MHz", testbed_log)
    return float(m.group(1)) if m else None


def clock_mhz(out_dir):
    """clock_mhz_of the run folder's testbed.log, or None without one."""
    try:
        with open(os.path.join(out_dir, "testbed.log")) as fh:
            return clock_mhz_of(fh.read())
    except OSError:
        return None


def console(out_dir, board):
    try:
        return open(os.path.join(out_dir, board + ".console.log"), errors="replace").read()
    except OSError:
        return ""
