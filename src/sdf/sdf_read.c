/* sdf_read.c: the SDF reader's entry points, the DELAYFILE header, CELL
 * groups, and the token and skipping helpers the other files share. */
#include <strings.h>

#include "sdf/sdf_int.h"
#include "util/mem.h"
#include "util/units.h"

/* SDF punctuation is only the parentheses: names, numbers, triples such as
 * "0.1::0.2" and paths such as "u1/A" are single words. */
const tok_config sdf_tok_config = {
    .punct = "()", .comments = TOK_COMMENT_C | TOK_COMMENT_CPP, .quote = '"'};

/* The longest piece of a token quoted in a message. */
#define SDF_QUOTE_MAX 40

/* --- token helpers -------------------------------------------------------- */

gp_status sdf_next(sdf_parser *p)
{
    return p->tok_status = tok_next(p->lx, &p->t);
}

bool sdf_is_kw(const tok *t, const char *kw)
{
    return t->kind == TOK_WORD && t->len == strlen(kw) && strncasecmp(t->text, kw, t->len) == 0;
}

gp_status sdf_unexpected(sdf_parser *p, const char *what)
{
    const tok *t = &p->t;
    diag_loc loc = tok_loc(p->lx, t);
    if (t->kind == TOK_ERROR)
        return p->tok_status; /* reported by the tokenizer */
    if (t->kind == TOK_EOF) {
        diag_error(p->d, 4002, loc,
                   "the file ends where %s was expected: it is truncated or a ')' is missing",
                   what);
    } else {
        int n = t->len > SDF_QUOTE_MAX ? SDF_QUOTE_MAX : (int)t->len;
        diag_error(p->d, 4003, loc, "found %s'%.*s%s' where %s was expected; check the parentheses",
                   t->kind == TOK_STRING ? "the string " : "", n, t->text,
                   n < (int)t->len ? "..." : "", what);
    }
    return GP_ERR_PARSE;
}

gp_status sdf_expect_punct(sdf_parser *p, char c, const char *what)
{
    gp_status st = sdf_next(p);
    if (st != GP_OK || !tok_is_punct(&p->t, c))
        return sdf_unexpected(p, what);
    return GP_OK;
}

gp_status sdf_skip_group(sdf_parser *p)
{
    for (int depth = 1; depth > 0;) {
        gp_status st = sdf_next(p);
        if (st != GP_OK || p->t.kind == TOK_EOF)
            return sdf_unexpected(p, "')'");
        if (tok_is_punct(&p->t, '('))
            depth++;
        else if (tok_is_punct(&p->t, ')'))
            depth--;
    }
    return GP_OK;
}

/* Whether `kind` is warned about for the first time in this file. */
static bool sdf_first_warning(sdf_parser *p, const char *kind, size_t len)
{
    if (strtab_find(&p->warned, kind, len) != STRTAB_NONE)
        return false;
    strtab_intern(&p->warned, kind, len); /* out of memory: warn again next time */
    return true;
}

static void sdf_say(diag_ctx *d, const sdf_once *m)
{
    int n = m->len > SDF_QUOTE_MAX ? SDF_QUOTE_MAX : (int)m->len;
    switch (m->kind) {
    case SDF_ONCE_CHECKS:
        diag_note(d, 4010, m->loc,
                  "TIMINGCHECK and TIMINGENV groups are skipped: they do not affect power (said "
                  "once per file)");
        break;
    case SDF_ONCE_UNSUPPORTED:
        diag_warn(d, 4011, m->loc,
                  "%.*s is not supported and skipped (this warning is given once per file)",
                  (int)m->len, m->what);
        break;
    case SDF_ONCE_UNKNOWN:
        diag_warn(d, 4012, m->loc,
                  "unknown construct '%.*s' skipped (SDF allows extensions; this warning is "
                  "given once per keyword)",
                  n, m->what);
        break;
    case SDF_ONCE_ZX:
        diag_warn(d, 4014, m->loc,
                  "delays of transitions to and from Z and X (the values after rise and fall) "
                  "are ignored (this warning is given once per file)");
        break;
    }
}

void sdf_say_once(sdf_parser *p, sdf_once_kind kind, diag_loc loc, const char *what, size_t len)
{
    bool *said = kind == SDF_ONCE_CHECKS ? &p->warned_checks
                 : kind == SDF_ONCE_ZX   ? &p->warned_zx
                                         : NULL;
    if (said ? *said : !sdf_first_warning(p, what, len))
        return;
    if (said)
        *said = true;
    sdf_once m = {kind, loc, what, len};
    if (p->once && (!what || (m.what = arena_strndup(&p->keep, what, len)) != NULL) &&
        sdf_once_vec_push(p->once, m))
        return;
    sdf_say(p->d, &m); /* out of memory: said now, out of order rather than lost */
}

void sdf_warn_unsupported(sdf_parser *p, const char *kind, diag_loc loc)
{
    sdf_say_once(p, SDF_ONCE_UNSUPPORTED, loc, kind, strlen(kind));
}

gp_status sdf_skip_unknown(sdf_parser *p, diag_loc open_loc)
{
    const tok *t = &p->t;
    if (t->kind != TOK_WORD)
        return sdf_unexpected(p, "a keyword");
    sdf_say_once(p, SDF_ONCE_UNKNOWN, open_loc, t->text, t->len);
    return sdf_skip_group(p);
}

static gp_status sdf_out_of_memory(diag_ctx *d, diag_loc loc)
{
    diag_error(d, 4018, loc, "out of memory while reading the SDF file");
    return GP_ERR_NOMEM;
}

gp_status sdf_nomem(sdf_parser *p) { return sdf_out_of_memory(p->d, tok_loc(p->lx, &p->t)); }

gp_status sdf_no_memory(diag_ctx *d, const char *name)
{
    return sdf_out_of_memory(d, (diag_loc){name, 0, 0});
}

char *sdf_copy_text(sdf_parser *p, arena *a)
{
    return arena_strndup(a, p->t.text, p->t.len);
}

/* --- the header ------------------------------------------------------------- */

/* A string entry: (DESIGN "name"), also unquoted or empty. */
static gp_status sdf_parse_text_entry(sdf_parser *p, const char **dst)
{
    gp_status st = sdf_next(p);
    if (st != GP_OK)
        return sdf_unexpected(p, "a string");
    if (tok_is_punct(&p->t, ')')) {
        *dst = "";
        return GP_OK;
    }
    if (p->t.kind != TOK_STRING && p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "a string");
    if (!(*dst = sdf_copy_text(p, &p->keep)))
        return sdf_nomem(p);
    return sdf_expect_punct(p, ')', "')'");
}

/* SDFVERSION's string may carry words around the number ("OVI 3.0"). */
static void sdf_check_version(sdf_parser *p, diag_loc loc)
{
    static const char *const known[] = {"3.0", "2.1", "2.0", "1.0"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strstr(p->hdr.sdf_version, known[i]))
            return;
    diag_warn(p->d, 4009, loc,
              "SDF version \"%s\" is read as SDF 3.0; constructs of other versions are "
              "skipped with warnings",
              p->hdr.sdf_version);
}

static gp_status sdf_parse_divider(sdf_parser *p)
{
    gp_status st = sdf_next(p);
    if (st != GP_OK || p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "the divider / or .");
    if (p->t.len != 1 || (p->t.text[0] != '/' && p->t.text[0] != '.')) {
        diag_error(p->d, 4007, tok_loc(p->lx, &p->t),
                   "bad DIVIDER: it must be / or . (the hierarchy separator of the file's names)");
        return GP_ERR_PARSE;
    }
    p->hdr.divider = p->t.text[0];
    return sdf_expect_punct(p, ')', "')'");
}

/* (TIMESCALE 1ns), (TIMESCALE 1.0 ns), (TIMESCALE 100fs): a number with the
 * unit attached or as the next word. */
static gp_status sdf_parse_timescale(sdf_parser *p)
{
    gp_status st = sdf_next(p);
    if (st != GP_OK || p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "a time scale such as 1ns");
    diag_loc loc = tok_loc(p->lx, &p->t);
    size_t num_len = 0; /* the number: 1, 10, 100, 1.0, 10.0 or 100.0 by the standard */
    while (num_len < p->t.len && (p->t.text[num_len] == '.' ||
                                  (p->t.text[num_len] >= '0' && p->t.text[num_len] <= '9')))
        num_len++;
    double number = 0, unit = 0;
    bool ok = tok_parse_double(p->t.text, num_len, &number) && number > 0;
    if (ok && num_len < p->t.len) {
        unit = gp_time_unit_fs(p->t.text + num_len, p->t.len - num_len, true);
    } else if (ok) {
        st = sdf_next(p);
        if (st != GP_OK)
            return sdf_unexpected(p, "a time unit");
        unit = gp_time_unit_fs(p->t.text, p->t.kind == TOK_WORD ? p->t.len : 0, true);
    }
    if (!ok || unit == 0) {
        diag_error(p->d, 4006, loc,
                   "bad TIMESCALE: write a positive number and a unit s, ms, us, ns, ps or fs "
                   "(e.g. 1ns, 10 ps)");
        return GP_ERR_PARSE;
    }
    p->hdr.timescale = number * unit;
    return sdf_expect_punct(p, ')', "')'");
}

/* (VOLTAGE 1.8:1.8:1.8), (TEMPERATURE 25) */
static gp_status sdf_parse_number_entry(sdf_parser *p, double *value, bool *present)
{
    gp_status st = sdf_next(p);
    if (st != GP_OK || p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "a number or min:typ:max");
    st = sdf_parse_value(p, value, present);
    if (st != GP_OK)
        return st;
    return sdf_expect_punct(p, ')', "')'");
}

/* A header entry whose '(' and keyword are read; *known false when the
 * keyword is no header keyword (nothing is read then). */
static gp_status sdf_parse_header_entry(sdf_parser *p, diag_loc open_loc, bool *known)
{
    sdf_header *h = &p->hdr;
    const char **text = NULL;
    *known = true;
    if (sdf_is_kw(&p->t, "SDFVERSION")) {
        gp_status st = sdf_parse_text_entry(p, &h->sdf_version);
        if (st == GP_OK)
            sdf_check_version(p, open_loc);
        return st;
    }
    if (sdf_is_kw(&p->t, "DESIGN"))
        text = &h->design;
    else if (sdf_is_kw(&p->t, "DATE"))
        text = &h->date;
    else if (sdf_is_kw(&p->t, "VENDOR"))
        text = &h->vendor;
    else if (sdf_is_kw(&p->t, "PROGRAM"))
        text = &h->program;
    else if (sdf_is_kw(&p->t, "VERSION"))
        text = &h->program_version;
    else if (sdf_is_kw(&p->t, "PROCESS"))
        text = &h->process;
    if (text)
        return sdf_parse_text_entry(p, text);
    if (sdf_is_kw(&p->t, "DIVIDER"))
        return sdf_parse_divider(p);
    if (sdf_is_kw(&p->t, "TIMESCALE"))
        return sdf_parse_timescale(p);
    if (sdf_is_kw(&p->t, "VOLTAGE"))
        return sdf_parse_number_entry(p, &h->voltage, &h->has_voltage);
    if (sdf_is_kw(&p->t, "TEMPERATURE"))
        return sdf_parse_number_entry(p, &h->temperature, &h->has_temperature);
    *known = false;
    return GP_OK;
}

gp_status sdf_send_header(sdf_parser *p, diag_loc loc)
{
    p->in_cells = true;
    if (!p->v->header)
        return GP_OK;
    return p->v->header(p->v->ctx, &p->hdr, loc);
}

/* --- cells -------------------------------------------------------------------- */

/* (CELLTYPE "NAND2X1") (INSTANCE u1/u2) -- INSTANCE may be empty or "*". */
static gp_status sdf_parse_cell_head(sdf_parser *p, const char **celltype, const char **inst)
{
    gp_status st = sdf_expect_punct(p, '(', "'(' opening CELLTYPE");
    if (st == GP_OK && ((st = sdf_next(p)) != GP_OK || !sdf_is_kw(&p->t, "CELLTYPE")))
        st = sdf_unexpected(p, "CELLTYPE");
    if (st == GP_OK && ((st = sdf_next(p)) != GP_OK ||
                        (p->t.kind != TOK_STRING && p->t.kind != TOK_WORD)))
        st = sdf_unexpected(p, "the cell type");
    if (st == GP_OK && !(*celltype = sdf_copy_text(p, &p->scratch)))
        st = sdf_nomem(p);
    if (st == GP_OK)
        st = sdf_expect_punct(p, ')', "')' closing CELLTYPE");
    if (st == GP_OK)
        st = sdf_expect_punct(p, '(', "'(' opening INSTANCE");
    if (st == GP_OK && ((st = sdf_next(p)) != GP_OK || !sdf_is_kw(&p->t, "INSTANCE")))
        st = sdf_unexpected(p, "INSTANCE");
    if (st == GP_OK && (st = sdf_next(p)) != GP_OK)
        st = sdf_unexpected(p, "an instance path or ')'");
    if (st != GP_OK)
        return st;
    if (tok_is_punct(&p->t, ')')) {
        *inst = "";
        return GP_OK;
    }
    if (p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "an instance path or ')'");
    if (p->t.len == 1 && p->t.text[0] == '*')
        *inst = "*";
    else if ((st = sdf_parse_path(p, inst)) != GP_OK)
        return st;
    return sdf_expect_punct(p, ')', "')' closing INSTANCE");
}

/* A CELL's timing specifications after its head, through its ')' unless
 * the reading stops. */
static gp_status sdf_parse_cell_rest(sdf_parser *p)
{
    while (!p->stopped) {
        gp_status st = sdf_next(p);
        if (st != GP_OK)
            return sdf_unexpected(p, "'(' or ')'");
        if (tok_is_punct(&p->t, ')'))
            return GP_OK;
        if (!tok_is_punct(&p->t, '('))
            return sdf_unexpected(p, "'(' or ')' closing CELL");
        diag_loc open_loc = tok_loc(p->lx, &p->t);
        if ((st = sdf_next(p)) != GP_OK)
            return sdf_unexpected(p, "DELAY or TIMINGCHECK");
        if (sdf_is_kw(&p->t, "DELAY")) {
            st = sdf_parse_delay(p);
        } else if (sdf_is_kw(&p->t, "TIMINGCHECK") || sdf_is_kw(&p->t, "TIMINGENV")) {
            sdf_say_once(p, SDF_ONCE_CHECKS, open_loc, NULL, 0);
            st = sdf_skip_group(p);
        } else {
            st = sdf_skip_unknown(p, open_loc);
        }
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

/* A CELL group whose '(' and keyword are read. */
static gp_status sdf_parse_cell(sdf_parser *p, diag_loc loc)
{
    const char *celltype = NULL, *inst = NULL;
    arena_reset(&p->scratch);
    gp_status st = p->in_cells ? GP_OK : sdf_send_header(p, loc);
    if (st == GP_OK)
        st = sdf_parse_cell_head(p, &celltype, &inst);
    if (st == GP_OK && p->v->cell)
        st = p->v->cell(p->v->ctx, celltype, inst, loc);
    return st == GP_OK ? sdf_parse_cell_rest(p) : st;
}

/* --- the file ------------------------------------------------------------------- */

/* One entry of DELAYFILE whose '(' is read. */
static gp_status sdf_parse_top_entry(sdf_parser *p)
{
    diag_loc open_loc = tok_loc(p->lx, &p->t);
    gp_status st = sdf_next(p);
    if (st != GP_OK || p->t.kind != TOK_WORD)
        return sdf_unexpected(p, "a keyword");
    if (sdf_is_kw(&p->t, "CELL"))
        return sdf_parse_cell(p, open_loc);
    tok kw = p->t;
    bool known;
    st = sdf_parse_header_entry(p, open_loc, &known);
    if (st == GP_OK && known && p->in_cells) {
        int n = kw.len > SDF_QUOTE_MAX ? SDF_QUOTE_MAX : (int)kw.len;
        diag_error(p->d, 4008, open_loc,
                   "header entry %.*s after the first CELL: move it before the cells (the "
                   "values above were read without it)",
                   n, kw.text);
        return GP_ERR_PARSE;
    }
    if (st != GP_OK || known)
        return st;
    return sdf_skip_unknown(p, open_loc);
}

void sdf_finish(sdf_parser *p)
{
    static const char *const rule[] = {
        [SDF_PICK_TYP] = "typical value; used the max (the min where max is empty too)",
        [SDF_PICK_MIN] = "min value; used the typical (the max where typ is empty too)",
        [SDF_PICK_MAX] = "max value; used the typical (the min where typ is empty too)"};
    if (p->fallback_count > 0)
        diag_warn(p->d, 4013, p->first_fallback,
                  "%ld value triple(s) in this file have an empty %s; OpenSTA writes (min::max) "
                  "triples",
                  p->fallback_count, rule[p->pick]);
}

/* After the ')' closing DELAYFILE: the header when no CELL sent it, and
 * nothing but the end of the file. */
static gp_status sdf_close_file(sdf_parser *p)
{
    gp_status st = GP_OK;
    if (!p->in_cells && (st = sdf_send_header(p, tok_loc(p->lx, &p->t))) != GP_OK)
        return st;
    if ((st = sdf_next(p)) != GP_OK)
        return st;
    if (p->t.kind != TOK_EOF) {
        diag_error(p->d, 4004, tok_loc(p->lx, &p->t),
                   "text after the ')' that closes DELAYFILE: a ')' too many above, or a second "
                   "file appended?");
        return GP_ERR_PARSE;
    }
    return GP_OK;
}

bool sdf_stops_here(sdf_parser *p, sdf_place place)
{
    uint64_t at = tok_text_offset(p->lx, &p->t);
    if (at < p->end)
        return false;
    p->stopped = true;
    p->stop = at;
    p->stop_place = place;
    return true;
}

/* DELAYFILE's entries from the current token on (the '(' of the first
 * read when `open`). */
static gp_status sdf_parse_entries(sdf_parser *p, bool open)
{
    for (;; open = false) {
        gp_status st;
        if (!open) {
            if ((st = sdf_next(p)) != GP_OK)
                return sdf_unexpected(p, "'(' or ')'");
            if (tok_is_punct(&p->t, ')'))
                return sdf_close_file(p);
            if (!tok_is_punct(&p->t, '('))
                return sdf_unexpected(p, "'(' or the ')' closing DELAYFILE");
            if (sdf_stops_here(p, SDF_PLACE_TOP))
                return GP_OK;
        }
        if ((st = sdf_parse_top_entry(p)) != GP_OK || p->stopped)
            return st;
    }
}

gp_status sdf_parse_from(sdf_parser *p, sdf_place place, bool open, uint64_t end)
{
    p->end = end;
    p->stopped = false;
    if (place == SDF_PLACE_TOP)
        return sdf_parse_entries(p, open);
    gp_status st = sdf_parse_delay_from(p, place == SDF_PLACE_INCREMENT, open);
    if (st == GP_OK && !p->stopped)
        st = sdf_parse_cell_rest(p);
    return st == GP_OK && !p->stopped ? sdf_parse_entries(p, false) : st;
}

gp_status sdf_parse_delayfile(sdf_parser *p)
{
    gp_status st = sdf_next(p);
    bool open = st == GP_OK && tok_is_punct(&p->t, '(');
    if (open)
        st = sdf_next(p);
    if (st != GP_OK)
        return st;
    if (!open || !sdf_is_kw(&p->t, "DELAYFILE")) {
        diag_error(p->d, 4001, tok_loc(p->lx, &p->t),
                   "missing DELAYFILE: an SDF file starts with '(DELAYFILE'; is this an SDF file?");
        return GP_ERR_PARSE;
    }
    return GP_OK;
}

void sdf_parser_init(sdf_parser *p, tok_lexer *lx, const sdf_visitor *v, const sdf_options *opt,
                     diag_ctx *d)
{
    static const sdf_visitor no_visitor = {0};
    *p = (sdf_parser){.lx = lx, .d = d, .v = v ? v : &no_visitor,
                      .pick = opt ? opt->pick : SDF_PICK_TYP, .end = UINT64_MAX};
    p->hdr = (sdf_header){"", "", "", "", "", "", "", '/', 1e6, false, false, 0, 0};
    arena_init(&p->keep);
    arena_init(&p->scratch);
    strtab_init(&p->warned);
}

void sdf_parser_free(sdf_parser *p)
{
    arena_free_all(&p->keep);
    arena_free_all(&p->scratch);
    vec_u8_free(&p->cond);
    strtab_free(&p->warned);
    tok_close(p->lx);
    p->lx = NULL;
}

static gp_status sdf_run(tok_lexer *lx, const sdf_visitor *v, const sdf_options *opt,
                         diag_ctx *d)
{
    sdf_parser p;
    sdf_parser_init(&p, lx, v, opt, d);
    gp_status st = sdf_parse_delayfile(&p);
    if (st == GP_OK)
        st = sdf_parse_from(&p, SDF_PLACE_TOP, false, UINT64_MAX);
    if (st == GP_OK)
        sdf_finish(&p);
    sdf_parser_free(&p);
    return st;
}

gp_status sdf_read(const char *path, const sdf_visitor *v, const sdf_options *opt, diag_ctx *d)
{
    tok_lexer *lx;
    gp_status st = tok_open(path, &sdf_tok_config, d, &lx);
    return st == GP_OK ? sdf_run(lx, v, opt, d) : st;
}

gp_status sdf_read_memory(const char *name, const char *data, size_t len, const sdf_visitor *v,
                          const sdf_options *opt, diag_ctx *d)
{
    tok_lexer *lx;
    gp_status st = tok_open_memory(name, data, len, &sdf_tok_config, d, &lx);
    return st == GP_OK ? sdf_run(lx, v, opt, d) : st;
}
