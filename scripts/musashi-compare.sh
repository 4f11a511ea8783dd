#!/usr/bin/env bash
# scripts/musashi-compare.sh MUSASHI_SRC [BUILD_DIR] [RUNS]
#
# Compares the core with Musashi (github.com/kstenerud/Musashi, a source tree you supply; it is
# not part of the project and nothing of it is committed) on the reference workload: builds
# Musashi -O2 with hw/cpu/tools/musashi_bench.c into BUILD_DIR/musashi, checks once that it runs
# the same number of instructions with the same checksum (a build with the instruction hook),
# then runs m68k-bench and musashi-bench in both models, interleaved, RUNS times, and prints
# each run's MIPS of process CPU time and the ratios of the best runs. Each run also runs
# board-bench (one board in SystemC, a 68010; process CPU time, as scripts/board-speed.sh
# measures it) and prints its ratio to the bare 68010 core of the same run. On a shared host
# read the ratios, not the absolute figures.
set -euo pipefail
src=${1:?usage: musashi-compare.sh MUSASHI_SRC [BUILD_DIR] [RUNS]}
build=${2:-build}
runs=${3:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
image=$build/firmware/bench-workload-r4000.elf
out=$build/musashi
mkdir -p "$out"
if [ ! -x "$out/musashi-bench" ] || [ "$here/hw/cpu/tools/musashi_bench.c" -nt "$out/musashi-bench" ]; then
  cp -r "$src"/. "$out/src"
  (cd "$out/src" && gcc -O2 -o m68kmake m68kmake.c && ./m68kmake >/dev/null)
  files=("$out/src/m68kcpu.c" "$out/src/m68kops.c" "$out/src/m68kdasm.c" "$out/src/softfloat/softfloat.c")
  gcc -O2 -w -I"$out/src" -o "$out/musashi-bench" "$here/hw/cpu/tools/musashi_bench.c" "${files[@]}" -lm
  gcc -O2 -w -I"$out/src" -DCOUNT_INSTRUCTIONS -DM68K_INSTRUCTION_HOOK=M68K_OPT_SPECIFY_HANDLER \
    '-DM68K_INSTRUCTION_CALLBACK(pc)=musashi_bench_count(pc)' \
    -o "$out/musashi-count" "$here/hw/cpu/tools/musashi_bench.c" "${files[@]}" -lm
fi
ours=$("$build/bin/m68k-bench" "$image")
n=$(awk '/^instructions/ {print $2}' <<<"$ours")
sum=$(awk '/^checksum/ {print $2}' <<<"$ours")
for model in 68000 68010; do
  theirs=$("$out/musashi-count" "$image" --model $model)
  tn=$(awk '/^instructions/ {print $2}' <<<"$theirs")
  tsum=$(awk '/^checksum/ {print $2}' <<<"$theirs")
  echo "Musashi $model: $tn instructions, checksum $tsum (ours: $n, $sum)"
  if [ "$tn" != "$n" ] || [ "$tsum" != "$sum" ]; then echo "error: the two cores ran different work" >&2; exit 1; fi
done
mips() { awk '/^MIPS of process CPU time/ {print $NF}'; }
# board-bench's MIPS of process CPU time (user + system of the whole process), as board-speed.sh.
board_mips() {
  local t
  t=$( { TIMEFORMAT='%U %S'; time "$build/bin/board-bench" "$image" >/dev/null 2>&1; } 2>&1 )
  awk -v n="$n" -v t="$t" 'BEGIN {split(t, a, " "); printf "%.1f", n / (a[1] + a[2]) / 1e6}'
}
declare -A best
ratios=()
for ((r = 1; r <= runs; r++)); do
  for model in 68000 68010; do
    a=$("$build/bin/m68k-bench" "$image" --model $model | mips)
    b=$("$out/musashi-bench" "$image" --model $model --instructions "$n" | mips)
    echo "run $r $model: core $a MIPS, Musashi $b MIPS, ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
    best[core$model]=$(awk -v x="$a" -v y="${best[core$model]:-0}" 'BEGIN {print (x > y ? x : y)}')
    best[mus$model]=$(awk -v x="$b" -v y="${best[mus$model]:-0}" 'BEGIN {print (x > y ? x : y)}')
    core_last=$a
  done
  bm=$(board_mips)
  ratios+=("$(awk -v a="$bm" -v b="$core_last" 'BEGIN {printf "%.3f", a / b}')")
  echo "run $r board: board-bench $bm MIPS, board/core 68010 ${ratios[-1]}"
done
for model in 68000 68010; do
  echo "best $model: core ${best[core$model]} MIPS, Musashi ${best[mus$model]} MIPS, ratio" \
    "$(awk -v a="${best[core$model]}" -v b="${best[mus$model]}" 'BEGIN {printf "%.2f", a / b}')"
done
echo "core 68010/68000: $(awk -v a="${best[core68010]}" -v b="${best[core68000]}" 'BEGIN {printf "%.2f", a / b}')"
echo "board/core 68010, median of the runs: $(printf '%s\n' "${ratios[@]}" | sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}')"
