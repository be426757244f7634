/* cuda_power.h: the CUDA power engine (--engine cuda): the reference
 * engine's rules (SPEC §3, power_ref.c) in the kernels of the paper
 * "GPU-Accelerated Gate-Level Time-Based Power Analysis" and their
 * ablation, behind a C interface.
 *
 * A variant is independent switches, the paper's three:
 *   sipl       state-indexed power lookup: per cell type, the groups and the
 *              leakage of each state are table entries; off, each event scans
 *              its pin's internal_power groups and evaluates their `when`;
 *   partition  each gate's cycles cut into windows of about target_events
 *              events (event-density-aware, with a parallelism floor); off,
 *              one cycle per thread;
 *   fusion     one kernel: a thread rebuilds the state once and walks its
 *              window for leakage, dynamic and glitch energy; off, Naive-D
 *              (one thread per pin event: dynamic and glitch energy) and
 *              Naive-L (one thread per window: leakage) run one after the other.
and two of ours, past the paper:
 *   memo       each instance's energy of each internal_power group, in each
 *              (own, slew) direction, computed once per run by a kernel of
 *              one thread per instance: events then add table entries
 *              instead of interpolating the library's tables (with slews
 *              and loads fixed per instance, the same numbers);
 *   warp       (with fusion) a warp a task, each lane walking a 32nd of
 *              the gate's events, whole cycles (cuda_gate.cu): each gate's
 *              events are merged once a session into a gate stream; tasks
 *              are (gate, epoch), epochs about CUDA_POWER_WARP_EVENTS pin
 *              events a gate (part), or one cycle.
 * "naive" has all five off, "fused" all on, the default: the fastest on the
 * H200 (bench/RESULTS.md, docs/model.md).  Without warp, fusion is the walk
 * kernel (cuda_walk.cu: a thread a gate's window).
 *
 * Energies are summed in float64 atomics (run-to-run differences at the
 * level of rounding), or, deterministic, in 128-bit fixed point (two 64-bit
 * integer atomics per sum, 2^-120 J per unit): integer sums do not depend on
 * their order, so the output is bitwise identical run to run.
 *
 * Builds without the CUDA toolkit link cuda_absent.c, whose functions report
 * that this build has no CUDA engine. */
#ifndef GP_CUDA_CUDA_POWER_H
#define GP_CUDA_CUDA_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "events/events.h"
#include "power/power.h"
#include "cuda/cuda_resim.h"
#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Partitioning's defaults: the paper's 8 events per thread, and a
 * parallelism floor of 64 windows per gate (fewer only where the run has
 * fewer cycles), so that a quiet gate's leakage is not left to one thread. */
#define CUDA_POWER_TARGET_EVENTS 8
#define CUDA_POWER_MIN_WINDOWS 64
/* Consecutive tasks a walk thread takes at a time, as it finishes the last
 * (the state carries over between windows of one gate). */
#define CUDA_POWER_LANE_TASKS 8
/* The warp kernel's epochs (partitioned): the fewest cycles, a power of
 * two, in which the average gate has this many pin events (64 a lane: the
 * lanes' shares end at cycle starts, so they differ by about a cycle's
 * events, and each task opens its pins). */
#define CUDA_POWER_WARP_EVENTS 2048
/* ... but no fewer (gate, epoch) tasks than this many for each warp the
 * device holds of the kernel (cudaOccupancy...: 2640 on the H200) where
 * shorter epochs give them.  A design of few gates otherwise leaves most
 * warps without a task, or one each and the busiest last; more, shorter
 * tasks cost their starts (docs/performance.md, "Tuning the kernels"). */
#define CUDA_POWER_WARP_TASKS_PER_WARP 2
/* The most pins of a cell the kernels walk: their per-pin state lives in
 * per-thread arrays of this size, and the state index has 32 bits. */
#define CUDA_MAX_PINS 32

typedef struct cuda_power_options {
    bool sipl, partition, fusion, memo, warp;
    uint32_t target_events;   /* partition: events per thread aimed at (>= 1) */
    uint32_t min_windows;     /* partition: the parallelism floor: each gate's cycles
                                 are cut into at least this many windows (>= 1) */
    uint32_t lane_tasks;      /* walk kernels: consecutive tasks a thread takes (>= 1) */
    uint32_t epoch_cycles;    /* partition: windows are whole epochs of this many cycles;
                                 0: the engine's choice (docs/model.md) */
    bool deterministic;       /* fixed-point sums: bitwise identical run to run */
    int device;               /* CUDA device index */
    /* cuda_power_analyze: the device memory a run's events may take; more
     * run in slices of cycles.  0: what the device has free, less a margin
     * for the design (tests set it small to force slices). */
    uint64_t device_bytes;
} cuda_power_options;

/* fused (all five), the default partitioning, float64 sums, device 0. */
cuda_power_options cuda_power_defaults(void);

/* Sets the switches from "naive" or a '+'-separated list of "sipl", "part",
 * "fusion", "memo" and "warp" (e.g. "sipl+part"); "fused" is all five.
 * Error 1507 names what it did not understand, 1518 warp without fusion. */
gp_status cuda_power_parse_variant(const char *text, cuda_power_options *o, diag_ctx *d);
/* The variant's canonical name ("naive", "sipl+part", ...), in buf[32]. */
const char *cuda_power_variant_name(const cuda_power_options *o, char buf[32]);

/* Wall-clock seconds of one run's stages. */
typedef struct cuda_power_timing {
    double plan_s;            /* windows and tasks (device) */
    double kernel_s;          /* the power kernels alone, by CUDA events */
    double result_s;          /* download and assembly of the result */
    uint64_t threads;         /* threads the power kernels ran */
} cuda_power_timing;

/* A design and its events on the device, ready for runs of any variant. */
typedef struct cuda_power_session cuda_power_session;

/* Wall-clock seconds of cuda_power_open.  The events' upload and the plan
 * + model run at the same time, on two threads: total_s is about the larger
 * of the two plus the CUDA context's creation. */
typedef struct cuda_power_open_timing {
    double upload_s;          /* the events: packed on host threads and copied */
    double model_s;           /* the plan and the device model: built and copied */
    double total_s;           /* the whole of cuda_power_open */
} cuda_power_open_timing;

/* Checks the options (power_plan_make's errors) and the cells
 * (cuda_power_check_cells), builds the power model (power_model.h) and
 * uploads it with
 * the events, which are packed on host threads in chunks while earlier
 * chunks are copied.  *timing (NULL: not asked) gets the seconds this took. */
gp_status cuda_power_open(const design *dg, const events *ev, const power_options *opt,
                          int device, cuda_power_session **out, cuda_power_open_timing *timing,
                          diag_ctx *d);
/* cuda_power_open on events already on the device (cuda_resim_run's), on
 * their device: host_ev gives the plan what it reads of the events on the
 * host (the clock's edges, the dump's span, the primary inputs' events;
 * resim_plan.fixed holds them), the kernels read dev's.  dev must outlive
 * the session, which does not free it. */
gp_status cuda_power_open_resident(const design *dg, const events *host_ev,
                                   const cuda_events *dev, const power_options *opt,
                                   cuda_power_session **out, cuda_power_open_timing *timing,
                                   diag_ctx *d);
/* One run of variant `copt`; out NULL: timing only.  events_used and every
 * energy as the reference engine's, within 1e-6 relative. */
gp_status cuda_power_run(cuda_power_session *s, const cuda_power_options *copt,
                         power_result **out, cuda_power_timing *timing, diag_ctx *d);
void cuda_power_close(cuda_power_session *s);

/* Whether every cell of dg has at most CUDA_MAX_PINS pins (error 1509
 * names one that has more). */
gp_status cuda_power_check_cells(const design *dg, diag_ctx *d);

/* Whether CUDA device `device` can run the engine (error 1515 when the
 * machine has no such device, 1501 in a build without CUDA): what a
 * command checks before it reads any input. */
gp_status cuda_power_check_device(int device, diag_ctx *d);

/* cuda_power_open, cuda_power_run, cuda_power_close; a store larger than
 * the device holds (its events, their epoch index and gate streams) runs
 * in slices of cycles that fit (power_analyze_in_room). */
gp_status cuda_power_analyze(const design *dg, const events *ev, const power_options *opt,
                             const cuda_power_options *copt, power_result **out, diag_ctx *d);

/* What the compiler made of one power kernel. */
typedef struct cuda_kernel_report {
    const char *name;
    int registers;            /* per thread */
    int local_bytes;          /* spills and local arrays, per thread */
    int block_threads;        /* the launch's block size */
    double occupancy;         /* theoretical: resident warps / the SM's maximum */
} cuda_kernel_report;

/* The kernels variant `copt` launches on session s's design (the walk
 * kernel is compiled for cells of up to 4, 8 or CUDA_MAX_PINS pins): up to
 * `max` reports; returns their count. */
int cuda_power_kernel_reports(const cuda_power_session *s, const cuda_power_options *copt,
                              cuda_kernel_report *out, int max);

#ifdef __cplusplus
}
#endif

#endif
