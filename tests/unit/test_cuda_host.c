/* test_cuda_host.c: the CUDA engine's host side, which runs without a GPU
 * (and so on CI): variant names, the event words the kernels decode, and
 * the check of a design's cells against the pins the kernels walk. */
#include "check.h"
#include "scratch.h"
#include "cuda/cuda_power.h"

/* BIG: 33 pins, one more than the kernels walk. */
static const char big_lib[] =
    "library (biglib) {\n"
    "  time_unit : \"1ns\" ; capacitive_load_unit (1, pf) ; voltage_unit : \"1V\" ;\n"
    "  type (b32) { base_type : array ; data_type : bit ; bit_width : 32 ; bit_from : 31 ; bit_to : 0 ; }\n"
    "  cell (BIG) {\n"
    "    bus (I) { bus_type : b32 ; direction : input ; capacitance : 0.001 ; }\n"
    "    pin (Z) { direction : input ; capacitance : 0.001 ; }\n"
    "    pin (Y) { direction : output ; function : \"Z\" ; } }\n"
    "  cell (BUF) {\n"
    "    pin (A) { direction : input ; capacitance : 0.001 ; }\n"
    "    pin (Y) { direction : output ; function : \"A\" ; } }\n"
    "}\n";

static char dir[] = "/tmp/gp_test_cuda_host_XXXXXX";
static lib_set *libs;

static void test_variants(void)
{
    diag_ctx *d = diag_new(NULL);
    cuda_power_options o = cuda_power_defaults();
    char name[32];
    CHECK(o.sipl && o.partition && o.fusion && o.memo && o.warp && !o.deterministic);
    CHECK_EQ_STR(cuda_power_variant_name(&o, name), "sipl+part+fusion+memo+warp");
    CHECK_EQ_INT(cuda_power_parse_variant("naive", &o, d), GP_OK);
    CHECK(!o.sipl && !o.partition && !o.fusion && !o.memo && !o.warp);
    CHECK_EQ_STR(cuda_power_variant_name(&o, name), "naive");
    CHECK_EQ_INT(cuda_power_parse_variant("fused", &o, d), GP_OK);
    CHECK_EQ_STR(cuda_power_variant_name(&o, name), "sipl+part+fusion+memo+warp");
    CHECK_EQ_INT(cuda_power_parse_variant("fusion+sipl", &o, d), GP_OK);
    CHECK(o.sipl && !o.partition && o.fusion && !o.memo && !o.warp);
    CHECK_EQ_INT(cuda_power_parse_variant("sipl+partition", &o, d), GP_ERR_USAGE);
    CHECK_EQ_INT(diag_first_error_no(d), 1507);
    diag_free(d);
    d = diag_new(NULL);
    CHECK_EQ_INT(cuda_power_parse_variant("sipl+warp", &o, d), GP_ERR_USAGE);
    CHECK_EQ_INT(diag_first_error_no(d), 1518);
    diag_free(d);
}

/* The store's words are what the kernels decode: time_fs * 4 + value,
 * with every time up to EVENTS_TIME_MAX and every value kept. */
static void test_event_words(void)
{
    int64_t time[] = {0, 5, 7, (int64_t)1 << 60, EVENTS_TIME_MAX};
    uint8_t value[] = {EVENTS_X, 1, 0, 1, EVENTS_X};
    uint64_t word[5], net_ev0[] = {0, 5};
    for (int i = 0; i < 5; i++)
        word[i] = events_pack(time[i], value[i]);
    events ev = {.n_nets = 1, .n_events = 5, .net_ev0 = net_ev0, .word = word};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT((int64_t)word[i], time[i] * 4 + value[i]);
        CHECK_EQ_INT(events_time(&ev, (uint64_t)i), time[i]);
        CHECK_EQ_INT(events_value(&ev, (uint64_t)i), value[i]);
    }
    CHECK((int64_t)word[4] > 0); /* the device reads them as int64 */
}

/* A cell of more pins than the kernels walk is refused with error 1509
 * before any device is asked for; one of few pins is not. */
static void test_check_cells(void)
{
    diag_ctx *d = diag_new(NULL);
    design *big = scratch_design(dir, libs, "big",
                              "module top (i, z, y);\n  input [31:0] i; input z; output y;\n"
                              "  BIG b1 (.I(i), .Z(z), .Y(y));\nendmodule\n", d);
    design *small = scratch_design(dir, libs, "small", "module top (a, y);\n  input a; output y;\n"
                                         "  BUF u1 (.A(a), .Y(y));\nendmodule\n", d);
    if (big && small) {
        CHECK_EQ_INT(cuda_power_check_cells(small, d), GP_OK);
        CHECK_EQ_INT(diag_first_error_no(d), 0);
        CHECK_EQ_INT(cuda_power_check_cells(big, d), GP_ERR_UNSUPPORTED);
        CHECK_EQ_INT(diag_first_error_no(d), 1509);
    }
    design_free(big);
    design_free(small);
    diag_free(d);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    char path[256];
    snprintf(path, sizeof path, "%s/big.lib", dir);
    scratch_write_text(path, big_lib);
    diag_ctx *d = diag_new(stderr);
    libs = lib_set_new();
    CHECK_EQ_INT(lib_read(libs, path, d), GP_OK);
    RUN(test_variants);
    RUN(test_event_words);
    if (lib_library_count(libs) == 1)
        RUN(test_check_cells);
    lib_set_free(libs);
    diag_free(d);
    if (!scratch_remove(dir))
        return 1;
    return check_exit_code();
}
