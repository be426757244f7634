/* bench_check.h: how the benchmarks compare two engines' power results:
 * relative differences with a floor for energies that are about 0. */
#ifndef GP_BENCH_CHECK_H
#define GP_BENCH_CHECK_H

#include "power/power.h"

/* Energies below this many joules count as 0 beside each other. */
#define BENCH_FLOOR_J 1e-30

/* |a - b| over the larger magnitude (BENCH_FLOOR_J at least); NaN never
 * passes, infinities only when equal. */
double bench_relative(double a, double b);

/* The worst bench_relative of two results over instances, bins, groups
 * and the primary inputs' switching; INFINITY when their instances,
 * cycles or events used differ. */
double bench_worst_difference(const power_result *x, const power_result *y);

#endif
