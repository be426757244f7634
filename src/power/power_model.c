/* power_model.c: building the power model (power_model.h) on the host: the
 * power data of every cell type the design uses (groups, leakage, tables,
 * truth tables, keys, candidates, then the dense cells' state tables,
 * filled by power_rules.h's own rules state by state), and the
 * per-instance, per-pin, per-arc and per-net arrays. */
#include "power/power_model.h"

#include <math.h>
#include <string.h>

#include "power/power_int.h"
#include "power/power_rules.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/vec.h"

VEC_DECLARE(vec_model_table, power_model_table)
VEC_DECLARE(vec_model_group, power_model_group)
VEC_DECLARE(vec_model_leakage, power_model_leakage)
VEC_DECLARE(vec_model_cell, power_model_cell)
VEC_DECLARE(vec_lib_cell, const lib_cell *)

/* The pools while they grow. */
typedef struct pools {
    vec_model_cell cells;
    vec_model_group groups;
    vec_model_leakage leakages;
    vec_model_table tables;
    vec_u32 cpin_group0, cpin_n_groups, cpin_unrelated, cand0, cand, sel0, sel;
    vec_u8 cpin_flags;
    vec_i32 keys, cand_arc;
    vec_f64 reals;
    vec_u64 tt;
    bool failed;
} pools;

/* ---- cell types ---------------------------------------------------------------- */

static uint32_t push_reals(pools *p, const double *v, size_t n)
{
    uint32_t at = (uint32_t)p->reals.len;
    for (size_t i = 0; i < n; i++)
        p->failed |= !vec_f64_push(&p->reals, v[i]);
    return at;
}

/* A `when`'s truth table in the pool: its offset, or -1 (holds always:
 * lib_expr_eval's answer where the cell's expressions are not compiled). */
static int32_t push_when(pools *p, const lib_cell *c, const lib_expr *when)
{
    if (!when || !when->tt)
        return -1;
    int32_t at = (int32_t)p->tt.len;
    size_t words = c->n_vars >= 6 ? (size_t)1 << (c->n_vars - 6) : 1;
    for (size_t w = 0; w < words; w++)
        p->failed |= !vec_u64_push(&p->tt, when->tt[w]);
    return at;
}

static uint8_t axis_of(uint8_t var)
{
    return var == LIB_VAR_INPUT_SLEW ? POWER_AXIS_SLEW
           : var == LIB_VAR_LOAD     ? POWER_AXIS_LOAD
                                     : POWER_AXIS_NONE;
}

static int32_t push_table(pools *p, const lib_table *t)
{
    if (!t)
        return -1;
    power_model_table mt = {.n_dims = t->n_dims};
    uint32_t n1 = t->n_dims == 2 ? t->size[1] : 1;
    for (int d = 0; d < t->n_dims; d++) {
        mt.axis[d] = axis_of(t->var[d]);
        mt.size[d] = t->size[d];
        mt.index[d] = push_reals(p, t->index[d], t->size[d]);
    }
    mt.size[1] = n1;
    size_t n_values = t->n_dims == 0 ? 1 : (size_t)t->size[0] * n1;
    mt.values = push_reals(p, t->values, n_values);
    p->failed |= !vec_model_table_push(&p->tables, mt);
    return (int32_t)p->tables.len - 1;
}

/* Bit of a pg group in a served-mask: no related_pg_pin is its own group
 * (pg pins from the 63rd on share a bit). */
static uint64_t pg_bit(int32_t related_pg)
{
    return related_pg == LIB_NONE ? 1ull << 63 : 1ull << (related_pg < 62 ? related_pg : 62);
}

/* The cell's internal_power and leakage groups, in library order. */
static void push_groups(pools *p, const lib_cell *c, power_model_cell *mc)
{
    mc->group0 = (uint32_t)p->groups.len;
    mc->n_groups = c->n_powers;
    for (uint32_t g = 0; g < c->n_powers; g++) {
        const lib_power *pw = &c->powers[g];
        power_model_group mg = {.pin = pw->pin, .related = pw->related,
                                .when = push_when(p, c, pw->when),
                                .pg_bit = pg_bit(pw->related_pg)};
        mg.table[0] = push_table(p, pw->rise);
        mg.table[1] = push_table(p, pw->fall);
        p->failed |= !vec_model_group_push(&p->groups, mg);
    }
    mc->leakage0 = (uint32_t)p->leakages.len;
    mc->n_leakages = c->n_leakages;
    for (uint32_t g = 0; g < c->n_leakages; g++) {
        const lib_leakage *lk = &c->leakages[g];
        power_model_leakage ml = {.value = lk->value, .when = push_when(p, c, lk->when),
                                  .has_when = lk->when != NULL, .pg_bit = pg_bit(lk->related_pg)};
        p->failed |= !vec_model_leakage_push(&p->leakages, ml);
    }
}

/* Keys of the (pin, related) pairs with groups, and each output's
 * related-pin candidates: the other pins that load and have groups with
 * it, each with its first delay arc (LIB_NONE: -1), whose delay the
 * related-pin choice uses (SPEC §3.1). */
static void push_keys(pools *p, const lib_cell *c, power_model_cell *mc)
{
    uint32_t n = c->n_pins, keys = 0;
    mc->key0 = (uint32_t)p->keys.len;
    mc->cand0_base = (uint32_t)p->cand0.len;
    for (uint32_t q = 0; q < n; q++) {
        p->failed |= !vec_u32_push(&p->cand0, (uint32_t)p->cand.len);
        for (uint32_t r = 0; r <= n; r++) {
            bool has = lib_pin_has_power(c, q, r == n ? LIB_NONE : (int32_t)r);
            p->failed |= !vec_i32_push(&p->keys, has ? (int32_t)keys++ : -1);
            if (has && r < n && r != q && design_dir_drives(c->pins[q].dir) &&
                design_dir_loads(c->pins[r].dir)) {
                p->failed |= !vec_u32_push(&p->cand, r);
                p->failed |= !vec_i32_push(&p->cand_arc, lib_first_delay_arc(c, q, r));
            }
        }
    }
    p->failed |= !vec_u32_push(&p->cand0, (uint32_t)p->cand.len);
}

/* Where an instance's memo keeps each output's energies without a related
 * pin: dense cells of few pins, outputs with candidates. */
static void push_memo_layout(pools *p, const lib_cell *c, power_model_cell *mc)
{
    mc->memo_size = 4 * c->n_powers;
    const uint32_t *cand0 = p->cand0.data + mc->cand0_base;
    for (uint32_t k = 0; k < c->n_pins; k++) {
        bool kept = mc->dense && c->n_pins <= POWER_MODEL_UNRELATED_PINS &&
                    design_dir_drives(c->pins[k].dir) && cand0[k + 1] > cand0[k];
        p->failed |= !vec_u32_push(&p->cpin_unrelated, kept ? mc->memo_size : UINT32_MAX);
        mc->memo_size += kept ? 2u << c->n_pins : 0;
    }
}

/* Whether a compiled `when` reads pin (variable) k: it differs in two
 * states that differ in k only (a compiled cell has at most
 * LIB_MAX_EXPR_PINS variables). */
static bool when_reads(const lib_cell *c, const lib_expr *when, uint32_t k)
{
    if (!when || !when->tt)
        return false;
    for (uint32_t s = 0; s < 1u << c->n_vars; s++)
        if (!(s >> k & 1) && lib_expr_eval(c, when, s) != lib_expr_eval(c, when, s | 1u << k))
            return true;
    return false;
}

/* Whether pin k's events cost the same in every state (power_rules.h): an
 * input with groups of its own, none of them under a compiled `when`, and
 * no `when` of its cell reads it (its value changes nothing else). */
static bool cost_is_stateless(const lib_cell *c, uint32_t k)
{
    if (design_dir_drives(c->pins[k].dir) || !lib_pin_has_power(c, k, LIB_NONE))
        return false;
    for (uint32_t g = 0; g < c->n_powers; g++) {
        const lib_power *pw = &c->powers[g];
        bool own = pw->pin == k && pw->related == LIB_NONE;
        if ((own && pw->when && pw->when->tt) || when_reads(c, pw->when, k))
            return false;
    }
    for (uint32_t g = 0; g < c->n_leakages; g++)
        if (when_reads(c, c->leakages[g].when, k))
            return false;
    return true;
}

static void push_cell(pools *p, const lib_cell *c)
{
    power_model_cell mc = {.n_pins = c->n_pins, .n_vars = c->n_vars,
                           .dense = c->n_pins <= POWER_MODEL_DENSE_PINS,
                           .volts = c->library->voltage, .cell_leakage = c->cell_leakage_power,
                           .pin0 = (uint32_t)p->cpin_group0.len};
    push_groups(p, c, &mc);
    for (uint32_t k = 0; k < c->n_pins; k++) {
        const lib_pin *pin = &c->pins[k];
        uint8_t flags = (design_dir_drives(pin->dir) ? POWER_PIN_DRIVES : 0) |
                        (design_dir_loads(pin->dir) ? POWER_PIN_LOADS : 0) |
                        (cost_is_stateless(c, k) ? POWER_PIN_BULK : 0);
        p->failed |= !vec_u32_push(&p->cpin_group0, mc.group0 + pin->first_power);
        p->failed |= !vec_u32_push(&p->cpin_n_groups, pin->n_powers);
        p->failed |= !vec_u8_push(&p->cpin_flags, flags);
    }
    push_keys(p, c, &mc);
    push_memo_layout(p, c, &mc);
    p->failed |= !vec_model_cell_push(&p->cells, mc);
}

/* The model's view of the pools that no longer grow once every cell is in. */
static void take_cell_pools(power_model *m, const pools *p)
{
    m->n_cells = (uint32_t)p->cells.len, m->cells = p->cells.data;
    m->n_groups = (uint32_t)p->groups.len, m->groups = p->groups.data;
    m->n_leakages = (uint32_t)p->leakages.len, m->leakages = p->leakages.data;
    m->n_tables = (uint32_t)p->tables.len, m->tables = p->tables.data;
    m->n_cpins = (uint32_t)p->cpin_group0.len;
    m->cpin_group0 = p->cpin_group0.data, m->cpin_n_groups = p->cpin_n_groups.data;
    m->cpin_flags = p->cpin_flags.data, m->cpin_unrelated = p->cpin_unrelated.data;
    m->n_keys = (uint32_t)p->keys.len, m->keys = p->keys.data;
    m->n_cand0 = (uint32_t)p->cand0.len, m->cand0 = p->cand0.data;
    m->n_cands = (uint32_t)p->cand.len, m->cand = p->cand.data, m->cand_arc = p->cand_arc.data;
    m->n_tt = (uint32_t)p->tt.len, m->tt = p->tt.data;
}

/* A dense cell's state tables: its leakage and each key's chosen groups in
 * every state, by the scanning rules (power_rules.h). */
static void push_dense(pools *p, const power_model *m, power_model_cell *mc)
{
    uint32_t n = mc->n_pins, states = 1u << n, n_keys = 0;
    mc->leak = (uint32_t)p->reals.len;
    for (uint32_t s = 0; s < states; s++)
        p->failed |= !vec_f64_push(&p->reals, power_leakage_scan(m, mc, s));
    for (size_t i = 0; i < (size_t)n * (n + 1); i++)
        n_keys += m->keys[mc->key0 + i] >= 0;
    mc->sel0_base = (uint32_t)p->sel0.len;
    p->failed |= !vec_u32_reserve(&p->sel0, p->sel0.len + (size_t)n_keys * states + 1);
    for (uint32_t q = 0; q < n && !p->failed; q++)
        for (uint32_t r = 0; r <= n; r++) {
            int32_t related = r == n ? -1 : (int32_t)r, key = power_key(m, mc, q, related);
            uint32_t g0 = m->cpin_group0[mc->pin0 + q], g1 = g0 + m->cpin_n_groups[mc->pin0 + q];
            for (uint32_t s = 0; key >= 0 && s < states; s++) {
                p->sel0.data[mc->sel0_base + ((size_t)key << n) + s] = (uint32_t)p->sel.len;
                uint64_t served = 0;
                for (uint32_t g = g0; g < g1; g++)
                    if (power_group_chosen(m, mc, &m->groups[g], related, s, &served))
                        p->failed |= !vec_u32_push(&p->sel, g);
            }
        }
    if (!p->failed)
        p->sel0.len += (size_t)n_keys * states;
    p->failed |= !vec_u32_push(&p->sel0, (uint32_t)p->sel.len);
}

/* ---- the cell types in use ------------------------------------------------------ */

/* Open addressing from cell pointers to entries of `cells`. */
static size_t slot_of(const void *cell, size_t mask)
{
    return (size_t)(((uintptr_t)cell >> 4) * 0x9E3779B97F4A7C15ull) & mask;
}

/* Each instance's entry in `cells` (the distinct cell types, in order of
 * first use) into inst_cell; false when out of memory. */
static bool find_cells(const design *dg, vec_lib_cell *cells, uint32_t *inst_cell)
{
    size_t n_slots = 16; /* distinct cells <= instances < n_slots / 2 */
    while (n_slots <= 2 * (size_t)dg->n_insts)
        n_slots *= 2;
    uint32_t *slots = mem_alloc(n_slots * sizeof *slots);
    if (!slots)
        return false;
    memset(slots, 0xff, n_slots * sizeof *slots);
    bool ok = true;
    for (uint32_t i = 0; ok && i < dg->n_insts; i++) {
        const lib_cell *c = dg->inst_cell[i];
        size_t h = slot_of(c, n_slots - 1);
        while (slots[h] != UINT32_MAX && cells->data[slots[h]] != c)
            h = (h + 1) & (n_slots - 1);
        if (slots[h] == UINT32_MAX) {
            slots[h] = (uint32_t)cells->len;
            ok = vec_lib_cell_push(cells, c);
        }
        inst_cell[i] = slots[h];
    }
    mem_free(slots);
    return ok;
}

/* The cell pools: every cell type in use, then the dense ones' tables.
 * The model owns the pools' arrays afterwards, also when it fails. */
static bool build_cells(power_model *m, pools *p, const vec_lib_cell *cells)
{
    for (size_t c = 0; c < cells->len && !p->failed; c++)
        push_cell(p, cells->data[c]);
    take_cell_pools(m, p);
    for (uint32_t c = 0; c < m->n_cells && !p->failed; c++)
        if (p->cells.data[c].dense)
            push_dense(p, m, &p->cells.data[c]);
    m->n_sel0 = (uint32_t)p->sel0.len, m->sel0 = p->sel0.data;
    m->n_sel = (uint32_t)p->sel.len, m->sel = p->sel.data;
    m->n_reals = (uint32_t)p->reals.len, m->reals = p->reals.data;
    return !p->failed;
}

/* ---- the design's arrays --------------------------------------------------------- */

/* Flags of design pin `pin`, pin k of an instance of cell mc; bulk: the
 * engine costs pins in bulk where it may (on the clock network, where no
 * glitch pairs are made). */
static uint8_t pin_flags(const power_model *m, const design *dg, const power_plan *plan,
                         const power_model_cell *mc, uint32_t pin, uint32_t k, bool bulk)
{
    uint8_t f = m->cpin_flags[mc->pin0 + k] & ~POWER_PIN_BULK;
    uint32_t net = dg->pin_net[pin];
    if (net == DESIGN_NONE)
        return f;
    if (bulk && plan->clock_net[net])
        f |= m->cpin_flags[mc->pin0 + k] & POWER_PIN_BULK;
    if ((f & POWER_PIN_DRIVES) && dg->net_driver[net] == pin)
        f |= POWER_PIN_PAYS_SWITCHING;
    if (!(f & POWER_PIN_DRIVES) && power_key(m, mc, k, -1) < 0)
        f |= POWER_PIN_SILENT;
    if (plan->glitch && !plan->clock_net[net])
        f |= POWER_PIN_GLITCHABLE;
    return f;
}

/* An arc without a delay (a timing check's, NAN) counts as 0 in the rules. */
static double delay_or_zero(double fs) { return isnan(fs) ? 0.0 : fs; }

/* The arrays the model makes per instance, pin, arc and net; the others
 * are the design's. */
typedef struct design_arrays {
    uint32_t *inst_cell;
    uint64_t *inst_memo0;
    uint8_t *pin_flags, *net_start;
    double *delay_rise, *delay_fall;
} design_arrays;

/* The arrays' loops, cut into parts on threads; per part, the memo
 * doubles of its instances (then: where they start) and their most pins. */
typedef struct fill_job {
    const power_model *m;
    design_arrays a;
    const design *dg;
    const power_plan *plan;
    bool bulk;
    uint64_t memo[POWER_MAX_PARTS];
    uint32_t max_pins[POWER_MAX_PARTS];
} fill_job;

static void fill_part(void *ctx, uint32_t part, uint32_t parts)
{
    fill_job *job = ctx;
    const power_model *m = job->m;
    const design *dg = job->dg;
    uint64_t memo = 0;
    uint32_t max_pins = 0, end = (uint32_t)parts_begin(m->n_insts, part + 1, parts);
    for (uint32_t i = (uint32_t)parts_begin(m->n_insts, part, parts); i < end; i++) {
        const power_model_cell *mc = &m->cells[job->a.inst_cell[i]];
        memo += mc->memo_size;
        max_pins = mc->n_pins > max_pins ? mc->n_pins : max_pins;
        for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++)
            job->a.pin_flags[p] =
                pin_flags(m, dg, job->plan, mc, p, p - dg->inst_pin0[i], job->bulk);
    }
    job->memo[part] = memo;
    job->max_pins[part] = max_pins;
    end = (uint32_t)parts_begin(m->n_arcs, part + 1, parts);
    for (uint32_t a = (uint32_t)parts_begin(m->n_arcs, part, parts); a < end; a++) {
        job->a.delay_rise[a] = delay_or_zero(dg->arc_delay[DESIGN_RISE][a]);
        job->a.delay_fall[a] = delay_or_zero(dg->arc_delay[DESIGN_FALL][a]);
    }
    end = (uint32_t)parts_begin(m->n_nets, part + 1, parts);
    for (uint32_t n = (uint32_t)parts_begin(m->n_nets, part, parts); n < end; n++)
        job->a.net_start[n] = power_start_value(dg, n);
}

/* inst_memo0 of the part's instances, from where the part's memo starts. */
static void memo_part(void *ctx, uint32_t part, uint32_t parts)
{
    fill_job *job = ctx;
    const power_model *m = job->m;
    uint64_t at = job->memo[part];
    uint32_t end = (uint32_t)parts_begin(m->n_insts, part + 1, parts);
    for (uint32_t i = (uint32_t)parts_begin(m->n_insts, part, parts); i < end; i++) {
        at += m->cells[job->a.inst_cell[i]].memo_size;
        job->a.inst_memo0[i + 1] = at;
    }
}

static void fill_design_arrays(power_model *m, const design *dg, const power_plan *plan,
                               design_arrays a, bool bulk)
{
    fill_job job = {.m = m, .a = a, .dg = dg, .plan = plan, .bulk = bulk};
    uint32_t parts = parts_for(m->n_pins, POWER_MAX_PARTS);
    parts_run(fill_part, &job, parts);
    uint64_t at = 0;
    for (uint32_t k = 0; k < parts; k++) {
        uint64_t size = job.memo[k];
        job.memo[k] = at;
        at += size;
        m->max_pins = job.max_pins[k] > m->max_pins ? job.max_pins[k] : m->max_pins;
    }
    a.inst_memo0[0] = 0;
    parts_run(memo_part, &job, parts);
}

static bool alloc_design_arrays(design_arrays *a, const power_model *m)
{
    a->inst_memo0 = mem_alloc(((size_t)m->n_insts + 1) * sizeof *a->inst_memo0);
    a->pin_flags = mem_alloc((size_t)m->n_pins + 1);
    a->delay_rise = mem_alloc(((size_t)m->n_arcs + 1) * sizeof *a->delay_rise);
    a->delay_fall = mem_alloc(((size_t)m->n_arcs + 1) * sizeof *a->delay_fall);
    a->net_start = mem_alloc((size_t)m->n_nets + 1);
    return a->inst_memo0 && a->pin_flags && a->delay_rise && a->delay_fall && a->net_start;
}

static void take_design_arrays(power_model *m, const design *dg, design_arrays a)
{
    m->inst_cell = a.inst_cell, m->inst_memo0 = a.inst_memo0;
    m->inst_pin0 = dg->inst_pin0, m->inst_arc0 = dg->inst_arc0;
    m->pin_net = dg->pin_net, m->pin_inst = dg->pin_inst;
    m->pin_slew_rise = dg->pin_slew[DESIGN_RISE], m->pin_slew_fall = dg->pin_slew[DESIGN_FALL];
    m->pin_load = dg->pin_load;
    m->pin_flags = a.pin_flags, m->net_start = a.net_start;
    m->arc_delay_rise_fs = a.delay_rise, m->arc_delay_fall_fs = a.delay_fall;
}

bool power_model_build(power_model *m, const design *dg, const power_plan *plan, bool bulk)
{
    memset(m, 0, sizeof *m);
    m->n_insts = dg->n_insts, m->n_pins = dg->n_pins;
    m->n_arcs = dg->n_arcs, m->n_nets = dg->n_nets;
    pools p = {0};
    vec_lib_cell cells = {0};
    design_arrays a = {.inst_cell = mem_alloc(((size_t)dg->n_insts + 1) * sizeof *a.inst_cell)};
    bool ok = a.inst_cell && find_cells(dg, &cells, a.inst_cell);
    ok = ok && build_cells(m, &p, &cells); /* the model owns the pools from here */
    vec_lib_cell_free(&cells);
    ok = ok && alloc_design_arrays(&a, m);
    take_design_arrays(m, dg, a);
    if (ok)
        fill_design_arrays(m, dg, plan, a, bulk);
    else
        power_model_free(m);
    return ok;
}

void power_model_free(power_model *m)
{
    void *arrays[] = {(void *)m->cells, (void *)m->groups, (void *)m->leakages,
                      (void *)m->tables, (void *)m->cpin_group0, (void *)m->cpin_n_groups,
                      (void *)m->cpin_flags, (void *)m->cpin_unrelated, (void *)m->keys,
                      (void *)m->cand0, (void *)m->cand, (void *)m->cand_arc, (void *)m->sel0,
                      (void *)m->sel, (void *)m->reals, (void *)m->tt, (void *)m->inst_cell,
                      (void *)m->inst_memo0, (void *)m->pin_flags, (void *)m->net_start,
                      (void *)m->arc_delay_rise_fs, (void *)m->arc_delay_fall_fs};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        mem_free(arrays[i]); /* the rest are the design's */
    memset(m, 0, sizeof *m);
}
