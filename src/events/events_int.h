/* events_int.h: what events.c (the dump's declared bits as slots, bound
 * to the design's nets) and events_parts.c (the store from changes read
 * in parts, on threads or in file order, whole or in windows) share: the
 * collector the VCD/FST reader's sink works on. */
#ifndef GP_EVENTS_EVENTS_INT_H
#define GP_EVENTS_EVENTS_INT_H

#include <pthread.h>

#include "events/events.h"
#include "util/vec.h"
#include "vcd/vcd.h"

typedef struct binding {
    uint32_t id, bit, net;
} binding;

/* A declared bit, its name at `name` in the collector's names, and what
 * the name was found to give (events.c, bind_signals). */
typedef struct signal_bit {
    uint32_t id, bit;
    uint64_t name;
    uint32_t net; /* DESIGN_NONE: no net */
    bool is_pin;  /* another pin of an instance */
} signal_bit;

VEC_DECLARE(vec_binding, binding)
VEC_DECLARE(vec_signal_bit, signal_bit)

/* A piece of a bucket: 8 KiB with its header. */
#define EVENTS_BLOCK_WORDS 2044
typedef struct bucket_block bucket_block;
struct bucket_block {
    bucket_block *next;
    uint32_t len;
    uint32_t word[EVENTS_BLOCK_WORDS];
};

/* One part's changes of the slots of one range, in file order, one word
 * each: slot << 2 | value (EVENTS_PART_DROPPED once found to repeat the
 * value before it).  Before the first change of each of the part's times
 * that the bucket holds come two words: EVENTS_TIME_MARK and the time's
 * index in the part's times, in the same block as the change after them.
 * `tix` is the last such index (EVENTS_NO_TIME before the first).  A run
 * (vcd_sink.part_run) is a piece of one slot's changes in time order:
 * EVENTS_RUN_MARK, the slot, the count m, then m words time index << 2 |
 * value (or EVENTS_PART_DROPPED), all in one block. */
typedef struct part_bucket {
    bucket_block *first, *last;
    uint32_t tix;
} part_bucket;

/* Where the blocks of one range's buckets (every part's) come from:
 * chunks of growing size, carved in turn, all given back together once
 * the range's store is written (events_bucket.c). */
typedef struct range_pool {
    pthread_mutex_t lock;
    void *chunks; /* the last chunk; each chunk's first word points to the one before */
    char *at, *end;
    size_t next_size;
} range_pool;

#define EVENTS_PART_DROPPED 3u
/* No change's word: its slot would be the largest number and its value
 * EVENTS_PART_DROPPED, and no dump has that many slots. */
#define EVENTS_TIME_MARK UINT32_MAX
/* Slot EVENTS_MAX_SLOTS, value X: no slot has it.  Both marks are the
 * largest words: one test finds either. */
#define EVENTS_RUN_MARK (UINT32_MAX - 1)
#define EVENTS_NO_TIME UINT32_MAX
/* Ranges of slots: a range's buckets hold its slots' changes, and its
 * changes are counted and written by one thread.  A range of
 * EVENTS_RANGE_SLOTS slots keeps the slots' write positions in a core's
 * cache while its events are written, and its buckets full enough that a
 * time's changes in a bucket are several (each time a bucket sees costs
 * it two words); smaller ranges only where the threads need
 * EVENTS_RANGES_PER_THREAD each to share the passes evenly. */
#define EVENTS_RANGE_SLOTS ((uint32_t)1 << 15)
#define EVENTS_RANGES_PER_THREAD 2
#define EVENTS_MAX_RANGES 1024 /* a bucket per part and range: their count stays small */
#define EVENTS_MAX_SLOTS (((uint32_t)1 << 30) - 1) /* a slot number fits a word */
/* Streaming: the bytes a word held takes at a window (a change's word and
 * its place in the store, or a time's two words), and the share of the bound
 * a batch of parts is read in, in bytes of the file: a change takes 3 to
 * 6 bytes of VCD text, so a batch holds about a quarter of a window. */
#define EVENTS_HELD_BYTES 16
#define EVENTS_BATCH_SHARE 16
/* The flag of slot_net's alias entries: no net number has it; DESIGN_NONE,
 * which has it too, is told apart first. */
#define EVENTS_ALIASED ((uint32_t)1 << 31)

/* Paths below the scope under which unmatched signals would name nets
 * (events_stats.scope_hint), tallied for the first few seen. */
#define EVENTS_HINTS 8
typedef struct scope_tally {
    char path[256];
    uint64_t signals;
} scope_tally;

/* A dump's declared bit is a slot: the changes are kept by slot while
 * the dump is read, and the slots are bound to nets when the design is
 * at hand (at the header's end, or where the store is first built), so
 * that the dump can be read while the netlist is. */
typedef struct collector {
    const design *dg;         /* NULL until bound */
    const events_options *opt;
    events_stats *stats;
    double read_start;        /* when the reading began (progress_now_seconds) */
    diag_ctx *d;
    vec_signal_bit signals;   /* from the header to the binding: every bit declared */
    vec_char names;           /* their names, each ending in NUL */
    vec_binding bindings;     /* while binding, in declaration order */
    uint8_t *net_bound;       /* per net: an earlier bit gave it */
    scope_tally hints[EVENTS_HINTS];
    /* Slots: the ids the scope declares lie in [id_lo, id_lo + id_slots);
     * id's bit 0 is slot id - id_lo (a scalar's change finds its slot
     * without a look), its bit b > 0 slot id_slots + upper0[id] + b - 1,
     * for b up to upper0[id + 1] - upper0[id]. */
    uint32_t *upper0;         /* [id_count + 1] */
    uint32_t *id_kept;        /* NULL, or once the ids none of whose bits is bound are
                                 known before any change: [id_count], the id's bit 0
                                 slot or DESIGN_NONE */
    uint32_t id_count, id_lo, id_slots, n_slots;
    bool bound;               /* events_bind ran (bind_status its result) */
    gp_status bind_status;
    /* Once bound, per slot: DESIGN_NONE if unbound, its net, or
     * EVENTS_ALIASED | k for a slot several nets are bound to (aliases: one
     * code or handle declared under several names): nets
     * alias_nets[alias0[k] .. alias0[k + 1]).  net_slot: per net, the slot
     * bound to it or DESIGN_NONE. */
    uint32_t *slot_net, *net_slot;
    uint32_t *alias0, *alias_nets;
    uint32_t aliases;         /* slots with several nets */
    int64_t end_fs;
    /* The changes, by part, of parts [part_base, n_parts) (those before
     * went to windows): bucket[(part - part_base) * n_ranges + range],
     * range r holding the slots s with s >> range_shift == r. */
    part_bucket *bucket;
    range_pool *pools;   /* [n_ranges] */
    vec_i64 *part_times; /* per part: its distinct times, increasing */
    uint32_t part_base, n_parts, n_ranges, range_shift;
    uint32_t threads; /* building the store from the parts */
    /* Streaming (events_stream): what the windows go to, the buckets' words
     * held before a window is given (0: no bound), and what the last window
     * left for the next: each net's value at carry_from and its changes
     * from there on (n_events 0: nothing yet). */
    const events_consumer *consumer;
    uint64_t window_words;
    events carry;
    int64_t carry_from;
    bool windows_given;
    /* events_options.span: the reading holds only the span (the VCD
     * reader agreed, vcd_sink.span), and the edge exchange is made. */
    bool span_read, edge_done;
    bool enough; /* the consumer ended the reading (events_consumer.enough) */
    /* Reading in file order: the part its changes go to, the changes and
     * the time of the last batch. */
    uint32_t seq_part;
    uint64_t seq_changes;
    int64_t seq_time;
} collector;

/* The slot of bit `bit` of id `id`, or DESIGN_NONE beyond the bits declared. */
static inline uint32_t events_slot(const collector *c, uint32_t id, uint32_t bit)
{
    if (bit == 0)
        return id - c->id_lo < c->id_slots ? id - c->id_lo : DESIGN_NONE;
    uint32_t upper = c->upper0[id] + bit - 1;
    return upper < c->upper0[id + 1] ? c->id_slots + upper : DESIGN_NONE;
}

/* The slot a change goes to (DESIGN_NONE: none kept). */
static inline uint32_t events_change_slot(const collector *c, uint32_t id, uint32_t bit)
{
    return bit == 0 && c->id_kept ? c->id_kept[id] : events_slot(c, id, bit);
}

gp_status events_no_memory(collector *c);
/* Whether the reading is one rank's share (events_options.span). */
static inline bool events_spanned(const collector *c)
{
    return c->opt->span && c->opt->edge;
}
/* Whether the reading is to stop (events_options.stopped). */
static inline bool events_stopped(const collector *c)
{
    return c->opt->stopped && c->opt->stopped(c->opt->design_ctx);
}
/* Binds the slots to the design's nets, once (later calls return the first
 * one's status): the design from events_options.design when the reading
 * began without one. */
gp_status events_bind(collector *c);

/* The range pools (events_bucket.c): made for c->n_ranges; a new block at
 * the end of b, a bucket of `range` (NULL when out of memory; safe on the
 * reading threads); the pages of the range's blocks given back to the
 * system, the blocks kept mapped (their bytes are lost); every block of
 * the range's buckets given back (the buckets that held them must be
 * emptied); the pools freed. */
gp_status events_pools_make(collector *c);
bucket_block *events_bucket_block(collector *c, uint32_t range, part_bucket *b);
void events_pool_discard(collector *c, uint32_t range);
void events_pool_release(collector *c, uint32_t range);
void events_pools_free(collector *c);

/* Buckets for n parts (n >= 1), what the buckets and windows held
 * dropped (the consumer restarts if it got any). */
gp_status events_parts_reset(collector *c, uint32_t n);
/* The sink's parts and part_changes (vcd.h): parts(0) leaves one part, for
 * the reading in file order that follows; a larger n than before adds
 * parts. */
gp_status events_on_parts(void *ctx, uint32_t n);
gp_status events_on_part_changes(void *ctx, uint32_t part, int64_t time_fs, const vcd_change *ch,
                                 size_t n);
/* The sink's part_times and part_run (vcd.h). */
gp_status events_on_part_times(void *ctx, uint32_t part, const int64_t *time_fs, size_t n);
gp_status events_on_part_run(void *ctx, uint32_t part, uint32_t id, uint32_t bit,
                             const uint32_t *change, size_t n);
/* Sets the ranges for c->n_slots slots on c->threads threads. */
void events_parts_init(collector *c);
/* The sink's parts_done (vcd.h): a window when the parts hold enough. */
gp_status events_on_parts_done(void *ctx, uint32_t n, int64_t complete_fs);
/* The changes in file order, into part seq_part: a window first when the
 * changes held reach the bound and the time moves on. */
gp_status events_on_seq_changes(collector *c, int64_t time_fs, const vcd_change *ch, size_t n);
/* The store from the carry and the parts' buckets, which it frees. */
gp_status events_parts_store(collector *c, events *ev);
/* The last window: every change held, to the dump's end. */
gp_status events_parts_last_window(collector *c);
void events_parts_free(collector *c);

/* The edge exchange (events_options.edge, events_edge.c), made once: with
 * edges of no change; from a store read from the dump's start (the last
 * change before span_to_fs of each net); or from a reading of only the
 * span, whose edges `mine` are, its carry then set from the ranks' before
 * it. */
gp_status events_edge_none(collector *c);
gp_status events_edge_of_store(collector *c, const events *ev);
gp_status events_edge_of_span(collector *c, const events_edge *mine);

#endif
