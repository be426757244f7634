/* power_sipl.h: state-indexed power lookup (SIPL, SPEC §3): per cell type in
 * use, tables over the 2^k states of its k pins, built once, that give the
 * leakage power and the internal_power groups that apply, so that costing an
 * event indexes a table instead of evaluating `when` lists.
 *
 * A key names one (pin, related pin) pair that has internal_power groups;
 * "no related pin" is related index n_pins.  For a dense cell, the groups of
 * key k in state s are
 *     sel[sel0[(k << n_pins) + s] .. sel0[(k << n_pins) + s + 1])
 * (indices into cell->powers, at most one per pg group, in library order:
 * the order in which the reference engine sums them).  Cells with more than
 * POWER_SIPL_MAX_PINS pins are not dense: their leakage and groups are found
 * by scanning, with the same rules (power_int.h). */
#ifndef GP_POWER_POWER_SIPL_H
#define GP_POWER_POWER_SIPL_H

#include "power/power_int.h"
#include "util/arena.h"

/* 2^10 states: a 10-pin cell's tables take 8 KiB of leakage and 4 KiB per key. */
#define POWER_SIPL_MAX_PINS 10

typedef struct power_sipl_cell {
    const lib_cell *cell;
    uint32_t n_pins, n_keys;
    bool dense;
    const double *leak;       /* [2^n_pins] W; dense only */
    const int32_t *key;       /* [n_pins * (n_pins + 1)]: key of (pin, related), or -1 */
    const uint32_t *sel0;     /* dense only, see above */
    const uint32_t *sel;
    /* Output pin p's candidate related pins: the inputs r with groups for
     * (p, r), in pin order, and the first delay arc of each (LIB_NONE if
     * none): cand[cand0[p] .. cand0[p + 1]). */
    const uint32_t *cand0;
    const uint32_t *cand;
    const int32_t *cand_arc;
} power_sipl_cell;

typedef struct power_sipl {
    uint32_t n_cells;
    size_t memo_slots;        /* the most memo slots of one dense cell */
    power_sipl_cell *cells;
    uint32_t *inst_cell;      /* per instance: its entry in cells */
    arena mem;
} power_sipl;

/* One instance's energies, kept while its events are costed: with slews and
 * loads fixed per instance, the energy of a key in state s depends only on
 * the direction of the event and of the slew it is looked up at, so memo
 * slot 4 ((key << n_pins) + s) + 2 rise + slew_rise holds it once computed
 * (dense cells only).  A slot is valid while its stamp equals `serial`. */
typedef struct power_sipl_memo {
    double *energy;
    uint32_t *stamp;
    size_t n_slots;
    uint32_t serial;
} power_sipl_memo;

/* Builds the tables of every cell type `dg` uses; false when out of memory. */
bool power_sipl_build(power_sipl *t, const design *dg);
void power_sipl_free(power_sipl *t);

/* A memo with room for any dense cell of t; false when out of memory. */
bool power_sipl_memo_init(power_sipl_memo *m, const power_sipl *t);
void power_sipl_memo_free(power_sipl_memo *m);
/* Forgets every lookup: call it when the instance changes. */
void power_sipl_memo_reset(power_sipl_memo *m);

/* The key of (pin, related) (related LIB_NONE: no related pin), or -1. */
static inline int32_t power_sipl_key(const power_sipl_cell *sc, uint32_t pin, int32_t related)
{
    uint32_t r = related == LIB_NONE ? sc->n_pins : (uint32_t)related;
    return sc->key[pin * (sc->n_pins + 1) + r];
}

/* Leakage power (W) in state s. */
static inline double power_sipl_leakage(const power_sipl_cell *sc, uint32_t s)
{
    return sc->dense ? sc->leak[s] : power_leakage(sc->cell, s);
}

/* The internal energy of key `key` (of pin `pin`, related `related`) in
 * state s: its chosen groups' rise or fall tables at (slew, load), summed in
 * library order; 0 for key -1.  slew is the slew pin's rise slew if
 * slew_rise, else its fall slew; memo (NULL: none) remembers energies. */
double power_sipl_energy_of(const power_sipl_cell *sc, power_sipl_memo *memo, int32_t key,
                            uint32_t pin, int32_t related, uint32_t s, bool rise,
                            bool slew_rise, double slew, double load);

/* power_sipl_energy_of, answered from the memo when it can be. */
static inline double power_sipl_energy(const power_sipl_cell *sc, power_sipl_memo *memo,
                                       int32_t key, uint32_t pin, int32_t related, uint32_t s,
                                       bool rise, bool slew_rise, double slew, double load)
{
    if (memo && key >= 0 && sc->dense) {
        size_t slot = 4 * (((size_t)key << sc->n_pins) + s) + 2 * (size_t)rise + slew_rise;
        if (memo->stamp[slot] == memo->serial)
            return memo->energy[slot];
    }
    return power_sipl_energy_of(sc, memo, key, pin, related, s, rise, slew_rise, slew, load);
}

#endif
