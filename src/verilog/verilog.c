/* verilog.c: vlog_read: reads the files, picks the top module, then checks
 * and flattens it into the builder (verilog_check.c, verilog_elab.c). */
#include "verilog/verilog_int.h"

#include "util/parts.h"

const char *const vlog_keyword_text[VLOG_KW_COUNT] = {
    "module", "macromodule", "endmodule", "primitive",
    "input", "output", "inout",
    "wire", "tri", "uwire", "reg",
    "wand", "wor", "triand", "trior", "tri0", "tri1",
    "trireg", "supply0", "supply1",
    "signed", "assign",
    "parameter", "localparam", "defparam", "specparam",
    "specify", "endspecify",
    "always", "initial", "generate", "function", "task",
    "genvar", "integer", "real", "realtime", "time",
    "event", "for", "if", "case", "begin",
    "and", "nand", "or", "nor", "xor", "xnor",
    "buf", "not", "bufif0", "bufif1", "notif0", "notif1",
    "pullup", "pulldown", "nmos", "pmos", "rnmos", "rpmos",
    "cmos", "rcmos", "tran", "rtran", "tranif0",
    "tranif1", "rtranif0", "rtranif1",
};

gp_status vlog_no_memory(diag_ctx *d, const char *file)
{
    diag_loc where = {file, 0, 0};
    diag_error(d, 3091, where, "out of memory while reading the netlist");
    return GP_ERR_NOMEM;
}

gp_status vlog_nomem(vlog_reader *r) { return vlog_no_memory(r->d, NULL); }

/* The maps' entries of the range zeroed, a part of them a core: the four
 * maps of a million names are 24 MB of fresh pages each time they double. */
static void vlog_zero_maps_part(void *ctx, uint32_t part, uint32_t parts)
{
    const vlog_range_job *j = ctx;
    size_t at = j->first + (size_t)parts_begin(j->n, part, parts);
    size_t n = (size_t)(parts_begin(j->n, part + 1, parts) - parts_begin(j->n, part, parts));
    memset(j->r->module_of.data + at, 0, n * sizeof *j->r->module_of.data);
    memset(j->r->cell_of.data + at, 0, n * sizeof *j->r->cell_of.data);
    memset(j->r->sig_of.data + at, 0, n * sizeof *j->r->sig_of.data);
    memset(j->r->inst_of.data + at, 0, n * sizeof *j->r->inst_of.data);
}

gp_status vlog_reserve_maps(vlog_reader *r, uint32_t sym)
{
    size_t len = r->module_of.len;
    if (sym < len)
        return GP_OK;
    size_t want = len * 2 > (size_t)sym + 1 ? len * 2 : (size_t)sym + 1;
    if (want < 1024)
        want = 1024;
    /* All four keep one length; a failed reserve leaves it, and the next call
     * tries again. */
    if (!vec_u32_reserve(&r->module_of, want) || !vec_u32_reserve(&r->cell_of, want) ||
        !vlog_slot_vec_reserve(&r->sig_of, want) || !vlog_slot_vec_reserve(&r->inst_of, want))
        return vlog_nomem(r);
    vlog_range_job j = {r, len, want - len};
    parts_run(vlog_zero_maps_part, &j, parts_for(j.n, UINT32_MAX));
    r->module_of.len = r->cell_of.len = r->sig_of.len = r->inst_of.len = want;
    return GP_OK;
}

const char *vlog_sym(const vlog_reader *r, uint32_t sym) { return strtab_str(&r->syms, sym); }

diag_loc vlog_loc(const vlog_reader *r, uint32_t file, uint32_t line, uint32_t col)
{
    return (diag_loc){(const char *)r->files.data[file], (int)line, (int)col};
}

gp_status vlog_builder_failed(vlog_reader *r, gp_status st, const char *what, const char *name)
{
    if (diag_error_count(r->d) == r->errors_at_start)
        diag_error(r->d, 3090, DIAG_NOWHERE, "the design database refused %s '%s' (%s)", what,
                   name, gp_status_name(st));
    return st;
}

static gp_status vlog_init(vlog_reader *r, const vlog_builder *b, diag_ctx *d)
{
    memset(r, 0, sizeof *r);
    r->d = d;
    r->b = b;
    r->errors_at_start = diag_error_count(d);
    strtab_init(&r->syms);
    for (int k = 0; k < VLOG_KW_COUNT; k++) {
        const char *text = vlog_keyword_text[k];
        if (strtab_intern(&r->syms, text, strlen(text)) != (uint32_t)k)
            return vlog_nomem(r);
    }
    return vlog_reserve_maps(r, VLOG_KW_COUNT);
}

static void vlog_free(vlog_reader *r)
{
    strtab_free(&r->syms);
    vec_ptr_free(&r->files);
    vlog_module_vec_free(&r->modules);
    vlog_signal_vec_free(&r->signals);
    vec_u32_free(&r->ports);
    vlog_inst_vec_free(&r->insts);
    vlog_conn_vec_free(&r->conns);
    vlog_term_vec_free(&r->terms);
    vlog_assign_vec_free(&r->assigns);
    vec_u8_free(&r->const_bits);
    vec_u32_free(&r->module_of);
    vec_u32_free(&r->cell_of);
    vlog_slot_vec_free(&r->sig_of);
    vlog_slot_vec_free(&r->inst_of);
    vec_u32_free(&r->defines);
    vlog_cell_vec_free(&r->cells);
    vlog_group_vec_free(&r->groups);
    vlog_pin_bit_vec_free(&r->pin_bits);
    vec_u32_free(&r->seen);
    vec_u8_free(&r->boxed);
    vec_u8_free(&r->name_buf);
}

static const tok_config vlog_tok_config = {
    .punct = "(){}[];:,=.#@",
    .comments = TOK_COMMENT_C | TOK_COMMENT_CPP,
    .verilog_escapes = true,
    .quote = '"',
};

/* Parses one input: the file `path`, or data[0..len) named `path` when data
 * is not NULL. */
static gp_status vlog_parse_input(vlog_reader *r, const char *path, const char *data, size_t len,
                                  size_t chunk_bytes)
{
    if (r->files.len >= UINT32_MAX || !vec_ptr_push(&r->files, (void *)path))
        return vlog_nomem(r);
    vlog_scan *scan;
    gp_status st = vlog_scan_open(path, data, len, chunk_bytes, &vlog_tok_config, &r->syms,
                                  r->bar, r->d, &scan);
    if (st != GP_OK)
        return st;
    st = vlog_parse(r, scan, (uint32_t)r->files.len - 1);
    vlog_scan_close(scan);
    return st;
}

void vlog_text_reset(vlog_reader *r) { r->name_buf.len = 0; }

bool vlog_text_add(vlog_reader *r, const char *s, size_t len)
{
    vec_u8 *buf = &r->name_buf;
    if (!vec_u8_reserve(buf, buf->len + len + 1))
        return false;
    memcpy(buf->data + buf->len, s, len);
    buf->len += len;
    return true;
}

const char *vlog_text(vlog_reader *r)
{
    vec_u8 *buf = &r->name_buf;
    if (!vec_u8_reserve(buf, buf->len + 1))
        return "";
    buf->data[buf->len] = '\0';
    return (const char *)buf->data;
}

/* Lists the names of the modules that `pick` accepts (all when NULL; at most
 * 20 shown) with vlog_text; returns how many there are. */
static size_t vlog_module_list(vlog_reader *r, const bool *pick)
{
    size_t n = 0;
    vlog_text_reset(r);
    for (size_t i = 0; i < r->modules.len; i++) {
        if (pick && !pick[i])
            continue;
        const char *name = ++n <= 20 ? vlog_sym(r, r->modules.data[i].name) : "...";
        if (n <= 21) {
            vlog_text_add(r, ", ", n > 1 ? 2 : 0);
            vlog_text_add(r, name, strlen(name));
        }
    }
    return n;
}

/* The top module when the user named none: the only one that no module
 * instantiates. */
static gp_status vlog_guess_top(vlog_reader *r, diag_loc where, uint32_t *top)
{
    bool *uninstantiated = mem_alloc(r->modules.len);
    if (!uninstantiated)
        return vlog_nomem(r);
    memset(uninstantiated, 1, r->modules.len);
    for (size_t i = 0; i < r->insts.len; i++) {
        uint32_t m = r->module_of.data[r->insts.data[i].type];
        if (m)
            uninstantiated[m - 1] = false;
    }
    size_t n = vlog_module_list(r, uninstantiated);
    for (size_t i = 0; i < r->modules.len; i++)
        if (uninstantiated[i])
            *top = (uint32_t)i;
    mem_free(uninstantiated);
    if (n == 1)
        return GP_OK;
    if (n == 0)
        vlog_module_list(r, NULL);
    diag_error(r->d, 3052, where,
               n ? "no top module given and %zu modules could be it (%s): name the top module"
                 : "no top module given and every module is instantiated by another (%zu "
                   "candidates; modules: %s): name the top module",
               n, vlog_text(r));
    return GP_ERR_USAGE;
}

static gp_status vlog_find_top(vlog_reader *r, const char *top, uint32_t *out)
{
    diag_loc where = {r->files.len ? (const char *)r->files.data[0] : NULL, 0, 0};
    if (r->modules.len == 0) {
        diag_error(r->d, 3050, where,
                   "no module found in the netlist: give a structural Verilog netlist");
        return GP_ERR_INPUT;
    }
    if (!top)
        return vlog_guess_top(r, where, out);
    uint32_t sym = strtab_find(&r->syms, top, strlen(top));
    uint32_t m = sym < r->module_of.len ? r->module_of.data[sym] : 0;
    if (m) {
        *out = m - 1;
        return GP_OK;
    }
    size_t n = vlog_module_list(r, NULL);
    diag_error(r->d, 3051, where, "top module '%s' not found; modules read (%zu): %s", top,
               n, vlog_text(r));
    return GP_ERR_USAGE;
}

static gp_status vlog_finish(vlog_reader *r, gp_status st, const char *top)
{
    uint32_t top_module = 0;
    if (st == GP_OK)
        st = vlog_find_top(r, top, &top_module);
    if (st == GP_OK)
        st = vlog_check(r, top_module);
    if (st == GP_OK)
        st = vlog_elaborate(r, top_module);
    vlog_free(r);
    return st;
}

gp_status vlog_read(const char *const *paths, int npaths, const char *top, const vlog_builder *b,
                    progress *bar, diag_ctx *d)
{
    vlog_reader r;
    gp_status st = vlog_init(&r, b, d);
    r.bar = bar;
    for (int i = 0; i < npaths && st == GP_OK; i++)
        st = vlog_parse_input(&r, paths[i], NULL, 0, 0);
    return vlog_finish(&r, st, top);
}

gp_status vlog_read_memory_chunked(const char *name, const char *text, size_t len,
                                   size_t chunk_bytes, const char *top, const vlog_builder *b,
                                   diag_ctx *d)
{
    vlog_reader r;
    gp_status st = vlog_init(&r, b, d);
    if (st == GP_OK)
        st = vlog_parse_input(&r, name, text, len, chunk_bytes);
    return vlog_finish(&r, st, top);
}

gp_status vlog_read_memory(const char *name, const char *text, size_t len, const char *top,
                           const vlog_builder *b, diag_ctx *d)
{
    return vlog_read_memory_chunked(name, text, len, 0, top, b, d);
}
