/* liberty_expr.c: Liberty Boolean expressions compiled to truth tables.
 *
 * Grammar, loosest binding first (SPEC §1):
 *   or    := and { ('+' | '|') and }
 *   and   := xor { ['*' | '&'] xor }      juxtaposition ("A B", "(A)(B)") is AND
 *   xor   := unary { '^' unary }
 *   unary := '!' unary | primary { '\'' }  both invert
 *   primary := '(' or ')' | '0' | '1' | NAME | "NAME"
 * A NAME is a pin or state variable of the cell ("A", "D[3]", "IQ"); inside
 * a bus member's expression, a bus's name stands for its bit at the same
 * position.  The parser evaluates as it goes, on a stack of truth tables
 * (one per pending operand): variable i's table has bit S set when bit i of
 * S is, so AND, OR, XOR and NOT are word-wise operations. */
#include <stdio.h>

#include "liberty/liberty_int.h"

#define LIB_EXPR_MAX_NESTING 200

typedef struct lib_xp {
    const lib_expr_scope *sc;
    const char *s;
    size_t n, pos;
    size_t words;   /* per truth table; 0 when only checking */
    vec_u64 stack;  /* `words` per operand */
    size_t operands;
    int nesting;
    diag_ctx *d;
    diag_loc loc;
    const char *what;
} lib_xp;

size_t lib_expr_words(uint32_t n_vars)
{
    return n_vars <= 6 ? 1 : (size_t)1 << (n_vars - 6);
}

/* ---- errors --------------------------------------------------------------- */

static gp_status lib_xp_syntax(lib_xp *x, const char *expected)
{
    char found[32];
    if (x->pos >= x->n)
        snprintf(found, sizeof found, "the end");
    else
        snprintf(found, sizeof found, "'%c'", x->s[x->pos]);
    diag_error(x->d, 2400, x->loc,
               "syntax error in %s \"%.200s\" of cell '%s' at character %zu: expected %s, "
               "found %s",
               x->what, x->s, x->sc->cell, x->pos + 1, expected, found);
    return GP_ERR_PARSE;
}

static gp_status lib_xp_nomem(lib_xp *x)
{
    diag_error(x->d, 2401, x->loc, "out of memory compiling %s of cell '%s'", x->what, x->sc->cell);
    return GP_ERR_NOMEM;
}

/* ---- the operand stack ------------------------------------------------------ */

/* The operand `below` places under the top (NULL when only checking). */
static uint64_t *lib_xp_top(lib_xp *x, size_t below)
{
    return x->words ? x->stack.data + (x->operands - 1 - below) * x->words : NULL;
}

/* Pushes variable `var`'s table, or a constant when var is -1 (value) . */
static gp_status lib_xp_push(lib_xp *x, int64_t var, bool value)
{
    static const uint64_t pattern[6] = {
        0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull, 0xF0F0F0F0F0F0F0F0ull,
        0xFF00FF00FF00FF00ull, 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};
    if (!vec_u64_resize(&x->stack, (x->operands + 1) * x->words))
        return lib_xp_nomem(x);
    x->operands++;
    uint64_t *w = lib_xp_top(x, 0);
    for (size_t k = 0; k < x->words; k++) {
        if (var < 0)
            w[k] = value ? ~0ull : 0;
        else if (var < 6)
            w[k] = pattern[var];
        else
            w[k] = (k >> (var - 6)) & 1 ? ~0ull : 0;
    }
    return GP_OK;
}

static void lib_xp_not(lib_xp *x)
{
    uint64_t *w = lib_xp_top(x, 0);
    for (size_t k = 0; k < x->words; k++)
        w[k] = ~w[k];
}

/* Combines the two top operands with op ('&', '|' or '^') into one. */
static void lib_xp_apply(lib_xp *x, char op)
{
    uint64_t *a = lib_xp_top(x, 1), *b = lib_xp_top(x, 0);
    for (size_t k = 0; k < x->words; k++)
        a[k] = op == '&' ? a[k] & b[k] : op == '|' ? a[k] | b[k] : a[k] ^ b[k];
    x->operands--;
    x->stack.len -= x->words;
}

/* ---- lexing ----------------------------------------------------------------- */

static void lib_xp_blanks(lib_xp *x)
{
    while (x->pos < x->n) {
        char c = x->s[x->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            x->pos++;
        } else if (c == '\\' && x->pos + 1 < x->n && (x->s[x->pos + 1] == '\n' || x->s[x->pos + 1] == '\r')) {
            x->pos += 2;
        } else {
            break;
        }
    }
}

static char lib_xp_peek(lib_xp *x)
{
    lib_xp_blanks(x);
    return x->pos < x->n ? x->s[x->pos] : '\0';
}

static bool lib_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '[' || c == ']' || c == '.' || c == '$';
}

/* Whether a primary can start at the next character (for juxtaposition). */
static bool lib_xp_starts_primary(lib_xp *x)
{
    char c = lib_xp_peek(x);
    return c == '(' || c == '!' || c == '"' || c == '\\' || (lib_name_char(c) && c != '[' && c != ']');
}

/* ---- names ------------------------------------------------------------------- */

static bool lib_same(const char *a, const char *s, size_t len)
{
    return strncmp(a, s, len) == 0 && a[len] == '\0';
}

/* The variable NAME s[0..len) stands for, or -1 after reporting. */
static int64_t lib_xp_resolve(lib_xp *x, const char *s, size_t len)
{
    const lib_expr_scope *sc = x->sc;
    uint32_t var = lib_idmap_get(sc->var_of, strtab_find(sc->names, s, len));
    if (var > 0)
        return var - 1;
    for (uint32_t b = 0; b < sc->n_buses && sc->bus != LIB_NONE; b++) {
        if (!lib_same(sc->buses[b].name, s, len))
            continue;
        if (sc->buses[b].n_bits == sc->buses[sc->bus].n_bits)
            return sc->buses[b].bits[sc->bus_pos];
        diag_error(x->d, 2402, x->loc,
                   "bus '%.*s' in %s \"%.200s\" of cell '%s' has %u bits, but the pin's bus '%s' "
                   "has %u: name one bit, e.g. %.*s[0]",
                   (int)len, s, x->what, x->s, sc->cell, sc->buses[b].n_bits,
                   sc->buses[sc->bus].name, sc->buses[sc->bus].n_bits, (int)len, s);
        return -1;
    }
    diag_error(x->d, 2403, x->loc,
               "unknown pin '%.*s' in %s \"%.200s\" of cell '%s': name a pin or ff/latch "
               "variable of the cell",
               (int)(len > 100 ? 100 : len), s, x->what, x->s, sc->cell);
    return -1;
}

/* A name or constant at the current position. */
static gp_status lib_xp_name(lib_xp *x)
{
    size_t start, end;
    bool quoted = x->s[x->pos] == '"' || x->s[x->pos] == '\\';
    if (quoted) {
        size_t open = x->s[x->pos] == '\\' ? 2 : 1;
        if (open == 2 && (x->pos + 1 >= x->n || x->s[x->pos + 1] != '"'))
            return lib_xp_syntax(x, "a pin name, a constant or '('");
        start = x->pos + open;
        const char *q = memchr(x->s + start, '"', x->n - start);
        if (!q)
            return lib_xp_syntax(x, "a closing '\"' after the quoted pin name");
        end = (size_t)(q - x->s);
        if (open == 2 && x->s[end - 1] == '\\')
            end--;
        x->pos = (size_t)(q - x->s) + 1;
    } else {
        start = x->pos;
        while (x->pos < x->n && lib_name_char(x->s[x->pos]))
            x->pos++;
        end = x->pos;
        if (end == start)
            return lib_xp_syntax(x, "a pin name, a constant or '('");
        bool digit = x->s[start] >= '0' && x->s[start] <= '9';
        if (digit && end - start == 1 && (x->s[start] == '0' || x->s[start] == '1'))
            return lib_xp_push(x, -1, x->s[start] == '1');
        if (digit) {
            x->pos = start;
            return lib_xp_syntax(x, "a pin name or the constant 0 or 1");
        }
    }
    int64_t var = lib_xp_resolve(x, x->s + start, end - start);
    if (var < 0)
        return GP_ERR_INPUT;
    return lib_xp_push(x, var, false);
}

/* ---- the grammar ---------------------------------------------------------------- */

static gp_status lib_xp_or(lib_xp *x);

static gp_status lib_xp_primary(lib_xp *x)
{
    char c = lib_xp_peek(x);
    if (c != '(')
        return lib_xp_name(x);
    if (++x->nesting > LIB_EXPR_MAX_NESTING) {
        diag_error(x->d, 2404, x->loc, "%s of cell '%s' is nested more than %d deep", x->what,
                   x->sc->cell, LIB_EXPR_MAX_NESTING);
        return GP_ERR_INPUT;
    }
    x->pos++;
    gp_status st = lib_xp_or(x);
    if (st != GP_OK)
        return st;
    if (lib_xp_peek(x) != ')')
        return lib_xp_syntax(x, "')'");
    x->pos++;
    x->nesting--;
    return GP_OK;
}

static gp_status lib_xp_unary(lib_xp *x)
{
    if (lib_xp_peek(x) == '!') {
        x->pos++;
        if (++x->nesting > LIB_EXPR_MAX_NESTING)
            return lib_xp_syntax(x, "fewer '!' in a row");
        gp_status st = lib_xp_unary(x);
        x->nesting--;
        if (st == GP_OK)
            lib_xp_not(x);
        return st;
    }
    gp_status st = lib_xp_primary(x);
    while (st == GP_OK && lib_xp_peek(x) == '\'') {
        x->pos++;
        lib_xp_not(x);
    }
    return st;
}

static gp_status lib_xp_xor(lib_xp *x)
{
    gp_status st = lib_xp_unary(x);
    while (st == GP_OK && lib_xp_peek(x) == '^') {
        x->pos++;
        if ((st = lib_xp_unary(x)) == GP_OK)
            lib_xp_apply(x, '^');
    }
    return st;
}

static gp_status lib_xp_and(lib_xp *x)
{
    gp_status st = lib_xp_xor(x);
    while (st == GP_OK) {
        char c = lib_xp_peek(x);
        if (c == '*' || c == '&')
            x->pos++;
        else if (!lib_xp_starts_primary(x))
            break;
        if ((st = lib_xp_xor(x)) == GP_OK)
            lib_xp_apply(x, '&');
    }
    return st;
}

static gp_status lib_xp_or(lib_xp *x)
{
    gp_status st = lib_xp_and(x);
    while (st == GP_OK) {
        char c = lib_xp_peek(x);
        if (c != '+' && c != '|')
            break;
        x->pos++;
        if ((st = lib_xp_and(x)) == GP_OK)
            lib_xp_apply(x, '|');
    }
    return st;
}

gp_status lib_expr_compile(const lib_expr_scope *sc, const char *text, diag_loc loc,
                           const char *what, arena *mem, diag_ctx *d, const uint64_t **tt)
{
    lib_xp x = {.sc = sc, .s = text, .n = strlen(text), .words = sc->compile ? lib_expr_words(sc->n_vars) : 0,
                .d = d, .loc = loc, .what = what};
    *tt = NULL;
    gp_status st = lib_xp_or(&x);
    if (st == GP_OK && lib_xp_peek(&x) != '\0')
        st = lib_xp_syntax(&x, "an operator (! ' ^ * & + |) or the end");
    if (st == GP_OK && sc->compile) {
        uint64_t *out = arena_alloc(mem, x.words * sizeof *out, 0);
        if (!out)
            st = lib_xp_nomem(&x);
        else
            *tt = memcpy(out, x.stack.data, x.words * sizeof *out);
    }
    vec_u64_free(&x.stack);
    return st;
}

/* ---- using truth tables ------------------------------------------------------------ */

static bool lib_tt_bit(const uint64_t *tt, uint32_t s) { return (tt[s >> 6] >> (s & 63)) & 1; }

int lib_expr_eval(const lib_cell *c, const lib_expr *e, uint32_t state_bits)
{
    if (!e->tt)
        return -1;
    uint32_t s = c->n_vars >= 32 ? state_bits : state_bits & ((1u << c->n_vars) - 1);
    return lib_tt_bit(e->tt, s);
}

lib_timing_sense lib_expr_unateness(const uint64_t *tt, uint32_t n_vars, uint32_t var)
{
    bool rises = false, falls = false;
    uint32_t bit = 1u << var;
    for (uint32_t s = 0; s < (1u << n_vars); s++) {
        if (s & bit)
            continue;
        bool lo = lib_tt_bit(tt, s), hi = lib_tt_bit(tt, s | bit);
        rises |= !lo && hi;
        falls |= lo && !hi;
    }
    if (rises && !falls)
        return LIB_SENSE_POSITIVE_UNATE;
    if (falls && !rises)
        return LIB_SENSE_NEGATIVE_UNATE;
    return LIB_SENSE_NON_UNATE;
}
