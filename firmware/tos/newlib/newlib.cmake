# newlib's libc and libm for TOS user programs, compiled for the 68010 from Debian's
# newlib-source package (scripts/setup-debian.sh installs it): the tarball is unpacked into the
# build tree when the firmware sub-build is configured and compiled from CMake file lists here
# (newlib's own autotools build wants an m68k-elf toolchain and configures far more than TOS
# uses). Nothing of newlib is copied into the project. TOS's side of the port - the system
# calls newlib expects (_read, _write, _sbrk, ...), the locks, malloc - is lib/syscalls.c,
# lib/lock.c and lib/malloc.c; the configuration newlib.h beside this file.
#
# Gives: newlib_c, newlib_m (static libraries libc.a, libm.a) and NEWLIB_INCLUDE_DIRS.
set(NEWLIB_TARBALL /usr/src/newlib/newlib-3.3.0.tar.xz CACHE FILEPATH "newlib's source (Debian package newlib-source)")
set(NEWLIB_SRC ${CMAKE_BINARY_DIR}/newlib-3.3.0)
if(NOT EXISTS ${NEWLIB_TARBALL})
  message(FATAL_ERROR "newlib's source is missing: ${NEWLIB_TARBALL} (Debian package newlib-source; run scripts/setup-debian.sh)")
endif()
if(NOT EXISTS ${NEWLIB_SRC}/.unpacked OR ${NEWLIB_TARBALL} IS_NEWER_THAN ${NEWLIB_SRC}/.unpacked)
  file(REMOVE_RECURSE ${NEWLIB_SRC})
  file(MAKE_DIRECTORY ${NEWLIB_SRC})
  execute_process(COMMAND tar xf ${NEWLIB_TARBALL} --strip-components=1 -C ${NEWLIB_SRC}
                  RESULT_VARIABLE _untar)
  if(_untar)
    message(FATAL_ERROR "cannot unpack ${NEWLIB_TARBALL}")
  endif()
  file(TOUCH ${NEWLIB_SRC}/.unpacked)
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NEWLIB_TARBALL})

set(_nl ${NEWLIB_SRC}/newlib)
set(NEWLIB_INCLUDE_DIRS ${CMAKE_CURRENT_LIST_DIR} ${_nl}/libc/include)

# newlib_sources(VAR DIR [EXCLUDE regex]): the .c files of one of newlib's folders.
function(newlib_sources var dir)
  cmake_parse_arguments(NS "" "EXCLUDE" "" ${ARGN})
  file(GLOB _all ${_nl}/${dir}/*.c)
  set(_keep)
  foreach(f ${_all})
    get_filename_component(n ${f} NAME)
    if(NS_EXCLUDE AND n MATCHES "${NS_EXCLUDE}")
      continue()
    endif()
    list(APPEND _keep ${f})
  endforeach()
  # its own folder first, as newlib's Makefiles have it (<local.h> differs from folder to folder)
  set_source_files_properties(${_keep} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                              PROPERTIES INCLUDE_DIRECTORIES ${_nl}/${dir})
  set(${var} ${_keep} PARENT_SCOPE)
endfunction()

# Left out, and why: nano-formatted IO (the full printf is wanted); tmpfile/tmpnam
# (no temporary directory); remove/rename (lib/file.c's call TOS directly); malloc and its
# kin (lib/malloc.c, TOS's thread-safe allocator); exit (lib/tos.c: TOS's exit ends the calling
# thread); getenv/setenv/environ (lib/env.c, setenv.c: spawn passes this process's copy on);
# system (no shell to call); misc/lock.c (lib/lock.c implements the locks); search's hash.c and
# ndbm (Berkeley db files; hcreate/hsearch are hcreate.c and hcreate_r.c, with hash_func.c's hash);
# strtodg and strtorx (strtold for an 80-bit long double: it writes the x87 layout, not the
# 68k's 96-bit one with its pad word; TOS's long double is computed in double, so strtold and
# wcstold are built to read a double, as newlib does where long double is double: below).
newlib_sources(_stdio libc/stdio EXCLUDE "^(nano-|tmpfile|tmpnam|mktemp|remove|rename|vfprintf|vfscanf)")
newlib_sources(_stdlib libc/stdlib EXCLUDE "^(.*mallocr|malloc|calloc|realloc|free|malign|valloc|msize|mstats|mtrim|mlock|aligned_alloc|exit|_Exit|getenv|getenv_r|setenv|setenv_r|putenv|putenv_r|environ|envlock|system|arc4random.*|cxa_.*|quick_exit|strtodg|strtorx)\\.c$")
newlib_sources(_string libc/string)
newlib_sources(_ctype libc/ctype)
newlib_sources(_locale libc/locale)
newlib_sources(_reent libc/reent EXCLUDE "^(execr|fcntlr|fstat64r|lseek64r|open64r|stat64r|mkdirr|linkr|renamer|statr|getreent)\\.c$")
newlib_sources(_misc libc/misc EXCLUDE "^lock\\.c$")
newlib_sources(_signal libc/signal)
newlib_sources(_time libc/time)
newlib_sources(_search libc/search EXCLUDE "^(hash|hash_bigkey|hash_buf|hash_log2|hash_page|ndbm)\\.c$")
set(_errno ${_nl}/libc/errno/errno.c)
# strtold and wcstold through strtod and wcstod (their _LDBL_EQ_DBL branch): the value read is
# a double, widened exactly, which is what TOS's long double arithmetic computes with anyway.
set_source_files_properties(${_nl}/libc/stdlib/strtold.c ${_nl}/libc/stdlib/wcstold.c
                            DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES COMPILE_DEFINITIONS _LDBL_EQ_DBL)

# newlib's flags: every program's (TOS_PROGRAM_CFLAGS, firmware/tos/CMakeLists.txt: no builtins,
# so that its memcpy does not become a call to memcpy; no store or load merging, no jump tables:
# 68010-safe code). Its own sources are not ours to make -Wall clean: warnings off.
set(NEWLIB_CFLAGS -std=gnu11 -w -nostdinc -isystem ${TOS_GCC_INCLUDE} ${TOS_PROGRAM_CFLAGS}
    -D_COMPILING_NEWLIB -Os -ffunction-sections -fdata-sections)

# The block and string functions at -O2: built -Os, newlib's C memcpy, memmove, memset and their
# kin take their PREFER_SIZE_OVER_SPEED branch and go a byte at a time (72 cycles a byte for a
# 4 KB memcpy on the 68010 against 11 at -O2: tests/tos/libc_copies_by_words.c). Its m68k assembly
# memcpy is not usable: it takes the 68010 for a CPU that reads longs at odd addresses
# (MISALIGNED_OK for __mc68010__), which is an address error here.
# (-fno-expensive-optimizations, in TOS_PROGRAM_CFLAGS, matters here too: at -O2 strstr's
# four-byte needle is a merged load; tos_malloc_and_strings_work found it.)
set_source_files_properties(${_string} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES
                            COMPILE_OPTIONS "-O2")

# setjmp/longjmp: newlib's m68k assembly (68000 code: MOVEM, no 68881 registers without one)
set(_setjmp ${_nl}/libc/machine/m68k/setjmp.S)
set_source_files_properties(${_setjmp} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                            PROPERTIES INCLUDE_DIRECTORIES ${_nl}/libc/machine/m68k)
add_library(newlib_c STATIC ${_stdio} ${_stdlib} ${_string} ${_ctype} ${_locale} ${_reent}
            ${_misc} ${_signal} ${_time} ${_search} ${_errno} ${_setjmp})
target_include_directories(newlib_c BEFORE PRIVATE ${NEWLIB_INCLUDE_DIRS})
target_compile_options(newlib_c PRIVATE ${NEWLIB_CFLAGS})

# printf and scanf are each one source compiled four ways (as newlib's Makefile does): the full
# one, STRING_ONLY (sprintf's), INTEGER_ONLY (iprintf's: assert uses it) and both. The wide ones
# (vfwprintf.c, vfwscanf.c: fwprintf's, in _stdio) also STRING_ONLY, for swprintf, vswprintf,
# swscanf and vswscanf.
foreach(v "vfprintf;" "svfprintf;-DSTRING_ONLY" "vfiprintf;-DINTEGER_ONLY" "svfiprintf;-DSTRING_ONLY;-DINTEGER_ONLY"
          "vfscanf;" "svfscanf;-DSTRING_ONLY" "vfiscanf;-DINTEGER_ONLY" "svfiscanf;-DSTRING_ONLY;-DINTEGER_ONLY"
          "svfwprintf;-DSTRING_ONLY" "svfwscanf;-DSTRING_ONLY")
  list(GET v 0 name)
  list(SUBLIST v 1 -1 defs)
  if(name MATCHES "wprintf")
    set(src ${_nl}/libc/stdio/vfwprintf.c)
  elseif(name MATCHES "wscanf")
    set(src ${_nl}/libc/stdio/vfwscanf.c)
  elseif(name MATCHES "printf")
    set(src ${_nl}/libc/stdio/vfprintf.c)
  else()
    set(src ${_nl}/libc/stdio/vfscanf.c)
  endif()
  add_library(newlib_${name} OBJECT ${src})
  target_include_directories(newlib_${name} BEFORE PRIVATE ${NEWLIB_INCLUDE_DIRS})
  target_compile_options(newlib_${name} PRIVATE ${NEWLIB_CFLAGS} ${defs})
  target_sources(newlib_c PRIVATE $<TARGET_OBJECTS:newlib_${name}>)
endforeach()

# libm: fdlibm's double functions (libm/math) and the float, classification and C99 ones
# (libm/common). The long double ones there compile to nothing: newlib provides them only
# where long double is double.
newlib_sources(_math libm/math)
newlib_sources(_mcommon libm/common)
add_library(newlib_m STATIC ${_math} ${_mcommon})
target_include_directories(newlib_m BEFORE PRIVATE ${NEWLIB_INCLUDE_DIRS} ${_nl}/libm/common)
# _IEEE_LIBM: the wrappers (log, pow, sqrt, ...) call the functions straight instead of reading
# the global _LIB_VERSION at every call. The library ran in its _IEEE_ mode already (no errno from
# math, as C99 allows), so results and errno are unchanged; what goes is the read, and with it a
# false sharing: _LIB_VERSION sits on the data page of stdio's state, so every thread printing
# took that page from the other boards' threads doing floating point, which fetched it back at
# their next log() (seed 001's pvmapp: remote batches a third slower). Setting _LIB_VERSION has
# no effect now.
target_compile_options(newlib_m PRIVATE ${NEWLIB_CFLAGS} -D_IEEE_LIBM)

# Named libc.a and libm.a, as a C toolchain's are: with the folder on the library path, a user's
# -lm and -lc find them (the SDK's tos-cc installs them so).
set_target_properties(newlib_c PROPERTIES OUTPUT_NAME c)
set_target_properties(newlib_m PROPERTIES OUTPUT_NAME m)
