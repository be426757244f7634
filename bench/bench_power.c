/* bench_power.c: throughput of the time-based power engines: the float64
 * reference (once) and the fast CPU engine on 1 and 2 threads (median of
 * REPEATS runs each), on a generated design or on real inputs.
 *
 * usage: bench_power [GATES [CYCLES [REPEATS]]]            (default 20000 4000 3)
 *        bench_power LIB NETLIST TOP VCD SCOPE PERIOD_NS   (TOP "-": the only top module)
 *
 * The generated case is bench_gen.h's small one: GATES cells of a small
 * library (inverters, NAND2, NOR2, XOR2, AOI21 and 10% flops on one clock),
 * each input a random earlier net, and CYCLES cycles of 10 ns of random
 * activity, written to /tmp as Liberty, Verilog and VCD and read through
 * the project's readers.
 *
 * "Pin events" are the events the engines cost (power_result.events_used:
 * each net change counts once per connected pin); "activity events" are the
 * dump's net changes.  Rates are per second of wall clock; the CPU time of
 * all threads is printed beside it (on a machine shared with other work,
 * a 2-thread run whose CPU time matches the 1-thread one but whose wall time
 * does not halve was short of a core).  The CPU results
 * are checked against the reference (SPEC §4: 1e-6 relative) and the 1- and
 * 2-thread results against each other, bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_gen.h"
#include "power/power.h"

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* ---- timing ---------------------------------------------------------------------- */

/* One engine run (threads 0: the reference): its wall time in seconds[0],
 * the process's CPU time (all threads) in seconds[1]. */
static power_result *run_engine(const bench_case *bc, int threads, double seconds[2],
                                diag_ctx *d)
{
    power_options opt = power_defaults();
    opt.period_fs = bc->period_fs;
    power_result *r = NULL;
    double start = now_seconds(), cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    gp_status st = threads == 0 ? power_analyze_ref(bc->dg, bc->ev, &opt, &r, d)
                                : power_analyze_cpu(bc->dg, bc->ev, &opt, threads, &r, d);
    seconds[0] = now_seconds() - start;
    seconds[1] = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    if (st != GP_OK) {
        fprintf(stderr, "bench_power: the engine failed (%s)\n", gp_status_name(st));
        exit(1);
    }
    return r;
}

/* Runs by wall time. */
static int compare_wall(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return (x > y) - (x < y);
}

/* The CPU engine on `threads` threads: the run of median wall time of
 * `repeats` into seconds[2]; keeps the last result. */
static void median_cpu(const bench_case *bc, int threads, int repeats, double seconds[2],
                       power_result **last, diag_ctx *d)
{
    double times[16][2];
    repeats = repeats < 1 ? 1 : repeats > 16 ? 16 : repeats;
    for (int i = 0; i < repeats; i++) {
        power_result_free(*last);
        *last = run_engine(bc, threads, times[i], d);
    }
    qsort(times, (size_t)repeats, sizeof times[0], compare_wall);
    seconds[0] = times[repeats / 2][0];
    seconds[1] = times[repeats / 2][1];
}

/* The largest relative difference over instances, bins and groups. */
static double max_relative(const power_result *a, const power_result *b)
{
    double worst = 0.0;
    const double *x[] = {a->inst_energy, a->bin_energy, &a->group_energy[0][0]};
    const double *y[] = {b->inst_energy, b->bin_energy, &b->group_energy[0][0]};
    size_t n[] = {(size_t)a->n_insts * POWER_COMPONENTS, (size_t)a->n_cycles * POWER_COMPONENTS,
                  POWER_GROUPS * POWER_COMPONENTS};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < n[k]; i++) {
            double m = fmax(fabs(x[k][i]), fabs(y[k][i]));
            if (m > 1e-30)
                worst = fmax(worst, fabs(x[k][i] - y[k][i]) / m);
        }
    return worst;
}

static bool same_bits(const power_result *a, const power_result *b)
{
    return memcmp(a->inst_energy, b->inst_energy,
                  (size_t)a->n_insts * POWER_COMPONENTS * sizeof(double)) == 0 &&
           memcmp(a->bin_energy, b->bin_energy,
                  (size_t)a->n_cycles * POWER_COMPONENTS * sizeof(double)) == 0 &&
           memcmp(a->group_energy, b->group_energy, sizeof a->group_energy) == 0;
}

static void print_row(const char *engine, int threads, const double s[2], const power_result *r,
                      const events *ev, const char *speedup)
{
    printf("%-6s %7d %8.3f %8.3f %12.1f %12.1f   %s\n", engine, threads, s[0], s[1],
           (double)r->events_used / s[0] * 1e-6, (double)ev->n_events / s[0] * 1e-6, speedup);
}

static void bench(const bench_case *bc, int repeats, diag_ctx *d)
{
    double t_ref[2], t1[2], t2[2];
    power_result *ref = run_engine(bc, 0, t_ref, d), *one = NULL, *two = NULL;
    median_cpu(bc, 1, repeats, t1, &one, d);
    median_cpu(bc, 2, repeats, t2, &two, d);
    printf("%u instances, %u cycles; %.1f M activity events, %.1f M pin events costed\n",
           bc->dg->n_insts, ref->n_cycles, bc->ev->n_events * 1e-6, ref->events_used * 1e-6);
    printf("wall s: median of %d (ref: one run); cpu s: CPU time of all threads in that run\n",
           repeats);
    printf("engine threads   wall s    cpu s  M pin ev/s  M activ ev/s   speed-up (wall)\n");
    char s1[64], s2[64];
    snprintf(s1, sizeof s1, "%.2fx over ref", t_ref[0] / t1[0]);
    snprintf(s2, sizeof s2, "%.2fx over 1 thread", t1[0] / t2[0]);
    print_row("ref", 1, t_ref, ref, bc->ev, "");
    print_row("cpu", 1, t1, one, bc->ev, s1);
    print_row("cpu", 2, t2, two, bc->ev, s2);
    printf("check: cpu vs ref max relative difference %.3g (bound 1e-6); 1 and 2 threads "
           "bitwise equal: %s\n", max_relative(ref, one), same_bits(one, two) ? "yes" : "NO");
    power_result_free(ref);
    power_result_free(one);
    power_result_free(two);
}

int main(int argc, char **argv)
{
    diag_ctx *d = diag_new(stderr);
    bench_case bc = {0};
    int repeats = 3;
    bool ok;
    double start = now_seconds();
    if (argc == 7) {
        ok = bench_read_case(&bc, argv[1], argv[2], strcmp(argv[3], "-") ? argv[3] : NULL,
                             argv[4], argv[5], d);
        bc.period_fs = (int64_t)llround(atof(argv[6]) * 1e6);
    } else if (argc <= 4) {
        uint32_t gates = argc > 1 ? (uint32_t)atol(argv[1]) : 20000;
        uint32_t cycles = argc > 2 ? (uint32_t)atol(argv[2]) : 4000;
        repeats = argc > 3 ? atoi(argv[3]) : 3;
        ok = gates > 0 && cycles > 0 && bench_gen_small(&bc, gates, cycles, d);
    } else {
        fprintf(stderr, "usage: bench_power [GATES [CYCLES [REPEATS]]]\n"
                        "       bench_power LIB NETLIST TOP VCD SCOPE PERIOD_NS\n");
        return 2;
    }
    if (!ok || bc.period_fs <= 0) {
        fprintf(stderr, "bench_power: could not set up the case\n");
        return 1;
    }
    printf("inputs ready in %.1f s; %ld cores online\n", now_seconds() - start,
           sysconf(_SC_NPROCESSORS_ONLN));
    bench(&bc, repeats, d);
    bench_case_free(&bc);
    diag_free(d);
    return 0;
}
