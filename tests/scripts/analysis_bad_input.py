"""testbed-analyse on good, truncated and foreign traces: the good one is read, every bad one
is refused with exit status 2 and a message naming the file and where it goes wrong."""
import os
import struct
import subprocess
import sys

tool, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
HEAD = "# testbed monitor trace v1: ticks time_ns board word name (tick = 1000000 ps)\n"
BODY = ["1000 1000000 1 0x0007 TRAP7", "1100 1100000 1 0x0046 TRAP70", "2000 2000000 1 0x0007 TRAP7",
        "2500 2500000 1 0x0048 TRAP72", "65536 65536000 1 0xAA01 WRAP_01"]
FOOT = "# events 4 markers 1 empty_reads 0 ok\n"


def write(name, text, mode="w"):
    p = os.path.join(out, name)
    with open(p, mode) as f:
        f.write(text)
    return p


def binary(records, count=None):
    b = b"TBMT" + struct.pack(">HHQQ", 1, 0, 1000000, len(records) if count is None else count)
    for t, board, flags, word in records:
        b += struct.pack(">QBBH", t, board, flags, word)
    return b


good = write("good.txt", HEAD + "\n".join(BODY) + "\n" + FOOT)
recs = [(1000, 1, 0, 7), (1100, 1, 0, 0x46), (2000, 1, 0, 7), (2500, 1, 0, 0x48)]
cases = {
    "truncated text (no closing line)": (write("cut.txt", HEAD + "\n".join(BODY[:3]) + "\n"), r"cut\.txt: truncated after line 4"),
    "text cut inside a line": (write("cut2.txt", HEAD + "\n".join(BODY) + "\n" + FOOT[:9]), r"cut2\.txt: truncated after line"),
    "lines missing": (write("gap.txt", HEAD + "\n".join(BODY[1:]) + "\n" + FOOT), r"gap\.txt: .*counts 4 events .* has 3"),
    "foreign text": (write("foreign.txt", "hello world\n1 2 3\n"), r"foreign\.txt: line 1: not a testbed monitor trace"),
    "foreign binary": (write("foreign.bin", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "wb"), r"foreign\.bin: byte \d+ is not ASCII"),
    "garbled line": (write("garbled.txt", HEAD + BODY[0] + "\nxyz 12\n" + FOOT), r"garbled\.txt: line 3: expected"),
    "time going back": (write("back.txt", HEAD + BODY[2] + "\n" + BODY[0] + "\n# events 2 markers 0 empty_reads 0 ok\n"), r"back\.txt: line 3: time goes back"),
    "truncated binary": (write("cut.bin", binary(recs)[:-5], "wb"), r"cut\.bin: byte \d+: the header promises 4 records .* truncated"),
    "broken stream": (write("broken.txt", HEAD + BODY[0] + "\n# events 1 markers 0 empty_reads 0 BROKEN: word 7: time went back\n"), r"broken\.txt: line 3: the decoder found the monitor stream broken"),
    "missing file": (os.path.join(out, "no-such-trace.txt"), r"no-such-trace\.txt: cannot open"),
}
import re

fails = 0
r = subprocess.run([tool, good], capture_output=True, text=True)
if r.returncode != 0 or "board 1:" not in r.stdout or "unmatched: 0 requests" not in r.stdout:
    print("FAIL good trace: rc %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    fails += 1
# the Perfetto export of the good trace: JSON with a track per board and the requests as slices
import json

pj = os.path.join(out, "good.json")
r = subprocess.run([tool, good, "--perfetto", pj], capture_output=True, text=True)
try:
    ev = json.load(open(pj))["traceEvents"]
    names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    slices = [e for e in ev if e["ph"] == "X" and e["pid"] == 1]
    if r.returncode != 0 or names != {"earth (board 1)"} or len(slices) < 2:
        raise ValueError("tracks %s, %d slices" % (names, len(slices)))
except (OSError, ValueError, KeyError) as e:
    print("FAIL perfetto export: %s\n%s%s" % (e, r.stdout, r.stderr))
    fails += 1
gb = write("good.bin", binary(recs), "wb")
r = subprocess.run([tool, gb], capture_output=True, text=True)
if r.returncode != 0:
    print("FAIL good binary trace: rc %d\n%s%s" % (r.returncode, r.stdout, r.stderr))
    fails += 1
for what, (path, rx) in cases.items():
    r = subprocess.run([tool, path], capture_output=True, text=True)
    ok = r.returncode == 2 and re.search(rx, r.stderr)
    print("%s %s: rc %d: %s" % ("ok  " if ok else "FAIL", what, r.returncode, r.stderr.strip()))
    fails += not ok
sys.exit(1 if fails else 0)
