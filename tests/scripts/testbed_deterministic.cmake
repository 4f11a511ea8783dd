# Runs the testbed twice and requires bit-identical results (cmake -P):
#   -DTESTBED=<exe> -DOUT=<dir> [-DARGS_A="a|b"] [-DARGS_B="c|d"] [-DFILES="f1|f2"]
# With the same arguments for both runs it proves determinism (same image, config and seed give
# identical traces); with different ones, that two models of the same hardware agree.
string(REPLACE "|" ";" args_a "${ARGS_A}")
string(REPLACE "|" ";" args_b "${ARGS_B}")
if(NOT FILES)
  set(FILES "monitor.raw|monitor.trace.txt|monitor.trace.bin|events.1.vcd|master.console.log|earth.console.log")
endif()
string(REPLACE "|" ";" files "${FILES}")
foreach(run a b)
  file(REMOVE_RECURSE ${OUT}/${run})
  execute_process(COMMAND ${TESTBED} --out ${OUT}/${run} --console none ${args_${run}}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
foreach(f ${files})
  file(SHA256 ${OUT}/a/${f} ha)
  file(SHA256 ${OUT}/b/${f} hb)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "${f} differs between the two runs")
  endif()
  message("${f}: identical (${ha})")
endforeach()
