/* power_int.h: what the power module's files share besides the plan and
 * the model (power_model.h): the clock's measurement, the result's
 * bookkeeping, the CPU engine's task size and bulk costing, and the
 * reference engine's rules that tests compare the fast engines' with. */
#ifndef GP_POWER_POWER_INT_H
#define GP_POWER_POWER_INT_H

#include "power/power.h"
#include "power/power_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dump's first time stamp and the clock period (the option's, or
 * measured on its clock net's events in ev), as power_plan_make finds
 * them: what a stream of windows fixes on its first. */
gp_status power_plan_clock(const design *dg, const events *ev, const power_options *opt,
                           int64_t *dump_start, int64_t *period, diag_ctx *d);
/* The rising edges of net `net` in ev (the edges the period is measured
 * on). */
uint64_t power_clock_rises(const events *ev, uint32_t net);
/* Whether a window of `cycles` clock periods can be analysed (error 8007
 * when not). */
bool power_plan_cycles_fit(int64_t cycles, diag_ctx *d);

/* The cycle bin of time t (t0 <= t < t1). */
static inline uint32_t power_bin_of(const power_plan *plan, int64_t t)
{
    return (uint32_t)((t - plan->t0) / plan->period);
}

/* Adds energy e of component c, spent by instance `inst` (DESIGN_NONE: the
 * IO group) in bin b, to the result. */
void power_book(power_result *r, const power_plan *plan, uint32_t inst, power_component c,
                uint32_t bin, double e);

/* The work (events; a cycle without events counts 1/16) one task of the CPU
 * engine aims at. */
#define POWER_CPU_TASK_EVENTS 2048
/* power_analyze_cpu with the task size given (tests cut gates into many
 * windows with a tiny one).  The result's bits depend on task_events, not on
 * threads. */
gp_status power_analyze_cpu_tasks(const design *dg, const events *ev, const power_options *opt,
                                  int threads, uint32_t task_events, power_result **out,
                                  diag_ctx *d);

/* Books the events of m's bulk pins (POWER_PIN_BULK), which the CPU
 * engine's walk leaves out, into r: internal energy per cycle and instance,
 * and the events used; false when out of memory. */
bool power_bulk_book(const power_model *m, const events *ev, const power_plan *plan,
                     power_result *r);

/* ---- the reference engine's rules (power_ref.c), which tests compare the
 * power model's (power_rules.h) with ---- */

/* A pin's value before its net's first event: X, or the net's constant. */
uint8_t power_start_value(const design *dg, uint32_t net);
/* The internal energy (J) of pin `pin`'s groups related to `related` in
 * state s: per pg group the chosen one's rise or fall table at (slew, load),
 * summed (SPEC §3.1). */
double power_ref_groups_energy(const lib_cell *c, uint32_t pin, int32_t related, uint32_t s,
                               bool rise, double slew, double load);
/* Leakage power (W) of cell c in state s (SPEC §3.3). */
double power_ref_leakage(const lib_cell *c, uint32_t s);

#ifdef __cplusplus
}
#endif

#endif
