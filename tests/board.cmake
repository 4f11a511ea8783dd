# Board tests (label "board"): device-level gtests over TLM without a CPU, tests with a Board,
# the firmware-driven board tests and the testbed-board executable's error handling.
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
# Its tests each elaborate a model (one refuses elaboration): a process each.
testbed_gtest(test_irq_line PER_PROCESS SOURCES test_irq_line.cpp LIBS testbed_board LABELS board)
board_gtest(test_cycle_profile test_cycle_profile.cpp)

# Tests with a Board (and hand-assembled guest code, tests/board/guest_code.h).
board_gtest(test_board_dma test_board_dma.cpp)
board_gtest(test_board_irq test_board_irq.cpp)
board_gtest(test_board_sync test_board_sync.cpp)
board_gtest(test_board_idle test_board_idle.cpp)
board_gtest(test_board_run_ahead test_board_run_ahead.cpp)

# board_run_test(NAME EXPECT_RC rc EXPECT_REGEX re [extra -D definitions...] COMMAND cmd args...)
function(board_run_test name)
  cmake_parse_arguments(T "" "EXPECT_RC;EXPECT_REGEX" "DEFS;COMMAND" ${ARGN})
  string(REPLACE ";" "|" cmd "${T_COMMAND}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCMD=${cmd}" -DEXPECT_RC=${T_EXPECT_RC}
           "-DEXPECT_REGEX=${T_EXPECT_REGEX}" ${T_DEFS} -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)
  set_tests_properties(${name} PROPERTIES LABELS board)
endfunction()

set(_fw ${TESTBED_FIRMWARE_DIR})
set(_fs ${CMAKE_CURRENT_BINARY_DIR}/board_fs)
# The test firmware: every device from the CPU's side, the console captured here, a page fault
# fixed by the handler and rerun, timer preemption, STOP, and the file service both ways.
board_run_test(board_firmware_exercises_every_device
  EXPECT_RC 0 EXPECT_REGEX "board-test: PASS.*EXIT 1 at"
  DEFS -DSETUP_DIR=${_fs} -DSETUP_FILE=${_fs}/board-test-input.txt "-DSETUP_TEXT=uploaded from the host\n"
       -DCHECK_FILE=${_fs}/board-test-output.txt "-DCHECK_REGEX=^board-test result: PASS\n$"
  COMMAND $<TARGET_FILE:testbed-board> --config ${CMAKE_SOURCE_DIR}/sim/configs/board.toml
          --link files:${_fs},${_fs} ${_fw}/board-test.elf)
# The same with the fast path off (every access over b_transport) and a 1 us quantum.
board_run_test(board_firmware_without_fast_path
  EXPECT_RC 0 EXPECT_REGEX "board-test: PASS"
  COMMAND $<TARGET_FILE:testbed-board> --no-fast-path --quantum-us 1 ${_fw}/board-test.elf)
# A 1 ms quantum: the timer interrupt is still taken within a few instructions of its expiry
# (the CPU stops its chunk at the timer's event horizon).
board_run_test(board_firmware_interrupt_latency_independent_of_quantum
  EXPECT_RC 0 EXPECT_REGEX "ok   the timer interrupt is taken within.*board-test: PASS"
  COMMAND $<TARGET_FILE:testbed-board> --quantum-us 1000 ${_fw}/board-test.elf)
board_run_test(board_vcd_records_bus_cycles
  EXPECT_RC 4 EXPECT_REGEX "no SIMCTL EXIT within --max-cycles 20000"
  DEFS -DCHECK_FILE=${CMAKE_CURRENT_BINARY_DIR}/board.vcd "-DCHECK_REGEX=enddefinitions.*b000000000000000000000100 a.*1s.*b110 f"
  COMMAND $<TARGET_FILE:testbed-board> --console none --max-cycles 20000
          --vcd ${CMAKE_CURRENT_BINARY_DIR}/board.vcd ${_fw}/board-test.elf)
board_run_test(board_bad_image_is_refused
  EXPECT_RC 2 EXPECT_REGEX "testbed-board: error: .*board.cmake: not an ELF file"
  COMMAND $<TARGET_FILE:testbed-board> ${CMAKE_CURRENT_SOURCE_DIR}/board.cmake)
board_run_test(board_missing_image_is_refused
  EXPECT_RC 2 EXPECT_REGEX "error: .*no_such.elf: cannot open image: No such file or directory"
  COMMAND $<TARGET_FILE:testbed-board> ${CMAKE_CURRENT_BINARY_DIR}/no_such.elf)
# The configuration file is TOML through sw/config/config.h: a wrong type, a value out of
# range (also from --set), a misspelt key and a syntax error are each refused naming file:line.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/bad_board_type.toml "# a bad value on line 3\n[board]\nram_kb = \"lots\"\n")
board_run_test(board_bad_config_is_refused
  EXPECT_RC 2 EXPECT_REGEX "error: .*bad_board_type.toml:3: board.ram_kb: expected an integer"
  COMMAND $<TARGET_FILE:testbed-board> --config ${CMAKE_CURRENT_BINARY_DIR}/bad_board_type.toml ${_fw}/board-test.elf)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/bad_board_range.toml "[cpu]\nclock_mhz = 10.0\nquantum_us = 0.0\n")
board_run_test(board_config_out_of_range_is_refused
  EXPECT_RC 2 EXPECT_REGEX "error: .*bad_board_range.toml:3: cpu.quantum_us = 0 is out of range"
  COMMAND $<TARGET_FILE:testbed-board> --config ${CMAKE_CURRENT_BINARY_DIR}/bad_board_range.toml ${_fw}/board-test.elf)
board_run_test(board_config_override_out_of_range_is_refused
  EXPECT_RC 2 EXPECT_REGEX "error: .*board.id = 16 is out of range"
  COMMAND $<TARGET_FILE:testbed-board> --config ${CMAKE_SOURCE_DIR}/sim/configs/board.toml --set board.id=16
          ${_fw}/board-test.elf)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/bad_board_key.toml "[board]\nram_mb = 4\n")
board_run_test(board_config_unknown_key_is_refused
  EXPECT_RC 2 EXPECT_REGEX "error: .*bad_board_key.toml: unknown setting\\(s\\): board.ram_mb"
  COMMAND $<TARGET_FILE:testbed-board> --config ${CMAKE_CURRENT_BINARY_DIR}/bad_board_key.toml ${_fw}/board-test.elf)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/bad_board_syntax.toml "[board]\n\nid = = 1\n")
board_run_test(board_config_syntax_error_is_refused
  EXPECT_RC 2 EXPECT_REGEX "error: .*bad_board_syntax.toml:3:"
  COMMAND $<TARGET_FILE:testbed-board> --config ${CMAKE_CURRENT_BINARY_DIR}/bad_board_syntax.toml ${_fw}/board-test.elf)
# Settings from the file reach the board: 8 MB of RAM from --set, seen by the firmware's
# BOARDID, and the command line winning over the file (the console to a file).
board_run_test(board_config_settings_reach_the_board
  EXPECT_RC 0 EXPECT_REGEX "EXIT 1 at"
  DEFS -DCHECK_FILE=${CMAKE_CURRENT_BINARY_DIR}/board_console.txt "-DCHECK_REGEX=board 0 .master., RAM 8192 KB.*board-test: PASS"
  COMMAND $<TARGET_FILE:testbed-board> --config ${CMAKE_SOURCE_DIR}/sim/configs/board.toml --set board.ram_kb=8192
          --console file:${CMAKE_CURRENT_BINARY_DIR}/board_console.txt ${_fw}/board-test.elf)
board_run_test(board_bad_option_is_refused
  EXPECT_RC 2 EXPECT_REGEX "error: --clock-mhz: clock-mhz = '0' is not a number in"
  COMMAND $<TARGET_FILE:testbed-board> --clock-mhz 0 ${_fw}/board-test.elf)
board_run_test(board_image_outside_ram_is_refused
  EXPECT_RC 2 EXPECT_REGEX "lies outside the board's loadable memory: RAM"
  COMMAND $<TARGET_FILE:testbed-board> --ram-mb 0.015625 ${_fw}/board-test.elf)
# The reference workload on the board: the known instruction count and checksum (68000 code).
board_run_test(board_bench_runs_reference_workload
  EXPECT_RC 0 EXPECT_REGEX "instructions 41819625.*checksum     0xA622340C.*MIPS [0-9.]+"
  COMMAND $<TARGET_FILE:board-bench> ${_fw}/bench-workload-r200.elf --quantum-us 100)
# machine-bench at a tiny size: it runs the workload on two boards and on one alone and prints
# every figure (a benchmark, not a timing check: the figures are not judged).
board_run_test(machine_bench_prints_its_figures
  EXPECT_RC 0 EXPECT_REGEX "boards +instructions +MIPS +real-time +CPU-s/board/s +vs-alone +setup-s +RSS-MiB.*\n +1 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +1.00 +[0-9.]+ +[0-9.]+ +[0-9.]+\n +2 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\n"
  COMMAND $<TARGET_FILE:machine-bench> ${_fw}/bench-workload-r4000.elf --sizes 2 --sim-ms 2)
add_dependencies(testbed-board firmware)
