# gdb against the running simulator (sim/gdb, README "Debugging with gdb"): ctest -L gdb.
# Each test starts testbed-board or testbed with --gdb on a port derived from its name, runs
# gdb-multiarch -batch (or a raw RSP client) and checks the output; tests/gdb/gdb_test.py.
find_program(TESTBED_GDB_MULTIARCH gdb-multiarch)
if(TESTBED_GDB_MULTIARCH)
  foreach(scenario break_registers_memory watchpoint stepi all_stop bad_input tos_threads pc_in_hole)
    add_test(NAME gdb_${scenario}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py ${scenario}
              --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
    set_tests_properties(gdb_${scenario} PROPERTIES LABELS gdb TIMEOUT 300)
  endforeach()
  # `next` over printf, a channel send and a channel receive of a TOS thread (issue #62), in both
  # NI modes: kernel entries are stepped through, the step ends in the same thread.
  foreach(_dma 1994 dma-anywhere)
    set(_n gdb_next_over_calls_lands_on_the_next_line)
    if(NOT _dma STREQUAL "1994")
      set(_n ${_n}_dma_anywhere)
    endif()
    add_test(NAME ${_n}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py next_over_calls --dma ${_dma}
              --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
    set_tests_properties(${_n} PROPERTIES LABELS gdb TIMEOUT 300)
    # The same program stopped at its migrate line: `next` over the move lands on the next line,
    # on the other board, in the same thread; a `stepi` over the trap of the move home lands on
    # the instruction after it, back home (issue #62).
    string(REPLACE next_over_calls_lands_on_the_next_line next_follows_a_thread_across_its_migrations _n ${_n})
    add_test(NAME ${_n}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py next_over_migrate --dma ${_dma}
              --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
    set_tests_properties(${_n} PROPERTIES LABELS gdb TIMEOUT 300)
  endforeach()
  # Reverse execution (issue #63): one board (reverse-stepi, -step, -finish, -continue to a
  # watchpoint), the whole machine in both NI modes (every board back to the same instant, every
  # output as if nothing had gone back), TOS threads (label reverse).
  add_test(NAME gdb_reverse_steps_and_watchpoints_on_one_board
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py reverse_board
            --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
  set_tests_properties(gdb_reverse_steps_and_watchpoints_on_one_board PROPERTIES LABELS "gdb;reverse" TIMEOUT 300)
  foreach(_dma 1994 dma-anywhere)
    set(_n gdb_reverse_takes_the_whole_machine_back_and_writes_nothing_twice)
    if(NOT _dma STREQUAL "1994")
      set(_n ${_n}_dma_anywhere)
    endif()
    add_test(NAME ${_n}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py reverse_machine --dma ${_dma}
              --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
    set_tests_properties(${_n} PROPERTIES LABELS "gdb;reverse" TIMEOUT 400)
  endforeach()
  # Two gdbs, two boards: earth's holds main after a receive, air's watches what the sender stored
  # there and reverse-continues to its stores, in both NI modes.
  foreach(_dma 1994 dma-anywhere)
    set(_n gdb_reverse_continue_finds_the_store_on_another_board)
    if(NOT _dma STREQUAL "1994")
      set(_n ${_n}_dma_anywhere)
    endif()
    add_test(NAME ${_n}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py reverse_across_boards --dma ${_dma}
              --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
    set_tests_properties(${_n} PROPERTIES LABELS "gdb;reverse" TIMEOUT 300)
  endforeach()
  add_test(NAME gdb_reverse_among_tos_threads
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py reverse_threads
            --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
  set_tests_properties(gdb_reverse_among_tos_threads PROPERTIES LABELS "gdb;reverse" TIMEOUT 300)
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
