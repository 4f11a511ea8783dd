# Cross toolchain for the Testbed boards: Debian's m68k-linux-gnu-gcc, used freestanding for a
# 68010 (no libc, no Linux ABI): images are static ELF executables linked at fixed addresses.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR m68k)
set(CMAKE_C_COMPILER m68k-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER m68k-linux-gnu-gcc)
set(CMAKE_OBJCOPY m68k-linux-gnu-objcopy CACHE FILEPATH "")
set(CMAKE_OBJDUMP m68k-linux-gnu-objdump CACHE FILEPATH "")
set(CMAKE_C_FLAGS_INIT "-m68010 -ffreestanding -fno-pic -fno-stack-protector -fno-asynchronous-unwind-tables")
set(CMAKE_ASM_FLAGS_INIT "-m68010")
# The Debug configuration optimises for debugging (-Og): gdb shows a program's locals and steps
# line by line, where the default RelWithDebInfo's -O2 leaves locals <optimized out>.
set(CMAKE_C_FLAGS_DEBUG_INIT "-Og -g")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -nostartfiles -static -Wl,--build-id=none -Wl,-z,noexecstack -Wl,--no-warn-rwx-segments")
set(CMAKE_EXECUTABLE_SUFFIX_C ".elf")
set(CMAKE_EXECUTABLE_SUFFIX_ASM ".elf")
# No host libraries or programs from the cross sysroot: try_compile builds a static library only.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
