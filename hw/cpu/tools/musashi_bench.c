/* musashi-bench IMAGE [68000|68010]: the reference workload on Musashi, for comparison only.
 *
 * Built by scripts/musashi-compare.sh against a Musashi source tree the user supplies
 * (github.com/kstenerud/Musashi); not part of the simulator. Same harness as m68k-bench: the
 * image in 16 MiB of flat big-endian RAM, run until it writes 1 to 0x00FFFFF4, process CPU
 * time measured around the run. Built with -DCOUNT_INSTRUCTIONS the instruction hook counts
 * instructions (slower; used once to check that both cores run the same instruction stream
 * length), otherwise MIPS is worked out from the count given with --instructions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "m68k.h"

#define RAM (1u << 24)
static uint8_t mem[RAM];
static int done;
static unsigned long long instructions;

static uint32_t be32(const uint8_t* p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
static uint16_t be16(const uint8_t* p) { return (uint16_t)(p[0] << 8 | p[1]); }

unsigned int m68k_read_memory_8(unsigned int a) { return mem[a & 0xFFFFFF]; }
unsigned int m68k_read_memory_16(unsigned int a) { a &= 0xFFFFFF; return be16(&mem[a]); }
unsigned int m68k_read_memory_32(unsigned int a) { a &= 0xFFFFFF; return be32(&mem[a]); }
unsigned int m68k_read_disassembler_8(unsigned int a) { return m68k_read_memory_8(a); }
unsigned int m68k_read_disassembler_16(unsigned int a) { return m68k_read_memory_16(a); }
unsigned int m68k_read_disassembler_32(unsigned int a) { return m68k_read_memory_32(a); }
static void check_done(unsigned int a) {
  if ((a & 0xFFFFFC) == 0xFFFFF4 && be32(&mem[0xFFFFF4]) == 1) {
    done = 1;
    m68k_end_timeslice();
  }
}
void m68k_write_memory_8(unsigned int a, unsigned int v) { a &= 0xFFFFFF; mem[a] = (uint8_t)v; check_done(a); }
void m68k_write_memory_16(unsigned int a, unsigned int v) {
  a &= 0xFFFFFF;
  mem[a] = (uint8_t)(v >> 8);
  mem[a + 1] = (uint8_t)v;
  check_done(a);
}
void m68k_write_memory_32(unsigned int a, unsigned int v) {
  a &= 0xFFFFFF;
  mem[a] = (uint8_t)(v >> 24);
  mem[a + 1] = (uint8_t)(v >> 16);
  mem[a + 2] = (uint8_t)(v >> 8);
  mem[a + 3] = (uint8_t)v;
  check_done(a);
}
void musashi_bench_count(unsigned int pc) { (void)pc; instructions++; }

static int load(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return 0;
  static uint8_t d[RAM];
  size_t n = fread(d, 1, sizeof d, f);
  fclose(f);
  if (n < 52 || memcmp(d, "\x7f" "ELF", 4) != 0) {
    memcpy(mem, d, n);
    return 1;
  }
  uint32_t phoff = be32(&d[28]);
  uint16_t phentsize = be16(&d[42]), phnum = be16(&d[44]);
  for (uint16_t i = 0; i < phnum; i++) {
    size_t ph = phoff + (size_t)i * phentsize;
    if (ph + 32 > n) return 0;
    if (be32(&d[ph]) != 1) continue;
    uint32_t off = be32(&d[ph + 4]), paddr = be32(&d[ph + 12]);
    uint32_t filesz = be32(&d[ph + 16]), memsz = be32(&d[ph + 20]);
    if ((uint64_t)off + filesz > n || (uint64_t)paddr + memsz > RAM) return 0;
    memcpy(&mem[paddr], &d[off], filesz);
    memset(&mem[paddr + filesz], 0, memsz - filesz);
  }
  return 1;
}

int main(int argc, char** argv) {
  const char* image = NULL;
  int model = 68000;
  unsigned long long given = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--model") && i + 1 < argc) model = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--instructions") && i + 1 < argc) given = strtoull(argv[++i], NULL, 0);
    else image = argv[i];
  }
  if (!image || !load(image)) {
    fprintf(stderr, "usage: musashi-bench IMAGE [--model 68000|68010] [--instructions N]\n");
    return 2;
  }
  m68k_init();
  m68k_set_cpu_type(model == 68010 ? M68K_CPU_TYPE_68010 : M68K_CPU_TYPE_68000);
  m68k_pulse_reset();
  clock_t c0 = clock();
  while (!done) m68k_execute(100000000);
  double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
#ifdef COUNT_INSTRUCTIONS
  given = instructions;
  printf("instructions %llu\n", instructions);
#endif
  printf("checksum 0x%08X\n", be32(&mem[0xFFFFF0]));
  printf("process CPU %.3f\n", secs);
  printf("MIPS of process CPU time %.1f\n", secs > 0 && given ? given / secs / 1e6 : 0.0);
  return 0;
}
