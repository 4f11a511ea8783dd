/* The SMI event filter from the master's programs (the shell's `filter`, logger -F): words of
 * a filter command turned into mon_filter calls (hw/monitor/MONITOR_SPEC.md, "The event
 * filter"). Class names are tos.toml's event classes (dgl) plus sched and other; event names
 * events.toml's. */
#include <testbed/memory_map.h>
#include <tos/tos.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  int bit;
} classes[] = {
#define X(name, mask) {#name, __builtin_ctz(mask)},
    TOS_EVENT_CLASS_LIST(X)
#undef X
    {"sched", EV_FILTER_CLASS_SCHED},
    {"other", EV_FILTER_CLASS_OTHER},
};
#define NCLASSES (int)(sizeof classes / sizeof classes[0])

static const struct {
  const char *name;
  int code, index;
} events[] = {
#define X(name, code, cls, index, follows) {#name, code, index},
    TB_EVENT_FILTER_LIST(X)
#undef X
};

static int class_bit(const char *s) {
  for (int i = 0; i < NCLASSES; ++i)
    if (strcmp(s, classes[i].name) == 0) return classes[i].bit;
  return -1;
}

/* "comms,cpu" -> mask, or -1 naming the bad one. */
static long class_mask(const char *list) {
  char buf[96];
  if (strlen(list) >= sizeof buf) return -1;
  strcpy(buf, list);
  long m = 0;
  for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
    int b = class_bit(w);
    if (b < 0) {
      printf("filter: no event class '%s'\n", w);
      return -1;
    }
    m |= 1L << b;
  }
  return m;
}

static int event_index(const char *s) {
  for (unsigned i = 0; i < sizeof events / sizeof events[0]; ++i)
    if (strcmp(s, events[i].name) == 0) return (int)i;
  return -1;
}

static long number(const char *s, long lo, long hi) {
  char *end;
  long v = strtol(s, &end, 0);
  if (!*s || *end || v < lo || v > hi) {
    printf("filter: '%s' is not a number in %ld..%ld\n", s, lo, hi);
    return -1;
  }
  return v;
}

static int set(int smi, int reg, long v) {
  long r = mon_filter(smi, reg, v);
  if (r < 0) printf("filter: SMI %d register 0x%02x: %s\n", smi, reg, tos_strerror((int)r));
  return r < 0 ? -1 : 0;
}

void mon_filter_show(int smi) {
  long ctl = mon_filter(smi, TB_MON_FLT_CTL_OFF, -1);
  if (ctl < 0) {
    printf("filter: SMI %d: %s\n", smi, tos_strerror((int)ctl));
    return;
  }
  printf("SMI %d filter %s, generation %ld: class pass 0x%04lx, match classes 0x%04lx value 0x%04lx mask 0x%04lx,\n"
         "  decimation 0x%04lx one in %ld, guard classes 0x%04lx limit %ld window %ld ticks (tripped 0x%04lx, "
         "%ld dropped)\n",
         smi, ctl & TB_MON_FLT_CTL_ENABLE ? "on" : "off", (ctl & TB_MON_FLT_CTL_GEN) >> TB_MON_FLT_CTL_GEN_SHIFT,
         mon_filter(smi, TB_MON_FLT_CLASS_PASS_OFF, -1), mon_filter(smi, TB_MON_FLT_MATCH_CLASSES_OFF, -1),
         mon_filter(smi, TB_MON_FLT_MATCH_VALUE_OFF, -1), mon_filter(smi, TB_MON_FLT_MATCH_MASK_OFF, -1),
         mon_filter(smi, TB_MON_FLT_DECIM_SEL_OFF, -1), mon_filter(smi, TB_MON_FLT_DECIM_N_OFF, -1),
         mon_filter(smi, TB_MON_FLT_GUARD_CLASSES_OFF, -1), mon_filter(smi, TB_MON_FLT_GUARD_LIMIT_OFF, -1),
         mon_filter(smi, TB_MON_FLT_GUARD_WINDOW_OFF, -1), mon_filter(smi, TB_MON_FLT_TRIPPED_OFF, -1),
         mon_filter(smi, TB_MON_FLT_GUARD_DROPS_OFF, -1));
  for (int i = 0; i < NCLASSES; ++i) {
    int b = classes[i].bit;
    long p = mon_filter(smi, TB_MON_FLT_PASSED0_OFF + 4 * b, -1), f = mon_filter(smi, TB_MON_FLT_FILTERED0_OFF + 4 * b, -1);
    if (p || f) printf("  %-8s passed %8ld filtered %8ld\n", classes[i].name, p, f);
  }
}

/* argv: one filter command (see the shell's help). 0, or -1 with the reason on stderr. */
int mon_filter_apply(int smi, int argc, char **argv) {
  if (argc < 1) return -1;
  const char *op = argv[0];
  long v, m, n;
  if (strcmp(op, "off") == 0 && argc == 1) return set(smi, TB_MON_FLT_CTL_OFF, 0);
  if (strcmp(op, "on") == 0 && argc == 1) return set(smi, TB_MON_FLT_CTL_OFF, TB_MON_FLT_CTL_ENABLE);
  if (strcmp(op, "reset") == 0 && argc == 1) {
    int r = set(smi, TB_MON_FLT_CTL_OFF, 0) | set(smi, TB_MON_FLT_CLASS_PASS_OFF, TB_MON_FLT_CLASS_PASS_RESET) |
            set(smi, TB_MON_FLT_MATCH_CLASSES_OFF, 0) | set(smi, TB_MON_FLT_DECIM_N_OFF, 0) |
            set(smi, TB_MON_FLT_GUARD_WINDOW_OFF, 0);
    for (int i = 0; i < 8; ++i) r |= set(smi, TB_MON_FLT_CODE_PASS0_OFF + 2 * i, TB_MON_FLT_CODE_PASS_RESET);
    return r;
  }
  if ((strcmp(op, "only") == 0 || strcmp(op, "drop") == 0) && argc == 2) {
    if ((m = class_mask(argv[1])) < 0) return -1;
    long now = strcmp(op, "only") == 0 ? m : (mon_filter(smi, TB_MON_FLT_CLASS_PASS_OFF, -1) & ~m & 0xFFFF);
    return set(smi, TB_MON_FLT_CLASS_PASS_OFF, now) | set(smi, TB_MON_FLT_CTL_OFF, TB_MON_FLT_CTL_ENABLE);
  }
  if (strcmp(op, "match") == 0 && argc == 4) {
    if ((m = class_mask(argv[1])) < 0 || (v = number(argv[2], 0, 0xFFFF)) < 0 || (n = number(argv[3], 0, 0xFFFF)) < 0)
      return -1;
    return set(smi, TB_MON_FLT_MATCH_VALUE_OFF, v) | set(smi, TB_MON_FLT_MATCH_MASK_OFF, n) |
           set(smi, TB_MON_FLT_MATCH_CLASSES_OFF, m) | set(smi, TB_MON_FLT_CTL_OFF, TB_MON_FLT_CTL_ENABLE);
  }
  if (strcmp(op, "decim") == 0 && argc == 3) {
    int b = class_bit(argv[1]), e = event_index(argv[1]);
    if (b < 0 && e < 0) {
      printf("filter: '%s' is neither an event class nor an event\n", argv[1]);
      return -1;
    }
    if ((n = number(argv[2], 1, 0xFFFF)) < 0) return -1;
    long sel = b >= 0 ? (TB_MON_FLT_DECIM_SEL_BY_CLASS | b) : events[e].code;
    return set(smi, TB_MON_FLT_DECIM_SEL_OFF, sel) | set(smi, TB_MON_FLT_DECIM_N_OFF, n) |
           set(smi, TB_MON_FLT_CTL_OFF, TB_MON_FLT_CTL_ENABLE);
  }
  if (strcmp(op, "guard") == 0 && argc == 4) {
    if ((m = class_mask(argv[1])) < 0 || (v = number(argv[2], 0, 0xFFFF)) < 0 || (n = number(argv[3], 1, 0xFFFF)) < 0)
      return -1;
    return set(smi, TB_MON_FLT_GUARD_CLASSES_OFF, m) | set(smi, TB_MON_FLT_GUARD_LIMIT_OFF, v) |
           set(smi, TB_MON_FLT_GUARD_WINDOW_OFF, n) | set(smi, TB_MON_FLT_CTL_OFF, TB_MON_FLT_CTL_ENABLE);
  }
  if (strcmp(op, "code") == 0 && argc == 3 && (strcmp(argv[2], "on") == 0 || strcmp(argv[2], "off") == 0)) {
    int e = event_index(argv[1]);
    if (e < 0) {
      printf("filter: no event '%s'\n", argv[1]);
      return -1;
    }
    int idx = events[e].index, reg = TB_MON_FLT_CODE_PASS0_OFF + 2 * (idx / 16);
    long w = mon_filter(smi, reg, -1);
    if (w < 0) return set(smi, reg, -1);
    w = strcmp(argv[2], "on") == 0 ? (w | 1L << (idx % 16)) : (w & ~(1L << (idx % 16)));
    return set(smi, reg, w) | set(smi, TB_MON_FLT_CTL_OFF, TB_MON_FLT_CTL_ENABLE);
  }
  printf("filter: '%s' with %d words: not a filter command (off, on, reset, only CLASSES, drop CLASSES, "
                  "match CLASSES VALUE MASK, decim CLASS|EVENT N, guard CLASSES LIMIT TICKS, code EVENT on|off)\n",
          op, argc - 1);
  return -1;
}
