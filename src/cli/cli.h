/* cli.h: what the command line's files share: the context every command
 * gets, exit statuses, and the design inputs common to info, power and resim. */
#ifndef GP_CLI_CLI_H
#define GP_CLI_CLI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuda/cuda_power.h"
#include "design/design.h"
#include "events/events.h"
#include "liberty/liberty.h"
#include "power/power.h"
#include "report/report.h"
#include "sdc/sdc.h"
#include "util/diag.h"

/* Exit statuses: 1 the inputs are wrong (the message says what to fix),
 * 2 a usage error. */
enum { CLI_EXIT_INPUT = 1, CLI_EXIT_USAGE = 2 };

/* What every command gets from the global options. */
typedef struct cli_context {
    diag_ctx *diag;
    bool quiet; /* no progress bars */
} cli_context;

#define CLI_MAX_FILES 64

/* The design options shared by the commands (see cli_inputs_help). */
typedef struct cli_inputs {
    const char *libs[CLI_MAX_FILES];
    int n_libs;
    const char *netlists[CLI_MAX_FILES];
    int n_netlists;
    const char *sdcs[CLI_MAX_FILES];
    int n_sdcs;
    const char *top, *sdf, *spef, *activity, *scope;
    /* --activity repeated (gatepower power: a section each and their
     * combination); activity is the first. */
    const char *activities[CLI_MAX_FILES];
    int n_activities;
    bool several_activities; /* the command takes more than one (power) */
    double output_load; /* --output-load: F on every output port (SDC's set_load wins) */
    bool list_unannotated; /* --list-unannotated: a note per net the activity misses */
    bool timing;   /* --timing: seconds per phase on stderr and in report.json */
    int threads;   /* reading the activity (0: every core): the command's --threads */
} cli_inputs;

/* The help text of the options above, for a command's --help. */
extern const char cli_inputs_help[];

/* If argv[*i] is a design option, takes it and its value (advancing *i) and
 * returns 1; returns 0 for another argument, -1 after reporting a missing
 * value or too many files. */
int cli_parse_input(cli_inputs *in, int argc, char **argv, int *i, diag_ctx *d);
/* Reports what a command cannot run without; false if something is missing. */
bool cli_inputs_complete(const cli_inputs *in, diag_ctx *d);

/* Wall seconds per phase of a run, in the order they ran. */
#define CLI_MAX_PHASES 32
typedef struct cli_timing {
    report_phase phase[CLI_MAX_PHASES];
    int n;
    double mark; /* when the phase now running began */
    uint32_t windows; /* the activity's (or resim's) windows, when more than one */
    uint64_t span_bytes; /* events_stats.span_bytes */
} cli_timing;

void cli_timing_start(cli_timing *t);
/* Ends the phase now running as `name` (added to an earlier phase of that
 * name: a phase done again, window by window) and starts the next. */
void cli_timing_lap(cli_timing *t, const char *name);
/* Ends the phase now running as two: `part`, part_seconds of it spent
 * in turns with the rest, and `name`, the rest. */
void cli_timing_lap_split(cli_timing *t, const char *name, const char *part, double part_seconds);
/* Records `name`, which took `seconds` beside the phases that follow
 * (not in the total). */
void cli_timing_beside(cli_timing *t, const char *name, double seconds, const char *beside);
/* Records `name`, a step of `seconds` within phase `within` ("the
 * engine"), not in the total; a step done again (a window of several)
 * adds up. */
void cli_timing_step(cli_timing *t, const char *name, double seconds, const char *within);
/* The reading's own steps (events_stats) within the activity's phase just
 * ended (not in the total): the dump's header, the wait for the design,
 * the event store. */
void cli_timing_activity_steps(cli_timing *t, const events_stats *s);
/* "timing: libraries 0.12 s, netlist 1.30 s, ...; total 3.1 s; peak memory
 * 2.1 GB" (the process's peak resident memory). */
void cli_timing_print(const cli_timing *t, FILE *out);

/* How much of the design the activity annotates (cli_coverage_check). */
typedef struct cli_coverage {
    const design *dg;
    const char *scope;
    diag_ctx *d;
    bool warn;        /* warning 1032 below 100% (not for a register dump) */
    bool list_all;    /* a note per unannotated net */
    bool refuse_most; /* an error (1036, 1038) when fewer than half the driven nets are */
    uint32_t driven, driven_annotated, inputs, inputs_annotated;
    uint8_t *net_bound; /* a copy of the dump's net_bound (NULL when out of memory) */
} cli_coverage;

/* events_options.bound: keeps a copy of net_bound and counts the nets
 * driven by cells and the primary inputs the dump gives; with warn a
 * warning (1032) naming the first missing ones below 100%, an error with
 * refuse_most when most driven nets are missing (naming the scope the dump
 * seems to hold the design under). */
gp_status cli_coverage_check(void *ctx, const uint8_t *net_bound, const events_stats *stats);

/* Everything read from the inputs, and what matched what. */
typedef struct cli_design {
    lib_set *libs;
    design *dg;
    events *ev; /* NULL without --activity */
    design_sdf_stats sdf;
    design_spef_stats spef;
    sdc *sdc;              /* NULL without --sdc */
    sdc_timing constraints; /* the options of the design's timing, SDC's or the defaults */
    events_stats activity;
    cli_coverage coverage;
    cli_timing timing; /* the reading's phases, then the command's own */
    /* The design's loads, slews and delays computed on a thread of their
     * own while the activity is read, or the SDF's instances looked up
     * (cli_design_ready waits for them). */
    pthread_t timing_thread;
    bool timing_pending;
    const char *timing_beside; /* what the thread ran beside, for --timing */
    gp_status timing_status;
    double timing_seconds;
    /* The design's files read on a thread of their own beside the
     * activity (cli_design_begin, cli_beside.c). */
    const cli_inputs *files_in;
    cli_context files_ctx;
    pthread_t files_thread;
    bool files_pending;
    gp_status files_status;
    _Atomic bool files_failed; /* set by the files' thread: the activity may stop */
    diag_ctx *activity_diag; /* the activity's messages, held until the design's are out */
    double activity_start;
    gp_status (*on_design)(void *ctx, struct cli_design *cd);
    void *on_design_ctx;
    bool arrived;            /* cli_design_arrived ran, with arrival_status */
    gp_status arrival_status;
} cli_design;

/* Reads libraries, netlist, SPEF, SDF and activity, in that order (SPEF
 * before SDF: SPEF's loads change the NLDM delays that SDF replaces).
 * list_unmatched: name each activity signal that matches no net;
 * coverage: warn of nets the activity does not give (not for a register
 * dump); out->coverage.net_bound says which it gives either way.  A progress bar shows on a terminal unless --quiet. */
gp_status cli_read_design(const cli_inputs *in, bool list_unmatched, bool coverage,
                          cli_design *out, const cli_context *ctx);
/* The same but the activity, into `out` (zeroed by the caller); with
 * beside_activity (and no SDF, which needs them first) the loads, slews
 * and delays are left computing on a thread: call cli_design_ready before
 * the engine.  With an SDF they are computed on a thread beside the
 * lookups of the instances its entries name. */
gp_status cli_read_design_files(const cli_inputs *in, bool beside_activity, cli_design *out,
                                const cli_context *ctx);
/* Starts reading the design's files into cd (as cli_read_design_files
 * does, beside the activity) on a thread of their own, for the activity to
 * be read meanwhile: with cd->activity_diag for its messages,
 * cli_design_arrived and cd as events_options.design and design_ctx,
 * cli_design_failed as its stopped, and
 * cli_coverage_check with &cd->coverage (a copy of `coverage`, its dg set
 * when the design arrives) as its bound.  on_design (NULL: none) runs once
 * the design is read, before the activity is bound to it; a status other
 * than GP_OK from it stops the activity. */
gp_status cli_design_begin(const cli_inputs *in, const cli_coverage *coverage,
                           gp_status (*on_design)(void *ctx, cli_design *cd),
                           void *on_design_ctx, cli_design *cd, const cli_context *ctx);
/* Waits for the design's files when they are read beside; their status. */
gp_status cli_design_files_done(cli_design *cd);
/* events_options.design (ctx: the cli_design): waits for the design's
 * files, runs on_design, then lets the activity's messages out. */
gp_status cli_design_arrived(void *ctx, const design **out);
/* events_options.stopped (ctx: the cli_design): the design's files failed. */
bool cli_design_failed(void *ctx);
/* After the activity's reading, whose status was st: waits for the
 * design's files and runs on_design if the activity stopped before it
 * asked, so that the activity's messages follow the design's (dropped when
 * the design failed: its messages say why); the design's phases are
 * marked as beside the activity, whose phase runs from cli_design_begin.
 * Returns the design's (or on_design's) status, else st. */
gp_status cli_design_after_activity(cli_design *cd, gp_status st);
/* Waits for the loads, slews and delays when they are computing. */
gp_status cli_design_ready(cli_design *cd);
void cli_design_free(cli_design *cd);

/* A time with its unit (s ms us ns ps fs, e.g. "10ns", "2.5 us") in fs;
 * false when malformed, negative or without a unit. */
bool cli_parse_time(const char *text, int64_t *fs);
/* A capacitance with its unit (F uF nF pF fF, e.g. "10fF") in farads;
 * false when malformed, negative or without a unit. */
bool cli_parse_capacitance(const char *text, double *farads);
/* A whole number from 0 to max; false when malformed or out of range. */
bool cli_parse_count(const char *text, int max, int *out);
/* "T0:T1", both times with units. */
bool cli_parse_window(const char *text, int64_t *start_fs, int64_t *end_fs);

typedef enum cli_engine { CLI_ENGINE_CPU, CLI_ENGINE_REF, CLI_ENGINE_CUDA } cli_engine;

/* The power analysis options and outputs of `power` and `resim --power`. */
typedef struct cli_power_args {
    power_options opt;
    cli_engine engine;
    int threads;     /* --threads N for the cpu engine; 0: every core */
    cuda_power_options cuda; /* --cuda-variant, --cuda-target-events, ... */
    bool device_given;       /* --device N; else each rank of a host takes one in turn */
    /* --devices all|N,M,...: the GPUs one process cuts each window's cycles
     * among (power_stream_lanes); devices_given with none: "all" found none. */
    int devices[POWER_MAX_LANES];
    int n_devices;
    bool devices_given;
    const char *out_dir, *json;
    int hotspots;
} cli_power_args;

extern const char cli_power_help[];
cli_power_args cli_power_defaults(void);
/* What the ranks of one host share (ranks.h): unless given, each takes
 * the cores over the host's ranks as threads and the GPUs in turn. */
void cli_power_share_host(cli_power_args *a);
/* Like cli_parse_input, for the analysis and output options. */
int cli_parse_power_option(cli_power_args *a, int argc, char **argv, int *i, diag_ctx *d);
/* Reports a clock given both ways, or not at all where no SDC may give it
 * (before any input is read); `command` names the command in the message. */
bool cli_power_clock_given(const cli_power_args *a, const cli_inputs *in, const char *command,
                           diag_ctx *d);
/* The period from cd's SDC when --period is not given: the clock --clock
 * names, else the fastest (a note says which); false after reporting an
 * SDC without clocks.  A --clock that is no SDC clock stays a net. */
bool cli_power_clock_from_sdc(cli_power_args *a, const cli_design *cd, diag_ctx *d);
/* Reports --engine cuda where no device can run it (before any input is
 * read, without starting CUDA where the kernel driver lists the device:
 * cuda_device_listed); false then. */
bool cli_power_engine_ready(const cli_power_args *a, diag_ctx *d);
/* The power analysis of `ev` by the engine --engine names, into *r. */
gp_status cli_power_analyze(const cli_power_args *a, const design *dg, const events *ev,
                            power_result **r, cli_timing *timing, diag_ctx *d);
/* cli_power_analyze on the CUDA engine over events on the device (dev),
 * whose plan reads host_ev (cuda_power_open_resident). */
gp_status cli_power_analyze_resident(const cli_power_args *a, const design *dg,
                                     const events *host_ev, const cuda_events *dev,
                                     power_result **r, cli_timing *timing, diag_ctx *d);
/* After this rank's analysis of its share into r (NULL: none) with status
 * st: the ranks' results gathered on rank 0 (cli_ranks_gather), which
 * prints and writes them; r goes.  Returns the exit status. */
int cli_power_finish(const cli_power_args *a, const char *design_name, const design *dg,
                     gp_status st, power_result *r, cli_timing *timing, diag_ctx *d);
/* The contexts of the devices the cuda engine runs on, made on a thread
 * while the inputs are read and ended on one while the reports are
 * written (at exit they would hold up the process for about a tenth of a
 * second).  Nothing with another engine. */
typedef struct cli_devices {
    const cli_power_args *a;
    bool cuda;      /* the engine is cuda: contexts to make and end */
    pthread_t thread;
    bool running;   /* thread is to be joined */
} cli_devices;
void cli_devices_start(cli_devices *dv, const cli_power_args *a);
/* Waits for the contexts, then ends them on a thread of their own: once
 * no CUDA call follows. */
void cli_devices_stop(cli_devices *dv);
/* Waits for whatever start or stop still runs. */
void cli_devices_join(cli_devices *dv);
/* One of several ranks (ranks.h) whose events are made, not read
 * (resim --power): fixes the clock on `dump` as a power stream would (a
 * --clock is measured there) and narrows a->opt to this rank's share of
 * the cycles; [*from, *to) is the span its events must be exact on
 * (power_stream_span; empty when the share holds no cycle). */
gp_status cli_power_take_share(cli_power_args *a, const design *dg, const events *dump,
                               int64_t *from, int64_t *to, diag_ctx *d);
/* Reads the design's files into cd and, beside them, in->activity in
 * windows of at most `memory` bytes of events (0: the default,
 * cli_memory_default) into the power analysis of the design (its clock
 * from the SDC when a->opt has none), then prints and writes the results
 * as cli_power_finish does; returns the exit status. */
int cli_power_stream(cli_power_args *a, const cli_inputs *in, uint64_t memory,
                     cli_design *cd, const cli_context *ctx);
/* After each rank of a run (ranks.h) analysed its share of the cycles
 * into *r (NULL: none) with status st: on rank 0, every rank's result
 * appended in rank order; on the others, *r sent there and NULL.  An error
 * when any rank failed.  With one rank, st. */
gp_status cli_ranks_gather(power_result **r, gp_status st, diag_ctx *d);
/* events_options.edge over the ranks (ctx: the diag_ctx): the ranks'
 * edges before this one, folded in rank order. */
gp_status cli_ranks_edge(void *ctx, const events_edge *mine, events_edge *before,
                         uint32_t n_nets);
/* The bytes of events a run holds by default: half the memory, and for
 * the cuda engine half the device's too, over the host's ranks. */
uint64_t cli_memory_default(const cli_power_args *a);
/* A size in bytes with an optional K, M, G or T (powers of 1024), e.g.
 * 512M or 8G; false when malformed or 0. */
bool cli_parse_size(const char *text, uint64_t *bytes);
/* --memory SIZE's value into *bytes; false after reporting a bad one. */
bool cli_parse_memory(const char *value, uint64_t *bytes, diag_ctx *d);

/* How a command's arguments read: the design inputs, its own options and,
 * for commands that analyse power, the power options. */
typedef struct cli_syntax {
    const char *name;       /* "power" */
    const char *help;       /* printf format given cli_inputs_help, cli_power_help */
    cli_inputs *in;
    cli_power_args *power;  /* NULL: no power options */
    /* The command's own option at argv[*i]: 1 taken (advancing *i past a
     * value), 0 not one of them.  NULL: none. */
    int (*own)(void *args, int argc, char **argv, int *i);
    void *own_args;
} cli_syntax;

/* Parses argv[1..] by `syn` and checks the design inputs are complete:
 * 0 to go on, -1 after printing --help, else the exit status. */
int cli_parse_command(const cli_syntax *syn, int argc, char **argv, diag_ctx *d);

int cli_info(int argc, char **argv, const cli_context *ctx);
int cli_power(int argc, char **argv, const cli_context *ctx);
int cli_resim(int argc, char **argv, const cli_context *ctx);

#endif
