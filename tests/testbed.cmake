# The whole machine, build/bin/testbed (labels testbed plus the issue each test proves).
set(_tb_out ${CMAKE_BINARY_DIR}/test-out/testbed)
set(_check ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)

# The main job: TOS boots on all six boards (the same image), each runs hello from its filestore,
# earth runs local with the comms events on and fire tosbench, the master's logger drains the MMI
# and, once the monitor is quiet, sends monitor.raw (and its own trace) over the LAN link
# (sim/configs/tos-default.rc); every board then ends normally. The host decodes the stream the
# master delivered (testbed fails unless decoded + lost == written) and finds the 34 messages
# (33 and the empty one that ends the receiver) of Figure 5's FSM in it.
add_test(NAME testbed_main_job_boots_tos_on_six_boards
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|--out|${_tb_out}/main|--console|earth"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=TOS on earth \\(board 1, slave\\).*hello from board 1.*dgl on board 1: comms.*local: 33 messages.*board master  finished.*board earth   finished.*board air     finished.*board fire    finished.*board water   finished.*board space   finished.*monitor:     1       136       0      136.*decoded 136 events.*board 1: local communication \\(Figure 5\\): 34 messages \\(TRAP7 TRAP70 TRAP7 TRAP72\\), 0 broken.*service of the first request  TRAP7 -> TRAP70     34.*service of the second request TRAP7 -> TRAP72     34.*total communication     first TRAP7 -> TRAP72     34"
          -DCHECK_FILE=${_tb_out}/main/fire.console.log "-DCHECK_REGEX=tosbench: thread switch"
          -DCHECK_FILE2=${_tb_out}/main/master.console.log "-DCHECK_REGEX2=logger: [0-9]+ words read in [0-9]+ ms, [0-9]+ kept, 0 dropped; 136 events.*board 1 \\(earth\\): 136 events.*sending monitor.raw.*sending logger.trace.txt.*logger: done"
          -P ${_check})
set_tests_properties(testbed_main_job_boots_tos_on_six_boards PROPERTIES LABELS "testbed;tos")
add_test(NAME testbed_tos_runs_are_deterministic
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/tos-determinism
          "-DFILES=master.console.log|earth.console.log|fire.console.log|space.console.log|monitor.raw|logger.trace.txt|monitor.trace.txt"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
set_tests_properties(testbed_tos_runs_are_deterministic PROPERTIES LABELS "testbed;tos")

# The bare-metal demo (sim/configs/demo.toml): six boards boot the demo, slaves ring 40 messages
# each over Centrenet writing 6 events a round (5 x 40 x 6 = 1200), the master drains the MMI and
# ships the raw stream over its LAN link; the host decodes it. testbed itself fails unless
# decoded + lost == written.
add_test(NAME testbed_default_run_decodes_every_event
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|${CMAKE_SOURCE_DIR}/sim/configs/demo.toml|--out|${_tb_out}/default|--console|none"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=decoded 1200 events"
          -DCHECK_FILE=${_tb_out}/default/monitor.trace.txt -DCHECK_REGEX=COMMR -P ${_check})
set_tests_properties(testbed_default_run_decodes_every_event PROPERTIES LABELS "testbed;monitor;centrenet")

add_test(NAME testbed_same_inputs_give_identical_traces
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/determinism
          "-DARGS_A=${CMAKE_SOURCE_DIR}/sim/configs/demo.toml" "-DARGS_B=${CMAKE_SOURCE_DIR}/sim/configs/demo.toml" -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
set_tests_properties(testbed_same_inputs_give_identical_traces PROPERTIES LABELS "testbed")

# The quantum trades host speed only: every device the CPUs touch catches up to the access's
# own time, so the traces with a 1 us and a 100 us quantum are identical. (The demo's boards
# never meet an interrupt in their future; TOS's do: the next two tests.)
add_test(NAME testbed_traces_do_not_depend_on_the_quantum
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/quantum
          "-DARGS_A=${CMAKE_SOURCE_DIR}/sim/configs/demo.toml|--set|cpu.quantum_us=1" "-DARGS_B=${CMAKE_SOURCE_DIR}/sim/configs/demo.toml|--set|cpu.quantum_us=100"
          "-DFILES=monitor.raw|monitor.trace.txt|master.console.log"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
set_tests_properties(testbed_traces_do_not_depend_on_the_quantum PROPERTIES LABELS "testbed")

# Exact mode (the default, issue #21): the main job -- TOS on six boards, Centrenet, timers,
# consoles, the monitor and the LAN link -- gives bit-identical outputs with the old fine
# quantum (1 us) and the default (1 ms): every console, the monitor's raw stream and decoded
# trace, the master's logger trace and the per-slave event VCDs.
add_test(NAME testbed_tos_traces_identical_at_1us_and_the_default_quantum
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/exact-main
          "-DARGS_A=--set|cpu.quantum_us=1" "-DARGS_B="
          "-DFILES=master.console.log|earth.console.log|air.console.log|fire.console.log|water.console.log|space.console.log|monitor.raw|monitor.trace.txt|monitor.trace.bin|logger.trace.txt|events.1.vcd|events.3.vcd"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
set_tests_properties(testbed_tos_traces_identical_at_1us_and_the_default_quantum PROPERTIES LABELS "testbed;tos")
# The same for DMA into board RAM (dma-anywhere): threads migrate with their pages.
add_test(NAME testbed_tos_dma_anywhere_identical_at_1us_and_the_default_quantum
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/exact-dma
          "-DARGS_A=--set|board.image=tos.elf|--set|board.filestore=tos-migration_keeps_data.fs|--set|centrenet.dma=dma-anywhere|--set|cpu.quantum_us=1"
          "-DARGS_B=--set|board.image=tos.elf|--set|board.filestore=tos-migration_keeps_data.fs|--set|centrenet.dma=dma-anywhere"
          "-DFILES=master.console.log|earth.console.log|air.console.log|fire.console.log|water.console.log|space.console.log"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
set_tests_properties(testbed_tos_dma_anywhere_identical_at_1us_and_the_default_quantum PROPERTIES LABELS "testbed;tos")

# SystemC runs the processes due at one same instant in an order of its own (a restored snapshot's
# differs from the first run's); building the boards last to first changes it from the start.
# Nothing the machine does may depend on it.
add_test(NAME testbed_outputs_do_not_depend_on_board_order
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/order-main
          "-DARGS_A=--set|run.board_order=reverse" "-DARGS_B=" -DEND=1
          "-DFILES=master.console.log|earth.console.log|air.console.log|fire.console.log|water.console.log|space.console.log|monitor.raw|monitor.trace.txt|monitor.trace.bin|logger.trace.txt|events.1.vcd|events.3.vcd"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
set_tests_properties(testbed_outputs_do_not_depend_on_board_order PROPERTIES LABELS "testbed;tos;snapshot")
# migration_stress's first 30 simulated seconds (threads and pages moving between every pair of
# boards) in each NI mode.
foreach(_ni 1994 dma-anywhere)
  set(_fs tos-migration_stress_seed1.fs)
  if(_ni STREQUAL "dma-anywhere")
    set(_fs tos-migration_stress_seed3_dma_anywhere.fs)
  endif()
  set(_args "--set|board.image=tos.elf|--set|board.filestore=${_fs}|--set|centrenet.dma=${_ni}|--set|run.stop_ms=30000")
  add_test(NAME testbed_migration_does_not_depend_on_board_order_${_ni}
    COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/order-${_ni}
            "-DARGS_A=${_args}|--set|run.board_order=reverse" "-DARGS_B=${_args}" -DEND=1
            "-DFILES=master.console.log|earth.console.log|air.console.log|fire.console.log|water.console.log|space.console.log"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
  set_tests_properties(testbed_migration_does_not_depend_on_board_order_${_ni} PROPERTIES LABELS "testbed;tos;snapshot")
endforeach()

# A tree of three nodes (node 0: the Testbed; nodes 1 and 2: sixteen boards each) from a file.
add_test(NAME testbed_tree_of_nodes_from_config
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|${CMAKE_SOURCE_DIR}/sim/configs/tree-3-nodes.toml|--out|${_tb_out}/tree|--console|none"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=38 board\\(s\\) on 3 Centrenet node\\(s\\).*decoded 1200 events" -P ${_check})
set_tests_properties(testbed_tree_of_nodes_from_config PROPERTIES LABELS "testbed;centrenet")

# Bad configurations stop before anything is built, naming the setting.
set(_bad_cpu "cpu.clock_mhz=0" "cpu.clock_mhz.*out of range")
set(_bad_key "cpu.clok_mhz=10" "unknown setting.*cpu.clok_mhz")
set(_bad_img "board.image=no-such-image.elf" "board.image.*no-such-image.elf.*no such file")
set(_bad_dma "centrenet.dma=sometimes" "centrenet.dma.*expected one of")
set(_bad_tick "monitor.tick_us=0.05" "monitor.tick_us.*whole number")
set(_bad_order "run.board_order=sideways" "run.board_order = \"sideways\": expected one of config, reverse")
foreach(bad cpu key img dma tick order)
  list(GET _bad_${bad} 0 set)
  list(GET _bad_${bad} 1 regex)
  add_test(NAME testbed_bad_config_${bad}_is_refused
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|--out|${_tb_out}/bad|--set|${set}"
            -DEXPECT_RC=nonzero "-DEXPECT_REGEX=configuration error: .*${regex}" -P ${_check})
  set_tests_properties(testbed_bad_config_${bad}_is_refused PROPERTIES LABELS "testbed;centrenet")
endforeach()
# Machine profiles (sw/config/profiles.cpp): "1994" sets its calibrated clock, an --set of the
# same key wins over it, and a name that is no profile is refused before anything is built.
add_test(NAME testbed_profile_1994_runs_tos_at_its_calibrated_clock
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|--out|${_tb_out}/profile1994|--console|none|--set|profile=1994"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=cpu: 68010 at 5 MHz, quantum 1 ms, exact, profile 1994.*board earth +finished" -P ${_check})
add_test(NAME testbed_profile_setting_yields_to_an_explicit_set
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|--out|${_tb_out}/profile-set|--stop-ms|10|--set|cpu.clock_mhz=8|--set|profile=1994"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=cpu: 68010 at 8 MHz, quantum 1 ms, exact, profile 1994" -P ${_check})
add_test(NAME testbed_unknown_profile_is_refused
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|--out|${_tb_out}/bad|--set|profile=1993"
          -DEXPECT_RC=nonzero "-DEXPECT_REGEX=configuration error: .*profile = \"1993\": expected one of default, 1994" -P ${_check})
set_tests_properties(testbed_profile_1994_runs_tos_at_its_calibrated_clock testbed_profile_setting_yields_to_an_explicit_set
  testbed_unknown_profile_is_refused PROPERTIES LABELS "testbed")
add_test(NAME testbed_malformed_config_file_is_refused
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|${_tb_out}/malformed.toml|--out|${_tb_out}/bad"
          -DSETUP_FILE=${_tb_out}/malformed.toml "-DSETUP_TEXT=[cpu\nclock_mhz = 10\n"
          -DEXPECT_RC=nonzero "-DEXPECT_REGEX=malformed.toml:1" -P ${_check})
set_tests_properties(testbed_malformed_config_file_is_refused PROPERTIES LABELS "testbed")

# Co-simulation: the verilated monitor RTL (clocked on demand behind its TLM-to-pin adapter) in
# place of the TLM model for a whole firmware run: the decoded event trace must be identical.
add_test(NAME testbed_rtl_monitor_gives_the_tlm_trace
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> -DOUT=${_tb_out}/rtl
          "-DARGS_A=${CMAKE_SOURCE_DIR}/sim/configs/demo.toml|--set|monitor.model=tlm" "-DARGS_B=${CMAKE_SOURCE_DIR}/sim/configs/demo.toml|--set|monitor.model=rtl"
          "-DFILES=monitor.raw|monitor.trace.txt|monitor.trace.bin|events.1.vcd|master.console.log"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_deterministic.cmake)
set_tests_properties(testbed_rtl_monitor_gives_the_tlm_trace PROPERTIES LABELS "testbed;rtl" TIMEOUT 600)
add_test(NAME testbed_rtl_monitor_refuses_other_parameters
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|--out|${_tb_out}/bad|--set|monitor.model=rtl|--set|monitor.smi_depth=64"
          -DEXPECT_RC=nonzero "-DEXPECT_REGEX=monitor.model = \"rtl\": the verilated monitor has the report's parameters" -P ${_check})
set_tests_properties(testbed_rtl_monitor_refuses_other_parameters PROPERTIES LABELS "testbed;rtl")

# The upgrade of the report's section 3.4: with DMA reaching all of RAM the demo's slaves gather
# and store back straight to RAM (no copies through the controller buffer).
add_test(NAME testbed_dma_anywhere_runs_without_buffer_copies
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:testbed>|${CMAKE_SOURCE_DIR}/sim/configs/demo.toml|--out|${_tb_out}/dma|--console|none|--set|centrenet.dma=dma-anywhere"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=ni_0_1: launches 41 sent 41 recv 40 storebacks 40 dma words ram 2560 buffer 0.*decoded 1200 events"
          -DCHECK_FILE=${_tb_out}/dma/earth.console.log "-DCHECK_REGEX=DMA to and from RAM" -P ${_check})
set_tests_properties(testbed_dma_anywhere_runs_without_buffer_copies PROPERTIES LABELS "testbed;centrenet")
