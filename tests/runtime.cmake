# The 68010 runtime and its check (labels "tos", "foundation"): firmware/lib/runtime.
#
# runtime_check_refuses_68020: the build refuses an image that holds an instruction the 68010
# does not have, naming the function (a scratch project in tests/runtime_check, configured with
# the firmware's toolchain and the same POST_BUILD check as every image), and accepts 68010 code
# (a jump table included) and a real image, build/firmware/hello.elf. The exactness of the
# helpers themselves is the TOS test tos_runtime_helpers_are_exact (tests/tos_kernel.cmake).
find_program(TESTBED_M68K_GCC m68k-linux-gnu-gcc)
if(TESTBED_M68K_GCC)
  add_test(NAME runtime_check_refuses_68020
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/runtime_check/run_test.py
      --cmake ${CMAKE_COMMAND} --generator ${CMAKE_GENERATOR}
      --firmware ${CMAKE_SOURCE_DIR}/firmware --build ${CMAKE_CURRENT_BINARY_DIR}/runtime_check
      --clean-image ${TESTBED_FIRMWARE_DIR}/hello.elf)
  set_tests_properties(runtime_check_refuses_68020 PROPERTIES LABELS "tos;foundation"
    PASS_REGULAR_EXPRESSION "runtime_check_refuses_68020: PASS")
else()
  message(STATUS "m68k-linux-gnu-gcc not found: runtime_check_refuses_68020 is not registered")
endif()

# runtime_agrees_with_host_fpu: the runtime's sources (portable C on integers) built for the host
# and compared with the host's IEEE-754 hardware over random operands biased towards denormals,
# edges, infinities, NaNs and ties (tests/runtime_check/host_fuzz.c).
file(GLOB _runtime_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/firmware/lib/runtime/*.c)
add_executable(runtime_host_fuzz runtime_check/host_fuzz.c ${_runtime_sources})
target_include_directories(runtime_host_fuzz PRIVATE ${CMAKE_SOURCE_DIR}/firmware/lib/runtime)
target_link_libraries(runtime_host_fuzz PRIVATE testbed_warnings)
target_include_directories(runtime_host_fuzz PRIVATE ${CMAKE_BINARY_DIR}/sw/output/version)  # --version
add_dependencies(runtime_host_fuzz version_info)
set_target_properties(runtime_host_fuzz PROPERTIES C_STANDARD 11)
add_test(NAME runtime_agrees_with_host_fpu COMMAND runtime_host_fuzz 500000)
set_tests_properties(runtime_agrees_with_host_fpu PROPERTIES LABELS "tos;foundation"
  PASS_REGULAR_EXPRESSION "runtime_agrees_with_host_fpu: PASS")
