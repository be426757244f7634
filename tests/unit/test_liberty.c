/* test_liberty.c: the Liberty reader on small hand-made libraries: units,
 * table lookup, expressions, power and leakage groups, buses, ff/latch,
 * skipped groups, several libraries in one set.  Expected values are worked
 * out by hand in the comments next to them. */
#include <stdint.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "liberty/liberty.h"

#define NS 1e6 /* fs: times are femtoseconds */
#define PS 1e3

static char tmpdir[] = "/tmp/gp_test_liberty_XXXXXX";

/* Writes text to tmpdir/name (gzip-compressed when gz); returns the path. */
static const char *write_file(const char *name, const char *text, int gz)
{
    static char path[8][512];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
    if (gz) {
        gzFile g = gzopen(p, "wb");
        gzwrite(g, text, (unsigned)strlen(text));
        gzclose(g);
    } else {
        FILE *f = fopen(p, "wb");
        fputs(text, f);
        fclose(f);
    }
    return p;
}

static const char lib1[] =
    "/* a hand-made library */\n"
    "library (test1) {\n"
    "  delay_model : table_lookup;\n"
    "  time_unit : \"1ns\";\n"
    "  voltage_unit : \"1V\";\n"
    "  current_unit : \"1mA\";\n"
    "  pulling_resistance_unit : \"1kohm\";\n"
    "  leakage_power_unit : \"1nW\";\n"
    "  capacitive_load_unit (1, pf);\n"
    "  nom_voltage : 1.2;\n"
    "  define (my_attr, pin, string);\n"
    "  operating_conditions (typ) { voltage : 1.1; process : 1; temperature : 25; }\n"
    "  default_operating_conditions : typ;\n"
    "  voltage_map (VDD, 1.1);\n"
    "  voltage_map (VSS, 0);\n"
    "  default_cell_leakage_power : 0.5;\n"
    "  default_input_pin_cap : 0.002;\n"
    "  wire_load (small) { capacitance : 0.0002; resistance : 0.1; slope : 5; fanout_length (1, 10); fanout_length (2, 15.5); }\n"
    "  default_wire_load : small;\n"
    "  lu_table_template (delay_2x3) {\n"
    "    variable_1 : input_net_transition;\n"
    "    variable_2 : total_output_net_capacitance;\n"
    "    index_1 (\"0.1, 0.3\");\n"
    "    index_2 (\"0.01, 0.02, 0.04\");\n"
    "  }\n"
    "  lu_table_template (delay_swapped) {\n"
    "    variable_1 : total_output_net_capacitance;\n"
    "    variable_2 : input_net_transition;\n"
    "    index_1 (\"0.01, 0.02, 0.04\");\n"
    "    index_2 (\"0.1, 0.3\");\n"
    "  }\n"
    "  power_lut_template (energy_in) {\n"
    "    variable_1 : input_transition_time;\n"
    "    index_1 (\"0.1, 0.5\");\n"
    "  }\n"
    "  lu_table_template (three_d) {\n"
    "    variable_1 : input_net_transition; variable_2 : total_output_net_capacitance;\n"
    "    variable_3 : output_net_length;\n"
    "    index_1 (\"1\"); index_2 (\"1\"); index_3 (\"1\");\n"
    "  }\n"
    "  lu_table_template (by_length) {\n"
    "    variable_1 : output_net_length; index_1 (\"1, 2\");\n"
    "  }\n"
    "  type (bus4) { base_type : array; data_type : bit; bit_width : 4; bit_from : 3; bit_to : 0; downto : true; }\n"
    "  cell (NAND2) {\n"
    "    area : 2.5;\n"
    "    cell_leakage_power : 3.0;\n"
    "    pg_pin (VDD) { pg_type : primary_power; voltage_name : VDD; }\n"
    "    pg_pin (VSS) { pg_type : primary_ground; voltage_name : VSS; }\n"
    "    leakage_power () { when : \"!A !B\"; value : 1.5; related_pg_pin : VDD; }\n"
    "    leakage_power () { when : \"A B\"; value : 4.0; }\n"
    "    leakage_power () { value : 2.0; }\n"
    "    pin (Y) {\n"
    "      direction : output;\n"
    "      function : \"(A B)'\";\n"
    "      max_capacitance : 0.5;\n"
    "      related_power_pin : VDD; related_ground_pin : VSS;\n"
    "      timing () {\n"
    "        related_pin : \"A B\";\n"
    "        timing_sense : negative_unate;\n"
    "        cell_rise (delay_2x3) {\n"
    "          values (\"1, 2, 4\", \\\n"
    "                  \"3, 5, 9\");\n"
    "        }\n"
    "        cell_fall (delay_swapped) { values (\"1, 3\", \"2, 5\", \"4, 9\"); }\n"
    "        rise_transition (delay_2x3) {\n"
    "          index_1 (\"0.2, 0.4\");\n"
    "          values (\"1, 2, 4\", \"3, 5, 9\");\n"
    "        }\n"
    "        fall_transition (scalar) { values (\"0.25\"); }\n"
    "      }\n"
    "      internal_power () {\n"
    "        related_pin : A;\n"
    "        when : \"B\";\n"
    "        rise_power (delay_2x3) { values (\"1, 2, 3\", \"4, 5, 6\"); }\n"
    "        fall_power (scalar) { values (\"-0.5\"); }\n"
    "      }\n"
    "      internal_power () {\n"
    "        related_pin : \"A\";\n"
    "        related_pg_pin : VSS;\n"
    "        power (scalar) { values (\"0.125\"); }\n"
    "      }\n"
    "    }\n"
    "    pin (A) {\n"
    "      direction : input; capacitance : 0.004; rise_capacitance : 0.005; fall_capacitance : 0.003;\n"
    "      internal_power () {\n"
    "        rise_power (energy_in) { values (\"0.2, 0.6\"); }\n"
    "        fall_power (energy_in) { index_1 (\"0.2, 1.0\"); values (\"1, 2\"); }\n"
    "      }\n"
    "    }\n"
    "    pin (B) { direction : input; rise_capacitance : 0.006; fall_capacitance : 0.002; }\n"
    "  }\n"
    "  cell (EXPR) {\n"
    "    pin (A) { direction : input; } pin (B) { direction : input; }\n"
    "    pin (C) { direction : input; } pin (D) { direction : input; }\n"
    "    pin (X1) { direction : output; function : \"A ^ B C\"; }\n"
    "    pin (X2) { direction : output; function : \"A + B ^ C\"; }\n"
    "    pin (X3) { direction : output; function : \"A' B + !C D\"; }\n"
    "    pin (X4) { direction : output; function : \"(A)(B)\"; }\n"
    "    pin (X5) { direction : output; function : \"1\"; }\n"
    "    pin (X6) { direction : output; function : \"0\"; }\n"
    "    pin (X7) { direction : output; function : \"A * 1 + 0\"; }\n"
    "    pin (X8) { direction : output; function : \"!(A | B) & C\"; }\n"
    "    pin (X9) { direction : output; function : \"A & B | C & D\"; }\n"
    "    pin (X10) { direction : output; function : \"\\\"A\\\" & B\"; }\n"
    "  }\n"
    "  cell (AOI) {\n"
    "    pin (A) { direction : input; } pin (B) { direction : input; } pin (C) { direction : input; }\n"
    "    pin (Y) { direction : output; function : \"!(A B + C)\";\n"
    "      timing () { related_pin : \"A\"; cell_rise (scalar) { values (\"1\"); } }\n"
    "      timing () { related_pin : \"C\"; timing_type : combinational; }\n"
    "    }\n"
    "    pin (Z) { direction : output; function : \"A ^ B\";\n"
    "      timing () { related_pin : \"B\"; }\n"
    "      timing () { related_pin : \"A\"; timing_type : non_seq_nonsense; }\n"
    "      timing () { related_pin : \"B\"; timing_type : no_such_type; }\n"
    "      timing () { related_pin : \"C\"; cell_rise (three_d) { values (\"1\"); } cell_fall (by_length) { values (\"1, 2\"); } }\n"
    "      timing () { related_pin : \"C\"; rise_transition (three_d) { values (\"1\"); } }\n"
    "    }\n"
    "    statetable (\"A B\", \"Q\") { table : \"L L : - : H\"; }\n"
    "  }\n"
    "  cell (DFF) {\n"
    "    ff (IQ, IQN) { next_state : \"D\"; clocked_on : \"CK\"; clear : \"!RN\"; clear_preset_var1 : L; }\n"
    "    pin (CK) { direction : input; clock : true; }\n"
    "    pin (Q) { direction : output; function : \"IQ\";\n"
    "      timing () { related_pin : \"CK\"; timing_type : rising_edge; }\n"
    "      timing () { related_pin : \"RN\"; timing_type : clear; timing_sense : positive_unate; }\n"
    "    }\n"
    "    pin (QN) { direction : output; function : \"IQN\"; }\n"
    "    pin (D) { direction : input;\n"
    "      timing () { related_pin : CK; timing_type : setup_rising;\n"
    "        rise_constraint (delay_2x3) { values (\"1, 2, 3\", \"4, 5, 6\"); } }\n"
    "    }\n"
    "    pin (RN) { direction : input; }\n"
    "    statetable (\"D\", \"Q\") { table : \"L : - : L\"; }\n"
    "  }\n"
    "  cell (LAT) {\n"
    "    latch (IQ) { enable : \"G\"; data_in : \"D\"; }\n"
    "    pin (G) { direction : input; } pin (D) { direction : input; }\n"
    "    pin (Q) { direction : output; function : \"IQ\"; }\n"
    "  }\n"
    "  cell (REG4) {\n"
    "    bus (D) {\n"
    "      bus_type : bus4;\n"
    "      pin (D[2]) { capacitance : 0.003; }\n"
    "      direction : input;\n"
    "      capacitance : 0.001;\n"
    "    }\n"
    "    bus (Q) {\n"
    "      bus_type : bus4; direction : output; function : \"D\";\n"
    "      timing () { related_pin : \"D\"; cell_rise (scalar) { values (\"0.1\"); } }\n"
    "      pin (Q[1:0]) { function : \"!D\"; }\n"
    "    }\n"
    "    pin (EN) { direction : input; }\n"
    "    bundle (Z) { members (Z0, Z1); direction : output; function : \"EN & D[3]\";\n"
    "      timing () { related_bus_pins : \"D\"; }\n"
    "    }\n"
    "  }\n"
    "  cell (BIG) {\n"
    "    pin (A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15) { direction : input; }\n"
    "    pin (Y) { direction : output; function : \"A0 & A15\"; }\n"
    "  }\n"
    "}\n";

static const lib_set *the_set;
static diag_ctx *the_diag;

/* The first library, read once for all tests of this file. */
static void read_lib1(void)
{
    lib_set *s = lib_set_new();
    the_diag = diag_new(NULL);
    CHECK_EQ_INT(lib_read(s, write_file("lib1.lib", lib1, 0), the_diag), GP_OK);
    CHECK_EQ_INT(diag_error_count(the_diag), 0);
    if (diag_error_count(the_diag))
        fprintf(stderr, "  %s\n", diag_first_error_text(the_diag));
    the_set = s;
}

static const lib_cell *cell(const char *name)
{
    const lib_cell *c = lib_find_cell(the_set, name);
    CHECK(c != NULL);
    if (!c) {
        fprintf(stderr, "cell %s missing\n", name);
        exit(1);
    }
    return c;
}

static const lib_pin *pin(const lib_cell *c, const char *name)
{
    int32_t i = lib_pin_index(c, name);
    CHECK(i >= 0);
    if (i < 0) {
        fprintf(stderr, "pin %s missing\n", name);
        exit(1);
    }
    return &c->pins[i];
}

static void test_units_and_library(void)
{
    CHECK_EQ_INT(lib_library_count(the_set), 1);
    const lib_library *l = lib_library_at(the_set, 0);
    CHECK_EQ_STR(l->name, "test1");
    CHECK_NEAR_REL(l->time_unit, 1e6, 1e-12); /* fs per unit */
    CHECK_NEAR_REL(l->cap_unit, 1e-12, 1e-12);
    CHECK_NEAR_REL(l->voltage_unit, 1, 1e-12);
    CHECK_NEAR_REL(l->current_unit, 1e-3, 1e-12);
    CHECK_NEAR_REL(l->resistance_unit, 1e3, 1e-12);
    CHECK_NEAR_REL(l->leakage_power_unit, 1e-9, 1e-12);
    CHECK_NEAR_REL(l->energy_unit, 1e-12, 1e-12); /* 1 V^2 * 1 pF */
    CHECK_NEAR_REL(l->nom_voltage, 1.2, 1e-12);
    CHECK_NEAR_REL(l->operating_voltage, 1.1, 1e-12);
    CHECK_NEAR_REL(l->voltage, 1.1, 1e-12); /* the operating conditions win */
    CHECK_EQ_INT(diag_count_of(the_diag, 2117), 1); /* and the difference is warned about */
    CHECK_NEAR_REL(l->default_cell_leakage_power, 0.5e-9, 1e-12);
    CHECK_NEAR_REL(l->default_input_pin_cap, 0.002e-12, 1e-12);
    CHECK_EQ_INT(l->n_voltage_map, 2);
    CHECK_EQ_STR(l->voltage_map[0].name, "VDD");
    CHECK_NEAR_REL(l->voltage_map[0].volts, 1.1, 1e-12);
    CHECK_EQ_INT(l->n_wire_loads, 1);
    CHECK_EQ_STR(l->default_wire_load, "small");
    CHECK_NEAR_REL(l->wire_loads[0].capacitance, 0.0002e-12, 1e-12);
    CHECK_NEAR_REL(l->wire_loads[0].resistance, 0.1e3, 1e-12);
    CHECK_EQ_INT(l->wire_loads[0].n_fanouts, 2);
    CHECK_NEAR_REL(l->wire_loads[0].length[1], 15.5, 1e-12);
    CHECK_EQ_INT(l->n_cells, 7);
    CHECK_EQ_INT(lib_cell_count(the_set), 7);
    CHECK_EQ_STR(lib_cell_at(the_set, 0)->name, "NAND2");
    CHECK(lib_find_cell(the_set, "NOPE") == NULL);
}

static void test_pins_and_caps(void)
{
    const lib_cell *c = cell("NAND2");
    CHECK_NEAR_REL(c->area, 2.5, 1e-12);
    CHECK_NEAR_REL(c->cell_leakage_power, 3e-9, 1e-12);
    CHECK(c->has_cell_leakage_power);
    /* inputs first: A, B, then Y, whatever the file's order */
    CHECK_EQ_INT(c->n_pins, 3);
    CHECK_EQ_INT(c->n_inputs, 2);
    CHECK_EQ_INT(c->n_outputs, 1);
    CHECK_EQ_INT(lib_pin_index(c, "A"), 0);
    CHECK_EQ_INT(lib_pin_index(c, "B"), 1);
    CHECK_EQ_INT(lib_pin_index(c, "Y"), 2);
    CHECK_EQ_INT(lib_pin_index(c, "Q"), LIB_NONE);
    const lib_pin *a = pin(c, "A"), *b = pin(c, "B"), *y = pin(c, "Y");
    CHECK_EQ_INT(a->dir, LIB_DIR_INPUT);
    CHECK_NEAR_REL(a->capacitance, 4e-15, 1e-12);
    CHECK_NEAR_REL(a->rise_capacitance, 5e-15, 1e-12);
    CHECK_NEAR_REL(a->fall_capacitance, 3e-15, 1e-12);
    CHECK_NEAR_REL(b->capacitance, 4e-15, 1e-12); /* no capacitance: mean of 6 and 2 fF */
    CHECK_NEAR_REL(b->rise_capacitance, 6e-15, 1e-12);
    CHECK_EQ_INT(y->dir, LIB_DIR_OUTPUT);
    CHECK_NEAR_REL(y->max_capacitance, 0.5e-12, 1e-12);
    CHECK(y->capacitance == 0); /* default_output_pin_cap absent: 0 */
    CHECK_EQ_INT(c->n_pg_pins, 2);
    CHECK_EQ_STR(c->pg_pins[0].name, "VDD");
    CHECK_EQ_STR(c->pg_pins[0].pg_type, "primary_power");
    CHECK_NEAR_REL(c->pg_pins[0].voltage, 1.1, 1e-12);
    CHECK(c->pg_pins[1].voltage == 0);
    CHECK_EQ_INT(y->related_power_pg, 0);
    CHECK_EQ_INT(y->related_ground_pg, 1);
    CHECK_EQ_INT(a->related_power_pg, LIB_NONE);
    /* a cell without cell_leakage_power takes the library default */
    CHECK_NEAR_REL(cell("EXPR")->cell_leakage_power, 0.5e-9, 1e-12);
    CHECK(!cell("EXPR")->has_cell_leakage_power);
    /* default_input_pin_cap for an input without capacitance */
    CHECK_NEAR_REL(pin(cell("EXPR"), "A")->capacitance, 0.002e-12, 1e-12);
}

static void test_table_lookup(void)
{
    const lib_cell *c = cell("NAND2");
    const lib_pin *y = pin(c, "Y");
    CHECK_EQ_INT(y->n_arcs, 2); /* related_pin "A B": one arc each */
    const lib_arc *arc = &c->arcs[y->first_arc];
    CHECK_EQ_INT(arc[0].related, 0);
    CHECK_EQ_INT(arc[1].related, 1);
    CHECK_EQ_INT(arc[0].sense, LIB_SENSE_NEGATIVE_UNATE);
    CHECK_EQ_INT(arc[0].type, LIB_TT_COMBINATIONAL);
    CHECK(arc[0].table[LIB_CELL_RISE] == arc[1].table[LIB_CELL_RISE]);
    const lib_table *t = arc[0].table[LIB_CELL_RISE];
    CHECK_EQ_INT(t->n_dims, 2);
    CHECK_EQ_INT(t->var[0], LIB_VAR_INPUT_SLEW);
    CHECK_EQ_INT(t->size[0], 2);
    CHECK_EQ_INT(t->size[1], 3);
    CHECK_NEAR_REL(t->index[1][2], 0.04e-12, 1e-12);
    CHECK_NEAR_REL(t->values[5], 9 * NS, 1e-12);
    /* on the grid: slew 0.3 ns, load 0.02 pF -> 5 ns */
    CHECK_NEAR_REL(lib_table_lookup(t, 0.3 * NS, 0.02e-12), 5 * NS, 1e-12);
    /* inside: slew 0.2, load 0.03: rows give 3 and 7, their mean 5 ns */
    CHECK_NEAR_REL(lib_table_lookup(t, 0.2 * NS, 0.03e-12), 5 * NS, 1e-12);
    /* slew 0.15, load 0.012: row0 1+0.2*1 = 1.2, row1 3+0.2*2 = 3.4; 1.2+0.25*2.2 = 1.75 ns */
    CHECK_NEAR_REL(lib_table_lookup(t, 0.15 * NS, 0.012e-12), 1.75 * NS, 1e-12);
    /* outside: slew 0.5 (f = 2), load 0.005 (g = -0.5): rows 0.5 and 2; 0.5 + 2*1.5 = 3.5 ns */
    CHECK_NEAR_REL(lib_table_lookup(t, 0.5 * NS, 0.005e-12), 3.5 * NS, 1e-12);
    /* above both: slew 0.4 (f = 1.5), load 0.06 (g = 2 on [0.02, 0.04]): rows 6 and 13; 6 + 1.5*7 = 16.5 */
    CHECK_NEAR_REL(lib_table_lookup(t, 0.4 * NS, 0.06e-12), 16.5 * NS, 1e-12);
    /* the same function written with the axes swapped gives the same numbers */
    const lib_table *sw = arc[0].table[LIB_CELL_FALL];
    CHECK_EQ_INT(sw->var[0], LIB_VAR_LOAD);
    CHECK_EQ_INT(sw->var[1], LIB_VAR_INPUT_SLEW);
    CHECK_NEAR_REL(lib_table_lookup(sw, 0.2 * NS, 0.03e-12), 5 * NS, 1e-12);
    CHECK_NEAR_REL(lib_table_lookup(sw, 0.15 * NS, 0.012e-12), 1.75 * NS, 1e-12);
    CHECK_NEAR_REL(lib_table_lookup(sw, 0.5 * NS, 0.005e-12), 3.5 * NS, 1e-12);
    /* index_1 overridden to (0.2, 0.4): slew 0.3, load 0.02 -> between 2 and 5: 3.5 ns */
    const lib_table *ov = arc[0].table[LIB_RISE_TRANSITION];
    CHECK_NEAR_REL(ov->index[0][0], 0.2 * NS, 1e-12);
    CHECK_NEAR_REL(lib_table_lookup(ov, 0.3 * NS, 0.02e-12), 3.5 * NS, 1e-12);
    /* the template's own index is untouched */
    CHECK_NEAR_REL(t->index[0][0], 0.1 * NS, 1e-12);
    /* scalar */
    const lib_table *sc = arc[0].table[LIB_FALL_TRANSITION];
    CHECK_EQ_INT(sc->n_dims, 0);
    CHECK_NEAR_REL(lib_table_lookup(sc, 123, 456), 0.25 * NS, 1e-12);
    CHECK(arc[0].table[LIB_RISE_CONSTRAINT] == NULL);
    /* 1-D power table of input A (energy: 1 V^2 * 1 pF = 1 pJ) */
    const lib_pin *a = pin(c, "A");
    CHECK_EQ_INT(a->n_powers, 1);
    const lib_power *pa = &c->powers[a->first_power];
    CHECK_EQ_INT(pa->related, LIB_NONE);
    CHECK(pa->when == NULL);
    CHECK_EQ_INT(pa->rise->n_dims, 1);
    CHECK_NEAR_REL(lib_table_lookup(pa->rise, 0.3 * NS, 0), 0.4e-12, 1e-12);
    CHECK_NEAR_REL(lib_table_lookup(pa->rise, 0.9 * NS, 7), 1.0e-12, 1e-12); /* 0.2 + 2*0.4 */
    CHECK_NEAR_REL(lib_table_lookup(pa->rise, 0, 0), 0.1e-12, 1e-12);      /* 0.2 - 0.25*0.4 */
    CHECK_NEAR_REL(lib_table_lookup(pa->fall, 0.6 * NS, 0), 1.5e-12, 1e-12); /* index (0.2, 1.0) */
}

static void test_constraint_and_lookup_var(void)
{
    const lib_cell *c = cell("DFF");
    const lib_pin *d = pin(c, "D");
    CHECK_EQ_INT(d->n_arcs, 1);
    const lib_arc *a = &c->arcs[d->first_arc];
    CHECK_EQ_INT(a->type, LIB_TT_SETUP_RISING);
    CHECK(!lib_timing_type_is_delay(a->type));
    CHECK_EQ_INT(a->related, lib_pin_index(c, "CK"));
    const lib_table *t = a->table[LIB_RISE_CONSTRAINT];
    CHECK(t != NULL);
    /* delay_2x3: (slew, load) axes; value at (0.3 ns, 0.04 pF) = 6 ns */
    double v[LIB_VAR_COUNT] = {0.3 * NS, 0.04e-12, 0, 0};
    CHECK_NEAR_REL(lib_table_lookup_var(t, v), 6 * NS, 1e-12);
}

/* Pin value of bit i of state s. */
#define BIT(s, i) (((s) >> (i)) & 1u)

static void test_expressions(void)
{
    const lib_cell *c = cell("EXPR");
    CHECK_EQ_INT(c->n_vars, 14);
    CHECK(c->exprs_compiled);
    for (uint32_t s = 0; s < 16; s++) {
        unsigned a = BIT(s, 0), b = BIT(s, 1), cc = BIT(s, 2), d = BIT(s, 3);
        unsigned want[10] = {
            (a ^ b) & cc,               /* XOR binds tighter than AND */
            a | (b ^ cc),               /* and than OR */
            ((1 ^ a) & b) | ((1 ^ cc) & d), /* x' and !x invert */
            a & b,                      /* (A)(B) */
            1, 0, a,                    /* constants */
            (1 ^ (a | b)) & cc,
            (a & b) | (cc & d),         /* AND before OR */
            a & b};                     /* a quoted name */
        for (int k = 0; k < 10; k++) {
            char name[8];
            snprintf(name, sizeof name, "X%d", k + 1);
            const lib_pin *p = pin(c, name);
            CHECK_EQ_INT(lib_expr_eval(c, p->function, s), want[k]);
            /* output pins' own bits do not matter */
            CHECK_EQ_INT(lib_expr_eval(c, p->function, s | 0x3ff0u), want[k]);
        }
    }
    CHECK_EQ_STR(pin(c, "X3")->function->text, "A' B + !C D");
}

static void test_sense_and_dropped_arcs(void)
{
    const lib_cell *c = cell("AOI");
    const lib_pin *y = pin(c, "Y"), *z = pin(c, "Z");
    CHECK_EQ_INT(y->n_arcs, 2);
    /* no timing_sense: derived from the function, !(A B + C) falls in A and C */
    CHECK_EQ_INT(c->arcs[y->first_arc].sense, LIB_SENSE_NEGATIVE_UNATE);
    CHECK_EQ_INT(c->arcs[y->first_arc + 1].sense, LIB_SENSE_NEGATIVE_UNATE);
    /* Z = A ^ B: non-unate; the arcs with unknown timing types are dropped */
    CHECK_EQ_INT(z->n_arcs, 3);
    CHECK_EQ_INT(c->arcs[z->first_arc].sense, LIB_SENSE_NON_UNATE);
    CHECK_EQ_INT(diag_count_of(the_diag, 2212), 2); /* once per unknown type */
    /* 3-D tables and tables over output_net_length are skipped, with one warning each kind */
    const lib_arc *three = &c->arcs[z->first_arc + 1];
    CHECK(three->table[LIB_CELL_RISE] == NULL);
    CHECK(three->table[LIB_CELL_FALL] == NULL);
    CHECK(c->arcs[z->first_arc + 2].table[LIB_RISE_TRANSITION] == NULL);
    CHECK_EQ_INT(diag_count_of(the_diag, 2215), 1);
    CHECK_EQ_INT(diag_count_of(the_diag, 2216), 1);
    /* statetable in two cells: one warning */
    CHECK_EQ_INT(diag_count_of(the_diag, 2101), 1);
}

static void test_power_and_leakage(void)
{
    const lib_cell *c = cell("NAND2");
    const lib_pin *y = pin(c, "Y");
    CHECK_EQ_INT(y->n_powers, 2);
    const lib_power *p = &c->powers[y->first_power];
    CHECK_EQ_INT(p[0].related, 0);
    CHECK_EQ_INT(p[0].related_pg, LIB_NONE);
    CHECK_EQ_STR(p[0].when->text, "B");
    for (uint32_t s = 0; s < 8; s++)
        CHECK_EQ_INT(lib_expr_eval(c, p[0].when, s), BIT(s, 1));
    /* slew 0.1 ns, load 0.04 pF -> 3 pJ */
    CHECK_NEAR_REL(lib_table_lookup(p[0].rise, 0.1 * NS, 0.04e-12), 3e-12, 1e-12);
    CHECK_NEAR_REL(lib_table_lookup(p[0].fall, 0, 0), -0.5e-12, 1e-12); /* sign kept */
    CHECK(p[1].when == NULL);
    CHECK_EQ_INT(p[1].related_pg, 1);
    CHECK(p[1].rise == p[1].fall); /* `power` serves both */
    CHECK_NEAR_REL(lib_table_lookup(p[1].rise, 0, 0), 0.125e-12, 1e-12);
    /* Y = NAND(A, B) */
    for (uint32_t s = 0; s < 8; s++)
        CHECK_EQ_INT(lib_expr_eval(c, y->function, s), !(BIT(s, 0) & BIT(s, 1)));
    /* leakage, in library order */
    CHECK_EQ_INT(c->n_leakages, 3);
    const lib_leakage *l = c->leakages;
    CHECK_NEAR_REL(l[0].value, 1.5e-9, 1e-12);
    CHECK_EQ_INT(l[0].related_pg, 0);
    CHECK_NEAR_REL(l[1].value, 4e-9, 1e-12);
    CHECK_EQ_INT(l[1].related_pg, LIB_NONE);
    CHECK(l[2].when == NULL);
    for (uint32_t s = 0; s < 8; s++) {
        CHECK_EQ_INT(lib_expr_eval(c, l[0].when, s), !BIT(s, 0) && !BIT(s, 1));
        CHECK_EQ_INT(lib_expr_eval(c, l[1].when, s), BIT(s, 0) && BIT(s, 1));
    }
}

static void test_sequential(void)
{
    const lib_cell *c = cell("DFF");
    /* pins: CK, D, RN (inputs), Q, QN; then state variables IQ, IQN */
    CHECK_EQ_INT(c->n_pins, 5);
    CHECK_EQ_INT(lib_pin_index(c, "RN"), 2);
    CHECK_EQ_INT(c->n_state_vars, 2);
    CHECK_EQ_STR(c->state_vars[0], "IQ");
    CHECK_EQ_STR(c->state_vars[1], "IQN");
    CHECK_EQ_INT(c->n_vars, 7);
    CHECK(pin(c, "CK")->is_clock);
    CHECK(!pin(c, "D")->is_clock);
    CHECK_EQ_INT(c->n_seqs, 1);
    const lib_seq *q = &c->seqs[0];
    CHECK(!q->is_latch);
    CHECK_EQ_INT(q->var_q, 5);
    CHECK_EQ_INT(q->var_qn, 6);
    CHECK_EQ_INT(q->clear_preset_var1, 'L');
    CHECK_EQ_INT(q->clear_preset_var2, 0);
    CHECK(q->expr[LIB_SEQ_PRESET] == NULL);
    for (uint32_t s = 0; s < 128; s++) {
        CHECK_EQ_INT(lib_expr_eval(c, q->expr[LIB_SEQ_NEXT_STATE], s), BIT(s, 1));
        CHECK_EQ_INT(lib_expr_eval(c, q->expr[LIB_SEQ_CLOCKED_ON], s), BIT(s, 0));
        CHECK_EQ_INT(lib_expr_eval(c, q->expr[LIB_SEQ_CLEAR], s), !BIT(s, 2));
        CHECK_EQ_INT(lib_expr_eval(c, pin(c, "Q")->function, s), BIT(s, 5));
        CHECK_EQ_INT(lib_expr_eval(c, pin(c, "QN")->function, s), BIT(s, 6));
    }
    const lib_pin *qp = pin(c, "Q");
    CHECK_EQ_INT(qp->n_arcs, 2);
    CHECK_EQ_INT(c->arcs[qp->first_arc].type, LIB_TT_RISING_EDGE);
    CHECK_EQ_INT(c->arcs[qp->first_arc].sense, LIB_SENSE_NON_UNATE);
    CHECK_EQ_INT(c->arcs[qp->first_arc + 1].type, LIB_TT_CLEAR);
    CHECK_EQ_STR(lib_timing_type_name(LIB_TT_CLEAR), "clear");

    const lib_cell *l = cell("LAT");
    CHECK_EQ_INT(l->n_seqs, 1);
    CHECK(l->seqs[0].is_latch);
    CHECK_EQ_INT(l->seqs[0].var_q, 3);
    CHECK_EQ_INT(l->seqs[0].var_qn, LIB_NONE);
    CHECK_EQ_INT(lib_expr_eval(l, l->seqs[0].expr[LIB_SEQ_ENABLE], 1), 1);
    CHECK_EQ_INT(lib_expr_eval(l, l->seqs[0].expr[LIB_SEQ_DATA_IN], 1), 0);
}

static void test_buses(void)
{
    const lib_cell *c = cell("REG4");
    /* inputs D[3..0], EN; outputs Q[3..0], Z0, Z1 */
    CHECK_EQ_INT(c->n_pins, 11);
    CHECK_EQ_INT(c->n_inputs, 5);
    CHECK_EQ_INT(lib_pin_index(c, "D[3]"), 0);
    CHECK_EQ_INT(lib_pin_index(c, "D[0]"), 3);
    CHECK_EQ_INT(lib_pin_index(c, "EN"), 4);
    CHECK_EQ_INT(lib_pin_index(c, "Q[3]"), 5);
    CHECK_EQ_INT(lib_pin_index(c, "Z1"), 10);
    CHECK_EQ_INT(c->n_buses, 3);
    CHECK_EQ_STR(c->buses[0].name, "D");
    CHECK_EQ_INT(c->buses[0].n_bits, 4);
    CHECK_EQ_INT(c->buses[0].bits[1], 1);
    CHECK(c->buses[2].is_bundle);
    CHECK_EQ_INT(pin(c, "D[1]")->bus, 0);
    CHECK_EQ_INT(pin(c, "D[1]")->dir, LIB_DIR_INPUT);
    /* the bit's own capacitance wins over the bus's, whatever the order */
    CHECK_NEAR_REL(pin(c, "D[2]")->capacitance, 3e-15, 1e-12);
    CHECK_NEAR_REL(pin(c, "D[1]")->capacitance, 1e-15, 1e-12);
    /* Q = D bit by bit; Q[1:0] overridden to !D */
    for (uint32_t bit = 0; bit < 4; bit++) {
        char qn[8];
        snprintf(qn, sizeof qn, "Q[%u]", bit);
        const lib_pin *q = pin(c, qn);
        uint32_t dvar = 3 - bit; /* D[bit] */
        CHECK_EQ_INT(lib_expr_eval(c, q->function, 1u << dvar), bit >= 2 ? 1 : 0);
        CHECK_EQ_INT(lib_expr_eval(c, q->function, 0), bit >= 2 ? 0 : 1);
        /* one arc per bit, from the same bit of D */
        CHECK_EQ_INT(q->n_arcs, 1);
        CHECK_EQ_INT(c->arcs[q->first_arc].related, (int)dvar);
        CHECK_EQ_INT(c->arcs[q->first_arc].sense, bit >= 2 ? LIB_SENSE_POSITIVE_UNATE
                                                            : LIB_SENSE_NEGATIVE_UNATE);
    }
    /* bundle members share the function; related_bus_pins: every bit of D */
    const lib_pin *z1 = pin(c, "Z1");
    CHECK_EQ_INT(z1->bus, 2);
    CHECK_EQ_INT(z1->n_arcs, 4);
    CHECK_EQ_INT(lib_expr_eval(c, z1->function, (1u << 4) | 1u), 1);
    CHECK_EQ_INT(lib_expr_eval(c, z1->function, 1u << 4), 0);
}

static void test_too_many_pins(void)
{
    const lib_cell *c = cell("BIG");
    CHECK_EQ_INT(c->n_vars, 17);
    CHECK(!c->exprs_compiled);
    const lib_pin *y = pin(c, "Y");
    CHECK_EQ_STR(y->function->text, "A0 & A15");
    CHECK(y->function->tt == NULL);
    CHECK_EQ_INT(lib_expr_eval(c, y->function, 0), -1);
    CHECK_EQ_INT(diag_count_of(the_diag, 2500), 1);
}

static const char lib2[] =
    "library (test2) {\n"
    "  time_unit : \"1ps\";\n"
    "  leakage_power_unit : \"1pW\";\n"
    "  capacitive_load_unit (1, ff);\n"
    "  voltage_unit : \"1V\";\n"
    "  nom_voltage : 0.9;\n"
    "  lu_table_template (delay_2x3) {\n"
    "    variable_1 : input_net_transition;\n"
    "    variable_2 : total_output_net_capacitance;\n"
    "    index_1 (\"10, 30\");\n"
    "    index_2 (\"1, 2, 4\");\n"
    "  }\n"
    "  cell (NAND2) { area : 99; }\n"
    "  cell (INV2) {\n"
    "    cell_leakage_power : 250;\n"
    "    pin (A) { direction : input; capacitance : 0.5; }\n"
    "    pin (Y) { direction : output; function : \"!A\";\n"
    "      timing () { related_pin : \"A\";\n"
    "        cell_rise (delay_2x3) { values (\"1, 2, 4\", \"3, 5, 9\"); }\n"
    "        cell_fall (delay_2x3) { index_2 (\"1, 3, 4\"); values (\"1, 2, 4\", \"3, 5, 9\"); }\n"
    "        rise_transition (delay_2x3) { index_1 (\"10\"); values (\"1, 2, 4\"); }\n"
    "        fall_transition (delay_2x3) { index_2 (\"2\"); values (\"1\", \"3\"); }\n"
    "      }\n"
    "      internal_power () { related_pin : \"A\"; rise_power (delay_2x3) { values (\"1, 2, 3\", \"4, 5, 6\"); } }\n"
    "    }\n"
    "  }\n"
    "}\n";

static void test_second_library(void)
{
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(lib_read(s, write_file("lib1b.lib", lib1, 0), d), GP_OK);
    /* gzip, recognised by content: the name says .lib */
    CHECK_EQ_INT(lib_read(s, write_file("lib2.lib", lib2, 1), d), GP_OK);
    CHECK_EQ_INT(lib_library_count(s), 2);
    CHECK_EQ_INT(lib_cell_count(s), 8);
    CHECK_EQ_INT(diag_count_of(d, 2201), 1); /* NAND2 again */
    CHECK_NEAR_REL(lib_find_cell(s, "NAND2")->area, 2.5, 1e-12);
    const lib_library *l2 = lib_library_at(s, 1);
    CHECK_EQ_INT(l2->first_cell, 7);
    CHECK_EQ_INT(l2->n_cells, 1);
    CHECK_NEAR_REL(l2->voltage, 0.9, 1e-12); /* nom_voltage without operating conditions */
    CHECK_NEAR_REL(l2->energy_unit, 1e-15, 1e-12);
    const lib_cell *c = lib_find_cell(s, "INV2");
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK(c->library == l2);
    CHECK_NEAR_REL(c->cell_leakage_power, 250e-12, 1e-12);
    CHECK_NEAR_REL(c->pins[0].capacitance, 0.5e-15, 1e-12);
    const lib_arc *a = &c->arcs[c->pins[1].first_arc];
    /* ps and fF: slew 20 ps, load 3 fF -> 5 ps; NOT-unate derived */
    CHECK_NEAR_REL(lib_table_lookup(a->table[LIB_CELL_RISE], 20 * PS, 3e-15), 5 * PS, 1e-12);
    /* index_2 overridden to (1, 3, 4): load 3 fF is a grid point -> 3.5 ps at slew 20 */
    CHECK_NEAR_REL(lib_table_lookup(a->table[LIB_CELL_FALL], 20 * PS, 3e-15), 3.5 * PS, 1e-12);
    CHECK_EQ_INT(a->sense, LIB_SENSE_NEGATIVE_UNATE);
    /* one slew point: constant along slew, load 3 fF halfway between 2 and 4 -> 3 ps */
    const lib_table *one = a->table[LIB_RISE_TRANSITION];
    CHECK_EQ_INT(one->size[0], 1);
    CHECK_NEAR_REL(lib_table_lookup(one, 500 * PS, 3e-15), 3 * PS, 1e-12);
    CHECK_NEAR_REL(lib_table_lookup(one, -5 * PS, 3e-15), 3 * PS, 1e-12);
    /* one load point: slew 20 ps halfway between rows 1 and 3 -> 2 ps at any load */
    one = a->table[LIB_FALL_TRANSITION];
    CHECK_EQ_INT(one->size[1], 1);
    CHECK_NEAR_REL(lib_table_lookup(one, 20 * PS, 1e-12), 2 * PS, 1e-12);
    CHECK_NEAR_REL(lib_table_lookup(one, 50 * PS, 0), 5 * PS, 1e-12); /* extrapolated: 1 + 2*2 */
    const lib_power *p = &c->powers[c->pins[1].first_power];
    CHECK_NEAR_REL(lib_table_lookup(p->rise, 10 * PS, 4e-15), 3e-15, 1e-12); /* 3 fJ */
    CHECK(p->fall == NULL);
    lib_set_free(s);
    diag_free(d);
}

/* A failed read leaves the set as it was. */
static void test_failed_read_rolls_back(void)
{
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(lib_read(s, write_file("lib2b.lib", lib2, 0), d), GP_OK);
    static const char bad[] = "library (bad) {\n"
                              "  cell (GOOD) { pin (A) { direction : input; } }\n"
                              "  cell (BAD) { pin (Y) { direction : output; function : \"Q\"; } }\n"
                              "}\n";
    CHECK_EQ_INT(lib_read(s, write_file("bad.lib", bad, 0), d), GP_ERR_INPUT);
    CHECK_EQ_INT(lib_library_count(s), 1);
    CHECK_EQ_INT(lib_cell_count(s), 2);
    CHECK(lib_find_cell(s, "GOOD") == NULL);
    CHECK(lib_find_cell(s, "INV2") != NULL);
    lib_set_free(s);
    diag_free(d);
}

/* Units missing from the header are warned about and assumed. */
static void test_missing_units(void)
{
    lib_set *s = lib_set_new();
    diag_ctx *d = diag_new(NULL);
    static const char text[] = "library (bare) { cell (X) { pin (A) { capacitance : 2; } } }";
    CHECK_EQ_INT(lib_read_memory(s, "bare.lib", text, strlen(text), d), GP_OK);
    CHECK_EQ_INT(diag_count_of(d, 2107), 4);  /* time, cap, voltage, leakage */
    CHECK_EQ_INT(diag_count_of(d, 2118), 1);  /* no voltage at all */
    CHECK_NEAR_REL(lib_find_cell(s, "X")->pins[0].capacitance, 2e-12, 1e-12);
    CHECK(isnan(lib_library_at(s, 0)->voltage));
    lib_set_free(s);
    diag_free(d);
}

static void cleanup(void)
{
    const char *names[] = {"lib1.lib", "lib1b.lib", "lib2.lib", "lib2b.lib", "bad.lib"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    read_lib1();
    RUN(test_units_and_library);
    RUN(test_pins_and_caps);
    RUN(test_table_lookup);
    RUN(test_constraint_and_lookup_var);
    RUN(test_expressions);
    RUN(test_sense_and_dropped_arcs);
    RUN(test_power_and_leakage);
    RUN(test_sequential);
    RUN(test_buses);
    RUN(test_too_many_pins);
    RUN(test_second_library);
    RUN(test_failed_read_rolls_back);
    RUN(test_missing_units);
    lib_set_free((lib_set *)the_set);
    diag_free(the_diag);
    cleanup();
    return check_exit_code();
}
