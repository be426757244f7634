/* design_levels.c: levelisation of the combinational logic (Kahn's algorithm
 * over cell-to-cell edges), and the report of combinational loops. */
#include "design/design_int.h"

#include <stdio.h>
#include <string.h>

#include "util/mem.h"

/* A loop header: the statement after it runs with `load` set to each
 * combinational instance that an output pin of instance i drives, once per
 * input pin it drives (i itself included: a cell feeding itself is a loop). */
#define FOR_EACH_COMB_LOAD(dg, i, load)                                                   \
    for (uint32_t p_ = (dg)->inst_pin0[i]; p_ < (dg)->inst_pin0[(i) + 1]; p_++)           \
        if (design_dir_drives(design_lib_pin((dg), p_)->dir) && (dg)->pin_net[p_] != DESIGN_NONE) \
            for (uint32_t k_ = (dg)->net_pin0[(dg)->pin_net[p_]],                         \
                          e_ = (dg)->net_pin0[(dg)->pin_net[p_] + 1];                     \
                 k_ < e_; k_++)                                                           \
                if ((dg)->net_pins[k_] != p_ &&                                           \
                    design_dir_loads(design_lib_pin((dg), (dg)->net_pins[k_])->dir) &&    \
                    !design_is_sequential((dg), (load) = (dg)->pin_inst[(dg)->net_pins[k_]]))

/* Number of combinational driver edges into each combinational instance. */
static void count_fanin(const design *dg, uint32_t *fanin)
{
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        if (design_is_sequential(dg, i))
            continue;
        uint32_t load;
        FOR_EACH_COMB_LOAD(dg, i, load)
        fanin[load]++;
    }
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
    uint32_t n = dg->n_insts;
    uint32_t *fanin = mem_calloc(n ? n : 1, sizeof *fanin);
    uint32_t *queue = mem_calloc(n ? n : 1, sizeof *queue);
    dg->inst_level = mem_calloc(n ? n : 1, sizeof *dg->inst_level);
    if (!fanin || !queue || !dg->inst_level) {
        mem_free(fanin);
        mem_free(queue);
        diag_error(d, 7008, DIAG_NOWHERE, "out of memory while levelising the design");
        return GP_ERR_NOMEM;
    }
    count_fanin(dg, fanin);
    uint32_t head = 0, tail = 0, max_level = 0, combinational = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (design_is_sequential(dg, i))
            continue;
        combinational++;
        dg->inst_level[i] = 1;
        if (fanin[i] == 0)
            queue[tail++] = i;
    }
    while (head < tail) {
        uint32_t i = queue[head++], load;
        max_level = dg->inst_level[i] > max_level ? dg->inst_level[i] : max_level;
        FOR_EACH_COMB_LOAD(dg, i, load)
        {
            if (dg->inst_level[load] < dg->inst_level[i] + 1)
                dg->inst_level[load] = dg->inst_level[i] + 1;
            if (--fanin[load] == 0)
                queue[tail++] = load;
        }
    }
    dg->n_loop_insts = combinational - tail;
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
    mem_free(queue);
    return GP_OK;
}
