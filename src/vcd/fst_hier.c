/* fst_hier.c: an FST file's hierarchy, inflated (gzip, LZ4 or LZ4 twice)
 * or read from the file beside it, and walked: scopes pushed and popped,
 * vars declared into the vcd_state with their names parsed like VCD
 * references ("data [7:0]"); attributes skipped.  A var's handle is the
 * next one, or the one it aliases. */
#include "vcd/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <lz4.h>
#include <string.h>

#include "vcd/fst_int.h"
#include "util/infile.h"
#include "util/mem.h"

/* Hierarchy entry tags besides the var types 0 .. 29. */
enum { FST_H_ATTR_BEGIN = 252, FST_H_ATTR_END = 253, FST_H_SCOPE = 254, FST_H_UPSCOPE = 255 };
enum { FST_VAR_TYPES = 30, FST_TYPE_PORT = 18 };

/* FST's var types by their code (fstapi.h's fstVarType). */
static const struct fst_type {
    const char *name;
    vcd_kind kind;
} fst_types[FST_VAR_TYPES] = {
    {"event", VCD_KIND_LOGIC},     {"integer", VCD_KIND_LOGIC},  {"parameter", VCD_KIND_LOGIC},
    {"real", VCD_KIND_REAL},       {"real_parameter", VCD_KIND_REAL},
    {"reg", VCD_KIND_LOGIC},       {"supply0", VCD_KIND_LOGIC},  {"supply1", VCD_KIND_LOGIC},
    {"time", VCD_KIND_LOGIC},      {"tri", VCD_KIND_LOGIC},      {"triand", VCD_KIND_LOGIC},
    {"trior", VCD_KIND_LOGIC},     {"trireg", VCD_KIND_LOGIC},   {"tri0", VCD_KIND_LOGIC},
    {"tri1", VCD_KIND_LOGIC},      {"wand", VCD_KIND_LOGIC},     {"wire", VCD_KIND_LOGIC},
    {"wor", VCD_KIND_LOGIC},       {"port", VCD_KIND_OTHER},     {"sparray", VCD_KIND_OTHER},
    {"realtime", VCD_KIND_REAL},   {"string", VCD_KIND_OTHER},   {"bit", VCD_KIND_LOGIC},
    {"logic", VCD_KIND_LOGIC},     {"int", VCD_KIND_LOGIC},      {"shortint", VCD_KIND_LOGIC},
    {"longint", VCD_KIND_LOGIC},   {"byte", VCD_KIND_LOGIC},     {"enum", VCD_KIND_LOGIC},
    {"shortreal", VCD_KIND_REAL},
};

/* The hierarchy's bytes, inflated into *out (*out_len bytes). */
static const char *inflate_hier(const fst_file *ff, uint8_t **out, size_t *out_len)
{
    const uint8_t *b = ff->data + ff->hier_at;
    uint64_t uclen = fst_be64(b + 9), clen = fst_be64(b + 1) - 16;
    const uint8_t *src = b + 17;
    if (!fst_plausible_inflation(uclen, clen) ||
        (ff->hier_tag == FST_TAG_HIER_LZ4_TWICE && !fst_plausible_inflation(uclen, uclen)))
        return "its sizes do not fit its length";
    uint8_t *mid = NULL, *dst = mem_alloc(uclen ? uclen : 1);
    bool ok = dst != NULL;
    if (ok && ff->hier_tag == FST_TAG_HIER_GZ) {
        ok = fst_inflate_once(src, clen, dst, uclen);
    } else if (ok && ff->hier_tag == FST_TAG_HIER_LZ4_TWICE) {
        const uint8_t *p = src;
        uint64_t midlen;
        ok = fst_varint(&p, src + clen, &midlen) && fst_plausible_inflation(midlen, clen) &&
             midlen <= INT32_MAX && uclen <= INT32_MAX && (mid = mem_alloc(midlen + 1)) &&
             LZ4_decompress_safe((const char *)p, (char *)mid, (int)(src + clen - p),
                                 (int)midlen) == (int)midlen &&
             LZ4_decompress_safe((const char *)mid, (char *)dst, (int)midlen, (int)uclen) ==
                 (int)uclen;
    } else if (ok) {
        ok = clen <= INT32_MAX && uclen <= INT32_MAX &&
             LZ4_decompress_safe((const char *)src, (char *)dst, (int)clen, (int)uclen) ==
                 (int)uclen;
    }
    mem_free(mid);
    if (!ok) {
        mem_free(dst);
        return "it does not decompress";
    }
    *out = dst;
    *out_len = uclen;
    return NULL;
}

/* A NUL-terminated string at *p, below end. */
static bool hier_string(const uint8_t **p, const uint8_t *end, const char **s, size_t *len)
{
    const uint8_t *z = memchr(*p, 0, (size_t)(end - *p));
    if (!z)
        return false;
    *s = (const char *)*p;
    *len = (size_t)(z - *p);
    *p = z + 1;
    return true;
}

static gp_status hier_var(fst_reader *f, int type, const uint8_t **p, const uint8_t *end,
                          uint32_t *handles)
{
    static const struct fst_type unknown = {"unknown", VCD_KIND_OTHER};
    const char *name;
    size_t name_len;
    uint64_t width, alias;
    if (*p >= end || (++*p, !hier_string(p, end, &name, &name_len)) ||
        !fst_varint(p, end, &width) || !fst_varint(p, end, &alias))
        return fst_damaged(f, "the hierarchy", "a variable is cut short");
    const struct fst_type *t = type < FST_VAR_TYPES ? &fst_types[type] : &unknown;
    if (type == FST_TYPE_PORT)
        width = width >= 2 ? (width - 2) / 3 : 0;
    uint64_t handle = alias ? alias : ++*handles;
    if (t->kind != VCD_KIND_LOGIC && width == 0) /* strings have no width */
        width = 1;
    const fst_file *ff = f->ff;
    if (handle > ff->handles || width == 0 || width > VCD_MAX_WIDTH) {
        diag_error(f->st.d, 6106, f->loc,
                   "variable '%.*s' has handle %llu and width %llu: expected a handle from 1 to "
                   "%u and a width from 1 to %u", (int)name_len, name, (unsigned long long)handle,
                   (unsigned long long)width, ff->handles, VCD_MAX_WIDTH);
        return GP_ERR_PARSE;
    }
    if (t->kind == VCD_KIND_LOGIC && ff->value_len &&
        (ff->value_len[handle - 1] != width || ff->is_real[handle - 1]))
        return fst_damaged(f, "the hierarchy", "a variable's width differs from its geometry");
    char *text = mem_alloc(name_len + 1);
    if (!text)
        return fst_nomem(f);
    memcpy(text, name, name_len);
    vcd_decl decl = {.type = t->name, .kind = t->kind, .width = (uint32_t)width};
    gp_status st = GP_OK;
    if (!vcd_parse_reference(text, name_len, text, &decl)) {
        diag_error(f->st.d, 6104, f->loc,
                   "malformed variable name '%.*s' (handle %llu): expected a name, optionally "
                   "followed by [index] or [msb:lsb]", (int)name_len, name,
                   (unsigned long long)handle);
        st = GP_ERR_PARSE;
    } else if (!vcd_decl_settle_range(&decl)) {
        diag_error(f->st.d, 6105, f->loc, "variable '%s' has width %u but range [%d:%d]",
                   decl.name, decl.width, decl.msb, decl.lsb);
        st = GP_ERR_PARSE;
    } else {
        st = vcd_state_declare(&f->st, (uint32_t)handle - 1, &decl, f->loc);
    }
    mem_free(text);
    return st;
}

/* One entry at *p (its tag read). */
static gp_status hier_entry(fst_reader *f, int tag, const uint8_t **p, const uint8_t *end,
                            uint32_t *handles)
{
    const char *s;
    size_t len;
    uint64_t arg;
    switch (tag) {
    case FST_H_SCOPE: { /* its type, name and component */
        const char *component;
        size_t component_len;
        if (*p >= end || (++*p, !hier_string(p, end, &s, &len)) ||
            !hier_string(p, end, &component, &component_len))
            return fst_damaged(f, "the hierarchy", "a scope is cut short");
        return vcd_state_push_scope(&f->st, s, len, f->loc);
    }
    case FST_H_UPSCOPE:
        vcd_state_pop_scope(&f->st);
        return GP_OK;
    case FST_H_ATTR_BEGIN:
        if (end - *p < 2 || (*p += 2, !hier_string(p, end, &s, &len)) ||
            !fst_varint(p, end, &arg))
            return fst_damaged(f, "the hierarchy", "an attribute is cut short");
        return GP_OK;
    case FST_H_ATTR_END:
        return GP_OK;
    default:
        if (tag >= FST_VAR_TYPES)
            return fst_damaged(f, "the hierarchy", "an entry has an unknown tag");
        return hier_var(f, tag, p, end, handles);
    }
}

/* A file written without a hierarchy block keeps it beside it, as is, in
 * FILE.hier (fstWriterCreate's use_compressed_hier off): read whole, its
 * absence no error of its own (the caller's 6108 says what is missing). */
static bool side_hier(const char *path, uint8_t **out, size_t *out_len)
{
    size_t n = strlen(path);
    char *name = mem_alloc(n + 6);
    diag_ctx *quiet = diag_new(NULL);
    char *h = NULL;
    bool ok = name && quiet;
    if (ok) {
        memcpy(name, path, n);
        memcpy(name + n, ".hier", 6);
        ok = infile_read_all(name, quiet, &h, out_len) == GP_OK;
    }
    mem_free(name);
    diag_free(quiet);
    *out = (uint8_t *)h;
    return ok;
}

gp_status fst_hier_read(fst_reader *f)
{
    const fst_file *ff = f->ff;
    uint8_t *h;
    size_t n;
    if (!ff->hier_at && !side_hier(ff->path, &h, &n)) {
        diag_error(f->st.d, 6108, f->loc,
                   "'%s' has no hierarchy (no block of it, no file '%s.hier' beside it): it "
                   "declares no variable", ff->path, ff->path);
        return GP_ERR_PARSE;
    }
    const char *why = ff->hier_at ? inflate_hier(ff, &h, &n) : NULL;
    if (why)
        return fst_damaged(f, "the hierarchy", why);
    const uint8_t *p = h, *end = h + n;
    uint32_t handles = 0;
    gp_status st = GP_OK;
    while (st == GP_OK && p < end) {
        int tag = *p++;
        st = hier_entry(f, tag, &p, end, &handles);
    }
    mem_free(h);
    return st;
}
#endif
