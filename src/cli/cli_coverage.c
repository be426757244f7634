/* cli_coverage.c: how much of the design the activity annotates, as
 * OpenSTA's report_activity_annotation counts it: the nets driven by cells
 * and the primary inputs that a signal of the dump gives.  Checked once
 * the dump's header is read, before its changes are. */
#include "cli/cli.h"

#include <string.h>

#include "util/mem.h"

/* The first unannotated nets a warning names. */
#define CLI_COVERAGE_NAMED 5

/* Whether net n counts, and as what: driven by a cell, or a primary input
 * (a signal driven from outside); constants and floating nets do not. */
static bool counted_net(const design *dg, uint32_t n, bool *driven)
{
    *driven = dg->net_driver[n] != DESIGN_NONE;
    if (dg->net_value[n] != DESIGN_VALUE_SIGNAL)
        return false;
    if (*driven)
        return true;
    for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++)
        if (dg->pin_flags[dg->net_pins[k]] & DESIGN_PIN_LOADS)
            return true; /* it drives something, from outside */
    return false;
}

/* "a, b, c" of the first unannotated nets, or all as notes with list_all. */
static void name_unannotated(cli_coverage *cov, const uint8_t *net_bound, char *names,
                             size_t cap)
{
    const design *dg = cov->dg;
    size_t used = 0, named = 0;
    names[0] = '\0';
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        bool driven;
        if (net_bound[n] || !counted_net(dg, n, &driven))
            continue;
        if (cov->list_all)
            diag_note(cov->d, 1037, DIAG_NOWHERE, "net '%s' (%s) has no activity",
                      design_net_name(dg, n), driven ? "driven by a cell" : "a primary input");
        if (named++ < CLI_COVERAGE_NAMED && used < cap)
            used += (size_t)snprintf(names + used, cap - used, "%s%s", used ? ", " : "",
                                     design_net_name(dg, n));
    }
}

/* The error of a dump that gives fewer than half the driven nets. */
static gp_status refuse_scope(const cli_coverage *cov, const events_stats *stats)
{
    const char *scope = cov->scope ? cov->scope : "";
    if (stats->scope_hint[0])
        diag_error(cov->d, 1036, DIAG_NOWHERE, "the activity gives only %u of the %u nets "
                   "driven by cells: --scope '%s' is not the design's instance; %llu of the "
                   "dump's signals name its nets under '%s%s%s': try --scope %s%s%s",
                   cov->driven_annotated, cov->driven, scope,
                   (unsigned long long)stats->scope_hint_signals, scope, *scope ? "/" : "",
                   stats->scope_hint, scope, *scope ? "/" : "", stats->scope_hint);
    else
        diag_error(cov->d, 1038, DIAG_NOWHERE, "the activity gives only %u of the %u nets "
                   "driven by cells: is --scope '%s' the design's instance, and the dump of "
                   "every net (not of registers only: that is gatepower resim's input)?",
                   cov->driven_annotated, cov->driven, scope);
    return GP_ERR_INPUT;
}

gp_status cli_coverage_check(void *ctx, const uint8_t *net_bound, const events_stats *stats)
{
    cli_coverage *cov = ctx;
    const design *dg = cov->dg;
    mem_free(cov->net_bound);
    if ((cov->net_bound = mem_alloc(dg->n_nets ? dg->n_nets : 1)))
        memcpy(cov->net_bound, net_bound, dg->n_nets);
    cov->driven = cov->driven_annotated = cov->inputs = cov->inputs_annotated = 0;
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        bool driven;
        if (!counted_net(dg, n, &driven))
            continue;
        uint32_t *count = driven ? &cov->driven : &cov->inputs;
        uint32_t *annotated = driven ? &cov->driven_annotated : &cov->inputs_annotated;
        (*count)++;
        *annotated += net_bound[n];
    }
    if (stats->signals_duplicate)
        diag_note(cov->d, 1039, DIAG_NOWHERE, "%llu dumped bits give nets that bits declared "
                  "before them already give (a net dumped as itself and as its driver's pin "
                  "in a cell model's scope, or twice): the first declared is used",
                  (unsigned long long)stats->signals_duplicate);
    if (!cov->warn)
        return GP_OK;
    if (cov->refuse_most && 2 * (uint64_t)cov->driven_annotated < cov->driven)
        return refuse_scope(cov, stats);
    if (cov->driven_annotated == cov->driven && cov->inputs_annotated == cov->inputs)
        return GP_OK;
    char names[512];
    name_unannotated(cov, net_bound, names, sizeof names);
    diag_warn(cov->d, 1032, DIAG_NOWHERE, "the activity gives %u of the %u nets driven by cells "
              "(%.1f%%) and %u of the %u primary inputs: the others do not switch, and their "
              "power is missing; without activity: %s%s", cov->driven_annotated, cov->driven,
              cov->driven ? 100.0 * cov->driven_annotated / cov->driven : 100.0,
              cov->inputs_annotated, cov->inputs, names,
              cov->list_all ? "" : " (--list-unannotated names them all)");
    return GP_OK;
}
