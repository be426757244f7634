/* resim.h: gate-level re-simulation (SPEC §5, GATSPI): from the waveforms of
 * the primary inputs and register outputs (a zero-delay dump) to every net's
 * delay-annotated waveform (written as SAIF and VCD by report.h's
 * report_write_events_saif and _vcd).
 *
 * The model (docs/model.md, "Re-simulation"): combinational gates are
 * evaluated level by level from their Liberty truth tables; an output change
 * schedules a wake-up one path delay (SDF IOPATH or NLDM, by the output's
 * transition) after the input change that caused it, and each wake-up puts
 * the gate's newest value on the output net, as Icarus Verilog's module
 * paths do.  Register outputs are the dump's, moved by their clock-to-Q
 * delay; input pins see their net's events after the pin's INTERCONNECT
 * delay. */
#ifndef GP_RESIM_RESIM_H
#define GP_RESIM_RESIM_H

#include <stdbool.h>
#include <stdint.h>

#include "design/design.h"
#include "events/events.h"
#include "util/diag.h"
#include "util/status.h"

typedef struct resim_options {
    /* Move register-output events by the flop's clock-to-Q arc delay (the
     * dump is zero-delay); false keeps them where the dump has them. */
    bool shift_registers;
    /* Worker threads for the gates of a level; 0: every online core.  The
     * result is the same for any number. */
    uint32_t threads;
    /* Per net, 1 where a signal of the dump gives it (events_options.bound):
     * a register output the dump holds at x throughout has no events, and
     * is x, not missing.  NULL: a net is in the dump when it has events. */
    const uint8_t *net_bound;
    /* A part of the dump (a rank's share of the cycles): the events must
     * be the whole dump's from exact_from_fs on, and are needed only
     * before until_fs.  The gates start X a warm-up before exact_from_fs,
     * long enough for every net to settle to the whole run's waveform
     * (docs/model.md), with the fixed nets' values there; the fixed nets'
     * events from until_fs on are left out.  INT64_MIN and INT64_MAX (the
     * defaults): the whole dump. */
    int64_t exact_from_fs, until_fs;
    /* The warm-up, resim_warmup_fs(dg), for a run of several parts that
     * works it out once; -1 (the default): each part works it out. */
    int64_t warmup_fs;
} resim_options;

typedef struct resim_stats {
    uint32_t gates;            /* combinational output pins simulated */
    uint32_t registers;        /* register-output nets taken from the dump */
    uint32_t inputs;           /* other nets taken from the dump */
    uint64_t events_in;        /* events of the dump used */
    uint64_t events_out;       /* events of the result */
    uint64_t wakeups;          /* scheduled output updates */
    uint64_t swallowed;        /* updates that found the output unchanged (filtered pulses) */
    int64_t start_fs;          /* where the gates started X: the dump's first time, or the
                                  warm-up's start before exact_from_fs */
} resim_stats;

resim_options resim_defaults(void);

/* How long before resim_options.exact_from_fs a part of the dump starts
 * (fs): the largest settling bound of any net (docs/model.md, "A part of
 * the dump"); -1 when out of memory. */
int64_t resim_warmup_fs(const design *dg);

/* Re-simulates `dg` from `dump` (events of the primary inputs and register
 * outputs, e.g. read by events_read from a zero-delay VCD) into `*full`, an
 * event store of every net (free with events_free).  Errors: a register
 * output or input port missing from the dump, a combinational loop, a cell
 * whose functions are not compiled. */
gp_status resim_run(const design *dg, const events *dump, const resim_options *opt,
                    events **full, resim_stats *stats, diag_ctx *d);

/* ---- the re-simulation as flat arrays, for an engine of its own (CUDA) ----
 *
 * What resim_run computes, given as data: the nets no combinational gate
 * drives (their waveforms, made as resim_run makes them) and the gates in
 * level order, each input with its delays chosen.  An engine that
 * simulates each gate as resim_gate.c does, with resim_rules.h, from these
 * arrays, gets resim_run's events. */

/* One input of a gate: by the value its net goes to (0, 1, EVENTS_X), the
 * pin's wire delay and the smallest path delay to the output (fs). */
typedef struct resim_input {
    int64_t wire[3];
    int64_t delay[3];
    uint32_t net;             /* DESIGN_NONE: unconnected: no event */
} resim_input;

/* One combinational output pin. */
typedef struct resim_plan_gate {
    uint32_t net;             /* the output net */
    uint32_t in0;             /* its inputs: plan.inputs[in0 .. in0 + n_inputs) */
    uint32_t n_inputs;        /* 0: a constant (the function's value) */
    uint32_t tt0;             /* its function's truth table: plan.tt[tt0 ..]; RESIM_NO_TT:
                                 none (X throughout) */
} resim_plan_gate;

#define RESIM_NO_TT UINT32_MAX

typedef struct resim_plan {
    /* The waveforms of the nets no combinational gate drives, every event
     * resim_run's simulation reads (none cut at the dump's end); the gate
     * outputs have none.  Its end_fs is the dump's. */
    events *fixed;
    int64_t t0;               /* every gate output starts X at t0: the dump's first time,
                                 or resim_options.exact_from_fs's warm-up start */
    uint32_t n_gates, n_levels;
    uint32_t *level_gate0;    /* [n_levels + 1]: level l's gates */
    resim_plan_gate *gates;   /* level by level, within a level by fan-in, then by
                                 instance */
    uint32_t n_inputs;
    resim_input *inputs;
    uint64_t n_tt;
    uint64_t *tt;
} resim_plan;

/* Makes the plan of re-simulating dg from dump (resim_run's checks and
 * errors); stats gets what is known before the gates run (registers,
 * inputs, events_in, gates). */
gp_status resim_plan_make(const design *dg, const events *dump, const resim_options *opt,
                          resim_plan *plan, resim_stats *stats, diag_ctx *d);
/* The plan moved to the part of the same dump (and design) that opt says,
 * as resim_plan_make would make it there: the fixed nets' events made
 * anew, the gates kept.  On failure the plan has no fixed nets. */
gp_status resim_plan_move(const design *dg, const events *dump, const resim_options *opt,
                          resim_plan *plan, resim_stats *stats, diag_ctx *d);
void resim_plan_free(resim_plan *plan);

#endif
