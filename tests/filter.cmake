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
