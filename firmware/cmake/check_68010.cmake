# testbed_check_68010(TARGET): a POST_BUILD step that disassembles the linked image and refuses
# it - the build fails, the image is deleted - if it holds an instruction or addressing mode
# the 68010 does not have, naming the function (lib/runtime/check_68010.py). Included by the
# firmware build for every image, and by the test that proves the refusal (tests/runtime_check).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(TESTBED_CHECK_68010 ${CMAKE_CURRENT_LIST_DIR}/../lib/runtime/check_68010.py)
if(NOT CMAKE_OBJDUMP)
  set(CMAKE_OBJDUMP m68k-linux-gnu-objdump)
endif()

function(testbed_check_68010 target)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${Python3_EXECUTABLE} ${TESTBED_CHECK_68010} --objdump ${CMAKE_OBJDUMP}
            --delete-on-failure $<TARGET_FILE:${target}>
    VERBATIM)
endfunction()
