/* The C library the Embench benchmarks see: huffbench includes <math.h> but calls nothing of it;
 * the benchmarks that need libm or floating point are not vendored (third_party/embench-iot). */
#ifndef EMBENCH_MATH_H
#define EMBENCH_MATH_H
#endif
