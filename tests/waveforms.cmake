# Waveforms a person can read (issue #20): the system view of waveforms/tbwaves.py and the save
# files, each opened in the real GTKWave under Xvfb (tests/waveforms/check_gtkw.tcl): every
# signal listed resolves and changes inside the window the file opens on. Label: waveforms.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(_wf ${CMAKE_CURRENT_SOURCE_DIR}/waveforms)
set(_wf_out ${CMAKE_BINARY_DIR}/test-out/waveforms)
set(_tbwaves ${CMAKE_SOURCE_DIR}/waveforms/tbwaves.py)
file(MAKE_DIRECTORY ${_wf_out})

# A TOS run recorded earlier (two boards with dgl +profile +phase, a file copied from earth to
# air over Centrenet): its decoded trace and the Centrenet VCD.
function(waveforms_check NAME GTKW MAKE)
  add_test(NAME ${NAME}
    COMMAND ${CMAKE_COMMAND} -DGTKW=${GTKW} -DRESULT=${_wf_out}/${NAME}.txt "-DMAKE=${MAKE}" "-DMAKE0=${ARGN}"
            -P ${_wf}/check_gtkw.cmake)
  set_tests_properties(${NAME} PROPERTIES LABELS waveforms TIMEOUT 300)
endfunction()

waveforms_check(waveforms_tos_view_opens_on_activity ${_wf_out}/tos.gtkw
  "${Python3_EXECUTABLE}|${_tbwaves}|--trace|${_wf}/sample/monitor.trace.txt|--centrenet|${_wf}/sample/centrenet.vcd|--net-types|${_wf}/sample/net_types.toml|--out|${_wf_out}/tos")
waveforms_check(waveforms_tos_view_fst ${_wf_out}/tos-fst.gtkw
  "${Python3_EXECUTABLE}|${_tbwaves}|--trace|${_wf}/sample/monitor.trace.txt|--centrenet|${_wf}/sample/centrenet.vcd|--net-types|${_wf}/sample/net_types.toml|--boards|earth,air|--around|MSG|--fst|--out|${_wf_out}/tos-fst")
waveforms_check(waveforms_tos_view_whole_run ${_wf_out}/tos-all.gtkw
  "${Python3_EXECUTABLE}|${_tbwaves}|--trace|${_wf}/sample/monitor.trace.txt|--window|all|--out|${_wf_out}/tos-all")

# --around sizes the window by the frame (at most 200 of its lengths: the 1 KB RF_DATA frame of
# the sample, 104 us, within 30 ms) and puts its marker on that frame, not the first in view.
add_test(NAME waveforms_around_opens_on_the_frame
  COMMAND ${Python3_EXECUTABLE} ${_wf}/around_opens_on_the_frame.py ${_tbwaves} ${_wf}/sample ${_wf_out}/around
          RF_DATA 30)
set_tests_properties(waveforms_around_opens_on_the_frame PROPERTIES LABELS waveforms TIMEOUT 120)

# The check itself: a save file that opens where nothing happens (the first microsecond) fails.
waveforms_check(waveforms_check_refuses_an_empty_window ${_wf_out}/empty.gtkw
  "${Python3_EXECUTABLE}|${_tbwaves}|--trace|${_wf}/sample/monitor.trace.txt|--window|0:0.001|--out|${_wf_out}/empty")
set_tests_properties(waveforms_check_refuses_an_empty_window PROPERTIES WILL_FAIL TRUE)

# waveforms/monitor_events.gtkw post-processed for one board's events VCD from monitor-decode
# (the run's raw MMI stream, tests/waveforms/sample/monitor.raw): it opens alone, on air's first
# events (wrap markers are not activity), with the event word, its name and the count.
waveforms_check(waveforms_events_gtkw_for_one_run ${_wf_out}/events-air.gtkw
  "${Python3_EXECUTABLE}|${_tbwaves}|--template|${CMAKE_SOURCE_DIR}/waveforms/monitor_events.gtkw|--dump|${_wf_out}/sample.board2.vcd|--out|${_wf_out}/events-air"
  "$<TARGET_FILE:monitor-decode>|${_wf}/sample/monitor.raw|--text|${_wf_out}/sample.trace.txt|--vcd-prefix|${_wf_out}/sample")

# waveforms/monitor.gtkw post-processed for the monitor model's dump of the same run, written as
# FST (trace.monitor_vcd=...fst, 1100 ms): SMI and MMI fills, monitoring-bus words, no OVERFLOW
# before the first event word.
waveforms_check(waveforms_monitor_gtkw_for_one_run ${_wf_out}/monitor.gtkw
  "${Python3_EXECUTABLE}|${_tbwaves}|--template|${CMAKE_SOURCE_DIR}/waveforms/monitor.gtkw|--dump|${_wf}/sample/monitor.fst|--out|${_wf_out}/monitor")
