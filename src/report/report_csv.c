/* report_csv.c: the CSV tables: waveform.csv (one row per cycle),
 * instances.csv (one per instance, in instance order) and cells.csv (one per
 * cell type, by total power).  Numbers print as JSON's do (the fewest
 * digits that read back as the exact doubles); names are quoted (RFC 4180) when they hold a comma,
 * a quote or a line break, as escaped Verilog identifiers may.  The long
 * tables are formatted on every core, a batch of rows at a time, each
 * batch written in row order while the next is formatted. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_int.h"
#include "util/json.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/strtab.h"
#include "util/vec.h"

/* Rows a part formats before the batch is written: each row's numbers
 * cost about a microsecond, its text about 130 bytes. */
#define CSV_PART_ROWS 16384u

/* Text being formatted: a part's rows, or one line; `failed` once an
 * allocation failed (the text is then incomplete). */
typedef struct csv_text {
    vec_char chars;
    bool failed;
} csv_text;

static void csv_put(csv_text *t, const char *s, size_t n)
{
    if (!vec_char_reserve(&t->chars, t->chars.len + n)) {
        t->failed = true;
        return;
    }
    memcpy(t->chars.data + t->chars.len, s, n);
    t->chars.len += n;
}

static void csv_puts(csv_text *t, const char *s) { csv_put(t, s, strlen(s)); }

/* One row of a table, appended to a part's text. */
typedef void csv_row_fn(csv_text *t, const report_ctx *c, uint32_t row);

/* A batch of rows cut into parts, each formatted into a text of its own,
 * and, after the first batch, one part more that writes the batch before
 * it (`written`) to the file. */
typedef struct csv_batch {
    const report_ctx *c;
    csv_row_fn *row;
    uint32_t first, n, parts;
    csv_text *texts;
    const csv_text *written;
    uint32_t written_parts;
    FILE *out;
    int write_errno; /* the writing part's errno when a write failed, else 0 */
} csv_batch;

/* The part's text is grown on its own stack until the end: the parts'
 * records share cache lines, and every field written moves their lengths. */
static void csv_format_part(const csv_batch *b, uint32_t part)
{
    csv_text text = b->texts[part];
    uint32_t end = b->first + (uint32_t)parts_begin(b->n, part + 1, b->parts);
    for (uint32_t r = b->first + (uint32_t)parts_begin(b->n, part, b->parts); r < end; r++)
        b->row(&text, b->c, r);
    b->texts[part] = text;
}

/* Writes the texts; the errno of a write that failed, else 0 (the
 * stream's error flag is set too, for the caller). */
static int csv_write_texts(FILE *out, const csv_text *texts, uint32_t parts)
{
    for (uint32_t p = 0; p < parts; p++)
        if (fwrite(texts[p].chars.data, 1, texts[p].chars.len, out) != texts[p].chars.len)
            return errno ? errno : EIO;
    return 0;
}

static void csv_batch_part(void *ctx, uint32_t part, uint32_t parts_run)
{
    csv_batch *b = ctx;
    if (part < b->parts)
        csv_format_part(b, part);
    else if (part + 1 == parts_run)
        b->write_errno = csv_write_texts(b->out, b->written, b->written_parts);
}

/* Empties parts [0, parts) of texts, their memory kept; false if one of
 * them failed. */
static bool csv_texts_clear(csv_text *texts, uint32_t parts)
{
    bool ok = true;
    for (uint32_t p = 0; p < parts; p++) {
        ok = ok && !texts[p].failed;
        texts[p].chars.len = 0;
        texts[p].failed = false;
    }
    return ok;
}

/* Prints rows [0, n) to out in order: each batch is formatted on threads
 * while the batch before it is written; an allocation that fails is
 * reported as out of memory.  A write that fails ends the rows, its errno
 * the caller's (the caller asks the stream's error flag). */
static gp_status csv_rows(FILE *out, const report_ctx *c, uint32_t n, csv_row_fn *row)
{
    uint32_t max_parts = parts_online_cores();
    csv_text *texts = mem_calloc(2 * (size_t)max_parts, sizeof *texts);
    csv_text *formatted = texts, *written = texts + max_parts;
    uint32_t written_parts = 0;
    bool ok = texts != NULL;
    int write_errno = 0;
    for (uint32_t first = 0; ok && !write_errno && first < n;) {
        uint32_t parts = (n - first + CSV_PART_ROWS - 1) / CSV_PART_ROWS;
        parts = parts < max_parts ? parts : max_parts;
        uint64_t rows = (uint64_t)parts * CSV_PART_ROWS;
        csv_batch b = {c, row, first, rows < n - first ? (uint32_t)rows : n - first, parts,
                       formatted, written, written_parts, out, 0};
        parts_run(csv_batch_part, &b, parts + (written_parts > 0));
        ok = csv_texts_clear(written, written_parts);
        write_errno = b.write_errno;
        csv_text *swap = written;
        written = formatted;
        formatted = swap;
        written_parts = parts;
        first += b.n;
    }
    if (ok && !write_errno)
        write_errno = csv_write_texts(out, written, written_parts);
    ok = ok && csv_texts_clear(written, written_parts);
    for (uint32_t p = 0; texts && p < 2 * max_parts; p++)
        vec_char_free(&texts[p].chars);
    mem_free(texts);
    if (write_errno)
        errno = write_errno;
    return ok ? GP_OK : report_nomem(c);
}

/* A field, quoted (RFC 4180) when it holds a comma, a quote or a line
 * break. */
static void csv_field(csv_text *t, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        csv_puts(t, s);
        return;
    }
    csv_put(t, "\"", 1);
    for (const char *run = s;; run = s) {
        while (*s && *s != '"')
            s++;
        csv_put(t, run, (size_t)(s - run));
        if (!*s)
            break;
        csv_put(t, "\"\"", 2);
        s++;
    }
    csv_put(t, "\"", 1);
}

/* ",x" for each number x of v[0..n). */
static void csv_numbers(csv_text *t, const double *v, int n)
{
    char buf[JSON_NUMBER_MAX];
    for (int k = 0; k < n; k++) {
        csv_put(t, ",", 1);
        csv_puts(t, json_number_text(v[k], buf));
    }
}

static void cycle_row(csv_text *t, const report_ctx *c, uint32_t b)
{
    double start = report_cycle_start(c->r, b), v[REPORT_WAVE_SIGNALS];
    char cycle[16];
    report_wave_values(c->r, b, v);
    snprintf(cycle, sizeof cycle, "%" PRIu32, b);
    csv_puts(t, cycle);
    csv_numbers(t, &start, 1);
    csv_numbers(t, v, REPORT_WAVE_SIGNALS);
    csv_put(t, "\n", 1);
}

gp_status report_waveform_csv_file(FILE *out, const report_ctx *c)
{
    fputs("cycle,start_s", out);
    for (int s = 0; s < REPORT_WAVE_SIGNALS; s++)
        fprintf(out, ",%s", report_wave_names[s]);
    fputc('\n', out);
    return csv_rows(out, c, c->r->n_cycles, cycle_row);
}

static void instance_row(csv_text *t, const report_ctx *c, uint32_t i)
{
    const design *dg = c->dg;
    double cols[REPORT_COLS];
    report_columns(&c->r->inst_energy[(size_t)i * POWER_COMPONENTS], report_duration(c->r),
                   cols);
    csv_field(t, design_inst_name(dg, i));
    csv_put(t, ",", 1);
    csv_field(t, dg->inst_cell[i]->name);
    csv_put(t, ",", 1);
    csv_puts(t, report_group_name((power_group)c->r->inst_group[i]));
    csv_numbers(t, cols, REPORT_COLS);
    csv_put(t, "\n", 1);
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
    csv_text t = {{NULL, 0, 0}, false};
    csv_puts(&t, "cell,instances,internal_W,switching_W,leakage_W,glitch_W,total_W\n");
    double cols[REPORT_COLS];
    for (uint32_t k = 0; k < n; k++) {
        char count[16];
        report_columns(sums[k].energy, report_duration(c->r), cols);
        csv_field(&t, sums[k].name);
        snprintf(count, sizeof count, ",%" PRIu32, sums[k].instances);
        csv_puts(&t, count);
        csv_numbers(&t, cols, REPORT_COLS);
        csv_put(&t, "\n", 1);
    }
    int write_errno = csv_write_texts(out, &t, t.failed ? 0 : 1);
    bool failed = t.failed;
    vec_char_free(&t.chars);
    mem_free(sums);
    strtab_free(&names);
    if (write_errno)
        errno = write_errno; /* the caller asks the stream's error flag */
    return failed ? report_nomem(c) : GP_OK;
}
