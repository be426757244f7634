/* test_power_cpu.c: the fast engines against the reference engine (SPEC
 * §4: within 1e-6 relative per component, instance and waveform bin): the
 * CPU engine, also bit for bit against itself for any number of threads;
 * built a second time as test_power_cuda (POWER_TEST_CUDA defined, label
 * gpu), the CUDA engine in every kernel variant (the paper's, the walk
 * and the warp kernel), its deterministic modes bit for bit against
 * themselves, and the warp kernel's refusal of times past 2^56 fs.  And
 * each engine given the dump in windows of a few cycles (events_stream,
 * power_stream) against its own run over the whole dump, within 1e-9.
 *
 * The designs: a handmade one with a handwritten dump, and random ones of a
 * few hundred gates with random activity (glitches, X values, several events
 * per cycle, zero-width pulses, nets never dumped) generated here from a
 * fixed seed.  The library below exercises every rule: `when` conditions on
 * internal power and leakage, related_pg_pin groups, input-pin power (with a
 * negative energy), output groups without related pin, a flop whose `when`
 * names a state variable, a flop whose clock power no state changes (its
 * clock pin costed in bulk), a clock buffer, and a cell with more pins than the
 * state-indexed tables take (WIDE, 12 pins), which the engines scan. */
#include "check.h"
#include "scratch.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_power.h"
#include "power/power.h"
#include "power/power_int.h"
#include "power/power_rules.h"

#include <stdlib.h>
#include <unistd.h>

#define P2(name, v) name " (p2) { values (" v ") ; } "
#define P2_VALUES "\"0.1, 0.2, 0.4\", \"0.15, 0.3, 0.5\", \"0.3, 0.45, 0.8\""
#define P2_LOW "\"0.05, 0.1, 0.2\", \"0.07, 0.12, 0.25\", \"0.1, 0.2, 0.3\""
#define D2(name, v) "        " name " (d2) { values (" v ") ; }\n"
#define DELAYS(rel, sense)                                                                 \
    "      timing () { related_pin : \"" rel "\" ; timing_sense : " sense " ;\n"           \
    D2("cell_rise", "\"0.05, 0.1, 0.3\", \"0.08, 0.14, 0.35\", \"0.12, 0.2, 0.4\"")          \
    D2("cell_fall", "\"0.04, 0.09, 0.25\", \"0.07, 0.12, 0.3\", \"0.1, 0.18, 0.35\"")        \
    D2("rise_transition", "\"0.03, 0.08, 0.3\", \"0.06, 0.1, 0.32\", \"0.1, 0.15, 0.4\"")    \
    D2("fall_transition", "\"0.02, 0.07, 0.25\", \"0.05, 0.09, 0.28\", \"0.08, 0.13, 0.3\"") \
    "      }\n"
#define POWER_REL(rel, extra)                                                              \
    "      internal_power () { related_pin : \"" rel "\" ; " extra " "                       \
    P2("rise_power", P2_VALUES) P2("fall_power", P2_LOW) "}\n"
#define IN(name) "    pin (" name ") { direction : input ; capacitance : 0.002 ; }\n"

static const char cpu_lib[] =
    "library (cpulib) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; current_unit : \"1mA\" ; nom_voltage : 1.1 ;\n"
    "  default_cell_leakage_power : 0.25 ;\n"
    "  power_lut_template (p2) { variable_1 : input_transition_time ;\n"
    "    variable_2 : total_output_net_capacitance ;\n"
    "    index_1 (\"0.02, 0.1, 0.4\") ; index_2 (\"0.001, 0.01, 0.05\") ; }\n"
    "  power_lut_template (p1) { variable_1 : input_transition_time ; index_1 (\"0.02, 0.4\") ; }\n"
    "  lu_table_template (d2) { variable_1 : input_net_transition ;\n"
    "    variable_2 : total_output_net_capacitance ;\n"
    "    index_1 (\"0.02, 0.1, 0.4\") ; index_2 (\"0.001, 0.01, 0.05\") ; }\n"
    "  cell (INV) {\n"
    "    leakage_power () { when : \"A\" ; value : 1.0 ; }\n"
    "    leakage_power () { when : \"!A\" ; value : 2.0 ; }\n"
    "    pin (A) { direction : input ; capacitance : 0.002 ;\n"
    "      internal_power () { rise_power (p1) { values (\"-0.01, 0.02\") ; }\n"
    "        fall_power (p1) { values (\"0.01, 0.03\") ; } } }\n"
    "    pin (Y) { direction : output ; function : \"!A\" ;\n"
    DELAYS("A", "negative_unate") POWER_REL("A", "") "} }\n"
    "  cell (NAND2) {\n"
    "    pg_pin (VDD) { pg_type : primary_power ; voltage_name : VDD ; }\n"
    "    pg_pin (VSS) { pg_type : primary_ground ; voltage_name : VSS ; }\n"
    "    leakage_power () { when : \"!A !B\" ; value : 1.5 ; related_pg_pin : VDD ; }\n"
    "    leakage_power () { when : \"A B\" ; value : 4.0 ; related_pg_pin : VDD ; }\n"
    "    leakage_power () { value : 2.0 ; related_pg_pin : VDD ; }\n"
    "    leakage_power () { value : 0.5 ; related_pg_pin : VSS ; }\n"
    IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"!(A & B)\" ;\n"
    DELAYS("A B", "negative_unate")
    POWER_REL("A", "related_pg_pin : VDD ; when : \"B\" ;")
    POWER_REL("A", "related_pg_pin : VDD ;")
    "      internal_power () { related_pin : \"A\" ; related_pg_pin : VSS ; "
    "power (p1) { values (\"0.02, 0.04\") ; } }\n"
    POWER_REL("B", "related_pg_pin : VDD ;") "} }\n"
    "  cell (XOR2) { cell_leakage_power : 1.25 ;\n" IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"A ^ B\" ;\n"
    DELAYS("A B", "non_unate") POWER_REL("A", "when : \"B\" ;")
    "      internal_power () { related_pin : \"A\" ; when : \"!B\" ; "
    P2("rise_power", P2_LOW) P2("fall_power", P2_VALUES) "}\n"
    "      internal_power () { related_pin : \"B\" ;\n"
    "        power (p1) { values (\"0.05, 0.09\") ; } } } }\n"
    "  cell (AOI21) { cell_leakage_power : 3.0 ;\n" IN("A1") IN("A2") IN("B")
    "    pin (Y) { direction : output ; function : \"!((A1 & A2) | B)\" ;\n"
    DELAYS("A1 A2 B", "negative_unate") POWER_REL("A1", "") POWER_REL("A2", "")
    POWER_REL("B", "when : \"!A1\" ;") "} }\n"
    "  cell (DFF) {\n"
    "    ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CK\" ; }\n"
    "    leakage_power () { when : \"IQ\" ; value : 7.0 ; }\n"
    "    leakage_power () { when : \"D\" ; value : 5.0 ; }\n"
    "    leakage_power () { value : 4.0 ; }\n"
    "    pin (CK) { direction : input ; clock : true ; capacitance : 0.003 ;\n"
    "      internal_power () { when : \"D\" ; " P2("rise_power", P2_VALUES)
    P2("fall_power", P2_LOW) "}\n"
    "      internal_power () { when : \"!D\" ; power (p1) { values (\"0.03, 0.06\") ; } } }\n"
    IN("D")
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n"
    DELAYS("CK", "non_unate") POWER_REL("CK", "") "}\n"
    "    pin (QN) { direction : output ; function : \"IQN\" ;\n" DELAYS("CK", "non_unate") "} }\n"
    "  cell (DFFB) {\n"
    "    ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CK\" ; }\n"
    "    leakage_power () { when : \"IQ\" ; value : 6.0 ; }\n"
    "    leakage_power () { when : \"D\" ; value : 3.0 ; }\n"
    "    pin (CK) { direction : input ; clock : true ; capacitance : 0.003 ;\n"
    "      internal_power () { " P2("rise_power", P2_VALUES) P2("fall_power", P2_LOW) "} }\n"
    IN("D")
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n"
    DELAYS("CK", "non_unate") POWER_REL("CK", "") POWER_REL("D", "") "} }\n"
    "  cell (CKBUF) {\n" IN("A")
    "    pin (Y) { direction : output ; function : \"A\" ;\n"
    DELAYS("A", "positive_unate") POWER_REL("A", "") "} }\n"
    "  cell (BUFN) {\n" IN("A")
    "    pin (Y) { direction : output ; function : \"A\" ;\n" DELAYS("A", "positive_unate")
    "      internal_power () { " P2("rise_power", P2_VALUES) P2("fall_power", P2_LOW) "} } }\n"
    "  cell (WIDE) {\n"
    "    leakage_power () { when : \"I0 & I1\" ; value : 9.0 ; }\n"
    "    leakage_power () { value : 6.0 ; }\n"
    IN("I0") IN("I1") IN("I2") IN("I3") IN("I4") IN("I5") IN("I6") IN("I7") IN("I8")
    IN("I9") IN("I10")
    "    pin (Y) { direction : output ;\n"
    "      function : \"I0 & I1 & I2 & I3 & I4 & I5 & I6 & I7 & I8 & I9 & I10\" ;\n"
    DELAYS("I0 I5", "positive_unate") POWER_REL("I0", "when : \"I1\" ;")
    POWER_REL("I0", "when : \"!I1\" ;") POWER_REL("I5", "") "} }\n"
    "}\n";

static char dir[] = "/tmp/gp_test_power_cpu_XXXXXX";
static lib_set *libs;

typedef struct cpu_case {
    design *dg;
    events *ev;
} cpu_case;

/* Reads dir/TAG.v (module top) and dir/TAG.vcd (scope top). */
static bool case_read(cpu_case *cc, const char *tag)
{
    char net_path[256], vcd_path[256];
    snprintf(net_path, sizeof net_path, "%s/%s.v", dir, tag);
    snprintf(vcd_path, sizeof vcd_path, "%s/%s.vcd", dir, tag);
    diag_ctx *d = diag_new(stderr);
    const char *paths[] = {net_path};
    cc->dg = NULL;
    cc->ev = NULL;
    CHECK_EQ_INT(design_read_netlist(&cc->dg, libs, paths, 1, "top", d), GP_OK);
    events_options eo = {.scope = "top"};
    events_stats st;
    if (cc->dg)
        CHECK_EQ_INT(events_read(cc->dg, vcd_path, &eo, &cc->ev, &st, d), GP_OK);
    diag_free(d);
    if (cc->ev)
        return true;
    design_free(cc->dg);
    return false;
}

static void case_free(cpu_case *cc)
{
    events_free(cc->ev);
    design_free(cc->dg);
}

/* ---- comparing results ---------------------------------------------------- */

/* SPEC §4's bound (rel 1e-6), with a floor for values that are about 0. */
static bool near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-30;
}

/* How many of n values differ beyond rel; the first few are printed. */
static size_t count_far(const double *ref, const double *cpu, size_t n, const char *what,
                        double rel)
{
    size_t far = 0;
    for (size_t i = 0; i < n; i++)
        if (!near(ref[i], cpu[i], rel) && far++ < 3)
            fprintf(stderr, "  %s[%zu]: ref %.17g cpu %.17g\n", what, i, ref[i], cpu[i]);
    return far;
}

static void check_near(const power_result *ref, const power_result *cpu, double rel)
{
    CHECK_EQ_INT(cpu->n_insts, ref->n_insts);
    CHECK_EQ_INT(cpu->n_cycles, ref->n_cycles);
    CHECK_EQ_INT(cpu->period_fs, ref->period_fs);
    CHECK_EQ_INT(cpu->window_start_fs, ref->window_start_fs);
    CHECK_EQ_INT(cpu->window_end_fs, ref->window_end_fs);
    CHECK_EQ_INT(cpu->events_used, ref->events_used);
    if (cpu->n_insts != ref->n_insts || cpu->n_cycles != ref->n_cycles)
        return;
    CHECK_EQ_INT(memcmp(cpu->inst_group, ref->inst_group, ref->n_insts), 0);
    CHECK_EQ_INT(count_far(ref->inst_energy, cpu->inst_energy,
                           (size_t)ref->n_insts * POWER_COMPONENTS, "inst_energy", rel), 0);
    CHECK_EQ_INT(count_far(ref->bin_energy, cpu->bin_energy,
                           (size_t)ref->n_cycles * POWER_COMPONENTS, "bin_energy", rel), 0);
    CHECK_EQ_INT(count_far(&ref->group_energy[0][0], &cpu->group_energy[0][0],
                           POWER_GROUPS * POWER_COMPONENTS, "group_energy", rel), 0);
    CHECK(near(ref->io_switching, cpu->io_switching, rel));
    CHECK(near(ref->duration, cpu->duration, 1e-15));
}

static void check_near_ref(const power_result *ref, const power_result *cpu)
{
    check_near(ref, cpu, 1e-6);
}

static void check_same_bits(const power_result *a, const power_result *b)
{
    CHECK_EQ_INT(a->n_insts, b->n_insts);
    CHECK_EQ_INT(a->n_cycles, b->n_cycles);
    if (a->n_insts != b->n_insts || a->n_cycles != b->n_cycles)
        return;
    CHECK_EQ_INT(memcmp(a->inst_energy, b->inst_energy,
                        (size_t)a->n_insts * POWER_COMPONENTS * sizeof(double)), 0);
    CHECK_EQ_INT(memcmp(a->bin_energy, b->bin_energy,
                        (size_t)a->n_cycles * POWER_COMPONENTS * sizeof(double)), 0);
    CHECK_EQ_INT(memcmp(a->group_energy, b->group_energy, sizeof a->group_energy), 0);
    CHECK_EQ_INT(memcmp(&a->io_switching, &b->io_switching, sizeof(double)), 0);
    CHECK_EQ_INT(a->events_used, b->events_used);
}

static power_result *run_ref(const cpu_case *cc, const power_options *opt)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(power_analyze_ref(cc->dg, cc->ev, opt, &r, d), GP_OK);
    diag_free(d);
    return r;
}

/* task_events 0: the engine's default (power_analyze_cpu). */
static power_result *run_cpu(const cpu_case *cc, const power_options *opt, int threads,
                             uint32_t task_events)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(stderr);
    gp_status st = task_events ? power_analyze_cpu_tasks(cc->dg, cc->ev, opt, threads,
                                                         task_events, &r, d)
                               : power_analyze_cpu(cc->dg, cc->ev, opt, threads, &r, d);
    CHECK_EQ_INT(st, GP_OK);
    CHECK_EQ_INT(diag_error_count(d) + diag_warning_count(d), 0);
    diag_free(d);
    return r;
}

#ifdef POWER_TEST_CUDA
/* How a run cuts its tasks: cuda_power_options' target_events, lane_tasks
 * and epoch_cycles. */
typedef struct cuda_tasking {
    uint32_t target_events, lane_tasks, epoch_cycles;
} cuda_tasking;

static power_result *run_cuda(const cpu_case *cc, const power_options *opt, const char *variant,
                              cuda_tasking tasking, bool deterministic)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(stderr);
    cuda_power_options co = cuda_power_defaults();
    CHECK_EQ_INT(cuda_power_parse_variant(variant, &co, d), GP_OK);
    co.target_events = tasking.target_events;
    co.lane_tasks = tasking.lane_tasks;
    co.epoch_cycles = tasking.epoch_cycles;
    co.deterministic = deterministic;
    CHECK_EQ_INT(cuda_power_analyze(cc->dg, cc->ev, opt, &co, &r, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d) + diag_warning_count(d), 0);
    diag_free(d);
    return r;
}

/* Runs of one session near the reference, in turn the walk kernel and the
 * warp kernel ("fused"), with partitioning (the engine's epochs, which
 * differ between the two, then 3-cycle ones) and without (1-cycle epochs):
 * a run keeps the last run's epoch index only when its epochs are the same,
 * and the gate streams the first warp run made serve the later ones. */
static void compare_session_runs(const cpu_case *cc, const power_options *opt,
                                 const power_result *ref)
{
    static const char *const variants[] = {"sipl+part+fusion+memo", "sipl+fusion", "fused",
                                           "sipl+part+fusion+memo", "naive", "fused", "fused",
                                           "sipl+part+fusion+memo"};
    static const uint32_t epochs[] = {0, 0, 0, 0, 0, 0, 3, 3};
    diag_ctx *d = diag_new(stderr);
    cuda_power_session *s = NULL;
    CHECK_EQ_INT(cuda_power_open(cc->dg, cc->ev, opt, 0, &s, NULL, d), GP_OK);
    for (size_t v = 0; s && v < sizeof variants / sizeof variants[0]; v++) {
        cuda_power_options co = cuda_power_defaults();
        CHECK_EQ_INT(cuda_power_parse_variant(variants[v], &co, d), GP_OK);
        co.epoch_cycles = epochs[v];
        power_result *r = NULL;
        CHECK_EQ_INT(cuda_power_run(s, &co, &r, NULL, d), GP_OK);
        if (r)
            check_near_ref(ref, r);
        power_result_free(r);
    }
    cuda_power_close(s);
    CHECK_EQ_INT(diag_error_count(d) + diag_warning_count(d), 0);
    diag_free(d);
}

/* Every kernel variant near the reference, partitioned windows of every
 * size from one cycle up, runs of one or several windows a thread, epochs
 * of the engine's choice and of 3 cycles, runs of one session one after
 * the other, and the deterministic mode's bits run to run. */
static void compare_engines(const cpu_case *cc, const power_options *opt)
{
    static const char *const variants[] = {
        "naive", "memo", "sipl", "sipl+part", "sipl+part+memo", "sipl+part+fusion",
        "sipl+part+fusion+memo", "part+fusion", "sipl+fusion+memo", "fused", "part+fusion+warp",
        "sipl+fusion+memo+warp"};
    static const cuda_tasking taskings[] = {{1, 1, 0},
                                            {CUDA_POWER_TARGET_EVENTS, CUDA_POWER_LANE_TASKS, 0},
                                            {CUDA_POWER_TARGET_EVENTS, 3, 3},
                                            {1u << 20, 2, 0}};
    const cuda_tasking standard = taskings[1];
    power_result *ref = run_ref(cc, opt);
    for (size_t v = 0; ref && v < sizeof variants / sizeof variants[0]; v++)
        for (size_t k = 0; k < sizeof taskings / sizeof taskings[0]; k++) {
            power_result *gpu = run_cuda(cc, opt, variants[v], taskings[k], k == 1);
            if (gpu)
                check_near_ref(ref, gpu);
            power_result_free(gpu);
        }
    if (ref)
        compare_session_runs(cc, opt, ref);
    static const char *const deterministic[] = {"sipl+part+fusion+memo", "fused"};
    for (size_t v = 0; ref && v < sizeof deterministic / sizeof deterministic[0]; v++) {
        power_result *a = run_cuda(cc, opt, deterministic[v], standard, true);
        power_result *b = a ? run_cuda(cc, opt, deterministic[v], standard, true) : NULL;
        if (b)
            check_same_bits(a, b);
        power_result_free(a);
        power_result_free(b);
    }
    power_result_free(ref);
}

/* Times from 2^56 fs on (some 72 s into a dump): the gate streams of the
 * default variant cannot hold them, so it refuses (error 1517) before
 * computing anything, and the walk it names instead equals the reference. */
static void check_late_times(const cpu_case *cc)
{
    const int64_t late = (int64_t)1 << 56;
    events ev = *cc->ev;
    uint64_t *words = malloc(ev.n_events * sizeof *words + 1);
    CHECK(words != NULL);
    if (!words)
        return;
    for (uint64_t i = 0; i < ev.n_events; i++)
        words[i] = events_pack(events_time(cc->ev, i) + late, events_value(cc->ev, i));
    ev.word = words;
    ev.end_fs += late;
    cpu_case shifted = {cc->dg, &ev};
    power_options opt = power_defaults();
    opt.period_fs = 10000000;
    cuda_tasking standard = {CUDA_POWER_TARGET_EVENTS, CUDA_POWER_LANE_TASKS, 0};
    power_result *ref = run_ref(&shifted, &opt);
    power_result *walk = ref ? run_cuda(&shifted, &opt, "sipl+part+fusion+memo", standard, false)
                             : NULL;
    if (walk)
        check_near_ref(ref, walk);
    cuda_power_options co = cuda_power_defaults();
    power_result *r = NULL;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(cuda_power_analyze(cc->dg, &ev, &opt, &co, &r, d), GP_ERR_UNSUPPORTED);
    CHECK_EQ_INT(diag_first_error_no(d), 1517);
    CHECK(r == NULL);
    diag_free(d);
    power_result_free(walk);
    power_result_free(ref);
    free(words);
}
#else
/* The CPU engine near the reference with the default and with tiny tasks
 * (gates cut into windows of one or a few cycles), and the same bits with
 * 1, 2, 3 and 7 threads. */
static void compare_engines(const cpu_case *cc, const power_options *opt)
{
    static const int threads[] = {2, 3, 7};
    power_result *ref = run_ref(cc, opt);
    for (uint32_t task_events = 0; task_events <= 1 && ref; task_events++) {
        power_result *one = run_cpu(cc, opt, 1, task_events);
        if (one)
            check_near_ref(ref, one);
        for (size_t i = 0; one && i < sizeof threads / sizeof threads[0]; i++) {
            power_result *many = run_cpu(cc, opt, threads[i], task_events);
            if (many)
                check_same_bits(one, many);
            power_result_free(many);
        }
        power_result_free(one);
    }
    power_result_free(ref);
}

#endif

/* The option sets every design is compared under. */
static void compare_options(const cpu_case *cc, int64_t period_fs, int64_t window_start_fs,
                            int64_t window_end_fs)
{
    power_options opt = power_defaults();
    opt.period_fs = period_fs;
    compare_engines(cc, &opt);
    opt.glitch = false;
    compare_engines(cc, &opt);
    opt.glitch = true;
    opt.include_io = true;
    compare_engines(cc, &opt);
    opt.window_start_fs = window_start_fs; /* not on a cycle of the dump */
    opt.window_end_fs = window_end_fs;
    compare_engines(cc, &opt);
    opt = power_defaults();
    opt.clock_net = "clk";
    compare_engines(cc, &opt);
    opt = power_defaults();
    opt.period_fs = period_fs / 3 + 7; /* cycles across the clock's */
    compare_engines(cc, &opt);
#ifndef POWER_TEST_CUDA
    opt.exact = true; /* the bulk pass keeps exact sums too */
    compare_engines(cc, &opt);
#endif
}

/* The engine under test refuses what the reference refuses, with the same
 * message. */
static void expect_same_refusal(const cpu_case *cc, const power_options *opt, int msgno)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(NULL);
#ifdef POWER_TEST_CUDA
    cuda_power_options co = cuda_power_defaults();
    CHECK(cuda_power_analyze(cc->dg, cc->ev, opt, &co, &r, d) != GP_OK);
#else
    CHECK(power_analyze_cpu(cc->dg, cc->ev, opt, 2, &r, d) != GP_OK);
#endif
    CHECK(r == NULL);
    CHECK_EQ_INT(diag_first_error_no(d), msgno);
    diag_free(d);
    d = diag_new(NULL);
    CHECK(power_analyze_ref(cc->dg, cc->ev, opt, &r, d) != GP_OK);
    CHECK_EQ_INT(diag_first_error_no(d), msgno);
    diag_free(d);
}

static void check_bad_options(const cpu_case *cc)
{
    power_options opt = power_defaults();
    expect_same_refusal(cc, &opt, 8004); /* no period */
    opt.period_fs = 10000000;
    opt.window_start_fs = 30000000;
    opt.window_end_fs = 20000000;
    expect_same_refusal(cc, &opt, 8006);
    opt = power_defaults();
    opt.clock_net = "no_such_net";
    expect_same_refusal(cc, &opt, 8002);
}


/* ---- the dump in windows ---------------------------------------------------- */

#ifdef POWER_TEST_CUDA
static gp_status engine_under_test(void *ctx, const design *dg, const events *ev,
                                   const power_options *opt, power_result **out, diag_ctx *d)
{
    (void)ctx;
    cuda_power_options co = cuda_power_defaults();
    return cuda_power_analyze(dg, ev, opt, &co, out, d);
}
#else
static gp_status engine_under_test(void *ctx, const design *dg, const events *ev,
                                   const power_options *opt, power_result **out, diag_ctx *d)
{
    return *(const bool *)ctx ? power_analyze_ref(dg, ev, opt, out, d)
                              : power_analyze_cpu(dg, ev, opt, 3, out, d);
}
#endif

typedef struct stream_run {
    power_stream *ps;
    diag_ctx *d;
} stream_run;

static gp_status give_window(void *ctx, const events_window *w, int64_t *keep_from)
{
    stream_run *run = ctx;
    return power_stream_window(run->ps, w, keep_from, run->d);
}

/* The engine (the reference when `ref`) over the dump `vcd` read on
 * `threads` threads in windows of about `changes` changes; *windows: how
 * many. */
static power_result *run_streamed(const cpu_case *cc, const char *vcd, const power_options *opt,
                                  bool ref, uint32_t threads, uint64_t changes, uint32_t *windows)
{
    diag_ctx *d = diag_new(stderr);
    stream_run run = {power_stream_new(cc->dg, opt, engine_under_test, &ref), d};
    events_consumer consumer = {.ctx = &run, .memory = changes * 16, .window = give_window};
    events_options eo = {.scope = "top", .threads = threads, .part_size = 64};
    events_stats stats;
    CHECK_EQ_INT(events_stream(cc->dg, vcd, &eo, &consumer, &stats, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d) + diag_warning_count(d), 0);
    power_result *r = run.ps ? power_stream_result(run.ps) : NULL;
    CHECK(r != NULL);
    power_stream_free(run.ps);
    diag_free(d);
    *windows = stats.windows;
    return r;
}

static power_result *run_whole(const cpu_case *cc, const power_options *opt, bool ref)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(engine_under_test(&ref, cc->dg, cc->ev, opt, &r, d), GP_OK);
    diag_free(d);
    return r;
}

/* The engine over the dump in windows of a few cycles, in file order and
 * on threads, equal to its run over the whole dump within 1e-9. */
static void compare_streamed(const cpu_case *cc, const char *vcd, const power_options *opt,
                             uint32_t cycles, bool ref)
{
    power_result *whole = run_whole(cc, opt, ref);
    for (uint32_t threads = 1; whole && threads <= 4; threads += 3) {
        uint32_t windows = 0;
        uint64_t changes = cc->ev->n_events / cycles * 3; /* about three cycles a window */
        power_result *r = run_streamed(cc, vcd, opt, ref, threads, changes, &windows);
        CHECK(windows > cycles / 8);
        if (r)
            check_near(whole, r, 1e-9);
        power_result_free(r);
    }
    power_result_free(whole);
}

/* compare_streamed under the option sets a stream treats apart: a given
 * and a measured period, a window, glitches off. */
static void compare_streamed_options(const cpu_case *cc, const char *vcd, int64_t period_fs,
                                     uint32_t cycles)
{
    for (int engine = 0; engine < 2; engine++) {
        bool ref = engine == 1;
#ifdef POWER_TEST_CUDA
        if (ref)
            break; /* the cuda build's engine under test is the cuda engine alone */
#endif
        power_options opt = power_defaults();
        opt.period_fs = period_fs;
        compare_streamed(cc, vcd, &opt, cycles, ref);
        opt.window_start_fs = period_fs * 3 + 1234;
        opt.window_end_fs = period_fs * (cycles - 2) - 99;
        opt.glitch = false;
        compare_streamed(cc, vcd, &opt, cycles, ref);
        opt = power_defaults();
        opt.clock_net = "clk";
        opt.include_io = true;
        compare_streamed(cc, vcd, &opt, cycles, ref);
    }
}

/* ---- one run in the engine's memory, in slices ------------------------------ */

#ifdef POWER_TEST_CUDA
/* The CUDA engine with `bytes` of device memory for its events; *runs is
 * not counted. */
static power_result *run_in_room(const cpu_case *cc, const power_options *opt, uint64_t bytes,
                                 uint32_t *runs)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(stderr);
    cuda_power_options co = cuda_power_defaults();
    co.device_bytes = bytes;
    CHECK_EQ_INT(cuda_power_analyze(cc->dg, cc->ev, opt, &co, &r, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d) + diag_warning_count(d), 0);
    diag_free(d);
    *runs = 0;
    return r;
}
#else
typedef struct counted_engine {
    uint32_t runs;
} counted_engine;

static gp_status count_runs(void *ctx, const design *dg, const events *ev,
                            const power_options *opt, power_result **out, diag_ctx *d)
{
    ((counted_engine *)ctx)->runs++;
    return power_analyze_cpu(dg, ev, opt, 3, out, d);
}

/* The CPU engine in a room of `bytes` (the CUDA engine's costs); *runs:
 * how many slices it took. */
static power_result *run_in_room(const cpu_case *cc, const power_options *opt, uint64_t bytes,
                                 uint32_t *runs)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(stderr);
    counted_engine engine = {0};
    power_room room = {bytes, 16, 8};
    CHECK_EQ_INT(power_analyze_in_room(cc->dg, cc->ev, opt, &room, count_runs, &engine, &r, d),
                 GP_OK);
    CHECK_EQ_INT(diag_error_count(d) + diag_warning_count(d), 0);
    diag_free(d);
    *runs = engine.runs;
    return r;
}
#endif

/* The engine in a room too small for the store, in slices of one cycle
 * and of about a third of the run, against its one run: within 1e-9, and
 * bit for bit with exact sums (ref and cpu engines). */
static void compare_in_room(const cpu_case *cc, const power_options *opt, uint32_t cycles)
{
    bool ref = false;
    power_result *whole = run_whole(cc, opt, ref);
    uint64_t third = cc->ev->n_events * (16 + 8 * 3) / 3; /* nets have about 3 pins */
    for (int k = 0; whole && k < 2; k++) {
        uint32_t runs = 0;
        power_result *r = run_in_room(cc, opt, k == 0 ? 1 : third, &runs);
#ifndef POWER_TEST_CUDA
        CHECK(k == 0 ? runs == whole->n_cycles : runs >= 3 && runs < cycles);
        if (r && opt->exact)
            check_same_bits(whole, r);
#else
        (void)cycles; /* the CUDA engine's slices are not counted */
#endif
        if (r)
            check_near(whole, r, 1e-9);
        power_result_free(r);
    }
    power_result_free(whole);
}

/* compare_in_room with a given period and a window that cuts cycles, with
 * a measured period and the I/O group, and with exact sums. */
static void compare_in_room_options(const cpu_case *cc, int64_t period_fs, uint32_t cycles)
{
    power_options opt = power_defaults();
    opt.period_fs = period_fs;
    opt.window_start_fs = period_fs * 2 + 1234;
    opt.window_end_fs = period_fs * (cycles - 1) - 99;
    compare_in_room(cc, &opt, cycles);
    opt = power_defaults();
    opt.clock_net = "clk";
    opt.include_io = true;
    compare_in_room(cc, &opt, cycles);
    opt.exact = true;
    compare_in_room(cc, &opt, cycles);
}

/* ---- a handmade design ------------------------------------------------------ */

/* d is never dumped (X throughout); y is first dumped at 7 ns (X -> 1 is
 * half a rise); n1 has three events in cycle 0 and n2 a zero-width pulse at
 * 11.1 ns; c and a go through X; several nets change at the same time. */
static void test_hand_design(void)
{
    static const char netlist[] =
        "module top (clk, a, b, c, y, q, w);\n  input clk, a, b, c; output y, q, w;\n"
        "  wire ck, n1, n2, n3, d;\n  CKBUF cb (.A(clk), .Y(ck));\n"
        "  NAND2 u1 (.A(a), .B(b), .Y(n1));\n  XOR2 u2 (.A(n1), .B(c), .Y(n2));\n"
        "  AOI21 u3 (.A1(n1), .A2(n2), .B(a), .Y(n3));\n  INV u4 (.A(n3), .Y(y));\n"
        "  DFF f1 (.CK(ck), .D(n2), .Q(q), .QN());\n  BUFN u5 (.A(q), .Y(d));\n"
        "  WIDE w1 (.I0(a), .I1(b), .I2(c), .I3(n1), .I4(n2), .I5(n3), .I6(d), .I7(1'b1),\n"
        "           .I8(1'b1), .I9(q), .I10(1'b0), .Y(w));\nendmodule\n";
    static const char body[] =
        "#0\n0clk\n0ck\n0a\n1b\n0c\n1n1\n0n2\nxn3\n0q\n0w\n"
        "#1000\n1a\n#1200\n0n1\n#1250\n1n2\n#1300\n1n1\n#1320\n0n1\n#1400\n1n3\n"
        "#5000\n1clk\n#5050\n1ck\n#5300\n1q\n#6000\nxc\n#6100\n0n3\n#7000\n1y\n"
        "#10000\n0clk\n#10050\n0ck\n#11000\n1c\n0a\n#11100\n1n1\n0n2\n1n2\n#11150\n0y\n"
        "#15000\n1clk\n#15050\n1ck\n#15200\n0q\n#16000\nxa\n#16010\nxn1\n#17500\n1a\n1w\n"
        "#17600\n0n1\n#20000\n0clk\n#20050\n0ck\n#21000\n0b\n#21080\n1n1\n#21090\n0n2\n"
        "#21300\n1n3\n0y\n#22000\n1b\n#22050\n0n1\n#22100\n1n2\n#22200\n0n3\n1y\n"
        "#25000\n1clk\n#25050\n1ck\n#25300\n1q\n0w\n#30000\n0clk\n#30050\n0ck\n"
        "#33000\n0c\n0a\n#33100\n1n1\n0n2\n#33300\n1n3\n0y\n#35000\n1clk\n#35050\n1ck\n"
        "#35250\n0q\n#40000\n0clk\n#40050\n0ck\n#45000\n1clk\n#45050\n1ck\n#50000\n";
    char path[256];
    snprintf(path, sizeof path, "%s/hand.v", dir);
    scratch_write_text(path, netlist);
    snprintf(path, sizeof path, "%s/hand.vcd", dir);
    scratch_write_vcd(path, "clk ck a b c n1 n2 n3 y q w", body);
    cpu_case cc;
    if (!case_read(&cc, "hand"))
        return;
    compare_options(&cc, 10000000, 2345678, 37777777);
    check_bad_options(&cc);
    power_options opt = power_defaults();
    opt.period_fs = 1000; /* 50 000 cycles: more than one slab of the default tasks */
    compare_engines(&cc, &opt);
    opt.period_fs = 10000000;
    power_result *one = run_cpu(&cc, &opt, 1, 0), *all = run_cpu(&cc, &opt, 0, 0);
    if (one && all)
        check_same_bits(one, all); /* threads 0: one per core */
    power_result_free(one);
    power_result_free(all);
#ifdef POWER_TEST_CUDA
    check_late_times(&cc);
#endif
    case_free(&cc);
}

/* ---- random designs ------------------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t rnd(rng *r, uint32_t n)
{
    r->s ^= r->s << 13; /* xorshift64 */
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)((r->s >> 11) % n);
}

typedef struct cell_kind {
    const char *name;
    const char *const *inputs;
    uint32_t n_inputs;
} cell_kind;

static const char *const in_a[] = {"A"}, *const in_ab[] = {"A", "B"};
static const char *const in_aoi[] = {"A1", "A2", "B"};
static const char *const in_wide[] = {"I0", "I1", "I2", "I3", "I4", "I5", "I6", "I7", "I8",
                                      "I9", "I10"};
static const cell_kind kinds[] = {{"INV", in_a, 1}, {"NAND2", in_ab, 2}, {"XOR2", in_ab, 2},
                                  {"AOI21", in_aoi, 3}, {"BUFN", in_a, 1}, {"WIDE", in_wide, 11}};

/* An input of gate i: a primary input, an earlier gate's output, now and
 * then a constant. */
static void write_input(FILE *f, rng *r, uint32_t i, uint32_t n_pi)
{
    uint32_t pick = rnd(r, 40);
    if (pick == 0)
        fputs(rnd(r, 2) ? "1'b1" : "1'b0", f);
    else if (i == 0 || pick < 8)
        fprintf(f, "pi%u", rnd(r, n_pi));
    else
        fprintf(f, "n%u", rnd(r, i));
}

/* Gates g0..g(n-1) driving n0..n(n-1): combinational ones on earlier nets,
 * flops on any net, clocked by clk or one of two clock buffers' outputs. */
static void write_random_netlist(const char *path, rng *r, uint32_t n, uint32_t n_pi)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs("module top (clk", f);
    for (uint32_t p = 0; p < n_pi; p++)
        fprintf(f, ", pi%u", p);
    fprintf(f, ", po);\n  input clk");
    for (uint32_t p = 0; p < n_pi; p++)
        fprintf(f, ", pi%u", p);
    fputs(";\n  output po;\n  wire ck0, ck1", f);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, ", n%u", i);
    fputs(";\n  CKBUF cb0 (.A(clk), .Y(ck0));\n  CKBUF cb1 (.A(ck0), .Y(ck1));\n", f);
    for (uint32_t i = 0; i < n; i++) {
        if (rnd(r, 8) == 0) {
            static const char *const clocks[] = {"clk", "ck0", "ck1"};
            if (rnd(r, 2))
                fprintf(f, "  DFF g%u (.CK(%s), .D(n%u), .Q(n%u), .QN());\n", i,
                        clocks[rnd(r, 3)], rnd(r, n), i);
            else
                fprintf(f, "  DFFB g%u (.CK(%s), .D(n%u), .Q(n%u));\n", i, clocks[rnd(r, 3)],
                        rnd(r, n), i);
            continue;
        }
        const cell_kind *k = &kinds[rnd(r, 40) == 0 ? 5 : rnd(r, 5)];
        fprintf(f, "  %s g%u (", k->name, i);
        for (uint32_t in = 0; in < k->n_inputs; in++) {
            fprintf(f, ".%s(", k->inputs[in]);
            write_input(f, r, i, n_pi);
            fputs("), ", f);
        }
        fprintf(f, ".Y(n%u));\n", i);
    }
    fprintf(f, "  BUFN gpo (.A(n%u), .Y(po));\nendmodule\n", n - 1);
    fclose(f);
}

#define RAND_PERIOD_PS 10000

typedef struct rand_event {
    int64_t t;
    uint32_t seq, net;
    char value;
} rand_event;

typedef struct rand_dump {
    rand_event *e;
    size_t n, cap;
} rand_dump;

static void dump_add(rand_dump *d, int64_t t, uint32_t net, char value)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 1024;
        d->e = realloc(d->e, d->cap * sizeof *d->e);
    }
    d->e[d->n] = (rand_event){t, (uint32_t)d->n, net, value};
    d->n++;
}

static int by_time(const void *a, const void *b)
{
    const rand_event *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Net ids: clk, ck0, ck1, pi0.., n0.., po. */
static void rand_net_name(uint32_t id, uint32_t n, uint32_t n_pi, char *buf, size_t size)
{
    static const char *const fixed[] = {"clk", "ck0", "ck1"};
    if (id < 3)
        snprintf(buf, size, "%s", fixed[id]);
    else if (id < 3 + n_pi)
        snprintf(buf, size, "pi%u", id - 3);
    else if (id < 3 + n_pi + n)
        snprintf(buf, size, "n%u", id - 3 - n_pi);
    else
        snprintf(buf, size, "po");
}

/* The clock and its buffered copies (40 and 90 ps later); now and then
 * the clock rises to X, or pulses twice at once as it rises. */
static void add_clocks(rand_dump *d, uint32_t cycles)
{
    for (uint32_t net = 0; net < 3; net++) {
        int64_t skew = net == 0 ? 0 : net == 1 ? 40 : 90;
        dump_add(d, 0, net, '0');
        for (uint32_t c = 0; c < cycles; c++) {
            int64_t rise = (int64_t)c * RAND_PERIOD_PS + RAND_PERIOD_PS / 2 + skew;
            dump_add(d, rise, net, net == 0 && c % 11 == 5 ? 'x' : '1');
            if (net == 0 && c % 13 == 7) {
                dump_add(d, rise, net, '0');
                dump_add(d, rise, net, '1');
            }
            if (c + 1 < cycles)
                dump_add(d, (int64_t)(c + 1) * RAND_PERIOD_PS + skew, net, '0');
        }
    }
}

static char rand_value(rng *r)
{
    return rnd(r, 12) == 0 ? 'x' : rnd(r, 2) ? '1' : '0';
}

/* A net's activity: mostly an initial value at 0; in half the cycles one to
 * four changes (values may repeat); now and then a zero-width pulse. */
static void add_net(rand_dump *d, rng *r, uint32_t net, uint32_t cycles)
{
    if (rnd(r, 10) != 0)
        dump_add(d, 0, net, rand_value(r));
    for (uint32_t c = 0; c < cycles; c++) {
        int64_t start = (int64_t)c * RAND_PERIOD_PS;
        for (uint32_t m = rnd(r, 2) ? 1 + rnd(r, 4) : 0; m > 0; m--)
            dump_add(d, start + 1 + rnd(r, RAND_PERIOD_PS - 1), net, rand_value(r));
        if (rnd(r, 20) == 0) {
            int64_t t = start + 1 + rnd(r, RAND_PERIOD_PS - 1);
            char v = rnd(r, 2) ? '1' : '0';
            dump_add(d, t, net, v);
            dump_add(d, t, net, v == '1' ? '0' : '1');
        }
    }
}

/* Every net but one n-net in 17 (those stay X), in time order. */
static void write_random_vcd(const char *path, rng *r, uint32_t n, uint32_t n_pi, uint32_t cycles)
{
    rand_dump d = {0};
    uint32_t n_nets = 3 + n_pi + n + 1;
    add_clocks(&d, cycles);
    for (uint32_t net = 3; net < n_nets; net++)
        if (net < 3 + n_pi || (net - 3 - n_pi) % 17 != 16)
            add_net(&d, r, net, cycles);
    qsort(d.e, d.n, sizeof *d.e, by_time);
    FILE *f = fopen(path, "w");
    if (f) {
        char name[32];
        fputs("$timescale 1ps $end\n$scope module top $end\n", f);
        for (uint32_t net = 0; net < n_nets; net++) {
            rand_net_name(net, n, n_pi, name, sizeof name);
            fprintf(f, "$var wire 1 %s %s $end\n", name, name);
        }
        fputs("$upscope $end\n$enddefinitions $end\n", f);
        for (size_t i = 0; i < d.n; i++) {
            if (i == 0 || d.e[i].t != d.e[i - 1].t)
                fprintf(f, "#%lld\n", (long long)d.e[i].t);
            rand_net_name(d.e[i].net, n, n_pi, name, sizeof name);
            fprintf(f, "%c%s\n", d.e[i].value, name);
        }
        fprintf(f, "#%lld\n", (long long)cycles * RAND_PERIOD_PS);
        fclose(f);
    }
    free(d.e);
}

/* ---- the power model's rules against the reference's ------------------------- */

/* In state s of instance i (cell c of the model), the model's leakage and
 * energies, with and without SIPL, looked up and from the instance's memo,
 * against the reference's scans of the library's own structures. */
static size_t model_mismatches(const power_model *m, const lib_cell *lc, uint32_t i,
                               const double *memo, uint32_t s)
{
    const power_model_cell *c = &m->cells[m->inst_cell[i]];
    uint32_t pin0 = m->inst_pin0[i];
    double leak = power_ref_leakage(lc, s);
    size_t bad = power_leakage(m, c, power_leakage_table(c), s, true) != leak;
    bad += power_leakage(m, c, power_leakage_table(c), s, false) != leak;
    for (uint32_t p = 0; p < c->n_pins; p++)
        for (uint32_t r = 0; r <= c->n_pins; r++) {
            int32_t related = r == c->n_pins ? -1 : (int32_t)r;
            uint32_t slew_pin = pin0 + (related >= 0 ? (uint32_t)related : p);
            double load = m->cpin_flags[c->pin0 + p] & POWER_PIN_DRIVES ? m->pin_load[pin0 + p]
                                                                         : 0.0;
            for (int rise = 0; rise < 2; rise++) {
                double slew = power_pin_slew(m, slew_pin, rise);
                double e = power_ref_groups_energy(lc, p, related, s, rise, slew, load);
                for (int sipl = 0; sipl < 2; sipl++)
                    for (int memoed = 0; memoed < 2; memoed++) {
                        power_energy_src src =
                            power_source(memoed ? memo : NULL, pin0, p, related, rise, load);
                        bad += power_energy(m, c, p, related, s, rise, sipl, src) != e;
                    }
            }
        }
    return bad;
}

/* Every cell type's rules give, state by state, the reference's leakage
 * and energies; cells over POWER_MODEL_DENSE_PINS pins are scanned. */
static void check_model(const design *dg, const events *ev)
{
    power_options opt = power_defaults();
    opt.period_fs = 10000000;
    power_plan plan;
    power_model m;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(power_plan_make(dg, ev, &opt, &plan, d), GP_OK);
    CHECK(power_model_build(&m, dg, &plan, true));
    bool *seen = calloc(m.n_cells + 1, 1);
    uint32_t most = 1;
    for (uint32_t c = 0; c < m.n_cells; c++)
        most = m.cells[c].memo_size > most ? m.cells[c].memo_size : most;
    double *memo = malloc(most * sizeof *memo);
    size_t bad = 0, dense = 0, scanned = 0;
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        uint32_t ci = m.inst_cell[i];
        const power_model_cell *c = &m.cells[ci];
        if (seen[ci])
            continue;
        seen[ci] = true;
        CHECK_EQ_INT(c->dense, dg->inst_cell[i]->n_pins <= POWER_MODEL_DENSE_PINS);
        dense += c->dense;
        scanned += !c->dense;
        power_memo_fill(&m, i, memo);
        for (uint32_t s = 0; s < (1u << (c->dense ? c->n_pins : 6)); s++)
            bad += model_mismatches(&m, dg->inst_cell[i], i, memo, c->dense ? s : s * 37);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(dense >= 6);
    CHECK_EQ_INT(scanned, 1); /* WIDE */
    free(seen);
    free(memo);
    power_model_free(&m);
    power_plan_free(&plan);
    diag_free(d);
}

/* Random design `seed` of n gates and n_pi inputs over `cycles` cycles
 * into *cc, its dump written at vcd (of vcd_size bytes); false if unread. */
static bool random_case(uint64_t seed, uint32_t n, uint32_t n_pi, uint32_t cycles, cpu_case *cc,
                        char *vcd, size_t vcd_size)
{
    char tag[32], path[256];
    rng r = {seed};
    snprintf(tag, sizeof tag, "rand%llu", (unsigned long long)seed);
    snprintf(path, sizeof path, "%s/%s.v", dir, tag);
    write_random_netlist(path, &r, n, n_pi);
    snprintf(vcd, vcd_size, "%s/%s.vcd", dir, tag);
    write_random_vcd(vcd, &r, n, n_pi, cycles);
    if (!case_read(cc, tag))
        return false;
    CHECK(cc->ev->n_events > (uint64_t)n * cycles / 2);
    return true;
}

static void test_random_design(uint64_t seed, uint32_t n, uint32_t n_pi, uint32_t cycles)
{
    char path[256];
    cpu_case cc;
    if (!random_case(seed, n, n_pi, cycles, &cc, path, sizeof path))
        return;
    check_model(cc.dg, cc.ev);
    compare_options(&cc, 10000000, 12345678, (int64_t)(cycles - 3) * 10000000 + 4321);
    compare_streamed_options(&cc, path, 10000000, cycles);
    compare_in_room_options(&cc, 10000000, cycles);
    case_free(&cc);
}

static void test_random_small(void)
{
    test_random_design(1, 60, 6, 12);
}

static void test_random_large(void)
{
    test_random_design(20261129, 400, 24, 40);
}

/* A long run: the flops' and clock buffers' streams of several thousand
 * events go to the CUDA engine's gate streams in several chunks, and the
 * clocks' epoch index is searched. */
static void test_random_long(void)
{
    char path[256];
    cpu_case cc;
    if (!random_case(7, 40, 4, 2500, &cc, path, sizeof path))
        return;
    compare_options(&cc, 10000000, 12345678, 2497LL * 10000000 + 4321);
    case_free(&cc);
}

int main(void)
{
#ifdef POWER_TEST_CUDA
    if (!cuda_built())
        check_skip("this build has no CUDA (configured with GATEPOWER_CUDA=OFF or without nvcc)");
    if (cuda_device_count() == 0)
        check_skip("no CUDA device on this machine (CI has none): the CUDA engine not compared");
#endif
    if (!mkdtemp(dir))
        return 1;
    diag_ctx *d = diag_new(stderr);
    libs = scratch_libs(dir, "cpu.lib", cpu_lib, d);
    if (lib_library_count(libs) == 1) {
        RUN(test_hand_design);
        RUN(test_random_small);
        RUN(test_random_large);
        RUN(test_random_long);
    }
    lib_set_free(libs);
    diag_free(d);
    if (!scratch_remove(dir))
        return 1;
    return check_exit_code();
}
