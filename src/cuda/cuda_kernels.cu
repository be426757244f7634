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
 *
 * Sums: a walk adds its energies for one bin at a time in registers and
 * books them when it moves to another bin; every booking is an atomic add
 * (float64, or the 128-bit fixed point of cuda_power.h). */
#include "cuda/cuda_kernels.h"

#include <cub/device/device_scan.cuh>
#include <math.h>

#define KERNEL_BLOCK 256
#define EV_X 2

/* ---- events ------------------------------------------------------------------ */

__device__ __forceinline__ int64_t ev_time(int64_t e) { return e >> 2; }
__device__ __forceinline__ uint8_t ev_value(int64_t e) { return (uint8_t)(e & 3); }

/* The first of events [lo, hi) at or after t (power_cpu.c first_at_or_after). */
__device__ uint64_t first_at_or_after(const int64_t *ev, uint64_t lo, uint64_t hi, int64_t t)
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
__device__ uint64_t first_after(const int64_t *ev, uint64_t lo, uint64_t hi, int64_t t)
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
__device__ __forceinline__ uint8_t value_before_event(const cuda_dev_model &m, uint32_t n, uint64_t e)
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
__device__ double axis_fraction(const double *x, uint32_t n, double v, uint32_t *lo, uint32_t *hi)
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

__device__ double table_lookup(const cuda_dev_model &m, int32_t ti, double slew, double load)
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

/* power_groups_energy: the groups of (pin, related) chosen by scanning. */
__device__ double groups_energy_scan(const cuda_dev_model &m, const cuda_cell &c, uint32_t pin,
                                     int32_t related, uint32_t s, bool rise, double slew,
                                     double load)
{
    uint32_t g0 = m.cpin_group0[c.pin0 + pin], g1 = g0 + m.cpin_n_groups[c.pin0 + pin];
    uint64_t served = 0;
    double e = 0.0;
    for (uint32_t g = g0; g < g1; g++) {
        const cuda_group &gr = m.groups[g];
        if (gr.related != related || (served & gr.pg_bit) || !when_holds(m, c, gr.when, s))
            continue;
        served |= gr.pg_bit;
        int32_t table = gr.table[rise ? 0 : 1];
        if (table >= 0)
            e += table_lookup(m, table, slew, load);
    }
    return e;
}

/* power_sipl_energy_of: the energy of (pin, related) in state s; with SIPL
 * a dense cell's chosen groups come from its table. */
template <bool SIPL>
__device__ double energy(const cuda_dev_model &m, const cuda_cell &c, uint32_t pin,
                         int32_t related, uint32_t s, bool rise, double slew, double load)
{
    uint32_t r = related < 0 ? c.n_pins : (uint32_t)related;
    int32_t key = m.keys[c.key0 + pin * (c.n_pins + 1) + r];
    if (key < 0)
        return 0.0;
    if (!SIPL || !c.sipl_dense)
        return groups_energy_scan(m, c, pin, related, s, rise, slew, load);
    size_t at = c.sel0_base + ((size_t)key << c.n_pins) + s;
    double e = 0.0;
    for (uint32_t i = m.sel0[at]; i < m.sel0[at + 1]; i++) {
        int32_t table = m.groups[m.sel[i]].table[rise ? 0 : 1];
        if (table >= 0)
            e += table_lookup(m, table, slew, load);
    }
    return e;
}

/* power_leakage; with SIPL a dense cell's comes from its table. */
template <bool SIPL>
__device__ double leakage(const cuda_dev_model &m, const cuda_cell &c, uint32_t s)
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
__device__ double glitch_ratio(double width_fs, double t_rise_fs, double t_fall_fs)
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
__device__ void fixed_add(unsigned long long *w, double e)
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
__device__ void add_count(unsigned long long *total, unsigned long long n)
{
    for (int d = 16; d > 0; d /= 2)
        n += __shfl_down_sync(0xffffffffu, n, d);
    if ((threadIdx.x & 31) == 0 && n)
        atomicAdd(total, n);
}

/* ---- the walk: one task (power_cpu.c walk_task) ---------------------------------- */

struct walk_pin {
    uint64_t next, end;       /* its net's events still to come */
    int64_t next_t, last_t;   /* INT64_MAX when none; -1 before any in the task */
    int64_t pend_t;           /* a costed event waiting for its glitch partner */
    double pend_int, pend_sw;
    uint32_t net, pend_bin;
    uint8_t value, last_rise, flags;
    bool pending;
};

struct walk {
    const cuda_dev_model *m;
    const cuda_dev_plan *p;
    const cuda_dev_out *o;
    cuda_cell c;
    uint32_t inst, pin0;
    int64_t leak_from, end;
    uint32_t bin;              /* the cycle of leak_from: [bin_start, bin_end) */
    int64_t bin_start, bin_end;
    uint32_t acc_bin;          /* the bin acc[] sums for */
    double acc[POWER_COMPONENTS];
    double energy[POWER_COMPONENTS];
    unsigned long long used;
    walk_pin pin[CUDA_MAX_PINS];
};

__device__ void flush_bin(walk &w)
{
    for (int c = 0; c < POWER_COMPONENTS; c++)
        if (w.acc[c] != 0.0) {
            add_bin(*w.o, (size_t)w.acc_bin * POWER_COMPONENTS + c, w.acc[c]);
            w.acc[c] = 0.0;
        }
}

__device__ __forceinline__ void book(walk &w, int component, uint32_t bin, double e)
{
    if (bin != w.acc_bin) {
        flush_bin(w);
        w.acc_bin = bin;
    }
    w.acc[component] += e;
    w.energy[component] += e;
}

__device__ __forceinline__ void book_event(walk &w, uint32_t bin, double e_int, double e_sw,
                                           bool glitch)
{
    book(w, glitch ? POWER_GLITCH_INTERNAL : POWER_INTERNAL, bin, e_int);
    book(w, glitch ? POWER_GLITCH_SWITCHING : POWER_SWITCHING, bin, e_sw);
}

__device__ void flush_pending(walk &w, walk_pin &p)
{
    if (p.pending)
        book_event(w, p.pend_bin, p.pend_int, p.pend_sw, false);
    p.pending = false;
}

/* power_cpu.c queue_event: the glitch rule as events come. */
__device__ void queue_event(walk &w, uint32_t k, int64_t t, double e_int, double e_sw)
{
    walk_pin &p = w.pin[k];
    if (p.pending && p.pend_bin != w.bin)
        flush_pending(w, p);
    if (!(p.flags & CUDA_PIN_GLITCHABLE)) {
        book_event(w, w.bin, e_int, e_sw, false);
    } else if (p.pending) {
        uint32_t pin = w.pin0 + k;
        double r_gl = glitch_ratio((double)(t - p.pend_t), w.m->pin_slew_rise[pin] * 1e15,
                                   w.m->pin_slew_fall[pin] * 1e15);
        book_event(w, w.bin, p.pend_int * r_gl, p.pend_sw * r_gl, true);
        book_event(w, w.bin, e_int * r_gl, e_sw * r_gl, true);
        p.pending = false;
    } else {
        p.pending = true;
        p.pend_bin = w.bin;
        p.pend_t = t;
        p.pend_int = e_int;
        p.pend_sw = e_sw;
    }
}

/* power_cpu.c related_candidate and output_internal. */
template <bool SIPL>
__device__ double walk_output_internal(walk &w, uint32_t k, int64_t t, bool rise, uint32_t s)
{
    const cuda_dev_model &m = *w.m;
    uint32_t c0 = m.cand0[w.c.cand0_base + k], c1 = m.cand0[w.c.cand0_base + k + 1];
    double load = m.pin_load[w.pin0 + k];
    int32_t best = -1;
    double best_gap = INFINITY;
    for (uint32_t i = c0; i < c1; i++) {
        const walk_pin &r = w.pin[m.cand[i]];
        if (r.last_t < w.bin_start)
            continue;
        double gap = fabs((double)(t - r.last_t) - arc_delay(m, w.inst, m.cand_arc[i], rise));
        if (gap < best_gap)
            best = (int32_t)i, best_gap = gap;
    }
    if (best >= 0) {
        uint32_t r = m.cand[best];
        return energy<SIPL>(m, w.c, k, (int32_t)r, s, rise, pin_slew(m, w.pin0 + r, w.pin[r].last_rise), load);
    }
    double sum = 0.0;
    for (uint32_t i = c0; i < c1; i++)
        for (int in_rise = 0; in_rise < 2; in_rise++)
            sum += energy<SIPL>(m, w.c, k, (int32_t)m.cand[i], s, rise, pin_slew(m, w.pin0 + m.cand[i], in_rise), load);
    if (c1 > c0)
        return sum / (2 * (c1 - c0));
    return energy<SIPL>(m, w.c, k, -1, s, rise, pin_slew(m, w.pin0 + k, rise), load);
}

/* power_cpu.c cost_event. */
template <bool SIPL>
__device__ void walk_cost_event(walk &w, uint32_t k, int64_t t, uint8_t old, uint8_t now, uint32_t s)
{
    const walk_pin &p = w.pin[k];
    bool rise = is_rise(old, now);
    double weight = weight_of(old, now);
    double e_int, e_sw = 0.0;
    if (p.flags & CUDA_PIN_DRIVES) {
        e_int = walk_output_internal<SIPL>(w, k, t, rise, s);
        if (rise && (p.flags & CUDA_PIN_PAYS_SWITCHING))
            e_sw = w.m->pin_load[w.pin0 + k] * w.c.volts * w.c.volts;
    } else {
        e_int = energy<SIPL>(*w.m, w.c, k, -1, s, rise, pin_slew(*w.m, w.pin0 + k, rise), 0.0);
    }
    queue_event(w, k, t, weight * e_int, weight * e_sw);
}

/* power_cpu.c apply_events_at; returns pin k's state bit after them. */
template <bool SIPL, bool DYNAMIC>
__device__ uint32_t walk_apply(walk &w, uint32_t k, int64_t t, uint32_t s)
{
    const cuda_dev_model &m = *w.m;
    walk_pin &p = w.pin[k];
    uint64_t next = p.next;
    for (; next < p.end && ev_time(m.ev[next]) == t; next++) {
        uint8_t old = p.value, now = ev_value(m.ev[next]);
        bool initial = old == EV_X && t == w.p->dump_start && next == m.net_ev0[p.net];
        p.value = now;
        if (initial)
            continue;
        if (DYNAMIC && old != now) {
            w.used++;
            if (!(p.flags & CUDA_PIN_SILENT))
                walk_cost_event<SIPL>(w, k, t, old, now, s);
        }
        p.last_t = t;
        p.last_rise = is_rise(old, now);
    }
    p.next = next;
    p.next_t = next < p.end ? ev_time(m.ev[next]) : INT64_MAX;
    return p.value == 1;
}

/* power_cpu.c leak_until. */
template <bool SIPL>
__device__ void walk_leak_until(walk &w, int64_t t, uint32_t s)
{
    int64_t a = w.leak_from, b = t < w.end ? t : w.end;
    w.leak_from = t;
    if (a >= b)
        return;
    double watts = leakage<SIPL>(*w.m, w.c, s);
    while (a < b) {
        int64_t end = b < w.bin_end ? b : w.bin_end;
        book(w, POWER_LEAKAGE, w.bin, watts * (double)(end - a) * 1e-15);
        a = end;
        if (a == w.bin_end) {
            w.bin++;
            w.bin_start = w.bin_end;
            w.bin_end += w.p->period;
        }
    }
}

/* power_cpu.c start_pins: each pin at its first event at or after `start`
 * with its value just before; returns the state there. */
__device__ uint32_t walk_start_pins(walk &w, int64_t start)
{
    const cuda_dev_model &m = *w.m;
    uint32_t s = 0;
    for (uint32_t k = 0; k < w.c.n_pins; k++) {
        walk_pin &p = w.pin[k];
        uint32_t pin = w.pin0 + k, net = m.pin_net[pin];
        p.net = net;
        p.flags = m.pin_flags[pin];
        p.last_t = -1;
        p.last_rise = 0;
        p.next_t = INT64_MAX;
        p.next = p.end = 0;
        p.pending = false;
        p.value = EV_X;
        if (net != DESIGN_NONE) {
            p.value = m.net_start[net];
            p.end = m.net_ev0[net + 1];
            p.next = first_at_or_after(m.ev, m.net_ev0[net], p.end, start);
            if (p.next > m.net_ev0[net])
                p.value = ev_value(m.ev[p.next - 1]);
            if (p.next < p.end)
                p.next_t = ev_time(m.ev[p.next]);
        }
        s |= (uint32_t)(p.value == 1) << k;
    }
    return s;
}

/* Task `task`'s gate (the last g with task0[g] <= task) and its cycles. */
__device__ uint32_t task_gate(const cuda_dev_tasks &t, uint32_t n_insts, uint64_t task)
{
    uint32_t lo = 0, hi = n_insts;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t.task0[mid] <= task)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

template <bool SIPL, bool DYNAMIC>
__device__ void walk_task(walk &w, uint32_t inst, uint32_t c0, uint32_t c1)
{
    const cuda_dev_model &m = *w.m;
    const cuda_dev_plan &p = *w.p;
    w.inst = inst;
    w.c = m.cells[m.inst_cell[inst]];
    w.pin0 = m.inst_pin0[inst];
    w.leak_from = p.t0 + (int64_t)c0 * p.period;
    w.end = c1 >= p.n_cycles ? p.t1 : p.t0 + (int64_t)c1 * p.period;
    w.bin = w.acc_bin = c0;
    w.bin_start = w.leak_from;
    w.bin_end = w.leak_from + p.period;
    for (int c = 0; c < POWER_COMPONENTS; c++)
        w.energy[c] = w.acc[c] = 0.0;
    uint32_t s = walk_start_pins(w, w.leak_from);
    for (;;) {
        int64_t t = INT64_MAX;
        for (uint32_t k = 0; k < w.c.n_pins; k++)
            t = w.pin[k].next_t < t ? w.pin[k].next_t : t;
        if (t >= w.end)
            break;
        walk_leak_until<SIPL>(w, t, s);
        uint32_t after = s;
        for (uint32_t k = 0; k < w.c.n_pins; k++)
            if (w.pin[k].next_t == t) {
                uint32_t bit = walk_apply<SIPL, DYNAMIC>(w, k, t, s);
                after = (after & ~(1u << k)) | bit << k;
            }
        s = after;
    }
    walk_leak_until<SIPL>(w, w.end, s);
    for (uint32_t k = 0; DYNAMIC && k < w.c.n_pins; k++)
        flush_pending(w, w.pin[k]);
    flush_bin(w);
    for (int c = 0; c < POWER_COMPONENTS; c++)
        if (w.energy[c] != 0.0)
            add_inst(*w.o, (size_t)inst * POWER_COMPONENTS + c, w.energy[c]);
}

template <bool SIPL, bool DYNAMIC>
__global__ void __launch_bounds__(KERNEL_BLOCK)
walk_kernel(cuda_dev_model m, cuda_dev_plan p, cuda_dev_out o, cuda_dev_tasks t, uint64_t n_tasks)
{
    walk w;
    w.m = &m;
    w.p = &p;
    w.o = &o;
    w.used = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t task = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; task < n_tasks;
         task += stride) {
        uint32_t g = task_gate(t, m.n_insts, task);
        uint64_t c0 = (task - t.task0[g]) * t.window[g], c1 = c0 + t.window[g];
        walk_task<SIPL, DYNAMIC>(w, g, (uint32_t)c0, (uint32_t)(c1 < p.n_cycles ? c1 : p.n_cycles));
    }
    if (DYNAMIC)
        add_count(o.events_used, w.used);
}

/* ---- Naive-D: one thread per pin event ------------------------------------------- */

/* The value net n (DESIGN_NONE: X) had just before time t. */
__device__ uint8_t value_before(const cuda_dev_model &m, uint32_t n, int64_t t)
{
    if (n == DESIGN_NONE)
        return EV_X;
    uint64_t e = first_at_or_after(m.ev, m.net_ev0[n], m.net_ev0[n + 1], t);
    return value_before_event(m, n, e);
}

/* The gate's state just before t (power_ref.c state_bits). */
__device__ uint32_t state_before(const cuda_dev_model &m, uint32_t pin0, uint32_t n_pins, int64_t t)
{
    uint32_t s = 0;
    for (uint32_t q = 0; q < n_pins && q < 32; q++)
        s |= (uint32_t)(value_before(m, m.pin_net[pin0 + q], t) == 1) << q;
    return s;
}

/* Pin r's last event at t or before as the reference sees it from pin k's
 * event at t (pins r < k have applied their events at t, pins after k not
 * yet): *last_t its time (-1: none, or only the starting value), *rise. */
__device__ void last_event(const cuda_dev_model &m, const cuda_dev_plan &p, uint32_t net,
                           bool inclusive, int64_t t, int64_t *last_t, bool *rise)
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

/* power_ref.c related_input and output_internal. */
template <bool SIPL>
__device__ double naive_output_internal(const cuda_dev_model &m, const cuda_dev_plan &p,
                                        const cuda_cell &c, uint32_t inst, uint32_t pin0,
                                        uint32_t k, int64_t t, int64_t bin_start, bool rise,
                                        uint32_t s)
{
    uint32_t c0 = m.cand0[c.cand0_base + k], c1 = m.cand0[c.cand0_base + k + 1];
    double load = m.pin_load[pin0 + k];
    int32_t best = -1;
    bool best_rise = false;
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
            best = (int32_t)r, best_gap = gap, best_rise = last_rise;
    }
    if (best >= 0)
        return energy<SIPL>(m, c, k, best, s, rise, pin_slew(m, pin0 + best, best_rise), load);
    double sum = 0.0;
    for (uint32_t i = c0; i < c1; i++)
        for (int in_rise = 0; in_rise < 2; in_rise++)
            sum += energy<SIPL>(m, c, k, (int32_t)m.cand[i], s, rise, pin_slew(m, pin0 + m.cand[i], in_rise), load);
    if (c1 > c0)
        return sum / (2 * (c1 - c0));
    return energy<SIPL>(m, c, k, -1, s, rise, pin_slew(m, pin0 + k, rise), load);
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
__device__ int64_t glitch_partner(const cuda_dev_model &m, const cuda_dev_plan &p, uint32_t n,
                                  uint64_t e, int64_t bin_start, int64_t cycle_end)
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

/* Costs pin event e (of pin `pin`) and books it; returns whether it was
 * counted as used. */
template <bool SIPL>
__device__ bool naive_event(const cuda_dev_model &m, const cuda_dev_plan &p, const cuda_dev_out &o,
                            uint32_t pin, uint64_t e)
{
    uint32_t net = m.pin_net[pin], inst = m.pin_inst[pin], pin0 = m.inst_pin0[inst], k = pin - pin0;
    uint8_t old = value_before_event(m, net, e), now = ev_value(m.ev[e]);
    if (is_initial(m, p, net, e) || old == now)
        return false;
    uint8_t flags = m.pin_flags[pin];
    if (flags & CUDA_PIN_SILENT)
        return true;
    const cuda_cell c = m.cells[m.inst_cell[inst]];
    int64_t t = ev_time(m.ev[e]);
    uint32_t bin = (uint32_t)((t - p.t0) / p.period), s = state_before(m, pin0, c.n_pins, t);
    int64_t bin_start = p.t0 + (int64_t)bin * p.period;
    bool rise = is_rise(old, now);
    double e_int, e_sw = 0.0;
    if (flags & CUDA_PIN_DRIVES) {
        e_int = naive_output_internal<SIPL>(m, p, c, inst, pin0, k, t, bin_start, rise, s);
        if (rise && (flags & CUDA_PIN_PAYS_SWITCHING))
            e_sw = m.pin_load[pin] * c.volts * c.volts;
    } else {
        e_int = energy<SIPL>(m, c, k, -1, s, rise, pin_slew(m, pin, rise), 0.0);
    }
    double w = weight_of(old, now);
    e_int *= w, e_sw *= w;
    int64_t cycle_end = bin_start + p.period < p.t1 ? bin_start + p.period : p.t1;
    int64_t partner = (flags & CUDA_PIN_GLITCHABLE) ? glitch_partner(m, p, net, e, bin_start, cycle_end) : -1;
    bool glitch = partner >= 0;
    if (glitch) {
        double r_gl = glitch_ratio((double)(partner - t), m.pin_slew_rise[pin] * 1e15,
                                   m.pin_slew_fall[pin] * 1e15);
        e_int *= r_gl, e_sw *= r_gl;
    }
    size_t b = (size_t)bin * POWER_COMPONENTS, i = (size_t)inst * POWER_COMPONENTS;
    int c_int = glitch ? POWER_GLITCH_INTERNAL : POWER_INTERNAL;
    int c_sw = glitch ? POWER_GLITCH_SWITCHING : POWER_SWITCHING;
    add_bin(o, b + c_int, e_int);
    add_inst(o, i + c_int, e_int);
    if (e_sw != 0.0) {
        add_bin(o, b + c_sw, e_sw);
        add_inst(o, i + c_sw, e_sw);
    }
    return true;
}

/* The last pin whose first pin event is at or before q. */
__device__ uint32_t event_pin(const cuda_dev_tasks &t, uint32_t n_pins, uint64_t q)
{
    uint32_t lo = 0, hi = n_pins;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t.pin_ev0[mid] <= q)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

template <bool SIPL>
__global__ void __launch_bounds__(KERNEL_BLOCK)
naive_dynamic_kernel(cuda_dev_model m, cuda_dev_plan p, cuda_dev_out o, cuda_dev_tasks t,
                     uint64_t n_events)
{
    unsigned long long used = 0;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t q = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; q < n_events; q += stride) {
        uint32_t pin = event_pin(t, m.n_pins, q);
        uint64_t e = t.net_first[m.pin_net[pin]] + (q - t.pin_ev0[pin]);
        used += naive_event<SIPL>(m, p, o, pin, e);
    }
    add_count(o.events_used, used);
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
    t.pin_ev0[pin] = pin == m.n_pins || m.pin_net[pin] == DESIGN_NONE ? 0 : t.net_count[m.pin_net[pin]];
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
    cudaError_t err = cub::DeviceScan::ExclusiveSum(t.scan_temp, bytes, a, a, (int64_t)n + 1, stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(total, a + n, sizeof *total, cudaMemcpyDeviceToHost, stream);
    return err == cudaSuccess ? cudaStreamSynchronize(stream) : err;
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

cudaError_t cuda_kernels_walk(const cuda_dev_model &m, const cuda_dev_plan &p,
                              const cuda_dev_out &out, const cuda_dev_tasks &t, uint64_t n_tasks,
                              bool sipl, bool dynamic, cudaStream_t stream)
{
    unsigned blocks = blocks_for(n_tasks);
    if (sipl && dynamic)
        walk_kernel<true, true><<<blocks, KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_tasks);
    else if (sipl)
        walk_kernel<true, false><<<blocks, KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_tasks);
    else if (dynamic)
        walk_kernel<false, true><<<blocks, KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_tasks);
    else
        walk_kernel<false, false><<<blocks, KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_tasks);
    return cudaGetLastError();
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

static int report(const void *fn, const char *name, cuda_kernel_report *out)
{
    cudaFuncAttributes attr;
    int device = 0, blocks = 0, max_threads = 0;
    if (cudaFuncGetAttributes(&attr, fn) != cudaSuccess ||
        cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, KERNEL_BLOCK, 0) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    *out = (cuda_kernel_report){name, attr.numRegs, (int)attr.localSizeBytes, KERNEL_BLOCK,
                                (double)blocks * KERNEL_BLOCK / max_threads};
    return 1;
}

int cuda_kernels_reports(const cuda_power_options &o, cuda_kernel_report *out, int max)
{
    int n = 0;
    if (o.fusion && n < max)
        n += o.sipl ? report((const void *)walk_kernel<true, true>, "fused", out + n)
                    : report((const void *)walk_kernel<false, true>, "fused", out + n);
    if (!o.fusion && n < max)
        n += o.sipl ? report((const void *)naive_dynamic_kernel<true>, "naive-D", out + n)
                    : report((const void *)naive_dynamic_kernel<false>, "naive-D", out + n);
    if (!o.fusion && n < max)
        n += o.sipl ? report((const void *)walk_kernel<true, false>, "naive-L", out + n)
                    : report((const void *)walk_kernel<false, false>, "naive-L", out + n);
    return n;
}
