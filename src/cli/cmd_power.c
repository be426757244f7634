/* cmd_power.c: `gatepower power`: time-based power of a design under its
 * activity, printed as a report and written as files for people and tools. */
#include <string.h>

#include "cli/cli.h"

static const char power_help[] =
    "usage: gatepower power --lib FILE --netlist FILE --activity FILE --scope PATH\n"
    "                       (--period TIME | --clock NET) [options]\n"
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
    "example:\n"
    "  gatepower power --lib osu018_stdcells.lib --netlist netlist.v --sdf netlist.sdf \\\n"
    "                  --activity full.vcd --scope tb/dut --period 10ns --out power/\n";

typedef struct power_args {
    cli_inputs in;
    cli_power_args power;
} power_args;

/* Parses power's options; returns 0 to go on, -1 after --help, else the
 * exit status. */
static int parse_options(int argc, char **argv, power_args *a, diag_ctx *d)
{
    cli_syntax syn = {.name = "power", .help = power_help, .in = &a->in, .power = &a->power};
    int status = cli_parse_command(&syn, argc, argv, d);
    if (status)
        return status;
    if (!a->in.activity) {
        diag_error(d, 1022, DIAG_NOWHERE, "gatepower power needs switching activity: give "
                   "--activity FILE (VCD or FST) and --scope PATH");
        return CLI_EXIT_USAGE;
    }
    return cli_power_clock_given(&a->power, "gatepower power", d) ? 0 : CLI_EXIT_USAGE;
}

/* A dump whose matched signals never leave x or z holds no activity, and
 * saying so beats the engine's "check --scope". */
static bool has_activity(const cli_design *cd, diag_ctx *d)
{
    if (cd->ev->n_events > 0 || cd->activity.signals_matched == 0)
        return true;
    diag_error(d, 1025, DIAG_NOWHERE, "the activity's %llu signals that name nets never leave "
               "x or z: there is no switching to analyse (was the dump taken before reset, or "
               "of an unpowered block?)", (unsigned long long)cd->activity.signals_matched);
    return false;
}

int cli_power(int argc, char **argv, const cli_context *ctx)
{
    power_args a = {.power = cli_power_defaults()};
    int status = parse_options(argc, argv, &a, ctx->diag);
    if (status)
        return status < 0 ? 0 : status;
    cli_design cd;
    status = CLI_EXIT_INPUT;
    a.in.threads = a.power.threads;
    if (cli_read_design(&a.in, false, &cd, ctx) == GP_OK && has_activity(&cd, ctx->diag))
        status = cli_power_run(&a.power, cd.dg->name, cd.dg, cd.ev,
                               a.in.timing ? &cd.timing : NULL, ctx->diag);
    if (a.in.timing)
        cli_timing_print(&cd.timing, stderr);
    cli_design_free(&cd);
    return status;
}
