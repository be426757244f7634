/* bench_resim.c: the re-simulation on the CPU (resim_run) and on the GPU
 * (cuda_resim_run) of one case read from files, and the power of the
 * re-simulated events, in one process.
 *
 * usage: bench_resim --lib L --netlist N [--top T] [--sdf S] --activity D --scope P
 *                    [--period NS] [--threads T] [--repeats R] [--name NAME]
 *                    [--variants LIST]
 *
 * The CPU re-simulation runs R times on T threads (default: every core);
 * the GPU's R times for each variant of LIST (comma-separated window
 * events, cuda_resim_options.window_events, with "t" after it for tight
 * and "e" for even_events: default "96te,96t,96,0,48te,128t"), the first
 * cold (its device memory new), the median of the others sustained.
 * Checks: each variant's events, downloaded, equal the CPU's bit for bit,
 * and its counts the CPU's.
 * With --period, the power of the first variant's events: the cpu engine
 * on the CPU's, the CUDA engine on the GPU's where they lie
 * (cuda_power_open_resident), every instance, bin and component within
 * 1e-6.  The last lines are rows of the table, one a variant: name,
 * variant, gate outputs, events out, seconds, G events/s, speed-up,
 * checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_check.h"
#include "bench_nvml.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_power.h"
#include "cuda/cuda_resim.h"
#include "power/power.h"
#include "resim/resim.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/progress.h"

#define BENCH_MAX_REPEATS 16
#define BENCH_TOLERANCE 1e-6

typedef struct bench_args {
    const char *lib, *netlist, *top, *sdf, *activity, *scope, *name, *variants;
    double period_ns;
    int threads, repeats;
} bench_args;

typedef struct bench_case {
    lib_set *libs;
    design *dg;
    events *dump;
    uint8_t *net_bound;
} bench_case;

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0 .. n). */
static double median(const double *v, int n)
{
    double s[BENCH_MAX_REPEATS];
    memcpy(s, v, (size_t)n * sizeof *v);
    qsort(s, (size_t)n, sizeof *s, compare_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static gp_status keep_bound(void *ctx, const uint8_t *net_bound, const events_stats *stats)
{
    bench_case *bc = ctx;
    (void)stats;
    bc->net_bound = mem_alloc(bc->dg->n_nets ? bc->dg->n_nets : 1);
    if (!bc->net_bound)
        return GP_ERR_NOMEM;
    memcpy(bc->net_bound, net_bound, bc->dg->n_nets);
    return GP_OK;
}

static bool read_case(const bench_args *a, bench_case *bc, diag_ctx *d)
{
    const char *paths[] = {a->netlist};
    design_sdf_stats sdf;
    events_options eo = {.scope = a->scope, .bound = keep_bound, .bound_ctx = bc};
    events_stats st;
    bc->libs = lib_set_new();
    return bc->libs && lib_read(bc->libs, a->lib, d) == GP_OK &&
           design_read_netlist(&bc->dg, bc->libs, paths, 1, a->top, d) == GP_OK &&
           (!a->sdf || design_read_sdf(bc->dg, a->sdf, &sdf, d) == GP_OK) &&
           events_read(bc->dg, a->activity, &eo, &bc->dump, &st, d) == GP_OK;
}

static bool same_events(const events *a, const events *b)
{
    return a && b && a->n_nets == b->n_nets && a->n_events == b->n_events &&
           a->end_fs == b->end_fs &&
           memcmp(a->net_ev0, b->net_ev0, ((size_t)a->n_nets + 1) * sizeof *a->net_ev0) == 0 &&
           memcmp(a->word, b->word, a->n_events * sizeof *a->word) == 0;
}

/* The CPU re-simulation, repeats times; the last run's events in *full. */
static double cpu_resim(const bench_args *a, const bench_case *bc, events **full,
                        resim_stats *stats, diag_ctx *d)
{
    double wall[BENCH_MAX_REPEATS];
    resim_options opt = resim_defaults();
    opt.threads = (uint32_t)a->threads;
    opt.net_bound = bc->net_bound;
    for (int r = 0; r < a->repeats; r++) {
        events_free(*full);
        *full = NULL;
        double start = progress_now_seconds();
        if (resim_run(bc->dg, bc->dump, &opt, full, stats, d) != GP_OK)
            return -1;
        wall[r] = progress_now_seconds() - start;
    }
    return median(wall, a->repeats);
}

typedef struct gpu_figures {
    double plan_s, cold_s, sustained_s;
    cuda_resim_timing last;
} gpu_figures;

/* The GPU re-simulation, repeats times (the first cold); the last run's
 * events stay on the device in *dev. */
static bool gpu_resim(const bench_args *a, const resim_plan *plan,
                      const cuda_resim_options *o, cuda_events **dev, resim_stats *stats,
                      gpu_figures *g, diag_ctx *d)
{
    double wall[BENCH_MAX_REPEATS];
    resim_stats planned = *stats;
    for (int r = 0; r < a->repeats; r++) {
        cuda_events_free(*dev);
        *dev = NULL;
        *stats = planned;
        double start = progress_now_seconds();
        if (cuda_resim_run(plan, o, dev, stats, &g->last, d) != GP_OK)
            return false;
        wall[r] = progress_now_seconds() - start;
    }
    g->cold_s = wall[0];
    g->sustained_s = a->repeats > 1 ? median(wall + 1, a->repeats - 1) : wall[0];
    return true;
}

/* The cpu engine on the CPU's events against the CUDA engine on the GPU's;
 * the worst difference, and the CUDA side's seconds in *gpu_s. */
static double compare_power(const bench_args *a, const bench_case *bc, const events *full,
                            const resim_plan *plan, const cuda_events *dev, double *gpu_s,
                            diag_ctx *d)
{
    power_options opt = power_defaults();
    opt.period_fs = (int64_t)llround(a->period_ns * 1e6);
    power_result *cpu = NULL, *gpu = NULL;
    cuda_power_session *s = NULL;
    double worst = INFINITY;
    if (power_analyze_cpu(bc->dg, full, &opt, a->threads, &cpu, d) != GP_OK)
        return worst;
    cuda_power_options co = cuda_power_defaults();
    double start = progress_now_seconds();
    if (cuda_power_open_resident(bc->dg, plan->fixed, dev, &opt, &s, NULL, d) == GP_OK &&
        cuda_power_run(s, &co, &gpu, NULL, d) == GP_OK)
        worst = bench_worst_difference(cpu, gpu);
    *gpu_s = progress_now_seconds() - start; /* open and first run: what a user waits for */
    cuda_power_close(s);
    power_result_free(cpu);
    power_result_free(gpu);
    return worst;
}

static bool parse_args(int argc, char **argv, bench_args *a)
{
    *a = (bench_args){.threads = 0, .repeats = 5, .name = "case",
                      .variants = "96te,96t,96,0,48te,128t"};
    if (argc % 2 == 0)
        return false; /* every option takes a value */
    for (int i = 1; i < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "--lib")) a->lib = v;
        else if (!strcmp(o, "--netlist")) a->netlist = v;
        else if (!strcmp(o, "--top")) a->top = v;
        else if (!strcmp(o, "--sdf")) a->sdf = v;
        else if (!strcmp(o, "--activity")) a->activity = v;
        else if (!strcmp(o, "--scope")) a->scope = v;
        else if (!strcmp(o, "--name")) a->name = v;
        else if (!strcmp(o, "--variants")) a->variants = v;
        else if (!strcmp(o, "--period")) a->period_ns = atof(v);
        else if (!strcmp(o, "--threads")) a->threads = atoi(v);
        else if (!strcmp(o, "--repeats")) a->repeats = atoi(v);
        else return false;
    }
    if (a->threads <= 0)
        a->threads = (int)parts_online_cores();
    return a->lib && a->netlist && a->activity && a->scope && a->repeats >= 1 &&
           a->repeats <= BENCH_MAX_REPEATS;
}

static void print_clocks(const char *when)
{
    char buf[256];
    bench_nvml_sample s = bench_nvml_read();
    bench_nvml_format(&s, buf, sizeof buf);
    printf("clocks %s: %s\n", when, s.ok ? buf : "not read");
}

/* One GPU variant (`text`: window events, "t" for tight) timed and
 * checked against the CPU's events; with power, the power too.  Prints
 * its lines; false when it failed or differed. */
static bool gpu_variant(const bench_args *a, const bench_case *bc, const char *text,
                        const events *full, const resim_stats *cpu_stats, double cpu_s,
                        const resim_plan *plan, const resim_stats *planned, double plan_s,
                        bool power, diag_ctx *d)
{
    cuda_resim_options o = cuda_resim_defaults();
    char *end;
    o.window_events = (uint32_t)strtoul(text, &end, 10);
    o.tight = strchr(end, 't') != NULL;
    o.even_events = strchr(end, 'e') != NULL;
    cuda_events *dev = NULL;
    events *back = NULL;
    resim_stats stats = *planned;
    gpu_figures g = {.plan_s = plan_s};
    print_clocks("before the GPU runs");
    bool ok = gpu_resim(a, plan, &o, &dev, &stats, &g, d);
    print_clocks("after the GPU runs");
    ok = ok && cuda_events_download(dev, &back, d) == GP_OK;
    bool same = ok && same_events(full, back) && !memcmp(cpu_stats, &stats, sizeof stats);
    double power_s = 0, worst = ok && power ? compare_power(a, bc, full, plan, dev, &power_s, d)
                                            : NAN;
    if (ok) {
        double events_out = (double)cpu_stats->events_out;
        printf("%s %s: cpu resim %d threads %.4f s; gpu plan %.4f s, resim cold %.4f s, "
               "sustained %.4f s (upload %.4f, levels %.4f: windows %.4f, simulation %.4f, "
               "join %.4f; cut %.4f; %llu windows, %llu again); power on the device %.4f s\n",
               a->name, text, a->threads, cpu_s, g.plan_s, g.cold_s, g.sustained_s,
               g.last.upload_s, g.last.levels_s, g.last.windows_s, g.last.simulate_s,
               g.last.join_s, g.last.cut_s, (unsigned long long)g.last.windows,
               (unsigned long long)g.last.redone, power_s);
        printf("row\t%s\t%s\t%u\t%.0f\t%.4f\t%.4f\t%.4f\t%.4f\t%.2f\t%.2f\t%.1f\t%.1f\t%s\t%.2g\n",
               a->name, text, cpu_stats->gates, events_out, cpu_s, g.plan_s, g.cold_s,
               g.sustained_s, events_out / cpu_s * 1e-9, events_out / g.sustained_s * 1e-9,
               cpu_s / g.sustained_s, cpu_s / (g.plan_s + g.sustained_s),
               same ? "same" : "DIFFERENT", worst);
    }
    events_free(back);
    cuda_events_free(dev);
    return ok && same && !(worst > BENCH_TOLERANCE);
}

/* Everything after reading; the exit status. */
static int run(const bench_args *a, const bench_case *bc, diag_ctx *d)
{
    events *full = NULL;
    resim_stats cpu_stats, planned;
    resim_plan plan;
    double cpu_s = cpu_resim(a, bc, &full, &cpu_stats, d);
    resim_options opt = resim_defaults();
    opt.net_bound = bc->net_bound;
    double start = progress_now_seconds();
    bool ok = cpu_s >= 0 && resim_plan_make(bc->dg, bc->dump, &opt, &plan, &planned, d) == GP_OK;
    double plan_s = progress_now_seconds() - start;
    char list[256];
    snprintf(list, sizeof list, "%s", a->variants);
    bool first = true;
    for (char *v = strtok(list, ","); ok && v; v = strtok(NULL, ","), first = false)
        ok = gpu_variant(a, bc, v, full, &cpu_stats, cpu_s, &plan, &planned, plan_s,
                         first && a->period_ns > 0, d);
    events_free(full);
    resim_plan_free(&plan);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    mem_release_freed_blocks(); /* the allocator as gatepower sets it */
    bench_args a;
    if (!parse_args(argc, argv, &a)) {
        fprintf(stderr, "usage: bench_resim --lib L --netlist N [--top T] [--sdf S] --activity D "
                        "--scope P [--period NS] [--threads T] [--repeats R] [--name NAME] "
                        "[--variants LIST]\n");
        return 2;
    }
    if (cuda_device_count() == 0) {
        fprintf(stderr, "bench_resim: no CUDA device\n");
        return 77;
    }
    cuda_device_start(0);
    char why[256];
    if (!bench_nvml_open(0, why, sizeof why))
        printf("clocks: not read (%s)\n", why);
    diag_ctx *d = diag_new(stderr);
    bench_case bc = {0};
    double start = progress_now_seconds();
    int status = read_case(&a, &bc, d) ? 0 : 1;
    printf("%s: read in %.2f s\n", a.name, progress_now_seconds() - start);
    if (status == 0)
        status = run(&a, &bc, d);
    events_free(bc.dump);
    design_free(bc.dg);
    lib_set_free(bc.libs);
    mem_free(bc.net_bound);
    bench_nvml_close();
    diag_free(d);
    return status;
}
