/* Compiled with -m68020: GCC uses MULS.L for a 32 x 32 -> 64 multiply. */
long long wide_multiply(long a, long b);
long long wide_multiply(long a, long b) { return (long long)a * b; }
