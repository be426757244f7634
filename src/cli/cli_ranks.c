/* cli_ranks.c: the results of a run's ranks (ranks.h), each of which
 * analysed its share of the cycles (power_stream_share), brought to rank 0
 * and appended there in rank order, so that the sums do not depend on
 * which rank finished first; and the nets' values at the shares' edges,
 * passed on from rank to rank (events_edge). */
#include <string.h>

#include "cli/cli.h"
#include "ranks/ranks.h"
#include "util/mem.h"

/* A rank's result as sent: the struct itself (its pointers mean nothing
 * to the receiver, which sets its own; inst_exact says whether exact sums
 * follow), then its arrays. */
typedef struct share_head {
    power_result r;
    bool present; /* false: the share held no cycle */
} share_head;

/* The bytes of one exact sum (power_result.inst_exact). */
#define EXACT_BYTES (2 * sizeof(uint64_t))

static gp_status send_result(const power_result *r, diag_ctx *d)
{
    share_head h = {.present = r != NULL};
    if (r)
        h.r = *r;
    gp_status st = ranks_send(0, &h, sizeof h, d);
    if (st == GP_OK && r)
        st = ranks_send(0, r->inst_energy,
                        (size_t)r->n_insts * POWER_COMPONENTS * sizeof(double), d);
    if (st == GP_OK && r)
        st = ranks_send(0, r->bin_energy,
                        (size_t)r->n_cycles * POWER_COMPONENTS * sizeof(double), d);
    if (st == GP_OK && r && r->inst_exact)
        st = ranks_send(0, r->inst_exact, (size_t)r->n_insts * POWER_COMPONENTS * EXACT_BYTES, d);
    if (st == GP_OK && r && r->inst_exact)
        st = ranks_send(0, r->bin_exact, (size_t)r->n_cycles * POWER_COMPONENTS * EXACT_BYTES, d);
    return st;
}

/* Rank `from`'s result into *out (NULL when its share held no cycle); its
 * instances' groups are the design's, as in `like` (rank 0's). */
static gp_status recv_result(int from, const power_result *like, power_result **out,
                             diag_ctx *d)
{
    share_head h;
    *out = NULL;
    gp_status st = ranks_recv(from, &h, sizeof h, d);
    if (st != GP_OK || !h.present)
        return st;
    size_t inst_values = (size_t)h.r.n_insts * POWER_COMPONENTS;
    size_t bin_values = (size_t)h.r.n_cycles * POWER_COMPONENTS;
    bool exact = h.r.inst_exact != NULL;
    power_result *r = mem_calloc(1, sizeof *r);
    if (r) {
        *r = h.r;
        r->inst_energy = mem_calloc(inst_values + 1, sizeof(double));
        r->bin_energy = mem_calloc(bin_values + 1, sizeof(double));
        r->inst_group = mem_calloc((size_t)r->n_insts + 1, 1);
        r->inst_exact = exact ? mem_calloc(inst_values + 1, EXACT_BYTES) : NULL;
        r->bin_exact = exact ? mem_calloc(bin_values + 1, EXACT_BYTES) : NULL;
    }
    if (!r || !r->inst_energy || !r->bin_energy || !r->inst_group ||
        (exact && (!r->inst_exact || !r->bin_exact))) {
        power_result_free(r);
        diag_error(d, 1042, DIAG_NOWHERE, "out of memory receiving rank %d's result", from);
        return GP_ERR_NOMEM;
    }
    memcpy(r->inst_group, like->inst_group,
           like->n_insts < r->n_insts ? like->n_insts : r->n_insts);
    st = ranks_recv(from, r->inst_energy, inst_values * sizeof(double), d);
    if (st == GP_OK)
        st = ranks_recv(from, r->bin_energy, bin_values * sizeof(double), d);
    if (st == GP_OK && exact)
        st = ranks_recv(from, r->inst_exact, inst_values * EXACT_BYTES, d);
    if (st == GP_OK && exact)
        st = ranks_recv(from, r->bin_exact, bin_values * EXACT_BYTES, d);
    if (st != GP_OK)
        power_result_free(r);
    else
        *out = r;
    return st;
}

gp_status cli_ranks_gather(power_result **r, gp_status st, diag_ctx *d)
{
    if (ranks_count() == 1)
        return st;
    if (!ranks_all_ok(st == GP_OK)) {
        if (st == GP_OK && ranks_rank() == 0)
            diag_error(d, 1043, DIAG_NOWHERE, "another rank failed: its messages, after "
                       "'rank N:', say why");
        power_result_free(*r);
        *r = NULL;
        return st == GP_OK ? GP_ERR_INPUT : st;
    }
    if (ranks_rank() > 0) {
        st = send_result(*r, d);
        power_result_free(*r);
        *r = NULL;
        return st;
    }
    /* Rank 0's share starts the cycles (power_stream_share), so it has a
     * result whenever the run does. */
    for (int from = 1; from < ranks_count() && st == GP_OK; from++) {
        power_result *next = NULL;
        st = recv_result(from, *r, &next, d);
        if (st == GP_OK && next)
            st = power_result_append(*r, next, d);
    }
    return st;
}

gp_status cli_ranks_edge(void *ctx, const events_edge *mine, events_edge *before,
                         uint32_t n_nets)
{
    return ranks_exscan(mine, before, sizeof *mine, n_nets, events_edge_fold, ctx);
}
