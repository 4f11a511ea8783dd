# Kernel messages are trusted only from kernels (issue #30; label "security"): each test below
# forges one kind of kernel message from a user program on the test kernel (tos-test.elf, the
# only one with net_inject) and fails on a kernel that obeys it; the victim board must refuse it,
# say so once, count it (the board's end-of-run line), and go on. The first proves tos.elf, the
# kernel users run, has no net_inject at all. The no-progress limit ends a run whose forged
# message stopped a board (a kernel that obeyed it) quickly, with exit status 1.
set(_fast run.no_progress_ms=3000)
tos_kernel_test(PROGRAM net_inject_is_test_only NAME net_inject_is_absent_from_tos_elf SET ${_fast} LABELS security)
tos_kernel_test(PROGRAM forged_halt_is_refused IMAGE tos-test.elf SET ${_fast} LABELS security LOG air
  LOG_REGEX "refused message type 6 from earth: not from the master, sender \\(1\\): dropped \\(1 so far.*kernel messages refused: 10 \\(by type: 6:10\\)")
tos_kernel_test(PROGRAM forged_create_is_refused NAME forged_remote_create_is_refused IMAGE tos-test.elf
  SET ${_fast} LABELS security LOG air
  LOG_REGEX "refused message type 11 from water: not from the home of the process it names, home \\(1\\)")
# A TID's board field whole (six bits): a create from board17 naming a parent of board 1 (the same
# low four bits) is refused on a machine of 32 boards.
tos_kernel_test(PROGRAM tid_board_field_checked IMAGE tos-test.elf LABELS "security;hardening"
  CONFIG ${PROJECT_SOURCE_DIR}/sim/configs/boards-32.toml LINE "board17 tid_board_field_checked" CONSOLE board17 LOG board18
  LOG_REGEX "refused message type 11 from board17: parent TID \\(1[0-9][0-9][0-9]\\)")
# The same field where a home serves its pages: a thread on board18 of a process at home on board17
# gets its pages (the home once compared four bits and refused it).
tos_kernel_test(PROGRAM paging_on_high_boards LABELS "security;hardening" SET ${_fast}
  CONFIG ${PROJECT_SOURCE_DIR}/sim/configs/boards-32.toml LINE "board17 paging_on_high_boards" CONSOLE board17
  FORBID "refused message")
tos_kernel_test(PROGRAM forged_page_and_kill_fail NAME forged_page_request_and_kill_are_refused IMAGE tos-test.elf
  SET ${_fast} LABELS security LOG air LOG_REGEX "refused message type 14 from water: not from the home of the process it names"
  REGEX "refused message type 15 from water: a page asked for in the name of a thread that is not away.*forged_page_and_kill_fail: PASS")
tos_kernel_test(PROGRAM forged_console_is_refused NAME forged_console_input_is_refused IMAGE tos-test.elf
  LINE "master forged_console_is_refused" CONSOLE master SET ${_fast} LABELS security
  INPUT ${CMAKE_CURRENT_SOURCE_DIR}/tos/sessions/forged_console.txt PROMPT "operator>"
  REGEX "refused message type 3 from earth: not from the master, sender.*forged_console_is_refused: PASS")
# Privileges (firmware/tos/README.md): a program the boot script did not start may not halt,
# kill what is not its own, migrate another's threads or reconfigure.
tos_kernel_test(PROGRAM unprivileged_cannot_halt NAME unprivileged_programs_cannot_halt_or_kill SET ${_fast}
  LABELS security)

# The system-call fuzzer (tests/tos/sysfuzz.c; the long run: tests/fuzz/README.md): on four
# slaves at once, a driver runs workers making random system calls with random arguments and
# forged kernel messages (the test kernel), beside a witness program on each of those boards
# whose results are known. Seeded, so the same every run. Invariants: every board ends normally
# (no kernel fault: testbed exits 0), no witness or driver says FAIL and every witness says its
# results were intact, and every board ends with all its frames and TCBs free.
tos_kernel_test(PROGRAM sysfuzz NAME syscall_fuzzer_short_run IMAGE tos-test.elf ALL_FREE LABELS "security;fuzz"
  LINE "earth sysfuzz witness 30 &\nair sysfuzz witness 30 &\nwater sysfuzz witness 30 &\nfire sysfuzz witness 30 &\nearth sysfuzz driver 1 4 150 &\nair sysfuzz driver 2 4 150 &\nwater sysfuzz driver 3 4 150 &\nfire sysfuzz driver 4 4 150 &"
  SET run.stop_ms=600000.0 FORBID "FAIL|KERNEL FAULT|halted by the master"
  REGEX "sysfuzz: board 1: 4 rounds of 150 calls.*sysfuzz witness: board 1: intact after [0-9]+ rounds|sysfuzz witness: board 1: intact after [0-9]+ rounds.*sysfuzz: board 1: 4 rounds of 150 calls"
  LOG air LOG_REGEX "sysfuzz: board 2: 4 rounds of 150 calls.*sysfuzz witness: board 2: intact|sysfuzz witness: board 2: intact.*sysfuzz: board 2: 4 rounds")

# Isolation by construction (issue #57): one test per finding of the audit, each failing on the
# kernel before the fix. Every board must end with all its frames and TCBs free.
tos_kernel_test(PROGRAM regions_stay_private NAME regions_are_private_to_their_process ALL_FREE SET ${_fast}
  LABELS "security;seed003" LINE "earth regions_stay_private owner &\nair regions_stay_private thief &"
  REGEX "regions_stay_private owner: PASS"
  LOG air LOG_REGEX "24 region ids of earth refused.*regions_stay_private thief: PASS")
tos_kernel_test(PROGRAM killed_servers_leave_none NAME killed_servers_leave_no_waits ALL_FREE SET ${_fast}
  LABELS "security;seed003")
# A TID is not given again while a child still names it as its parent: an orphan's end reaches
# no later thread of the same slot (issue #57).
tos_kernel_test(PROGRAM orphan_end_reaches_no_one ALL_FREE SET ${_fast} LABELS security
  REGEX "A was thread [0-9a-f]+, B is [0-9a-f]+ \\(another TID\\).*orphan_end_reaches_no_one: PASS")
tos_kernel_test(PROGRAM region_records_have_a_quota ALL_FREE SET ${_fast} LABELS "security;seed003"
  LOG earth LOG_REGEX "region records refused by a quota: 1")
tos_kernel_test(PROGRAM guest_parts_have_a_quota ALL_FREE SET ${_fast} LABELS security
  LINE "earth guest_parts_have_a_quota &\nair guest_parts_have_a_quota air &"
  REGEX "8 placed on air, 7 refused.*guest_parts_have_a_quota earth: PASS"
  LOG air LOG_REGEX "earth's processes are at their quota here: create refused \\(process slots.*guest_parts_have_a_quota air: PASS.*creates refused by a quota: 7")
tos_kernel_test(PROGRAM monitor_is_privileged NAME monitor_is_the_privileged_programs ALL_FREE SET ${_fast}
  LABELS "security;filter")
tos_kernel_test(PROGRAM faults_away_end_all NAME faults_away_from_home_end_the_process ALL_FREE SET ${_fast} run.stop_ms=20000.0
  LABELS security REGEX "its part on air failed \\(thread slot 2, exit code -258\\): process removed.*faults_away_end_all: PASS"
  LOG air LOG_REGEX "bus error at pc 0x[0-9a-f]+ address 0x0 .*: process removed")
tos_kernel_test(PROGRAM remote_mistakes_fail NAME mistakes_from_another_board_fail ALL_FREE SET ${_fast}
  LABELS "security;seed003;seed004")
