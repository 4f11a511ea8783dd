# Monitoring hardware and its host decoder (label: monitor).
testbed_gtest(test_monitor_reference SOURCES test_monitor_reference.cpp LIBS testbed_monitor_engine LABELS monitor)
testbed_gtest(test_smi_overflow SOURCES test_smi_overflow.cpp LIBS testbed_monitor_engine LABELS monitor)
testbed_gtest(test_mmi_poller SOURCES test_mmi_poller.cpp LIBS testbed_monitor_engine LABELS monitor)
testbed_gtest(test_monitor_decoder SOURCES test_monitor_decoder.cpp LIBS testbed_monitor_engine testbed_monitor_decoder LABELS monitor)
testbed_gtest(test_monitor_tlm SOURCES test_monitor_tlm.cpp LIBS testbed_monitor testbed_monitor_decoder LABELS monitor)
add_test(NAME monitor_bench_runs COMMAND monitor-bench 5)
set_tests_properties(monitor_bench_runs PROPERTIES LABELS monitor
  PASS_REGULAR_EXPRESSION "late accesses +0\n.*events/s [0-9]+")
