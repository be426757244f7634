/* design_spef.c: SPEF annotation: each D_NET's total capacitance becomes its
 * net's wire capacitance (the RC network itself is not used yet), then loads,
 * slews and NLDM delays are recomputed with it. */
#include "design/design_int.h"

#include <string.h>

#include "spef/spef.h"

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

gp_status design_read_spef(design *dg, const char *path, const design_timing_options *opt,
                           design_spef_stats *stats, diag_ctx *d)
{
    memset(stats, 0, sizeof *stats);
    spef_annotator an = {.dg = dg, .d = d, .stats = stats};
    spef_visitor v = {.ctx = &an, .d_net = on_d_net};
    gp_status st = spef_read(path, &v, d);
    return st == GP_OK ? design_compute_timing(dg, opt, d) : st;
}
