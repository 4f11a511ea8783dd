# Seed 004 (issue 34), host side: the reference SMP simulator of sw/smpsim (label seed004).
# Hand-derived runs and the configuration parser's refusals (GoogleTest):
testbed_gtest(test_smpsim_hand_values SOURCES test_smpsim_hand_values.cpp LIBS testbed_smpsim LABELS seed004)
testbed_gtest(test_smpsim_config_errors SOURCES test_smpsim_config_errors.cpp LIBS testbed_smpsim LABELS seed004)
# Linux's scheduler of chapter 6 (sched=linux): its decisions against cases worked by hand.
testbed_gtest(test_smpsim_linux_scheduler SOURCES test_smpsim_linux_scheduler.cpp LIBS testbed_smpsim LABELS seed004)
# The command refuses a bad file with exit status 2 and the line in its message.
add_test(NAME smpsim_refuses_a_bad_file
  COMMAND sh -c "printf 'p=32 q=100 in=3%% out=3%% nosync=0\\nsync=2 barrier=x spin=1 cmput=1\\n' > bad.cfg; \
$1 bad.cfg 2>err.txt; s=$?; cat err.txt; test $s -eq 2 && grep -q 'bad.cfg:2: barrier' err.txt" sh
          $<TARGET_FILE:smpsim>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(smpsim_refuses_a_bad_file PROPERTIES LABELS seed004)
# Runs simulated at once (-j) give the table, the per-job table and the trace of the runs made one
# by one, in the file's order (SCHED_RR and Linux curves, ranged nosync and instance_num).
add_test(NAME smpsim_parallel_runs_give_the_same_tables
  COMMAND sh -c "printf 'p=8 q=100 in=3%% out=3%% nosync=0-20:2 rand_ord=1 label=rr\nsync=5 barrier=40 spin=CS cmput=10%% rand_cmput_sigma=90/15%%\np=8 q=100 in=3%% out=3%% nosync=0 rand_ord=1 sched=linux wakeup=aip label=lx\nsync=4 barrier=40 spin=2CS+ cmput=1%% rand_cmput_sigma=90/15%% instance_num=1-9\n' > par.cfg; for j in 1 3; do $1 par.cfg -j $j -o t$j.tsv --jobs-out jobs$j.tsv --trace-job 0 --trace-until 20000 --trace-out tr$j.tsv || exit 1; done; test $(wc -l < t1.tsv) -eq 21 && cmp t1.tsv t3.tsv && cmp jobs1.tsv jobs3.tsv && cmp tr1.tsv tr3.tsv" sh
          $<TARGET_FILE:smpsim>
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(smpsim_parallel_runs_give_the_same_tables PROPERTIES LABELS seed004)
# Each experiment at its reduced size; the command exits 1 when a shape check fails (the checks
# and what they test: sw/smpsim/seed004_experiments.py; the full size: docs-seed004).
set(_s4_out ${CMAKE_BINARY_DIR}/test-out/seed004)
foreach(e fig3_1 fig3_2 fig3_3 fig3_4 fig3_5 fig3_6 fig3_7 fig3_8 fig3_9 fig4_1 table4_1 fig4_2 fig4_3 fig4_4
          fig4_5 fig4_6 fig5_1 fig5_3 fig5_5 fig7_1 fig7_2 fig7_spin fig7_6)
  add_test(NAME seed004_${e}_reduced
    COMMAND ${CMAKE_BINARY_DIR}/bin/smpsim-experiment ${e} --size reduced --quiet --out ${_s4_out}/${e})
  set_tests_properties(seed004_${e}_reduced PROPERTIES LABELS seed004 TIMEOUT 600)
endforeach()
# Chapters 8 and 9 (Linux's scheduler with homogeneous and heterogeneous jobs) in one run, so that
# chapter 9's comparisons with chapter 8's homogeneous jobs are checked too.
add_test(NAME seed004_fig8_fig9_reduced
  COMMAND ${CMAKE_BINARY_DIR}/bin/smpsim-experiment fig8,fig9 --size reduced --quiet --out ${_s4_out}/fig8_fig9)
set_tests_properties(seed004_fig8_fig9_reduced PROPERTIES LABELS seed004 TIMEOUT 900)
# The shape checks can fail: fed curves without the seed's shape, each says FAIL.
add_test(NAME seed004_checks_can_fail
  COMMAND ${TESTBED_ANALYSIS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/seed004_checks_can_fail.py
          ${CMAKE_SOURCE_DIR}/sw/smpsim)
set_tests_properties(seed004_checks_can_fail PROPERTIES LABELS seed004)
# The Testbed's side (barriers in TOS): the SSR read from a hand-checked monitor trace, and the
# experiment's shape checks failing on data without the shape; the experiment at its reduced size.
add_test(NAME seed004_testbed_ssr_accounting
  COMMAND ${TESTBED_ANALYSIS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/seed004_testbed_ssr_accounting.py
          ${CMAKE_SOURCE_DIR}/sw/analysis ${CMAKE_CURRENT_SOURCE_DIR}/data/seed004_hand_trace.txt)
set_tests_properties(seed004_testbed_ssr_accounting PROPERTIES LABELS seed004)
add_test(NAME experiment_seed004_reduced
  COMMAND ${CMAKE_BINARY_DIR}/bin/testbed-experiment seed004 --size reduced --quiet --out ${CMAKE_BINARY_DIR}/test-out/experiments)
set_tests_properties(experiment_seed004_reduced PROPERTIES LABELS "seed004;experiments" TIMEOUT 1200)
