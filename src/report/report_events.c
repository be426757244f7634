/* report_events.c: an event store written as SAIF 2.0 (backward) and as
 * VCD (`gatepower resim --saif`, `--vcd`), each under a temporary name
 * first (report_write_whole). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report_int.h"
#include "util/mem.h"

/* The scope path's components, split at '/' or '.', into parts[]. */
static int split_scope(const char *scope, char *buf, size_t size, char **parts, int max)
{
    int n = 0;
    if (!scope || !*scope)
        return 0;
    snprintf(buf, size, "%s", scope);
    for (char *s = strtok(buf, "/."); s && n < max; s = strtok(NULL, "/."))
        parts[n++] = s;
    return n;
}

/* SAIF's identifiers escape every character other than letters, digits, _. */
static void put_saif_name(FILE *f, const char *name)
{
    for (const char *c = name; *c; c++) {
        if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
            !(*c >= '0' && *c <= '9') && *c != '_')
            fputc('\\', f);
        fputc(*c, f);
    }
}

/* One net's NET entry over [t0, end): time at 0, 1, X; 0<->1 changes; X
 * glitches (0-X-0, 1-X-1). */
static void put_saif_net(FILE *f, const design *dg, const events *ev, uint32_t n, int64_t t0,
                         int64_t end)
{
    int64_t at[3] = {0, 0, 0}, since = t0;
    uint64_t tc = 0, ig = 0;
    uint8_t v = 2, before_x = 2;
    for (uint64_t k = ev->net_ev0[n]; k < ev->net_ev0[n + 1]; k++) {
        int64_t t = events_time(ev, k);
        t = t < t0 ? t0 : t > end ? end : t;
        uint8_t nv = events_value(ev, k);
        at[v] += t - since;
        since = t;
        if (nv == v)
            continue;
        tc += v != 2 && nv != 2;
        ig += v == 2 && nv == before_x;
        before_x = v == 2 ? 2 : v;
        v = nv;
    }
    at[v] += end - since;
    fputs("      (", f);
    put_saif_name(f, design_net_name(dg, n));
    fprintf(f, " (T0 %lld) (T1 %lld) (TX %lld) (TC %llu) (IG %llu))\n", (long long)at[0],
            (long long)at[1], (long long)at[2], (unsigned long long)tc, (unsigned long long)ig);
}

/* The SAIF file's text (a report_stream_fn). */
typedef struct saif_job {
    const design *dg;
    const events *ev;
    const report_saif_info *info;
} saif_job;

static gp_status saif_text(FILE *f, void *ctx)
{
    const saif_job *job = ctx;
    const design *dg = job->dg;
    const events *ev = job->ev;
    const report_saif_info *info = job->info;
    char date[64], buf[1024], *parts[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%a %b %d %H:%M:%S %Y", localtime(&now));
    int64_t first = events_first_time(ev, ev->end_fs), end = ev->end_fs;
    int64_t t0 = first < end ? first : end;
    fprintf(f, "(SAIFILE\n(SAIFVERSION \"2.0\")\n(DIRECTION \"backward\")\n"
            "(DESIGN \"%s\")\n(DATE \"%s\")\n(VENDOR \"gatepower\")\n(PROGRAM_NAME \"%s\")\n"
            "(VERSION \"%s\")\n(DIVIDER / )\n(TIMESCALE 1 fs)\n(DURATION %lld)\n",
            info->design ? info->design : "", date, info->program ? info->program : "gatepower",
            info->version ? info->version : "", (long long)(end - t0));
    int depth = split_scope(info->scope, buf, sizeof buf, parts, 64);
    for (int k = 0; k < depth; k++) {
        fprintf(f, "(INSTANCE ");
        put_saif_name(f, parts[k]);
        fputc('\n', f);
    }
    fputs("  (NET\n", f);
    for (uint32_t n = 0; n < dg->n_nets && n < ev->n_nets; n++)
        put_saif_net(f, dg, ev, n, t0, end);
    fputs("  )\n", f);
    for (int k = 0; k < depth; k++)
        fputs(")\n", f);
    fputs(")\n", f);
    return GP_OK;
}

gp_status report_write_events_saif(const char *path, const design *dg, const events *ev,
                                   const report_saif_info *info, diag_ctx *d)
{
    saif_job job = {dg, ev, info};
    return report_write_whole(path, saif_text, &job, 9010, 9011, d);
}

/* A VCD identifier for index i: base-94 over the printable characters. */
static void put_vcd_id(FILE *f, uint32_t i)
{
    do {
        fputc('!' + (int)(i % 94), f);
        i /= 94;
    } while (i);
}

/* A net as a 1-bit variable: a simple identifier as it is, any other name
 * (such as "sum[3]", a bit of a flattened vector) escaped, "\\sum[3]", which
 * VCD readers take as the scalar of that name. */
static void put_vcd_var(FILE *f, const char *name, uint32_t id)
{
    bool simple = !(*name >= '0' && *name <= '9') && *name != '$';
    for (const char *c = name; *c; c++)
        simple &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                  (*c >= '0' && *c <= '9') || *c == '_' || *c == '$';
    fputs("$var wire 1 ", f);
    put_vcd_id(f, id);
    fprintf(f, " %s%s $end\n", simple ? "" : "\\", name);
}

/* One event to write: its time and index in the store (the store is in net
 * order, so events of one time ordered by index are ordered by net). */
typedef struct vcd_item {
    int64_t t;
    uint64_t k;
} vcd_item;

/* Sorts items by time, keeping the order of items of one time (listed by
 * index): an LSD radix sort on the time above the earliest, in as few passes
 * of at most 16 bits as its range needs; false when out of memory. */
static bool sort_by_time(vcd_item *items, uint64_t n)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint64_t k = 0; k < n; k++) {
        lo = items[k].t < lo ? items[k].t : lo;
        hi = items[k].t > hi ? items[k].t : hi;
    }
    uint64_t range = n ? (uint64_t)hi - (uint64_t)lo : 0;
    int bits = 0;
    while (bits < 64 && range >> bits)
        bits++;
    int passes = (bits + 15) / 16, width = passes ? (bits + passes - 1) / passes : 0;
    uint64_t mask = ((uint64_t)1 << width) - 1;
    vcd_item *tmp = mem_alloc((n ? n : 1) * sizeof *tmp), *from = items, *to = tmp;
    size_t *bucket = mem_alloc(65536 * sizeof *bucket);
    bool ok = tmp && bucket;
    for (int shift = 0; ok && shift < bits; shift += width) {
        memset(bucket, 0, (mask + 1) * sizeof *bucket);
        for (uint64_t k = 0; k < n; k++)
            bucket[((uint64_t)from[k].t - (uint64_t)lo) >> shift & mask]++;
        for (size_t b = 0, at = 0; b <= mask; b++) {
            size_t c = bucket[b];
            bucket[b] = at;
            at += c;
        }
        for (uint64_t k = 0; k < n; k++)
            to[bucket[((uint64_t)from[k].t - (uint64_t)lo) >> shift & mask]++] = from[k];
        vcd_item *swap = from;
        from = to;
        to = swap;
    }
    if (ok && from != items)
        memcpy(items, from, n * sizeof *items);
    mem_free(tmp);
    mem_free(bucket);
    return ok;
}

/* The body's output: a large buffer written out when full. */
typedef struct vcd_out {
    FILE *f;
    size_t len;
    char buf[1 << 20];
} vcd_out;

static void out_flush(vcd_out *o)
{
    fwrite(o->buf, 1, o->len, o->f);
    o->len = 0;
}

/* Room for `n` more bytes (n well under the buffer's size). */
static char *out_room(vcd_out *o, size_t n)
{
    if (o->len + n > sizeof o->buf)
        out_flush(o);
    return o->buf + o->len;
}

/* "#<time>\n". */
static void out_time(vcd_out *o, int64_t t)
{
    char digits[24], *p = out_room(o, 24);
    uint64_t u = t < 0 ? 0 - (uint64_t)t : (uint64_t)t;
    int n = 0;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    *p++ = '#';
    if (t < 0)
        *p++ = '-';
    while (n)
        *p++ = digits[--n];
    *p++ = '\n';
    o->len = (size_t)(p - o->buf);
}

/* Each name's identifier code, put_vcd_id's: code[id * 8] on, code_len[id]. */
static bool vcd_codes(uint32_t count, char **code, uint8_t **code_len)
{
    *code = mem_calloc((size_t)count + 1, 8);
    *code_len = mem_alloc((size_t)count + 1);
    if (!*code || !*code_len)
        return false;
    for (uint32_t id = 0; id < count; id++) {
        uint8_t n = 0;
        for (uint32_t i = id; n == 0 || i; i /= 94)
            (*code)[(size_t)id * 8 + n++] = (char)('!' + (int)(i % 94));
        (*code_len)[id] = n;
    }
    return true;
}

/* The names of each net: names[first[n] .. first[n + 1]) (ids in net_names);
 * false when out of memory. */
static bool names_by_net(const design *dg, uint32_t n_nets, uint32_t **first, uint32_t **names)
{
    uint32_t count = strtab_count(&dg->net_names);
    *first = mem_calloc((size_t)n_nets + 2, sizeof **first);
    *names = mem_alloc((count ? count : 1) * sizeof **names);
    if (!*first || !*names)
        return false;
    for (uint32_t id = 0; id < count; id++)
        if (dg->net_of_name[id] < n_nets)
            (*first)[dg->net_of_name[id] + 2]++;
    for (uint32_t n = 0; n < n_nets; n++)
        (*first)[n + 2] += (*first)[n + 1];
    for (uint32_t id = 0; id < count; id++)
        if (dg->net_of_name[id] < n_nets)
            (*names)[(*first)[dg->net_of_name[id] + 1]++] = id;
    return true;
}

static void put_vcd_header(FILE *f, const design *dg, const char *scope)
{
    char buf[1024], *parts[64];
    int depth = split_scope(scope, buf, sizeof buf, parts, 64);
    fputs("$version gatepower resim $end\n$timescale 1fs $end\n", f);
    for (int k = 0; k < depth; k++)
        fprintf(f, "$scope module %s $end\n", parts[k]);
    for (uint32_t id = 0; id < strtab_count(&dg->net_names); id++)
        put_vcd_var(f, strtab_str(&dg->net_names, id), id);
    for (int k = 0; k < depth; k++)
        fputs("$upscope $end\n", f);
    fputs("$enddefinitions $end\n", f);
}

/* The events in time order, each as one line per name of its net. */
static void put_vcd_body(vcd_out *o, const events *ev, const vcd_item *items, uint64_t n_items,
                         const uint32_t *net_of, const uint32_t *first, const uint32_t *names, const char *code,
                         const uint8_t *code_len)
{
    int64_t now = INT64_MIN;
    for (uint64_t k = 0; k < n_items; k++) {
        if (items[k].t != now)
            out_time(o, now = items[k].t);
        uint32_t net = net_of[items[k].k];
        char value = "01x"[events_value(ev, items[k].k) < 3 ? events_value(ev, items[k].k) : 2];
        for (uint32_t j = first[net]; j < first[net + 1]; j++) {
            char *p = out_room(o, 10);
            *p++ = value;
            memcpy(p, code + (size_t)names[j] * 8, 8);
            p[code_len[names[j]]] = '\n';
            o->len += 2u + code_len[names[j]];
        }
    }
    if (ev->end_fs > now)
        out_time(o, ev->end_fs);
    out_flush(o);
}
/* The VCD file's text (a report_stream_fn): every name of a net, aliases
 * included, is a variable of its own (some readers do not take two
 * variables of one id). */
typedef struct vcd_job {
    const design *dg;
    const events *ev;
    const char *scope;
    const char *path;
    diag_ctx *d;
} vcd_job;

static gp_status vcd_text(FILE *f, void *ctx)
{
    const vcd_job *job = ctx;
    const design *dg = job->dg;
    const events *ev = job->ev;
    uint32_t n_nets = ev->n_nets < dg->n_nets ? ev->n_nets : dg->n_nets, *first = NULL, *names = NULL;
    vcd_item *items = mem_alloc((ev->n_events ? ev->n_events : 1) * sizeof *items);
    uint32_t *net_of = mem_alloc((ev->n_events ? ev->n_events : 1) * sizeof *net_of);
    vcd_out *o = mem_alloc(sizeof *o);
    char *code = NULL;
    uint8_t *code_len = NULL;
    uint64_t n_items = 0;
    for (uint32_t n = 0; items && net_of && n < n_nets; n++)
        for (uint64_t k = ev->net_ev0[n]; k < ev->net_ev0[n + 1]; k++) {
            items[n_items++] = (vcd_item){events_time(ev, k), k};
            net_of[k] = n;
        }
    bool ok = names_by_net(dg, n_nets, &first, &names) && items && net_of && o &&
              vcd_codes(strtab_count(&dg->net_names), &code, &code_len) &&
              sort_by_time(items, n_items);
    if (!ok) {
        diag_error(job->d, 9012, DIAG_NOWHERE, "out of memory while writing '%s'", job->path);
    } else {
        put_vcd_header(f, dg, job->scope);
        o->f = f;
        o->len = 0;
        put_vcd_body(o, ev, items, n_items, net_of, first, names, code, code_len);
    }
    mem_free(items);
    mem_free(net_of);
    mem_free(first);
    mem_free(names);
    mem_free(code);
    mem_free(code_len);
    mem_free(o);
    return ok ? GP_OK : GP_ERR_NOMEM;
}

gp_status report_write_events_vcd(const char *path, const design *dg, const events *ev,
                                  const char *scope, diag_ctx *d)
{
    vcd_job job = {dg, ev, scope, path, d};
    return report_write_whole(path, vcd_text, &job, 9013, 9014, d);
}
