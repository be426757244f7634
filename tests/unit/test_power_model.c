/* test_power_model.c: the power model (power_model.h) built from a small
 * library and netlist, checked against what the library text says (groups,
 * `when` truth tables, SIPL selections, memo offsets, pin flags, delays,
 * start values), and for a cell of 34 pins; which pins are costed in
 * bulk; the exact sums of
 * --deterministic against hand-made words. */
#include <math.h>

#include "check.h"
#include "scratch.h"
#include "power/power_model.h"
#include "power/power_rules.h"

#define T1(name, v) name " (t1) { values (\"" v "\") ; } "

/* INV: one internal_power group (Y related A), leakage by state.  NAND2:
 * Y related A in two `when`s, Y related B, and input power on A (no
 * related pin): four groups.  BIG: 33 pins.  FLOP: input power on CK and
 * on D, which a leakage `when` reads; GATED: input power on CK under a
 * `when`. */
static const char host_lib[] =
    "library (hostlib) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; current_unit : \"1mA\" ; nom_voltage : 1.2 ;\n"
    "  power_lut_template (t1) { variable_1 : input_transition_time ; index_1 (\"0.1, 1\") ; }\n"
    "  lu_table_template (d1) { variable_1 : input_net_transition ; index_1 (\"0.1, 1\") ; }\n"
    "  cell (INV) {\n"
    "    leakage_power () { when : \"A\" ; value : 1.0 ; }\n"
    "    leakage_power () { when : \"!A\" ; value : 2.0 ; }\n"
    "    pin (A) { direction : input ; capacitance : 0.002 ; }\n"
    "    pin (Y) { direction : output ; function : \"!A\" ;\n"
    "      timing () { related_pin : \"A\" ; timing_sense : negative_unate ;\n"
    "        cell_rise (d1) { values (\"0.05, 0.2\") ; } cell_fall (d1) { values (\"0.04, 0.1\") ; }\n"
    "        rise_transition (d1) { values (\"0.03, 0.3\") ; } fall_transition (d1) { values (\"0.02, 0.2\") ; } }\n"
    "      internal_power () { related_pin : \"A\" ; " T1("rise_power", "0.1, 0.2")
    T1("fall_power", "0.05, 0.1") "} } }\n"
    "  cell (NAND2) {\n"
    "    pin (A) { direction : input ; capacitance : 0.002 ;\n"
    "      internal_power () { " T1("rise_power", "0.01, 0.02") T1("fall_power", "0.01, 0.02") "} }\n"
    "    pin (B) { direction : input ; capacitance : 0.002 ; }\n"
    "    pin (Y) { direction : output ; function : \"!(A & B)\" ;\n"
    "      internal_power () { related_pin : \"A\" ; when : \"B\" ; " T1("rise_power", "0.3, 0.4")
    T1("fall_power", "0.3, 0.4") "}\n"
    "      internal_power () { related_pin : \"A\" ; when : \"!B\" ; " T1("rise_power", "0.5, 0.6")
    T1("fall_power", "0.5, 0.6") "}\n"
    "      internal_power () { related_pin : \"B\" ; " T1("rise_power", "0.7, 0.8")
    T1("fall_power", "0.7, 0.8") "} } }\n"
    "  type (b32) { base_type : array ; data_type : bit ; bit_width : 32 ; bit_from : 31 ; bit_to : 0 ; }\n"
    "  cell (BIG) {\n"
    "    bus (I) { bus_type : b32 ; direction : input ; capacitance : 0.001 ; }\n"
    "    pin (Z) { direction : input ; capacitance : 0.001 ; }\n"
    "    pin (Y) { direction : output ; function : \"Z\" ; } }\n"
    "  cell (FLOP) {\n"
    "    leakage_power () { when : \"D\" ; value : 1.0 ; }\n"
    "    pin (CK) { direction : input ; clock : true ; capacitance : 0.002 ;\n"
    "      internal_power () { " T1("rise_power", "0.1, 0.2") T1("fall_power", "0.1, 0.2") "} }\n"
    "    pin (D) { direction : input ; capacitance : 0.002 ;\n"
    "      internal_power () { " T1("rise_power", "0.1, 0.2") T1("fall_power", "0.1, 0.2") "} }\n"
    "    pin (Q) { direction : output ; function : \"D\" ;\n"
    "      internal_power () { related_pin : \"CK\" ; " T1("rise_power", "0.3, 0.4")
    T1("fall_power", "0.3, 0.4") "} } }\n"
    "  cell (GATED) {\n"
    "    pin (CK) { direction : input ; capacitance : 0.002 ;\n"
    "      internal_power () { when : \"EN\" ; " T1("rise_power", "0.1, 0.2")
    T1("fall_power", "0.1, 0.2") "} }\n"
    "    pin (EN) { direction : input ; capacitance : 0.002 ; } }\n"
    "}\n";

static char dir[] = "/tmp/gp_test_power_model_XXXXXX";
static lib_set *libs;

/* The pins' flags as the library and the netlist imply them. */
static void check_flags(const power_model *m, const design *dg, bool glitch)
{
    uint32_t inv = design_find_inst(dg, "u1"), nand = design_find_inst(dg, "u2");
    uint8_t g = glitch ? POWER_PIN_GLITCHABLE : 0;
    uint32_t p = dg->inst_pin0[inv];
    CHECK_EQ_INT(m->pin_flags[p], POWER_PIN_LOADS | POWER_PIN_SILENT | g);       /* INV A */
    CHECK_EQ_INT(m->pin_flags[p + 1], POWER_PIN_DRIVES | POWER_PIN_PAYS_SWITCHING | g); /* Y */
    p = dg->inst_pin0[nand];
    CHECK_EQ_INT(m->pin_flags[p], POWER_PIN_LOADS | g);                         /* A: input power */
    CHECK_EQ_INT(m->pin_flags[p + 1], POWER_PIN_LOADS | POWER_PIN_SILENT | g);   /* B */
}

/* NAND2's groups: the `when` truth tables, and what SIPL chooses for the
 * key (Y, A) in each state (bit 0 A, bit 1 B, bit 2 Y). */
static void check_nand(const power_model *m, const power_model_cell *c)
{
    CHECK_EQ_INT(c->n_pins, 3);
    CHECK_EQ_INT(c->n_groups, 4);
    CHECK(c->dense);
    const power_model_group *when_b = &m->groups[c->group0 + 1], *when_nb = &m->groups[c->group0 + 2];
    CHECK_EQ_INT(when_b->related, 0);
    CHECK_EQ_INT(m->groups[c->group0].related, -1);
    CHECK_EQ_INT(m->groups[c->group0].when, -1);
    int32_t key = m->keys[c->key0 + 2 * (c->n_pins + 1) + 0];
    CHECK(key >= 0);
    CHECK_EQ_INT(m->keys[c->key0 + 2 * (c->n_pins + 1) + c->n_pins], -1); /* (Y, none) */
    for (uint32_t s = 0; s < 8 && key >= 0; s++) {
        bool b = s & 2;
        CHECK_EQ_INT((m->tt[when_b->when] >> s) & 1, b);
        CHECK_EQ_INT((m->tt[when_nb->when] >> s) & 1, !b);
        uint32_t at = c->sel0_base + ((uint32_t)key << c->n_pins) + s;
        CHECK_EQ_INT(m->sel0[at + 1] - m->sel0[at], 1);
        CHECK_EQ_INT(m->sel[m->sel0[at]], c->group0 + (b ? 1 : 2));
    }
}

static void check_model(const power_model *m, const design *dg)
{
    uint32_t inv = design_find_inst(dg, "u1"), nand = design_find_inst(dg, "u2");
    CHECK_EQ_INT(m->n_cells, 2);
    CHECK_EQ_INT(m->max_pins, 3);
    const power_model_cell *ci = &m->cells[m->inst_cell[inv]], *cn = &m->cells[m->inst_cell[nand]];
    CHECK_EQ_INT(ci->n_groups, 1);
    CHECK(fabs(ci->volts - 1.2) < 1e-12);
    CHECK(fabs(m->reals[ci->leak + 0] - 2e-9) < 1e-21); /* A = 0 */
    CHECK(fabs(m->reals[ci->leak + 1] - 1e-9) < 1e-21);
    check_nand(m, cn);
    /* A memo: 4 energies a group, then each cell's one output (it has
     * related pins) in each of 2^n states and 2 directions. */
    for (uint32_t i = 0; i < dg->n_insts; i++)
        CHECK_EQ_INT(m->inst_memo0[i + 1] - m->inst_memo0[i],
                     4 * dg->inst_cell[i]->n_powers + (2u << dg->inst_cell[i]->n_pins));
    CHECK_EQ_INT(m->cpin_unrelated[cn->pin0 + 2], 4 * 4);  /* Y after the 4 groups' 16 */
    CHECK_EQ_INT(m->cpin_unrelated[cn->pin0 + 0], UINT32_MAX);
    CHECK_EQ_INT(m->cpin_unrelated[ci->pin0 + 1], 4 * 1);
    for (uint32_t a = 0; a < dg->n_arcs; a++)
        CHECK(m->arc_delay_rise_fs[a] == dg->arc_delay[DESIGN_RISE][a]);
    uint32_t one = design_find_net(dg, "tie"), a = design_find_net(dg, "a");
    CHECK_EQ_INT(m->net_start[a], EVENTS_X);
    if (one != DESIGN_NONE)
        CHECK_EQ_INT(m->net_start[one], 1);
}

static void test_model(void)
{
    diag_ctx *d = diag_new(stderr);
    design *dg = scratch_design(dir, libs, "small",
                             "module top (a, b, y, z);\n  input a, b; output y, z;\n"
                             "  wire n1, tie;\n  assign tie = 1'b1;\n"
                             "  INV u1 (.A(a), .Y(n1));\n  NAND2 u2 (.A(n1), .B(b), .Y(y));\n"
                             "  NAND2 u3 (.A(tie), .B(a), .Y(z));\nendmodule\n", d);
    for (int glitch = 0; glitch < 2 && dg; glitch++) {
        power_options opt = power_defaults();
        opt.period_fs = 1000000;
        opt.glitch = glitch;
        /* A dump of two events on net a, which the plan needs for its window. */
        uint32_t a = design_find_net(dg, "a");
        uint64_t word[] = {events_pack(0, 0), events_pack(1500000, 1)};
        events ev = {.n_nets = dg->n_nets, .n_events = 2, .net_ev0 = calloc(dg->n_nets + 1, 8),
                     .word = word, .end_fs = 3000000};
        for (uint32_t n = a + 1; n <= dg->n_nets; n++)
            ev.net_ev0[n] = 2;
        power_plan plan;
        power_model m;
        CHECK_EQ_INT(power_plan_make(dg, &ev, &opt, &plan, d), GP_OK);
        CHECK(power_model_build(&m, dg, &plan, true));
        check_model(&m, dg);
        check_flags(&m, dg, glitch);
        power_model_free(&m);
        power_plan_free(&plan);
        free(ev.net_ev0);
    }
    design_free(dg);
    diag_free(d);
}

/* A cell of 34 pins: no dense tables (2^34 states), its keys and flags
 * all the same. */
static void test_many_pins(void)
{
    diag_ctx *d = diag_new(stderr);
    design *dg = scratch_design(dir, libs, "big",
                             "module top (i, z, y);\n  input [31:0] i; input z; output y;\n"
                             "  BIG b1 (.I(i), .Z(z), .Y(y));\nendmodule\n", d);
    power_plan plan = {.glitch = true};
    power_model m;
    if (dg) {
        plan.clock_net = calloc(dg->n_nets + 1, 1);
        CHECK(power_model_build(&m, dg, &plan, true));
        CHECK_EQ_INT(m.max_pins, 34);
        CHECK_EQ_INT(m.n_cells, 1);
        CHECK(!m.cells[0].dense);
        CHECK_EQ_INT(m.cells[0].memo_size, 0);
        CHECK_EQ_INT(m.pin_flags[dg->inst_pin0[0] + 33],
                     POWER_PIN_DRIVES | POWER_PIN_PAYS_SWITCHING | POWER_PIN_GLITCHABLE);
        power_model_free(&m);
        free(plan.clock_net);
    }
    design_free(dg);
    diag_free(d);
}

/* Pins costed in bulk: an input on the clock network with power of its
 * own that no state changes (FLOP's CK on clk), and no other: not D (a
 * `when` reads it), not a CK whose power has a `when`, not a CK off the
 * clock network, none when the engine does not ask for it. */
static void test_bulk_flags(void)
{
    diag_ctx *d = diag_new(stderr);
    design *dg = scratch_design(dir, libs, "bulk",
                             "module top (clk, d, q, q2);\n  input clk, d; output q, q2;\n"
                             "  FLOP f1 (.CK(clk), .D(d), .Q(q));\n  GATED g1 (.CK(clk), .EN(d));\n"
                             "  FLOP f2 (.CK(d), .D(clk), .Q(q2));\nendmodule\n", d);
    for (int bulk = 0; bulk < 2 && dg; bulk++) {
        power_plan plan = {.glitch = true, .clock_net = calloc(dg->n_nets + 1, 1)};
        plan.clock_net[design_find_net(dg, "clk")] = 1;
        power_model m;
        CHECK(power_model_build(&m, dg, &plan, bulk));
        uint32_t f1 = dg->inst_pin0[design_find_inst(dg, "f1")];
        uint32_t g1 = dg->inst_pin0[design_find_inst(dg, "g1")];
        uint32_t f2 = dg->inst_pin0[design_find_inst(dg, "f2")];
        CHECK_EQ_INT(m.pin_flags[f1], POWER_PIN_LOADS | (bulk ? POWER_PIN_BULK : 0)); /* CK */
        CHECK_EQ_INT(m.pin_flags[f1 + 1], POWER_PIN_LOADS | POWER_PIN_GLITCHABLE);   /* D */
        CHECK_EQ_INT(m.pin_flags[g1], POWER_PIN_LOADS);
        CHECK_EQ_INT(m.pin_flags[f2], POWER_PIN_LOADS | POWER_PIN_GLITCHABLE);
        CHECK_EQ_INT(m.pin_flags[f2 + 1], POWER_PIN_LOADS);
        power_model_free(&m);
        free(plan.clock_net);
    }
    design_free(dg);
    diag_free(d);
}

/* The fixed point of power_rules.h by hand: 1 J is 2^120 units (high word
 * 2^56), -1 J its two's complement; a carry out of the low word; and a sum
 * whose doubles depend on their order is exact in either. */
static void test_exact_sums(void)
{
    uint64_t lo, hi;
    power_exact_words(1.0, &lo, &hi);
    CHECK(lo == 0 && hi == (uint64_t)1 << 56);
    power_exact_words(-1.0, &lo, &hi);
    CHECK(lo == 0 && hi == ~((uint64_t)1 << 56) + 1);
    CHECK(power_exact_value(lo, hi) == -1.0);
    uint64_t w[2] = {0, 0};
    power_exact_add(w, 0x1p-57); /* 2^63 units: twice carries into the high word */
    power_exact_add(w, 0x1p-57);
    CHECK(w[0] == 0 && w[1] == 1);
    CHECK(power_exact_value(w[0], w[1]) == 0x1p-56);
    CHECK(power_exact_value(0, 0) == 0.0);
    const double e[3] = {1e-3, 1e-19, -1e-3};
    CHECK((e[0] + e[1]) + e[2] != (e[0] + e[2]) + e[1]); /* doubles: the order shows */
    uint64_t a[2] = {0, 0}, b[2] = {0, 0};
    for (int k = 0; k < 3; k++)
        power_exact_add(a, e[k]);
    for (int k = 2; k >= 0; k--)
        power_exact_add(b, e[k]);
    CHECK(a[0] == b[0] && a[1] == b[1]);
    CHECK(power_exact_value(a[0], a[1]) == 1e-19);
    power_exact_words(1.234e-15, &lo, &hi);
    CHECK(power_exact_value(lo, hi) == 1.234e-15);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    char path[256];
    snprintf(path, sizeof path, "%s/host.lib", dir);
    scratch_write_text(path, host_lib);
    diag_ctx *d = diag_new(stderr);
    libs = lib_set_new();
    CHECK_EQ_INT(lib_read(libs, path, d), GP_OK);
    RUN(test_exact_sums);
    if (lib_library_count(libs) == 1) {
        RUN(test_model);
        RUN(test_many_pins);
        RUN(test_bulk_flags);
    }
    lib_set_free(libs);
    diag_free(d);
    if (!scratch_remove(dir))
        return 1;
    return check_exit_code();
}
