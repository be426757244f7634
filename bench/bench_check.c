/* bench_check.c: the benchmarks' comparison of power results
 * (bench_check.h). */
#include "bench_check.h"

#include <math.h>

double bench_relative(double a, double b)
{
    if (!isfinite(a) || !isfinite(b))
        return a == b ? 0.0 : INFINITY;
    return fabs(a - b) / fmax(fmax(fabs(a), fabs(b)), BENCH_FLOOR_J);
}

double bench_worst_difference(const power_result *x, const power_result *y)
{
    if (x->n_insts != y->n_insts || x->n_cycles != y->n_cycles ||
        x->events_used != y->events_used)
        return INFINITY;
    double worst = bench_relative(x->io_switching, y->io_switching);
    for (size_t i = 0; i < (size_t)x->n_insts * POWER_COMPONENTS; i++)
        worst = fmax(worst, bench_relative(x->inst_energy[i], y->inst_energy[i]));
    for (size_t i = 0; i < (size_t)x->n_cycles * POWER_COMPONENTS; i++)
        worst = fmax(worst, bench_relative(x->bin_energy[i], y->bin_energy[i]));
    for (size_t g = 0; g < POWER_GROUPS; g++)
        for (size_t c = 0; c < POWER_COMPONENTS; c++)
            worst = fmax(worst, bench_relative(x->group_energy[g][c], y->group_energy[g][c]));
    return worst;
}
