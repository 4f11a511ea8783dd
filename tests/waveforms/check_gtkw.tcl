# GTKWave Tcl check of a save file (tests/waveforms.cmake): run as
#   xvfb-run -a gtkwave -S check_gtkw.tcl FILE.gtkw
# with TB_GTKW_RESULT naming the result file. For every signal the save file lists it checks that
# GTKWave resolves it (it has a value) and that it changes inside the window the file opens on;
# it writes one line per signal and a last line "PASS" or "FAIL n", then quits.
set out [open $env(TB_GTKW_RESULT) w]
set save [gtkwave::getSaveFileName]
set ws [gtkwave::getWindowStartTime]
set we [gtkwave::getWindowEndTime]
puts $out "save $save dump [gtkwave::getDumpFileName] window $ws $we"
set f [open $save r]
set names {}
foreach line [split [read $f] "\n"] {
  if {$line eq "" || [string first [string index $line 0] "\[*@#^-"] >= 0} continue
  lappend names $line
}
close $f
set bad 0
if {[llength $names] == 0} { puts $out "no signals listed"; incr bad }
if {$we <= $ws} { puts $out "empty window"; incr bad }
foreach full $names {
  # GTKWave finds a vector by its name without the bit range, and a "[" in the text it prints
  # is taken as a command: both use the bare name.
  regsub {\[[0-9]+:[0-9]+\]$} $full "" n
  set all [gtkwave::signalChangeList $n -start_time 0 -max 2]
  if {[llength $all] == 0} { puts $out "UNRESOLVED $n"; incr bad; continue }
  set ch [gtkwave::signalChangeList $n -start_time $ws -end_time $we -max 1000]
  set inside 0
  foreach {t v} $ch { if {$t > $ws && $t <= $we} { incr inside } }
  if {$inside == 0} { puts $out "NO CHANGE IN WINDOW $n"; incr bad } else { puts $out "ok $n $inside changes" }
}
if {$bad} { puts $out "FAIL $bad" } else { puts $out "PASS" }
close $out
gtkwave::/File/Quit
