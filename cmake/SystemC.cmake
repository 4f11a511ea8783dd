# SystemC 2.3.4 with TLM-2.0 from Debian (libsystemc-dev), found through pkg-config.
find_package(PkgConfig REQUIRED)
pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc>=2.3.4)

add_library(systemc_tlm INTERFACE)
target_link_libraries(systemc_tlm INTERFACE PkgConfig::SYSTEMC Threads::Threads)
# Silence the deprecated-copy noise from SystemC's own headers without hiding ours.
target_compile_options(systemc_tlm INTERFACE -Wno-deprecated-copy)

# verilate(... SYSTEMC) looks for a Verilator::systemc target before searching itself.
if(NOT TARGET Verilator::systemc)
  add_library(Verilator::systemc INTERFACE IMPORTED)
  set_target_properties(Verilator::systemc PROPERTIES
    INTERFACE_LINK_LIBRARIES PkgConfig::SYSTEMC)
endif()
