/* The pseudo-random step of TOS's kernel (remote.c: dealing a process's threads to boards) and of
 * its programs (workloads, the balancer's random policy): the C standard's example rand() (ANSI C
 * 4.10.2.2), state = state * 1103515245 + 12345 mod 2^32. One step, each caller keeping its own
 * state (any unsigned 32-bit type) and taking the bits it wants: the high ones (an LCG's low bits
 * cycle quickly). A macro, not an inline function, so each caller's code stays what it was. */
#ifndef TOS_RAND_H
#define TOS_RAND_H

#define TOS_RAND_NEXT(state) ((state) * 1103515245u + 12345u)

#endif
