/* spef_int.h: what the SPEF reader's files share: the parser state and its
 * token, number and name helpers.
 *
 * The parser works one token ahead: p->t is the token being looked at, and
 * each section's function returns with p->t at the first token it did not
 * take (SPEF sections end where the next keyword starts). */
#ifndef GP_SPEF_SPEF_INT_H
#define GP_SPEF_SPEF_INT_H

#include <stdint.h>

#include "spef/spef.h"
#include "util/arena.h"
#include "util/strtab.h"
#include "util/tok.h"
#include "util/vec.h"

typedef struct spef_map_entry {
    uint64_t index;   /* *12 -> 12 */
    const char *name; /* as in the file (escapes and dividers kept), in p->keep */
    size_t len;
    int line;
} spef_map_entry;

VEC_DECLARE(spef_map_vec, spef_map_entry)
VEC_DECLARE(spef_conn_vec, spef_conn)

typedef struct spef_parser {
    tok_lexer *lx;
    diag_ctx *d;
    const spef_visitor *v;
    tok t;                /* the token being looked at */
    gp_status tok_status; /* the status it came with */
    spef_header hdr;
    bool header_sent;     /* a non-header keyword was seen */
    arena keep;           /* header and name-map strings */
    arena scratch;        /* the current net's or entry's strings, reset before each */
    spef_map_vec map;
    bool map_sorted;      /* map is sorted by index and free of duplicates */
    vec_u8 name;          /* a name with its map index replaced, being built */
    spef_conn_vec conns;  /* the current net's connections */
    strtab warned;        /* kinds of skipped constructs already warned about */
} spef_parser;

/* --- tokens and values (spef_read.c) --- */

gp_status spef_next(spef_parser *p);
/* Whether t is the keyword kw ("*D_NET"), ignoring case. */
bool spef_is(const tok *t, const char *kw);
/* Whether t is a keyword: '*' and a letter ("*12" is a name-map index). */
bool spef_is_keyword(const tok *t);
/* Reports that p->t is not `what` (or that the file ended); GP_ERR_PARSE, or
 * the tokenizer's status when p->t is its error. */
gp_status spef_unexpected(spef_parser *p, const char *what);
gp_status spef_nomem(spef_parser *p);
/* p->t as a number or triple (its middle member); reports a bad number. */
gp_status spef_par_value(spef_parser *p, double *out);
/* Whether t reads as a number or triple, without reporting anything. */
bool spef_is_value(const tok *t);
/* Warns once per kind and file that `kind` at loc is skipped, and why. */
void spef_warn_skipped(spef_parser *p, const char *kind, const char *why, diag_loc loc);

/* --- nets (spef_net.c) --- */

/* A *D_NET at p->t, through its *END. */
gp_status spef_parse_d_net(spef_parser *p);
/* An *R_NET, *D_PNET or *R_PNET at p->t, skipped through its *END. */
gp_status spef_skip_net(spef_parser *p);
/* A connection's direction (p->t) and attributes *C *L *S *D into c,
 * leaving p->t after them. */
gp_status spef_parse_conn_tail(spef_parser *p, spef_conn *c);

/* --- names (spef_name.c) --- */

/* Adds "*index name" at p->t (the index) to the name map; p->t is left at
 * the name. */
gp_status spef_map_add(spef_parser *p);
/* Sorts the name map and rejects an index given twice. */
gp_status spef_map_finish(spef_parser *p);
/* The name p->t, mapped and normalised, in the scratch arena. */
gp_status spef_name(spef_parser *p, const char **name);
/* The instance pin p->t ("u1:A", "*12:A"), split at the pin delimiter. */
gp_status spef_pin(spef_parser *p, const char **inst, const char **pin);
/* Checks that a node name p->t ("*12:3", "n1:2") has a known map index. */
gp_status spef_check_node(spef_parser *p);

#endif
