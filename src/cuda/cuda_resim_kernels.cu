/* cuda_resim_kernels.cu: the GPU re-simulation's kernels (cuda_resim_kernels.h).
 *
 * Why a window is exact.  resim_gate.c's loop fires every wake-up it
 * schedules, in time order, and each puts the gate's value of that moment
 * on the output; the output is the value of the last wake-up of each time,
 * where it changes.  A wake-up fires one path delay, at most the gate's
 * longest delay D, after the input change that scheduled it; so a window
 * [s, e) needs the changes from s - D on, and the inputs' values there
 * (found by a binary search; where a wire's delay differs by value, a
 * step back over the events its spread can reorder, met_before).
 * What it cannot know is the output's value before s: its first change is
 * written as if it were one, and the join drops it where the window before
 * left that value. */
#include "cuda/cuda_resim_kernels.h"
#include "cuda/cuda_warp.cuh"

#include "events/events_kth.h"
#include "resim/resim_rules.h"

#define BLOCK 128

static unsigned blocks_for(uint64_t n)
{
    return (unsigned)((n + BLOCK - 1) / BLOCK);
}

/* A grid of warps, one an item, for n items (at most 2^20 warps: they loop). */
static unsigned warp_blocks_for(uint64_t n)
{
    uint64_t warps = n < (1u << 20) ? n : 1u << 20;
    return blocks_for(warps * 32 ? warps * 32 : 1);
}

/* The sorted pending wake-ups after the earliest, in a ring q[cap]. */
struct wake_queue {
    int64_t *q;
    uint64_t cap, head, len;

    __device__ uint64_t slot(uint64_t i) const
    {
        uint64_t s = head + i;
        return s >= cap ? s - cap : s;
    }
    /* Inserts t in order; false when full. */
    __device__ bool push(int64_t t)
    {
        if (len == cap)
            return false;
        uint64_t i = len;
        for (; i > 0 && q[slot(i - 1)] > t; i--)
            q[slot(i)] = q[slot(i - 1)];
        q[slot(i)] = t;
        len++;
        return true;
    }
    /* The earliest; INT64_MAX when there is none. */
    __device__ int64_t pop()
    {
        if (len == 0)
            return INT64_MAX;
        int64_t t = q[head];
        head = head + 1 == cap ? 0 : head + 1;
        len--;
        return t;
    }
};

/* When event word w reaches the pin over wire[] (by the value it goes to:
 * 0, 1, X, as resim_input has them). */
__device__ inline int64_t arrival(const int64_t wire[3], uint64_t w)
{
    uint32_t v = (uint32_t)(w & 3);
    return events_word_time(w) + (v == 1 ? wire[1] : v == 0 ? wire[0] : wire[EVENTS_X]);
}

/* Whether the event at p, reaching the pin at `at`, is overtaken by a
 * later one before end (resim_rules.h). */
__device__ inline bool overtaken(const uint64_t *p, const uint64_t *end, int64_t at,
                                 const int64_t wire[3])
{
    int64_t min_wire = resim_min_wire(wire);
    for (const uint64_t *q = p + 1;
         q < end && resim_arrives_before(events_word_time(*q), min_wire, at); q++)
        if (arrival(wire, *q) < at)
            return true;
    return false;
}

/* The first of the events p .. end that no later one overtakes, for a
 * wire whose delay depends on the value.  Out of line, and given plain
 * values: sim_input::advance's path, which every event takes, stays short,
 * and the inputs stay in registers. */
__device__ __noinline__ const uint64_t *first_not_overtaken(const uint64_t *p, const uint64_t *end,
                                                            int64_t wire_fall, int64_t wire_rise)
{
    const int64_t wire[3] = {wire_fall, wire_rise, 0};
    while (overtaken(p, end, arrival(wire, *p), wire))
        p++;
    return p;
}

/* One input's events as they reach the pin (resim_gate.c's gate_input). */
struct sim_input {
    const uint64_t *p, *end;  /* its net's next event, and the end */
    int64_t next;             /* when that event reaches the pin; INT64_MAX: none is left */
    int64_t wire_fall, wire_rise, delay_fall, delay_rise, delay_x;

    /* To the next event not overtaken; an X arrives without delay
     * (resim_input_of). */
    __device__ void advance()
    {
        if (p == end) {
            next = INT64_MAX;
            return;
        }
        const int64_t wire[3] = {wire_fall, wire_rise, 0};
        if (resim_uneven_wire(wire))
            p = first_not_overtaken(p, end, wire_fall, wire_rise);
        next = arrival(wire, *p);
    }
    __device__ int64_t delay(uint8_t v) const
    {
        return v == 1 ? delay_rise : v == 0 ? delay_fall : delay_x;
    }
};

/* The waveform being written: w[0 .. len), the last word kept at hand. */
struct out_wave {
    uint64_t *w;
    uint64_t len, last;

    /* resim_gate.c's emit: a change at the time of the last one replaces
     * it, and is dropped when it repeats the value before. */
    __device__ void emit(int64_t t, uint8_t v)
    {
        uint64_t word = (uint64_t)t << 2 | v;
        if (len > 0 && events_word_time(last) == t) {
            w[len - 1] = last = word;
            if (len > 1 && (w[len - 2] & 3) == v)
                last = w[--len - 1];
            return;
        }
        w[len++] = last = word;
    }
};

/* Window j of a gate's n_windows over the dump: [s, e); the first from
 * INT64_MIN, the last to INT64_MAX. */
struct window_span {
    int64_t s, e;
    bool first;
};

__device__ inline int64_t window_start(const cuda_resim_dev &P, uint64_t j, uint64_t n)
{
    return j == 0 ? INT64_MIN : j >= n ? INT64_MAX
                              : P.t0 + (int64_t)((double)P.span * (double)j / (double)n);
}

/* Window w, the j-th of its gate's n: of equal spans, or from the starts
 * in L.win_s. */
__device__ inline window_span window_of(const cuda_resim_dev &P, const cuda_resim_level &L,
                                        uint64_t w, uint64_t j, uint64_t n)
{
    if (!L.win_s)
        return window_span{window_start(P, j, n), window_start(P, j + 1, n), j == 0};
    return window_span{j == 0 ? INT64_MIN : L.win_s[w], j + 1 >= n ? INT64_MAX : L.win_s[w + 1],
                       j == 0};
}

/* The gate's longest delay, D. */
__device__ inline int64_t longest_delay(const cuda_resim_dev &P, const resim_plan_gate &g)
{
    int64_t d = 0;
    for (uint32_t k = 0; k < g.n_inputs; k++) {
        const resim_input &ri = P.inputs[g.in0 + k];
        d = max(d, max(ri.delay[0], ri.delay[1]));
    }
    return d;
}

/* How many of the net's events (base[0 .. count)) resim_gate.c's loop has
 * met when its time reaches t: up to the last that reaches the pin before
 * t (every later one reaches it at or after t; where the wire's delay
 * depends on the value, those before it that reach the pin at or after t
 * are overtaken by it).  With one wire delay for every value, the step
 * back never moves. */
__device__ inline uint64_t met_before(const resim_input &ri, const uint64_t *base,
                                      uint64_t count, int64_t t)
{
    /* the first sent at or after t less the shortest wire: it and every
     * later one arrive at or after t */
    uint64_t lo = events_words_first_at(base, 0, count, t - resim_min_wire(ri.wire));
    while (lo > 0 && arrival(ri.wire, base[lo - 1]) >= t)
        lo--;
    return lo;
}

/* Whether an event of base[0 .. met) the loop took (not overtaken) is 0
 * or 1: the input has left X, so the gate has been evaluated (its value is
 * no longer the start's X).  Events from met on cannot overtake one the
 * loop took before them. */
__device__ inline bool left_x_before(const resim_input &ri, const uint64_t *base, uint64_t met)
{
    bool uneven = resim_uneven_wire(ri.wire);
    for (uint64_t k = met; k > 0; k--) {
        const uint64_t *p = base + k - 1;
        if ((*p & 3) != EVENTS_X &&
            (!uneven || !overtaken(p, base + met, arrival(ri.wire, *p), ri.wire)))
            return true;
    }
    return false;
}

/* resim_gate.c's loop over window w of a gate of N inputs (N 0: n, at most
 * LIB_MAX_EXPR_PINS); false when the queue overflowed. */
template <int N>
__device__ bool simulate(const cuda_resim_dev &P, const resim_plan_gate &g, uint32_t n,
                         window_span w, out_wave &o, wake_queue &q, cuda_resim_window &r)
{
    constexpr int CAP = N ? N : LIB_MAX_EXPR_PINS;
    const uint32_t count = N ? N : n;
    const uint64_t *tt = P.tt + g.tt0;
    const int64_t from = w.first ? INT64_MIN : w.s - longest_delay(P, g);
    sim_input in[CAP];
    uint32_t state = 0;
    bool evaluated_before = false;
    int64_t now = INT64_MAX, wake = INT64_MAX; /* the earliest pending wake-up */
    for (uint32_t k = 0; k < count; k++) {
        const resim_input &ri = P.inputs[g.in0 + k];
        const uint64_t *p = ri.net != DESIGN_NONE ? P.net_ptr[ri.net] : NULL;
        uint64_t events = ri.net != DESIGN_NONE ? P.net_count[ri.net] : 0;
        uint64_t at = w.first ? 0 : met_before(ri, p, events, from);
        uint8_t v = at > 0 ? (uint8_t)(p[at - 1] & 3) : (uint8_t)EVENTS_X;
        evaluated_before |= v != EVENTS_X || left_x_before(ri, p, at);
        in[k] = sim_input{p + at, p + events, 0, ri.wire[0], ri.wire[1],
                          ri.delay[0], ri.delay[1], ri.delay[EVENTS_X]};
        in[k].advance();
        state = resim_state_set(state, k, v);
        now = in[k].next < now ? in[k].next : now;
    }
    uint8_t evaluated = evaluated_before ? resim_eval(tt, state, count) : (uint8_t)EVENTS_X;
    uint8_t on_net = w.first ? (uint8_t)EVENTS_X : (uint8_t)CUDA_RESIM_UNKNOWN;
    if (w.first)
        o.emit(P.t0, EVENTS_X);
    for (;;) {
        if (wake <= now) {
            if (wake >= w.e)
                break; /* the later wake-ups are the next windows' */
            if (wake >= w.s) {
                if (r.fires++ == 0)
                    r.first = evaluated;
                r.swallowed += evaluated == on_net;
                if (evaluated != on_net)
                    o.emit(wake, on_net = evaluated);
            }
            wake = q.pop();
            continue;
        }
        if (now >= w.e)
            break; /* what changes now fires at e or later */
        uint32_t changed = 0;
        int64_t next = INT64_MAX;
        for (uint32_t k = 0; k < count; k++) {
            while (in[k].next == now) {
                uint32_t s = resim_state_set(state, k, (uint8_t)(*in[k].p++ & 3));
                changed |= s ^ state;
                state = s;
                in[k].advance();
            }
            next = in[k].next < next ? in[k].next : next;
        }
        uint8_t v = changed ? resim_eval(tt, state, count) : evaluated;
        if (v != evaluated) {
            int64_t delay = INT64_MAX;
            for (uint32_t k = 0; k < count; k++) {
                int64_t dk = changed >> 2 * k & 3 ? in[k].delay(v) : INT64_MAX;
                delay = dk < delay ? dk : delay;
            }
            evaluated = v;
            int64_t pending = resim_schedule(&wake, now + delay);
            if (pending != INT64_MAX && !q.push(pending))
                return false;
        }
        now = next;
    }
    r.last = on_net;
    return true;
}

/* Window w of gate g, as resim_gate does it; false when the queue
 * overflowed. */
__device__ bool run_window(const cuda_resim_dev &P, const resim_plan_gate &g, window_span w,
                           out_wave &o, wake_queue &q, cuda_resim_window &r)
{
    if (g.tt0 == RESIM_NO_TT || g.n_inputs == 0) { /* X throughout, or a constant: one window */
        o.emit(P.t0, g.tt0 == RESIM_NO_TT ? (uint8_t)EVENTS_X : resim_eval(P.tt + g.tt0, 0, 0));
        r.last = EVENTS_X;
        return true;
    }
    switch (g.n_inputs) { /* the common fan-ins, each with its loops unrolled */
    case 1: return simulate<1>(P, g, 1, w, o, q, r);
    case 2: return simulate<2>(P, g, 2, w, o, q, r);
    case 3: return simulate<3>(P, g, 3, w, o, q, r);
    case 4: return simulate<4>(P, g, 4, w, o, q, r);
    default: return simulate<0>(P, g, g.n_inputs, w, o, q, r);
    }
}

/* A thread a gate: its windows, by its inputs' events; one where a delay
 * is negative (a wake-up may then fire before the change that scheduled
 * it, and the output's time go back). */
__global__ void windows_kernel(cuda_resim_dev P, cuda_resim_level L)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > L.n_gates)
        return;
    if (i == L.n_gates) {
        L.gate_win[i] = 0;
        return;
    }
    resim_plan_gate g = P.gates[L.g0 + i];
    uint64_t events = 0;
    bool split = g.tt0 != RESIM_NO_TT && g.n_inputs > 0 && P.window_events > 0;
    for (uint32_t k = 0; k < g.n_inputs; k++) {
        const resim_input &ri = P.inputs[g.in0 + k];
        if (ri.net == DESIGN_NONE)
            continue;
        events += P.net_count[ri.net];
        split = split && ri.delay[0] >= 0 && ri.delay[1] >= 0;
    }
    uint64_t n = split ? (events + P.window_events - 1) / P.window_events : 1;
    L.gate_win[i] = n > 0 ? n : 1;
}

/* A thread a gate: its windows' gate. */
__global__ void window_gates_kernel(cuda_resim_level L)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < L.n_gates)
        for (uint64_t w = L.gate_win[i]; w < L.gate_win[i + 1]; w++)
            L.win_gate[w] = i;
}

/* A thread a window: its start in win_s, where its gate's inputs' events
 * (counted as windows_kernel counts them) split evenly over the gate's
 * windows, within an eighth of a window's events; after P.t0, where the
 * first window puts the gate's X (any increasing starts give the same
 * waveform).  The starts increase: the windows' ranks lie at least half
 * a window's events apart, more than twice the slack. */
__global__ void window_starts_kernel(cuda_resim_dev P, cuda_resim_level L)
{
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= L.n_windows)
        return;
    uint32_t i = L.win_gate[w];
    uint64_t w0 = L.gate_win[i], j = w - w0, n = L.gate_win[i + 1] - w0, events = 0;
    if (j == 0) {
        L.win_s[w] = INT64_MIN;
        return;
    }
    resim_plan_gate g = P.gates[L.g0 + i];
    events_kth_run run[LIB_MAX_EXPR_PINS];
    uint32_t runs = 0;
    for (uint32_t k = 0; k < g.n_inputs; k++) {
        uint32_t net = P.inputs[g.in0 + k].net;
        if (net == DESIGN_NONE)
            continue;
        run[runs++] = events_kth_run{P.net_ptr[net], 0, P.net_count[net], 0};
        events += P.net_count[net];
    }
    int64_t t = events_kth_time_near(run, runs, events * j / n + 1, P.window_events / 8);
    L.win_s[w] = t > P.t0 ? t : P.t0 + 1;
}

/* A thread a window: its room, one event more than its inputs have from
 * s - D to e (0 after the last window, for the scan). */
__global__ void rooms_kernel(cuda_resim_dev P, cuda_resim_level L)
{
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w > L.n_windows)
        return;
    if (w == L.n_windows) {
        L.win_at[w] = 0;
        return;
    }
    uint32_t i = L.win_gate[w];
    uint64_t w0 = L.gate_win[i], nw = L.gate_win[i + 1] - w0;
    resim_plan_gate g = P.gates[L.g0 + i];
    window_span span = window_of(P, L, w, w - w0, nw);
    int64_t from = span.first ? INT64_MIN : span.s - longest_delay(P, g);
    uint64_t room = 1;
    for (uint32_t k = 0; k < g.n_inputs; k++) {
        const resim_input &ri = P.inputs[g.in0 + k];
        if (ri.net == DESIGN_NONE)
            continue;
        const uint64_t *p = P.net_ptr[ri.net];
        uint64_t c = P.net_count[ri.net];
        uint64_t lo = span.first ? 0 : met_before(ri, p, c, from);
        uint64_t hi = w - w0 + 1 == nw ? c : met_before(ri, p, c, span.e);
        room += hi > lo ? hi - lo : 0;
    }
    L.win_at[w] = room;
}

/* A thread a window; with queues, only the windows whose rings
 * overflowed, each with a queue as long as its room.  MIN_BLOCKS: the
 * blocks an SM is to hold (the registers a thread gets follow). */
template <int MIN_BLOCKS>
__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
simulate_kernel(cuda_resim_dev P, cuda_resim_level L, int64_t *queues)
{
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long overflowed = 0;
    if (w < L.n_windows && (!queues || L.win[w].redo)) {
        uint32_t i = L.win_gate[w];
        uint64_t w0 = L.gate_win[i], nw = L.gate_win[i + 1] - w0;
        resim_plan_gate g = P.gates[L.g0 + i];
        int64_t ring[CUDA_RESIM_RING];
        uint64_t at = L.win_at[w];
        wake_queue q = queues ? wake_queue{queues + at, L.win_at[w + 1] - at, 0, 0}
                              : wake_queue{ring, CUDA_RESIM_RING, 0, 0};
        out_wave o = {L.scratch + at, 0, 0};
        cuda_resim_window r = {0, 0, 0, CUDA_RESIM_UNKNOWN, CUDA_RESIM_UNKNOWN, 0, 0, 0};
        if (!run_window(P, g, window_of(P, L, w, w - w0, nw), o, q, r)) {
            r = cuda_resim_window{0, 0, 0, CUDA_RESIM_UNKNOWN, CUDA_RESIM_UNKNOWN, 1, 0, 0};
            overflowed = 1;
        }
        r.count = o.len;
        L.win[w] = r;
    }
    add_count(&L.counts[2], overflowed);
}

/* A warp a gate: its windows 32 at a time, each tentative first change
 * dropped where it repeats the output's value before (the last value put
 * by the nearest earlier window that fired, or by the gate's first); each
 * window's place in the gate's waveform into its `at`, the gate's changes
 * into gate_at[i] (0 after the last gate), fires and swallowed into the
 * counts. */
__global__ void join_kernel(cuda_resim_level L)
{
    uint64_t thread = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    uint32_t lane = threadIdx.x % 32;
    unsigned long long fires = 0, swallowed = 0;
    if (thread == 0)
        L.gate_at[L.n_gates] = 0;
    for (uint64_t i = thread / 32; i < L.n_gates; i += warps) {
        uint64_t w0 = L.gate_win[i], w1 = L.gate_win[i + 1], count = 0;
        uint8_t before = EVENTS_X;
        for (uint64_t c = w0; c < w1; c += 32) {
            uint64_t w = c + lane;
            bool in = w < w1;
            cuda_resim_window r = in ? L.win[w] : cuda_resim_window{};
            unsigned sets = __ballot_sync(0xffffffffu, in && (r.fires > 0 || w == w0));
            unsigned earlier = sets & ((1u << lane) - 1);
            uint8_t set_before = (uint8_t)__shfl_sync(0xffffffffu, r.last,
                                                      earlier ? 31 - __clz(earlier) : 0);
            uint8_t value_before = earlier ? set_before : before;
            if (in && w > w0 && r.fires > 0) {
                swallowed += r.first == value_before;
                r.drop = (uint8_t)((L.scratch[L.win_at[w]] & 3) == value_before);
            }
            uint64_t kept = in ? r.count - r.drop : 0;
            uint64_t through = warp_inclusive_sum(kept);
            if (in) {
                L.win[w].drop = r.drop;
                L.win[w].at = count + through - kept;
                fires += r.fires;
                swallowed += r.swallowed;
            }
            count += __shfl_sync(0xffffffffu, through, 31);
            if (sets)
                before = (uint8_t)__shfl_sync(0xffffffffu, r.last, 31 - __clz(sets));
        }
        if (lane == 0)
            L.gate_at[i] = count;
    }
    add_count(&L.counts[0], fires);
    add_count(&L.counts[1], swallowed);
}

/* A warp 32 windows at a time, each lane a window's place (so that their
 * loads go out together), then the warp copying each window's changes,
 * joined, into L.out at gate_at[i] + at; the lane of a gate's first
 * window publishes the gate's waveform in P. */
__global__ void gather_kernel(cuda_resim_dev P, cuda_resim_level L)
{
    uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    uint32_t lane = threadIdx.x % 32;
    for (uint64_t base = warp * 32; base < L.n_windows; base += warps * 32) {
        uint64_t w = base + lane, from = 0, to = 0, c = 0;
        if (w < L.n_windows) {
            uint32_t i = L.win_gate[w];
            const cuda_resim_window &r = L.win[w];
            to = (uint64_t)(L.out + L.gate_at[i] + r.at);
            from = (uint64_t)(L.scratch + L.win_at[w] + r.drop);
            c = r.count - r.drop;
            if (w == L.gate_win[i]) {
                uint32_t net = P.gates[L.g0 + i].net;
                P.net_ptr[net] = L.out + L.gate_at[i];
                P.net_count[net] = L.gate_at[i + 1] - L.gate_at[i];
            }
        }
        for (uint32_t j = 0; j < 32; j++) {
            uint64_t n = __shfl_sync(0xffffffffu, c, j);
            const uint64_t *src = (const uint64_t *)__shfl_sync(0xffffffffu, from, j);
            uint64_t *dst = (uint64_t *)__shfl_sync(0xffffffffu, to, j);
            for (uint64_t k = lane; k < n; k += 32)
                dst[k] = __ldg(src + k);
        }
    }
}

/* The fixed nets' waveforms: where they lie in the uploaded store. */
__global__ void fixed_kernel(cuda_resim_dev P, const uint64_t *word, const uint64_t *ev0,
                             uint32_t n_nets)
{
    uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < n_nets) {
        P.net_ptr[n] = word + ev0[n];
        P.net_count[n] = ev0[n + 1] - ev0[n];
    }
}

/* Net n's events up to end_fs (but its first): its range from base into
 * begin[n], end[n]; the latest kept time, the events kept and the most of
 * one net into cut[0 .. 2]. */
__global__ void cut_kernel(cuda_resim_dev P, uint32_t n_nets, int64_t end_fs,
                           const uint64_t *base, uint64_t *begin, uint64_t *end,
                           unsigned long long *cut)
{
    uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long latest = 0, kept = 0, most = 0;
    if (n < n_nets) {
        const uint64_t *w = P.net_ptr[n];
        uint64_t c = P.net_count[n];
        while (c > 1 && events_word_time(w[c - 1]) > end_fs)
            c--;
        begin[n] = (uint64_t)(w - base);
        end[n] = begin[n] + c;
        latest = c ? w[c - 1] >> 2 : 0;
        kept = most = c;
    }
    for (int d = 16; d > 0; d /= 2) {
        latest = max(latest, __shfl_down_sync(0xffffffffu, latest, d));
        kept += __shfl_down_sync(0xffffffffu, kept, d);
        most = max(most, __shfl_down_sync(0xffffffffu, most, d));
    }
    if (threadIdx.x % 32 == 0) {
        atomicMax(&cut[0], latest);
        atomicAdd(&cut[1], kept);
        atomicMax(&cut[2], most);
    }
}

/* One warp a net: its events to out + net_ev0[n]. */
__global__ void compact_kernel(const uint64_t *word, const uint64_t *begin, const uint64_t *end,
                               uint32_t n_nets, const uint64_t *net_ev0, uint64_t *out)
{
    uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
    uint32_t lane = threadIdx.x % 32;
    for (uint64_t n = warp; n < n_nets; n += warps) {
        const uint64_t *src = word + begin[n];
        uint64_t *dst = out + net_ev0[n], c = end[n] - begin[n];
        for (uint64_t k = lane; k < c; k += 32)
            dst[k] = src[k];
    }
}

/* ---- launches -------------------------------------------------------------------- */

cudaError_t cuda_resim_fixed(const cuda_resim_dev &P, const uint64_t *word, const uint64_t *ev0,
                             uint32_t n_nets, cudaStream_t stream)
{
    if (n_nets)
        fixed_kernel<<<blocks_for(n_nets), BLOCK, 0, stream>>>(P, word, ev0, n_nets);
    return cudaGetLastError();
}

cudaError_t cuda_resim_windows(const cuda_resim_dev &P, const cuda_resim_level &L,
                               cudaStream_t stream)
{
    windows_kernel<<<blocks_for((uint64_t)L.n_gates + 1), BLOCK, 0, stream>>>(P, L);
    return cudaGetLastError();
}

cudaError_t cuda_resim_window_gates(const cuda_resim_dev &P, const cuda_resim_level &L,
                                    cudaStream_t stream)
{
    window_gates_kernel<<<blocks_for(L.n_gates), BLOCK, 0, stream>>>(L);
    if (L.win_s && L.n_windows > 0)
        window_starts_kernel<<<blocks_for(L.n_windows), BLOCK, 0, stream>>>(P, L);
    return cudaGetLastError();
}

cudaError_t cuda_resim_rooms(const cuda_resim_dev &P, const cuda_resim_level &L,
                             cudaStream_t stream)
{
    rooms_kernel<<<blocks_for(L.n_windows + 1), BLOCK, 0, stream>>>(P, L);
    return cudaGetLastError();
}

cudaError_t cuda_resim_simulate(const cuda_resim_dev &P, const cuda_resim_level &L,
                                int64_t *queues, bool tight, cudaStream_t stream)
{
    if (tight)
        simulate_kernel<5><<<blocks_for(L.n_windows), BLOCK, 0, stream>>>(P, L, queues);
    else
        simulate_kernel<1><<<blocks_for(L.n_windows), BLOCK, 0, stream>>>(P, L, queues);
    return cudaGetLastError();
}

cudaError_t cuda_resim_join(const cuda_resim_level &L, cudaStream_t stream)
{
    join_kernel<<<warp_blocks_for(L.n_gates), BLOCK, 0, stream>>>(L);
    return cudaGetLastError();
}

cudaError_t cuda_resim_gather(const cuda_resim_dev &P, const cuda_resim_level &L,
                              cudaStream_t stream)
{
    gather_kernel<<<warp_blocks_for((L.n_windows + 31) / 32), BLOCK, 0, stream>>>(P, L);
    return cudaGetLastError();
}

cudaError_t cuda_resim_cut(const cuda_resim_dev &P, uint32_t n_nets, int64_t end_fs,
                           const uint64_t *base, uint64_t *begin, uint64_t *end,
                           unsigned long long *cut, cudaStream_t stream)
{
    if (n_nets)
        cut_kernel<<<blocks_for(n_nets), BLOCK, 0, stream>>>(P, n_nets, end_fs, base, begin, end,
                                                             cut);
    return cudaGetLastError();
}

cudaError_t cuda_resim_compact(const cuda_events &e, const uint64_t *net_ev0, uint64_t *out,
                               cudaStream_t stream)
{
    if (e.n_nets)
        compact_kernel<<<warp_blocks_for(e.n_nets), BLOCK, 0, stream>>>(
            e.word, e.net_begin, e.net_end, e.n_nets, net_ev0, out);
    return cudaGetLastError();
}
