/* The TOS filestore as it lies in a board's RAM at TOS_FS_BASE: the one definition of its
 * format, shared by the kernel (firmware/tos/kernel/fs.c), the host's tos-mkfs and the
 * simulator's check of an image before it loads it (sw/filestore).
 *
 * Seed 000 section 2.1.2: a one-level directory of up to 64 files of up to half a megabyte,
 * with execute / read / write permissions. The store is a run of 1 KB blocks: block 0..
 * TOS_FS_HEADER_BLOCKS-1 hold the superblock and the directory, the rest hold file data. A file
 * is one contiguous run of blocks, so an executable's code pages can be mapped straight from
 * the store (shared by every process running it) without a copy.
 *
 * All fields are big-endian (the 68010's order); host tools convert. */
#ifndef TOS_FS_FORMAT_H
#define TOS_FS_FORMAT_H
#include <stdint.h>
#include <testbed/tos.h>

#define TOS_FS_MAGIC 0x544F5346u /* "TOSF" */
#define TOS_FS_VERSION 1u
#define TOS_FS_BLOCK 1024u
#define TOS_FS_NAME_LEN 28u    /* bytes, NUL-padded; names are 1..27 characters */
#define TOS_FS_HEADER_BLOCKS 4u /* superblock + directory */
#define TOS_FS_MIN_BLOCKS (TOS_FS_HEADER_BLOCKS + 1u)
#define TOS_FS_FORMAT_BLOCKS 512u /* the store the kernel formats at boot when none was loaded (512 KB) */

/* Permissions (chmod): the Unix bits' order. */
#define TOS_FS_PERM_READ 4u
#define TOS_FS_PERM_WRITE 2u
#define TOS_FS_PERM_EXEC 1u

struct tos_fs_super {
  uint32_t magic;   /* TOS_FS_MAGIC */
  uint32_t version; /* TOS_FS_VERSION */
  uint32_t blocks;  /* size of the whole store in blocks, header included */
  uint32_t files;   /* directory entries in use (they are the first `files` of the 64) */
};

struct tos_fs_entry {
  char name[TOS_FS_NAME_LEN];
  uint32_t size;        /* bytes, <= TOS_MAX_FS_FILE_BYTES */
  uint32_t first_block; /* >= TOS_FS_HEADER_BLOCKS */
  uint32_t perm;        /* TOS_FS_PERM_* */
  uint32_t reserved;    /* 0 */
};

struct tos_fs_header {
  struct tos_fs_super super;
  struct tos_fs_entry entry[TOS_MAX_FS_FILES];
};

/* The boot script: lines "<board> <program> [arguments]" run in order at boot by the board
 * they name (a name such as "earth", "master", a number, or "*" for every board); a line
 * ending in "&" does not wait for its program; "#" starts a comment. */
#define TOS_FS_BOOT_SCRIPT "rc"

#if defined(__cplusplus)
static_assert(sizeof(struct tos_fs_super) == 16, "superblock layout");
static_assert(sizeof(struct tos_fs_entry) == 44, "directory entry layout");
static_assert(sizeof(struct tos_fs_header) <= TOS_FS_HEADER_BLOCKS * TOS_FS_BLOCK, "header fits its blocks");
#else
_Static_assert(sizeof(struct tos_fs_header) <= TOS_FS_HEADER_BLOCKS * TOS_FS_BLOCK, "header fits its blocks");
#endif

#endif
