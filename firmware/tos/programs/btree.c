/* btree: seed 003's B-tree experiment (Hsieh 1995, section 7.3.2, Figures 7-14 to 7-18) on TOS's
 * shared regions; every number is the simulated machine's clock (time_us) around operations that
 * really run.
 *
 *   btree METHOD PCTS RUNS ITERS INIT LEAF INNER [FILL [SEED]]
 *       A B-link tree (Wang's variant as the seed uses it: keys only in the leaves, every node and
 *       leaf has a link to its right neighbour and a high key, no deletes) over keys
 *       0..1,000,000, built with INIT distinct random keys, leaves of up to LEAF keys (4 bytes
 *       each: 500 -> about 2000 bytes) and inner nodes of up to INNER children (8 bytes each:
 *       500 -> about 4000 bytes), leaves filled to FILL% (default 69%: Yao; more makes splits come
 *       sooner in a short run), inner nodes to 69%, and three levels deep: root, a second level
 *       of at least two nodes, the leaves. Every node is one shared region; the nodes are spread
 *       over the machine's boards at random (each board creates its own: a region is homed where
 *       it is created). Then one thread on every slave repeatedly looks up (PCT% of the time) or
 *       inserts a random key, yielding after each operation. For each PCT (comma separated):
 *       RUNS cold runs (every board's copies flushed first: only the homes hold valid data) and
 *       RUNS warm runs (copies kept); run i has every thread do i*ITERS operations.
 *       METHOD: data (rgn_start_*: data migration with replication), static or repeat
 *       (cm_call with the homes' policy: seed 003's heuristics).
 *       Lines: "btree METHOD cold|warm PCT iters us" (us: the clients' mean loop time; they start
 *       together at a barrier). At the end the tree is checked: its
 *       invariants, every key ever inserted found, absent keys not found.
 *
 * Simplification of the seed's insert (said in docs/results/seed003.md): the seed starts a
 * background thread at the parent's home to insert a split leaf's new pointer; here the inserting
 * thread does the whole split by data migration (write access to the leaf, a spare leaf and the
 * parent), taking the new leaf from a pool of spare leaf regions created (spread like the others)
 * when the tree is built: threads on a board other than the process's home cannot create
 * threads, and splits are rare (the seed: leaves split in fewer than 1% of inserts). Inner nodes
 * do not split in the experiment (the seed's tree gains no level either); a full one is a FAIL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/rand.h>
#include <tos/region.h>
#include <tos/tos.h>

#define KEY_MAX 1000000L
#define MOVE 0x80000000UL  /* a function's result: go right to this rid */
#define MAXNODES 120       /* pool, nodes, spares: below TOS_MAX_REGIONS (128 records a board), so
                            * every board may cache them all and one board may home them all */
#define MAPSLOTS 256
#define LEVELS 3

struct node {
  int32_t leaf, n, cap; /* cap: the most keys (leaf) or children (inner) */
  int32_t high;         /* every key here is <= high (the rightmost node of a level: KEY_MAX) */
  uint32_t right;       /* the node to the right on this level, 0: none */
  int32_t key[];        /* n keys; an inner node: key[i] is child[i]'s high, child[] after cap keys */
};
#define CHILD(nd) ((uint32_t *)((nd)->key + (nd)->cap))

static void fail(const char *what) {
  printf("btree: FAIL: %s: %s\n", what, tos_strerror(tos_errno));
  exit(1);
}

static uint32_t rnd(uint32_t *s) {
  *s = TOS_RAND_NEXT(*s);
  return *s >> 8;
}
static int32_t rnd_key(uint32_t *s) { return (int32_t)((rnd(s) ^ (rnd(s) << 12)) % (KEY_MAX + 1)); }

/* ---- the computations (run where the data is: here on a copy, or migrated to the home) ---- */
static int bsearch_ge(const struct node *nd, int32_t key) { /* first i with key[i] >= key */
  int lo = 0, hi = nd->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (nd->key[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
static long f_inner(void *rgn, long key) {
  const struct node *nd = rgn;
  if (key > nd->high && nd->right) return (long)(nd->right | MOVE);
  int i = bsearch_ge(nd, (int32_t)key);
  if (i >= nd->n) return 0; /* past the last child: a broken tree */
  return (long)CHILD(nd)[i];
}
static long f_find(void *rgn, long key) {
  const struct node *nd = rgn;
  if (key > nd->high && nd->right) return (long)(nd->right | MOVE);
  int i = bsearch_ge(nd, (int32_t)key);
  return i < nd->n && nd->key[i] == key;
}
enum { INS_NEW, INS_DUP, INS_FULL };
static long f_insert(void *rgn, long key) {
  struct node *nd = rgn;
  if (key > nd->high && nd->right) return (long)(nd->right | MOVE);
  int i = bsearch_ge(nd, (int32_t)key);
  if (i < nd->n && nd->key[i] == key) return INS_DUP;
  if (nd->n >= nd->cap) return INS_FULL;
  memmove(&nd->key[i + 1], &nd->key[i], (size_t)(nd->n - i) * sizeof nd->key[0]);
  nd->key[i] = (int32_t)key;
  nd->n++;
  return INS_NEW;
}

/* ---- each board's mapped regions (a row of whole pages per board: only its threads write it) ---- */
/* (The type's alignment, not the array's, makes each row whole pages: sizeof rounds up to it.) */
static struct __attribute__((aligned(TOS_PAGE_SIZE))) bmap {
  uint32_t rid[MAPSLOTS];
  void *addr[MAPSLOTS];
  int n;
} maps[TOS_MAX_BOARDS];

static void *node_at(uint32_t rid) {
  struct bmap *m = &maps[tos_info(TOS_INFO_BOARD)];
  uint32_t h = ((rid & 0xFF) * 31u + (rid >> 24)) % MAPSLOTS;
  for (int k = 0; k < MAPSLOTS; ++k, h = (h + 1) % MAPSLOTS) {
    if (m->rid[h] == rid) return m->addr[h];
    if (!m->rid[h]) {
      void *a = rgn_map(rid);
      if (!a) fail("rgn_map");
      m->rid[h] = rid;
      m->addr[h] = a;
      m->n++;
      return a;
    }
  }
  fail("more regions than map slots");
  return NULL;
}

/* ---- the run's settings and the tree ---- */
static int method, pct, iters, leaf_cap, inner_cap, nboards, run_no; /* method: TOS_CM_POLICY_*; run_no: every run its own keys */
static int bar; /* the clients' start barrier */
static uint32_t root_rid, pool_rid;
static uint32_t seed0 = 1;
static int fill = 69;
static const char *method_name;

/* One access: METHOD decides how (pure data migration, or cm_call and the home's policy). */
static long access_node(uint32_t rid, int write, cm_fn fn, long arg) {
  void *r = node_at(rid);
  if (method == TOS_CM_POLICY_DATA) {
    if ((write ? rgn_start_write(r) : rgn_start_read(r)) < 0) fail("access");
    long v = fn(r, arg);
    if (write) rgn_end_write(r);
    else rgn_end_read(r);
    return v;
  }
  int how;
  long v = cm_call_how(r, write ? TOS_CM_WRITE : TOS_CM_READ, fn, arg, &how);
  if (how < 0) fail("cm_call");
  return v;
}

/* Down to the leaf for key; *parent: the inner node above it (for a split). */
static uint32_t descend(int32_t key, uint32_t *parent) {
  uint32_t rid = root_rid;
  for (int level = 0; level < LEVELS - 1;) {
    uint32_t next = (uint32_t)access_node(rid, 0, f_inner, key);
    if (!next) fail("an inner node without a child for the key");
    if (next & MOVE) {
      rid = next & ~MOVE;
      continue;
    }
    *parent = rid;
    rid = next;
    ++level;
  }
  return rid;
}

static int lookup(int32_t key) {
  uint32_t parent, rid = descend(key, &parent);
  for (;;) {
    unsigned long v = (unsigned long)access_node(rid, 0, f_find, key);
    if (!(v & MOVE)) return (int)v;
    rid = (uint32_t)(v & ~MOVE);
  }
}

/* Split the full leaf `rid` (data migration throughout): the upper half goes to a spare leaf
 * linked to its right, and the parent gets the new pointer. Nothing if another thread split it
 * first (the caller retries). */
static void split(uint32_t rid, uint32_t parent) {
  struct node *a = node_at(rid);
  if (rgn_start_write(a) < 0) fail("split: leaf");
  if (a->n < a->cap) {
    rgn_end_write(a);
    return;
  }
  uint32_t *pool = node_at(pool_rid); /* pool[0]: spares used, pool[1]: spares, pool[2..]: rids */
  if (rgn_start_write(pool) < 0) fail("split: pool");
  if (pool[0] >= pool[1]) {
    printf("btree: FAIL: all %lu spare leaves used\n", (unsigned long)pool[1]);
    exit(1);
  }
  uint32_t nrid = pool[2 + pool[0]++];
  rgn_end_write(pool);
  struct node *b = node_at(nrid);
  if (rgn_start_write(b) < 0) fail("split: new leaf");
  int m = a->n / 2;
  b->leaf = 1;
  b->cap = a->cap;
  b->n = a->n - m;
  memcpy(b->key, &a->key[m], (size_t)b->n * sizeof a->key[0]);
  b->high = a->high;
  b->right = a->right;
  int32_t old_high = a->high, new_high = a->key[m - 1];
  a->n = m;
  a->high = new_high;
  a->right = nrid;
  rgn_end_write(b);
  rgn_end_write(a);
  /* the parent: the entry for the old leaf now ends at its new high, the new leaf follows */
  for (uint32_t p = parent, tries = 0; p;) {
    struct node *nd = node_at(p);
    if (rgn_start_write(nd) < 0) fail("split: parent");
    int i = 0;
    while (i < nd->n && CHILD(nd)[i] != rid) ++i;
    if (i == nd->n) { /* not here: right of here, or the leaf is itself a new one whose pointer
                       * its splitter has still to insert: look again from the start */
      uint32_t r = nd->right;
      rgn_end_write(nd);
      if (!r) {
        if (++tries > 10000) fail("split: the leaf's parent not found");
        yield();
        r = parent;
      }
      p = r;
      continue;
    }
    if (nd->n >= nd->cap) {
      printf("btree: FAIL: an inner node is full (%d children): make INNER larger\n", (int)nd->n);
      exit(1);
    }
    memmove(&nd->key[i + 1], &nd->key[i], (size_t)(nd->n - i) * sizeof nd->key[0]);
    memmove(&CHILD(nd)[i + 1], &CHILD(nd)[i], (size_t)(nd->n - i) * sizeof(uint32_t));
    nd->key[i] = new_high;
    nd->key[i + 1] = old_high;
    CHILD(nd)[i + 1] = nrid;
    nd->n++;
    rgn_end_write(nd);
    break;
  }
}

/* Leaves are always written (the seed's change for its heuristics): cm_call WRITE. */
static int insert(int32_t key) {
  uint32_t parent = 0, rid = descend(key, &parent);
  for (;;) {
    unsigned long v = (unsigned long)access_node(rid, 1, f_insert, key);
    if (v & MOVE) {
      rid = (uint32_t)(v & ~MOVE);
      continue;
    }
    if (v != INS_FULL) return v == INS_NEW;
    split(rid, parent);
    rid = descend(key, &parent);
  }
}

/* ---- the clients ---- */
#define NSAMPLE 240
static struct __attribute__((aligned(TOS_PAGE_SIZE))) perb { /* a page per board: only its worker writes it */
  long news;                /* keys inserted that were not there */
  int ns;                   /* inserts of the last run */
  unsigned long us;         /* its loop's time in the last run */
  int32_t sample[NSAMPLE];  /* the last keys it inserted */
} perb[TOS_MAX_BOARDS];

static void worker(void *arg) {
  int b = (int)arg;
  uint32_t s = seed0 * 2654435761u ^ (uint32_t)(b * 40503 + run_no * 7919);
  int32_t *smp = perb[b].sample;
  int ns = 0;
  long news = 0;
  if (barrier_wait(bar) != 0) fail("barrier_wait"); /* all start together: every client at once */
  unsigned long t0 = time_us();
  for (int i = 0; i < iters; ++i) {
    int32_t key = rnd_key(&s);
    if ((int)(rnd(&s) % 100) < pct) (void)lookup(key);
    else if (insert(key)) {
      ++news;
      smp[ns++ % NSAMPLE] = key;
    }
    yield();
  }
  perb[b].us = time_us() - t0;
  perb[b].news += news;
  perb[b].ns = ns;
  exit(0);
}

static int n_total; /* regions of the tree (pool, nodes, spares): rids[0..n_total) */
static uint32_t rids[MAXNODES];
static void flusher(void *arg) {
  struct bmap *m = &maps[(int)arg];
  /* every node mapped on every board before the first run (CRL's rgn_map is set-up: asking a
   * home for a region's size is not part of an access) */
  for (int k = 0; k < n_total; ++k) (void)node_at(rids[k]);
  for (int h = 0; h < MAPSLOTS; ++h)
    if (m->rid[h] && rgn_flush(m->addr[h]) < 0) fail("rgn_flush");
  exit(0);
}

/* ---- building the tree ---- */
static int cmp_key(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

static int home_of[MAXNODES], is_inner[MAXNODES], n_made[TOS_MAX_BOARDS], refused[TOS_MAX_BOARDS];
static int want_policy;

/* On board b: create the regions given to b (a region is homed on the board where it is created)
 * and set their policy there (a home's setting). A kernel that homes every region on its
 * process's home board refuses (EREMOTE) on the others: that board's share goes to main's. */
static int make_on(int b) {
  int made = 0;
  for (int k = 0; k < MAXNODES; ++k) {
    if (home_of[k] != b || rids[k]) continue;
    unsigned size = k == 0 ? 8 + 4 * MAXNODES : is_inner[k] ? 20 + 8 * (unsigned)inner_cap : 20 + 4 * (unsigned)leaf_cap;
    rid_t r = rgn_create(size);
    if (!r) {
      if (tos_errno == TOS_EREMOTE && !made) return -1;
      fail("rgn_create");
    }
    void *a = rgn_map(r);
    if (!a) fail("builder rgn_map");
    if (k > 0 && rgn_policy(a, want_policy) < 0) fail("rgn_policy");
    rids[k] = r;
    ++made;
  }
  return made;
}
static void builder(void *arg) {
  int b = (int)arg, made = make_on(b);
  refused[b] = made < 0;
  n_made[b] = made < 0 ? 0 : made;
  exit(0);
}

static int n_leaves, n_inner, n_spare;
static int32_t *keys;
static int nkeys;

static void build(int init, uint32_t *s) {
  keys = malloc(sizeof(int32_t) * (size_t)init);
  if (!keys) fail("malloc keys");
  for (int i = 0; i < init; ++i) keys[i] = rnd_key(s);
  qsort(keys, (size_t)init, sizeof keys[0], cmp_key);
  nkeys = 0;
  for (int i = 0; i < init; ++i)
    if (!nkeys || keys[i] != keys[nkeys - 1]) keys[nkeys++] = keys[i];
  int per_leaf = leaf_cap * fill / 100;
  if (per_leaf < 2) per_leaf = 2;
  n_leaves = (nkeys + per_leaf - 1) / per_leaf;
  int per_inner = inner_cap * 69 / 100;
  int n_mid = (n_leaves + per_inner - 1) / per_inner;
  if (n_mid < 2) n_mid = 2; /* three levels: the root has at least two children */
  if (n_leaves < n_mid * 2) fail("too few keys for three levels");
  n_inner = n_mid + 1;
  n_spare = MAXNODES - 1 - n_inner - n_leaves;
  if (n_spare > n_leaves) n_spare = n_leaves; /* enough for every leaf to split once */
  if (n_spare > inner_cap - (n_leaves / n_mid + 1)) n_spare = inner_cap - (n_leaves / n_mid + 1); /* room in any parent */
  if (n_spare < 1) fail("too many leaves for the region records or the inner nodes (make LEAF or INNER larger, INIT smaller)");
  /* node 0: the pool; 1: the root; 2..n_mid+1: the second level; then leaves; then spares.
   * Homes: at random over the slaves (the pool and the root too: the seed's "created randomly") */
  int total = n_total = 1 + n_inner + n_leaves + n_spare;
  for (int k = 0; k < MAXNODES; ++k) {
    home_of[k] = k < total ? 1 + (int)(rnd(s) % (uint32_t)(nboards - 1)) : -1;
    is_inner[k] = k >= 1 && k <= n_inner;
    rids[k] = 0;
  }
  for (int b = 1; b < nboards; ++b)
    if (!create(300 + b, 4, b, builder, (void *)b)) fail("create builder");
  if (wait() != 0) fail("a builder");
  int here = HERE, n_refused = 0, sum = 0;
  for (int b = 1; b < nboards; ++b)
    if (refused[b]) {
      ++n_refused;
      for (int k = 0; k < total; ++k)
        if (home_of[k] == b) home_of[k] = here;
    }
  if (n_refused) {
    int m = make_on(here);
    if (m < 0) fail("rgn_create here");
    n_made[here] += m;
    printf("btree: %d boards could not home regions (EREMOTE): their share is homed on board %d\n", n_refused, here);
  }
  for (int b = 1; b < nboards; ++b) sum += n_made[b];
  if (sum != total) fail("builders made too few regions");
  /* fill them (from here, by data migration; the cold runs flush every copy first) */
  int first_leaf = 1 + n_inner;
  for (int l = 0; l < n_leaves; ++l) {
    struct node *nd = node_at(rids[first_leaf + l]);
    if (rgn_start_write(nd) < 0) fail("fill leaf");
    int lo = l * nkeys / n_leaves, hi = (l + 1) * nkeys / n_leaves;
    nd->leaf = 1;
    nd->cap = leaf_cap;
    nd->n = hi - lo;
    memcpy(nd->key, &keys[lo], (size_t)(hi - lo) * sizeof keys[0]);
    nd->high = l == n_leaves - 1 ? KEY_MAX : keys[hi - 1];
    nd->right = l == n_leaves - 1 ? 0 : rids[first_leaf + l + 1];
    rgn_end_write(nd);
  }
  for (int m = 0; m < n_mid; ++m) {
    struct node *nd = node_at(rids[2 + m]);
    if (rgn_start_write(nd) < 0) fail("fill inner");
    int lo = m * n_leaves / n_mid, hi = (m + 1) * n_leaves / n_mid;
    nd->leaf = 0;
    nd->cap = inner_cap;
    nd->n = hi - lo;
    for (int l = lo; l < hi; ++l) {
      CHILD(nd)[l - lo] = rids[first_leaf + l];
      nd->key[l - lo] = l == n_leaves - 1 ? KEY_MAX : keys[(l + 1) * nkeys / n_leaves - 1];
    }
    nd->high = nd->key[nd->n - 1];
    nd->right = m == n_mid - 1 ? 0 : rids[2 + m + 1];
    rgn_end_write(nd);
  }
  struct node *root = node_at(rids[1]);
  if (rgn_start_write(root) < 0) fail("fill root");
  root->leaf = 0;
  root->cap = inner_cap;
  root->n = n_mid;
  for (int m = 0; m < n_mid; ++m) {
    CHILD(root)[m] = rids[2 + m];
    int hi = (m + 1) * n_leaves / n_mid;
    root->key[m] = hi == n_leaves ? KEY_MAX : keys[hi * nkeys / n_leaves - 1];
  }
  root->high = KEY_MAX;
  root->right = 0;
  rgn_end_write(root);
  uint32_t *pool = node_at(rids[0]);
  if (rgn_start_write(pool) < 0) fail("fill pool");
  pool[0] = 0;
  pool[1] = (uint32_t)n_spare;
  for (int k = 0; k < n_spare; ++k) pool[2 + k] = rids[first_leaf + n_leaves + k];
  rgn_end_write(pool);
  root_rid = rids[1];
  pool_rid = rids[0];
  free(keys); /* the check needs only their count: the heap is small */
  keys = NULL;
  int homes[TOS_MAX_BOARDS] = {0}, used = 0;
  for (int k = 0; k < total; ++k)
    if (!homes[home_of[k]]++) ++used;
  printf("btree: built %d keys (0..%ld): %d leaves of up to %d keys (%u bytes), %d inner nodes of up to %d "
         "children (%u bytes), %d levels, %d spare leaves; %d regions homed on %d boards\n",
         nkeys, KEY_MAX, n_leaves, leaf_cap, 20 + 4 * (unsigned)leaf_cap, n_inner, inner_cap,
         20 + 8 * (unsigned)inner_cap, LEVELS, n_spare, total, used);
}

/* ---- the end: the tree checked whole (data migration, from here) ---- */
static int check(void) {
  int bad = 0;
  struct node *root = node_at(root_rid);
  rgn_start_read(root);
  int n_mid = root->n;
  static uint32_t mids[MAXNODES], ch[MAXNODES];
  static int32_t mid_keys[MAXNODES], ck[MAXNODES];
  for (int m = 0; m < n_mid; ++m) {
    mids[m] = CHILD(root)[m];
    mid_keys[m] = root->key[m];
  }
  if (root->high != KEY_MAX || root->right) bad |= 1;
  rgn_end_read(root);
  /* the leaves, left to right over their links, must be the second level's children in order */
  uint32_t leaf = 0;
  int32_t prev_high = -1;
  long total = 0;
  int leaves = 0;
  long news = 0;
  for (int b = 0; b < nboards; ++b) news += perb[b].news;
  long room = nkeys + news + 64; /* a tree with more keys than this is broken (counted, not kept) */
  int32_t *all = malloc(sizeof(int32_t) * (size_t)room);
  if (!all) fail("malloc check");
  for (int m = 0; m < n_mid; ++m) {
    struct node *nd = node_at(mids[m]);
    rgn_start_read(nd);
    if (nd->leaf || nd->high != mid_keys[m] || (m < n_mid - 1 ? nd->right != mids[m + 1] : nd->right != 0)) bad |= 2;
    int n = nd->n;
    for (int i = 0; i < n; ++i) {
      ch[i] = CHILD(nd)[i];
      ck[i] = nd->key[i];
    }
    if (ck[n - 1] != nd->high) bad |= 4;
    rgn_end_read(nd);
    for (int i = 0; i < n; ++i) {
      if (leaf && leaf != ch[i]) bad |= 8; /* the previous leaf's link */
      struct node *lf = node_at(ch[i]);
      rgn_start_read(lf);
      if (!lf->leaf || lf->n > lf->cap || lf->high != ck[i]) bad |= 16;
      for (int k = 0; k < lf->n; ++k) {
        if (lf->key[k] <= prev_high || lf->key[k] > lf->high || (k && lf->key[k] <= lf->key[k - 1])) bad |= 32;
        if (total < room) all[total] = lf->key[k];
        ++total;
      }
      prev_high = lf->high;
      leaf = lf->right;
      rgn_end_read(lf);
      ++leaves;
    }
  }
  if (leaf) bad |= 64; /* the last leaf links nowhere */
  int missing = 0;
  if (total <= room)
    for (int b = 1; b < nboards; ++b)
      for (int k = 0; k < perb[b].ns && k < NSAMPLE; ++k)
        if (!bsearch(&perb[b].sample[k], all, (size_t)total, sizeof all[0], cmp_key)) ++missing;
  if (total != nkeys + news) bad |= 128;
  printf("btree: check: %d leaves, %ld keys = %d built + %ld inserted: %s; sampled inserted keys missing: %d; "
         "invariants %s (0x%x)\n",
         leaves, total, nkeys, news, total == nkeys + news ? "yes" : "NO", missing, bad ? "BROKEN" : "hold", bad);
  /* lookups by the tree's own path: keys present must be found, absent ones not */
  uint32_t s = 0xC0FFEEu;
  int found_ok = 0, absent_ok = 0, tries = 0;
  method = TOS_CM_POLICY_DATA;
  for (int k = 0; k < 50 && total > 0; ++k) {
    int32_t present = all[rnd(&s) % (uint32_t)(total < room ? total : room)];
    found_ok += lookup(present) == 1;
    int32_t absent;
    do absent = rnd_key(&s);
    while (bsearch(&absent, all, (size_t)total, sizeof all[0], cmp_key));
    absent_ok += lookup(absent) == 0;
    ++tries;
  }
  printf("btree: lookups: %d of %d present keys found, %d of %d absent keys not found\n", found_ok, tries, absent_ok,
         tries);
  return !bad && !missing && found_ok == tries && absent_ok == tries;
}

/* A run's cost: the mean over the clients of their loops' times (the seed: the average latency),
 * the loops started together at a barrier once every client exists. print 0: a warm-up. */
static void run(int b_cold, int runs, int step, int print) {
  for (int i = 1; i <= runs; ++i) {
    if (b_cold) {
      for (int b = 1; b < nboards; ++b)
        if (!create(200 + b, 4, b, flusher, (void *)b)) fail("create flusher");
      if (wait() != 0) fail("a flusher");
    }
    iters = i * step;
    ++run_no;
    for (int b = 1; b < nboards; ++b) /* the slaves (rgnbench: a thread made on the master from earth stalls) */
      if (!create(b, 4, b, worker, (void *)b)) fail("create worker");
    if (wait() != 0) fail("a worker");
    unsigned long sum = 0;
    for (int b = 1; b < nboards; ++b) sum += perb[b].us;
    if (print)
      printf("btree %s %s %d %d %lu\n", method_name, b_cold ? "cold" : "warm", pct, iters, sum / (unsigned long)(nboards - 1));
  }
}

static void stopper(void *unused) {
  (void)unused;
  cm_serve_stop();
  exit(0);
}

static int driver_ok;
static void driver(void *arg) {
  const char **a = arg;
  int runs = atoi(a[1]), step = atoi(a[2]);
  if ((bar = barrier_init(nboards - 1)) < 0) fail("barrier_init");
  pct = 50;
  run(1, 1, 1, 0); /* untimed: every board maps the nodes and pages in the program's code */
  for (const char *p = a[0]; *p;) {
    pct = atoi(p);
    run(1, runs, step, 1);
    run(0, runs, step, 1);
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  int m = method;
  driver_ok = check(); /* (by data migration: it sets method) */
  if (m != TOS_CM_POLICY_DATA) { /* cm_serve_stop ends its own board's servers */
    for (int b = 1; b < nboards; ++b)
      if (n_made[b] && !create(400 + b, 2, b, stopper, NULL)) fail("create stopper");
    if (wait() != 0) fail("a stopper");
  }
  exit(0);
}

int main(int argc, char **argv) {
  if (argc < 8) {
    printf("usage: btree data|static|repeat PCTS RUNS ITERS INIT LEAF INNER [FILL [SEED]]\n");
    return 2;
  }
  method = cm_policy_named(argv[1]);
  if (method < 0 || method == TOS_CM_POLICY_RPC) fail("method (data, static or repeat)");
  method_name = cm_policy_name(method);
  int runs = atoi(argv[3]), step = atoi(argv[4]), init = atoi(argv[5]);
  leaf_cap = atoi(argv[6]);
  inner_cap = atoi(argv[7]);
  if (argc > 8) fill = atoi(argv[8]);
  if (argc > 9) seed0 = (uint32_t)atol(argv[9]);
  if (fill < 10 || fill > 100) {
    printf("btree: FAIL: FILL is a percentage, 10..100\n");
    return 2;
  }
  if (runs < 1 || step < 1 || init < 4 || leaf_cap < 4 || 20 + 4 * leaf_cap > TOS_MAX_REGION_BYTES || inner_cap < 4 ||
      20 + 8 * inner_cap > TOS_MAX_REGION_BYTES) {
    printf("btree: FAIL: RUNS, ITERS >= 1; INIT, LEAF, INNER >= 4; a leaf (20 + 4 LEAF) and an inner node "
           "(20 + 8 INNER) at most %d bytes\n", TOS_MAX_REGION_BYTES);
    return 2;
  }
  nboards = (int)tos_info(TOS_INFO_BOARDS);
  if (nboards < 3) fail("a machine of at least three boards");
  want_policy = method;
  uint32_t s = seed0;
  build(init, &s);
  /* the home's computation server is main's child, so main's wait() would wait for it too: the
   * runs go to a driver thread (as rgnbench's microbenchmark does) */
  if (method != TOS_CM_POLICY_DATA) /* a computation server on every board that homes nodes (the seed: every processor) */
    for (int b = 1; b < nboards; ++b)
      if (n_made[b] && !cm_serve_start_on(b, 4)) fail("cm_serve_start_on");
  static const char *a[3];
  a[0] = argv[2];
  a[1] = argv[3];
  a[2] = argv[4];
  if (!create(99, 8, HERE, driver, a)) fail("create driver");
  int ok = wait() == 0;
  printf(ok && driver_ok ? "btree: done\n" : "btree: FAIL: the tree's checks (above)\n");
  return ok && driver_ok ? 0 : 1;
}
