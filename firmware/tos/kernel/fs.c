/* The filestore (seed 000 section 2.1.2): a one-level directory at TOS_FS_BASE, laid out as
 * tos/fs_format.h says. The simulator loads it (checked) before the boards start; the kernel
 * checks it again, since RAM is the guest's to corrupt, and refuses what it cannot trust. */
#include "defs.h"

static struct tos_fs_header *fsh;

void fs_init(void) {
  struct tos_fs_header *h = (struct tos_fs_header *)TOS_FS_BASE;
  fsh = NULL;
  if (h->super.magic != TOS_FS_MAGIC) {
    kprintf("tos: %s: no filestore at 0x%x\n", board_name, TOS_FS_BASE);
    return;
  }
  if (h->super.version != TOS_FS_VERSION || h->super.files > TOS_MAX_FS_FILES ||
      h->super.blocks < TOS_FS_MIN_BLOCKS ||
      h->super.blocks > (ram_bytes - TOS_FS_BASE) / TOS_FS_BLOCK) {
    kprintf("tos: %s: filestore at 0x%x is corrupt (version %u, %u files, %u blocks): ignored\n",
            board_name, TOS_FS_BASE, h->super.version, h->super.files, h->super.blocks);
    return;
  }
  for (uint32_t i = 0; i < h->super.files; ++i) {
    const struct tos_fs_entry *e = &h->entry[i];
    uint32_t blocks = (e->size + TOS_FS_BLOCK - 1) / TOS_FS_BLOCK;
    if (e->name[0] == 0 || e->name[TOS_FS_NAME_LEN - 1] != 0 || e->size > TOS_MAX_FS_FILE_BYTES ||
        e->first_block < TOS_FS_HEADER_BLOCKS || e->first_block + blocks > h->super.blocks) {
      kprintf("tos: %s: filestore entry %u is corrupt: filestore ignored\n", board_name, i);
      return;
    }
  }
  fsh = h;
}

uint32_t fs_end(void) { return fsh ? TOS_FS_BASE + fsh->super.blocks * TOS_FS_BLOCK : TOS_FS_BASE; }

const struct tos_fs_entry *fs_lookup(const char *name) {
  if (!fsh) return NULL;
  for (uint32_t i = 0; i < fsh->super.files; ++i)
    if (strncmp(fsh->entry[i].name, name, TOS_FS_NAME_LEN) == 0) return &fsh->entry[i];
  return NULL;
}

const uint8_t *fs_data(const struct tos_fs_entry *e) {
  return (const uint8_t *)(TOS_FS_BASE + e->first_block * TOS_FS_BLOCK);
}
