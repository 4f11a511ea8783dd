/* Walking skeleton image: proves the cross toolchain, the shared memory map header and the ELF
 * loader meet. The skeleton simulator loads it and reads these sections back through TLM. */
#include <testbed/memory_map.h>

const char skeleton_banner[] = "Testbed skeleton image";
volatile unsigned long skeleton_counter = 0x12345678;

int main(void) {
  for (int i = 0; i < 16; ++i) skeleton_counter += (unsigned long)i * 3u;
  return 0;
}
