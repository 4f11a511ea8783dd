# User devices that DMA (label library; issue #62; firmware/tos/README.md "User devices and DMA
# buffers"): the example DMA device (examples/dma_device) built here as the plugin a user builds
# against the install, mapped on earth of a two-board machine, and a TOS driver that gets a DMA
# buffer from the kernel, has the device fill it and checks the bytes; the buffer's frames come
# back when the driver frees it, exits holding one, dies or is killed holding one (ALL_FREE besides).
set(_dma_src ${CMAKE_SOURCE_DIR}/examples/dma_device)
set(_dma_inc ${CMAKE_CURRENT_BINARY_DIR}/dma_device/include)
# the install's one header prefix (<testbed/device.h>), here a link to the tree's header
file(MAKE_DIRECTORY ${_dma_inc}/testbed)
file(CREATE_LINK ${CMAKE_SOURCE_DIR}/hw/board/device.h ${_dma_inc}/testbed/device.h SYMBOLIC)
set(_dma_gen ${CMAKE_CURRENT_BINARY_DIR}/dma_device/gen)
add_custom_command(OUTPUT ${_dma_gen}/dmafill_registers.h ${_dma_gen}/dmafill_regs.h
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/sw/tables/gen_tables.py --device ${_dma_src}/dmafill.toml --out ${_dma_gen}
  DEPENDS ${_dma_src}/dmafill.toml ${CMAKE_SOURCE_DIR}/sw/tables/gen_tables.py
  COMMENT "Generating the example DMA device's registers" VERBATIM)
add_library(dma_fill MODULE ${_dma_src}/dma_fill.cpp ${_dma_gen}/dmafill_registers.h)
target_include_directories(dma_fill PRIVATE ${_dma_inc} ${_dma_gen} ${CMAKE_SOURCE_DIR}/hw/board
                           $<TARGET_PROPERTY:testbed_config,INTERFACE_INCLUDE_DIRECTORIES>)
# headers only, as against the install: the simulator that loads it has the models (-rdynamic)
target_link_libraries(dma_fill PRIVATE testbed_bus testbed_warnings)
set(_dma_machine ${CMAKE_CURRENT_BINARY_DIR}/dma_device/machine.toml)
file(GENERATE OUTPUT ${_dma_machine} CONTENT "# examples/dma_device/machine.toml with the plugin built here
[[boards]]
name = \"master\"
slot = 0

[[boards]]
name = \"earth\"
slot = 1

[[boards.devices]]
name = \"dma0\"
library = \"$<TARGET_FILE:dma_fill>\"
address = 0xFE1000
burst_bytes = 64
cycles_per_burst = 16
")
tos_kernel_test(PROGRAM dma_buffer_reaches_driver CONFIG ${_dma_machine} ALL_FREE LABELS "library;security"
  REGEX "bus address 0x[0-9a-f]+, 3 frames. the device wrote 3000 bytes, 0 wrong.*driver ends holding a 16384-byte buffer, every check passed.*driver dies holding a 4 KB buffer.*driver waits to be killed holding a 4 KB buffer.*dma_buffer_reaches_driver: PASS")
# The same driver under gdb (tests/gdb/gdb_test.py dma_buffer): the buffer read and written through
# the driver's address and, as the board's CPU, through the bus address; the bus address refused in
# the driver's thread, for a read and for a write, each explained on the simulator's console.
if(TESTBED_GDB_MULTIARCH)
  add_test(NAME gdb_dma_buffer_written_by_gdb_and_bus_address_refused_with_a_reason
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_test.py dma_buffer --config ${_dma_machine}
            --bin ${CMAKE_BINARY_DIR}/bin --firmware ${TESTBED_FIRMWARE_DIR} --gdb ${TESTBED_GDB_MULTIARCH})
  set_tests_properties(gdb_dma_buffer_written_by_gdb_and_bus_address_refused_with_a_reason
    PROPERTIES LABELS "gdb;library" TIMEOUT 300)
endif()
