/* liberty_table.c: NLDM tables: number lists of index_N and values strings,
 * building a lib_table from a table group and its template, and the lookup
 * (bilinear inside the grid, linear extrapolation outside). */
#include <math.h>

#include "liberty/liberty_int.h"
#include "liberty/liberty_lookup.h"

/* ---- number lists ------------------------------------------------------- */

/* Where byte `off` of argument a lies in the file (a's text starts one
 * column after its opening quote). */
static diag_loc lib_offset_loc(const lib_arg *a, const char *file, size_t off)
{
    int line = a->line, col = a->col + (a->quoted ? 1 : 0);
    size_t line_start = 0;
    for (size_t i = 0; i < off; i++)
        if (a->text[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    if (line != a->line)
        col = 1 + (int)(off - line_start);
    else
        col += (int)off;
    return (diag_loc){file, line, col};
}

/* Whether a list separator starts at s[i]; *len is its length.  A backslash
 * counts only as a line continuation (blanks allowed before the newline). */
static bool lib_separator(const char *s, size_t n, size_t i, size_t *len)
{
    char c = s[i];
    if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        *len = 1;
        return true;
    }
    if (c != '\\')
        return false;
    size_t j = i + 1;
    while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'))
        j++;
    *len = j + 1 - i;
    return j < n && s[j] == '\n';
}

gp_status lib_parse_numbers(const lib_arg *a, const char *file, double scale, const char *what,
                            vec_f64 *out, diag_ctx *d)
{
    const char *s = a->text;
    size_t n = a->len, i = 0, sep;
    while (i < n) {
        if (lib_separator(s, n, i, &sep)) {
            i += sep;
            continue;
        }
        size_t start = i;
        while (i < n && !lib_separator(s, n, i, &sep))
            i++;
        double v;
        if (!tok_parse_double(s + start, i - start, &v)) {
            diag_error(d, 2300, lib_offset_loc(a, file, start),
                       "bad number '%.*s' in %s: write decimal numbers separated by commas",
                       (int)(i - start > 40 ? 40 : i - start), s + start, what);
            return GP_ERR_PARSE;
        }
        if (!vec_f64_push(out, v * scale)) {
            diag_error(d, 2301, lib_offset_loc(a, file, start), "out of memory reading %s", what);
            return GP_ERR_NOMEM;
        }
    }
    return GP_OK;
}

gp_status lib_check_increasing(const double *idx, size_t n, diag_loc loc, const char *what,
                               diag_ctx *d)
{
    if (n == 0) {
        diag_error(d, 2302, loc, "%s has no numbers: give the axis' points", what);
        return GP_ERR_INPUT;
    }
    for (size_t i = 1; i < n; i++)
        if (!(idx[i] > idx[i - 1])) {
            diag_error(d, 2303, loc,
                       "%s must increase strictly, but point %zu is not above point %zu", what,
                       i + 1, i);
            return GP_ERR_INPUT;
        }
    return GP_OK;
}

/* ---- building ------------------------------------------------------------- */

static double *lib_copy_f64(arena *mem, const double *src, size_t n)
{
    double *p = arena_alloc(mem, n * sizeof *p, 0);
    if (p)
        memcpy(p, src, n * sizeof *p);
    return p;
}

/* The table's axes from its own index_N or its template's. */
static gp_status lib_table_axes(const lib_tableb *tb, const lib_template *tmpl, lib_table *t,
                                arena *mem, diag_ctx *d)
{
    t->size[0] = t->size[1] = 1;
    for (int k = 0; k < t->n_dims; k++) {
        t->var[k] = tmpl->var[k];
        if (tb->has_index[k]) {
            t->size[k] = (uint32_t)tb->index[k].len;
            t->index[k] = lib_copy_f64(mem, tb->index[k].data, tb->index[k].len);
            if (!t->index[k]) {
                diag_error(d, 2304, tb->loc, "out of memory building a table");
                return GP_ERR_NOMEM;
            }
        } else if (tmpl->index[k]) {
            t->size[k] = tmpl->size[k];
            t->index[k] = tmpl->index[k];
        } else {
            diag_error(d, 2305, tb->loc,
                       "table has no index_%d, neither in the table nor in its template: add one",
                       k + 1);
            return GP_ERR_INPUT;
        }
    }
    return GP_OK;
}

/* Checks the values' count (and rows of a 2-D table written row by row). */
static gp_status lib_table_check_values(const lib_tableb *tb, const lib_table *t, diag_ctx *d)
{
    if (!tb->has_values) {
        diag_error(d, 2306, tb->loc, "table has no values: add values (\"...\");");
        return GP_ERR_INPUT;
    }
    size_t want = (size_t)t->size[0] * t->size[1];
    if (tb->values.len != want) {
        diag_error(d, 2307, tb->values_loc,
                   "values has %zu numbers but the table's index sizes (%u x %u) need %zu",
                   tb->values.len, t->size[0], t->size[1], want);
        return GP_ERR_INPUT;
    }
    if (t->n_dims == 2 && tb->n_strings > 1 &&
        (tb->n_strings != t->size[0] || tb->rows_uneven)) {
        diag_error(d, 2308, tb->values_loc,
                   "values has %u strings of uneven length: write one string per index_1 point "
                   "with %u numbers (one per index_2 point) each",
                   tb->n_strings, t->size[1]);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

gp_status lib_table_build(const lib_tableb *tb, const lib_template *tmpl, arena *mem,
                          diag_ctx *d, const lib_table **out)
{
    lib_table *t = arena_calloc(mem, 1, sizeof *t, 0);
    if (!t) {
        diag_error(d, 2309, tb->loc, "out of memory building a table");
        return GP_ERR_NOMEM;
    }
    t->n_dims = tmpl ? tmpl->n_vars : 0;
    gp_status st = lib_table_axes(tb, tmpl, t, mem, d);
    if (st == GP_OK)
        st = lib_table_check_values(tb, t, d);
    if (st != GP_OK)
        return st;
    t->values = lib_copy_f64(mem, tb->values.data, tb->values.len);
    if (!t->values) {
        diag_error(d, 2310, tb->loc, "out of memory building a table");
        return GP_ERR_NOMEM;
    }
    *out = t;
    return GP_OK;
}

/* ---- lookup ----------------------------------------------------------------- */

double lib_table_lookup_var(const lib_table *t, const double value[LIB_VAR_COUNT])
{
    if (t->n_dims == 0)
        return t->values[0];
    double x = value[t->var[0]];
    if (isnan(x))
        return NAN;
    uint32_t i0, i1, j0 = 0, j1 = 0;
    double f = lib_axis(t->index[0], t->size[0], x, &i0, &i1), g = 0;
    if (t->n_dims == 2) {
        double y = value[t->var[1]];
        if (isnan(y))
            return NAN;
        g = lib_axis(t->index[1], t->size[1], y, &j0, &j1);
    }
    return lib_bilinear(t->values, t->size[1], i0, i1, j0, j1, f, g);
}

double lib_table_lookup(const lib_table *t, double slew, double load)
{
    double value[LIB_VAR_COUNT] = {[LIB_VAR_INPUT_SLEW] = slew, [LIB_VAR_LOAD] = load,
                                   [LIB_VAR_RELATED_SLEW] = NAN,
                                   [LIB_VAR_CONSTRAINED_SLEW] = NAN};
    return lib_table_lookup_var(t, value);
}
