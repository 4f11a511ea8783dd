/* 68010 code with a switch that GCC compiles to a jump table in .text (a table of 16-bit
 * offsets after JMP (2,PC,Dn.W)): the check must skip the table, not refuse it. */
int dispatch(int op, int x);
int dispatch(int op, int x) {
  switch (op) {
    case 0: return x + 1;
    case 1: return x * 3;
    case 2: return x - 7;
    case 3: return x ^ 0x55;
    case 4: return x << 2;
    case 5: return x >> 1;
    case 6: return ~x;
    case 7: return -x;
    case 8: return x & 0xF0;
    case 9: return x | 0x0F;
    default: return 0;
  }
}
