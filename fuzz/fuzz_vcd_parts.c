/* fuzz_vcd_parts.c: arbitrary bytes written as a VCD file and as its gzip
 * copy, each read in tiny parts on four threads (a header of more than a
 * few bytes in pieces too), and the file in tiny
 * parts on one, must give what reading the file in order gives: the same messages, and for every bit the same
 * changes once a part's first change of a bit that repeats its value is
 * dropped (vcd.h's rule, applied here on its own).  Aborts otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/vec.h"
#include "vcd/vcd.h"

typedef struct change {
    int64_t time;
    uint32_t id, bit;
    uint8_t value;
} change;

VEC_DECLARE(vec_change, change)

typedef struct reading {
    uint32_t id_count;
    vec_change order;   /* the changes in file order */
    vec_change *part;   /* [n_parts]: each part's */
    uint32_t n_parts;
    int64_t end;
    char *messages;
    size_t messages_len;
    gp_status st;
} reading;

static gp_status on_start(void *ctx, const vcd_info *info)
{
    ((reading *)ctx)->id_count = info->id_count;
    return GP_OK;
}

static gp_status push_all(vec_change *v, int64_t t, const vcd_change *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!vec_change_push(v, (change){t, c[i].id, c[i].bit, c[i].value}))
            return GP_ERR_NOMEM;
    return GP_OK;
}

static gp_status on_changes(void *ctx, int64_t t, const vcd_change *c, size_t n)
{
    return push_all(&((reading *)ctx)->order, t, c, n);
}

static gp_status on_part_changes(void *ctx, uint32_t part, int64_t t, const vcd_change *c,
                                 size_t n)
{
    reading *r = ctx;
    if (part >= r->n_parts)
        abort();
    return push_all(&r->part[part], t, c, n);
}

static void drop_parts(reading *r)
{
    for (uint32_t k = 0; k < r->n_parts; k++)
        vec_change_free(&r->part[k]);
    free(r->part);
    r->part = NULL;
    r->n_parts = 0;
}

static gp_status on_parts(void *ctx, uint32_t n)
{
    reading *r = ctx;
    if (n <= r->n_parts) {
        drop_parts(r);
        return GP_OK;
    }
    vec_change *p = realloc(r->part, n * sizeof *p);
    if (!p)
        return GP_ERR_NOMEM;
    memset(p + r->n_parts, 0, (n - r->n_parts) * sizeof *p);
    r->part = p;
    r->n_parts = n;
    return GP_OK;
}

static gp_status on_finish(void *ctx, int64_t end)
{
    ((reading *)ctx)->end = end;
    return GP_OK;
}

/* Reads path on `threads` threads in parts of part_size bytes at least
 * (SIZE_MAX: none, in file order). */
static reading read_file(const char *path, uint32_t threads, size_t part_size)
{
    reading r = {0};
    FILE *out = open_memstream(&r.messages, &r.messages_len);
    diag_ctx *d = diag_new(out);
    vcd_sink sink = {.ctx = &r, .start = on_start, .changes = on_changes, .finish = on_finish,
                     .parts = on_parts, .part_changes = on_part_changes};
    vcd_options opt = {.threads = threads, .part_size = part_size, .chunk_size = 7};
    r.st = vcd_read(path, &opt, &sink, d);
    diag_free(d);
    fclose(out);
    return r;
}

/* The parts' changes in part order, each part's first change of a bit
 * dropped when it repeats the bit's value (X before its first change). */
static vec_change joined_parts(const reading *r)
{
    vec_change all = {0};
    size_t bits = 0;
    for (uint32_t k = 0; k < r->n_parts; k++)
        for (size_t i = 0; i < r->part[k].len; i++)
            bits = r->part[k].data[i].bit + 1 > bits ? r->part[k].data[i].bit + 1 : bits;
    uint8_t *value = malloc((size_t)r->id_count * bits + 1);
    if (!value)
        abort();
    memset(value, VCD_X, (size_t)r->id_count * bits + 1);
    for (uint32_t k = 0; k < r->n_parts; k++)
        for (size_t i = 0; i < r->part[k].len; i++) {
            change c = r->part[k].data[i];
            uint8_t *v = &value[(size_t)c.id * bits + c.bit];
            if (*v != c.value && !vec_change_push(&all, c))
                abort();
            *v = c.value;
        }
    free(value);
    return all;
}

/* The changes grouped by bit, each bit's in the order given (a stable
 * counting sort): what an event store keeps of them. */
static change *by_bit(const vec_change *v, uint32_t id_count)
{
    size_t bits = 1;
    for (size_t i = 0; i < v->len; i++)
        bits = v->data[i].bit + 1 > bits ? v->data[i].bit + 1 : bits;
    size_t keys = (size_t)id_count * bits;
    size_t *at = calloc(keys + 1, sizeof *at);
    change *out = malloc((v->len ? v->len : 1) * sizeof *out);
    if (!at || !out)
        abort();
    for (size_t i = 0; i < v->len; i++)
        at[(size_t)v->data[i].id * bits + v->data[i].bit + 1]++;
    for (size_t k = 0; k < keys; k++)
        at[k + 1] += at[k];
    for (size_t i = 0; i < v->len; i++)
        out[at[(size_t)v->data[i].id * bits + v->data[i].bit]++] = v->data[i];
    free(at);
    return out;
}

static void check_alike(const reading *one, const reading *many)
{
    if (one->st != many->st || strcmp(one->messages, many->messages) != 0)
        abort();
    if (one->st != GP_OK)
        return;
    vec_change joined = many->n_parts ? joined_parts(many) : (vec_change){0};
    const vec_change *b = many->n_parts ? &joined : &many->order;
    if (one->order.len != b->len || one->end != many->end)
        abort();
    change *x = by_bit(&one->order, one->id_count), *y = by_bit(b, one->id_count);
    for (size_t i = 0; i < b->len; i++)
        if (x[i].id != y[i].id || x[i].bit != y[i].bit || x[i].time != y[i].time ||
            x[i].value != y[i].value)
            abort();
    free(x);
    free(y);
    vec_change_free(&joined);
}

static void reading_free(reading *r)
{
    vec_change_free(&r->order);
    drop_parts(r);
    free(r->messages);
}

static bool write_files(const char *plain, const char *zipped, const uint8_t *data, size_t size)
{
    FILE *f = fopen(plain, "wb");
    gzFile gz = gzopen(zipped, "wb1");
    bool ok = f && gz && fwrite(data, 1, size, f) == size &&
              (size == 0 || gzwrite(gz, data, (unsigned)size) == (int)size);
    ok = (f && fclose(f) == 0) && ok;
    ok = (gz && gzclose(gz) == Z_OK) && ok;
    return ok;
}

/* Each message starts with the file's name: the gzip copy's, `zipped`,
 * which is the plain file's and ".gz", loses that ending there (only
 * there: a message may quote the file's text, which may hold anything). */
static void strip_gz(reading *r, const char *zipped)
{
    size_t n = strlen(zipped);
    for (char *line = r->messages; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, zipped, n) == 0)
            memmove(line + n - 3, line + n, strlen(line + n) + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char plain[64], zipped[80];
    snprintf(plain, sizeof plain, "/tmp/fuzz_vcd_parts_%d.vcd", (int)getpid());
    snprintf(zipped, sizeof zipped, "%s.gz", plain);
    if (size > 0 && (data[0] == 0 || data[0] >= 0xfe || data[0] == 0x1f))
        return 0; /* FST's first bytes and gzip's: not a VCD's text */
    if (write_files(plain, zipped, data, size)) {
        reading one = read_file(plain, 1, SIZE_MAX), many = read_file(plain, 4, 1);
        reading gz = read_file(zipped, 4, 1), one_thread = read_file(plain, 1, 1);
        strip_gz(&gz, zipped);
        check_alike(&one, &many);
        check_alike(&one, &gz);
        check_alike(&one, &one_thread);
        reading_free(&one_thread);
        reading_free(&one);
        reading_free(&many);
        reading_free(&gz);
    }
    remove(plain);
    remove(zipped);
    return 0;
}
