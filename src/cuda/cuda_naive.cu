/* cuda_naive.cu: the paper's Naive-D kernel (cuda_kernels.h): one thread
 * per pin event in the window; the state, the related pin and the glitch
 * partner are found by searching the nets' events.  A warp whose lanes
 * book into one instance or bin adds their energies first (book_warp). */
#include "cuda/cuda_kernels.h"

#include "cuda/cuda_rules.cuh"

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

/* ---- Naive-D: one thread per pin event ------------------------------------------- */

/* The value net n (DESIGN_NONE: X) had just before time t. */
__device__ __forceinline__ uint8_t value_before(const cuda_dev_model &m, uint32_t n, int64_t t)
{
    if (n == DESIGN_NONE)
        return EVENTS_X;
    uint64_t e = first_at_or_after(m.ev, m.net_begin[n], m.net_end[n], t);
    return value_before_event(m, n, e);
}

/* The gate's state just before t (power_ref.c state_bits). */
__device__ __forceinline__ uint32_t state_before(const cuda_dev_model &m, uint32_t pin0,
                                                 uint32_t n_pins, int64_t t)
{
    uint32_t s = 0;
#pragma unroll 1
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
    uint64_t lo = m.net_begin[net], hi = m.net_end[net];
    uint64_t e = inclusive ? first_after(m.ev, lo, hi, t) : first_at_or_after(m.ev, lo, hi, t);
    if (e == lo || is_initial(m, p, net, e - 1))
        return;
    *last_t = ev_time(m.ev[e - 1]);
    *rise = power_is_rise(value_before_event(m, net, e - 1), ev_value(m.ev[e - 1]));
}

/* Pins' last events as the reference sees them from pin k's event at t,
 * searched in their nets (last_event), for related_pin.  time(r) searches
 * and keeps the direction it found: related_pin asks rise(r) only right
 * after time(r) of the same pin. */
struct naive_last {
    const cuda_dev_model &m;
    const cuda_dev_plan &p;
    uint32_t pin0, k;
    int64_t t;
    mutable bool last_rise;
    __device__ __forceinline__ int64_t time(uint32_t r) const
    {
        int64_t last_t;
        last_event(m, p, m.pin_net[pin0 + r], r < k, t, &last_t, &last_rise);
        return last_t;
    }
    __device__ __forceinline__ bool rise(uint32_t) const { return last_rise; }
};

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
    uint64_t lo = first_at_or_after(m.ev, m.net_begin[n], e, bin_start), hi = m.net_end[n];
    uint64_t rank = 0;
    int64_t before = -1;
#pragma unroll 1
    for (uint64_t i = lo; i < e; i++)
        if (is_change(m, p, n, i))
            rank++, before = ev_time(m.ev[i]);
    if (rank % 2)
        return before;
#pragma unroll 1
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
    if (flags & POWER_PIN_SILENT)
        return cost;
    const power_model_cell c = m.cells[m.inst_cell[inst]];
    int64_t t = ev_time(m.ev[e]);
    uint32_t bin = (uint32_t)((t - p.t0) / p.period), s = state_before(m, pin0, c.n_pins, t);
    int64_t bin_start = p.t0 + (int64_t)bin * p.period;
    bool drives = flags & POWER_PIN_DRIVES, r_rise = false;
    uint32_t c0 = drives ? m.cand0[c.cand0_base + k] : 0;
    uint32_t c1 = drives ? m.cand0[c.cand0_base + k + 1] : 0;
    int32_t related = related_pin<1>(model_cands{m, m.inst_arc0[inst]},
                                     naive_last{m, p, pin0, k, t, false}, t, bin_start,
                                     power_is_rise(old, now), c0, c1, &r_rise);
    const double *memo = t_memo ? t_memo + m.inst_memo0[inst] : NULL;
    double e_sw, e_int = power_change_energy(&m, &c, memo, pin0, k, flags, c1 > c0, related,
                                             r_rise, s, old, now, SIPL, &e_sw);
    int64_t cycle_end = bin_start + p.period < p.t1 ? bin_start + p.period : p.t1;
    int64_t partner = (flags & POWER_PIN_GLITCHABLE)
                          ? glitch_partner(m, p, net, e, bin_start, cycle_end)
                          : -1;
    int glitch = partner >= 0 ? 2 : 0;
    if (glitch) {
        double r_gl = power_pin_glitch_ratio(&m, pin, (double)(partner - t));
        e_int *= r_gl, e_sw *= r_gl;
    }
    cost.inst = inst;
    cost.bin = bin;
    cost.e[glitch] = e_int;
    cost.e[glitch + 1] = e_sw;
    return cost;
}

template <bool SIPL>
__global__ void __launch_bounds__(CUDA_KERNEL_BLOCK)
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
        uint32_t pin = q0 < n_events ? power_last_at_or_below(t.pin_ev0, m.n_pins, q0) : 0;
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

/* ---- the launch -------------------------------------------------------------- */

cudaError_t cuda_kernels_naive_dynamic(const cuda_dev_model &m, const cuda_dev_plan &p,
                                       const cuda_dev_out &out, const cuda_dev_tasks &t,
                                       uint64_t n_events, bool sipl, cudaStream_t stream)
{
    unsigned blocks = cuda_kernels_blocks(n_events);
    if (sipl)
        naive_dynamic_kernel<true><<<blocks, CUDA_KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_events);
    else
        naive_dynamic_kernel<false><<<blocks, CUDA_KERNEL_BLOCK, 0, stream>>>(m, p, out, t, n_events);
    return cudaGetLastError();
}

int cuda_kernels_naive_report(bool sipl, cuda_kernel_report *out)
{
    return cuda_kernels_report(sipl ? (const void *)naive_dynamic_kernel<true>
                                    : (const void *)naive_dynamic_kernel<false>,
                               "naive-D", CUDA_KERNEL_BLOCK, 0, out);
}
