# The models as a library (label library; README "Building on the models", issue #38): install to
# a fresh prefix (a fixture), then the installed examples built outside the tree against it alone
# (find_package(TestbedModels), the TOS SDK) and run (tests/library/library_test.py).
set(_lib_prefix ${CMAKE_BINARY_DIR}/test-out/library/prefix)
set(_lib_test ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/library/library_test.py)
add_test(NAME library_installs_to_a_fresh_prefix
  COMMAND ${_lib_test} install --build ${CMAKE_BINARY_DIR} --prefix ${_lib_prefix})
set_tests_properties(library_installs_to_a_fresh_prefix PROPERTIES LABELS library FIXTURES_SETUP testbed_library
                     RESOURCE_LOCK testbed_library_prefix TIMEOUT 300)
foreach(s headers_say_what_they_are compose_two_boards_and_a_monitor device_on_a_board dma_device_on_a_board
          refused_before_the_machine_is_built exact_with_the_device_at_two_quanta
          exact_with_the_dma_device_at_two_quanta)
  add_test(NAME library_${s} COMMAND ${_lib_test} ${s} --prefix ${_lib_prefix})
  set_tests_properties(library_${s} PROPERTIES LABELS library FIXTURES_REQUIRED testbed_library TIMEOUT 900)
endforeach()
# The device is its owner's (issue #57): the driver's second process is refused EBUSY.
set_tests_properties(library_device_on_a_board PROPERTIES LABELS "library;security")
# A device DMAs into a buffer its TOS driver got from the kernel, freed again (issue #62).
set_tests_properties(library_dma_device_on_a_board PROPERTIES LABELS "library;sdk")

# MachineBuilder::add_device with a device's own parameters (issue 62): they reach the model as a
# machine file's keys do; one the model does not read, or an entry key, is refused.
add_executable(test_machine_builder test_machine_builder.cpp board_test_main.cpp)
target_link_libraries(test_machine_builder PRIVATE GTest::gtest testbed_machine testbed_warnings)
target_compile_definitions(test_machine_builder PRIVATE TESTBED_FIRMWARE_DIR="${TESTBED_FIRMWARE_DIR}")
add_dependencies(test_machine_builder firmware)
gtest_discover_tests(test_machine_builder DISCOVERY_TIMEOUT 60 PROPERTIES LABELS library)
