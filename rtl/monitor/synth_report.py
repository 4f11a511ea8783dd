#!/usr/bin/env python3
"""Resource report of the monitor RTL through yosys' generic synthesis: cells, flip-flops and
memories (kept as memories, not mapped to flip-flops). Usage: synth_report.py TOP SOURCES..."""
import os
import re
import subprocess
import sys
import tempfile


def main():
    top, sources = sys.argv[1], sys.argv[2:]
    # The modules `include the generated packages relative to rtl/ (as Verilator's -I rtl).
    rtl = os.path.dirname(os.path.dirname(os.path.abspath(sources[0])))
    script = "\n".join([
        f"read_verilog -sv -I{rtl} " + " ".join(sources),
        f"synth -top {top} -flatten -run :fine",
        "opt -full", "techmap", "opt -fast", "abc -fast", "opt -fast",
        "tee -q -o {out} stat",
        "tee -q -a {out} dump t:$mem_v2",
    ])
    # (tee to a file: `tee -o /dev/stdout` left nothing in a captured pipe)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stat.txt")
        r = subprocess.run([os.environ.get("YOSYS", "yosys"), "-q", "-p", script.replace("{out}", path)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout + r.stderr)
            sys.exit(f"rtl-synth-report: yosys failed ({r.returncode})")
        with open(path) as f:
            out = f.read()
    m = re.search(r"Number of cells:\s+(\d+)(.*?)(?:\n\n|\Z)", out, re.S)
    if not m:
        sys.exit("rtl-synth-report: no statistics from yosys")
    cells = int(m.group(1))
    kinds = {k: int(n) for k, n in re.findall(r"^\s+(\$\S+)\s+(\d+)$", m.group(2), re.M)}
    ffs = sum(n for k, n in kinds.items() if "DFF" in k or "DLATCH" in k)
    mems = []
    for cell in re.finditer(r"cell \$mem_v2 \\(\S+)(.*?)\n  end", out, re.S):
        size = re.search(r"parameter \\SIZE (\d+)", cell.group(2))
        width = re.search(r"parameter \\WIDTH (\d+)", cell.group(2))
        if size and width:
            mems.append((cell.group(1), int(size.group(1)), int(width.group(1))))
    print(f"rtl-synth-report: {top} (yosys generic synthesis, memories kept)")
    print(f"cells (gates, flip-flops, memories): {cells}")
    print(f"flip-flops: {ffs}")
    print(f"memories: {len(mems)}, {sum(s * w for _, s, w in mems)} bits")
    for name, size, width in mems:
        print(f"  {name}: {size} x {width}")
    for k in sorted(kinds):
        print(f"  {k:<16} {kinds[k]}")


if __name__ == "__main__":
    main()
