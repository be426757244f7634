/* power_sipl.c: building the state-indexed power lookup tables (SIPL) of the
 * cell types a design uses, and the energy lookup through them.  The tables
 * are filled by the reference engine's own rules (power_int.h) state by
 * state, so a lookup gives the groups, and the sums, the reference would. */
#include "power/power_sipl.h"

#include <string.h>

#include "design/design.h"
#include "util/mem.h"

/* Keys and related-pin candidates: every cell gets them. */
static bool build_keys(arena *a, power_sipl_cell *sc, uint32_t *n_keys)
{
    const lib_cell *c = sc->cell;
    uint32_t n = sc->n_pins, keys = 0, cands = 0;
    int32_t *key = arena_alloc(a, (size_t)n * (n + 1) * sizeof *key + 1, 0);
    uint32_t *cand0 = arena_alloc(a, ((size_t)n + 1) * sizeof *cand0, 0);
    uint32_t *cand = arena_alloc(a, (size_t)n * n * sizeof *cand + 1, 0);
    int32_t *cand_arc = arena_alloc(a, (size_t)n * n * sizeof *cand_arc + 1, 0);
    if (!key || !cand0 || !cand || !cand_arc)
        return false;
    for (uint32_t p = 0; p < n; p++) {
        cand0[p] = cands;
        for (uint32_t r = 0; r <= n; r++) {
            int32_t related = r == n ? LIB_NONE : (int32_t)r;
            bool has = power_has_groups(c, p, related);
            key[p * (n + 1) + r] = has ? (int32_t)keys++ : -1;
            /* The reference's related-pin candidates: other pins that load. */
            if (has && r < n && r != p && design_dir_drives(c->pins[p].dir) &&
                design_dir_loads(c->pins[r].dir)) {
                cand[cands] = r;
                cand_arc[cands++] = power_delay_arc(c, p, r);
            }
        }
    }
    cand0[n] = cands;
    sc->key = key;
    sc->cand0 = cand0;
    sc->cand = cand;
    sc->cand_arc = cand_arc;
    *n_keys = keys;
    return true;
}

/* Room for the chosen groups: a key chooses at most its own groups. */
static size_t max_selected(const power_sipl_cell *sc)
{
    size_t total = 0;
    for (uint32_t p = 0; p < sc->n_pins; p++)
        total += sc->cell->pins[p].n_powers;
    return total << sc->n_pins;
}

/* The dense tables: leakage and chosen groups per state. */
static bool build_dense(arena *a, power_sipl_cell *sc, uint32_t n_keys)
{
    const lib_cell *c = sc->cell;
    uint32_t n = sc->n_pins, states = 1u << n;
    double *leak = arena_alloc(a, (size_t)states * sizeof *leak, 0);
    uint32_t *sel0 = arena_alloc(a, ((size_t)n_keys * states + 1) * sizeof *sel0, 0);
    uint32_t *sel = arena_alloc(a, max_selected(sc) * sizeof *sel + 1, 0);
    if (!leak || !sel0 || !sel)
        return false;
    for (uint32_t s = 0; s < states; s++)
        leak[s] = power_leakage(c, s);
    uint32_t used = 0;
    for (uint32_t p = 0; p < n; p++) {
        const lib_pin *pin = &c->pins[p];
        for (uint32_t r = 0; r <= n; r++) {
            int32_t k = sc->key[p * (n + 1) + r], related = r == n ? LIB_NONE : (int32_t)r;
            for (uint32_t s = 0; k >= 0 && s < states; s++) {
                sel0[((size_t)k << n) + s] = used;
                uint64_t served = 0;
                for (uint32_t g = pin->first_power; g < pin->first_power + pin->n_powers; g++)
                    if (c->powers[g].related == related &&
                        power_group_chosen(c, &c->powers[g], s, &served))
                        sel[used++] = g;
            }
        }
    }
    sel0[(size_t)n_keys * states] = used;
    sc->leak = leak;
    sc->sel0 = sel0;
    sc->sel = sel;
    return true;
}

static bool build_cell(arena *a, power_sipl_cell *sc, const lib_cell *c)
{
    memset(sc, 0, sizeof *sc);
    sc->cell = c;
    sc->n_pins = c->n_pins;
    sc->dense = c->n_pins <= POWER_SIPL_MAX_PINS;
    return build_keys(a, sc, &sc->n_keys) && (!sc->dense || build_dense(a, sc, sc->n_keys));
}

/* Open addressing from cell pointers to entries of t->cells. */
static size_t slot_of(const void *cell, size_t mask)
{
    return (size_t)(((uintptr_t)cell >> 4) * 0x9E3779B97F4A7C15ull) & mask;
}

/* The entry of cell c, built on first sight; DESIGN_NONE when out of memory. */
static uint32_t entry_of(power_sipl *t, const lib_cell *c, uint32_t *slots, size_t mask,
                         size_t *capacity)
{
    size_t h = slot_of(c, mask);
    while (slots[h] != DESIGN_NONE && t->cells[slots[h]].cell != c)
        h = (h + 1) & mask;
    if (slots[h] != DESIGN_NONE)
        return slots[h];
    if (t->n_cells == *capacity) {
        power_sipl_cell *more = mem_realloc(t->cells, 2 * *capacity * sizeof *more);
        if (!more)
            return DESIGN_NONE;
        t->cells = more;
        *capacity *= 2;
    }
    if (!build_cell(&t->mem, &t->cells[t->n_cells], c))
        return DESIGN_NONE;
    const power_sipl_cell *sc = &t->cells[t->n_cells];
    size_t memo = sc->dense ? 4 * ((size_t)sc->n_keys << sc->n_pins) : 0;
    t->memo_slots = memo > t->memo_slots ? memo : t->memo_slots;
    return slots[h] = t->n_cells++;
}

bool power_sipl_build(power_sipl *t, const design *dg)
{
    memset(t, 0, sizeof *t);
    arena_init(&t->mem);
    size_t slots_n = 16, capacity = 16; /* distinct cells <= instances < slots_n / 2 */
    while (slots_n <= 2 * (size_t)dg->n_insts)
        slots_n *= 2;
    uint32_t *slots = mem_alloc(slots_n * sizeof *slots);
    t->cells = mem_alloc(capacity * sizeof *t->cells);
    t->inst_cell = mem_alloc((dg->n_insts ? dg->n_insts : 1) * sizeof *t->inst_cell);
    bool ok = slots && t->cells && t->inst_cell;
    for (size_t h = 0; ok && h < slots_n; h++)
        slots[h] = DESIGN_NONE;
    for (uint32_t i = 0; ok && i < dg->n_insts; i++) {
        t->inst_cell[i] = entry_of(t, dg->inst_cell[i], slots, slots_n - 1, &capacity);
        ok = t->inst_cell[i] != DESIGN_NONE;
    }
    mem_free(slots);
    if (!ok)
        power_sipl_free(t);
    return ok;
}

void power_sipl_free(power_sipl *t)
{
    mem_free(t->cells);
    mem_free(t->inst_cell);
    arena_free_all(&t->mem);
    memset(t, 0, sizeof *t);
}

bool power_sipl_memo_init(power_sipl_memo *m, const power_sipl *t)
{
    m->n_slots = t->memo_slots + 1;
    m->energy = mem_alloc(m->n_slots * sizeof *m->energy);
    m->stamp = mem_calloc(m->n_slots, sizeof *m->stamp);
    m->serial = 1;
    return m->energy && m->stamp;
}

void power_sipl_memo_free(power_sipl_memo *m)
{
    mem_free(m->energy);
    mem_free(m->stamp);
    m->energy = NULL;
    m->stamp = NULL;
}

void power_sipl_memo_reset(power_sipl_memo *m)
{
    if (++m->serial == 0) { /* wrapped: old stamps could look valid */
        memset(m->stamp, 0, m->n_slots * sizeof *m->stamp);
        m->serial = 1;
    }
}

double power_sipl_energy_of(const power_sipl_cell *sc, power_sipl_memo *memo, int32_t key,
                            uint32_t pin, int32_t related, uint32_t s, bool rise,
                            bool slew_rise, double slew, double load)
{
    if (key < 0)
        return 0.0;
    if (!sc->dense)
        return power_groups_energy(sc->cell, pin, related, s, rise, slew, load);
    size_t at = ((size_t)key << sc->n_pins) + s;
    size_t slot = 4 * at + 2 * (size_t)rise + slew_rise;
    if (memo && memo->stamp[slot] == memo->serial)
        return memo->energy[slot];
    const lib_cell *c = sc->cell;
    double e = 0.0;
    for (uint32_t i = sc->sel0[at]; i < sc->sel0[at + 1]; i++) {
        const lib_table *table = rise ? c->powers[sc->sel[i]].rise : c->powers[sc->sel[i]].fall;
        if (table)
            e += lib_table_lookup(table, slew, load);
    }
    if (memo) {
        memo->energy[slot] = e;
        memo->stamp[slot] = memo->serial;
    }
    return e;
}
