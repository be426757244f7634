/* test_sdc.c: the SDC reader: Tcl as the tools run it (variables, procs,
 * loops, continuations, the idioms of OpenROAD's SDC files), the design's
 * objects and patterns, units, clocks, the errors with their file:line,
 * and what the constraints give the design's timing (worked out here from
 * the library below: BUF's output transition is 0.1 ns + 4 ns/pF x load). */
#include "check.h"
#include "scratch.h"
#include "sdc/sdc.h"

#include <math.h>

#define NS 1e6 /* fs: times are femtoseconds */
#define PF 1e-12

static const char sdc_lib[] =
    "library (s) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  leakage_power_unit : \"1nW\" ; current_unit : \"1mA\" ; nom_voltage : 1.0 ;\n"
    "  lu_table_template (by_load) { variable_1 : total_output_net_capacitance ;\n"
    "    index_1 (\"0.0, 0.1\") ; }\n"
    "  cell (BUF) { pin (A) { direction : input ; capacitance : 0.01 ; }\n"
    "    pin (Y) { direction : output ; function : \"A\" ;\n"
    "      timing () { related_pin : \"A\" ; timing_sense : positive_unate ;\n"
    "        cell_rise (scalar) { values (\"0.05\") ; } cell_fall (scalar) { values (\"0.05\") ; }\n"
    "        rise_transition (by_load) { values (\"0.1, 0.5\") ; }\n"
    "        fall_transition (by_load) { values (\"0.1, 0.5\") ; } } } }\n"
    "  cell (NAND2) { pin (A) { direction : input ; capacitance : 0.02 ; }\n"
    "    pin (B) { direction : input ; capacitance : 0.03 ; }\n"
    "    pin (Y) { direction : output ; function : \"!(A & B)\" ; } }\n"
    "  cell (DFF) { ff (IQ, IQN) { next_state : \"D\" ; clocked_on : \"CLK\" ; }\n"
    "    pin (CLK) { direction : input ; clock : true ; capacitance : 0.004 ; }\n"
    "    pin (D) { direction : input ; capacitance : 0.002 ; }\n"
    "    pin (Q) { direction : output ; function : \"IQ\" ;\n"
    "      timing () { related_pin : \"CLK\" ; timing_type : rising_edge ;\n"
    "        cell_rise (scalar) { values (\"0.3\") ; } cell_fall (scalar) { values (\"0.3\") ; }\n"
    "        rise_transition (by_load) { values (\"0.1, 0.5\") ; }\n"
    "        fall_transition (by_load) { values (\"0.1, 0.5\") ; } } } }\n"
    "}\n";

/* clk -> cb -> ck -> f1/CLK; a, data[0] -> g1 -> n1 -> f1/D; b -> g2 -> z. */
static const char sdc_netlist[] =
    "module top (clk, a, b, data, y, z);\n"
    "  input clk, a, b; input [1:0] data; output y, z;\n  wire ck, n1;\n"
    "  BUF cb (.A(clk), .Y(ck));\n"
    "  NAND2 g1 (.A(a), .B(data[0]), .Y(n1));\n"
    "  DFF f1 (.CLK(ck), .D(n1), .Q(y));\n"
    "  BUF g2 (.A(b), .Y(z));\nendmodule\n";

static char dir[] = "/tmp/gp_test_sdc_XXXXXX";
static lib_set *libs;
static design *dg;

/* Runs `text` as dir/t.sdc; the status, with the messages in log[cap]. */
static gp_status run_sdc(const char *text, sdc **out, char *log, size_t cap)
{
    char path[256];
    const char *paths[] = {scratch_write(dir, "t.sdc", text, path, sizeof path)};
    FILE *sink = fmemopen(log, cap, "w");
    diag_ctx *d = diag_new(sink);
    gp_status st = sdc_read(out, dg, libs, paths, 1, d);
    diag_free(d);
    fclose(sink);
    return st;
}

/* Runs `text` and expects it to succeed. */
static sdc *sdc_ok(const char *text)
{
    char log[4096] = "";
    sdc *s = NULL;
    CHECK_EQ_INT(run_sdc(text, &s, log, sizeof log), GP_OK);
    if (!s)
        fprintf(stderr, "%s", log);
    return s;
}

static uint32_t port_of(const char *name)
{
    for (uint32_t p = 0; p < dg->n_ports; p++)
        if (strcmp(strtab_str(&dg->net_names, dg->ports[p].name), name) == 0)
            return p;
    CHECK(!"no such port");
    return 0;
}

static uint32_t pin_of(const char *inst, const char *pin)
{
    uint32_t i = design_find_inst(dg, inst);
    return dg->inst_pin0[i] + (uint32_t)lib_pin_index(dg->inst_cell[i], pin);
}

/* Tcl's own commands and the OpenROAD idioms; the checks written in Tcl
 * stop the file with an error when they fail. */
static void test_tcl_and_objects(void)
{
    sdc *s = sdc_ok(
        "# comments, variables, procs and continuations as in the tools\n"
        "set p 10\n"
        "proc half {x} { return [expr {$x / 2.0}] }\n"
        "create_clock -name core -period $p -waveform [list 0 [half $p]] \\\n"
        "    [get_ports clk]\n"
        "set clk_port [get_ports clk]\n"
        "set ins [lsearch -inline -all -not -exact [all_inputs] $clk_port]\n"
        "foreach port $ins { set_input_transition 0.2 $port }\n"
        "set_input_transition -rise 0.3 [get_ports a]\n"
        "set_load 0.05 [get_ports y]\n"
        "set_load -wire_load 0.01 [get_ports y]\n"
        "set_load 0.07 [get_nets n1]\n"
        "set_input_delay [expr {$p * 0.2}] -clock core $ins\n"
        "set_false_path -from [get_ports b]\n"
        "proc expect {n list what} {\n"
        "  if {[sizeof_collection $list] != $n} { error \"$what: [llength $list]\" } }\n"
        "expect 2 [get_ports data] {a bus by its name}\n"
        "expect 5 [all_inputs] all_inputs\n"
        "expect 4 [all_inputs -no_clocks] {all_inputs -no_clocks}\n"
        "expect 4 [remove_from_collection [all_inputs] $clk_port] remove_from_collection\n"
        "expect 3 [get_pins f1/*] {pins by pattern}\n"
        "expect 1 [get_pins */CLK] {pins of every cell}\n"
        "expect 2 [get_cells -regexp {g[0-9]}] -regexp\n"
        "expect 1 [get_cells -nocase G1] -nocase\n"
        "expect 2 [get_pins -of_objects [get_nets n1]] {pins of a net}\n"
        "expect 1 [all_registers] all_registers\n"
        "expect 1 [all_registers -clock_pins] {all_registers -clock_pins}\n"
        "if {[get_nets -of_objects [get_pins f1/D]] ne {n1}} { error {nets of a pin} }\n"
        "if {[get_name [all_clocks]] ne {core}} { error all_clocks }\n"
        "if {[current_design] ne {top}} { error current_design }\n");
    if (!s)
        return;
    CHECK_EQ_INT(s->n_clocks, 1);
    CHECK_EQ_STR(s->clocks[0].name, "core");
    CHECK_NEAR_REL(s->clocks[0].period, 10 * NS, 1e-12);
    CHECK_NEAR_REL(s->clocks[0].edge[1], 5 * NS, 1e-12);
    CHECK_EQ_INT(s->clocks[0].n_sources, 1);
    CHECK_EQ_INT(s->clocks[0].source_nets[0], design_find_net(dg, "clk"));
    uint32_t a = port_of("a"), b = port_of("b"), clk = port_of("clk"), y = port_of("y");
    CHECK_NEAR_REL(s->port_transition[0][a], 0.3 * NS, 1e-12);
    CHECK_NEAR_REL(s->port_transition[1][a], 0.2 * NS, 1e-12);
    CHECK_NEAR_REL(s->port_transition[0][b], 0.2 * NS, 1e-12);
    CHECK_NEAR_REL(s->port_transition[1][port_of("data[1]")], 0.2 * NS, 1e-12);
    CHECK(isnan(s->port_transition[0][clk]));
    CHECK_NEAR_REL(s->port_load[0][y], 0.05 * PF, 1e-12);
    CHECK_NEAR_REL(s->port_load[1][y], 0.01 * PF, 1e-12);
    CHECK_NEAR_REL(s->net_load[design_find_net(dg, "n1")], 0.07 * PF, 1e-12);
    CHECK_EQ_INT(s->timing_only, 2);
    sdc_free(s);
}

/* A net and a port of the same name stay apart, through variables and
 * list commands; a bare name is a port first. */
static void test_object_kinds(void)
{
    sdc *s = sdc_ok("set_load 0.02 [get_nets b]\n"
                    "set x [get_nets y]\n"
                    "set_load 0.04 [lindex $x 0]\n"
                    "set_load 0.03 z\n");
    if (!s)
        return;
    CHECK_NEAR_REL(s->net_load[design_find_net(dg, "b")], 0.02 * PF, 1e-12);
    CHECK_NEAR_REL(s->net_load[design_find_net(dg, "y")], 0.04 * PF, 1e-12);
    CHECK(isnan(s->port_load[0][port_of("b")]));
    CHECK(isnan(s->port_load[0][port_of("y")]));
    CHECK_NEAR_REL(s->port_load[0][port_of("z")], 0.03 * PF, 1e-12);
    CHECK(isnan(s->net_load[design_find_net(dg, "z")]));
    sdc_free(s);
}

/* Units: the library's (ns, pF), or set_units'. */
static void test_units(void)
{
    sdc *s = sdc_ok("set_input_transition 0.25 a\n"
                    "set_units -time ps -capacitance fF\n"
                    "set_input_transition 200 b\nset_load 50 y\n"
                    "set_units -time 1ns -capacitance 1pF\ncreate_clock -period 4 clk\n");
    if (!s)
        return;
    CHECK_NEAR_REL(s->port_transition[0][port_of("a")], 0.25 * NS, 1e-12);
    CHECK_NEAR_REL(s->port_transition[0][port_of("b")], 0.2 * NS, 1e-12);
    CHECK_NEAR_REL(s->port_load[0][port_of("y")], 0.05 * PF, 1e-12);
    CHECK_NEAR_REL(s->clocks[0].period, 4 * NS, 1e-12);
    CHECK_EQ_STR(s->clocks[0].name, "clk");
    sdc_free(s);
}

static void test_clocks(void)
{
    sdc *s = sdc_ok(
        "create_clock -name core -period 10 -waveform {2 7} [get_ports clk]\n"
        "create_generated_clock -name div2 -source [get_ports clk] -divide_by 2 [get_pins f1/Q]\n"
        "create_generated_clock -name x2 -source clk -multiply_by 2 [get_pins cb/Y]\n"
        "create_generated_clock -name e135 -master_clock core -source clk -edges {1 3 5} "
        "[get_pins g2/Y]\n"
        "create_clock -name virtual -period 20\n"
        "set_clock_transition -rise 0.15 [get_clocks core]\n"
        "set_propagated_clock [get_ports clk]\n");
    if (!s)
        return;
    CHECK_EQ_INT(s->n_clocks, 5);
    const sdc_clock *div2 = sdc_find_clock(s, "div2"), *x2 = sdc_find_clock(s, "x2");
    const sdc_clock *e135 = sdc_find_clock(s, "e135"), *core = sdc_find_clock(s, "core");
    CHECK(div2 && x2 && e135 && core && !sdc_find_clock(s, "nosuch"));
    if (div2 && x2 && e135 && core) {
        CHECK_NEAR_REL(div2->period, 20 * NS, 1e-12);
        CHECK_EQ_INT(div2->source_nets[0], design_find_net(dg, "y"));
        CHECK(div2->generated && !core->generated);
        CHECK_NEAR_REL(x2->period, 5 * NS, 1e-12);
        CHECK_NEAR_REL(e135->period, 20 * NS, 1e-12);
        CHECK_NEAR_REL(e135->edge[0], 2 * NS, 1e-12);
        CHECK_NEAR_REL(e135->edge[1], 12 * NS, 1e-12);
        CHECK_NEAR_REL(core->transition[0], 0.15 * NS, 1e-12);
        CHECK_EQ_INT(core->transition[1] == 0.0, 1);
        CHECK(core->propagated && !div2->propagated);
        CHECK(sdc_find_clock(s, NULL) == x2);
        CHECK_EQ_INT(sdc_find_clock(s, "virtual")->n_sources, 0);
    }
    sdc_free(s);
}

/* Each failure: its number and the line of the command. */
static void test_errors(void)
{
    static const struct {
        const char *text;
        int no, line;
    } cases[] = {
        {"create_clock -period 10 [get_ports clk]\nfoo bar\n", 1602, 2},
        {"foreach i {1 2} {\n  set_load -bogus 1 [get_ports y]\n}\n", 1621, 2},
        {"proc f {} {\n  set_load 1\n}\n\nf\n", 1636, 2},
        {"set x [expr {1 +}]\n", 1601, 1},
        {"\nexit\n", 1603, 2},
        {"set_input_transition -1 [get_ports a]\n", 1624, 1},
        {"set_input_transition 0.1 [get_cells g1]\n", 1609, 1},
        {"set_input_transition 0.1 nosuch\n", 1610, 1},
        {"create_clock -name c\n", 1627, 1},
        {"create_clock -period 0 clk\n", 1628, 1},
        {"create_generated_clock -source clk -divide_by 2 [get_pins f1/Q]\n", 1631, 1},
        {"set_units -time parsec\n", 1647, 1},
        {"set_driving_cell -lib_cell NOPE a\n", 1644, 1},
        {"set_driving_cell -lib_cell NAND2 -pin A a\n", 1640, 1},
        {"get_ports -filter {direction == in} *\n", 1612, 1},
        {"set_load abc y\n", 1623, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char log[4096] = "", want[64];
        sdc *s = NULL;
        CHECK(run_sdc(cases[k].text, &s, log, sizeof log) != GP_OK);
        CHECK(s == NULL);
        snprintf(want, sizeof want, "t.sdc:%d: error %d: ", cases[k].line, cases[k].no);
        if (!strstr(log, want))
            fprintf(stderr, "case %zu: want '%s' in: %s", k, want, log);
        CHECK(strstr(log, want) != NULL);
    }
}

/* A failure a script catches is no failure; a pattern that matches
 * nothing is a warning at its line. */
static void test_caught_and_warned(void)
{
    char log[4096] = "";
    sdc *s = NULL;
    CHECK_EQ_INT(run_sdc("catch {nosuch}\ncatch {set_load}\n\nget_ports nope*\n"
                         "get_ports -quiet nada\n", &s, log, sizeof log), GP_OK);
    CHECK(strstr(log, "t.sdc:4: warning 1611: ") != NULL);
    CHECK(strstr(log, "nada") == NULL);
    CHECK(strstr(log, "error") == NULL);
    sdc_free(s);
    char missing[300];
    snprintf(missing, sizeof missing, "%s/none.sdc", dir);
    const char *paths[] = {missing};
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(sdc_read(&s, dg, libs, paths, 1, d), GP_ERR_IO);
    CHECK_EQ_INT(diag_first_error_no(d), 1605);
    diag_free(d);
}

/* Slews and loads through design_compute_timing. */
static void timing_with(const char *text, sdc_timing *t)
{
    sdc *s = sdc_ok(text);
    diag_ctx *d = diag_new(stderr);
    memset(t, 0, sizeof *t);
    design_timing_options base = design_timing_defaults();
    if (s) {
        CHECK_EQ_INT(design_set_wire_caps(dg, s->net_load, d), GP_OK);
        CHECK_EQ_INT(sdc_timing_make(s, dg, &base, t, d), GP_OK);
        CHECK_EQ_INT(design_compute_timing(dg, &t->opt, d), GP_OK);
    }
    sdc_free(s);
    diag_free(d);
}

static void test_timing(void)
{
    sdc_timing t;
    /* a's driving BUF sees g1/A's 0.02 pF: 0.1 + 4 x 0.02 = 0.18 ns; b has
     * no transition: 0; the ideal clock's pins (clk, cb/A, cb/Y, ck,
     * f1/CLK) at 0; z's driver g2 sees the port's 0.05 pF. */
    timing_with("create_clock -period 10 [get_ports clk]\n"
                "set_driving_cell -lib_cell BUF [get_ports a]\n"
                "set_load 0.05 [get_ports z]\nset_load 0.01 [get_nets n1]\n", &t);
    CHECK_EQ_INT(t.ideal_nets, 2);
    for (int dir = 0; dir < 2; dir++) {
        CHECK_NEAR_REL(dg->pin_slew[dir][pin_of("g1", "A")], 0.18 * NS, 1e-9);
        CHECK_EQ_INT(dg->pin_slew[dir][pin_of("g2", "A")] == 0.0, 1);
        CHECK_EQ_INT(dg->pin_slew[dir][pin_of("f1", "CLK")] == 0.0, 1);
        CHECK_EQ_INT(dg->pin_slew[dir][pin_of("cb", "A")] == 0.0, 1);
        CHECK_EQ_INT(dg->pin_slew[dir][pin_of("cb", "Y")] == 0.0, 1);
    }
    CHECK_NEAR_REL(dg->pin_load[pin_of("g2", "Y")], 0.05 * PF, 1e-9);
    CHECK_NEAR_REL(dg->pin_load[pin_of("g1", "Y")], (0.01 + 0.002) * PF, 1e-9);
    sdc_timing_free(&t);
    /* Propagated: f1/CLK at cb's transition into ck's 0.004 pF (0.116 ns);
     * the clock port at set_input_transition; an ideal clock's transition. */
    timing_with("create_clock -period 10 clk\nset_propagated_clock [all_clocks]\n"
                "set_input_transition 0.02 [all_inputs]\nset_load 0 [get_nets n1]\n", &t);
    CHECK_EQ_INT(t.ideal_nets, 0);
    CHECK_EQ_INT(t.propagated_nets, 2);
    CHECK_NEAR_REL(dg->pin_slew[0][pin_of("f1", "CLK")], 0.116 * NS, 1e-9);
    CHECK_NEAR_REL(dg->pin_slew[0][pin_of("cb", "A")], 0.02 * NS, 1e-9);
    sdc_timing_free(&t);
    timing_with("create_clock -period 10 clk\nset_clock_transition -fall 0.07 clk\n", &t);
    CHECK_EQ_INT(dg->pin_slew[0][pin_of("f1", "CLK")] == 0.0, 1);
    CHECK_NEAR_REL(dg->pin_slew[1][pin_of("f1", "CLK")], 0.07 * NS, 1e-9);
    sdc_timing_free(&t);
}

int main(void)
{
    if (!sdc_available())
        check_skip("this build reads no SDC (no Tcl development files)");
    CHECK(mkdtemp(dir) != NULL);
    diag_ctx *d = diag_new(stderr);
    libs = scratch_libs(dir, "s.lib", sdc_lib, d);
    char path[256];
    const char *paths[] = {scratch_write(dir, "t.v", sdc_netlist, path, sizeof path)};
    CHECK_EQ_INT(design_read_netlist(&dg, libs, paths, 1, "top", d), GP_OK);
    diag_free(d);
    if (dg) {
        RUN(test_tcl_and_objects);
        RUN(test_object_kinds);
        RUN(test_units);
        RUN(test_clocks);
        RUN(test_errors);
        RUN(test_caught_and_warned);
        RUN(test_timing);
    }
    design_free(dg);
    lib_set_free(libs);
    CHECK(scratch_remove(dir));
    return check_exit_code();
}
