/* cli_beside.c: the design's files read on a thread of their own while the
 * activity is read on the calling thread.  The activity's changes wait,
 * kept by declared bit, until the design is there (events_options.design:
 * cli_design_arrived), and its messages wait until the design's are out,
 * so that what the user reads is what a reading of one after the other
 * prints: the design's messages, then the activity's (none when the design
 * failed, as when the activity was never read). */
#include "cli/cli.h"

#include <stdatomic.h>
#include <string.h>

static void read_files(cli_design *cd)
{
    cd->files_status = cli_read_design_files(cd->files_in, true, cd, &cd->files_ctx);
    atomic_store(&cd->files_failed, cd->files_status != GP_OK);
}

static void *files_thread(void *arg)
{
    cli_design *cd = arg;
    read_files(cd);
    if (cd->files_in->n_sdcs)
        sdc_thread_done();
    return NULL;
}

gp_status cli_design_begin(const cli_inputs *in, const cli_coverage *coverage,
                           gp_status (*on_design)(void *ctx, cli_design *cd),
                           void *on_design_ctx, cli_design *cd, const cli_context *ctx)
{
    memset(cd, 0, sizeof *cd);
    cd->coverage = *coverage;
    cd->on_design = on_design;
    cd->on_design_ctx = on_design_ctx;
    cd->files_in = in;
    /* One progress bar at a time: the activity's, which takes longer. */
    cd->files_ctx = (cli_context){.diag = ctx->diag, .quiet = true};
    cd->activity_start = progress_now_seconds();
    cd->activity_diag = diag_new_held(ctx->diag);
    if (!cd->activity_diag) {
        diag_error(ctx->diag, 1040, DIAG_NOWHERE, "out of memory");
        return cd->files_status = GP_ERR_NOMEM;
    }
    cd->files_pending = pthread_create(&cd->files_thread, NULL, files_thread, cd) == 0;
    if (!cd->files_pending)
        read_files(cd); /* no thread to be had: the design first, then the activity */
    return GP_OK;
}

gp_status cli_design_files_done(cli_design *cd)
{
    if (cd->files_pending) {
        pthread_join(cd->files_thread, NULL);
        cd->files_pending = false;
    }
    return cd->files_status;
}

bool cli_design_failed(void *ctx)
{
    return atomic_load_explicit(&((cli_design *)ctx)->files_failed, memory_order_relaxed);
}

gp_status cli_design_arrived(void *ctx, const design **out)
{
    cli_design *cd = ctx;
    gp_status st = cli_design_files_done(cd);
    cd->coverage.dg = cd->dg;
    if (st == GP_OK && cd->on_design)
        st = cd->on_design(cd->on_design_ctx, cd);
    cd->arrived = true;
    cd->arrival_status = st;
    if (st == GP_OK)
        diag_release(cd->activity_diag);
    *out = st == GP_OK ? cd->dg : NULL;
    return st;
}

gp_status cli_design_after_activity(cli_design *cd, gp_status st)
{
    const design *dg;
    if (!cd->arrived && cd->activity_diag) /* the activity stopped before it asked */
        cli_design_arrived(cd, &dg);
    for (int k = 0; k < cd->timing.n; k++)
        if (!cd->timing.phase[k].beside)
            cd->timing.phase[k].beside = "the activity";
    cd->timing.mark = cd->activity_start;
    return cd->arrival_status != GP_OK ? cd->arrival_status : st;
}
