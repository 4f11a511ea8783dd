# Seed 002 (issue 35, RHODOS global scheduling; label seed002): the global scheduler's families
# decide as their rules say on scripted event sequences (programs/balancer/gsched.c), and
# process_twin duplicates a process's state (kernel/rex.c).
tos_kernel_test(PROGRAM gsched_policies_decide LABELS seed002)
# A REX manager finds the global scheduler by broadcast wherever it serves (here on air), keeps
# where it is, forgets it when it stops serving, places locally when none serves; forged answers
# of the search and placements nobody asked for are refused (kernel/rex.c; the test kernel's
# net_inject). earth's done line: two searches (the first, and the one after air stopped).
tos_kernel_test(PROGRAM rex_finds_the_scheduler IMAGE tos-test.elf LABELS "seed002;security"
  LINE "air rex_finds_the_scheduler serve &\nearth rex_finds_the_scheduler"
  REGEX "rex_finds_the_scheduler: PASS.*tos: earth: rex questions 0 .unserved: placed where asked 1., twins made 0. searches for the scheduler 2,"
  LOG air LOG_REGEX "air answered 3 questions.*tos: air: rex questions 4 .unserved: placed where asked 1., twins made 0. searches for the scheduler 0, boards that found it here 1")
# The REX managers' notes (kernel/rex.c's NET_GS_NOTE, section 3.3): air's scheduler is given
# exactly the question, the placed creation (noted by fire) and its end (by water, where it
# migrated), a twin and its end (by earth); forged notes from space (never found it), and from
# fire (a kind, a TID, a twin not fire's) are refused. After air has ended, earth's notes are lost
# there, and, once a question has told earth so, unheard (two searches that find no scheduler).
tos_kernel_test(PROGRAM rex_notes_reach_scheduler IMAGE tos-test.elf LABELS "seed002;security"
  LINE "air rex_notes_reach_scheduler serve &\nearth rex_notes_reach_scheduler\nearth rex_notes_reach_scheduler after"
  REGEX "rex_notes_reach_scheduler: PASS.*rex_notes_reach_scheduler after: PASS.*tos: earth: rex questions 0 .unserved: placed where asked 0., twins made 3. searches for the scheduler 3, boards that found it here 0. notes sent 4, unheard 2, taken 0, lost 0"
  LOG air LOG_REGEX "air was given the question, 4 notes, and refused 4 forged.*tos: air: rex questions 2 .unserved: placed where asked 1., twins made 0. searches for the scheduler 0, boards that found it here 3. notes sent 0, unheard 0, taken 4, lost 2")
tos_kernel_test(PROGRAM twin_duplicates_state ALL_FREE LABELS seed002
  REGEX "twin: equal at the twin point, diverged after.*twin_duplicates_state: PASS")
# The loop-parallel measurement (Figures 6-9, Tables 1-2) at its reduced size: 1..7 slaves on 1
# and 3 boards under each RHODOS variant; the command exits 1 when a shape check fails (the
# checks: sw/analysis/testbed_analysis/seed002.py; the full size and docs/results/seed002.md:
# cmake --build build --target docs-seed002).
add_test(NAME experiment_seed002_reduced
  COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment seed002 --size reduced --quiet --out ${CMAKE_BINARY_DIR}/test-out/experiments)
set_tests_properties(experiment_seed002_reduced PROPERTIES LABELS "seed002;experiments" TIMEOUT 1200)
