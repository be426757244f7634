/* cuda_walk.cu: the walk kernel (cuda_kernels.h): a thread walks runs of
 * lane_tasks consecutive tasks (gate, window of whole cycles), taken as it
 * finishes the last, one pin event per step, the state carried between
 * windows of one gate, as power_cpu.c's walk_task walks a task; leakage
 * only (Naive-L) or leakage, dynamic and glitch energy (fusion).
 *
 * Sums: a walk adds its energies for one bin at a time in registers and
 * books them into the result's bins when it moves to another bin (global
 * atomics, which the lane does not wait for, unlike shared memory's);
 * whole cycles of leakage go to the levels (cuda_kernels_levels).
 *
 * Size matters: lanes that take different paths wait for instructions, so
 * the walk has one costing path and keeps rarely taken loops rolled. */
#include "cuda/cuda_kernels.h"

#include "cuda/cuda_rules.cuh"

/* The walk kernel's largest block and the blocks an SM must hold: they set
 * the registers the compiler may use, and registers limit the walk's
 * occupancy (docs/performance.md, "Tuning the kernels"). */
#define WALK_BLOCK 128
#define WALK_MIN_BLOCKS 5

/* ---- the walk (power_cpu.c walk_task) ------------------------------------------------ */

/* A walk goes through one gate's events over a stretch of whole cycles, one
 * pin event per step: the earliest next event of its pins (the lowest pin
 * first at equal times, as power_ref.c applies them), so that the lanes of
 * a warp stay on the same instructions however their gates' events fall.
 * Each thread takes runs of `lane_tasks` consecutive tasks (windows) and
 * walks those of one gate as one stretch: the state carries over, it is
 * rebuilt only where a stretch starts (from the epoch index, without a
 * search).  A change is costed after the step, once the warp is back
 * together (walk_cost_pending).
 *
 * Per-pin state lives in shared memory, field by field, pin by pin, thread
 * by thread (a warp reads one field of one pin from consecutive words: no
 * bank conflicts; pins indexed at run time without spilling): WALK_FIELDS
 * 8-byte words per pin and thread.  Each pin holds its next two events, so
 * that the load of a later one has a whole step to arrive, and the glitch
 * partner of a change (the net's next change in the cycle, power_ref.c
 * flush_pin) is usually already there. */
enum {
    WALK_NEXT,      /* index of event NT in the packed events */
    WALK_NT,        /* the next event (packed), EV_NONE when the stretch has no more */
    WALK_NT2,       /* the one after it, or EV_NONE */
    WALK_LAST_T,    /* its last event in this stretch; -1 before any */
    WALK_CHANGE_T,  /* its last costed change (glitch pairing); -1 before any */
    WALK_BITS,      /* value (bits 0-1), last rise (2), odd change in CHANGE_T's cycle (3),
                       POWER_PIN_* flags (8-15), events left in the net's run window from
                       NT on (32-63) */
    WALK_FIELDS
};
enum { BIT_LAST_RISE = 4, BIT_ODD = 8, FLAGS_SHIFT = 8, LEFT_SHIFT = 32 };
#define EV_NONE INT64_MAX

/* Where a walk books a bin's sums: the result's waveform and leakage
 * levels, float64 or 128-bit fixed point (two words a sum) as `fixed` says. */
struct walk_sums {
    void *bins, *levels;
    bool fixed;
};

struct walk {
    int64_t *col;              /* this thread's column of the shared state */
    uint32_t field_stride, pin_stride;
    uint32_t inst, cell, pin0, n_pins, arc0;
    uint32_t leak0;            /* a dense cell's leakage by state at reals[leak0 ..], or
                                  UINT32_MAX (found by scanning) */
    const double *memo;        /* the instance's group energies, or NULL */
    uint64_t task, task_end;   /* the thread's tasks still to walk */
    int64_t leak_from, end;    /* leakage booked up to leak_from; the stretch ends at end */
    int64_t t_cur;             /* time of the events being applied; -1 before any */
    uint32_t s, s_cost;        /* the state now, and before t_cur (events are costed in it) */
    int64_t loading;           /* pin `loading_pin`'s event after next, loaded in the step
                                  before and settled into WALK_NT2 in this one (so that the
                                  load has the rest of that step to arrive) */
    uint32_t loading_pin;      /* UINT32_MAX: none */
    uint32_t bin;              /* the cycle of leak_from, from bin_start */
    int64_t bin_start;
    double acc[POWER_COMPONENTS];  /* the current bin's sums */
    uint32_t pending;          /* the change walk_apply left to cost: WALK_PENDING | old
                                  value << 8 | pin, or 0 */
    unsigned long long used;
};
enum { WALK_PENDING = 1u << 16 };

/* The stretch's sums, by component, booked to its instance at its end:
 * touched once a bin, they wait in shared memory after the pins' fields
 * (registers limit the walk's occupancy), read and written as 64-bit
 * words. */
#define WALK_SUM_WORDS POWER_COMPONENTS

__device__ __forceinline__ int64_t &stretch_word(const walk &w, int c)
{
    return w.col[WALK_FIELDS * w.field_stride + c * w.pin_stride];
}
__device__ __forceinline__ double stretch_sum(const walk &w, int c)
{
    return __longlong_as_double(stretch_word(w, c));
}
__device__ __forceinline__ void stretch_set(const walk &w, int c, double e)
{
    stretch_word(w, c) = __double_as_longlong(e);
}
__device__ __forceinline__ void stretch_add(const walk &w, int c, double e)
{
    stretch_set(w, c, stretch_sum(w, c) + e);
}

__device__ __forceinline__ int64_t &pin_i64(const walk &w, int field, uint32_t k)
{
    return w.col[field * w.field_stride + k * w.pin_stride];
}
__device__ __forceinline__ uint64_t &pin_u64(const walk &w, int field, uint32_t k)
{
    return reinterpret_cast<uint64_t &>(pin_i64(w, field, k));
}

__device__ __forceinline__ void sums_add(const walk_sums &o, bool levels, size_t i, double e)
{
    void *sums = levels ? o.levels : o.bins;
    if (o.fixed)
        fixed_add(static_cast<unsigned long long *>(sums) + 2 * i, e);
    else
        atomicAdd(static_cast<double *>(sums) + i, e);
}

__device__ __forceinline__ void walk_flush_bin(walk &w, const walk_sums &o)
{
#pragma unroll
    for (int c = 0; c < POWER_COMPONENTS; c++) {
        double e = w.acc[c];
        if (e != 0.0) {
            sums_add(o, false, (size_t)w.bin * POWER_COMPONENTS + c, e);
            stretch_add(w, c, e);
            w.acc[c] = 0.0;
        }
    }
}

/* power_cpu.c leak_until: the leakage of the state up to t (power_leakage;
 * with SIPL a dense cell's from its table).  Cycles crossed
 * whole add the level to `levels` at the first and take it off after the
 * last (levels_kernel turns the levels into the bins' energies), so that a
 * quiet stretch costs two bookings, not one a cycle. */
template <bool SIPL>
__device__ __forceinline__ void walk_leak_until(walk &w, const cuda_dev_model &m,
                                                const cuda_dev_plan &p, const walk_sums &o,
                                                int64_t t)
{
    int64_t a = w.leak_from;
    w.leak_from = t;
    if (a >= t)
        return;
    double watts = power_leakage(&m, &m.cells[w.cell], w.leak0, w.s, SIPL);
    int64_t bin_end = w.bin_start + p.period;
    if (t < bin_end) {
        w.acc[POWER_LEAKAGE] += power_leak_energy(watts, a, t);
        return;
    }
    w.acc[POWER_LEAKAGE] += power_leak_energy(watts, a, bin_end);
    walk_flush_bin(w, o);
    uint32_t bin = (uint32_t)((t - p.t0) / p.period);
    int64_t bin_start = p.t0 + (int64_t)bin * p.period;
    if (bin > w.bin + 1 && watts != 0.0) {
        sums_add(o, true, w.bin + 1, watts);
        sums_add(o, true, bin, -watts);
        stretch_add(w, POWER_LEAKAGE, power_leak_energy(watts, bin_end, bin_start));
    }
    w.bin = bin;
    w.bin_start = bin_start;
    w.acc[POWER_LEAKAGE] += power_leak_energy(watts, bin_start, t);
}

/* A walk's pins' last events, for related_pin. */
struct walk_last {
    const walk &w;
    __device__ __forceinline__ int64_t time(uint32_t r) const { return pin_i64(w, WALK_LAST_T, r); }
    __device__ __forceinline__ bool rise(uint32_t r) const
    {
        return pin_i64(w, WALK_BITS, r) & BIT_LAST_RISE;
    }
};

/* The time of the change that follows a change to `now` of pin k in the
 * same cycle (the glitch partner), or -1: `follow` is the pin's next event,
 * at index i; events before `stop` lie in the stretch. */
__device__ __forceinline__ int64_t walk_partner(const walk &w, const cuda_dev_model &m,
                                                const cuda_dev_plan &p, uint8_t now,
                                                int64_t follow, uint64_t i, uint64_t stop)
{
    int64_t bin_end = w.bin_start + p.period;
    while (follow != EV_NONE && ev_time(follow) < bin_end && ev_value(follow) == now)
        follow = ++i < stop ? m.ev[i] : EV_NONE;
    return follow != EV_NONE && ev_time(follow) < bin_end ? ev_time(follow) : -1;
}

/* power_cpu.c cost_event and queue_event for a change of pin k at t (the
 * pin's bits already show it): the glitch rule pairs the 1st and 2nd, 3rd
 * and 4th... changes of a cycle, which the walk sees from the first of a
 * pair by looking ahead to the second (walk_partner). */
template <bool SIPL>
__device__ __forceinline__ void walk_cost(walk &w, const cuda_dev_model &m,
                                          const cuda_dev_plan &p, uint32_t k, int64_t t,
                                          uint8_t old, uint8_t now, int64_t follow, uint64_t i,
                                          uint64_t stop)
{
    const power_model_cell &c = m.cells[w.cell];
    int64_t &bits = pin_i64(w, WALK_BITS, k);
    uint32_t flags = (uint32_t)(bits >> FLAGS_SHIFT) & 0xff;
    bool rise = power_is_rise(old, now), drives = flags & POWER_PIN_DRIVES, r_rise = false;
    uint32_t c0 = drives ? m.cand0[c.cand0_base + k] : 0;
    uint32_t c1 = drives ? m.cand0[c.cand0_base + k + 1] : 0;
    int32_t related = related_pin<1>(model_cands{m, w.arc0}, walk_last{w}, t, w.bin_start, rise,
                                     c0, c1, &r_rise);
    double e_sw, e_int = power_change_energy(&m, &c, w.memo, w.pin0, k, flags, c1 > c0, related,
                                             r_rise, w.s_cost, old, now, SIPL, &e_sw);
    int64_t width = -1;
    if (flags & POWER_PIN_GLITCHABLE) {
        int64_t &change_t = pin_i64(w, WALK_CHANGE_T, k);
        bool second = (bits & BIT_ODD) && change_t >= w.bin_start;
        int64_t partner = second ? change_t : walk_partner(w, m, p, now, follow, i, stop);
        width = partner < 0 ? -1 : second ? t - partner : partner - t;
        bits = second ? bits & ~(int64_t)BIT_ODD : bits | BIT_ODD;
        change_t = t;
    }
    if (width < 0) {
        w.acc[POWER_INTERNAL] += e_int;
        w.acc[POWER_SWITCHING] += e_sw;
        return;
    }
    uint32_t pin = w.pin0 + k;
    double r_gl = power_pin_glitch_ratio(&m, pin, (double)width);
    w.acc[POWER_GLITCH_INTERNAL] += e_int * r_gl;
    w.acc[POWER_GLITCH_SWITCHING] += e_sw * r_gl;
}

/* power_cpu.c apply_events_at for pin k's next event (at t): its value,
 * the pin moved on to the event after, and a change left pending for its
 * cost (walk_cost_pending, in the state before t). */
template <bool SIPL, bool DYNAMIC>
__device__ __forceinline__ void walk_apply(walk &w, const cuda_dev_model &m,
                                           const cuda_dev_plan &p, uint32_t k, int64_t t)
{
    int64_t bits = pin_i64(w, WALK_BITS, k), event = pin_i64(w, WALK_NT, k);
    int64_t follow = pin_i64(w, WALK_NT2, k);
    uint64_t i = pin_u64(w, WALK_NEXT, k), left = (uint64_t)bits >> LEFT_SHIFT;
    uint8_t old = bits & 3, now = ev_value(event);
    pin_u64(w, WALK_NEXT, k) = i + 1;
    pin_i64(w, WALK_NT, k) = follow;
    w.loading = left > 2 ? m.ev[i + 2] : EV_NONE;
    w.loading_pin = k;
    bool initial = power_may_be_initial(old, t, p.dump_start) &&
                   i == m.net_begin[m.pin_net[w.pin0 + k]];
    bits = (bits & ~(int64_t)3) - ((int64_t)1 << LEFT_SHIFT) | now;
    if (!initial)
        bits = (bits & ~(int64_t)BIT_LAST_RISE) | (power_is_rise(old, now) ? BIT_LAST_RISE : 0);
    pin_i64(w, WALK_BITS, k) = bits;
    w.s = (w.s & ~(1u << k)) | (uint32_t)(now == 1) << k;
    if (initial)
        return;
    if (DYNAMIC && old != now) {
        w.used++;
        if (!((bits >> FLAGS_SHIFT) & POWER_PIN_SILENT))
            w.pending = WALK_PENDING | (uint32_t)old << 8 | k;
    }
    pin_i64(w, WALK_LAST_T, k) = t;
}

/* walk_cost for the change walk_apply left pending; the lane has not
 * stepped since, so the pin's value, next event and events left are where
 * walk_apply put them, and t is the walk's time. */
template <bool SIPL>
__device__ __forceinline__ void walk_cost_pending(walk &w, const cuda_dev_model &m,
                                                  const cuda_dev_plan &p)
{
    uint32_t k = w.pending & 0xff;
    uint8_t old = (w.pending >> 8) & 3;
    int64_t bits = pin_i64(w, WALK_BITS, k);
    uint64_t next = pin_u64(w, WALK_NEXT, k), left = (uint64_t)bits >> LEFT_SHIFT;
    w.pending = 0;
    walk_cost<SIPL>(w, m, p, k, w.t_cur, old, (uint8_t)(bits & 3), pin_i64(w, WALK_NT, k), next,
                    next + left);
}

/* power_cpu.c start_pins: each pin at its first event at or after the
 * start of epoch `epoch` (the net's events in the run's window, net_first
 * and net_count, indexed by epoch_first) with its value just before;
 * returns the state there. */
__device__ __forceinline__ uint32_t walk_start_pins(walk &w, const cuda_dev_model &m,
                                                    const cuda_dev_tasks &t, uint32_t epoch)
{
    uint32_t s = 0;
#pragma unroll 1
    for (uint32_t k = 0; k < w.n_pins; k++) {
        uint32_t net = m.pin_net[w.pin0 + k];
        uint64_t next = 0, left = 0;
        int64_t nt = EV_NONE, nt2 = EV_NONE;
        uint8_t value = EVENTS_X;
        if (net != DESIGN_NONE) {
            uint64_t lo = t.net_first[net], hi = lo + t.net_count[net];
            next = lo + t.epoch_first[(size_t)net * t.n_epochs + epoch];
            left = hi - next;
            value = value_before_event(m, net, next);
            nt = left > 0 ? m.ev[next] : EV_NONE;
            nt2 = left > 1 ? m.ev[next + 1] : EV_NONE;
            nt = nt != EV_NONE && ev_time(nt) < w.end ? nt : EV_NONE;
            nt2 = nt != EV_NONE && nt2 != EV_NONE && ev_time(nt2) < w.end ? nt2 : EV_NONE;
        }
        pin_u64(w, WALK_NEXT, k) = next;
        pin_i64(w, WALK_NT, k) = nt;
        pin_i64(w, WALK_NT2, k) = nt2;
        pin_i64(w, WALK_LAST_T, k) = -1;
        pin_i64(w, WALK_CHANGE_T, k) = -1;
        pin_i64(w, WALK_BITS, k) = value | (int64_t)m.pin_flags[w.pin0 + k] << FLAGS_SHIFT |
                                   (int64_t)left << LEFT_SHIFT;
        s |= (uint32_t)(value == 1) << k;
    }
    return s;
}

/* Puts the event loaded in the step before in its place. */
__device__ __forceinline__ void walk_settle(walk &w)
{
    if (w.loading_pin == UINT32_MAX)
        return;
    int64_t e = w.loading;
    pin_i64(w, WALK_NT2, w.loading_pin) = e != EV_NONE && ev_time(e) < w.end ? e : EV_NONE;
    w.loading_pin = UINT32_MAX;
}

/* Starts the stretch of the thread's next tasks that belong to one gate:
 * cycles [c0, c1) of gate `inst`. */
__device__ __forceinline__ void walk_open(walk &w, const cuda_dev_model &m,
                                          const cuda_dev_plan &p, const cuda_dev_tasks &t,
                                          uint32_t inst)
{
    uint64_t last = t.task0[inst + 1] < w.task_end ? t.task0[inst + 1] : w.task_end;
    uint64_t c0 = (w.task - t.task0[inst]) * t.window[inst];
    uint64_t c1 = (last - t.task0[inst]) * t.window[inst];
    c1 = c1 < p.n_cycles ? c1 : p.n_cycles;
    w.task = last;
    w.inst = inst;
    w.cell = m.inst_cell[inst];
    w.leak0 = power_leakage_table(&m.cells[w.cell]);
    w.pin0 = m.inst_pin0[inst];
    w.arc0 = m.inst_arc0[inst];
    w.n_pins = m.inst_pin0[inst + 1] - w.pin0;
    w.memo = t.memo ? t.memo + m.inst_memo0[inst] : NULL;
    w.leak_from = p.t0 + (int64_t)c0 * p.period;
    w.end = c1 >= p.n_cycles ? p.t1 : p.t0 + (int64_t)c1 * p.period;
    w.t_cur = -1;
    w.loading_pin = UINT32_MAX;
    w.bin = (uint32_t)c0;
    w.bin_start = w.leak_from;
#pragma unroll
    for (int c = 0; c < POWER_COMPONENTS; c++)
        w.acc[c] = 0.0, stretch_set(w, c, 0.0);
    w.s = w.s_cost = walk_start_pins(w, m, t, (uint32_t)(c0 / t.epoch_cycles));
}

/* Ends the stretch (its leakage booked to its end): the last bin, the
 * instance's sums. */
template <bool FIXED>
__device__ __forceinline__ void walk_close(walk &w, const cuda_dev_out &o, const walk_sums &sums)
{
    walk_flush_bin(w, sums);
#pragma unroll
    for (int c = 0; c < POWER_COMPONENTS; c++) {
        size_t i = (size_t)w.inst * POWER_COMPONENTS + c;
        double e = stretch_sum(w, c);
        if (e != 0.0)
            add_sum<FIXED>(o.inst, o.fixed_inst, i, e);
    }
}

/* One step: the next pin event, or the end of a stretch (and the start of
 * the next).  False when the thread has walked all its tasks. */
template <bool SIPL, bool DYNAMIC, bool FIXED>
__device__ __forceinline__ bool walk_step(walk &w, const cuda_dev_model &m,
                                          const cuda_dev_plan &p, const cuda_dev_out &o,
                                          const cuda_dev_tasks &t, const walk_sums &sums)
{
    int64_t first = EV_NONE >> 2;
    uint32_t k = 0;
#pragma unroll 1
    for (uint32_t j = 0; j < w.n_pins; j++) {
        int64_t nt = ev_time(pin_i64(w, WALK_NT, j));
        k = nt < first ? j : k;
        first = nt < first ? nt : first;
    }
    walk_settle(w);
    bool done = first == EV_NONE >> 2;
    int64_t until = done ? w.end : first;
    if (until != w.t_cur) {
        walk_leak_until<SIPL>(w, m, p, sums, until);
        w.t_cur = until;
        w.s_cost = w.s;
    }
    if (done) {
        walk_close<FIXED>(w, o, sums);
        if (w.task >= w.task_end)
            return false;
        walk_open(w, m, p, t, w.inst + 1);
        return true;
    }
    walk_apply<SIPL, DYNAMIC>(w, m, p, k, first);
    return true;
}

/* A lane waits, once it has walked its run, until WALK_REFILL_LANES lanes
 * of its warp have (or no lane walks any more): they then take their next
 * runs together, so that the warp goes through the starts of stretches
 * (walk_open) with several lanes at once rather than one after the other
 * (docs/performance.md, "Tuning the kernels"). */
#define WALK_REFILL_LANES 8

/* Hands the idle lanes of the warp (mask `idle`) their next runs of
 * lane_tasks tasks from the kernel's cursor, one atomic a warp, and opens
 * them.  Every lane of the warp must call it; *more is false once the
 * runs are all handed out.  Returns whether this lane walks. */
__device__ __forceinline__ bool walk_take(walk &w, const cuda_dev_model &m, const cuda_dev_plan &p,
                                          const cuda_dev_tasks &t, unsigned idle, bool active,
                                          uint64_t n_tasks, uint32_t lane_tasks, bool *more)
{
    uint32_t lane = threadIdx.x & 31, leader = __ffs(idle) - 1, n_idle = __popc(idle);
    uint64_t n_runs = (n_tasks + lane_tasks - 1) / lane_tasks;
    unsigned long long first = 0;
    if (lane == leader)
        first = atomicAdd(t.cursor, (unsigned long long)n_idle);
    first = __shfl_sync(0xffffffffu, first, leader);
    *more = first + n_idle < n_runs;
    uint64_t run = first + __popc(idle & ((1u << lane) - 1));
    if (active || run >= n_runs)
        return active;
    w.task = run * lane_tasks;
    w.task_end = w.task + lane_tasks < n_tasks ? w.task + lane_tasks : n_tasks;
    walk_open(w, m, p, t, t.task_inst[w.task]);
    return true;
}

/* The walk kernel: each lane walks runs of lane_tasks consecutive tasks,
 * taking the next from the kernel's cursor when it is done with one (the
 * tasks' events vary too much for runs fixed up front: lanes would wait
 * for the busiest of their warp); whole warps go round the loop together.
 * FIXED is o.fixed, made a constant so that each kernel holds one kind of
 * sums only. */
template <bool SIPL, bool DYNAMIC, bool FIXED>
__global__ void __launch_bounds__(WALK_BLOCK, WALK_MIN_BLOCKS)
walk_kernel(const __grid_constant__ cuda_dev_model m, const __grid_constant__ cuda_dev_plan p,
            const __grid_constant__ cuda_dev_out o, const __grid_constant__ cuda_dev_tasks t,
            uint64_t n_tasks, uint32_t lane_tasks)
{
    extern __shared__ int64_t walk_state[];
    walk_sums sums = FIXED ? walk_sums{o.fixed_bins, o.fixed_levels, true}
                           : walk_sums{o.bins, o.levels, false};
    walk w;
    w.col = walk_state + threadIdx.x;
    w.pin_stride = blockDim.x;
    w.field_stride = blockDim.x * m.max_pins;
    w.used = 0;
    w.pending = 0;
    bool active = false, more = true;
    for (;;) {
        unsigned idle = __ballot_sync(0xffffffffu, !active);
        if (more && (__popc(idle) >= WALK_REFILL_LANES || idle == 0xffffffffu))
            active = walk_take(w, m, p, t, idle, active, n_tasks, lane_tasks, &more);
        if (!__any_sync(0xffffffffu, active))
            break;
        if (active)
            active = walk_step<SIPL, DYNAMIC, FIXED>(w, m, p, o, t, sums);
        /* Costed once the warp is back together from its steps, the lanes'
         * changes go through walk_cost at once: inside walk_apply, on the
         * steps' diverged paths, the warp would run it in several passes. */
        if (w.pending)
            walk_cost_pending<SIPL>(w, m, p);
    }
    if (DYNAMIC)
        add_count(o.events_used, w.used);
}

/* ---- the launch -------------------------------------------------------------- */

/* The walk kernel's launch: per thread WALK_FIELDS words per pin of the
 * design's largest cell and WALK_SUM_WORDS, in shared memory; as many
 * threads a block (multiples of a warp, at most WALK_BLOCK) as fit in
 * WALK_SMEM_MAX; as many blocks as stay resident (lanes take runs of tasks
 * until none is left). */
#define WALK_SMEM_MAX (96 << 10)

struct walk_launch {
    const void *fn;
    unsigned block, blocks;
    size_t smem;
};

template <bool SIPL, bool DYNAMIC, bool FIXED>
static cudaError_t walk_plan(const cuda_dev_model &m, const cuda_dev_plan &p, uint64_t n_tasks,
                             uint32_t lane_tasks, walk_launch *l)
{
    size_t per_thread = ((size_t)WALK_FIELDS * (m.max_pins ? m.max_pins : 1) + WALK_SUM_WORDS) * 8;
    l->fn = (const void *)walk_kernel<SIPL, DYNAMIC, FIXED>;
    size_t threads = WALK_SMEM_MAX / per_thread / 32 * 32;
    l->block = threads < 32 ? 32 : threads > WALK_BLOCK ? WALK_BLOCK : (unsigned)threads;
    l->smem = per_thread * l->block;
    uint64_t per_block = (uint64_t)l->block * lane_tasks;
    cudaError_t err = cudaFuncSetAttribute(l->fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)l->smem);
    return err == cudaSuccess ? cuda_kernels_resident_blocks(l->fn, l->block, l->smem,
                                                             (n_tasks + per_block - 1) / per_block,
                                                             &l->blocks)
                              : err;
}

/* walk_plan for the kernel of these switches. */
static cudaError_t walk_plan_for(const cuda_dev_model &m, const cuda_dev_plan &p, bool sipl,
                                 bool dynamic, bool fixed, uint64_t n_tasks, uint32_t lane_tasks,
                                 walk_launch *l)
{
    typedef cudaError_t (*plan_fn)(const cuda_dev_model &, const cuda_dev_plan &, uint64_t,
                                   uint32_t, walk_launch *);
    static const plan_fn plans[8] = {
        walk_plan<false, false, false>, walk_plan<false, false, true>,
        walk_plan<false, true, false>,  walk_plan<false, true, true>,
        walk_plan<true, false, false>,  walk_plan<true, false, true>,
        walk_plan<true, true, false>,   walk_plan<true, true, true>};
    return plans[4 * sipl + 2 * dynamic + fixed](m, p, n_tasks, lane_tasks, l);
}

cudaError_t cuda_kernels_walk(const cuda_dev_model &m, const cuda_dev_plan &p,
                              const cuda_dev_out &out, const cuda_dev_tasks &t, uint64_t n_tasks,
                              const cuda_power_options &o, bool dynamic, cudaStream_t stream)
{
    walk_launch l;
    uint32_t lane_tasks = o.lane_tasks;
    cudaError_t err = walk_plan_for(m, p, o.sipl, dynamic, out.fixed, n_tasks, lane_tasks, &l);
    if (err != cudaSuccess)
        return err;
    void *args[] = {(void *)&m, (void *)&p, (void *)&out, (void *)&t, &n_tasks, &lane_tasks};
    err = cudaMemsetAsync(t.cursor, 0, sizeof *t.cursor, stream);
    if (err == cudaSuccess)
        err = cudaLaunchKernel(l.fn, dim3(l.blocks), dim3(l.block), args, l.smem, stream);
    return err == cudaSuccess ? cuda_kernels_levels(p, out, stream) : err;
}

int cuda_kernels_walk_report(const cuda_dev_model &m, const cuda_dev_plan &p,
                             const cuda_power_options &o, bool dynamic, const char *name,
                             cuda_kernel_report *out)
{
    walk_launch l;
    if (walk_plan_for(m, p, o.sipl, dynamic, o.deterministic, 1, 1, &l) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return cuda_kernels_report(l.fn, name, l.block, l.smem, out);
}
