# Board tests (label "board"): device-level gtests over TLM without a CPU; once the 68010 core is
# a library, the firmware-driven board tests and the testbed-board executable's error handling.
#
# SystemC test binaries enter through SystemC's main() -> sc_main() (board_test_main.cpp), which
# runs the GoogleTest cases, so they link GTest::gtest rather than gtest_main.
function(board_gtest name)
  add_executable(${name} ${ARGN} board_test_main.cpp)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE GTest::gtest testbed_board testbed_warnings)
  gtest_discover_tests(${name} PROPERTIES LABELS board DISCOVERY_TIMEOUT 60)
endfunction()

board_gtest(test_mmu test_mmu.cpp)
board_gtest(test_timer_intc test_timer_intc.cpp)
board_gtest(test_serial test_serial.cpp)
