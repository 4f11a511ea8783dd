#!/usr/bin/env python3
"""Model checking of the monitor RTL with yosys's formal flow (yosys + yosys-smtbmc + z3).

Reads the real sources (rtl/monitor/*.sv; they `include the generated packages from
rtl/generated) with `read_verilog -formal -sv`, which defines FORMAL and so turns on the
properties written beside the code, and -DFORMAL_<TOP> so that the module under proof assumes
its inputs' contract (inside a parent the same properties are assertions about the parent).

  prove.py --top mon_fifo --rtl RTL --out DIR [-p NAME=VALUE ...] --mode prove|bmc|cover --depth K
           [--mutate FILE OLD NEW] [--expect-fail]

  prove  k-induction: the base case (BMC from reset, K steps) and the inductive step (K steps).
  bmc    bounded model checking from reset, K steps: no assertion fails in the first K clocks.
  cover  every cover point (the existing ones of the simulation and the formal ones) is reached
         from reset within K steps; a trace per point.
  --mutate  copies the sources into DIR/src, replaces OLD by NEW in FILE (exactly one occurrence,
            or the run stops), and proves the copy. With --expect-fail the run passes only when
            an assertion fails from reset with a counterexample VCD that parses and converts to
            FST (vcd2fst, the GTKWave tools).
Prints one line per property checked and a final line "formal <name>: PASS|FAIL ... in S s".
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time

SOURCES = ["mon_fifo.sv", "mon_timebase.sv", "mon_filter.sv", "mon_smi.sv", "mon_mmi.sv", "monitor_top.sv"]


def fail(msg):
    print(f"prove.py: {msg}", file=sys.stderr)
    sys.exit(2)


def mutate(rtl, out, file, old, new):
    """A copy of rtl/monitor and rtl/generated with one substitution; stops if OLD is not there once."""
    src = os.path.join(out, "src")
    shutil.rmtree(src, ignore_errors=True)
    for sub in ("monitor", "generated"):
        shutil.copytree(os.path.join(rtl, sub), os.path.join(src, sub),
                        ignore=shutil.ignore_patterns("*.h", "*.py", "*.txt"))
    path = os.path.join(src, "monitor", file)
    with open(path) as f:
        text = f.read()
    n = text.count(old)
    if n != 1:
        fail(f"mutation pattern found {n} times in {file} (need exactly 1): {old!r}")
    with open(path, "w") as f:
        f.write(text.replace(old, new))
    print(f"mutation in {file}: {old!r} -> {new!r}")
    return src


def yosys_model(rtl, out, top, params, only, drop, cut):
    sources = " ".join(os.path.join(rtl, "monitor", s) for s in SOURCES)
    chparam = " ".join(f"-set {k} {v}" for k, v in params)
    script = [
        f"read_verilog -formal -sv -DFORMAL_{top.upper()} -I{rtl} {sources}",
        f"chparam {chparam} {top}" if params else "",
        # --cut: these submodule instances are replaced by free outputs (yosys cutpoint): the
        # proof then holds whatever they do (the SMI's filter is proved on its own). (After the
        # first `hierarchy -top` the parameterized top has its derived name: prep finds it marked.)
        f"hierarchy -top {top}" if cut else "",
        " ".join(["cutpoint"] + [f"{top}/{c}" for c in cut]) if cut else "",
        "prep -flatten" if cut else f"prep -flatten -top {top}",
        "memory_nordff",
        "async2sync",
        "dffunmap",
        # --only: prove these assertions (the others stay out of this run); --drop: leave these
        # out (a submodule's, proved on its own for any input)
        ("chformal -assert -remove t:$assert " + " ".join(f"n:{p}" for p in only) + " %u" * (len(only) - 1) + " %d")
        if only else "",
        ("chformal -assert -remove " + " ".join(f"n:{p}" for p in drop) + " %u" * (len(drop) - 1)) if drop else "",
        "tee -q -o props.txt select -list t:$assert t:$assume t:$cover",
        "write_smt2 -wires model.smt2",
    ]
    with open(os.path.join(out, "model.ys"), "w") as f:
        f.write("\n".join(s for s in script if s) + "\n")
    r = subprocess.run(["yosys", "-q", "-l", "yosys.log", "-s", "model.ys"], cwd=out,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        fail(f"yosys failed ({r.returncode}), see {out}/yosys.log")
    with open(os.path.join(out, "model.smt2")) as f:
        smt = f.read()
    # yosys-smtbmc names a property by its label ("; yosys-smt2-assert 0 name"), else by source line
    kinds = {"assert": [], "assume": [], "cover": []}
    for kind, name in re.findall(r"^; yosys-smt2-(assert|assume|cover) \d+ (\S+)", smt, re.M):
        kinds[kind].append(name)
    return kinds


def smtbmc(out, args, vcd, log):
    # --unroll: smtbmc declares each step's wires itself; left to z3 4.8 as define-fun macros,
    # the filter's shared logic (its per-class counters behind one class index) took z3 minutes
    # to expand before the first check.
    cmd = ["yosys-smtbmc", "-s", "z3", "--unroll", "--presat"] + args + ["--dump-vcd", vcd, "model.smt2"]
    r = subprocess.run(cmd, cwd=out, capture_output=True, text=True)
    with open(os.path.join(out, log), "w") as f:
        f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
    status = re.search(r"Status: (PASSED|FAILED)", r.stdout)
    if not status:
        sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
        fail(f"yosys-smtbmc gave no status (exit {r.returncode}), see {out}/{log}")
    return status.group(1) == "PASSED", r.stdout


def check_vcd(path):
    """A small VCD reader: a header with variables, $enddefinitions, then time steps with changes."""
    if not os.path.exists(path):
        return "no counterexample VCD"
    with open(path) as f:
        text = f.read()
    head, sep, body = text.partition("$enddefinitions")
    if not sep:
        return "VCD has no $enddefinitions"
    ids = set(re.findall(r"\$var\s+\S+\s+\d+\s+(\S+)\s", head))
    if not ids:
        return "VCD declares no variables"
    steps = re.findall(r"^#(\d+)", body, re.M)
    if len(steps) < 2:
        return "VCD has fewer than two time steps"
    for line in body.split("$end", 1)[-1].splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("$"):
            continue
        ident = line.split()[-1] if line[0] in "bBrR" else line[1:]
        if ident not in ids:
            return f"VCD changes an undeclared variable: {line}"
    fst = path[:-4] + ".fst"
    r = subprocess.run(["vcd2fst", path, fst], capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(fst) or os.path.getsize(fst) == 0:
        return f"vcd2fst could not convert it: {r.stderr.strip()}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", required=True)
    ap.add_argument("--rtl", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--name")
    ap.add_argument("-p", "--param", action="append", default=[])
    ap.add_argument("--mode", choices=["prove", "bmc", "cover"], required=True)
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--mutate", nargs=3, metavar=("FILE", "OLD", "NEW"))
    ap.add_argument("--expect-fail", action="store_true")
    ap.add_argument("--cut", action="append", default=[], metavar="INSTANCE",
                    help="replace this submodule instance by free outputs (yosys cutpoint)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="prove only the assertions whose cell name matches (yosys n: pattern)")
    ap.add_argument("--drop", action="append", default=[], metavar="NAME",
                    help="leave out the assertions whose cell name matches (yosys n: pattern)")
    a = ap.parse_args()
    name = a.name or f"{a.top}_{a.mode}"
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    for stale in os.listdir(out):
        if stale.endswith((".vcd", ".fst")):
            os.remove(os.path.join(out, stale))
    rtl = os.path.abspath(a.rtl)
    if a.mutate:
        rtl = mutate(rtl, out, *a.mutate)
    params = [p.split("=", 1) for p in a.param]
    t0 = time.monotonic()
    props = yosys_model(rtl, out, a.top, params, a.only, a.drop, a.cut)
    print(f"{name}: {a.top} {' '.join(a.param)}: {len(props['assert'])} assertions, "
          f"{len(props['assume'])} assumptions, {len(props['cover'])} cover points")

    ok, detail = True, ""
    if a.mode in ("prove", "bmc"):
        for p in props["assert"]:
            print(f"  assert {p}")
        ok, log = smtbmc(out, ["-t", str(a.depth)], "cex.vcd", "bmc.log")
        if not ok:
            m = re.search(r"Assert failed in \S+: (\S+)", log)
            steps = re.findall(r"Checking assertions in step (\d+)", log)
            detail = (f"assertion {m.group(1) if m else '?'} fails from reset at step "
                      f"{steps[-1] if steps else '?'}; counterexample {out}/cex.vcd")
        elif a.mode == "prove":
            ok, log = smtbmc(out, ["-i", "-t", str(a.depth)], "induction.vcd", "induction.log")
            detail = (f"proved by {a.depth}-induction" if ok else
                      f"induction did not close at depth {a.depth} (trace {out}/induction.vcd)")
        else:
            detail = f"no assertion fails within {a.depth} clocks of reset (bounded)"
    else:
        ok, log = smtbmc(out, ["-c", "-t", str(a.depth)], "cover%d.vcd", "cover.log")
        reached = re.findall(r"Reached cover statement at (\S+) in step (\d+)", log)
        missed = re.findall(r"Unreached cover statement at (\S+)", log)
        for p, step in reached:
            print(f"  cover {p}: reached at step {step}")
        for p in missed:
            print(f"  cover {p}: NOT reached within {a.depth} steps")
        ok = ok and not missed and len(reached) == len(props["cover"])
        detail = f"{len(reached)} of {len(props['cover'])} cover points reached within {a.depth} steps"
    secs = time.monotonic() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru.ru_utime + ru.ru_stime
    detail += f" ({cpu:.1f} s CPU)"

    if a.expect_fail:
        if ok:
            print(f"formal {name}: FAIL: the mutated design was not refuted ({detail}) in {secs:.1f} s")
            sys.exit(1)
        if not os.path.exists(os.path.join(out, "cex.vcd")):
            print(f"formal {name}: FAIL: refuted but not from reset ({detail})")
            sys.exit(1)
        bad = check_vcd(os.path.join(out, "cex.vcd"))
        if bad:
            print(f"formal {name}: FAIL: {bad}")
            sys.exit(1)
        print(f"formal {name}: PASS: mutation refuted: {detail} (VCD parses, {out}/cex.fst for GTKWave) in {secs:.1f} s")
        sys.exit(0)
    print(f"formal {name}: {'PASS' if ok else 'FAIL'}: {detail} in {secs:.1f} s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
