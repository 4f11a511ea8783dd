# Machine snapshots (label "snapshot"; README "Snapshots"): a run saved at a simulated time and
# restored in a new process gives the rest of the uninterrupted run (exit status, final counts,
# console bytes); taking the snapshot changes nothing; corrupted, cut short, foreign files and
# snapshots of another build or another machine are refused, each with its reason.
set(_fw ${TESTBED_FIRMWARE_DIR})
add_test(NAME snapshot_of_a_board_restores_the_rest_of_its_run
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/snapshot_roundtrip.py --tool testbed-board
          --ms 1 --ms 100 --refusals --other-image ${_fw}/gdb-target.elf
          -- $<TARGET_FILE:testbed-board> ${_fw}/board-test.elf)
add_test(NAME snapshot_of_a_decoupled_board_restores_the_rest_of_its_run
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/snapshot_roundtrip.py --tool testbed-board
          --ms 50 -- $<TARGET_FILE:testbed-board> --set cpu.exact=false ${_fw}/board-test.elf)
set_tests_properties(snapshot_of_a_board_restores_the_rest_of_its_run
  snapshot_of_a_decoupled_board_restores_the_rest_of_its_run PROPERTIES LABELS "snapshot;board" TIMEOUT 300)
