# The fuzz harness (issue #19, labels fuzz and hardening; tests/fuzz/README.md): one target per
# parser that reads what a user gives -- the monitor's trace decoder, the image loader, the
# configuration reader -- each built with the project's mutation driver (fuzz_driver.cpp) and
# run here for a fixed number of inputs from the corpus in tests/fuzz/corpus (deterministic:
# the same inputs every time; the sanitized tree runs them under ASan + UBSan). The long run,
# with libFuzzer: scripts/fuzz.sh all 600.
set(_fz ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
set(_fz_out ${CMAKE_BINARY_DIR}/test-out/fuzz)
file(MAKE_DIRECTORY ${_fz_out})

# fuzz_target(NAME LIBS... [RUNS n])
function(fuzz_target name)
  cmake_parse_arguments(F "" "RUNS;CORPUS" "LIBS" ${ARGN})
  add_executable(fuzz_${name} ${_fz}/fuzz_${name}.cpp)
  target_include_directories(fuzz_${name} PRIVATE ${_fz})
  target_link_libraries(fuzz_${name} PRIVATE ${F_LIBS} testbed_warnings)
  set_target_properties(fuzz_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  if(TESTBED_LIBFUZZER)
    target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  else()
    target_sources(fuzz_${name} PRIVATE ${_fz}/fuzz_driver.cpp)
    target_compile_definitions(fuzz_${name} PRIVATE FUZZ_TARGET_NAME="${name}")
    target_include_directories(fuzz_${name} PRIVATE ${CMAKE_SOURCE_DIR}/sw/output)
  endif()
  if(F_CORPUS AND NOT TESTBED_LIBFUZZER)
    add_test(NAME fuzz_${name}_short
      COMMAND fuzz_${name} ${_fz}/corpus/${F_CORPUS} --runs ${F_RUNS} --seed 1
      WORKING_DIRECTORY ${_fz_out})
    set_tests_properties(fuzz_${name}_short PROPERTIES LABELS "fuzz;hardening" TIMEOUT 600
                         PASS_REGULAR_EXPRESSION "fuzz_${name}: [0-9]+ runs .*: no crash")
  endif()
endfunction()

fuzz_target(trace_decoder LIBS testbed_monitor_decoder CORPUS trace RUNS 1000000)
fuzz_target(elf_loader LIBS testbed_elf CORPUS elf RUNS 1000000)
fuzz_target(config LIBS testbed_machine testbed_config CORPUS config RUNS 200000)

# The driver can fail: a target that aborts on inputs starting with "CRASH" is reported, with a
# non-zero status, and the input that did it is left on disk.
if(NOT TESTBED_LIBFUZZER)
  fuzz_target(selftest_crash)
  add_test(NAME fuzz_driver_reports_a_crash
    COMMAND ${CMAKE_COMMAND} "-DCMD=$<TARGET_FILE:fuzz_selftest_crash>|${_fz_out}/crash-seed" -DEXPECT_RC=1
            "-DEXPECT_REGEX=fuzz_selftest_crash: the target crashed \\(signal 06\\).*its input is in fuzz-crash-selftest_crash.bin"
            -DSETUP_FILE=${_fz_out}/crash-seed -DSETUP_TEXT=CRASH!
            -DCHECK_FILE=${_fz_out}/fuzz-crash-selftest_crash.bin -DCHECK_REGEX=^CRASH!$
            -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/run_check.cmake
    WORKING_DIRECTORY ${_fz_out})
  set_tests_properties(fuzz_driver_reports_a_crash PROPERTIES LABELS "fuzz;hardening")
endif()
