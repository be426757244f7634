/* vcd_header.c: the VCD header, from the first byte to $enddefinitions:
 * $timescale, $scope/$upscope, $var (identifier codes -> ids), and the
 * sections skipped ($date, $version, $comment and unknown ones). */
#include <stdio.h>
#include <string.h>

#include "util/mem.h"
#include "vcd/vcd_int.h"

#define VCD_TIMESCALE_MAX 32 /* bytes of a $timescale's text */
#define VCD_TYPE_MAX 31       /* bytes of a $var's type kept */

static gp_status vcd_expect_end(vcd_text *r, const char *what)
{
    vcd_word w;
    gp_status st = vcd_text_need_word(r, &w, what);
    if (st == GP_OK && !vcd_word_is(&w, "$end")) {
        diag_error(r->st.d, 6031, vcd_text_loc(r, w.text),
                   "expected $end to close %s, found '%.*s'", what, (int)w.len, w.text);
        return GP_ERR_PARSE;
    }
    return st;
}

/* "1", "10" or "100" followed by s, ms, us, ns, ps or fs: fs per unit, or 0. */
static int64_t vcd_timescale_fs(const char *t)
{
    static const struct { const char *unit; int64_t fs; } units[] = {
        {"s", 1000000000000000LL}, {"ms", 1000000000000LL}, {"us", 1000000000LL},
        {"ns", 1000000LL},         {"ps", 1000LL},          {"fs", 1LL}};
    int64_t mult = 1;
    if (strncmp(t, "100", 3) == 0)
        mult = 100;
    else if (strncmp(t, "10", 2) == 0)
        mult = 10;
    else if (t[0] != '1')
        return 0;
    t += mult == 100 ? 3 : mult == 10 ? 2 : 1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(t, units[i].unit) == 0)
            return mult * units[i].fs;
    return 0;
}

/* $timescale: number and unit in one word or two, on one line or several. */
static gp_status vcd_parse_timescale(vcd_text *r, diag_loc loc)
{
    char text[VCD_TIMESCALE_MAX + 1];
    size_t n = 0;
    vcd_word w;
    gp_status st;
    while ((st = vcd_text_need_word(r, &w, "$timescale")) == GP_OK && !vcd_word_is(&w, "$end")) {
        size_t k = w.len < VCD_TIMESCALE_MAX - n ? w.len : VCD_TIMESCALE_MAX - n;
        memcpy(text + n, w.text, k);
        n += k;
    }
    if (st != GP_OK)
        return st;
    text[n] = '\0';
    if ((r->scale = vcd_timescale_fs(text)) == 0) {
        diag_error(r->st.d, 6032, loc,
                   "bad $timescale '%s': expected 1, 10 or 100 followed by s, ms, us, ns, ps or fs",
                   text);
        return GP_ERR_PARSE;
    }
    return GP_OK;
}

static gp_status vcd_parse_scope(vcd_text *r)
{
    vcd_word w;
    /* The type: module, task, function, begin, fork, generate, ... all alike. */
    gp_status st = vcd_text_need_word(r, &w, "$scope");
    if (st == GP_OK)
        st = vcd_text_need_word(r, &w, "$scope");
    if (st == GP_OK && vcd_word_is(&w, "$end")) {
        diag_error(r->st.d, 6033, vcd_text_loc(r, w.text),
                   "$scope without a type and a name: expected '$scope module NAME $end'");
        return GP_ERR_PARSE;
    }
    if (st == GP_OK)
        st = vcd_state_push_scope(&r->st, w.text, w.len, vcd_text_loc(r, w.text));
    return st == GP_OK ? vcd_expect_end(r, "$scope") : st;
}

gp_status vcd_header_upscope(vcd_text *r, diag_loc loc)
{
    if (vcd_state_depth(&r->st) == 0) {
        diag_error(r->st.d, 6034, loc, "$upscope without an open $scope: the header is malformed");
        return GP_ERR_PARSE;
    }
    vcd_state_pop_scope(&r->st);
    return GP_OK;
}

static gp_status vcd_parse_upscope(vcd_text *r, diag_loc loc)
{
    gp_status st = vcd_header_upscope(r, loc);
    return st == GP_OK ? vcd_expect_end(r, "$upscope") : st;
}

static vcd_kind vcd_kind_of_type(const vcd_word *w)
{
    static const char *const logic[] = {
        "wire",  "reg",   "integer", "parameter", "event", "supply0",  "supply1",
        "tri",   "triand", "trior",  "trireg",    "tri0",  "tri1",     "wand",
        "wor",   "time",  "uwire",   "logic",     "bit",   "int",      "shortint",
        "longint", "byte", "enum"};
    static const char *const real[] = {"real", "realtime", "shortreal", "real_parameter"};
    for (size_t i = 0; i < sizeof logic / sizeof logic[0]; i++)
        if (vcd_word_is(w, logic[i]))
            return VCD_KIND_LOGIC;
    for (size_t i = 0; i < sizeof real / sizeof real[0]; i++)
        if (vcd_word_is(w, real[i]))
            return VCD_KIND_REAL;
    return VCD_KIND_OTHER;
}

/* The id of a code: a new one for a code not declared before. */
static gp_status vcd_code_intern(vcd_text *r, const char *code, size_t n, uint32_t width,
                                 uint32_t *id)
{
    vcd_code *e = NULL;
    gp_status st = vcd_codes_entry(r, code, n, &e);
    if (st != GP_OK)
        return st;
    if (e->width == 0) {
        e->id = r->id_count++;
        e->width = width; /* an alias of another width is refused by vcd_state_declare */
    }
    *id = e->id;
    return GP_OK;
}

/* Appends a word of the reference to r->scratch, a blank between words. */
static gp_status vcd_scratch_append(vcd_text *r, size_t *used, const vcd_word *w)
{
    if (!vec_char_reserve(&r->scratch, *used + 1 + w->len + 1))
        return vcd_text_nomem(r);
    if (*used > 0)
        r->scratch.data[(*used)++] = ' ';
    memcpy(r->scratch.data + *used, w->text, w->len);
    *used += w->len;
    return GP_OK;
}

static gp_status vcd_var_width(vcd_text *r, const vcd_word *w, uint32_t *width)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < w->len && w->text[i] >= '0' && w->text[i] <= '9' && v <= VCD_MAX_WIDTH; i++)
        v = v * 10 + (uint64_t)(w->text[i] - '0');
    if (i < w->len || v == 0 || v > VCD_MAX_WIDTH) {
        diag_error(r->st.d, 6035, vcd_text_loc(r, w->text),
                   "bad $var width '%.*s': expected a whole number from 1 to %u", (int)w->len,
                   w->text, VCD_MAX_WIDTH);
        return GP_ERR_PARSE;
    }
    *width = (uint32_t)v;
    return GP_OK;
}

/* The reference's words joined in r->scratch[0..used) parsed into decl,
 * then the var declared with id `id`. */
static gp_status vcd_var_finish(vcd_text *r, vcd_decl *decl, uint32_t id, size_t used,
                                diag_loc loc)
{
    if (used == 0 || !vcd_parse_reference(r->scratch.data, used, r->scratch.data, decl)) {
        diag_error(r->st.d, 6036, loc,
                   "malformed $var reference '%.*s': expected a name, optionally followed by "
                   "[index] or [msb:lsb]", (int)used, used ? r->scratch.data : "");
        return GP_ERR_PARSE;
    }
    if (!vcd_decl_settle_range(decl)) {
        diag_error(r->st.d, 6037, loc, "$var '%s' has width %u but range [%d:%d]: fix the file",
                   decl->name, decl->width, decl->msb, decl->lsb);
        return GP_ERR_PARSE;
    }
    return vcd_state_declare(&r->st, id, decl, loc);
}

/* A $var's type into decl, its text copied into type. */
static void vcd_var_type(const vcd_word *w, char type[VCD_TYPE_MAX + 1], vcd_decl *decl)
{
    size_t type_len = w->len < VCD_TYPE_MAX ? w->len : VCD_TYPE_MAX;
    memcpy(type, w->text, type_len);
    type[type_len] = '\0';
    decl->type = type;
    decl->kind = vcd_kind_of_type(w);
}

/* $var type width code reference $end */
static gp_status vcd_parse_var(vcd_text *r, diag_loc loc)
{
    char type[VCD_TYPE_MAX + 1];
    vcd_word w;
    vcd_decl decl = {0};
    uint32_t id = 0;
    gp_status st = vcd_text_need_word(r, &w, "$var");
    if (st != GP_OK)
        return st;
    vcd_var_type(&w, type, &decl);
    if ((st = vcd_text_need_word(r, &w, "$var")) != GP_OK ||
        (st = vcd_var_width(r, &w, &decl.width)) != GP_OK)
        return st;
    if ((st = vcd_text_need_word(r, &w, "$var")) != GP_OK)
        return st;
    if (vcd_word_is(&w, "$end")) {
        diag_error(r->st.d, 6038, loc,
                   "$var without identifier code and name: expected "
                   "'$var TYPE WIDTH CODE NAME $end'");
        return GP_ERR_PARSE;
    }
    if ((st = vcd_code_intern(r, w.text, w.len, decl.width, &id)) != GP_OK)
        return st;
    size_t used = 0;
    while ((st = vcd_text_need_word(r, &w, "$var")) == GP_OK && !vcd_word_is(&w, "$end"))
        if ((st = vcd_scratch_append(r, &used, &w)) != GP_OK)
            return st;
    return st == GP_OK ? vcd_var_finish(r, &decl, id, used, loc) : st;
}

gp_status vcd_header_var(vcd_text *r, const vcd_word *w, size_t n, diag_loc loc)
{
    char type[VCD_TYPE_MAX + 1];
    vcd_decl decl = {0};
    uint32_t id = 0;
    size_t used = 0;
    vcd_var_type(&w[0], type, &decl);
    gp_status st = vcd_var_width(r, &w[1], &decl.width);
    if (st == GP_OK)
        st = vcd_code_intern(r, w[2].text, w[2].len, decl.width, &id);
    for (size_t k = 3; st == GP_OK && k < n; k++)
        st = vcd_scratch_append(r, &used, &w[k]);
    return st == GP_OK ? vcd_var_finish(r, &decl, id, used, loc) : st;
}

/* One header command starting with the word w. */
static gp_status vcd_header_command(vcd_text *r, const vcd_word *w)
{
    diag_loc loc = vcd_text_loc(r, w->text);
    if (vcd_word_is(w, "$var"))
        return vcd_parse_var(r, loc);
    if (vcd_word_is(w, "$scope"))
        return vcd_parse_scope(r);
    if (vcd_word_is(w, "$upscope"))
        return vcd_parse_upscope(r, loc);
    if (vcd_word_is(w, "$timescale"))
        return vcd_parse_timescale(r, loc);
    if (vcd_word_is(w, "$date") || vcd_word_is(w, "$version") || vcd_word_is(w, "$comment"))
        return vcd_text_skip_section(r, "a $date, $version or $comment section");
    if (w->text[0] == '$') {
        diag_warn(r->st.d, 6039, loc, "unknown header section '%.*s' skipped up to its $end",
                  (int)w->len, w->text);
        return vcd_text_skip_section(r, "an unknown header section");
    }
    diag_error(r->st.d, 6040, loc,
               "unexpected '%.*s' in the VCD header: expected a $keyword (value changes come "
               "after $enddefinitions)", (int)w->len, w->text);
    return GP_ERR_PARSE;
}

gp_status vcd_text_header(vcd_text *r)
{
    vcd_word w;
    gp_status st;
    bool pieces_tried = false;
    while ((st = vcd_text_need_word(r, &w, "the header (before $enddefinitions)")) == GP_OK &&
           !vcd_word_is(&w, "$enddefinitions")) {
        if (!pieces_tried && (vcd_word_is(&w, "$var") || vcd_word_is(&w, "$scope"))) {
            /* the declarations read in pieces, or, where they are not, word
             * by word from this one on */
            pieces_tried = true;
            r->pos = (size_t)(w.text - r->buf);
            st = vcd_header_pieces(r);
        } else {
            st = vcd_header_command(r, &w);
        }
        if (st != GP_OK)
            return st;
    }
    if (st != GP_OK)
        return st;
    diag_loc loc = vcd_text_loc(r, w.text);
    if ((st = vcd_expect_end(r, "$enddefinitions")) != GP_OK)
        return st;
    if (r->scale == 0) {
        diag_error(r->st.d, 6041, loc,
                   "no $timescale before $enddefinitions: add one, e.g. '$timescale 1ps $end'");
        return GP_ERR_PARSE;
    }
    vcd_codes_fill(r);
    int64_t last = r->f && !infile_is_gzip(r->f) ? vcd_last_ticks(infile_path(r->f)) : -1;
    int64_t last_fs = last >= 0 && last <= VCD_TIME_MAX_FS / r->scale ? last * r->scale : -1;
    return vcd_state_start(&r->st, "VCD", r->scale, last_fs, loc);
}
