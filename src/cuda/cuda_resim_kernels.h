/* cuda_resim_kernels.h: the GPU re-simulation's kernels (cuda_resim_kernels.cu)
 * and what their launches share with the driver (cuda_resim.cu).  CUDA C++
 * only.
 *
 * A level's gates are cut into windows of their output's time: gate i has
 * windows gate_win[i] .. gate_win[i + 1], the first from the start, the
 * last to the end of time, about window_events input events each
 * (cuda_resim_options): of equal spans of the dump, or (even_events) cut
 * where the gate's inputs' events split evenly.  A thread simulates one
 * window: it takes its inputs' values where the window starts less the
 * gate's longest delay (no wake-up from before can fire inside), runs
 * resim_gate.c's loop from there, and writes the window's output changes,
 * its first one tentative (whether it is a change depends on the windows
 * before).  Then a gate's windows are joined in order.  A gate with a
 * negative delay takes one window: resim_gate.c's loop exactly. */
#ifndef GP_CUDA_CUDA_RESIM_KERNELS_H
#define GP_CUDA_CUDA_RESIM_KERNELS_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda/cuda_resim.h"
#include "resim/resim.h"

/* Pending wake-ups besides the earliest that a thread's ring holds; a
 * window whose pending wake-ups overflow it runs again with its queue in
 * global memory. */
#define CUDA_RESIM_RING 16

/* The plan on the device, and every net's waveform so far (the fixed
 * nets' from the start, a gate's once its level ran). */
struct cuda_resim_dev {
    const resim_plan_gate *gates;
    const resim_input *inputs;
    const uint64_t *tt;
    const uint64_t **net_ptr;
    uint64_t *net_count;
    int64_t t0, span;         /* the dump's first time, and its length (>= 1) */
    uint32_t window_events;   /* cuda_resim_options' */
};

/* What a window's thread leaves for the join. */
struct cuda_resim_window {
    uint64_t count;           /* changes written */
    uint64_t fires;           /* wake-ups fired in the window */
    uint64_t swallowed;       /* of them, those that found the output unchanged
                                 (the first one not counted where it is tentative) */
    uint8_t first, last;      /* the value the first and the last wake-up put on
                                 the output (CUDA_RESIM_UNKNOWN: none fired) */
    uint8_t redo;             /* its ring overflowed */
    uint8_t drop;             /* the join dropped its first change */
    uint64_t at;              /* set by the join: where its changes go in the gate's waveform */
};

#define CUDA_RESIM_UNKNOWN 3

/* A level: gates g0 .. g0 + n_gates and their windows. */
struct cuda_resim_level {
    uint32_t g0, n_gates;
    uint64_t *gate_win;       /* [n_gates + 1]: windows per gate, then scanned */
    uint64_t *gate_at;        /* [n_gates + 1]: changes per gate, then scanned */
    uint64_t n_windows;
    uint32_t *win_gate;       /* [n_windows]: the window's gate (level index) */
    int64_t *win_s;           /* [n_windows]: each window's start (its gate's first: unused);
                                 NULL: windows of equal spans */
    uint64_t *win_at;         /* [n_windows + 1]: the windows' room, then scanned */
    cuda_resim_window *win;   /* [n_windows] */
    uint64_t *scratch;        /* the windows' changes, window w's at win_at[w] */
    uint64_t *out;            /* the level's waveforms, gate i's at gate_at[i] */
    unsigned long long *counts; /* fires, swallowed, windows overflowed */
};

cudaError_t cuda_resim_fixed(const cuda_resim_dev &P, const uint64_t *word, const uint64_t *ev0,
                             uint32_t n_nets, cudaStream_t stream);
/* gate_win; then, after its scan, win_gate (and win_s where it is held); then
 * win_at (the rooms). */
cudaError_t cuda_resim_windows(const cuda_resim_dev &P, const cuda_resim_level &L,
                               cudaStream_t stream);
cudaError_t cuda_resim_window_gates(const cuda_resim_dev &P, const cuda_resim_level &L,
                                    cudaStream_t stream);
cudaError_t cuda_resim_rooms(const cuda_resim_dev &P, const cuda_resim_level &L,
                             cudaStream_t stream);
/* The windows (queues NULL: rings; else the overflowed windows again, each
 * queue at queues + win_at[w]). */
cudaError_t cuda_resim_simulate(const cuda_resim_dev &P, const cuda_resim_level &L,
                                int64_t *queues, bool tight, cudaStream_t stream);
/* The join: gate_at (before its scan), the windows' drop and at, the counts. */
cudaError_t cuda_resim_join(const cuda_resim_level &L, cudaStream_t stream);
/* The gates' waveforms into L.out (after gate_at's scan), published in P. */
cudaError_t cuda_resim_gather(const cuda_resim_dev &P, const cuda_resim_level &L,
                              cudaStream_t stream);
/* Each net's events up to end_fs (but its first): its range, as offsets
 * from base, into begin[n] .. end[n]; into cut[0 .. 2] (atomically, with
 * what they held): the latest kept time, the events kept, the most events
 * of one net. */
cudaError_t cuda_resim_cut(const cuda_resim_dev &P, uint32_t n_nets, int64_t end_fs,
                           const uint64_t *base, uint64_t *begin, uint64_t *end,
                           unsigned long long *cut, cudaStream_t stream);
/* e's events into out in net order, net n's at net_ev0[n]. */
cudaError_t cuda_resim_compact(const cuda_events &e, const uint64_t *net_ev0, uint64_t *out,
                               cudaStream_t stream);

#endif
