"""What the tests of an installed prefix share (tests/sdk, tests/library): a failure that prints
what ran, and commands run as someone who installed the prefix (its bin/ first on PATH, no build
tree), each with a time limit and its output kept for the failure message."""
import os, subprocess, sys


def fail(msg, *outputs):
    print("FAIL:", msg)
    for o in outputs:
        print("----\n" + (o if isinstance(o, str) else repr(o)))
    sys.exit(1)


def prefix_env(prefix):
    """The environment of someone who installed `prefix`: its bin/ first on PATH."""
    env = dict(os.environ)
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env.get("PATH", "")
    return env


def run(argv, cwd, timeout=600, env=None, ok=True):
    """argv's exit status and output (stdout+stderr); a nonzero status fails unless ok=False."""
    try:
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        fail("timed out: %s" % " ".join(argv))
    out = r.stdout + r.stderr
    if ok and r.returncode != 0:
        fail("exit status %d: %s" % (r.returncode, " ".join(argv)), out)
    return r.returncode, out
