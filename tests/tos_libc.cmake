# TOS's C library (label libc; firmware/tos/README.md "The C library"): newlib built for the
# 68010 compared with the host's C library - printf on a generated table of formats and values,
# libm with the ulp error per function, ctype for all 256 values - and ordinary C programs using
# assert, ctype, math, qsort, strtod, sscanf, atexit, long double and abort. Each is a TOS
# program of tests/tos/ run on earth (tos_kernel_test, tests/tos_kernel.cmake).
tos_kernel_test(PROGRAM libc_printf_matches_host LABELS libc)
tos_kernel_test(PROGRAM libc_math_matches_host LABELS libc)
tos_kernel_test(PROGRAM libc_ctype_matches_host LABELS libc)
tos_kernel_test(PROGRAM libc_programs_work LABELS libc
  REGEX "libc_programs_work: PASS.*libc_programs_work: atexit in order")
tos_kernel_test(PROGRAM libc_assert_aborts LABELS libc
  REGEX "assertion \"three == 3\" failed: file \"[^\"]*libc_assert_aborts.c\", line [0-9]+, function: main\nkilled by signal 6\n.*libc_assert_aborts: PASS")
# The runtime's __mulsi3 and __udivsi3 within 10% of GCC's own, timed side by side on the 68010;
# the other helpers' cycles printed for the record.
tos_kernel_test(PROGRAM runtime_helpers_keep_pace LABELS libc)
# C's exit is main's thread's: after main ended by _Exit, a thread given main's TID (the kernel
# reuses its slot) ends only itself, running no atexit functions.
tos_kernel_test(PROGRAM libc_exit_once_per_program LABELS libc)
# memcpy, memmove, memset, memcmp and strlen right at every alignment, and the block copies of
# 4 KB within a budget in cycles a byte that only a copy by longs meets (newlib's string
# functions are built -O2: newlib.cmake).
tos_kernel_test(PROGRAM libc_copies_by_words LABELS libc)
# A program assembling big-endian words from bytes at odd addresses is not killed by an address
# error: GCC 12's load merging is off for every TOS program (TOS_PROGRAM_CFLAGS).
tos_kernel_test(PROGRAM odd_address_words_read LABELS libc)
