/* cuda_model.c: building the CUDA engine's device model (cuda_int.h) on the
 * host: the power data of every cell type the design uses (groups, leakage,
 * tables, truth tables, and the SIPL tables of power_sipl.c), and the
 * per-instance, per-pin, per-arc and per-net arrays the kernels read. */
#include "cuda/cuda_int.h"

#include <math.h>
#include <string.h>

#include "design/design.h"
#include "power/power_int.h"
#include "power/power_sipl.h"
#include "util/mem.h"
#include "util/parts.h"
#include "util/vec.h"

VEC_DECLARE(vec_cuda_table, cuda_table)
VEC_DECLARE(vec_cuda_group, cuda_group)
VEC_DECLARE(vec_cuda_leakage, cuda_leakage)
VEC_DECLARE(vec_cuda_cell, cuda_cell)

/* The pools while they grow. */
typedef struct pools {
    vec_cuda_cell cells;
    vec_cuda_group groups;
    vec_cuda_leakage leakages;
    vec_cuda_table tables;
    vec_u32 cpin_group0, cpin_n_groups, cpin_unrelated, cand0, cand, sel0, sel;
    vec_u8 cpin_flags;
    vec_i32 keys, cand_arc;
    vec_f64 reals;
    vec_u64 tt;
    bool failed;
} pools;

static uint32_t push_reals(pools *p, const double *v, size_t n)
{
    uint32_t at = (uint32_t)p->reals.len;
    for (size_t i = 0; i < n; i++)
        p->failed |= !vec_f64_push(&p->reals, v[i]);
    return at;
}

/* A `when`'s truth table in the pool: its offset, or -1 (holds always). */
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
    return var == LIB_VAR_INPUT_SLEW ? CUDA_AXIS_SLEW
           : var == LIB_VAR_LOAD     ? CUDA_AXIS_LOAD
                                     : CUDA_AXIS_NONE;
}

static int32_t push_table(pools *p, const lib_table *t)
{
    if (!t)
        return -1;
    cuda_table ct = {.n_dims = t->n_dims};
    uint32_t n1 = t->n_dims == 2 ? t->size[1] : 1;
    for (int d = 0; d < t->n_dims; d++) {
        ct.axis[d] = axis_of(t->var[d]);
        ct.size[d] = t->size[d];
        ct.index[d] = push_reals(p, t->index[d], t->size[d]);
    }
    ct.size[1] = n1; /* the host's row length: 1 for a one-axis table */
    size_t n_values = t->n_dims == 0 ? 1 : (size_t)t->size[0] * n1;
    ct.values = push_reals(p, t->values, n_values);
    p->failed |= !vec_cuda_table_push(&p->tables, ct);
    return (int32_t)p->tables.len - 1;
}

/* The cell's groups and leakages; returns the index of its first group. */
static uint32_t push_groups(pools *p, const lib_cell *c, cuda_cell *cc)
{
    uint32_t group0 = (uint32_t)p->groups.len;
    for (uint32_t g = 0; g < c->n_powers; g++) {
        const lib_power *pw = &c->powers[g];
        cuda_group cg = {.pin = pw->pin, .related = pw->related,
                         .when = push_when(p, c, pw->when),
                         .pg_bit = power_pg_bit(pw->related_pg)};
        cg.table[0] = push_table(p, pw->rise);
        cg.table[1] = push_table(p, pw->fall);
        p->failed |= !vec_cuda_group_push(&p->groups, cg);
    }
    cc->leakage0 = (uint32_t)p->leakages.len;
    cc->n_leakages = c->n_leakages;
    for (uint32_t g = 0; g < c->n_leakages; g++) {
        const lib_leakage *lk = &c->leakages[g];
        cuda_leakage cl = {.value = lk->value, .when = push_when(p, c, lk->when),
                           .has_when = lk->when != NULL, .pg_bit = power_pg_bit(lk->related_pg)};
        p->failed |= !vec_cuda_leakage_push(&p->leakages, cl);
    }
    return group0;
}

/* Keys, related-pin candidates and, for dense cells, the SIPL tables. */
static void push_sipl(pools *p, const power_sipl_cell *sc, uint32_t group0, cuda_cell *cc)
{
    uint32_t n = sc->n_pins;
    cc->key0 = (uint32_t)p->keys.len;
    for (size_t k = 0; k < (size_t)n * (n + 1); k++)
        p->failed |= !vec_i32_push(&p->keys, sc->key[k]);
    cc->cand0_base = (uint32_t)p->cand0.len;
    uint32_t cand_base = (uint32_t)p->cand.len;
    for (uint32_t k = 0; k <= n; k++)
        p->failed |= !vec_u32_push(&p->cand0, cand_base + sc->cand0[k]);
    for (uint32_t i = 0; i < sc->cand0[n]; i++) {
        p->failed |= !vec_u32_push(&p->cand, sc->cand[i]);
        int32_t arc = sc->cand_arc[i] == LIB_NONE ? -1 : sc->cand_arc[i];
        p->failed |= !vec_i32_push(&p->cand_arc, arc);
    }
    cc->sipl_dense = sc->dense;
    if (!sc->dense)
        return;
    size_t states = (size_t)1 << n, n_sel0 = (size_t)sc->n_keys * states;
    cc->leak = push_reals(p, sc->leak, states);
    cc->sel0_base = (uint32_t)p->sel0.len;
    uint32_t sel_base = (uint32_t)p->sel.len;
    for (size_t i = 0; i <= n_sel0; i++)
        p->failed |= !vec_u32_push(&p->sel0, sel_base + sc->sel0[i]);
    for (uint32_t i = 0; i < sc->sel0[n_sel0]; i++)
        p->failed |= !vec_u32_push(&p->sel, group0 + sc->sel[i]);
}

static void push_cell(pools *p, const power_sipl_cell *sc)
{
    const lib_cell *c = sc->cell;
    cuda_cell cc = {.n_pins = c->n_pins, .n_vars = c->n_vars, .volts = c->library->voltage,
                    .cell_leakage = c->cell_leakage_power,
                    .pin0 = (uint32_t)p->cpin_group0.len};
    uint32_t group0 = push_groups(p, c, &cc);
    cc.group0 = group0;
    cc.n_groups = c->n_powers;
    for (uint32_t k = 0; k < c->n_pins; k++) {
        const lib_pin *pin = &c->pins[k];
        uint8_t flags = (design_dir_drives(pin->dir) ? CUDA_PIN_DRIVES : 0) |
                        (design_dir_loads(pin->dir) ? CUDA_PIN_LOADS : 0);
        p->failed |= !vec_u32_push(&p->cpin_group0, group0 + pin->first_power);
        p->failed |= !vec_u32_push(&p->cpin_n_groups, pin->n_powers);
        p->failed |= !vec_u8_push(&p->cpin_flags, flags);
    }
    push_sipl(p, sc, group0, &cc);
    cc.memo_size = 4 * c->n_powers;
    for (uint32_t k = 0; k < c->n_pins; k++) {
        bool kept = sc->dense && c->n_pins <= CUDA_UNRELATED_MAX_PINS &&
                    design_dir_drives(c->pins[k].dir) && sc->cand0[k + 1] > sc->cand0[k];
        p->failed |= !vec_u32_push(&p->cpin_unrelated, kept ? cc.memo_size : UINT32_MAX);
        cc.memo_size += kept ? 2u << c->n_pins : 0;
    }
    p->failed |= !vec_cuda_cell_push(&p->cells, cc);
}

/* The pools become the model's arrays (a vector's data is mem_alloc'ed). */
static void take_pools(cuda_model *m, pools *p)
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
    m->n_sel0 = (uint32_t)p->sel0.len, m->sel0 = p->sel0.data;
    m->n_sel = (uint32_t)p->sel.len, m->sel = p->sel.data;
    m->n_reals = (uint32_t)p->reals.len, m->reals = p->reals.data;
    m->n_tt = (uint32_t)p->tt.len, m->tt = p->tt.data;
}

static void free_pools(pools *p)
{
    vec_cuda_cell_free(&p->cells);
    vec_cuda_group_free(&p->groups);
    vec_cuda_leakage_free(&p->leakages);
    vec_cuda_table_free(&p->tables);
    vec_u32_free(&p->cpin_group0);
    vec_u32_free(&p->cpin_n_groups);
    vec_u8_free(&p->cpin_flags);
    vec_u32_free(&p->cpin_unrelated);
    vec_i32_free(&p->keys);
    vec_u32_free(&p->cand0);
    vec_u32_free(&p->cand);
    vec_i32_free(&p->cand_arc);
    vec_u32_free(&p->sel0);
    vec_u32_free(&p->sel);
    vec_f64_free(&p->reals);
    vec_u64_free(&p->tt);
}

/* Flags of design pin p (local pin k of a cell of SIPL entry sc). */
static uint8_t pin_flags(const design *dg, const power_plan *plan, const power_sipl_cell *sc,
                         uint32_t p, uint32_t k)
{
    lib_dir dir = sc->cell->pins[k].dir;
    uint32_t net = dg->pin_net[p];
    uint8_t f = (design_dir_drives(dir) ? CUDA_PIN_DRIVES : 0) |
                (design_dir_loads(dir) ? CUDA_PIN_LOADS : 0);
    if (net == DESIGN_NONE)
        return f;
    if ((f & CUDA_PIN_DRIVES) && dg->net_driver[net] == p)
        f |= CUDA_PIN_PAYS_SWITCHING;
    if (!(f & CUDA_PIN_DRIVES) && power_sipl_key(sc, k, LIB_NONE) < 0)
        f |= CUDA_PIN_SILENT;
    if (plan->glitch && !plan->clock_net[net])
        f |= CUDA_PIN_GLITCHABLE;
    return f;
}

static double delay_fs(double seconds) { return isnan(seconds) ? 0.0 : seconds * 1e15; }

/* The model's per-instance, per-pin, per-arc and per-net arrays.  Where the
 * kernels read the design's arrays as they are, the model points at them
 * (cuda_model_free leaves those); the instances' cells are the SIPL
 * tables', taken over; the rest are new. */
static bool alloc_design_arrays(cuda_model *m, const design *dg, power_sipl *sipl)
{
    m->inst_cell = sipl->inst_cell;
    sipl->inst_cell = NULL;
    m->inst_pin0 = dg->inst_pin0, m->inst_arc0 = dg->inst_arc0;
    m->pin_net = dg->pin_net, m->pin_inst = dg->pin_inst;
    m->pin_slew_rise = dg->pin_slew[DESIGN_RISE], m->pin_slew_fall = dg->pin_slew[DESIGN_FALL];
    m->pin_load = dg->pin_load;
    m->inst_memo0 = mem_alloc(((size_t)m->n_insts + 1) * sizeof *m->inst_memo0);
    m->pin_flags = mem_alloc((size_t)m->n_pins + 1);
    m->arc_delay_rise_fs = mem_alloc(((size_t)m->n_arcs + 1) * sizeof(double));
    m->arc_delay_fall_fs = mem_alloc(((size_t)m->n_arcs + 1) * sizeof(double));
    m->net_start = mem_alloc((size_t)m->n_nets + 1);
    return m->inst_cell && m->inst_memo0 && m->pin_flags && m->arc_delay_rise_fs &&
           m->arc_delay_fall_fs && m->net_start;
}

/* The new arrays' loops, cut into parts on threads; per part, the memo
 * doubles of its instances (then: where they start) and their most pins. */
typedef struct fill_job {
    cuda_model *m;
    const design *dg;
    const power_plan *plan;
    const power_sipl *sipl;
    uint64_t memo[POWER_MAX_PARTS];
    uint32_t max_pins[POWER_MAX_PARTS];
} fill_job;

static void fill_part(void *ctx, uint32_t part, uint32_t parts)
{
    fill_job *job = ctx;
    cuda_model *m = job->m;
    const design *dg = job->dg;
    uint64_t memo = 0;
    uint32_t max_pins = 0, end = (uint32_t)parts_begin(m->n_insts, part + 1, parts);
    for (uint32_t i = (uint32_t)parts_begin(m->n_insts, part, parts); i < end; i++) {
        const power_sipl_cell *sc = &job->sipl->cells[m->inst_cell[i]];
        memo += m->cells[m->inst_cell[i]].memo_size;
        max_pins = sc->n_pins > max_pins ? sc->n_pins : max_pins;
        for (uint32_t p = dg->inst_pin0[i]; p < dg->inst_pin0[i + 1]; p++)
            m->pin_flags[p] = pin_flags(dg, job->plan, sc, p, p - dg->inst_pin0[i]);
    }
    job->memo[part] = memo;
    job->max_pins[part] = max_pins;
    end = (uint32_t)parts_begin(m->n_arcs, part + 1, parts);
    for (uint32_t a = (uint32_t)parts_begin(m->n_arcs, part, parts); a < end; a++) {
        m->arc_delay_rise_fs[a] = delay_fs(dg->arc_delay[DESIGN_RISE][a]);
        m->arc_delay_fall_fs[a] = delay_fs(dg->arc_delay[DESIGN_FALL][a]);
    }
    end = (uint32_t)parts_begin(m->n_nets, part + 1, parts);
    for (uint32_t n = (uint32_t)parts_begin(m->n_nets, part, parts); n < end; n++)
        m->net_start[n] = power_start_value(dg, n);
}

/* inst_memo0 of the part's instances, from where the part's memo starts. */
static void memo_part(void *ctx, uint32_t part, uint32_t parts)
{
    fill_job *job = ctx;
    cuda_model *m = job->m;
    uint64_t at = job->memo[part];
    uint32_t end = (uint32_t)parts_begin(m->n_insts, part + 1, parts);
    for (uint32_t i = (uint32_t)parts_begin(m->n_insts, part, parts); i < end; i++) {
        at += m->cells[m->inst_cell[i]].memo_size;
        m->inst_memo0[i + 1] = at;
    }
}

static void fill_design_arrays(cuda_model *m, const design *dg, const power_plan *plan,
                               const power_sipl *sipl)
{
    fill_job job = {.m = m, .dg = dg, .plan = plan, .sipl = sipl};
    uint32_t parts = parts_for(m->n_pins, POWER_MAX_PARTS);
    parts_run(fill_part, &job, parts);
    uint64_t at = 0;
    for (uint32_t k = 0; k < parts; k++) {
        uint64_t size = job.memo[k];
        job.memo[k] = at;
        at += size;
        m->max_pins = job.max_pins[k] > m->max_pins ? job.max_pins[k] : m->max_pins;
    }
    m->inst_memo0[0] = 0;
    parts_run(memo_part, &job, parts);
}

bool cuda_model_build(cuda_model *m, const design *dg, const power_plan *plan,
                      const lib_cell **too_many)
{
    memset(m, 0, sizeof *m);
    *too_many = NULL;
    power_sipl sipl;
    if (!power_sipl_build(&sipl, dg))
        return false;
    for (uint32_t c = 0; c < sipl.n_cells; c++)
        if (sipl.cells[c].n_pins > CUDA_MAX_PINS)
            *too_many = sipl.cells[c].cell;
    pools p = {0};
    for (uint32_t c = 0; c < sipl.n_cells && !*too_many; c++)
        push_cell(&p, &sipl.cells[c]);
    take_pools(m, &p);
    m->n_insts = dg->n_insts, m->n_pins = dg->n_pins;
    m->n_arcs = dg->n_arcs, m->n_nets = dg->n_nets;
    bool ok = !p.failed && !*too_many && alloc_design_arrays(m, dg, &sipl);
    if (ok)
        fill_design_arrays(m, dg, plan, &sipl);
    power_sipl_free(&sipl);
    if (!ok)
        cuda_model_free(m);
    return ok;
}

void cuda_model_free(cuda_model *m)
{
    pools p = {.cells.data = m->cells, .groups.data = m->groups, .leakages.data = m->leakages,
               .tables.data = m->tables, .cpin_group0.data = m->cpin_group0,
               .cpin_n_groups.data = m->cpin_n_groups, .cpin_flags.data = m->cpin_flags,
               .cpin_unrelated.data = m->cpin_unrelated,
               .keys.data = m->keys, .cand0.data = m->cand0, .cand.data = m->cand,
               .cand_arc.data = m->cand_arc, .sel0.data = m->sel0, .sel.data = m->sel,
               .reals.data = m->reals, .tt.data = m->tt};
    free_pools(&p);
    void *arrays[] = {m->inst_cell, m->inst_memo0, m->pin_flags, m->arc_delay_rise_fs,
                      m->arc_delay_fall_fs, m->net_start}; /* the rest are the design's */
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        mem_free(arrays[i]);
    memset(m, 0, sizeof *m);
}
