/* resim_int.h: what the re-simulation's files share: where each net's
 * waveform lies, the chunked stores the waveforms are written into, one
 * gate's simulation, and the worker threads. */
#ifndef GP_RESIM_RESIM_INT_H
#define GP_RESIM_RESIM_INT_H

#include <stdint.h>

#include "events/events.h"
#include "resim/resim.h"
#include "util/vec.h"

/* One net's finished waveform: count events (time in fs, value 0, 1 or X),
 * time-sorted, the first one its value from the dump's first time on, then
 * the end mark (below).  time NULL: a net nothing writes (one driven by an
 * inout pin), without events. */
typedef struct resim_net_wave {
    const int64_t *time;
    const uint8_t *value;
    uint64_t count;
} resim_net_wave;

/* An append-only store of waveforms written one net at a time, in chunks
 * that never move, so a finished net's waveform stays where it is while
 * later nets are written (by this thread, or others into their own stores).
 * The net being written is [first, len) of the current chunk; when the chunk
 * is full, that net alone moves to a new, larger chunk.
 *
 * Each finished waveform is followed by an end mark: an event at INT64_MAX
 * with value RESIM_END_MARK, not counted, so that a reader may always look
 * at the event after the one it took. */
typedef struct resim_store {
    int64_t *time;     /* the current chunk */
    uint8_t *value;
    size_t first, len, cap;
    vec_ptr chunks;    /* every chunk, to free */
} resim_store;

enum { RESIM_END_MARK = EVENTS_X + 1 };

/* Starts a net at the current end of the store. */
static inline void resim_store_begin(resim_store *s)
{
    s->first = s->len;
}

/* Makes room for one more event of the net being written; false when out
 * of memory (the store is then as before). */
bool resim_store_grow(resim_store *s);

static inline bool resim_store_push(resim_store *s, int64_t t, uint8_t v)
{
    if (s->len == s->cap && !resim_store_grow(s))
        return false;
    s->time[s->len] = t;
    s->value[s->len++] = v;
    return true;
}

/* Ends the net written since resim_store_begin with the end mark and gives
 * where it lies; false when out of memory. */
static inline bool resim_store_end(resim_store *s, resim_net_wave *wave)
{
    if (!resim_store_push(s, INT64_MAX, RESIM_END_MARK))
        return false;
    *wave = (resim_net_wave){s->time + s->first, s->value + s->first, s->len - 1 - s->first};
    return true;
}

void resim_store_free(resim_store *s);

/* A worker's scratch for resim_gate, kept across gates. */
typedef struct resim_scratch {
    vec_i64 wakeups;  /* pending wake-up times */
} resim_scratch;

/* Simulates the combinational output pin `pin` of instance `inst`, starting
 * from X at t0_fs, reading its inputs' finished waveforms from `w` (indexed
 * by net) and writing its output's waveform into `out`, saying where in
 * *wave; false when out of memory. */
bool resim_gate(const design *dg, uint32_t inst, uint32_t pin, int64_t t0_fs,
                const resim_net_wave *w, resim_store *out, resim_scratch *scratch,
                resim_net_wave *wave, resim_stats *stats);

/* Most inputs of a gate: a compiled cell has at most this many variables, so
 * none is left out (inouts are not inputs here; their variables read 0). */
#define RESIM_MAX_INPUTS LIB_MAX_EXPR_PINS

/* The inputs instance inst's gates are simulated with: its cell's inputs,
 * at most RESIM_MAX_INPUTS. */
static inline uint32_t resim_gate_inputs(const design *dg, uint32_t inst)
{
    uint32_t n = dg->inst_cell[inst]->n_inputs;
    return n < RESIM_MAX_INPUTS ? n : RESIM_MAX_INPUTS;
}

/* One combinational output pin to simulate. */
typedef struct resim_job {
    uint32_t inst, pin;
} resim_job;

/* The combinational output pins that drive their nets, in level order and,
 * within a level, in instance order.  NULL when out of memory. */
resim_job *resim_list_jobs(const design *dg, uint32_t *n_jobs);

/* Simulates every combinational output pin into w[] (whose other nets are
 * filled), in level order on n_workers threads, worker k writing into
 * stores[k]; the result does not depend on the number of workers.  False
 * when out of memory. */
bool resim_run_levels(const design *dg, int64_t t0_fs, resim_store *stores, uint32_t n_workers,
                      resim_net_wave *w, resim_stats *stats);

/* Reports that memory ran out (message 9005); GP_ERR_NOMEM. */
gp_status resim_no_memory(diag_ctx *d);

/* Refuses designs the level-by-level model cannot simulate. */
gp_status resim_check_design(const design *dg, diag_ctx *d);

/* Where a net's waveform comes from before the gates run. */
typedef enum resim_from {
    RESIM_FROM_GATE,          /* a combinational gate computes it */
    RESIM_FROM_VALUE,         /* one event at t0: a constant, or X (undriven, not dumped) */
    RESIM_FROM_DUMP           /* the dump's events, those after t0 moved by shift[] */
} resim_from;

typedef struct resim_source {
    int64_t shift[2];         /* by the value an event goes to (1, 0): a register's
                                 clock-to-Q; 0 for inputs */
    uint8_t kind;             /* resim_from */
    uint8_t value;            /* RESIM_FROM_VALUE's */
} resim_source;

/* Every net's source (src[n_nets]), with the errors and warnings of a dump
 * that lacks a register output or input; stats gets registers, inputs and
 * events_in. */
gp_status resim_classify_nets(const design *dg, const events *dump, const resim_options *opt,
                              resim_source *src, resim_stats *stats, diag_ctx *d);
/* The part of the fixed nets' waveforms a re-simulation takes: t0 is the
 * dump's first time (the events after it are moved by their shift); when
 * `start` comes after t0 (a warm-up before resim_options.exact_from_fs),
 * every event at or before it becomes one event there, the value there,
 * and the gates start X there; events at or after `until` are left out. */
typedef struct resim_span {
    int64_t t0, start, until;
} resim_span;

/* The span of re-simulating dump under opt: the whole dump, or from the
 * warm-up start before opt->exact_from_fs (stats->start_fs says where). */
gp_status resim_span_of(const design *dg, const events *dump, const resim_options *opt,
                        resim_span *span, resim_stats *stats, diag_ctx *d);
/* Net n's events before the gates run, in the span, and them as event
 * words. */
uint64_t resim_source_events(const events *dump, uint32_t n, const resim_source *src,
                             resim_span span);
void resim_source_words(const events *dump, uint32_t n, const resim_source *src, resim_span span,
                        uint64_t *word);

/* Input k of instance inst as it reaches output library pin out_pin:
 * its net, wire delays and smallest path delays (resim.h). */
resim_input resim_input_of(const design *dg, uint32_t inst, uint32_t out_pin, uint32_t k);

/* A delay in whole femtoseconds, as events hold times (rounded). */
int64_t resim_whole_fs(double fs);
/* The smallest delay per output direction (fs; 0 where no arc has one) over
 * instance inst's arcs into its library pin out_pin: the delay arcs related
 * to input `related`, or with related LIB_NONE the rising/falling-edge arcs
 * (clock to Q). */
void resim_smallest_delay(const design *dg, uint32_t inst, uint32_t out_pin, int32_t related,
                          int64_t delay[2]);

#endif
