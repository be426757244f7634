/* cuda_kernels.h: the power kernels' launch interface, shared by the
 * session code (cuda_power.cu) and the kernels (cuda_kernels.cu,
 * cuda_walk.cu, cuda_naive.cu, cuda_gate.cu, cuda_bulk.cu).  CUDA C++
 * only. */
#ifndef GP_CUDA_CUDA_KERNELS_H
#define GP_CUDA_CUDA_KERNELS_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda/cuda_power.h"
#include "power/power_model.h"

/* The power model on the device (power_model.h: its arrays uploaded as
 * they are, the same struct with device pointers), the packed events and
 * each net's range of them: net n's are ev[net_begin[n] .. net_end[n]),
 * the ranges in any order (an event store's: net_begin = net_ev0,
 * net_end = net_ev0 + 1). */
struct cuda_dev_model : power_model {
    const uint64_t *net_begin; /* [n_nets] */
    const uint64_t *net_end;   /* [n_nets] */
    const int64_t *ev;         /* packed: time_fs << 2 | value */
};

/* The plan: window [t0, t1), period, the dump's start, bins. */
struct cuda_dev_plan {
    int64_t t0, t1, period, dump_start;
    uint32_t n_cycles;
};

/* Where energies go: float64 sums, or 128-bit fixed point (fixed[2 i] the
 * low word of sum i, fixed[2 i + 1] the high word).  levels: the walks'
 * leakage of whole cycles, in watts, as a difference array over the cycles
 * (the walk launch turns it into bin energies). */
struct cuda_dev_out {
    double *bins, *inst;                 /* [n_cycles * 5], [n_insts * 5] */
    double *levels;                      /* [n_cycles + 1] */
    unsigned long long *fixed_bins, *fixed_inst, *fixed_levels;
    unsigned long long *events_used;
    bool fixed;
};

/* The planning state a run fills on the device. */
struct cuda_dev_tasks {
    uint64_t *net_first, *net_count;     /* per net: its first event at or after t0, and
                                            how many lie in [t0, t1) */
    uint32_t epoch_cycles, n_epochs;     /* the run's cycles cut into epochs of
                                            epoch_cycles (a power of two) */
    uint32_t *epoch_first;               /* [n_nets * n_epochs]: net n's window events before
                                            epoch j's start (its first event at or after that
                                            start is net_first[n] + epoch_first[n * n_epochs + j]):
                                            a walk starts its pins without a search */
    uint64_t *task0;                     /* [n_insts + 1]: gate g's windows are tasks
                                            task0[g] .. task0[g + 1] */
    uint32_t *window;                    /* per gate: cycles per window, a multiple of
                                            epoch_cycles (so that windows start at epochs) */
    uint32_t *task_inst;                 /* per task: its gate */
    unsigned long long *cursor;          /* the walk's next run of tasks to hand out */
    uint64_t *pin_ev0;                   /* [n_pins + 1]: Naive-D's pin events */
    uint64_t *gs_pin0;                   /* [n_pins + 1]: the gate streams' offsets: pin p's
                                            net has gs_pin0[p + 1] - gs_pin0[p] events; gate
                                            g's stream is gs[gs_pin0[first pin] ..
                                            gs_pin0[last pin + 1]) */
    uint64_t *gs;                        /* the gate streams (cuda_gate.cu), or NULL */
    double *memo;                        /* the instances' group energies (memo_kernel);
                                            NULL: the kernels look the tables up */
    void *scan_temp;                     /* CUB's scratch */
    size_t scan_temp_bytes;
};

/* The pins costed in bulk (power_model.h's power_bulk, uploaded), which
 * the gate streams leave out, and what a run sums per bulk net: its
 * changes' weights in half units by direction (integers: the same in any
 * order) and its changes. */
struct cuda_dev_bulk {
    uint32_t n_nets, n_pins;
    const uint32_t *net, *pin, *slot;
    const double *net_energy, *pin_energy;
    unsigned long long *half_weight;     /* [2 n_nets] */
    unsigned long long *changes;         /* [n_nets] */
};

/* The block of the kernels of one thread an item, and the blocks for n
 * items (at least 1). */
#define CUDA_KERNEL_BLOCK 256
unsigned cuda_kernels_blocks(uint64_t n);

/* Bytes of CUB scratch the scans of n_items (the larger of n_insts + 1 and
 * n_pins + 1) need. */
size_t cuda_kernels_scan_bytes(uint64_t n_items);

/* Fills memo (inst_memo0[n_insts] doubles) with every instance's group energies. */
cudaError_t cuda_kernels_memo(const cuda_dev_model &m, double *memo, cudaStream_t stream);

/* Counts each net's events in the window (net_first, net_count). */
cudaError_t cuda_kernels_count(const cuda_dev_model &m, const cuda_dev_plan &p,
                               const cuda_dev_tasks &t, cudaStream_t stream);
/* Fills epoch_first (after cuda_kernels_count). */
cudaError_t cuda_kernels_epochs(const cuda_dev_model &m, const cuda_dev_plan &p,
                                const cuda_dev_tasks &t, cudaStream_t stream);
/* Gate windows and their task offsets; *n_tasks gets the total. */
cudaError_t cuda_kernels_windows(const cuda_dev_model &m, const cuda_dev_plan &p,
                                 const cuda_power_options &o, const cuda_dev_tasks &t,
                                 uint64_t *n_tasks, cudaStream_t stream);
/* Fills task_inst (n_tasks entries, after cuda_kernels_windows). */
cudaError_t cuda_kernels_task_insts(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                    cudaStream_t stream);
/* Naive-D's pin-event offsets; *n_events gets the total. */
cudaError_t cuda_kernels_pin_events(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                    uint64_t *n_events, cudaStream_t stream);

/* The power kernels.  walk: each thread takes runs of o.lane_tasks
 * consecutive tasks as it finishes the last (leakage only, or fused with
 * dynamic and glitch energy), then the
 * leakage levels go into the bins; naive dynamic: one thread per pin event. */
cudaError_t cuda_kernels_walk(const cuda_dev_model &m, const cuda_dev_plan &p,
                              const cuda_dev_out &out, const cuda_dev_tasks &t, uint64_t n_tasks,
                              const cuda_power_options &o, bool dynamic, cudaStream_t stream);
cudaError_t cuda_kernels_naive_dynamic(const cuda_dev_model &m, const cuda_dev_plan &p,
                                       const cuda_dev_out &out, const cuda_dev_tasks &t,
                                       uint64_t n_events, bool sipl, cudaStream_t stream);

/* In-place exclusive scan of a[0 .. n] (n + 1 items, at most the scratch's
 * size); *total gets a[n] afterwards. */
cudaError_t cuda_kernels_scan(const cuda_dev_tasks &t, uint64_t *a, uint64_t n, uint64_t *total,
                              cudaStream_t stream);
/* Adds the leakage levels the walks booked into the bins. */
cudaError_t cuda_kernels_levels(const cuda_dev_plan &p, const cuda_dev_out &out,
                                cudaStream_t stream);

/* The gate streams (cuda_gate.cu): gs_pin0 (*total gets the entries); the
 * streams' chunks, gate g's chunk0[g] .. chunk0[g + 1] (chunk0 of n_insts + 1
 * entries; *n_chunks gets their number); then, in t.gs of that many
 * entries, every gate's events merged, a warp a chunk. */
cudaError_t cuda_kernels_gate_offsets(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                      uint64_t *total, cudaStream_t stream);
cudaError_t cuda_kernels_gate_chunks(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                     uint64_t *chunk0, uint64_t *n_chunks, cudaStream_t stream);
cudaError_t cuda_kernels_gate_streams(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                      const uint64_t *chunk0, uint64_t n_chunks,
                                      cudaStream_t stream);
/* The bulk pins' events in the window (cuda_bulk.cu): each bulk net's
 * changes into the cycles, then each pin's energies into its instance. */
cudaError_t cuda_kernels_bulk(const cuda_dev_model &m, const cuda_dev_plan &p,
                              const cuda_dev_out &out, const cuda_dev_bulk &b,
                              cudaStream_t stream);

/* The warp-per-gate kernel over n_tasks = n_insts x n_epochs tasks (epoch-major),
 * then the leakage levels. */
cudaError_t cuda_kernels_gate_warp(const cuda_dev_model &m, const cuda_dev_plan &p,
                                   const cuda_dev_out &out, const cuda_dev_tasks &t,
                                   uint64_t n_tasks, bool sipl, cudaStream_t stream);

/* The blocks of `block` threads (and smem bytes of dynamic shared memory)
 * of kernel fn that the device holds at once, at most `needed` and at
 * least 1, in *blocks: for kernels whose warps take their work from a
 * cursor until none is left. */
cudaError_t cuda_kernels_resident_blocks(const void *fn, unsigned block, size_t smem,
                                         uint64_t needed, unsigned *blocks);

/* What the compiler made of kernel fn launched in blocks of `block` with
 * smem bytes of dynamic shared memory: 1, or 0 when CUDA could not say. */
int cuda_kernels_report(const void *fn, const char *name, unsigned block, size_t smem,
                        cuda_kernel_report *out);
/* The warps of the warp-per-gate kernel (variant sipl, fixed) the device
 * holds at once, on model m's largest cell, in *warps. */
cudaError_t cuda_kernels_gate_warp_warps(const cuda_dev_model &m, bool sipl, bool fixed,
                                        uint64_t *warps);
int cuda_kernels_walk_report(const cuda_dev_model &m, const cuda_dev_plan &p,
                             const cuda_power_options &o, bool dynamic, const char *name,
                             cuda_kernel_report *out);
int cuda_kernels_naive_report(bool sipl, cuda_kernel_report *out);
int cuda_kernels_gate_warp_report(const cuda_dev_model &m, bool sipl, bool fixed,
                                  cuda_kernel_report *out);

/* The compiler's figures for the kernels variant o launches on model m. */
int cuda_kernels_reports(const cuda_dev_model &m, const cuda_dev_plan &p,
                         const cuda_power_options &o, cuda_kernel_report *out, int max);

#endif
