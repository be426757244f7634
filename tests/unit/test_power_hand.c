/* test_power_hand.c: acceptance tests of the reference time-based power
 * engine (SPEC §3 and the rules of docs/model.md) on tiny designs whose
 * expected energies are worked out here, by hand, from the library below.
 *
 * Library units: 1 ns, 1 pF, 1 V, 1 nW, so table energies are pJ and
 * leakage times nanoseconds is 1e-18 J; the supply is nom_voltage 1.2 V
 * (V^2 = 1.44).  Dumps are in ps; the period is 10 ns unless a test says
 * otherwise, and every dump starts at #0, so cycle c is [10c, 10c + 10) ns. */
#include "check.h"
#include "scratch.h"
#include "power/power.h"
#include "sdc/sdc.h"

#include <unistd.h>

#define PJ 1e-12
#define PF 1e-12
#define NWNS 1e-18 /* 1 nW during 1 ns, in J */
#define V2 (1.2 * 1.2)
#define T10_FS 10000000 /* 10 ns */

#define SCALAR(table, v) table " (scalar) { values (\"" v "\") ; } "
/* A delay arc with scalar delays and output slews (ns). */
#define ARC(rel, sense, d_rise, d_fall, s_rise, s_fall)                                    \
    "      timing () { related_pin : \"" rel "\" ; timing_sense : " sense " ;\n        "   \
    SCALAR("cell_rise", d_rise) SCALAR("cell_fall", d_fall)                                \
    SCALAR("rise_transition", s_rise) SCALAR("fall_transition", s_fall) "}\n"
#define FLOP_ARC                                                                           \
    "      timing () { related_pin : \"CLK\" ; timing_type : rising_edge ;\n        "      \
    SCALAR("cell_rise", "0.3") SCALAR("cell_fall", "0.3")                                  \
    SCALAR("rise_transition", "0.1") SCALAR("fall_transition", "0.1") "}\n"
#define PINS_AY                                                                            \
    "    pin (A) { direction : input ; capacitance : 0.01 ; }\n"                           \
    "    pin (Y) { direction : output ; function : \"!A\" ; }\n"

/* p_slew: energy over the input slew only, grid 0.1 and 0.3 ns. */
static const char hand_lib[] =
    "library (hand) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; current_unit : \"1mA\" ; nom_voltage : 1.2 ;\n"
    "  default_cell_leakage_power : 0.5 ;\n"
    "  power_lut_template (p_slew) { variable_1 : input_transition_time ;\n"
    "    index_1 (\"0.1, 0.3\") ; }\n"
    "  cell (DRV) { cell_leakage_power : 0 ;\n"
    "    pin (A) { direction : input ; capacitance : 0.01 ; }\n"
    "    pin (Y) { direction : output ; function : \"A\" ;\n"
    ARC("A", "positive_unate", "0.05", "0.05", "0.3", "0.1") "} }\n"
    "  cell (NAND2) { cell_leakage_power : 0 ;\n"
    "    pin (A) { direction : input ; capacitance : 0.02 ; }\n"
    "    pin (B) { direction : input ; capacitance : 0.03 ; }\n"
    "    pin (Y) { direction : output ; function : \"!(A & B)\" ;\n"
    ARC("A", "negative_unate", "1.5", "1.5", "0.2", "0.2")
    ARC("B", "negative_unate", "0.1", "0.1", "0.2", "0.2")
    "      internal_power () { related_pin : \"A\" ;\n"
    "        rise_power (p_slew) { values (\"1.0, 2.0\") ; }\n"
    "        fall_power (p_slew) { values (\"0.5, 0.7\") ; } }\n"
    "      internal_power () { related_pin : \"B\" ;\n"
    "        rise_power (p_slew) { values (\"3.0, 4.0\") ; }\n"
    "        fall_power (p_slew) { values (\"1.5, 1.9\") ; } } } }\n"
    "  cell (XOR2) { cell_leakage_power : 0 ;\n"
    "    pin (A) { direction : input ; capacitance : 0.01 ; }\n"
    "    pin (B) { direction : input ; capacitance : 0.01 ; }\n"
    "    pin (Y) { direction : output ; function : \"A ^ B\" ;\n"
    ARC("A B", "non_unate", "0.1", "0.1", "0.1", "0.1")
    "      internal_power () { related_pin : \"A\" ; when : \"B\" ; "
    SCALAR("rise_power", "5.0") SCALAR("fall_power", "6.0") "}\n"
    "      internal_power () { related_pin : \"A\" ; when : \"!B\" ; "
    SCALAR("rise_power", "7.0") SCALAR("fall_power", "8.0") "}\n"
    "      internal_power () { related_pin : \"B\" ; " SCALAR("power", "1.0") "} } }\n"
    "  cell (DFFW) { cell_leakage_power : 0 ;\n"
    "    ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CLK\" ; }\n"
    "    pin (CLK) { direction : input ; clock : true ; capacitance : 0.004 ;\n"
    "      internal_power () { when : \"D\" ; "
    SCALAR("rise_power", "2.0") SCALAR("fall_power", "1.0") "}\n"
    "      internal_power () { when : \"!D\" ; "
    SCALAR("rise_power", "0.5") SCALAR("fall_power", "0.25") "} }\n"
    "    pin (D) { direction : input ; capacitance : 0.002 ; }\n"
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n" FLOP_ARC
    "      internal_power () { related_pin : \"CLK\" ; " SCALAR("power", "3.0") "} } }\n"
    "  cell (DFFS) { cell_leakage_power : 0 ;\n"
    "    ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CLK\" ; }\n"
    "    pin (CLK) { direction : input ; clock : true ; capacitance : 0.004 ;\n"
    "      internal_power () { rise_power (p_slew) { values (\"1.0, 3.0\") ; }\n"
    "        fall_power (p_slew) { values (\"0.4, 0.8\") ; } } }\n"
    "    pin (D) { direction : input ; capacitance : 0.002 ; }\n"
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n" FLOP_ARC "} }\n"
    "  cell (CKB) { cell_leakage_power : 0 ;\n"
    "    pin (A) { direction : input ; capacitance : 0.01 ; }\n"
    "    pin (Y) { direction : output ; function : \"A\" ;\n"
    ARC("A", "positive_unate", "0.05", "0.05", "0.2", "0.3") "} }\n"
    "  cell (GBUF) { cell_leakage_power : 2.0 ;\n"
    "    pin (A) { direction : input ; capacitance : 0.01 ; }\n"
    "    pin (Y) { direction : output ; function : \"A\" ;\n"
    ARC("A", "positive_unate", "0.05", "0.05", "0.2", "0.3")
    "      internal_power () { related_pin : \"A\" ; "
    SCALAR("rise_power", "2.0") SCALAR("fall_power", "1.0") "} } }\n"
    "  cell (INV) { cell_leakage_power : 1.0 ;\n"
    "    pin (A) { direction : input ; capacitance : 0.01 ; }\n"
    "    pin (Y) { direction : output ; function : \"!A\" ;\n"
    ARC("A", "negative_unate", "0.05", "0.05", "0.1", "0.1") "} }\n"
    /* The unconditional group comes first: it is still only the fallback. */
    "  cell (LK) { cell_leakage_power : 99 ;\n"
    "    leakage_power () { value : 4 ; }\n"
    "    leakage_power () { when : \"A\" ; value : 10 ; }\n" PINS_AY "}\n"
    "  cell (LC) { cell_leakage_power : 6 ;\n" PINS_AY "}\n"
    "  cell (LD) {\n" PINS_AY "}\n"
    "}\n";

static char dir[] = "/tmp/gp_test_power_hand_XXXXXX";
static lib_set *libs;

/* One tiny design and its activity. */
typedef struct hand_case {
    design *dg;
    events *ev;
} hand_case;

/* Reads `netlist` (module top) and the dump of `vars` with `body`. */
static bool hand_load(hand_case *hc, const char *tag, const char *netlist, const char *vars,
                      const char *body)
{
    char name[64], net_path[256], vcd_path[256];
    diag_ctx *d = diag_new(stderr);
    hc->dg = NULL;
    hc->ev = NULL;
    snprintf(name, sizeof name, "%s.v", tag);
    const char *paths[] = {scratch_write(dir, name, netlist, net_path, sizeof net_path)};
    CHECK_EQ_INT(design_read_netlist(&hc->dg, libs, paths, 1, "top", d), GP_OK);
    snprintf(vcd_path, sizeof vcd_path, "%s/%s.vcd", dir, tag);
    scratch_write_vcd(vcd_path, vars, body);
    events_options eo = {.scope = "top"};
    events_stats st;
    if (hc->dg)
        CHECK_EQ_INT(events_read(hc->dg, vcd_path, &eo, &hc->ev, &st, d), GP_OK);
    diag_free(d);
    if (hc->dg && hc->ev)
        return true;
    if (hc->dg)
        design_free(hc->dg);
    return false;
}

static void hand_free(hand_case *hc)
{
    events_free(hc->ev);
    design_free(hc->dg);
}

static power_options period_10ns(void)
{
    power_options opt = power_defaults();
    opt.period_fs = T10_FS;
    return opt;
}

/* Runs the reference engine, expecting success. */
static power_result *hand_run(const hand_case *hc, const power_options *opt)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(power_analyze_ref(hc->dg, hc->ev, opt, &r, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
    return r;
}

static void hand_result_free(power_result *r)
{
    if (r)
        power_result_free(r);
}

static double inst_e(const hand_case *hc, const power_result *r, const char *inst,
                     power_component c)
{
    uint32_t i = design_find_inst(hc->dg, inst);
    CHECK(i != DESIGN_NONE);
    return i == DESIGN_NONE ? NAN : r->inst_energy[(size_t)i * POWER_COMPONENTS + c];
}

static int inst_group(const hand_case *hc, const power_result *r, const char *inst)
{
    return r->inst_group[design_find_inst(hc->dg, inst)];
}

static double bin_e(const power_result *r, uint32_t b, power_component c)
{
    return r->bin_energy[(size_t)b * POWER_COMPONENTS + c];
}

/* ---- 1. the related pin -------------------------------------------------- */

/* NAND2 u1 with inputs driven by DRV buffers: the slew at A and B is 0.3 ns
 * after a rise and 0.1 ns after a fall (DRV's scalar transitions), the two
 * grid points of p_slew, so each lookup is a table entry.  Delays: A->Y
 * 1.5 ns, B->Y 0.1 ns, both directions.  y drives only an output port (no
 * load, no switching); DRV has no internal power, so every bin's internal
 * energy is u1's output event of that cycle. */
static void test_related_pin(void)
{
    static const char netlist[] = "module top (i1, i2, y);\n  input i1, i2; output y;\n"
                                  "  wire a, b;\n  DRV d1 (.A(i1), .Y(a));\n"
                                  "  DRV d2 (.A(i2), .Y(b));\n"
                                  "  NAND2 u1 (.A(a), .B(b), .Y(y));\nendmodule\n";
    static const char vcd[] = "#0\n1a\n1b\n0y\n#1000\n0a\n#2000\n0b\n#2200\n1y\n"
                              "#11000\n1a\n#12300\n1b\n#12500\n0y\n#25000\n1y\n"
                              "#32000\n0y\n#33000\n0a\n#42000\n0b\n1y\n"
                              "#50000\n1a\n#51400\n1b\n#51500\n0y\n#60000\n";
    const double expected[6] = {
        /* y rises at 2.2: |2.2 - 1.5 - 1.0| = 0.3 for A, |2.2 - 0.1 - 2.0| =
         * 0.1 for B: B, which fell (slew 0.1): rise_power(Y,B)[0.1] */
        3.0 * PJ,
        /* y falls at 12.5: B rose at 12.3, closer in time, but |12.5 - 0.1 -
         * 12.3| = 0.1 while A (rose at 11.0) gives |12.5 - 1.5 - 11.0| = 0:
         * A at its rise slew 0.3: fall_power(Y,A)[0.3] */
        0.7 * PJ,
        /* y rises at 25, no input event in cycle 2: the mean of
         * rise_power(Y,A) at A's rise and fall slews (2.0, 1.0) and
         * rise_power(Y,B) at B's (4.0, 3.0) */
        (2.0 + 1.0 + 4.0 + 3.0) / 4 * PJ,
        /* y falls at 32; a falls at 33, after it, so again no related pin:
         * fall_power(Y,A) at 0.3 and 0.1 (0.7, 0.5), fall_power(Y,B) (1.9, 1.5) */
        (0.7 + 0.5 + 1.9 + 1.5) / 4 * PJ,
        /* y rises at 42 with b's fall at 42 (events at t count); a's last
         * event (33) is in cycle 3: B at its fall slew: rise_power(Y,B)[0.1] */
        3.0 * PJ,
        /* y falls at 51.5: a tie, |51.5 - 1.5 - 50.0| = |51.5 - 0.1 - 51.4|
         * = 0 exactly (delays are whole fs): the lower pin index, A, at its
         * rise slew: fall_power(Y,A)[0.3], not (Y,B)'s 1.9 */
        0.7 * PJ,
    };
    hand_case hc;
    if (!hand_load(&hc, "related", netlist, "a b y", vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    if (r) {
        CHECK_EQ_INT(r->n_cycles, 6);
        double total = 0;
        for (uint32_t b = 0; b < 6 && r->n_cycles == 6; b++) {
            CHECK_NEAR_REL(bin_e(r, b, POWER_INTERNAL), expected[b], 1e-9);
            total += expected[b];
        }
        CHECK_NEAR_REL(inst_e(&hc, r, "u1", POWER_INTERNAL), total, 1e-9);
        CHECK_EQ_INT(inst_e(&hc, r, "d1", POWER_INTERNAL) == 0.0, 1); /* no power groups */
        CHECK_EQ_INT(inst_e(&hc, r, "u1", POWER_SWITCHING) == 0.0, 1); /* no load */
    }
    hand_result_free(r);
    r = NULL; /* the CPU engine's rules choose the same pins, the tie too */
    diag_ctx *d = diag_new(stderr);
    CHECK_EQ_INT(power_analyze_cpu(hc.dg, hc.ev, &opt, 2, &r, d), GP_OK);
    for (uint32_t b = 0; r && b < 6 && r->n_cycles == 6; b++)
        CHECK_NEAR_REL(bin_e(r, b, POWER_INTERNAL), expected[b], 1e-9);
    diag_free(d);
    hand_result_free(r);
    hand_free(&hc);
}

/* ---- 2. `when` on internal power ----------------------------------------- */

/* XOR2 x1: (Y,A) has a group for B = 1 (rise 5, fall 6) and one for B = 0
 * (rise 7, fall 8); (Y,B) has one `power` 1.0.  Flop f1 (DFFW): CLK's own
 * groups are rise 2.0 / fall 1.0 when D, rise 0.5 / fall 0.25 when !D; Q's
 * (Q,CLK) group is 3.0 both ways.  Every table is scalar. */
static void test_when_selection(void)
{
    static const char netlist[] = "module top (a, b, clk, d, y, q, z);\n"
                                  "  input a, b, clk, d; output y, q, z;\n"
                                  "  XOR2 x1 (.A(a), .B(b), .Y(y));\n  INV i1 (.A(y), .Y(z));\n"
                                  "  DFFW f1 (.CLK(clk), .D(d), .Q(q));\nendmodule\n";
    static const char vcd[] = "#0\n0a\n0b\n0y\n0clk\n0d\n0q\n"
                              "#1000\n1a\n#1100\n1y\n#2000\n1clk\n#7000\n0clk\n#8000\n1d\n"
                              "#11000\n1b\n#11100\n0y\n#12000\n1clk\n#12300\n1q\n#17000\n0clk\n"
                              "#18000\n0d\n#21000\n0a\n#21100\n1y\n#22000\n1clk\n#22300\n0q\n"
                              "#27000\n0clk\n#31000\n1a\n#31100\n0b\n0y\n#40000\n";
    /* x1: y rises at 1.1 after a (B = 0): 7.0; falls at 11.1 after b: the
     * (Y,B) `power` 1.0; rises at 21.1 after a (B = 1): 5.0; falls at 31.1
     * after a at 31.0 (|31.1 - 0.1 - 31.0| = 0 beats b's 0.1), and b's fall at
     * 31.1 is not in the state just before: B = 1, fall 6.0. */
    const double x1_internal = (7.0 + 1.0 + 5.0 + 6.0) * PJ;
    /* f1's CLK: rise at 2 and fall at 7 with D = 0 (0.5, 0.25); at 12 and 17
     * with D = 1 (2.0, 1.0); at 22 and 27 with D = 0 again (0.5, 0.25).
     * Q rises at 12.3 and falls at 22.3, related pin CLK: 3.0 each. */
    const double f1_internal = (0.5 + 0.25 + 2.0 + 1.0 + 0.5 + 0.25 + 3.0 + 3.0) * PJ;
    hand_case hc;
    if (!hand_load(&hc, "when", netlist, "a b y clk d q", vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    if (r) {
        CHECK_NEAR_REL(inst_e(&hc, r, "x1", POWER_INTERNAL), x1_internal, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "f1", POWER_INTERNAL), f1_internal, 1e-9);
        /* CLK toggles twice a cycle: a clock pin, never a glitch. */
        CHECK_EQ_INT(inst_e(&hc, r, "f1", POWER_GLITCH_INTERNAL) == 0.0, 1);
        CHECK_EQ_INT(inst_group(&hc, r, "f1"), POWER_GROUP_SEQUENTIAL);
        CHECK_EQ_INT(inst_group(&hc, r, "x1"), POWER_GROUP_COMBINATIONAL);
        CHECK_NEAR_REL(r->group_energy[POWER_GROUP_SEQUENTIAL][POWER_INTERNAL], f1_internal, 1e-9);
        CHECK_NEAR_REL(r->group_energy[POWER_GROUP_COMBINATIONAL][POWER_INTERNAL], x1_internal,
                       1e-9);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* The report groups of a clock tree (SPEC's rule: a combinational cell
 * is in the clock group when every load of its outputs is a clock pin or a
 * clock-group cell).  Worked by hand from the leaves up:
 *   b2  drives c2: f1.CLK, f2.CLK (clock pins) and cg.A, cg a clock gate
 *       whose only load is f4.CLK: cg and then b2 are clock;
 *   i1  drives c3: f3.CLK: clock;
 *   b1  drives c1: b2 and i1, both clock: clock (decided after its loads);
 *   b3  drives m: f5.CLK and x.A, x combinational: combinational;
 *   x   drives y, an output port with no load: combinational;
 *   f1 .. f5 sequential. */
static void test_clock_tree_groups(void)
{
    static const char netlist[] =
        "module top (clk, en, d, q1, q2, q3, q4, q5, y);\n"
        "  input clk, en, d; output q1, q2, q3, q4, q5, y;\n  wire c1, c2, c3, g, m;\n"
        "  CKB b1 (.A(clk), .Y(c1));\n  CKB b2 (.A(c1), .Y(c2));\n"
        "  INV i1 (.A(c1), .Y(c3));\n  NAND2 cg (.A(c2), .B(en), .Y(g));\n"
        "  CKB b3 (.A(clk), .Y(m));\n  NAND2 x (.A(m), .B(d), .Y(y));\n"
        "  DFFS f1 (.CLK(c2), .D(d), .Q(q1));\n  DFFS f2 (.CLK(c2), .D(d), .Q(q2));\n"
        "  DFFS f3 (.CLK(c3), .D(d), .Q(q3));\n  DFFS f4 (.CLK(g), .D(d), .Q(q4));\n"
        "  DFFS f5 (.CLK(m), .D(d), .Q(q5));\nendmodule\n";
    static const char vcd[] = "#0\n0clk\n#5000\n1clk\n#10000\n0clk\n#15000\n1clk\n#20000\n0clk\n";
    static const struct { const char *inst; int group; } want[] = {
        {"b1", POWER_GROUP_CLOCK},         {"b2", POWER_GROUP_CLOCK},
        {"i1", POWER_GROUP_CLOCK},         {"cg", POWER_GROUP_CLOCK},
        {"b3", POWER_GROUP_COMBINATIONAL}, {"x", POWER_GROUP_COMBINATIONAL},
        {"f1", POWER_GROUP_SEQUENTIAL},    {"f4", POWER_GROUP_SEQUENTIAL},
        {"f5", POWER_GROUP_SEQUENTIAL}};
    hand_case hc;
    if (!hand_load(&hc, "tree", netlist, "clk", vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    for (size_t k = 0; r && k < sizeof want / sizeof want[0]; k++) {
        int got = inst_group(&hc, r, want[k].inst);
        if (got != want[k].group)
            fprintf(stderr, "  instance %s\n", want[k].inst);
        CHECK_EQ_INT(got, want[k].group);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* ---- 3. clock pins: internal power at their own slew ---------------------- */

/* clk (a primary input, slew 0.1 ns) clocks f2 directly and f1 through the
 * clock buffer cb, whose output slews are 0.2 ns (rise) and 0.3 ns (fall).
 * DFFS's CLK power: rise_power (1.0, 3.0) and fall_power (0.4, 0.8) at
 * slews (0.1, 0.3).  The period comes from clk's rising edges (5, 15, 25). */
static const char clock_netlist[] = "module top (clk, d, q1, q2);\n"
                                    "  input clk, d; output q1, q2;\n  wire ck;\n"
                                    "  CKB cb (.A(clk), .Y(ck));\n"
                                    "  DFFS f1 (.CLK(ck), .D(d), .Q(q1));\n"
                                    "  DFFS f2 (.CLK(clk), .D(d), .Q(q2));\nendmodule\n";
static const char clock_vcd[] =
    "#0\n0clk\n0ck\n#5000\n1clk\n#5050\n1ck\n#10000\n0clk\n#10050\n0ck\n"
    "#15000\n1clk\n#15050\n1ck\n#20000\n0clk\n#20050\n0ck\n"
    "#25000\n1clk\n#25050\n1ck\n#30000\n0clk\n";

static void test_clock_pin_slew(void)
{
    /* Three rises and two falls of each CLK inside [0, 30) (clk's fall at 30
     * is the window's end).  f1 at 0.2 ns: 1.0 + (0.2-0.1)/(0.3-0.1) * (3.0 -
     * 1.0) = 2.0 per rise; at 0.3 ns: 0.8 per fall.  f2 at 0.1 ns: 1.0, 0.4. */
    const double f1_internal = (3 * 2.0 + 2 * 0.8) * PJ;
    const double f2_internal = (3 * 1.0 + 2 * 0.4) * PJ;
    hand_case hc;
    if (!hand_load(&hc, "clock", clock_netlist, "clk ck", clock_vcd))
        return;
    power_options opt = power_defaults();
    opt.clock_net = "clk";
    power_result *r = hand_run(&hc, &opt);
    if (r) {
        CHECK_EQ_INT(r->period_fs, T10_FS);
        CHECK_EQ_INT(r->n_cycles, 3);
        CHECK_NEAR_REL(inst_e(&hc, r, "f1", POWER_INTERNAL), f1_internal, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "f2", POWER_INTERNAL), f2_internal, 1e-9);
        CHECK_EQ_INT(inst_e(&hc, r, "f1", POWER_GLITCH_INTERNAL) == 0.0, 1);
        CHECK_EQ_INT(inst_e(&hc, r, "f2", POWER_GLITCH_INTERNAL) == 0.0, 1);
        CHECK_EQ_INT(inst_group(&hc, r, "cb"), POWER_GROUP_CLOCK);
        CHECK_EQ_INT(inst_group(&hc, r, "f1"), POWER_GROUP_SEQUENTIAL);
        /* ck rises 3 times into f1's CLK (0.004 pF).  The split between
         * switching and glitch switching is not checked: ck's pin is not a
         * clock pin, and it toggles twice in cycles 1 and 2 (r_gl = 1). */
        CHECK_NEAR_REL(inst_e(&hc, r, "cb", POWER_SWITCHING) +
                           inst_e(&hc, r, "cb", POWER_GLITCH_SWITCHING),
                       3 * 0.004 * PF * V2, 1e-9);
        /* clk rises 3 times into cb's A (0.01 pF) and f2's CLK (0.004 pF). */
        CHECK_NEAR_REL(r->io_switching, 3 * (0.01 + 0.004) * PF * V2, 1e-9);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* The clock of test_clock_pin_slew given by SDC: ideal, every pin of its
 * network (clk, cb's A and Y, ck, both CLKs) is at the clock's transition,
 * 0 unless set_clock_transition gives one; DFFS's tables extrapolate to
 * 1.0 - 0.1 x 10 = 0 pJ per rise and 0.4 - 0.1 x 2 = 0.2 pJ per fall at 0.
 * Propagated, the slews are those of test_clock_pin_slew. */
static void test_ideal_clock_slew(void)
{
    static const struct {
        const char *sdc;
        double f1, f2; /* pJ */
    } cases[] = {
        {"create_clock -period 10 [get_ports clk]\n", 3 * 0.0 + 2 * 0.2, 3 * 0.0 + 2 * 0.2},
        {"create_clock -period 10 clk\nset_clock_transition 0.2 [all_clocks]\n",
         3 * 2.0 + 2 * 0.6, 3 * 2.0 + 2 * 0.6},
        {"create_clock -period 10 clk\nset_clock_transition -rise 0.3 clk\n",
         3 * 3.0 + 2 * 0.2, 3 * 3.0 + 2 * 0.2},
        {"create_clock -period 10 clk\nset_propagated_clock clk\n"
         "set_input_transition 0.1 clk\n", 3 * 2.0 + 2 * 0.8, 3 * 1.0 + 2 * 0.4},
    };
    if (!sdc_available()) {
        fprintf(stderr, "test_ideal_clock_slew skipped: this build reads no SDC (no Tcl)\n");
        return;
    }
    hand_case hc;
    if (!hand_load(&hc, "ideal", clock_netlist, "clk ck", clock_vcd))
        return;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[256];
        const char *paths[] = {scratch_write(dir, "ideal.sdc", cases[k].sdc, path, sizeof path)};
        diag_ctx *d = diag_new(stderr);
        sdc *s = NULL;
        sdc_timing t = {0};
        design_timing_options base = design_timing_defaults();
        CHECK_EQ_INT(sdc_read(&s, hc.dg, libs, paths, 1, d), GP_OK);
        if (s && sdc_timing_make(s, hc.dg, &base, &t, d) == GP_OK &&
            design_compute_timing(hc.dg, &t.opt, d) == GP_OK) {
            power_options opt = power_defaults();
            opt.period_fs = llround(sdc_find_clock(s, NULL)->period);
            power_result *r = hand_run(&hc, &opt);
            CHECK_EQ_INT(opt.period_fs, T10_FS);
            if (r) {
                CHECK_NEAR_REL(inst_e(&hc, r, "f1", POWER_INTERNAL), cases[k].f1 * PJ, 1e-9);
                CHECK_NEAR_REL(inst_e(&hc, r, "f2", POWER_INTERNAL), cases[k].f2 * PJ, 1e-9);
            }
            hand_result_free(r);
        }
        CHECK_EQ_INT(diag_error_count(d), 0);
        sdc_timing_free(&t);
        sdc_free(s);
        diag_free(d);
    }
    hand_free(&hc);
}

/* ---- 4. switching and the IO group --------------------------------------- */

static const char switching_netlist[] = "module top (a, y2, y3);\n  input a; output y2, y3;\n"
                                        "  wire n1;\n  INV u1 (.A(a), .Y(n1));\n"
                                        "  INV u2 (.A(n1), .Y(y2));\n"
                                        "  NAND2 u3 (.A(n1), .B(a), .Y(y3));\nendmodule\n";
static const char switching_vcd[] = "#0\n0a\n1n1\n#1000\n1a\n#1100\n0n1\n#11000\n0a\n#11100\n1n1\n"
                                    "#21000\n1a\n#21100\n0n1\n#30000\n";

/* n1's load: u2's A (0.01 pF) + u3's A (0.02 pF); the primary input a's:
 * u1's A (0.01 pF) + u3's B (0.03 pF).  n1 rises once (at 11.1, cycle 1);
 * a rises at 1 and 21 (cycles 0 and 2).  Falls cost nothing. */
static void test_switching_and_io(void)
{
    const double n1_rise = (0.01 + 0.02) * PF * V2, a_rise = (0.01 + 0.03) * PF * V2;
    hand_case hc;
    if (!hand_load(&hc, "switching", switching_netlist, "a n1", switching_vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    if (r) {
        CHECK_NEAR_REL(inst_e(&hc, r, "u1", POWER_SWITCHING), n1_rise, 1e-9);
        CHECK_EQ_INT(inst_e(&hc, r, "u1", POWER_INTERNAL) == 0.0, 1); /* INV has no power groups */
        CHECK_EQ_INT(inst_group(&hc, r, "u1"), POWER_GROUP_COMBINATIONAL);
        CHECK_EQ_INT(inst_group(&hc, r, "u2"), POWER_GROUP_COMBINATIONAL);
        CHECK_NEAR_REL(r->io_switching, 2 * a_rise, 1e-9);
        CHECK_NEAR_REL(r->group_energy[POWER_GROUP_IO][POWER_SWITCHING], 2 * a_rise, 1e-9);
        CHECK_NEAR_REL(r->group_energy[POWER_GROUP_COMBINATIONAL][POWER_SWITCHING], n1_rise, 1e-9);
        CHECK_NEAR_REL(power_total_energy(r, POWER_SWITCHING), n1_rise, 1e-9);
        CHECK_EQ_INT(bin_e(r, 0, POWER_SWITCHING) == 0.0, 1);
        CHECK_NEAR_REL(bin_e(r, 1, POWER_SWITCHING), n1_rise, 1e-9);
        CHECK_EQ_INT(bin_e(r, 2, POWER_SWITCHING) == 0.0, 1);
    }
    hand_result_free(r);
    opt.include_io = true;
    r = hand_run(&hc, &opt);
    if (r) {
        CHECK(r->include_io);
        CHECK_NEAR_REL(r->io_switching, 2 * a_rise, 1e-9);
        CHECK_NEAR_REL(power_total_energy(r, POWER_SWITCHING), n1_rise + 2 * a_rise, 1e-9);
        CHECK_NEAR_REL(bin_e(r, 0, POWER_SWITCHING), a_rise, 1e-9);
        CHECK_NEAR_REL(bin_e(r, 1, POWER_SWITCHING), n1_rise, 1e-9);
        CHECK_NEAR_REL(bin_e(r, 2, POWER_SWITCHING), a_rise, 1e-9);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* ---- 5. leakage ----------------------------------------------------------- */

/* l1 (LK): 10 nW when A, else the unconditional 4 nW (its cell_leakage_power
 * 99 unused); l2 (LC): cell_leakage_power 6 nW; l3 (LD): the library's
 * default_cell_leakage_power 0.5 nW.  a is 0 until 15 ns, 1 until 27 ns, 0
 * after.  Energies in nW x ns. */
static void check_leakage_bins(const hand_case *hc, const power_result *r, const double *l1,
                               const double *l2, const double *l3, uint32_t n)
{
    double t1 = 0, t2 = 0, t3 = 0;
    CHECK_EQ_INT(r->n_cycles, n);
    for (uint32_t b = 0; b < n && r->n_cycles == n; b++) {
        CHECK_NEAR_REL(bin_e(r, b, POWER_LEAKAGE), (l1[b] + l2[b] + l3[b]) * NWNS, 1e-9);
        t1 += l1[b];
        t2 += l2[b];
        t3 += l3[b];
    }
    CHECK_NEAR_REL(inst_e(hc, r, "l1", POWER_LEAKAGE), t1 * NWNS, 1e-9);
    CHECK_NEAR_REL(inst_e(hc, r, "l2", POWER_LEAKAGE), t2 * NWNS, 1e-9);
    CHECK_NEAR_REL(inst_e(hc, r, "l3", POWER_LEAKAGE), t3 * NWNS, 1e-9);
    CHECK_NEAR_REL(power_total_energy(r, POWER_LEAKAGE), (t1 + t2 + t3) * NWNS, 1e-9);
}

static void test_leakage(void)
{
    static const char netlist[] = "module top (a, y1, y2, y3);\n  input a; output y1, y2, y3;\n"
                                  "  LK l1 (.A(a), .Y(y1));\n  LC l2 (.A(a), .Y(y2));\n"
                                  "  LD l3 (.A(a), .Y(y3));\nendmodule\n";
    static const char vcd[] = "#0\n0a\n#15000\n1a\n#27000\n0a\n#30000\n";
    hand_case hc;
    if (!hand_load(&hc, "leakage", netlist, "a", vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    if (r) {
        /* Bins [0,10) [10,20) [20,30): l1 4*10; 4*5 + 10*5; 10*7 + 4*3. */
        const double l1[] = {4 * 10, 4 * 5 + 10 * 5, 10 * 7 + 4 * 3};
        const double l2[] = {6 * 10, 6 * 10, 6 * 10}, l3[] = {0.5 * 10, 0.5 * 10, 0.5 * 10};
        check_leakage_bins(&hc, r, l1, l2, l3, 3);
    }
    hand_result_free(r);
    /* Window [5, 28): bins [5,15) [15,25) [25,28); a's value at 0 holds at 5. */
    opt.window_start_fs = 5000000;
    opt.window_end_fs = 28000000;
    r = hand_run(&hc, &opt);
    if (r) {
        const double l1[] = {4 * 10, 10 * 10, 10 * 2 + 4 * 1};
        const double l2[] = {6 * 10, 6 * 10, 6 * 3}, l3[] = {0.5 * 10, 0.5 * 10, 0.5 * 3};
        CHECK_NEAR_REL(r->duration, 23e-9, 1e-12);
        check_leakage_bins(&hc, r, l1, l2, l3, 3);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* ---- 6. glitches ---------------------------------------------------------- */

/* g1 (GBUF) drives y into g2's A (0.01 pF): a rise switches 0.01 pF * V^2.
 * y's slews: 0.2 ns rise, 0.3 ns fall (t_rise + t_fall = 0.5 ns); (Y,A)
 * rise_power 2.0, fall_power 1.0 (scalar).  y's events per cycle:
 *   cycle 0: rise 1.0, fall 1.1           2 events, both glitch, w = 0.1
 *   cycle 1: rise 11.0, fall 11.05, rise 15.0   first two glitch (w = 0.05),
 *                                         the third functional
 *   cycle 2: fall 21, rise 21.1, fall 24, rise 26   pairs w = 0.1, w = 2.0
 *   cycle 3: fall 35                      functional */
static const char glitch_netlist[] = "module top (a, z);\n  input a; output z;\n  wire y;\n"
                                     "  GBUF g1 (.A(a), .Y(y));\n  INV g2 (.A(y), .Y(z));\n"
                                     "endmodule\n";
static const char glitch_vcd[] = "#0\n0y\n#1000\n1y\n#1100\n0y\n"
                                 "#11000\n1y\n#11050\n0y\n#15000\n1y\n"
                                 "#21000\n0y\n#21100\n1y\n#24000\n0y\n#26000\n1y\n"
                                 "#35000\n0y\n#40000\n";

static const double glitch_y_rise = 0.01 * PF * V2;

/* r_gl = min(1, (2w / (t_rise + t_fall))^2) for a pulse of w ns. */
static double glitch_ratio(double w)
{
    double r = 2 * w / (0.2 + 0.3);
    return fmin(1.0, r * r);
}

static void test_glitch(void)
{
    const double r01 = glitch_ratio(0.1), r005 = glitch_ratio(0.05), r2 = glitch_ratio(2.0);
    CHECK(r01 < 1 && r2 == 1.0);
    hand_case hc;
    if (!hand_load(&hc, "glitch", glitch_netlist, "y", glitch_vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    if (r) {
        /* Functional: the rise at 15 and the fall at 35. */
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_INTERNAL), (2.0 + 1.0) * PJ, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_SWITCHING), glitch_y_rise, 1e-9);
        /* Each glitch pair is one rise (2.0, switching) and one fall (1.0). */
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_GLITCH_INTERNAL),
                       (r01 + r005 + r01 + r2) * (2.0 + 1.0) * PJ, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_GLITCH_SWITCHING),
                       (r01 + r005 + r01 + r2) * glitch_y_rise, 1e-9);
        /* g2's input pin A has no power groups: no glitch energy of its own. */
        CHECK_EQ_INT(inst_e(&hc, r, "g2", POWER_GLITCH_INTERNAL) == 0.0, 1);
    }
    hand_result_free(r);
    opt.glitch = false; /* every event ordinary and unscaled */
    r = hand_run(&hc, &opt);
    if (r) {
        /* rises at 1, 11, 15, 21.1, 26; falls at 1.1, 11.05, 21, 24, 35 */
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_INTERNAL), (5 * 2.0 + 5 * 1.0) * PJ, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_SWITCHING), 5 * glitch_y_rise, 1e-9);
        CHECK_EQ_INT(inst_e(&hc, r, "g1", POWER_GLITCH_INTERNAL) == 0.0, 1);
        CHECK_EQ_INT(inst_e(&hc, r, "g1", POWER_GLITCH_SWITCHING) == 0.0, 1);
        CHECK_EQ_INT(power_total_energy(r, POWER_GLITCH_INTERNAL) == 0.0, 1);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* ---- 7. X as half transitions --------------------------------------------- */

/* Three GBUFs, each output into an INV (0.01 pF).  y1: 0 at #0 (initial
 * value), then 0->X at 1, X->1 at 11, 1->X at 21, X->0 at 31, 0->1 at 41.
 * y2: X at #0, X->1 at 5.  y3: first dumped at 7, X->1 (not at the dump's
 * first time stamp, so half a rise). */
static void test_x_half_transitions(void)
{
    static const char netlist[] = "module top (a, z1, z2, z3);\n  input a; output z1, z2, z3;\n"
                                  "  wire y1, y2, y3;\n"
                                  "  GBUF g1 (.A(a), .Y(y1));\n  INV h1 (.A(y1), .Y(z1));\n"
                                  "  GBUF g2 (.A(a), .Y(y2));\n  INV h2 (.A(y2), .Y(z2));\n"
                                  "  GBUF g3 (.A(a), .Y(y3));\n  INV h3 (.A(y3), .Y(z3));\n"
                                  "endmodule\n";
    static const char vcd[] = "#0\n0y1\nxy2\n#1000\nxy1\n#5000\n1y2\n#7000\n1y3\n#11000\n1y1\n"
                              "#21000\nxy1\n#31000\n0y1\n#41000\n1y1\n#50000\n";
    const double rise = 0.01 * PF * V2;
    /* Internal per bin: half rises 0.5 * 2.0 of g1, g2, g3 in cycle 0; g1's
     * half rise (1.0), half falls (0.5 * 1.0, twice) and full rise (2.0). */
    const double bins[5] = {3 * 0.5 * 2.0 * PJ, 0.5 * 2.0 * PJ, 0.5 * 1.0 * PJ, 0.5 * 1.0 * PJ,
                            2.0 * PJ};
    hand_case hc;
    if (!hand_load(&hc, "xhalf", netlist, "y1 y2 y3", vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    if (r) {
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_INTERNAL),
                       (0.5 * 2.0 + 0.5 * 2.0 + 0.5 * 1.0 + 0.5 * 1.0 + 2.0) * PJ, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g1", POWER_SWITCHING), (0.5 + 0.5 + 1.0) * rise, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g2", POWER_INTERNAL), 0.5 * 2.0 * PJ, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g2", POWER_SWITCHING), 0.5 * rise, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g3", POWER_INTERNAL), 0.5 * 2.0 * PJ, 1e-9);
        CHECK_NEAR_REL(inst_e(&hc, r, "g3", POWER_SWITCHING), 0.5 * rise, 1e-9);
        CHECK_EQ_INT(power_total_energy(r, POWER_GLITCH_INTERNAL) == 0.0, 1);
        CHECK_EQ_INT(r->n_cycles, 5);
        for (uint32_t b = 0; b < 5 && r->n_cycles == 5; b++)
            CHECK_NEAR_REL(bin_e(r, b, POWER_INTERNAL), bins[b], 1e-9);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* ---- 8. waveform and peak ------------------------------------------------- */

/* The glitch design of test 6, bin by bin.  Leakage: g1 (GBUF) 2 nW and g2
 * (INV) 1 nW over each 10 ns bin. */
static void glitch_bins(double e[4][POWER_COMPONENTS])
{
    const double r01 = glitch_ratio(0.1), r005 = glitch_ratio(0.05);
    memset(e, 0, 4 * sizeof e[0]);
    for (int b = 0; b < 4; b++)
        e[b][POWER_LEAKAGE] = (2.0 + 1.0) * 10 * NWNS;
    e[0][POWER_GLITCH_INTERNAL] = r01 * (2.0 + 1.0) * PJ;
    e[0][POWER_GLITCH_SWITCHING] = r01 * glitch_y_rise;
    e[1][POWER_INTERNAL] = 2.0 * PJ;
    e[1][POWER_SWITCHING] = glitch_y_rise;
    e[1][POWER_GLITCH_INTERNAL] = r005 * (2.0 + 1.0) * PJ;
    e[1][POWER_GLITCH_SWITCHING] = r005 * glitch_y_rise;
    e[2][POWER_GLITCH_INTERNAL] = (r01 + 1.0) * (1.0 + 2.0) * PJ;
    e[2][POWER_GLITCH_SWITCHING] = (r01 + 1.0) * glitch_y_rise;
    e[3][POWER_INTERNAL] = 1.0 * PJ;
}

static void test_waveform_and_peak(void)
{
    double e[4][POWER_COMPONENTS];
    glitch_bins(e);
    hand_case hc;
    if (!hand_load(&hc, "wave", glitch_netlist, "y", glitch_vcd))
        return;
    power_options opt = period_10ns();
    power_result *r = hand_run(&hc, &opt);
    if (r && r->n_cycles == 4) {
        CHECK_NEAR_REL(r->duration, 40e-9, 1e-12);
        uint32_t peak = 0;
        for (uint32_t b = 0; b < 4; b++) {
            for (int c = 0; c < POWER_COMPONENTS; c++)
                CHECK_NEAR_REL(bin_e(r, b, c), e[b][c], 1e-9);
            CHECK_NEAR_REL(power_sum_components(&r->bin_energy[b * POWER_COMPONENTS]),
                           power_sum_components(e[b]), 1e-9);
            if (power_sum_components(&r->bin_energy[b * POWER_COMPONENTS]) >
                power_sum_components(&r->bin_energy[peak * POWER_COMPONENTS]))
                peak = b;
        }
        CHECK_EQ_INT(peak, 2); /* by hand: 3.48 pJ of glitch internal energy */
        for (int c = 0; c < POWER_COMPONENTS; c++) {
            double sum = 0;
            for (uint32_t b = 0; b < 4; b++)
                sum += bin_e(r, b, c);
            CHECK_NEAR_REL(power_total_energy(r, c), sum, 1e-9);
            CHECK_NEAR_REL(sum, e[0][c] + e[1][c] + e[2][c] + e[3][c], 1e-9);
        }
    } else {
        CHECK(r && r->n_cycles == 4);
    }
    hand_result_free(r);
    hand_free(&hc);
}

/* ---- 9. bad options ------------------------------------------------------- */

/* power_analyze_ref must refuse the options with a numbered power error. */
static void expect_refused(const hand_case *hc, const power_options *opt, const char *what)
{
    power_result *r = NULL;
    diag_ctx *d = diag_new(NULL);
    gp_status st = power_analyze_ref(hc->dg, hc->ev, opt, &r, d);
    CHECK(st != GP_OK);
    CHECK(diag_error_count(d) > 0);
    CHECK(diag_first_error_no(d) >= 8000 && diag_first_error_no(d) <= 8999);
    if (st == GP_OK || diag_error_count(d) == 0)
        fprintf(stderr, "  (not refused: %s)\n", what);
    hand_result_free(r);
    diag_free(d);
}

static void test_bad_options(void)
{
    hand_case hc;
    if (!hand_load(&hc, "bad", switching_netlist, "a n1", switching_vcd))
        return;
    power_options opt = power_defaults(); /* no period, no clock net */
    expect_refused(&hc, &opt, "no period");
    opt.period_fs = -T10_FS;
    expect_refused(&hc, &opt, "negative period");
    opt = period_10ns();
    opt.window_start_fs = 20000000;
    opt.window_end_fs = 10000000;
    expect_refused(&hc, &opt, "window end before start");
    opt.window_end_fs = 20000000;
    expect_refused(&hc, &opt, "empty window");
    opt.window_start_fs = 40000000; /* past the dump's end (30 ns), end by default */
    opt.window_end_fs = -1;
    expect_refused(&hc, &opt, "window starting after the dump");
    opt = power_defaults();
    opt.clock_net = "no_such_net";
    expect_refused(&hc, &opt, "unknown clock net");
    opt.clock_net = "n1"; /* rises once (11.1 ns): no interval to measure */
    expect_refused(&hc, &opt, "clock net with one rising edge");
    hand_free(&hc);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    diag_ctx *d = diag_new(stderr);
    libs = scratch_libs(dir, "hand.lib", hand_lib, d);
    if (lib_library_count(libs) == 1) {
        RUN(test_related_pin);
        RUN(test_when_selection);
        RUN(test_clock_pin_slew);
    RUN(test_ideal_clock_slew);
        RUN(test_clock_tree_groups);
        RUN(test_switching_and_io);
        RUN(test_leakage);
        RUN(test_glitch);
        RUN(test_x_half_transitions);
        RUN(test_waveform_and_peak);
        RUN(test_bad_options);
    }
    lib_set_free(libs);
    diag_free(d);
    if (!scratch_remove(dir))
        return 1;
    return check_exit_code();
}
