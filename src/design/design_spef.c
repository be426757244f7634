/* design_spef.c: the nets' wire capacitances: each SPEF D_NET's total
 * capacitance (the RC network itself is not used yet), or a value given
 * per net (SDC's set_load), from which loads, slews and NLDM delays are
 * computed. */
#include "design/design_int.h"

#include <math.h>
#include <string.h>

#include "spef/spef.h"
#include "util/mem.h"

typedef struct spef_annotator {
    design *dg;
    diag_ctx *d;
    design_spef_stats *stats;
} spef_annotator;

static gp_status on_d_net(void *ctx, const spef_net *net, diag_loc loc)
{
    spef_annotator *an = ctx;
    an->stats->nets++;
    uint32_t n = design_find_net(an->dg, net->name);
    if (n == DESIGN_NONE) {
        diag_warn(an->d, 7012, loc, "SPEF net '%s' is not a net of the design; is the SPEF for "
                  "this netlist?", net->name);
        return GP_OK;
    }
    an->stats->nets_matched++;
    an->dg->net_wire_cap[n] = net->total_cap;
    return GP_OK;
}

static bool alloc_wire_caps(design *dg)
{
    return dg->net_wire_cap || (dg->net_wire_cap = mem_calloc(dg->n_nets ? dg->n_nets : 1,
                                                             sizeof *dg->net_wire_cap));
}

gp_status design_set_wire_caps(design *dg, const double *cap, diag_ctx *d)
{
    if (!alloc_wire_caps(dg)) {
        diag_error(d, 7017, DIAG_NOWHERE, "out of memory while setting the nets' loads");
        return GP_ERR_NOMEM;
    }
    for (uint32_t n = 0; n < dg->n_nets; n++)
        if (!isnan(cap[n]))
            dg->net_wire_cap[n] = cap[n];
    return GP_OK;
}

gp_status design_annotate_spef(design *dg, const char *path, design_spef_stats *stats,
                               diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    if (!alloc_wire_caps(dg)) {
        diag_error(d, 7016, DIAG_NOWHERE, "out of memory while reading SPEF");
        return GP_ERR_NOMEM;
    }
    spef_annotator an = {.dg = dg, .d = d, .stats = stats};
    spef_visitor v = {.ctx = &an, .d_net = on_d_net};
    return spef_read(path, &v, d);
}

gp_status design_read_spef(design *dg, const char *path, const design_timing_options *opt,
                           design_spef_stats *stats, diag_ctx *d)
{
    gp_status st = design_annotate_spef(dg, path, stats, d);
    return st == GP_OK ? design_compute_timing(dg, opt, d) : st;
}
