# Runs the testbed twice with the same image, config and seed and requires bit-identical traces
# (cmake -P): -DTESTBED=<exe> -DOUT=<dir> [-DARGS="a|b"]
string(REPLACE "|" ";" extra "${ARGS}")
foreach(run a b)
  file(REMOVE_RECURSE ${OUT}/${run})
  execute_process(COMMAND ${TESTBED} --out ${OUT}/${run} --console none ${extra}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
foreach(f monitor.raw monitor.trace.txt monitor.trace.bin events.1.vcd master.console.log earth.console.log)
  file(SHA256 ${OUT}/a/${f} ha)
  file(SHA256 ${OUT}/b/${f} hb)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "${f} differs between two identical runs")
  endif()
  message("${f}: identical (${ha})")
endforeach()
