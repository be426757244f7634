/* cmd_info.c: `gatepower info`: read the inputs and say what was read and
 * what matched what, as text and optionally JSON. */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/json.h"
#include "util/mem.h"
#include "util/units.h"

static const char info_help[] =
    "usage: gatepower info --lib FILE --netlist FILE [--top MODULE] [--spef FILE]\n"
    "                      [--sdf FILE] [--activity FILE --scope PATH]\n"
    "                      [--json FILE|-] [--list-unmatched] [--threads N] [--timing]\n"
    "\n"
    "Reads the inputs and reports what they hold and what matched what: cells used,\n"
    "instances, nets, connected pins, logic levels, SDF arcs annotated, SPEF nets\n"
    "matched, activity signals (vector bits) matched to nets, and events.\n"
    "Use it to check a set of inputs before a long power run.\n"
    "\n"
    "%s"
    "\n"
    "output:\n"
    "  --json FILE|-     also write the counts as JSON (keys instances, nets, pins,\n"
    "                    levels, sdf_arcs, spef_nets, sdc_clocks, signals_matched,\n"
    "                    signals_pins, signals_unmatched, events, nets_annotated\n"
    "                    and nets_unannotated: nets driven by cells and primary\n"
    "                    inputs, cells) to FILE, or to stdout\n"
    "                    instead of the text with -\n"
    "  --list-unmatched  name every activity signal that matches no net\n"
    "  --threads N       threads reading a VCD (default 0: every core; 1: in file\n"
    "                    order on one)\n"
    "\n"
    "example:\n"
    "  gatepower info --lib osu018_stdcells.lib --netlist netlist.v --top mult16 \\\n"
    "                 --sdf netlist.sdf --activity full.vcd --scope tb/dut\n";

typedef struct cell_count {
    const lib_cell *cell;
    uint32_t count;
} cell_count;

static int by_pointer(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (const lib_cell *const *)a, y = (uintptr_t) * (const lib_cell *const *)b;
    return (x > y) - (x < y);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const cell_count *)a)->cell->name, ((const cell_count *)b)->cell->name);
}

/* Instances per cell type, sorted by cell name; *n_out distinct cells. */
static cell_count *count_cells(const design *dg, size_t *n_out)
{
    const lib_cell **cells = mem_alloc((dg->n_insts ? dg->n_insts : 1) * sizeof *cells);
    cell_count *counts = mem_alloc((dg->n_insts ? dg->n_insts : 1) * sizeof *counts);
    size_t n = 0;
    if (cells && counts) {
        memcpy(cells, dg->inst_cell, dg->n_insts * sizeof *cells);
        qsort(cells, dg->n_insts, sizeof *cells, by_pointer);
        for (uint32_t i = 0; i < dg->n_insts; i++) {
            if (n == 0 || counts[n - 1].cell != cells[i])
                counts[n++] = (cell_count){cells[i], 0};
            counts[n - 1].count++;
        }
        qsort(counts, n, sizeof *counts, by_name);
    }
    mem_free(cells);
    *n_out = n;
    return counts;
}

/* The clocks, and the nets on their networks. */
static void print_sdc(const cli_design *cd)
{
    const sdc *s = cd->sdc;
    printf("SDC         %" PRIu32 " clock%s", s->n_clocks, s->n_clocks == 1 ? "" : "s");
    for (uint32_t c = 0; c < s->n_clocks; c++)
        printf("%s %s %.6g ns %s", c ? "," : ":", s->clocks[c].name,
               s->clocks[c].period / GP_FS_PER_NS,
               s->clocks[c].n_sources == 0 ? "virtual"
               : s->clocks[c].propagated   ? "propagated"
                                           : "ideal");
    printf("; %" PRIu32 " nets on ideal clock networks, %" PRIu32 " on propagated ones\n",
           cd->constraints.ideal_nets, cd->constraints.propagated_nets);
}

static void print_text(const cli_inputs *in, const cli_design *cd, const cell_count *cells,
                       size_t n_cells)
{
    const design *dg = cd->dg;
    size_t n_libs = lib_library_count(cd->libs);
    char a[REPORT_COUNT_LEN], b[REPORT_COUNT_LEN], c[REPORT_COUNT_LEN], d[REPORT_COUNT_LEN];
    printf("instances   %s of %zu cell types (%zu librar%s read)\n",
           report_count(a, dg->n_insts), n_cells, n_libs, n_libs == 1 ? "y" : "ies");
    printf("nets        %s\n", report_count(a, dg->n_nets));
    printf("pins        %s connected\n", report_count(a, dg->n_connected_pins));
    printf("levels      %" PRIu32 "%s\n", dg->n_levels,
           dg->n_loop_insts ? " (combinational loops: see the warning)" : "");
    if (in->spef)
        printf("SPEF        %" PRIu64 " of %" PRIu64 " nets matched\n", cd->spef.nets_matched,
               cd->spef.nets);
    if (in->sdf)
        printf("SDF         %" PRIu64 " arcs annotated by %" PRIu64 " of %" PRIu64
               " IOPATH entries; %" PRIu64 " of %" PRIu64 " INTERCONNECT; %" PRIu64
               " entries unmatched\n",
               cd->sdf.arcs_annotated, cd->sdf.iopaths_matched, cd->sdf.iopaths,
               cd->sdf.interconnects_matched, cd->sdf.interconnects, cd->sdf.unmatched);
    if (cd->sdc)
        print_sdc(cd);
    if (cd->ev) {
        printf("activity    %s, %s signals matched, %s unmatched", cd->activity.format,
               report_count(a, cd->activity.signals_matched),
               report_count(b, cd->activity.signals_unmatched));
        if (cd->activity.signals_pins)
            printf(", %s input pins of cells (not used)",
                   report_count(a, cd->activity.signals_pins));
        printf("; ");
        printf("%s events on %s nets, last time %.6g s\n", report_count(a, cd->ev->n_events),
               report_count(c, cd->activity.nets_with_activity),
               (double)cd->ev->end_fs / GP_FS_PER_S);
        if (cd->activity.parts > 1)
            printf("            read in %" PRIu32 " parts", cd->activity.parts);
        else
            printf("            read in file order");
        if (cd->activity.header_pieces)
            printf(", its header in %" PRIu32 " pieces", cd->activity.header_pieces);
        printf("\n");
        const cli_coverage *cov = &cd->coverage;
        printf("annotated   %s of %s nets driven by cells, %s of %s primary inputs\n",
               report_count(a, cov->driven_annotated), report_count(b, cov->driven),
               report_count(c, cov->inputs_annotated), report_count(d, cov->inputs));
    }
    printf("cells used:\n");
    for (size_t k = 0; k < n_cells; k++)
        printf("  %-20s %8" PRIu32 "\n", cells[k].cell->name, cells[k].count);
}

static void write_json(FILE *out, const cli_design *cd, const cell_count *cells, size_t n_cells)
{
    json_writer w;
    json_init(&w, out);
    json_begin_object(&w);
    const design *dg = cd->dg;
    const char *keys[] = {"instances", "nets", "pins", "levels", "sdf_arcs", "spef_nets",
                          "sdc_clocks", "signals_matched", "signals_pins", "signals_unmatched",
                          "events", "nets_annotated", "nets_unannotated"};
    const cli_coverage *cov = &cd->coverage;
    uint32_t annotated = cov->driven_annotated + cov->inputs_annotated;
    uint64_t values[] = {dg->n_insts, dg->n_nets, dg->n_connected_pins, dg->n_levels,
                         cd->sdf.arcs_annotated, cd->spef.nets_matched,
                         cd->sdc ? cd->sdc->n_clocks : 0,
                         cd->activity.signals_matched, cd->activity.signals_pins,
                         cd->activity.signals_unmatched,
                         cd->ev ? cd->ev->n_events : 0, annotated,
                         cov->driven + cov->inputs - annotated};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        json_key(&w, keys[k]);
        json_uint(&w, values[k]);
    }
    json_key(&w, "cells");
    json_begin_object(&w);
    for (size_t k = 0; k < n_cells; k++) {
        json_key(&w, cells[k].cell->name);
        json_uint(&w, cells[k].count);
    }
    json_end(&w);
    json_end(&w);
    json_finish(&w);
}

typedef struct info_args {
    const char *json;
    bool list_unmatched;
    int threads;
} info_args;

static int parse_info_option(void *args, int argc, char **argv, int *i)
{
    info_args *a = args;
    if (strcmp(argv[*i], "--json") == 0 && *i + 1 < argc) {
        a->json = argv[++*i];
        return 1;
    }
    if (strcmp(argv[*i], "--list-unmatched") == 0) {
        a->list_unmatched = true;
        return 1;
    }
    if (strcmp(argv[*i], "--threads") == 0 && *i + 1 < argc &&
        cli_parse_count(argv[*i + 1], 1024, &a->threads)) {
        ++*i;
        return 1;
    }
    return 0;
}

static int report(const cli_inputs *in, const cli_design *cd, const char *json, diag_ctx *d)
{
    size_t n_cells;
    cell_count *cells = count_cells(cd->dg, &n_cells);
    int status = 0;
    if (!cells) {
        diag_error(d, 1016, DIAG_NOWHERE, "out of memory");
        return CLI_EXIT_INPUT;
    }
    bool json_on_stdout = json && strcmp(json, "-") == 0;
    if (!json_on_stdout)
        print_text(in, cd, cells, n_cells);
    if (json) {
        FILE *out = json_on_stdout ? stdout : fopen(json, "w");
        if (!out) {
            diag_error(d, 1017, DIAG_NOWHERE, "cannot write '%s'", json);
            status = CLI_EXIT_INPUT;
        } else {
            write_json(out, cd, cells, n_cells);
            if (out != stdout && fclose(out) != 0) {
                diag_error(d, 1018, DIAG_NOWHERE, "cannot finish writing '%s'", json);
                status = CLI_EXIT_INPUT;
            }
        }
    }
    mem_free(cells);
    return status;
}

/* A dump none of whose signals names a net is reported, then refused: the
 * scope is wrong, or the dump is of another design. */
static bool matched_any(const cli_inputs *in, const cli_design *cd, diag_ctx *d)
{
    if (!cd->ev || cd->activity.signals_matched > 0)
        return true;
    diag_error(d, 1031, DIAG_NOWHERE, "none of the activity's %llu signals under --scope '%s' "
               "names a net of the design: check --scope (--list-unmatched names the signals)",
               (unsigned long long)cd->activity.signals_unmatched, in->scope ? in->scope : "");
    return false;
}

int cli_info(int argc, char **argv, const cli_context *ctx)
{
    cli_inputs in = {0};
    info_args a = {0};
    cli_syntax syn = {.name = "info", .help = info_help, .in = &in, .own = parse_info_option,
                      .own_args = &a};
    int status = cli_parse_command(&syn, argc, argv, ctx->diag);
    if (status)
        return status < 0 ? 0 : status;
    cli_design cd;
    in.threads = a.threads;
    if (cli_read_design(&in, a.list_unmatched, true, &cd, ctx) != GP_OK)
        status = CLI_EXIT_INPUT;
    else
        status = report(&in, &cd, a.json, ctx->diag);
    if (status == 0 && !matched_any(&in, &cd, ctx->diag))
        status = CLI_EXIT_INPUT;
    if (in.timing) {
        cli_timing_lap(&cd.timing, "report");
        cli_timing_print(&cd.timing, stderr);
    }
    cli_design_free(&cd);
    return status;
}
