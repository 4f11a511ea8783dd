# gdb against the running simulator (sim/gdb, README "Debugging with gdb"): ctest -L gdb.
# Each test starts testbed-board or testbed with --gdb on a port derived from its name, runs
# gdb-multiarch -batch (or a raw RSP client) and checks the output; tests/gdb/gdb_test.py.
find_program(TESTBED_GDB_MULTIARCH gdb-multiarch)
# gdb_test(NAME SCENARIO [DMA 1994|dma-anywhere] [LABELS ...] [TIMEOUT s]): one run of gdb_test.py.
function(gdb_test name scenario)
  cmake_parse_arguments(G "" "DMA;TIMEOUT" "LABELS" ${ARGN})
  set(_dma)
  if(G_DMA)
    set(_dma --dma ${G_DMA})
  endif()
  if(NOT G_LABELS)
    set(G_LABELS gdb)
  endif()
  if(NOT G_TIMEOUT)
    set(G_TIMEOUT 300)
  endif()
  add_test(NAME ${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py ${scenario} ${_dma}
            --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
  set_tests_properties(${name} PROPERTIES LABELS "${G_LABELS}" TIMEOUT ${G_TIMEOUT})
endfunction()

# gdb_test_both_ni(NAME SCENARIO ...): the same in both NI modes, NAME and NAME_dma_anywhere.
function(gdb_test_both_ni name scenario)
  gdb_test(${name} ${scenario} DMA 1994 ${ARGN})
  gdb_test(${name}_dma_anywhere ${scenario} DMA dma-anywhere ${ARGN})
endfunction()

if(TESTBED_GDB_MULTIARCH)
  foreach(scenario break_registers_memory watchpoint stepi all_stop bad_input tos_threads pc_in_hole)
    gdb_test(gdb_${scenario} ${scenario})
  endforeach()
  # `next` over printf, a channel send and a channel receive of a TOS thread (issue #62), in both
  # NI modes: kernel entries are stepped through, the step ends in the same thread.
  gdb_test_both_ni(gdb_next_over_calls_lands_on_the_next_line next_over_calls)
  # The same program stopped at its migrate line: `next` over the move lands on the next line,
  # on the other board, in the same thread; a `stepi` over the trap of the move home lands on
  # the instruction after it, back home (issue #62).
  gdb_test_both_ni(gdb_next_follows_a_thread_across_its_migrations next_over_migrate)
  # Reverse execution (issue #63): one board (reverse-stepi, -step, -finish, -continue to a
  # watchpoint), the whole machine in both NI modes (every board back to the same instant, every
  # output as if nothing had gone back), two gdbs on two boards (earth's holds main after a
  # receive, air's watches what the sender stored there and reverse-continues to its stores),
  # TOS threads (label reverse).
  gdb_test(gdb_reverse_steps_and_watchpoints_on_one_board reverse_board LABELS gdb reverse)
  gdb_test_both_ni(gdb_reverse_takes_the_whole_machine_back_and_writes_nothing_twice reverse_machine
                   LABELS gdb reverse TIMEOUT 400)
  gdb_test_both_ni(gdb_reverse_continue_finds_the_store_on_another_board reverse_across_boards LABELS gdb reverse)
  gdb_test(gdb_reverse_among_tos_threads reverse_threads LABELS gdb reverse)
  # A snapshot asked from gdb (`monitor snapshot FILE`), restored with and without gdb: both runs
  # end as the uninterrupted one (issue #63; label snapshot too).
  gdb_test_both_ni(gdb_snapshot_from_gdb_restores_with_and_without_gdb snapshot_from_gdb LABELS gdb snapshot
                   TIMEOUT 400)
  # A guest's or a debugger's action never aborts the simulator (issue #30).
  set_tests_properties(gdb_pc_in_hole PROPERTIES LABELS "gdb;security;hardening")
else()
  message(STATUS "gdb-multiarch not found: the gdb tests are left out (scripts/setup-debian.sh installs it)")
endif()

# tos_threads: TOS on the six boards, earth runs tests/tos/gdb_five_threads.c (five threads).
set(_gdb_rc ${CMAKE_CURRENT_BINARY_DIR}/tos-rc/gdb_five_threads.rc)
file(WRITE ${_gdb_rc} "# boot script of the gdb test tos_threads\nearth gdb_five_threads\n")
tos_filestore(NAME tos-gdb_five_threads FILES gdb_five_threads RC ${_gdb_rc})

# next_over_calls: earth runs tests/tos/gdb_next_over_calls.c (main and a partner thread).
set(_gdb_rc ${CMAKE_CURRENT_BINARY_DIR}/tos-rc/gdb_next_over_calls.rc)
file(WRITE ${_gdb_rc} "# boot script of the gdb test next_over_calls\nearth gdb_next_over_calls\n")
tos_filestore(NAME tos-gdb_next_over_calls FILES gdb_next_over_calls RC ${_gdb_rc})

# reverse_across_boards: earth runs tests/tos/gdb_cross_board.c (main on earth, its partner on air).
set(_gdb_rc ${CMAKE_CURRENT_BINARY_DIR}/tos-rc/gdb_cross_board.rc)
file(WRITE ${_gdb_rc} "# boot script of the gdb test reverse_across_boards\nearth gdb_cross_board\n")
tos_filestore(NAME tos-gdb_cross_board FILES gdb_cross_board RC ${_gdb_rc})
