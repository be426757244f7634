/* report_csv.c: the CSV tables: waveform.csv (one row per cycle),
 * instances.csv (one per instance, in instance order) and cells.csv (one per
 * cell type, by total power).  Numbers print as JSON's do (the fewest
 * digits that read back as the exact doubles); names are quoted (RFC 4180) when they hold a comma,
 * a quote or a line break, as escaped Verilog identifiers may.  The long
 * tables are formatted on every core, a batch of rows at a time, and
 * written in row order. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/json.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/strtab.h"

/* Rows a part formats before the batch is written: each row's numbers
 * cost a few microseconds, its text about 130 bytes. */
#define CSV_PART_ROWS 16384u

/* One row of a table, printed to a part's stream. */
typedef void csv_row_fn(FILE *out, const report_ctx *c, uint32_t row);

/* A batch of rows cut into parts, each printed into a memory stream of
 * its own. */
typedef struct csv_batch {
    const report_ctx *c;
    csv_row_fn *row;
    uint32_t first, n;
    char **text;
    size_t *len;
    bool *failed;
} csv_batch;

static void csv_batch_part(void *ctx, uint32_t part, uint32_t parts)
{
    const csv_batch *b = ctx;
    FILE *out = open_memstream(&b->text[part], &b->len[part]);
    if (!out) {
        b->failed[part] = true;
        return;
    }
    uint32_t end = b->first + (uint32_t)parts_begin(b->n, part + 1, parts);
    for (uint32_t r = b->first + (uint32_t)parts_begin(b->n, part, parts); r < end; r++)
        b->row(out, b->c, r);
    b->failed[part] = ferror(out) != 0;
    if (fclose(out) != 0)
        b->failed[part] = true;
}

/* Prints rows [0, n) to out in order, formatted on threads; an
 * allocation that fails is reported as out of memory. */
static gp_status csv_rows(FILE *out, const report_ctx *c, uint32_t n, csv_row_fn *row)
{
    uint32_t max_parts = parts_online_cores();
    char **text = mem_calloc(max_parts, sizeof *text);
    size_t *len = mem_calloc(max_parts, sizeof *len);
    bool *failed = mem_calloc(max_parts, sizeof *failed);
    gp_status st = text && len && failed ? GP_OK : report_nomem(c);
    for (uint32_t first = 0; st == GP_OK && first < n;) {
        uint32_t parts = (n - first + CSV_PART_ROWS - 1) / CSV_PART_ROWS;
        parts = parts < max_parts ? parts : max_parts;
        uint64_t rows = (uint64_t)parts * CSV_PART_ROWS;
        csv_batch b = {c, row, first, rows < n - first ? (uint32_t)rows : n - first,
                       text, len, failed};
        parts_run(csv_batch_part, &b, parts);
        for (uint32_t p = 0; p < parts; p++) {
            if (failed[p] && st == GP_OK)
                st = report_nomem(c);
            if (st == GP_OK)
                fwrite(text[p], 1, len[p], out);
            free(text[p]); /* open_memstream's buffer is malloc's */
            text[p] = NULL;
        }
        first += b.n;
    }
    mem_free(text);
    mem_free(len);
    mem_free(failed);
    return st;
}

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_numbers(FILE *out, const double *v, int n)
{
    char buf[JSON_NUMBER_MAX];
    for (int k = 0; k < n; k++)
        fprintf(out, ",%s", json_number_text(v[k], buf));
    fputc('\n', out);
}

static void cycle_row(FILE *out, const report_ctx *c, uint32_t b)
{
    double v[REPORT_WAVE_SIGNALS];
    char buf[JSON_NUMBER_MAX];
    report_wave_values(c->r, b, v);
    fprintf(out, "%" PRIu32 ",%s", b, json_number_text(report_cycle_start(c->r, b), buf));
    csv_numbers(out, v, REPORT_WAVE_SIGNALS);
}

gp_status report_waveform_csv_file(FILE *out, const report_ctx *c)
{
    fputs("cycle,start_s", out);
    for (int s = 0; s < REPORT_WAVE_SIGNALS; s++)
        fprintf(out, ",%s", report_wave_names[s]);
    fputc('\n', out);
    return csv_rows(out, c, c->r->n_cycles, cycle_row);
}

static void instance_row(FILE *out, const report_ctx *c, uint32_t i)
{
    const design *dg = c->dg;
    double cols[REPORT_COLS];
    report_columns(&c->r->inst_energy[(size_t)i * POWER_COMPONENTS], report_duration(c->r),
                   cols);
    csv_field(out, design_inst_name(dg, i));
    fputc(',', out);
    csv_field(out, dg->inst_cell[i]->name);
    fprintf(out, ",%s", report_group_name((power_group)c->r->inst_group[i]));
    csv_numbers(out, cols, REPORT_COLS);
}

gp_status report_instances_file(FILE *out, const report_ctx *c)
{
    fputs("instance,cell,group,internal_W,switching_W,leakage_W,glitch_W,total_W\n", out);
    return csv_rows(out, c, c->dg->n_insts, instance_row);
}

/* One cell type's sums; `name` points into the strtab. */
typedef struct cell_sum {
    const char *name;
    uint32_t instances;
    double energy[POWER_COMPONENTS];
    double total; /* W, as printed: the sort key */
} cell_sum;

/* Total descending, then name. */
static int by_total_then_name(const void *pa, const void *pb)
{
    const cell_sum *a = pa, *b = pb;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The instances' energies summed by cell name: *n_out cell types, in order
 * of first appearance. */
static cell_sum *sum_cells(const report_ctx *c, strtab *names, uint32_t *n_out)
{
    const design *dg = c->dg;
    cell_sum *sums = mem_calloc(dg->n_insts ? dg->n_insts : 1, sizeof *sums);
    if (!sums)
        return NULL;
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        const char *name = dg->inst_cell[i]->name;
        uint32_t id = strtab_intern(names, name, strlen(name));
        if (id == STRTAB_NONE) {
            mem_free(sums);
            return NULL;
        }
        cell_sum *s = &sums[id]; /* ids are dense and at most one per instance */
        s->name = strtab_str(names, id);
        s->instances++;
        for (int k = 0; k < POWER_COMPONENTS; k++)
            s->energy[k] += c->r->inst_energy[(size_t)i * POWER_COMPONENTS + k];
    }
    *n_out = strtab_count(names);
    for (uint32_t k = 0; k < *n_out; k++)
        sums[k].total = power_sum_components(sums[k].energy) / report_duration(c->r);
    return sums;
}

gp_status report_cells_file(FILE *out, const report_ctx *c)
{
    strtab names;
    strtab_init(&names);
    uint32_t n = 0;
    cell_sum *sums = sum_cells(c, &names, &n);
    if (!sums) {
        strtab_free(&names);
        return report_nomem(c);
    }
    qsort(sums, n, sizeof *sums, by_total_then_name);
    fputs("cell,instances,internal_W,switching_W,leakage_W,glitch_W,total_W\n", out);
    double cols[REPORT_COLS];
    for (uint32_t k = 0; k < n; k++) {
        report_columns(sums[k].energy, report_duration(c->r), cols);
        csv_field(out, sums[k].name);
        fprintf(out, ",%" PRIu32, sums[k].instances);
        csv_numbers(out, cols, REPORT_COLS);
    }
    mem_free(sums);
    strtab_free(&names);
    return GP_OK;
}
