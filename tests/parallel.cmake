# Parallel speculation (issue #36): the boards' speculative runs on several host threads give
# bit-identical outputs -- consoles, the monitor's raw stream and decoded trace, the master's
# logger trace, the event VCDs, the bus VCDs and the summary -- at 1, 2 and 4 threads
# (tests/scripts/testbed_threads_identical.cmake compares every file the runs write).
set(_par_out ${CMAKE_BINARY_DIR}/test-out/parallel)
set(_par_script ${CMAKE_CURRENT_SOURCE_DIR}/scripts/testbed_threads_identical.cmake)
# The sanitized tree looks for memory and undefined-behaviour errors in the pool's hand-over,
# which two threads already exercise; the plain tree compares 1, 2 and 4 threads. (The two
# migration_stress comparisons at three thread counts were 8 of the sanitized run's 34 minutes.)
set(_par_threads)
if(TESTBED_SANITIZE)
  set(_par_threads "-DTHREADS=1|2")
endif()

# The six-board TOS main job (sim/configs/testbed.toml).
add_test(NAME parallel_tos_main_job_identical_at_1_2_4_threads
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> ${_par_threads} -DOUT=${_par_out}/main -P ${_par_script})
# migration_stress (seed 1 with the 1994 NI, seed 3 with DMA anywhere: rollbacks by DMA). In the
# sanitized tree these two are left to tos_migration_stress_seed1 and _seed3_dma_anywhere, which run
# the same filestores under ASan with the pool at the host's cores (two threads on CI): the
# hand-over is checked there, the identity here in the plain tree. (Compared at 1 and 2 threads
# they were 334 of the sanitized run's 1990 test seconds.)
if(NOT TESTBED_SANITIZE)
  add_test(NAME parallel_migration_stress_1994_identical_at_1_2_4_threads
    COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> ${_par_threads} -DOUT=${_par_out}/stress-1994
            "-DARGS=--set|board.image=tos.elf|--set|board.filestore=tos-migration_stress_seed1.fs|--set|run.stop_ms=900000"
            -P ${_par_script})
  add_test(NAME parallel_migration_stress_dma_anywhere_identical_at_1_2_4_threads
    COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> ${_par_threads} -DOUT=${_par_out}/stress-dma
            "-DARGS=--set|board.image=tos.elf|--set|board.filestore=tos-migration_stress_seed3_dma_anywhere.fs|--set|run.stop_ms=900000|--set|centrenet.dma=dma-anywhere"
            -P ${_par_script})
  set_tests_properties(parallel_migration_stress_1994_identical_at_1_2_4_threads
    parallel_migration_stress_dma_anywhere_identical_at_1_2_4_threads PROPERTIES LABELS "parallel;testbed")
endif()
# 64 busy boards on four nodes (sim/configs/busy-64.toml): every run goes to the pool.
add_test(NAME parallel_64_busy_boards_identical_at_1_2_4_threads
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> ${_par_threads} -DOUT=${_par_out}/busy64
          "-DARGS=${CMAKE_SOURCE_DIR}/sim/configs/busy-64.toml" -P ${_par_script})
# The boards' bus VCDs (the demo's first 20 ms: every bus cycle of six boards; a board that records
# for an observer keeps its runs at home, the others go on using the pool).
add_test(NAME parallel_bus_vcds_identical_at_1_2_4_threads
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> ${_par_threads} -DOUT=${_par_out}/busvcd
          "-DARGS=${CMAKE_SOURCE_DIR}/sim/configs/demo.toml|--stop-ms|20|--set|trace.boards_vcd={out}/bus" -P ${_par_script})
# Stress: the main job three times over at 1, 2 and 4 threads (nine runs): no difference.
add_test(NAME parallel_repeated_runs_find_no_difference
  COMMAND ${CMAKE_COMMAND} -DTESTBED=$<TARGET_FILE:testbed> ${_par_threads} -DOUT=${_par_out}/repeat -DREPEAT=3 -P ${_par_script})
set_tests_properties(parallel_tos_main_job_identical_at_1_2_4_threads parallel_64_busy_boards_identical_at_1_2_4_threads
  parallel_bus_vcds_identical_at_1_2_4_threads parallel_repeated_runs_find_no_difference
  PROPERTIES LABELS "parallel;testbed")

# The pool alone, without SystemC: cores and journals run on its threads give the one-thread
# result; and the same under ThreadSanitizer (SystemC's coroutines are left out: its kernel is
# not built for TSan and its thread switches are not threads TSan understands).
add_executable(test_speculation_pool test_speculation_pool.cpp ${CMAKE_SOURCE_DIR}/hw/board/speculation_pool.cpp
               ${CMAKE_SOURCE_DIR}/hw/board/ram_journal.cpp)
target_include_directories(test_speculation_pool PRIVATE ${CMAKE_SOURCE_DIR}/hw/board)
target_link_libraries(test_speculation_pool PRIVATE m68k_core testbed_tables Threads::Threads testbed_warnings)
add_test(NAME parallel_pool_runs_cores_as_one_thread_does COMMAND test_speculation_pool)
set_tests_properties(parallel_pool_runs_cores_as_one_thread_does PROPERTIES LABELS parallel
                     PASS_REGULAR_EXPRESSION "speculation pool: PASS")

# ThreadSanitizer cannot be combined with the sanitized tree's ASan: there the TSan copy is left out.
if(NOT TESTBED_SANITIZE AND NOT TESTBED_LIBFUZZER)
  get_target_property(_core_sources m68k_core SOURCES)
  list(TRANSFORM _core_sources PREPEND ${CMAKE_SOURCE_DIR}/hw/cpu/)
  add_executable(test_speculation_pool_tsan EXCLUDE_FROM_ALL test_speculation_pool.cpp
                 ${CMAKE_SOURCE_DIR}/hw/board/speculation_pool.cpp ${CMAKE_SOURCE_DIR}/hw/board/ram_journal.cpp ${_core_sources})
  target_include_directories(test_speculation_pool_tsan PRIVATE ${CMAKE_SOURCE_DIR}/hw/board ${CMAKE_SOURCE_DIR}/hw/cpu)
  target_compile_options(test_speculation_pool_tsan PRIVATE -fsanitize=thread -O1 -g -fno-tree-slp-vectorize
                         $<$<COMPILE_LANGUAGE:CXX>:-mno-red-zone>)
  target_link_options(test_speculation_pool_tsan PRIVATE -fsanitize=thread)
  target_link_libraries(test_speculation_pool_tsan PRIVATE testbed_tables Threads::Threads)
  # Built by the test itself (it is not part of `all`: a second copy of the core).
  add_test(NAME parallel_pool_has_no_race_under_tsan
    COMMAND sh -c "${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target test_speculation_pool_tsan >/dev/null && TSAN_OPTIONS=halt_on_error=1 $<TARGET_FILE:test_speculation_pool_tsan>")
  set_tests_properties(parallel_pool_has_no_race_under_tsan PROPERTIES LABELS "parallel;tsan"
                       PASS_REGULAR_EXPRESSION "speculation pool: PASS" FAIL_REGULAR_EXPRESSION "WARNING: ThreadSanitizer")
endif()

# machine-bench --threads at a tiny size: every size also runs with two threads and the speed-up
# over one is printed (a benchmark, not a timing check: the figures are not judged).
add_test(NAME parallel_machine_bench_prints_the_speed_up
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:machine-bench>|${CMAKE_BINARY_DIR}/firmware/bench-workload-r4000.elf|--sizes|2|--sim-ms|2|--threads|2"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=speed-up\n +1 .* 2 +[0-9.]+ +[0-9.]+\n +2 .* 2 +[0-9.]+ +[0-9.]+\n"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)
set_tests_properties(parallel_machine_bench_prints_the_speed_up PROPERTIES LABELS "parallel;board")

# --repeat R: the pair of runs is taken R times in turn and the median speed-up is printed with
# the range of the R; without --threads there is nothing to repeat, and it says so.
add_test(NAME parallel_machine_bench_repeats_and_prints_the_range
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:machine-bench>|${CMAKE_BINARY_DIR}/firmware/bench-workload-r4000.elf|--sizes|2|--sim-ms|2|--threads|2|--repeat|3"
          -DEXPECT_RC=0 "-DEXPECT_REGEX=speed-up +range\n +1 .* 2 +[0-9.]+ +[0-9.]+ +[0-9.]+- *[0-9.]+\n +2 .* 2 +[0-9.]+ +[0-9.]+ +[0-9.]+- *[0-9.]+\n.*medians of 3 pairs"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)
set_tests_properties(parallel_machine_bench_repeats_and_prints_the_range PROPERTIES LABELS "parallel;board")
add_test(NAME parallel_machine_bench_repeat_needs_threads
  COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:machine-bench>|x.elf|--repeat|3"
          -DEXPECT_RC=2 "-DEXPECT_REGEX=machine-bench: --repeat compares thread counts: give --threads N"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake)
set_tests_properties(parallel_machine_bench_repeat_needs_threads PROPERTIES LABELS "parallel;hardening")

# The main stack's bounds given to ASan while a speculative run executes there (asan_main_stack.h):
# meaningful in the sanitized tree, where ASan's warning or a false report fails it.
testbed_gtest(test_asan_main_stack SOURCES test_asan_main_stack.cpp LIBS testbed_board LABELS "parallel;hardening")
