/* power_int.h: what the power engines share: the plan every engine starts
 * from (window, period, cycles, groups) and the result's bookkeeping. */
#ifndef GP_POWER_POWER_INT_H
#define GP_POWER_POWER_INT_H

#include "power/power.h"

/* Everything an engine needs besides the design and the events. */
typedef struct power_plan {
    int64_t t0, t1;         /* the window [t0, t1), fs */
    int64_t period;         /* fs */
    int64_t dump_start;     /* the dump's first time stamp: initial values live there */
    uint32_t n_cycles;
    bool glitch, include_io;
    uint8_t *inst_group;    /* power_group per instance */
    uint8_t *clock_net;     /* per net: 1 on the clock network (no glitches there) */
} power_plan;

/* Checks the options against the inputs and works out the plan; errors
 * (8001-8019) say which option to give or fix. */
gp_status power_plan_make(const design *dg, const events *ev, const power_options *opt,
                          power_plan *plan, diag_ctx *d);
void power_plan_free(power_plan *plan);

/* A zeroed result for the plan; it takes over plan->inst_group. */
power_result *power_result_new(const design *dg, power_plan *plan, diag_ctx *d);

/* The cycle bin of time t (t0 <= t < t1). */
static inline uint32_t power_bin_of(const power_plan *plan, int64_t t)
{
    return (uint32_t)((t - plan->t0) / plan->period);
}

/* Adds energy e of component c, spent by instance `inst` (DESIGN_NONE: the
 * IO group) in bin b, to the result. */
void power_book(power_result *r, const power_plan *plan, uint32_t inst, power_component c,
                uint32_t bin, double e);

#endif
