/* cmd_resim.c: `gatepower resim`: every net's delay-annotated waveform from a
 * dump of the primary inputs and register outputs, written as SAIF and VCD
 * and optionally analysed for power. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuda/cuda_resim.h"
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
    "example:\n"
    "  gatepower resim --lib osu018_stdcells.lib --netlist netlist.v --sdf netlist.sdf \\\n"
    "                  --activity regs.vcd --scope tb/dut --saif resim.saif --vcd resim.vcd\n";

typedef struct resim_args {
    cli_inputs in;
    resim_options opt;
    cli_power_args power;
    const char *saif, *vcd;
    bool want_power;
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
    if (a->power.devices_given) {
        diag_error(d, 1046, DIAG_NOWHERE, "gatepower resim runs on one GPU (--device N); "
                   "--devices is for gatepower power");
        return CLI_EXIT_USAGE;
    }
    bool needs_engine = a->want_power || a->power.engine == CLI_ENGINE_CUDA;
    return !needs_engine || cli_power_engine_ready(&a->power, d) ? 0 : CLI_EXIT_INPUT;
}

/* Writes the files asked for from `full` (NULL when none is); the exit
 * status. */
static int write_files(const resim_args *a, cli_design *cd, const events *full, diag_ctx *d)
{
    report_saif_info info = {.design = cd->dg->name, .scope = a->in.scope, .program = "gatepower",
                            .version = GATEPOWER_VERSION};
    gp_status st = GP_OK;
    if (a->saif)
        st = report_write_events_saif(a->saif, cd->dg, full, &info, d);
    if (st == GP_OK && a->vcd)
        st = report_write_events_vcd(a->vcd, cd->dg, full, a->in.scope, d);
    if (st != GP_OK)
        return CLI_EXIT_INPUT;
    if (a->in.timing)
        cli_timing_lap(&cd->timing, "resim outputs");
    return 0;
}

static void print_stats(const resim_stats *s)
{
    fprintf(stderr, "resim: %u gate outputs from %u register outputs and %u inputs: "
            "%llu events in, %llu out; %llu updates scheduled, %llu swallowed\n", s->gates,
            s->registers, s->inputs, (unsigned long long)s->events_in,
            (unsigned long long)s->events_out, (unsigned long long)s->wakeups,
            (unsigned long long)s->swallowed);
}

/* Re-simulation on the CPU, then the files and the power analysis of the
 * events; the exit status. */
static int resim_on_host(const resim_args *a, cli_design *cd, const cli_context *ctx)
{
    events *full = NULL;
    resim_stats stats;
    if (resim_run(cd->dg, cd->ev, &a->opt, &full, &stats, ctx->diag) != GP_OK)
        return CLI_EXIT_INPUT;
    cli_timing_lap(&cd->timing, "resim");
    if (!ctx->quiet)
        print_stats(&stats);
    cli_timing *timing = a->in.timing ? &cd->timing : NULL;
    int status = write_files(a, cd, full, ctx->diag);
    if (status == 0 && a->want_power)
        status = cli_power_run(&a->power, cd->dg->name, cd->dg, full, timing, ctx->diag);
    events_free(full);
    return status;
}

/* Re-simulation on the GPU; the events come back for the files only, the
 * power analysis reads them where they are.  The exit status. */
static int resim_on_device(const resim_args *a, cli_design *cd, const cli_context *ctx)
{
    diag_ctx *d = ctx->diag;
    resim_plan plan;
    resim_stats stats;
    cuda_events *dev = NULL;
    events *full = NULL;
    int status = CLI_EXIT_INPUT;
    if (resim_plan_make(cd->dg, cd->ev, &a->opt, &plan, &stats, d) != GP_OK)
        return status;
    cli_timing_lap(&cd->timing, "resim plan");
    cuda_resim_options co = cuda_resim_defaults();
    co.device = a->power.cuda.device;
    if (cuda_resim_run(&plan, &co, &dev, &stats, NULL, d) == GP_OK) {
        cli_timing_lap(&cd->timing, "resim");
        if (!ctx->quiet)
            print_stats(&stats);
        bool files = a->saif || a->vcd;
        status = files && cuda_events_download(dev, &full, d) != GP_OK ? CLI_EXIT_INPUT
                                                                        : write_files(a, cd, full, d);
        cli_timing *timing = a->in.timing ? &cd->timing : NULL;
        if (status == 0 && a->want_power)
            status = cli_power_run_resident(&a->power, cd->dg->name, cd->dg, plan.fixed, dev,
                                            timing, d);
    }
    events_free(full);
    cuda_events_free(dev);
    resim_plan_free(&plan);
    return status;
}

int cli_resim(int argc, char **argv, const cli_context *ctx)
{
    resim_args a = {.opt = resim_defaults(), .power = cli_power_defaults()};
    int status = parse_options(argc, argv, &a, ctx->diag);
    if (status)
        return status < 0 ? 0 : status;
    a.opt.threads = (uint32_t)a.power.threads;
    a.in.threads = a.power.threads;
    cli_design cd;
    status = CLI_EXIT_INPUT;
    gp_status st = cli_read_design(&a.in, false, false, &cd, ctx);
    a.opt.net_bound = cd.coverage.net_bound;
    if (st == GP_OK &&
        (!a.want_power || (cli_power_clock_from_sdc(&a.power, &cd, ctx->diag) &&
                           power_check_design(cd.dg, &a.power.opt, ctx->diag) == GP_OK)))
        status = a.power.engine == CLI_ENGINE_CUDA ? resim_on_device(&a, &cd, ctx)
                                                   : resim_on_host(&a, &cd, ctx);
    if (a.in.timing)
        cli_timing_print(&cd.timing, stderr);
    cli_design_free(&cd);
    return status;
}
