/* cuda_resim.h: the re-simulation on the GPU (`gatepower resim --engine
 * cuda`), behind a C interface: resim_plan's gates level by level, a
 * thread a gate output over the whole time span, each simulated as
 * resim_gate.c does with resim_rules.h's rules, so that the events are the
 * CPU re-simulation's, bit for bit.  They stay on the device where the
 * levels wrote them, each net's a range of one array (cuda_events), where
 * the CUDA power engine reads them (cuda_power_open_resident), and come
 * back to the host, in the event store's layout (events.h), only when
 * asked.
 *
 * Builds without the CUDA toolkit link cuda_absent.c, whose functions
 * report that this build has no CUDA engine. */
#ifndef GP_CUDA_CUDA_RESIM_H
#define GP_CUDA_CUDA_RESIM_H

#include <stdbool.h>
#include <stdint.h>

#include "events/events.h"
#include "resim/resim.h"
#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Input events a window aims at by default. */
#define CUDA_RESIM_WINDOW_EVENTS 96

struct cuda_span;

/* An event store on the device: net n's events are word[net_begin[n] ..
 * net_end[n]), in time order as events.h lays out a net's.  The nets'
 * ranges need not follow each other, nor come in net order (events.h's
 * store is the case net_begin = net_ev0, net_end = net_ev0 + 1). */
typedef struct cuda_events {
    int device;
    uint32_t n_nets;
    uint64_t n_events;        /* over all nets */
    const uint64_t *word;     /* device */
    uint64_t *net_begin;      /* device, [n_nets] */
    uint64_t *net_end;        /* device, [n_nets] */
    uint64_t max_net_events;  /* the most events of one net */
    int64_t end_fs;           /* the dump's last time stamp */
    int64_t last_fs;          /* the latest event's time (0 without events) */
    struct cuda_span *memory; /* where word lies, freed with the events */
} cuda_events;

/* Wall-clock seconds of a re-simulation's stages. */
typedef struct cuda_resim_timing {
    double upload_s;          /* the truth tables and the fixed nets' events to the device */
    double levels_s;          /* the gates, level by level (their gates and inputs going
                                 up meanwhile): */
    double windows_s;         /*   the windows' count, gates and room */
    double simulate_s;        /*   their simulation */
    double join_s;            /*   the join into the gates' waveforms */
    double cut_s;             /* the waveforms cut at the dump's end where they lie,
                                 the levels' own arrays freed */
    uint64_t windows;         /* simulated, over all levels */
    uint64_t redone;          /* of them, those whose rings overflowed */
} cuda_resim_timing;

/* How the GPU re-simulation cuts its work (bench/resim-cuda.sh measures
 * the choices; docs/performance.md says why these are the defaults). */
typedef struct cuda_resim_options {
    int device;               /* CUDA device index */
    uint32_t window_events;   /* input events a window of a gate's time aims at;
                                 0: one window a gate, its whole time */
    bool tight;               /* the window kernel held to 96 registers a thread (five
                                 blocks resident an SM instead of four, some spilled) */
    bool even_events;         /* a gate's windows cut where its inputs' events split
                                 evenly, not in equal spans of time */
} cuda_resim_options;

/* Device 0, windows of CUDA_RESIM_WINDOW_EVENTS cut at even events, tight. */
cuda_resim_options cuda_resim_defaults(void);

/* Re-simulates plan p (resim_plan_make) on CUDA device o->device into *out
 * (free with cuda_events_free): the events resim_run gives.  stats gets
 * the counts resim_run's has (events_out, wakeups, swallowed added to
 * what the plan said); timing may be NULL. */
gp_status cuda_resim_run(const resim_plan *p, const cuda_resim_options *o, cuda_events **out,
                         resim_stats *stats, cuda_resim_timing *timing, diag_ctx *d);

/* A host copy of e in net order (free with events_free); the device needs
 * room for a second copy of e's words meanwhile. */
gp_status cuda_events_download(const cuda_events *e, events **out, diag_ctx *d);
void cuda_events_free(cuda_events *e);

#ifdef __cplusplus
}
#endif

#endif
