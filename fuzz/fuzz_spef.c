/* fuzz_spef.c: the SPEF reader on arbitrary input, with a visitor that reads
 * every string and value it is given. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "spef/spef.h"

static size_t fuzz_spef_sink; /* keeps the reads below from being optimised out */

static void fuzz_spef_touch(const char *s)
{
    fuzz_spef_sink += s ? strlen(s) : 0;
}

static void fuzz_spef_touch_conn(const spef_conn *c)
{
    fuzz_spef_touch(c->inst);
    fuzz_spef_touch(c->pin);
    fuzz_spef_touch(c->driving_cell);
    fuzz_spef_sink += (size_t)(c->has_load && c->load > 0);
}

static gp_status fuzz_spef_header(void *ctx, const spef_header *h, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_spef_touch(h->spef_version);
    fuzz_spef_touch(h->design);
    fuzz_spef_touch(h->design_flow);
    return GP_OK;
}

static gp_status fuzz_spef_supply(void *ctx, const char *name, bool ground, diag_loc loc)
{
    (void)ctx, (void)ground, (void)loc;
    fuzz_spef_touch(name);
    return GP_OK;
}

static gp_status fuzz_spef_port(void *ctx, const spef_conn *c, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_spef_touch_conn(c);
    return GP_OK;
}

static gp_status fuzz_spef_net(void *ctx, const spef_net *net, diag_loc loc)
{
    (void)ctx, (void)loc;
    fuzz_spef_touch(net->name);
    fuzz_spef_sink += (size_t)(net->total_cap > 0);
    for (size_t i = 0; i < net->conn_count; i++)
        fuzz_spef_touch_conn(&net->conns[i]);
    return GP_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const spef_visitor v = {NULL, fuzz_spef_header, fuzz_spef_supply, fuzz_spef_port,
                                   fuzz_spef_net};
    diag_ctx *d = diag_new(NULL);
    spef_read_memory("fuzz.spef", (const char *)data, size, &v, d);
    diag_free(d);
    return 0;
}
