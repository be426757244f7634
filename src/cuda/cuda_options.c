/* cuda_options.c: the CUDA power engine's options, variant names and the
 * check of a design's cells (cuda_power.h); plain C, the same in builds
 * with and without CUDA. */
#include "cuda/cuda_power.h"

#include <stdio.h>
#include <string.h>

cuda_power_options cuda_power_defaults(void)
{
    return (cuda_power_options){.sipl = true, .partition = true, .fusion = true, .memo = true,
                                .warp = true,
                                .target_events = CUDA_POWER_TARGET_EVENTS,
                                .min_windows = CUDA_POWER_MIN_WINDOWS,
                                .lane_tasks = CUDA_POWER_LANE_TASKS};
}

/* Sets the switch named by text[0 .. len); false if it names none. */
static bool set_switch(cuda_power_options *o, const char *text, size_t len)
{
    struct { const char *name; bool *on; } switches[] = {
        {"sipl", &o->sipl}, {"part", &o->partition}, {"fusion", &o->fusion}, {"memo", &o->memo},
        {"warp", &o->warp}};
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++)
        if (strlen(switches[i].name) == len && memcmp(switches[i].name, text, len) == 0) {
            *switches[i].on = true;
            return true;
        }
    return false;
}

gp_status cuda_power_parse_variant(const char *text, cuda_power_options *o, diag_ctx *d)
{
    o->sipl = o->partition = o->fusion = o->memo = o->warp = false;
    if (strcmp(text, "naive") == 0)
        return GP_OK;
    if (strcmp(text, "fused") == 0)
        text = "sipl+part+fusion+memo+warp";
    for (const char *p = text;;) {
        const char *plus = strchr(p, '+');
        size_t len = plus ? (size_t)(plus - p) : strlen(p);
        if (!set_switch(o, p, len)) {
            diag_error(d, 1507, DIAG_NOWHERE,
                       "--cuda-variant %s: \"%.*s\" is not a variant part; give \"naive\", "
                       "\"fused\" or a '+'-list of sipl, part, fusion, memo and warp (e.g. "
                       "sipl+part)",
                       text, (int)len, p);
            return GP_ERR_USAGE;
        }
        if (!plus)
            break;
        p = plus + 1;
    }
    if (o->warp && !o->fusion) {
        diag_error(d, 1518, DIAG_NOWHERE, "--cuda-variant %s: warp is a way of fusion: add "
                   "fusion (e.g. sipl+part+fusion+memo+warp)", text);
        return GP_ERR_USAGE;
    }
    return GP_OK;
}

const char *cuda_power_variant_name(const cuda_power_options *o, char buf[32])
{
    buf[0] = '\0';
    if (o->sipl)
        strcat(buf, "+sipl");
    if (o->partition)
        strcat(buf, "+part");
    if (o->fusion)
        strcat(buf, "+fusion");
    if (o->memo)
        strcat(buf, "+memo");
    if (o->warp)
        strcat(buf, "+warp");
    if (!buf[0])
        return strcpy(buf, "naive");
    memmove(buf, buf + 1, strlen(buf));
    return buf;
}

gp_status cuda_power_check_cells(const design *dg, diag_ctx *d)
{
    for (uint32_t i = 0; i < dg->n_insts; i++) {
        const lib_cell *c = dg->inst_cell[i];
        if (c->n_pins > CUDA_MAX_PINS) {
            diag_error(d, 1509, DIAG_NOWHERE, "cell %s has %u pins; the CUDA power engine "
                       "walks cells of up to %d pins: use --engine cpu", c->name, c->n_pins,
                       CUDA_MAX_PINS);
            return GP_ERR_UNSUPPORTED;
        }
    }
    return GP_OK;
}
