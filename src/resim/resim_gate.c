/* resim_gate.c: one combinational output pin over the whole time span.
 *
 * The inputs' events (their nets' waveforms, each moved by the pin's wire
 * delay) are taken in time order; all changes of one time are applied before
 * the gate is evaluated (MSI).  When the value differs from the last
 * evaluated one, a wake-up is scheduled at now + the smallest path delay, by
 * the output's transition, of the inputs that changed now; a wake-up puts the
 * newest evaluated value on the net (nothing when the net already has it).
 * So a pulse shorter than the delay is swallowed, and a pending wake-up keeps
 * its time when inputs change again: Icarus Verilog's module-path behaviour.
 * Wake-ups due at a time fire before the input changes of that time. */
#include "resim/resim_int.h"


#include "events/events.h"

/* Most inputs of a gate: a compiled cell has at most this many variables, so
 * none is left out (inouts are not inputs here; their variables read 0). */
#define RESIM_MAX_INPUTS LIB_MAX_EXPR_PINS

typedef struct gate_input {
    uint64_t at, end;      /* next and end index into the waveform store */
    int64_t wire[2];       /* fs, by the net's transition */
    int64_t delay[2];      /* fs, smallest arc delay to the output, by its transition */
    uint8_t value;
} gate_input;

/* A binary min-heap of wake-up times. */
static bool heap_push(resim_vec_time *h, int64_t t)
{
    if (!resim_vec_time_push(h, t))
        return false;
    for (size_t i = h->len - 1; i > 0 && h->data[i] < h->data[(i - 1) / 2]; i = (i - 1) / 2) {
        int64_t tmp = h->data[i];
        h->data[i] = h->data[(i - 1) / 2];
        h->data[(i - 1) / 2] = tmp;
    }
    return true;
}

static int64_t heap_pop(resim_vec_time *h)
{
    int64_t top = h->data[0];
    h->data[0] = h->data[--h->len];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->len && h->data[l] < h->data[m])
            m = l;
        if (r < h->len && h->data[r] < h->data[m])
            m = r;
        if (m == i)
            break;
        int64_t tmp = h->data[i];
        h->data[i] = h->data[m];
        h->data[m] = tmp;
        i = m;
    }
    return top;
}

/* The output value for the input values (X inputs: 0 or 1 when every
 * completion agrees, else X). */
static uint8_t eval(const lib_cell *c, const lib_expr *f, const gate_input *in, uint32_t n)
{
    uint32_t base = 0, xmask = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (in[k].value == EVENTS_X)
            xmask |= 1u << k;
        else
            base |= (uint32_t)in[k].value << k;
    }
    int first = lib_expr_eval(c, f, base);
    for (uint32_t sub = xmask; sub; sub = (sub - 1) & xmask)
        if (lib_expr_eval(c, f, base | sub) != first)
            return EVENTS_X;
    return (uint8_t)first;
}

/* Verilog's delay of a transition to `new` from rise and fall delays (to X:
 * the smaller). */
static int64_t edge_delay(const int64_t delay[2], uint8_t new)
{
    if (new == 1)
        return delay[DESIGN_RISE];
    if (new == 0)
        return delay[DESIGN_FALL];
    return delay[0] < delay[1] ? delay[0] : delay[1];
}

/* Appends (t, v) to the net being written, merging a change at the same time
 * as the last one and dropping one that repeats the value before it. */
static bool emit(resim_trace *w, uint64_t first, int64_t t, uint8_t v)
{
    size_t len = w->time.len;
    if (len > first && w->time.data[len - 1] == t) {
        w->value.data[len - 1] = v;
        if (len - 1 > first && w->value.data[len - 2] == v) {
            w->time.len--;
            w->value.len--;
        }
        return true;
    }
    return resim_vec_time_push(&w->time, t) && resim_vec_value_push(&w->value, v);
}

/* Loads the inputs' bookkeeping; returns their number. */
static uint32_t load_inputs(const design *dg, uint32_t inst, uint32_t out_lib_pin,
                            const resim_wave *w, gate_input *in)
{
    const lib_cell *c = dg->inst_cell[inst];
    uint32_t n = c->n_inputs < RESIM_MAX_INPUTS ? c->n_inputs : RESIM_MAX_INPUTS;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = dg->inst_pin0[inst] + k, net = dg->pin_net[p];
        in[k] = (gate_input){.value = EVENTS_X};
        if (net != DESIGN_NONE) {
            in[k].at = w->first[net];
            in[k].end = w->first[net] + w->count[net];
        }
        for (int dir = 0; dir < 2; dir++)
            in[k].wire[dir] = resim_fs(dg->pin_wire_delay[dir][p]);
        resim_smallest_delay(dg, inst, out_lib_pin, k, in[k].delay);
    }
    return n;
}

/* When input k's next event reaches the pin; INT64_MAX when there is none. */
static int64_t next_time(const resim_wave *w, const gate_input *in)
{
    if (in->at == in->end)
        return INT64_MAX;
    uint8_t v = w->value.data[in->at];
    return w->time.data[in->at] + (v == 1 ? in->wire[DESIGN_RISE]
                                   : v == 0 ? in->wire[DESIGN_FALL] : 0);
}

/* The gate's state while it is simulated. */
typedef struct gate_sim {
    const lib_cell *c;
    const lib_expr *f;
    gate_input in[RESIM_MAX_INPUTS];
    uint32_t n;
    uint8_t evaluated, on_net;
    resim_vec_time heap;    /* pending wake-ups */
    uint64_t first;         /* the output's first event in the trace */
} gate_sim;

/* Applies every input change at time `now`, evaluates the gate and schedules
 * a wake-up when the evaluated value changes. */
static bool take_inputs(gate_sim *g, const resim_wave *w, int64_t now, resim_stats *stats)
{
    uint32_t changed = 0;
    for (uint32_t k = 0; k < g->n; k++)
        while (next_time(w, &g->in[k]) == now) {
            uint8_t v = w->value.data[g->in[k].at++];
            changed |= (uint32_t)(v != g->in[k].value) << k;
            g->in[k].value = v;
        }
    uint8_t v = g->f ? eval(g->c, g->f, g->in, g->n) : EVENTS_X;
    if (!changed || v == g->evaluated)
        return true;
    int64_t delay = INT64_MAX;
    for (uint32_t k = 0; k < g->n; k++)
        if (changed >> k & 1) {
            int64_t dk = edge_delay(g->in[k].delay, v);
            delay = dk < delay ? dk : delay;
        }
    g->evaluated = v;
    stats->wakeups++;
    return heap_push(&g->heap, now + delay);
}

bool resim_gate(const design *dg, uint32_t inst, uint32_t pin, int64_t t0_fs,
                const resim_wave *w, resim_trace *out, resim_stats *stats)
{
    uint32_t lp = pin - dg->inst_pin0[inst];
    gate_sim g = {.c = dg->inst_cell[inst], .first = out->time.len};
    g.f = g.c->pins[lp].function;
    g.n = load_inputs(dg, inst, lp, w, g.in);
    g.evaluated = g.n == 0 && g.f ? eval(g.c, g.f, g.in, 0) : EVENTS_X;
    g.on_net = g.evaluated;
    bool ok = emit(out, g.first, t0_fs, g.on_net);
    while (ok) {
        int64_t now = INT64_MAX;
        for (uint32_t k = 0; k < g.n; k++) {
            int64_t t = next_time(w, &g.in[k]);
            now = t < now ? t : now;
        }
        if (g.heap.len && g.heap.data[0] <= now) {
            int64_t t = heap_pop(&g.heap);
            stats->swallowed += g.evaluated == g.on_net;
            if (g.evaluated != g.on_net)
                ok = emit(out, g.first, t, g.on_net = g.evaluated);
        } else if (now != INT64_MAX) {
            ok = take_inputs(&g, w, now, stats);
        } else {
            break;
        }
    }
    resim_vec_time_free(&g.heap);
    return ok;
}
