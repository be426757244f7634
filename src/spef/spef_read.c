/* spef_read.c: the SPEF reader's entry points, the header, *NAME_MAP,
 * *POWER_NETS / *GROUND_NETS, *PORTS, the dispatch of top-level sections, and
 * the token and number helpers the other files share. */
#include <strings.h>

#include "spef/spef_int.h"
#include "util/mem.h"

/* SPEF is words separated by blanks: names, numbers, triples "1:2:3" and
 * pins "u1:A" are single words; no punctuation. */
static const tok_config spef_tok_config = {
    .punct = "", .comments = TOK_COMMENT_C | TOK_COMMENT_CPP, .quote = '"'};

#define SPEF_QUOTE_MAX 40

/* --- token helpers -------------------------------------------------------- */

gp_status spef_next(spef_parser *p)
{
    return p->tok_status = tok_next(p->lx, &p->t);
}

bool spef_is(const tok *t, const char *kw)
{
    return t->kind == TOK_WORD && t->len == strlen(kw) && strncasecmp(t->text, kw, t->len) == 0;
}

bool spef_is_keyword(const tok *t)
{
    if (t->kind != TOK_WORD || t->len < 2 || t->text[0] != '*')
        return false;
    char c = t->text[1];
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

gp_status spef_unexpected(spef_parser *p, const char *what)
{
    const tok *t = &p->t;
    if (t->kind == TOK_ERROR)
        return p->tok_status; /* reported by the tokenizer */
    diag_loc loc = tok_loc(p->lx, t);
    if (t->kind == TOK_EOF) {
        diag_error(p->d, 5002, loc,
                   "the file ends where %s was expected: it is truncated (each net ends with *END)",
                   what);
    } else {
        int n = t->len > SPEF_QUOTE_MAX ? SPEF_QUOTE_MAX : (int)t->len;
        diag_error(p->d, 5003, loc, "found %s'%.*s%s' where %s was expected",
                   t->kind == TOK_STRING ? "the string " : "", n, t->text,
                   n < (int)t->len ? "..." : "", what);
    }
    return GP_ERR_PARSE;
}

gp_status spef_nomem(spef_parser *p)
{
    diag_error(p->d, 5019, tok_loc(p->lx, &p->t), "out of memory while reading the SPEF file");
    return GP_ERR_NOMEM;
}

/* A number, or a triple a:b:c whose middle member is taken. */
static bool spef_parse_number_text(const char *s, size_t len, double *out)
{
    const char *c1 = memchr(s, ':', len);
    if (!c1)
        return tok_parse_double(s, len, out);
    const char *c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s));
    double lo, hi;
    return c2 && tok_parse_double(s, (size_t)(c1 - s), &lo) &&
           tok_parse_double(c1 + 1, (size_t)(c2 - c1 - 1), out) &&
           tok_parse_double(c2 + 1, len - (size_t)(c2 + 1 - s), &hi);
}

bool spef_is_value(const tok *t)
{
    double v;
    return t->kind == TOK_WORD && spef_parse_number_text(t->text, t->len, &v);
}

gp_status spef_par_value(spef_parser *p, double *out)
{
    if (p->t.kind == TOK_WORD && spef_parse_number_text(p->t.text, p->t.len, out))
        return GP_OK;
    if (p->t.kind != TOK_WORD || spef_is_keyword(&p->t))
        return spef_unexpected(p, "a number");
    int n = p->t.len > SPEF_QUOTE_MAX ? SPEF_QUOTE_MAX : (int)p->t.len;
    diag_error(p->d, 5004, tok_loc(p->lx, &p->t),
               "bad number '%.*s': write a number (1.5, .5, 2e-3) or a triple 1.2:1.3:1.4", n,
               p->t.text);
    return GP_ERR_PARSE;
}

void spef_warn_skipped(spef_parser *p, const char *kind, const char *why, diag_loc loc)
{
    size_t len = strlen(kind);
    if (strtab_find(&p->warned, kind, len) != STRTAB_NONE)
        return;
    strtab_intern(&p->warned, kind, len); /* out of memory: warn again next time */
    diag_warn(p->d, 5015, loc, "%s skipped: %s (this warning is given once per file)", kind, why);
}

/* --- the header ------------------------------------------------------------ */

/* *DESIGN "name": a string (or a word) after the keyword. */
static gp_status spef_parse_text(spef_parser *p, const char **dst)
{
    gp_status st = spef_next(p);
    if (st != GP_OK || !(p->t.kind == TOK_STRING || (p->t.kind == TOK_WORD &&
                                                      !spef_is_keyword(&p->t))))
        return spef_unexpected(p, "a string");
    if (!(*dst = arena_strndup(&p->keep, p->t.text, p->t.len)))
        return spef_nomem(p);
    return spef_next(p);
}

/* *DESIGN_FLOW "a" "b" ...: the strings joined by spaces. */
static gp_status spef_parse_design_flow(spef_parser *p)
{
    gp_status st;
    size_t count = 0;
    p->name.len = 0;
    while ((st = spef_next(p)) == GP_OK && p->t.kind == TOK_STRING) {
        if (!vec_u8_reserve(&p->name, p->name.len + p->t.len + 2))
            return spef_nomem(p);
        if (count++ > 0)
            p->name.data[p->name.len++] = ' ';
        memcpy(p->name.data + p->name.len, p->t.text, p->t.len);
        p->name.len += p->t.len;
    }
    if (st != GP_OK || count == 0)
        return spef_unexpected(p, "a string");
    p->hdr.design_flow = arena_strndup(&p->keep, (const char *)p->name.data, p->name.len);
    return p->hdr.design_flow ? GP_OK : spef_nomem(p);
}

/* One character of `allowed` as a word of its own; *out = '\0' when the
 * word is not one and `optional`. */
static gp_status spef_parse_char(spef_parser *p, const char *allowed, bool optional, char *out)
{
    const tok *t = &p->t;
    bool ok = t->kind == TOK_WORD && t->len == 1 && t->text[0] != '\0' &&
              strchr(allowed, t->text[0]);
    *out = ok ? t->text[0] : '\0';
    if (ok || optional)
        return GP_OK;
    diag_error(p->d, 5006, tok_loc(p->lx, t), "bad delimiter: write one of %s as a word of its own",
               allowed);
    return GP_ERR_PARSE;
}

static gp_status spef_parse_delimiters(spef_parser *p, bool divider)
{
    gp_status st = spef_next(p);
    if (st != GP_OK)
        return spef_unexpected(p, "a delimiter");
    st = spef_parse_char(p, "./:|", false, divider ? &p->hdr.divider : &p->hdr.delimiter);
    return st == GP_OK ? spef_next(p) : st;
}

/* A pair of bus delimiters written as one word, "[]" (as OpenRCX writes
 * them): both set; false for any other word. */
static bool spef_bus_pair(spef_parser *p)
{
    static const char pairs[] = "[]{}()<>";
    const tok *t = &p->t;
    const char *at = t->kind == TOK_WORD && t->len == 2 && t->text[0] ? strchr(pairs, t->text[0])
                                                                      : NULL;
    if (!at || (at - pairs) % 2 != 0 || t->text[1] != at[1])
        return false;
    p->hdr.bus_open = t->text[0];
    p->hdr.bus_close = t->text[1];
    return true;
}

/* *BUS_DELIMITER [ ] -- the closing one is optional; "[]" as one word too. */
static gp_status spef_parse_bus_delimiter(spef_parser *p)
{
    gp_status st = spef_next(p);
    if (st != GP_OK)
        return spef_unexpected(p, "a bus delimiter");
    if (spef_bus_pair(p))
        return spef_next(p);
    if ((st = spef_parse_char(p, "[{(<:.", false, &p->hdr.bus_open)) != GP_OK ||
        (st = spef_next(p)) != GP_OK)
        return st;
    spef_parse_char(p, "]})>", true, &p->hdr.bus_close);
    return p->hdr.bus_close ? spef_next(p) : GP_OK;
}

/* *T_UNIT 1 PS and its kin: the size of one unit into *out (fs for time,
 * SI for the others). */
static gp_status spef_parse_unit(spef_parser *p, double *out)
{
    static const struct { char kind; const char *name; double scale; } units[] = {
        {'T', "S", 1e15},  {'T', "MS", 1e12}, {'T', "US", 1e9},    {'T', "NS", 1e6},
        {'T', "PS", 1e3},   {'T', "FS", 1},     {'C', "F", 1},      {'C', "UF", 1e-6},
        {'C', "NF", 1e-9}, {'C', "PF", 1e-12}, {'C', "FF", 1e-15}, {'R', "OHM", 1},
        {'R', "KOHM", 1e3}, {'L', "HENRY", 1}, {'L', "MH", 1e-3},  {'L', "UH", 1e-6},
        {'L', "NH", 1e-9}};
    char kind = p->t.text[1] & ~0x20; /* *T_UNIT -> 'T' */
    diag_loc loc = tok_loc(p->lx, &p->t);
    double number;
    gp_status st = spef_next(p);
    if (st == GP_OK)
        st = spef_par_value(p, &number);
    if (st == GP_OK && (st = spef_next(p)) != GP_OK)
        return spef_unexpected(p, "a unit");
    if (st != GP_OK)
        return st;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (units[i].kind == kind && spef_is(&p->t, units[i].name) && number > 0) {
            *out = number * units[i].scale;
            return spef_next(p);
        }
    }
    diag_error(p->d, 5005, loc,
               "bad unit: write a positive number and a unit (*T_UNIT: NS or PS, *C_UNIT: PF or "
               "FF, *R_UNIT: OHM or KOHM, *L_UNIT: HENRY, MH or UH)");
    return GP_ERR_PARSE;
}

/* A header keyword at p->t; *known false (nothing read) when it is none. */
static gp_status spef_parse_header_entry(spef_parser *p, bool *known)
{
    static const char *const texts[] = {"*SPEF", "*DESIGN", "*DATE", "*VENDOR", "*PROGRAM",
                                        "*VERSION"};
    spef_header *h = &p->hdr;
    const char **dst[] = {&h->spef_version, &h->design, &h->date, &h->vendor, &h->program,
                          &h->program_version};
    *known = true;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (spef_is(&p->t, texts[i]))
            return spef_parse_text(p, dst[i]);
    if (spef_is(&p->t, "*DESIGN_FLOW"))
        return spef_parse_design_flow(p);
    if (spef_is(&p->t, "*DIVIDER") || spef_is(&p->t, "*DELIMITER"))
        return spef_parse_delimiters(p, spef_is(&p->t, "*DIVIDER"));
    if (spef_is(&p->t, "*BUS_DELIMITER"))
        return spef_parse_bus_delimiter(p);
    if (spef_is(&p->t, "*T_UNIT"))
        return spef_parse_unit(p, &h->t_unit);
    if (spef_is(&p->t, "*C_UNIT"))
        return spef_parse_unit(p, &h->c_unit);
    if (spef_is(&p->t, "*R_UNIT"))
        return spef_parse_unit(p, &h->r_unit);
    if (spef_is(&p->t, "*L_UNIT"))
        return spef_parse_unit(p, &h->l_unit);
    *known = false;
    return GP_OK;
}

/* The header ends at the first other keyword (at loc). */
static gp_status spef_send_header(spef_parser *p, diag_loc loc)
{
    p->header_sent = true;
    if (p->hdr.c_unit == 0) {
        diag_error(p->d, 5008, loc,
                   "no *C_UNIT in the header: capacitances cannot be converted; add one such as "
                   "'*C_UNIT 1 PF' before this line");
        return GP_ERR_PARSE;
    }
    return p->v->header ? p->v->header(p->v->ctx, &p->hdr, loc) : GP_OK;
}

/* --- sections before the nets ---------------------------------------------- */

/* *NAME_MAP followed by "*index name" pairs. */
static gp_status spef_parse_name_map(spef_parser *p)
{
    gp_status st = spef_next(p);
    while (st == GP_OK && p->t.kind == TOK_WORD && !spef_is_keyword(&p->t)) {
        if ((st = spef_map_add(p)) == GP_OK)
            st = spef_next(p);
    }
    if (st != GP_OK)
        return st;
    return spef_map_finish(p);
}

/* *POWER_NETS / *GROUND_NETS followed by net names. */
static gp_status spef_parse_supply(spef_parser *p, bool ground)
{
    gp_status st = spef_next(p);
    while (st == GP_OK && p->t.kind == TOK_WORD && !spef_is_keyword(&p->t)) {
        const char *name;
        diag_loc loc = tok_loc(p->lx, &p->t);
        arena_reset(&p->scratch);
        if ((st = spef_name(p, &name)) != GP_OK)
            return st;
        if (p->v->supply_net && (st = p->v->supply_net(p->v->ctx, name, ground, loc)) != GP_OK)
            return st;
        st = spef_next(p);
    }
    return st;
}

/* *PORTS followed by "name direction {attributes}" entries. */
static gp_status spef_parse_ports(spef_parser *p)
{
    gp_status st = spef_next(p);
    while (st == GP_OK && p->t.kind == TOK_WORD && !spef_is_keyword(&p->t)) {
        spef_conn c = {.is_port = true, .loc = tok_loc(p->lx, &p->t)};
        arena_reset(&p->scratch);
        if ((st = spef_name(p, &c.pin)) != GP_OK)
            return st;
        if (spef_next(p) != GP_OK)
            return spef_unexpected(p, "a direction I, O or B");
        if ((st = spef_parse_conn_tail(p, &c)) != GP_OK)
            return st;
        if (p->v->port && (st = p->v->port(p->v->ctx, &c, c.loc)) != GP_OK)
            return st;
    }
    return st;
}

static bool spef_is_section(const tok *t)
{
    static const char *const sections[] = {
        "*NAME_MAP", "*POWER_NETS", "*GROUND_NETS", "*PORTS", "*PHYSICAL_PORTS", "*DEFINE",
        "*PDEFINE", "*VARIATION_PARAMETERS", "*D_NET", "*R_NET", "*D_PNET", "*R_PNET"};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (spef_is(t, sections[i]))
            return true;
    return false;
}

/* Skips a section this reader does not take, up to the next section. */
static gp_status spef_skip_section(spef_parser *p)
{
    bool unknown = !spef_is_section(&p->t);
    int n = p->t.len > SPEF_QUOTE_MAX ? SPEF_QUOTE_MAX : (int)p->t.len;
    diag_loc loc = tok_loc(p->lx, &p->t);
    if (unknown && strtab_find(&p->warned, p->t.text, p->t.len) == STRTAB_NONE) {
        strtab_intern(&p->warned, p->t.text, p->t.len);
        diag_warn(p->d, 5016, loc,
                  "unknown keyword '%.*s': skipped up to the next section (this warning is "
                  "given once per keyword)",
                  n, p->t.text);
    } else if (!unknown) {
        char kind[SPEF_QUOTE_MAX + 1];
        snprintf(kind, sizeof kind, "%.*s", n, p->t.text);
        spef_warn_skipped(p, kind, "this reader does not use it", loc);
    }
    gp_status st;
    while ((st = spef_next(p)) == GP_OK && p->t.kind != TOK_EOF && !spef_is_section(&p->t))
        ;
    return st;
}

/* --- the file -------------------------------------------------------------------- */

/* One top-level keyword at p->t and what follows it. */
static gp_status spef_parse_top(spef_parser *p)
{
    if (!spef_is_keyword(&p->t))
        return spef_unexpected(p, "a keyword (*D_NET, *PORTS, ...)");
    bool known;
    tok kw = p->t;
    gp_status st = spef_parse_header_entry(p, &known);
    if (known && st == GP_OK && p->header_sent) {
        int n = kw.len > SPEF_QUOTE_MAX ? SPEF_QUOTE_MAX : (int)kw.len;
        diag_error(p->d, 5007, tok_loc(p->lx, &kw),
                   "header keyword %.*s after the header: move it before *NAME_MAP, *PORTS and "
                   "the nets",
                   n, kw.text);
        return GP_ERR_PARSE;
    }
    if (known || st != GP_OK)
        return st;
    if (!p->header_sent && (st = spef_send_header(p, tok_loc(p->lx, &p->t))) != GP_OK)
        return st;
    if (spef_is(&p->t, "*D_NET"))
        return spef_parse_d_net(p);
    if (spef_is(&p->t, "*NAME_MAP"))
        return spef_parse_name_map(p);
    if (spef_is(&p->t, "*POWER_NETS") || spef_is(&p->t, "*GROUND_NETS"))
        return spef_parse_supply(p, spef_is(&p->t, "*GROUND_NETS"));
    if (spef_is(&p->t, "*PORTS"))
        return spef_parse_ports(p);
    if (spef_is(&p->t, "*R_NET") || spef_is(&p->t, "*D_PNET") || spef_is(&p->t, "*R_PNET"))
        return spef_skip_net(p);
    return spef_skip_section(p);
}

static gp_status spef_parse_file(spef_parser *p)
{
    gp_status st = spef_next(p);
    if (st != GP_OK)
        return st;
    if (!spef_is(&p->t, "*SPEF")) {
        diag_error(p->d, 5001, tok_loc(p->lx, &p->t),
                   "not a SPEF file: it must start with *SPEF \"IEEE 1481...\"");
        return GP_ERR_PARSE;
    }
    while (p->t.kind != TOK_EOF)
        if ((st = spef_parse_top(p)) != GP_OK)
            return st;
    return p->header_sent ? GP_OK : spef_send_header(p, tok_loc(p->lx, &p->t));
}

static gp_status spef_run(tok_lexer *lx, const spef_visitor *v, diag_ctx *d)
{
    static const spef_visitor no_visitor = {0};
    spef_parser p = {.lx = lx, .d = d, .v = v ? v : &no_visitor, .map_sorted = true};
    p.hdr = (spef_header){"", "", "", "", "", "", "", '/', ':', '[', ']', 0, 0, 0, 0};
    arena_init(&p.keep);
    arena_init(&p.scratch);
    strtab_init(&p.warned);
    gp_status st = spef_parse_file(&p);
    arena_free_all(&p.keep);
    arena_free_all(&p.scratch);
    spef_map_vec_free(&p.map);
    vec_u8_free(&p.name);
    spef_conn_vec_free(&p.conns);
    strtab_free(&p.warned);
    tok_close(lx);
    return st;
}

gp_status spef_read(const char *path, const spef_visitor *v, diag_ctx *d)
{
    tok_lexer *lx;
    gp_status st = tok_open(path, &spef_tok_config, d, &lx);
    return st == GP_OK ? spef_run(lx, v, d) : st;
}

gp_status spef_read_memory(const char *name, const char *data, size_t len, const spef_visitor *v,
                           diag_ctx *d)
{
    tok_lexer *lx;
    gp_status st = tok_open_memory(name, data, len, &spef_tok_config, d, &lx);
    return st == GP_OK ? spef_run(lx, v, d) : st;
}
