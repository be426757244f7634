/* power.h: time-based power analysis (SPEC §3): the options, the result and
 * the engines that compute it.
 *
 * Every engine fills the same power_result from the same inputs; the float64
 * single-thread reference engine (power_analyze_ref) is the specification in
 * code, and every faster engine must match it within 1e-6 relative per
 * component, instance and waveform bin.
 *
 * Energies are joules, times femtoseconds (the duration: seconds), powers
 * watts.  A component's power is its energy over the window's length; a
 * waveform bin's power is its energy over the clock period T (the last bin
 * too, even when the window ends inside it). */
#ifndef GP_POWER_POWER_H
#define GP_POWER_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "events/events.h"
#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds of energy.  Glitch energy is kept in its two parts (the internal
 * and switching energy of glitch events, after scaling by r_gl). */
typedef enum power_component {
    POWER_INTERNAL,
    POWER_SWITCHING,
    POWER_LEAKAGE,
    POWER_GLITCH_INTERNAL,
    POWER_GLITCH_SWITCHING,
    POWER_COMPONENTS
} power_component;

/* report_power's groups.  IO holds the switching of nets driven by primary
 * inputs (no driver inside the design), which is outside the design total
 * unless power_options.include_io. */
typedef enum power_group {
    POWER_GROUP_SEQUENTIAL,    /* cells with ff or latch groups */
    POWER_GROUP_COMBINATIONAL,
    POWER_GROUP_CLOCK,         /* combinational cells that drive only clock pins, through
                                  other such cells (the clock network) */
    POWER_GROUP_IO,
    POWER_GROUPS
} power_group;

typedef struct power_options {
    /* The window [start, end) in fs; a negative value takes the dump's first
     * (last) time stamp. */
    int64_t window_start_fs, window_end_fs;
    /* The clock period in fs; 0: measured on clock_net (the most frequent
     * interval between its rising edges). */
    int64_t period_fs;
    const char *clock_net;
    /* false: glitch events are booked as ordinary internal and switching
     * energy, unscaled (to compare with average-power tools). */
    bool glitch;
    /* true: the IO group's switching counts in the design total. */
    bool include_io;
    /* The dump's first time stamp (where initial values live) when the
     * events are a window of the dump (events_stream); -1: the events'. */
    int64_t dump_start_fs;
    /* --deterministic: the ref and cpu engines also keep exact sums
     * (power_result.inst_exact), so that a result does not depend, bit for
     * bit, on how its cycles were cut (threads, windows, ranks). */
    bool exact;
} power_options;

/* The defaults: the whole dump, glitch analysis on, IO apart; no period. */
power_options power_defaults(void);

typedef struct power_result {
    int64_t window_start_fs, window_end_fs, period_fs;
    double duration;         /* s, window_end - window_start */
    uint32_t n_cycles;       /* waveform bins: ceil(duration / period) */
    uint32_t n_insts;
    uint8_t *inst_group;     /* power_group of each instance */
    /* Energies, J.  inst_energy[i * POWER_COMPONENTS + c]: instance i (its
     * output nets' switching included); group_energy[g][c]; bin_energy[b *
     * POWER_COMPONENTS + c]: cycle b, all groups (IO only with include_io). */
    double *inst_energy;
    double group_energy[POWER_GROUPS][POWER_COMPONENTS];
    double *bin_energy;
    double io_switching;     /* J, the IO group's switching, whatever include_io says */
    bool include_io;
    uint64_t events_used;    /* pin events inside the window that were costed */
    /* With power_options.exact (ref and cpu engines): every energy also
     * added into exact sums, 128-bit fixed point (power_rules.h, two words
     * a sum: inst_exact[2 k], [2 k + 1] for inst_energy[k], bin_exact for
     * bin_energy, io_exact for io_switching), which the doubles are then
     * converted from, the groups summed from the instances; adding results
     * adds these.  NULL otherwise. */
    uint64_t *inst_exact, *bin_exact;
    uint64_t io_exact[2];
} power_result;

/* What the options ask of the design alone, checked before the activity is
 * read: the --clock net (8002) and every library's voltage (8009). */
gp_status power_check_design(const design *dg, const power_options *opt, diag_ctx *d);

/* The float64 reference engine: one thread, written for clarity. */
gp_status power_analyze_ref(const design *dg, const events *ev, const power_options *opt,
                            power_result **out, diag_ctx *d);

/* The fast CPU engine: the reference's rules on `threads` threads (<= 0: one
 * per online core), each gate's events cut into cycle-aligned time windows
 * by their density, with state-indexed power lookup tables.  The result is
 * the same, bit for bit, for any number of threads. */
gp_status power_analyze_cpu(const design *dg, const events *ev, const power_options *opt,
                            int threads, power_result **out, diag_ctx *d);

void power_result_free(power_result *r);
/* Error 8013 naming the first instance (or group, or cycle) whose energy is
 * not a finite number: an input value out of range (a capacitance of 1e300
 * F, say) gives inf or NaN, which no report may print as a number. */
gp_status power_result_check(const design *dg, const power_result *r, diag_ctx *d);

/* ---- a dump given in windows (events_stream) ---- */

/* An engine as the stream runs it: power_analyze_ref, _cpu or the CUDA
 * engine behind a context of its own options. */
typedef gp_status (*power_engine_fn)(void *ctx, const design *dg, const events *ev,
                                     const power_options *opt, power_result **out, diag_ctx *d);

/* The power of a dump given in windows: each window's whole cycles are
 * analysed by the engine as a --window of their own and the results added
 * up in cycle order, equal to one run over the whole dump within rounding
 * (1e-9 relative).  The clock period and the dump's start are fixed on
 * the first window with events (a period measured on a clock net, on the
 * first window that holds 16 of its rising edges, or the last). */
typedef struct power_stream power_stream;

power_stream *power_stream_new(const design *dg, const power_options *opt, power_engine_fn engine,
                               void *engine_ctx);
/* Analyses the window's whole cycles not analysed yet (all of them on the
 * last) and sets *keep_from, the time the next window must hold every
 * change from (events_consumer). */
gp_status power_stream_window(power_stream *s, const events_window *w, int64_t *keep_from,
                              diag_ctx *d);
/* The engine contexts the stream runs each window's cycles on at once, cut
 * into n (at most POWER_MAX_LANES) contiguous runs of whole cycles, one a
 * context (a GPU each, --devices); their results are added in order.
 * ctxs stays the caller's and lives as long as the stream. */
#define POWER_MAX_LANES 64
void power_stream_lanes(power_stream *s, void *const *ctxs, uint32_t n);
/* Makes the stream analyse only rank `rank`'s share of `count` (ranks.h) of
 * the cycles: contiguous whole cycles, cut once the clock is fixed, from
 * the analysis' start to its end (the --window's, else last_fs: the dump's
 * last time, events_stats.last_time_fs; -1 unknown is refused then).  The
 * shares' results, appended in rank order, are the whole stream's. */
void power_stream_share(power_stream *s, int rank, int count, int64_t last_fs);
/* Forgets every window (they come again from the start); the clock stays
 * as it was fixed. */
void power_stream_restart(power_stream *s);
/* Fixes the clock on window w as power_stream_window would, without
 * analysing it, where w allows (planned then); a rank fixes it on the
 * dump's first windows before it reads its share. */
gp_status power_stream_plan(power_stream *s, const events_window *w, diag_ctx *d);
bool power_stream_planned(const power_stream *s);
/* Once planned: the span of the dump the share's analysis needs the
 * changes of (events_options.span): from its first cycle (INT64_MIN for
 * the first share, which starts from the dump's start) to its end
 * (INT64_MAX for the share that reaches the analysis' end); an empty span
 * for a share without cycles. */
void power_stream_span(const power_stream *s, int64_t *from, int64_t *to);
/* Once planned: the options of one engine run over all of the share's
 * cycles (the clock and the dump's start fixed), for events that hold
 * them whole; false for a share without cycles. */
bool power_stream_share_options(const power_stream *s, power_options *opt);
/* The result of every window, once the last is analysed; the caller owns
 * it.  NULL before, and for a share without cycles. */
power_result *power_stream_result(power_stream *s);
/* Adds r, the result of the cycles that follow t's (the same design and
 * options), to t, and frees r. */
gp_status power_result_append(power_result *t, power_result *r, diag_ctx *d);
void power_stream_free(power_stream *s);
/* A copy of r (NULL when out of memory). */
power_result *power_result_copy(const power_result *r);
/* Adds r, the result of another activity of the same design and options
 * (another test bench), to t as if its cycles followed t's (error 8016
 * when its period differs), and frees r. */
gp_status power_result_concat(power_result *t, power_result *r, diag_ctx *d);

/* ---- one run in the memory an engine has ---- */

/* What a store costs an engine and what the engine has: each event of the
 * store per_event bytes, and per_pin_event more for each pin on its net
 * (the CUDA engine's gate streams); `bytes` in all. */
typedef struct power_room {
    uint64_t bytes, per_event, per_pin_event;
} power_room;

/* The engine's run over opt's window of ev; where ev costs more than the
 * room, in slices of whole cycles, halved until each slice's store
 * (events_slice) fits or holds one cycle, with the clock fixed first as
 * power_stream fixes it, and their results added up in cycle order: the
 * one run's within rounding (1e-9 relative; bit for bit with exact sums). */
gp_status power_analyze_in_room(const design *dg, const events *ev, const power_options *opt,
                                const power_room *room, power_engine_fn engine, void *ctx,
                                power_result **out, diag_ctx *d);

/* Totals over groups (IO as include_io says), J. */
double power_total_energy(const power_result *r, power_component c);
/* Sum of all components of a row of POWER_COMPONENTS energies. */
double power_sum_components(const double *energies);

#ifdef __cplusplus
}
#endif

#endif
