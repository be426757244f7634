/* bench_cuda.c: the CUDA power engine (issue 6) checked against the CPU
 * engines and timed as SPEC §6 says, on one case per run.
 *
 * usage: bench_cuda [OPTIONS] gen GATES [CYCLES]                  generated (bench_gen_large)
 *        bench_cuda [OPTIONS] LIB NETLIST TOP VCD SCOPE PERIOD_NS  real inputs (TOP "-": auto)
 *
 * For the case: (a) the reference engine once and the fast CPU engine on all
 * cores (median of --cpu-repeats); (b) one device session (cuda_power_open,
 * timed: model and event upload), then the first run of each variant (cold),
 * its result checked against the reference: every component of every
 * instance, bin and group, and the IO switching, within 1e-6 relative to
 * max(|a|, |b|) (1e-30 J floor), events_used equal; the deterministic variant
 * twice, bitwise equal; (c) warm-up (the variants themselves, for at least
 * --warmup-s), then --rounds rounds of all variants in turn (A B C .. A B C),
 * kernel time from cuda_power_timing.kernel_s; the SM and memory clocks are
 * read (NVML) before and after each run and a run during which either moved
 * is left out of the sustained median; (d) end to end: open + default-variant run
 * + close against the CPU engine, same input; (e) the fused kernel's pin
 * events/s, an estimate of its bandwidth, and the compiler's kernel
 * reports; (f) the ablation.  A short table comes last; --tsv appends
 * machine-readable rows (bench/cuda.sh takes geometric means from them).
 * --cpu-only stops after (a), on any machine (make bench uses it for the
 * CPU engines on the large generator's skewed activity).
 *
 * Exit: 0 every check passed, 1 a check or an engine failed, 2 usage, 77 no
 * CUDA engine in this build or no device (skipped). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_check.h"
#include "bench_gen.h"
#include "bench_nvml.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_power.h"
#include "power/power.h"

#define BENCH_MAX_VARIANTS 16
#define BENCH_MAX_ROUNDS 64
#define BENCH_MAX_REPEATS 16
#define BENCH_TOLERANCE 1e-6
/* The device-to-device copy rate measured on this workplace's H200
 * (device/KINDS.md: about 4.3 TB/s, bytes read plus written), the ceiling
 * the bandwidth estimate is set against. */
#define BENCH_COPY_BYTES_S 4.3e12

static const char default_variants[] =
    "naive,sipl,sipl+part,sipl+part+fusion,part+fusion,sipl+fusion,sipl+part+fusion+memo,"
    "sipl+part+memo,part+fusion+memo,sipl+fusion+memo,sipl+part+fusion+memo/det,fused,"
    "fused/det";

typedef struct bench_args {
    const char *name, *variants, *tsv;
    const char *files[6];     /* real inputs; files[0] NULL: generated */
    bench_gen_options gen;
    int rounds, cpu_repeats, e2e_repeats, threads, device;
    double warmup_s;
    bool no_ref, cpu_only;
} bench_args;

/* The largest relative difference between two results, and where. */
typedef struct bench_check {
    double worst;
    char where[64];
    bool same_shape, events_equal;
} bench_check;

typedef struct bench_variant {
    char label[40];
    cuda_power_options opt;
    bool failed, ok, det_equal;
    bench_check check;
    cuda_power_timing cold;
    double cold_wall_s;
    double kernel_s[BENCH_MAX_ROUNDS];
    bool kept[BENCH_MAX_ROUNDS];
    int n_rounds, n_kept;
    double sustained_s;        /* median of the kept rounds (of all, if none was kept) */
} bench_variant;

typedef struct bench_state {
    const bench_args *a;
    bench_case bc;
    power_options opt;
    const power_result *ref;   /* what the checks compare against */
    const char *ref_name;
    double ref_s, cpu_s, cpu_cpu_s;
    int cpu_threads;
    bench_variant v[BENCH_MAX_VARIANTS];
    int n_variants;
    double open_s, upload_s, e2e_s, e2e_open_s, e2e_run_s, e2e_close_s;
    bool e2e_ok;
    bench_nvml_sample idle, before, after;
    bool nvml;
    bool all_ok;
    diag_ctx *d;
} bench_state;

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[BENCH_MAX_ROUNDS > BENCH_MAX_REPEATS ? BENCH_MAX_ROUNDS : BENCH_MAX_REPEATS];
    memcpy(s, v, (size_t)n * sizeof *v);
    qsort(s, (size_t)n, sizeof *s, compare_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* ---- checks ------------------------------------------------------------------------ */

static const char *const component_names[POWER_COMPONENTS] = {
    "internal", "switching", "leakage", "glitch-internal", "glitch-switching"};

/* Worst relative difference over n rows of POWER_COMPONENTS; `what` names a row. */
static void compare_rows(bench_check *c, const double *x, const double *y, size_t rows,
                         const char *what)
{
    for (size_t i = 0; i < rows * POWER_COMPONENTS; i++) {
        double rel = bench_relative(x[i], y[i]);
        if (rel > c->worst) {
            c->worst = rel;
            snprintf(c->where, sizeof c->where, "%s %zu %s", what, i / POWER_COMPONENTS,
                     component_names[i % POWER_COMPONENTS]);
        }
    }
}

static bench_check compare_results(const power_result *ref, const power_result *r)
{
    bench_check c = {.where = "-"};
    c.events_equal = ref->events_used == r->events_used;
    c.same_shape = ref->n_insts == r->n_insts && ref->n_cycles == r->n_cycles &&
                   ref->window_start_fs == r->window_start_fs &&
                   ref->window_end_fs == r->window_end_fs && ref->period_fs == r->period_fs &&
                   memcmp(ref->inst_group, r->inst_group, ref->n_insts) == 0;
    if (!c.same_shape)
        return c;
    compare_rows(&c, ref->inst_energy, r->inst_energy, ref->n_insts, "instance");
    compare_rows(&c, ref->bin_energy, r->bin_energy, ref->n_cycles, "bin");
    compare_rows(&c, &ref->group_energy[0][0], &r->group_energy[0][0], POWER_GROUPS, "group");
    double io = bench_relative(ref->io_switching, r->io_switching);
    if (io > c.worst)
        c.worst = io, snprintf(c.where, sizeof c.where, "io switching");
    return c;
}

static bool check_ok(const bench_check *c)
{
    return c->same_shape && c->events_equal && c->worst <= BENCH_TOLERANCE;
}

static void format_check(const bench_check *c, char *buf, size_t size)
{
    if (!c->same_shape)
        snprintf(buf, size, "FAIL: other instances, bins or window");
    else if (!c->events_equal)
        snprintf(buf, size, "FAIL: events_used differs");
    else
        snprintf(buf, size, "%s %.2g", c->worst <= BENCH_TOLERANCE ? "ok" : "FAIL", c->worst);
}

static bool same_bits(const power_result *a, const power_result *b)
{
    return a->n_insts == b->n_insts && a->n_cycles == b->n_cycles &&
           memcmp(a->inst_energy, b->inst_energy,
                  (size_t)a->n_insts * POWER_COMPONENTS * sizeof(double)) == 0 &&
           memcmp(a->bin_energy, b->bin_energy,
                  (size_t)a->n_cycles * POWER_COMPONENTS * sizeof(double)) == 0 &&
           memcmp(a->group_energy, b->group_energy, sizeof a->group_energy) == 0;
}

/* ---- the CPU engines ---------------------------------------------------------------- */

/* One run (threads < 0: the reference); wall seconds in *wall, CPU seconds
 * of all threads in *cpu.  NULL when the engine failed (it said why). */
static power_result *run_cpu_engine(bench_state *b, int threads, double *wall, double *cpu)
{
    power_result *r = NULL;
    double start = now_seconds(), cpu0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    gp_status st = threads < 0
                       ? power_analyze_ref(b->bc.dg, b->bc.ev, &b->opt, &r, b->d)
                       : power_analyze_cpu(b->bc.dg, b->bc.ev, &b->opt, threads, &r, b->d);
    *wall = now_seconds() - start;
    *cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    if (st != GP_OK) {
        fprintf(stderr, "bench_cuda: the %s engine failed (%s)\n", threads < 0 ? "ref" : "cpu",
                gp_status_name(st));
        return NULL;
    }
    return r;
}

/* The reference once (unless --no-ref) and the CPU engine's median; *ref
 * and *cpu get their last results. */
static bool run_cpu_side(bench_state *b, power_result **ref, power_result **cpu)
{
    const bench_args *a = b->a;
    double unused, wall[BENCH_MAX_REPEATS], cpu_time[BENCH_MAX_REPEATS];
    if (!a->no_ref && !(*ref = run_cpu_engine(b, -1, &b->ref_s, &unused)))
        return false;
    if (!a->no_ref)
        printf("ref: %.3f s, %.1f M pin events/s (one thread)\n", b->ref_s,
               (double)(*ref)->events_used / b->ref_s * 1e-6);
    for (int i = 0; i < a->cpu_repeats; i++) {
        power_result_free(*cpu);
        if (!(*cpu = run_cpu_engine(b, a->threads, &wall[i], &cpu_time[i])))
            return false;
    }
    b->cpu_s = median(wall, a->cpu_repeats);
    b->cpu_cpu_s = median(cpu_time, a->cpu_repeats);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    b->cpu_threads = a->threads > 0 ? a->threads : (int)cores;
    printf("cpu: %.3f s on %d threads (median of %d; CPU time %.1f s), %.1f M pin events/s\n",
           b->cpu_s, b->cpu_threads, a->cpu_repeats, b->cpu_cpu_s,
           (double)(*cpu)->events_used / b->cpu_s * 1e-6);
    if (*ref) {
        bench_check c = compare_results(*ref, *cpu);
        char text[96];
        format_check(&c, text, sizeof text);
        printf("check cpu vs ref: %s (at %s)\n", text, c.where);
        b->all_ok = b->all_ok && check_ok(&c);
    }
    b->ref = *ref ? *ref : *cpu;
    b->ref_name = *ref ? "ref" : "cpu";
    return true;
}

/* ---- the variants ------------------------------------------------------------------ */

/* The variants of the comma-separated list; "/det" after a name: deterministic. */
static bool parse_variants(bench_state *b)
{
    char list[512];
    snprintf(list, sizeof list, "%s", b->a->variants);
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (b->n_variants == BENCH_MAX_VARIANTS) {
            fprintf(stderr, "bench_cuda: at most %d variants\n", BENCH_MAX_VARIANTS);
            return false;
        }
        bench_variant *v = &b->v[b->n_variants++];
        snprintf(v->label, sizeof v->label, "%s", tok);
        v->opt = cuda_power_defaults();
        v->opt.device = b->a->device;
        /* Suffixes: /det (deterministic sums), /tN (N target events per thread),
         * /lN (N tasks per walk thread), /eN (epochs of N cycles). */
        char *suffix = strchr(tok, '/');
        if (suffix)
            *suffix++ = '\0';
        if (cuda_power_parse_variant(tok, &v->opt, b->d) != GP_OK)
            return false;
        for (char *save2 = NULL, *part = suffix ? strtok_r(suffix, "/", &save2) : NULL; part;
             part = strtok_r(NULL, "/", &save2)) {
            if (strcmp(part, "det") == 0)
                v->opt.deterministic = true;
            else if (part[0] == 't' && atoi(part + 1) > 0)
                v->opt.target_events = (uint32_t)atoi(part + 1);
            else if (part[0] == 'l' && atoi(part + 1) > 0)
                v->opt.lane_tasks = (uint32_t)atoi(part + 1);
            else if (part[0] == 'e' && atoi(part + 1) > 0)
                v->opt.epoch_cycles = (uint32_t)atoi(part + 1);
            else {
                fprintf(stderr, "bench_cuda: variant suffix /%s: give /det, /tN, /lN or /eN\n",
                        part);
                return false;
            }
        }
    }
    return b->n_variants > 0;
}

/* Whether a variant keeps the engine's knobs (target events, tasks per
 * thread, epochs): the ablation takes only those. */
static bool default_knobs(const cuda_power_options *o)
{
    return o->target_events == CUDA_POWER_TARGET_EVENTS && o->lane_tasks == CUDA_POWER_LANE_TASKS &&
           o->epoch_cycles == 0;
}

/* The variant with these switches, or NULL. */
static const bench_variant *find_variant(const bench_state *b, bool sipl, bool part, bool fusion,
                                         bool memo, bool warp)
{
    for (int i = 0; i < b->n_variants; i++) {
        const cuda_power_options *o = &b->v[i].opt;
        if (o->sipl == sipl && o->partition == part && o->fusion == fusion && o->memo == memo &&
            o->warp == warp && !o->deterministic && default_knobs(o) && !b->v[i].failed)
            return &b->v[i];
    }
    return NULL;
}

static bool run_variant(bench_state *b, cuda_power_session *s, bench_variant *v,
                        power_result **out, cuda_power_timing *t, double *wall)
{
    double start = now_seconds();
    gp_status st = cuda_power_run(s, &v->opt, out, t, b->d);
    *wall = now_seconds() - start;
    if (st != GP_OK && !v->failed) {
        fprintf(stderr, "bench_cuda: variant %s failed (%s)\n", v->label, gp_status_name(st));
        v->failed = true;
        b->all_ok = false;
    }
    return st == GP_OK;
}

/* The first run of each variant: its time (cold) and its check. */
static void cold_runs(bench_state *b, cuda_power_session *s)
{
    printf("%-22s %-14s %10s %10s %10s %10s %12s\n", "cold run", "check", "plan ms",
           "kernel ms", "result ms", "wall ms", "GPU threads");
    for (int i = 0; i < b->n_variants; i++) {
        bench_variant *v = &b->v[i];
        power_result *r = NULL, *again = NULL;
        cuda_power_timing t2;
        double wall2;
        if (!run_variant(b, s, v, &r, &v->cold, &v->cold_wall_s))
            continue;
        v->check = compare_results(b->ref, r);
        v->ok = check_ok(&v->check);
        if (v->opt.deterministic && run_variant(b, s, v, &again, &t2, &wall2))
            v->det_equal = same_bits(r, again), v->ok = v->ok && v->det_equal;
        b->all_ok = b->all_ok && v->ok;
        char text[96];
        format_check(&v->check, text, sizeof text);
        printf("%-22s %-14s %10.3f %10.3f %10.3f %10.3f %12llu%s\n", v->label, text,
               v->cold.plan_s * 1e3, v->cold.kernel_s * 1e3, v->cold.result_s * 1e3,
               v->cold_wall_s * 1e3, (unsigned long long)v->cold.threads,
               !v->opt.deterministic ? "" : v->det_equal ? "  (2 runs bitwise equal)"
                                                         : "  (2 runs DIFFER)");
        if (!v->ok && v->check.same_shape)
            printf("    worst at %s (vs %s)\n", v->check.where, b->ref_name);
        power_result_free(r);
        power_result_free(again);
    }
}

/* Every variant once, in turn (timing only). */
static void warm_round(bench_state *b, cuda_power_session *s)
{
    cuda_power_timing t;
    double wall;
    for (int i = 0; i < b->n_variants; i++)
        if (!b->v[i].failed)
            run_variant(b, s, &b->v[i], NULL, &t, &wall);
}

/* One timed run: kept unless the SM or memory clock moved during it. */
static void timed_run(bench_state *b, cuda_power_session *s, bench_variant *v)
{
    unsigned sm0, mem0, sm1, mem1;
    bool clocks = b->nvml && bench_nvml_clocks(&sm0, &mem0);
    cuda_power_timing t;
    double wall;
    if (!run_variant(b, s, v, NULL, &t, &wall))
        return;
    clocks = clocks && bench_nvml_clocks(&sm1, &mem1);
    int k = v->n_rounds++;
    v->kernel_s[k] = t.kernel_s;
    v->kept[k] = !clocks || (sm0 == sm1 && mem0 == mem1);
    v->n_kept += v->kept[k];
}

static void sustained(bench_variant *v)
{
    double kept[BENCH_MAX_ROUNDS];
    int n = 0;
    for (int k = 0; k < v->n_rounds; k++)
        if (v->kept[k])
            kept[n++] = v->kernel_s[k];
    v->sustained_s = n ? median(kept, n) : v->n_rounds ? median(v->kernel_s, v->n_rounds) : NAN;
}

static void print_sample(const char *when, const bench_nvml_sample *s)
{
    char text[256];
    bench_nvml_format(s, text, sizeof text);
    printf("clocks %s: %s\n", when, text);
}

/* Warm-up, then the rounds, with the clocks before and after. */
static void timed_rounds(bench_state *b, cuda_power_session *s)
{
    b->before = bench_nvml_read();
    print_sample("before warm-up", &b->before);
    double start = now_seconds();
    int warm = 0;
    do
        warm_round(b, s), warm++;
    while (now_seconds() - start < b->a->warmup_s);
    printf("warm-up: %d rounds in %.1f s\n", warm, now_seconds() - start);
    for (int r = 0; r < b->a->rounds; r++)
        for (int i = 0; i < b->n_variants; i++)
            if (!b->v[i].failed)
                timed_run(b, s, &b->v[i]);
    b->after = bench_nvml_read();
    print_sample("after the timed rounds", &b->after);
    for (int i = 0; i < b->n_variants; i++)
        sustained(&b->v[i]);
}

/* ---- end to end, kernels, ablation -------------------------------------------------- */

/* The index of the median of v[n] (the lower one for even n). */
static int median_index(const double *v, int n)
{
    for (int i = 0; i < n; i++) {
        int below = 0, equal_before = 0;
        for (int j = 0; j < n; j++)
            below += v[j] < v[i], equal_before += j < i && v[j] == v[i];
        if (below + equal_before == (n - 1) / 2)
            return i;
    }
    return 0;
}

/* One open + run (result downloaded) + close; seconds of each in part[3]. */
static bool e2e_once(bench_state *b, const cuda_power_options *opt, double part[3],
                     power_result **r)
{
    cuda_power_session *s = NULL;
    cuda_power_timing t;
    double t0 = now_seconds();
    bool ok = cuda_power_open(b->bc.dg, b->bc.ev, &b->opt, opt->device, &s, NULL, b->d) == GP_OK;
    double t1 = now_seconds();
    ok = ok && cuda_power_run(s, opt, r, &t, b->d) == GP_OK;
    double t2 = now_seconds();
    cuda_power_close(s);
    part[0] = t1 - t0, part[1] = t2 - t1, part[2] = now_seconds() - t2;
    return ok;
}

/* End to end against the CPU engine: the median of --e2e-repeats, its result checked. */
static void end_to_end(bench_state *b)
{
    cuda_power_options opt = cuda_power_defaults(); /* what --engine cuda runs */
    opt.device = b->a->device;
    double part[BENCH_MAX_REPEATS][3], total[BENCH_MAX_REPEATS];
    int n = b->a->e2e_repeats;
    b->e2e_ok = true;
    for (int i = 0; i < n; i++) {
        power_result *r = NULL;
        bool ok = e2e_once(b, &opt, part[i], &r);
        bench_check c = r ? compare_results(b->ref, r) : (bench_check){0};
        b->e2e_ok = b->e2e_ok && ok && check_ok(&c);
        total[i] = part[i][0] + part[i][1] + part[i][2];
        power_result_free(r);
    }
    int m = median_index(total, n);
    b->e2e_s = total[m];
    b->e2e_open_s = part[m][0], b->e2e_run_s = part[m][1], b->e2e_close_s = part[m][2];
    b->all_ok = b->all_ok && b->e2e_ok;
    printf("end to end (median of %d): gpu %.3f s (open %.3f + default run %.3f + close %.3f), "
           "result %s; cpu %.3f s on %d threads: %.2fx\n", n, b->e2e_s, b->e2e_open_s,
           b->e2e_run_s, b->e2e_close_s, b->e2e_ok ? "ok" : "FAILED", b->cpu_s, b->cpu_threads,
           b->cpu_s / b->e2e_s);
}

static void kernel_reports(const bench_state *b, const cuda_power_session *s)
{
    printf("kernels (compiler and occupancy report):\n");
    for (int i = 0; i < b->n_variants; i++) {
        cuda_kernel_report rep[8];
        int n = cuda_power_kernel_reports(s, &b->v[i].opt, rep, 8);
        for (int k = 0; k < n && k < 8; k++)
            printf("  %-22s %-30s %4d registers %6d B local %5d threads/block %5.1f%% occupancy\n",
                   b->v[i].label, rep[k].name ? rep[k].name : "?", rep[k].registers,
                   rep[k].local_bytes, rep[k].block_threads, 100.0 * rep[k].occupancy);
    }
}

/* The bytes a fused run must move at least, by this estimate: each pin
 * event read once in the device's packed layout (one int64, time << 2 |
 * value: events.h; each window's thread reads the events of its pins'
 * nets), each pin's net, flags, two slews and load (29 bytes), each
 * instance's cell, first pin and first arc (12) and each arc's two delays
 * (16) read once, and the energies of every instance and bin written once
 * (8 bytes a component).  Windows' binary searches, the state rebuilt before
 * each window, the tables and the atomics' read-modify-writes come on top,
 * and caches serve re-reads: the figure is a yardstick against the copy
 * rate, not a measurement. */
static double fused_bytes(const bench_state *b)
{
    const design *dg = b->bc.dg;
    return 8.0 * (double)b->ref->events_used + 29.0 * dg->n_pins + 12.0 * dg->n_insts +
           16.0 * dg->n_arcs + 8.0 * POWER_COMPONENTS * ((double)dg->n_insts + b->ref->n_cycles);
}

static double ratio_of(const bench_variant *x, const bench_variant *y)
{
    return x && y ? x->sustained_s / y->sustained_s : NAN;
}

/* A change in percent ("+12.3%"), "-" when not measured. */
static const char *percent(double ratio, char buf[16])
{
    if (isnan(ratio))
        return "-";
    snprintf(buf, 16, "%+.2f%%", 100 * (ratio - 1));
    return buf;
}

/* Kernel-time reductions relative to naive (cumulative), and the increases
 * when one switch is left out of the paper's full variant (sipl+part+fusion);
 * then ours: memo on top, one switch left out of sipl+part+fusion+memo, and
 * warp on top of it ("fused"). */
static void print_ablation(const bench_state *b)
{
    const bench_variant *naive = find_variant(b, false, false, false, false, false);
    const bench_variant *full = find_variant(b, true, true, true, false, false);
    const bench_variant *all = find_variant(b, true, true, true, true, false);
    char p[12][16];
    printf("ablation, sustained kernel time: vs naive: +SIPL %s, +partitioning %s, +fusion %s; "
           "leave-one-out vs sipl+part+fusion: no SIPL %s, no partitioning %s, no fusion %s\n",
           percent(ratio_of(find_variant(b, true, false, false, false, false), naive), p[0]),
           percent(ratio_of(find_variant(b, true, true, false, false, false), naive), p[1]),
           percent(ratio_of(full, naive), p[2]),
           percent(ratio_of(find_variant(b, false, true, true, false, false), full), p[3]),
           percent(ratio_of(find_variant(b, true, false, true, false, false), full), p[4]),
           percent(ratio_of(find_variant(b, true, true, false, false, false), full), p[5]));
    printf("ours: +memo on sipl+part+fusion %s (vs naive %s); leave-one-out vs "
           "sipl+part+fusion+memo: no SIPL %s, no partitioning %s, no fusion %s; +warp on it "
           "(fused) %s\n", percent(ratio_of(all, full), p[6]), percent(ratio_of(all, naive), p[7]),
           percent(ratio_of(find_variant(b, false, true, true, true, false), all), p[8]),
           percent(ratio_of(find_variant(b, true, false, true, true, false), all), p[9]),
           percent(ratio_of(find_variant(b, true, true, false, true, false), all), p[10]),
           percent(ratio_of(find_variant(b, true, true, true, true, true), all), p[11]));
}

/* ---- the table and the rows for bench/cuda.sh ------------------------------------- */

static int dropped_runs(const bench_state *b, int *total)
{
    int dropped = 0;
    *total = 0;
    for (int i = 0; i < b->n_variants; i++)
        dropped += b->v[i].n_rounds - b->v[i].n_kept, *total += b->v[i].n_rounds;
    return dropped;
}

static void print_variant_rows(const bench_state *b)
{
    const bench_variant *naive = find_variant(b, false, false, false, false, false);
    printf("%-22s %-14s %9s %12s %6s %11s %9s\n", "variant", "check", "cold ms", "sustained ms",
           "kept", "G pin ev/s", "vs naive");
    for (int i = 0; i < b->n_variants; i++) {
        const bench_variant *v = &b->v[i];
        char text[96] = "FAIL: no run", change[16];
        if (!v->failed)
            format_check(&v->check, text, sizeof text);
        if (v->opt.deterministic && !v->failed && !v->det_equal)
            snprintf(text, sizeof text, "FAIL: not bitwise");
        printf("%-22s %-14s %9.3f %12.3f %3d/%-2d %11.2f %9s\n", v->label, text,
               v->cold.kernel_s * 1e3, v->sustained_s * 1e3, v->n_kept, v->n_rounds,
               (double)b->ref->events_used / v->sustained_s * 1e-9,
               v == naive ? "" : percent(ratio_of(v, naive), change));
    }
}

/* End to end; the rates of the default kernel (fused, the warp kernel) and
 * bandwidth, of the walk kernel (sipl+part+fusion+memo); the clocks. */
static void print_fused(const bench_state *b)
{
    const bench_variant *fused = find_variant(b, true, true, true, true, true);
    const bench_variant *walk = find_variant(b, true, true, true, true, false);
    double s = fused ? fused->sustained_s : NAN, w = walk ? walk->sustained_s : NAN;
    int total, dropped = dropped_runs(b, &total);
    printf("end to end: gpu open+run+close %.3f s vs cpu %.3f s (%d threads): %.2fx; ref %.3f s; "
           "first open (context, model, upload) %.3f s\n", b->e2e_s, b->cpu_s, b->cpu_threads,
           b->cpu_s / b->e2e_s, b->ref_s, b->open_s);
    printf("fused: %.2f G pin events/s, about %.0f GB/s by estimate (%.1f%% of %.1f TB/s); clocks "
           "SM %u -> %u MHz, memory %u -> %u MHz; runs left out for clock moves: %d of %d\n",
           (double)b->ref->events_used / s * 1e-9, fused_bytes(b) / s * 1e-9,
           100 * fused_bytes(b) / s / BENCH_COPY_BYTES_S, BENCH_COPY_BYTES_S * 1e-12,
           b->before.sm_mhz, b->after.sm_mhz, b->before.mem_mhz, b->after.mem_mhz, dropped,
           total);
    printf("walk (sipl+part+fusion+memo): %.2f G pin events/s, fused %.2fx faster; the gate "
           "streams, made by fused's first run, once a session: %.3f ms\n",
           (double)b->ref->events_used / w * 1e-9, w / s, fused ? fused->cold.plan_s * 1e3 : NAN);
}

static void print_table(const bench_state *b)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\n==== %s: %u instances, %u cycles, %.1f M pin events; %s; checks vs %s; host peak "
           "RSS %.1f GB\n", b->a->name, b->bc.dg->n_insts, b->ref->n_cycles,
           b->ref->events_used * 1e-6, b->nvml ? bench_nvml_name() : "GPU not named (no NVML)",
           b->ref_name, ru.ru_maxrss / 1048576.0);
    print_variant_rows(b);
    print_ablation(b);
    if (b->e2e_s > 0)
        print_fused(b);
    else
        printf("no device session: no end-to-end or fused figures\n");
    printf("RESULT %s: %s\n", b->a->name, b->all_ok ? "PASS" : "FAIL");
}

/* Rows: "case" (one) and "variant" (one each), tab-separated, for cuda.sh. */
static void write_tsv(const bench_state *b)
{
    FILE *f = fopen(b->a->tsv, "a");
    if (!f) {
        fprintf(stderr, "bench_cuda: cannot append to %s\n", b->a->tsv);
        return;
    }
    fprintf(f, "case\t%s\t%u\t%llu\t%.6f\t%.6f\t%d\t%.6f\t%.6f\t%s\n", b->a->name,
            b->bc.dg->n_insts, (unsigned long long)b->ref->events_used, b->ref_s, b->cpu_s,
            b->cpu_threads, b->e2e_s, b->open_s, b->all_ok ? "PASS" : "FAIL");
    for (int i = 0; i < b->n_variants; i++) {
        const bench_variant *v = &b->v[i];
        /* Flags sipl, part, fusion, memo, warp, det; "t" first for non-default
         * knobs, which the script's ablation leaves out. */
        fprintf(f, "variant\t%s\t%s\t%s%d%d%d%d%d%d\t%s\t%.3g\t%.9f\t%.9f\t%d\t%d\n", b->a->name,
                v->label,
                default_knobs(&v->opt) ? "" : "t",
                v->opt.sipl, v->opt.partition, v->opt.fusion, v->opt.memo, v->opt.warp,
                v->opt.deterministic,
                v->ok ? "ok" : "FAIL", v->check.worst, v->cold.kernel_s, v->sustained_s,
                v->n_kept, v->n_rounds);
    }
    fclose(f);
}

/* ---- the GPU side -------------------------------------------------------------------- */

static void gpu_side(bench_state *b)
{
    cuda_power_session *s = NULL;
    cuda_power_open_timing ot;
    if (!parse_variants(b)) {
        b->all_ok = false;
        return;
    }
    double start = now_seconds();
    if (cuda_power_open(b->bc.dg, b->bc.ev, &b->opt, b->a->device, &s, &ot, b->d) !=
        GP_OK) {
        fprintf(stderr, "bench_cuda: cuda_power_open failed: no GPU figures for this case\n");
        for (int i = 0; i < b->n_variants; i++)
            b->v[i].failed = true;
        b->all_ok = false;
        return;
    }
    b->open_s = now_seconds() - start;
    b->upload_s = ot.upload_s;
    printf("open: %.3f s (the process's first: CUDA context, device model, events; upload "
           "%.3f s, plan + model %.3f s, beside it)\n", b->open_s, b->upload_s, ot.model_s);
    cold_runs(b, s);
    timed_rounds(b, s);
    kernel_reports(b, s);
    cuda_power_close(s);
    end_to_end(b);
}

/* ---- the case and the command line ----------------------------------------------- */

static void usage(void)
{
    fprintf(stderr,
            "usage: bench_cuda [OPTIONS] gen GATES [CYCLES]\n"
            "       bench_cuda [OPTIONS] LIB NETLIST TOP VCD SCOPE PERIOD_NS   (TOP -: auto)\n"
            "options: --name NAME   --pin-events N (gen without CYCLES; default 1.05e9)\n"
            "  --rounds R (5)  --warmup-s S (2)  --cpu-repeats N (3)  --e2e-repeats N (3)\n"
            "  --threads T (CPU engine, 0: all cores)  --gen-threads T  --device D (0)\n"
            "  --variants LIST (default %s)\n"
            "  --tsv FILE (append rows)  --no-ref (check against the CPU engine instead)\n"
            "  --cpu-only (no GPU: the case and the CPU engines only)\n",
            default_variants);
}

/* argv[*i + 1] as a number in [lo, hi]. */
static bool number_arg(int argc, char **argv, int *i, double lo, double hi, double *out)
{
    char *end = NULL;
    if (*i + 1 >= argc)
        return false;
    *out = strtod(argv[++*i], &end);
    if (end == argv[*i] || *end != '\0' || !(*out >= lo && *out <= hi)) {
        fprintf(stderr, "bench_cuda: %s: '%s' is not a number in [%g, %g]\n", argv[*i - 1],
                argv[*i], lo, hi);
        return false;
    }
    return true;
}

/* One --option; false: unknown or a bad value. */
static bool parse_option(int argc, char **argv, int *i, bench_args *a)
{
    const char *o = argv[*i];
    double x = 0;
    bool has_value = *i + 1 < argc;
    if (!strcmp(o, "--name") && has_value)
        a->name = argv[++*i];
    else if (!strcmp(o, "--variants") && has_value)
        a->variants = argv[++*i];
    else if (!strcmp(o, "--tsv") && has_value)
        a->tsv = argv[++*i];
    else if (!strcmp(o, "--no-ref"))
        a->no_ref = true;
    else if (!strcmp(o, "--cpu-only"))
        a->cpu_only = true;
    else if (!strcmp(o, "--pin-events") && number_arg(argc, argv, i, 1, 1e13, &x))
        a->gen.pin_events = x;
    else if (!strcmp(o, "--rounds") && number_arg(argc, argv, i, 1, BENCH_MAX_ROUNDS, &x))
        a->rounds = (int)x;
    else if (!strcmp(o, "--warmup-s") && number_arg(argc, argv, i, 0, 600, &x))
        a->warmup_s = x;
    else if (!strcmp(o, "--cpu-repeats") && number_arg(argc, argv, i, 1, BENCH_MAX_REPEATS, &x))
        a->cpu_repeats = (int)x;
    else if (!strcmp(o, "--e2e-repeats") && number_arg(argc, argv, i, 1, BENCH_MAX_REPEATS, &x))
        a->e2e_repeats = (int)x;
    else if (!strcmp(o, "--threads") && number_arg(argc, argv, i, 0, 1024, &x))
        a->threads = (int)x;
    else if (!strcmp(o, "--gen-threads") && number_arg(argc, argv, i, 0, 256, &x))
        a->gen.threads = (int)x;
    else if (!strcmp(o, "--device") && number_arg(argc, argv, i, 0, 64, &x))
        a->device = (int)x;
    else
        return false;
    return true;
}

/* The case's name: "gen-GATES", or the folder of the netlist. */
static void default_name(bench_args *a, char *buf, size_t size)
{
    if (!a->files[0]) {
        snprintf(buf, size, "gen-%u", a->gen.gates);
    } else {
        const char *path = a->files[1], *end = strrchr(path, '/'), *start = end;
        while (start && start > path && start[-1] != '/')
            start--;
        snprintf(buf, size, "%.*s", end && end > start ? (int)(end - start) : 6,
                 end && end > start ? start : "inputs");
    }
    a->name = buf;
}

/* 0: go on; else the exit code. */
static int parse_args(int argc, char **argv, bench_args *a, char *name, size_t size)
{
    int i = 1;
    for (; i < argc && !strncmp(argv[i], "--", 2); i++)
        if (!parse_option(argc, argv, &i, a)) {
            usage();
            return 2;
        }
    int rest = argc - i;
    char *end = NULL;
    if ((rest == 2 || rest == 3) && !strcmp(argv[i], "gen")) {
        unsigned long gates = strtoul(argv[i + 1], &end, 10), cycles = 0;
        bool ok = *end == '\0' && gates > 0 && gates < (1ul << 31);
        if (rest == 3)
            cycles = strtoul(argv[i + 2], &end, 10), ok = ok && *end == '\0' && cycles < (1ul << 27);
        if (!ok) {
            fprintf(stderr, "bench_cuda: gen wants GATES (1 to 2^31) and CYCLES (0 to 2^27)\n");
            return 2;
        }
        a->gen.gates = (uint32_t)gates, a->gen.cycles = (uint32_t)cycles;
    } else if (rest == 6) {
        for (int k = 0; k < 6; k++)
            a->files[k] = argv[i + k];
    } else {
        usage();
        return 2;
    }
    if (!a->name)
        default_name(a, name, size);
    return 0;
}

static bool setup_case(bench_state *b, bench_gen_stats *gen)
{
    const bench_args *a = b->a;
    double start = now_seconds();
    bool ok;
    if (a->files[0]) {
        ok = bench_read_case(&b->bc, a->files[0], a->files[1],
                             strcmp(a->files[2], "-") ? a->files[2] : NULL, a->files[3],
                             a->files[4], b->d);
        b->bc.period_fs = (int64_t)llround(atof(a->files[5]) * 1e6);
        ok = ok && b->bc.period_fs > 0;
    } else {
        ok = bench_gen_large(&b->bc, &a->gen, gen, b->d);
        if (ok)
            bench_gen_print_stats(gen);
    }
    if (!ok) {
        fprintf(stderr, "bench_cuda: could not set up the case\n");
        return false;
    }
    b->opt = power_defaults();
    b->opt.period_fs = b->bc.period_fs;
    printf("case %s: %u instances, %u nets, %u pins, %.4g net events; ready in %.1f s\n",
           a->name, b->bc.dg->n_insts, b->bc.dg->n_nets, b->bc.dg->n_pins,
           (double)b->bc.ev->n_events, now_seconds() - start);
    return true;
}

/* The GPU and the clocks at the start; false: skip (no CUDA, no device). */
static bool device_header(bench_state *b)
{
    if (!cuda_built()) {
        printf("SKIPPED: no CUDA engine in this build (configure with -DGATEPOWER_CUDA=ON)\n");
        return false;
    }
    cuda_device_info info;
    if (cuda_device_count() < 1 || cuda_device_query(b->a->device, &info, b->d) != GP_OK) {
        printf("SKIPPED: no CUDA device %d here\n", b->a->device);
        return false;
    }
    printf("GPU %d: %s, %d SMs, compute %d.%d, %.1f GB, driver %d, runtime %d\n", b->a->device,
           info.name, info.sm_count, info.cc_major, info.cc_minor,
           info.global_mem_bytes * 1e-9, info.driver_version, info.runtime_version);
    char why[160];
    b->nvml = bench_nvml_open((unsigned)b->a->device, why, sizeof why);
    if (!b->nvml)
        printf("NVML: %s; clocks not read, no run left out for clock moves\n", why);
    b->idle = bench_nvml_read();
    if (b->nvml)
        print_sample("at the start", &b->idle);
    return true;
}

/* The generator's count of pin events against the engine's. */
static void check_generated(bench_state *b, const bench_gen_stats *gen)
{
    if (b->a->files[0])
        return;
    bool same = gen->pin_events == b->ref->events_used;
    printf("generator's pin events %llu, events_used %llu: %s\n",
           (unsigned long long)gen->pin_events, (unsigned long long)b->ref->events_used,
           same ? "equal" : "DIFFERENT (a generator bug)");
    b->all_ok = b->all_ok && same;
}

static void print_cpu_table(const bench_state *b)
{
    printf("\n==== %s: %u instances, %u cycles, %.1f M pin events (CPU engines only)\n",
           b->a->name, b->bc.dg->n_insts, b->ref->n_cycles, b->ref->events_used * 1e-6);
    printf("ref %.3f s; cpu %.3f s on %d threads (%.2fx over ref)\n", b->ref_s, b->cpu_s,
           b->cpu_threads, b->ref_s / b->cpu_s);
    printf("RESULT %s: %s\n", b->a->name, b->all_ok ? "PASS" : "FAIL");
}

int main(int argc, char **argv)
{
    char name[64];
    bench_args a = {.variants = default_variants, .rounds = 5, .warmup_s = 2.0,
                    .cpu_repeats = 3, .e2e_repeats = 3, .gen = {.pin_events = 1.05e9}};
    int rc = parse_args(argc, argv, &a, name, sizeof name);
    if (rc)
        return rc;
    setvbuf(stdout, NULL, _IOLBF, 0); /* logs keep stdout and stderr in order */
    bench_state b = {.a = &a, .all_ok = true, .d = diag_new(stderr)};
    bench_gen_stats gen = {0};
    power_result *ref = NULL, *cpu = NULL;
    printf("bench_cuda %s: %ld cores online\n", a.name, sysconf(_SC_NPROCESSORS_ONLN));
    if (!a.cpu_only && !device_header(&b))
        rc = 77;
    else if (!setup_case(&b, &gen) || !run_cpu_side(&b, &ref, &cpu))
        rc = 1;
    if (rc == 0) {
        check_generated(&b, &gen);
        if (!a.cpu_only)
            gpu_side(&b);
        a.cpu_only ? print_cpu_table(&b) : print_table(&b);
        if (a.tsv)
            write_tsv(&b);
        rc = b.all_ok ? 0 : 1;
    }
    power_result_free(ref);
    power_result_free(cpu);
    bench_case_free(&b.bc);
    bench_nvml_close();
    diag_free(b.d);
    return rc;
}
