# Centrenet: bus, fibre tree, network interface (label centrenet).
foreach(t test_centrenet_bus test_centrenet_tree test_network_interface)
  testbed_gtest(${t} PER_PROCESS SOURCES ${t}.cpp LIBS testbed_centrenet testbed_board LABELS centrenet)
  # Run by hand, as a user would: every test, each in a process of its own, all passing.
  add_test(NAME ${t}_by_hand COMMAND ${t})
  set_tests_properties(${t}_by_hand PROPERTIES LABELS "centrenet;hardening" FAIL_REGULAR_EXPRESSION "FAILED")
endforeach()

# The benchmark runs (briefly) and reports its figure in the agreed form.
add_test(NAME centrenet_bench_reports_frames_per_second COMMAND centrenet-bench 5)
set_tests_properties(centrenet_bench_reports_frames_per_second PROPERTIES LABELS centrenet
  PASS_REGULAR_EXPRESSION "frames/s [0-9]+")

# Snapshots of the network (label snapshot too): saved mid-traffic, restored in a new process,
# the rest of the run equals the uninterrupted one (each test forks its runs).
testbed_gtest(test_centrenet_snapshot PER_PROCESS SOURCES test_centrenet_snapshot.cpp
              LIBS testbed_centrenet testbed_board LABELS "snapshot;centrenet")
