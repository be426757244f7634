/* power_cpu.c: the fast CPU engine: SPEC §3's rules (power_rules.h) over
 * the power model (power_model.h), spread over threads.
 *
 * Tasks.  Each gate's cycles are cut into windows of whole cycles, as long as
 * the gate's event density allows for about task_events events per window
 * (a busy gate gets many short windows, a quiet one a few long ones).  A
 * task (gate, window) is independent of every other: it finds each pin's
 * first event at the window's start by binary search, rebuilds the state
 * from the events before it, then walks its window as the reference walks a
 * gate.  Windows are aligned to cycles because the only rules that look
 * across events, the related-pin choice and the glitch pairs, look inside
 * one cycle.  Time is first cut into slabs as long as the longest window
 * (16 task_events cycles; the last slab may be shorter), and each gate's windows
 * start again at each slab's start, so that tasks can be numbered slab by
 * slab, gate by gate, window by window: consecutive tasks then touch the
 * cycles of one slab (or a few), whatever the length of the dump.
 *
 * Determinism.  Tasks are grouped into shards of consecutive tasks of about
 * equal estimated work; the tasks and shards depend on the inputs and
 * task_events only.  Threads take shards in turn; a
 * shard's tasks run in order into the shard's own energy buffers, and shards
 * are added into the result strictly in shard order (the thread finishing
 * shard j adds every finished shard from the lowest not yet added on).  So
 * every sum is formed in the same order whatever the number of threads. */
#include "power/power_int.h"
#include "power/power_rules.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "design/design.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/vec.h"

/* A cycle without events costs about 1/16 of an event (one add per bin), so
 * an eventless gate's window, the longest, is 16 task_events cycles; a
 * task's own start (binary searches) costs about 16 events. */
#define CPU_CYCLE_WORK (1.0 / 16)
#define CPU_TASK_WORK 16.0
/* Shards: at most this many, and each at least 16 tasks' and 16 bins per
 * cycle of a slab of work, so that adding a shard's buffers costs little
 * beside it. */
#define CPU_MAX_SHARDS 4096
#define CPU_MAX_THREADS 1024
#define CPU_CACHE_LINE 64

/* What one shard books: bins [bin0, bin0 + n_bins) and instances
 * [inst0, inst0 + n_insts), POWER_COMPONENTS energies each, and with
 * power_options.exact their exact sums (two words each; NULL otherwise). */
typedef struct cpu_shard_out {
    uint32_t bin0, n_bins, inst0, n_insts;
    double *bins, *inst;
    uint64_t *bins_exact, *inst_exact;
    uint64_t events_used;
    size_t bins_cap, inst_cap; /* doubles bins and inst hold (the exact arrays, twice as
                                  many and one) */
} cpu_shard_out;

typedef struct cpu_run {
    const design *dg;
    const events *ev;
    const power_plan *plan;
    power_model m;
    uint32_t max_memo;        /* the most memo doubles of an instance */
    power_result *r;
    bool exact;               /* power_options.exact: shards keep exact sums */
    /* Within a full slab, gate g's tasks are task0[g] .. task0[g + 1]; within
     * the last slab, task0[n_insts + 1 + g] .. (the offsets from the slab's
     * first task, the full slabs coming first). */
    uint64_t *task0;
    uint32_t slab, n_slabs;   /* cycles per slab (the longest window), slabs */
    uint32_t *window;         /* per gate: cycles per task (the last in a slab may be shorter) */
    vec_u64 shard_first;      /* shard j's tasks: shard_first[j] .. shard_first[j + 1] */
    uint32_t n_shards;
    atomic_uint next_shard;
    atomic_bool failed;       /* out of memory in a worker */
    pthread_mutex_t lock;     /* guards done[], committed and spare[] */
    cpu_shard_out **done;     /* finished shards not yet added into r */
    uint32_t committed;       /* shards added into r so far (in order) */
    /* Added shards whose buffers the next shards take: fresh ones would be
     * zeroed page by page by the kernel, several MB a shard over many
     * cycles (a page fault each 4 KB). */
    cpu_shard_out **spare;
    uint32_t n_spare, max_spare;
} cpu_run;

/* One pin of the gate a task walks. */
typedef struct cpu_pin {
    uint64_t next, end;       /* its net's events still to come */
    int64_t next_t;           /* time of event `next`; INT64_MAX when none */
    int64_t last_t;           /* its last event in this task; -1 before any */
    uint32_t net;
    uint8_t value, last_rise;
    uint8_t flags;            /* POWER_PIN_* */
    /* A costed event waiting for a partner: the glitch rule pairs the 1st
     * and 2nd, 3rd and 4th... events of a cycle, so one waits at a time. */
    bool pending;
    uint32_t pend_bin;
    int64_t pend_t;
    double pend_int, pend_sw;
} cpu_pin;

/* A worker's walk through one task. */
typedef struct cpu_walk {
    const cpu_run *run;
    cpu_pin *pin;             /* [run->max_pins] */
    cpu_shard_out *out;
    const power_model_cell *cell;
    double *memo;             /* instance memo_inst's energies (power_memo_fill) */
    uint32_t memo_inst;       /* UINT32_MAX: none yet */
    uint32_t inst, n_pins, pin0, arc0, leak0;
    int64_t leak_from, end;   /* the task's window ends at `end` */
    /* The cycle of leak_from, [bin_start, bin_end): time only moves forward,
     * so cycles are counted rather than divided out. */
    uint32_t bin;
    int64_t bin_start, bin_end;
    double energy[POWER_COMPONENTS]; /* the task's own, added to out->inst at its end */
    uint64_t exact[POWER_COMPONENTS][2]; /* its exact sums, with out->bins_exact */
} cpu_walk;

/* Adds e to the task's exact sum of component c and to bin `bin`'s. */
static void book_exact(cpu_walk *w, power_component c, uint32_t bin, double e)
{
    power_exact_add(w->exact[c], e);
    power_exact_add(&w->out->bins_exact[((size_t)(bin - w->out->bin0) * POWER_COMPONENTS + c) * 2],
                    e);
}

static void book(cpu_walk *w, power_component c, uint32_t bin, double e)
{
    w->energy[c] += e;
    w->out->bins[(size_t)(bin - w->out->bin0) * POWER_COMPONENTS + c] += e;
    if (w->out->bins_exact)
        book_exact(w, c, bin, e);
}

/* ---- one task: the reference's walk over one window ------------------------ */

static void book_event(cpu_walk *w, uint32_t bin, double e_int, double e_sw, bool glitch)
{
    book(w, glitch ? POWER_GLITCH_INTERNAL : POWER_INTERNAL, bin, e_int);
    book(w, glitch ? POWER_GLITCH_SWITCHING : POWER_SWITCHING, bin, e_sw);
}

static void flush_pending(cpu_walk *w, cpu_pin *p)
{
    if (p->pending)
        book_event(w, p->pend_bin, p->pend_int, p->pend_sw, false);
    p->pending = false;
}

/* The glitch rule (SPEC §3.4) as events come: an event waits until the next
 * one of its cycle makes a glitch pair with it, or its cycle ends. */
static void queue_event(cpu_walk *w, cpu_pin *p, int64_t t, double e_int, double e_sw)
{
    uint32_t bin = w->bin;
    if (p->pending && p->pend_bin != bin)
        flush_pending(w, p);
    if (!(p->flags & POWER_PIN_GLITCHABLE)) {
        book_event(w, bin, e_int, e_sw, false);
    } else if (p->pending) {
        uint32_t pin = w->pin0 + (uint32_t)(p - w->pin);
        double r_gl = power_pin_glitch_ratio(&w->run->m, pin, (double)(t - p->pend_t));
        book_event(w, bin, p->pend_int * r_gl, p->pend_sw * r_gl, true);
        book_event(w, bin, e_int * r_gl, e_sw * r_gl, true);
        p->pending = false;
    } else {
        p->pending = true;
        p->pend_bin = bin;
        p->pend_t = t;
        p->pend_int = e_int;
        p->pend_sw = e_sw;
    }
}

/* Bulk pin p's last event at or before t, as the walk would have recorded
 * it for a change of an output at t (a bulk pin is an input: its events at
 * t come first): its time, or -1, and *rise its direction.  A bulk pin
 * keeps its net's first event in `next`. */
static int64_t bulk_last_event(const cpu_walk *w, const cpu_pin *p, int64_t t, bool *rise)
{
    const events *ev = w->run->ev;
    uint64_t first = p->next, e = events_first_in(ev, first, p->end, t + 1);
    if (e == first)
        return -1;
    e--;
    uint8_t before = e > first ? events_value(ev, e - 1) : w->run->m.net_start[p->net];
    int64_t at = events_time(ev, e);
    return power_bulk_last(before, events_value(ev, e), at, e == first,
                           w->run->plan->dump_start, rise)
               ? at
               : -1;
}

/* The related pin of a change of output k at t (SPEC §3.1), or -1;
 * *r_rise: the direction of its last event. */
static int32_t related_pin(const cpu_walk *w, uint32_t k, int64_t t, bool rise, bool *r_rise)
{
    const power_model *m = &w->run->m;
    uint32_t c0 = m->cand0[w->cell->cand0_base + k], c1 = m->cand0[w->cell->cand0_base + k + 1];
    int32_t best = -1;
    double best_gap = INFINITY;
    for (uint32_t i = c0; i < c1; i++) {
        const cpu_pin *r = &w->pin[m->cand[i]];
        bool last_rise = r->last_rise;
        int64_t last_t = r->flags & POWER_PIN_BULK
                             ? bulk_last_event(w, r, t, &last_rise)
                             : r->last_t;
        if (!power_related_in_cycle(last_t, w->bin_start))
            continue;
        double gap = power_related_gap(t, last_t, power_arc_delay(m, w->arc0, m->cand_arc[i], rise));
        if (gap < best_gap)
            best = (int32_t)m->cand[i], best_gap = gap, *r_rise = last_rise;
    }
    return best;
}

/* Costs one change of pin k at t (state s before it) and hands it to the
 * glitch rule. */
static void cost_event(cpu_walk *w, uint32_t k, int64_t t, uint8_t old, uint8_t now, uint32_t s)
{
    const power_model *m = &w->run->m;
    cpu_pin *p = &w->pin[k];
    bool drives = p->flags & POWER_PIN_DRIVES, r_rise = false;
    uint32_t c0 = drives ? m->cand0[w->cell->cand0_base + k] : 0;
    uint32_t c1 = drives ? m->cand0[w->cell->cand0_base + k + 1] : 0;
    int32_t related = c1 > c0 ? related_pin(w, k, t, power_is_rise(old, now), &r_rise) : -1;
    double e_sw, e_int = power_change_energy(m, w->cell, w->memo, w->pin0, k, p->flags, c1 > c0,
                                             related, r_rise, s, old, now, true, &e_sw);
    queue_event(w, p, t, e_int, e_sw);
    w->out->events_used++;
}

/* Applies and costs every event of pin k at t (state s just before t);
 * returns the state bit of k after them. */
static uint32_t apply_events_at(cpu_walk *w, uint32_t k, int64_t t, uint32_t s)
{
    const events *ev = w->run->ev;
    cpu_pin *p = &w->pin[k];
    uint64_t next = p->next;
    for (; next < p->end && events_time(ev, next) == t; next++) {
        uint8_t old = p->value, now = events_value(ev, next);
        bool initial = power_may_be_initial(old, t, w->run->plan->dump_start) &&
                       next == ev->net_ev0[p->net];
        p->value = now;
        if (initial)
            continue;
        /* Booking a silent pin's zeros would change no sum: it is only counted. */
        if (old != now && (p->flags & POWER_PIN_SILENT))
            w->out->events_used++;
        else if (old != now)
            cost_event(w, k, t, old, now, s);
        p->last_t = t;
        p->last_rise = power_is_rise(old, now);
    }
    p->next = next;
    p->next_t = next < p->end ? events_time(ev, next) : INT64_MAX;
    return (uint32_t)(p->value == 1);
}

/* Books the leakage of state s from w->leak_from to t, split over bins,
 * and moves the walk's cycle on to t's. */
static void leak_until(cpu_walk *w, int64_t t, uint32_t s)
{
    int64_t a = w->leak_from, b = t < w->end ? t : w->end;
    w->leak_from = t;
    if (a >= b)
        return;
    double watts = power_leakage(&w->run->m, w->cell, w->leak0, s, true), sum = 0.0;
    double *bin = w->out->bins + (size_t)(w->bin - w->out->bin0) * POWER_COMPONENTS;
    while (a < b) {
        int64_t end = b < w->bin_end ? b : w->bin_end;
        double e = power_leak_energy(watts, a, end);
        bin[POWER_LEAKAGE] += e;
        sum += e;
        if (w->out->bins_exact)
            book_exact(w, POWER_LEAKAGE, w->bin, e);
        a = end;
        if (a == w->bin_end) {
            w->bin++;
            w->bin_start = w->bin_end;
            w->bin_end += w->run->plan->period;
            bin += POWER_COMPONENTS;
        }
    }
    w->energy[POWER_LEAKAGE] += sum;
}

/* Points every pin at its first event at or after `start` and gives it its
 * value just before; returns the state there. */
static uint32_t start_pins(cpu_walk *w, int64_t start)
{
    const power_model *m = &w->run->m;
    const events *ev = w->run->ev;
    uint32_t s = 0;
    for (uint32_t k = 0; k < w->n_pins; k++) {
        cpu_pin *p = &w->pin[k];
        uint32_t net = m->pin_net[w->pin0 + k];
        *p = (cpu_pin){.net = net, .value = net == DESIGN_NONE ? EVENTS_X : m->net_start[net],
                       .last_t = -1, .next_t = INT64_MAX, .flags = m->pin_flags[w->pin0 + k]};
        if (net != DESIGN_NONE && (p->flags & POWER_PIN_BULK)) {
            p->next = ev->net_ev0[net]; /* not walked: its value changes no cost */
            p->end = ev->net_ev0[net + 1];
        } else if (net != DESIGN_NONE) {
            p->end = ev->net_ev0[net + 1];
            p->next = events_first_in(ev, ev->net_ev0[net], p->end, start);
            if (p->next > ev->net_ev0[net])
                p->value = events_value(ev, p->next - 1);
            if (p->next < p->end)
                p->next_t = events_time(ev, p->next);
        }
        if (k < 32)
            s |= (uint32_t)(p->value == 1) << k;
    }
    return s;
}

/* Task (inst, cycles [c0, c1)): the reference's walk_gate over its window. */
static void walk_task(cpu_walk *w, uint32_t inst, uint32_t c0, uint32_t c1)
{
    const power_plan *plan = w->run->plan;
    const power_model *m = &w->run->m;
    w->inst = inst;
    w->cell = &m->cells[m->inst_cell[inst]];
    w->n_pins = w->cell->n_pins;
    w->pin0 = m->inst_pin0[inst];
    w->arc0 = m->inst_arc0[inst];
    w->leak0 = power_leakage_table(w->cell);
    w->leak_from = plan->t0 + (int64_t)c0 * plan->period;
    w->end = c1 >= plan->n_cycles ? plan->t1 : plan->t0 + (int64_t)c1 * plan->period;
    w->bin = c0;
    w->bin_start = w->leak_from;
    w->bin_end = w->leak_from + plan->period;
    if (w->memo_inst != inst)
        power_memo_fill(m, inst, w->memo);
    w->memo_inst = inst;
    memset(w->energy, 0, sizeof w->energy);
    memset(w->exact, 0, sizeof w->exact);
    uint32_t s = start_pins(w, w->leak_from);
    for (;;) {
        int64_t t = INT64_MAX;
        for (uint32_t k = 0; k < w->n_pins; k++)
            t = w->pin[k].next_t < t ? w->pin[k].next_t : t;
        if (t >= w->end)
            break;
        leak_until(w, t, s);
        uint32_t after = s;
        for (uint32_t k = 0; k < w->n_pins; k++) {
            if (w->pin[k].next_t != t)
                continue;
            uint32_t bit = apply_events_at(w, k, t, s);
            if (k < 32)
                after = (after & ~(1u << k)) | bit << k;
        }
        s = after;
    }
    leak_until(w, w->end, s);
    for (uint32_t k = 0; k < w->n_pins; k++)
        flush_pending(w, &w->pin[k]);
    size_t at = (size_t)(inst - w->out->inst0) * POWER_COMPONENTS;
    for (int c = 0; c < POWER_COMPONENTS; c++)
        w->out->inst[at + c] += w->energy[c];
    if (w->out->inst_exact)
        power_exact_add_sums(&w->out->inst_exact[at * 2], &w->exact[0][0], POWER_COMPONENTS);
}

/* ---- tasks and shards -------------------------------------------------------- */

/* Task `window` of gate `inst` in slab `slab`. */
typedef struct cpu_task {
    uint32_t slab, inst;
    uint64_t window;
} cpu_task;

static uint32_t slab_cycles(const cpu_run *run, uint32_t slab)
{
    uint32_t left = run->plan->n_cycles - slab * run->slab;
    return left < run->slab ? left : run->slab;
}

/* The gates' task offsets within slab `slab`. */
static const uint64_t *slab_task0(const cpu_run *run, uint32_t slab)
{
    return run->task0 + (slab + 1 == run->n_slabs ? run->dg->n_insts + 1 : 0);
}

static uint64_t task_count(const cpu_run *run)
{
    uint32_t n = run->dg->n_insts;
    return (uint64_t)(run->n_slabs - 1) * run->task0[n] + slab_task0(run, run->n_slabs - 1)[n];
}

/* Task number `task` (< task_count). */
static cpu_task task_at(const cpu_run *run, uint64_t task)
{
    uint64_t per_slab = run->task0[run->dg->n_insts], slab = task / per_slab;
    slab = slab < run->n_slabs ? slab : run->n_slabs - 1;
    const uint64_t *task0 = slab_task0(run, (uint32_t)slab);
    uint64_t local = task - slab * per_slab;
    uint32_t gate = power_last_at_or_below(task0, run->dg->n_insts, local);
    return (cpu_task){(uint32_t)slab, gate, local - task0[gate]};
}

/* The task after t: every gate has at least one task in every slab. */
static cpu_task task_next(const cpu_run *run, cpu_task t)
{
    const uint64_t *task0 = slab_task0(run, t.slab);
    if (++t.window < task0[t.inst + 1] - task0[t.inst])
        return t;
    t.window = 0;
    if (++t.inst < run->dg->n_insts)
        return t;
    t.inst = 0;
    t.slab++;
    return t;
}

/* Task t's cycles [*c0, *c1). */
static void task_cycles(const cpu_run *run, cpu_task t, uint32_t *c0, uint32_t *c1)
{
    uint32_t start = t.slab * run->slab, end = start + slab_cycles(run, t.slab);
    uint64_t a = start + t.window * run->window[t.inst], b = a + run->window[t.inst];
    *c0 = (uint32_t)a;
    *c1 = b < end ? (uint32_t)b : end;
}

static void shard_free_buffers(cpu_shard_out *o)
{
    mem_free(o->bins);
    mem_free(o->inst);
    mem_free(o->bins_exact);
    mem_free(o->inst_exact);
    o->bins = o->inst = NULL;
    o->bins_exact = o->inst_exact = NULL;
    o->bins_cap = o->inst_cap = 0;
}

static void shard_free(cpu_shard_out *o)
{
    if (!o)
        return;
    shard_free_buffers(o);
    mem_free(o);
}

/* A spare shard's buffers, or new ones (all empty). */
static cpu_shard_out *shard_take(cpu_run *run)
{
    pthread_mutex_lock(&run->lock);
    cpu_shard_out *o = run->n_spare ? run->spare[--run->n_spare] : NULL;
    pthread_mutex_unlock(&run->lock);
    return o ? o : mem_calloc(1, sizeof *o);
}

/* o's buffers holding `bins` and `inst` doubles at least (the exact sums
 * with exact), zeroed. */
static bool shard_fit(cpu_shard_out *o, size_t bins, size_t inst, bool exact)
{
    if (o->bins_cap < bins || o->inst_cap < inst) {
        shard_free_buffers(o);
        o->bins = mem_alloc((bins ? bins : 1) * sizeof *o->bins);
        o->inst = mem_alloc((inst ? inst : 1) * sizeof *o->inst);
        if (exact) {
            o->bins_exact = mem_alloc((bins * 2 + 1) * sizeof *o->bins_exact);
            o->inst_exact = mem_alloc((inst * 2 + 1) * sizeof *o->inst_exact);
        }
        if (!o->bins || !o->inst || (exact && (!o->bins_exact || !o->inst_exact)))
            return false;
        o->bins_cap = bins, o->inst_cap = inst;
    }
    memset(o->bins, 0, bins * sizeof *o->bins);
    memset(o->inst, 0, inst * sizeof *o->inst);
    if (exact) {
        memset(o->bins_exact, 0, (bins * 2 + 1) * sizeof *o->bins_exact);
        memset(o->inst_exact, 0, (inst * 2 + 1) * sizeof *o->inst_exact);
    }
    o->events_used = 0;
    return true;
}

/* Zeroed buffers for tasks [first, end): their instances and cycles (the
 * slabs they meet, unless they all are one gate's in one slab). */
static cpu_shard_out *shard_new(cpu_run *run, uint64_t first, uint64_t end)
{
    cpu_task a = task_at(run, first), z = task_at(run, end - 1);
    uint32_t c_lo = a.slab * run->slab, c_hi = z.slab * run->slab + slab_cycles(run, z.slab);
    uint32_t unused, g0 = 0, g1 = run->dg->n_insts - 1;
    if (a.slab == z.slab && a.inst == z.inst) {
        task_cycles(run, a, &c_lo, &unused);
        task_cycles(run, z, &unused, &c_hi);
    }
    if (a.slab == z.slab)
        g0 = a.inst, g1 = z.inst;
    cpu_shard_out *o = shard_take(run);
    if (!o)
        return NULL;
    o->bin0 = c_lo, o->n_bins = c_hi - c_lo, o->inst0 = g0, o->n_insts = g1 - g0 + 1;
    if (!shard_fit(o, (size_t)o->n_bins * POWER_COMPONENTS, (size_t)o->n_insts * POWER_COMPONENTS,
                   run->exact)) {
        shard_free(o);
        return NULL;
    }
    return o;
}

/* Runs shard j's tasks in task order; NULL when out of memory. */
static cpu_shard_out *shard_run(cpu_run *run, cpu_walk *w, uint32_t j)
{
    uint64_t first = run->shard_first.data[j], end = run->shard_first.data[j + 1];
    cpu_shard_out *o = shard_new(run, first, end);
    if (!o)
        return NULL;
    w->out = o;
    cpu_task t = task_at(run, first);
    for (uint64_t task = first; task < end; task++, t = task_next(run, t)) {
        uint32_t c0, c1;
        task_cycles(run, t, &c0, &c1);
        walk_task(w, t.inst, c0, c1);
    }
    return o;
}

static void shard_add(power_result *r, const cpu_shard_out *o)
{
    double *bins = r->bin_energy + (size_t)o->bin0 * POWER_COMPONENTS;
    for (size_t i = 0; i < (size_t)o->n_bins * POWER_COMPONENTS; i++)
        bins[i] += o->bins[i];
    double *inst = r->inst_energy + (size_t)o->inst0 * POWER_COMPONENTS;
    for (size_t i = 0; i < (size_t)o->n_insts * POWER_COMPONENTS; i++)
        inst[i] += o->inst[i];
    r->events_used += o->events_used;
    if (!o->bins_exact)
        return;
    power_exact_add_sums(r->bin_exact + (size_t)o->bin0 * POWER_COMPONENTS * 2, o->bins_exact,
                         (size_t)o->n_bins * POWER_COMPONENTS);
    power_exact_add_sums(r->inst_exact + (size_t)o->inst0 * POWER_COMPONENTS * 2, o->inst_exact,
                         (size_t)o->n_insts * POWER_COMPONENTS);
}

/* Files finished shard j and adds every finished shard, in shard order, from
 * the first not yet added. */
static void shard_done(cpu_run *run, uint32_t j, cpu_shard_out *o)
{
    pthread_mutex_lock(&run->lock);
    run->done[j] = o;
    for (; run->committed < run->n_shards && run->done[run->committed]; run->committed++) {
        cpu_shard_out *added = run->done[run->committed];
        shard_add(run->r, added);
        run->done[run->committed] = NULL;
        if (run->n_spare < run->max_spare)
            run->spare[run->n_spare++] = added;
        else
            shard_free(added);
    }
    pthread_mutex_unlock(&run->lock);
}

/* ---- planning: windows per gate, shards ------------------------------------- */

/* Each gate's window (cycles per task) from its event density in [t0, t1),
 * its tasks per slab, and the estimated work of one of its tasks. */
static bool plan_windows(cpu_run *run, uint32_t task_events, double *task_work)
{
    const design *dg = run->dg;
    const events *ev = run->ev;
    const power_plan *plan = run->plan;
    uint64_t *net_events = mem_alloc((dg->n_nets ? dg->n_nets : 1) * sizeof *net_events);
    if (!net_events)
        return false;
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        uint64_t a = events_first_in(ev, ev->net_ev0[n], ev->net_ev0[n + 1], plan->t0);
        net_events[n] = events_first_in(ev, a, ev->net_ev0[n + 1], plan->t1) - a;
    }
    uint64_t longest = (uint64_t)(task_events / CPU_CYCLE_WORK);
    run->slab = longest < plan->n_cycles ? (uint32_t)longest : plan->n_cycles;
    run->n_slabs = (plan->n_cycles + run->slab - 1) / run->slab;
    uint32_t last = slab_cycles(run, run->n_slabs - 1);
    uint64_t *full_task0 = run->task0, *last_task0 = run->task0 + dg->n_insts + 1;
    full_task0[0] = last_task0[0] = 0;
    for (uint32_t g = 0; g < dg->n_insts; g++) {
        uint64_t n_events = 0;
        for (uint32_t p = dg->inst_pin0[g]; p < dg->inst_pin0[g + 1]; p++)
            n_events += dg->pin_net[p] == DESIGN_NONE ? 0 : net_events[dg->pin_net[p]];
        double density = (double)n_events / plan->n_cycles + CPU_CYCLE_WORK;
        double cycles = floor(task_events / density);
        uint32_t window = cycles < 1 ? 1 : cycles >= run->slab ? run->slab : (uint32_t)cycles;
        full_task0[g + 1] = full_task0[g] + (run->slab + window - 1) / window;
        last_task0[g + 1] = last_task0[g] + (last + window - 1) / window;
        run->window[g] = window;
        task_work[g] = density * window + CPU_TASK_WORK;
    }
    mem_free(net_events);
    return true;
}

/* Cuts the tasks into shards of about equal work. */
static bool plan_shards(cpu_run *run, uint32_t task_events, const double *task_work)
{
    uint64_t n_tasks = run->dg->n_insts ? task_count(run) : 0;
    double total = 0.0, acc = 0.0;
    cpu_task t = {0, 0, 0};
    for (uint64_t task = 0; task < n_tasks; task++, t = task_next(run, t))
        total += task_work[t.inst];
    double shard_work = fmax(total / CPU_MAX_SHARDS, 16.0 * fmax(task_events, run->slab));
    bool ok = vec_u64_push(&run->shard_first, 0);
    t = (cpu_task){0, 0, 0};
    for (uint64_t task = 0; ok && task < n_tasks; task++, t = task_next(run, t)) {
        if (acc >= shard_work) {
            ok = vec_u64_push(&run->shard_first, task);
            acc = 0.0;
        }
        acc += task_work[t.inst];
    }
    if (n_tasks > 0) /* no instances: no shards */
        ok = ok && vec_u64_push(&run->shard_first, n_tasks);
    run->n_shards = (uint32_t)run->shard_first.len - 1;
    return ok;
}

static bool plan_run(cpu_run *run, uint32_t task_events)
{
    uint32_t n_insts = run->dg->n_insts;
    run->task0 = mem_alloc(2 * ((size_t)n_insts + 1) * sizeof *run->task0);
    run->window = mem_alloc((n_insts ? n_insts : 1) * sizeof *run->window);
    double *task_work = mem_alloc((n_insts ? n_insts : 1) * sizeof *task_work);
    bool ok = run->task0 && run->window && task_work &&
              plan_windows(run, task_events ? task_events : 1, task_work) &&
              plan_shards(run, task_events ? task_events : 1, task_work);
    mem_free(task_work);
    return ok;
}

/* ---- threads ------------------------------------------------------------------ */

/* A worker (a part of parts_run; all parts alike): it takes shards in turn
 * until none is left.  Its walk, written at every event, lives on its own
 * stack, and its pins have a cache line of slack on both sides: no two
 * workers write to one cache line. */
static void worker_part(void *ctx, uint32_t part, uint32_t parts)
{
    (void)part, (void)parts;
    cpu_run *run = ctx;
    cpu_walk w = {.run = run, .memo_inst = UINT32_MAX};
    char *pins = mem_alloc(run->m.max_pins * sizeof *w.pin + 2 * CPU_CACHE_LINE);
    w.memo = mem_alloc(((size_t)run->max_memo + 1) * sizeof *w.memo);
    bool ok = pins && w.memo;
    w.pin = (cpu_pin *)(pins + CPU_CACHE_LINE);
    while (ok) {
        unsigned j = atomic_fetch_add(&run->next_shard, 1);
        if (j >= run->n_shards || atomic_load(&run->failed))
            break;
        cpu_shard_out *o = shard_run(run, &w, j);
        if (o)
            shard_done(run, j, o);
        ok = o != NULL;
    }
    if (!ok)
        atomic_store(&run->failed, true);
    mem_free(w.memo);
    mem_free(pins);
}

/* threads <= 0: one per online core; never more than there are shards. */
static uint32_t thread_count(int threads, uint32_t n_shards)
{
    long n = threads > 0 ? threads : (long)parts_online_cores();
    n = n < CPU_MAX_THREADS ? n : CPU_MAX_THREADS;
    n = n < (long)n_shards ? n : (long)n_shards;
    return n < 1 ? 1 : (uint32_t)n;
}

/* n workers on threads of their own (parts_run); a worker refused its
 * thread runs after the first, on the calling thread, and finds the shards
 * taken by then. */
static void run_workers(cpu_run *run, uint32_t n, diag_ctx *d)
{
    parts_refused refused = parts_run(worker_part, run, n);
    if (refused.parts)
        diag_warn(d, 8102, DIAG_NOWHERE, "could not start %u of %u power threads (%s): the "
                  "others did their work; the results are the same, only slower (give a "
                  "smaller --threads)", refused.parts, n, strerror(refused.err));
}

static bool run_threads(cpu_run *run, int threads, diag_ctx *d)
{
    uint32_t n = thread_count(threads, run->n_shards);
    run->done = mem_calloc(run->n_shards ? run->n_shards : 1, sizeof *run->done);
    run->spare = mem_alloc(n * sizeof *run->spare);
    run->max_spare = run->spare ? n : 0;
    atomic_init(&run->next_shard, 0);
    atomic_init(&run->failed, false);
    bool ok = run->done && pthread_mutex_init(&run->lock, NULL) == 0;
    if (ok) {
        run_workers(run, n, d);
        pthread_mutex_destroy(&run->lock);
        ok = !atomic_load(&run->failed);
    }
    for (uint32_t j = 0; run->done && j < run->n_shards; j++)
        shard_free(run->done[j]); /* left by a failed run */
    mem_free(run->done);
    while (run->n_spare > 0)
        shard_free(run->spare[--run->n_spare]);
    mem_free(run->spare);
    return ok;
}

/* ---- the engine -------------------------------------------------------------- */

gp_status power_analyze_cpu_tasks(const design *dg, const events *ev, const power_options *opt,
                                  int threads, uint32_t task_events, power_result **out,
                                  diag_ctx *d)
{
    *out = NULL;
    power_plan plan;
    gp_status st = power_plan_make(dg, ev, opt, &plan, d);
    if (st != GP_OK)
        return st;
    cpu_run run = {.dg = dg, .ev = ev, .plan = &plan, .exact = opt->exact};
    run.r = power_result_new(dg, &plan, d); /* it reports its own failure */
    bool ok = run.r && (!run.exact || power_result_keep_exact(run.r, d)) &&
              power_model_build(&run.m, dg, &plan, true);
    for (uint32_t c = 0; ok && c < run.m.n_cells; c++)
        run.max_memo = run.m.cells[c].memo_size > run.max_memo ? run.m.cells[c].memo_size
                                                                 : run.max_memo;
    ok = ok && plan_run(&run, task_events) && run_threads(&run, threads, d) &&
         power_bulk_book(&run.m, ev, &plan, run.r);
    if (ok) {
        power_result_sum_groups(run.r);
        power_book_input_nets(dg, ev, &plan, run.r);
        power_result_settle(run.r);
    }
    if (run.r && !ok)
        diag_error(d, 8101, DIAG_NOWHERE, "out of memory in the CPU power engine: use fewer "
                   "--threads, a shorter --window or --engine ref");
    power_model_free(&run.m);
    mem_free(run.task0);
    mem_free(run.window);
    vec_u64_free(&run.shard_first);
    power_plan_free(&plan);
    if (!ok) {
        power_result_free(run.r);
        return GP_ERR_NOMEM;
    }
    *out = run.r;
    return GP_OK;
}

gp_status power_analyze_cpu(const design *dg, const events *ev, const power_options *opt,
                            int threads, power_result **out, diag_ctx *d)
{
    return power_analyze_cpu_tasks(dg, ev, opt, threads, POWER_CPU_TASK_EVENTS, out, d);
}
