/* vcd_changes.c: the VCD value changes after $enddefinitions, the hot loop
 * of reading a VCD.  A hand-written scanner runs over the buffer in two
 * steps: it splits up to VCD_AHEAD commands (`#t`, scalar `0!`, vector
 * `b1010 %`, real `r1.5 %`) and prefetches their codes' table entries, then
 * applies them in order.  In a dump of many nets consecutive changes hit
 * entries far apart, so the prefetch hides most of the cache misses.
 * $keywords go to the slower word reader.  A command cut by the buffer's
 * end is read again whole after the refill. */
#include "vcd/vcd_int.h"

#define VCD_AHEAD 32

/* One command, split but not applied. */
typedef struct vcd_op {
    const char *cmd;       /* its first byte: '#', a value, 'b', 'r', 's' */
    const char *end;       /* a time's end, or a vector, real or string value's */
    const char *code;      /* the identifier code (empty if missing); NULL for a time */
    size_t code_len;
    vcd_code_table table;  /* where the code's entry is */
    const vcd_code *entry; /* in a direct table: the entry (NULL: no such table) */
    uint64_t key;          /* in the packed hash: the code packed */
} vcd_op;

/* Why splitting stopped. */
typedef enum vcd_stop {
    VCD_STOP_FULL,    /* VCD_AHEAD commands split */
    VCD_STOP_END,     /* every byte of the buffer used */
    VCD_STOP_CUT,     /* at a command the buffer cuts (more input follows) */
    VCD_STOP_KEYWORD, /* at a $keyword */
    VCD_STOP_BAD      /* at a byte no command starts with */
} vcd_stop;

static gp_status vcd_bad_code(vcd_text *r, const vcd_op *op)
{
    diag_loc loc = vcd_text_loc(r, op->code);
    if (op->code_len == 0) {
        diag_error(r->st.d, 6011, loc, "value '%.*s' without an identifier code%s",
                   (int)(op->code - op->cmd), op->cmd,
                   *op->code ? ": expected the code right after a scalar value or after a blank "
                               "following a vector value"
                             : ": the file is truncated");
        return GP_ERR_PARSE;
    }
    diag_error(r->st.d, 6010, loc,
               "unknown identifier code '%.*s' in a value change: no $var declares it; the "
               "file is damaged or its header belongs to another dump", (int)op->code_len,
               op->code);
    return GP_ERR_PARSE;
}

static gp_status vcd_bad_value(vcd_text *r, const char *at)
{
    diag_error(r->st.d, 6012, vcd_text_loc(r, at),
               "bad value character '%c' (0x%02x): values are 0, 1, x, X, z and Z", *at,
               (unsigned char)*at);
    return GP_ERR_PARSE;
}

/* Hands the sink the bits of e that differ from vals: u[0..n) (MSB first,
 * already checked) from bit 0 up, `ext` above them; a part's one-bit code
 * keeps no value (vcd_put_scalar), so its bit goes unchecked.  Branch-free:
 * every bit is written to the batch, and the batch grows only by the
 * changed ones, so random vector values cost no mispredictions.  The batch
 * must have room for e->width entries. */
static void vcd_deliver_vector(vcd_state *s, const vcd_code *e, const unsigned char *u, uint32_t n,
                               uint8_t ext)
{
    uint8_t *vals = s->vals + e->off;
    vcd_change *batch = s->batch;
    size_t bn = s->batch_n, live = !s->dump_off, unchecked = s->in_part && e->width == 1;
    for (uint32_t i = 0; i < e->width; i++) {
        uint8_t x = i < n ? vcd_value_plus1[u[n - 1 - i]] - 1 : ext;
        batch[bn] = (vcd_change){.id = e->id, .bit = i, .value = x};
        bn += ((vals[i] != x) | unchecked) & live;
        vals[i] = x;
    }
    s->batch_n = bn;
}

/* Applies the vector value v[0..n) (MSB first, 1 <= n <= width); a shorter
 * value is left-extended with 0 when it starts with 1, else with its first
 * character.  Only checked for a code that is not delivered. */
static gp_status vcd_apply_vector(vcd_text *r, const vcd_code *e, const char *v, uint32_t n)
{
    vcd_state *s = &r->st;
    const unsigned char *u = (const unsigned char *)v;
    bool bad = false;
    for (uint32_t i = 0; i < n; i++)
        bad |= !vcd_value_plus1[u[i]];
    if (bad) {
        while (vcd_value_plus1[*u])
            u++;
        return vcd_bad_value(r, (const char *)u);
    }
    if (!e->deliver)
        return GP_OK;
    uint8_t ext = vcd_value_plus1[u[0]] - 1;
    ext = ext == VCD_1 ? VCD_0 : ext;
    if (e->width <= VCD_BATCH) {
        gp_status st = s->batch_n + e->width > VCD_BATCH ? vcd_state_flush(s) : GP_OK;
        if (st == GP_OK)
            vcd_deliver_vector(s, e, u, n, ext);
        return st;
    }
    for (uint32_t i = 0; i < e->width; i++) { /* wider than a batch */
        uint8_t x = i < n ? vcd_value_plus1[u[n - 1 - i]] - 1 : ext;
        gp_status st = vcd_state_set_bit(s, e->id, e->off, i, x);
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

/* A vector, real or string value. */
static gp_status vcd_value_change(vcd_text *r, const vcd_op *op, const vcd_code *e)
{
    const char *v = op->cmd + 1;
    if (*op->cmd != 'b' && *op->cmd != 'B') {
        if (e->kind != VCD_KIND_LOGIC) /* the skipped real and string vars */
            return GP_OK;
        diag_error(r->st.d, 6017, vcd_text_loc(r, op->cmd),
                   "real or string value '%.*s' for a logic variable: expected b followed by "
                   "0, 1, x or z", (int)(op->end - op->cmd), op->cmd);
        return GP_ERR_PARSE;
    }
    if (e->kind != VCD_KIND_LOGIC)
        return GP_OK;
    size_t n = (size_t)(op->end - v);
    if (n == 0 || n > e->width) {
        diag_error(r->st.d, 6013, vcd_text_loc(r, op->cmd),
                   "vector value '%.*s' has %zu bits but its variable has width %u: fix the file",
                   (int)(op->end - op->cmd), op->cmd, n, e->width);
        return GP_ERR_PARSE;
    }
    return vcd_apply_vector(r, e, v, (uint32_t)n);
}

/* `#t`, the token cmd..q. */
static gp_status vcd_time(vcd_text *r, const char *cmd, const char *q)
{
    uint64_t t = 0;
    const char *d = cmd + 1;
    bool too_large = false;
    for (; d < q && *d >= '0' && *d <= '9'; d++) {
        unsigned k = (unsigned)(*d - '0');
        too_large |= t > (UINT64_MAX - k) / 10;
        t = t * 10 + k;
    }
    if (d < q || d == cmd + 1) {
        diag_error(r->st.d, 6014, vcd_text_loc(r, cmd),
                   "bad time '%.*s': expected # followed by a whole number", (int)(q - cmd), cmd);
        return GP_ERR_PARSE;
    }
    int64_t fs;
    if (too_large || t > INT64_MAX || __builtin_mul_overflow((int64_t)t, r->scale, &fs) ||
        fs > VCD_TIME_MAX_FS) {
        diag_error(r->st.d, 6015, vcd_text_loc(r, cmd),
                   "time '%.*s' is beyond 2^61 fs (38.4 minutes): not supported", (int)(q - cmd),
                   cmd);
        return GP_ERR_INPUT;
    }
    if ((int64_t)t < r->ticks) {
        diag_error(r->st.d, 6016, vcd_text_loc(r, cmd),
                   "time %.*s is before the previous time #%lld: times must not decrease",
                   (int)(q - cmd - 1), cmd + 1, (long long)r->ticks);
        return GP_ERR_PARSE;
    }
    r->ticks = (int64_t)t;
    return vcd_state_set_time(&r->st, fs);
}

static const char *vcd_token_end(const char *p)
{
    while ((unsigned char)*p > ' ')
        p++;
    return p;
}

/* A scalar change's code of 1 to 3 characters '!'..'~' (nearly every one):
 * its end, found with its place in the direct tables (which vcd_locate
 * would find again), its entry set and fetched; NULL for any other code
 * (vcd_token_end and vcd_locate then).  A character is read only after
 * the one before it was found inside a code: the buffer's sentinel stops
 * the reads. */
static const char *vcd_scalar_code(const vcd_text *r, vcd_op *op)
{
    const unsigned char *c = (const unsigned char *)op->code;
    size_t a = (size_t)c[0] - '!', b, k;
    if (a >= VCD_CODE_RADIX)
        return NULL;
    if (c[1] <= ' ') {
        op->code_len = 1;
        op->table = VCD_IN_SHORT;
        op->entry = r->short_codes ? &r->short_codes[a] : NULL;
    } else if ((b = (size_t)c[1] - '!') >= VCD_CODE_RADIX) {
        return NULL;
    } else if (c[2] <= ' ') {
        op->code_len = 2;
        op->table = VCD_IN_SHORT;
        op->entry = r->short_codes ? &r->short_codes[VCD_CODE_RADIX + b * VCD_CODE_RADIX + a]
                                   : NULL;
    } else if ((k = (size_t)c[2] - '!') >= VCD_CODE_RADIX) {
        return NULL;
    } else {
        size_t page = k;
        op->code_len = 3;
        if (c[3] > ' ') {
            size_t q = (size_t)c[3] - '!';
            page = VCD_CODE_RADIX + q * VCD_CODE_RADIX + k;
            if (q >= VCD_CODE_RADIX || c[4] > ' ' || page >= VCD_PAGES)
                return NULL;
            op->code_len = 4;
        }
        op->table = VCD_IN_PAGE;
        op->entry = r->pages[page] ? &r->pages[page][b * VCD_CODE_RADIX + a] : NULL;
    }
    __builtin_prefetch(op->entry);
    return op->code + op->code_len;
}

/* Finds where op's code lives and prefetches that memory; the lookup ends
 * in vcd_find, once the memory has had time to arrive. */
static void vcd_locate(const vcd_text *r, vcd_op *op)
{
    size_t page = 0, index = 0;
    op->table = vcd_code_place((const unsigned char *)op->code, op->code_len, &page, &index);
    op->entry = NULL;
    if (op->table == VCD_IN_SHORT && r->short_codes)
        op->entry = &r->short_codes[index];
    else if (op->table == VCD_IN_PAGE && r->pages[page])
        op->entry = &r->pages[page][index];
    else if (op->table == VCD_IN_PACKED && r->packed) {
        op->key = vcd_pack(op->code, op->code_len);
        __builtin_prefetch(&r->packed[vcd_packed_home(op->key, r->packed_mask)]);
    }
    __builtin_prefetch(op->entry);
}

/* The entry of op's code, or NULL if no $var declared it. */
static const vcd_code *vcd_find(const vcd_text *r, const vcd_op *op)
{
    const vcd_code *e = NULL;
    if (op->code_len == 0)
        return NULL;
    if (op->table == VCD_IN_SHORT || op->table == VCD_IN_PAGE) {
        e = op->entry;
    } else if (op->table == VCD_IN_PACKED && r->packed) {
        e = &r->packed[vcd_packed_find(r->packed, r->packed_mask, op->key)].code;
    } else if (op->table == VCD_IN_LONG) {
        uint32_t sid = strtab_find(&r->long_codes, op->code, op->code_len);
        e = sid == STRTAB_NONE ? NULL : &r->long_entries.data[sid];
    }
    return e && e->width > 0 ? e : NULL;
}

/* Splits commands from *pp into ops (at most VCD_AHEAD), prefetching each
 * code's entry; *pp ends where splitting stopped. */
static vcd_stop vcd_split(const vcd_text *r, const char **pp, vcd_op *ops, size_t *count)
{
    const char *p = *pp, *end = r->buf + r->len;
    size_t n = 0;
    vcd_stop stop = VCD_STOP_FULL;
    for (; n < VCD_AHEAD; n++) {
        while (vcd_is_space((unsigned char)*p))
            p++;
        vcd_op *op = &ops[n];
        const char *q;
        op->cmd = p;
        op->code = NULL;
        op->entry = NULL;
        const char *located = NULL;
        switch (*p) {
        case '0': case '1': case 'x': case 'X': case 'z': case 'Z':
            op->code = p + 1;
            q = located = vcd_scalar_code(r, op);
            if (!q)
                q = vcd_token_end(op->code);
            break;
        case 'b': case 'B': case 'r': case 'R': case 's': case 'S':
            op->end = vcd_token_end(p + 1);
            for (op->code = op->end; vcd_is_space((unsigned char)*op->code);)
                op->code++;
            q = vcd_token_end(op->code);
            break;
        case '#':
            q = op->end = vcd_token_end(p + 1);
            break;
        case '$':
            stop = VCD_STOP_KEYWORD;
            goto done;
        default:
            stop = p == end ? VCD_STOP_END : VCD_STOP_BAD;
            goto done;
        }
        if (q == end && !r->eof) {
            stop = VCD_STOP_CUT;
            goto done;
        }
        if (!located && op->code && (op->code_len = (size_t)(q - op->code)) > 0)
            vcd_locate(r, op);
        p = q;
    }
done:
    *pp = p;
    *count = n;
    return stop;
}

/* A delivered one-bit code's scalar change.  A part's reader has no
 * $dumpoff (it stops the part) and leaves repeats to the sink: the bit's
 * value is neither looked at nor kept (its changes in vector notation go
 * unchecked too, vcd_deliver_vector). */
static inline gp_status vcd_put_scalar(vcd_text *r, const vcd_code *e, char value)
{
    uint8_t v = vcd_value_plus1[(unsigned char)value] - 1;
    return r->st.in_part ? vcd_state_deliver(&r->st, e->id, 0, v)
                         : vcd_state_set_bit(&r->st, e->id, e->off, 0, v);
}

static gp_status vcd_apply(vcd_text *r, const vcd_op *op)
{
    const vcd_code *fast = op->entry;
    if (fast && fast->scalar && op->code == op->cmd + 1)
        return vcd_put_scalar(r, fast, *op->cmd);
    if (!op->code)
        return vcd_time(r, op->cmd, op->end);
    const vcd_code *e = vcd_find(r, op);
    if (!e)
        return vcd_bad_code(r, op);
    if (op->code != op->cmd + 1) /* a vector, real or string value: a blank before the code */
        return vcd_value_change(r, op, e);
    if (!e->deliver)
        return GP_OK;
    if (e->width == 1)
        return vcd_put_scalar(r, e, *op->cmd);
    return vcd_apply_vector(r, e, op->cmd, 1);
}

/* Runs the commands in buf from pos.  Stops at a $keyword (pos at it,
 * *keyword set), at the end of the buffer, or before a command the buffer
 * cuts (pos at its start; only when more input follows). */
static gp_status vcd_run(vcd_text *r, bool *keyword)
{
    vcd_op ops[VCD_AHEAD];
    *keyword = false;
    for (;;) {
        const char *p = r->buf + r->pos;
        size_t n;
        vcd_stop stop = vcd_split(r, &p, ops, &n);
        for (size_t i = 0; i < n; i++) {
            gp_status st = vcd_apply(r, &ops[i]);
            if (st != GP_OK)
                return st;
        }
        r->pos = (size_t)(p - r->buf);
        if (stop == VCD_STOP_BAD) {
            unsigned char c = (unsigned char)*p;
            diag_error(r->st.d, 6018, vcd_text_loc(r, p),
                       "unexpected character '%c' (0x%02x) in the value changes: expected #time, "
                       "a value (0 1 x z b r) or a $keyword", c > ' ' && c < 127 ? c : '?', c);
            return GP_ERR_PARSE;
        }
        if (stop != VCD_STOP_FULL) {
            *keyword = stop == VCD_STOP_KEYWORD;
            return GP_OK;
        }
    }
}

/* $dumpvars, $dumpall, $dumpon, $dumpoff, $end, $comment. */
static gp_status vcd_keyword(vcd_text *r)
{
    static const char *const blocks[] = {"$dumpvars", "$dumpall", "$dumpon", "$dumpoff"};
    vcd_word w;
    gp_status st = vcd_text_word(r, &w);
    if (st != GP_OK)
        return st;
    if (vcd_word_is(&w, "$end")) {
        if (r->block) {
            r->block = NULL;
            return GP_OK;
        }
        diag_error(r->st.d, 6020, vcd_text_loc(r, w.text),
                   "$end without an open $dumpvars, $dumpall, $dumpon or $dumpoff");
        return GP_ERR_PARSE;
    }
    if (vcd_word_is(&w, "$comment"))
        return vcd_text_skip_section(r, "a $comment section");
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        if (!vcd_word_is(&w, blocks[i]))
            continue;
        if (r->block) {
            diag_error(r->st.d, 6021, vcd_text_loc(r, w.text),
                       "%s inside %s: the $end closing %s is missing", blocks[i], r->block,
                       r->block);
            return GP_ERR_PARSE;
        }
        r->block = blocks[i];
        return i >= 2 ? vcd_state_dump(&r->st, i == 2) : GP_OK;
    }
    diag_error(r->st.d, 6019, vcd_text_loc(r, w.text),
               "unknown keyword '%.*s' in the value changes: expected $dumpvars, $dumpall, "
               "$dumpon, $dumpoff, $end or $comment", (int)w.len, w.text);
    return GP_ERR_PARSE;
}

gp_status vcd_refuse_unterminated(diag_ctx *d, diag_loc end)
{
    diag_error(d, 6023, end, "the file ends inside a line: it is cut short (a simulation that "
               "did not finish writing it, or a partial copy), and its last change or time may "
               "be cut too; a dump ends with a newline");
    return GP_ERR_PARSE;
}

gp_status vcd_text_changes(vcd_text *r)
{
    gp_status st;
    for (;;) {
        bool keyword;
        if ((st = vcd_run(r, &keyword)) != GP_OK)
            return st;
        if (keyword)
            st = vcd_keyword(r);
        else if (r->eof)
            break;
        else
            st = vcd_text_refill(r);
        if (st != GP_OK)
            return st;
    }
    const char *end = r->buf + r->len;
    if (r->block) {
        diag_error(r->st.d, 6022, vcd_text_loc(r, end),
                   "the file ends inside %s (no $end): it is truncated", r->block);
        return GP_ERR_PARSE;
    }
    if (r->last_byte != '\n')
        return vcd_refuse_unterminated(r->st.d, vcd_text_loc(r, end));
    return vcd_state_finish(&r->st, r->ticks * r->scale);
}
