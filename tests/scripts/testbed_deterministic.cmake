# Runs the testbed twice and requires bit-identical results (cmake -P):
#   -DTESTBED=<exe> -DOUT=<dir> [-DARGS_A="a|b"] [-DARGS_B="c|d"] [-DFILES="f1|f2"] [-DEND=1]
# END=1: the report from "----- end of run" on (every board's instructions, cycles, commits and
# rollbacks, Centrenet's and the monitor's counts) must be the same too, host timings aside.
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
  string(FIND "${out}" "----- end of run" at)
  string(SUBSTRING "${out}" ${at} -1 end_${run})
  string(REPLACE "${OUT}/${run}" "OUT" end_${run} "${end_${run}}")
  string(REGEX REPLACE "(^|\n)(host|threads):[^\n]*" "" end_${run} "${end_${run}}")
endforeach()
if(END)
  if(NOT end_a STREQUAL end_b)
    message(FATAL_ERROR "the runs' reports differ from '----- end of run' on:\n--- a\n${end_a}\n--- b\n${end_b}")
  endif()
  message("the end-of-run reports: identical")
endif()
foreach(f ${files})
  file(SHA256 ${OUT}/a/${f} ha)
  file(SHA256 ${OUT}/b/${f} hb)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "${f} differs between the two runs")
  endif()
  message("${f}: identical (${ha})")
endforeach()
