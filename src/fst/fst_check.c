/* fst_check.c: an FST file's structure checked before fstapi reads it.
 * fstapi trusts the file: a block length of 0, 1 or past the end, or a
 * header whose counts size its allocations, makes it read out of bounds,
 * abort or exit(), and a file cut short reads as a shorter dump.  Here
 * the file is walked block by block (a tag byte, then a big-endian
 * 64-bit length that counts itself): every block lies inside the file,
 * has a known tag and at least its fixed fields, the header is whole and
 * its counts are bounded by the file's size, and the blocks end exactly
 * at the file's end.  What lies inside a compressed block is fstapi's to
 * read (docs/formats.md says what this leaves). */
#include "fst/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fst/fst_int.h"

enum {
    FST_CHECK_HDR_LEN = 329,   /* the header block's length field: its bytes after the tag */
    FST_CHECK_VC_FIXED = 8 + 24 + 24, /* a value-change block's length, start, end and
                                         memory, and its time table's three sizes */
    FST_CHECK_HANDLES_PER_BYTE = 64, /* handles (vars) a byte of file may declare, at most */
    FST_CHECK_INFLATE = 1100   /* bytes a compressed byte may give (zlib's most is 1032) */
};

static uint64_t be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v = v << 8 | p[k];
    return v;
}

/* The header block (at the file's start): its length, the endianness
 * test value, a finished file's times and counts within bounds. */
static const char *check_header(const unsigned char *h, uint64_t size, uint64_t *sections)
{
    static const double endtest = 2.7182818284590452354;
    unsigned char swapped[8];
    for (int k = 0; k < 8; k++)
        swapped[k] = h[25 + 7 - k];
    double d, e;
    memcpy(&d, h + 25, 8);
    memcpy(&e, swapped, 8);
    if (be64(h + 1) != FST_CHECK_HDR_LEN)
        return "its header has the wrong length";
    if (d != endtest && e != endtest)
        return "its header is damaged";
    if (be64(h + 9) == 0 && be64(h + 17) == 0)
        return "its header was never finished (the writer did not close the file)";
    uint64_t vars = be64(h + 49), handles = be64(h + 57), most = size * FST_CHECK_HANDLES_PER_BYTE;
    if (handles == 0 || handles > vars || vars > most || be64(h + 41) > most ||
        handles > ((uint64_t)1 << 31))
        return "its header's counts of scopes and variables do not fit its size";
    *sections = be64(h + 65);
    return NULL;
}

/* Whether tag is one a finished file may hold. */
static bool known_tag(int tag)
{
    return tag == FST_BL_VCDATA || tag == FST_BL_BLACKOUT || tag == FST_BL_GEOM ||
           tag == FST_BL_HIER || tag == FST_BL_VCDATA_DYN_ALIAS || tag == FST_BL_HIER_LZ4 ||
           tag == FST_BL_HIER_LZ4DUO || tag == FST_BL_VCDATA_DYN_ALIAS2;
}

static bool value_change_tag(int tag)
{
    return tag == FST_BL_VCDATA || tag == FST_BL_VCDATA_DYN_ALIAS ||
           tag == FST_BL_VCDATA_DYN_ALIAS2;
}

/* A value-change block of length len at `at`: its times in order, and the
 * memory its values and its time table say they take within what its
 * compressed bytes can give (fstapi allocates what they say). */
static const char *check_value_changes(FILE *f, uint64_t at, uint64_t len)
{
    unsigned char fixed[24], table[24];
    if (fseeko(f, (off_t)(at + 9), SEEK_SET) != 0 || fread(fixed, 1, 24, f) != 24 ||
        fseeko(f, (off_t)(at + 1 + len - 24), SEEK_SET) != 0 || fread(table, 1, 24, f) != 24)
        return "it is cut inside a block";
    uint64_t most = len * FST_CHECK_INFLATE + 65536;
    uint64_t uclen = be64(table), clen = be64(table + 8), items = be64(table + 16);
    if (be64(fixed) > be64(fixed + 8))
        return "a block's times are out of order";
    if (be64(fixed + 16) > most || clen > len || uclen > clen * FST_CHECK_INFLATE + 64 ||
        items > uclen)
        return "a block's sizes do not fit its length";
    return NULL;
}

/* The blocks after the header, each inside the file and ending where the
 * next begins; the value-change blocks counted into *sections. */
static const char *check_blocks(FILE *f, uint64_t size, uint64_t *sections)
{
    *sections = 0;
    for (uint64_t at = 1 + FST_CHECK_HDR_LEN; at < size;) {
        unsigned char head[9];
        if (size - at < sizeof head || fseeko(f, (off_t)at, SEEK_SET) != 0 ||
            fread(head, 1, sizeof head, f) != sizeof head)
            return "it is cut inside a block's header";
        uint64_t len = be64(head + 1);
        if (head[0] == FST_BL_SKIP)
            return "a block was never finished (the writer did not close the file)";
        if (!known_tag(head[0]))
            return "a block has an unknown tag";
        if (len < 8 || (value_change_tag(head[0]) && len < FST_CHECK_VC_FIXED))
            return "a block is shorter than its fixed fields";
        if (len > size - at - 1)
            return "a block runs past the end of the file (it is cut short)";
        const char *why = value_change_tag(head[0]) ? check_value_changes(f, at, len) : NULL;
        if (why)
            return why;
        *sections += value_change_tag(head[0]);
        at += 1 + len;
    }
    return NULL;
}

gp_status fst_check_file(const char *path, diag_ctx *d)
{
    diag_loc loc = {path, 0, 0};
    FILE *f = fopen(path, "rb");
    struct stat sb;
    unsigned char h[1 + FST_CHECK_HDR_LEN];
    const char *why = NULL;
    uint64_t declared = 0, found = 0;
    if (!f || fstat(fileno(f), &sb) != 0)
        why = "it cannot be read";
    else if (fread(h, 1, 1, f) == 1 && h[0] == FST_BL_ZWRAPPER)
        why = NULL; /* gzip-wrapped: fstapi inflates it to a file of its own, read as is */
    else if ((uint64_t)sb.st_size < sizeof h || h[0] != FST_BL_HDR ||
             fread(h + 1, 1, sizeof h - 1, f) != sizeof h - 1)
        why = "it does not start with an FST header";
    else if (!(why = check_header(h, (uint64_t)sb.st_size, &declared)) &&
             !(why = check_blocks(f, (uint64_t)sb.st_size, &found)) && found != declared)
        why = "its header counts more value-change blocks than it holds (it is cut short)";
    if (f)
        fclose(f);
    if (!why)
        return GP_OK;
    diag_error(d, 6109, loc, "'%s' is not a whole FST file: %s", path, why);
    return GP_ERR_PARSE;
}
#endif
