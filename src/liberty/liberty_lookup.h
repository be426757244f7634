/* liberty_lookup.h: how an NLDM table is interpolated (lib_table_lookup_var),
 * shared with the CUDA kernels, which look up the same tables in their own
 * layout. */
#ifndef GP_LIBERTY_LIBERTY_LOOKUP_H
#define GP_LIBERTY_LIBERTY_LOOKUP_H

#include <stdint.h>

#include "util/hostdev.h"

/* The interval [*lo, *hi] of axis x[0..n) used for v and v's fraction along
 * it: the interval containing v, or the edge one (fraction < 0 or > 1, for
 * extrapolation).  One point: lo = hi = 0, fraction 0. */
GP_HOSTDEV double lib_axis(const double *x, uint32_t n, double v, uint32_t *lo, uint32_t *hi)
{
    if (n < 2) {
        *lo = *hi = 0;
        return 0;
    }
    uint32_t i = 0;
    while (i + 2 < n && v >= x[i + 1])
        i++;
    *lo = i;
    *hi = i + 1;
    return (v - x[i]) / (x[i + 1] - x[i]);
}

/* Values v (rows of n1) interpolated between rows i0 and i1 at fraction f
 * and columns j0 and j1 at fraction g (lib_axis's). */
GP_HOSTDEV double lib_bilinear(const double *v, uint32_t n1, uint32_t i0, uint32_t i1,
                               uint32_t j0, uint32_t j1, double f, double g)
{
    double r0 = v[i0 * n1 + j0] + g * (v[i0 * n1 + j1] - v[i0 * n1 + j0]);
    double r1 = v[i1 * n1 + j0] + g * (v[i1 * n1 + j1] - v[i1 * n1 + j0]);
    return r0 + f * (r1 - r0);
}

#endif
