# Opens a save file in the real GTKWave on a virtual X server and runs check_gtkw.tcl: every
# signal it lists resolves and changes inside the window it opens on.
#   cmake -DGTKW=file.gtkw -DRESULT=out.txt [-DMAKE="cmd|arg|..."] -P check_gtkw.cmake
# MAKE0, MAKE (optional, '|'-separated) run first, in that order: the commands that write the
# dump and the save file.
foreach(m MAKE0 MAKE)
  if(${m})
    string(REPLACE "|" ";" make "${${m}}")
    execute_process(COMMAND ${make} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("${out}${err}")
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "making ${GTKW} failed (${rc})")
    endif()
  endif()
endforeach()
find_program(XVFB_RUN xvfb-run)
find_program(GTKWAVE gtkwave)
if(NOT XVFB_RUN OR NOT GTKWAVE)
  message(FATAL_ERROR "xvfb-run and gtkwave are needed (scripts/setup-debian.sh installs them)")
endif()
file(REMOVE ${RESULT})
set(ENV{TB_GTKW_RESULT} ${RESULT})
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 1400x900x24" ${GTKWAVE} -S ${CMAKE_CURRENT_LIST_DIR}/check_gtkw.tcl ${GTKW}
                TIMEOUT 120 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT EXISTS ${RESULT})
  message(FATAL_ERROR "GTKWave wrote no result (exit ${rc}):\n${out}${err}")
endif()
file(READ ${RESULT} res)
message("${res}")
if(NOT res MATCHES "\nPASS\n")
  message(FATAL_ERROR "${GTKW}: GTKWave's check failed")
endif()
