/* power_int.h: what the power engines share: the plan every engine starts
 * from (window, period, cycles, groups), the result's bookkeeping, and the
 * reference engine's rules that the faster engines apply through the same
 * code. */
#ifndef GP_POWER_POWER_INT_H
#define GP_POWER_POWER_INT_H

#include <math.h>

#include "power/power.h"
#include "util/hostdev.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* The most parts (and threads) the plan's and the CUDA model's loops are
 * cut into (util/parts.h); their per-part records have this many slots. */
#define POWER_MAX_PARTS 8

/* A zeroed result for the plan; it takes over plan->inst_group. */
power_result *power_result_new(const design *dg, power_plan *plan, diag_ctx *d);

/* The cycle bin of time t (t0 <= t < t1). */
static inline uint32_t power_bin_of(const power_plan *plan, int64_t t)
{
    return (uint32_t)((t - plan->t0) / plan->period);
}

/* Adds every instance's energies into its group's totals, in instance
 * order (engines that fill inst_energy directly call it once at the end). */
void power_result_sum_groups(power_result *r);

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

/* ---- the rules of SPEC §3 every engine applies the same way (power_ref.c) ---- */

/* Whether a change old -> now is a rise (to 1, or from 0 to X) and its weight:
 * a change to or from X is half a transition.  (GP_HOSTDEV: the CUDA
 * kernels apply the same.) */
GP_HOSTDEV bool power_is_rise(uint8_t old, uint8_t now)
{
    return now == 1 || (now == EVENTS_X && old == 0);
}
GP_HOSTDEV double power_weight(uint8_t old, uint8_t now)
{
    return old == EVENTS_X || now == EVENTS_X ? 0.5 : 1.0;
}

/* The last i < n with a[i] <= key (a non-decreasing, a[0] <= key): the
 * item of an offsets table (a gate's tasks, a pin's events) that item
 * `key` of the whole belongs to. */
GP_HOSTDEV uint32_t power_last_at_or_below(const uint64_t *a, uint32_t n, uint64_t key)
{
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* r_gl of a glitch event: pulse width and the pin's slews, fs (SPEC §3.4). */
GP_HOSTDEV double power_glitch_ratio(double width_fs, double t_rise_fs, double t_fall_fs)
{
    double slews = t_rise_fs + t_fall_fs;
    double ratio = slews > 0.0 ? 2.0 * fabs(width_fs) / slews : 1.0;
    return slews > 0.0 ? fmin(1.0, ratio * ratio) : 1.0;
}

/* Bit of a pg group in a served-mask: no related_pg_pin is its own group
 * (pg pins from the 63rd on share a bit). */
static inline uint64_t power_pg_bit(int32_t related_pg)
{
    return related_pg == LIB_NONE ? 1ull << 63 : 1ull << (related_pg < 62 ? related_pg : 62);
}

/* A pin's value before its net's first event: X, or the net's constant. */
uint8_t power_start_value(const design *dg, uint32_t net);

/* Whether internal_power group pw is the one its pg group uses in state s:
 * call it, with *served zero at first, for the groups of one (pin, related
 * pin) pair in library order; it picks the first group per pg group whose
 * `when` holds and records that pg group in *served. */
bool power_group_chosen(const lib_cell *c, const lib_power *pw, uint32_t s, uint64_t *served);
/* The internal energy (J) of pin `pin`'s groups related to `related` in
 * state s: per pg group the chosen one's rise or fall table at (slew, load),
 * summed (SPEC §3.1). */
double power_groups_energy(const lib_cell *c, uint32_t pin, int32_t related, uint32_t s,
                           bool rise, double slew, double load);
/* Whether pin `pin` has internal_power groups related to `related`
 * (LIB_NONE: groups without related_pin). */
bool power_has_groups(const lib_cell *c, uint32_t pin, int32_t related);
/* The first delay arc of output `out` related to `related`, or LIB_NONE. */
int32_t power_delay_arc(const lib_cell *c, uint32_t out, uint32_t related);
/* Leakage power (W) of cell c in state s (SPEC §3.3). */
double power_leakage(const lib_cell *c, uint32_t s);
/* Books the switching of the nets driven from outside the design (IO group). */
void power_book_input_nets(const design *dg, const events *ev, const power_plan *plan,
                           power_result *r);

#ifdef __cplusplus
}
#endif

#endif
