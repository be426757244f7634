/* cli_power.c: the power analysis shared by `power` and `resim --power`:
 * the checks of its options, running the engine (on events held whole or
 * read in windows), writing the results. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cuda/cuda_device.h"
#include "ranks/ranks.h"
#include "report/report.h"
#include "util/parts.h"
#include "util/progress.h"
#include "util/units.h"

/* --devices: with the cuda engine, in one process, instead of --device. */
static bool devices_ready(const cli_power_args *a, diag_ctx *d)
{
    const char *why = a->engine != CLI_ENGINE_CUDA ? "only the cuda engine runs on GPUs: add "
                                                     "--engine cuda"
                      : a->device_given ? "give --device N or --devices LIST, not both"
                      : ranks_count() > 1 ? "it cuts one process's work among GPUs; under "
                                            "mpirun each rank takes a GPU of its host "
                                            "(--device)"
                                          : NULL;
    if (why) {
        diag_error(d, 1044, DIAG_NOWHERE, "--devices: %s", why);
        return false;
    }
    if (a->n_devices == 0) {
        diag_error(d, 1045, DIAG_NOWHERE, "--devices all: this host has no CUDA device");
        return false;
    }
    for (int k = 0; k < a->n_devices; k++)
        if (cuda_power_check_device(a->devices[k], d) != GP_OK)
            return false;
    return true;
}

bool cli_power_engine_ready(const cli_power_args *a, diag_ctx *d)
{
    if (a->devices_given)
        return devices_ready(a, d);
    /* A device the kernel driver lists is checked again by CUDA when the
     * engine opens it: CUDA's start, left to the devices' thread, then goes
     * on beside the reading. */
    return a->engine != CLI_ENGINE_CUDA || cuda_device_listed(a->cuda.device) ||
           cuda_power_check_device(a->cuda.device, d) == GP_OK;
}

bool cli_power_clock_given(const cli_power_args *a, const cli_inputs *in, const char *command,
                           diag_ctx *d)
{
    if (a->opt.period_fs && a->opt.clock_net) {
        diag_error(d, 1026, DIAG_NOWHERE, "%s: give the clock as --period TIME or as --clock "
                   "NET (whose period is measured), not both", command);
        return false;
    }
    if (!a->opt.period_fs && !a->opt.clock_net && in->n_sdcs == 0) {
        diag_error(d, 1027, DIAG_NOWHERE, "%s needs the clock: give --period TIME (e.g. 10ns), "
                   "--clock NET (its period is measured on the activity) or --sdc FILE (its "
                   "create_clock)", command);
        return false;
    }
    return true;
}

bool cli_power_clock_from_sdc(cli_power_args *a, const cli_design *cd, diag_ctx *d)
{
    if (a->opt.period_fs || !cd->sdc)
        return true;
    const sdc_clock *k = sdc_find_clock(cd->sdc, a->opt.clock_net);
    if (!k && a->opt.clock_net)
        return true; /* a net, whose period the activity gives */
    if (!k) {
        diag_error(d, 1033, DIAG_NOWHERE, "the SDC defines no clock: give --period TIME or "
                   "create_clock in the SDC");
        return false;
    }
    bool named = a->opt.clock_net != NULL;
    a->opt.period_fs = llround(k->period);
    a->opt.clock_net = NULL;
    if (cd->sdc->n_clocks > 1)
        diag_note(d, 1034, DIAG_NOWHERE, "the SDC defines %u clocks: cycles follow '%s' (period "
                  "%.6g ns, %s); --clock NAME chooses another", cd->sdc->n_clocks, k->name,
                  k->period / GP_FS_PER_NS, named ? "as --clock names it" : "the fastest");
    return true;
}

/* The report's options from the command's. */
static report_options report_options_of(const cli_power_args *a, const char *design_name)
{
    report_options ro = report_defaults();
    ro.design_name = design_name;
    ro.glitch = a->opt.glitch;
    ro.hotspots = a->hotspots;
    return ro;
}

/* Prints the report (or the JSON) and writes the files asked for. */
static int write_outputs(const cli_power_args *a, const char *design_name, const design *dg,
                         const power_result *r, const cli_timing *timing,
                         const report_activity *acts, int n_acts, diag_ctx *d)
{
    report_options ro = report_options_of(a, design_name);
    ro.activities = acts;
    ro.n_activities = n_acts;
    if (timing) {
        ro.timing = timing->phase;
        ro.n_timing = timing->n;
    }
    bool json_on_stdout = a->json && strcmp(a->json, "-") == 0;
    if (!json_on_stdout)
        report_write_text(stdout, dg, r, &ro);
    if (a->json) {
        FILE *out = json_on_stdout ? stdout : fopen(a->json, "w");
        if (!out) {
            diag_error(d, 1023, DIAG_NOWHERE, "cannot write '%s'", a->json);
            return CLI_EXIT_INPUT;
        }
        report_write_json(out, dg, r, &ro);
        if (out != stdout && fclose(out) != 0) {
            diag_error(d, 1024, DIAG_NOWHERE, "cannot finish writing '%s'", a->json);
            return CLI_EXIT_INPUT;
        }
    }
    if (a->out_dir && report_write_all(a->out_dir, dg, r, &ro, d) != GP_OK)
        return CLI_EXIT_INPUT;
    return 0;
}

/* The engine --engine names, as a power_engine_fn over cli_power_args. */
static gp_status run_engine(void *ctx, const design *dg, const events *ev,
                            const power_options *opt, power_result **out, diag_ctx *d)
{
    const cli_power_args *a = ctx;
    if (a->engine == CLI_ENGINE_REF)
        return power_analyze_ref(dg, ev, opt, out, d);
    if (a->engine == CLI_ENGINE_CUDA)
        return cuda_power_analyze(dg, ev, opt, &a->cuda, out, d);
    return power_analyze_cpu(dg, ev, opt, a->threads, out, d);
}

/* Prints and writes a run's result; the exit status. */
static int finish_run(const cli_power_args *a, const char *design_name, const design *dg,
                      gp_status st, power_result *r, cli_timing *timing, diag_ctx *d)
{
    if (st == GP_OK)
        st = power_result_check(dg, r, d);
    int status = st == GP_OK ? write_outputs(a, design_name, dg, r, timing, NULL, 0, d)
                             : CLI_EXIT_INPUT;
    if (timing)
        cli_timing_lap(timing, "writing");
    power_result_free(r);
    return status;
}

gp_status cli_power_analyze(const cli_power_args *a, const design *dg, const events *ev,
                            power_result **r, cli_timing *timing, diag_ctx *d)
{
    *r = NULL;
    gp_status st = run_engine((void *)a, dg, ev, &a->opt, r, d);
    if (timing)
        cli_timing_lap(timing, "engine");
    return st;
}

gp_status cli_power_analyze_resident(const cli_power_args *a, const design *dg,
                                     const events *host_ev, const cuda_events *dev,
                                     power_result **r, cli_timing *timing, diag_ctx *d)
{
    *r = NULL;
    cuda_power_session *s = NULL;
    cuda_power_open_timing opened = {0, 0, 0};
    cuda_power_timing ran = {0, 0, 0, 0};
    gp_status st = cuda_power_open_resident(dg, host_ev, dev, &a->opt, &s, &opened, d);
    if (st == GP_OK)
        st = cuda_power_run(s, &a->cuda, r, &ran, d);
    cuda_power_close(s);
    if (timing) {
        cli_timing_lap(timing, "engine");
        const char *within = "the engine";
        cli_timing_step(timing, "plan and model", opened.total_s, within);
        cli_timing_step(timing, "gate streams", ran.plan_s, within);
        cli_timing_step(timing, "kernels", ran.kernel_s, within);
        cli_timing_step(timing, "result", ran.result_s, within);
    }
    return st;
}

int cli_power_finish(const cli_power_args *a, const char *design_name, const design *dg,
                     gp_status st, power_result *r, cli_timing *timing, diag_ctx *d)
{
    st = cli_ranks_gather(&r, st, d);
    if (ranks_rank() > 0) /* rank 0 writes */
        return st == GP_OK ? 0 : CLI_EXIT_INPUT;
    return finish_run(a, design_name, dg, st, r, timing, d);
}

gp_status cli_power_take_share(cli_power_args *a, const design *dg, const events *dump,
                               int64_t *from, int64_t *to, diag_ctx *d)
{
    power_stream *s = power_stream_new(dg, &a->opt, run_engine, a);
    if (!s) {
        diag_error(d, 1050, DIAG_NOWHERE, "out of memory sharing the cycles out");
        return GP_ERR_NOMEM;
    }
    power_stream_share(s, ranks_rank(), ranks_count(), dump->end_fs);
    events_window whole = {.ev = dump, .from = INT64_MIN, .complete_fs = INT64_MAX, .last = true};
    gp_status st = power_stream_plan(s, &whole, d);
    if (st == GP_OK) {
        power_stream_span(s, from, to); /* empty for a share without cycles, */
        power_stream_share_options(s, &a->opt); /* whose options stay unused */
    }
    power_stream_free(s);
    return st;
}

void cli_power_share_host(cli_power_args *a)
{
    int local = ranks_local_count();
    if (local == 1)
        return;
    uint32_t cores = parts_online_cores();
    if (a->threads == 0)
        a->threads = cores > (uint32_t)local ? (int)(cores / (uint32_t)local) : 1;
    int devices = a->engine == CLI_ENGINE_CUDA && !a->device_given ? cuda_device_count() : 0;
    if (devices > 0)
        a->cuda.device = ranks_local_rank() % devices;
}

uint64_t cli_memory_default(const cli_power_args *a)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t ram = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : (uint64_t)8 << 30;
    uint64_t bound = ram / 2;
    cuda_device_info info;
    diag_ctx *quiet = a->engine == CLI_ENGINE_CUDA ? diag_new(NULL) : NULL;
    if (quiet && cuda_device_query(a->cuda.device, &info, quiet) == GP_OK &&
        info.global_mem_bytes / 2 < bound)
        bound = info.global_mem_bytes / 2;
    diag_free(quiet);
    return bound / (uint64_t)ranks_local_count(); /* the host's ranks share it */
}

/* The windows' way from events_stream to the power stream. */
typedef struct stream_run {
    cli_power_args *a;
    power_stream *power; /* NULL until the design is there */
    cli_design *cd;
    diag_ctx *d;
    double engine_seconds;
    bool shared; /* the power stream knows the ranks' share (ranks.h) */
    cli_power_args lane[POWER_MAX_LANES]; /* --devices: the engine's, a device each */
    void *lane_ctx[POWER_MAX_LANES];
} stream_run;

/* A dump whose matched signals never leave x or z holds no activity, and
 * saying so beats the engine's "check --scope". */
static bool has_activity(const events_window *w, const events_stats *stats, diag_ctx *d)
{
    if (!w->last || w->ev->n_events > 0 || stats->signals_matched == 0)
        return true;
    diag_error(d, 1025, DIAG_NOWHERE, "the activity's %llu signals that name nets never leave "
               "x or z: there is no switching to analyse (was the dump taken before reset, or "
               "of an unpowered block?)", (unsigned long long)stats->signals_matched);
    return false;
}

static gp_status on_window(void *ctx, const events_window *w, int64_t *keep_from)
{
    stream_run *run = ctx;
    if (!has_activity(w, &run->cd->activity, run->d))
        return GP_ERR_INPUT;
    gp_status ready = cli_design_ready(run->cd); /* the engine needs the delays */
    if (ready != GP_OK)
        return ready;
    if (!run->shared && ranks_count() > 1)
        power_stream_share(run->power, ranks_rank(), ranks_count(),
                           run->cd->activity.last_time_fs);
    run->shared = true;
    double start = progress_now_seconds();
    gp_status st = power_stream_window(run->power, w, keep_from, run->d);
    run->engine_seconds += progress_now_seconds() - start;
    return st;
}

static void on_restart(void *ctx)
{
    power_stream_restart(((stream_run *)ctx)->power);
}

/* The dump's first windows, read by each of several ranks to fix the
 * clock on before it reads its share. */
static gp_status on_plan_window(void *ctx, const events_window *w, int64_t *keep_from)
{
    stream_run *run = ctx;
    *keep_from = w->from; /* every change, until the clock is fixed */
    if (!has_activity(w, &run->cd->activity, run->d))
        return GP_ERR_INPUT;
    if (!run->shared)
        power_stream_share(run->power, ranks_rank(), ranks_count(),
                           run->cd->activity.last_time_fs);
    run->shared = true;
    return power_stream_plan(run->power, w, run->d);
}

static bool on_planned(void *ctx)
{
    return power_stream_planned(((stream_run *)ctx)->power);
}

/* The bound on what the windows that fix the clock hold. */
#define CLI_PLAN_MEMORY ((uint64_t)64 << 20)

/* The dump into the power stream's windows.  One of several ranks reads
 * the dump's start until the clock is fixed, then only its share's span,
 * with the nets' values at its start from the ranks before it. */
static gp_status stream_activity(stream_run *run, const design *dg, const char *path,
                                 const events_options *opt, const events_consumer *consumer)
{
    cli_design *cd = run->cd;
    if (ranks_count() == 1)
        return events_stream(dg, path, opt, consumer, &cd->activity, cd->activity_diag);
    uint64_t plan_memory = consumer->memory < CLI_PLAN_MEMORY ? consumer->memory : CLI_PLAN_MEMORY;
    events_consumer plan = {.ctx = run, .memory = plan_memory, .window = on_plan_window,
                            .enough = on_planned};
    gp_status st = events_stream(dg, path, opt, &plan, &cd->activity, cd->activity_diag);
    if (!ranks_all_ok(st == GP_OK))
        return st; /* cli_ranks_gather says which rank failed */
    events_options share = *opt;
    share.bound = NULL; /* the coverage was checked on the first reading */
    share.span = true;
    power_stream_span(run->power, &share.span_from_fs, &share.span_to_fs);
    share.edge = cli_ranks_edge;
    share.edge_ctx = run->d;
    return events_stream(cd->dg, path, &share, consumer, &cd->activity, cd->activity_diag);
}

/* A power stream for the next activity, over the --devices given. */
static gp_status new_power_stream(stream_run *run, const design *dg)
{
    run->shared = false;
    run->power = power_stream_new(dg, &run->a->opt, run_engine, run->a);
    if (!run->power) {
        diag_error(run->d, 1028, DIAG_NOWHERE, "out of memory");
        return GP_ERR_NOMEM;
    }
    for (int k = 0; k < run->a->n_devices; k++) {
        run->lane[k] = *run->a;
        run->lane[k].cuda.device = run->a->devices[k];
        run->lane_ctx[k] = &run->lane[k];
    }
    if (run->a->n_devices > 0)
        power_stream_lanes(run->power, run->lane_ctx, (uint32_t)run->a->n_devices);
    return GP_OK;
}

/* The power analysis of the design, once it is read (cli_design_begin's
 * on_design): its clock, its check, the stream. */
static gp_status stream_design(void *ctx, cli_design *cd)
{
    stream_run *run = ctx;
    if (!cli_power_clock_from_sdc(run->a, cd, run->d) ||
        power_check_design(cd->dg, &run->a->opt, run->d) != GP_OK)
        return GP_ERR_INPUT;
    return new_power_stream(run, cd->dg);
}

/* The result of the stream's activity, gathered from the ranks; the
 * stream goes. */
static gp_status stream_result(stream_run *run, gp_status st, power_result **r)
{
    *r = st == GP_OK ? power_stream_result(run->power) : NULL;
    power_stream_free(run->power);
    run->power = NULL;
    return cli_ranks_gather(r, st, run->d);
}

/* An activity after the first, into *r: the design is read, and its
 * stream is its own (its clock fixed on its own dump). */
static gp_status stream_next(stream_run *run, const char *path, const events_options *first,
                             const events_consumer *consumer, power_result **r)
{
    events_options opt = *first;
    opt.design = NULL;
    opt.stopped = NULL;
    gp_status st = new_power_stream(run, run->cd->dg);
    if (st == GP_OK)
        st = stream_activity(run, run->cd->dg, path, &opt, consumer);
    return stream_result(run, st, r);
}

/* fn on each device the engine runs on. */
static void each_device(const cli_power_args *a, void (*fn)(int index))
{
    if (a->n_devices == 0)
        fn(a->cuda.device);
    for (int k = 0; k < a->n_devices; k++)
        fn(a->devices[k]);
}

static void *start_devices(void *arg)
{
    each_device(arg, cuda_device_start);
    return NULL;
}

static void *stop_devices(void *arg)
{
    each_device(arg, cuda_device_stop);
    return NULL;
}

void cli_devices_start(cli_devices *dv, const cli_power_args *a)
{
    dv->a = a;
    dv->cuda = a->engine == CLI_ENGINE_CUDA;
    dv->running = dv->cuda && pthread_create(&dv->thread, NULL, start_devices, (void *)a) == 0;
}

void cli_devices_join(cli_devices *dv)
{
    if (dv->running)
        pthread_join(dv->thread, NULL);
    dv->running = false;
}

void cli_devices_stop(cli_devices *dv)
{
    cli_devices_join(dv);
    dv->running = dv->cuda && pthread_create(&dv->thread, NULL, stop_devices, (void *)dv->a) == 0;
}

/* The outputs of several activities: the combination of their results
 * (which it frees) with a table of them, and each one's files in
 * --out DIR/activity-K. */
static int finish_activities(const cli_power_args *a, const design *dg, gp_status st,
                             power_result **results, const cli_inputs *in,
                             cli_timing *timing, diag_ctx *d)
{
    int n = in->n_activities, status = CLI_EXIT_INPUT;
    report_activity acts[CLI_MAX_FILES];
    power_result *all = st == GP_OK ? power_result_copy(results[0]) : NULL;
    if (st == GP_OK && !all)
        diag_error(d, 1048, DIAG_NOWHERE, "out of memory combining the activities");
    for (int k = 0; k < n; k++)
        acts[k] = (report_activity){in->activities[k], results[k]};
    for (int k = 1; all && k < n; k++) {
        power_result *copy = power_result_copy(results[k]);
        if (!copy || power_result_concat(all, copy, d) != GP_OK) {
            power_result_free(all);
            all = NULL;
        }
    }
    if (all && power_result_check(dg, all, d) == GP_OK)
        status = write_outputs(a, dg->name, dg, all, timing, acts, n, d);
    for (int k = 0; status == 0 && a->out_dir && k < n; k++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/activity-%d", a->out_dir, k + 1);
        report_options ro = report_options_of(a, dg->name);
        if (report_write_all(dir, dg, results[k], &ro, d) != GP_OK)
            status = CLI_EXIT_INPUT;
    }
    if (timing)
        cli_timing_lap(timing, "writing");
    power_result_free(all);
    for (int k = 0; k < n; k++)
        power_result_free(results[k]);
    return status;
}

int cli_power_stream(cli_power_args *a, const cli_inputs *in, uint64_t memory,
                     cli_design *cd, const cli_context *ctx)
{
    diag_ctx *d = ctx->diag;
    stream_run run = {.a = a, .cd = cd, .d = d};
    cli_devices devices;
    cli_devices_start(&devices, a);
    cli_coverage cover = {.scope = in->scope, .d = d, .warn = true,
                          .list_all = in->list_unannotated, .refuse_most = true};
    progress bar;
    progress_init(&bar, stderr, !ctx->quiet);
    events_options opt = {.scope = in->scope, .bar = &bar, .threads = (uint32_t)in->threads,
                          .bound = cli_coverage_check, .bound_ctx = &cd->coverage,
                          .design = cli_design_arrived,
                          .stopped = cli_design_failed, .design_ctx = cd};
    events_consumer consumer = {.ctx = &run, .memory = memory ? memory : cli_memory_default(a),
                                .window = on_window, .restart = on_restart};
    gp_status st = cli_design_begin(in, &cover, stream_design, &run, cd, ctx);
    if (st == GP_OK)
        st = stream_activity(&run, NULL, in->activity, &opt, &consumer);
    st = cli_design_after_activity(cd, st);
    gp_status ready = cli_design_ready(cd);
    if (st == GP_OK)
        st = ready;
    cli_devices_join(&devices);
    power_result *results[CLI_MAX_FILES] = {NULL};
    st = stream_result(&run, st, &results[0]);
    for (int k = 1; st == GP_OK && k < in->n_activities; k++)
        st = stream_next(&run, in->activities[k], &opt, &consumer, &results[k]);
    cli_devices_stop(&devices);
    cli_timing_lap_split(&cd->timing, "activity", "engine", run.engine_seconds);
    cli_timing_activity_steps(&cd->timing, &cd->activity);
    cd->timing.windows = cd->activity.windows;
    cd->timing.span_bytes = cd->activity.span_bytes;
    cli_timing *timing = in->timing ? &cd->timing : NULL;
    if (ranks_rank() > 0) { /* rank 0 writes */
        for (int k = 0; k < in->n_activities; k++)
            power_result_free(results[k]);
        cli_devices_join(&devices);
        return st == GP_OK ? 0 : CLI_EXIT_INPUT;
    }
    int status;
    if (in->n_activities > 1)
        status = finish_activities(a, cd->dg, st, results, in, timing, d);
    else
        status = finish_run(a, cd->dg ? cd->dg->name : NULL, cd->dg, st, results[0], timing, d);
    cli_devices_join(&devices);
    return status;
}
