/* fuzz_verilog.c: the structural Verilog reader on arbitrary text, through a
 * builder with a small fixed library (scalar and bus pins) that refuses
 * designs too large for a fuzzing run and stops on anything given it that
 * breaks verilog.h's promises.  The top is guessed (NULL) and then
 * asked for by name ("top"). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/strtab.h"
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
    uint32_t nets;
    strtab names;       /* the nets' names */
    uint32_t *name_net; /* by id in names: the net its first use names */
    bool repeated;      /* a name given twice (an input error the design reports) */
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

/* What the builder is given must hold the header's promises; a broken
 * one stops the run where the fuzzer sees it. */
static void fuzz_promise(bool held)
{
    if (!held)
        abort();
}

/* Every name names a net; nets are first named in their order. */
static gp_status fuzz_add_nets(void *ctx, const vlog_nets *nets)
{
    fuzz_state *s = ctx;
    s->nets = nets->count;
    uint32_t named = 0;
    for (uint64_t k = 0; k < nets->n_names; k++) {
        fuzz_promise(nets->name_net[k] <= named && nets->name_net[k] < nets->count);
        fuzz_promise(nets->names[k].len > 0 && nets->names[k].s != NULL);
        named += nets->name_net[k] == named;
    }
    fuzz_promise(named == nets->count);
    s->name_net = mem_alloc((nets->n_names + 1) * sizeof *s->name_net);
    for (uint64_t k = 0; s->name_net && k < nets->n_names; k++) {
        uint32_t id = strtab_intern(&s->names, nets->names[k].s, nets->names[k].len);
        s->repeated |= id != k;
        if (id == k)
            s->name_net[id] = nets->name_net[k];
    }
    for (uint32_t n = 0; n < nets->count; n++)
        fuzz_promise(nets->value[n] <= VLOG_VALUE_X);
    return GP_OK;
}

static gp_status fuzz_add_ports(void *ctx, const vlog_ports *ports)
{
    fuzz_state *s = ctx;
    for (uint32_t k = 0; k < ports->count; k++) {
        fuzz_promise(ports->net[k] < s->nets && ports->dir[k] >= VLOG_DIR_INPUT &&
                     ports->dir[k] <= VLOG_DIR_INOUT && ports->names[k].len > 0);
        /* a port bit is named as its net */
        uint32_t id = strtab_find(&s->names, ports->names[k].s, ports->names[k].len);
        fuzz_promise(id != STRTAB_NONE && (s->repeated || !s->name_net ||
                                           s->name_net[id] == ports->net[k]));
    }
    return GP_OK;
}

/* Each instance's pins are its cell's, each on a net or on none. */
static gp_status fuzz_add_instances(void *ctx, const vlog_instances *insts)
{
    fuzz_state *s = ctx;
    fuzz_promise(insts->pin0[0] == 0);
    for (uint32_t i = 0; i < insts->count; i++) {
        fuzz_promise(insts->cell[i] < sizeof fuzz_cells / sizeof fuzz_cells[0]);
        fuzz_promise(insts->pin0[i + 1] - insts->pin0[i] ==
                     (uint32_t)fuzz_cells[insts->cell[i]].pin_count);
        fuzz_promise(insts->paths[i].len > 0);
        for (uint32_t p = insts->pin0[i]; p < insts->pin0[i + 1]; p++)
            fuzz_promise(insts->pin_net[p] == VLOG_NO_NET || insts->pin_net[p] < s->nets);
    }
    return GP_OK;
}

/* Read twice: in one chunk without a top, and in chunks of 1-16 bytes (from
 * the input's length) with top "top", to try the chunks' borders. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const tops[] = {NULL, "top"};
    for (size_t t = 0; t < 2; t++) {
        fuzz_state s = {0};
        strtab_init(&s.names);
        vlog_builder b = {&s, fuzz_find_cell, fuzz_reserve, fuzz_add_nets, fuzz_add_ports,
                          fuzz_add_instances};
        diag_ctx *d = diag_new(NULL);
        vlog_read_memory_chunked("fuzz.v", (const char *)data, size, t ? size % 16 + 1 : 0,
                                 tops[t], &b, d);
        diag_free(d);
        strtab_free(&s.names);
        mem_free(s.name_net);
    }
    return 0;
}
