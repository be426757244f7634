/* vcd_codes.c: the VCD reader's identifier codes -> entries (vcd_code):
 * direct tables for codes of 1 to 4 characters '!'..'~' (the codes most
 * writers give out first; 4-character ones in VCD_QUAD_PAGES pages), a
 * hash over codes packed into 64 bits for the other ones of up to 8
 * bytes, and a string table beyond.  Entries are
 * made while the header is read and filled from the ids' slots at its end;
 * the value changes only look them up (vcd_changes.c). */
#include "util/mem.h"
#include "vcd/vcd_int.h"

#define VCD_PACKED_FIRST 1024 /* slots of the first packed table */

/* Moves the packed hash into a table twice as large. */
static gp_status vcd_packed_grow(vcd_text *r)
{
    size_t old_n = r->packed ? r->packed_mask + 1 : 0, n = old_n ? 2 * old_n : VCD_PACKED_FIRST;
    vcd_packed_slot *t = mem_zeroed(n, sizeof *t);
    if (!t)
        return vcd_text_nomem(r);
    for (size_t i = 0; i < old_n; i++)
        if (r->packed[i].key != 0)
            t[vcd_packed_find(t, n - 1, r->packed[i].key)] = r->packed[i];
    mem_free(r->packed);
    r->packed = t;
    r->packed_mask = n - 1;
    return GP_OK;
}

static gp_status vcd_packed_entry(vcd_text *r, const char *code, size_t n, vcd_code **out)
{
    if (2 * (r->packed_count + 1) > (r->packed ? r->packed_mask + 1 : 0)) {
        gp_status st = vcd_packed_grow(r);
        if (st != GP_OK)
            return st;
    }
    uint64_t key = vcd_pack(code, n);
    vcd_packed_slot *slot = &r->packed[vcd_packed_find(r->packed, r->packed_mask, key)];
    if (slot->key == 0) {
        slot->key = key;
        r->packed_count++;
    }
    *out = &slot->code;
    return GP_OK;
}

static gp_status vcd_long_entry(vcd_text *r, const char *code, size_t n, vcd_code **out)
{
    uint32_t sid = strtab_intern(&r->long_codes, code, n);
    if (sid == STRTAB_NONE ||
        (sid == r->long_entries.len && !vcd_code_vec_push(&r->long_entries, (vcd_code){0})))
        return vcd_text_nomem(r);
    *out = &r->long_entries.data[sid];
    return GP_OK;
}

gp_status vcd_codes_entry(vcd_text *r, const char *code, size_t n, vcd_code **out)
{
    size_t page = 0, index = 0;
    vcd_code_table table = vcd_code_place((const unsigned char *)code, n, &page, &index);
    if (table == VCD_IN_PACKED)
        return vcd_packed_entry(r, code, n, out);
    if (table == VCD_IN_LONG)
        return vcd_long_entry(r, code, n, out);
    vcd_code **t = table == VCD_IN_SHORT ? &r->short_codes : &r->pages[page];
    if (!*t && !(*t = mem_zeroed(table == VCD_IN_SHORT ? VCD_CODE_RADIX + VCD_PAGE : VCD_PAGE,
                                 sizeof **t)))
        return vcd_text_nomem(r);
    *out = &(*t)[index];
    return GP_OK;
}

static void vcd_fill_entry(const vcd_state *s, vcd_code *e)
{
    if (e->width == 0)
        return;
    const vcd_slot *slot = &s->slots[e->id];
    e->off = slot->off;
    e->kind = slot->kind;
    e->deliver = slot->deliver;
    e->scalar = e->deliver && e->width == 1;
}

void vcd_codes_fill(vcd_text *r)
{
    for (size_t i = 0; r->short_codes && i < VCD_CODE_RADIX + VCD_PAGE; i++)
        vcd_fill_entry(&r->st, &r->short_codes[i]);
    for (size_t p = 0; p < VCD_PAGES; p++)
        for (size_t i = 0; r->pages[p] && i < VCD_PAGE; i++)
            vcd_fill_entry(&r->st, &r->pages[p][i]);
    for (size_t i = 0; r->packed && i <= r->packed_mask; i++)
        vcd_fill_entry(&r->st, &r->packed[i].code);
    for (size_t i = 0; i < r->long_entries.len; i++)
        vcd_fill_entry(&r->st, &r->long_entries.data[i]);
}

void vcd_codes_free(vcd_text *r)
{
    mem_free(r->short_codes);
    for (size_t i = 0; i < VCD_PAGES; i++)
        mem_free(r->pages[i]);
    mem_free(r->packed);
    strtab_free(&r->long_codes);
    vcd_code_vec_free(&r->long_entries);
}
