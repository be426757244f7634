/* test_resim.c: re-simulation (SPEC §5) on tiny designs whose waveforms are
 * worked out here by hand from the delays of the library below, and its
 * errors, and the SAIF and VCD writers.  Built a second time as
 * test_resim_cuda (RESIM_TEST_CUDA defined, label gpu): every case is also
 * re-simulated on the GPU, whose events and counts must be the CPU's, bit
 * for bit, and whose plan must refuse what resim_run refuses; the CUDA
 * power engine, reading the GPU's events where they lie, must come within
 * 1e-6 of the reference engine on the CPU's.
 *
 * Library time unit 1 ns; dumps are in ps; expected times are in fs.  Every
 * net is X before its first event; a gate output starts with X at the dump's
 * first time (#0). */
#include "check.h"
#include "scratch.h"
#include "report/report.h"
#include "resim/resim.h"
#ifdef RESIM_TEST_CUDA
#include "cuda/cuda_device.h"
#include "cuda/cuda_power.h"
#include "cuda/cuda_resim.h"
#include "power/power.h"
#endif

#include <string.h>
#include <unistd.h>

#define PS 1000 /* fs */

#define SCALAR(table, v) table " (scalar) { values (\"" v "\") ; } "
/* A delay arc with scalar rise and fall delays (ns). */
#define ARC(rel, sense, d_rise, d_fall)                                                    \
    "      timing () { related_pin : \"" rel "\" ; timing_sense : " sense " ;\n        "   \
    SCALAR("cell_rise", d_rise) SCALAR("cell_fall", d_fall)                                \
    SCALAR("rise_transition", "0.1") SCALAR("fall_transition", "0.1") "}\n"
#define IN(p) "    pin (" p ") { direction : input ; capacitance : 0.01 ; }\n"

static const char resim_lib[] =
    "library (resim) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; current_unit : \"1mA\" ; nom_voltage : 1.2 ;\n"
    "  cell (INV) {\n" IN("A")
    "    pin (Y) { direction : output ; function : \"!A\" ;\n"
    ARC("A", "negative_unate", "0.1", "0.2") "} }\n"
    "  cell (BUF) {\n" IN("A")
    "    pin (Y) { direction : output ; function : \"A\" ;\n"
    ARC("A", "positive_unate", "0.3", "0.3") "} }\n"
    "  cell (AND2) {\n" IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"A & B\" ;\n"
    ARC("A", "positive_unate", "0.5", "0.5") ARC("B", "positive_unate", "0.1", "0.1") "} }\n"
    "  cell (XOR2) {\n" IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"A ^ B\" ;\n"
    ARC("A B", "non_unate", "0.1", "0.1") "} }\n"
    "  cell (XORD) {\n" IN("A") IN("B")
    "    pin (Y) { direction : output ; function : \"A ^ B\" ;\n"
    ARC("A", "non_unate", "0.4", "0.4") ARC("B", "non_unate", "0.2", "0.2") "} }\n"
    "  cell (DFF) {\n"
    "    ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CLK\" ; }\n"
    "    pin (CLK) { direction : input ; clock : true ; capacitance : 0.004 ; }\n" IN("D")
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n"
    "      timing () { related_pin : \"CLK\" ; timing_type : rising_edge ;\n        "
    SCALAR("cell_rise", "0.3") SCALAR("cell_fall", "0.4")
    SCALAR("rise_transition", "0.1") SCALAR("fall_transition", "0.1") "} } }\n"
    "}\n";

static char dir[] = "/tmp/gp_test_resim_XXXXXX";
static lib_set *libs;

typedef struct sim_case {
    design *dg;
    events *dump, *full;
    resim_stats stats;
    gp_status status;
    diag_ctx *d;
    uint8_t *net_bound; /* the nets the dump gives */
    int spans_cut;      /* check_spans' spans that started after the dump's start */
} sim_case;

static bool same_events(const events *a, const events *b)
{
    return a && b && a->n_nets == b->n_nets && a->n_events == b->n_events &&
           a->end_fs == b->end_fs &&
           memcmp(a->net_ev0, b->net_ev0, (a->n_nets + 1) * sizeof *a->net_ev0) == 0 &&
           memcmp(a->word, b->word, a->n_events * sizeof *a->word) == 0;
}

/* Re-simulating on 1, 2 and 3 threads gives sc->full (from every core)
 * exactly, and the same statistics. */
static void check_threads(const sim_case *sc)
{
    for (uint32_t threads = 1; threads <= 3; threads++) {
        resim_options opt = resim_defaults();
        opt.threads = threads;
        opt.net_bound = sc->net_bound;
        events *full = NULL;
        resim_stats stats;
        CHECK_EQ_INT(resim_run(sc->dg, sc->dump, &opt, &full, &stats, sc->d), GP_OK);
        CHECK(same_events(full, sc->full));
        CHECK(memcmp(&stats, &sc->stats, sizeof stats) == 0);
        events_free(full);
    }
}

/* sc's plan (resim_plan_make, what the GPU simulates), its messages
 * dropped. */
static gp_status make_plan(const sim_case *sc, resim_plan *plan, resim_stats *stats)
{
    resim_options opt = resim_defaults();
    opt.net_bound = sc->net_bound;
    diag_ctx *quiet = diag_new(NULL);
    gp_status st = resim_plan_make(sc->dg, sc->dump, &opt, plan, stats, quiet);
    diag_free(quiet);
    return st;
}

/* The plan of sc: each fixed
 * net's waveform is resim_run's, cut at the dump's end as resim_run cuts;
 * the gates are the gate outputs, level by level, each on the net it
 * drives, its inputs on its pins' nets. */
static void check_plan(const sim_case *sc)
{
    resim_plan plan;
    resim_stats stats;
    CHECK_EQ_INT(make_plan(sc, &plan, &stats), GP_OK);
    const events *fx = plan.fixed, *full = sc->full;
    CHECK_EQ_INT(plan.n_gates, sc->stats.gates);
    CHECK_EQ_INT(stats.registers, sc->stats.registers);
    CHECK_EQ_INT(stats.events_in, sc->stats.events_in);
    for (uint32_t n = 0; fx && n < fx->n_nets; n++) {
        uint64_t k0 = fx->net_ev0[n], count = fx->net_ev0[n + 1] - k0;
        if (count == 0)
            continue; /* a gate's output */
        while (count > 1 && events_time(fx, k0 + count - 1) > fx->end_fs)
            count--;
        CHECK_EQ_INT(count, full->net_ev0[n + 1] - full->net_ev0[n]);
        CHECK(memcmp(fx->word + k0, full->word + full->net_ev0[n], count * 8) == 0);
    }
    for (uint32_t l = 0; l < plan.n_levels; l++)
        for (uint32_t j = plan.level_gate0[l]; j < plan.level_gate0[l + 1]; j++) {
            const resim_plan_gate *g = &plan.gates[j];
            uint32_t drv = sc->dg->net_driver[g->net], inst = sc->dg->pin_inst[drv];
            CHECK_EQ_INT(sc->dg->inst_level[inst], l + 1);
            CHECK_EQ_INT(fx->net_ev0[g->net + 1] - fx->net_ev0[g->net], 0);
            for (uint32_t k = 0; k < g->n_inputs; k++)
                CHECK_EQ_INT(plan.inputs[g->in0 + k].net,
                             sc->dg->pin_net[sc->dg->inst_pin0[inst] + k]);
        }
    resim_plan_free(&plan);
}

#ifdef RESIM_TEST_CUDA
/* The ways the GPU cuts the work, all of which must give the same events:
 * the default windows, one window a gate, and windows of 1 and 3 input
 * events (every change near a window's edge), in both register budgets,
 * of equal spans and cut at even events (windows of 1: many of no span,
 * where inputs change together). */
static const cuda_resim_options cuda_variants[] = {
    {0, CUDA_RESIM_WINDOW_EVENTS, false, false}, {0, CUDA_RESIM_WINDOW_EVENTS, true, false},
    {0, CUDA_RESIM_WINDOW_EVENTS, true, true}, {0, 0, false, false}, {0, 1, false, false},
    {0, 1, true, true}, {0, 3, true, false}, {0, 3, false, true},
};

/* The CUDA power engine's kernel variants on the GPU's events where the
 * levels left them (each net's a range, out of net order), against the
 * reference engine on the CPU's events: every instance's and cycle's
 * components within 1e-6. */
static void check_cuda_power(const sim_case *sc, const resim_plan *plan, const cuda_events *dev)
{
    static const char *const variants[] = {"naive", "sipl+part+fusion+memo", "sipl+fusion",
                                           "fused"};
    power_options opt = power_defaults();
    opt.period_fs = 1000 * PS;
    power_result *ref = NULL;
    cuda_power_session *s = NULL;
    CHECK_EQ_INT(power_analyze_ref(sc->dg, sc->full, &opt, &ref, sc->d), GP_OK);
    CHECK_EQ_INT(cuda_power_open_resident(sc->dg, plan->fixed, dev, &opt, &s, NULL, sc->d), GP_OK);
    for (size_t v = 0; ref && s && v < sizeof variants / sizeof *variants; v++) {
        cuda_power_options co = cuda_power_defaults();
        power_result *got = NULL;
        CHECK_EQ_INT(cuda_power_parse_variant(variants[v], &co, sc->d), GP_OK);
        CHECK_EQ_INT(cuda_power_run(s, &co, &got, NULL, sc->d), GP_OK);
        if (!got)
            continue;
        CHECK_EQ_INT(got->events_used, ref->events_used);
        CHECK_EQ_INT(got->n_cycles, ref->n_cycles);
        for (size_t i = 0; i < (size_t)ref->n_insts * POWER_COMPONENTS; i++)
            CHECK_NEAR_REL(got->inst_energy[i], ref->inst_energy[i], 1e-6);
        for (size_t i = 0; got->n_cycles == ref->n_cycles &&
                           i < (size_t)ref->n_cycles * POWER_COMPONENTS; i++)
            CHECK_NEAR_REL(got->bin_energy[i], ref->bin_energy[i], 1e-6);
        power_result_free(got);
    }
    cuda_power_close(s);
    power_result_free(ref);
}

/* The GPU re-simulation of sc in every variant: sc->full and sc->stats
 * exactly, or, where resim_run refused, the plan's refusal with the same
 * status; the power on the default variant's events. */
static void check_cuda(const sim_case *sc)
{
    resim_plan plan;
    resim_stats planned;
    gp_status st = make_plan(sc, &plan, &planned);
    CHECK_EQ_INT(st, sc->status);
    if (st != GP_OK)
        return;
    for (size_t v = 0; v < sizeof cuda_variants / sizeof *cuda_variants; v++) {
        cuda_events *dev = NULL;
        events *full = NULL;
        resim_stats stats = planned;
        CHECK_EQ_INT(cuda_resim_run(&plan, &cuda_variants[v], &dev, &stats, NULL, sc->d), GP_OK);
        if (dev)
            CHECK_EQ_INT(cuda_events_download(dev, &full, sc->d), GP_OK);
        CHECK(same_events(full, sc->full));
        CHECK(memcmp(&stats, &sc->stats, sizeof stats) == 0);
        if (dev && v == 2)
            check_cuda_power(sc, &plan, dev);
        events_free(full);
        cuda_events_free(dev);
    }
    resim_plan_free(&plan);
}
#endif

/* Net n's events in ev from t to until, after its value just before t
 * (X before its first event), the same in a and b. */
static bool same_from(const events *a, const events *b, uint32_t n, int64_t t, int64_t until)
{
    uint64_t ka = events_first_at(a, n, t), kb = events_first_at(b, n, t);
    uint8_t va = ka > a->net_ev0[n] ? events_value(a, ka - 1) : EVENTS_X;
    uint8_t vb = kb > b->net_ev0[n] ? events_value(b, kb - 1) : EVENTS_X;
    if (va != vb)
        return false;
    for (; ka < a->net_ev0[n + 1] && events_time(a, ka) < until; ka++, kb++)
        if (kb == b->net_ev0[n + 1] || a->word[ka] != b->word[kb])
            return false;
    return kb == b->net_ev0[n + 1] || events_time(b, kb) >= until;
}

/* A plan of the whole of sc's dump moved to opt's part of it is the plan
 * made there: the same start (the span's), fixed nets' events and
 * statistics. */
static void check_moved_plan(const sim_case *sc, const resim_options *opt)
{
    resim_options whole = *opt;
    whole.exact_from_fs = INT64_MIN, whole.until_fs = INT64_MAX;
    resim_plan moved, made;
    resim_stats moved_stats, made_stats;
    diag_ctx *quiet = diag_new(NULL);
    CHECK_EQ_INT(resim_plan_make(sc->dg, sc->dump, &whole, &moved, &moved_stats, quiet), GP_OK);
    CHECK_EQ_INT(resim_plan_move(sc->dg, sc->dump, opt, &moved, &moved_stats, quiet), GP_OK);
    CHECK_EQ_INT(resim_plan_make(sc->dg, sc->dump, opt, &made, &made_stats, quiet), GP_OK);
    CHECK_EQ_INT(moved.t0, made.t0);
    CHECK_EQ_INT(made.t0, made_stats.start_fs);
    CHECK(memcmp(&moved_stats, &made_stats, sizeof made_stats) == 0);
    CHECK(moved.fixed && made.fixed && same_events(moved.fixed, made.fixed));
    CHECK_EQ_INT(moved.n_gates, made.n_gates);
    resim_plan_free(&moved);
    resim_plan_free(&made);
    diag_free(quiet);
}

/* A re-simulation of [from, until) of sc's dump (a rank's share) and,
 * under RESIM_TEST_CUDA, the GPU's of its plan; the number of spans
 * whose gates started after the dump's start (a warm-up, not the whole
 * dump) is added to *cut. */
static void check_span(const sim_case *sc, int64_t from, int64_t until, int *cut)
{
    resim_options opt = resim_defaults();
    opt.net_bound = sc->net_bound;
    opt.exact_from_fs = from;
    opt.until_fs = until;
    events *part = NULL;
    resim_stats stats;
    CHECK_EQ_INT(resim_run(sc->dg, sc->dump, &opt, &part, &stats, sc->d), GP_OK);
    *cut += stats.start_fs > events_first_time(sc->dump, 0);
    CHECK(stats.start_fs < from);
    for (uint32_t n = 0; part && n < sc->dg->n_nets; n++)
        CHECK(same_from(sc->full, part, n, from, until));
    check_moved_plan(sc, &opt);
#ifdef RESIM_TEST_CUDA
    resim_plan plan;
    diag_ctx *quiet = diag_new(NULL);
    CHECK_EQ_INT(resim_plan_make(sc->dg, sc->dump, &opt, &plan, &stats, quiet), GP_OK);
    CHECK_EQ_INT(plan.t0, stats.start_fs);
    cuda_events *dev = NULL;
    events *full = NULL;
    CHECK_EQ_INT(cuda_resim_run(&plan, &cuda_variants[0], &dev, &stats, NULL, sc->d), GP_OK);
    if (dev)
        CHECK_EQ_INT(cuda_events_download(dev, &full, sc->d), GP_OK);
    CHECK(same_events(full, part));
    events_free(full);
    cuda_events_free(dev);
    resim_plan_free(&plan);
    diag_free(quiet);
#endif
    events_free(part);
}

/* Spans of sc's dump starting at each eighth of it, to the next eighth or
 * to the end: the events of each from its start on are the whole run's;
 * returns how many started after the dump's start. */
static int check_spans(const sim_case *sc)
{
    int64_t t0 = events_first_time(sc->dump, 0), length = sc->dump->end_fs - t0;
    int cut = 0;
    for (int k = 1; k < 8; k++) {
        int64_t from = t0 + length * k / 8;
        check_span(sc, from, k % 2 ? from + length / 8 : INT64_MAX, &cut);
    }
    return cut;
}

/* events_options.bound: which nets the dump gives, kept for resim. */
static gp_status keep_bound(void *ctx, const uint8_t *net_bound, const events_stats *stats)
{
    sim_case *sc = ctx;
    (void)stats;
    sc->net_bound = malloc(sc->dg->n_nets ? sc->dg->n_nets : 1);
    if (sc->net_bound)
        memcpy(sc->net_bound, net_bound, sc->dg->n_nets);
    return GP_OK;
}

/* Reads `netlist` (module top), the SDF text `sdf` unless NULL, and the
 * dump, then re-simulates (and again on 1, 2, 3 threads when that works). */
static bool sim(sim_case *sc, const char *sdf, const char *tag, const char *netlist,
                const char *vars, const char *body)
{
    char name[64], net_path[256], vcd_path[256];
    memset(sc, 0, sizeof *sc);
    sc->d = diag_new(NULL);
    snprintf(name, sizeof name, "%s.v", tag);
    const char *paths[] = {scratch_write(dir, name, netlist, net_path, sizeof net_path)};
    CHECK_EQ_INT(design_read_netlist(&sc->dg, libs, paths, 1, "top", sc->d), GP_OK);
    if (sc->dg && sdf) {
        design_sdf_stats st;
        snprintf(name, sizeof name, "%s.sdf", tag);
        CHECK_EQ_INT(design_read_sdf(sc->dg, scratch_write(dir, name, sdf, net_path, sizeof net_path),
                                     &st, sc->d), GP_OK);
    }
    snprintf(vcd_path, sizeof vcd_path, "%s/%s.vcd", dir, tag);
    scratch_write_vcd(vcd_path, vars, body);
    events_options eo = {.scope = "top", .bound = keep_bound, .bound_ctx = sc};
    events_stats st;
    if (!sc->dg || events_read(sc->dg, vcd_path, &eo, &sc->dump, &st, sc->d) != GP_OK)
        return false;
    resim_options opt = resim_defaults();
    opt.net_bound = sc->net_bound;
    sc->status = resim_run(sc->dg, sc->dump, &opt, &sc->full, &sc->stats, sc->d);
    if (sc->status == GP_OK) {
        check_threads(sc);
        check_plan(sc);
        sc->spans_cut = check_spans(sc);
    }
#ifdef RESIM_TEST_CUDA
    check_cuda(sc);
#endif
    return true;
}

static void sim_free(sim_case *sc)
{
    free(sc->net_bound);
    events_free(sc->full);
    events_free(sc->dump);
    design_free(sc->dg);
    diag_free(sc->d);
}

/* Checks net `name`'s events against "T:V T:V ..." (T in ps, V 0 1 x). */
static void expect_net(const sim_case *sc, const char *name, const char *expected)
{
    uint32_t n = design_find_net(sc->dg, name);
    CHECK(n != DESIGN_NONE);
    if (n == DESIGN_NONE || !sc->full)
        return;
    char got[512] = "";
    for (uint64_t k = sc->full->net_ev0[n]; k < sc->full->net_ev0[n + 1]; k++) {
        size_t len = strlen(got);
        CHECK_EQ_INT(events_time(sc->full, k) % PS, 0);
        snprintf(got + len, sizeof got - len, "%s%lld:%c", len ? " " : "",
                 (long long)(events_time(sc->full, k) / PS), "01x"[events_value(sc->full, k)]);
    }
    CHECK_EQ_STR(got, expected);
}

static const char chain_v[] =
    "module top (in, out);\n input in; output out; wire n1;\n"
    " INV u1 (.A(in), .Y(n1));\n INV u2 (.A(n1), .Y(out));\nendmodule\n";

/* INV: rise 100 ps, fall 200 ps.  in: 0 at 0, 1 at 1000, 0 at 5000.
 * n1 = !in: X->1 at 0+100; falls at 1000+200; rises at 5000+100.
 * out = !n1: falls at 100+200; rises at 1200+100; falls at 5100+200. */
static void test_inverter_chain(void)
{
    sim_case sc;
    if (sim(&sc, NULL, "chain", chain_v, "in", "#0\n0in\n#1000\n1in\n#5000\n0in\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "in", "0:0 1000:1 5000:0");
        expect_net(&sc, "n1", "0:x 100:1 1200:0 5100:1");
        expect_net(&sc, "out", "0:x 300:0 1300:1 5300:0");
        CHECK_EQ_INT(sc.stats.gates, 2);
        CHECK_EQ_INT(sc.full->end_fs, 9000 * PS);
        CHECK_EQ_INT(diag_count_of(sc.d, 9007), 0);
    }
    sim_free(&sc);
}

/* A full-net dump: the gates' outputs in it are recomputed, and a warning
 * says their dumped activity is not used. */
static void test_dumped_gate_outputs_are_recomputed(void)
{
    sim_case sc;
    if (sim(&sc, NULL, "chainfull", chain_v, "in n1", "#0\n0in\n1n1\n#1000\n1in\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "n1", "0:x 100:1 1200:0");
        CHECK(diag_count_of(sc.d, 9007) >= 1); /* once a run: sim also runs it on threads */
    }
    sim_free(&sc);
}

/* The chain with SDF: u1's IOPATH rise 500 ps, fall 400 ps; the wire u1/Y ->
 * u2/A 10 ps for a rise, 20 ps for a fall; u2 keeps the library's delays.
 * n1: 1 at 0+500, 0 at 1000+400, 1 at 5000+500; u2/A sees them 10 / 20 ps
 * later (510, 1420, 5510), so out falls at 510+200, rises at 1420+100,
 * falls at 5510+200. */
static void test_sdf_delays(void)
{
    static const char sdf[] =
        "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"top\") (DIVIDER /) (TIMESCALE 1ns)\n"
        " (CELL (CELLTYPE \"top\") (INSTANCE)\n"
        "  (DELAY (ABSOLUTE (INTERCONNECT u1/Y u2/A (0.01) (0.02)))))\n"
        " (CELL (CELLTYPE \"INV\") (INSTANCE u1) (DELAY (ABSOLUTE (IOPATH A Y (0.5) (0.4)))))\n"
        ")\n";
    sim_case sc;
    if (sim(&sc, sdf, "sdf", chain_v, "in", "#0\n0in\n#1000\n1in\n#5000\n0in\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "n1", "0:x 500:1 1400:0 5500:1");
        expect_net(&sc, "out", "0:x 710:0 1520:1 5710:0");
    }
    sim_free(&sc);
}

/* The chain with a wire u1/Y -> u2/A of 500 ps for a rise, 50 ps for a
 * fall.  in: 1 at 0, 0 at 1000, 1 at 1300, 0 at 3000, 1 at 5000; n1 (INV:
 * rise 100, fall 200): 0 at 200, 1 at 1100, 0 at 1500, 1 at 3100, 0 at 5200.
 * At u2/A the fall of 1500 arrives at 1550, before the rise of 1100 (at
 * 1600): a negative pulse, cancelled (IEEE 1364), so u2/A sees 0 at 250, 1
 * at 3600, 0 at 5250, and out (INV) rises at 350, falls at 3800, rises at
 * 5350: eight wake-ups in all, none swallowed. */
static void test_negative_pulse_cancelled(void)
{
    static const char sdf[] =
        "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"top\") (DIVIDER /) (TIMESCALE 1ns)\n"
        " (CELL (CELLTYPE \"top\") (INSTANCE)\n"
        "  (DELAY (ABSOLUTE (INTERCONNECT u1/Y u2/A (0.5) (0.05)))))\n"
        ")\n";
    sim_case sc;
    if (sim(&sc, sdf, "negative", chain_v, "in",
            "#0\n1in\n#1000\n0in\n#1300\n1in\n#3000\n0in\n#5000\n1in\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "n1", "0:x 200:0 1100:1 1500:0 3100:1 5200:0");
        expect_net(&sc, "out", "0:x 350:1 3800:0 5350:1");
        CHECK_EQ_INT(sc.stats.wakeups, 8);
        CHECK_EQ_INT(sc.stats.swallowed, 0);
    }
    sim_free(&sc);
}

/* XOR2 (100 ps) of in and BUF(in) (300 ps): in rises at 1000, the direct
 * input reaches the XOR at once (Y rises at 1100), the buffered one at 1300
 * (Y falls at 1400): a 300 ps glitch.  At 0 B is X until 300, so Y is X until
 * B settles: 0 at 300 + 100. */
static void test_two_path_glitch(void)
{
    static const char v[] =
        "module top (in, y);\n input in; output y; wire b;\n"
        " BUF u1 (.A(in), .Y(b));\n XOR2 u2 (.A(in), .B(b), .Y(y));\nendmodule\n";
    sim_case sc;
    if (sim(&sc, NULL, "glitch", v, "in", "#0\n0in\n#1000\n1in\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "b", "0:x 300:0 1300:1");
        expect_net(&sc, "y", "0:x 400:0 1100:1 1400:0");
    }
    sim_free(&sc);
}

/* BUF (300 ps) with a 100 ps input pulse at 1000: the rise scheduled for
 * 1300 finds the input back at 0 (the fall scheduled for 1400 too): both
 * wake-ups are swallowed and the output stays 0. */
static void test_inertial_swallow(void)
{
    static const char v[] =
        "module top (in, y);\n input in; output y;\n BUF u1 (.A(in), .Y(y));\nendmodule\n";
    sim_case sc;
    if (sim(&sc, NULL, "swallow", v, "in", "#0\n0in\n#1000\n1in\n#1100\n0in\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "y", "0:x 300:0");
        CHECK_EQ_INT(sc.stats.wakeups, 3);
        CHECK_EQ_INT(sc.stats.swallowed, 2);
    }
    sim_free(&sc);
}

/* BUF (300 ps) under a burst: the input toggles every 10 ps from 1000 to
 * 1390 (40 changes, first to 1, last to 0), so 30 wake-ups are pending at
 * once (the GPU's ring holds fewer).  The wake-up at 1300 + 10 j puts the
 * value the input had just before 1300 + 10 j: change 29 + j's (j < 11),
 * so y follows the input's changes 30 .. 39 at 1310 .. 1400, and every
 * other wake-up finds y unchanged. */
static void test_many_pending(void)
{
    static const char v[] =
        "module top (in, y);\n input in; output y;\n BUF u1 (.A(in), .Y(y));\nendmodule\n";
    char body[1024];
    size_t len = (size_t)snprintf(body, sizeof body, "#0\n0in\n");
    for (int i = 0; i < 40; i++)
        len += (size_t)snprintf(body + len, sizeof body - len, "#%d\n%din\n", 1000 + 10 * i,
                                i % 2 == 0);
    snprintf(body + len, sizeof body - len, "#9000\n");
    sim_case sc;
    if (sim(&sc, NULL, "pending_many", v, "in", body)) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "y", "0:x 300:0 1310:1 1320:0 1330:1 1340:0 1350:1 1360:0 1370:1 "
                             "1380:0 1390:1 1400:0");
        CHECK_EQ_INT(sc.stats.wakeups, 41);
        CHECK_EQ_INT(sc.stats.swallowed, 30);
    }
    sim_free(&sc);
}

/* XORD: A->Y 400 ps, B->Y 200 ps.  A=B=0 at 0: Y 0 at 0 + 200 (the smaller
 * of the two inputs that changed).  A rises at 1000: Y=1 due at 1400.  B
 * rises at 1100: Y=0 due at 1300.  B falls at 1250: Y=1 due at 1450.  The
 * wake-up at 1300 puts the newest value, 1, on the net: a pending update
 * keeps its time (Icarus's rule; textbook inertial delay gives 1450). */
static void test_pending_keeps_time(void)
{
    static const char v[] =
        "module top (a, b, y);\n input a, b; output y;\n"
        " XORD u1 (.A(a), .B(b), .Y(y));\nendmodule\n";
    sim_case sc;
    if (sim(&sc, NULL, "pending", v, "a b", "#0\n0a\n0b\n#1000\n1a\n#1100\n1b\n#1250\n0b\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "y", "0:x 200:0 1300:1");
    }
    sim_free(&sc);
}

/* AND2: A->Y 500 ps, B->Y 100 ps.  At 0 A=1 B=0: Y 0 at 0 + 100.  At 1000 A
 * falls and B rises together: evaluated once, Y stays 0 (no intermediate
 * 1).  At 2000 both rise: Y rises after the smaller delay, at 2100. */
static void test_simultaneous_inputs(void)
{
    static const char v[] =
        "module top (a, b, y);\n input a, b; output y;\n"
        " AND2 u1 (.A(a), .B(b), .Y(y));\nendmodule\n";
    sim_case sc;
    if (sim(&sc, NULL, "msi", v, "a b",
            "#0\n1a\n0b\n#1000\n0a\n1b\n#1500\n0b\n#2000\n1a\n1b\n#9000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "y", "0:x 100:0 2100:1");
    }
    sim_free(&sc);
}

static const char reg_v[] =
    "module top (clk, d, nq);\n input clk, d; output nq; wire q;\n"
    " DFF r1 (.CLK(clk), .D(d), .Q(q));\n INV u1 (.A(q), .Y(nq));\nendmodule\n";

/* The dump's q changes at the clock edges; re-simulated, q falls 400 ps and
 * rises 300 ps after them (clock-to-Q), and nq follows by the INV. */
static void test_register_shift(void)
{
    sim_case sc;
    if (sim(&sc, NULL, "reg", reg_v, "clk d q",
            "#0\n0clk\n0d\nxq\n#5000\n1clk\n0q\n#10000\n0clk\n1d\n#15000\n1clk\n1q\n#20000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "q", "0:x 5400:0 15300:1");
        expect_net(&sc, "nq", "0:x 5500:1 15500:0");
        expect_net(&sc, "clk", "0:0 5000:1 10000:0 15000:1");
        CHECK_EQ_INT(sc.stats.registers, 1);
    }
    sim_free(&sc);
}

/* Without q in the dump the register's output is unknown: an error naming
 * the net and the flop. */
static void test_missing_register(void)
{
    sim_case sc;
    if (sim(&sc, NULL, "noreg", reg_v, "clk d", "#0\n0clk\n0d\n#5000\n1clk\n#10000\n")) {
        CHECK_EQ_INT(sc.status, GP_ERR_INPUT);
        CHECK_EQ_INT(diag_first_error_no(sc.d), 9001);
        CHECK(strstr(diag_first_error_text(sc.d), "'q'") != NULL);
        CHECK(strstr(diag_first_error_text(sc.d), "'r1'") != NULL);
        CHECK(sc.full == NULL);
    }
    sim_free(&sc);
}

/* A register the dump holds at x throughout has no events: it is x, not
 * missing (picorv32's never-written registers). */
static void test_register_x_throughout(void)
{
    sim_case sc;
    if (sim(&sc, NULL, "regx", reg_v, "clk d q", "#0\n0clk\n0d\nxq\n#5000\n1clk\n#10000\n")) {
        CHECK_EQ_INT(sc.status, GP_OK);
        expect_net(&sc, "q", "0:x");
        expect_net(&sc, "nq", "0:x");
    }
    sim_free(&sc);
}

static void test_missing_input(void)
{
    sim_case sc;
    if (sim(&sc, NULL, "noin", chain_v, "other", "#0\n0other\n#1000\n")) {
        CHECK_EQ_INT(sc.status, GP_ERR_INPUT);
        CHECK_EQ_INT(diag_first_error_no(sc.d), 9004);
        CHECK(strstr(diag_first_error_text(sc.d), "'in'") != NULL);
    }
    sim_free(&sc);
}

static void test_combinational_loop(void)
{
    static const char v[] =
        "module top (in, y);\n input in; output y; wire n2;\n"
        " AND2 u1 (.A(in), .B(n2), .Y(y));\n INV u2 (.A(y), .Y(n2));\nendmodule\n";
    sim_case sc;
    if (sim(&sc, NULL, "loop", v, "in", "#0\n0in\n#1000\n")) {
        CHECK(sc.dg->n_loop_insts > 0);
        CHECK_EQ_INT(sc.status, GP_ERR_INPUT);
        CHECK_EQ_INT(diag_first_error_no(sc.d), 9002);
    }
    sim_free(&sc);
}

/* Reads a whole file into buf. */
static void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* SAIF of the inverter chain over [0, 9000 ps): n1 is X for 100 ps, 1 for
 * 1100, 0 for 3900, 1 for 3900; two 0<->1 changes (X->1 is none). */
static void test_saif(void)
{
    sim_case sc;
    char path[256], text[8192];
    snprintf(path, sizeof path, "%s/chain.saif", dir);
    if (sim(&sc, NULL, "saif", chain_v, "in", "#0\n0in\n#1000\n1in\n#5000\n0in\n#9000\n")) {
        report_saif_info info = {.design = "top", .scope = "tb/dut", .program = "test"};
        CHECK_EQ_INT(report_write_events_saif(path, sc.dg, sc.full, &info, sc.d), GP_OK);
        slurp(path, text, sizeof text);
        CHECK(strstr(text, "(SAIFVERSION \"2.0\")") != NULL);
        CHECK(strstr(text, "(DIRECTION \"backward\")") != NULL);
        CHECK(strstr(text, "(TIMESCALE 1 fs)") != NULL);
        CHECK(strstr(text, "(DURATION 9000000)") != NULL);
        CHECK(strstr(text, "(INSTANCE tb\n(INSTANCE dut\n") != NULL);
        CHECK(strstr(text, "(n1 (T0 3900000) (T1 5000000) (TX 100000) (TC 2) (IG 0))") != NULL);
        CHECK(strstr(text, "(in (T0 5000000) (T1 4000000) (TX 0) (TC 2) (IG 0))") != NULL);
        char tmp[300]; /* written under a temporary name, then renamed */
        snprintf(tmp, sizeof tmp, "%s/.gatepower-tmp.chain.saif", dir);
        CHECK(access(tmp, F_OK) != 0);
    }
    sim_free(&sc);
}

/* The VCD written and read back gives the same events, net by net, except
 * a leading X (the reader keeps no initial X: every net is X before its
 * first event anyway). */
static void test_vcd_round_trip(void)
{
    sim_case sc;
    char path[256];
    snprintf(path, sizeof path, "%s/glitch_out.vcd", dir);
    static const char v[] =
        "module top (in, y);\n input in; output y; wire b;\n"
        " BUF u1 (.A(in), .Y(b));\n XOR2 u2 (.A(in), .B(b), .Y(y));\nendmodule\n";
    if (sim(&sc, NULL, "vcdout", v, "in", "#0\n0in\n#1000\n1in\n#9000\n")) {
        CHECK_EQ_INT(report_write_events_vcd(path, sc.dg, sc.full, "tb/dut", sc.d), GP_OK);
        events *back = NULL;
        events_options eo = {.scope = "tb/dut"};
        events_stats st;
        CHECK_EQ_INT(events_read(sc.dg, path, &eo, &back, &st, sc.d), GP_OK);
        for (uint32_t n = 0; back && n < sc.dg->n_nets; n++) {
            uint64_t k = sc.full->net_ev0[n], j = back->net_ev0[n];
            k += events_value(sc.full, k) == EVENTS_X && events_value(back, j) != EVENTS_X;
            CHECK_EQ_INT(back->net_ev0[n + 1] - j, sc.full->net_ev0[n + 1] - k);
            for (; k < sc.full->net_ev0[n + 1] && j < back->net_ev0[n + 1]; k++, j++) {
                CHECK_EQ_INT(events_time(back, j), events_time(sc.full, k));
                CHECK_EQ_INT(events_value(back, j), events_value(sc.full, k));
            }
        }
        CHECK(back && back->end_fs == 9000 * PS);
        events_free(back);
    }
    sim_free(&sc);
}

static void test_unwritable_output(void)
{
    sim_case sc;
    if (sim(&sc, NULL, "unwritable", chain_v, "in", "#0\n0in\n#1000\n")) {
        report_saif_info info = {0};
        CHECK_EQ_INT(report_write_events_saif("/nonexistent/x.saif", sc.dg, sc.full, &info, sc.d),
                     GP_ERR_IO);
        CHECK_EQ_INT(diag_first_error_no(sc.d), 9010);
        CHECK_EQ_INT(report_write_events_vcd("/nonexistent/x.vcd", sc.dg, sc.full, NULL, sc.d),
                     GP_ERR_IO);
        CHECK_EQ_INT(diag_count_of(sc.d, 9013), 1);
    }
    sim_free(&sc);
}

/* A fixed pseudo-random sequence (an LCG), the same on every run. */
static uint32_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*state >> 33);
}

#define RANDOM_INPUTS 12
#define RANDOM_REGS 6
#define RANDOM_GATES 400

/* Appends to sdf (unless NULL) the wire from `from` (a pin path) to gate
 * g's pin, 0 to 800 ps, rise and fall mostly different. */
static void random_wire(char *sdf, size_t size, const char *from, int g, char pin,
                        uint64_t *seed)
{
    if (!sdf)
        return;
    size_t len = strlen(sdf);
    uint32_t rise = next_random(seed) % 801, fall = next_random(seed) % 801;
    snprintf(sdf + len, size - len, "  (INTERCONNECT %s u%d/%c (0.%03u) (0.%03u))\n", from, g,
             pin, rise, fall);
}

/* A random netlist: RANDOM_GATES gates of the library's cells, each input
 * from a primary input, a register output or an earlier gate; and, when
 * sdf is not NULL, an SDF of INTERCONNECT delays on the wires from gates
 * and registers (sdf_size bytes). */
static void random_netlist(char *v, size_t size, char *sdf, size_t sdf_size, uint64_t *seed)
{
    static const char *const cells[] = {"INV", "BUF", "AND2", "XOR2", "XORD"};
    size_t len = (size_t)snprintf(v, size, "module top (clk");
    if (sdf)
        snprintf(sdf, sdf_size, "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"top\") (DIVIDER /) "
                 "(TIMESCALE 1ns)\n (CELL (CELLTYPE \"top\") (INSTANCE) (DELAY (ABSOLUTE\n");
    for (int k = 0; k < RANDOM_INPUTS; k++)
        len += (size_t)snprintf(v + len, size - len, ", i%d", k);
    len += (size_t)snprintf(v + len, size - len, ");\n input clk;\n");
    for (int k = 0; k < RANDOM_INPUTS; k++)
        len += (size_t)snprintf(v + len, size - len, " input i%d;\n", k);
    for (int k = 0; k < RANDOM_REGS; k++)
        len += (size_t)snprintf(v + len, size - len, " wire q%d;\n", k);
    for (int g = 0; g < RANDOM_GATES; g++) {
        char in[2][16], driver[2][16];
        for (int p = 0; p < 2; p++) {
            uint32_t pick = next_random(seed) % (RANDOM_INPUTS + RANDOM_REGS + (uint32_t)g);
            driver[p][0] = 0;
            if (pick < RANDOM_INPUTS) {
                snprintf(in[p], sizeof in[p], "i%u", pick);
            } else if (pick < RANDOM_INPUTS + RANDOM_REGS) {
                snprintf(in[p], sizeof in[p], "q%u", pick - RANDOM_INPUTS);
                snprintf(driver[p], sizeof driver[p], "r%u/Q", pick - RANDOM_INPUTS);
            } else {
                snprintf(in[p], sizeof in[p], "g%u", pick - RANDOM_INPUTS - RANDOM_REGS);
                snprintf(driver[p], sizeof driver[p], "u%u/Y", pick - RANDOM_INPUTS - RANDOM_REGS);
            }
        }
        uint32_t cell = next_random(seed) % 5;
        len += (size_t)snprintf(v + len, size - len, " wire g%d;\n %s u%d (.A(%s), ", g,
                                cells[cell], g, in[0]);
        if (cell >= 2)
            len += (size_t)snprintf(v + len, size - len, ".B(%s), ", in[1]);
        len += (size_t)snprintf(v + len, size - len, ".Y(g%d));\n", g);
        for (int p = 0; p < (cell >= 2 ? 2 : 1); p++)
            if (driver[p][0])
                random_wire(sdf, sdf_size, driver[p], g, "AB"[p], seed);
    }
    for (int k = 0; k < RANDOM_REGS; k++)
        len += (size_t)snprintf(v + len, size - len, " DFF r%d (.CLK(clk), .D(g%d), .Q(q%d));\n",
                                k, RANDOM_GATES - 1 - k, k);
    snprintf(v + len, size - len, "endmodule\n");
    if (sdf)
        snprintf(sdf + strlen(sdf), sdf_size - strlen(sdf), " ))))\n");
}

/* Random input and register activity: every 50 to 850 ps a few of them
 * change (sometimes to x). */
static void random_activity(char *body, size_t size, uint64_t *seed)
{
    size_t len = (size_t)snprintf(body, size, "#0\n0clk\n");
    for (int k = 0; k < RANDOM_INPUTS; k++)
        len += (size_t)snprintf(body + len, size - len, "0i%d\n", k);
    for (int k = 0; k < RANDOM_REGS; k++)
        len += (size_t)snprintf(body + len, size - len, "0q%d\n", k);
    long t = 0;
    for (int step = 0; step < 300; step++) {
        t += 50 + next_random(seed) % 800;
        len += (size_t)snprintf(body + len, size - len, "#%ld\n", t);
        for (uint32_t n = 1 + next_random(seed) % 4; n > 0; n--) {
            uint32_t which = next_random(seed) % (RANDOM_INPUTS + RANDOM_REGS);
            char value = "01x"[next_random(seed) % 16 == 0 ? 2 : next_random(seed) % 2];
            if (which < RANDOM_INPUTS)
                len += (size_t)snprintf(body + len, size - len, "%ci%u\n", value, which);
            else
                len += (size_t)snprintf(body + len, size - len, "%cq%u\n", value,
                                        which - RANDOM_INPUTS);
        }
    }
    snprintf(body + len, size - len, "#%ld\n", t + 5000);
}

/* The random design's variables in the dump. */
static void random_vars(char *vars, size_t size)
{
    size_t len = (size_t)snprintf(vars, size, "clk");
    for (int k = 0; k < RANDOM_INPUTS; k++)
        len += (size_t)snprintf(vars + len, size - len, " i%d", k);
    for (int k = 0; k < RANDOM_REGS; k++)
        len += (size_t)snprintf(vars + len, size - len, " q%d", k);
}

/* A random design of a few hundred gates with random activity: the result
 * is the same on 1, 2 and 3 threads (sim checks it) and has every gate. */
static void test_random_design_threads(void)
{
    static char netlist[64 * 1024], body[64 * 1024];
    char vars[256];
    uint64_t seed = 12345;
    random_netlist(netlist, sizeof netlist, NULL, 0, &seed);
    random_activity(body, sizeof body, &seed);
    random_vars(vars, sizeof vars);
    sim_case sc;
    if (sim(&sc, NULL, "random", netlist, vars, body)) {
        CHECK_EQ_INT(sc.status, GP_OK);
        CHECK_EQ_INT(sc.stats.gates, RANDOM_GATES);
        CHECK_EQ_INT(sc.stats.registers, RANDOM_REGS);
        CHECK(sc.stats.wakeups > 1000);
        CHECK(sc.spans_cut > 0);
    }
    sim_free(&sc);
}

/* Whether every net's events in sc's result are in time order. */
static bool time_ordered(const sim_case *sc)
{
    const events *full = sc->full;
    for (uint32_t n = 0; n < full->n_nets; n++)
        for (uint64_t e = full->net_ev0[n] + 1; e < full->net_ev0[n + 1]; e++)
            if (events_time(full, e) < events_time(full, e - 1))
                return false;
    return true;
}

/* Pairs of consecutive events on a gate's input that reach its pin out of
 * order (the second first), over every gate of sc's plan. */
static uint64_t out_of_order_arrivals(const sim_case *sc)
{
    resim_plan plan;
    resim_stats stats;
    uint64_t pairs = 0;
    if (make_plan(sc, &plan, &stats) != GP_OK)
        return 0;
    const events *full = sc->full;
    for (uint32_t k = 0; k < plan.n_inputs; k++) {
        const resim_input *ri = &plan.inputs[k];
        if (ri->net == DESIGN_NONE)
            continue;
        int64_t before = INT64_MIN;
        for (uint64_t e = full->net_ev0[ri->net]; e < full->net_ev0[ri->net + 1]; e++) {
            int64_t at = events_time(full, e) + ri->wire[events_value(full, e)];
            pairs += at < before;
            before = at;
        }
    }
    resim_plan_free(&plan);
    return pairs;
}

/* The random design with wire delays that differ for a rise and a fall by
 * up to 800 ps, longer than many of its pulses: events would reach gate
 * pins out of order; with the overtaken ones cancelled every waveform is in
 * time order; the same on 1, 2 and 3 threads, and (the GPU twin) in every
 * cutting of the windows. */
static void test_random_design_uneven_wires(void)
{
    static char netlist[64 * 1024], body[64 * 1024], sdf[64 * 1024];
    char vars[256];
    uint64_t seed = 6789;
    random_netlist(netlist, sizeof netlist, sdf, sizeof sdf, &seed);
    random_activity(body, sizeof body, &seed);
    random_vars(vars, sizeof vars);
    sim_case sc;
    if (sim(&sc, sdf, "uneven", netlist, vars, body)) {
        CHECK_EQ_INT(sc.status, GP_OK);
        CHECK_EQ_INT(sc.stats.gates, RANDOM_GATES);
        CHECK(sc.spans_cut > 0);
        if (sc.full) {
            CHECK(out_of_order_arrivals(&sc) >= 200);
            CHECK(time_ordered(&sc));
        }
    }
    sim_free(&sc);
}

int main(void)
{
#ifdef RESIM_TEST_CUDA
    if (!cuda_built())
        check_skip("this build has no CUDA (configured with GATEPOWER_CUDA=OFF or without nvcc)");
    if (cuda_device_count() == 0)
        check_skip("no CUDA device on this machine (CI has none): the GPU re-simulation not "
                   "compared");
#endif
    if (!mkdtemp(dir))
        return 1;
    diag_ctx *d = diag_new(stderr);
    libs = scratch_libs(dir, "resim.lib", resim_lib, d);
    if (lib_library_count(libs) == 1) {
        RUN(test_inverter_chain);
        RUN(test_dumped_gate_outputs_are_recomputed);
        RUN(test_sdf_delays);
        RUN(test_negative_pulse_cancelled);
        RUN(test_two_path_glitch);
        RUN(test_inertial_swallow);
        RUN(test_pending_keeps_time);
        RUN(test_many_pending);
        RUN(test_simultaneous_inputs);
        RUN(test_register_shift);
        RUN(test_missing_register);
        RUN(test_register_x_throughout);
        RUN(test_missing_input);
        RUN(test_combinational_loop);
        RUN(test_saif);
        RUN(test_vcd_round_trip);
        RUN(test_unwritable_output);
        RUN(test_random_design_threads);
        RUN(test_random_design_uneven_wires);
    }
    lib_set_free(libs);
    diag_free(d);
    if (!scratch_remove(dir))
        return 1;
    return check_exit_code();
}
