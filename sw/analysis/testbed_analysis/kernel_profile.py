"""tos-profile TRACE [--elf KERNEL] [--top N]: where TOS's cycles go, from a board's instruction
trace (`tos-bench --trace-earth FILE`, `testbed-board --trace-instructions`; lines "cycle pc S|U
disassembly"). tos-profile --cycles PROFILE [--per N]: the same by function over a whole run, from
a cycle profile (testbed's `trace.cycle_profile`; lines "pc S|U cycles instructions"), small
for any run length, without the passes.

The trace is cut into kernel passes: a pass begins where the CPU leaves user mode (a system call,
a yield, a fault or an interrupt) and ends where it enters user mode again, so a pass is all the
kernel did for one entry, the main loop included when the entry went round it. Each pass is
sorted by how it entered (the kernel's entry labels in entry.S: `syscall`, `yield`, `exception`)
and by what it ran (the main loop's `kmain`, the timer's `timer_intr`, the idle loop's
`cpu_idle`), and each instruction's cycles (to the next line's cycle) go to the kernel function
that holds its pc. The kinds, their cycles per pass and the functions that take them are the
measurement behind a kernel cost (issue #32: "a trap that needs no service need not poll every
queue"): not a model, a count of executed 68010 cycles."""
import argparse
import bisect
import collections
import functools
import subprocess
import sys

ENTRIES = ("syscall", "yield", "exception")

KINDS = [
    ("call", "system call served in its trap (trap_fast)"),
    ("call-loop", "system call that went round the main loop"),
    ("yield", "yield served in its trap"),
    ("yield-loop", "yield that went round the main loop"),
    ("tick", "timer tick pre-empting a program, nothing else to do (the slice's main-loop pass)"),
    ("idle", "a pass that waited in the idle loop (cpu_idle) for an interrupt"),
    ("other", "other faults and interrupts"),
]


class ProfileError(Exception):
    pass


@functools.lru_cache(maxsize=None)
def _text_symbols(elf, nm):
    """[(address, name, file)] of an image's text symbols, sorted; a name that several files use
    for their own static function (`request` in chan.c and in balance.c) gets its file's name
    beside it, where the image's line information gives it: (addresses, names, files). Read once
    an image: a run's five profiles and the split by file ask for the same ones."""
    try:
        out = subprocess.run([nm, "-n", "-l", "--defined-only", elf], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise ProfileError("cannot read the symbols of %s with %s: %s" % (elf, nm, e))
    syms = []
    for line in out.splitlines():
        sym, _, where = line.partition("\t")
        f = sym.split()
        if len(f) == 3 and f[1] in "tTwW":
            syms.append((int(f[0], 16), f[2], where.rsplit(":", 1)[0].rsplit("/", 1)[-1]))
    names = collections.Counter(n for _, n, _ in syms)
    return (tuple(a for a, _, _ in syms), tuple("%s (%s)" % (n, w) if names[n] > 1 and w else n for _, n, w in syms),
            tuple(w for _, _, w in syms))


def source_files(elf, nm="m68k-linux-gnu-nm"):
    """{function name (as the profile shows it): its source file's name, where the line
    information gives it} of an image."""
    _, names, files = _text_symbols(elf, nm)
    return {n: f for n, f in zip(names, files) if f}


def kernel_symbols(elf, nm):
    """(addresses, names) of the kernel's text symbols, sorted; the entry labels must be there."""
    addrs, names, _ = _text_symbols(elf, nm)
    missing = [e for e in ENTRIES if e not in names]
    if missing:
        raise ProfileError("%s has no kernel entry label %s: not a TOS kernel?" % (elf, ", ".join(missing)))
    return addrs, names


def kind_of(entry, funcs):
    if "cpu_idle" in funcs:
        return "idle"
    looped = "kmain" in funcs
    if entry == "syscall":
        return "call-loop" if looped else "call"
    if entry == "yield":
        return "yield-loop" if looped else "yield"
    if entry == "exception" and "timer_intr" in funcs and not any(
            f in funcs for f in ("console_intr", "lan_intr", "dev_intr", "kfault")):
        return "tick"
    return "other"


def passes(lines, addrs, names):
    """Yields (kind, cycles, {function: cycles}) for every complete kernel pass in the trace."""
    entry_at = {addrs[names.index(e)]: e for e in ENTRIES}
    prev_cycle, prev_func, mode = None, None, None
    cur = None  # [entry, first cycle, Counter]
    for n, line in enumerate(lines, 1):
        f = line.split(None, 3)
        if len(f) < 3 or f[2] not in ("S", "U"):
            raise ProfileError("line %d is not 'cycle pc S|U instruction' (a trace from before the mode column?): %r"
                               % (n, line[:80]))
        try:
            cycle, pc = int(f[0]), int(f[1], 16)
        except ValueError:
            raise ProfileError("line %d: bad cycle or pc: %r" % (n, line[:80]))
        if prev_func is not None and cur is not None:
            cur[2][prev_func] += cycle - prev_cycle
        sup = f[2] == "S"
        if sup:
            if mode == "U":  # left user mode: a pass begins (at the entry label the CPU went to)
                cur = [entry_at.get(pc, "other"), cycle, collections.Counter()]
            i = bisect.bisect_right(addrs, pc) - 1
            prev_func = names[i] if i >= 0 else "?"
        else:
            if mode == "S" and cur is not None:
                yield kind_of(cur[0], cur[2]), cycle - cur[1], cur[2]
                cur = None
            prev_func = None
        prev_cycle, mode = cycle, f[2]


def profile(trace, elf, nm="m68k-linux-gnu-nm", top=12, out=sys.stdout):
    addrs, names = kernel_symbols(elf, nm)
    by = collections.defaultdict(list)
    funcs = collections.defaultdict(collections.Counter)
    try:
        with open(trace) as fh:
            for kind, cycles, f in passes(fh, addrs, names):
                by[kind].append(cycles)
                funcs[kind].update(f)
    except OSError as e:
        raise ProfileError("cannot read %s: %s" % (trace, e))
    if not by:
        raise ProfileError("%s holds no complete kernel pass (no entry from user mode and back)" % trace)
    total = sum(sum(v) for v in by.values())
    print("kernel passes in %s (kernel %s): %d passes, %d cycles" % (trace, elf, sum(len(v) for v in by.values()), total),
          file=out)
    print("%-82s %7s %8s %8s %8s" % ("kind", "passes", "min", "median", "max"), file=out)
    for k, title in KINDS:
        v = sorted(by.get(k, []))
        if v:
            print("%-82s %7d %8d %8d %8d" % (title, len(v), v[0], v[len(v) // 2], v[-1]), file=out)
    for k, title in KINDS:
        v = by.get(k, [])
        if not v:
            continue
        c = funcs[k]
        acc = sum(c.values())
        print("\n%s: cycles a pass by function (mean of %d passes; the functions' sum is %.1f%% of the passes')"
              % (title, len(v), 100.0 * acc / sum(v) if sum(v) else 0), file=out)
        for f, n in c.most_common(top):
            if n / len(v) < 0.5:  # under a cycle a pass: a rare visit, not where the cycles go
                break
            print("  %-28s %8.0f %5.1f%%" % (f, n / len(v), 100.0 * n / acc if acc else 0), file=out)
    return by


USER = "(user mode: the programs)"


def read_cycle_profile(path):
    """A cycle profile's lines, parsed: [(pc, "S" or "U", cycles, instructions)]."""
    rows = []
    try:
        with open(path) as fh:
            for n, line in enumerate(fh, 1):
                f = line.split()
                try:
                    if len(f) != 4 or f[1] not in ("S", "U"):
                        raise ValueError
                    rows.append((int(f[0], 16), f[1], int(f[2]), int(f[3])))
                except ValueError:
                    raise ProfileError("%s line %d is not 'pc S|U cycles instructions' (a cycle profile, "
                                       "trace.cycle_profile): %r" % (path, n, line[:80]))
    except OSError as e:
        raise ProfileError("cannot read %s: %s" % (path, e))
    return rows


def cycles_by_function(path, elf, nm="m68k-linux-gnu-nm", program=None):
    """A cycle profile's cycles by the kernel function that holds each supervisor-mode pc (USER for
    user mode, "?" below the kernel's first symbol): ({name: cycles}, total cycles, instructions).
    With `program` (the image the board's user mode ran: every user-mode pc is taken for one of
    its own) user mode is split by that program's functions too, each as "user: NAME"."""
    return _by_function(path, elf, nm, program, 2)


def instructions_by_function(path, elf, nm="m68k-linux-gnu-nm", program=None):
    """cycles_by_function's split, of the profile's instructions."""
    return _by_function(path, elf, nm, program, 3)


def _by_function(path, elf, nm, program, column):
    addrs, names = kernel_symbols(elf, nm)
    uaddrs, unames, _ = _text_symbols(program, nm) if program else ((), (), ())
    if program and not uaddrs:
        raise ProfileError("%s has no text symbols: not a program image?" % program)
    by = collections.Counter()
    rows = read_cycle_profile(path)
    for row in rows:
        pc, mode, n = row[0], row[1], row[column]
        if mode == "U" and not program:
            by[USER] += n
        elif mode == "U":
            i = bisect.bisect_right(uaddrs, pc) - 1
            by["user: " + (unames[i] if i >= 0 else "?")] += n
        else:
            i = bisect.bisect_right(addrs, pc) - 1
            by[names[i] if i >= 0 else "?"] += n
    if not by:
        raise ProfileError("%s holds no cycles (an empty cycle profile)" % path)
    return by, sum(r[2] for r in rows), sum(r[3] for r in rows)


def per_entry(path, elf, name, nm="m68k-linux-gnu-nm", first=None):
    """A kernel function's supervisor cycles per entry: all its instructions' cycles over the
    executions of its first one (a branch taken less often counts by its share). first: only
    its first `first` instructions (a label whose path splits there). (cycles, entries)."""
    addrs, names = kernel_symbols(elf, nm)
    if name not in names:
        raise ProfileError("%s has no kernel symbol %s" % (elf, name))
    i = names.index(name)
    lo, hi = addrs[i], addrs[i + 1] if i + 1 < len(addrs) else 1 << 32
    rows = sorted(r for r in read_cycle_profile(path) if r[1] == "S" and lo <= r[0] < hi)
    if not rows or rows[0][0] != lo:
        return 0.0, 0
    if first:
        rows = rows[:first]
    return sum(r[2] / r[3] for r in rows if r[3]) if first else sum(r[2] for r in rows) / rows[0][3], rows[0][3]


def mode_totals(path):
    """A cycle profile's (cycles, instructions) in each mode: {"S": ..., "U": ...}."""
    rows = read_cycle_profile(path)
    return {m: (sum(r[2] for r in rows if r[1] == m), sum(r[3] for r in rows if r[1] == m)) for m in ("S", "U")}


def print_cycles(path, elf, nm="m68k-linux-gnu-nm", top=12, per=1, out=sys.stdout, program=None):
    by, total, instructions = cycles_by_function(path, elf, nm, program)
    print("cycle profile %s (kernel %s): %d cycles, %d instructions%s" % (
        path, elf, total, instructions, ", per %d: %.0f cycles" % (per, total / per) if per > 1 else ""), file=out)
    for f, n in by.most_common(top):
        print("  %-32s %12.0f %5.1f%%" % (f, n / per, 100.0 * n / total), file=out)
    rest = total - sum(n for _, n in by.most_common(top))
    if rest:
        print("  %-32s %12.0f %5.1f%%" % ("(%d more)" % (len(by) - top), rest / per, 100.0 * rest / total), file=out)
    return by


def main(argv=None, default_elf=None, nm="m68k-linux-gnu-nm"):
    ap = argparse.ArgumentParser(prog="tos-profile", description="where TOS's cycles go, from an instruction trace")
    ap.add_argument("trace", help="an instruction trace (tos-bench --trace-earth FILE), or with --cycles a cycle profile")
    ap.add_argument("--cycles", action="store_true",
                    help="the file is a cycle profile (testbed --set trace.cycle_profile=BOARD: OUT/BOARD.cycles)")
    ap.add_argument("--per", type=int, default=1, help="with --cycles: cycles per this many (messages, steps)")
    ap.add_argument("--elf", default=default_elf, help="the kernel the trace ran (default: %(default)s)")
    ap.add_argument("--program", help="with --cycles: the program image the board's user mode ran, to split user "
                    "mode by its functions")
    ap.add_argument("--top", type=int, default=12, help="functions listed per kind (default 12)")
    args = ap.parse_args(argv)
    if args.top < 1 or args.top > 1000:
        print("tos-profile: --top %d: expected a whole number from 1 to 1000" % args.top, file=sys.stderr)
        return 2
    if args.per < 1:
        print("tos-profile: --per %d: expected a whole number from 1" % args.per, file=sys.stderr)
        return 2
    try:
        if args.cycles:
            print_cycles(args.trace, args.elf, nm=nm, top=args.top, per=args.per, program=args.program)
        else:
            profile(args.trace, args.elf, nm=nm, top=args.top)
    except ProfileError as e:
        print("tos-profile: %s" % e, file=sys.stderr)
        return 2
    return 0
