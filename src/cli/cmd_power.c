/* cmd_power.c: `gatepower power`: time-based power of a design under its
 * activity, printed as a report and written as files for people and tools. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "power/power.h"
#include "report/report.h"

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
    "analysis:\n"
    "  --period TIME     clock period with unit, e.g. 10ns; or\n"
    "  --clock NET       measure the period on this net (its most frequent rise-to-rise)\n"
    "  --window T0:T1    analyse [T0, T1) only, e.g. 1us:2us (default: the whole dump)\n"
    "  --glitch on|off   off books glitch events as ordinary internal and switching\n"
    "                    energy, unscaled, to compare with average-power tools\n"
    "  --include-io      count the switching of primary-input nets in the total\n"
    "  --engine ref      the float64 single-thread reference engine (the default\n"
    "                    until the fast engines land)\n"
    "\n"
    "output:\n"
    "  --out DIR         write report.txt, report.json, waveform.csv, waveform.vcd,\n"
    "                    waveform.fst, waveform.svg, instances.csv, cells.csv and\n"
    "                    hotspots.txt into DIR\n"
    "  --json FILE|-     the totals as JSON (to stdout instead of the report with -)\n"
    "  --hotspots N      instances listed in hotspots.txt (default 20)\n"
    "\n"
    "example:\n"
    "  gatepower power --lib osu018_stdcells.lib --netlist netlist.v --sdf netlist.sdf \\\n"
    "                  --activity full.vcd --scope tb/dut --period 10ns --out power/\n";

typedef struct power_args {
    cli_inputs in;
    power_options opt;
    const char *out_dir, *json;
    int hotspots;
} power_args;

/* Takes one analysis or output option at argv[*i]; 1 taken, 0 not one of
 * them, -1 malformed (reported). */
static int parse_power_option(power_args *a, int argc, char **argv, int *i, diag_ctx *d)
{
    const char *option = argv[*i], *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    bool ok = true;
    if (strcmp(option, "--include-io") == 0) {
        a->opt.include_io = true;
        return 1;
    }
    if (!value)
        return 0;
    if (strcmp(option, "--period") == 0)
        ok = cli_parse_time(value, &a->opt.period_fs) && a->opt.period_fs > 0;
    else if (strcmp(option, "--clock") == 0)
        a->opt.clock_net = value;
    else if (strcmp(option, "--window") == 0)
        ok = cli_parse_window(value, &a->opt.window_start_fs, &a->opt.window_end_fs);
    else if (strcmp(option, "--glitch") == 0)
        ok = (a->opt.glitch = strcmp(value, "on") == 0) || strcmp(value, "off") == 0;
    else if (strcmp(option, "--engine") == 0)
        ok = strcmp(value, "ref") == 0;
    else if (strcmp(option, "--out") == 0)
        a->out_dir = value;
    else if (strcmp(option, "--json") == 0)
        a->json = value;
    else if (strcmp(option, "--hotspots") == 0)
        ok = (a->hotspots = atoi(value)) > 0;
    else
        return 0;
    if (!ok) {
        diag_error(d, 1020, DIAG_NOWHERE, "gatepower power: bad value '%s' for %s (see gatepower "
                   "power --help; times need a unit, e.g. 10ns)", value, option);
        return -1;
    }
    ++*i;
    return 1;
}

/* Parses power's options; returns 0 to go on, -1 after --help, else the
 * exit status. */
static int parse_options(int argc, char **argv, power_args *a, diag_ctx *d)
{
    for (int i = 1; i < argc; i++) {
        int taken = cli_parse_input(&a->in, argc, argv, &i, d);
        if (taken == 0)
            taken = parse_power_option(a, argc, argv, &i, d);
        if (taken < 0)
            return CLI_EXIT_USAGE;
        if (taken)
            continue;
        if (strcmp(argv[i], "--help") == 0) {
            printf(power_help, cli_inputs_help);
            return -1;
        }
        diag_error(d, 1021, DIAG_NOWHERE, "gatepower power: unknown or incomplete option '%s' "
                   "(see gatepower power --help)", argv[i]);
        return CLI_EXIT_USAGE;
    }
    if (!cli_inputs_complete(&a->in, d))
        return CLI_EXIT_USAGE;
    if (!a->in.activity) {
        diag_error(d, 1022, DIAG_NOWHERE, "gatepower power needs switching activity: give "
                   "--activity FILE (VCD or FST) and --scope PATH");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Prints the report (or the JSON) and writes the files asked for. */
static int write_outputs(const power_args *a, const cli_design *cd, const power_result *r,
                         diag_ctx *d)
{
    report_options ro = report_defaults();
    ro.design_name = a->in.top;
    ro.glitch = a->opt.glitch;
    ro.hotspots = a->hotspots;
    bool json_on_stdout = a->json && strcmp(a->json, "-") == 0;
    if (!json_on_stdout)
        report_write_text(stdout, cd->dg, r, &ro);
    if (a->json) {
        FILE *out = json_on_stdout ? stdout : fopen(a->json, "w");
        if (!out) {
            diag_error(d, 1023, DIAG_NOWHERE, "cannot write '%s'", a->json);
            return CLI_EXIT_INPUT;
        }
        report_write_json(out, cd->dg, r, &ro);
        if (out != stdout && fclose(out) != 0) {
            diag_error(d, 1024, DIAG_NOWHERE, "cannot finish writing '%s'", a->json);
            return CLI_EXIT_INPUT;
        }
    }
    if (a->out_dir && report_write_all(a->out_dir, cd->dg, r, &ro, d) != GP_OK)
        return CLI_EXIT_INPUT;
    return 0;
}

int cli_power(int argc, char **argv, const cli_context *ctx)
{
    power_args a = {.opt = power_defaults()};
    int status = parse_options(argc, argv, &a, ctx->diag);
    if (status)
        return status < 0 ? 0 : status;
    cli_design cd;
    power_result *r = NULL;
    status = CLI_EXIT_INPUT;
    if (cli_read_design(&a.in, false, &cd, ctx) == GP_OK &&
        power_analyze_ref(cd.dg, cd.ev, &a.opt, &r, ctx->diag) == GP_OK)
        status = write_outputs(&a, &cd, r, ctx->diag);
    power_result_free(r);
    cli_design_free(&cd);
    return status;
}
