/* cli_inputs.c: reading the inputs the design options name into the
 * design database, and the timing of a run's phases. */
#include "cli/cli.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/resource.h>

#include "util/mem.h"

/* What the thread computing the design's timing needs and gives. */
typedef struct timing_job {
    cli_design *cd;
    diag_ctx *d;
} timing_job;

static void *compute_timing(void *arg)
{
    timing_job *job = arg;
    double start = progress_now_seconds();
    job->cd->timing_status = design_compute_timing(job->cd->dg, &job->cd->constraints.opt,
                                                   job->d);
    job->cd->timing_seconds = progress_now_seconds() - start;
    mem_free(job);
    return NULL;
}

/* Starts the design's timing on a thread beside `what`; false when none
 * could start. */
static bool start_timing(cli_design *cd, const char *what, diag_ctx *d)
{
    timing_job *job = mem_alloc(sizeof *job);
    if (!job)
        return false;
    *job = (timing_job){cd, d};
    cd->timing_beside = what;
    cd->timing_pending = pthread_create(&cd->timing_thread, NULL, compute_timing, job) == 0;
    if (!cd->timing_pending)
        mem_free(job);
    return cd->timing_pending;
}

gp_status cli_design_ready(cli_design *cd)
{
    if (!cd->timing_pending)
        return cd->timing_status;
    pthread_join(cd->timing_thread, NULL);
    cd->timing_pending = false;
    cli_timing_beside(&cd->timing, "design", cd->timing_seconds, cd->timing_beside);
    return cd->timing_status;
}

/* The options of the design's timing: the SDC's (whose set_load on nets
 * sets their wire loads first), or the defaults. */
static gp_status read_constraints(const cli_inputs *in, cli_design *cd, diag_ctx *d)
{
    design_timing_options base = design_timing_defaults();
    base.output_port_load = in->output_load;
    cd->constraints = (sdc_timing){.opt = base};
    if (in->n_sdcs == 0)
        return GP_OK;
    gp_status st = sdc_read(&cd->sdc, cd->dg, cd->libs, in->sdcs, in->n_sdcs, d);
    if (st == GP_OK)
        st = design_set_wire_caps(cd->dg, cd->sdc->net_load, d);
    if (st == GP_OK)
        st = sdc_timing_make(cd->sdc, cd->dg, &base, &cd->constraints, d);
    cli_timing_lap(&cd->timing, "sdc");
    return st;
}

/* The SDF file read on a thread of its own while the libraries, netlist
 * and design are: its entries need no design, and their messages wait in
 * a held context to come after the design's. */
typedef struct sdf_reading {
    const char *path;
    diag_ctx *held;
    design_sdf *sdf;
    gp_status status;
    double seconds;           /* the reading's own */
    _Atomic bool unwanted;    /* the design failed: the reading may stop */
    pthread_t thread;
    bool started;
} sdf_reading;

static bool sdf_unwanted(void *ctx)
{
    return atomic_load_explicit(&((sdf_reading *)ctx)->unwanted, memory_order_relaxed);
}

static void *read_sdf(void *arg)
{
    sdf_reading *r = arg;
    double start = progress_now_seconds();
    r->status = design_sdf_read(r->path, sdf_unwanted, r, &r->sdf, r->held);
    r->seconds = progress_now_seconds() - start;
    return NULL;
}

/* Starts the reading; where no thread or context can be had, the SDF is
 * read when it is needed (sdf_annotate). */
static void sdf_start(sdf_reading *r, const char *path, diag_ctx *d)
{
    *r = (sdf_reading){.path = path};
    if (!path || !(r->held = diag_new_held(d)))
        return;
    r->started = pthread_create(&r->thread, NULL, read_sdf, r) == 0;
    if (!r->started) {
        diag_free(r->held);
        r->held = NULL;
    }
}

/* Waits for the reading (its seconds a phase beside the netlist) and,
 * with `keep`, looks up the instances its entries name while the design's
 * timing is computed, waits for that, then annotates the design (its
 * messages after the design's); without, drops it. */
static gp_status sdf_annotate(sdf_reading *r, cli_design *cd, bool keep, diag_ctx *d)
{
    if (r->started) {
        atomic_store(&r->unwanted, !keep);
        pthread_join(r->thread, NULL);
        cli_timing_beside(&cd->timing, "sdf reading", r->seconds, "the netlist");
    }
    gp_status st = r->status;
    if (keep && r->started && st == GP_OK)
        st = design_sdf_match(cd->dg, r->sdf, r->held);
    gp_status timed = cli_design_ready(cd);
    if (keep && r->started)
        diag_release(r->held);
    else if (keep && r->path && timed == GP_OK)
        st = design_sdf_read(r->path, NULL, NULL, &r->sdf, d);
    st = keep && timed != GP_OK ? timed : st;
    if (keep && st == GP_OK && r->sdf)
        st = design_sdf_apply(cd->dg, r->sdf, &cd->sdf, d);
    design_sdf_free(r->sdf);
    diag_free(r->held);
    *r = (sdf_reading){0};
    return st;
}

/* The libraries, netlist, SPEF and SDC, and the design's timing (on a
 * thread of its own when `timing_beside` asks and one can start). */
static gp_status read_design(const cli_inputs *in, bool timing_beside, cli_design *out,
                             const cli_context *ctx)
{
    diag_ctx *d = ctx->diag;
    gp_status st = GP_OK;
    cli_timing *t = &out->timing;
    cli_timing_start(t);
    for (int k = 0; st == GP_OK && k < in->n_libs; k++)
        st = lib_read(out->libs, in->libs[k], d);
    cli_timing_lap(t, "libraries");
    if (st == GP_OK) {
        progress bar;
        progress_init(&bar, stderr, !ctx->quiet);
        st = design_read_structure(&out->dg, out->libs, in->netlists, in->n_netlists, in->top,
                                   &bar, d);
    }
    cli_timing_lap(t, "netlist");
    if (st == GP_OK && in->spef) {
        st = design_annotate_spef(out->dg, in->spef, &out->spef, d);
        cli_timing_lap(t, "spef");
    }
    if (st == GP_OK)
        st = read_constraints(in, out, d);
    const char *beside = in->sdf ? "the sdf's lookups" : "the activity";
    if (st != GP_OK || (timing_beside && start_timing(out, beside, d)))
        return st;
    st = design_compute_timing(out->dg, &out->constraints.opt, d);
    cli_timing_lap(t, "design");
    return st;
}

gp_status cli_read_design_files(const cli_inputs *in, bool beside_activity, cli_design *out,
                                const cli_context *ctx)
{
    diag_ctx *d = ctx->diag;
    out->libs = lib_set_new();
    if (!out->libs) {
        diag_error(d, 1014, DIAG_NOWHERE, "out of memory");
        return GP_ERR_NOMEM;
    }
    sdf_reading sdf;
    sdf_start(&sdf, in->sdf, d);
    /* The SDF's delays replace the design's own: its timing comes first. */
    gp_status st = read_design(in, beside_activity || in->sdf, out, ctx);
    if (in->sdf) {
        gp_status annotated = sdf_annotate(&sdf, out, st == GP_OK, d);
        st = st == GP_OK ? annotated : st;
        cli_timing_lap(&out->timing, "sdf");
    }
    return st;
}

gp_status cli_read_design(const cli_inputs *in, bool list_unmatched, bool coverage,
                          cli_design *out, const cli_context *ctx)
{
    if (!in->activity) {
        memset(out, 0, sizeof *out);
        return cli_read_design_files(in, false, out, ctx);
    }
    cli_coverage cover = {.scope = in->scope, .d = ctx->diag, .warn = coverage,
                          .list_all = in->list_unannotated};
    gp_status st = cli_design_begin(in, &cover, NULL, NULL, out, ctx);
    if (st == GP_OK) {
        progress bar;
        progress_init(&bar, stderr, !ctx->quiet);
        events_options opt = {.scope = in->scope, .list_unmatched = list_unmatched, .bar = &bar,
                              .threads = (uint32_t)in->threads, .bound = cli_coverage_check,
                              .bound_ctx = &out->coverage, .design = cli_design_arrived,
                              .stopped = cli_design_failed, .design_ctx = out};
        st = events_read(NULL, in->activity, &opt, &out->ev, &out->activity,
                         out->activity_diag);
    }
    st = cli_design_after_activity(out, st);
    cli_timing_lap(&out->timing, "activity");
    cli_timing_activity_steps(&out->timing, &out->activity);
    gp_status ready = cli_design_ready(out);
    return st != GP_OK ? st : ready;
}

void cli_design_free(cli_design *cd)
{
    cli_design_files_done(cd);
    cli_design_ready(cd);
    diag_free(cd->activity_diag);
    sdc_timing_free(&cd->constraints);
    mem_free(cd->coverage.net_bound);
    sdc_free(cd->sdc);
    events_free(cd->ev);
    design_free(cd->dg);
    lib_set_free(cd->libs);
    memset(cd, 0, sizeof *cd);
}

void cli_timing_start(cli_timing *t)
{
    t->n = 0;
    t->mark = progress_now_seconds();
}

/* Whether the run waited for phase p: neither beside nor within another. */
static bool phase_waited(const report_phase *p) { return !p->beside && !p->within; }

/* Appends p where there is room (CLI_MAX_PHASES bounds the phases). */
static void timing_add(cli_timing *t, report_phase p)
{
    if (t->n < CLI_MAX_PHASES)
        t->phase[t->n++] = p;
}

/* Whether a (not beside) is b's phase, or b's step of the same phase. */
static bool same_phase(const report_phase *a, const report_phase *b)
{
    bool same_within = a->within && b->within ? strcmp(a->within, b->within) == 0
                                              : a->within == b->within;
    return !a->beside && same_within && strcmp(a->name, b->name) == 0;
}

/* Adds p to the phase (or step) of its name done before: a phase done
 * again (a window of several) adds up; else appends it. */
static void timing_add_up(cli_timing *t, report_phase p)
{
    int k = 0;
    while (k < t->n && !same_phase(&t->phase[k], &p))
        k++;
    if (k < t->n)
        t->phase[k].seconds += p.seconds;
    else
        timing_add(t, p);
}

void cli_timing_lap(cli_timing *t, const char *name)
{
    double now = progress_now_seconds();
    timing_add_up(t, (report_phase){name, now - t->mark, NULL, NULL});
    t->mark = now;
}

void cli_timing_lap_split(cli_timing *t, const char *name, const char *part, double part_seconds)
{
    double now = progress_now_seconds();
    if (t->n + 1 < CLI_MAX_PHASES) {
        timing_add(t, (report_phase){name, now - t->mark - part_seconds, NULL, NULL});
        timing_add(t, (report_phase){part, part_seconds, NULL, NULL});
    }
    t->mark = now;
}

void cli_timing_beside(cli_timing *t, const char *name, double seconds, const char *beside)
{
    timing_add(t, (report_phase){name, seconds, beside, NULL});
}

void cli_timing_step(cli_timing *t, const char *name, double seconds, const char *within)
{
    timing_add_up(t, (report_phase){name, seconds, NULL, within});
}

void cli_timing_activity_steps(cli_timing *t, const events_stats *s)
{
    const char *within = "the activity";
    cli_timing_step(t, "dump header", s->header_seconds, within);
    if (s->design_wait_seconds > 0)
        cli_timing_step(t, "design wait", s->design_wait_seconds, within);
    cli_timing_step(t, "event store", s->store_seconds, within);
}

void cli_timing_print(const cli_timing *t, FILE *out)
{
    double total = 0;
    fprintf(out, "timing:");
    for (int k = 0; k < t->n; k++) {
        const report_phase *p = &t->phase[k];
        const char *other = p->beside ? p->beside : p->within;
        fprintf(out, "%s %s %.3f s%s%s", k ? "," : "", p->name, p->seconds,
                p->beside ? " beside " : p->within ? " within " : "", other ? other : "");
        if (phase_waited(p))
            total += p->seconds;
    }
    struct rusage ru;
    double peak_gb = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / (1 << 20) : 0.0;
    fprintf(out, "; total %.3f s; peak memory %.2f GB", total, peak_gb);
    if (t->windows > 1)
        fprintf(out, "; activity in %u windows", t->windows);
    if (t->span_bytes > 0)
        fprintf(out, "; the share's %.1f MB of the dump", (double)t->span_bytes / 1e6);
    fprintf(out, "\n");
}
