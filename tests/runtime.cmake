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

