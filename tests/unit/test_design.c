/* test_design.c: the design database on a four-instance design whose
 * expected loads, levels, slews, delays, SDF and SPEF annotation and events
 * are worked out here from the tables and the SPEC §2 rules; and its net ->
 * pins index on a design large enough to be made in parts, checked against
 * each pin's net. */
#include "check.h"
#include "scratch.h"
#include "design/design.h"
#include "events/events.h"

#include <string.h>
#include <unistd.h>

#define NS 1e6 /* fs: times are femtoseconds */

/* Capacitances in pF, times in ns: the library's units. */
static const char tiny_lib[] =
    "library (tiny) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; current_unit : \"1mA\" ; nom_voltage : 1.8 ;\n"
    "  lu_table_template (t2) { variable_1 : input_net_transition ;\n"
    "    variable_2 : total_output_net_capacitance ;\n"
    "    index_1 (\"0.1, 0.3\") ; index_2 (\"0.01, 0.05\") ; }\n"
    "  cell (INV) {\n"
    "    pin (A) { direction : input ; capacitance : 0.02 ; }\n"
    "    pin (Y) { direction : output ; function : \"!A\" ;\n"
    "      timing () { related_pin : \"A\" ; timing_sense : negative_unate ;\n"
    "        cell_rise (t2) { values (\"0.10, 0.30\", \"0.20, 0.40\") ; }\n"
    "        cell_fall (t2) { values (\"0.05, 0.25\", \"0.15, 0.35\") ; }\n"
    "        rise_transition (t2) { values (\"0.10, 0.50\", \"0.30, 0.70\") ; }\n"
    "        fall_transition (t2) { values (\"0.08, 0.40\", \"0.20, 0.60\") ; } } } }\n"
    "  cell (NAND2) {\n"
    "    pin (A) { direction : input ; capacitance : 0.03 ; }\n"
    "    pin (B) { direction : input ; capacitance : 0.04 ; }\n"
    "    pin (Y) { direction : output ; function : \"!(A & B)\" ;\n"
    "      timing () { related_pin : \"A B\" ; timing_sense : negative_unate ;\n"
    "        cell_rise (scalar) { values (\"0.2\") ; } cell_fall (scalar) { values (\"0.1\") ; }\n"
    "        rise_transition (scalar) { values (\"0.2\") ; }\n"
    "        fall_transition (scalar) { values (\"0.1\") ; } } } }\n"
    "  cell (DFF) {\n"
    "    ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CLK\" ; }\n"
    "    pin (CLK) { direction : input ; clock : true ; capacitance : 0.005 ; }\n"
    "    pin (D) { direction : input ; capacitance : 0.001 ; }\n"
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n"
    "      timing () { related_pin : \"CLK\" ; timing_type : rising_edge ;\n"
    "        cell_rise (scalar) { values (\"0.3\") ; } cell_fall (scalar) { values (\"0.25\") ; }\n"
    "        rise_transition (scalar) { values (\"0.12\") ; }\n"
    "        fall_transition (scalar) { values (\"0.1\") ; } } } }\n"
    "}\n";

static const char tiny_netlist[] =
    "module top (clk, a, b, y);\n"
    "  input clk, a, b; output y;\n"
    "  wire n1, n2, q;\n"
    "  DFF r1 (.CLK(clk), .D(a), .Q(q));\n"
    "  INV u1 (.A(q), .Y(n1));\n"
    "  NAND2 u2 (.A(n1), .B(b), .Y(n2));\n"
    "  INV u3 (.A(n2), .Y(y));\n"
    "endmodule\n";

static char dir[] = "/tmp/gp_test_design_XXXXXX";

static lib_set *libs;
static design *dg;

static void setup(diag_ctx *d)
{
    char lib_path[256], net_path[256];
    libs = lib_set_new();
    CHECK_EQ_INT(lib_read(libs, scratch_write(dir, "tiny.lib", tiny_lib, lib_path, sizeof lib_path), d), GP_OK);
    const char *paths[] = {scratch_write(dir, "top.v", tiny_netlist, net_path, sizeof net_path)};
    CHECK_EQ_INT(design_read_netlist(&dg, libs, paths, 1, "top", d), GP_OK);
}

static uint32_t pin_of(const char *inst, const char *pin)
{
    uint32_t i = design_find_inst(dg, inst);
    return dg->inst_pin0[i] + (uint32_t)lib_pin_index(dg->inst_cell[i], pin);
}

static uint32_t arc_of(const char *inst)
{
    return dg->inst_arc0[design_find_inst(dg, inst)]; /* each cell's first arc */
}

static void test_netlist_and_levels(void)
{
    CHECK_EQ_INT(dg->n_insts, 4);
    CHECK_EQ_INT(dg->n_nets, 7); /* clk a b y n1 n2 q */
    CHECK_EQ_INT(dg->n_connected_pins, 3 + 2 + 3 + 2);
    uint32_t q = design_find_net(dg, "q");
    CHECK_EQ_INT(dg->net_pin0[q + 1] - dg->net_pin0[q], 2);
    CHECK_EQ_INT(dg->net_driver[q], pin_of("r1", "Q"));
    CHECK_EQ_INT(dg->net_driver[design_find_net(dg, "clk")], DESIGN_NONE);
    CHECK_EQ_INT(dg->inst_level[design_find_inst(dg, "r1")], 0);
    CHECK_EQ_INT(dg->inst_level[design_find_inst(dg, "u1")], 1);
    CHECK_EQ_INT(dg->inst_level[design_find_inst(dg, "u2")], 2);
    CHECK_EQ_INT(dg->inst_level[design_find_inst(dg, "u3")], 3);
    CHECK_EQ_INT(dg->n_levels, 4);
    CHECK_EQ_INT(dg->n_loop_insts, 0);
}

/* Bilinear value of a 2x2 table at fractions fx (slew) and fy (load). */
static double bilinear(double v00, double v01, double v10, double v11, double fx, double fy)
{
    double low = v00 + fy * (v01 - v00), high = v10 + fy * (v11 - v10);
    return low + fx * (high - low);
}

static void test_loads_slews_delays(void)
{
    const double pf = 1e-12;
    CHECK_NEAR_REL(dg->pin_load[pin_of("r1", "Q")], 0.02 * pf, 1e-12);
    CHECK_NEAR_REL(dg->pin_load[pin_of("u1", "Y")], 0.03 * pf, 1e-12);
    CHECK_NEAR_REL(dg->pin_load[pin_of("u2", "Y")], 0.02 * pf, 1e-12);
    CHECK_EQ_INT(dg->pin_load[pin_of("u3", "Y")] == 0.0, 1); /* only an output port */
    CHECK_NEAR_REL(dg->pin_slew[DESIGN_RISE][pin_of("r1", "CLK")], 0.1 * NS, 1e-12);
    CHECK_NEAR_REL(dg->pin_slew[DESIGN_RISE][pin_of("r1", "Q")], 0.12 * NS, 1e-12);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_RISE][arc_of("r1")], 0.3 * NS, 1e-12);
    /* u1, negative unate, load 0.03 pF (fy = 0.5): its rise follows q's fall
     * slew 0.10 ns (fx = 0), its fall q's rise slew 0.12 ns (fx = 0.1). */
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_RISE][arc_of("u1")], bilinear(0.10, 0.30, 0.20, 0.40, 0, 0.5) * NS, 1e-9);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_FALL][arc_of("u1")], bilinear(0.05, 0.25, 0.15, 0.35, 0.1, 0.5) * NS, 1e-9);
    CHECK_NEAR_REL(dg->pin_slew[DESIGN_RISE][pin_of("u1", "Y")], bilinear(0.10, 0.50, 0.30, 0.70, 0, 0.5) * NS, 1e-9);
    CHECK_NEAR_REL(dg->pin_slew[DESIGN_FALL][pin_of("u1", "Y")], bilinear(0.08, 0.40, 0.20, 0.60, 0.1, 0.5) * NS, 1e-9);
    for (uint32_t a = 0; a < dg->n_arcs; a++) /* whole fs, as the events' times */
        for (int dir = 0; dir < 2; dir++)
            CHECK(isnan(dg->arc_delay[dir][a]) || dg->arc_delay[dir][a] == round(dg->arc_delay[dir][a]));
    /* The slew reaches u2's input from u1's output. */
    CHECK_NEAR_REL(dg->pin_slew[DESIGN_FALL][pin_of("u2", "A")], dg->pin_slew[DESIGN_FALL][pin_of("u1", "Y")], 1e-12);
}

static void test_sdf_annotation(void)
{
    static const char sdf[] =
        "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"top\") (DIVIDER /) (TIMESCALE 1ns)\n"
        " (CELL (CELLTYPE \"top\") (INSTANCE)\n"
        "  (DELAY (ABSOLUTE (INTERCONNECT u1/Y u2/A (0.01::0.02)) (INTERCONNECT clk r1/CLK (0.003)))))\n"
        " (CELL (CELLTYPE \"INV\") (INSTANCE u1) (DELAY (ABSOLUTE (IOPATH A Y (0.5::0.6) (0.4::0.45)))))\n"
        " (CELL (CELLTYPE \"NAND2\") (INSTANCE u9)\n"
        "  (DELAY (ABSOLUTE (IOPATH A Y (1) (1)))))\n"
        ")\n";
    char path[256];
    diag_ctx *d = diag_new(NULL);
    design_sdf_stats st;
    double u3_rise = dg->arc_delay[DESIGN_RISE][arc_of("u3")];
    CHECK_EQ_INT(design_read_sdf(dg, scratch_write(dir, "top.sdf", sdf, path, sizeof path), &st, d), GP_OK);
    CHECK_EQ_INT(st.iopaths, 2);
    CHECK_EQ_INT(st.iopaths_matched, 1);
    CHECK_EQ_INT(st.arcs_annotated, 1);
    CHECK_EQ_INT(st.interconnects, 2);
    CHECK_EQ_INT(st.interconnects_matched, 2);
    CHECK_EQ_INT(st.unmatched, 1);
    CHECK_EQ_INT(diag_count_of(d, 7011), 1);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_RISE][arc_of("u1")], 0.6 * NS, 1e-12); /* typ empty: max */
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_FALL][arc_of("u1")], 0.45 * NS, 1e-12);
    CHECK_EQ_INT(dg->arc_from_sdf[arc_of("u1")], 1);
    CHECK_EQ_INT(dg->arc_delay[DESIGN_RISE][arc_of("u3")] == u3_rise, 1); /* untouched */
    CHECK_NEAR_REL(dg->pin_wire_delay[DESIGN_RISE][pin_of("u2", "A")], 0.02 * NS, 1e-12);
    CHECK_NEAR_REL(dg->pin_wire_delay[DESIGN_FALL][pin_of("r1", "CLK")], 0.003 * NS, 1e-12);
    diag_free(d);
}

/* Every kind of entry, in the file's order: an IOPATH on every INV
 * (INSTANCE *), an INCREMENT on one of them that leaves the fall alone,
 * a DEVICE on every arc of the NAND2, and a PORT into u3's input. */
static void test_sdf_every_kind_in_order(void)
{
    static const char sdf[] =
        "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"top\") (DIVIDER /) (TIMESCALE 1ns)\n"
        " (CELL (CELLTYPE \"INV\") (INSTANCE *) (DELAY (ABSOLUTE (IOPATH A Y (0.3) (0.3)))))\n"
        " (CELL (CELLTYPE \"INV\") (INSTANCE u1) (DELAY (INCREMENT (IOPATH A Y (0.05) ()))))\n"
        " (CELL (CELLTYPE \"NAND2\") (INSTANCE u2) (DELAY (ABSOLUTE (DEVICE (0.7) (0.8)))))\n"
        " (CELL (CELLTYPE \"top\") (INSTANCE) (DELAY (ABSOLUTE (PORT u3/A (0.004)))))\n"
        ")\n";
    char path[256];
    diag_ctx *d = diag_new(NULL);
    design_sdf_stats st;
    CHECK_EQ_INT(design_read_sdf(dg, scratch_write(dir, "kinds.sdf", sdf, path, sizeof path), &st, d), GP_OK);
    CHECK_EQ_INT(st.iopaths, 2);
    CHECK_EQ_INT(st.iopaths_matched, 2);
    CHECK_EQ_INT(st.interconnects_matched, 1);
    CHECK_EQ_INT(st.unmatched, 0);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_RISE][arc_of("u1")], 0.35 * NS, 1e-12);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_FALL][arc_of("u1")], 0.3 * NS, 1e-12);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_RISE][arc_of("u3")], 0.3 * NS, 1e-12);
    for (uint32_t a = arc_of("u2"); a < arc_of("u2") + 2; a++) {
        CHECK_NEAR_REL(dg->arc_delay[DESIGN_RISE][a], 0.7 * NS, 1e-12);
        CHECK_NEAR_REL(dg->arc_delay[DESIGN_FALL][a], 0.8 * NS, 1e-12);
    }
    CHECK_NEAR_REL(dg->pin_wire_delay[DESIGN_FALL][pin_of("u3", "A")], 0.004 * NS, 1e-12);
    diag_free(d);
}

/* An SDF of K INCREMENTs on each of three instances, interleaved in the
 * file, with ABSOLUTE entries before and between them: the instances'
 * entries are annotated on threads, instance by instance, and each must
 * still see its own in file order.  The same file behind a CELL of
 * INSTANCE * (every instance of a type the design lacks: it matches
 * nothing) goes entry after entry, and must give the same delays. */
static char *interleaved_sdf(int k, bool wildcard)
{
    size_t size = (size_t)k * 3 * 160 + 1024, at = 0;
    char *text = malloc(size);
    at += (size_t)snprintf(text + at, size - at, "(DELAYFILE (SDFVERSION \"3.0\") (DIVIDER /) "
                           "(TIMESCALE 1ns)\n%s", wildcard ? " (CELL (CELLTYPE \"NOPE\") "
                           "(INSTANCE *) (DELAY (ABSOLUTE (IOPATH A Y (1)))))\n" : "");
    at += (size_t)snprintf(text + at, size - at,
                           " (CELL (CELLTYPE \"INV\") (INSTANCE u1) (DELAY (ABSOLUTE (IOPATH A Y (0.1) (0.2)))))\n"
                           " (CELL (CELLTYPE \"top\") (INSTANCE) (DELAY (ABSOLUTE (INTERCONNECT n1 u2/A (0)) "
                           "(INTERCONNECT b u2/B (-0.001)))))\n");
    for (int r = 0; r < k; r++) {
        if (r == k / 2)
            at += (size_t)snprintf(text + at, size - at, " (CELL (CELLTYPE \"INV\") (INSTANCE u3) "
                                   "(DELAY (ABSOLUTE (IOPATH A Y (0.5) (0.5)))))\n");
        at += (size_t)snprintf(text + at, size - at,
                               " (CELL (CELLTYPE \"INV\") (INSTANCE u1) (DELAY (INCREMENT (IOPATH A Y (0.001) ()))))\n"
                               " (CELL (CELLTYPE \"INV\") (INSTANCE u3) (DELAY (INCREMENT (IOPATH A Y (0.002) (0.002)))))\n"
                               " (CELL (CELLTYPE \"top\") (INSTANCE) (DELAY (INCREMENT (INTERCONNECT n1 u2/A (0.003)))))\n");
    }
    snprintf(text + at, size - at, ")\n");
    return text;
}

/* Net -> pins on a design large enough to be indexed in several parts:
 * INV k reads x[k*k mod X] (nets of 0 to a few loads, in no order) and
 * drives y[k].  Each net's pins must be the pins on it, in pin order. */
static void test_net_pins_of_many_nets(void)
{
    enum { K = 40000, X = 13001 };
    char *text = malloc((size_t)K * 48 + 256), path[256];
    size_t at = (size_t)sprintf(text, "module many (x, y);\n  input [%d:0] x; output [%d:0] y;\n",
                                X - 1, K - 1);
    for (uint64_t k = 0; k < K; k++)
        at += (size_t)sprintf(text + at, "  INV u%llu (.A(x[%llu]), .Y(y[%llu]));\n",
                              (unsigned long long)k, (unsigned long long)(k * k % X),
                              (unsigned long long)k);
    strcpy(text + at, "endmodule\n");
    diag_ctx *d = diag_new(stderr);
    design *many = NULL;
    const char *paths[] = {scratch_write(dir, "many.v", text, path, sizeof path)};
    CHECK_EQ_INT(design_read_structure(&many, libs, paths, 1, "many", NULL, d), GP_OK);
    free(text);
    uint32_t connected = 0;
    bool in_order = many != NULL;
    for (uint32_t p = 0; many && p < many->n_pins; p++)
        connected += many->pin_net[p] != DESIGN_NONE;
    for (uint32_t n = 0; in_order && n < many->n_nets; n++)
        for (uint32_t k = many->net_pin0[n]; k < many->net_pin0[n + 1]; k++)
            in_order = many->pin_net[many->net_pins[k]] == n &&
                       (k == many->net_pin0[n] || many->net_pins[k - 1] < many->net_pins[k]);
    CHECK(in_order);
    CHECK_EQ_INT(many ? many->n_connected_pins : 0, 2 * K);
    CHECK_EQ_INT(connected, 2 * K);
    CHECK_EQ_INT(many ? many->net_pin0[many->n_nets] : 0, 2 * K);
    design_free(many);
    diag_free(d);
}

static void test_sdf_entries_on_threads_keep_their_order(void)
{
    enum { K = 12000 };
    design_sdf_stats st[2];
    double got[2][4];
    for (int wildcard = 0; wildcard < 2; wildcard++) {
        char path[256], *text = interleaved_sdf(K, wildcard);
        diag_ctx *d = diag_new(NULL);
        CHECK_EQ_INT(design_read_sdf(dg, scratch_write(dir, "many.sdf", text, path, sizeof path),
                                     &st[wildcard], d), GP_OK);
        free(text);
        diag_free(d);
        got[wildcard][0] = dg->arc_delay[DESIGN_RISE][arc_of("u1")];
        got[wildcard][1] = dg->arc_delay[DESIGN_FALL][arc_of("u1")];
        got[wildcard][2] = dg->arc_delay[DESIGN_RISE][arc_of("u3")];
        got[wildcard][3] = dg->pin_wire_delay[DESIGN_RISE][pin_of("u2", "A")];
        CHECK_EQ_INT(got[wildcard][0], 100000 + K * 1000); /* whole fs */
        CHECK_EQ_INT(got[wildcard][1], 200000);             /* the INCREMENTs leave the fall */
        CHECK_EQ_INT(got[wildcard][2], 500000 + (K - K / 2) * 2000);
        CHECK_EQ_INT(got[wildcard][3], K * 3000);
        CHECK_EQ_INT(st[wildcard].delays_negative, 2);
        CHECK_EQ_INT(st[wildcard].iopaths, 2 * K + 2 + wildcard);
        CHECK_EQ_INT(st[wildcard].unmatched, wildcard);
    }
    CHECK_EQ_INT(st[0].arcs_annotated, st[1].arcs_annotated);
    CHECK_EQ_INT(st[0].interconnects_matched, K + 2);
    CHECK_EQ_INT(st[1].interconnects_matched, K + 2);
}

/* A CELL of u2 holding K wire delays into its pin A (a file of parts, one
 * a core, that cut the CELL: each part's first entries are u2's though the
 * part never saw its head); the last one read sets the delay. */
static void test_sdf_cell_cut_into_parts(void)
{
    enum { K = 200000 };
    char *text = malloc((size_t)K * 40 + 256), *at = text, path[256];
    at += sprintf(at, "(DELAYFILE (SDFVERSION \"3.0\") (DIVIDER /) (TIMESCALE 1fs)\n"
                      " (CELL (CELLTYPE \"NAND2\") (INSTANCE u2) (DELAY (ABSOLUTE\n");
    for (int k = 1; k <= K; k++)
        at += sprintf(at, "  (INTERCONNECT Y A (%d))\n", k);
    sprintf(at, " )))\n)\n");
    design_sdf_stats st;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(design_read_sdf(dg, scratch_write(dir, "cut.sdf", text, path, sizeof path), &st,
                                 d), GP_OK);
    CHECK_EQ_INT(st.interconnects_matched, K);
    CHECK_EQ_INT(st.unmatched, 0);
    CHECK_EQ_INT(dg->pin_wire_delay[DESIGN_RISE][pin_of("u2", "A")], K);
    diag_free(d);
    free(text);
}

/* Negative delays are taken as 0 with one warning counting them (OpenSTA
 * writes small negative ones; simulators clamp them); a delay beyond the
 * 2^63 fs that times hold is an error at its line. */
static void test_sdf_delay_range(void)
{
    static const char negative[] =
        "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"top\") (DIVIDER /) (TIMESCALE 1ns)\n"
        " (CELL (CELLTYPE \"top\") (INSTANCE)\n"
        "  (DELAY (ABSOLUTE (INTERCONNECT u1/Y u2/A (-0.002)))))\n"
        " (CELL (CELLTYPE \"INV\") (INSTANCE u3) (DELAY (ABSOLUTE (IOPATH A Y (-0.0013) (0.2)))))\n"
        ")\n";
    static const char huge[] =
        "(DELAYFILE (SDFVERSION \"3.0\") (DESIGN \"top\") (DIVIDER /) (TIMESCALE 1ns)\n"
        " (CELL (CELLTYPE \"INV\") (INSTANCE u1)\n"
        "  (DELAY (ABSOLUTE (IOPATH A Y (2e13) (0.2)))))\n"
        ")\n";
    char path[256], *text = NULL;
    size_t len = 0;
    FILE *messages = open_memstream(&text, &len);
    diag_ctx *d = diag_new(messages);
    design_sdf_stats st;
    const char *file = scratch_write(dir, "negative.sdf", negative, path, sizeof path);
    CHECK_EQ_INT(design_read_sdf(dg, file, &st, d), GP_OK);
    CHECK_EQ_INT(st.delays_negative, 3); /* the wire's rise and fall, the arc's rise */
    CHECK_EQ_INT(diag_count_of(d, 7014), 1);
    fclose(messages);
    CHECK(text && strstr(text, "3 SDF delays are negative (the least -2e-12 s)"));
    free(text);
    CHECK_EQ_INT(dg->arc_delay[DESIGN_RISE][arc_of("u3")] == 0.0, 1);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_FALL][arc_of("u3")], 0.2 * NS, 1e-12);
    CHECK_EQ_INT(dg->pin_wire_delay[DESIGN_RISE][pin_of("u2", "A")] == 0.0, 1);
    diag_free(d);
    d = diag_new(NULL);
    file = scratch_write(dir, "huge.sdf", huge, path, sizeof path);
    CHECK_EQ_INT(design_read_sdf(dg, file, &st, d), GP_ERR_INPUT);
    CHECK_EQ_INT(diag_first_error_no(d), 7015);
    CHECK(strstr(diag_first_error_text(d), "huge.sdf:3:") != NULL);
    diag_free(d);
}

static void test_spef_wire_cap(void)
{
    static const char spef[] =
        "*SPEF \"IEEE 1481-1998\"\n*DESIGN \"top\"\n*DATE \"today\"\n*VENDOR \"me\"\n"
        "*PROGRAM \"hand\"\n*VERSION \"1\"\n*DESIGN_FLOW \"x\"\n*DIVIDER /\n*DELIMITER :\n"
        "*BUS_DELIMITER [ ]\n*T_UNIT 1 NS\n*C_UNIT 1 PF\n*R_UNIT 1 OHM\n*L_UNIT 1 HENRY\n\n"
        "*D_NET n1 0.01\n*CONN\n*I u1:Y O\n*I u2:A I\n*END\n\n"
        "*D_NET nowhere 0.5\n*CONN\n*I u7:Y O\n*END\n";
    char path[256];
    diag_ctx *d = diag_new(NULL);
    design_spef_stats st;
    design_timing_options opt = design_timing_defaults();
    CHECK_EQ_INT(design_read_spef(dg, scratch_write(dir, "top.spef", spef, path, sizeof path), &opt, &st, d), GP_OK);
    CHECK_EQ_INT(st.nets, 2);
    CHECK_EQ_INT(st.nets_matched, 1);
    CHECK_EQ_INT(diag_count_of(d, 7012), 1);
    CHECK_NEAR_REL(dg->pin_load[pin_of("u1", "Y")], (0.03 + 0.01) * 1e-12, 1e-12);
    CHECK_NEAR_REL(dg->arc_delay[DESIGN_RISE][arc_of("u1")], bilinear(0.10, 0.30, 0.20, 0.40, 0, 0.75) * NS, 1e-9);
    CHECK_EQ_INT(dg->arc_from_sdf[arc_of("u1")], 0); /* recomputed from NLDM */
    diag_free(d);
}

/* The store of the VCD `text` (written to `name`) under `scope`; its
 * reading's statistics in *st. */
static events *read_events(const char *name, const char *text, const char *scope,
                           events_stats *st)
{
    char path[256];
    diag_ctx *d = diag_new(NULL);
    events *ev = NULL;
    events_options opt = {.scope = scope};
    CHECK_EQ_INT(events_read(dg, scratch_write(dir, name, text, path, sizeof path), &opt, &ev, st, d), GP_OK);
    diag_free(d);
    return ev;
}

static void test_events(void)
{
    static const char vcd[] =
        "$timescale 1ps $end\n$scope module tb $end\n$scope module dut $end\n"
        "$var wire 1 ! clk $end\n$var wire 1 \" n1 $end\n$var wire 2 # bus [1:0] $end\n"
        "$upscope $end\n$upscope $end\n$enddefinitions $end\n"
        "#0\n0!\n1\"\nb00 #\n#500\n1!\n0\"\n#1000\n0!\n";
    events_stats st;
    events *ev = read_events("act.vcd", vcd, "tb/dut", &st);
    CHECK(ev != NULL);
    if (!ev)
        return;
    CHECK_EQ_INT(st.vars, 3);
    CHECK_EQ_INT(st.signals_matched, 2);
    CHECK_EQ_INT(st.signals_unmatched, 2);
    CHECK_EQ_INT(st.nets_with_activity, 2);
    CHECK_EQ_INT(ev->n_events, 5);
    CHECK_EQ_INT(ev->end_fs, 1000000);
    uint32_t clk = design_find_net(dg, "clk"), n1 = design_find_net(dg, "n1");
    uint64_t k = ev->net_ev0[clk];
    CHECK_EQ_INT(ev->net_ev0[clk + 1] - k, 3);
    CHECK_EQ_INT(events_time(ev, k + 1), 500000);
    CHECK_EQ_INT(events_value(ev, k + 1), 1);
    CHECK_EQ_INT(events_time(ev, k + 2), 1000000);
    CHECK_EQ_INT(events_value(ev, k + 2), 0);
    CHECK_EQ_INT(ev->net_ev0[n1 + 1] - ev->net_ev0[n1], 2);
    CHECK_EQ_INT(events_value(ev, ev->net_ev0[n1]), 1);
    events_free(ev);
}

/* A name longer than any kept (cut at 4096 bytes) stays unmatched, and
 * the names after it are whole: n1's changes arrive. */
static void test_events_long_name(void)
{
    enum { LONG = 5000 };
    static const char head[] = "$timescale 1ps $end\n$scope module tb $end\n$var wire 1 ! ";
    static const char tail[] = " $end\n$var wire 1 \" n1 $end\n$upscope $end\n"
                               "$enddefinitions $end\n#0\n0!\n1\"\n#500\n0\"\n";
    static char vcd[sizeof head + LONG + sizeof tail];
    memcpy(vcd, head, sizeof head - 1);
    memset(vcd + sizeof head - 1, 'n', LONG);
    memcpy(vcd + sizeof head - 1 + LONG, tail, sizeof tail);
    events_stats st;
    events *ev = read_events("long.vcd", vcd, "tb", &st);
    CHECK_EQ_INT(st.vars, 2);
    CHECK_EQ_INT(st.signals_matched, 1);
    CHECK_EQ_INT(st.signals_unmatched, 1);
    uint32_t n1 = design_find_net(dg, "n1");
    CHECK(ev && ev->net_ev0[n1 + 1] - ev->net_ev0[n1] == 2);
    events_free(ev);
}

/* A simulator dumps the cell models' scopes too: u2/Y, the output that
 * drives n2 (not dumped as a net here), gives n2's changes; u3/Y drives y,
 * dumped itself before it: a duplicate; u2/A, an input (its net's value
 * after the wire), is counted apart from the unmatched, as u3/Z, no pin
 * of an INV, is not. */
static void test_events_from_cell_pins(void)
{
    static const char vcd[] =
        "$timescale 1ps $end\n$scope module tb $end\n$scope module dut $end\n"
        "$var wire 1 ! y $end\n$scope module u2 $end\n$var wire 1 \" Y $end\n"
        "$var wire 1 # A $end\n$upscope $end\n$scope module u3 $end\n$var wire 1 ! Y $end\n"
        "$var wire 1 $ Z $end\n$upscope $end\n$upscope $end\n$upscope $end\n"
        "$enddefinitions $end\n#0\n0!\n1\"\n0#\n0$\n#500\n0\"\n1#\n1!\n";
    events_stats st;
    events *ev = read_events("pins.vcd", vcd, "tb/dut", &st);
    CHECK_EQ_INT(st.signals_matched, 3);   /* y, u2/Y (n2), u3/Y (y again) */
    CHECK_EQ_INT(st.signals_duplicate, 1); /* u3/Y: y came first */
    CHECK_EQ_INT(st.signals_pins, 1);      /* u2/A */
    CHECK_EQ_INT(st.signals_unmatched, 1); /* u3/Z: no such pin */
    uint32_t n2 = design_find_net(dg, "n2");
    CHECK(ev && ev->net_ev0[n2 + 1] - ev->net_ev0[n2] == 2);
    events_free(ev);
}

/* Reads the netlist `text` whose top module is `top` with the tiny library. */
static design *read_small(const char *top, const char *text, diag_ctx *d)
{
    char path[256], file[64];
    snprintf(file, sizeof file, "%s.v", top);
    const char *paths[] = {scratch_write(dir, file, text, path, sizeof path)};
    design *out;
    CHECK_EQ_INT(design_read_netlist(&out, libs, paths, 1, top, d), GP_OK);
    return out;
}

static void test_combinational_loop_is_reported(void)
{
    static const char loop[] = "module loop (a, y);\n  input a; output y;\n  wire x;\n"
                               "  NAND2 g1 (.A(a), .B(y), .Y(x));\n  INV g2 (.A(x), .Y(y));\n"
                               "endmodule\n";
    diag_ctx *d = diag_new(NULL);
    design *looped = read_small("loop", loop, d);
    CHECK(looped && looped->n_loop_insts == 2);
    CHECK_EQ_INT(diag_count_of(d, 7007), 1);
    design_free(looped);
    diag_free(d);
}

/* Two outputs on one net (a short): one warning naming the net, and the
 * first output in the netlist drives it. */
static void test_two_drivers_are_reported(void)
{
    static const char shorted[] = "module shorted (a, y);\n  input a; output y;\n"
                                  "  INV g1 (.A(a), .Y(y));\n  INV g2 (.A(a), .Y(y));\n"
                                  "endmodule\n";
    diag_ctx *d = diag_new(NULL);
    design *sh = read_small("shorted", shorted, d);
    CHECK_EQ_INT(diag_count_of(d, 7006), 1);
    if (sh) {
        uint32_t g1 = design_find_inst(sh, "g1");
        CHECK_EQ_INT(sh->net_driver[design_find_net(sh, "y")],
                     sh->inst_pin0[g1] + (uint32_t)lib_pin_index(sh->inst_cell[g1], "Y"));
    }
    design_free(sh);
    diag_free(d);
}

/* A flop's D driven by logic that its own Q drives: the flop is timed
 * first (it waits only for its clock), and D still gets its driver's
 * slew, as every input pin does (docs/model.md). */
static void test_feedback_input_has_its_driver_slew(void)
{
    static const char ring[] = "module ring (clk, y);\n  input clk; output y;\n  wire q;\n"
                               "  DFF r1 (.CLK(clk), .D(y), .Q(q));\n  INV u1 (.A(q), .Y(y));\n"
                               "endmodule\n";
    diag_ctx *d = diag_new(NULL);
    design *rg = read_small("ring", ring, d);
    if (rg) {
        uint32_t r1 = design_find_inst(rg, "r1"), u1 = design_find_inst(rg, "u1");
        uint32_t d_pin = rg->inst_pin0[r1] + (uint32_t)lib_pin_index(rg->inst_cell[r1], "D");
        uint32_t y_pin = rg->inst_pin0[u1] + (uint32_t)lib_pin_index(rg->inst_cell[u1], "Y");
        for (int dir = 0; dir < 2; dir++) {
            CHECK(rg->pin_slew[dir][y_pin] > 0);
            CHECK(rg->pin_slew[dir][d_pin] == rg->pin_slew[dir][y_pin]);
        }
    }
    design_free(rg);
    diag_free(d);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    diag_ctx *d = diag_new(stderr);
    setup(d);
    if (!dg)
        return 1; /* the setup's failed checks are printed */
    RUN(test_netlist_and_levels);
    RUN(test_two_drivers_are_reported);
    RUN(test_loads_slews_delays);
    RUN(test_sdf_annotation);
    RUN(test_sdf_delay_range);
    RUN(test_sdf_every_kind_in_order);
    RUN(test_net_pins_of_many_nets);
    RUN(test_sdf_entries_on_threads_keep_their_order);
    RUN(test_sdf_cell_cut_into_parts);
    RUN(test_spef_wire_cap);
    RUN(test_events);
    RUN(test_events_long_name);
    RUN(test_events_from_cell_pins);
    RUN(test_combinational_loop_is_reported);
    RUN(test_feedback_input_has_its_driver_slew);
    design_free(dg);
    lib_set_free(libs);
    diag_free(d);
    if (!scratch_remove(dir))
        return 1;
    return check_exit_code();
}
