/* vcd_state.c: the part of reading activity that VCD and FST share: scope
 * selection, declarations and their ids, the bits' last values, batches of
 * bit changes, and the names of bits. */
#include <stdio.h>
#include <string.h>

#include "util/bitname.h"
#include "util/mem.h"
#include "vcd/vcd_int.h"

#define VCD_SUGGESTIONS 8 /* scopes listed in the mismatched-scope message */

const uint8_t vcd_value_plus1[256] = {
    ['0'] = VCD_0 + 1, ['1'] = VCD_1 + 1, ['x'] = VCD_X + 1, ['X'] = VCD_X + 1,
    ['z'] = VCD_X + 1, ['Z'] = VCD_X + 1,
};

static gp_status vcd_state_nomem(vcd_state *s)
{
    diag_error(s->d, 6001, DIAG_NOWHERE, "out of memory reading '%s'", s->file);
    return GP_ERR_NOMEM;
}

/* Splits the wanted scope at '/' and '.' into s->sel. */
static gp_status vcd_state_select(vcd_state *s, const char *scope)
{
    if (!scope || !*scope)
        return GP_OK;
    size_t len = strlen(scope);
    s->sel_text = mem_alloc(len + 1);
    s->sel = mem_calloc(len, sizeof *s->sel);
    if (!s->sel_text || !s->sel)
        return vcd_state_nomem(s);
    memcpy(s->sel_text, scope, len + 1);
    for (char *p = s->sel_text; *p;) {
        size_t n = strcspn(p, "/.");
        if (n > 0)
            s->sel[s->sel_n++] = p;
        if (!p[n])
            break;
        p[n] = '\0';
        p += n + 1;
    }
    return GP_OK;
}

gp_status vcd_state_init(vcd_state *s, const char *file, const vcd_options *opt,
                         const vcd_sink *sink, diag_ctx *d)
{
    memset(s, 0, sizeof *s);
    s->d = d;
    s->sink = sink;
    s->file = file;
    strtab_init(&s->scopes);
    s->batch = mem_alloc(VCD_BATCH * sizeof *s->batch);
    if (!vec_char_reserve(&s->path, 256) || !s->batch)
        return vcd_state_nomem(s);
    s->path.data[0] = '\0';
    return vcd_state_select(s, opt ? opt->scope : NULL);
}

void vcd_state_free(vcd_state *s)
{
    mem_free(s->sel_text);
    mem_free(s->sel);
    vec_char_free(&s->path);
    vec_u32_free(&s->level_off);
    strtab_free(&s->scopes);
    mem_free(s->slots);
    mem_free(s->vals);
    mem_free(s->batch);
    memset(s, 0, sizeof *s);
}

size_t vcd_state_depth(const vcd_state *s) { return s->level_off.len; }

/* Strips the backslash of an escaped identifier. */
static void vcd_unescape(const char **name, size_t *len)
{
    if (*len > 1 && (*name)[0] == '\\') {
        (*name)++;
        (*len)--;
    }
}

gp_status vcd_state_push_scope(vcd_state *s, const char *name, size_t len, diag_loc loc)
{
    vcd_unescape(&name, &len);
    size_t depth = s->level_off.len;
    if (s->path.len + 1 + len > VCD_MAX_SCOPE_PATH) {
        diag_error(s->d, 6042, loc, "scope '%.*s': its path is longer than %d characters (the "
                   "scopes nest thousands deep): the file is damaged or not a simulator's dump",
                   (int)(len < 64 ? len : 64), name, VCD_MAX_SCOPE_PATH);
        return GP_ERR_PARSE;
    }
    if (!vec_char_reserve(&s->path, s->path.len + 1 + len + 1))
        return vcd_state_nomem(s);
    if (!vec_u32_push(&s->level_off, (uint32_t)(s->path.len + (depth > 0))))
        return vcd_state_nomem(s);
    if (depth > 0)
        s->path.data[s->path.len++] = '/';
    memcpy(s->path.data + s->path.len, name, len);
    s->path.len += len;
    s->path.data[s->path.len] = '\0';
    if (s->matched == depth && depth < s->sel_n && strlen(s->sel[depth]) == len &&
        memcmp(s->sel[depth], name, len) == 0) {
        s->matched = depth + 1;
        if (s->matched == s->sel_n)
            s->scope_found = true;
    }
    if (strtab_intern(&s->scopes, s->path.data, s->path.len) == STRTAB_NONE)
        return vcd_state_nomem(s);
    return GP_OK;
}

void vcd_state_pop_scope(vcd_state *s)
{
    uint32_t off;
    if (!vec_u32_pop(&s->level_off, &off))
        return;
    s->path.len = off > 0 ? off - 1 : 0; /* drop the '/' before the level too */
    s->path.data[s->path.len] = '\0';
    if (s->matched > s->level_off.len)
        s->matched = s->level_off.len;
}

/* Whether the current scope lies in the selection; *rel its relative path. */
static bool vcd_state_in_scope(const vcd_state *s, const char **rel)
{
    if (s->matched < s->sel_n)
        return false;
    size_t depth = s->level_off.len;
    *rel = s->sel_n < depth ? s->path.data + s->level_off.data[s->sel_n] : "";
    return true;
}

/* Makes room for ids up to `id`, the new slots undeclared. */
static gp_status vcd_state_grow_slots(vcd_state *s, uint32_t id)
{
    if (id < s->slot_count)
        return GP_OK;
    if (id >= s->slot_cap) {
        uint32_t cap = s->slot_cap ? s->slot_cap : 256;
        while (cap <= id)
            cap = cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
        vcd_slot *p = mem_realloc(s->slots, (size_t)cap * sizeof *p);
        if (!p)
            return vcd_state_nomem(s);
        s->slots = p;
        s->slot_cap = cap;
    }
    memset(s->slots + s->slot_count, 0, (size_t)(id + 1 - s->slot_count) * sizeof *s->slots);
    s->slot_count = id + 1;
    return GP_OK;
}

/* A new slot's bits, all X. */
static gp_status vcd_state_new_values(vcd_state *s, vcd_slot *slot, uint32_t width)
{
    size_t need = s->vals_len + width;
    if (need > UINT32_MAX)
        return vcd_state_nomem(s);
    if (need > s->vals_cap) {
        size_t cap = s->vals_cap ? s->vals_cap : 4096;
        while (cap < need)
            cap *= 2;
        uint8_t *p = mem_realloc(s->vals, cap);
        if (!p)
            return vcd_state_nomem(s);
        s->vals = p;
        s->vals_cap = cap;
    }
    memset(s->vals + s->vals_len, VCD_X, width);
    slot->off = (uint32_t)s->vals_len;
    slot->width = width;
    s->vals_len = need;
    return GP_OK;
}

/* One warning per reader for each kind of var that is skipped. */
static void vcd_state_warn_skipped(vcd_state *s, const vcd_decl *decl, diag_loc loc)
{
    if (decl->kind == VCD_KIND_REAL && !s->warned_real) {
        s->warned_real = true;
        diag_warn(s->d, 6002, loc,
                  "real variable '%s' skipped, and any further real ones: power analysis uses "
                  "logic values only", decl->name);
    } else if (decl->kind == VCD_KIND_OTHER && !s->warned_other) {
        s->warned_other = true;
        diag_warn(s->d, 6003, loc,
                  "variable '%s' of type '%s' skipped, and any further ones of types that do not "
                  "hold logic values", decl->name, decl->type);
    }
}

gp_status vcd_state_declare(vcd_state *s, uint32_t id, const vcd_decl *decl, diag_loc loc)
{
    gp_status st = vcd_state_grow_slots(s, id);
    if (st != GP_OK)
        return st;
    vcd_slot *slot = &s->slots[id];
    if (slot->width == 0) {
        slot->kind = (uint8_t)decl->kind;
        if ((st = vcd_state_new_values(s, slot, decl->width)) != GP_OK)
            return st;
    } else if (slot->width != decl->width || slot->kind != decl->kind) {
        diag_error(s->d, 6004, loc,
                   "'%s' shares its identifier with an earlier variable of width %u but has "
                   "width %u or another kind: the file is inconsistent, regenerate it",
                   decl->name, slot->width, decl->width);
        return GP_ERR_PARSE;
    }
    if (decl->kind != VCD_KIND_LOGIC) {
        vcd_state_warn_skipped(s, decl, loc);
        return GP_OK;
    }
    const char *rel;
    if (!vcd_state_in_scope(s, &rel))
        return GP_OK;
    slot->deliver = true;
    s->var_count++;
    vcd_var v = {.id = id, .scope = rel, .name = decl->name, .type = decl->type,
                 .width = decl->width, .has_range = decl->has_range,
                 .msb = decl->msb, .lsb = decl->lsb};
    return s->sink->var ? s->sink->var(s->sink->ctx, &v) : GP_OK;
}

/* Appends up to VCD_SUGGESTIONS scope paths of the given depth below `prefix`
 * (its length, 0 for the top) to buf. */
static void vcd_state_list_children(const vcd_state *s, const char *prefix, size_t plen,
                                    char *buf, size_t size)
{
    size_t used = strlen(buf), listed = 0; /* appends to what buf holds */
    for (uint32_t i = 0; i < strtab_count(&s->scopes); i++) {
        const char *p = strtab_str(&s->scopes, i);
        if (plen > 0 && (strncmp(p, prefix, plen) != 0 || p[plen] != '/'))
            continue;
        const char *child = plen > 0 ? p + plen + 1 : p;
        if (strchr(child, '/'))
            continue;
        if (listed++ == VCD_SUGGESTIONS) {
            snprintf(buf + used, size - used, ", ...");
            return;
        }
        int n = snprintf(buf + used, size - used, "%s%s", listed > 1 ? ", " : "", child);
        if (n < 0 || (size_t)n >= size - used)
            return;
        used += (size_t)n;
    }
}

/* Reports the selected scope missing: the deepest level that exists with
 * what lies below it, and a scope whose path ends with the selection. */
static gp_status vcd_state_scope_missing(const vcd_state *s, diag_loc loc)
{
    char want[1024] = "", known[1024] = "", hint[1200] = "";
    size_t found_len = 0;
    for (size_t i = 0; i < s->sel_n; i++) {
        size_t used = strlen(want);
        snprintf(want + used, sizeof want - used, "%s%s", i ? "/" : "", s->sel[i]);
        if (strtab_find(&s->scopes, want, strlen(want)) != STRTAB_NONE)
            found_len = strlen(want);
    }
    size_t want_len = strlen(want);
    for (uint32_t i = 0; i < strtab_count(&s->scopes) && !hint[0]; i++) {
        const char *p = strtab_str(&s->scopes, i);
        size_t n = strtab_len(&s->scopes, i);
        if (n > want_len && p[n - want_len - 1] == '/' && strcmp(p + n - want_len, want) == 0)
            snprintf(hint, sizeof hint, " (did you mean '%s'?)", p);
    }
    if (found_len > 0)
        snprintf(known, sizeof known, "scopes under '%.*s': ", (int)found_len, want);
    else
        snprintf(known, sizeof known, "top-level scopes: ");
    size_t listed_from = strlen(known);
    vcd_state_list_children(s, want, found_len, known, sizeof known);
    diag_error(s->d, 6005, loc,
               "mismatched scope: '%s' is not a scope of the file; %s%s; give the scope path "
               "from the top, levels separated by '/'%s",
               want, known, known[listed_from] ? "" : "(none)", hint);
    return GP_ERR_INPUT;
}

gp_status vcd_state_start(vcd_state *s, const char *format, int64_t timescale_fs,
                          int64_t last_time_fs, diag_loc loc)
{
    if (s->sel_n > 0 && !s->scope_found)
        return vcd_state_scope_missing(s, loc);
    vcd_info info = {.format = format, .timescale_fs = timescale_fs,
                     .id_count = s->slot_count, .var_count = s->var_count,
                     .last_time_fs = last_time_fs, .header_pieces = s->header_pieces};
    return s->sink->start ? s->sink->start(s->sink->ctx, &info) : GP_OK;
}

gp_status vcd_state_flush(vcd_state *s)
{
    size_t n = s->batch_n;
    s->batch_n = 0;
    if (n == 0 || !s->sink->changes)
        return GP_OK;
    return s->sink->changes(s->sink->ctx, s->time, s->batch, n);
}

gp_status vcd_state_finish(vcd_state *s, int64_t end_fs)
{
    gp_status st = vcd_state_flush(s);
    if (st == GP_OK && s->sink->finish)
        st = s->sink->finish(s->sink->ctx, end_fs);
    return st;
}

/* Hands the sink every delivered bit that is not X: as X when switching
 * the dump off, as its value when switching it on again. */
gp_status vcd_state_dump(vcd_state *s, bool on)
{
    if (s->in_part)
        return GP_ERR_UNSUPPORTED;
    if (on == !s->dump_off)
        return GP_OK;
    s->dump_off = false;
    for (uint32_t id = 0; id < s->slot_count; id++) {
        const vcd_slot *slot = &s->slots[id];
        if (!slot->deliver)
            continue;
        for (uint32_t b = 0; b < slot->width; b++) {
            uint8_t v = s->vals[slot->off + b];
            if (v == VCD_X)
                continue;
            vcd_change *c = &s->batch[s->batch_n++];
            *c = (vcd_change){.id = id, .bit = b, .value = on ? v : VCD_X};
            gp_status st = s->batch_n == VCD_BATCH ? vcd_state_flush(s) : GP_OK;
            if (st != GP_OK)
                return st;
        }
    }
    s->dump_off = !on;
    return GP_OK;
}

/* Parses a decimal int32 of text[0..len). */
static bool vcd_parse_int32(const char *text, size_t len, int32_t *out)
{
    size_t i = len > 0 && text[0] == '-';
    if (i == len || len - i > 10)
        return false;
    long long v = 0;
    for (; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (text[i] - '0');
    }
    v = text[0] == '-' ? -v : v;
    if (v < INT32_MIN || v > INT32_MAX)
        return false;
    *out = (int32_t)v;
    return true;
}

/* Parses "[i]" or "[msb:lsb]" (blanks allowed inside) into decl. */
static bool vcd_parse_range(const char *text, size_t len, vcd_decl *decl)
{
    char inner[64];
    size_t n = 0;
    for (size_t i = 1; i + 1 < len; i++)
        if (text[i] != ' ' && text[i] != '\t') {
            if (n == sizeof inner - 1)
                return false;
            inner[n++] = text[i];
        }
    const char *colon = memchr(inner, ':', n);
    size_t left = colon ? (size_t)(colon - inner) : n;
    if (!vcd_parse_int32(inner, left, &decl->msb))
        return false;
    decl->lsb = decl->msb;
    if (colon && !vcd_parse_int32(colon + 1, n - left - 1, &decl->lsb))
        return false;
    decl->has_range = true;
    return true;
}

static bool vcd_is_blank(char c) { return c == ' ' || c == '\t'; }

bool vcd_parse_reference(const char *text, size_t len, char *name, vcd_decl *decl)
{
    bool escaped = len > 1 && text[0] == '\\';
    size_t name_end = 0; /* an escaped name runs to the first blank: brackets in it are its own */
    while (escaped && name_end < len && !vcd_is_blank(text[name_end]))
        name_end++;
    size_t n = len;
    decl->has_range = false;
    if (len > 0 && text[len - 1] == ']' && (!escaped || name_end < len)) {
        size_t open = len - 1;
        while (open > name_end && text[open] != '[')
            open--;
        if (text[open] != '[' || !vcd_parse_range(text + open, len - open, decl))
            return false;
        n = open;
    }
    while (n > 0 && vcd_is_blank(text[n - 1]))
        n--;
    if (escaped) {
        text++;
        n--;
    }
    if (n == 0 || memchr(text, ' ', n) || memchr(text, '\t', n))
        return false;
    memmove(name, text, n); /* name may be text itself */
    name[n] = '\0';
    decl->name = name;
    return true;
}

bool vcd_decl_settle_range(vcd_decl *decl)
{
    int64_t span = (int64_t)decl->msb - decl->lsb;
    if (decl->has_range)
        return (span < 0 ? -span : span) + 1 == decl->width;
    decl->msb = (int32_t)(decl->width - 1);
    decl->lsb = 0;
    return true;
}

/* Appends s[0..n) to buf (size bytes, a NUL kept room for) at *used, as
 * much as fits; *used counts every byte, as snprintf's result does. */
static void name_put(char *buf, size_t size, size_t *used, const char *s, size_t n)
{
    if (*used + 1 < size) {
        size_t room = size - 1 - *used;
        memcpy(buf + *used, s, n < room ? n : room);
    }
    *used += n;
}

int vcd_bit_name(const vcd_var *v, uint32_t bit, char *buf, size_t size)
{
    size_t used = 0, scope = strlen(v->scope);
    name_put(buf, size, &used, v->scope, scope);
    if (scope)
        name_put(buf, size, &used, "/", 1);
    name_put(buf, size, &used, v->name, strlen(v->name));
    if (v->has_range || v->width != 1) {
        char text[BITNAME_INDEX_MAX];
        int64_t index = v->msb >= v->lsb ? (int64_t)v->lsb + bit : (int64_t)v->lsb - bit;
        name_put(buf, size, &used, text, bitname_index(index, text));
    }
    if (size)
        buf[used < size ? used : size - 1] = '\0';
    return (int)used;
}
