/* resim_gate.c: one combinational output pin over the whole time span.
 *
 * The inputs' events (their nets' waveforms, each moved by the pin's wire
 * delay, less those a later event overtakes) are taken in time order; all
 * changes of one time are applied before the gate is evaluated (MSI).  When
 * the value differs from the last evaluated one, a wake-up is scheduled at
 * now + the smallest path delay, by the output's transition, of the inputs
 * that changed now; a wake-up puts the newest evaluated value on the net
 * (nothing when the net already has it).
 * So a pulse shorter than the delay is swallowed, and a pending wake-up keeps
 * its time when inputs change again: Icarus Verilog's module-path behaviour.
 * Wake-ups due at a time fire before the input changes of that time.
 *
 * This is the re-simulation's inner loop, written for few instructions per
 * event: the gate's state lives in local variables; its input values are a
 * state of 2 bits per input that indexes a table of the output value in
 * every state, built from the truth table when the gate starts; each input
 * keeps the time its next event reaches the pin (after the last event it
 * finds the store's end mark, so nothing checks for the end); delays are
 * looked up by value; and the loop is built once per common fan-in, its
 * loops over the inputs unrolled. */
#include "resim/resim_int.h"
#include "resim/resim_rules.h"

#include <string.h>

/* Makes the compiler build a copy of the function for each constant
 * argument it is called with, so that the loops over the inputs unroll. */
#define RESIM_INLINE static inline __attribute__((always_inline))

typedef struct gate_input {
    int64_t next;          /* when the next event reaches the pin; INT64_MAX: none is left */
    const int64_t *time;   /* the input net's next event (its end mark after the last) */
    const uint8_t *value;
    int64_t wire[RESIM_END_MARK + 1]; /* fs, by the value the net goes to (0, 1, X; end: 0) */
    int64_t delay[3];      /* fs, smallest arc delay to the output, by the value it goes to */
    int64_t min_wire;      /* the smallest of wire[0 .. X] */
    bool uneven;           /* the wire's delay depends on the value: events may be overtaken */
} gate_input;

/* Where an unconnected input reads: no event, only the end mark. */
static const int64_t no_event_time = INT64_MAX;
static const uint8_t no_event_value = RESIM_END_MARK;

/* Whether the input's next event (not the end mark), reaching the pin at
 * `next`, is overtaken by a later one (resim_rules.h). */
static bool overtaken(const gate_input *in)
{
    for (size_t k = 1; in->value[k] != RESIM_END_MARK &&
                       resim_arrives_before(in->time[k], in->min_wire, in->next); k++)
        if (resim_arrives_before(in->time[k], in->wire[in->value[k]], in->next))
            return true;
    return false;
}

/* Sets the input's `next` from its next event (the end mark: INT64_MAX),
 * past the events a later one overtakes. */
static inline void input_advance(gate_input *in)
{
    in->next = *in->time + in->wire[*in->value];
    while (in->uneven && *in->value != RESIM_END_MARK && overtaken(in)) {
        in->time++;
        in->value++;
        in->next = *in->time + in->wire[*in->value];
    }
}

/* Loads the inputs' bookkeeping; returns their number. */
static uint32_t load_inputs(const design *dg, uint32_t inst, uint32_t out_lib_pin,
                            const resim_net_wave *w, gate_input *in)
{
    uint32_t n = resim_gate_inputs(dg, inst);
    for (uint32_t k = 0; k < n; k++) {
        resim_input ri = resim_input_of(dg, inst, out_lib_pin, k);
        bool events = ri.net != DESIGN_NONE && w[ri.net].time; /* a net driven by an inout has none */
        in[k] = (gate_input){.time = events ? w[ri.net].time : &no_event_time,
                             .value = events ? w[ri.net].value : &no_event_value};
        memcpy(in[k].wire, ri.wire, sizeof ri.wire); /* the end mark's: 0 */
        memcpy(in[k].delay, ri.delay, sizeof ri.delay);
        in[k].min_wire = resim_min_wire(ri.wire);
        in[k].uneven = events && resim_uneven_wire(ri.wire);
        input_advance(&in[k]);
    }
    return n;
}

/* Gates of up to this many inputs are evaluated from a table of every state
 * (4^n entries, some unused), built when the gate's simulation starts. */
#define RESIM_TABLE_INPUTS 4

static void fill_table(const uint64_t *tt, uint32_t n, uint8_t *table)
{
    for (uint32_t state = 0; state < 1u << 2 * n; state++)
        table[state] = resim_eval(tt, state, n);
}

/* Appends (t, v) to the output, merging a change at the same time as the
 * last one and dropping one that repeats the value before it. */
static inline bool emit(resim_store *s, int64_t t, uint8_t v)
{
    size_t len = s->len;
    if (len > s->first && s->time[len - 1] == t) {
        s->value[len - 1] = v;
        if (len - 1 > s->first && s->value[len - 2] == v)
            s->len--;
        return true;
    }
    return resim_store_push(s, t, v);
}

/* The pending wake-up times after the earliest one (which run keeps in a
 * variable), sorted, in data[head, len) of the scratch vector.  They are
 * nearly always scheduled in time order, so an insertion seldom moves any. */
typedef struct wake_queue {
    vec_i64 *v;
    size_t head;
} wake_queue;

/* Inserts t; false when out of memory. */
static bool queue_push(wake_queue *q, int64_t t)
{
    vec_i64 *v = q->v;
    if (q->head > 0 && t <= v->data[q->head]) {
        v->data[--q->head] = t;
        return true;
    }
    if (v->len == v->cap && q->head > 0) {
        memmove(v->data, v->data + q->head, (v->len - q->head) * sizeof *v->data);
        v->len -= q->head;
        q->head = 0;
    }
    if (!vec_i64_push(v, t))
        return false;
    size_t i = v->len - 1;
    for (; i > q->head && v->data[i - 1] > t; i--)
        v->data[i] = v->data[i - 1];
    v->data[i] = t;
    return true;
}

/* Takes the earliest time; INT64_MAX when there is none. */
static inline int64_t queue_pop(wake_queue *q)
{
    if (q->head == q->v->len)
        return INT64_MAX;
    int64_t t = q->v->data[q->head++];
    if (q->head == q->v->len)
        q->head = q->v->len = 0;
    return t;
}

/* What run reports besides the waveform. */
typedef struct gate_counts {
    uint64_t wakeups, swallowed;
} gate_counts;

/* Simulates the gate with n loaded inputs and truth table tt (and, for n <=
 * RESIM_TABLE_INPUTS, its table of every state) into `out`, after its first
 * event (t0, X); false when out of memory. */
RESIM_INLINE bool run(gate_input *in, uint32_t n, const uint64_t *tt, const uint8_t *table,
                      int64_t t0, resim_store *out, vec_i64 *scratch, gate_counts *counts)
{
    wake_queue q = {scratch, 0};
    uint32_t state = 0;
    for (uint32_t k = 0; k < n; k++)
        state = resim_state_set(state, k, EVENTS_X);
    uint8_t evaluated = EVENTS_X, on_net = EVENTS_X;
    uint64_t wakeups = 0, swallowed = 0;
    int64_t now = INT64_MAX, wake = INT64_MAX; /* the earliest pending wake-up */
    for (uint32_t k = 0; k < n; k++)
        now = in[k].next < now ? in[k].next : now;
    scratch->len = 0;
    bool ok = emit(out, t0, EVENTS_X);
    while (ok) {
        if (wake <= now) {
            if (wake == INT64_MAX)
                break; /* no input event and no wake-up left */
            swallowed += evaluated == on_net;
            if (evaluated != on_net)
                ok = emit(out, wake, on_net = evaluated);
            wake = queue_pop(&q);
            continue;
        }
        /* Every input change at `now` (changed: the 2-bit fields of the
         * inputs with an event that changed their value), then the gate's
         * new value. */
        uint32_t changed = 0;
        int64_t next = INT64_MAX;
        for (uint32_t k = 0; k < n; k++) {
            while (in[k].next == now) {
                uint32_t s = resim_state_set(state, k, *in[k].value++);
                in[k].time++;
                changed |= s ^ state;
                state = s;
                input_advance(&in[k]);
            }
            next = in[k].next < next ? in[k].next : next;
        }
        uint8_t v = !changed ? evaluated : n <= RESIM_TABLE_INPUTS ? table[state]
                                                                   : resim_eval(tt, state, n);
        if (v != evaluated) {
            int64_t delay = INT64_MAX;
            for (uint32_t k = 0; k < n; k++) {
                int64_t dk = changed >> 2 * k & 3 ? in[k].delay[v] : INT64_MAX;
                delay = dk < delay ? dk : delay;
            }
            evaluated = v;
            wakeups++;
            int64_t pending = resim_schedule(&wake, now + delay);
            ok = pending == INT64_MAX || queue_push(&q, pending);
        }
        now = next;
    }
    counts->wakeups = wakeups;
    counts->swallowed = swallowed;
    return ok;
}

/* Simulates the gate with n >= 1 loaded inputs and truth table tt into
 * `out`; false when out of memory. */
static bool simulate(gate_input *in, uint32_t n, const uint64_t *tt, int64_t t0,
                     resim_store *out, vec_i64 *queue, gate_counts *counts)
{
    uint8_t table[1u << 2 * RESIM_TABLE_INPUTS];
    if (n <= RESIM_TABLE_INPUTS)
        fill_table(tt, n, table);
    switch (n) { /* the common fan-ins, each with its loops unrolled */
    case 1: return run(in, 1, tt, table, t0, out, queue, counts);
    case 2: return run(in, 2, tt, table, t0, out, queue, counts);
    case 3: return run(in, 3, tt, table, t0, out, queue, counts);
    case 4: return run(in, 4, tt, table, t0, out, queue, counts);
    default: return run(in, n, tt, NULL, t0, out, queue, counts);
    }
}

bool resim_gate(const design *dg, uint32_t inst, uint32_t pin, int64_t t0_fs,
                const resim_net_wave *w, resim_store *out, resim_scratch *scratch,
                resim_net_wave *wave, resim_stats *stats)
{
    uint32_t lp = pin - dg->inst_pin0[inst];
    const lib_expr *f = dg->inst_cell[inst]->pins[lp].function;
    gate_input in[RESIM_MAX_INPUTS];
    uint32_t n = load_inputs(dg, inst, lp, w, in);
    gate_counts counts = {0, 0};
    bool ok;
    resim_store_begin(out);
    if (!f || !f->tt) /* no function: X throughout */
        ok = emit(out, t0_fs, EVENTS_X);
    else if (n == 0) /* a constant */
        ok = emit(out, t0_fs, resim_eval(f->tt, 0, 0));
    else
        ok = simulate(in, n, f->tt, t0_fs, out, &scratch->wakeups, &counts);
    stats->wakeups += counts.wakeups;
    stats->swallowed += counts.swallowed;
    return ok && resim_store_end(out, wave);
}
