# The m68k disassembler (hw/cpu/m68k_disasm.*, in m68k_core; the m68k-dis tool is built in
# hw/cpu): its tests.
testbed_gtest(test_m68k_disasm SOURCES test_m68k_disasm.cpp LIBS m68k_core LABELS cpu)

# The comparison against GNU objdump itself needs the cross binutils (scripts/setup-debian.sh
# installs them); without them the comparison is not registered rather than passing vacuously.
find_program(M68K_OBJDUMP m68k-linux-gnu-objdump)
if(M68K_OBJDUMP)
  testbed_gtest(test_m68k_disasm_objdump SOURCES test_m68k_disasm_objdump.cpp
                LIBS m68k_core LABELS cpu)
  target_compile_definitions(test_m68k_disasm_objdump PRIVATE
    M68K_OBJDUMP="${M68K_OBJDUMP}"
    TESTBED_FIRMWARE_DIR="${TESTBED_FIRMWARE_DIR}"
    DISASM_SCRATCH_DIR="${CMAKE_CURRENT_BINARY_DIR}")
  add_dependencies(test_m68k_disasm_objdump firmware)
else()
  message(WARNING "m68k-linux-gnu-objdump not found: the disassembler-vs-objdump tests are not registered")
endif()
