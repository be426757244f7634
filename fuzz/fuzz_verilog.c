/* fuzz_verilog.c: the structural Verilog reader on arbitrary text, through a
 * builder with a small fixed library (scalar and bus pins) that refuses
 * designs too large for a fuzzing run.  The top is guessed (NULL) and then
 * asked for by name ("top"). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "verilog/verilog.h"

typedef struct fuzz_cell {
    const char *name;
    int pin_count;
    const char *pins[9];
} fuzz_cell;

static const fuzz_cell fuzz_cells[] = {
    {"INV", 2, {"A", "Y"}},
    {"AND2", 3, {"A", "B", "Y"}},
    {"DFF", 3, {"CLK", "D", "Q"}},
    {"REG4", 9, {"CLK", "D[0]", "D[1]", "D[2]", "D[3]", "Q[3]", "Q[2]", "Q[1]", "Q[0]"}},
    {"BAD", 2, {"A", "A"}},
};

typedef struct fuzz_state {
    uint32_t nets, insts;
} fuzz_state;

static bool fuzz_find_cell(void *ctx, const char *name, vlog_cell_info *out)
{
    (void)ctx;
    for (uint32_t i = 0; i < sizeof fuzz_cells / sizeof fuzz_cells[0]; i++) {
        if (strcmp(name, fuzz_cells[i].name) == 0) {
            *out = (vlog_cell_info){i, fuzz_cells[i].pin_count, fuzz_cells[i].pins};
            return true;
        }
    }
    return false;
}

static gp_status fuzz_reserve(void *ctx, const vlog_sizes *sizes)
{
    (void)ctx;
    bool too_big = sizes->names > (1u << 20) || sizes->instances > (1u << 16) ||
                   sizes->connections > (1u << 18) || sizes->module_instances > (1u << 14);
    return too_big ? GP_ERR_INPUT : GP_OK;
}

static gp_status fuzz_add_net(void *ctx, const char *name, vlog_value value, uint32_t *net)
{
    fuzz_state *s = ctx;
    (void)name;
    (void)value;
    *net = s->nets++;
    return GP_OK;
}

static gp_status fuzz_add_alias(void *ctx, uint32_t net, const char *name)
{
    fuzz_state *s = ctx;
    (void)name;
    return net < s->nets ? GP_OK : GP_ERR_INPUT;
}

static gp_status fuzz_add_port(void *ctx, const char *name, int dir, uint32_t net)
{
    fuzz_state *s = ctx;
    (void)name;
    return net < s->nets && dir >= VLOG_DIR_INPUT && dir <= VLOG_DIR_INOUT ? GP_OK : GP_ERR_INPUT;
}

static gp_status fuzz_add_instance(void *ctx, const char *path, const char *cell, uint32_t id,
                                   uint32_t *inst)
{
    fuzz_state *s = ctx;
    (void)path;
    (void)cell;
    (void)id;
    *inst = s->insts++;
    return GP_OK;
}

static gp_status fuzz_connect(void *ctx, uint32_t inst, int pin, uint32_t net)
{
    fuzz_state *s = ctx;
    (void)pin;
    return inst < s->insts && net < s->nets ? GP_OK : GP_ERR_INPUT;
}

/* Read twice: in one chunk without a top, and in chunks of 1-16 bytes (from
 * the input's length) with top "top", to try the chunks' borders. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const tops[] = {NULL, "top"};
    for (size_t t = 0; t < 2; t++) {
        fuzz_state s = {0, 0};
        vlog_builder b = {&s, fuzz_find_cell, fuzz_reserve, fuzz_add_net, fuzz_add_alias,
                          fuzz_add_port, fuzz_add_instance, fuzz_connect};
        diag_ctx *d = diag_new(NULL);
        vlog_read_memory_chunked("fuzz.v", (const char *)data, size, t ? size % 16 + 1 : 0,
                                 tops[t], &b, d);
        diag_free(d);
    }
    return 0;
}
