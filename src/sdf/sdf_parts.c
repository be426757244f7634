/* sdf_parts.c: an SDF file read in parts on threads (sdf_read_parts).
 *
 * The header is read first, up to the first CELL.  The rest is then cut
 * into parts of about equal bytes, each beginning at a '(' that blanks and
 * the keyword CELL follow in the bytes, or INTERCONNECT: tools write every
 * wire's delay into the top CELL's one ABSOLUTE group, half the file or
 * more, a line each, so a part may begin among a group's entries (the
 * group last opened at a line's start before it, ABSOLUTE where none
 * shows).  What the bytes show may not be what a lexer reading the whole
 * file sees (a comment, a string, a group opened inside a line).  Each
 * part is parsed by a parser of its own, with the header's values, from a
 * lexer that starts there, up to the first '(' at or after the next part's
 * beginning that opens an entry of DELAYFILE, ABSOLUTE or INCREMENT,
 * handing its entries to its own visitor and keeping its messages (the
 * once-per-file ones as records).  Joined in file order, a part counts
 * when the one before stopped exactly at its beginning and in the place it
 * began in: the entries and messages are then those of one parser reading
 * the file (the entries a part hands before any CELL are the last CELL's
 * before it).  A part that stopped elsewhere goes on alone through the end
 * of the file, and the parts after it do not count. */
#include <strings.h>

#include "sdf/sdf_int.h"
#include "util/infile.h"
#include "util/mem.h"
#include "util/parts.h"

typedef struct sdf_part {
    sdf_parser p;
    diag_ctx *held;    /* its messages until it is joined (part 0: none) */
    sdf_once_vec once; /* its once-per-file messages */
    uint64_t begin, end; /* its entries begin in [begin, end) */
    sdf_place place;     /* the place it begins in */
    sdf_place group;     /* begun among a group's entries: the group last opened at a
                            line's start in the part before's bytes (TOP: none) */
    int line;            /* at begin */
    uint64_t line_start;
    gp_status st;
} sdf_part;

typedef struct sdf_split {
    const char *name;
    const char *text; /* NUL-terminated */
    size_t len;
    sdf_part part[SDF_MAX_PARTS];
    uint32_t n;
} sdf_split;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Whether text[at .. len) begins with the keyword kw (ignoring case) and
 * then a blank or '('. */
static bool has_keyword(const char *text, size_t len, uint64_t at, const char *kw)
{
    size_t n = strlen(kw);
    return len - at > n && strncasecmp(text + at, kw, n) == 0 &&
           (is_blank(text[at + n]) || text[at + n] == '(');
}

/* The offset of the first '(' at or after `from` that blanks and the
 * keyword CELL follow, or with `inside` INTERCONNECT too (*place then says
 * which), or len. */
static uint64_t next_split(const char *text, size_t len, uint64_t from, bool inside,
                           sdf_place *place)
{
    const char *end = text + len;
    for (const char *q = text + from; q < end && (q = memchr(q, '(', (size_t)(end - q))) != NULL;
         q++) {
        const char *k = q + 1;
        while (k < end && is_blank(*k))
            k++;
        uint64_t at = (uint64_t)(k - text);
        *place = SDF_PLACE_TOP;
        if (has_keyword(text, len, at, "CELL"))
            return (uint64_t)(q - text);
        *place = SDF_PLACE_ABSOLUTE;
        if (inside && has_keyword(text, len, at, "INTERCONNECT"))
            return (uint64_t)(q - text);
    }
    return len;
}

/* The group (ABSOLUTE or INCREMENT) that a line opening with '(' and its
 * keyword at text[at] opens, or `group` for any other line.  Tools write
 * each group's keyword at the start of a line, and a group's entries a
 * line each. */
static sdf_place line_group(const char *text, size_t len, uint64_t at, sdf_place group)
{
    while (text[at] == ' ' || text[at] == '\t')
        at++;
    if (text[at] != '(')
        return group;
    do
        at++;
    while (text[at] == ' ' || text[at] == '\t');
    char c = (char)(text[at] | 0x20); /* most lines open an entry: one test */
    if (c == 'a' && has_keyword(text, len, at, "ABSOLUTE"))
        return SDF_PLACE_ABSOLUTE;
    if (c == 'i' && (text[at + 1] | 0x20) == 'n' && (text[at + 2] | 0x20) == 'c' &&
        has_keyword(text, len, at, "INCREMENT"))
        return SDF_PLACE_INCREMENT;
    return group;
}

/* What lies before part k's beginning, from the part before's (parts_fn):
 * the newlines, and for a part begun among a group's entries the group
 * last opened at a line's start there (group). */
static void survey_part(void *ctx, uint32_t k, uint32_t parts)
{
    (void)parts;
    sdf_split *sp = ctx;
    sdf_part *part = &sp->part[k];
    const char *q = sp->text + (k ? sp->part[k - 1].begin : 0), *stop = sp->text + part->begin;
    int lines = 0;
    sdf_place group = SDF_PLACE_TOP;
    while (q < stop && (q = memchr(q, '\n', (size_t)(stop - q))) != NULL) {
        lines++;
        q++;
        if (part->place != SDF_PLACE_TOP)
            group = line_group(sp->text, sp->len, (uint64_t)(q - sp->text), group);
    }
    part->line = lines;
    part->group = group;
}

/* The group part k (begun at an INTERCONNECT) begins in: the one last
 * opened in the part before's bytes, else the part before's own, else
 * ABSOLUTE. */
static sdf_place group_before(const sdf_split *sp, uint32_t k)
{
    sdf_place before = sp->part[k - 1].place;
    if (sp->part[k].group != SDF_PLACE_TOP)
        return sp->part[k].group;
    return before != SDF_PLACE_TOP ? before : SDF_PLACE_ABSOLUTE;
}

/* Each part's line and line start at its beginning (parts 1 on), and the
 * place of those begun at an INTERCONNECT: the group last opened before
 * it, as far as the lines' starts show (ABSOLUTE where they show none). */
static void survey(sdf_split *sp)
{
    parts_run(survey_part, sp, sp->n);
    int line = 1 + sp->part[0].line;
    for (uint32_t k = 1; k < sp->n; k++) {
        sdf_part *part = &sp->part[k];
        line += part->line;
        part->line = line;
        uint64_t at = part->begin;
        while (at > 0 && sp->text[at - 1] != '\n')
            at--;
        part->line_start = at;
        if (part->place != SDF_PLACE_TOP)
            part->place = group_before(sp, k);
    }
}

/* Parts from the first CELL (at c0, part 0's) on: about equal bytes, each
 * beginning where next_split finds a CELL or an INTERCONNECT. */
static void cut_parts(sdf_split *sp, uint32_t parts, uint64_t c0)
{
    sp->n = 1;
    sp->part[0].begin = c0;
    sp->part[0].place = SDF_PLACE_TOP;
    for (uint32_t k = 1; k < parts; k++) {
        sdf_place place;
        uint64_t at = next_split(sp->text, sp->len, c0 + (sp->len - c0) * k / parts, true, &place);
        if (at < sp->len && at > sp->part[sp->n - 1].begin) {
            sp->part[sp->n].begin = at;
            sp->part[sp->n++].place = place;
        }
    }
    for (uint32_t k = 0; k < sp->n; k++)
        sp->part[k].end = k + 1 < sp->n ? sp->part[k + 1].begin : sp->len;
}

static void parse_part(void *ctx, uint32_t k, uint32_t parts)
{
    (void)parts;
    sdf_split *sp = ctx;
    sdf_part *part = &sp->part[k];
    if (k == 0) { /* its first CELL's '(' is read */
        part->st = sdf_parse_from(&part->p, SDF_PLACE_TOP, true, part->end);
        return;
    }
    tok_start at = {part->begin, part->line, part->line_start};
    part->st = tok_open_view(sp->name, sp->text, sp->len, at, &sdf_tok_config, part->held,
                             &part->p.lx);
    if (part->st == GP_OK)
        part->st = sdf_parse_from(&part->p, part->place, false, part->end);
}

/* Part k's parser: the header's values, in the cells, its messages held. */
static bool start_part(sdf_split *sp, uint32_t k, const sdf_visitor *v, const sdf_options *opt,
                       diag_ctx *d)
{
    sdf_part *part = &sp->part[k];
    if (!(part->held = diag_new_held(d)))
        return false;
    sdf_parser_init(&part->p, NULL, v, opt, part->held);
    part->p.hdr = sp->part[0].p.hdr;
    part->p.in_cells = true;
    part->p.once = &part->once;
    return true;
}

/* Part k's messages, after those of the parts before it. */
static void join_messages(sdf_split *sp, uint32_t k)
{
    sdf_part *part = &sp->part[k];
    for (size_t i = 0; i < part->once.len; i++) {
        const sdf_once *m = &part->once.data[i];
        sdf_say_once(&sp->part[0].p, m->kind, m->loc, m->what, m->len);
    }
    diag_release(part->held);
}

/* Part k, which did not stop where the next part begins, reads on alone
 * through the end of the file, with what the parts before it said. */
static void read_on(sdf_split *sp, uint32_t k)
{
    sdf_part *part = &sp->part[k];
    if (k > 0) {
        sdf_parser *first = &sp->part[0].p;
        strtab swap = part->p.warned;
        part->p.warned = first->warned;
        first->warned = swap;
        part->p.warned_checks = first->warned_checks;
        part->p.warned_zx = first->warned_zx;
        part->p.once = NULL;
    }
    part->st = sdf_parse_from(&part->p, part->p.stop_place, true, UINT64_MAX);
}

/* The parts that count, joined; returns how many. */
static uint32_t join_parts(sdf_split *sp)
{
    uint32_t k = 1;
    for (; k < sp->n; k++) {
        const sdf_parser *before = &sp->part[k - 1].p;
        if (sp->part[k - 1].st != GP_OK || !before->stopped)
            break;
        if (before->stop != sp->part[k].begin || before->stop_place != sp->part[k].place) {
            read_on(sp, k - 1);
            break;
        }
        join_messages(sp, k);
    }
    return k; /* the last part, which ends with the file, stops only at its end or an error */
}

/* The triples that fell back, over the parts that count, for 4013. */
static void sum_fallbacks(sdf_split *sp, uint32_t used)
{
    sdf_parser *first = &sp->part[0].p;
    for (uint32_t k = 1; k < used; k++) {
        const sdf_parser *p = &sp->part[k].p;
        if (first->fallback_count == 0)
            first->first_fallback = p->first_fallback;
        first->fallback_count += p->fallback_count;
    }
}

/* The header read by part 0; then the cells in parts. */
static gp_status read_split(sdf_split *sp, const sdf_visitor *visitors, uint32_t parts,
                            uint32_t *used, const sdf_options *opt, diag_ctx *d)
{
    sdf_part *first = &sp->part[0];
    sdf_place place;
    uint64_t c0 = next_split(sp->text, sp->len, 0, false, &place);
    gp_status st = sdf_parse_delayfile(&first->p);
    if (st == GP_OK)
        st = sdf_parse_from(&first->p, SDF_PLACE_TOP, false, c0);
    if (st != GP_OK || !first->p.stopped)
        return st;
    if (first->p.stop != c0 || first->p.stop_place != SDF_PLACE_TOP) {
        read_on(sp, 0);
        return first->st;
    }
    /* a CELL whose '(' the bytes did not show (a comment before its keyword)
     * may have come first */
    if (!first->p.in_cells &&
        (st = sdf_send_header(&first->p, tok_loc(first->p.lx, &first->p.t))) != GP_OK)
        return st;
    cut_parts(sp, parts, c0);
    for (uint32_t k = 1; k < sp->n; k++) {
        if (!start_part(sp, k, &visitors[k], opt, d)) {
            sp->n = k; /* out of memory: fewer parts */
            sp->part[k - 1].end = sp->len;
        }
    }
    survey(sp);
    parts_run(parse_part, sp, sp->n);
    *used = join_parts(sp);
    return sp->part[*used - 1].st;
}

static gp_status read_text(const char *name, const char *text, size_t len,
                           const sdf_visitor *visitors, uint32_t parts, uint32_t *used,
                           const sdf_options *opt, diag_ctx *d)
{
    sdf_split *sp = mem_calloc(1, sizeof *sp);
    if (!sp)
        return sdf_no_memory(d, name);
    *sp = (sdf_split){.name = name, .text = text, .len = len, .n = 1};
    *used = 1;
    sdf_part *first = &sp->part[0];
    sdf_parser_init(&first->p, NULL, &visitors[0], opt, d);
    gp_status st = tok_open_view(name, text, len, (tok_start){0, 1, 0}, &sdf_tok_config, d,
                                 &first->p.lx);
    if (st == GP_OK)
        st = read_split(sp, visitors, parts < SDF_MAX_PARTS ? parts : SDF_MAX_PARTS, used, opt,
                        d);
    if (st == GP_OK) {
        sum_fallbacks(sp, *used);
        sdf_finish(&first->p);
    }
    for (uint32_t k = 0; k < sp->n; k++) {
        sdf_parser_free(&sp->part[k].p);
        sdf_once_vec_free(&sp->part[k].once);
        diag_free(sp->part[k].held);
    }
    mem_free(sp);
    return st;
}

gp_status sdf_read_memory_parts(const char *name, const char *data, size_t len,
                                const sdf_visitor *visitors, uint32_t parts, uint32_t *used,
                                const sdf_options *opt, diag_ctx *d)
{
    char *text = mem_alloc(len + 1);
    if (!text)
        return sdf_no_memory(d, name);
    memcpy(text, data, len);
    text[len] = '\0';
    gp_status st = read_text(name, text, len, visitors, parts ? parts : 1, used, opt, d);
    mem_free(text);
    return st;
}

gp_status sdf_read_parts(const char *path, const sdf_visitor *visitors, uint32_t parts,
                         uint32_t *used, const sdf_options *opt, diag_ctx *d)
{
    char *text;
    size_t len;
    *used = 1;
    gp_status st = infile_read_all(path, d, &text, &len);
    if (st != GP_OK)
        return st;
    st = read_text(path, text, len, visitors, parts ? parts : 1, used, opt, d);
    mem_free(text);
    return st;
}
