/* cuda_gate.cu: the warp-per-gate power kernel (the "warp" switch,
 * cuda_power.h) and the gate streams it reads.
 *
 *   gate stream kernel   once a session: each gate's pins' events merged in
 *                        the order the reference applies them (by time,
 *                        then pin, then the net's order), one 8-byte entry
 *                        an event: time << 7 | pin << 2 | value.  A warp a
 *                        gate merges 32 entries a step: each pin's next 32
 *                        events in shared memory, each ranked among the
 *                        others by binary search.
 *   gate warp kernel     a warp a task (gate, epoch): 32 consecutive
 *                        stream entries a step, one a lane.  What the
 *                        walk (cuda_kernels.cu) carries from event to
 *                        event, lanes find among themselves: the old value
 *                        and the related pin's last event from the lanes
 *                        of that pin below (__match_any_sync), the state
 *                        before the time by a scan of "set pin k to v",
 *                        the glitch partner among the same cycle's lanes of
 *                        the pin.  Each cycle is summed across its lanes
 *                        (shuffles) and booked by one of them (a global
 *                        atomic: summing a warp's tasks' cycles in shared
 *                        memory first measured no faster).
 *
 * Lanes all cost one cell's events with the same instructions, where the
 * walk's lanes each walked their own gate: the warp's instructions per pin
 * event fall, and so does the divergence. */
#include "cuda/cuda_rules.cuh"

/* ---- gate streams -------------------------------------------------------------------- */

enum { GS_PIN_SHIFT = 2, GS_TIME_SHIFT = 7 };
#define GS_BLOCK 128
#define GS_NONE UINT64_MAX

__device__ __forceinline__ int64_t gs_time(uint64_t e) { return (int64_t)(e >> GS_TIME_SHIFT); }
__device__ __forceinline__ uint32_t gs_pin(uint64_t e) { return (uint32_t)(e >> GS_PIN_SHIFT) & 31; }
__device__ __forceinline__ uint8_t gs_value(uint64_t e) { return (uint8_t)(e & 3); }

/* How many of the 32 sorted keys in list are below x. */
__device__ __forceinline__ uint32_t count_below(const uint64_t *list, uint64_t x)
{
    uint32_t at = 0;
#pragma unroll
    for (uint32_t step = 16; step > 0; step /= 2)
        at += list[at + step - 1] < x ? step : 0;
    return at + (list[at] < x);
}

/* One warp a gate: each step puts the next 32 entries of its stream in
 * place.  Each pin's next 32 events hold all of them; an event's place is
 * its position in its pin's list plus the events of the other pins' lists
 * that come before it (keys differ in the pin, so none is equal). */
__global__ void __launch_bounds__(GS_BLOCK)
gate_stream_kernel(const __grid_constant__ cuda_dev_model m, const uint64_t *gs_pin0, uint64_t *gs)
{
    extern __shared__ uint64_t gs_lists[];
    uint32_t lane = threadIdx.x & 31;
    uint64_t *lists = gs_lists + (size_t)(threadIdx.x / 32) * m.max_pins * 32;
    uint64_t g = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (g >= m.n_insts)
        return;
    uint32_t pin0 = m.inst_pin0[g], n = m.inst_pin0[g + 1] - pin0;
    uint64_t cur = 0, end = 0; /* lane q: pin q's next event and its net's end */
    uint32_t net = lane < n ? m.pin_net[pin0 + lane] : DESIGN_NONE;
    if (net != DESIGN_NONE)
        cur = m.net_ev0[net], end = m.net_ev0[net + 1];
    for (uint64_t out = gs_pin0[pin0], out_end = gs_pin0[pin0 + n]; out < out_end;) {
        for (uint32_t q = 0; q < n; q++) {
            uint64_t at = __shfl_sync(0xffffffffu, cur, q) + lane;
            int64_t e = at < __shfl_sync(0xffffffffu, end, q) ? m.ev[at] : -1;
            lists[q * 32 + lane] = e < 0 ? GS_NONE
                                         : (uint64_t)ev_time(e) << GS_TIME_SHIFT |
                                               q << GS_PIN_SHIFT | ev_value(e);
        }
        __syncwarp();
        uint32_t taken = 0;
        for (uint32_t q = 0; q < n; q++) {
            uint64_t x = lists[q * 32 + lane];
            uint32_t rank = lane;
            for (uint32_t r = 0; r < n && x != GS_NONE; r++)
                rank += r == q ? 0 : count_below(lists + r * 32, x);
            bool take = x != GS_NONE && rank < 32;
            if (take)
                gs[out + rank] = x;
            uint32_t n_taken = __popc(__ballot_sync(0xffffffffu, take));
            taken = lane == q ? n_taken : taken;
        }
        cur += taken;
        out += __reduce_add_sync(0xffffffffu, taken);
        __syncwarp();
    }
}

/* ---- the warp-per-gate kernel ---------------------------------------------------------- */

/* The gate warp kernel's blocks, and the blocks an SM must hold: they set
 * the registers the compiler may use (96, none spilled: 20 warps an SM).
 * On the 100k-gate case (bench/RESULTS.md) 128 x 5 and 256 x 3 (80
 * registers, some spilled, 24 warps) ran alike; 256 x 1 (96, 16 warps) 15%
 * slower. */
#define GW_BLOCK 128
#define GW_MIN_BLOCKS 5

/* Per pin: bits of gw_shared.pin_bits. */
enum { PB_VALUE = 3, PB_HAS_PREV = 4, PB_ODD = 8, PB_LAST_RISE = 16 };

/* The task a warp works on (in shared memory: registers limit the
 * kernel's occupancy). */
struct gw_task {
    uint32_t inst, pin0, n_pins, arc0, leak0;
    const cuda_cell *cell;
    const double *memo;
    uint32_t c0;              /* the task's first cycle */
    int64_t t_start, t_end;   /* [start of cycle c0, end of the task) */
    uint64_t first, n_ev;     /* its entries in the gate stream */
};

/* What a task's steps carry from one to the next (in registers). */
struct gw_carry {
    uint32_t s, s_cost;       /* the state after the last step, and before its last time */
    int64_t last_t;           /* the last step's last time; -1 before any (leakage is booked
                                 up to it, or to the task's start) */
    uint32_t last_bin;        /* the cycle of the time leakage is booked up to */
};

/* A warp's shared memory: its task; the step's lanes' times and events
 * (lanes_ni: non-initial, lanes_ch: costed changes of glitchable pins,
 * lanes_rise); its pins' lanes in the step (pin_all) and carries from the
 * steps before (last non-initial event, last costed glitchable change, next
 * event in the net, bits); the lanes' shares of the instance sums. */
struct gw_shared {
    gw_task task;
    int64_t lane_t[32];
    uint32_t lanes_ni, lanes_ch, lanes_rise;
    uint32_t pin_all[CUDA_MAX_PINS];
    int64_t pin_last_t[CUDA_MAX_PINS], pin_change_t[CUDA_MAX_PINS];
    uint64_t pin_next[CUDA_MAX_PINS], pin_stop[CUDA_MAX_PINS];
    uint32_t pin_bits[CUDA_MAX_PINS];
    uint8_t pin_flags[CUDA_MAX_PINS];
    double per_period;        /* 1 / the period */
    double inst[POWER_COMPONENTS][32]; /* per lane: its share of the task's instance sums */
};

/* One lane's event in a step. */
struct gw_event {
    bool valid, initial, change, rise;
    uint32_t k, bin;
    uint8_t old, now;
    int64_t t, bin_start;
    uint32_t s_cost, s_after;
    double e[POWER_COMPONENTS];
};

__device__ __forceinline__ uint32_t lanes_below(uint32_t lane) { return (1u << lane) - 1; }
__device__ __forceinline__ uint32_t lanes_above(uint32_t lane)
{
    return lane == 31 ? 0 : ~0u << (lane + 1);
}
__device__ __forceinline__ int highest(uint32_t mask) { return 31 - __clz(mask); }

/* The result's sums, float64 or (FIXED: o.fixed, made a constant so that
 * the kernel holds one kind of sums only) 128-bit fixed point. */
template <bool FIXED>
__device__ __forceinline__ void add_level(const cuda_dev_out &o, uint32_t i, double watts)
{
    add_sum<FIXED>(o.levels, o.fixed_levels, i, watts);
}

/* Adds e to component c of cycle b of the result. */
template <bool FIXED>
__device__ __forceinline__ void gw_book(const cuda_dev_out &o, uint32_t b, int c, double e)
{
    add_sum<FIXED>(o.bins, o.fixed_bins, (size_t)b * POWER_COMPONENTS + c, e);
}

/* Leakage `watts` over [a, t), a in cycle ba and t in cycle bt (starting at
 * bt_start): the part in bt to *own, the part in ba (when earlier) to
 * *before, whole cycles between as levels (power_cpu.c leak_until). */
template <bool FIXED>
__device__ __forceinline__ void gw_leak(const cuda_dev_plan &p, const cuda_dev_out &o, double watts,
                                        int64_t a, uint32_t ba, int64_t t, uint32_t bt,
                                        int64_t bt_start, double *own, double *before)
{
    if (bt == ba) {
        *own += watts * (double)(t - a) * 1e-15;
        return;
    }
    *before += watts * (double)(p.t0 + (int64_t)(ba + 1) * p.period - a) * 1e-15;
    *own += watts * (double)(t - bt_start) * 1e-15;
    if (bt > ba + 1 && watts != 0.0) {
        add_level<FIXED>(o, ba + 1, watts);
        add_level<FIXED>(o, bt, -watts);
    }
}

template <bool SIPL>
__device__ __forceinline__ double gw_watts(const cuda_dev_model &m, const gw_task &k, uint32_t s)
{
    return SIPL && k.leak0 != UINT32_MAX ? m.reals[k.leak0 + s] : leakage_scan(m, *k.cell, s);
}

/* Opens the task of gate inst in epoch `epoch` (lane 0 writes sh.task).
 * Lane q < n_pins sets up pin q: its next event at the epoch's start (the
 * epoch index), its value before, the events before the epoch (the
 * stream's entries to skip).  Returns the carry at the task's start. */
__device__ __forceinline__ gw_carry gw_open(gw_shared &sh, const cuda_dev_model &m,
                                            const cuda_dev_plan &p, const cuda_dev_tasks &t,
                                            uint32_t inst, uint32_t epoch)
{
    uint32_t lane = threadIdx.x & 31;
    gw_task k;
    k.inst = inst;
    k.pin0 = m.inst_pin0[inst];
    k.n_pins = m.inst_pin0[inst + 1] - k.pin0;
    k.arc0 = m.inst_arc0[inst];
    k.cell = &m.cells[m.inst_cell[inst]];
    k.leak0 = k.cell->sipl_dense ? k.cell->leak : UINT32_MAX;
    k.memo = t.memo ? t.memo + m.inst_memo0[inst] : NULL;
    k.c0 = epoch * t.epoch_cycles;
    uint32_t c1 = min(p.n_cycles, k.c0 + t.epoch_cycles);
    k.t_start = p.t0 + (int64_t)k.c0 * p.period;
    k.t_end = c1 == p.n_cycles ? p.t1 : p.t0 + (int64_t)c1 * p.period;
    uint32_t net = lane < k.n_pins ? m.pin_net[k.pin0 + lane] : DESIGN_NONE;
    uint64_t skip = 0, take = 0, next = 0;
    uint32_t bits = EVENTS_X;
    if (net != DESIGN_NONE) {
        const uint32_t *row = t.epoch_first + (size_t)net * t.n_epochs;
        uint64_t lo = t.net_first[net], ev0 = m.net_ev0[net];
        next = lo + row[epoch];
        uint64_t stop = epoch + 1 < t.n_epochs ? lo + row[epoch + 1] : lo + t.net_count[net];
        skip = next - ev0, take = stop - next;
        bits = value_before_event(m, net, next) | (next > ev0 ? PB_HAS_PREV : 0);
        sh.pin_stop[lane] = stop;
    }
    if (lane < k.n_pins) {
        sh.pin_next[lane] = next;
        sh.pin_bits[lane] = bits;
        sh.pin_last_t[lane] = -1;
        sh.pin_change_t[lane] = -1;
        sh.pin_all[lane] = 0;
        sh.pin_flags[lane] = m.pin_flags[k.pin0 + lane];
    }
    for (int d = 16; d > 0; d /= 2) {
        skip += __shfl_xor_sync(0xffffffffu, skip, d);
        take += __shfl_xor_sync(0xffffffffu, take, d);
    }
    k.first = t.gs_pin0[k.pin0] + skip;
    k.n_ev = take;
    if (lane == 0)
        sh.task = k;
    uint32_t s = __ballot_sync(0xffffffffu, lane < k.n_pins && (bits & PB_VALUE) == 1);
    __syncwarp();
    return gw_carry{s, s, -1, k.c0};
}

/* Entry `at` of the task's stream, or 0 past its end. */
__device__ __forceinline__ uint64_t gw_entry(const gw_shared &sh, const cuda_dev_tasks &t,
                                             uint64_t at)
{
    return at < sh.task.n_ev ? t.gs[sh.task.first + at] : 0;
}

/* The step's event of this lane: stream entry e, number `at` (if below
 * n_ev), its old value, whether it is the net's initial value
 * (power_ref.c apply_events_at) or a change.  Returns the lanes of its pin
 * (sh.pin_all of each pin too). */
__device__ __forceinline__ uint32_t gw_read(gw_event &ev, gw_shared &sh, const cuda_dev_plan &p,
                                            uint64_t at, uint64_t e)
{
    const gw_task &k = sh.task;
    uint32_t lane = threadIdx.x & 31;
    ev.valid = at < k.n_ev;
    ev.t = ev.valid ? gs_time(e) : INT64_MAX;
    ev.k = gs_pin(e);
    ev.now = gs_value(e);
    uint32_t same_pin = __match_any_sync(0xffffffffu, ev.valid ? ev.k : 32 + lane);
    uint32_t same_pin_below = same_pin & lanes_below(lane);
    if (ev.valid && !same_pin_below)
        sh.pin_all[ev.k] = same_pin;
    sh.lane_t[lane] = ev.t;
    int prev = same_pin_below ? highest(same_pin_below) : (int)lane;
    uint8_t prev_value = (uint8_t)__shfl_sync(0xffffffffu, ev.now, prev);
    uint32_t bits = sh.pin_bits[ev.k];
    ev.old = same_pin_below ? prev_value : bits & PB_VALUE;
    bool net_first = !same_pin_below && !(bits & PB_HAS_PREV);
    ev.initial = ev.valid && net_first && ev.old == EVENTS_X && ev.t == p.dump_start;
    ev.change = ev.valid && !ev.initial && ev.old != ev.now;
    ev.rise = power_is_rise(ev.old, ev.now);
    return same_pin;
}

/* The state after this lane's event (a scan of "pin k is now v" over the
 * lanes, from the state after the last step) and the state before its time
 * (events at one time are costed in the state before it); returns the
 * lanes that open a time. */
__device__ __forceinline__ uint32_t gw_states(gw_event &ev, const gw_carry &c)
{
    uint32_t lane = threadIdx.x & 31;
    uint32_t set = ev.valid ? 1u << ev.k : 0, to = ev.now == 1 ? set : 0;
#pragma unroll
    for (uint32_t d = 1; d < 32; d *= 2) {
        uint32_t set_up = __shfl_up_sync(0xffffffffu, set, d);
        uint32_t to_up = __shfl_up_sync(0xffffffffu, to, d);
        if (lane >= d)
            to = (to_up & ~set) | to, set |= set_up;
    }
    ev.s_after = (c.s & ~set) | to;
    int64_t t_before = __shfl_up_sync(0xffffffffu, ev.t, 1);
    if (lane == 0)
        t_before = c.last_t;
    uint32_t heads = __ballot_sync(0xffffffffu, ev.valid && ev.t != t_before);
    uint32_t upto = heads & (lanes_below(lane) | 1u << lane);
    int head = upto ? highest(upto) : 0;
    uint32_t s_head = __shfl_sync(0xffffffffu, ev.s_after, head > 0 ? head - 1 : 0);
    ev.s_cost = !upto ? c.s_cost : head > 0 ? s_head : c.s;
    return heads;
}

/* This lane's cycle (from the task's first, without a division); returns
 * the lanes that open a cycle. */
__device__ __forceinline__ uint32_t gw_bins(gw_event &ev, const gw_task &k,
                                            const cuda_dev_plan &p, double per_period)
{
    int64_t dt = ev.valid ? ev.t - k.t_start : 0;
    int64_t r = (int64_t)((double)dt * per_period);
    r -= r * p.period > dt;
    r += (r + 1) * p.period <= dt;
    ev.bin = k.c0 + (uint32_t)r;
    ev.bin_start = k.t_start + r * p.period;
    uint32_t bin_before = __shfl_up_sync(0xffffffffu, ev.bin, 1);
    return __ballot_sync(0xffffffffu,
                         ev.valid && ((threadIdx.x & 31) == 0 || ev.bin != bin_before));
}

/* The related pin of a change of output k (power_cpu.c related_candidate):
 * each candidate's last non-initial event before this lane (its lanes
 * below, or the steps before). */
__device__ __forceinline__ int32_t gw_related(const gw_shared &sh, const cuda_dev_model &m,
                                              const gw_event &ev, uint32_t c0, uint32_t c1,
                                              bool *r_rise)
{
    uint32_t lane = threadIdx.x & 31, ni_below = sh.lanes_ni & lanes_below(lane);
    int32_t best = -1;
    double best_gap = INFINITY;
#pragma unroll 1
    for (uint32_t i = c0; i < c1; i++) {
        uint32_t r = m.cand[i], lanes = sh.pin_all[r] & ni_below;
        int at = lanes ? highest(lanes) : 0;
        int64_t last_t = lanes ? sh.lane_t[at] : sh.pin_last_t[r];
        bool rise = lanes ? (sh.lanes_rise >> at) & 1 : sh.pin_bits[r] & PB_LAST_RISE;
        if (last_t < ev.bin_start)
            continue;
        double delay = arc_delay(m, sh.task.arc0, m.cand_arc[i], ev.rise);
        double gap = fabs((double)(ev.t - last_t) - delay);
        if (gap < best_gap)
            best = (int32_t)r, best_gap = gap, *r_rise = rise;
    }
    return best;
}

/* The glitch width of this costed change of a glitchable pin (power_ref.c
 * flush_pin: the 1st and 2nd, 3rd and 4th... changes of the pin in a cycle
 * pair up), or -1; *odd_after: whether the cycle's changes up to this one
 * are odd.  The partner is among the lanes of the cycle (ch: the pin's
 * costed changes), in the carry, or (first of a pair at the step's end)
 * further in the net's events. */
__device__ __forceinline__ int64_t gw_glitch_width(const gw_shared &sh, const cuda_dev_model &m,
                                                   const cuda_dev_plan &p, const gw_event &ev,
                                                   uint32_t ch, uint32_t bin_heads, bool more,
                                                   bool *odd_after)
{
    uint32_t lane = threadIdx.x & 31;
    uint32_t bin_lanes = bin_heads & (lanes_below(lane) | 1u << lane);
    uint32_t from = ~lanes_below(highest(bin_lanes)); /* this cycle's lanes, from its first */
    uint32_t before = ch & lanes_below(lane) & from;
    int64_t change_t = sh.pin_change_t[ev.k];
    bool carried = (sh.pin_bits[ev.k] & PB_ODD) && change_t >= ev.bin_start;
    bool second = (__popc(before) + carried) & 1;
    *odd_after = !second;
    if (second)
        return ev.t - (before ? sh.lane_t[highest(before)] : change_t);
    uint32_t next_bin = bin_heads & lanes_above(lane);
    uint32_t after = ch & lanes_above(lane) & (next_bin ? lanes_below(__ffs(next_bin) - 1) : ~0u);
    if (after)
        return sh.lane_t[__ffs(after) - 1] - ev.t;
    if (next_bin || !more)
        return -1;
    uint64_t i = sh.pin_next[ev.k] + __popc(sh.pin_all[ev.k] & lanes_below(lane)) + 1;
    uint64_t stop = sh.pin_stop[ev.k];
    int64_t bin_end = ev.bin_start + p.period;
#pragma unroll 1
    for (; i < stop && ev_time(m.ev[i]) < bin_end; i++)
        if (ev_value(m.ev[i]) != ev.now)
            return ev_time(m.ev[i]) - ev.t;
    return -1;
}

/* power_cpu.c cost_event for this lane's change (costed: not silent): its
 * internal and switching energy, as glitch energy when it pairs up. */
template <bool SIPL>
__device__ __forceinline__ void gw_cost(gw_event &ev, const gw_shared &sh, const cuda_dev_model &m,
                                        const cuda_dev_plan &p, uint32_t flags, uint32_t same_pin,
                                        uint32_t bin_heads, bool more, bool *odd_after)
{
    const gw_task &k = sh.task;
    const cuda_cell &c = *k.cell;
    bool drives = flags & CUDA_PIN_DRIVES, r_rise = false;
    uint32_t c0 = drives ? m.cand0[c.cand0_base + ev.k] : 0;
    uint32_t c1 = drives ? m.cand0[c.cand0_base + ev.k + 1] : 0;
    int32_t related = gw_related(sh, m, ev, c0, c1, &r_rise);
    double load = drives ? m.pin_load[k.pin0 + ev.k] : 0.0, weight = power_weight(ev.old, ev.now);
    double e_int =
        related < 0 && c1 > c0
            ? unrelated_energy<SIPL>(m, c, k.memo, k.pin0, ev.k, ev.s_cost, ev.rise, load)
            : energy<SIPL>(m, c, ev.k, related, ev.s_cost, ev.rise,
                           source(k.memo, k.pin0, ev.k, related, related >= 0 ? r_rise : ev.rise,
                                  load));
    e_int *= weight;
    double e_sw = ev.rise && (flags & CUDA_PIN_PAYS_SWITCHING) ? weight * (load * c.volts * c.volts)
                                                               : 0.0;
    int64_t width = flags & CUDA_PIN_GLITCHABLE
                        ? gw_glitch_width(sh, m, p, ev, same_pin & sh.lanes_ch, bin_heads, more,
                                          odd_after)
                        : -1;
    if (width < 0) {
        ev.e[POWER_INTERNAL] = e_int;
        ev.e[POWER_SWITCHING] = e_sw;
        return;
    }
    uint32_t pin = k.pin0 + ev.k;
    double r_gl =
        power_glitch_ratio((double)width, m.pin_slew_rise[pin] * 1e15, m.pin_slew_fall[pin] * 1e15);
    ev.e[POWER_GLITCH_INTERNAL] = e_int * r_gl;
    ev.e[POWER_GLITCH_SWITCHING] = e_sw * r_gl;
}

/* The leakage up to this lane's time where it opens a time: the part in
 * its cycle stays with it, the part in the cycle before goes to the lane
 * below (whose cycle it is), or for lane 0 straight to the carried cycle.
 * Adds the whole interval's energy to the lane's instance sum. */
template <bool SIPL, bool FIXED>
__device__ __forceinline__ void gw_leakage(gw_event &ev, gw_shared &sh, const gw_carry &c,
                                           const cuda_dev_model &m, const cuda_dev_plan &p,
                                           const cuda_dev_out &o, uint32_t time_heads)
{
    const gw_task &k = sh.task;
    uint32_t lane = threadIdx.x & 31;
    int64_t t_below = __shfl_up_sync(0xffffffffu, ev.t, 1);
    uint32_t bin_below = __shfl_up_sync(0xffffffffu, ev.bin, 1);
    double before = 0.0;
    if ((time_heads >> lane) & 1) {
        int64_t a = lane ? t_below : max(c.last_t, k.t_start);
        uint32_t ba = lane ? bin_below : c.last_bin;
        double watts = gw_watts<SIPL>(m, k, ev.s_cost);
        gw_leak<FIXED>(p, o, watts, a, ba, ev.t, ev.bin, ev.bin_start, &ev.e[POWER_LEAKAGE],
                       &before);
        sh.inst[POWER_LEAKAGE][lane] += watts * (double)(ev.t - a) * 1e-15;
    }
    double from_above = __shfl_down_sync(0xffffffffu, before, 1);
    if (lane < 31)
        ev.e[POWER_LEAKAGE] += from_above;
    if (lane == 0 && before != 0.0)
        gw_book<FIXED>(o, c.last_bin, POWER_LEAKAGE, before);
}

/* Sums each component over the lanes of each cycle (segmented, by
 * shuffles down: as many as the longest cycle's lanes need) and books them
 * from the cycle's first lane, which adds them to its instance sums. */
template <bool FIXED>
__device__ __forceinline__ void gw_book_bins(const gw_event &ev, gw_shared &sh,
                                             const cuda_dev_out &o, uint32_t bin_heads)
{
    uint32_t lane = threadIdx.x & 31;
    uint32_t next_bin = bin_heads & lanes_above(lane);
    uint32_t last = next_bin ? __ffs(next_bin) - 2 : 31; /* this cycle's last lane */
    bool head = (bin_heads >> lane) & 1;
    uint32_t longest = __reduce_max_sync(0xffffffffu, head ? last - lane + 1 : 0);
#pragma unroll
    for (int c = 0; c < POWER_COMPONENTS; c++) {
        double e = ev.e[c];
        if (!__any_sync(0xffffffffu, e != 0.0))
            continue;
#pragma unroll 1
        for (uint32_t d = 1; d < longest; d *= 2) {
            double above = __shfl_down_sync(0xffffffffu, e, d);
            if (lane + d <= last)
                e += above;
        }
        if (head && e != 0.0) {
            gw_book<FIXED>(o, ev.bin, c, e);
            if (c != POWER_LEAKAGE)
                sh.inst[c][lane] += e;
        }
    }
}

/* The carries for the next step: pin q's (lane q) value, next event, last
 * non-initial event, glitch parity; the task's state and times. */
__device__ __forceinline__ void gw_step_carry(gw_carry &c, gw_shared &sh, const gw_event &ev,
                                              bool odd_after)
{
    uint32_t lane = threadIdx.x & 31;
    bool pin_lane = lane < sh.task.n_pins;
    uint32_t mine_all = pin_lane ? sh.pin_all[lane] : 0;
    uint32_t mine_ni = mine_all & sh.lanes_ni, mine_ch = mine_all & sh.lanes_ch;
    int last = highest(__ballot_sync(0xffffffffu, ev.valid));
    uint8_t now = (uint8_t)__shfl_sync(0xffffffffu, ev.now, mine_all ? highest(mine_all) : lane);
    bool odd = __shfl_sync(0xffffffffu, odd_after, mine_ch ? highest(mine_ch) : lane);
    c.s = __shfl_sync(0xffffffffu, ev.s_after, last);
    c.s_cost = __shfl_sync(0xffffffffu, ev.s_cost, last);
    c.last_t = sh.lane_t[last];
    c.last_bin = __shfl_sync(0xffffffffu, ev.bin, last);
    if (!pin_lane)
        return;
    uint32_t bits = sh.pin_bits[lane];
    if (mine_all)
        bits = (bits & ~(uint32_t)PB_VALUE) | now | PB_HAS_PREV;
    if (mine_ni) {
        int at = highest(mine_ni);
        sh.pin_last_t[lane] = sh.lane_t[at];
        bits = (bits & ~(uint32_t)PB_LAST_RISE) | ((sh.lanes_rise >> at) & 1 ? PB_LAST_RISE : 0);
    }
    if (mine_ch) {
        sh.pin_change_t[lane] = sh.lane_t[highest(mine_ch)];
        bits = (bits & ~(uint32_t)PB_ODD) | (odd ? PB_ODD : 0);
    }
    sh.pin_bits[lane] = bits;
    sh.pin_next[lane] += __popc(mine_all);
    sh.pin_all[lane] = 0;
}

/* One step: entries [at, at + 32) of the task's stream, this lane's
 * loaded in the step before (*entry), the next step's loaded now. */
template <bool SIPL, bool FIXED>
__device__ __forceinline__ void gw_step(gw_carry &c, gw_shared &sh, const cuda_dev_model &m,
                                        const cuda_dev_plan &p, const cuda_dev_out &o,
                                        const cuda_dev_tasks &t, uint64_t at, uint64_t *entry,
                                        uint32_t *used)
{
    uint32_t lane = threadIdx.x & 31;
    gw_event ev;
    uint32_t same_pin = gw_read(ev, sh, p, at + lane, *entry);
    *entry = gw_entry(sh, t, at + 32 + lane);
    uint32_t time_heads = gw_states(ev, c);
    uint32_t bin_heads = gw_bins(ev, sh.task, p, sh.per_period);
    uint32_t flags = ev.valid ? sh.pin_flags[ev.k] : 0;
    bool costed = ev.change && !(flags & CUDA_PIN_SILENT);
    *used += ev.change;
    uint32_t ni = __ballot_sync(0xffffffffu, ev.valid && !ev.initial);
    uint32_t ch = __ballot_sync(0xffffffffu, costed && (flags & CUDA_PIN_GLITCHABLE));
    uint32_t rises = __ballot_sync(0xffffffffu, ev.rise);
    if (lane == 0)
        sh.lanes_ni = ni, sh.lanes_ch = ch, sh.lanes_rise = rises;
    __syncwarp();
#pragma unroll
    for (int i = 0; i < POWER_COMPONENTS; i++)
        ev.e[i] = 0.0;
    bool odd_after = false;
    if (costed)
        gw_cost<SIPL>(ev, sh, m, p, flags, same_pin, bin_heads, at + 32 < sh.task.n_ev,
                      &odd_after);
    gw_leakage<SIPL, FIXED>(ev, sh, c, m, p, o, time_heads);
    gw_book_bins<FIXED>(ev, sh, o, bin_heads);
    __syncwarp();
    gw_step_carry(c, sh, ev, odd_after);
    __syncwarp();
}

/* The leakage from the last event to the task's end (lane 0). */
template <bool SIPL, bool FIXED>
__device__ __forceinline__ void gw_close(const gw_carry &c, gw_shared &sh,
                                         const cuda_dev_model &m, const cuda_dev_plan &p,
                                         const cuda_dev_out &o)
{
    const gw_task &k = sh.task;
    if ((threadIdx.x & 31) != 0)
        return;
    int64_t from = max(c.last_t, k.t_start);
    uint32_t bt = (uint32_t)((k.t_end - p.t0) / p.period);
    int64_t bt_start = p.t0 + (int64_t)bt * p.period;
    double watts = gw_watts<SIPL>(m, k, c.s), own = 0.0, before = 0.0;
    gw_leak<FIXED>(p, o, watts, from, c.last_bin, k.t_end, bt, bt_start, &own, &before);
    sh.inst[POWER_LEAKAGE][0] += watts * (double)(k.t_end - from) * 1e-15;
    if (before != 0.0)
        gw_book<FIXED>(o, c.last_bin, POWER_LEAKAGE, before);
    if (own != 0.0)
        gw_book<FIXED>(o, bt, POWER_LEAKAGE, own);
}

/* The gate warp kernel: each warp takes tasks from the kernel's cursor,
 * epoch-major (the warps at work at one time book into the same cycles). */
template <bool SIPL, bool FIXED>
__global__ void __launch_bounds__(GW_BLOCK, GW_MIN_BLOCKS)
gate_warp_kernel(const __grid_constant__ cuda_dev_model m, const __grid_constant__ cuda_dev_plan p,
                 const __grid_constant__ cuda_dev_out o, const __grid_constant__ cuda_dev_tasks t,
                 uint64_t n_tasks)
{
    __shared__ gw_shared warps[GW_BLOCK / 32];
    gw_shared &sh = warps[threadIdx.x / 32];
    uint32_t lane = threadIdx.x & 31, used = 0;
    sh.per_period = 1.0 / (double)p.period;
#pragma unroll
    for (int i = 0; i < POWER_COMPONENTS; i++)
        sh.inst[i][lane] = 0.0;
    for (;;) {
        unsigned long long task = lane == 0 ? atomicAdd(t.cursor, 1ull) : 0;
        task = __shfl_sync(0xffffffffu, task, 0);
        if (task >= n_tasks)
            break;
        uint32_t epoch = (uint32_t)(task / m.n_insts), inst = (uint32_t)(task % m.n_insts);
        gw_carry c = gw_open(sh, m, p, t, inst, epoch);
        uint64_t entry = gw_entry(sh, t, lane);
        for (uint64_t at = 0; at < sh.task.n_ev; at += 32)
            gw_step<SIPL, FIXED>(c, sh, m, p, o, t, at, &entry, &used);
        gw_close<SIPL, FIXED>(c, sh, m, p, o);
        __syncwarp();
#pragma unroll
        for (int i = 0; i < POWER_COMPONENTS; i++) {
            double e = warp_sum(sh.inst[i][lane]);
            sh.inst[i][lane] = 0.0;
            if (lane == 0 && e != 0.0)
                add_sum<FIXED>(o.inst, o.fixed_inst, (size_t)inst * POWER_COMPONENTS + i, e);
        }
    }
    add_count(o.events_used, used);
}

/* ---- launches ----------------------------------------------------------------------------- */

/* Pin p's entries in its gate's stream: its net's events (the session's). */
__global__ void gate_counts_kernel(const __grid_constant__ cuda_dev_model m, uint64_t *gs_pin0)
{
    uint32_t pin = blockIdx.x * blockDim.x + threadIdx.x;
    if (pin > m.n_pins)
        return;
    uint32_t net = pin < m.n_pins ? m.pin_net[pin] : DESIGN_NONE;
    gs_pin0[pin] = net == DESIGN_NONE ? 0 : m.net_ev0[net + 1] - m.net_ev0[net];
}

cudaError_t cuda_kernels_gate_offsets(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                      uint64_t *total, cudaStream_t stream)
{
    gate_counts_kernel<<<(m.n_pins + 1 + GS_BLOCK - 1) / GS_BLOCK, GS_BLOCK, 0, stream>>>(m,
                                                                                  t.gs_pin0);
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? cuda_kernels_scan(t, t.gs_pin0, m.n_pins, total, stream) : err;
}

cudaError_t cuda_kernels_gate_streams(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                      cudaStream_t stream)
{
    uint64_t blocks = ((uint64_t)m.n_insts * 32 + GS_BLOCK - 1) / GS_BLOCK;
    size_t smem = (size_t)GS_BLOCK / 32 * (m.max_pins ? m.max_pins : 1) * 32 * 8;
    cudaError_t err = cudaFuncSetAttribute(gate_stream_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err == cudaSuccess && blocks > 0)
        gate_stream_kernel<<<(unsigned)blocks, GS_BLOCK, smem, stream>>>(m, t.gs_pin0, t.gs);
    return err == cudaSuccess ? cudaGetLastError() : err;
}

static const void *gate_warp_fn(bool sipl, bool fixed)
{
    static const void *const fns[4] = {
        (const void *)gate_warp_kernel<false, false>, (const void *)gate_warp_kernel<false, true>,
        (const void *)gate_warp_kernel<true, false>, (const void *)gate_warp_kernel<true, true>};
    return fns[2 * sipl + fixed];
}

cudaError_t cuda_kernels_gate_warp(const cuda_dev_model &m, const cuda_dev_plan &p,
                                   const cuda_dev_out &out, const cuda_dev_tasks &t,
                                   uint64_t n_tasks, bool sipl, cudaStream_t stream)
{
    const void *fn = gate_warp_fn(sipl, out.fixed);
    unsigned grid = 1, warps = GW_BLOCK / 32;
    cudaError_t err =
        cuda_kernels_resident_blocks(fn, GW_BLOCK, 0, (n_tasks + warps - 1) / warps, &grid);
    void *args[] = {(void *)&m, (void *)&p, (void *)&out, (void *)&t, &n_tasks};
    if (err == cudaSuccess)
        err = cudaMemsetAsync(t.cursor, 0, sizeof *t.cursor, stream);
    if (err == cudaSuccess)
        err = cudaLaunchKernel(fn, dim3(grid), dim3(GW_BLOCK), args, 0, stream);
    if (err == cudaSuccess)
        err = cuda_kernels_levels(p, out, stream);
    return err;
}

int cuda_kernels_gate_warp_report(bool sipl, bool fixed, cuda_kernel_report *out)
{
    return cuda_kernels_report(gate_warp_fn(sipl, fixed), "gate-warp", GW_BLOCK, 0, out);
}
