/* bench_power.c: throughput of the time-based power engines: the float64
 * reference (once) and the fast CPU engine on 1 and 2 threads (median of
 * REPEATS runs each), on a generated design or on real inputs.
 *
 * usage: bench_power [GATES [CYCLES [REPEATS]]]            (default 20000 4000 3)
 *        bench_power LIB NETLIST TOP VCD SCOPE PERIOD_NS   (TOP "-": the only top module)
 *
 * The generated case: GATES cells of a small library (inverters, NAND2,
 * NOR2, XOR2, AOI21 and 10% flops on one clock), each input a random earlier
 * net, and CYCLES cycles of 10 ns of random activity: most nets change in
 * about a third of the cycles, some glitch, 2% are hot (six changes a
 * cycle), 1 change in 64 goes through x.  Library, netlist and VCD are
 * written to /tmp, read through the project's readers and deleted.
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

#include "power/power.h"

#define BENCH_PERIOD_PS 10000
#define BENCH_SLOTS 1000 /* event times within a cycle: 10 ps apart */
#define BENCH_PIS 64

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ---- the generated case ------------------------------------------------------ */

#define TABLE2(name, v) name " (t2) { values (" v ") ; }\n"
#define P_RISE "\"0.2, 0.3, 0.6\", \"0.25, 0.35, 0.7\", \"0.4, 0.5, 0.9\""
#define P_FALL "\"0.1, 0.2, 0.4\", \"0.12, 0.22, 0.45\", \"0.2, 0.3, 0.5\""
#define ARC(rel)                                                                          \
    "      timing () { related_pin : \"" rel "\" ;\n"                                     \
    TABLE2("cell_rise", "\"0.02, 0.05, 0.2\", \"0.04, 0.07, 0.25\", \"0.08, 0.1, 0.3\"")   \
    TABLE2("cell_fall", "\"0.02, 0.04, 0.18\", \"0.03, 0.06, 0.2\", \"0.07, 0.09, 0.28\"") \
    TABLE2("rise_transition", "\"0.02, 0.06, 0.3\", \"0.04, 0.08, 0.32\", \"0.1, 0.12, 0.4\"") \
    TABLE2("fall_transition", "\"0.02, 0.05, 0.25\", \"0.03, 0.07, 0.27\", \"0.08, 0.1, 0.3\"") \
    "      }\n"
#define POWER(rel, when)                                                                  \
    "      internal_power () { related_pin : \"" rel "\" ; " when "\n"                    \
    TABLE2("rise_power", P_RISE) TABLE2("fall_power", P_FALL) "      }\n"
#define LEAK(when, v) "    leakage_power () { when : \"" when "\" ; value : " v " ; }\n"
#define IN(name) "    pin (" name ") { direction : input ; capacitance : 0.002 ; }\n"

static const char bench_lib[] =
    "library (benchlib) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; current_unit : \"1mA\" ; nom_voltage : 1.1 ;\n"
    "  lu_table_template (t2) { variable_1 : input_net_transition ;\n"
    "    variable_2 : total_output_net_capacitance ;\n"
    "    index_1 (\"0.01, 0.1, 0.5\") ; index_2 (\"0.001, 0.01, 0.05\") ; }\n"
    "  cell (INV) {\n" LEAK("A", "1.0") LEAK("!A", "1.5") IN("A")
    "    pin (Y) { direction : output ; function : \"!A\" ;\n" ARC("A") POWER("A", "") "} }\n"
    "  cell (NAND2) {\n" LEAK("!A & !B", "1.0") LEAK("!A & B", "1.2") LEAK("A & !B", "1.3")
    LEAK("A & B", "2.0") IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"!(A & B)\" ;\n" ARC("A") ARC("B")
    POWER("A", "") POWER("B", "") "} }\n"
    "  cell (NOR2) {\n" LEAK("!A & !B", "2.0") LEAK("!A & B", "1.1") LEAK("A & !B", "1.2")
    LEAK("A & B", "0.9") IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"!(A | B)\" ;\n" ARC("A") ARC("B")
    POWER("A", "") POWER("B", "") "} }\n"
    "  cell (XOR2) { cell_leakage_power : 2.5 ;\n" IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"A ^ B\" ;\n" ARC("A") ARC("B")
    POWER("A", "when : \"B\" ;") POWER("A", "when : \"!B\" ;")
    POWER("B", "when : \"A\" ;") POWER("B", "when : \"!A\" ;") "} }\n"
    "  cell (AOI21) { cell_leakage_power : 2.0 ;\n" LEAK("A1 & A2 & B", "3.0") IN("A1") IN("A2")
    IN("B") "    pin (Y) { direction : output ; function : \"!((A1 & A2) | B)\" ;\n"
    ARC("A1") ARC("A2") ARC("B") POWER("A1", "") POWER("A2", "") POWER("B", "") "} }\n"
    "  cell (DFF) {\n    ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CK\" ; }\n"
    LEAK("D", "5.0") LEAK("!D", "4.0")
    "    pin (CK) { direction : input ; clock : true ; capacitance : 0.003 ;\n"
    "      internal_power () { when : \"D\" ;\n" TABLE2("rise_power", P_RISE)
    TABLE2("fall_power", P_FALL) "      }\n"
    "      internal_power () { when : \"!D\" ;\n" TABLE2("rise_power", P_FALL)
    TABLE2("fall_power", P_FALL) "      } }\n" IN("D")
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n"
    "      timing () { related_pin : \"CK\" ; timing_type : rising_edge ;\n"
    TABLE2("cell_rise", "\"0.1, 0.12, 0.3\", \"0.11, 0.13, 0.31\", \"0.12, 0.14, 0.32\"")
    TABLE2("cell_fall", "\"0.1, 0.12, 0.3\", \"0.11, 0.13, 0.31\", \"0.12, 0.14, 0.32\"")
    "      }\n" POWER("CK", "") "} }\n"
    "}\n";

static const char *const comb_cells[] = {"INV", "NAND2", "NOR2", "XOR2", "AOI21"};
static const char *const comb_pins[][3] = {{"A"}, {"A", "B"}, {"A", "B"}, {"A", "B"},
                                           {"A1", "A2", "B"}};
static const unsigned comb_inputs[] = {1, 2, 2, 2, 3};

/* Net names: clk, pi0.., n0.. (gate g drives n<g>). */
static void net_name(uint32_t id, char *buf, size_t size)
{
    if (id == 0)
        snprintf(buf, size, "clk");
    else if (id <= BENCH_PIS)
        snprintf(buf, size, "pi%u", id - 1);
    else
        snprintf(buf, size, "n%u", id - 1 - BENCH_PIS);
}

static bool write_netlist(const char *path, uint32_t gates, uint64_t *rng)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs("module top (clk", f);
    for (uint32_t p = 0; p < BENCH_PIS; p++)
        fprintf(f, ", pi%u", p);
    fputs(");\n  input clk", f);
    for (uint32_t p = 0; p < BENCH_PIS; p++)
        fprintf(f, ", pi%u", p);
    fputs(";\n", f);
    for (uint32_t g = 0; g < gates; g++)
        fprintf(f, "  wire n%u;\n", g);
    char in[32];
    for (uint32_t g = 0; g < gates; g++) {
        uint64_t r = rng_next(rng);
        if (r % 10 == 0) {
            net_name(1 + BENCH_PIS + (uint32_t)((r >> 8) % gates), in, sizeof in);
            fprintf(f, "  DFF g%u (.CK(clk), .D(%s), .Q(n%u));\n", g, in, g);
            continue;
        }
        unsigned kind = (unsigned)((r >> 4) % 5);
        fprintf(f, "  %s g%u (", comb_cells[kind], g);
        for (unsigned k = 0; k < comb_inputs[kind]; k++) {
            net_name(1 + (uint32_t)(rng_next(rng) % (BENCH_PIS + g)), in, sizeof in);
            fprintf(f, ".%s(%s), ", comb_pins[kind][k], in);
        }
        fprintf(f, ".Y(n%u));\n", g);
    }
    fputs("endmodule\n", f);
    return fclose(f) == 0;
}

/* VCD identifier code of net id: bijective base 94. */
static size_t code_of(uint32_t id, char *p)
{
    size_t n = 0;
    for (;;) {
        p[n++] = (char)('!' + id % 94);
        if (id < 94)
            return n;
        id = id / 94 - 1;
    }
}

/* One cycle's changes, bucketed by time slot. */
typedef struct cycle_buf {
    uint32_t *slot_count;      /* [BENCH_SLOTS + 1] */
    uint32_t *slot_of, *net_of, *sorted;
    size_t n, cap;
} cycle_buf;

static void cycle_add(cycle_buf *c, uint32_t slot, uint32_t net)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1 << 16;
        c->slot_of = realloc(c->slot_of, c->cap * sizeof *c->slot_of);
        c->net_of = realloc(c->net_of, c->cap * sizeof *c->net_of);
        c->sorted = realloc(c->sorted, c->cap * sizeof *c->sorted);
        if (!c->slot_of || !c->net_of || !c->sorted) {
            fprintf(stderr, "bench_power: out of memory\n");
            exit(1);
        }
    }
    c->slot_of[c->n] = slot;
    c->net_of[c->n++] = net;
}

/* Net n's changes in one cycle: hot nets six, the others none (60%), one
 * (30%) or a glitch of two to four. */
static void cycle_activity(cycle_buf *c, uint32_t net, uint64_t *rng)
{
    uint64_t r = rng_next(rng);
    bool hot = net % 50 == 7;
    uint32_t n = hot ? 6 : r % 10 < 6 ? 0 : r % 10 < 9 ? 1 : 2 + (uint32_t)(r >> 8) % 3;
    for (uint32_t k = 0; k < n; k++)
        cycle_add(c, (uint32_t)(rng_next(rng) % BENCH_SLOTS), net);
}

static void write_cycle(FILE *f, cycle_buf *c, uint64_t start_ps, uint8_t *state,
                        uint64_t *rng, uint64_t *n_events)
{
    memset(c->slot_count, 0, (BENCH_SLOTS + 1) * sizeof *c->slot_count);
    for (size_t i = 0; i < c->n; i++)
        c->slot_count[c->slot_of[i] + 1]++;
    for (uint32_t s = 0; s < BENCH_SLOTS; s++)
        c->slot_count[s + 1] += c->slot_count[s];
    for (size_t i = 0; i < c->n; i++)
        c->sorted[c->slot_count[c->slot_of[i]]++] = (uint32_t)i;
    char line[32];
    for (size_t k = 0; k < c->n; k++) {
        uint32_t i = c->sorted[k], net = c->net_of[i];
        if (k == 0 || c->slot_of[c->sorted[k - 1]] != c->slot_of[i])
            fprintf(f, "#%llu\n", (unsigned long long)(start_ps + 10 * c->slot_of[i]));
        bool to_x = net != 0 && (rng_next(rng) & 63) == 0; /* never on the clock */
        state[net] = to_x ? 2 : state[net] == 1 ? 0 : 1;
        line[0] = "01x"[state[net]];
        size_t n = 1 + code_of(net, line + 1);
        line[n++] = '\n';
        fwrite(line, 1, n, f);
    }
    *n_events += c->n;
    c->n = 0;
}

static bool write_vcd(const char *path, uint32_t gates, uint32_t cycles, uint64_t *rng)
{
    FILE *f = fopen(path, "w");
    uint32_t n_nets = 1 + BENCH_PIS + gates;
    uint8_t *state = calloc(n_nets, 1);
    cycle_buf c = {.slot_count = calloc(BENCH_SLOTS + 1, sizeof(uint32_t))};
    if (!f || !state || !c.slot_count)
        return false;
    fputs("$timescale 1ps $end\n$scope module top $end\n", f);
    char name[32], code[8];
    for (uint32_t n = 0; n < n_nets; n++) {
        net_name(n, name, sizeof name);
        code[code_of(n, code)] = '\0';
        fprintf(f, "$var wire 1 %s %s $end\n", code, name);
    }
    fputs("$upscope $end\n$enddefinitions $end\n#0\n", f);
    for (uint32_t n = 0; n < n_nets; n++) {
        code[code_of(n, code)] = '\0';
        fprintf(f, "0%s\n", code);
    }
    uint64_t n_events = n_nets;
    for (uint32_t cyc = 0; cyc < cycles; cyc++) {
        cycle_add(&c, 1, 0); /* clk rises 10 ps into the cycle, falls at its middle */
        cycle_add(&c, BENCH_SLOTS / 2, 0);
        for (uint32_t n = 1; n < n_nets; n++)
            cycle_activity(&c, n, rng);
        write_cycle(f, &c, (uint64_t)cyc * BENCH_PERIOD_PS, state, rng, &n_events);
    }
    fprintf(f, "#%llu\n", (unsigned long long)cycles * BENCH_PERIOD_PS);
    free(state);
    free(c.slot_count);
    free(c.slot_of);
    free(c.net_of);
    free(c.sorted);
    return fclose(f) == 0;
}

/* ---- reading and timing -------------------------------------------------------- */

typedef struct bench_case {
    lib_set *libs;
    design *dg;
    events *ev;
    int64_t period_fs;
} bench_case;

static bool read_case(bench_case *bc, const char *lib, const char *netlist, const char *top,
                      const char *vcd, const char *scope, diag_ctx *d)
{
    bc->libs = lib_set_new();
    const char *paths[] = {netlist};
    events_options eo = {.scope = scope};
    events_stats st;
    return bc->libs && lib_read(bc->libs, lib, d) == GP_OK &&
           design_read_netlist(&bc->dg, bc->libs, paths, 1, top, d) == GP_OK &&
           events_read(bc->dg, vcd, &eo, &bc->ev, &st, d) == GP_OK;
}

static bool generate_case(bench_case *bc, uint32_t gates, uint32_t cycles, diag_ctx *d)
{
    char lib[64], net[64], vcd[64];
    snprintf(lib, sizeof lib, "/tmp/bench_power_%d.lib", (int)getpid());
    snprintf(net, sizeof net, "/tmp/bench_power_%d.v", (int)getpid());
    snprintf(vcd, sizeof vcd, "/tmp/bench_power_%d.vcd", (int)getpid());
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    FILE *f = fopen(lib, "w");
    bool ok = f && fputs(bench_lib, f) >= 0;
    ok = (f && fclose(f) == 0) && ok;
    ok = ok && write_netlist(net, gates, &rng) && write_vcd(vcd, gates, cycles, &rng);
    ok = ok && read_case(bc, lib, net, "top", vcd, "top", d);
    remove(lib);
    remove(net);
    remove(vcd);
    bc->period_fs = (int64_t)BENCH_PERIOD_PS * 1000;
    return ok;
}

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
        ok = read_case(&bc, argv[1], argv[2], strcmp(argv[3], "-") ? argv[3] : NULL, argv[4],
                       argv[5], d);
        bc.period_fs = (int64_t)llround(atof(argv[6]) * 1e6);
    } else if (argc <= 4) {
        uint32_t gates = argc > 1 ? (uint32_t)atol(argv[1]) : 20000;
        uint32_t cycles = argc > 2 ? (uint32_t)atol(argv[2]) : 4000;
        repeats = argc > 3 ? atoi(argv[3]) : 3;
        ok = gates > 0 && cycles > 0 && generate_case(&bc, gates, cycles, d);
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
    events_free(bc.ev);
    design_free(bc.dg);
    lib_set_free(bc.libs);
    diag_free(d);
    return 0;
}
