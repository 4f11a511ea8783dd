# `cmake --install build --prefix DIR`: the SDK a firmware developer builds and runs TOS programs
# with, outside the clone (README "A session on the Testbed"):
#   DIR/bin/tos-cc, DIR/lib/cmake/TOS/ (find_package(TOS)), DIR/m68k-tos/ (headers, libraries,
#   linker script), DIR/libexec/tos/check_68010.py    - from the firmware sub-build (firmware/tos/sdk)
#   DIR/bin/testbed, testbed-board, tos-mkfs, monitor-decode, m68k-dis   - the simulator and tools
#   DIR/share/testbed/configs, DIR/share/testbed/firmware (tos.elf, the programs, filestores)
#   DIR/bin/testbed-experiment, testbed-analyse, tos-profile, tbwaves; DIR/share/testbed/python,
#   DIR/share/testbed/waveforms (save files, filters)        - the analysis and the waveforms
#   DIR/share/doc/testbed                                - the READMEs and docs/, at their paths in the clone
# An installed tool finds its configurations and firmware beside itself (sw/output/install_paths.h).
install(TARGETS testbed testbed-board tos-mkfs monitor-decode m68k-dis RUNTIME DESTINATION bin)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/sim/configs/ DESTINATION share/testbed/configs)
# The Embench images (firmware/embench) are the CPU test's, built from GPL sources
# (third_party/embench-iot), and not part of the SDK.
install(DIRECTORY ${TESTBED_FIRMWARE_DIR}/ DESTINATION share/testbed/firmware
        FILES_MATCHING PATTERN "*.elf" PATTERN "*.fs" PATTERN "embench-*" EXCLUDE)
# The documentation as it sits in the clone: every README and document (*.md) and the figures
# they show (*.png, *.svg), each at its own path under share/doc/testbed/, so that their relative
# links work in the install as in the tree (test docs_installed_links_resolve). The documents
# name source files in backquotes, not as links.
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/testbed)
foreach(dir docs examples firmware hw rtl sim sw waveforms)
  file(GLOB_RECURSE _docs RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS
       ${CMAKE_SOURCE_DIR}/${dir}/*.md ${CMAKE_SOURCE_DIR}/${dir}/*.png ${CMAKE_SOURCE_DIR}/${dir}/*.svg)
  # sw/analysis/*_why.md and *_intro.md are not documents: testbed-experiment pastes them into
  # docs/results/*.md, where their links are written from; profiles_template.md is docs/profiles.md
  # before docs-claims fills it, its links written from docs/
  list(FILTER _docs EXCLUDE REGEX "^sw/analysis/.*_(why|intro|template)\\.md$")
  foreach(f ${_docs})
    get_filename_component(_d ${f} DIRECTORY)
    install(FILES ${CMAKE_SOURCE_DIR}/${f} DESTINATION share/doc/testbed/${_d})
  endforeach()
endforeach()
# The tools the documents use beside the simulator: the analysis (sw/analysis: testbed-experiment,
# testbed-analyse, tos-profile, in the versions that find their package, the firmware and the
# simulator under the prefix; the package in share/testbed/python with the text it pastes into
# reports) and the waveform workflow (waveforms/README.md: tbwaves, the GTKWave save files, the
# translate filters, the sample session of the README's recipe).
install(PROGRAMS ${CMAKE_BINARY_DIR}/install-bin/testbed-experiment ${CMAKE_BINARY_DIR}/install-bin/testbed-analyse
                 ${CMAKE_BINARY_DIR}/install-bin/tos-profile DESTINATION bin)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/sw/analysis/testbed_analysis DESTINATION share/testbed/python
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
file(GLOB _analysis_text ${CMAKE_SOURCE_DIR}/sw/analysis/*_why.md ${CMAKE_SOURCE_DIR}/sw/analysis/*_intro.md)
install(FILES ${_analysis_text} DESTINATION share/testbed/python)
install(FILES ${CMAKE_BINARY_DIR}/sw/output/version/testbed_version_info.h DESTINATION share/testbed)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/waveforms/tbwaves.py DESTINATION bin RENAME tbwaves)
install(FILES ${TESTBED_GENERATED_DIR}/gtkwave/events.filter ${TESTBED_GENERATED_DIR}/gtkwave/registers.filter
        DESTINATION share/testbed/waveforms)
install(FILES ${CMAKE_SOURCE_DIR}/tests/waveforms/sample/rc ${CMAKE_SOURCE_DIR}/tests/waveforms/sample/input.txt
        DESTINATION share/testbed/waveforms/sample)
# The save files name their filter build/generated/gtkwave/events.filter, from the clone's root;
# the installed ones name the installed filter by its absolute path, so they open from anywhere.
foreach(g monitor monitor_events monitor_rtl)
  install(CODE "
    set(_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/testbed/waveforms\")
    file(READ \"${CMAKE_SOURCE_DIR}/waveforms/${g}.gtkw\" _g)
    string(REPLACE \"build/generated/gtkwave/\" \"\${CMAKE_INSTALL_PREFIX}/share/testbed/waveforms/\" _g \"\${_g}\")
    message(STATUS \"Installing: \${_dir}/${g}.gtkw\")
    file(WRITE \"\${_dir}/${g}.gtkw\" \"\${_g}\")")
endforeach()
# The firmware sub-build's own rules (tos-cc, headers, libraries, TOSConfig.cmake), to the same prefix.
install(CODE "
  execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${TESTBED_FIRMWARE_SUBBUILD_DIR}\"
                          --prefix \"\${CMAKE_INSTALL_PREFIX}\" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR \"installing the firmware sub-build failed\")
  endif()")

# ---- The models as a library for hardware designers (issue #38; README "Building on the models") ----
#   DIR/include/testbed/*.h           the public headers (one prefix; they include each other by name)
#   DIR/lib/libtestbed_*.a            the model libraries
#   DIR/lib/cmake/TestbedModels/      find_package(TestbedModels): imported targets TestbedModels::*,
#                                     SystemC and toml++ from the system, testbed_device_registers()
#   DIR/bin/testbed-gen-device        the register generator, for a user device's own table
# The public headers: what a user's sc_main or device includes, and everything those include.
# The rest (the core's decoder and executor, tool plumbing) stays out: it is not an interface.
set(TESTBED_PUBLIC_HEADERS
  hw/board/absent_device.h hw/board/address_decoder.h hw/board/board.h hw/board/board_identity.h hw/board/board_state.h
  hw/board/bus_extension.h hw/board/bus_observer.h hw/board/bus_vcd.h hw/board/commit_log.h
  hw/board/cycle_profile.h hw/board/console_endpoints.h hw/board/cpu_debug.h hw/board/cpu_engine.h hw/board/cpu_initiator.h
  hw/board/cpu_loop_state.h hw/board/cpu_speculation.h hw/board/cpu_timing.h hw/board/ram_journal.h hw/board/speculation_pool.h hw/board/device.h hw/board/device_directory.h
  hw/board/dma_port.h hw/board/file_service.h hw/board/interrupt_controller.h hw/board/memory.h
  hw/board/mmu.h hw/board/serial_endpoint.h hw/board/serial_port.h hw/board/sim_control.h hw/board/timer.h
  hw/bus/irq_line.h hw/bus/memory_port.h hw/bus/register_target.h hw/bus/restorable_signal.h
  hw/bus/state_archive.h
  hw/centrenet/centrenet_bus.h hw/centrenet/centrenet_config.h hw/centrenet/centrenet_network.h
  hw/centrenet/fibre_link.h hw/centrenet/frame.h hw/centrenet/network_interface.h
  hw/cpu/m68k_bus.h hw/cpu/m68k_cpu.h hw/cpu/m68k_sr.h
  hw/monitor/mmi.h hw/monitor/monitor.h hw/monitor/monitor_engine.h hw/monitor/monitor_params.h
  hw/monitor/monitor_probe.h hw/monitor/monitor_tlm.h hw/monitor/monitor_vcd.h hw/monitor/smi.h
  hw/monitor/smi_filter.h
  sim/testbed/machine.h sim/testbed/machine_builder.h sim/testbed/machine_spec.h
  sim/testbed/monitor_latency.h sim/testbed/operator_console.h
  sw/config/config.h sw/elf/elf_loader.h sw/output/replayed_output.h)
list(TRANSFORM TESTBED_PUBLIC_HEADERS PREPEND ${CMAKE_SOURCE_DIR}/)
install(FILES ${TESTBED_PUBLIC_HEADERS} DESTINATION include/testbed)
install(FILES ${TESTBED_GENERATED_DIR}/include/testbed/memory_map.h ${TESTBED_GENERATED_DIR}/include/testbed/register_tables.h
              ${TESTBED_GENERATED_DIR}/include/testbed/events.h
              ${TESTBED_GENERATED_DIR}/include/testbed/file_service_protocol.h DESTINATION include/testbed)
set(TESTBED_MODEL_LIBRARIES m68k_core testbed_host_file testbed_elf testbed_config testbed_output testbed_tables testbed_bus
    testbed_board testbed_centrenet testbed_monitor_engine testbed_monitor testbed_filestore testbed_machine
    systemc_tlm testbed_warnings)
foreach(t ${TESTBED_MODEL_LIBRARIES})
  get_target_property(_type ${t} TYPE)
  if(NOT _type STREQUAL "INTERFACE_LIBRARY")
    set_target_properties(${t} PROPERTIES EXPORT_NAME ${t})
  endif()
endforeach()
# An installed sanitized build (-DTESTBED_SANITIZE=ON) gives its users, plugins included, the
# same flags: ASan's runtime must be in every object of the process that dlopens a device.
if(TESTBED_SANITIZE)
  target_compile_options(systemc_tlm INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined -fno-omit-frame-pointer>)
  target_link_options(systemc_tlm INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
endif()
install(TARGETS ${TESTBED_MODEL_LIBRARIES} EXPORT TestbedModelsTargets
        ARCHIVE DESTINATION lib INCLUDES DESTINATION include)
# The verilated monitor RTL, which testbed_machine links privately (monitor.model = "rtl").
install(TARGETS rtl_monitor_sc ARCHIVE DESTINATION lib)
install(EXPORT TestbedModelsTargets NAMESPACE TestbedModels:: DESTINATION lib/cmake/TestbedModels)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/TestbedModelsConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/TestbedModelsConfig.cmake ${CMAKE_BINARY_DIR}/TestbedModelsConfigVersion.cmake
        DESTINATION lib/cmake/TestbedModels)
# tables.py: the one reader of the tables, for gen_tables.py, tbwaves, the analysis (share/testbed/python)
# and configs/gen_boards.py, each of which finds share/testbed/tables from where it is installed.
install(FILES ${CMAKE_SOURCE_DIR}/sw/tables/gen_tables.py ${CMAKE_SOURCE_DIR}/sw/tables/tables.py
              ${CMAKE_SOURCE_DIR}/sw/tables/memory_map.toml
              ${CMAKE_SOURCE_DIR}/sw/tables/events.toml ${CMAKE_SOURCE_DIR}/sw/tables/tos.toml
              ${CMAKE_SOURCE_DIR}/sw/tables/file_service.toml
        DESTINATION share/testbed/tables)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/sw/tables/registers/ DESTINATION share/testbed/tables/registers)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/cmake/testbed-gen-device DESTINATION bin)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/ DESTINATION share/testbed/examples)
