# Monitoring hardware and its host decoder (label: monitor).
testbed_gtest(test_monitor_reference SOURCES test_monitor_reference.cpp LIBS testbed_monitor LABELS monitor)
