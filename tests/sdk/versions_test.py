#!/usr/bin/env python3
"""--version on every tool: one line "NAME VERSION (git COMMIT)", exit 0; --help and --version
without SystemC's copyright banner.

usage: versions_test.py VERSION TOOL...
"""
import os, re, subprocess, sys

version, tools = sys.argv[1], sys.argv[2:]
bad = []
for t in tools:
    name = os.path.basename(t)
    for opt in ("--version", "--help"):
        r = subprocess.run([t, opt], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        out = r.stdout + r.stderr
        if r.returncode != 0:
            bad.append("%s %s: exit status %d\n%s" % (name, opt, r.returncode, out))
        if "SystemC" in out or "Copyright" in out:
            bad.append("%s %s: prints SystemC's banner\n%s" % (name, opt, out))
        if opt == "--version" and not re.fullmatch(r"%s %s \(git [0-9a-f]{12}(-dirty)?\)\n" % (re.escape(name), re.escape(version)), r.stdout):
            bad.append("%s --version printed %r" % (name, r.stdout))
if bad:
    print("FAIL:\n" + "\n".join(bad))
    sys.exit(1)
print("PASS: %d tools" % len(tools))
