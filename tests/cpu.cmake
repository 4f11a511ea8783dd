# The 68000/68010 core (label cpu).
set(_cpu_vectors ${TESTBED_SHARED_DIR}/m68000-tests/v1)
# The runner itself reports a missing vector folder and fails, so a wrong TESTBED_SHARED_DIR
# can never pass silently. The known-failures list may only shrink (see the runner).
add_test(NAME cpu_68000_reference_vectors
  COMMAND m68k-vectors ${_cpu_vectors} --known ${CMAKE_CURRENT_SOURCE_DIR}/cpu_vectors_known_failures.txt)
set_tests_properties(cpu_68000_reference_vectors PROPERTIES LABELS cpu TIMEOUT 600)

# The reference workload at ROUNDS=200 must give the README's checksum and instruction count.
add_test(NAME cpu_reference_workload_200_rounds_checksum
  COMMAND m68k-bench ${TESTBED_FIRMWARE_DIR}/bench-workload-r200.elf
          --expect-checksum 0xA622340C --expect-instructions 41819625)
set_tests_properties(cpu_reference_workload_200_rounds_checksum PROPERTIES LABELS cpu TIMEOUT 300)

foreach(t test_m68k_68010 test_m68k_68010_timing test_m68k_speculation test_m68k_stopped_cycles
          test_m68k_code_changes test_m68k_paths_agree test_m68k_hot_regs)
  testbed_gtest(${t} SOURCES ${t}.cpp LIBS m68k_core LABELS cpu)
endforeach()

# The Embench differential (issue #64): every benchmark of third_party/embench-iot, built as
# 68000 and 68010 code by firmware/embench, runs to its exit on the fast path and each other
# way of tests/m68k_ways.h; the machines must agree and verify_benchmark() must say right. One
# CTest test per benchmark (both models). The benchmarks are the folders of the vendored tree, as
# for the images.
file(GLOB _embench_dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/third_party/embench-iot/src/*)
set(_embench)
foreach(d ${_embench_dirs})
  get_filename_component(b ${d} NAME)
  list(APPEND _embench ${b})
endforeach()
string(REPLACE ";" "," _embench "${_embench}")
testbed_gtest(test_m68k_embench_differential SOURCES test_m68k_embench_differential.cpp
  LIBS m68k_core testbed_elf testbed_tables LABELS cpu)
target_compile_definitions(test_m68k_embench_differential PRIVATE
  TESTBED_FIRMWARE_DIR="${TESTBED_FIRMWARE_DIR}" "EMBENCH_BENCHMARKS=\"${_embench}\"")
add_dependencies(test_m68k_embench_differential firmware)
