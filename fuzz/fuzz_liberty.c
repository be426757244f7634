/* fuzz_liberty.c: the Liberty reader on arbitrary bytes, then every table
 * lookup and expression of whatever it read, so that a model built from odd
 * input is also safe to use. */
#include <stddef.h>
#include <stdint.h>

#include "liberty/liberty.h"

static void use_table(const lib_table *t)
{
    static const double points[][2] = {{0, 0}, {1e-10, 1e-14}, {-1, 1e3}, {1e9, -1e-9}};
    if (!t)
        return;
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        double v[LIB_VAR_COUNT] = {points[i][0], points[i][1], points[i][0], points[i][1]};
        lib_table_lookup(t, points[i][0], points[i][1]);
        lib_table_lookup_var(t, v);
    }
}

static void use_expr(const lib_cell *c, const lib_expr *e)
{
    if (e)
        for (uint32_t s = 0; s < 4; s++)
            lib_expr_eval(c, e, s * 0x55555555u);
}

static void use_cell(const lib_cell *c)
{
    for (uint32_t i = 0; i < c->n_pins; i++) {
        const lib_pin *p = &c->pins[i];
        lib_pin_index(c, p->name);
        use_expr(c, p->function);
        use_expr(c, p->three_state);
        use_expr(c, p->state_function);
    }
    for (uint32_t i = 0; i < c->n_arcs; i++) {
        use_expr(c, c->arcs[i].when);
        for (int k = 0; k < LIB_ARC_TABLES; k++)
            use_table(c->arcs[i].table[k]);
    }
    for (uint32_t i = 0; i < c->n_powers; i++) {
        use_expr(c, c->powers[i].when);
        use_table(c->powers[i].rise);
        use_table(c->powers[i].fall);
    }
    for (uint32_t i = 0; i < c->n_leakages; i++)
        use_expr(c, c->leakages[i].when);
    for (uint32_t i = 0; i < c->n_seqs; i++)
        for (int k = 0; k < LIB_SEQ_EXPRS; k++)
            use_expr(c, c->seqs[i].expr[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    if (s && d) {
        /* twice: the second read meets every cell name again */
        for (int pass = 0; pass < 2; pass++)
            lib_read_memory(s, "fuzz.lib", (const char *)data, size, d);
        for (size_t i = 0; i < lib_cell_count(s); i++)
            use_cell(lib_cell_at(s, i));
    }
    lib_set_free(s);
    diag_free(d);
    return 0;
}
