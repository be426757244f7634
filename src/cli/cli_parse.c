/* cli_parse.c: the command line's options: the design inputs every
 * command shares, the power analysis options, a command's own through
 * its syntax, and the values they take (times, capacitances, sizes and
 * counts: "10ns", "2.5 us", "0:1us", "10fF", "512M"). */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_device.h"
#include "util/units.h"

/* A plain non-negative decimal number and what follows it (blanks
 * skipped); false for anything else. */
static bool parse_number(const char *text, double *value, const char **unit)
{
    if (!(isdigit((unsigned char)text[0]) || text[0] == '.') || strpbrk(text, "xX"))
        return false; /* strtod would take hex, inf, nan, signs and blanks */
    char *end;
    *value = strtod(text, &end);
    if (end == text || !isfinite(*value) || *value < 0)
        return false;
    while (*end == ' ')
        end++;
    *unit = end;
    return true;
}

bool cli_parse_time(const char *text, int64_t *fs)
{
    double value;
    const char *unit;
    if (!parse_number(text, &value, &unit))
        return false;
    double unit_fs = gp_time_unit_fs(unit, strlen(unit), false);
    double scaled = value * unit_fs;
    if (unit_fs == 0 || scaled >= GP_FS_LIMIT)
        return false;
    *fs = (int64_t)llround(scaled);
    return true;
}

bool cli_parse_capacitance(const char *text, double *farads)
{
    static const struct {
        const char *name;
        double farads;
    } units[] = {{"F", 1}, {"uF", 1e-6}, {"nF", 1e-9}, {"pF", 1e-12}, {"fF", 1e-15}};
    double value;
    const char *unit;
    if (!parse_number(text, &value, &unit))
        return false;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
        if (strcmp(unit, units[u].name) == 0) {
            *farads = value * units[u].farads;
            return true;
        }
    return false;
}

bool cli_parse_window(const char *text, int64_t *start_fs, int64_t *end_fs)
{
    const char *colon = strchr(text, ':');
    if (!colon || colon - text >= 64)
        return false;
    char first[64];
    memcpy(first, text, (size_t)(colon - text));
    first[colon - text] = '\0';
    return cli_parse_time(first, start_fs) && cli_parse_time(colon + 1, end_fs);
}

bool cli_parse_size(const char *text, uint64_t *bytes)
{
    static const char units[] = "KMGT";
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || !isdigit((unsigned char)text[0]))
        return false;
    const char *unit = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    if (*end && (!unit || end[1] != '\0'))
        return false;
    int shift = unit ? 10 * (int)(unit - units + 1) : 0;
    if (v == 0 || v > (UINT64_MAX >> shift))
        return false;
    *bytes = (uint64_t)v << shift;
    return true;
}

bool cli_parse_memory(const char *value, uint64_t *bytes, diag_ctx *d)
{
    if (cli_parse_size(value, bytes))
        return true;
    diag_error(d, 1029, DIAG_NOWHERE, "bad value '%s' for --memory: give a size in bytes, "
               "with K, M, G or T for powers of 1024, e.g. 512M or 8G", value);
    return false;
}

bool cli_parse_count(const char *text, int max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < 0 || v > max)
        return false;
    *out = (int)v;
    return true;
}

int cli_parse_command(const cli_syntax *syn, int argc, char **argv, diag_ctx *d)
{
    for (int i = 1; i < argc; i++) {
        int taken = cli_parse_input(syn->in, argc, argv, &i, d);
        if (taken == 0 && syn->own)
            taken = syn->own(syn->own_args, argc, argv, &i);
        if (taken == 0 && syn->power)
            taken = cli_parse_power_option(syn->power, argc, argv, &i, d);
        if (taken < 0)
            return CLI_EXIT_USAGE;
        if (taken)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(syn->help, cli_inputs_help, cli_power_help);
            return -1;
        }
        diag_error(d, 1015, DIAG_NOWHERE, "gatepower %s: unknown or incomplete option '%s' "
                   "(see gatepower %s --help)", syn->name, argv[i], syn->name);
        return CLI_EXIT_USAGE;
    }
    return cli_inputs_complete(syn->in, d) ? 0 : CLI_EXIT_USAGE;
}

const char cli_inputs_help[] =
    "design inputs:\n"
    "  --lib FILE        Liberty library (.lib or .lib.gz); repeat for several\n"
    "  --netlist FILE    structural Verilog netlist; repeat when modules are spread\n"
    "  --top MODULE      the top module (default: the one no other module instantiates)\n"
    "  --spef FILE       parasitics: each D_NET's total capacitance is its net's wire cap\n"
    "  --sdf FILE        delays (SDF 3.0); without it delays come from the NLDM tables\n"
    "  --sdc FILE        constraints (SDC, read as Tcl); repeat for several: clocks\n"
    "                    (create_clock; ideal unless set_propagated_clock, at\n"
    "                    set_clock_transition, else 0), set_input_transition,\n"
    "                    set_driving_cell, set_load; the clock's period when\n"
    "                    --period is not given. Without it every input has a\n"
    "                    0.1 ns slew and clocks propagate from their ports\n"
    "  --output-load CAP load outside the design on every output port, e.g. 10fF\n"
    "                    (default 0; SDC's set_load on a port wins)\n"
    "  --activity FILE   switching activity, VCD (.vcd, .vcd.gz) or FST; power takes\n"
    "                    it repeated (test benches: a section each, their combination)\n"
    "  --scope PATH      the design's instance in the dump, e.g. tb/dut (or tb.dut)\n"
    "  --list-unannotated  name every net driven by a cell, and every primary\n"
    "                    input, that the activity does not give (a warning names\n"
    "                    the first few)\n"
    "  --timing          print the wall seconds of each phase (libraries, netlist,\n"
    "                    SPEF, design: loads, slews and delays, SDF, activity,\n"
    "                    engine, writing) on stderr; report.json gets them as its\n"
    "                    \"timing\" object.  The design's files are read beside\n"
    "                    the activity, whose phase runs from the start, and\n"
    "                    the SDF beside the netlist; within the activity, its\n"
    "                    dump header, design wait (for the netlist) and event\n"
    "                    store, the rest mostly the dump's text; with resim on\n"
    "                    the GPU, the steps within the resim and the engine\n";

/* Appends `value` to a file list, reporting overflow. */
static int add_file(const char **list, int *n, const char *option, const char *value, diag_ctx *d)
{
    if (*n == CLI_MAX_FILES) {
        diag_error(d, 1010, DIAG_NOWHERE, "at most %d files may be given with %s", CLI_MAX_FILES,
                   option);
        return -1;
    }
    list[(*n)++] = value;
    return 1;
}

int cli_parse_input(cli_inputs *in, int argc, char **argv, int *i, diag_ctx *d)
{
    static const char *const single[] = {"--top", "--sdf", "--spef", "--scope"};
    const char **single_field[] = {&in->top, &in->sdf, &in->spef, &in->scope};
    const char *option = argv[*i];
    if (strcmp(option, "--timing") == 0) {
        in->timing = true;
        return 1;
    }
    if (strcmp(option, "--list-unannotated") == 0) {
        in->list_unannotated = true;
        return 1;
    }
    bool known = strcmp(option, "--lib") == 0 || strcmp(option, "--netlist") == 0 ||
                 strcmp(option, "--sdc") == 0 || strcmp(option, "--output-load") == 0 ||
                 strcmp(option, "--activity") == 0;
    for (size_t k = 0; k < sizeof single / sizeof single[0]; k++)
        known |= strcmp(option, single[k]) == 0;
    if (!known)
        return 0;
    if (*i + 1 >= argc) {
        diag_error(d, 1011, DIAG_NOWHERE, "option %s needs a value", option);
        return -1;
    }
    const char *value = argv[++*i];
    if (strcmp(option, "--lib") == 0)
        return add_file(in->libs, &in->n_libs, option, value, d);
    if (strcmp(option, "--netlist") == 0)
        return add_file(in->netlists, &in->n_netlists, option, value, d);
    if (strcmp(option, "--sdc") == 0)
        return add_file(in->sdcs, &in->n_sdcs, option, value, d);
    if (strcmp(option, "--activity") == 0) {
        int taken = add_file(in->activities, &in->n_activities, option, value, d);
        in->activity = in->activities[0];
        return taken;
    }
    if (strcmp(option, "--output-load") == 0) {
        if (cli_parse_capacitance(value, &in->output_load))
            return 1;
        diag_error(d, 1035, DIAG_NOWHERE, "bad value '%s' for --output-load: give a "
                   "capacitance with its unit (F, uF, nF, pF, fF), e.g. 10fF", value);
        return -1;
    }
    for (size_t k = 0; k < sizeof single / sizeof single[0]; k++)
        if (strcmp(option, single[k]) == 0)
            *single_field[k] = value;
    return 1;
}

bool cli_inputs_complete(const cli_inputs *in, diag_ctx *d)
{
    if (in->n_libs == 0 || in->n_netlists == 0) {
        diag_error(d, 1012, DIAG_NOWHERE, "give the cell library and the netlist: --lib FILE "
                   "--netlist FILE (see --help)");
        return false;
    }
    if (in->n_activities > 1 && !in->several_activities) {
        diag_error(d, 1047, DIAG_NOWHERE, "--activity is given %d times: only gatepower power "
                   "analyses several test benches (a section each and their combination)",
                   in->n_activities);
        return false;
    }
    if (in->scope && !in->activity) {
        diag_error(d, 1013, DIAG_NOWHERE, "--scope names an instance in the activity dump; "
                   "give the dump with --activity FILE");
        return false;
    }
    return true;
}

const char cli_power_help[] =
    "analysis:\n"
    "  --period TIME     clock period with unit, e.g. 10ns; or\n"
    "  --clock NAME      a clock of the SDC (default: its fastest), else a net whose\n"
    "                    period is measured (its most frequent rise-to-rise)\n"
    "  --window T0:T1    analyse [T0, T1) only, e.g. 1us:2us (default: the whole dump)\n"
    "  --glitch on|off   off books glitch events as ordinary internal and switching\n"
    "                    energy, unscaled, to compare with average-power tools\n"
    "  --include-io      count the switching of primary-input nets in the total\n"
    "  --engine cpu|ref|cuda\n"
    "                    cpu (default): fast, multi-threaded, the same results as\n"
    "                    ref within 1e-6 and identical for any --threads; ref: the\n"
    "                    float64 single-thread reference engine (the specification);\n"
    "                    cuda: the GPU engine (builds with CUDA), ref within 1e-6\n"
    "  --threads N       threads of the cpu engine and of reading a VCD (default 0:\n"
    "                    every core)\n"
    "  --cuda-variant V  the GPU kernels: a '+'-list of sipl (state-indexed power\n"
    "                    lookup), part (per-gate windows by event density), fusion\n"
    "                    (one kernel walks each window), memo (per-instance group\n"
    "                    energies), warp (a warp per gate's events, with\n"
    "                    fusion); naive: none, fused: all five (default: fused,\n"
    "                    the fastest measured)\n"
    "  --cuda-target-events N  events per GPU thread aimed at (default 8)\n"
    "  --cuda-min-windows N    each gate's cycles in at least N windows (default 64)\n"
    "  --cuda-lane-tasks N     windows a GPU walk thread takes at a time (default 8)\n"
    "  --deterministic   sums in fixed point: bitwise the same run to run; with\n"
    "                    --engine cpu or ref, also for any --threads, --memory and\n"
    "                    number of MPI ranks\n"
    "  --device N        the CUDA device (default 0)\n"
    "  --devices all|N,M,...  the GPUs of this host to cut each window's cycles among,\n"
    "                    one process (under mpirun each rank takes one: --device)\n"
    "\n"
    "output:\n"
    "  --out DIR         write report.txt, report.json, waveform.csv, waveform.vcd,\n"
    "                    waveform.fst, waveform.svg, instances.csv, cells.csv and\n"
    "                    hotspots.txt into DIR\n"
    "  --json FILE|-     the totals as JSON (to stdout instead of the report with -)\n"
    "  --hotspots N      instances listed in hotspots.txt (default 20)\n";

cli_power_args cli_power_defaults(void)
{
    return (cli_power_args){.opt = power_defaults(), .cuda = cuda_power_defaults()};
}

static bool parse_engine(const char *text, cli_engine *engine)
{
    static const char *const names[] = {[CLI_ENGINE_CPU] = "cpu", [CLI_ENGINE_REF] = "ref",
                                        [CLI_ENGINE_CUDA] = "cuda"};
    for (int e = 0; e < 3; e++)
        if (strcmp(text, names[e]) == 0) {
            *engine = (cli_engine)e;
            return true;
        }
    return false;
}

static bool parse_positive(const char *text, uint32_t *out)
{
    int n;
    if (!cli_parse_count(text, 1 << 30, &n) || n < 1)
        return false;
    *out = (uint32_t)n;
    return true;
}

/* --devices: "all" (every device this host has) or numbers between commas
 * (a device may repeat: two lanes on one GPU). */
static bool parse_devices(const char *text, cli_power_args *a)
{
    a->n_devices = 0;
    if (strcmp(text, "all") == 0) {
        int count = cuda_device_count();
        for (int k = 0; k < count && k < POWER_MAX_LANES; k++)
            a->devices[a->n_devices++] = k;
        return true;
    }
    for (const char *p = text;; p++) {
        char number[16];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof number || a->n_devices == POWER_MAX_LANES)
            return false;
        memcpy(number, p, len);
        number[len] = '\0';
        if (!cli_parse_count(number, 1024, &a->devices[a->n_devices++]))
            return false;
        p += len;
        if (*p == '\0')
            return true;
    }
}

int cli_parse_power_option(cli_power_args *a, int argc, char **argv, int *i, diag_ctx *d)
{
    const char *option = argv[*i], *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    bool ok = true;
    if (strcmp(option, "--include-io") == 0) {
        a->opt.include_io = true;
        return 1;
    }
    if (strcmp(option, "--deterministic") == 0) {
        a->cuda.deterministic = true;
        a->opt.exact = true;
        return 1;
    }
    if (!value)
        return 0;
    if (strcmp(option, "--cuda-variant") == 0) { /* it says itself what is wrong */
        ++*i;
        return cuda_power_parse_variant(value, &a->cuda, d) == GP_OK ? 1 : -1;
    }
    if (strcmp(option, "--period") == 0)
        ok = cli_parse_time(value, &a->opt.period_fs) && a->opt.period_fs > 0;
    else if (strcmp(option, "--clock") == 0)
        a->opt.clock_net = value;
    else if (strcmp(option, "--window") == 0)
        ok = cli_parse_window(value, &a->opt.window_start_fs, &a->opt.window_end_fs);
    else if (strcmp(option, "--glitch") == 0)
        ok = (a->opt.glitch = strcmp(value, "on") == 0) || strcmp(value, "off") == 0;
    else if (strcmp(option, "--engine") == 0)
        ok = parse_engine(value, &a->engine);
    else if (strcmp(option, "--cuda-target-events") == 0)
        ok = parse_positive(value, &a->cuda.target_events);
    else if (strcmp(option, "--cuda-min-windows") == 0)
        ok = parse_positive(value, &a->cuda.min_windows);
    else if (strcmp(option, "--cuda-lane-tasks") == 0)
        ok = parse_positive(value, &a->cuda.lane_tasks);
    else if (strcmp(option, "--device") == 0)
        ok = a->device_given = cli_parse_count(value, 1024, &a->cuda.device);
    else if (strcmp(option, "--devices") == 0)
        ok = a->devices_given = parse_devices(value, a);
    else if (strcmp(option, "--threads") == 0)
        ok = cli_parse_count(value, 1024, &a->threads);
    else if (strcmp(option, "--out") == 0)
        a->out_dir = value;
    else if (strcmp(option, "--json") == 0)
        a->json = value;
    else if (strcmp(option, "--hotspots") == 0)
        ok = cli_parse_count(value, 1000000, &a->hotspots) && a->hotspots > 0;
    else
        return 0;
    if (!ok) {
        bool time = strcmp(option, "--period") == 0 || strcmp(option, "--window") == 0;
        diag_error(d, 1020, DIAG_NOWHERE, "bad value '%s' for %s (see --help; %s)", value, option,
                   time ? "times need a unit, e.g. 10ns; a window is T0:T1"
                        : "it lists the values the option takes");
        return -1;
    }
    ++*i;
    return 1;
}
