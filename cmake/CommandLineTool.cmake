# The tools whose command line CLI11 reads (testbed, tos-bench, tos-mkfs, smpsim): CLI11 2.1 is
# header-only, and its templates (with <regex> in some) made each tool's main file one of the
# slowest of the build, 24-41 s under the sanitizers. A main file parses options and starts the
# run, the libraries it links do the work, so it is compiled at -O1 (35-40% less compile time).
find_package(CLI11 REQUIRED)
function(testbed_command_line_tool target)
  target_link_libraries(${target} PRIVATE CLI11::CLI11)
  target_compile_options(${target} PRIVATE $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CONFIG:RelWithDebInfo,Release>>:-O1>)
endfunction()
