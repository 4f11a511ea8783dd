#!/usr/bin/env bash
# The long fuzz run (issue #19; tests/fuzz/README.md): builds the fuzz targets with clang's
# libFuzzer, ASan and UBSan in build-fuzz/ (installing clang from Debian when it is missing),
# and runs each for SECONDS on a copy of its corpus, which libFuzzer grows; prints each target's
# runs and final corpus size. A crash stops that target, leaves its input in build-fuzz/ and
# makes the script exit 1.
#   scripts/fuzz.sh [trace_decoder|elf_loader|config|all] [SECONDS, default 600]
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"
seconds="${2:-600}"
case "$which" in trace_decoder|elf_loader|config) targets=("$which") ;;
  all) targets=(trace_decoder elf_loader config) ;;
  *) echo "usage: scripts/fuzz.sh [trace_decoder|elf_loader|config|all] [SECONDS]" >&2; exit 2 ;;
esac
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS '$seconds': expected a whole number >= 1" >&2; exit 2; }
# clang and its compiler-rt (libFuzzer, ASan, UBSan), from Debian 12.
if ! [ "$(dpkg-query -W -f='${Status}\n' clang libclang-rt-14-dev 2>/dev/null | grep -c 'install ok installed')" = 2 ]; then
  echo "fuzz.sh: installing clang and libclang-rt-14-dev (Debian) for libFuzzer"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
fi
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DTESTBED_LIBFUZZER=ON >/dev/null
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}"
declare -A corpus=([trace_decoder]=trace [elf_loader]=elf [config]=config)
rc=0
for t in "${targets[@]}"; do
  dir="build-fuzz/corpus/$t"
  mkdir -p "$dir"
  cp -n "tests/fuzz/corpus/${corpus[$t]}"/* "$dir"/
  echo "fuzz.sh: $t for $seconds s, corpus $dir ($(ls "$dir" | wc -l) files)"
  if ! (cd build-fuzz && "fuzz/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 \
          -artifact_prefix="crash-$t-" "corpus/$t" 2> "fuzz-$t.log"); then
    echo "fuzz.sh: $t CRASHED: build-fuzz/fuzz-$t.log, input build-fuzz/crash-$t-*" >&2
    rc=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/fuzz-$t.log" | grep -o '[0-9]*$' || true)
  echo "fuzz.sh: $t: ${runs:-?} runs in $seconds s, corpus now $(ls "$dir" | wc -l) files, $(du -sb "$dir" | cut -f1) bytes"
done
exit $rc
