# tos_add_program(NAME SOURCES file... ): NAME.elf, a TOS user program (README "A session on
# the Testbed"): compiled and linked with TOS::program (every flag, header, library and the
# linker script a program needs; firmware/tos/CMakeLists.txt defines them once) and checked for
# instructions the 68010 lacks after the link (the build fails naming the function and deletes
# the image).
#
# The same file builds the programs in the tree (firmware/tos/CMakeLists.txt) and a user's own
# (installed beside TOSConfig.cmake: find_package(TOS) then tos_add_program). The caller's scope
# provides TOS_USER_LD (the linker script), TOS_CHECK_68010 (lib/runtime/check_68010.py),
# TOS_PYTHON and TOS_OBJDUMP.
include_guard(GLOBAL)

function(tos_add_program name)
  cmake_parse_arguments(TP "" "" "SOURCES" ${ARGN})
  if(NOT TP_SOURCES OR TP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tos_add_program(NAME SOURCES file...): got tos_add_program(${name} ${ARGN})")
  endif()
  add_executable(${name} ${TP_SOURCES})
  target_link_libraries(${name} PRIVATE TOS::program)
  set_target_properties(${name} PROPERTIES SUFFIX ".elf" LINK_DEPENDS "${TOS_USER_LD}")
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${TOS_PYTHON} ${TOS_CHECK_68010} --objdump ${TOS_OBJDUMP} --delete-on-failure $<TARGET_FILE:${name}>
    VERBATIM)
endfunction()
