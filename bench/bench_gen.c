/* bench_gen.c: the inputs of the power benchmarks: real files, the small
 * generated case (through a VCD) and the large one (events made in memory
 * on threads).  bench_gen.h describes the cases. */
#include "bench_gen.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/mem.h"
#include "util/progress.h"

#define BENCH_SLOTS 1000 /* event times within a cycle: 10 ps apart */
#define BENCH_SLOT_FS 10000
#define BENCH_PIS 64

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ---- the library and the netlist (both cases), the VCD (small case) ------------ */

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

size_t bench_vcd_code(uint32_t id, char *p)
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
        size_t n = 1 + bench_vcd_code(net, line + 1);
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
        code[bench_vcd_code(n, code)] = '\0';
        fprintf(f, "$var wire 1 %s %s $end\n", code, name);
    }
    fputs("$upscope $end\n$enddefinitions $end\n#0\n", f);
    for (uint32_t n = 0; n < n_nets; n++) {
        code[bench_vcd_code(n, code)] = '\0';
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

/* ---- reading --------------------------------------------------------------------- */

bool bench_read_case(bench_case *bc, const char *lib, const char *netlist, const char *top,
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

/* The library and a netlist of `gates` gates, read from files in keep_dir
 * (NULL: temporary ones). */
static bool make_design(bench_case *bc, const char *stem, uint32_t gates, uint64_t *rng,
                        const char *keep_dir, diag_ctx *d)
{
    char lib[4096], net[4096];
    if (keep_dir) {
        snprintf(lib, sizeof lib, "%s/cells.lib", keep_dir);
        snprintf(net, sizeof net, "%s/netlist.v", keep_dir);
    } else {
        snprintf(lib, sizeof lib, "/tmp/%s_%d.lib", stem, (int)getpid());
        snprintf(net, sizeof net, "/tmp/%s_%d.v", stem, (int)getpid());
    }
    FILE *f = fopen(lib, "w");
    bool ok = f && fputs(bench_lib, f) >= 0;
    ok = (f && fclose(f) == 0) && ok;
    ok = ok && write_netlist(net, gates, rng);
    const char *paths[] = {net};
    ok = ok && (bc->libs = lib_set_new()) != NULL && lib_read(bc->libs, lib, d) == GP_OK &&
         design_read_netlist(&bc->dg, bc->libs, paths, 1, "top", d) == GP_OK;
    if (!keep_dir) {
        remove(lib);
        remove(net);
    }
    bc->period_fs = (int64_t)BENCH_PERIOD_PS * 1000;
    return ok;
}

bool bench_gen_small(bench_case *bc, uint32_t gates, uint32_t cycles, diag_ctx *d)
{
    char vcd[64];
    snprintf(vcd, sizeof vcd, "/tmp/bench_power_%d.vcd", (int)getpid());
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    bool ok = make_design(bc, "bench_power", gates, &rng, NULL, d) && write_vcd(vcd, gates, cycles, &rng);
    events_options eo = {.scope = "top"};
    events_stats st;
    ok = ok && events_read(bc->dg, vcd, &eo, &bc->ev, &st, d) == GP_OK;
    remove(vcd);
    return ok;
}

void bench_case_free(bench_case *bc)
{
    events_free(bc->ev);
    design_free(bc->dg);
    lib_set_free(bc->libs);
    *bc = (bench_case){0};
}

/* ---- the large case: skewed activity made in memory ------------------------------ */

/* A net's activity: the mean of its Poisson count of changes a cycle, the
 * chance that a change brings a glitch (one or three more changes, each 10
 * to 300 ps after the one before), and its initial value. */
typedef struct gen_profile {
    double rate, glitch;
    uint8_t initial;
} gen_profile;

/* The run is cut into GEN_PHASES phases of equal length.  The whole design
 * follows gen_phase_factor (busy and idle stretches, mean 1), and each net is,
 * in each phase, idle (x0.2, 30%), as usual (x1, 50%) or busy (x3, 20%). */
#define GEN_PHASES 16
static const double gen_phase_factor[GEN_PHASES] = {1.0, 0.6, 1.4, 0.3, 1.0, 1.8, 0.8, 0.2,
                                                    1.2, 1.0, 0.5, 1.6, 0.9, 1.1, 1.4, 1.2};
#define GEN_MAX_PRIMARY 64                 /* changes a cycle before glitches */
#define GEN_MAX_CYCLE (4 * GEN_MAX_PRIMARY) /* with their glitches */
#define GEN_MAX_MEAN 48.0
#define GEN_CHUNK 1024                     /* nets a worker takes at a time */
#define GEN_MAX_THREADS 256
#define GEN_PROBE_CYCLES 64                /* the run that sizes `cycles` for a pin-event goal */
#define GEN_DEFAULT_SEED 0x2545f4914f6cdd1dULL

static uint64_t gen_mix(uint64_t x) /* splitmix64's finaliser */
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static double gen_uniform(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1p-53; }

/* Quiet 35%, ordinary 45%, glitchy 16%, hot 4%. */
static gen_profile gen_profile_draw(uint64_t *s)
{
    double u = gen_uniform(s), v = gen_uniform(s);
    gen_profile p = {.initial = (uint8_t)(rng_next(s) >> 63)};
    if (u < 0.35)
        p.rate = 0.02 * exp2(2.0 * v), p.glitch = 0.02;
    else if (u < 0.80)
        p.rate = 0.15 + 0.45 * v, p.glitch = 0.08;
    else if (u < 0.96)
        p.rate = 0.4 + 0.6 * v, p.glitch = 0.5;
    else
        p.rate = 2.0 + 6.0 * v, p.glitch = 0.15;
    return p;
}

static double gen_net_phase(uint64_t seed, uint32_t net, uint32_t phase)
{
    unsigned r = (unsigned)(gen_mix(seed ^ gen_mix((uint64_t)net << 8 | phase)) % 10);
    return r < 3 ? 0.2 : r < 8 ? 1.0 : 3.0;
}

static uint32_t gen_poisson(uint64_t *s, double mean, double exp_neg_mean)
{
    double u = gen_uniform(s), p = exp_neg_mean, sum = p;
    uint32_t k = 0;
    while (u > sum && k < GEN_MAX_PRIMARY) {
        k++;
        p *= mean / k;
        sum += p;
    }
    return k;
}

/* One cycle's changes of a net: their slots, increasing, in (0, BENCH_SLOTS);
 * returns how many. */
static uint32_t gen_cycle(uint64_t *s, const gen_profile *p, double mean, double exp_neg_mean,
                          uint32_t *slot)
{
    uint32_t k = gen_poisson(s, mean, exp_neg_mean), n = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t at = 1 + (uint32_t)(rng_next(s) % (BENCH_SLOTS - 1));
        slot[n++] = at;
        if (gen_uniform(s) >= p->glitch)
            continue;
        for (uint32_t extra = rng_next(s) >> 63 ? 3 : 1; extra > 0; extra--) {
            at += 1 + (uint32_t)(rng_next(s) % 30);
            slot[n++] = at;
        }
    }
    for (uint32_t i = 1; i < n; i++) /* insertion sort: n is small */
        for (uint32_t j = i; j > 0 && slot[j - 1] > slot[j]; j--) {
            uint32_t x = slot[j];
            slot[j] = slot[j - 1];
            slot[j - 1] = x;
        }
    uint32_t m = 0; /* distinct times: a repeated slot moves on; past the cycle: dropped */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = m > 0 && slot[i] <= slot[m - 1] ? slot[m - 1] + 1 : slot[i];
        if (at >= BENCH_SLOTS)
            break;
        slot[m++] = at;
    }
    return m;
}

typedef struct gen_run {
    const design *dg;
    uint32_t clock, cycles;
    int64_t period_fs;
    uint64_t seed;
    uint64_t *count;         /* events per net (the initial value included) */
    events *ev;              /* NULL: count only */
    _Atomic uint64_t next;   /* the next net to hand out */
    atomic_bool mismatch;    /* a net wrote other than it counted (a bug) */
} gen_run;

/* The clock rises 10 ps into each cycle and falls at its middle. */
static uint64_t gen_clock(const gen_run *run, uint64_t *w)
{
    for (uint32_t c = 0; w && c < run->cycles; c++) {
        int64_t start = (int64_t)c * run->period_fs;
        w[1 + 2 * (uint64_t)c] = events_pack(start + BENCH_SLOT_FS, 1);
        w[2 + 2 * (uint64_t)c] = events_pack(start + BENCH_SLOTS / 2 * BENCH_SLOT_FS, 0);
    }
    if (w)
        w[0] = events_pack(0, 0);
    return 1 + 2 * (uint64_t)run->cycles;
}

/* Net `net`'s events, its initial value at time 0 first: returns their
 * count and writes their words to w unless w is NULL.  Both ways make the
 * same draws, so what is written is what was counted.  Every change changes
 * the value (1 in 64 goes to x, and x goes to 1), so each one is costed. */
static uint64_t gen_net(const gen_run *run, uint32_t net, uint64_t *w)
{
    if (net == run->clock)
        return gen_clock(run, w);
    uint64_t s = gen_mix(run->seed ^ net) | 1;
    gen_profile p = gen_profile_draw(&s);
    uint8_t value = p.initial;
    if (w)
        w[0] = events_pack(0, value);
    uint64_t n = 1;
    uint32_t slot[GEN_MAX_CYCLE], phase = UINT32_MAX;
    double mean = 0.0, exp_neg_mean = 1.0;
    for (uint32_t c = 0; c < run->cycles; c++) {
        uint32_t ph = (uint32_t)((uint64_t)c * GEN_PHASES / run->cycles);
        if (ph != phase) {
            phase = ph;
            mean = p.rate * gen_phase_factor[ph] * gen_net_phase(run->seed, net, ph);
            mean = fmin(mean, GEN_MAX_MEAN);
            exp_neg_mean = exp(-mean);
        }
        uint32_t m = gen_cycle(&s, &p, mean, exp_neg_mean, slot);
        for (uint32_t i = 0; i < m; i++, n++) {
            bool to_x = value != EVENTS_X && (rng_next(&s) & 63) == 0;
            value = to_x ? EVENTS_X : value == 1 ? 0 : 1;
            if (w)
                w[n] = events_pack((int64_t)c * run->period_fs + (int64_t)slot[i] * BENCH_SLOT_FS,
                                   value);
        }
    }
    return n;
}

static void *gen_worker(void *arg)
{
    gen_run *run = arg;
    uint32_t n_nets = run->dg->n_nets;
    for (;;) {
        uint64_t first = atomic_fetch_add(&run->next, GEN_CHUNK);
        if (first >= n_nets)
            return NULL;
        uint32_t end = first + GEN_CHUNK < n_nets ? (uint32_t)first + GEN_CHUNK : n_nets;
        for (uint32_t net = (uint32_t)first; net < end; net++) {
            if (!run->ev) {
                run->count[net] = gen_net(run, net, NULL);
                continue;
            }
            uint64_t k = run->ev->net_ev0[net];
            if (gen_net(run, net, run->ev->word + k) != run->count[net])
                atomic_store(&run->mismatch, true);
        }
    }
}

/* One pass over the nets on `threads` threads (the caller being one). */
static void gen_pass(gen_run *run, int threads)
{
    pthread_t thread[GEN_MAX_THREADS];
    int started = 0;
    atomic_store(&run->next, 0);
    while (started + 1 < threads && pthread_create(&thread[started], NULL, gen_worker, run) == 0)
        started++;
    gen_worker(run);
    for (int i = 0; i < started; i++)
        pthread_join(thread[i], NULL);
}

static uint64_t pin_events_of(const design *dg, const uint64_t *count)
{
    uint64_t sum = 0;
    for (uint32_t n = 0; n < dg->n_nets; n++)
        sum += (count[n] - 1) * (dg->net_pin0[n + 1] - dg->net_pin0[n]);
    return sum;
}

/* The cycles that give about `goal` pin events (2% over), from a short run. */
static uint32_t gen_cycles_for(gen_run *run, double goal, int threads)
{
    run->cycles = GEN_PROBE_CYCLES;
    gen_pass(run, threads);
    double per_cycle = (double)pin_events_of(run->dg, run->count) / GEN_PROBE_CYCLES;
    double cycles = ceil(1.02 * goal / fmax(per_cycle, 1.0));
    return cycles < 1 ? 1 : cycles > 1e8 ? 100000000u : (uint32_t)cycles;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts v[n] and takes the stats' quantiles of it. */
static void gen_quantiles(uint64_t *v, size_t n, const double *q, uint64_t *out)
{
    qsort(v, n, sizeof *v, compare_u64);
    for (int i = 0; i < 5; i++)
        out[i] = n ? v[(size_t)fmin((double)n - 1, floor(q[i] * (double)n))] : 0;
}

static void gen_skew(const design *dg, const uint64_t *count, bench_gen_stats *st)
{
    static const double q[5] = {0.5, 0.9, 0.99, 0.999, 1.0};
    size_t n = dg->n_insts > dg->n_nets ? dg->n_insts : dg->n_nets;
    uint64_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    if (!v)
        return;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        v[i] = 0;
        for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++)
            v[i] += dg->pin_net[p] == DESIGN_NONE ? 0 : count[dg->pin_net[p]] - 1;
        sum += v[i];
    }
    st->inst_events_mean = dg->n_insts ? (double)sum / dg->n_insts : 0.0;
    gen_quantiles(v, dg->n_insts, q, st->inst_events_q);
    for (uint32_t k = 0; k < dg->n_nets; k++)
        v[k] = count[k] - 1;
    gen_quantiles(v, dg->n_nets, q, st->net_changes_q);
    mem_free(v);
}

/* The event store of the counted nets, then filled by a second pass. */
static events *gen_events(gen_run *run, int threads)
{
    uint32_t n_nets = run->dg->n_nets;
    events *ev = mem_calloc(1, sizeof *ev);
    if (!ev || !(ev->net_ev0 = mem_alloc(((size_t)n_nets + 1) * sizeof *ev->net_ev0))) {
        events_free(ev);
        return NULL;
    }
    ev->n_nets = n_nets;
    ev->net_ev0[0] = 0;
    for (uint32_t n = 0; n < n_nets; n++)
        ev->net_ev0[n + 1] = ev->net_ev0[n] + run->count[n];
    ev->n_events = ev->net_ev0[n_nets];
    ev->end_fs = (int64_t)run->cycles * run->period_fs;
    ev->word = mem_alloc((ev->n_events ? ev->n_events : 1) * sizeof *ev->word);
    if (!ev->word) {
        events_free(ev);
        return NULL;
    }
    run->ev = ev;
    gen_pass(run, threads);
    run->ev = NULL;
    if (atomic_load(&run->mismatch)) {
        events_free(ev);
        return NULL;
    }
    return ev;
}

bool bench_gen_large(bench_case *bc, const bench_gen_options *opt, bench_gen_stats *stats,
                     diag_ctx *d)
{
    bench_gen_stats unused, *st = stats ? stats : &unused;
    *st = (bench_gen_stats){0};
    uint64_t seed = opt->seed ? opt->seed : GEN_DEFAULT_SEED, rng = seed;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = opt->threads > 0 ? opt->threads : cores > 0 ? (int)cores : 1;
    st->threads = threads = threads < GEN_MAX_THREADS ? threads : GEN_MAX_THREADS;
    double start = progress_now_seconds();
    if (opt->gates == 0 || !make_design(bc, "bench_gen", opt->gates, &rng, opt->keep_dir, d))
        return false;
    st->netlist_s = progress_now_seconds() - start;
    start = progress_now_seconds();
    gen_run run = {.dg = bc->dg, .clock = design_find_net(bc->dg, "clk"),
                   .period_fs = bc->period_fs, .seed = seed, .cycles = opt->cycles};
    atomic_init(&run.next, 0);
    atomic_init(&run.mismatch, false);
    run.count = mem_alloc(((size_t)bc->dg->n_nets + 1) * sizeof *run.count);
    if (!run.count)
        return false;
    if (run.cycles == 0)
        run.cycles = gen_cycles_for(&run, opt->pin_events, threads);
    gen_pass(&run, threads);
    bc->ev = gen_events(&run, threads);
    st->events_s = progress_now_seconds() - start;
    st->cycles = run.cycles;
    if (bc->ev) {
        st->net_changes = bc->ev->n_events - bc->ev->n_nets;
        st->pin_events = pin_events_of(bc->dg, run.count);
        gen_skew(bc->dg, run.count, st);
    }
    mem_free(run.count);
    return bc->ev != NULL;
}

void bench_gen_print_stats(const bench_gen_stats *s)
{
    static const char *const label[5] = {"p50", "p90", "p99", "p99.9", "max"};
    printf("generated: %u cycles; %.4g net changes, %.4g pin events (what events_used must be); "
           "netlist written and read in %.1f s, events made in %.1f s on %d threads\n",
           s->cycles, (double)s->net_changes, (double)s->pin_events, s->netlist_s, s->events_s,
           s->threads);
    printf("skew: pin events per instance: mean %.0f", s->inst_events_mean);
    for (int i = 0; i < 5; i++)
        printf(", %s %llu", label[i], (unsigned long long)s->inst_events_q[i]);
    printf("\n      changes per net:");
    for (int i = 0; i < 5; i++)
        printf("%s %s %llu", i ? "," : "", label[i], (unsigned long long)s->net_changes_q[i]);
    printf("\n");
}
