# `cmake --install build --prefix DIR`: the SDK a firmware developer builds and runs TOS programs
# with, outside the clone (README "A session on the Testbed"):
#   DIR/bin/tos-cc, DIR/lib/cmake/TOS/ (find_package(TOS)), DIR/m68k-tos/ (headers, libraries,
#   linker script), DIR/libexec/tos/check_68010.py    - from the firmware sub-build (firmware/tos/sdk)
#   DIR/bin/testbed, testbed-board, tos-mkfs, monitor-decode, m68k-dis   - the simulator and tools
#   DIR/share/testbed/configs, DIR/share/testbed/firmware (tos.elf, the programs, filestores)
#   DIR/share/doc/testbed                                - README.md, the TOS README, docs/*.md
# An installed tool finds its configurations and firmware beside itself (sw/output/install_paths.h).
install(TARGETS testbed testbed-board tos-mkfs monitor-decode m68k-dis RUNTIME DESTINATION bin)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/sim/configs/ DESTINATION share/testbed/configs)
install(DIRECTORY ${TESTBED_FIRMWARE_DIR}/ DESTINATION share/testbed/firmware
        FILES_MATCHING PATTERN "*.elf" PATTERN "*.fs")
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/testbed)
install(FILES ${CMAKE_SOURCE_DIR}/firmware/tos/README.md DESTINATION share/doc/testbed RENAME tos.md)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION share/doc/testbed FILES_MATCHING PATTERN "*.md")
# The firmware sub-build's own rules (tos-cc, headers, libraries, TOSConfig.cmake), to the same prefix.
install(CODE "
  execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${CMAKE_BINARY_DIR}/firmware-build/build\"
                          --prefix \"\${CMAKE_INSTALL_PREFIX}\" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR \"installing the firmware sub-build failed\")
  endif()")
