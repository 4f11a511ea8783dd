# The SMI's event filter (issue #37): TLM engine paths, RTL against TLM in lockstep, lint, the
# decoder's filter markers, the overflow experiment with a filter. Label: filter.
testbed_gtest(test_smi_filter SOURCES test_smi_filter.cpp LIBS testbed_monitor_engine LABELS filter)
