/* design_levels.c: levelisation of the combinational logic (design_waves
 * over cell-to-cell edges), and the report of combinational loops. */
#include "design/design_int.h"

#include <stdio.h>
#include <string.h>

#include "util/mem.h"

/* The edges of levelisation: from a combinational instance's driving pin
 * to each other pin on its net that loads a combinational instance. */
static bool comb_driver(const design_dag *g, uint32_t p)
{
    return (g->dg->pin_flags[p] & (DESIGN_PIN_DRIVES | DESIGN_PIN_SEQUENTIAL)) ==
           DESIGN_PIN_DRIVES;
}

static bool comb_load(const design_dag *g, uint32_t p, uint32_t q)
{
    return q != p && (g->dg->pin_flags[q] & (DESIGN_PIN_LOADS | DESIGN_PIN_SEQUENTIAL)) ==
                         DESIGN_PIN_LOADS;
}

/* Follows driver edges among the instances left with fan-in (all on or
 * behind a loop) until one repeats, and names the loop in a warning. */
static void report_loop(design *dg, const uint32_t *fanin, uint32_t start, diag_ctx *d)
{
    uint32_t *seen_at = mem_calloc(dg->n_insts, sizeof *seen_at);
    if (!seen_at)
        return;
    uint32_t path[64], len = 0, i = start, cycle_start = 0;
    while (!seen_at[i] && len < 64) {
        seen_at[i] = ++len;
        path[len - 1] = i;
        uint32_t next = DESIGN_NONE;
        for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1] && next == DESIGN_NONE; p++) {
            uint32_t n = dg->pin_net[p];
            uint32_t drv = n == DESIGN_NONE ? DESIGN_NONE : design_net_driver_inst(dg, n);
            if (design_dir_loads(design_lib_pin(dg, p)->dir) && drv != DESIGN_NONE && fanin[drv])
                next = drv;
        }
        if (next == DESIGN_NONE)
            break;
        i = next;
    }
    cycle_start = seen_at[i] ? seen_at[i] - 1 : 0;
    char names[512] = "";
    for (uint32_t k = len; k-- > cycle_start && strlen(names) < 400;) {
        strncat(names, design_inst_name(dg, path[k]), sizeof names - strlen(names) - 8);
        strcat(names, " -> ");
    }
    strncat(names, design_inst_name(dg, path[len - 1]), sizeof names - strlen(names) - 1);
    diag_warn(d, 7007, DIAG_NOWHERE,
              "combinational loop: %s; %u instances on or behind loops are placed after the "
              "last level (re-simulation refuses such a design)",
              names, dg->n_loop_insts);
    mem_free(seen_at);
}

gp_status design_levelize(design *dg, diag_ctx *d)
{
    uint32_t n = dg->n_insts, ordered;
    uint32_t *fanin = mem_alloc((n ? n : 1) * sizeof *fanin);
    uint32_t *order = mem_alloc((n ? n : 1) * sizeof *order);
    uint32_t *wave0 = mem_alloc(((size_t)n + 1) * sizeof *wave0);
    dg->inst_level = mem_calloc(n ? n : 1, sizeof *dg->inst_level);
    design_dag g = {.dg = dg, .from = comb_driver, .to = comb_load};
    uint32_t waves, max_level = 0;
    if (!fanin || !order || !wave0 || !dg->inst_level ||
        !design_waves(&g, fanin, order, wave0, &ordered, &waves)) {
        mem_free(fanin);
        mem_free(order);
        mem_free(wave0);
        diag_error(d, 7008, DIAG_NOWHERE, "out of memory while levelising the design");
        return GP_ERR_NOMEM;
    }
    for (uint32_t w = 0; w < waves; w++)
        for (uint32_t k = wave0[w]; k < wave0[w + 1]; k++)
            if (!design_is_sequential(dg, order[k]))
                dg->inst_level[order[k]] = max_level = w + 1;
    dg->n_loop_insts = n - ordered;
    if (dg->n_loop_insts) {
        for (uint32_t i = 0; i < n; i++)
            if (fanin[i]) {
                report_loop(dg, fanin, i, d);
                break;
            }
        for (uint32_t i = 0; i < n; i++)
            if (fanin[i])
                dg->inst_level[i] = max_level + 1;
        max_level++;
    }
    dg->n_levels = n ? max_level + 1 : 0;
    mem_free(fanin);
    mem_free(order);
    mem_free(wave0);
    return GP_OK;
}
