# TOS (label "tos"): the filestore's host side (sw/filestore, tos-mkfs) and its loading by the
# simulators (board.filestore, testbed-board --filestore).

# The CMake function of cmake/tos_filestore.cmake, on images the firmware build already makes:
# build/firmware/test-filestore.fs holds demo, hello and the boot script "rc".
tos_filestore(NAME test-filestore FILES demo hello.elf RC test_filestore.rc SIZE_KB 128)

add_executable(test_filestore test_filestore.cpp board_test_main.cpp)
target_link_libraries(test_filestore PRIVATE GTest::gtest testbed_filestore testbed_machine testbed_warnings)
target_compile_definitions(test_filestore PRIVATE
  TESTBED_FIRMWARE_DIR="${TESTBED_FIRMWARE_DIR}"
  TESTBED_DEFAULT_CONFIG="${CMAKE_SOURCE_DIR}/sim/configs/testbed.toml"
  TEST_OUT_DIR="${CMAKE_CURRENT_BINARY_DIR}"
  TEST_RC_FILE="${CMAKE_CURRENT_SOURCE_DIR}/test_filestore.rc"
  TOS_MKFS="$<TARGET_FILE:tos-mkfs>"
  TESTBED="$<TARGET_FILE:testbed>"
  TESTBED_BOARD="$<TARGET_FILE:testbed-board>")
add_dependencies(test_filestore firmware filestore-test-filestore tos-mkfs testbed testbed-board)
gtest_discover_tests(test_filestore DISCOVERY_TIMEOUT 60)
# gtest_discover_tests writes PROPERTIES unquoted, which splits a list of labels: label the
# tests after discovery, from the list of those it found.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/test_filestore_labels.cmake
  "if(test_filestore_TESTS)\n  set_tests_properties(\${test_filestore_TESTS} PROPERTIES LABELS \"tos;foundation\")\nendif()\n")
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${CMAKE_CURRENT_BINARY_DIR}/test_filestore_labels.cmake)
