/* cmd_resim.c: `gatepower resim`: every net's delay-annotated waveform from a
 * dump of the primary inputs and register outputs, written as SAIF and VCD
 * and optionally analysed for power. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_resim.h"
#include "ranks/ranks.h"
#include "report/report.h"
#include "resim/resim.h"

static const char resim_help[] =
    "usage: gatepower resim --lib FILE --netlist FILE --activity FILE --scope PATH\n"
    "                       [--sdf FILE] [--saif FILE] [--vcd FILE] [options]\n"
    "\n"
    "Re-simulation: from a zero-delay dump of the primary inputs and register\n"
    "outputs (--activity), the waveform of every net with gate delays (SDF IOPATH,\n"
    "else NLDM) and glitches. Register outputs move by their clock-to-Q delay.\n"
    "\n"
    "%s"
    "\n"
    "re-simulation:\n"
    "  --no-clock-to-q   keep register outputs at the dump's times (for a dump\n"
    "                    that already has the clock-to-Q delays)\n"
    "  (--threads N, below, sets the re-simulation's threads too; the result is\n"
    "  the same for any N.  --engine cuda, below, re-simulates on the GPU: the\n"
    "  same events, which stay there for --power; --cuda-device N picks it)\n"
    "\n"
    "output:\n"
    "  --saif FILE       SAIF 2.0 (T0 T1 TX TC IG per net)\n"
    "  --vcd FILE        every net's waveform, 1 fs timescale, under --scope\n"
    "  --power           then analyse the re-simulated events' power, as\n"
    "                    `gatepower power` does, with its options below\n"
    "\n"
    "%s"
    "\n"
    "memory:\n"
    "  --memory SIZE     with --power, the re-simulated events held at once, about\n"
    "                    (e.g. 512M, 8G; default: every cycle at once): the cycles\n"
    "                    are re-simulated and analysed in windows of whole cycles,\n"
    "                    each from a warm-up before it, with the same results (on\n"
    "                    the GPU too: a design whose events exceed its memory; a\n"
    "                    run out of GPU memory without --memory goes again so)\n"
    "\n"
    "ranks (MPI):\n"
    "  mpirun -np N gatepower resim --power ...  shares the cycles out: each rank\n"
    "                    re-simulates its range of whole cycles, from a warm-up long\n"
    "                    enough for every net to settle (the design's path delays),\n"
    "                    and analyses their power; rank 0 adds the results up in\n"
    "                    rank order, equal to one process within 1e-9. --saif and\n"
    "                    --vcd are written by one process\n"
    "\n"
    "example:\n"
    "  gatepower resim --lib osu018_stdcells.lib --netlist netlist.v --sdf netlist.sdf \\\n"
    "                  --activity regs.vcd --scope tb/dut --saif resim.saif --vcd resim.vcd\n";

typedef struct resim_args {
    cli_inputs in;
    resim_options opt;
    cli_power_args power;
    const char *saif, *vcd;
    bool want_power;
    uint64_t memory; /* --memory: the events a window holds, about; 0: one window */
    cli_devices *devices; /* started with the reading, joined when the GPU is first needed */
    diag_ctx *d;
} resim_args;

/* Takes one of resim's own options at argv[*i]; 1 taken, 0 not one. */
static int parse_resim_option(void *args, int argc, char **argv, int *i)
{
    resim_args *a = args;
    const char *option = argv[*i], *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strcmp(option, "--no-clock-to-q") == 0) {
        a->opt.shift_registers = false;
        return 1;
    }
    if (strcmp(option, "--power") == 0) {
        a->want_power = true;
        return 1;
    }
    if (!value)
        return 0;
    if (strcmp(option, "--saif") == 0)
        a->saif = value;
    else if (strcmp(option, "--vcd") == 0)
        a->vcd = value;
    else if (strcmp(option, "--memory") == 0)
        return cli_parse_memory(argv[++*i], &a->memory, a->d) ? 1 : -1;
    else
        return 0;
    ++*i;
    return 1;
}

/* Returns 0 to go on, -1 after --help, else the exit status. */
static int parse_options(int argc, char **argv, resim_args *a, diag_ctx *d)
{
    cli_syntax syn = {.name = "resim", .help = resim_help, .in = &a->in, .power = &a->power,
                      .own = parse_resim_option, .own_args = a};
    int status = cli_parse_command(&syn, argc, argv, d);
    if (status)
        return status;
    if (!a->in.activity) {
        diag_error(d, 1402, DIAG_NOWHERE, "gatepower resim needs the register and input "
                   "activity: give --activity FILE (VCD or FST) and --scope PATH");
        return CLI_EXIT_USAGE;
    }
    if (a->want_power && !cli_power_clock_given(&a->power, &a->in, "gatepower resim --power", d))
        return CLI_EXIT_USAGE;
    if (ranks_count() > 1 && (!a->want_power || a->saif || a->vcd)) {
        diag_error(d, 1049, DIAG_NOWHERE, "under mpirun, gatepower resim shares out the cycles "
                   "of its power analysis: give --power, without --saif or --vcd (the waveform "
                   "of every net is written by one process: run it without mpirun)");
        return CLI_EXIT_USAGE;
    }
    if (a->memory && (!a->want_power || a->saif || a->vcd)) {
        diag_error(d, 1051, DIAG_NOWHERE, "gatepower resim --memory re-simulates and analyses "
                   "the cycles in windows: give --power, without --saif or --vcd (they need "
                   "every net's whole waveform: run without --memory)");
        return CLI_EXIT_USAGE;
    }
    if (a->power.devices_given) {
        diag_error(d, 1046, DIAG_NOWHERE, "gatepower resim runs on one GPU (--device N); "
                   "--devices is for gatepower power");
        return CLI_EXIT_USAGE;
    }
    bool needs_engine = a->want_power || a->power.engine == CLI_ENGINE_CUDA;
    return !needs_engine || cli_power_engine_ready(&a->power, d) ? 0 : CLI_EXIT_INPUT;
}

/* Writes the files asked for from `full` (NULL when none is). */
static gp_status write_files(const resim_args *a, cli_design *cd, const events *full, diag_ctx *d)
{
    report_saif_info info = {.design = cd->dg->name, .scope = a->in.scope, .program = "gatepower",
                            .version = GATEPOWER_VERSION};
    gp_status st = GP_OK;
    if (a->saif)
        st = report_write_events_saif(a->saif, cd->dg, full, &info, d);
    if (st == GP_OK && a->vcd)
        st = report_write_events_vcd(a->vcd, cd->dg, full, a->in.scope, d);
    if (st == GP_OK && a->in.timing)
        cli_timing_lap(&cd->timing, "resim outputs");
    return st;
}

/* The statistics of the windows (a warm-up re-simulated twice counts
 * twice). */
static void print_stats(const resim_stats *s, uint32_t windows)
{
    fprintf(stderr, "resim");
    if (ranks_count() > 1)
        fprintf(stderr, " (rank 0's share of the cycles, of %d ranks)", ranks_count());
    if (windows > 1)
        fprintf(stderr, " (in %u windows)", windows);
    fprintf(stderr, ": %u gate outputs from %u register outputs and %u inputs: "
            "%llu events in, %llu out; %llu updates scheduled, %llu swallowed\n", s->gates,
            s->registers, s->inputs, (unsigned long long)s->events_in,
            (unsigned long long)s->events_out, (unsigned long long)s->wakeups,
            (unsigned long long)s->swallowed);
}

/* Re-simulation on the CPU, then the files and, with --power, the
 * analysis of the events into *r. */
static gp_status resim_on_host(const resim_args *a, cli_design *cd, const cli_context *ctx,
                               power_result **r, resim_stats *stats)
{
    events *full = NULL;
    gp_status st = resim_run(cd->dg, cd->ev, &a->opt, &full, stats, ctx->diag);
    if (st != GP_OK)
        return st;
    cli_timing_lap(&cd->timing, "resim");
    cli_timing *timing = a->in.timing ? &cd->timing : NULL;
    st = write_files(a, cd, full, ctx->diag);
    if (st == GP_OK && a->want_power)
        st = cli_power_analyze(&a->power, cd->dg, full, r, timing, ctx->diag);
    events_free(full);
    return st;
}

/* The GPU re-simulation's steps, within its phase. */
static void add_resim_steps(cli_timing *t, const cuda_resim_timing *tm)
{
    const char *within = "the resim";
    cli_timing_step(t, "fixed nets up", tm->upload_s, within);
    cli_timing_step(t, "gate windows", tm->windows_s, within);
    cli_timing_step(t, "simulation", tm->simulate_s, within);
    cli_timing_step(t, "join", tm->join_s, within);
    cli_timing_step(t, "cut", tm->cut_s, within);
}

/* Re-simulation on the GPU; the events come back for the files only, the
 * power analysis (into *r) reads them where they are.  The plan is made
 * on a run's first window and moved on to the others. */
static gp_status resim_on_device(const resim_args *a, cli_design *cd, const cli_context *ctx,
                                 resim_plan *plan, power_result **r, resim_stats *stats)
{
    diag_ctx *d = ctx->diag;
    cuda_events *dev = NULL;
    events *full = NULL;
    gp_status st = plan->gates ? resim_plan_move(cd->dg, cd->ev, &a->opt, plan, stats, d)
                               : resim_plan_make(cd->dg, cd->ev, &a->opt, plan, stats, d);
    if (st != GP_OK)
        return st;
    cli_timing_lap(&cd->timing, "resim plan");
    cli_devices_join(a->devices); /* the uploads find the device's buffers made, not being made */
    cli_timing_lap(&cd->timing, "device wait");
    cuda_resim_options co = cuda_resim_defaults();
    co.device = a->power.cuda.device;
    cuda_resim_timing tm;
    st = cuda_power_check_device(co.device, d);
    if (st == GP_OK)
        st = cuda_resim_run(plan, &co, &dev, stats, &tm, d);
    if (st == GP_OK) {
        cli_timing_lap(&cd->timing, "resim");
        add_resim_steps(&cd->timing, &tm);
        if (a->saif || a->vcd)
            st = cuda_events_download(dev, &full, d);
        if (st == GP_OK)
            st = write_files(a, cd, full, d);
        cli_timing *timing = a->in.timing ? &cd->timing : NULL;
        if (st == GP_OK && a->want_power)
            st = cli_power_analyze_resident(&a->power, cd->dg, plan->fixed, dev, r, timing, d);
    }
    events_free(full);
    cuda_events_free(dev);
    return st;
}

/* Bytes a re-simulated event takes while its window is analysed, about
 * (its word in the result, its place while simulated), and the cycles of
 * the first window of several, whose events per cycle size the others. */
#define RESIM_EVENT_BYTES 16
#define RESIM_PROBE_CYCLES 16

/* The re-simulation (and its power, into *r) of [exact_from, until), or of
 * the whole dump; stats gets its statistics.  plan: the GPU's, kept from
 * window to window (resim_on_device). */
static gp_status resim_part(const resim_args *a, cli_design *cd, const cli_context *ctx,
                            resim_plan *plan, power_result **r, resim_stats *stats)
{
    return a->power.engine == CLI_ENGINE_CUDA ? resim_on_device(a, cd, ctx, plan, r, stats)
                                              : resim_on_host(a, cd, ctx, r, stats);
}

/* Adds window k's statistics to the windows' (the dump's counts once). */
static void add_stats(resim_stats *all, const resim_stats *s, uint32_t k)
{
    if (k == 0) {
        *all = *s;
        return;
    }
    all->events_out += s->events_out;
    all->wakeups += s->wakeups;
    all->swallowed += s->swallowed;
}

/* The cycles of the window after one of `cycles` that made `events`: about
 * --memory bytes of them. */
static uint64_t next_window_cycles(const resim_args *a, uint64_t cycles, uint64_t events)
{
    double per_cycle = (double)(events ? events : 1) / (double)cycles;
    double fit = (double)a->memory / RESIM_EVENT_BYTES / per_cycle;
    return fit < 1.0 ? 1 : fit > 1e15 ? (uint64_t)1e15 : (uint64_t)fit;
}

/* The share's cycles (a->power.opt's window, the clock fixed; its events
 * exact on [from, to)) re-simulated and analysed in windows of whole
 * cycles, each from its own warm-up, their results appended into *r: one
 * window, or with --memory windows of about that many bytes of events;
 * the GPU's plan moved from window to window. */
static gp_status resim_windows(const resim_args *a, cli_design *cd, const cli_context *ctx,
                               int64_t from, int64_t to, resim_plan *plan, power_result **r,
                               uint32_t *windows)
{
    const power_options *share = &a->power.opt;
    int64_t period = share->period_fs, start = share->window_start_fs;
    int64_t end = share->window_end_fs >= 0 ? share->window_end_fs : cd->ev->end_fs;
    uint64_t cycles = a->memory ? RESIM_PROBE_CYCLES : UINT64_MAX;
    /* Windows share one warm-up; a share of one window works it out if
     * it needs one. */
    int64_t warmup = a->memory ? resim_warmup_fs(cd->dg) : -1;
    resim_stats all = {0};
    gp_status st = GP_OK;
    int64_t t = start, w_end;
    do { /* once at least: a window outside the dump is refused as one run refuses it */
        int64_t left = end > t ? (end - t + period - 1) / period : 0;
        bool last = cycles >= (uint64_t)left;
        w_end = last ? end : t + (int64_t)cycles * period;
        resim_args w = *a;
        w.opt.exact_from_fs = t == start ? from : t;
        w.opt.until_fs = last ? to : w_end;
        w.opt.warmup_fs = warmup;
        w.power.opt.window_start_fs = t;
        w.power.opt.window_end_fs = last ? share->window_end_fs : w_end;
        power_result *part = NULL;
        resim_stats s;
        st = resim_part(&w, cd, ctx, plan, &part, &s);
        if (st == GP_OK && *r)
            st = power_result_append(*r, part, ctx->diag);
        else if (st == GP_OK)
            *r = part;
        add_stats(&all, &s, *windows);
        if (a->memory)
            cycles = next_window_cycles(a, cycles, s.events_out);
        t = w_end;
        ++*windows;
    } while (st == GP_OK && t < end);
    if (st == GP_OK && !ctx->quiet)
        print_stats(&all, *windows);
    return st;
}

/* Device bytes a re-simulated event takes while its power is analysed on
 * the GPU, about: 31 measured at the peak on the generated million-gate
 * case (its word, the gate streams' entries of the pins on its net, the
 * levels' rooms: bench/RESULTS.md, forty-second session), and a margin. */
#define RESIM_DEVICE_EVENT_BYTES 40

/* The whole dump in one window.  On the GPU, with only the power asked
 * for, a run out of memory is not reported: *again gets the --memory
 * whose windows the device holds, and the run is to go again in them
 * (the plan moved to each). */
static gp_status resim_one_window(const resim_args *a, cli_design *cd, const cli_context *ctx,
                                  resim_plan *plan, power_result **r, uint64_t *again)
{
    *again = 0;
    bool may_window = a->power.engine == CLI_ENGINE_CUDA && a->want_power && !a->saif &&
                      !a->vcd;
    diag_ctx *held_diag = may_window ? diag_new_held(ctx->diag) : NULL;
    may_window = held_diag != NULL;
    cli_context held = *ctx;
    held.diag = may_window ? held_diag : ctx->diag;
    resim_stats stats;
    gp_status st = resim_part(a, cd, &held, plan, r, &stats);
    cuda_device_info info;
    if (may_window && st == GP_ERR_NOMEM &&
        cuda_device_query(a->power.cuda.device, &info, held.diag) == GP_OK)
        *again = info.global_mem_bytes / RESIM_DEVICE_EVENT_BYTES * RESIM_EVENT_BYTES;
    if (may_window) {
        if (!*again)
            diag_release(held.diag);
        diag_free(held.diag);
    }
    if (*again)
        diag_note(ctx->diag, 1052, DIAG_NOWHERE, "the GPU's %.0f GB do not hold every cycle's "
                  "re-simulated events: re-simulating again in windows of whole cycles, as "
                  "--memory %.0fM would (give --memory to start in windows)",
                  (double)info.global_mem_bytes / 1e9, (double)*again / (1 << 20));
    if (st == GP_OK && !ctx->quiet)
        print_stats(&stats, 1);
    return st;
}

/* The re-simulation and its power (into *r) of the whole dump as it is,
 * or, under mpirun or with --memory, with the clock fixed on the dump, of
 * this rank's share of the cycles in windows, each from a warm-up before
 * it (resim_options.exact_from_fs); plan: the GPU's, made once. */
static gp_status resim_share(resim_args *a, cli_design *cd, const cli_context *ctx,
                             resim_plan *plan, power_result **r)
{
    if (ranks_count() == 1 && !a->memory) {
        uint64_t again;
        gp_status st = resim_one_window(a, cd, ctx, plan, r, &again);
        if (!again)
            return st;
        a->memory = again;
    }
    int64_t from, to;
    uint32_t windows = 0;
    gp_status st = cli_power_take_share(&a->power, cd->dg, cd->ev, &from, &to, ctx->diag);
    if (st != GP_OK || from == to)
        return st; /* a share without cycles has nothing to make */
    st = resim_windows(a, cd, ctx, from, to, plan, r, &windows);
    cd->timing.windows = windows;
    return st;
}

/* The re-simulation and its power (into *r) once the design is read
 * (resim_share). */
static gp_status resim_and_power(resim_args *a, cli_design *cd, const cli_context *ctx,
                                 power_result **r)
{
    diag_ctx *d = ctx->diag;
    if (a->want_power && (!cli_power_clock_from_sdc(&a->power, cd, d) ||
                          power_check_design(cd->dg, &a->power.opt, d) != GP_OK))
        return GP_ERR_INPUT;
    resim_plan plan = {0};
    gp_status st = resim_share(a, cd, ctx, &plan, r);
    resim_plan_free(&plan);
    return st;
}

int cli_resim(int argc, char **argv, const cli_context *ctx)
{
    resim_args a = {.opt = resim_defaults(), .power = cli_power_defaults(), .d = ctx->diag};
    int status = parse_options(argc, argv, &a, ctx->diag);
    if (status)
        return status < 0 ? 0 : status;
    cli_power_share_host(&a.power);
    a.opt.threads = (uint32_t)a.power.threads;
    a.in.threads = a.power.threads;
    cli_design cd;
    cli_devices devices;
    cli_devices_start(&devices, &a.power);
    a.devices = &devices;
    gp_status st = cli_read_design(&a.in, false, false, &cd, ctx);
    a.opt.net_bound = cd.coverage.net_bound;
    power_result *r = NULL;
    if (st == GP_OK)
        st = resim_and_power(&a, &cd, ctx, &r);
    cli_devices_stop(&devices);
    cli_timing *timing = a.in.timing ? &cd.timing : NULL;
    if (a.want_power)
        status = cli_power_finish(&a.power, cd.dg ? cd.dg->name : NULL, cd.dg, st, r, timing,
                                  ctx->diag);
    else
        status = st == GP_OK ? 0 : CLI_EXIT_INPUT;
    if (a.in.timing && ranks_rank() == 0)
        cli_timing_print(&cd.timing, stderr);
    cli_design_free(&cd);
    cli_devices_join(&devices);
    return status;
}
