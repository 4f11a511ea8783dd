# -Wall -Wextra for all host code we own (third-party and generated code opts out per target).
add_library(testbed_warnings INTERFACE)
target_compile_options(testbed_warnings INTERFACE -Wall -Wextra)
if(TESTBED_WERROR)
  target_compile_options(testbed_warnings INTERFACE -Werror)
endif()

# Verilator's runtime headers are not ours: include them as system headers so -Wextra stays
# about our code. Link this next to any verilated library.
add_library(verilator_system_headers INTERFACE)
target_include_directories(verilator_system_headers SYSTEM INTERFACE /usr/share/verilator/include
                           /usr/share/verilator/include/vltstd)
