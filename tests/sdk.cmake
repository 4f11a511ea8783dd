# The TOS SDK (label sdk; README "A session on the Testbed"): `cmake --install` to a fresh
# prefix (a fixture the other tests use), then the program of tests/sdk/program built outside
# the tree with that prefix alone, twice (tos-cc; find_package(TOS) + tos_add_program), booted
# with the installed tos-mkfs and testbed, its output compared with the host's (tests/sdk/sdk_test.py).
set(_sdk_prefix ${CMAKE_BINARY_DIR}/test-out/sdk/prefix)
set(_sdk_test ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/sdk/sdk_test.py)
add_test(NAME sdk_installs_to_a_fresh_prefix
  COMMAND ${_sdk_test} install --build ${CMAKE_BINARY_DIR} --prefix ${_sdk_prefix})
set_tests_properties(sdk_installs_to_a_fresh_prefix PROPERTIES LABELS sdk FIXTURES_SETUP tos_sdk TIMEOUT 120)
foreach(t
    # built with tos-cc and with find_package(TOS), -g, booted: the host's first line
    "program_outside_the_tree_builds_both_ways_and_boots:builds_and_boots"
    # printf("%llu %f %e %g") of computed values, and ctype, assert, abort and <math.h> with
    # tos-cc -lm (issues #31, #40: newlib): the host's digits
    "program_prints_64_bit_and_double_values_as_the_host:prints_numbers_as_the_host"
    "tos_cc_refuses_68020_code_and_compiles_with_c:refuses_68020_code"
    # the installed headers are the library's (time_t), and the time functions, swprintf and
    # its kin, strtold, wcstold, towctrans, hsearch, on_exit link and print the host's lines
    "c_library_agrees_with_its_headers:c_library_agrees_with_its_headers")
  string(REPLACE ":" ";" t "${t}")
  list(GET t 0 name)
  list(GET t 1 scenario)
  add_test(NAME sdk_${name} COMMAND ${_sdk_test} ${scenario} --prefix ${_sdk_prefix})
  set(_labels sdk)
  if(name MATCHES "c_library")
    list(APPEND _labels library)
  endif()
  set_tests_properties(sdk_${name} PROPERTIES LABELS "${_labels}" FIXTURES_REQUIRED tos_sdk TIMEOUT 600)
endforeach()

# Every relative link of the installed documents (share/doc/testbed) leads to a file there, and
# its #fragment to a heading (issue 62: docs installed flat, the TOS README renamed, READMEs left
# out). The checker finds broken links: docs_link_checker_finds_broken_links.
add_test(NAME docs_installed_links_resolve
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/links_resolve.py ${_sdk_prefix}/share/doc/testbed
          --need README.md firmware/tos/README.md docs/tos_abi.md waveforms/README.md hw/board/README.md)
set_tests_properties(docs_installed_links_resolve PROPERTIES LABELS "docs;sdk" FIXTURES_REQUIRED tos_sdk TIMEOUT 60)

# The README recipes that name an installed tool run from an empty folder against the installed
# prefix alone (the clone's paths mapped to the install's: tests/docs/run_recipes.py --installed);
# those that make the install or use a tool it does not carry are listed with the reason.
foreach(doc README.md firmware/tos/README.md)
  string(MAKE_C_IDENTIFIER "${doc}" _id)
  add_test(NAME docs_recipes_of_${_id}_run_in_the_install
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_recipes.py ${CMAKE_SOURCE_DIR}/${doc}
            --installed ${_sdk_prefix})
  set_tests_properties(docs_recipes_of_${_id}_run_in_the_install PROPERTIES LABELS "docs;sdk"
                       FIXTURES_REQUIRED tos_sdk TIMEOUT 1500)
endforeach()

# gdb on a program built with the installed SDK (gdb/gdb_test.py SUBCOMMAND against the install).
function(_sdk_gdb_test name subcommand timeout)
  add_test(NAME ${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py ${subcommand}
            --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH}
            --sdk ${_sdk_prefix})
  set_tests_properties(${name} PROPERTIES LABELS "gdb;sdk" FIXTURES_REQUIRED tos_sdk TIMEOUT ${timeout})
endfunction()
if(TESTBED_GDB_MULTIARCH)
  # lines, arguments, locals, bt down to main
  _sdk_gdb_test(gdb_sdk_program_backtrace_reaches_main sdk_backtrace 300)
  # built for debugging (tos-cc -Og; CMake's Debug configuration): every local has its value
  _sdk_gdb_test(gdb_sdk_debug_builds_show_every_local sdk_debug_build 600)
  # the TOS libraries' sources it steps into are the install's (share/testbed/gdb/tos-sources.gdb)
  _sdk_gdb_test(gdb_sdk_library_sources_listed_from_the_install sdk_library_sources 300)
endif()

# Every tool of build/bin answers --version with the project's version and the git commit, and
# neither --version nor --help prints SystemC's banner.
set(_tool_paths)
foreach(tool ${TESTBED_TOOLS})
  list(APPEND _tool_paths $<TARGET_FILE:${tool}>)
endforeach()
add_test(NAME sdk_every_tool_answers_version_without_a_banner
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/sdk/versions_test.py ${PROJECT_VERSION}
          ${_tool_paths} $<TARGET_FILE:runtime_host_fuzz> ${CMAKE_BINARY_DIR}/bin/testbed-experiment
          ${CMAKE_BINARY_DIR}/bin/testbed-analyse)
set_tests_properties(sdk_every_tool_answers_version_without_a_banner PROPERTIES LABELS sdk TIMEOUT 120)
