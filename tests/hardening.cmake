# Hardening (issue #19, label hardening): every tool refuses bad input with a message naming what
# and where and the exit status of the README's convention (0 success, 1 the simulated machine
# failed, 2 bad input, 3 an output file could not be written during the run); nothing crashes or
# hangs. Each test asserts the message and the exit status (scripts/run_check.cmake).
set(_hd_out ${CMAKE_BINARY_DIR}/test-out/hardening)
set(_hd_check ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)
file(MAKE_DIRECTORY ${_hd_out})

# hardening_check(NAME RC REGEX CMD...) ; extra -D definitions after DEFS
function(hardening_check name rc regex)
  cmake_parse_arguments(H "" "" "CMD;DEFS" ${ARGN})
  string(REPLACE ";" "|" cmd "${H_CMD}")
  add_test(NAME hardening_${name}
    COMMAND ${CMAKE_COMMAND} "-DCMD=${cmd}" -DEXPECT_RC=${rc} "-DEXPECT_REGEX=${regex}" ${H_DEFS} -P ${_hd_check})
  set_tests_properties(hardening_${name} PROPERTIES LABELS hardening TIMEOUT 300)
endfunction()

set(_tb $<TARGET_FILE:testbed>)

# --- A machine larger than the host's memory is refused before it is built, with the estimate
# (TESTBED_HOST_MEMORY_MB stands in for a small host).
hardening_check(testbed_machine_too_large_for_host 2
  "testbed: the machine .6 boards, 24 MiB of board RAM in all. needs up to 36 MiB on the host, more than its 8 MiB: refused"
  CMD ${CMAKE_COMMAND} -E env TESTBED_HOST_MEMORY_MB=8 ${_tb} --out ${_hd_out}/x)
hardening_check(testbed_host_memory_override_checked 2 "TESTBED_HOST_MEMORY_MB='8x': not a whole number"
  CMD ${CMAKE_COMMAND} -E env TESTBED_HOST_MEMORY_MB=8x ${_tb} --out ${_hd_out}/x)

# --- Output files: checked before the machine is built (was: SIGFPE, no message, results lost).
hardening_check(testbed_centrenet_vcd_in_missing_folder 2
  "configuration error: .*trace.centrenet_vcd = ./nonexistent-dir/c.vcd.: the folder /nonexistent-dir does not exist"
  CMD ${_tb} --out ${_hd_out}/x --set trace.centrenet_vcd=/nonexistent-dir/c.vcd)
hardening_check(testbed_monitor_vcd_in_missing_folder 2
  "configuration error: .*trace.monitor_vcd = ./nonexistent-dir/m.vcd.: the folder /nonexistent-dir does not exist"
  CMD ${_tb} --out ${_hd_out}/x --set trace.monitor_vcd=/nonexistent-dir/m.vcd)
hardening_check(testbed_boards_vcd_in_missing_folder 2
  "configuration error: .*trace.boards_vcd = ./nonexistent-dir/b.master.vcd.: the folder /nonexistent-dir does not exist"
  CMD ${_tb} --out ${_hd_out}/x --set trace.boards_vcd=/nonexistent-dir/b)
hardening_check(testbed_out_dir_not_creatable 2
  "configuration error: .*run.out_dir = ./proc/forbidden.: cannot write in /proc"
  CMD ${_tb} --out /proc/forbidden)
hardening_check(testbed_out_dir_is_a_file 2
  "configuration error: .*run.out_dir = .${_hd_out}/a-file.: .* is not a folder"
  CMD ${_tb} --out ${_hd_out}/a-file
  DEFS -DSETUP_FILE=${_hd_out}/a-file -DSETUP_TEXT=x)

# --- Output write errors during the run: reported with the file and why, exit 3; the rest kept.
hardening_check(testbed_full_disk_trace_is_reported 3
  "output error: /dev/full: No space left on device.*1 output file\\(s\\) could not be written"
  CMD ${_tb} --out ${_hd_out}/full --console none --stop-ms 20 --set trace.monitor_vcd=/dev/full
  DEFS -DCHECK_FILE=${_hd_out}/full/earth.console.log "-DCHECK_REGEX=^")
hardening_check(monitor_decode_full_disk_is_reported 2
  "monitor-decode: writing /dev/full failed: No space left on device"
  CMD $<TARGET_FILE:monitor-decode> --text /dev/full ${_hd_out}/empty.raw
  DEFS -DSETUP_FILE=${_hd_out}/empty.raw -DSETUP_TEXT=)

# --- Faults during a run: a guest that halts (the slaves of firmware/fault-target double-fault)
# is named when it happens, with why (on stderr, after the summary in the output checked); a board that can never go on (the master, in STOP with
# every interrupt masked) stops the run by the no-progress detection, with each board's state;
# exit status 1, and the consoles' logs are kept.
hardening_check(testbed_guest_halts_and_master_waits_forever 1
  "testbed: no progress since [0-9.]+ ms: for 100 ms.*board master +still running \\(in STOP, interrupt mask 7 \\(only a level-7 interrupt can wake it\\), no interrupt pending\\).*board earth +HALTED at [0-9.]+ ms: double bus fault.*testbed: board earth halted at [0-9.]+ ms: double bus fault at PC=0x[0-9A-F]+ address=0x002FFF; the other boards go on"
  CMD ${_tb} --out ${_hd_out}/fault --console none --set board.image=fault-target.elf --set run.no_progress_ms=100
  DEFS -DCHECK_FILE=${_hd_out}/fault/earth.console.log "-DCHECK_REGEX=this slave double-faults")

# --- Configurations the checks accepted but that could not run (was: a hang, or SystemC's
# "port not bound"): refused before elaboration with a plain message.
hardening_check(testbed_fewer_smis_than_slaves 2
  "configuration error: .*monitor.smis = 3 but node 0 has slaves up to slot 5.*must be at least 5"
  CMD ${_tb} --out ${_hd_out}/x --set monitor.smis=3)
hardening_check(testbed_gap_in_slots 2
  "configuration error: .*gap.toml: node 0 has boards up to slot 3 but none in slot 2: slots must be numbered without gaps"
  CMD ${_tb} ${_hd_out}/gap.toml --out ${_hd_out}/x
  DEFS -DSETUP_FILE=${_hd_out}/gap.toml
       "-DSETUP_TEXT=[board]\nimage = \"tos.elf\"\n[[boards]]\nname = \"master\"\nslot = 0\n[[boards]]\nname = \"earth\"\nslot = 1\n[[boards]]\nname = \"fire\"\nslot = 3\n")
hardening_check(testbed_no_slaves 2
  "configuration error: .*alone.toml: node 0 has no slave board \\(only the master\\)"
  CMD ${_tb} ${_hd_out}/alone.toml --out ${_hd_out}/x
  DEFS -DSETUP_FILE=${_hd_out}/alone.toml "-DSETUP_TEXT=[board]\nimage = \"tos.elf\"\n[[boards]]\nname = \"master\"\nslot = 0\n")
hardening_check(testbed_stop_ms_below_a_microsecond_in_config 2
  "configuration error: .*run.stop_ms = 1e-07: 0 \\(until every board exits\\) or at least 0.001"
  CMD ${_tb} --out ${_hd_out}/x --set run.stop_ms=1e-7)

# --- Numbers on the command line: parsed whole, finite, in range (was: ignored, full run, exit 0).
set(_i 0)
foreach(v 1e-7 -5 nan 5x inf)
  math(EXPR _i "${_i} + 1")
  hardening_check(testbed_stop_ms_refused_${_i} 2 "--stop-ms: '${v}': expected 0 \\(until every board exits\\) or a number of ms from 0.001 to 1e9"
    CMD ${_tb} --out ${_hd_out}/x --stop-ms ${v})
endforeach()
hardening_check(testbed_gdb_port_refused 2 "testbed: --gdb: a port 1..65530, optionally ',nowait' and ',noreverse': '12x'"
  CMD ${_tb} --out ${_hd_out}/x --gdb 12x)
hardening_check(testbed_board_gdb_port_refused 2 "testbed-board: error: --gdb: a port 1..65535, optionally ',nowait' and ',noreverse': '1234,wait'"
  CMD $<TARGET_FILE:testbed-board> --gdb 1234,wait ${TESTBED_FIRMWARE_DIR}/gdb-target.elf)

# --- monitor-decode: a folder, a missing file, trailing garbage in a number.
hardening_check(monitor_decode_folder_refused 2 "monitor-decode: ${_hd_out}: is a folder, not a stream file"
  CMD $<TARGET_FILE:monitor-decode> ${_hd_out})
hardening_check(monitor_decode_missing_file_refused 2 "monitor-decode: ${_hd_out}/no-such.raw: cannot open: No such file or directory"
  CMD $<TARGET_FILE:monitor-decode> ${_hd_out}/no-such.raw)
hardening_check(monitor_decode_number_refused 2 "monitor-decode: --n-smi 5x: expected a whole number from 1 to 15"
  CMD $<TARGET_FILE:monitor-decode> --n-smi 5x ${_hd_out}/empty.raw)
hardening_check(monitor_decode_tick_refused 2 "monitor-decode: --tick-ns 0: expected a whole number from 1 to"
  CMD $<TARGET_FILE:monitor-decode> --tick-ns 0 ${_hd_out}/empty.raw)

# --- Every executable in build/bin: --help exits 0 with a usage, a number with trailing
# garbage exits 2 naming the option and the value.
foreach(tool testbed testbed-board board-bench machine-bench monitor-bench centrenet-bench m68k-bench m68k-dis
             m68k-vectors monitor-decode rtl-monitor-bench rtl-monitor-regress tos-bench tos-mkfs runtime_host_fuzz)
  hardening_check(${tool}_help 0 "[Uu]sage:" CMD $<TARGET_FILE:${tool}> --help)
endforeach()
set(_num_testbed-board "--set|cpu.clock_mhz=5x|x.elf" "cpu.clock_mhz: expected a number")
set(_num_board-bench "--set|cpu.quantum_us=5x|x.elf" "cpu.quantum_us: expected a number")
set(_num_machine-bench "x.elf|--sim-ms|5x" "machine-bench: --sim-ms '5x': expected a number from 0.001 to 1e\\+09")
set(_num_monitor-bench "5x" "monitor-bench: simulated_ms '5x': expected a number from 0.001 to 1e\\+06")
set(_num_centrenet-bench "nan" "centrenet-bench: simulated-ms 'nan': expected a number from 0.001 to 1e\\+06")
set(_num_m68k-bench "x.elf|--expect-checksum|12q" "m68k-bench: --expect-checksum '12q': expected a whole number from 0 to 4294967295")
set(_num_m68k-dis "--vma|5x|--hex|4e71" "m68k-dis: --vma '5x': expected a whole number from 0 to 4294967295")
set(_num_m68k-vectors "d|--show|1x" "m68k-vectors: --show '1x': expected a whole number from 0 to 1000000")
set(_num_rtl-monitor-bench "-3" "rtl-monitor-bench: cycles '-3': expected a whole number from 1 to 1000000000000")
set(_num_rtl-monitor-regress "--clocks|5x" "rtl-monitor-regress: --clocks '5x': expected a whole number from 1 to 1000000000000")
set(_num_tos-bench "--reps|5x" "--reps: Value 5x not in range 1 to 100")
set(_num_runtime_host_fuzz "5x" "runtime_host_fuzz: ITERATIONS '5x': expected a whole number from 1 to 10000000000")
set(_num_tos-mkfs "--size|5x|-o|${_hd_out}/x.fs" "tos-mkfs: Could not convert: --size = 5x")
foreach(tool testbed-board board-bench machine-bench monitor-bench centrenet-bench m68k-bench m68k-dis m68k-vectors
             rtl-monitor-bench rtl-monitor-regress tos-bench tos-mkfs runtime_host_fuzz)
  list(GET _num_${tool} 0 args)
  list(GET _num_${tool} 1 regex)
  string(REPLACE "|" ";" args "${args}")
  hardening_check(${tool}_number_refused 2 "${regex}" CMD $<TARGET_FILE:${tool}> ${args})
endforeach()

# --- Images: m68k-bench reads ELF files through the project's one loader (sw/elf); a crafted
# segment with more file bytes than memory bytes (it overflowed the bench's own loader) is refused.
add_test(NAME hardening_craft_bad_elf
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/craft_bad_elf.py
          ${TESTBED_FIRMWARE_DIR}/bench-workload-r200.elf ${_hd_out}/filesz-over-memsz.elf)
set_tests_properties(hardening_craft_bad_elf PROPERTIES LABELS hardening FIXTURES_SETUP hardening_bad_elf)
hardening_check(m68k_bench_crafted_elf_refused 2
  "m68k-bench: cannot load .*filesz-over-memsz.elf: .*segment 0 .* has more file bytes \\(0x[0-9A-F]+\\) than memory bytes"
  CMD $<TARGET_FILE:m68k-bench> ${_hd_out}/filesz-over-memsz.elf)
set_tests_properties(hardening_m68k_bench_crafted_elf_refused PROPERTIES FIXTURES_REQUIRED hardening_bad_elf)
hardening_check(m68k_bench_missing_image_refused 2 "m68k-bench: cannot load .*no-such.elf: .*cannot open: No such file or directory"
  CMD $<TARGET_FILE:m68k-bench> ${_hd_out}/no-such.elf)

# --- Devices and folders where a file is expected: refused, never read forever (was: bad_alloc).
hardening_check(testbed_image_is_a_device 2 "testbed: image error: /dev/zero: not a regular file"
  CMD ${_tb} --out ${_hd_out}/x --set board.image=/dev/zero)
hardening_check(testbed_filestore_is_a_device 2
  "configuration error: .*board.filestore: /dev/zero: not a regular file"
  CMD ${_tb} --out ${_hd_out}/x --set board.filestore=/dev/zero)
hardening_check(testbed_board_image_is_a_folder 2 "testbed-board: error: ${_hd_out}: not a regular file"
  CMD $<TARGET_FILE:testbed-board> ${_hd_out})
hardening_check(tos_mkfs_input_is_a_folder 2 "tos-mkfs: ${_hd_out}: not a regular file"
  CMD $<TARGET_FILE:tos-mkfs> -o ${_hd_out}/x.fs ${_hd_out})
hardening_check(tos_mkfs_full_disk_is_reported 2 "tos-mkfs: /dev/full: write error: No space left on device"
  CMD $<TARGET_FILE:tos-mkfs> -o /dev/full ${TESTBED_FIRMWARE_DIR}/hello.elf)
hardening_check(testbed_board_full_disk_vcd_is_reported 6 "testbed-board: output error: /dev/full: No space left on device"
  CMD $<TARGET_FILE:testbed-board> --vcd /dev/full --max-cycles 100000 ${TESTBED_FIRMWARE_DIR}/gdb-target.elf)
hardening_check(testbed_board_full_disk_console_is_reported 6 "testbed-board: output error: /dev/full: No space left on device"
  CMD $<TARGET_FILE:testbed-board> --console file:/dev/full --max-cycles 1000000 ${TESTBED_FIRMWARE_DIR}/gdb-target.elf)

# --- Configuration files and images that are not files.
hardening_check(testbed_config_is_a_folder 2 "testbed: configuration error: ${_hd_out}: not a regular file"
  CMD ${_tb} ${_hd_out})
hardening_check(testbed_config_missing 2
  "testbed: configuration error: ${_hd_out}/no-such.toml: cannot read the configuration: No such file or directory"
  CMD ${_tb} ${_hd_out}/no-such.toml)
hardening_check(m68k_dis_image_is_a_folder 2 "m68k-dis: ${_hd_out}: not a regular file" CMD $<TARGET_FILE:m68k-dis> ${_hd_out})

# --- More SMIs than slaves: the extra SMIs are idle cards on the monitoring bus; the machine
# runs (was: SystemC's "port not bound" for the SMIs without a board).
hardening_check(testbed_more_smis_than_slaves_runs 0
  "monitor:     6         0       0        0.*monitor:     7         0       0        0.*decoded 136 events"
  CMD ${_tb} --out ${_hd_out}/smis7 --console none --set monitor.smis=7)

# --- A guest's action never aborts the simulator (issue #30, labels hardening and security): a
# reset vector into a hole of the memory map halts that board with a message naming the address
# (was: an uncaught m68k::Group0, SIGABRT); in the six-board machine the other boards go on and
# the run's outputs stay.
hardening_check(testbed_board_reset_pc_in_hole_halts 3
  "testbed-board: .*0xFD8000"
  CMD $<TARGET_FILE:testbed-board> --max-cycles 100000 ${TESTBED_FIRMWARE_DIR}/reset-in-hole.elf)
hardening_check(testbed_reset_pc_in_hole_halts_one_board 1
  "board master +still running.*board earth +HALTED at [0-9.]+ ms: no memory at the reset PC 0xFD8000 \\(bus error.*board air +HALTED at [0-9.]+ ms: double bus fault.*testbed: board earth halted at [0-9.]+ ms: no memory at the reset PC 0xFD8000.*the other boards go on"
  CMD ${_tb} ${_hd_out}/hole.toml --firmware-dir ${TESTBED_FIRMWARE_DIR} --out ${_hd_out}/hole --console none --set run.no_progress_ms=100
  DEFS -DSETUP_FILE=${_hd_out}/hole.toml
       "-DSETUP_TEXT=[board]\nimage = \"fault-target.elf\"\n[[boards]]\nname = \"master\"\nslot = 0\n[[boards]]\nname = \"earth\"\nslot = 1\nimage = \"reset-in-hole.elf\"\n[[boards]]\nname = \"air\"\nslot = 2\n[monitor]\nsmis = 2\n"
       -DCHECK_FILE=${_hd_out}/hole/air.console.log "-DCHECK_REGEX=this slave double-faults")
set_tests_properties(hardening_testbed_board_reset_pc_in_hole_halts hardening_testbed_reset_pc_in_hole_halts_one_board
  PROPERTIES LABELS "hardening;security")

# --- Leftovers of issue #30: --out with a backslash (a TOML escape made odd folders), a second
# image given to testbed-board (the first was ignored), an FST path that cannot be written (the
# regression exited 0); issue #31: a TOS user program given as a board image (six boards
# double-faulted at 0x001000) is refused with the way to run it.
hardening_check(testbed_out_with_backslash_refused 2
  "configuration error: .*run.out_dir = .*runs.one.: a backslash is not a folder separator here"
  CMD ${_tb} --out ${_hd_out}/runs\\one)
hardening_check(testbed_board_two_images_refused 2
  "testbed-board: error: one image only: .*gdb-target.elf' and .*reset-in-hole.elf' given"
  CMD $<TARGET_FILE:testbed-board> ${TESTBED_FIRMWARE_DIR}/gdb-target.elf ${TESTBED_FIRMWARE_DIR}/reset-in-hole.elf)
hardening_check(rtl_monitor_regress_unwritable_fst_fails 2
  "rtl-monitor-regress: --fst /nonexistent-dir/w.fst: cannot write: No such file or directory"
  CMD $<TARGET_FILE:rtl-monitor-regress> --fst /nonexistent-dir/w.fst --clocks 10)
hardening_check(testbed_tos_program_as_board_image_refused 2
  "testbed: image error: .*hello.elf: a TOS user program \\(linked at 0x001000.*not a board image: put it in a filestore with tos-mkfs"
  CMD ${_tb} --out ${_hd_out}/x --set board.image=hello.elf)
hardening_check(testbed_board_tos_program_refused 2
  "testbed-board: error: .*hello.elf: a TOS user program .*tos-mkfs"
  CMD $<TARGET_FILE:testbed-board> ${TESTBED_FIRMWARE_DIR}/hello.elf)
