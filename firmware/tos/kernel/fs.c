/* The filestore (seed 000 section 2.1.2): a one-level directory at TOS_FS_BASE, laid out as
 * tos/fs_format.h says: up to 64 files of up to half a megabyte, each ONE contiguous run of
 * 1 KB blocks, so that a program's code pages can be mapped straight from its file.
 *
 * The simulator loads the store (checked) before the boards start; the kernel checks it again,
 * since RAM is the guest's to corrupt. With no store (or one it cannot trust) the kernel formats
 * an empty one of TOS_FS_FORMAT_BLOCKS blocks, so that files can still be made.
 *
 * The store is written in place: the superblock and directory are consistent after every call
 * (the host reads the image back with tos-mkfs --check). Directory entries in use are the
 * first `files` of the 64, so removing one moves the last into its place: the kernel names a
 * file by its node (a number that stays the file's for as long as it exists) and keeps, per
 * node, who uses it:
 *   maps     processes whose code is mapped from it (proc.c: fs_map / fs_unmap), and the boot
 *            script while it runs: such a file may not move, be rewritten or be removed;
 *   readers, writers  open descriptors (file.c).
 * A file grows in place when the blocks after it are free, else moves to a free run; when no
 * run is long enough, the store is compacted (every file that may move slides down; mapped
 * files stay where they are) and the growing file is rotated to the end of its stretch. */
#include "defs.h"

static struct tos_fs_header *fsh;
static int formatted;

struct fnode {
  int8_t entry;     /* its directory entry, -1: node free */
  uint8_t maps;
  uint8_t readers, writers;
};
static struct fnode nodes[TOS_MAX_FS_FILES];
static int8_t node_of[TOS_MAX_FS_FILES]; /* directory entry -> node */

static uint32_t blocks_for(uint32_t bytes) { return (bytes + TOS_FS_BLOCK - 1) / TOS_FS_BLOCK; }
static uint8_t *block(uint32_t b) { return (uint8_t *)(TOS_FS_BASE + b * TOS_FS_BLOCK); }

static int check(struct tos_fs_header *h) {
  if (h->super.version != TOS_FS_VERSION || h->super.files > TOS_MAX_FS_FILES ||
      h->super.blocks < TOS_FS_MIN_BLOCKS || h->super.blocks > (ram_bytes - TOS_FS_BASE) / TOS_FS_BLOCK) {
    kprintf("tos: %s: filestore at 0x%x is corrupt (version %u, %u files, %u blocks)\n", board_name,
            TOS_FS_BASE, h->super.version, h->super.files, h->super.blocks);
    return 0;
  }
  for (uint32_t i = 0; i < h->super.files; ++i) {
    const struct tos_fs_entry *e = &h->entry[i];
    if (e->name[0] == 0 || e->name[TOS_FS_NAME_LEN - 1] != 0 || e->size > TOS_MAX_FS_FILE_BYTES ||
        e->first_block < TOS_FS_HEADER_BLOCKS || e->first_block + blocks_for(e->size) > h->super.blocks) {
      kprintf("tos: %s: filestore entry %u is corrupt\n", board_name, i);
      return 0;
    }
    for (uint32_t j = 0; j < i; ++j) { /* runs may not overlap (a write to one would hit the other) */
      const struct tos_fs_entry *o = &h->entry[j];
      if (e->size && o->size && e->first_block < o->first_block + blocks_for(o->size) &&
          o->first_block < e->first_block + blocks_for(e->size)) {
        kprintf("tos: %s: filestore entries %u and %u overlap\n", board_name, j, i);
        return 0;
      }
    }
  }
  return 1;
}

/* An empty store: the header only (file data is zeroed as files grow). Half the RAM above
 * TOS_FS_BASE at most, so that processes keep frames on a small board. */
static void format(struct tos_fs_header *h) {
  uint32_t blocks = TOS_FS_FORMAT_BLOCKS, room = (ram_bytes - TOS_FS_BASE) / TOS_FS_BLOCK / 2;
  if (blocks > room) blocks = room;
  if (blocks < TOS_FS_MIN_BLOCKS) blocks = TOS_FS_MIN_BLOCKS;
  memset(h, 0, TOS_FS_HEADER_BLOCKS * TOS_FS_BLOCK);
  h->super.magic = TOS_FS_MAGIC;
  h->super.version = TOS_FS_VERSION;
  h->super.blocks = blocks;
  h->super.files = 0;
  formatted = 1;
  kprintf("tos: %s: formatted an empty filestore of %u KB at 0x%x\n", board_name, blocks, TOS_FS_BASE);
}

void fs_init(void) {
  struct tos_fs_header *h = (struct tos_fs_header *)TOS_FS_BASE;
  formatted = 0;
  if (h->super.magic != TOS_FS_MAGIC) {
    kprintf("tos: %s: no filestore at 0x%x\n", board_name, TOS_FS_BASE);
    format(h);
  } else if (!check(h)) {
    format(h);
  }
  fsh = h;
  for (uint32_t i = 0; i < TOS_MAX_FS_FILES; ++i) {
    nodes[i].entry = i < h->super.files ? (int8_t)i : -1;
    nodes[i].maps = nodes[i].readers = nodes[i].writers = 0;
    node_of[i] = i < h->super.files ? (int8_t)i : -1;
  }
}

uint32_t fs_end(void) { return TOS_FS_BASE + fsh->super.blocks * TOS_FS_BLOCK; }

const struct tos_fs_entry *fs_lookup(const char *name) {
  int n = fs_node(name);
  return n < 0 ? NULL : fs_entry(n);
}

const uint8_t *fs_data(const struct tos_fs_entry *e) { return block(e->first_block); }

/* ---- nodes ---- */
int fs_node(const char *name) {
  for (uint32_t i = 0; i < fsh->super.files; ++i)
    if (strncmp(fsh->entry[i].name, name, TOS_FS_NAME_LEN) == 0) return node_of[i];
  return -TOS_ENOENT;
}

struct tos_fs_entry *fs_entry(int node) { return &fsh->entry[nodes[node].entry]; }

int fs_node_at(uint32_t index) { return index < fsh->super.files ? node_of[index] : -TOS_ENOENT; }

static int node_of_entry(const struct tos_fs_entry *e) { return node_of[e - fsh->entry]; }

uint32_t fs_mapped(int node) { return nodes[node].maps; }

uint32_t fs_busy(int node) { return nodes[node].maps + nodes[node].readers + nodes[node].writers; }

/* Names are 1..27 printable characters, no space, no '/' (what tos-mkfs accepts). */
int fs_name_ok(const char *name) {
  uint32_t n = 0;
  for (; name[n]; ++n)
    if (name[n] <= ' ' || name[n] > '~' || name[n] == '/') return 0;
  return n > 0 && n < TOS_FS_NAME_LEN;
}

/* ---- free space: runs of blocks no file covers ---- */
static uint32_t order[TOS_MAX_FS_FILES]; /* entries with data, by first block */

static uint32_t sort_runs(void) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < fsh->super.files; ++i) {
    if (!fsh->entry[i].size) continue;
    uint32_t j = n++;
    for (; j > 0 && fsh->entry[order[j - 1]].first_block > fsh->entry[i].first_block; --j) order[j] = order[j - 1];
    order[j] = i;
  }
  return n;
}

static uint32_t end_of(uint32_t entry) {
  return fsh->entry[entry].first_block + blocks_for(fsh->entry[entry].size);
}

/* Are blocks [first, first + n) inside the store and covered by no file but `except`? */
static int run_free(uint32_t first, uint32_t n, int except) {
  if (first < TOS_FS_HEADER_BLOCKS || first + n > fsh->super.blocks) return 0;
  for (uint32_t i = 0; i < fsh->super.files; ++i) {
    if ((int)i == except || !fsh->entry[i].size) continue;
    if (fsh->entry[i].first_block < first + n && first < end_of(i)) return 0;
  }
  return 1;
}

/* The first free run of at least n blocks (0: none); *largest gets the longest run's start. */
static uint32_t find_run(uint32_t n, uint32_t *largest, uint32_t *largest_len) {
  uint32_t files = sort_runs(), at = TOS_FS_HEADER_BLOCKS, found = 0, best = TOS_FS_HEADER_BLOCKS, best_len = 0;
  for (uint32_t k = 0; k <= files; ++k) {
    uint32_t next = k < files ? fsh->entry[order[k]].first_block : fsh->super.blocks;
    if (next > at) {
      if (!found && next - at >= n) found = at;
      if (next - at > best_len) best = at, best_len = next - at;
    }
    if (k < files && end_of(order[k]) > at) at = end_of(order[k]);
  }
  if (largest) *largest = best;
  if (largest_len) *largest_len = best_len;
  return found;
}

uint32_t fs_free_blocks(void) {
  uint32_t used = TOS_FS_HEADER_BLOCKS;
  for (uint32_t i = 0; i < fsh->super.files; ++i) used += blocks_for(fsh->entry[i].size);
  return fsh->super.blocks - used;
}

void fs_stat(struct tos_fsstat *st) {
  uint32_t start, len;
  find_run(1, &start, &len);
  st->block_bytes = TOS_FS_BLOCK;
  st->blocks = fsh->super.blocks;
  st->free_blocks = fs_free_blocks();
  st->largest_free = len;
  st->files = fsh->super.files;
  st->max_files = TOS_MAX_FS_FILES;
  st->formatted = (uint32_t)formatted;
}

/* ---- moving data ---- */
static void move_blocks(uint32_t to, uint32_t from, uint32_t n) { /* overlapping: to < from */
  uint32_t *d = (uint32_t *)block(to);
  const uint32_t *s = (const uint32_t *)block(from);
  for (uint32_t w = n * (TOS_FS_BLOCK / 4); w; --w) *d++ = *s++;
}

static void swap_blocks(uint32_t a, uint32_t b) {
  uint32_t *x = (uint32_t *)block(a), *y = (uint32_t *)block(b);
  for (uint32_t w = 0; w < TOS_FS_BLOCK / 4; ++w) {
    uint32_t v = x[w];
    x[w] = y[w];
    y[w] = v;
  }
}

static void reverse_blocks(uint32_t lo, uint32_t hi) { /* [lo, hi) */
  while (hi > lo + 1) swap_blocks(lo++, --hi);
}

/* Slide every file that may move down towards the header, in block order; mapped files stay
 * (the next file goes after them). Then, if `grow` is given, rotate it behind the files that
 * follow it up to the next mapped file or the end, so that its stretch's free space follows it. */
static void compact(int grow) {
  uint32_t files = sort_runs(), at = TOS_FS_HEADER_BLOCKS;
  for (uint32_t k = 0; k < files; ++k) {
    struct tos_fs_entry *e = &fsh->entry[order[k]];
    uint32_t n = blocks_for(e->size);
    if (!nodes[node_of[order[k]]].maps && e->first_block > at) {
      move_blocks(at, e->first_block, n);
      e->first_block = at;
    }
    at = e->first_block + n;
  }
  if (grow < 0) return;
  struct tos_fs_entry *g = &fsh->entry[grow];
  uint32_t k = 0;
  while (order[k] != (uint32_t)grow) ++k;
  uint32_t start = g->first_block, n = blocks_for(g->size), end = start + n;
  for (++k; k < files && !nodes[node_of[order[k]]].maps; ++k) {
    fsh->entry[order[k]].first_block -= n; /* the files after it move down by its length */
    end = end_of(order[k]) + n;
  }
  if (end == start + n) return; /* it is the last of its stretch already */
  reverse_blocks(start, start + n);
  reverse_blocks(start + n, end);
  reverse_blocks(start, end);
  g->first_block = end - n;
}

/* Make the file `size` bytes long: bytes past the old end read as zeros. It stays in place when
 * it shrinks or the blocks after it are free, else moves (after compaction if need be). */
int fs_resize(int node, uint32_t size) {
  int i = nodes[node].entry;
  struct tos_fs_entry *e = &fsh->entry[i];
  uint32_t have = blocks_for(e->size), need = blocks_for(size);
  if (size > TOS_MAX_FS_FILE_BYTES) return -TOS_EFBIG;
  if (nodes[node].maps) return -TOS_EBUSY;
  if (need > have && !run_free(e->first_block, need, i)) {
    if (need - have > fs_free_blocks()) return -TOS_ENOSPC;
    uint32_t to = find_run(need, NULL, NULL);
    if (!to) {
      compact(i);
      if (!run_free(e->first_block, need, i) && !(to = find_run(need, NULL, NULL))) return -TOS_ENOSPC;
    }
    if (to) {
      if (have) memcpy(block(to), block(e->first_block), have * TOS_FS_BLOCK);
      e->first_block = to;
    }
  }
  if (size > e->size) memset(block(e->first_block) + e->size, 0, size - e->size);
  e->size = size;
  return 0;
}

uint8_t *fs_bytes(int node) { return block(fs_entry(node)->first_block); }

/* A new empty file (rw-), placed at the start of the longest free run so that it can grow in place. */
int fs_create(const char *name) {
  if (!fs_name_ok(name)) return -TOS_EINVAL;
  if (fs_node(name) >= 0) return -TOS_EEXIST;
  if (fsh->super.files >= TOS_MAX_FS_FILES) return -TOS_ENFILE;
  int node = 0;
  while (nodes[node].entry >= 0) ++node;
  uint32_t start, len, i = fsh->super.files;
  find_run(1, &start, &len);
  struct tos_fs_entry *e = &fsh->entry[i];
  memset(e, 0, sizeof *e);
  memcpy(e->name, name, strlen(name));
  e->first_block = start;
  e->perm = TOS_FS_PERM_READ | TOS_FS_PERM_WRITE;
  nodes[node].entry = (int8_t)i;
  nodes[node].maps = nodes[node].readers = nodes[node].writers = 0;
  node_of[i] = (int8_t)node;
  fsh->super.files = i + 1; /* last: the entry is complete before the directory counts it */
  return node;
}

int fs_remove(int node) {
  if (fs_busy(node)) return -TOS_EBUSY;
  uint32_t i = (uint32_t)nodes[node].entry, last = fsh->super.files - 1;
  fsh->super.files = last; /* first: the entry leaves the directory before it is overwritten */
  if (i != last) {
    fsh->entry[i] = fsh->entry[last];
    node_of[i] = node_of[last];
    nodes[node_of[i]].entry = (int8_t)i;
  }
  memset(&fsh->entry[last], 0, sizeof fsh->entry[last]);
  node_of[last] = -1;
  nodes[node].entry = -1;
  return 0;
}

int fs_rename(int node, const char *name) {
  if (!fs_name_ok(name)) return -TOS_EINVAL;
  int old = fs_node(name);
  if (old == node) return 0;
  if (old >= 0) {
    int rc = fs_remove(old);
    if (rc) return rc;
  }
  struct tos_fs_entry *e = fs_entry(node);
  memset(e->name, 0, TOS_FS_NAME_LEN);
  memcpy(e->name, name, strlen(name));
  return 0;
}

void fs_use(int node, int readers, int writers) {
  nodes[node].readers = (uint8_t)(nodes[node].readers + readers);
  nodes[node].writers = (uint8_t)(nodes[node].writers + writers);
}

/* A process maps the code of `e` (or the boot script reads it in place): it may no longer move,
 * be rewritten or be removed. The node, or -TOS_EBUSY while someone has it open for writing. */
int fs_map(const struct tos_fs_entry *e) {
  int node = node_of_entry(e);
  if (nodes[node].writers) return -TOS_EBUSY;
  ++nodes[node].maps;
  return node;
}

/* One more mapping of a node already mapped (a twin's code). */
void fs_remap(int node) {
  if (node >= 0 && node < TOS_MAX_FS_FILES) ++nodes[node].maps;
}

void fs_unmap(int node) {
  if (node >= 0 && node < TOS_MAX_FS_FILES && nodes[node].maps) --nodes[node].maps;
}
