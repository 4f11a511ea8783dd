# find_package(TestbedModels): the Testbed's SystemC/TLM-2.0 models as imported targets
# (README "Building on the models"):
#   TestbedModels::testbed_machine   the whole machine, MachineBuilder (links everything below)
#   TestbedModels::testbed_board     a board, testbed::Device (user devices)
#   TestbedModels::testbed_centrenet, testbed_monitor, testbed_config, testbed_elf, m68k_core, ...
#   testbed_device_registers(TARGET table.toml)   generate a device's register headers into the
#                                                 build and add them to TARGET's include path
#   TestbedModels_FIRMWARE_DIR, TestbedModels_CONFIG_DIR   tos.elf, demo.elf; the machine files
# SystemC (pkg-config systemc >= 2.3.4, C++17 as Debian builds it) and toml++ come from the system.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::SYSTEMC)
  pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET GLOBAL systemc>=2.3.4)
endif()
find_dependency(tomlplusplus)
find_dependency(Python3 3.11 COMPONENTS Interpreter)

get_filename_component(_tbm_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET TestbedModels::rtl_monitor)
  add_library(TestbedModels::rtl_monitor STATIC IMPORTED)
  set_target_properties(TestbedModels::rtl_monitor PROPERTIES
    IMPORTED_LOCATION "${_tbm_prefix}/lib/librtl_monitor_sc.a"
    INTERFACE_LINK_LIBRARIES "PkgConfig::SYSTEMC;Threads::Threads")
endif()
include("${CMAKE_CURRENT_LIST_DIR}/TestbedModelsTargets.cmake")

set(TestbedModels_FIRMWARE_DIR "${_tbm_prefix}/share/testbed/firmware")
set(TestbedModels_CONFIG_DIR "${_tbm_prefix}/share/testbed/configs")
set(TestbedModels_GEN_DEVICE "${_tbm_prefix}/bin/testbed-gen-device")

# testbed_device_registers(TARGET TABLE): TABLE's [device] name N gives <N>_regs.h (C) and
# <N>_registers.h (C++) in the build folder, regenerated when the table changes; a bad table
# stops the build with its file and line.
function(testbed_device_registers target table)
  get_filename_component(table "${table}" ABSOLUTE)
  file(READ "${table}" _text)
  string(REGEX MATCH "name[ \t]*=[ \t]*\"([a-z][a-z0-9_]*)\"" _m "${_text}")
  if(NOT CMAKE_MATCH_1)
    message(FATAL_ERROR "${table}: no [device] name = \"...\"")
  endif()
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/testbed_device_registers")
  add_custom_command(OUTPUT ${_out}/${CMAKE_MATCH_1}_regs.h ${_out}/${CMAKE_MATCH_1}_registers.h
    COMMAND ${Python3_EXECUTABLE} "${_tbm_prefix}/share/testbed/tables/gen_tables.py" --device "${table}" --out "${_out}"
    DEPENDS "${table}" COMMENT "Generating the registers of ${table}")
  target_sources(${target} PRIVATE ${_out}/${CMAKE_MATCH_1}_regs.h ${_out}/${CMAKE_MATCH_1}_registers.h)
  target_include_directories(${target} PRIVATE ${_out})
endfunction()
