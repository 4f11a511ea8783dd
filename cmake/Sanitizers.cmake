# -DTESTBED_SANITIZE=ON: the whole host build (models, core, tools, tests) under ASan + UBSan.
if(TESTBED_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # GCC 12 under the sanitizers warns "may be used uninitialized" inside libstdc++'s <regex>
  # (std::function moved in its NFA; rtl/tb/monitor_regress.cpp and others): a false positive
  # of the instrumented code, not seen in the normal build, which keeps the warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  # Line tables are all a sanitizer's report needs (file and line of each frame); full debug
  # information made the instrumented build about 30% slower to compile (sim/testbed/machine.cpp:
  # 50 s at -g, 35 s at -g1), and CI builds this tree from nothing on two cores.
  foreach(lang C CXX)
    string(REGEX REPLACE "(^| )-g( |$)" "\\1-g1\\2" CMAKE_${lang}_FLAGS_RELWITHDEBINFO
           "${CMAKE_${lang}_FLAGS_RELWITHDEBINFO}")
  endforeach()
endif()

# -DTESTBED_LIBFUZZER=ON (clang; scripts/fuzz.sh): everything instrumented for libFuzzer's
# coverage and under ASan + UBSan; the fuzz targets (tests/fuzz.cmake) link libFuzzer itself.
if(TESTBED_LIBFUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TESTBED_LIBFUZZER needs clang (CXX=clang++): libFuzzer is part of clang")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
