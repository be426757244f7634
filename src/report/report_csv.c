/* report_csv.c: the CSV tables: waveform.csv (one row per cycle),
 * instances.csv (one per instance, in instance order) and cells.csv (one per
 * cell type, by total power).  Numbers print as JSON's do (the fewest
 * digits that read back as the exact doubles); names are quoted (RFC 4180) when they hold a comma,
 * a quote or a line break, as escaped Verilog identifiers may. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/json.h"
#include "util/mem.h"
#include "util/strtab.h"

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

gp_status report_waveform_csv_file(FILE *out, const report_ctx *c)
{
    fputs("cycle,start_s", out);
    for (int s = 0; s < REPORT_WAVE_SIGNALS; s++)
        fprintf(out, ",%s", report_wave_names[s]);
    fputc('\n', out);
    double v[REPORT_WAVE_SIGNALS];
    char buf[JSON_NUMBER_MAX];
    for (uint32_t b = 0; b < c->r->n_cycles; b++) {
        report_wave_values(c->r, b, v);
        fprintf(out, "%" PRIu32 ",%s", b, json_number_text(report_cycle_start(c->r, b), buf));
        csv_numbers(out, v, REPORT_WAVE_SIGNALS);
    }
    return GP_OK;
}

gp_status report_instances_file(FILE *out, const report_ctx *c)
{
    const design *dg = c->dg;
    fputs("instance,cell,group,internal_W,switching_W,leakage_W,glitch_W,total_W\n", out);
    double cols[REPORT_COLS];
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        report_columns(&c->r->inst_energy[(size_t)i * POWER_COMPONENTS], report_duration(c->r),
                       cols);
        csv_field(out, design_inst_name(dg, i));
        fputc(',', out);
        csv_field(out, dg->inst_cell[i]->name);
        fprintf(out, ",%s", report_group_name((power_group)c->r->inst_group[i]));
        csv_numbers(out, cols, REPORT_COLS);
    }
    return GP_OK;
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
