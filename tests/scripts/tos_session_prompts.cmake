# A typed session whose lines wait for the shell's prompt or for a program's "spinning" line
# (so that Ctrl-C and Ctrl-Z reach a program while it runs), ending by itself (no shutdown):
# testbed must exit 0 and its output match REGEX (stdout and stderr; ERR_REGEX over stderr).
#   -DTESTBED=<exe> -DOUT=<dir> -DFILESTORE=<name> -DSCRIPT=<session> -DREGEX=<regex>
#   [-DERR_REGEX=<regex>] [-DPLANT_STALE=1: results of an "earlier run" left in OUT first; after
#    the run none of the host's result names may hold what the guest or the old run wrote]
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
if(PLANT_STALE)
  file(WRITE ${OUT}/monitor.trace.txt "stale trace of an earlier run\n")
  file(WRITE ${OUT}/events.1.vcd "stale\n")
  file(WRITE ${OUT}/monitor.raw "stale raw stream of an earlier run\n")
endif()
set(prompts "run.input_prompt=\"$ |[console: master]\\r\\n|spinner: spinning\\r\\n\"")
execute_process(COMMAND ${TESTBED} --set board.filestore=${FILESTORE} --input ${SCRIPT} --console master
                        --stop-ms 120000 --set ${prompts} --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "testbed exited with ${rc}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'")
endif()
if(ERR_REGEX AND NOT "${err}" MATCHES "${ERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${ERR_REGEX}'")
endif()
if(PLANT_STALE)
  foreach(f monitor.trace.txt events.1.vcd)
    if(EXISTS ${OUT}/${f})
      message(FATAL_ERROR "${OUT}/${f} exists: a stale or forged result was left where the host's goes")
    endif()
  endforeach()
  file(READ ${OUT}/master.console.log log)
  if(log MATCHES "^forged")
    message(FATAL_ERROR "${OUT}/master.console.log holds what the guest sent")
  endif()
  file(READ ${OUT}/mine.txt mine)
  if(NOT mine MATCHES "a result of mine")
    message(FATAL_ERROR "the ordinary download mine.txt did not land")
  endif()
  message("no stale or forged file stands where the host's results go; mine.txt landed")
endif()
