/* events.h: the event store: every net's value changes, time-sorted, in flat
 * CSR arrays ready to upload to a GPU as they are.
 *
 *   net n's events are k in [net_ev0[n], net_ev0[n+1]): word[k], which
 *   packs the event's time and value as time_fs << 2 | value
 *
 * Times are int64 femtoseconds (the activity readers' unit: every VCD/FST
 * timescale converts exactly), from 0 to EVENTS_TIME_MAX.  Values are 0, 1
 * and 2 (X; the dump's x and z).  One word an event keeps the store at 8
 * bytes an event, each event one load, and is the CUDA engine's layout.
 * A net's first event is its initial value (every bit is X before it), in
 * file order at the dump's first time.  Events of one net at one time (a
 * zero-width pulse in the dump) are kept in file order.  The events are the
 * value on the net at its driver: an input pin sees them delayed by its SDF
 * wire delay (design.pin_wire_delay), which the engines add. */
#ifndef GP_EVENTS_EVENTS_H
#define GP_EVENTS_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "util/diag.h"
#include "util/hostdev.h"
#include "util/progress.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { EVENTS_X = 2 };

/* The latest time an event may have: 2^61 fs - 1 (38.4 minutes). */
#define EVENTS_TIME_MAX (INT64_MAX >> 2)

typedef struct events {
    uint32_t n_nets;
    uint64_t n_events;
    uint64_t *net_ev0; /* [n_nets + 1] */
    uint64_t *word;    /* [n_events]: time_fs << 2 | value */
    int64_t end_fs;    /* the dump's last time stamp */
} events;

/* An event's word: time_fs in 0 .. EVENTS_TIME_MAX, value 0, 1 or 2. */
static inline uint64_t events_pack(int64_t time_fs, uint8_t value)
{
    return (uint64_t)time_fs << 2 | value;
}

/* An event word's time; on the host and in kernels. */
GP_HOSTDEV int64_t events_word_time(uint64_t word)
{
    return (int64_t)(word >> 2);
}

/* Event k's time and value. */
static inline int64_t events_time(const events *ev, uint64_t k)
{
    return events_word_time(ev->word[k]);
}

static inline uint8_t events_value(const events *ev, uint64_t k)
{
    return (uint8_t)(ev->word[k] & 3);
}

/* The first of word[lo .. hi) (one net's events) at or after time t (hi:
 * none); on the host and in kernels. */
GP_HOSTDEV uint64_t events_words_first_at(const uint64_t *word, uint64_t lo, uint64_t hi,
                                          int64_t t)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (events_word_time(word[mid]) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first of events [lo, hi) of one net at or after time t (hi: none). */
static inline uint64_t events_first_in(const events *ev, uint64_t lo, uint64_t hi, int64_t t)
{
    return events_words_first_at(ev->word, lo, hi, t);
}

/* The first of net n's events at or after time t (net_ev0[n + 1]: none). */
static inline uint64_t events_first_at(const events *ev, uint32_t n, int64_t t)
{
    return events_first_in(ev, ev->net_ev0[n], ev->net_ev0[n + 1], t);
}

/* Net n's events [*lo, *hi) that a store of the span [from, to) of ev
 * holds: its last event before `from` (its value there), if any, then its
 * events before `to`. */
static inline void events_span_of(const events *ev, uint32_t n, int64_t from, int64_t to,
                                  uint64_t *lo, uint64_t *hi)
{
    uint64_t first = events_first_at(ev, n, from);
    *lo = first > ev->net_ev0[n] ? first - 1 : first;
    *hi = events_first_in(ev, first, ev->net_ev0[n + 1], to);
}

/* The span [from, to) of ev as a store of its own (events_span_of's
 * events of each net), laid out as a window from `from` (events_window);
 * end_fs stays ev's.  NULL when out of memory. */
events *events_slice(const events *ev, int64_t from, int64_t to);

/* The earliest time of any net's first event; `none` when there is no
 * event. */
int64_t events_first_time(const events *ev, int64_t none);

/* A net's changes in a span of time as the spans after it need them: the
 * span's first change of the net, and its last that differs from the
 * change before it in the span (events words; EVENTS_NO_WORD: none).  A
 * net's value after a run of spans, its last change, comes from their
 * edges folded in order (events_edge_fold, then events_edge_last). */
typedef struct events_edge {
    uint64_t first, last;
} events_edge;
#define EVENTS_NO_WORD UINT64_MAX

/* after[k] becomes the edge of before[k]'s span followed by after[k]'s
 * (a ranks_fold: associative, not commutative). */
void events_edge_fold(const void *before, void *after, size_t count);
/* The last change of the net whose changes from the dump's start have edge
 * e: EVENTS_NO_WORD when it has none (its value is X: every bit is X
 * before its first change, vcd.h). */
uint64_t events_edge_last(events_edge e);

/* How the dump's signals met the design's nets.  A "signal" is one bit of a
 * dumped variable (vectors are bit-blasted). */
typedef struct events_stats {
    const char *format;      /* "VCD" or "FST" */
    uint64_t vars;           /* variables under the scope */
    uint64_t signals_matched;   /* bits naming a net of the design, or the output pin of
                                   an instance (a cell model's scope) that drives one */
    uint64_t signals_pins;      /* bits naming another pin of an instance (an input of a
                                   cell model: its net's value after the wire), not used */
    uint64_t signals_unmatched; /* bits naming none of these */
    uint64_t signals_duplicate; /* matched bits of a net an earlier bit already gave */
    uint32_t nets_bound;        /* the design's nets some bit gives */
    uint32_t nets_with_activity;
    uint32_t parts;             /* the dump's parts (on one thread or more); 1: in file order */
    uint32_t header_pieces;     /* vcd_info's: a VCD header's pieces read on threads, or 0 */
    uint32_t windows;           /* windows given (events_stream) */
    /* Wall seconds of the reading's own steps: the header; the wait for the
     * design (events_options.design); the store's building, every window's
     * (the consumer's time aside).  The text's changes take the rest. */
    double header_seconds, design_wait_seconds, store_seconds;
    uint64_t span_bytes;        /* bytes of the file read for a span alone; 0: none */
    /* From the header's end on: the dump's last time stamp as the file
     * tells before it is read (vcd_info.last_time_fs), or -1. */
    int64_t last_time_fs;
    /* Where the design's nets seem to be, when the scope is above them: the
     * path below the scope under which most unmatched signals name nets
     * ("" when none does), and how many do. */
    char scope_hint[256];
    uint64_t scope_hint_signals;
} events_stats;

typedef struct events_options {
    const char *scope;     /* the design's instance in the dump, e.g. "tb/dut" */
    /* When set, each unmatched signal's name is reported as a note (message
     * 7102, not capped); otherwise they are only counted. */
    bool list_unmatched;
    progress *bar;         /* advanced while the file is read; NULL: none */
    uint32_t threads;      /* reading a plain VCD and building the store (0: one per core) */
    size_t part_size;      /* vcd_options.part_size (0: its default); for tests */
    /* Called once the dump's signals are bound to nets (at the header's
     * end, before any change, when the design is given): per net, 1 where a
     * signal of the dump gives it.  A status other than GP_OK stops the
     * reading with that status (the callback reports why).  NULL: none. */
    gp_status (*bound)(void *ctx, const uint8_t *net_bound, const events_stats *stats);
    void *bound_ctx;
    /* When the reading is given no design: called once, on the reading's
     * thread, where the reading first needs it (to bind the dump's names to
     * nets, after the header; by then the changes read are held by declared
     * bit), and waits for it.  A status other than GP_OK (the design's
     * reader reported why) stops the reading with that status. */
    gp_status (*design)(void *ctx, const design **out);
    void *design_ctx;
    /* With `design`: asked now and then, with design_ctx, while the dump is
     * read; true (the design's reader failed) stops the reading with
     * GP_ERR_INPUT and no message of its own.  NULL: never. */
    bool (*stopped)(void *ctx);
    /* One rank's share of the dump (ranks.h), in events_stream with the
     * design given: the windows need only the changes in [span_from_fs,
     * span_to_fs) (INT64_MIN: from the dump's start; INT64_MAX: to its
     * end), each net's value before them coming from the ranks before.
     * A plain VCD whose span's store fits the consumer's memory is read
     * only there, as one window; any other dump, or one that must be read
     * in file order, is read from its start as without a span.  Either way
     * `edge` is called exactly once (below). */
    bool span;
    int64_t span_from_fs, span_to_fs;
    /* With span: `mine` holds, per net, this rank's edge (events_edge) of
     * the changes before span_to_fs that it read; `before` is to get the
     * ranks' before it, folded in rank order (ranks_exscan with
     * events_edge_fold).  Called on the reading's thread, also when the
     * reading failed (with edges of no change), so that every rank makes
     * the exchange once.  A status other than GP_OK stops the reading. */
    gp_status (*edge)(void *ctx, const events_edge *mine, events_edge *before, uint32_t n_nets);
    void *edge_ctx;
} events_options;

/* Reads the VCD or FST file `path` into the events of `dg`'s nets (dg
 * NULL: the design comes from opt->design). */
gp_status events_read(const design *dg, const char *path, const events_options *opt,
                      events **out, events_stats *stats, diag_ctx *d);
void events_free(events *ev);

/* ---- streaming: the events in windows of time, in bounded memory ---- */

/* What a window's store holds: for each net, its last change before
 * `from` (its value there, at that change's time; none if it had none),
 * then every change from `from` on that was read; every change before
 * `complete_fs` was.  The first window's `from` is INT64_MIN: it holds
 * the dump from its start.  The last holds the dump to its end
 * (complete_fs INT64_MAX, ev->end_fs the dump's last time stamp); the
 * others' end_fs is their complete_fs. */
typedef struct events_window {
    const events *ev;
    int64_t from, complete_fs;
    bool last;
} events_window;

typedef struct events_consumer {
    void *ctx;
    /* The bytes the windows' events may take, about (16 a change; 0: no
     * bound, one window).  Windows are given when the changes read reach
     * it, where the reading allows (vcd.h: parts are read in batches). */
    uint64_t memory;
    /* Takes a window and sets *keep_from (at most complete_fs; the first
     * window's INT64_MIN or more, then never less than before): the next
     * window's `from`. */
    gp_status (*window)(void *ctx, const events_window *w, int64_t *keep_from);
    /* The windows given so far are void: they come again from the dump's
     * start (after a reading in parts that has to be read in file order,
     * vcd.h). */
    void (*restart)(void *ctx);
    /* Asked after each window; true ends the reading there (events_stream
     * returns GP_OK without the last window).  NULL: never. */
    bool (*enough)(void *ctx);
} events_consumer;

/* Reads `path` as events_read does, handing the events to `consumer` in
 * windows (the first once the design is there); a status other than GP_OK
 * from it stops the read. */
gp_status events_stream(const design *dg, const char *path, const events_options *opt,
                        const events_consumer *consumer, events_stats *stats, diag_ctx *d);

#ifdef __cplusplus
}
#endif

#endif
