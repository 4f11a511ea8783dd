#!/bin/sh
# The system-call fuzzer's long run (tests/fuzz/README.md "sysfuzz"): tests/tos/sysfuzz.c on the
# test kernel (tos-test.elf: forged kernel messages too), a driver and a witness program on each
# of the four slaves earth, air, water, fire; then the invariants over every board's console:
# testbed exited 0 (no board halted on a kernel fault, no host crash), no FAIL or KERNEL FAULT
# anywhere, every witness says its results stayed intact, every board ended with all its frames
# and TCBs free. Prints the figures (rounds, calls, boards, minutes).
#   scripts/sysfuzz.sh [SEED [ROUNDS [CALLS [WILD]]]]     defaults 1 40 300 1; BUILD=build
# WILD 0: create() only at real functions (see tests/tos/sysfuzz.c).
set -eu
BUILD=${BUILD:-build}
SEED=${1:-1}
ROUNDS=${2:-40}
CALLS=${3:-300}
WILD=${4:-1}
out=$BUILD/test-out/sysfuzz-long-$SEED
rm -rf "$out"
mkdir -p "$out"
rc=$out/rc.txt
{
  for b in earth air water fire; do echo "$b sysfuzz witness 10 &"; done
  n=0
  for b in earth air water fire; do
    n=$((n + 1))
    echo "$b sysfuzz driver $((SEED * 10 + n)) $ROUNDS $CALLS $WILD &"
  done
} >"$rc"
"$BUILD/bin/tos-mkfs" -o "$out/sysfuzz.fs" "$BUILD/firmware/sysfuzz.elf" "rc=$rc" >/dev/null
start=$(date +%s)
status=0
"$BUILD/bin/testbed" --firmware-dir "$BUILD/firmware" --set board.image=tos-test.elf \
  --set "board.filestore=$(realpath "$out/sysfuzz.fs")" --set run.stop_ms=100000000.0 --console earth \
  --out "$out" >"$out/testbed.txt" 2>&1 || status=$?
end=$(date +%s)
fail=0
say() { echo "sysfuzz: $*"; }
[ "$status" -eq 0 ] || { say "testbed exited $status (see $out/testbed.txt)"; fail=1; }
for b in earth air water fire master space; do
  log=$out/$b.console.log
  [ -f "$log" ] || { say "$b: no console log"; fail=1; continue; }
  if grep -aE "FAIL|KERNEL FAULT|halted by the master" "$log" >/dev/null; then
    say "$b: $(grep -aE 'FAIL|KERNEL FAULT|halted by the master' "$log" | head -1)"
    fail=1
  fi
  boot=$(grep -aoE "KB kernel, [0-9]+ frames free, [0-9]+ TCBs" "$log" | head -1 | sed -E 's/KB kernel, ([0-9]+) frames free, ([0-9]+) TCBs/\1 \2/')
  last=$(grep -aoE "all programs done, [0-9]+ frames free, [0-9]+ TCBs free" "$log" | tail -1 | sed -E 's/all programs done, ([0-9]+) frames free, ([0-9]+) TCBs free/\1 \2/')
  [ -n "$boot" ] && [ "$boot" = "$last" ] || { say "$b: booted with '$boot' frames/TCBs free, ended with '$last'"; fail=1; }
done
for b in earth air water fire; do
  grep -aE "sysfuzz witness: board [0-9]+: intact" "$out/$b.console.log" >/dev/null 2>&1 ||
    { say "$b: the witness did not say its results were intact"; fail=1; }
  grep -aE "^sysfuzz: board" "$out/$b.console.log" || { say "$b: no driver tally"; fail=1; }
done
calls=$(cat "$out"/*.console.log | grep -aoE "completed \([0-9]+ calls\)" | grep -oE "[0-9]+" | awk '{s += $1} END {print s + 0}')
refused=$(cat "$out"/*.console.log | grep -aoE "kernel messages refused: [0-9]+" | awk '{print $NF}' | sort -n | tail -1)
say "seed $SEED: 4 boards, $ROUNDS rounds x $CALLS calls each, $calls calls in completed rounds, $(( (end - start) / 60 )) min $(( (end - start) % 60 )) s wall;" \
  "invariants (exit status, no FAIL / KERNEL FAULT on 6 consoles, 4 witnesses intact, 6 boards all frames and TCBs free): $([ $fail -eq 0 ] && echo held || echo BROKEN)"
exit $fail
