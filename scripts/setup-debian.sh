#!/usr/bin/env bash
# Installs what the project needs from Debian 12's own packages, and nothing from elsewhere.
# Idempotent: when everything is present it checks and returns in well under a second.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config python3 git
  libsystemc-dev verilator
  gcc-m68k-linux-gnu binutils-m68k-linux-gnu
  gtkwave libgtest-dev yosys
  zlib1g-dev               # machine snapshots are compressed (sim/snapshot)
  z3                       # formal: the SMT solver of yosys-smtbmc for the monitor RTL's proofs (rtl/formal)
  xvfb xauth imagemagick   # waveforms: GTKWave checked and photographed on a virtual X server
  libtomlplusplus-dev libcli11-dev
  newlib-source            # TOS's C library: newlib 3.3.0, compiled for the 68010 by the firmware build
  gdb-multiarch            # debugging firmware through the simulator's gdb stub (--gdb PORT)
  python3-numpy python3-matplotlib  # sw/analysis: section 3 experiments (trace analysis, plots)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
