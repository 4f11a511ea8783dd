# The monitor interface RTL (rtl/monitor): lockstep tests against the C++ reference of
# MONITOR_SPEC.md and the TLM model's engine (hw/monitor), the coverage/waveform regression and
# the benchmark (executables in rtl/tb). Label: rtl.
testbed_gtest(test_rtl_monitor SOURCES test_rtl_monitor.cpp
  LIBS rtl_monitor_tb testbed_monitor_engine verilator_system_headers LABELS rtl)
target_include_directories(test_rtl_monitor PRIVATE ${CMAKE_SOURCE_DIR}/rtl/tb)

set(_rtl_out ${CMAKE_BINARY_DIR}/rtl-monitor)
file(MAKE_DIRECTORY ${_rtl_out})
add_test(NAME rtl_monitor_coverage_regression
  COMMAND rtl-monitor-regress --coverage ${_rtl_out}/coverage.dat --fst ${_rtl_out}/monitor_rtl.fst)
set_tests_properties(rtl_monitor_coverage_regression PROPERTIES LABELS "rtl;filter"
  PASS_REGULAR_EXPRESSION "rtl-monitor-regress: OK" FIXTURES_SETUP rtl_monitor_cov)
# Annotated sources and the per-point report from the regression's coverage.
add_test(NAME rtl_monitor_coverage_report
  COMMAND verilator_coverage --annotate ${_rtl_out}/coverage-annotated --annotate-min 1
          --write-info ${_rtl_out}/coverage.info ${_rtl_out}/coverage.dat)
set_tests_properties(rtl_monitor_coverage_report PROPERTIES LABELS rtl FIXTURES_REQUIRED rtl_monitor_cov)

# The benchmark runs (briefly) and reports its rate; the full run is build/bin/rtl-monitor-bench.
add_test(NAME rtl_monitor_bench_runs COMMAND rtl-monitor-bench 200000)
set_tests_properties(rtl_monitor_bench_runs PROPERTIES LABELS rtl PASS_REGULAR_EXPRESSION "cycles/s [0-9]+")

# The pin-level RTL behind the TLM-to-pin adapter against the TLM monitor, bus cycle by bus cycle.
testbed_gtest(test_rtl_cosim SOURCES test_rtl_cosim.cpp
  LIBS rtl_monitor_sc testbed_monitor verilator_system_headers LABELS rtl)
target_include_directories(test_rtl_cosim PRIVATE ${CMAKE_SOURCE_DIR}/rtl/tb)
