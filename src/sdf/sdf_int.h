/* sdf_int.h: what the SDF reader's files share: the parser state and its
 * token, skipping and name helpers. */
#ifndef GP_SDF_SDF_INT_H
#define GP_SDF_SDF_INT_H

#include "sdf/sdf.h"
#include "util/arena.h"
#include "util/strtab.h"
#include "util/tok.h"
#include "util/vec.h"

typedef struct sdf_parser {
    tok_lexer *lx;
    diag_ctx *d;
    const sdf_visitor *v;
    sdf_pick pick;
    tok t;                   /* the token tok_next gave last */
    gp_status tok_status;    /* and the status it came with */
    sdf_header hdr;
    bool in_cells;           /* a CELL was seen: the header is complete and sent */
    arena keep;              /* the header's strings */
    arena scratch;           /* the current CELL's or entry's strings, reset before each */
    vec_u8 cond;             /* the COND expression being assembled */
    strtab warned;           /* kinds of skipped constructs already warned about */
    bool warned_checks;      /* TIMINGCHECK / TIMINGENV */
    bool warned_zx;          /* delay values for transitions to or from Z and X */
    long fallback_count;     /* triples whose picked member was empty */
    diag_loc first_fallback; /* where the first of them is */
} sdf_parser;

/* --- tokens (sdf_read.c) --- */

/* Reads the next token into p->t. */
gp_status sdf_next(sdf_parser *p);
/* Whether t is the word kw, ignoring case (SDF keywords are case-insensitive). */
bool sdf_is_kw(const tok *t, const char *kw);
/* Reports that p->t is not `what` (or that the file ended); GP_ERR_PARSE,
 * or the tokenizer's status when p->t is its error. */
gp_status sdf_unexpected(sdf_parser *p, const char *what);
/* Reads the next token and checks that it is the punct c. */
gp_status sdf_expect_punct(sdf_parser *p, char c, const char *what);
/* Skips the rest of a group whose '(' is read, through its ')'. */
gp_status sdf_skip_group(sdf_parser *p);
/* Warns, once per kind and file, that the construct `kind` at loc is not
 * supported and skipped. */
void sdf_warn_unsupported(sdf_parser *p, const char *kind, diag_loc loc);
/* At a keyword nobody expects here: warns once per keyword, skips the group. */
gp_status sdf_skip_unknown(sdf_parser *p, diag_loc open_loc);
gp_status sdf_nomem(sdf_parser *p);
/* A copy of p->t's text in the scratch (or keep) arena; NULL when out of memory. */
char *sdf_copy_text(sdf_parser *p, arena *a);

/* --- delays (sdf_delay.c) --- */

/* Reads a DELAY group whose keyword is read, through its ')'. */
gp_status sdf_parse_delay(sdf_parser *p);
/* The value of the number or triple p->t (a word), unscaled; *present is
 * false when every member is empty. */
gp_status sdf_parse_value(sdf_parser *p, double *out, bool *present);

/* --- names (sdf_name.c) --- */

/* The '/'-separated, unescaped form of the path in p->t, in the scratch
 * arena; when pin is not NULL, the path is split at its last divider into
 * pin->inst and pin->pin, and *bus_range tells whether the pin is a bus
 * range "D[3:0]". */
gp_status sdf_parse_path(sdf_parser *p, const char **path);
gp_status sdf_parse_pin(sdf_parser *p, sdf_pin *pin, bool *bus_range);

#endif
