# The m68k disassembler (hw/cpu/m68k_disasm.*): its library, the m68k-dis tool and its tests.
#
# The disassembler is self-contained. When the core's m68k_core library compiles
# m68k_disasm.cpp itself we use that; until then (or if it stays an INTERFACE library) we build
# our own small static library so nothing is compiled twice into one executable.
set(_disasm_src ${CMAKE_SOURCE_DIR}/hw/cpu/m68k_disasm.cpp)
set(M68K_DISASM_LIB m68k_disasm)
if(TARGET m68k_core)
  get_target_property(_core_type m68k_core TYPE)
  if(NOT _core_type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(_core_srcs m68k_core SOURCES)
    if(_core_srcs MATCHES "m68k_disasm\\.cpp")
      set(M68K_DISASM_LIB m68k_core)
    endif()
  endif()
endif()
if(M68K_DISASM_LIB STREQUAL "m68k_disasm")
  add_library(m68k_disasm STATIC ${_disasm_src})
  target_include_directories(m68k_disasm PUBLIC ${CMAKE_SOURCE_DIR}/hw/cpu)
  target_link_libraries(m68k_disasm PRIVATE testbed_warnings)
endif()

# m68k-dis: disassemble an ELF image's executable segments, a raw binary, or hex words.
add_executable(m68k-dis ${CMAKE_SOURCE_DIR}/hw/cpu/tools/m68k_dis_main.cpp)
target_link_libraries(m68k-dis PRIVATE ${M68K_DISASM_LIB} testbed_elf testbed_warnings)

testbed_gtest(test_m68k_disasm SOURCES test_m68k_disasm.cpp LIBS ${M68K_DISASM_LIB} LABELS cpu)

# The comparison against GNU objdump itself needs the cross binutils (scripts/setup-debian.sh
# installs them); without them the comparison is not registered rather than passing vacuously.
find_program(M68K_OBJDUMP m68k-linux-gnu-objdump)
if(M68K_OBJDUMP)
  testbed_gtest(test_m68k_disasm_objdump SOURCES test_m68k_disasm_objdump.cpp
                LIBS ${M68K_DISASM_LIB} LABELS cpu)
  target_compile_definitions(test_m68k_disasm_objdump PRIVATE
    M68K_OBJDUMP="${M68K_OBJDUMP}"
    TESTBED_FIRMWARE_DIR="${TESTBED_FIRMWARE_DIR}"
    DISASM_SCRATCH_DIR="${CMAKE_CURRENT_BINARY_DIR}")
  add_dependencies(test_m68k_disasm_objdump firmware)
else()
  message(WARNING "m68k-linux-gnu-objdump not found: the disassembler-vs-objdump tests are not registered")
endif()
