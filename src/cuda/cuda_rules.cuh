/* cuda_rules.cuh: what the power kernels (cuda_walk.cu, cuda_naive.cu,
 * cuda_gate.cu) share besides power_rules.h's rules: the packed events on
 * the device, the related-pin loop over candidates wherever they are kept,
 * and the sums' atomics (float64, or 128-bit fixed point).  CUDA C++ only;
 * every function is inlined into its kernel. */
#ifndef GP_CUDA_CUDA_RULES_CUH
#define GP_CUDA_CUDA_RULES_CUH

#include <math.h>

#include "cuda/cuda_kernels.h"
#include "cuda/cuda_warp.cuh"
#include "power/power_rules.h"

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
    return e > m.net_begin[n] ? ev_value(m.ev[e - 1]) : m.net_start[n];
}

/* Whether event e of net n is only the net's starting value
 * (power_may_be_initial). */
__device__ __forceinline__ bool is_initial(const cuda_dev_model &m, const cuda_dev_plan &p,
                                           uint32_t n, uint64_t e)
{
    return e == m.net_begin[n] &&
           power_may_be_initial(m.net_start[n], ev_time(m.ev[e]), p.dump_start);
}

/* ---- the related pin ----------------------------------------------------------- */

/* The model's related-pin candidates of an instance (arcs from arc0): the
 * candidate's pin, its arc's delay by the output's direction. */
struct model_cands {
    const cuda_dev_model &m;
    uint32_t arc0;
    __device__ __forceinline__ uint32_t pin(uint32_t i) const { return m.cand[i]; }
    __device__ __forceinline__ double delay(uint32_t i, bool rise) const
    {
        return power_arc_delay(&m, arc0, m.cand_arc[i], rise);
    }
};

/* The related pin of a change at t (rise: its direction) of an output
 * whose candidates are [c0, c1) of `cands` (power_rules.h): of those whose
 * last non-initial event (last.time(r), -1 before any) lies in the cycle
 * starting at bin_start, the one nearest to t less its arc's delay; -1 if
 * none.  *r_rise: that event's direction (last.rise(r)).  The
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
        if (!power_related_in_cycle(last_t, bin_start))
            continue;
        double gap = power_related_gap(t, last_t, cands.delay(i, rise));
        if (gap < best_gap)
            best = (int32_t)r, best_gap = gap, *r_rise = last.rise(r);
    }
    return best;
}

/* ---- sums ------------------------------------------------------------------------- */

/* Adds e to 128-bit fixed-point sum w (w[0] low word, w[1] high word),
 * power_rules.h's power_exact_words, with atomics. */
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
    uint64_t lo, hi;
    power_exact_words(e, &lo, &hi);
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

#endif
