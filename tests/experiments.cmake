# Seed 000 section 3 reproduced (label "experiments", issue 16): each experiment of
# build/bin/testbed-experiment at its reduced size, end to end (simulation, trace, analysis,
# results.md). The command exits non-zero when a check of the analysis fails: local service
# time linear in length (r^2 > 0.9) with steps every 1024 bytes; remote slower than local at
# every size; msg flights spread wider than focus and rtr flights; overflow finds a finite
# maximum rate (no loss below, loss above); every communication in a trace matched by the FSMs.
# The full sizes: `build/bin/testbed-experiment all` (sw/analysis/README.md gives the time).
set(_exp_out ${CMAKE_BINARY_DIR}/test-out/experiments)
foreach(e local remote migration busy multi-phase overflow)
  add_test(NAME experiment_${e}_reduced
    COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment ${e} --size reduced --quiet --out ${_exp_out})
  set_tests_properties(experiment_${e}_reduced PROPERTIES LABELS experiments TIMEOUT 300)
endforeach()
# Section 4.3: sequential, random and balanced runs of the synthetic programs, adder and wator
# (reduced sizes); the checks fail if a run does not finish or gets a wrong result, balancing is
# not faster than sequential for compute-bound threads, the balancer's log does not parse, a
# request came sooner than the migration period, a parent moved, or the compute-bound ready
# queues never came within 2 of the mean.
foreach(e balance-synthetic balance-adder balance-wator)
  add_test(NAME experiment_${e}_reduced
    COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment ${e} --size reduced --quiet --out ${_exp_out})
  set_tests_properties(experiment_${e}_reduced PROPERTIES LABELS "experiments;balance" TIMEOUT 600)
endforeach()
# Section 4.1's load metrics: multi-phase with no metric class on, then with each of threads, rq,
# cpu, links on; fails if a run lacks its phase marks or a metric does not show the phases
# (RQ-LENGTH and CPU-TIME higher in compute phases 1-4, REM-COMM higher in remote phases).
add_test(NAME experiment_metrics_reduced
  COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment metrics --size reduced --quiet --out ${_exp_out})
set_tests_properties(experiment_metrics_reduced PROPERTIES LABELS "experiments;balance" TIMEOUT 300)
# Bad input: a truncated or foreign trace is refused with what is wrong and where, non-zero exit.
add_test(NAME analysis_refuses_bad_traces
  COMMAND ${TESTBED_ANALYSIS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/analysis_bad_input.py
          ${CMAKE_BINARY_DIR}/bin/testbed-analyse ${CMAKE_BINARY_DIR}/test-out/analysis-bad-input)
set_tests_properties(analysis_refuses_bad_traces PROPERTIES LABELS experiments)
# The checks above can fail: fed data without the shape, each says so.
add_test(NAME analysis_checks_can_fail
  COMMAND ${TESTBED_ANALYSIS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/analysis_checks_can_fail.py
          ${CMAKE_SOURCE_DIR}/sw/analysis ${CMAKE_BINARY_DIR}/test-out/analysis-checks)
set_tests_properties(analysis_checks_can_fail PROPERTIES LABELS experiments)
# A figure drawn twice from the same data is the same file, PNG and SVG (no date, fixed ids): a
# regenerated report changes in git only where its run did.
add_test(NAME analysis_figures_redraw_identically
  COMMAND ${TESTBED_ANALYSIS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/figures_redraw_identically.py
          ${CMAKE_SOURCE_DIR}/sw/analysis ${CMAKE_BINARY_DIR}/test-out/figures-redraw)
set_tests_properties(analysis_figures_redraw_identically PROPERTIES LABELS "experiments;docs")

# local's page steps are read from the time most of each size's uninterrupted sends agree on
# (stats.per_size_majority): a local send's service is bimodal (the sender first or the receiver),
# so neither a size's minimum nor the median of an even split is a time its sends took; a size
# without a majority is left out. The reduced size sends four of each size (the full size ten).
# (overflow, fixed: its trials had the phase and profile classes on, whose main-loop events, about
# 450 a second from each idle slave, are more than the logger sustains from five slaves before any
# send_event; the trials now emit what the experimenter sets, as the report's overflow did.)
# The 1994 profile's migration (slower memory and NI), analysed as the default's, with its own
# check that every idle slave packs the thread alike: on the kernel that marked a process routed
# for any receiver's focus, water packed in 14.4 ms against air's 2.5 and the check failed
# (tos_focus_carried_packs_alike tests that cause on its own).
add_test(NAME experiment_migration_1994_reduced
  COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment migration --profile 1994 --size reduced --quiet
          --out ${CMAKE_BINARY_DIR}/test-out/experiments-1994)
set_tests_properties(experiment_migration_1994_reduced PROPERTIES LABELS experiments TIMEOUT 300)
