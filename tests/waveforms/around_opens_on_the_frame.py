#!/usr/bin/env python3
"""tbwaves --around TYPE opens on the first frame of that type, sized by the frame: the window
holds the frame and is at most MAX_MS wide, and the save file's marker named around_... stands
at that frame's start (issue 62: a 3.5 s window for a 36-byte frame, its marker on another frame).

usage: around_opens_on_the_frame.py TBWAVES SAMPLE_DIR OUT TYPE MAX_MS"""
import re, subprocess, sys

tbwaves, sample, out, kind, max_ms = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
r = subprocess.run([sys.executable, tbwaves, "--trace", sample + "/monitor.trace.txt", "--centrenet",
                    sample + "/centrenet.vcd", "--net-types", sample + "/net_types.toml", "--boards", "earth,air",
                    "--around", kind, "--out", out], capture_output=True, text=True)
print(r.stdout + r.stderr)
m = re.search(r"opens on ([\d.]+)\.\.([\d.]+) ms", r.stdout)
if r.returncode or not m:
    sys.exit("FAIL: tbwaves did not write the view")
a, b = float(m.group(1)), float(m.group(2))
# the frame: the first of that type in the Centrenet VCD's decoded names, from tbwaves itself
sys.path.insert(0, tbwaves.rsplit("/", 1)[0])
import tbwaves as T  # noqa: E402
tables = T.load_tables(T.ROOT, sample + "/net_types.toml")
net = T.net_signals(T.read_vcd(sample + "/centrenet.vcd", lambda n: n.endswith(".frame") or n.endswith(".owner")
                               or n.endswith(".header") or n.endswith(".bytes") or n.endswith(".src")
                               or n.endswith(".dst") or n.endswith(".busy")), tables)
frame = next((t, v) for t, v in net["net.frame"] if v and re.search(r"\b%s\b" % kind, v))
t_ms = frame[0] / 1e9
gtkw = open(out + ".gtkw").read()
names = re.findall(r"^\[markername\] [A-Z](\S+)$", gtkw, re.M)
fails = []
if not a <= t_ms <= b:
    fails.append("the window %.3f..%.3f ms does not hold the %s frame at %.3f ms" % (a, b, kind, t_ms))
if b - a > max_ms:
    fails.append("the window is %.3f ms wide, more than %.3f ms for a frame of %s" % (b - a, max_ms, frame[1]))
want = "around_" + re.sub(r"\W+", "_", frame[1].split(" #")[0].replace(">", "_to_")).strip("_")
if want not in names:
    fails.append("no marker %s (markers: %s)" % (want, ", ".join(names)))
for f in fails:
    print("FAIL:", f)
if fails:
    sys.exit(1)
print("PASS: %s at %.3f ms in a %.3f ms window, marker %s" % (frame[1], t_ms, b - a, want))
