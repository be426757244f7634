/* bench_room.c: the CUDA engine on a store larger than the device holds.
 * A generated case (bench_gen_large) whose events, their epoch index and
 * gate streams exceed the GPU's memory, run as `--engine cuda` runs it
 * (cuda_power_analyze: in slices of cycles that fit, power_analyze_in_room),
 * checked against the CPU engine; with --single first as one session
 * (cuda_power_open + cuda_power_run), which such a store cannot fit.
 *
 * usage: bench_room GATES CYCLES [--single] [--device D]
 *
 * Exit: 0 the results agree (bench_worst_difference within 1e-6), 1 they
 * do not or an engine failed, 2 usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_check.h"
#include "bench_gen.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_power.h"
#include "power/power.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One session over the whole store, as the engine ran before slices. */
static void run_single(const bench_case *bc, const power_options *opt, int device)
{
    diag_ctx *d = diag_new(stdout);
    cuda_power_options co = cuda_power_defaults();
    co.device = device;
    cuda_power_session *s = NULL;
    power_result *r = NULL;
    double t0 = now_seconds();
    gp_status st = cuda_power_open(bc->dg, bc->ev, opt, device, &s, NULL, d);
    if (st == GP_OK)
        st = cuda_power_run(s, &co, &r, NULL, d);
    cuda_power_close(s);
    printf("one session: %s in %.2f s\n", st == GP_OK ? "ran" : "failed (above)",
           now_seconds() - t0);
    power_result_free(r);
    diag_free(d);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_room GATES CYCLES [--single] [--device D]\n");
        return 2;
    }
    bench_gen_options go = {.gates = (uint32_t)atol(argv[1]), .cycles = (uint32_t)atol(argv[2])};
    bool single = false;
    int device = 0;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--single"))
            single = true;
        else if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = atoi(argv[++i]);
        else
            return fprintf(stderr, "bench_room: unknown option '%s'\n", argv[i]), 2;
    }
    diag_ctx *d = diag_new(stderr);
    bench_case bc;
    bench_gen_stats gs;
    if (!bench_gen_large(&bc, &go, &gs, d))
        return 1;
    bench_gen_print_stats(&gs);
    cuda_device_info info = {0};
    cuda_device_query(device, &info, d);
    printf("store: %.3g events, %.3g pin events: %.1f GB at 16 bytes an event and 8 a pin "
           "event; device %s, %.1f GB\n", (double)bc.ev->n_events, (double)gs.pin_events,
           (16.0 * (double)bc.ev->n_events + 8.0 * (double)gs.pin_events) / 1e9, info.name,
           (double)info.global_mem_bytes / 1e9);
    power_options opt = power_defaults();
    opt.period_fs = bc.period_fs;
    if (single)
        run_single(&bc, &opt, device);
    cuda_power_options co = cuda_power_defaults();
    co.device = device;
    power_result *gpu = NULL, *cpu = NULL;
    double t0 = now_seconds();
    gp_status st = cuda_power_analyze(bc.dg, bc.ev, &opt, &co, &gpu, d);
    double t1 = now_seconds();
    if (st == GP_OK)
        st = power_analyze_cpu(bc.dg, bc.ev, &opt, 0, &cpu, d);
    double t2 = now_seconds();
    double w = st == GP_OK ? bench_worst_difference(cpu, gpu) : INFINITY;
    printf("cuda_power_analyze %.2f s, cpu engine %.2f s; worst relative difference %.2e (%s)\n",
           t1 - t0, t2 - t1, w, w <= 1e-6 ? "ok" : "FAIL");
    power_result_free(gpu);
    power_result_free(cpu);
    bench_case_free(&bc);
    diag_free(d);
    return w <= 1e-6 ? 0 : 1;
}
