# TOS filestore images from firmware images, in the host build (after the `firmware` sub-build).
#
#   tos_filestore(NAME <name> FILES <file>... [RC <rc text file>] [SIZE_KB <n>])
#
# writes ${TESTBED_FIRMWARE_DIR}/<name>.fs with build/bin/tos-mkfs. Each FILES item is
#   - a firmware image name: "hello" or "hello.elf" -> ${TESTBED_FIRMWARE_DIR}/hello.elf
#     (a bare name with another extension, "data.txt", is taken from ${TESTBED_FIRMWARE_DIR} as is);
#   - or a path: absolute, or relative to the calling CMakeLists' folder when it has a '/'.
# A file is stored under its basename without ".elf"; ELF files get rwx, others rw-. RC is the
# boot script (sw/tables: TOS_FS_BOOT_SCRIPT), stored as "rc". SIZE_KB defaults to tos-mkfs's
# 1024. The image is remade after every firmware build (tos-mkfs rewrites it only when its bytes
# change) and hangs off the `filestores` target, which is part of ALL.
include_guard(GLOBAL)
include(ExternalProject)

if(NOT TARGET filestores)
  add_custom_target(filestores ALL)
endif()

function(tos_filestore)
  cmake_parse_arguments(FS "" "NAME;RC;SIZE_KB" "FILES" ${ARGN})
  if(NOT FS_NAME OR FS_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tos_filestore(NAME <name> FILES <file>... [RC <file>] [SIZE_KB <n>]): got ${ARGN}")
  endif()
  if(NOT TARGET firmware OR NOT TESTBED_FIRMWARE_DIR)
    message(FATAL_ERROR "tos_filestore(${FS_NAME}): call it in the host build, after add_subdirectory(firmware)")
  endif()
  set(out ${TESTBED_FIRMWARE_DIR}/${FS_NAME}.fs)
  set(args)
  set(deps)
  foreach(f ${FS_FILES})
    if(IS_ABSOLUTE "${f}")
      set(path "${f}")
    elseif(f MATCHES "/")
      set(path "${CMAKE_CURRENT_SOURCE_DIR}/${f}")
    else()
      get_filename_component(ext "${f}" LAST_EXT)
      if(ext)
        set(path "${TESTBED_FIRMWARE_DIR}/${f}")
      else()
        set(path "${TESTBED_FIRMWARE_DIR}/${f}.elf")
      endif()
    endif()
    list(APPEND args "${path}")
    # Files of the firmware sub-build are made by its (always-run) build step: the stamp below
    # stands for them. Anything else is a source file and a dependency of its own.
    cmake_path(IS_PREFIX TESTBED_FIRMWARE_DIR "${path}" NORMALIZE in_firmware)
    if(NOT in_firmware)
      list(APPEND deps "${path}")
    endif()
  endforeach()
  if(FS_RC)
    if(NOT IS_ABSOLUTE "${FS_RC}")
      set(FS_RC "${CMAKE_CURRENT_SOURCE_DIR}/${FS_RC}")
    endif()
    list(APPEND args "rc=${FS_RC}")
    list(APPEND deps "${FS_RC}")
  endif()
  set(size)
  if(FS_SIZE_KB)
    set(size --size ${FS_SIZE_KB})
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND tos-mkfs -o ${out} ${size} ${args}
    DEPENDS tos-mkfs ${TESTBED_FIRMWARE_STAMP} ${deps}
    COMMENT "Building the TOS filestore ${FS_NAME}.fs"
    VERBATIM)
  add_custom_target(filestore-${FS_NAME} DEPENDS ${out})
  add_dependencies(filestore-${FS_NAME} firmware)
  add_dependencies(filestores filestore-${FS_NAME})
endfunction()
