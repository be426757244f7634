/* verilog_int.h: what the Verilog reader's files share: the parsed modules in
 * flat arrays, the keyword table, and the three phases (parse, check,
 * elaborate).
 *
 * All modules of all files live in one vlog_reader.  Each array below is
 * global; a module owns contiguous ranges of it (modules are parsed one after
 * the other).  Names are strtab ids ("syms"); the keywords are interned first,
 * so a keyword's sym equals its vlog_keyword value.
 *
 *   module ──sig0/nsig──▶ signals     (declared nets and ports)
 *          ──port0/nport▶ ports       (signal indices in port-list order)
 *          ──inst0/ninst▶ insts ──conn0/nconn──▶ conns ──term0/nterm──▶ terms
 *          ──asgn0/nasgn▶ assigns (a pair of conns: lhs, rhs)
 *
 * A term is a contiguous run of bits, most significant first: part of a
 * signal, or constant bits in const_bits. */
#ifndef GP_VERILOG_VERILOG_INT_H
#define GP_VERILOG_VERILOG_INT_H

#include "util/strtab.h"
#include "util/tok.h"
#include "util/vec.h"
#include "verilog/verilog.h"

/* Limits that keep hostile input from asking for absurd memory. */
#define VLOG_MAX_SIGNAL_BITS ((uint32_t)1 << 20) /* one declared vector */
#define VLOG_MAX_NUMBER_BITS ((uint32_t)1 << 16) /* one constant */
#define VLOG_MAX_EXPR_TERMS ((uint32_t)1 << 16)  /* one expression, replications expanded */
#define VLOG_MAX_FLAT_BITS ((uint64_t)1 << 31)   /* net bits after flattening */
#define VLOG_MAX_NODES ((uint64_t)1 << 24)       /* module instances after flattening */
#define VLOG_MAX_NESTING 256                     /* concatenations within concatenations */

/* The literal-constant nets take the first three flat bit ids (see the
 * header: "1'b0", "1'b1", "1'bx"): bit id = vlog_value - 1. */
#define VLOG_LITERAL_BITS 3u

typedef enum vlog_keyword {
    VLOG_KW_MODULE, VLOG_KW_MACROMODULE, VLOG_KW_ENDMODULE, VLOG_KW_PRIMITIVE,
    VLOG_KW_INPUT, VLOG_KW_OUTPUT, VLOG_KW_INOUT,
    VLOG_KW_WIRE, VLOG_KW_TRI, VLOG_KW_UWIRE, VLOG_KW_REG,
    VLOG_KW_WAND, VLOG_KW_WOR, VLOG_KW_TRIAND, VLOG_KW_TRIOR, VLOG_KW_TRI0, VLOG_KW_TRI1,
    VLOG_KW_TRIREG, VLOG_KW_SUPPLY0, VLOG_KW_SUPPLY1,
    VLOG_KW_SIGNED, VLOG_KW_ASSIGN,
    VLOG_KW_PARAMETER, VLOG_KW_LOCALPARAM, VLOG_KW_DEFPARAM, VLOG_KW_SPECPARAM,
    VLOG_KW_SPECIFY, VLOG_KW_ENDSPECIFY,
    /* behavioural: reported as unsupported */
    VLOG_KW_ALWAYS, VLOG_KW_INITIAL, VLOG_KW_GENERATE, VLOG_KW_FUNCTION, VLOG_KW_TASK,
    VLOG_KW_GENVAR, VLOG_KW_INTEGER, VLOG_KW_REAL, VLOG_KW_REALTIME, VLOG_KW_TIME,
    VLOG_KW_EVENT, VLOG_KW_FOR, VLOG_KW_IF, VLOG_KW_CASE, VLOG_KW_BEGIN,
    /* gate and switch primitives: reported as unsupported */
    VLOG_KW_AND, VLOG_KW_NAND, VLOG_KW_OR, VLOG_KW_NOR, VLOG_KW_XOR, VLOG_KW_XNOR,
    VLOG_KW_BUF, VLOG_KW_NOT, VLOG_KW_BUFIF0, VLOG_KW_BUFIF1, VLOG_KW_NOTIF0, VLOG_KW_NOTIF1,
    VLOG_KW_PULLUP, VLOG_KW_PULLDOWN, VLOG_KW_NMOS, VLOG_KW_PMOS, VLOG_KW_RNMOS, VLOG_KW_RPMOS,
    VLOG_KW_CMOS, VLOG_KW_RCMOS, VLOG_KW_TRAN, VLOG_KW_RTRAN, VLOG_KW_TRANIF0,
    VLOG_KW_TRANIF1, VLOG_KW_RTRANIF0, VLOG_KW_RTRANIF1,
    VLOG_KW_COUNT
} vlog_keyword;

#define VLOG_KW_FIRST_BEHAVIOURAL VLOG_KW_ALWAYS
#define VLOG_KW_FIRST_PRIMITIVE VLOG_KW_AND

extern const char *const vlog_keyword_text[VLOG_KW_COUNT];

/* vlog_signal.flags */
enum {
    VLOG_SIG_VECTOR = 1u << 0,   /* declared with a range: bits are named "v[i]" */
    VLOG_SIG_PORT = 1u << 1,     /* in the module's port list */
    VLOG_SIG_HAS_DIR = 1u << 2,  /* input / output / inout seen */
    VLOG_SIG_HAS_TYPE = 1u << 3, /* a net type (wire, supply0...) seen */
    VLOG_SIG_SIZED = 1u << 4,    /* the range (or scalar) is known */
    VLOG_SIG_IMPLICIT = 1u << 5, /* made by its first use */
    VLOG_SIG_ESCAPED = 1u << 6   /* its name was escaped: only such a name spells "v[3]" */
};

typedef struct vlog_signal {
    uint32_t name;   /* sym */
    int32_t msb, lsb;
    uint32_t offset; /* first bit within the module's bit block */
    uint8_t dir;     /* 0 or VLOG_DIR_* */
    uint8_t flags;   /* VLOG_SIG_* */
    uint8_t value;   /* vlog_value: supply0 / supply1 */
    uint32_t line, col;
} vlog_signal;

static inline uint32_t vlog_signal_width(const vlog_signal *s)
{
    return (uint32_t)(s->msb >= s->lsb ? (int64_t)s->msb - s->lsb : (int64_t)s->lsb - s->msb) + 1;
}

/* vlog_term.ref: a signal index, or one of these flags with no index. */
#define VLOG_TERM_CONST 0x80000000u   /* bits const_bits[pos .. pos + width) */
#define VLOG_TERM_UNSIZED 0x40000000u /* with CONST: takes the width its place needs */

typedef struct vlog_term {
    uint32_t ref;
    /* A signal's first (most significant) bit: its position within the
     * signal while the module is parsed; vlog_layout_bits then adds the
     * signal's offset, so that after parsing it is the position within the
     * module's bit block. */
    uint32_t pos;
    uint32_t width;
} vlog_term;

/* A port connection (pin: a pin-name sym when named, else its position; after
 * checking, the pin group or port index) or one side of an assign. */
typedef struct vlog_conn {
    uint32_t pin;
    uint32_t term0, nterm;
    uint32_t line, col;
} vlog_conn;

/* vlog_inst.target after checking */
#define VLOG_TARGET_MODULE 0x80000000u /* | module index; otherwise a cell index */
/* A black box: a cell in no library that connects nothing (a physical
 * cell: tap, fill, decap, end cap), left out of the design. */
#define VLOG_TARGET_NONE 0x7fffffffu

typedef struct vlog_inst {
    uint32_t name, type; /* syms */
    uint32_t conn0, nconn;
    uint32_t line, col;
    uint32_t target;
    bool ordered;
} vlog_inst;

/* Whether the instance's target is a library cell (resolved, not a module). */
static inline bool vlog_is_cell(const vlog_inst *inst)
{
    return !(inst->target & VLOG_TARGET_MODULE) && inst->target != VLOG_TARGET_NONE;
}

typedef struct vlog_assign {
    uint32_t lhs, rhs; /* conn indices */
} vlog_assign;

typedef struct vlog_module {
    uint32_t name, file, line, col;
    uint32_t sig0, nsig, port0, nport, inst0, ninst, asgn0, nasgn;
    uint32_t term0;    /* the module's terms run from here to the next module's */
    uint32_t nbits;    /* the module's own net bits */
    uint8_t state;     /* vlog_check: 0 unvisited, 1 on the DFS stack, 2 checked */
    bool is_blackbox;  /* nothing but declarations */
    bool warned_empty; /* message 3107 given */
    /* with everything below it: */
    uint64_t flat_bits, flat_insts, flat_pins, flat_conns, flat_nodes;
} vlog_module;

/* A library cell as the reader sees it: scalar pins grouped into buses. */
typedef struct vlog_cell {
    uint32_t name; /* sym */
    uint32_t id;   /* builder's */
    uint32_t npins;
    uint32_t group0, ngroup;
} vlog_cell;

/* A pin or bus of a cell: pins pin_bits[bit0 .. bit0 + width), MSB first. */
typedef struct vlog_pin_group {
    uint32_t name; /* sym of the scalar pin or the bus's base name */
    uint32_t bit0, width;
    bool is_bus;
} vlog_pin_group;

typedef struct vlog_pin_bit {
    int32_t index; /* bus index (0 for a scalar) */
    uint32_t pin;  /* index into the cell's pin_names */
} vlog_pin_bit;

/* A per-sym slot stamped with the module it belongs to, so the map needs no
 * clearing between modules. */
typedef struct vlog_slot {
    uint32_t stamp; /* module index + 1; 0: empty */
    uint32_t index;
} vlog_slot;

VEC_DECLARE(vlog_signal_vec, vlog_signal)
VEC_DECLARE(vlog_term_vec, vlog_term)
VEC_DECLARE(vlog_conn_vec, vlog_conn)
VEC_DECLARE(vlog_inst_vec, vlog_inst)
VEC_DECLARE(vlog_assign_vec, vlog_assign)
VEC_DECLARE(vlog_module_vec, vlog_module)
VEC_DECLARE(vlog_cell_vec, vlog_cell)
VEC_DECLARE(vlog_group_vec, vlog_pin_group)
VEC_DECLARE(vlog_pin_bit_vec, vlog_pin_bit)
VEC_DECLARE(vlog_slot_vec, vlog_slot)

typedef struct vlog_reader {
    diag_ctx *d;
    int errors_at_start;
    const vlog_builder *b;
    strtab syms;
    vec_ptr files; /* paths / names, borrowed from the caller */
    vlog_module_vec modules;
    vlog_signal_vec signals;
    vec_u32 ports;
    vlog_inst_vec insts;
    vlog_conn_vec conns;
    vlog_term_vec terms;
    vlog_assign_vec assigns;
    vec_u8 const_bits;   /* vlog_value per bit */
    vec_u32 module_of;   /* sym -> module index + 1 (0: none) */
    vec_u32 cell_of;     /* sym -> cell index + 1, 0: not looked up, UINT32_MAX: not a cell */
    vlog_slot_vec sig_of;  /* sym -> signal of the module being parsed */
    vlog_slot_vec inst_of; /* sym -> instance of the module being parsed */
    vec_u32 defines;     /* syms of `define'd macros */
    vlog_cell_vec cells;
    vlog_group_vec groups;
    vlog_pin_bit_vec pin_bits;
    vec_u32 seen;        /* per group or port: the connection last seen on it, + 1 */
    vec_u8 boxed;        /* per type sym: 1 once warned as a black box (3108) */
    bool literal_used[VLOG_LITERAL_BITS];
    vec_u8 name_buf;     /* scratch for flat names */
    progress *bar;       /* NULL: none */
} vlog_reader;

/* verilog_scan.c: the tokens of one input, each word with its sym in
 * `syms`, with `bar` (may be NULL) showing how much of it is lexed.  `data` NULL: the file `path` (gzip or plain); else a copy of
 * data[0..len) named `path`.  Lexed in chunks of about chunk_bytes (0: the
 * default) on threads; the tokens, their order and the messages are those of
 * one tok_lexer reading the input (util/tok.h), and so are next's and peek's
 * statuses and the sticky end. */
typedef struct vlog_scan vlog_scan;

/* The chunks lexed at once: their tokens are handed out from at most one
 * run per chunk, plus one relexed (verilog_scan.c). */
#define VLOG_GROUP_CHUNKS 32
#define VLOG_WINDOW_RUNS (VLOG_GROUP_CHUNKS + 1)

/* A token as the scan holds it: its text is the input's from `offset`. */
typedef struct vlog_token {
    uint64_t offset; /* of its text (tok_text_offset) */
    uint32_t len, line, col;
    uint32_t sym; /* words: the interned text; others STRTAB_NONE */
    uint8_t kind, flags;
} vlog_token;

typedef struct vlog_run {
    const vlog_token *toks;
    size_t n;
} vlog_run;

/* The tokens lexed and not yet handed out, from the current token (the one
 * vlog_scan_next handed out last) on: runs[0].toks[0] is the current token.
 * Valid until the scan moves. */
typedef struct vlog_window {
    const char *text; /* the input: a token's text is text + offset */
    vlog_run runs[VLOG_WINDOW_RUNS];
    size_t n_runs, n_toks;
    size_t span, at; /* the scan's own: where runs[0] begins */
} vlog_window;

gp_status vlog_scan_open(const char *path, const char *data, size_t len, size_t chunk_bytes,
                         const tok_config *cfg, strtab *syms, progress *bar, diag_ctx *d,
                         vlog_scan **out);
void vlog_scan_close(vlog_scan *s);
/* sym may be NULL; a token that is not a word has STRTAB_NONE. */
gp_status vlog_scan_next(vlog_scan *s, tok *t, uint32_t *sym);
gp_status vlog_scan_peek(vlog_scan *s, tok *t, uint32_t *sym);
diag_loc vlog_scan_loc(const vlog_scan *s, const tok *t);
/* The sym of the token `ahead` places after the one next hands out, when
 * it is lexed already (else STRTAB_NONE): for prefetching. */
uint32_t vlog_scan_sym_ahead(const vlog_scan *s, size_t ahead);
/* The window from the current token on, when it holds at least a chunk's
 * bytes of text (worth parsing on threads); false otherwise. */
bool vlog_scan_window(const vlog_scan *s, vlog_window *w);
/* Makes the window's token `index` (counting over its runs; n_toks: the
 * one after them) the next one next hands out. */
void vlog_scan_seek(vlog_scan *s, const vlog_window *w, size_t index);

/* The state of parsing one input (verilog_lex.c, verilog_parse.c,
 * verilog_expr.c).  `t` is the current token, not yet consumed: directives,
 * attributes and `ifdef'd-out text never show there. */
typedef struct vlog_parser {
    vlog_reader *r;
    vlog_scan *scan;
    uint32_t file;
    tok t;
    uint32_t sym;      /* t's sym when t is a word */
    vec_u8 conds;      /* `ifdef nesting: VLOG_COND_* per level */
    bool nettype_none; /* `default_nettype none is in effect */
    uint32_t module;   /* the module being parsed */
    uint32_t stamp;    /* module + 1, for sig_of / inst_of */
    size_t expr_first; /* the first term of the expression being parsed */
    int depth;         /* concatenations open around the current token */
    struct vlog_batch *batch; /* verilog_batch.c's state (NULL until used) */
} vlog_parser;

/* A name just read: its sym and where it was. */
typedef struct vlog_name {
    uint32_t sym;
    bool escaped;
    int line, col;
} vlog_name;

/* verilog_lex.c */
gp_status vlog_advance(vlog_parser *p);
gp_status vlog_check_conds_closed(vlog_parser *p);
bool vlog_at(const vlog_parser *p, char punct);
/* The keyword at the current token, or -1 (an escaped name is never one). */
int vlog_keyword_at(vlog_parser *p);
/* Reports "expected <what>, found <the current token>" (message 3001). */
gp_status vlog_syntax_error(vlog_parser *p, const char *what);
/* Consumes `punct` or reports that it was expected (`what` says where). */
gp_status vlog_expect(vlog_parser *p, char punct, const char *what);
/* Consumes an identifier (simple or escaped); `what` names it for errors. */
gp_status vlog_take_name(vlog_parser *p, const char *what, vlog_name *out);
/* Whether s[0..len) is a simple (not escaped) identifier. */
bool vlog_is_identifier(const char *s, size_t len);
/* Whether the integer text s[0..len) is a bit index (an int32). */
bool vlog_index_value(const char *s, size_t len, int32_t *out);
diag_loc vlog_here(const vlog_parser *p);

/* verilog_expr.c: the term of the bits hi..lo of s (signal sig) in *term,
 * or the number of the message that says why they are not (3012 a scalar,
 * 3013 outside its range, 3014 against it); 0 when they are. */
int vlog_select_term(const vlog_signal *s, uint32_t sig, int32_t hi, int32_t lo,
                     vlog_term *term);

/* verilog_expr.c: an expression (net, select, constant, concatenation) whose
 * terms are appended to r->terms; *conn gets term0 / nterm / line / col. */
gp_status vlog_parse_expr(vlog_parser *p, vlog_conn *conn);
/* The width of a conn's terms in bits. */
uint64_t vlog_conn_width(const vlog_reader *r, const vlog_conn *c);
/* When a connection is one unsized constant, fits it to `width` bits (*fits
 * false, nothing changed, when its value does not fit); otherwise does
 * nothing. */
gp_status vlog_fit_unsized(vlog_reader *r, const vlog_conn *c, uint32_t width, bool *fits);

/* verilog.c: message 3091, at `file` (NULL: nowhere) or for the reader. */
gp_status vlog_no_memory(diag_ctx *d, const char *file);
gp_status vlog_nomem(vlog_reader *r);
/* Grows the per-sym maps (module_of, cell_of, sig_of, inst_of) to hold `sym`. */
gp_status vlog_reserve_maps(vlog_reader *r, uint32_t sym);
const char *vlog_sym(const vlog_reader *r, uint32_t sym);
/* name_buf as a growing text: append, then the NUL-terminated result ("" after
 * an allocation failure). */
void vlog_text_reset(vlog_reader *r);
bool vlog_text_add(vlog_reader *r, const char *s, size_t len);
const char *vlog_text(vlog_reader *r);
diag_loc vlog_loc(const vlog_reader *r, uint32_t file, uint32_t line, uint32_t col);
/* Reports a failed builder callback (unless it reported an error itself:
 * the reader reports none before the builder's first call fails). */
gp_status vlog_builder_failed(vlog_reader *r, gp_status st, const char *what, const char *name);

/* verilog_parse.c: all modules of one input. */
gp_status vlog_parse(vlog_reader *r, vlog_scan *scan, uint32_t file);

/* verilog_batch.c: at a `wire` declaration or an instance statement,
 * parses on threads the plain ones that follow in the scan's window (new
 * wires; named or ordered connections of nets and selects of nets declared
 * before), as the parser would, one after the other; *parsed false (nothing
 * changed) when it took none.  It stops before the first statement that
 * needs more (another keyword, a directive, an attribute, a constant, an
 * implicit net, anything reported), which the caller parses. */
gp_status vlog_parse_batch(vlog_parser *p, bool *parsed);
void vlog_batch_free(vlog_parser *p);

/* verilog_number.c */
typedef struct vlog_number {
    uint32_t width; /* bits appended to const_bits */
    bool sized;
} vlog_number;
/* Parses the number text[0..len) ("4'hA", "12", whitespace already removed)
 * and appends its bits, most significant first, to r->const_bits; errors
 * point at `loc`. */
gp_status vlog_parse_number(vlog_reader *r, const char *text, size_t len, diag_loc loc,
                            vlog_number *out);
/* Appends the `len` bits at const_bits[pos] fitted to `width` bits (*out:
 * where they start), or sets *fits false when the value does not fit. */
gp_status vlog_fit_constant(vlog_reader *r, uint32_t pos, uint32_t len, uint32_t width,
                            uint32_t *out, bool *fits);

/* Entries [first, first + n) of one of the reader's arrays, for a loop cut
 * into parts (parts_run). */
typedef struct vlog_range_job {
    vlog_reader *r;
    size_t first, n;
} vlog_range_job;

/* verilog_check.c: resolves instances below `top` and checks their
 * connections; fills the flat_* totals. */
gp_status vlog_check(vlog_reader *r, uint32_t top);
/* The group of `cell` named `name` (sym), or cell->ngroup. */
uint32_t vlog_find_group(const vlog_reader *r, const vlog_cell *cell, uint32_t name);
/* Marks in used[] the literal constant nets connection c uses. */
void vlog_mark_literals(const vlog_reader *r, const vlog_conn *c, bool *used);
/* verilog_check_parts.c: m's library cell instances that pass the check
 * quietly, settled on threads (pins set, literals marked, sizes added to
 * m's flat_*); per instance of m, 1 where settled.  NULL (none settled)
 * for a module too small for threads or without memory; mem_free it. */
uint8_t *vlog_settle_cells(vlog_reader *r, vlog_module *m);

/* A module instance of the flattened design (a "node"): its block of flat
 * bits, one per bit of its module's nets, and its path prefix ("" or
 * "u1/u2/") in vlog_elab.prefixes. */
typedef struct vlog_node {
    uint32_t module;
    uint32_t base; /* its first flat bit */
    size_t prefix;
    size_t prefix_len;
} vlog_node;
VEC_DECLARE(vlog_node_vec, vlog_node)

/* The flattening (verilog_elab.c merges, verilog_emit.c hands over). */
typedef struct vlog_elab {
    vlog_reader *r;
    vlog_node_vec nodes; /* breadth-first from the top: bases grow with the index */
    vec_u8 prefixes;
    uint32_t *parent;    /* union-find over flat bits */
    uint8_t *value;      /* vlog_value of a class, at its root */
    uint32_t *net_of;    /* the builder's net of every bit, once the nets are made */
    uint32_t nbits;
} vlog_elab;

static inline const char *vlog_prefix(const vlog_elab *e, const vlog_node *n)
{
    return n->prefix_len ? (const char *)e->prefixes.data + n->prefix : "";
}

/* The bits of a connection's terms, most significant first: a signal bit
 * gives its flat id, a constant bit the id of its literal net. */
typedef struct vlog_bit_iter {
    const vlog_reader *r;
    const vlog_term *term;
    uint32_t k; /* the next bit within *term */
    uint32_t base;
} vlog_bit_iter;

static inline vlog_bit_iter vlog_bits(const vlog_reader *r, const vlog_conn *c, uint32_t base)
{
    return (vlog_bit_iter){r, &r->terms.data[c->term0], 0, base};
}

/* The next bit's id; true when it is a constant.  The caller asks for no
 * more bits than the connection has. */
static inline bool vlog_next_bit(vlog_bit_iter *it, uint32_t *bit)
{
    if (it->k == it->term->width) {
        it->term++;
        it->k = 0;
    }
    const vlog_term *t = it->term;
    uint32_t k = it->k++;
    if (t->ref & VLOG_TERM_CONST) {
        *bit = it->r->const_bits.data[t->pos + k] - 1u;
        return true;
    }
    *bit = it->base + t->pos + k;
    return false;
}

/* verilog_elab.c: flattens below `top` into the builder. */
gp_status vlog_elaborate(vlog_reader *r, uint32_t top);
/* The node whose block holds flat bit `bit` (>= VLOG_LITERAL_BITS): the
 * last whose base is at or before it, since a node without bits shares
 * its base with the next. */
size_t vlog_node_of_bit(const vlog_elab *e, uint32_t bit);

/* verilog_emit.c: the merged bits to the builder: the nets (every bit's
 * parent a root by then), the top's ports, the library cell instances. */
gp_status vlog_emit(vlog_elab *e);
/* The flat name of bit k of signal s in node n: its length, and the name
 * written to out (that many bytes, no NUL). */
size_t vlog_bit_name_len(const vlog_elab *e, const vlog_node *n, const vlog_signal *s, uint32_t k);
size_t vlog_bit_name_write(const vlog_elab *e, const vlog_node *n, const vlog_signal *s,
                           uint32_t k, char *out);

#endif
