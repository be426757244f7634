/* cuda_kernels.cu: the power kernels (cuda_kernels.h): the reference
 * engine's rules (power_ref.c) and the fast CPU engine's walk (power_cpu.c)
 * on the device.  Each rule below names the host function it mirrors; the
 * arithmetic is the host's, operation for operation, so that only the
 * order of the sums differs.
 *
 *   walk kernel          one thread per task (gate, window of whole cycles):
 *                        binary searches to the window's start, the state
 *                        rebuilt there, then a k-way merge of the pins' events
 *                        (power_cpu.c walk_task); leakage only (Naive-L) or
 *                        leakage, dynamic and glitch energy (fused).
 *   naive dynamic kernel one thread per pin event in the window (Naive-D):
 *                        the state, the related pin and the glitch partner
 *                        are found by searching the nets' events.
 *   memo kernel          one thread per instance: its group energies.
 *
 * Sums: a walk adds its energies for one bin at a time in registers and
 * books them when it moves to another bin; a warp whose lanes book into one
 * instance or bin adds them first (book_warp); every booking is an atomic
 * add (float64, or the 128-bit fixed point of cuda_power.h). */
#include "cuda/cuda_kernels.h"

#include <cub/device/device_scan.cuh>
#include <math.h>

#define KERNEL_BLOCK 256
#define EV_X 2

/* ---- events ------------------------------------------------------------------ */

__device__ __forceinline__ int64_t ev_time(int64_t e) { return e >> 2; }
__device__ __forceinline__ uint8_t ev_value(int64_t e) { return (uint8_t)(e & 3); }

/* The first of events [lo, hi) at or after t (power_cpu.c first_at_or_after). */
__device__ __forceinline__ uint64_t first_at_or_after(const int64_t *ev, uint64_t lo, uint64_t hi,
                                                      int64_t t)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ev_time(ev[mid]) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first of events [lo, hi) after t. */
__device__ __forceinline__ uint64_t first_after(const int64_t *ev, uint64_t lo, uint64_t hi,
                                                int64_t t)
{
    return first_at_or_after(ev, lo, hi, t == INT64_MAX ? t : t + 1);
}

/* power_is_rise, power_weight. */
__device__ __forceinline__ bool is_rise(uint8_t old, uint8_t now)
{
    return now == 1 || (now == EV_X && old == 0);
}
__device__ __forceinline__ double weight_of(uint8_t old, uint8_t now)
{
    return old == EV_X || now == EV_X ? 0.5 : 1.0;
}

/* The value net n had before event e (its start value before the first). */
__device__ __forceinline__ uint8_t value_before_event(const cuda_dev_model &m, uint32_t n,
                                                      uint64_t e)
{
    return e > m.net_ev0[n] ? ev_value(m.ev[e - 1]) : m.net_start[n];
}

/* Whether event e of net n is only the net's starting value (power_ref.c
 * apply_events_at: no transition, no related event). */
__device__ __forceinline__ bool is_initial(const cuda_dev_model &m, const cuda_dev_plan &p,
                                           uint32_t n, uint64_t e)
{
    return e == m.net_ev0[n] && m.net_start[n] == EV_X && ev_time(m.ev[e]) == p.dump_start;
}

/* ---- the library's rules ------------------------------------------------------- */

/* lib_table_lookup (liberty_table.c lib_axis, lib_table_lookup_var). */
__device__ __forceinline__ double axis_fraction(const double *x, uint32_t n, double v,
                                                uint32_t *lo, uint32_t *hi)
{
    if (n < 2) {
        *lo = *hi = 0;
        return 0;
    }
    uint32_t i = 0;
    while (i + 2 < n && v >= x[i + 1])
        i++;
    *lo = i;
    *hi = i + 1;
    return (v - x[i]) / (x[i + 1] - x[i]);
}

__device__ __forceinline__ double axis_value(uint8_t axis, double slew, double load)
{
    return axis == CUDA_AXIS_SLEW ? slew : axis == CUDA_AXIS_LOAD ? load : NAN;
}

__device__ __forceinline__ double table_lookup(const cuda_dev_model &m, int32_t ti, double slew,
                                               double load)
{
    const cuda_table &t = m.tables[ti];
    const double *v = m.reals + t.values;
    if (t.n_dims == 0)
        return v[0];
    double x = axis_value(t.axis[0], slew, load);
    if (isnan(x))
        return NAN;
    uint32_t i0, i1, j0 = 0, j1 = 0;
    double f = axis_fraction(m.reals + t.index[0], t.size[0], x, &i0, &i1), g = 0;
    if (t.n_dims == 2) {
        double y = axis_value(t.axis[1], slew, load);
        if (isnan(y))
            return NAN;
        g = axis_fraction(m.reals + t.index[1], t.size[1], y, &j0, &j1);
    }
    uint32_t n1 = t.size[1];
    double r0 = v[i0 * n1 + j0] + g * (v[i0 * n1 + j1] - v[i0 * n1 + j0]);
    double r1 = v[i1 * n1 + j0] + g * (v[i1 * n1 + j1] - v[i1 * n1 + j0]);
    return r0 + f * (r1 - r0);
}

/* lib_expr_eval through power_ref.c when_holds: a `when` without a truth
 * table holds. */
__device__ __forceinline__ bool when_holds(const cuda_dev_model &m, const cuda_cell &c,
                                           int32_t when, uint32_t s)
{
    if (when < 0)
        return true;
    if (c.n_vars < 32)
        s &= (1u << c.n_vars) - 1;
    return (m.tt[when + (s >> 6)] >> (s & 63)) & 1;
}

__device__ __forceinline__ double pin_slew(const cuda_dev_model &m, uint32_t pin, bool rise);

/* Where an event's group energies come from: the tables, looked up at the
 * slew pin's slew and the load, or (memo) the instance's energies of each
 * group computed once per run (memo_kernel): memo[4 g + 2 rise + slew_rise]
 * for the cell's g-th group. */
struct energy_src {
    const double *memo;       /* the instance's; NULL: look the tables up */
    uint32_t slew_pin;        /* the design pin whose slew is looked up */
    bool slew_rise;
    double load;
};

__device__ __forceinline__ double group_energy(const cuda_dev_model &m, const cuda_cell &c,
                                               uint32_t g, bool rise, const energy_src &src)
{
    if (src.memo)
        return src.memo[4 * (g - c.group0) + 2 * rise + src.slew_rise];
    int32_t table = m.groups[g].table[rise ? 0 : 1];
    return table >= 0 ? table_lookup(m, table, pin_slew(m, src.slew_pin, src.slew_rise), src.load)
                      : 0.0;
}

/* power_groups_energy: the groups of (pin, related) chosen by scanning. */
__device__ __forceinline__ double groups_energy_scan(const cuda_dev_model &m, const cuda_cell &c,
                                                     uint32_t pin, int32_t related, uint32_t s,
                                                     bool rise, const energy_src &src)
{
    uint32_t g0 = m.cpin_group0[c.pin0 + pin], g1 = g0 + m.cpin_n_groups[c.pin0 + pin];
    uint64_t served = 0;
    double e = 0.0;
    for (uint32_t g = g0; g < g1; g++) {
        const cuda_group &gr = m.groups[g];
        if (gr.related != related || (served & gr.pg_bit) || !when_holds(m, c, gr.when, s))
            continue;
        served |= gr.pg_bit;
        e += group_energy(m, c, g, rise, src);
    }
    return e;
}

/* power_sipl_energy_of: the energy of (pin, related) in state s; with SIPL
 * a dense cell's chosen groups come from its table. */
template <bool SIPL>
__device__ __forceinline__ double energy(const cuda_dev_model &m, const cuda_cell &c, uint32_t pin,
                                         int32_t related, uint32_t s, bool rise,
                                         const energy_src &src)
{
    uint32_t r = related < 0 ? c.n_pins : (uint32_t)related;
    int32_t key = m.keys[c.key0 + pin * (c.n_pins + 1) + r];
    if (key < 0)
        return 0.0;
    if (!SIPL || !c.sipl_dense)
        return groups_energy_scan(m, c, pin, related, s, rise, src);
    size_t at = c.sel0_base + ((size_t)key << c.n_pins) + s;
    double e = 0.0;
    for (uint32_t i = m.sel0[at]; i < m.sel0[at + 1]; i++)
        e += group_energy(m, c, m.sel[i], rise, src);
    return e;
}

/* The energy source of pin k of instance (pin0, memo): its own slew in
 * direction slew_rise, or related pin r's (r >= 0). */
__device__ __forceinline__ energy_src source(const double *memo, uint32_t pin0, uint32_t k,
                                             int32_t r, bool slew_rise, double load)
{
    return energy_src{memo, pin0 + (r >= 0 ? (uint32_t)r : k), slew_rise, load};
}

/* power_leakage; with SIPL a dense cell's comes from its table. */
template <bool SIPL>
__device__ __forceinline__ double leakage(const cuda_dev_model &m, const cuda_cell &c, uint32_t s)
{
    if (SIPL && c.sipl_dense)
        return m.reals[c.leak + s];
    uint64_t served = 0;
    double total = 0.0;
    for (int with_when = 1; with_when >= 0; with_when--)
        for (uint32_t g = c.leakage0; g < c.leakage0 + c.n_leakages; g++) {
            const cuda_leakage &lk = m.leakages[g];
            if (lk.has_when != with_when || (served & lk.pg_bit) || !when_holds(m, c, lk.when, s))
                continue;
            served |= lk.pg_bit;
            total += lk.value;
        }
    return served ? total : c.cell_leakage;
}

/* power_glitch_ratio. */
__device__ __forceinline__ double glitch_ratio(double width_fs, double t_rise_fs, double t_fall_fs)
{
    double slews = t_rise_fs + t_fall_fs;
    double ratio = slews > 0.0 ? 2.0 * fabs(width_fs) / slews : 1.0;
    return slews > 0.0 ? fmin(1.0, ratio * ratio) : 1.0;
}

__device__ __forceinline__ double pin_slew(const cuda_dev_model &m, uint32_t pin, bool rise)
{
    return rise ? m.pin_slew_rise[pin] : m.pin_slew_fall[pin];
}

__device__ __forceinline__ double arc_delay(const cuda_dev_model &m, uint32_t inst, int32_t arc,
                                            bool rise)
{
    if (arc < 0)
        return 0.0;
    uint32_t slot = m.inst_arc0[inst] + (uint32_t)arc;
    return rise ? m.arc_delay_rise_fs[slot] : m.arc_delay_fall_fs[slot];
}

/* ---- sums ------------------------------------------------------------------------- */

/* Adds e to 128-bit fixed-point sum w (w[0] low word, w[1] high word) in
 * units of 2^-120 J: |e| below 128 J converts exactly up to the last unit;
 * integer additions do not depend on their order. */
__device__ __forceinline__ void fixed_add(unsigned long long *w, double e)
{
    if (e == 0.0)
        return;
    double x = fabs(e) * 0x1p120;
    unsigned long long hi = (unsigned long long)(x * 0x1p-64);
    unsigned long long lo = (unsigned long long)(x - (double)hi * 0x1p64);
    if (e < 0) {
        lo = ~lo + 1;
        hi = ~hi + (lo == 0);
    }
    unsigned long long old = atomicAdd(&w[0], lo);
    atomicAdd(&w[1], hi + (old + lo < old));
}

__device__ __forceinline__ void add_bin(const cuda_dev_out &o, size_t i, double e)
{
    if (o.fixed)
        fixed_add(&o.fixed_bins[2 * i], e);
    else
        atomicAdd(&o.bins[i], e);
}

__device__ __forceinline__ void add_inst(const cuda_dev_out &o, size_t i, double e)
{
    if (o.fixed)
        fixed_add(&o.fixed_inst[2 * i], e);
    else
        atomicAdd(&o.inst[i], e);
}

/* Adds each thread's count into *total, one atomic per warp.  Every thread
 * of the warp must call it. */
__device__ __forceinline__ void add_count(unsigned long long *total, unsigned long long n)
{
    for (int d = 16; d > 0; d /= 2)
        n += __shfl_down_sync(0xffffffffu, n, d);
    if ((threadIdx.x & 31) == 0 && n)
        atomicAdd(total, n);
}

/* The warp's sum of v (every lane of the warp must call it). */
__device__ __forceinline__ double warp_sum(double v)
{
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

/* Adds e[c] to sum (key * POWER_COMPONENTS + comp[c]) of `sums` (bins or
 * instances) for each lane; key DESIGN_NONE: nothing.  When every lane with
 * something to add has the same key (a warp's lanes usually cost one pin's
 * or one gate's events), the warp adds its sums first and one lane books
 * them: a warp's atomics on one address would otherwise be done one after
 * the other.  Every lane of the warp must call it. */
template <int N>
__device__ __forceinline__ void book_warp(const cuda_dev_out &o, bool bins, uint32_t key,
                                          const int (&comp)[N], const double (&e)[N])
{
    uint32_t any = __reduce_min_sync(0xffffffffu, key);
    bool same = __all_sync(0xffffffffu, key == any || key == DESIGN_NONE);
    if (same && any != DESIGN_NONE) {
#pragma unroll
        for (int c = 0; c < N; c++) {
            double sum = warp_sum(e[c]);
            if ((threadIdx.x & 31) == 0 && sum != 0.0) {
                size_t i = (size_t)any * POWER_COMPONENTS + comp[c];
                bins ? add_bin(o, i, sum) : add_inst(o, i, sum);
            }
        }
        return;
    }
    if (key == DESIGN_NONE)
        return;
#pragma unroll
    for (int c = 0; c < N; c++)
        if (e[c] != 0.0) {
            size_t i = (size_t)key * POWER_COMPONENTS + comp[c];
            bins ? add_bin(o, i, e[c]) : add_inst(o, i, e[c]);
        }
}

/* ---- the walk: one task (power_cpu.c walk_task) ---------------------------------- */

/* A walk's per-pin state lives in shared memory, laid out field by field,
 * pin by pin, thread by thread (a warp's threads read one field of one pin
 * from consecutive words: no bank conflicts), so that the pins can be
 * indexed at run time without spilling: WALK_FIELDS 8-byte words per pin
 * and thread.  Bookings go into acc[], the sums of the current bin (in
 * registers), added to the result (one atomic per nonzero component) when
 * the walk moves to the next bin.  A pin's event waiting for its glitch
 * partner is booked as an ordinary event when the walk leaves its cycle
 * (power_cpu.c books it when the pin's next event comes in a later cycle,
 * or at the end of the task: the same booking). */
enum {
    WALK_NEXT,      /* its net's events still to come: NEXT .. STOP */
    WALK_STOP,
    WALK_NEXT_T,    /* time of event NEXT; INT64_MAX when none */
    WALK_LAST_T,    /* its last event in this task; -1 before any */
    WALK_PEND_T,    /* a costed event waiting for its glitch partner: time, energies */
    WALK_PEND_INT,
    WALK_PEND_SW,
    WALK_BITS,      /* value (bits 0-1), last rise (2), pending (3), CUDA_PIN_* flags (8-15) */
    WALK_FIELDS
};
enum { BIT_LAST_RISE = 4, BIT_PENDING = 8, FLAGS_SHIFT = 8 };

struct walk {
    const cuda_dev_model *m;
    const cuda_dev_plan *p;
    const cuda_dev_out *o;
    int64_t *col;              /* this thread's column of the shared state */
    uint32_t field_stride, pin_stride;
    cuda_cell c;
    const double *memo;        /* the instance's group energies, or NULL */
    uint32_t inst, pin0;
    int64_t leak_from, end;
    uint32_t bin;              /* the cycle of leak_from: [bin_start, bin_end) */
    int64_t bin_start, bin_end;
    double acc[POWER_COMPONENTS], energy[POWER_COMPONENTS];
    unsigned long long used;
};

__device__ __forceinline__ int64_t &pin_i64(const walk &w, int field, uint32_t k)
{
    return w.col[field * w.field_stride + k * w.pin_stride];
}
__device__ __forceinline__ double &pin_f64(const walk &w, int field, uint32_t k)
{
    return reinterpret_cast<double &>(pin_i64(w, field, k));
}
__device__ __forceinline__ uint64_t &pin_u64(const walk &w, int field, uint32_t k)
{
    return reinterpret_cast<uint64_t &>(pin_i64(w, field, k));
}

__device__ __forceinline__ void walk_flush_bin(walk &w)
{
#pragma unroll
    for (int c = 0; c < POWER_COMPONENTS; c++)
        if (w.acc[c] != 0.0) {
            add_bin(*w.o, (size_t)w.bin * POWER_COMPONENTS + c, w.acc[c]);
            w.energy[c] += w.acc[c];
            w.acc[c] = 0.0;
        }
}

/* Books every waiting event as an ordinary one, then the bin's sums. */
__device__ __forceinline__ void walk_close_bin(walk &w)
{
    for (uint32_t k = 0; k < w.c.n_pins; k++) {
        int64_t &bits = pin_i64(w, WALK_BITS, k);
        if (bits & BIT_PENDING) {
            w.acc[POWER_INTERNAL] += pin_f64(w, WALK_PEND_INT, k);
            w.acc[POWER_SWITCHING] += pin_f64(w, WALK_PEND_SW, k);
            bits &= ~(int64_t)BIT_PENDING;
        }
    }
    walk_flush_bin(w);
}

/* power_cpu.c leak_until: the leakage of state s up to t, bins crossed. */
template <bool SIPL>
__device__ __forceinline__ void walk_leak_until(walk &w, int64_t t, uint32_t s)
{
    int64_t a = w.leak_from, b = t < w.end ? t : w.end;
    w.leak_from = t;
    if (a >= b)
        return;
    double watts = leakage<SIPL>(*w.m, w.c, s);
    while (a < b) {
        int64_t end = b < w.bin_end ? b : w.bin_end;
        w.acc[POWER_LEAKAGE] += watts * (double)(end - a) * 1e-15;
        a = end;
        if (a == w.bin_end) {
            walk_close_bin(w);
            w.bin++;
            w.bin_start = w.bin_end;
            w.bin_end += w.p->period;
        }
    }
}

/* The related pin of an event of output k at t (power_cpu.c
 * related_candidate): its index, or -1; *r_rise its last event's direction. */
__device__ __forceinline__ int32_t walk_related(const walk &w, uint32_t k, int64_t t, bool rise,
                                                bool *r_rise)
{
    const cuda_dev_model &m = *w.m;
    uint32_t c0 = m.cand0[w.c.cand0_base + k], c1 = m.cand0[w.c.cand0_base + k + 1];
    int32_t best = -1;
    double best_gap = INFINITY;
    for (uint32_t i = c0; i < c1; i++) {
        uint32_t r = m.cand[i];
        int64_t last_t = pin_i64(w, WALK_LAST_T, r);
        if (last_t < w.bin_start)
            continue;
        double gap = fabs((double)(t - last_t) - arc_delay(m, w.inst, m.cand_arc[i], rise));
        if (gap < best_gap)
            best = (int32_t)r, best_gap = gap,
            *r_rise = pin_i64(w, WALK_BITS, r) & BIT_LAST_RISE;
    }
    return best;
}

/* The internal energy of an event of pin k (power_cpu.c output_internal
 * and cost_event's input case), given its related pin (or -1); memo: the
 * instance's group energies, or NULL. */
template <bool SIPL>
__device__ __forceinline__ double event_internal(const cuda_dev_model &m, const cuda_cell &c,
                                                 const double *memo, uint32_t pin0, uint32_t k,
                                                 bool drives, int32_t related, bool r_rise,
                                                 uint32_t s, bool rise)
{
    if (!drives)
        return energy<SIPL>(m, c, k, -1, s, rise, source(memo, pin0, k, -1, rise, 0.0));
    double load = m.pin_load[pin0 + k];
    if (related >= 0)
        return energy<SIPL>(m, c, k, related, s, rise,
                            source(memo, pin0, k, related, r_rise, load));
    uint32_t c0 = m.cand0[c.cand0_base + k], c1 = m.cand0[c.cand0_base + k + 1];
    double sum = 0.0;
    for (uint32_t i = c0; i < c1; i++)
        for (int in_rise = 0; in_rise < 2; in_rise++)
            sum += energy<SIPL>(m, c, k, (int32_t)m.cand[i], s, rise,
                                source(memo, pin0, k, (int32_t)m.cand[i], in_rise, load));
    if (c1 > c0)
        return sum / (2 * (c1 - c0));
    return energy<SIPL>(m, c, k, -1, s, rise, source(memo, pin0, k, -1, rise, load));
}

/* power_cpu.c cost_event and queue_event for pin k. */
template <bool SIPL>
__device__ __forceinline__ void walk_cost(walk &w, uint32_t k, int64_t t, uint8_t old, uint8_t now,
                                          uint32_t s)
{
    int64_t &bits = pin_i64(w, WALK_BITS, k);
    uint32_t flags = (uint32_t)(bits >> FLAGS_SHIFT);
    bool rise = is_rise(old, now), drives = flags & CUDA_PIN_DRIVES, r_rise = false;
    int32_t related = drives ? walk_related(w, k, t, rise, &r_rise) : -1;
    double weight = weight_of(old, now);
    double e_int = weight * event_internal<SIPL>(*w.m, w.c, w.memo, w.pin0, k, drives, related,
                                                 r_rise, s, rise);
    double e_sw = 0.0;
    if (rise && (flags & CUDA_PIN_PAYS_SWITCHING))
        e_sw = weight * (w.m->pin_load[w.pin0 + k] * w.c.volts * w.c.volts);
    if (!(flags & CUDA_PIN_GLITCHABLE)) {
        w.acc[POWER_INTERNAL] += e_int;
        w.acc[POWER_SWITCHING] += e_sw;
    } else if (bits & BIT_PENDING) {
        uint32_t pin = w.pin0 + k;
        double r_gl = glitch_ratio((double)(t - pin_i64(w, WALK_PEND_T, k)),
                                   w.m->pin_slew_rise[pin] * 1e15, w.m->pin_slew_fall[pin] * 1e15);
        w.acc[POWER_GLITCH_INTERNAL] += pin_f64(w, WALK_PEND_INT, k) * r_gl;
        w.acc[POWER_GLITCH_SWITCHING] += pin_f64(w, WALK_PEND_SW, k) * r_gl;
        w.acc[POWER_GLITCH_INTERNAL] += e_int * r_gl;
        w.acc[POWER_GLITCH_SWITCHING] += e_sw * r_gl;
        bits &= ~(int64_t)BIT_PENDING;
    } else {
        bits |= BIT_PENDING;
        pin_i64(w, WALK_PEND_T, k) = t;
        pin_f64(w, WALK_PEND_INT, k) = e_int;
        pin_f64(w, WALK_PEND_SW, k) = e_sw;
    }
}

/* power_cpu.c apply_events_at for pin k; returns its state bit after them. */
template <bool SIPL, bool DYNAMIC>
__device__ __forceinline__ uint32_t walk_apply(walk &w, uint32_t k, int64_t t, uint32_t s)
{
    const cuda_dev_model &m = *w.m;
    uint64_t next = pin_u64(w, WALK_NEXT, k), stop = pin_u64(w, WALK_STOP, k);
    for (; next < stop && ev_time(m.ev[next]) == t; next++) {
        int64_t bits = pin_i64(w, WALK_BITS, k);
        uint8_t old = bits & 3, now = ev_value(m.ev[next]);
        /* The net's first event at the dump's start from X: only its value. */
        bool initial = old == EV_X && t == w.p->dump_start &&
                       next == m.net_ev0[m.pin_net[w.pin0 + k]];
        bits = (bits & ~(int64_t)3) | now;
        if (!initial)
            bits = (bits & ~(int64_t)BIT_LAST_RISE) | (is_rise(old, now) ? BIT_LAST_RISE : 0);
        pin_i64(w, WALK_BITS, k) = bits;
        if (initial)
            continue;
        if (DYNAMIC && old != now) {
            w.used++;
            if (!((bits >> FLAGS_SHIFT) & CUDA_PIN_SILENT))
                walk_cost<SIPL>(w, k, t, old, now, s);
        }
        pin_i64(w, WALK_LAST_T, k) = t;
    }
    pin_u64(w, WALK_NEXT, k) = next;
    pin_i64(w, WALK_NEXT_T, k) = next < stop ? ev_time(m.ev[next]) : INT64_MAX;
    return (pin_i64(w, WALK_BITS, k) & 3) == 1;
}

/* power_cpu.c start_pins: each pin at its first event at or after `start`
 * with its value just before; returns the state there. */
__device__ __forceinline__ uint32_t walk_start_pins(walk &w, int64_t start)
{
    const cuda_dev_model &m = *w.m;
    uint32_t s = 0;
    for (uint32_t k = 0; k < w.c.n_pins; k++) {
        uint32_t net = m.pin_net[w.pin0 + k];
        uint64_t next = 0, stop = 0;
        int64_t next_t = INT64_MAX;
        uint8_t value = EV_X;
        if (net != DESIGN_NONE) {
            uint64_t first = m.net_ev0[net];
            value = m.net_start[net];
            stop = m.net_ev0[net + 1];
            next = first_at_or_after(m.ev, first, stop, start);
            if (next > first)
                value = ev_value(m.ev[next - 1]);
            if (next < stop)
                next_t = ev_time(m.ev[next]);
        }
        pin_u64(w, WALK_NEXT, k) = next;
        pin_u64(w, WALK_STOP, k) = stop;
        pin_i64(w, WALK_NEXT_T, k) = next_t;
        pin_i64(w, WALK_LAST_T, k) = -1;
        pin_i64(w, WALK_BITS, k) = value | (int64_t)m.pin_flags[w.pin0 + k] << FLAGS_SHIFT;
        s |= (uint32_t)(value == 1) << k;
    }
    return s;
}

/* The last i < n with a[i] <= key (a non-decreasing, a[0] <= key): task
 * `key`'s gate in task0, pin event `key`'s pin in pin_ev0. */
__device__ __forceinline__ uint32_t last_at_or_below(const uint64_t *a, uint32_t n, uint64_t key)
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

template <bool SIPL, bool DYNAMIC>
__device__ __forceinline__ void walk_task(walk &w, const cuda_dev_tasks &t, uint32_t inst,
                                          uint32_t c0, uint32_t c1)
{
    const cuda_dev_model &m = *w.m;
    const cuda_dev_plan &p = *w.p;
    w.inst = inst;
    w.memo = t.memo ? t.memo + m.inst_memo0[inst] : NULL;
    w.c = m.cells[m.inst_cell[inst]];
    w.pin0 = m.inst_pin0[inst];
    w.leak_from = p.t0 + (int64_t)c0 * p.period;
    w.end = c1 >= p.n_cycles ? p.t1 : p.t0 + (int64_t)c1 * p.period;
    w.bin = c0;
    w.bin_start = w.leak_from;
    w.bin_end = w.leak_from + p.period;
#pragma unroll
    for (int c = 0; c < POWER_COMPONENTS; c++)
        w.energy[c] = w.acc[c] = 0.0;
    uint32_t s = walk_start_pins(w, w.leak_from);
    for (;;) {
        int64_t t = INT64_MAX;
        for (uint32_t k = 0; k < w.c.n_pins; k++) {
            int64_t next_t = pin_i64(w, WALK_NEXT_T, k);
            t = next_t < t ? next_t : t;
        }
        if (t >= w.end)
            break;
        walk_leak_until<SIPL>(w, t, s);
        uint32_t after = s;
        for (uint32_t k = 0; k < w.c.n_pins; k++)
            if (pin_i64(w, WALK_NEXT_T, k) == t) {
                uint32_t bit = walk_apply<SIPL, DYNAMIC>(w, k, t, s);
                after = (after & ~(1u << k)) | bit << k;
            }
        s = after;
    }
    walk_leak_until<SIPL>(w, w.end, s);
    walk_close_bin(w);
}

template <bool SIPL, bool DYNAMIC>
__global__ void __launch_bounds__(KERNEL_BLOCK, 2)
walk_kernel(const __grid_constant__ cuda_dev_model m, const __grid_constant__ cuda_dev_plan p,
            const __grid_constant__ cuda_dev_out o, const __grid_constant__ cuda_dev_tasks t,
            uint64_t n_tasks)
{
    extern __shared__ int64_t walk_state[];
    walk w;
    w.m = &m;
    w.p = &p;
    w.o = &o;
    w.col = walk_state + threadIdx.x;
    w.pin_stride = blockDim.x;
    w.field_stride = blockDim.x * m.max_pins;
    w.used = 0;
    static const int comp[POWER_COMPONENTS] = {0, 1, 2, 3, 4};
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    /* Whole warps go round the loop together, so that they can book together. */
    for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < n_tasks; base += stride) {
        uint64_t task = base + threadIdx.x;
        uint32_t g = DESIGN_NONE;
#pragma unroll
        for (int c = 0; c < POWER_COMPONENTS; c++)
            w.energy[c] = 0.0;
        if (task < n_tasks) {
            g = last_at_or_below(t.task0, m.n_insts, task);
            uint64_t c0 = (task - t.task0[g]) * t.window[g], c1 = c0 + t.window[g];
            walk_task<SIPL, DYNAMIC>(w, t, g, (uint32_t)c0,
                                     (uint32_t)(c1 < p.n_cycles ? c1 : p.n_cycles));
        }
        book_warp(o, false, g, comp, w.energy);
    }
    if (DYNAMIC)
        add_count(o.events_used, w.used);
}

/* ---- Naive-D: one thread per pin event ------------------------------------------- */

/* The value net n (DESIGN_NONE: X) had just before time t. */
__device__ __forceinline__ uint8_t value_before(const cuda_dev_model &m, uint32_t n, int64_t t)
{
    if (n == DESIGN_NONE)
        return EV_X;
    uint64_t e = first_at_or_after(m.ev, m.net_ev0[n], m.net_ev0[n + 1], t);
    return value_before_event(m, n, e);
}

/* The gate's state just before t (power_ref.c state_bits). */
__device__ __forceinline__ uint32_t state_before(const cuda_dev_model &m, uint32_t pin0,
                                                 uint32_t n_pins, int64_t t)
{
    uint32_t s = 0;
    for (uint32_t q = 0; q < n_pins && q < 32; q++)
        s |= (uint32_t)(value_before(m, m.pin_net[pin0 + q], t) == 1) << q;
    return s;
}

/* Pin r's last event at t or before as the reference sees it from pin k's
 * event at t (pins r < k have applied their events at t, pins after k not
 * yet): *last_t its time (-1: none, or only the starting value), *rise. */
__device__ __forceinline__ void last_event(const cuda_dev_model &m, const cuda_dev_plan &p,
                                           uint32_t net, bool inclusive, int64_t t,
                                           int64_t *last_t, bool *rise)
{
    *last_t = -1;
    if (net == DESIGN_NONE)
        return;
    uint64_t lo = m.net_ev0[net], hi = m.net_ev0[net + 1];
    uint64_t e = inclusive ? first_after(m.ev, lo, hi, t) : first_at_or_after(m.ev, lo, hi, t);
    if (e == lo || is_initial(m, p, net, e - 1))
        return;
    *last_t = ev_time(m.ev[e - 1]);
    *rise = is_rise(value_before_event(m, net, e - 1), ev_value(m.ev[e - 1]));
}

/* power_ref.c related_input: the related pin of an event of output k at
 * t, or -1; *r_rise its last event's direction. */
__device__ __forceinline__ int32_t naive_related(const cuda_dev_model &m, const cuda_dev_plan &p,
                                                 const cuda_cell &c, uint32_t inst, uint32_t pin0,
                                                 uint32_t k, int64_t t, int64_t bin_start,
                                                 bool rise, bool *r_rise)
{
    uint32_t c0 = m.cand0[c.cand0_base + k], c1 = m.cand0[c.cand0_base + k + 1];
    int32_t best = -1;
    double best_gap = INFINITY;
    for (uint32_t i = c0; i < c1; i++) {
        uint32_t r = m.cand[i];
        int64_t last_t;
        bool last_rise;
        last_event(m, p, m.pin_net[pin0 + r], r < k, t, &last_t, &last_rise);
        if (last_t < bin_start)
            continue;
        double gap = fabs((double)(t - last_t) - arc_delay(m, inst, m.cand_arc[i], rise));
        if (gap < best_gap)
            best = (int32_t)r, best_gap = gap, *r_rise = last_rise;
    }
    return best;
}

/* Whether event e of net n is costed: not the starting value, a change. */
__device__ __forceinline__ bool is_change(const cuda_dev_model &m, const cuda_dev_plan &p,
                                          uint32_t n, uint64_t e)
{
    return !is_initial(m, p, n, e) && value_before_event(m, n, e) != ev_value(m.ev[e]);
}

/* The glitch rule (power_ref.c flush_pin) for change e of net n in the
 * cycle [bin_start, cycle_end): the 1st and 2nd, 3rd and 4th... changes of
 * the cycle are pairs.  Returns the partner's time, or -1 (none). */
__device__ __forceinline__ int64_t glitch_partner(const cuda_dev_model &m, const cuda_dev_plan &p,
                                                  uint32_t n, uint64_t e, int64_t bin_start,
                                                  int64_t cycle_end)
{
    uint64_t lo = first_at_or_after(m.ev, m.net_ev0[n], e, bin_start), hi = m.net_ev0[n + 1];
    uint64_t rank = 0;
    int64_t before = -1;
    for (uint64_t i = lo; i < e; i++)
        if (is_change(m, p, n, i))
            rank++, before = ev_time(m.ev[i]);
    if (rank % 2)
        return before;
    for (uint64_t i = e + 1; i < hi && ev_time(m.ev[i]) < cycle_end; i++)
        if (is_change(m, p, n, i))
            return ev_time(m.ev[i]);
    return -1;
}

/* What one pin event costs: its instance and bin, and its energies by
 * component (internal, switching, glitch internal, glitch switching);
 * inst DESIGN_NONE when it costs nothing. */
struct event_cost {
    uint32_t inst, bin;
    double e[4];
    bool used;                /* a change: counted in events_used */
};

/* Costs pin event e of pin `pin` (power_ref.c cost_event and flush_pin). */
template <bool SIPL>
__device__ __forceinline__ event_cost naive_cost(const cuda_dev_model &m, const cuda_dev_plan &p,
                                                 const double *t_memo, uint32_t pin, uint64_t e)
{
    event_cost cost = {DESIGN_NONE, 0, {0.0, 0.0, 0.0, 0.0}, false};
    uint32_t net = m.pin_net[pin], inst = m.pin_inst[pin], pin0 = m.inst_pin0[inst], k = pin - pin0;
    uint8_t old = value_before_event(m, net, e), now = ev_value(m.ev[e]);
    if (is_initial(m, p, net, e) || old == now)
        return cost;
    cost.used = true;
    uint8_t flags = m.pin_flags[pin];
    if (flags & CUDA_PIN_SILENT)
        return cost;
    const cuda_cell c = m.cells[m.inst_cell[inst]];
    int64_t t = ev_time(m.ev[e]);
    uint32_t bin = (uint32_t)((t - p.t0) / p.period), s = state_before(m, pin0, c.n_pins, t);
    int64_t bin_start = p.t0 + (int64_t)bin * p.period;
    bool rise = is_rise(old, now);
    bool drives = flags & CUDA_PIN_DRIVES, r_rise = false;
    int32_t related =
        drives ? naive_related(m, p, c, inst, pin0, k, t, bin_start, rise, &r_rise) : -1;
    const double *memo = t_memo ? t_memo + m.inst_memo0[inst] : NULL;
    double e_int = event_internal<SIPL>(m, c, memo, pin0, k, drives, related, r_rise, s, rise);
    double e_sw = 0.0;
    if (rise && (flags & CUDA_PIN_PAYS_SWITCHING))
        e_sw = m.pin_load[pin] * c.volts * c.volts;
    double w = weight_of(old, now);
    e_int *= w, e_sw *= w;
    int64_t cycle_end = bin_start + p.period < p.t1 ? bin_start + p.period : p.t1;
    int64_t partner = (flags & CUDA_PIN_GLITCHABLE)
                          ? glitch_partner(m, p, net, e, bin_start, cycle_end)
                          : -1;
    int glitch = partner >= 0 ? 2 : 0;
    if (glitch) {
        double r_gl = glitch_ratio((double)(partner - t), m.pin_slew_rise[pin] * 1e15,
                                   m.pin_slew_fall[pin] * 1e15);
        e_int *= r_gl, e_sw *= r_gl;
    }
    cost.inst = inst;
    cost.bin = bin;
    cost.e[glitch] = e_int;
    cost.e[glitch + 1] = e_sw;
    return cost;
}

template <bool SIPL>
__global__ void __launch_bounds__(KERNEL_BLOCK)
naive_dynamic_kernel(const __grid_constant__ cuda_dev_model m,
                     const __grid_constant__ cuda_dev_plan p,
                     const __grid_constant__ cuda_dev_out o,
                     const __grid_constant__ cuda_dev_tasks t, uint64_t n_events)
{
    static const int comp[4] = {POWER_INTERNAL, POWER_SWITCHING, POWER_GLITCH_INTERNAL,
                                POWER_GLITCH_SWITCHING};
    unsigned long long used = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    /* Whole warps go round the loop together, so that they can book together. */
    for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < n_events; base += stride) {
        uint64_t q = base + threadIdx.x, q0 = base + (threadIdx.x & ~31u);
        event_cost cost = {DESIGN_NONE, 0, {0.0, 0.0, 0.0, 0.0}, false};
        /* The warp's first event's pin, searched by every lane at the same
         * addresses; a lane's own is then at most a few pins further. */
        uint32_t pin = q0 < n_events ? last_at_or_below(t.pin_ev0, m.n_pins, q0) : 0;
        if (q < n_events) {
            while (t.pin_ev0[pin + 1] <= q)
                pin++;
            uint64_t e = t.net_first[m.pin_net[pin]] + (q - t.pin_ev0[pin]);
            cost = naive_cost<SIPL>(m, p, t.memo, pin, e);
        }
        used += cost.used;
        book_warp(o, false, cost.inst, comp, cost.e);
        book_warp(o, true, cost.inst == DESIGN_NONE ? DESIGN_NONE : cost.bin, comp, cost.e);
    }
    add_count(o.events_used, used);
}

/* ---- per-instance group energies (the memo switch) ------------------------------- */

/* Instance i's energy of each group of its cell in each (own direction,
 * slew direction): with slews and loads fixed per instance, the only
 * table lookups a run needs (power_sipl.h's memo, computed up front). */
__global__ void memo_kernel(const __grid_constant__ cuda_dev_model m, double *memo)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m.n_insts)
        return;
    const cuda_cell c = m.cells[m.inst_cell[i]];
    uint32_t pin0 = m.inst_pin0[i];
    double *out = memo + m.inst_memo0[i];
    for (uint32_t g = c.group0; g < c.group0 + c.n_groups; g++) {
        const cuda_group &gr = m.groups[g];
        bool drives = m.cpin_flags[c.pin0 + gr.pin] & CUDA_PIN_DRIVES;
        energy_src src = source(NULL, pin0, gr.pin, gr.related, false,
                                drives ? m.pin_load[pin0 + gr.pin] : 0.0);
        for (int rise = 0; rise < 2; rise++)
            for (int slew_rise = 0; slew_rise < 2; slew_rise++) {
                src.slew_rise = slew_rise;
                out[4 * (g - c.group0) + 2 * rise + slew_rise] = group_energy(m, c, g, rise, src);
            }
    }
}

/* ---- planning ------------------------------------------------------------------------ */

__global__ void count_kernel(cuda_dev_model m, cuda_dev_plan p, cuda_dev_tasks t)
{
    uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= m.n_nets)
        return;
    uint64_t lo = m.net_ev0[n], hi = m.net_ev0[n + 1];
    uint64_t a = first_at_or_after(m.ev, lo, hi, p.t0);
    t.net_first[n] = a;
    t.net_count[n] = first_at_or_after(m.ev, a, hi, p.t1) - a;
}

/* Gate g's window (the paper's event-density-aware partitioning, or one
 * cycle) and its task count, written into task0[g] for the scan. */
__global__ void windows_kernel(cuda_dev_model m, cuda_dev_plan p, cuda_power_options o,
                               cuda_dev_tasks t)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g > m.n_insts)
        return;
    if (g == m.n_insts) {
        t.task0[g] = 0;
        return;
    }
    uint32_t window = 1;
    if (o.partition) {
        uint64_t n_events = 0;
        for (uint32_t pin = m.inst_pin0[g]; pin < m.inst_pin0[g + 1]; pin++)
            n_events += m.pin_net[pin] == DESIGN_NONE ? 0 : t.net_count[m.pin_net[pin]];
        uint32_t floor_window = (p.n_cycles + o.min_windows - 1) / o.min_windows;
        double density = (double)n_events / p.n_cycles;
        double cycles = density > 0 ? floor(o.target_events / density) : floor_window;
        window = cycles < 1 ? 1 : cycles >= floor_window ? floor_window : (uint32_t)cycles;
    }
    t.window[g] = window;
    t.task0[g] = (p.n_cycles + window - 1) / window;
}

__global__ void pin_events_kernel(cuda_dev_model m, cuda_dev_tasks t)
{
    uint32_t pin = blockIdx.x * blockDim.x + threadIdx.x;
    if (pin > m.n_pins)
        return;
    bool none = pin == m.n_pins || m.pin_net[pin] == DESIGN_NONE;
    t.pin_ev0[pin] = none ? 0 : t.net_count[m.pin_net[pin]];
}

/* ---- launches ------------------------------------------------------------------------- */

static unsigned blocks_for(uint64_t n)
{
    uint64_t b = (n + KERNEL_BLOCK - 1) / KERNEL_BLOCK;
    return b == 0 ? 1 : b > (1u << 30) ? 1u << 30 : (unsigned)b;
}

size_t cuda_kernels_scan_bytes(uint64_t n_items)
{
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(NULL, bytes, (uint64_t *)NULL, (uint64_t *)NULL,
                                  (int64_t)n_items);
    return bytes;
}

/* In-place exclusive scan of a[0 .. n]; *total gets a[n] afterwards. */
static cudaError_t scan(const cuda_dev_tasks &t, uint64_t *a, uint64_t n, uint64_t *total,
                        cudaStream_t stream)
{
    size_t bytes = t.scan_temp_bytes;
    cudaError_t err =
        cub::DeviceScan::ExclusiveSum(t.scan_temp, bytes, a, a, (int64_t)n + 1, stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(total, a + n, sizeof *total, cudaMemcpyDeviceToHost, stream);
    return err == cudaSuccess ? cudaStreamSynchronize(stream) : err;
}

cudaError_t cuda_kernels_memo(const cuda_dev_model &m, double *memo, cudaStream_t stream)
{
    memo_kernel<<<blocks_for(m.n_insts), KERNEL_BLOCK, 0, stream>>>(m, memo);
    return cudaGetLastError();
}

cudaError_t cuda_kernels_count(const cuda_dev_model &m, const cuda_dev_plan &p,
                               const cuda_dev_tasks &t, cudaStream_t stream)
{
    count_kernel<<<blocks_for(m.n_nets), KERNEL_BLOCK, 0, stream>>>(m, p, t);
    return cudaGetLastError();
}

cudaError_t cuda_kernels_windows(const cuda_dev_model &m, const cuda_dev_plan &p,
                                 const cuda_power_options &o, const cuda_dev_tasks &t,
                                 uint64_t *n_tasks, cudaStream_t stream)
{
    windows_kernel<<<blocks_for((uint64_t)m.n_insts + 1), KERNEL_BLOCK, 0, stream>>>(m, p, o, t);
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? scan(t, t.task0, m.n_insts, n_tasks, stream) : err;
}

cudaError_t cuda_kernels_pin_events(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                    uint64_t *n_events, cudaStream_t stream)
{
    pin_events_kernel<<<blocks_for((uint64_t)m.n_pins + 1), KERNEL_BLOCK, 0, stream>>>(m, t);
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? scan(t, t.pin_ev0, m.n_pins, n_events, stream) : err;
}

/* Shared memory of the walk kernel: at most this much per block, WALK_FIELDS
 * words per pin and thread; the block has as many threads (multiples of a
 * warp, at most KERNEL_BLOCK) as fit. */
#define WALK_SMEM_MAX (96 << 10)

static unsigned walk_block(uint32_t max_pins)
{
    size_t per_thread = (size_t)WALK_FIELDS * 8 * (max_pins ? max_pins : 1);
    size_t threads = WALK_SMEM_MAX / per_thread / 32 * 32;
    return threads < 32 ? 32 : threads > KERNEL_BLOCK ? KERNEL_BLOCK : (unsigned)threads;
}

static size_t walk_smem(uint32_t max_pins, unsigned block)
{
    return (size_t)WALK_FIELDS * 8 * (max_pins ? max_pins : 1) * block;
}

template <bool SIPL, bool DYNAMIC>
static cudaError_t launch_walk(const cuda_dev_model &m, const cuda_dev_plan &p,
                               const cuda_dev_out &out, const cuda_dev_tasks &t, uint64_t n_tasks,
                               cudaStream_t stream)
{
    unsigned block = walk_block(m.max_pins);
    size_t smem = walk_smem(m.max_pins, block);
    cudaError_t err = cudaFuncSetAttribute(walk_kernel<SIPL, DYNAMIC>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err != cudaSuccess)
        return err;
    uint64_t blocks = (n_tasks + block - 1) / block;
    blocks = blocks == 0 ? 1 : blocks > (1u << 30) ? 1u << 30 : blocks;
    walk_kernel<SIPL, DYNAMIC><<<(unsigned)blocks, block, smem, stream>>>(m, p, out, t, n_tasks);
    return cudaGetLastError();
}

cudaError_t cuda_kernels_walk(const cuda_dev_model &m, const cuda_dev_plan &p,
                              const cuda_dev_out &out, const cuda_dev_tasks &t, uint64_t n_tasks,
                              bool sipl, bool dynamic, cudaStream_t stream)
{
    if (sipl && dynamic)
        return launch_walk<true, true>(m, p, out, t, n_tasks, stream);
    if (sipl)
        return launch_walk<true, false>(m, p, out, t, n_tasks, stream);
    if (dynamic)
        return launch_walk<false, true>(m, p, out, t, n_tasks, stream);
    return launch_walk<false, false>(m, p, out, t, n_tasks, stream);
}

cudaError_t cuda_kernels_naive_dynamic(const cuda_dev_model &m, const cuda_dev_plan &p,
                                       const cuda_dev_out &out, const cuda_dev_tasks &t,
                                       uint64_t n_events, bool sipl, cudaStream_t stream)
{
    unsigned blocks = blocks_for(n_events);
    if (sipl)
        naive_dynamic_kernel<true><<<blocks, KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_events);
    else
        naive_dynamic_kernel<false><<<blocks, KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_events);
    return cudaGetLastError();
}

/* ---- what the compiler made of them --------------------------------------------------- */

static int report(const void *fn, const char *name, unsigned block, size_t smem,
                  cuda_kernel_report *out)
{
    cudaFuncAttributes attr;
    int device = 0, blocks = 0, max_threads = 0;
    if (cudaFuncGetAttributes(&attr, fn) != cudaSuccess ||
        cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device) !=
            cudaSuccess ||
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) !=
            cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, (int)block, smem) !=
            cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    *out = (cuda_kernel_report){name, attr.numRegs, (int)attr.localSizeBytes, (int)block,
                                (double)blocks * block / max_threads};
    return 1;
}

static int walk_report(const cuda_dev_model &m, bool sipl, bool dynamic, const char *name,
                       cuda_kernel_report *out)
{
    unsigned block = walk_block(m.max_pins);
    size_t smem = walk_smem(m.max_pins, block);
    const void *fn = sipl ? (dynamic ? (const void *)walk_kernel<true, true>
                                     : (const void *)walk_kernel<true, false>)
                          : (dynamic ? (const void *)walk_kernel<false, true>
                                     : (const void *)walk_kernel<false, false>);
    return report(fn, name, block, smem, out);
}

int cuda_kernels_reports(const cuda_dev_model &m, const cuda_power_options &o,
                         cuda_kernel_report *out, int max)
{
    int n = 0;
    if (o.fusion && n < max)
        n += walk_report(m, o.sipl, true, "fused", out + n);
    if (!o.fusion && n < max)
        n += report(o.sipl ? (const void *)naive_dynamic_kernel<true>
                           : (const void *)naive_dynamic_kernel<false>,
                    "naive-D", KERNEL_BLOCK, 0, out + n);
    if (!o.fusion && n < max)
        n += walk_report(m, o.sipl, false, "naive-L", out + n);
    return n;
}
