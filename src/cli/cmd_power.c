/* cmd_power.c: `gatepower power`: time-based power of a design under its
 * activity, printed as a report and written as files for people and tools. */
#include <string.h>

#include "cli/cli.h"
#include "ranks/ranks.h"

static const char power_help[] =
    "usage: gatepower power --lib FILE --netlist FILE --activity FILE --scope PATH\n"
    "                       (--period TIME | --clock NAME | --sdc FILE) [options]\n"
    "\n"
    "Time-based power, as PrimePower's time-based mode computes it: every event of\n"
    "every pin costs its internal energy (Liberty internal_power at the related\n"
    "pin's slew and the output's load) and, on a rise, C·V² of switching; leakage\n"
    "follows each gate's state; events that glitch within a clock cycle are booked\n"
    "as glitch power, scaled by their pulse width. The report splits power by group\n"
    "(sequential, combinational, clock, I/O) and kind, and per clock cycle.\n"
    "\n"
    "%s"
    "\n"
    "%s"
    "\n"
    "memory:\n"
    "  --memory SIZE     the activity's events held at once, about (e.g. 512M, 8G;\n"
    "                    default: half the memory, and half the GPU's with --engine\n"
    "                    cuda, shared by the ranks of a host): a longer dump is\n"
    "                    read and analysed in windows of whole cycles, one after\n"
    "                    the other, with the same results\n"
    "\n"
    "ranks (MPI):\n"
    "  mpirun -np N gatepower power ...  shares the cycles out: each rank analyses\n"
    "                    a contiguous range of whole cycles, rank 0 adds the results up\n"
    "                    in rank order and writes them, equal to one process within\n"
    "                    1e-9. The ranks of a host split its cores (--threads) and take\n"
    "                    its GPUs in turn (--device). A gzip VCD needs --window\n"
    "                    START:END: its end is known only once it is read whole\n"
    "\n"
    "example:\n"
    "  gatepower power --lib osu018_stdcells.lib --netlist netlist.v --sdf netlist.sdf \\\n"
    "                  --activity full.vcd --scope tb/dut --period 10ns --out power/\n";

typedef struct power_args {
    cli_inputs in;
    cli_power_args power;
    uint64_t memory; /* --memory; 0: the default */
    diag_ctx *d;
} power_args;

/* power's own option, --memory SIZE (cli_syntax.own). */
static int parse_power_own(void *args, int argc, char **argv, int *i)
{
    power_args *a = args;
    if (strcmp(argv[*i], "--memory") != 0 || *i + 1 >= argc)
        return 0;
    return cli_parse_memory(argv[++*i], &a->memory, a->d) ? 1 : -1;
}

/* Parses power's options; returns 0 to go on, -1 after --help, else the
 * exit status. */
static int parse_options(int argc, char **argv, power_args *a, diag_ctx *d)
{
    cli_syntax syn = {.name = "power", .help = power_help, .in = &a->in, .power = &a->power,
                      .own = parse_power_own, .own_args = a};
    int status = cli_parse_command(&syn, argc, argv, d);
    if (status)
        return status;
    if (!a->in.activity) {
        diag_error(d, 1022, DIAG_NOWHERE, "gatepower power needs switching activity: give "
                   "--activity FILE (VCD or FST) and --scope PATH");
        return CLI_EXIT_USAGE;
    }
    if (!cli_power_clock_given(&a->power, &a->in, "gatepower power", d))
        return CLI_EXIT_USAGE;
    return cli_power_engine_ready(&a->power, d) ? 0 : CLI_EXIT_INPUT;
}

int cli_power(int argc, char **argv, const cli_context *ctx)
{
    power_args a = {.in = {.several_activities = true}, .power = cli_power_defaults(),
                    .d = ctx->diag};
    int status = parse_options(argc, argv, &a, ctx->diag);
    if (status)
        return status < 0 ? 0 : status;
    cli_design cd;
    cli_power_share_host(&a.power);
    a.in.threads = a.power.threads;
    status = cli_power_stream(&a.power, &a.in, a.memory, &cd, ctx);
    if (a.in.timing && ranks_rank() == 0)
        cli_timing_print(&cd.timing, stderr);
    cli_design_free(&cd);
    return status;
}
