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

# The whole machine: the main job saved at three times (tests/scripts/snapshot_machine.py: the
# restored run ends as the uninterrupted one, its console logs continue A's, every other file
# equals A's); migration_stress in both NI modes (frames in flight, pages away, DMA) to 100 s of
# its 186 in the plain tree (the sanitized tree runs the main job's).
add_test(NAME snapshot_of_the_main_job_restores_the_rest_of_its_run
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/snapshot_machine.py --ms 2000 --ms 3500 --ms 5000
          -- $<TARGET_FILE:testbed> --firmware-dir ${_fw})
set_tests_properties(snapshot_of_the_main_job_restores_the_rest_of_its_run PROPERTIES LABELS "snapshot;testbed" TIMEOUT 600)
if(NOT TESTBED_SANITIZE)
  add_test(NAME snapshot_of_migration_stress_1994_restores_the_rest_of_its_run
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/snapshot_machine.py --ms 60000
            -- $<TARGET_FILE:testbed> --firmware-dir ${_fw} --set board.image=tos.elf
            --set board.filestore=tos-migration_stress_seed1.fs --set run.stop_ms=100000)
  # (At 30 s, within the plain tree's 100 s; README "Snapshots" names the points measured on whole
  # runs and what is not yet exact.)
  add_test(NAME snapshot_of_migration_stress_dma_anywhere_restores_the_rest_of_its_run
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/snapshot_machine.py --ms 30000
            -- $<TARGET_FILE:testbed> --firmware-dir ${_fw} --set board.image=tos.elf
            --set board.filestore=tos-migration_stress_seed3_dma_anywhere.fs --set run.stop_ms=100000
            --set centrenet.dma=dma-anywhere)
  set_tests_properties(snapshot_of_migration_stress_1994_restores_the_rest_of_its_run
    snapshot_of_migration_stress_dma_anywhere_restores_the_rest_of_its_run PROPERTIES LABELS "snapshot;testbed" TIMEOUT 900)
endif()
# A booted machine (README "Snapshots", booted): saved once when the session script's first prompt
# appears (--snapshot-at-prompt), then restored with each session test's script, every run ending as
# that script's whole run does; a script that begins otherwise, a run without one and a snapshot
# whose script had begun typing are refused.
set(_sessions ${CMAKE_CURRENT_SOURCE_DIR}/tos/sessions)
add_test(NAME snapshot_booted_machine_takes_other_session_scripts
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/snapshot_booted_sessions.py
          --boot ${_sessions}/shell_basics.txt --script ${_sessions}/console_switch_prompts.txt
          --script ${_sessions}/migration.txt --script ${_sessions}/files.txt --script ${_sessions}/shell_hostile.txt
          -- $<TARGET_FILE:testbed> --firmware-dir ${_fw} --set board.filestore=tos-sessions.fs --console master
          --stop-ms 120000)
set_tests_properties(snapshot_booted_machine_takes_other_session_scripts PROPERTIES LABELS "snapshot;tos" TIMEOUT 300)
# What cannot be saved yet is refused, naming it.
add_test(NAME snapshot_of_a_machine_with_bus_vcds_is_refused
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|--firmware-dir|${_fw}|sim/configs/demo.toml|--out|${CMAKE_CURRENT_BINARY_DIR}/snapshot-vcd|--set|trace.boards_vcd=${CMAKE_CURRENT_BINARY_DIR}/snapshot-vcd/bus|--snapshot|${CMAKE_CURRENT_BINARY_DIR}/snapshot-vcd.tbs|--snapshot-ms|5"
          -DSETUP_DIR=${CMAKE_CURRENT_BINARY_DIR}/snapshot-vcd
          -DEXPECT_RC=2 "-DEXPECT_REGEX=testbed: snapshot: bus VCDs \\(trace.boards_vcd\\) cannot be continued from a snapshot yet"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)
set_tests_properties(snapshot_of_a_machine_with_bus_vcds_is_refused PROPERTIES LABELS "snapshot;testbed" WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
