/* cuda_rules.cuh: the device rules the power kernels share (cuda_kernels.cu,
 * cuda_gate.cu): packed events, the library's tables, groups and leakage
 * (power_ref.c's rules, operation for operation), and the sums' atomics
 * (float64, or 128-bit fixed point).  CUDA C++ only; every function is
 * inlined into its kernel. */
#ifndef GP_CUDA_CUDA_RULES_CUH
#define GP_CUDA_CUDA_RULES_CUH

#include <math.h>

#include "cuda/cuda_kernels.h"
#include "liberty/liberty_lookup.h"
#include "power/power_int.h"

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
    return e == m.net_ev0[n] && m.net_start[n] == EVENTS_X && ev_time(m.ev[e]) == p.dump_start;
}

/* ---- the library's rules ------------------------------------------------------- */

__device__ __forceinline__ double axis_value(uint8_t axis, double slew, double load)
{
    return axis == CUDA_AXIS_SLEW ? slew : axis == CUDA_AXIS_LOAD ? load : NAN;
}

/* lib_table_lookup_var at the slew and the load, with liberty_lookup.h's
 * interpolation. */
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
    double f = lib_axis(m.reals + t.index[0], t.size[0], x, &i0, &i1), g = 0;
    if (t.n_dims == 2) {
        double y = axis_value(t.axis[1], slew, load);
        if (isnan(y))
            return NAN;
        g = lib_axis(m.reals + t.index[1], t.size[1], y, &j0, &j1);
    }
    return lib_bilinear(v, t.size[1], i0, i1, j0, j1, f, g);
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
 * group computed once per run (memo_kernel), at memo_slot. */
struct energy_src {
    const double *memo;       /* the instance's; NULL: look the tables up */
    uint32_t slew_pin;        /* the design pin whose slew is looked up */
    bool slew_rise;
    double load;
};

/* Where an instance's memo keeps the energy of its cell's group g in
 * direction d (2 rise + slew_rise: the event's and the slew's). */
__device__ __forceinline__ uint32_t memo_slot(const cuda_cell &c, uint32_t g, uint32_t d)
{
    return 4 * (g - c.group0) + d;
}

__device__ __forceinline__ double group_energy(const cuda_dev_model &m, const cuda_cell &c,
                                               uint32_t g, bool rise, const energy_src &src)
{
    if (src.memo)
        return src.memo[memo_slot(c, g, 2 * rise + src.slew_rise)];
    int32_t table = m.groups[g].table[rise ? 0 : 1];
    return table >= 0 ? table_lookup(m, table, pin_slew(m, src.slew_pin, src.slew_rise), src.load)
                      : 0.0;
}

/* power_sipl_energy_of: the energy of (pin, related) in state s, from
 * the groups power_groups_energy chooses by scanning the pin's groups, or,
 * with SIPL, a dense cell's from its table (one loop for both, so that the
 * kernels hold one table lookup). */
template <bool SIPL>
__device__ __forceinline__ double energy(const cuda_dev_model &m, const cuda_cell &c, uint32_t pin,
                                         int32_t related, uint32_t s, bool rise,
                                         const energy_src &src)
{
    uint32_t r = related < 0 ? c.n_pins : (uint32_t)related;
    int32_t key = m.keys[c.key0 + pin * (c.n_pins + 1) + r];
    if (key < 0)
        return 0.0;
    bool dense = SIPL && c.sipl_dense;
    size_t at = c.sel0_base + ((size_t)key << c.n_pins) + s;
    uint32_t i0 = dense ? m.sel0[at] : m.cpin_group0[c.pin0 + pin];
    uint32_t i1 = dense ? m.sel0[at + 1] : i0 + m.cpin_n_groups[c.pin0 + pin];
    uint64_t served = 0;
    double e = 0.0;
#pragma unroll 1
    for (uint32_t i = i0; i < i1; i++) {
        uint32_t g = dense ? m.sel[i] : i;
        if (!dense) {
            const cuda_group &gr = m.groups[g];
            if (gr.related != related || (served & gr.pg_bit) || !when_holds(m, c, gr.when, s))
                continue;
            served |= gr.pg_bit;
        }
        e += group_energy(m, c, g, rise, src);
    }
    return e;
}

/* The energy source of pin k of instance (pin0, memo): its own slew in
 * direction slew_rise, or related pin r's (r >= 0). */
__device__ __forceinline__ energy_src source(const double *memo, uint32_t pin0, uint32_t k,
                                             int32_t r, bool slew_rise, double load)
{
    return energy_src{memo, pin0 + (r >= 0 ? (uint32_t)r : k), slew_rise, load};
}

/* power_leakage by scanning the cell's leakage groups. */
__device__ __forceinline__ double leakage_scan(const cuda_dev_model &m, const cuda_cell &c,
                                               uint32_t s)
{
    uint64_t served = 0;
    double total = 0.0;
#pragma unroll 1
    for (int with_when = 1; with_when >= 0; with_when--)
#pragma unroll 1
        for (uint32_t g = c.leakage0; g < c.leakage0 + c.n_leakages; g++) {
            const cuda_leakage &lk = m.leakages[g];
            if (lk.has_when != with_when || (served & lk.pg_bit) || !when_holds(m, c, lk.when, s))
                continue;
            served |= lk.pg_bit;
            total += lk.value;
        }
    return served ? total : c.cell_leakage;
}

/* Where cell c's leakage table starts (c.leak) where it is dense, else
 * UINT32_MAX: leakage_power's leak0, kept by the walks per gate. */
__device__ __forceinline__ uint32_t leakage_table(const cuda_cell &c)
{
    return c.sipl_dense ? c.leak : UINT32_MAX;
}

/* power_leakage of cell c in state s: with SIPL a dense cell's from its
 * table (leak0: leakage_table(c)), else a scan of its leakage groups. */
template <bool SIPL>
__device__ __forceinline__ double leakage_power(const cuda_dev_model &m, const cuda_cell &c,
                                                uint32_t leak0, uint32_t s)
{
    return SIPL && leak0 != UINT32_MAX ? m.reals[leak0 + s] : leakage_scan(m, c, s);
}

__device__ __forceinline__ double pin_slew(const cuda_dev_model &m, uint32_t pin, bool rise)
{
    return rise ? m.pin_slew_rise[pin] : m.pin_slew_fall[pin];
}

/* power_glitch_ratio of a pulse `width` fs wide on design pin `pin`, at its
 * slews (in fs). */
__device__ __forceinline__ double pin_glitch_ratio(const cuda_dev_model &m, uint32_t pin,
                                                   double width)
{
    return power_glitch_ratio(width, m.pin_slew_rise[pin] * 1e15, m.pin_slew_fall[pin] * 1e15);
}

/* The delay of arc `arc` (or 0 when -1) of an instance whose arcs start at
 * slot arc0 (inst_arc0). */
__device__ __forceinline__ double arc_delay(const cuda_dev_model &m, uint32_t arc0, int32_t arc,
                                            bool rise)
{
    if (arc < 0)
        return 0.0;
    uint32_t slot = arc0 + (uint32_t)arc;
    return rise ? m.arc_delay_rise_fs[slot] : m.arc_delay_fall_fs[slot];
}

/* The model's related-pin candidates of an instance (arcs from arc0): the
 * candidate's pin, its arc's delay by the output's direction. */
struct model_cands {
    const cuda_dev_model &m;
    uint32_t arc0;
    __device__ __forceinline__ uint32_t pin(uint32_t i) const { return m.cand[i]; }
    __device__ __forceinline__ double delay(uint32_t i, bool rise) const
    {
        return arc_delay(m, arc0, m.cand_arc[i], rise);
    }
};

/* The related pin of a change at t (rise: its direction) of an output
 * whose candidates are [c0, c1) of `cands` (power_cpu.c related_candidate):
 * of those whose last non-initial event (last.time(r), -1 before any) lies
 * in the cycle starting at bin_start, the one nearest to t less its arc's
 * delay; -1 if none.  *r_rise: that event's direction (last.rise(r)).  The
 * loop is unrolled UNROLL times. */
template <int UNROLL, class Cands, class Last>
__device__ __forceinline__ int32_t related_pin(const Cands &cands, const Last &last, int64_t t,
                                               int64_t bin_start, bool rise, uint32_t c0,
                                               uint32_t c1, bool *r_rise)
{
    int32_t best = -1;
    double best_gap = INFINITY;
#pragma unroll UNROLL
    for (uint32_t i = c0; i < c1; i++) {
        uint32_t r = cands.pin(i);
        int64_t last_t = last.time(r);
        if (last_t < bin_start)
            continue;
        double gap = fabs((double)(t - last_t) - cands.delay(i, rise));
        if (gap < best_gap)
            best = (int32_t)r, best_gap = gap, *r_rise = last.rise(r);
    }
    return best;
}

/* The internal energy of an event of output k without a related pin
 * (power_cpu.c output_internal): the mean over its candidates and both of
 * their directions, or its groups without a related pin. */
template <bool SIPL>
__device__ __forceinline__ double internal_unrelated(const cuda_dev_model &m, const cuda_cell &c,
                                                  const double *memo, uint32_t pin0, uint32_t k,
                                                  uint32_t s, bool rise, double load)
{
    uint32_t c0 = m.cand0[c.cand0_base + k], c1 = m.cand0[c.cand0_base + k + 1];
    bool any = c1 > c0;
    uint32_t n = any ? 2 * (c1 - c0) : 1;
    double sum = 0.0;
    /* Candidate j / 2 in direction j % 2 (one call site keeps the kernels small). */
#pragma unroll 1
    for (uint32_t j = 0; j < n; j++) {
        int32_t r = any ? (int32_t)m.cand[c0 + j / 2] : -1;
        energy_src src = source(memo, pin0, k, r, any ? j & 1 : rise, load);
        sum += energy<SIPL>(m, c, k, r, s, rise, src);
    }
    return any ? sum / n : sum;
}

/* internal_unrelated in state s: with SIPL and a memo, from the instance's
 * memo where it keeps them (memo_kernel). */
template <bool SIPL>
__device__ __forceinline__ double unrelated_energy(const cuda_dev_model &m, const cuda_cell &c,
                                                   const double *memo, uint32_t pin0, uint32_t k,
                                                   uint32_t s, bool rise, double load)
{
    uint32_t at = SIPL && memo ? m.cpin_unrelated[c.pin0 + k] : UINT32_MAX;
    if (at != UINT32_MAX)
        return memo[at + 2 * s + rise];
    return internal_unrelated<SIPL>(m, c, memo, pin0, k, s, rise, load);
}

/* The switching energy of a change old -> now of a pin (flags) driving
 * `load` (power_cpu.c cost_event): paid on rises by the pins that pay it. */
__device__ __forceinline__ double switching_energy(const cuda_cell &c, uint32_t flags, double load,
                                                   uint8_t old, uint8_t now)
{
    return power_is_rise(old, now) && (flags & CUDA_PIN_PAYS_SWITCHING)
               ? power_weight(old, now) * (load * c.volts * c.volts)
               : 0.0;
}

/* The costing of a change old -> now of pin k (flags) of an
 * instance (pin0, memo), in state s (power_cpu.c cost_event): its weighted
 * internal energy, returned, and switching energy, in *e_sw.  related is
 * its related pin (or -1; r_rise that pin's last direction), has_cands
 * whether it has candidates.  Inputs and outputs take one path: an input
 * has no candidates, no related pin and no load. */
template <bool SIPL>
__device__ __forceinline__ double change_energy(const cuda_dev_model &m, const cuda_cell &c,
                                                const double *memo, uint32_t pin0, uint32_t k,
                                                uint32_t flags, bool has_cands, int32_t related,
                                                bool r_rise, uint32_t s, uint8_t old, uint8_t now,
                                                double *e_sw)
{
    bool rise = power_is_rise(old, now);
    double load = flags & CUDA_PIN_DRIVES ? m.pin_load[pin0 + k] : 0.0;
    double weight = power_weight(old, now);
    double e_int =
        related < 0 && has_cands
            ? unrelated_energy<SIPL>(m, c, memo, pin0, k, s, rise, load)
            : energy<SIPL>(m, c, k, related, s, rise,
                           source(memo, pin0, k, related, related >= 0 ? r_rise : rise, load));
    *e_sw = switching_energy(c, flags, load, old, now);
    return e_int * weight;
}

/* ---- sums ------------------------------------------------------------------------- */

/* Adds e to 128-bit fixed-point sum w (w[0] low word, w[1] high word) in
 * units of 2^-120 J: |e| below 128 J converts exactly up to the last unit;
 * integer additions do not depend on their order. */
__device__ __forceinline__ void fixed_add_words(unsigned long long *w, unsigned long long lo,
                                                unsigned long long hi)
{
    unsigned long long old = atomicAdd(&w[0], lo);
    atomicAdd(&w[1], hi + (old + lo < old));
}

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
    fixed_add_words(w, lo, hi);
}

/* Adds e to sum i of a result's array: float64 sums[i], or (FIXED) the
 * 128-bit fixed point at fixed[2 i]. */
template <bool FIXED>
__device__ __forceinline__ void add_sum(double *sums, unsigned long long *fixed, size_t i, double e)
{
    if (FIXED)
        fixed_add(&fixed[2 * i], e);
    else
        atomicAdd(&sums[i], e);
}

__device__ __forceinline__ void add_bin(const cuda_dev_out &o, size_t i, double e)
{
    o.fixed ? add_sum<true>(o.bins, o.fixed_bins, i, e) : add_sum<false>(o.bins, o.fixed_bins, i, e);
}

__device__ __forceinline__ void add_inst(const cuda_dev_out &o, size_t i, double e)
{
    o.fixed ? add_sum<true>(o.inst, o.fixed_inst, i, e) : add_sum<false>(o.inst, o.fixed_inst, i, e);
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

#endif
