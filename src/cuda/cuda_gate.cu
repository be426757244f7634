/* cuda_gate.cu: the warp-per-gate power kernel (the "warp" switch,
 * cuda_power.h) and the gate streams it reads.
 *
 *   gate stream kernel   once a session: each gate's pins' events merged in
 *                        the order the reference applies them (by time,
 *                        then pin, then the net's order), one 8-byte entry
 *                        an event: time << 7 | pin << 2 | value.  A gate's
 *                        stream is cut by time into chunks of about
 *                        GS_CHUNK_ENTRIES (at its busiest pin's events), a
 *                        warp a chunk, which merges 32 entries a step: each
 *                        pin's next 32 events in shared memory, each ranked
 *                        among the others by binary search.
 *   gate warp kernel     a warp a task (gate, epoch), each lane a 32nd of
 *                        the task's stream, moved to start at a cycle's
 *                        start: a lane's cycles are its own, and with them
 *                        what the reference pairs or compares within a
 *                        cycle (the events at one time, glitch pairs, the
 *                        related pin's last event).  The pins' values at a
 *                        lane's start come from a scan of the lanes below's
 *                        "set pins to" masks; then each lane walks its
 *                        events as the reference does, summing a cycle in
 *                        registers and booking it (global atomics) when
 *                        the next begins.  A task first copies what fits
 *                        of its cell's tables (energies in every state,
 *                        related-pin candidates and their delays) to
 *                        shared memory.
 *
 * The lanes all walk one cell's events, where the walk kernel's
 * (cuda_walk.cu) each walked their own gate: fewer of them take
 * different branches, and a gate stream is read in order, where the walk
 * merged its gate's pins' events itself. */
#include "cuda/cuda_rules.cuh"

/* ---- gate streams -------------------------------------------------------------------- */

enum { GS_PIN_SHIFT = 2, GS_TIME_SHIFT = 7 };
#define GS_BLOCK 128
/* A gate stream's entries a warp merges, about (a chunk of its time): long
 * streams (a register's clock pin over many cycles) go on many warps. */
#define GS_CHUNK_ENTRIES 4096
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

/* The time chunk c of a gate's `chunks` starts at (INT64_MIN for the
 * first, INT64_MAX past the last): its busiest pin's event c / chunks of
 * the way along (lead_at, lead_n: that pin's events in ev). */
__device__ __forceinline__ int64_t chunk_start(const int64_t *ev, uint64_t lead_at,
                                               uint64_t lead_n, uint64_t c, uint64_t chunks)
{
    return c == 0 ? INT64_MIN : c >= chunks ? INT64_MAX : ev_time(ev[lead_at + c * lead_n / chunks]);
}

/* One warp a chunk of a gate's stream: the events of its pins in a span of
 * time, which go where the events before the span end; each step puts the
 * next 32 entries in place.  Each pin's next 32 events hold all of them;
 * an event's place is its position in its pin's list plus the events of
 * the other pins' lists that come before it (keys differ in the pin, so
 * none is equal). */
__global__ void __launch_bounds__(GS_BLOCK)
gate_stream_kernel(const __grid_constant__ cuda_dev_model m, const uint64_t *gs_pin0,
                   const uint64_t *chunk0, uint64_t n_chunks, uint64_t *gs)
{
    extern __shared__ uint64_t gs_lists[];
    uint32_t lane = threadIdx.x & 31;
    uint64_t *lists = gs_lists + (size_t)(threadIdx.x / 32) * m.max_pins * 32;
    uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (w >= n_chunks)
        return;
    uint32_t g = power_last_at_or_below(chunk0, m.n_insts, w); /* chunk0[g] <= w < chunk0[g + 1] */
    uint32_t pin0 = m.inst_pin0[g], n = m.inst_pin0[g + 1] - pin0;
    uint64_t begin = 0, end = 0; /* lane q: pin q's net's events */
    uint32_t net = lane < n ? m.pin_net[pin0 + lane] : DESIGN_NONE;
    if (net != DESIGN_NONE && !(m.pin_flags[pin0 + lane] & POWER_PIN_BULK))
        begin = m.net_begin[net], end = m.net_end[net];
    uint32_t most = __reduce_max_sync(0xffffffffu, (uint32_t)(end - begin));
    uint32_t lead = __ffs(__ballot_sync(0xffffffffu, end - begin == most)) - 1;
    uint64_t lead_at = __shfl_sync(0xffffffffu, begin, lead);
    uint64_t c = w - chunk0[g], chunks = chunk0[g + 1] - chunk0[g];
    /* lane q: pin q's next event in the chunk, and where its events in it end */
    uint64_t cur = first_at_or_after(m.ev, begin, end, chunk_start(m.ev, lead_at, most, c, chunks));
    end = first_at_or_after(m.ev, cur, end, chunk_start(m.ev, lead_at, most, c + 1, chunks));
    uint64_t out = gs_pin0[pin0] + warp_sum(cur - begin);
    for (uint64_t out_end = out + warp_sum(end - cur); out < out_end;) {
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
 * the registers the compiler may use, traded against the warps an SM
 * keeps (docs/performance.md, "Tuning the kernels"). */
#define GW_BLOCK 128
#define GW_MIN_BLOCKS 5

/* The task a warp works on (in shared memory), and its pins at its start:
 * at 1 (the state), at X, with an event of their net before it. */
struct gw_task {
    uint32_t pin0, n_pins, arc0, leak0;
    const power_model_cell *cell;
    const double *memo;
    uint32_t c0;              /* the task's first cycle */
    int64_t t_start, t_end;   /* [start of cycle c0, end of the task) */
    uint64_t first, n_ev;     /* its entries in the gate stream */
    uint32_t s1, sx, hp;
    bool energies, cands;     /* gw_shared holds the cell's tables of these */
};

/* What a task copies of its cell and instance to shared memory, where it
 * fits: its energies in every state (dense SIPL cells of up to
 * GW_TABLE_PINS pins with a memo, up to GW_TABLE_WORDS of them), its
 * related-pin candidates with the instance's arc delays (up to GW_CANDS). */
#define GW_TABLE_PINS 4
#define GW_TABLE_WORDS 256
#define GW_CANDS 16

/* The related-pin search's loop unrolled twice: most outputs have 1 to 3
 * candidates. */
#define GW_RELATED_UNROLL 2

/* A warp's shared memory: its task and the tables it made, its pins'
 * flags, the lanes' shares of the task's instance sums. */
struct gw_shared {
    gw_task task;
    double per_period;        /* 1 / the period */
    uint8_t pin_flags[CUDA_MAX_PINS];
    double inst[POWER_COMPONENTS][32];
    double energies[GW_TABLE_WORDS]; /* power_energy of the cell for key k, state s,
                                        direction and slew direction at
                                        4 ((k << n_pins) + s) + 2 rise + slew_rise */
    int8_t keys[GW_TABLE_PINS * (GW_TABLE_PINS + 1)]; /* the cell's keys, pin-major */
    uint8_t cand0[CUDA_MAX_PINS + 1]; /* pin q's candidates: cand_pin[cand0[q] .. cand0[q + 1]) */
    uint8_t cand_pin[GW_CANDS];
    double cand_delay[GW_CANDS][2];   /* the arc's delay by the output's fall, rise */
};

/* A lane's per-pin memory, GW_PIN_WORDS words a pin in dynamic shared
 * memory (word f of pin q of lane l at (q * GW_PIN_WORDS + f) * 32 + l of
 * the warp's: lanes do not conflict): the last non-initial event (time <<
 * 1 | rise); the costed change that opened a glitch pair: its time, its
 * internal and switching energy. */
enum { GW_NI, GW_OPEN_T, GW_OPEN_INT, GW_OPEN_SW, GW_PIN_WORDS };
extern __shared__ int64_t gw_pin_words[];

struct gw_pins {
    uint32_t base;            /* the lane's first word in gw_pin_words */
    __device__ __forceinline__ int64_t &at(uint32_t q, int f) const
    {
        return gw_pin_words[base + (q * GW_PIN_WORDS + f) * 32];
    }
    __device__ __forceinline__ double energy(uint32_t q, int f) const
    {
        return __longlong_as_double(at(q, f));
    }
    __device__ __forceinline__ void set_energy(uint32_t q, int f, double e) const
    {
        at(q, f) = __double_as_longlong(e);
    }
};

/* What a lane carries along its events. */
struct gw_walker {
    uint32_t s1, sx, hp;      /* pins at 1 (the state), at X, with an event before */
    uint32_t s_cost;          /* the state before the current time */
    uint32_t odd;             /* glitchable pins with an odd count of costed changes in the cycle */
    uint32_t bin;             /* the current cycle */
    int64_t bin_start, last_t;/* its start; the last event's time (leakage is booked up to it) */
    double acc[POWER_LEAKAGE + 1]; /* the cycle's energies so far (glitch pairs are booked
                                      when their second change comes) */
};

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
        *own += power_leak_energy(watts, a, t);
        return;
    }
    *before += power_leak_energy(watts, a, p.t0 + (int64_t)(ba + 1) * p.period);
    *own += power_leak_energy(watts, bt_start, t);
    if (bt > ba + 1 && watts != 0.0) {
        add_level<FIXED>(o, ba + 1, watts);
        add_level<FIXED>(o, bt, -watts);
    }
}

/* The task's cell's leakage power in state s. */
template <bool SIPL>
__device__ __forceinline__ double gw_watts(const cuda_dev_model &m, const gw_task &k, uint32_t s)
{
    __builtin_assume(__isGlobal(k.cell)); /* see gw_cost */
    return power_leakage(&m, k.cell, k.leak0, s, SIPL);
}

__device__ __forceinline__ uint32_t lanes_above(uint32_t lane)
{
    return lane == 31 ? 0 : ~0u << (lane + 1);
}

/* The cycle of time t of the task (from its first, without a division),
 * and its start. */
__device__ __forceinline__ uint32_t gw_cycle(const gw_shared &sh, const cuda_dev_plan &p, int64_t t,
                                             int64_t *start)
{
    const gw_task &k = sh.task;
    int64_t dt = t - k.t_start;
    int64_t r = (int64_t)((double)dt * sh.per_period);
    r -= r * p.period > dt;
    r += (r + 1) * p.period <= dt;
    *start = k.t_start + r * p.period;
    return k.c0 + (uint32_t)r;
}

/* Opens the task of gate inst in epoch `epoch` (lane 0 writes sh.task).
 * Lane q < n_pins sets up pin q: its next event at the epoch's start (the
 * epoch index), its value before, the events before the epoch (the
 * stream's entries to skip). */
__device__ __forceinline__ void gw_open(gw_shared &sh, const cuda_dev_model &m,
                                        const cuda_dev_plan &p, const cuda_dev_tasks &t,
                                        uint32_t inst, uint32_t epoch)
{
    uint32_t lane = threadIdx.x & 31;
    gw_task k;
    k.pin0 = m.inst_pin0[inst];
    k.n_pins = m.inst_pin0[inst + 1] - k.pin0;
    k.arc0 = m.inst_arc0[inst];
    k.cell = &m.cells[m.inst_cell[inst]];
    k.leak0 = power_leakage_table(k.cell);
    k.memo = t.memo ? t.memo + m.inst_memo0[inst] : NULL;
    k.c0 = epoch * t.epoch_cycles;
    uint32_t c1 = min(p.n_cycles, k.c0 + t.epoch_cycles);
    k.t_start = p.t0 + (int64_t)k.c0 * p.period;
    k.t_end = c1 == p.n_cycles ? p.t1 : p.t0 + (int64_t)c1 * p.period;
    uint32_t net = lane < k.n_pins ? m.pin_net[k.pin0 + lane] : DESIGN_NONE;
    uint64_t skip = 0, take = 0, next = 0;
    uint8_t value = EVENTS_X;
    if (net != DESIGN_NONE && !(m.pin_flags[k.pin0 + lane] & POWER_PIN_BULK)) {
        const uint32_t *row = t.epoch_first + (size_t)net * t.n_epochs;
        uint64_t lo = t.net_first[net];
        next = lo + row[epoch];
        uint64_t stop = epoch + 1 < t.n_epochs ? lo + row[epoch + 1] : lo + t.net_count[net];
        skip = next - m.net_begin[net], take = stop - next;
        value = value_before_event(m, net, next);
    }
    if (lane < k.n_pins)
        sh.pin_flags[lane] = m.pin_flags[k.pin0 + lane];
    k.first = t.gs_pin0[k.pin0] + warp_sum(skip);
    k.n_ev = warp_sum(take);
    bool pin = lane < k.n_pins;
    k.s1 = __ballot_sync(0xffffffffu, pin && value == 1);
    k.sx = __ballot_sync(0xffffffffu, pin && value == EVENTS_X);
    k.hp = __ballot_sync(0xffffffffu, net != DESIGN_NONE && next > m.net_begin[net]);
    if (lane == 0)
        sh.task = k;
    __syncwarp();
}

/* The cell's energies in every state, where it is dense (SIPL), has a
 * memo and fits: each lane sums the groups of some entries as power_energy
 * does (same order: the same bits). */
template <bool SIPL>
__device__ __forceinline__ void gw_open_energies(gw_shared &sh, const cuda_dev_model &m)
{
    const gw_task &k = sh.task;
    const power_model_cell &c = *k.cell;
    uint32_t lane = threadIdx.x & 31, n = k.n_pins, slots = n * (n + 1);
    bool fits = SIPL && c.dense && k.memo && c.n_pins == n && n <= GW_TABLE_PINS;
    int32_t key = fits && lane < slots ? m.keys[c.key0 + lane] : -1;
    uint32_t words = (uint32_t)__reduce_max_sync(0xffffffffu, key + 1) << n << 2;
    fits = fits && words <= GW_TABLE_WORDS;
    if (fits && lane < slots)
        sh.keys[lane] = (int8_t)key;
    for (uint32_t e = lane; fits && e < words; e += 32) {
        size_t at = c.sel0_base + (e >> 2);
        double sum = 0.0;
#pragma unroll 1
        for (uint32_t i = m.sel0[at]; i < m.sel0[at + 1]; i++)
            sum += k.memo[power_memo_slot(&c, m.sel[i], e & 3)];
        sh.energies[e] = sum;
    }
    __syncwarp();
    if (lane == 0)
        sh.task.energies = fits;
    __syncwarp();
}

/* The cell's related-pin candidates, where they fit: lane i the i-th. */
__device__ __forceinline__ void gw_open_cands(gw_shared &sh, const cuda_dev_model &m)
{
    const gw_task &k = sh.task;
    const power_model_cell &c = *k.cell;
    uint32_t lane = threadIdx.x & 31, n = k.n_pins;
    uint32_t lo = m.cand0[c.cand0_base], hi = m.cand0[c.cand0_base + n];
    bool fits = hi - lo <= GW_CANDS && n < 32;
    if (fits && lane <= n)
        sh.cand0[lane] = (uint8_t)(m.cand0[c.cand0_base + lane] - lo);
    if (fits && lane < hi - lo) {
        sh.cand_pin[lane] = (uint8_t)m.cand[lo + lane];
        sh.cand_delay[lane][0] = power_arc_delay(&m, k.arc0, m.cand_arc[lo + lane], false);
        sh.cand_delay[lane][1] = power_arc_delay(&m, k.arc0, m.cand_arc[lo + lane], true);
    }
    __syncwarp();
    if (lane == 0)
        sh.task.cands = fits;
    __syncwarp();
}

/* How many entries gw_split tests a round (the stream is sorted: those
 * before the end come first), and how many loads of the start state's pass
 * are in flight at once: the rounds wait on the memory, not the tests. */
enum { GW_SPLIT_LOADS = 4, GW_START_UNROLL = 16 };

/* This lane's share of the task's stream: [*from, *to), from about its
 * 32nd part's start moved up to the start of a cycle, so that the lanes'
 * cycles (and the times, glitch pairs and related events in them) are
 * each a lane's own. */
__device__ __forceinline__ void gw_split(const gw_shared &sh, const cuda_dev_plan &p,
                                         const uint64_t *gs, uint64_t *from, uint64_t *to)
{
    uint32_t lane = threadIdx.x & 31;
    uint64_t n = sh.task.n_ev, i = min(n, lane * ((n + 31) / 32));
    if (lane > 0 && i < n) {
        int64_t end;
        gw_cycle(sh, p, gs_time(gs[i - 1]), &end);
        end += p.period;
        for (bool more = true; more && i < n;) { /* GW_SPLIT_LOADS entries a round of loads */
            uint32_t earlier = 0;
#pragma unroll
            for (uint32_t j = 0; j < GW_SPLIT_LOADS; j++)
                earlier += i + j < n && gs_time(gs[i + j]) < end;
            more = earlier == GW_SPLIT_LOADS;
            i += earlier;
        }
    }
    uint64_t next = __shfl_down_sync(0xffffffffu, i, 1);
    *from = i;
    *to = lane == 31 ? n : next;
}

/* The pins at this lane's start: the events of the lanes below applied to
 * the task's start (an exclusive scan of "set pins `set`, those in `to1`
 * to 1 and those in `tox` to X"). */
__device__ __forceinline__ void gw_start_state(gw_walker &w, const gw_task &k, const uint64_t *gs,
                                               uint64_t from, uint64_t to)
{
    uint32_t lane = threadIdx.x & 31, set = 0, to1 = 0, tox = 0;
#pragma unroll GW_START_UNROLL
    for (uint64_t i = from; i < to; i++) {
        uint64_t x = gs[i];
        uint32_t bit = 1u << gs_pin(x);
        uint8_t v = gs_value(x);
        set |= bit;
        to1 = v == 1 ? to1 | bit : to1 & ~bit;
        tox = v == EVENTS_X ? tox | bit : tox & ~bit;
    }
#pragma unroll
    for (uint32_t d = 1; d < 32; d *= 2) {
        uint32_t set_up = __shfl_up_sync(0xffffffffu, set, d);
        uint32_t to1_up = __shfl_up_sync(0xffffffffu, to1, d);
        uint32_t tox_up = __shfl_up_sync(0xffffffffu, tox, d);
        if (lane >= d)
            to1 |= to1_up & ~set, tox |= tox_up & ~set, set |= set_up;
    }
    set = __shfl_up_sync(0xffffffffu, set, 1);
    to1 = __shfl_up_sync(0xffffffffu, to1, 1);
    tox = __shfl_up_sync(0xffffffffu, tox, 1);
    if (lane == 0)
        set = to1 = tox = 0;
    w.s1 = (k.s1 & ~set) | to1;
    w.sx = (k.sx & ~set) | tox;
    w.hp = k.hp | set;
}

/* Books the lane's cycle and adds it to the lane's instance sums (but
 * leakage, summed there by interval). */
template <bool FIXED>
__device__ __forceinline__ void gw_flush(gw_walker &w, gw_shared &sh, const cuda_dev_out &o)
{
    uint32_t lane = threadIdx.x & 31;
#pragma unroll
    for (int c = 0; c <= POWER_LEAKAGE; c++) {
        double &e = w.acc[c];
        if (e != 0.0) {
            if (c != POWER_LEAKAGE)
                sh.inst[c][lane] += e;
            gw_book<FIXED>(o, w.bin, c, e);
            e = 0.0;
        }
    }
}

/* Leakage `watts` from the last time to t, in cycle bt starting at
 * bt_start: a later cycle than the lane's is booked and opened. */
template <bool FIXED>
__device__ __forceinline__ void gw_leak_to(gw_walker &w, gw_shared &sh, const cuda_dev_plan &p,
                                           const cuda_dev_out &o, double watts, int64_t t,
                                           uint32_t bt, int64_t bt_start)
{
    double own = 0.0;
    gw_leak<FIXED>(p, o, watts, w.last_t, w.bin, t, bt, bt_start, &own, &w.acc[POWER_LEAKAGE]);
    sh.inst[POWER_LEAKAGE][threadIdx.x & 31] += power_leak_energy(watts, w.last_t, t);
    if (bt != w.bin) {
        gw_flush<FIXED>(w, sh, o);
        w.bin = bt, w.bin_start = bt_start, w.odd = 0;
    }
    w.acc[POWER_LEAKAGE] += own;
    w.last_t = t;
}

/* A task's related-pin candidates in shared memory (gw_open_cands), and
 * a lane's pins' last events, for related_pin: from the lane's memory, or
 * for a bulk pin, searched in its net's events. */
struct gw_shared_cands {
    const gw_shared &sh;
    __device__ __forceinline__ uint32_t pin(uint32_t i) const { return sh.cand_pin[i]; }
    __device__ __forceinline__ double delay(uint32_t i, bool rise) const
    {
        return sh.cand_delay[i][rise];
    }
};
struct gw_last {
    const gw_pins &pins;
    const gw_shared &sh;
    const cuda_dev_model &m;
    int64_t t, dump_start;    /* the output's change being costed */
    __device__ __forceinline__ int64_t time(uint32_t r) const
    {
        bool rise;
        return sh.pin_flags[r] & POWER_PIN_BULK ? bulk(r, &rise) : pins.at(r, GW_NI) >> 1;
    }
    __device__ __forceinline__ bool rise(uint32_t r) const
    {
        bool rise = pins.at(r, GW_NI) & 1;
        if (sh.pin_flags[r] & POWER_PIN_BULK)
            bulk(r, &rise);
        return rise;
    }
    /* A bulk pin's last event (it is not in the stream): its net's last at
     * or before t (an input's events at t come before an output's). */
    __device__ int64_t bulk(uint32_t r, bool *rise) const
    {
        uint32_t net = m.pin_net[sh.task.pin0 + r];
        uint64_t begin = m.net_begin[net], e = first_after(m.ev, begin, m.net_end[net], t);
        if (e == begin)
            return -1;
        int64_t at = ev_time(m.ev[--e]);
        return power_bulk_last(value_before_event(m, net, e), ev_value(m.ev[e]), at, e == begin,
                               dump_start, rise)
                   ? at
                   : -1;
    }
};

/* Books this costed change (at t) of pin q: e_int and e_sw to the cycle,
 * or, for a glitchable pin (power_ref.c flush_pin: the 1st and 2nd, 3rd
 * and 4th... changes of the pin in a cycle pair up), the second of a pair
 * as glitch energy (booked at once, to the instance and the result), with
 * its first, which was added to the cycle as a change and is taken out of
 * it (the pair's width known only now). */
template <bool FIXED>
__device__ __forceinline__ void gw_book_change(gw_walker &w, gw_shared &sh, const gw_pins &pins,
                                               const cuda_dev_model &m, const cuda_dev_out &o,
                                               uint32_t pin, uint32_t q, bool glitchable,
                                               int64_t t, double e_int, double e_sw)
{
    uint32_t bit = glitchable ? 1u << q : 0;
    w.odd ^= bit;
    if (!glitchable || (w.odd & bit)) {
        w.acc[POWER_INTERNAL] += e_int;
        w.acc[POWER_SWITCHING] += e_sw;
        if (glitchable) {
            pins.at(q, GW_OPEN_T) = t;
            pins.set_energy(q, GW_OPEN_INT, e_int);
            pins.set_energy(q, GW_OPEN_SW, e_sw);
        }
        return;
    }
    double first_int = pins.energy(q, GW_OPEN_INT), first_sw = pins.energy(q, GW_OPEN_SW);
    double r_gl = power_pin_glitch_ratio(&m, pin, (double)(t - pins.at(q, GW_OPEN_T)));
    w.acc[POWER_INTERNAL] -= first_int;
    w.acc[POWER_SWITCHING] -= first_sw;
    uint32_t lane = threadIdx.x & 31;
    double g_int = (first_int + e_int) * r_gl, g_sw = (first_sw + e_sw) * r_gl;
    sh.inst[POWER_GLITCH_INTERNAL][lane] += g_int;
    sh.inst[POWER_GLITCH_SWITCHING][lane] += g_sw;
    if (g_int != 0.0)
        gw_book<FIXED>(o, w.bin, POWER_GLITCH_INTERNAL, g_int);
    if (g_sw != 0.0)
        gw_book<FIXED>(o, w.bin, POWER_GLITCH_SWITCHING, g_sw);
}

/* power_energy from the task's table (gw_open_energies). */
__device__ __forceinline__ double gw_table_energy(const gw_shared &sh, uint32_t q, int32_t related,
                                                  uint32_t s, bool rise, bool slew_rise)
{
    uint32_t n = sh.task.n_pins;
    int32_t key = sh.keys[q * (n + 1) + (related < 0 ? n : (uint32_t)related)];
    return key < 0 ? 0.0 : sh.energies[(((uint32_t)key << n) + s) * 4 + 2 * rise + slew_rise];
}

/* power_cpu.c cost_event for this lane's change of pin q (costed: not
 * silent), in the state before its time: its internal and switching
 * energy, booked.  The internal energy is power_change_energy's, with the
 * task's table where it has one (a path of its own: inside that function
 * it made the kernel larger, and lanes wait for each other's
 * instructions). */
template <bool SIPL, bool FIXED>
__device__ __forceinline__ void gw_cost(gw_walker &w, gw_shared &sh, const gw_pins &pins,
                                        const cuda_dev_model &m, const cuda_dev_out &o,
                                        uint32_t q, uint8_t old, uint8_t now, int64_t t,
                                        uint32_t flags, int64_t dump_start)
{
    const gw_task &k = sh.task;
    const power_model_cell &c = *k.cell;
    /* The task's pointers come back from shared memory without their
     * address space: telling the compiler they point to global memory makes
     * their loads global ones instead of generic ones. */
    __builtin_assume(__isGlobal(k.cell));
    __builtin_assume(!k.memo || __isGlobal(k.memo));
    bool rise = power_is_rise(old, now), drives = flags & POWER_PIN_DRIVES, r_rise = false;
    uint32_t c0 = 0, c1 = 0;
    int32_t related;
    gw_last last{pins, sh, m, t, dump_start};
    if (k.cands) {
        c0 = drives ? sh.cand0[q] : 0, c1 = drives ? sh.cand0[q + 1] : 0;
        related = related_pin<GW_RELATED_UNROLL>(gw_shared_cands{sh}, last, t, w.bin_start,
                                                 rise, c0, c1, &r_rise);
    } else {
        c0 = drives ? m.cand0[c.cand0_base + q] : 0;
        c1 = drives ? m.cand0[c.cand0_base + q + 1] : 0;
        related = related_pin<GW_RELATED_UNROLL>(model_cands{m, k.arc0}, last, t, w.bin_start,
                                                 rise, c0, c1, &r_rise);
    }
    double load = drives ? m.pin_load[k.pin0 + q] : 0.0, weight = power_weight(old, now);
    double e_int;
    if (related < 0 && c1 > c0)
        e_int = power_unrelated_energy(&m, &c, k.memo, k.pin0, q, w.s_cost, rise, load, SIPL);
    else if (k.energies)
        e_int = gw_table_energy(sh, q, related, w.s_cost, rise, related >= 0 ? r_rise : rise);
    else
        e_int = power_energy(
            &m, &c, q, related, w.s_cost, rise, SIPL,
            power_source(k.memo, k.pin0, q, related, related >= 0 ? r_rise : rise, load));
    e_int *= weight;
    double e_sw = power_switching_energy(&c, flags, load, old, now);
    gw_book_change<FIXED>(w, sh, pins, m, o, k.pin0 + q, q, flags & POWER_PIN_GLITCHABLE, t,
                          e_int, e_sw);
}

/* Entry x of this lane's stream (at t): a new time books the
 * leakage up to it (in the state before it, which its events are costed
 * in); the event is costed, then applied. */
template <bool SIPL, bool FIXED>
__device__ __forceinline__ void gw_event(gw_walker &w, gw_shared &sh, const gw_pins &pins,
                                         const cuda_dev_model &m, const cuda_dev_plan &p,
                                         const cuda_dev_out &o, uint64_t x, uint32_t *used)
{
    int64_t t = gs_time(x);
    uint32_t q = gs_pin(x), bit = 1u << q;
    uint8_t now = gs_value(x);
    if (t != w.last_t) {
        double watts = gw_watts<SIPL>(m, sh.task, w.s1);
        int64_t bt_start;
        uint32_t bt = gw_cycle(sh, p, t, &bt_start);
        gw_leak_to<FIXED>(w, sh, p, o, watts, t, bt, bt_start);
        w.s_cost = w.s1;
    }
    uint8_t old = w.s1 & bit ? 1 : w.sx & bit ? EVENTS_X : 0;
    bool initial = !(w.hp & bit) && power_may_be_initial(old, t, p.dump_start);
    bool change = !initial && old != now;
    uint32_t flags = sh.pin_flags[q];
    if (change && !(flags & POWER_PIN_SILENT))
        gw_cost<SIPL, FIXED>(w, sh, pins, m, o, q, old, now, t, flags, p.dump_start);
    *used += change;
    if (!initial)
        pins.at(q, GW_NI) = t << 1 | power_is_rise(old, now);
    w.s1 = now == 1 ? w.s1 | bit : w.s1 & ~bit;
    w.sx = now == EVENTS_X ? w.sx | bit : w.sx & ~bit;
    w.hp |= bit;
}

/* The task: each lane walks its share of the stream from its start (the
 * task's, or its first event's cycle's) to the next walking lane's start
 * (or the task's end), leakage included. */
template <bool SIPL, bool FIXED>
__device__ __forceinline__ void gw_task_walk(gw_shared &sh, const gw_pins &pins,
                                             const cuda_dev_model &m, const cuda_dev_plan &p,
                                             const cuda_dev_out &o, const cuda_dev_tasks &t,
                                             uint32_t *used)
{
    const gw_task &k = sh.task;
    uint32_t lane = threadIdx.x & 31;
    const uint64_t *gs = t.gs + k.first;
    uint64_t from, to;
    gw_split(sh, p, gs, &from, &to);
    gw_walker w;
    gw_start_state(w, k, gs, from, to);
    int64_t start = k.t_start, end_start;
    uint32_t bin = k.c0;
    if (lane > 0 && from < to)
        bin = gw_cycle(sh, p, gs_time(gs[from]), &start);
    uint32_t walkers = __ballot_sync(0xffffffffu, lane == 0 || from < to);
    uint32_t above = walkers & lanes_above(lane);
    int next = above ? __ffs(above) - 1 : lane;
    int64_t end = __shfl_sync(0xffffffffu, start, next);
    uint32_t end_bin = __shfl_sync(0xffffffffu, bin, next);
    if (!((walkers >> lane) & 1))
        return;
    if (!above) {
        end = k.t_end;
        end_bin = (uint32_t)((k.t_end - p.t0) / p.period);
    }
    end_start = p.t0 + (int64_t)end_bin * p.period;
    for (uint32_t q = 0; q < k.n_pins; q++)
        pins.at(q, GW_NI) = -1;
    w.s_cost = w.s1, w.odd = 0, w.bin = bin, w.bin_start = start, w.last_t = start;
#pragma unroll
    for (int c = 0; c <= POWER_LEAKAGE; c++)
        w.acc[c] = 0.0;
    uint64_t x = from < to ? gs[from] : 0; /* loaded an entry ahead: a step to arrive */
#pragma unroll 1
    for (uint64_t i = from; i < to; i++) {
        uint64_t y = i + 1 < to ? gs[i + 1] : 0;
        gw_event<SIPL, FIXED>(w, sh, pins, m, p, o, x, used);
        x = y;
    }
    gw_leak_to<FIXED>(w, sh, p, o, gw_watts<SIPL>(m, k, w.s1), end, end_bin, end_start);
    gw_flush<FIXED>(w, sh, o);
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
    uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32, used = 0;
    gw_shared &sh = warps[warp];
    gw_pins pins{warp * GW_PIN_WORDS * m.max_pins * 32 + lane};
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
        gw_open(sh, m, p, t, inst, epoch);
        gw_open_energies<SIPL>(sh, m);
        gw_open_cands(sh, m);
        gw_task_walk<SIPL, FIXED>(sh, pins, m, p, o, t, &used);
        __syncwarp();
#pragma unroll
        for (int i = 0; i < POWER_COMPONENTS; i++) {
            double e = warp_sum(sh.inst[i][lane]);
            sh.inst[i][lane] = 0.0;
            if (lane == 0 && e != 0.0)
                add_sum<FIXED>(o.inst, o.fixed_inst, (size_t)inst * POWER_COMPONENTS + i, e);
        }
        __syncwarp();
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
    bool walked = net != DESIGN_NONE && !(m.pin_flags[pin] & POWER_PIN_BULK);
    gs_pin0[pin] = walked ? m.net_end[net] - m.net_begin[net] : 0;
}

cudaError_t cuda_kernels_gate_offsets(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                      uint64_t *total, cudaStream_t stream)
{
    gate_counts_kernel<<<(m.n_pins + 1 + GS_BLOCK - 1) / GS_BLOCK, GS_BLOCK, 0, stream>>>(m,
                                                                                  t.gs_pin0);
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? cuda_kernels_scan(t, t.gs_pin0, m.n_pins, total, stream) : err;
}

/* Gate g's chunks into chunk0[g]: one for every GS_CHUNK_ENTRIES entries
 * of its stream or part of them. */
__global__ void gate_chunks_kernel(const __grid_constant__ cuda_dev_model m,
                                   const uint64_t *gs_pin0, uint64_t *chunk0)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g > m.n_insts)
        return;
    uint64_t entries = g < m.n_insts ? gs_pin0[m.inst_pin0[g + 1]] - gs_pin0[m.inst_pin0[g]] : 0;
    chunk0[g] = (entries + GS_CHUNK_ENTRIES - 1) / GS_CHUNK_ENTRIES;
}

cudaError_t cuda_kernels_gate_chunks(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                     uint64_t *chunk0, uint64_t *n_chunks, cudaStream_t stream)
{
    gate_chunks_kernel<<<(m.n_insts + 1 + GS_BLOCK - 1) / GS_BLOCK, GS_BLOCK, 0, stream>>>(
        m, t.gs_pin0, chunk0);
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? cuda_kernels_scan(t, chunk0, m.n_insts, n_chunks, stream) : err;
}

cudaError_t cuda_kernels_gate_streams(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                      const uint64_t *chunk0, uint64_t n_chunks,
                                      cudaStream_t stream)
{
    uint64_t blocks = (n_chunks * 32 + GS_BLOCK - 1) / GS_BLOCK;
    size_t smem = (size_t)GS_BLOCK / 32 * (m.max_pins ? m.max_pins : 1) * 32 * 8;
    cudaError_t err = cudaFuncSetAttribute(gate_stream_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err == cudaSuccess && blocks > 0)
        gate_stream_kernel<<<(unsigned)blocks, GS_BLOCK, smem, stream>>>(m, t.gs_pin0, chunk0,
                                                                         n_chunks, t.gs);
    return err == cudaSuccess ? cudaGetLastError() : err;
}

static const void *gate_warp_fn(bool sipl, bool fixed)
{
    static const void *const fns[4] = {
        (const void *)gate_warp_kernel<false, false>, (const void *)gate_warp_kernel<false, true>,
        (const void *)gate_warp_kernel<true, false>, (const void *)gate_warp_kernel<true, true>};
    return fns[2 * sipl + fixed];
}

/* The gate warp kernel's dynamic shared memory: its warps' gw_pins. */
static size_t gate_warp_smem(uint32_t max_pins)
{
    return (size_t)GW_BLOCK / 32 * GW_PIN_WORDS * (max_pins ? max_pins : 1) * 32 * sizeof(int64_t);
}

cudaError_t cuda_kernels_gate_warp(const cuda_dev_model &m, const cuda_dev_plan &p,
                                   const cuda_dev_out &out, const cuda_dev_tasks &t,
                                   uint64_t n_tasks, bool sipl, cudaStream_t stream)
{
    const void *fn = gate_warp_fn(sipl, out.fixed);
    size_t smem = gate_warp_smem(m.max_pins);
    unsigned grid = 1, warps = GW_BLOCK / 32;
    cudaError_t err =
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err == cudaSuccess)
        err = cuda_kernels_resident_blocks(fn, GW_BLOCK, smem, (n_tasks + warps - 1) / warps,
                                           &grid);
    void *args[] = {(void *)&m, (void *)&p, (void *)&out, (void *)&t, &n_tasks};
    if (err == cudaSuccess)
        err = cudaMemsetAsync(t.cursor, 0, sizeof *t.cursor, stream);
    if (err == cudaSuccess)
        err = cudaLaunchKernel(fn, dim3(grid), dim3(GW_BLOCK), args, smem, stream);
    if (err == cudaSuccess)
        err = cuda_kernels_levels(p, out, stream);
    return err;
}

cudaError_t cuda_kernels_gate_warp_warps(const cuda_dev_model &m, bool sipl, bool fixed,
                                        uint64_t *warps)
{
    const void *fn = gate_warp_fn(sipl, fixed);
    size_t smem = gate_warp_smem(m.max_pins);
    unsigned blocks = 1;
    cudaError_t err =
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err == cudaSuccess)
        err = cuda_kernels_resident_blocks(fn, GW_BLOCK, smem, UINT64_MAX, &blocks);
    *warps = (uint64_t)blocks * (GW_BLOCK / 32);
    return err;
}

int cuda_kernels_gate_warp_report(const cuda_dev_model &m, bool sipl, bool fixed,
                                  cuda_kernel_report *out)
{
    return cuda_kernels_report(gate_warp_fn(sipl, fixed), "gate-warp", GW_BLOCK,
                               gate_warp_smem(m.max_pins), out);
}
