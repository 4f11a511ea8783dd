# The SMI's event filter (issue #37): TLM engine paths, RTL against TLM in lockstep, lint, the
# decoder's filter markers, the overflow experiment with a filter. Label: filter.
testbed_gtest(test_smi_filter SOURCES test_smi_filter.cpp LIBS testbed_monitor_engine LABELS filter)
testbed_gtest(test_rtl_filter SOURCES test_rtl_filter.cpp
  LIBS rtl_monitor_tb testbed_monitor_engine verilator_system_headers LABELS "filter;rtl")
target_include_directories(test_rtl_filter PRIVATE ${CMAKE_SOURCE_DIR}/rtl/tb)
# The whole RTL lints clean with the filter in it.
add_test(NAME rtl_filter_lint_clean
  COMMAND verilator --lint-only -Wall -I${CMAKE_SOURCE_DIR}/rtl ${RTL_MONITOR_SOURCES} --top-module monitor_top)
set_tests_properties(rtl_filter_lint_clean PROPERTIES LABELS "filter;rtl")
# Section 3.3.7's overflow experiment with filters and Table 8's CPU-TIME with a filter, reduced:
# fails unless a filter at least doubles the loss-free event rate with nothing kept lost, and
# CPU-TIME through a cpu-class filter is exact and affordable at the report's master rate.
add_test(NAME experiment_filter_overflow_reduced COMMAND monitor-filter-experiment --size reduced)
set_tests_properties(experiment_filter_overflow_reduced PROPERTIES LABELS "filter;experiments" TIMEOUT 600)
# The decoder reads filter markers as markers (not events) and lists the changes.
testbed_gtest(test_monitor_decoder_filter SOURCES test_monitor_decoder_filter.cpp LIBS testbed_monitor_decoder LABELS filter)
# Section 3.3.7's overflow on the FULL machine (TOS on six boards, the master's 3.3.7 logger
# reading the MMI) with filters the master's shell programs and changes during each run
# (sw/analysis/testbed_analysis/filter_overflow.py), reduced: fails unless every word is
# accounted for (trace + lost = passed per board; the SMIs' FILTERED counters as the master read
# them = the probe's dropped words), the unfiltered machine loses events at a rate where each
# filter loses nothing it passes, and each filter keeps more of its question's words per second.
add_test(NAME experiment_filter_overflow_machine_reduced
  COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment filter-overflow --size reduced --quiet
          --out ${CMAKE_BINARY_DIR}/test-out/experiments)
set_tests_properties(experiment_filter_overflow_machine_reduced PROPERTIES LABELS "filter;experiments" TIMEOUT 600)
# Table 8's CPU-TIME on the full machine with the 3.3.7 logger, reduced: fails unless without a
# filter the master loses CPU-TIME events (or pairs break) and with `filter BOARD only cpu` nothing
# is lost, every USER_ON/USER_OFF pair is whole and every dropped word is counted.
add_test(NAME experiment_filter_cpu_time_machine_reduced
  COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment filter-metrics --size reduced --quiet
          --out ${CMAKE_BINARY_DIR}/test-out/experiments)
set_tests_properties(experiment_filter_cpu_time_machine_reduced PROPERTIES LABELS "filter;experiments" TIMEOUT 600)
