#!/usr/bin/env bash
# waveforms/screenshot.sh FILE.gtkw OUT.png [seconds]: open a save file in GTKWave on a virtual
# X server (Xvfb) and grab the screen: what a person sees when opening it (xvfb, imagemagick).
set -euo pipefail
gtkw=$1 png=$2 wait=${3:-4}
xvfb-run -a -s "-screen 0 1400x900x24" bash -c "
  gtkwave '$gtkw' >/dev/null 2>&1 & pid=\$!
  sleep $wait
  import -window root '$png'
  kill \$pid"
