/* Which board this is (seed 000 section 2.1.1): its processor number, whether it is the master,
 * its name and RAM, and how many boards the machine has. One image boots on every board; the
 * loader says all of it in BOARDID, read once at boot (board_identify) and read-only after. */
#include "defs.h"

uint16_t board_id;
uint32_t nboards; /* the machine's boards, processors 0..nboards-1: BOARDID BOARDS, set by the loader */
int board_master;
const char *board_name;
uint32_t ram_bytes;

static const char *const names[] = TOS_BOARD_NAMES;
static char other_name[12];

/* "board<N>" in the 12 bytes at buf: the name of a board past tos.toml's names */
static const char *numbered(char *buf, uint32_t v) {
  char *p = buf + 11;
  *p = 0;
  do *--p = (char)('0' + v % 10); while ((v /= 10) != 0);
  p -= 5;
  memcpy(p, "board", 5);
  return p;
}

const char *board_name_of(uint32_t processor) {
  static char buf[12];
  if (processor < TOS_BOARD_NAME_COUNT) return names[processor];
  return processor < nboards ? numbered(buf, processor) : "a board";
}

void board_identify(void) {
  /* the processor number (node * slots + slot): BOARDID ID is the slot on its node */
  board_id = (uint16_t)(REG16(TB_BOARDID_NODE) * TOS_MAX_SLOTS_PER_NODE + REG16(TB_BOARDID_ID));
  nboards = REG16(TB_BOARDID_BOARDS);
  board_master = (REG16(TB_BOARDID_ROLE) & TB_BOARDID_ROLE_MASTER) != 0;
  ram_bytes = REG32(TB_BOARDID_RAMSIZE);
  if (board_id < TOS_BOARD_NAME_COUNT) {
    board_name = names[board_id];
  } else {
    board_name = numbered(other_name, board_id);
  }
}

