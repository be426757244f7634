/* sdf_int.h: what the SDF reader's files share: the parser state and its
 * token, skipping and name helpers. */
#ifndef GP_SDF_SDF_INT_H
#define GP_SDF_SDF_INT_H

#include "sdf/sdf.h"
#include "util/arena.h"
#include "util/strtab.h"
#include "util/tok.h"
#include "util/vec.h"

/* The messages said once per file (a kind of construct: once per kind). */
typedef enum sdf_once_kind {
    SDF_ONCE_CHECKS,      /* TIMINGCHECK and TIMINGENV skipped (4010) */
    SDF_ONCE_UNSUPPORTED, /* a construct not supported, skipped (4011) */
    SDF_ONCE_UNKNOWN,     /* a keyword not known, skipped (4012) */
    SDF_ONCE_ZX           /* delays to and from Z and X ignored (4014) */
} sdf_once_kind;

/* Such a message that a part of a reading in parts found (sdf_parts.c):
 * said when the parts are joined in file order, unless an earlier part
 * said it. */
typedef struct sdf_once {
    sdf_once_kind kind;
    diag_loc loc;
    const char *what; /* the construct or keyword; NULL for the others */
    size_t len;
} sdf_once;

VEC_DECLARE(sdf_once_vec, sdf_once)

extern const tok_config sdf_tok_config;

/* Where a reading may stop and go on (sdf_parse_from): between DELAYFILE's
 * entries, or between the entries of a DELAY's ABSOLUTE or INCREMENT group
 * (inside a CELL and its DELAY). */
typedef enum sdf_place { SDF_PLACE_TOP, SDF_PLACE_ABSOLUTE, SDF_PLACE_INCREMENT } sdf_place;

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
    sdf_once_vec *once;      /* NULL: once-per-file messages are said as they come */
    uint64_t end;            /* sdf_parse_from's bound */
    bool stopped;            /* it stopped: at the '(' at input offset stop, in stop_place */
    uint64_t stop;
    sdf_place stop_place;
} sdf_parser;

/* --- the parser (sdf_read.c) --- */

void sdf_parser_init(sdf_parser *p, tok_lexer *lx, const sdf_visitor *v, const sdf_options *opt,
                     diag_ctx *d);
/* Frees what the parser holds, its lexer included. */
void sdf_parser_free(sdf_parser *p);
/* The file's '(' DELAYFILE. */
gp_status sdf_parse_delayfile(sdf_parser *p);
/* Reads on from `place` (with the '(' of the next entry there read when
 * `open`) through the ')' that closes DELAYFILE and the end of the file,
 * or up to the first '(' at or after input offset `end` that opens an
 * entry of DELAYFILE, ABSOLUTE or INCREMENT: that '(' read, p->stopped
 * then says where. */
gp_status sdf_parse_from(sdf_parser *p, sdf_place place, bool open, uint64_t end);
/* Whether the reading stops at p->t, a '(' that opens an entry in `place`
 * (p->stopped set then). */
bool sdf_stops_here(sdf_parser *p, sdf_place place);
/* Sends the header (once the first CELL is read); loc: that CELL's '('. */
gp_status sdf_send_header(sdf_parser *p, diag_loc loc);
/* The warnings that sum up the whole file (4013). */
void sdf_finish(sdf_parser *p);
/* The message of `kind` (what[0..len): the construct or keyword it names)
 * unless the parser gave it before: said, or kept in p->once. */
void sdf_say_once(sdf_parser *p, sdf_once_kind kind, diag_loc loc, const char *what, size_t len);
/* Message 4018 (`name`: the file). */
gp_status sdf_no_memory(diag_ctx *d, const char *name);

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

/* Reads a DELAY group whose keyword is read, through its ')', unless the
 * reading stops. */
gp_status sdf_parse_delay(sdf_parser *p);
/* The rest of a DELAY from among the entries of its ABSOLUTE (or, when
 * `increment`, INCREMENT) group, the '(' of the next read when `open`. */
gp_status sdf_parse_delay_from(sdf_parser *p, bool increment, bool open);
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
