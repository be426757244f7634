/* bench_files.c: the large generated case (bench_gen_large: heavy-tailed
 * activity with glitches) written as the files a user gives gatepower, so
 * that the from-files benchmarks can be rebuilt by anyone from a seed.
 *
 * usage: bench_files DIR [--gates N] [--cycles C] [--seed S] [--fst] [--fst-pack P]
 *                         [--check] [--no-regs] [--no-full] [--sdf] [--threads T]
 *
 * writes (DIR made where missing)
 *        DIR/cells.lib   the generator's library (10 ns clock on `clk`)
 *        DIR/netlist.v   module top: N random gates, 10% flip-flops
 *        DIR/full.vcd    every net's activity (scope top, timescale 1 ps)
 *        DIR/regs.vcd    only the primary inputs' and the flip-flops' outputs
 *                        (the dump re-simulation starts from; not with --no-regs)
 *                        (full.vcd is not written with --no-full: a re-simulation
 *                        case)
 *        DIR/netlist.sdf with --sdf: every arc's delay as computed from the
 *                        library (NLDM) and a wire delay per input pin, 0-20 ps
 *                        (write_sdf)
 *        DIR/full.fst    with --fst: full.vcd as FST, through fstapi's writer, its
 *                        chains packed with P: zlib (fstapi's default), lz4
 *                        (Verilator's) or fastlz
 * and prints the case's size and skew; with --check, reads full.vcd (and
 * full.fst) back through events_read and compares the store with the one
 * generated, bit for bit.  `gatepower power --lib DIR/cells.lib
 * --netlist DIR/netlist.v --activity DIR/full.vcd --scope top --period 10ns`
 * analyses it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_gen.h"
#include "util/mem.h"
#ifdef GATEPOWER_HAVE_FST
#include "fstapi.h"
#endif

#define OUT_BUF ((size_t)1 << 22)
#define SLOTS_PER_CYCLE 1000 /* bench_gen's event times: 10 ps apart */
#define SLOT_FS 10000
#define FST_BLOCK_CYCLES 32  /* cycles an FST value-change block holds, as a simulator
                                that flushes its trace now and then writes them */

typedef struct dump_out {
    FILE *f;
    void *fst;          /* or an FST writer */
    uint32_t *handle;   /* FST handle per net */
    char *buf;
    size_t len;
    bool failed;
} dump_out;

static void out_flush(dump_out *o)
{
    if (o->f && o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = true;
    o->len = 0;
}

static void out_text(dump_out *o, const char *s, size_t n)
{
    if (o->len + n > OUT_BUF)
        out_flush(o);
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void out_str(dump_out *o, const char *s) { out_text(o, s, strlen(s)); }

static void out_time(dump_out *o, uint64_t ps)
{
#ifdef GATEPOWER_HAVE_FST
    if (o->fst) {
        fstWriterEmitTimeChange(o->fst, ps);
        return;
    }
#endif
    char line[32];
    int n = snprintf(line, sizeof line, "#%llu\n", (unsigned long long)ps);
    out_text(o, line, (size_t)n);
}

static void out_change(dump_out *o, uint32_t net, uint8_t value)
{
    static const char digit[] = "01x";
#ifdef GATEPOWER_HAVE_FST
    if (o->fst) {
        fstWriterEmitValueChange(o->fst, o->handle[net], &digit[value]);
        return;
    }
#endif
    char line[16];
    line[0] = digit[value];
    size_t n = 1 + bench_vcd_code(net, line + 1);
    line[n++] = '\n';
    out_text(o, line, n);
}

static void out_header(dump_out *o, const design *dg, const bool *dumped)
{
    char line[256], code[8];
#ifdef GATEPOWER_HAVE_FST
    if (o->fst) {
        fstWriterSetTimescale(o->fst, -12);
        fstWriterSetScope(o->fst, FST_ST_VCD_MODULE, "top", NULL);
        for (uint32_t n = 0; n < dg->n_nets; n++)
            if (dumped[n])
                o->handle[n] = fstWriterCreateVar(o->fst, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1,
                                                  design_net_name(dg, n), 0);
        fstWriterSetUpscope(o->fst);
        return;
    }
#endif
    out_str(o, "$timescale 1ps $end\n$scope module top $end\n");
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        if (!dumped[n])
            continue;
        code[bench_vcd_code(n, code)] = '\0';
        int k = snprintf(line, sizeof line, "$var wire 1 %s %s $end\n", code,
                         design_net_name(dg, n));
        out_text(o, line, (size_t)k);
    }
    out_str(o, "$upscope $end\n$enddefinitions $end\n");
}

/* One change of a cycle: its event and time slot. */
typedef struct cycle_change {
    uint64_t event;
    uint32_t net, slot;
} cycle_change;

typedef struct cycle_list {
    cycle_change *c, *sorted;
    size_t n, cap;
    uint32_t slot_n[SLOTS_PER_CYCLE + 1];
} cycle_list;

static bool cycle_push(cycle_list *l, cycle_change x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1 << 20;
        cycle_change *c = mem_realloc(l->c, cap * sizeof *c);
        cycle_change *s = c ? mem_realloc(l->sorted, cap * sizeof *s) : NULL;
        if (c)
            l->c = c;
        if (!s)
            return false;
        l->sorted = s;
        l->cap = cap;
    }
    l->c[l->n++] = x;
    return true;
}

/* The cycle's changes in time order (stable: nets in order within a slot). */
static void cycle_sort(cycle_list *l)
{
    memset(l->slot_n, 0, sizeof l->slot_n);
    for (size_t i = 0; i < l->n; i++)
        l->slot_n[l->c[i].slot + 1]++;
    for (uint32_t s = 0; s < SLOTS_PER_CYCLE; s++)
        l->slot_n[s + 1] += l->slot_n[s];
    for (size_t i = 0; i < l->n; i++)
        l->sorted[l->slot_n[l->c[i].slot]++] = l->c[i];
}

static void out_initial(dump_out *o, const events *ev, const bool *dumped)
{
    out_time(o, 0);
    if (!o->fst)
        out_str(o, "$dumpvars\n");
    for (uint32_t net = 0; net < ev->n_nets; net++)
        if (dumped[net] && ev->net_ev0[net + 1] > ev->net_ev0[net])
            out_change(o, net, events_value(ev, ev->net_ev0[net]));
    if (!o->fst)
        out_str(o, "$end\n");
}

/* Every dumped net's events, cycle by cycle: bench_gen puts a net's events
 * of a cycle at distinct slots of 10 ps inside it. */
static bool out_body(dump_out *o, const bench_case *bc, const bool *dumped, uint32_t cycles)
{
    const events *ev = bc->ev;
    uint64_t *next = mem_alloc(ev->n_nets * sizeof *next);
    cycle_list l = {0};
    bool ok = next != NULL;
    out_initial(o, ev, dumped);
    for (uint32_t net = 0; ok && net < ev->n_nets; net++)
        next[net] = ev->net_ev0[net] + 1;
    for (uint32_t c = 0; ok && c < cycles && !o->failed; c++) {
        int64_t start = (int64_t)c * bc->period_fs, end = start + bc->period_fs;
        l.n = 0;
#ifdef GATEPOWER_HAVE_FST
        if (o->fst && c > 0 && c % FST_BLOCK_CYCLES == 0)
            fstWriterFlushContext(o->fst);
#endif
        for (uint32_t net = 0; ok && net < ev->n_nets; net++)
            for (uint64_t *k = &next[net]; *k < ev->net_ev0[net + 1] && events_time(ev, *k) < end; ++*k)
                if (dumped[net])
                    ok = cycle_push(&l, (cycle_change){*k, net,
                                                       (uint32_t)((events_time(ev, *k) - start) / SLOT_FS)});
        cycle_sort(&l);
        uint64_t cycle_ps = (uint64_t)(start / 1000);
        for (size_t k = 0; k < l.n; k++) {
            const cycle_change *x = &l.sorted[k];
            if (k == 0 || l.sorted[k - 1].slot != x->slot)
                out_time(o, cycle_ps + (uint64_t)x->slot * (SLOT_FS / 1000));
            out_change(o, x->net, events_value(ev, x->event));
        }
    }
    out_time(o, (uint64_t)cycles * (uint64_t)(bc->period_fs / 1000));
    mem_free(next);
    mem_free(l.c);
    mem_free(l.sorted);
    return ok && !o->failed;
}

/* Writes one dump of the nets marked in `dumped`. */
static bool write_dump(const char *path, int fst_pack, const bench_case *bc, const bool *dumped,
                       uint32_t cycles)
{
    dump_out o = {0};
    if (fst_pack >= 0) {
#ifdef GATEPOWER_HAVE_FST
        o.fst = fstWriterCreate(path, 1);
        o.handle = mem_calloc(bc->dg->n_nets, sizeof *o.handle);
        if (!o.fst || !o.handle)
            return false;
        fstWriterSetPackType(o.fst, fst_pack);
#else
        fprintf(stderr, "bench_files: no FST writer in this build\n");
        return false;
#endif
    } else if (!(o.f = fopen(path, "w")) || !(o.buf = mem_alloc(OUT_BUF))) {
        return false;
    }
    out_header(&o, bc->dg, dumped);
    bool ok = out_body(&o, bc, dumped, cycles);
    out_flush(&o);
#ifdef GATEPOWER_HAVE_FST
    if (o.fst)
        fstWriterClose(o.fst);
#endif
    ok = (!o.f || fclose(o.f) == 0) && ok && !o.failed;
    mem_free(o.buf);
    mem_free(o.handle);
    return ok;
}

/* The register-only dump's nets: those no combinational gate drives. */
static bool *register_nets(const design *dg)
{
    bool *reg = mem_calloc(dg->n_nets ? dg->n_nets : 1, sizeof *reg);
    for (uint32_t n = 0; reg && n < dg->n_nets; n++) {
        uint32_t drv = dg->net_driver[n];
        reg[n] = drv == DESIGN_NONE || dg->inst_level[dg->pin_inst[drv]] == 0;
    }
    return reg;
}

/* A wire's delay into load pin p of net n, ps: 0-20 from a hash, rise and
 * fall equal but on one wire in 64, whose fall is 40 ps longer (a pulse
 * shorter than that reaches the pin out of order). */
static void wire_ps(uint32_t n, uint32_t p, unsigned *rise, unsigned *fall)
{
    uint64_t h = ((uint64_t)n << 32 | p) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    *rise = (unsigned)(h % 21);
    *fall = *rise + ((h >> 16) % 64 == 0 ? 40 : 0);
}

/* The SDF's INTERCONNECTs: every net's driver (instance pin, or the port)
 * to each of its input pins. */
static void sdf_wires(FILE *f, const design *dg)
{
    fputs(" (CELL\n  (CELLTYPE \"top\")\n  (INSTANCE)\n  (DELAY\n   (ABSOLUTE\n", f);
    for (uint32_t n = 0; n < dg->n_nets; n++) {
        uint32_t drv = dg->net_driver[n];
        char from[256];
        if (drv == DESIGN_NONE)
            snprintf(from, sizeof from, "%s", design_net_name(dg, n));
        else
            snprintf(from, sizeof from, "%s/%s", design_inst_name(dg, dg->pin_inst[drv]),
                     design_lib_pin(dg, drv)->name);
        for (uint32_t k = dg->net_pin0[n]; k < dg->net_pin0[n + 1]; k++) {
            uint32_t p = dg->net_pins[k];
            if (p == drv || design_lib_pin(dg, p)->dir != LIB_DIR_INPUT)
                continue;
            unsigned r, fl;
            wire_ps(n, p, &r, &fl);
            fprintf(f, "    (INTERCONNECT %s %s/%s (%u:%u:%u) (%u:%u:%u))\n", from,
                    design_inst_name(dg, dg->pin_inst[p]), design_lib_pin(dg, p)->name, r, r,
                    r, fl, fl, fl);
        }
    }
    fputs("   )\n  )\n )\n", f);
}

/* Instance i's IOPATHs: each delay arc as the design computed it (NLDM). */
static void sdf_instance(FILE *f, const design *dg, uint32_t i)
{
    const lib_cell *c = dg->inst_cell[i];
    fprintf(f, " (CELL\n  (CELLTYPE \"%s\")\n  (INSTANCE %s)\n  (DELAY\n   (ABSOLUTE\n",
            c->name, design_inst_name(dg, i));
    for (uint32_t a = 0; a < c->n_arcs; a++) {
        const lib_arc *arc = &c->arcs[a];
        double rise = dg->arc_delay[DESIGN_RISE][dg->inst_arc0[i] + a] / 1000;
        double fall = dg->arc_delay[DESIGN_FALL][dg->inst_arc0[i] + a] / 1000;
        if (arc->related == LIB_NONE || isnan(rise) || isnan(fall))
            continue;
        const char *edge = arc->type == LIB_TT_RISING_EDGE ? "posedge " : "";
        fprintf(f, "    (IOPATH %s%s%s%s %s (%.3f:%.3f:%.3f) (%.3f:%.3f:%.3f))\n",
                *edge ? "(" : "", edge, c->pins[arc->related].name, *edge ? ")" : "",
                c->pins[arc->pin].name, rise, rise, rise, fall, fall, fall);
    }
    fputs("   )\n  )\n )\n", f);
}

/* DIR/netlist.sdf: the wires' delays and the instances' arcs, 1 ps units. */
static bool write_sdf(const char *path, const design *dg)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs("(DELAYFILE\n (SDFVERSION \"3.0\")\n (DESIGN \"top\")\n (DIVIDER /)\n"
          " (TIMESCALE 1ps)\n", f);
    sdf_wires(f, dg);
    for (uint32_t i = 0; i < dg->n_insts; i++)
        sdf_instance(f, dg, i);
    fputs(")\n", f);
    return fclose(f) == 0;
}

/* Reads the dump at `path` back and compares it with the generated store. */
static bool check_dump(const char *path, const bench_case *bc, diag_ctx *d)
{
    events *ev = NULL;
    events_stats st;
    events_options eo = {.scope = "top"};
    double t0 = progress_now_seconds();
    bool ok = events_read(bc->dg, path, &eo, &ev, &st, d) == GP_OK;
    const events *g = bc->ev;
    ok = ok && ev->n_events == g->n_events && ev->end_fs == g->end_fs &&
         memcmp(ev->net_ev0, g->net_ev0, (g->n_nets + 1) * sizeof *g->net_ev0) == 0 &&
         memcmp(ev->word, g->word, g->n_events * sizeof *g->word) == 0;
    printf("%s: read back in %.2f s (%u parts): %s\n", path, progress_now_seconds() - t0,
           st.parts, ok ? "the generated store, bit for bit" : "DIFFERS from the generated store");
    events_free(ev);
    return ok;
}

/* fstapi's pack type named P (fstWriterPackType's values), or -1. */
static int fst_pack_type(const char *p)
{
    static const char *const names[] = {"zlib", "fastlz", "lz4"};
    for (int k = 0; k < 3; k++)
        if (strcmp(p, names[k]) == 0)
            return k;
    return -1;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_files DIR [--gates N] [--cycles C] [--seed S] [--fst] "
                    "[--fst-pack zlib|lz4|fastlz] [--check] [--no-regs] [--no-full] "
                    "[--sdf] [--threads T]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-')
        return usage();
    bench_gen_options opt = {.gates = 1000000, .cycles = 500, .keep_dir = argv[1]};
    bool fst = false, check = false, regs_dump = true, full_dump = true, sdf = false;
    int fst_pack = 0; /* FST_WR_PT_ZLIB */
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--fst") == 0)
            fst = true;
        else if (i + 1 < argc && strcmp(argv[i], "--fst-pack") == 0 &&
                 (fst_pack = fst_pack_type(argv[++i])) >= 0)
            fst = true;
        else if (strcmp(argv[i], "--check") == 0)
            check = true;
        else if (strcmp(argv[i], "--no-regs") == 0)
            regs_dump = false;
        else if (strcmp(argv[i], "--no-full") == 0)
            full_dump = false;
        else if (strcmp(argv[i], "--sdf") == 0)
            sdf = true;
        else if (i + 1 < argc && strcmp(argv[i], "--gates") == 0)
            opt.gates = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--cycles") == 0)
            opt.cycles = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
            opt.seed = strtoull(argv[++i], NULL, 0);
        else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0)
            opt.threads = atoi(argv[++i]);
        else
            return usage();
    }
    if (opt.cycles == 0)
        return usage();
    if (mkdir(argv[1], 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bench_files: cannot make the directory '%s': %s\n", argv[1],
                strerror(errno));
        return 1;
    }
    diag_ctx *d = diag_new(stderr);
    bench_case bc = {0};
    bench_gen_stats st;
    if (!d || !bench_gen_large(&bc, &opt, &st, d)) {
        fprintf(stderr, "bench_files: could not make the case\n");
        return 1;
    }
    bench_gen_print_stats(&st);
    bool *all = mem_alloc(bc.dg->n_nets ? bc.dg->n_nets : 1), *regs = register_nets(bc.dg);
    char path[4096];
    bool ok = all && regs;
    if (ok)
        memset(all, 1, bc.dg->n_nets);
    if (ok && sdf) {
        snprintf(path, sizeof path, "%s/netlist.sdf", argv[1]);
        ok = write_sdf(path, bc.dg);
        printf("%s: %s\n", path, ok ? "written" : "FAILED");
    }
    const char *const names[] = {"full.vcd", "regs.vcd", "full.fst"};
    for (int k = 0; ok && k < (fst ? 3 : 2); k++) {
        if ((k == 1 && !regs_dump) || (k == 0 && !full_dump))
            continue;
        double t0 = progress_now_seconds();
        snprintf(path, sizeof path, "%s/%s", argv[1], names[k]);
        ok = write_dump(path, k == 2 ? fst_pack : -1, &bc, k == 1 ? regs : all, st.cycles);
        printf("%s: %s in %.1f s\n", path, ok ? "written" : "FAILED", progress_now_seconds() - t0);
        if (ok && check && k != 1)
            ok = check_dump(path, &bc, d);
    }
    mem_free(all);
    mem_free(regs);
    bench_case_free(&bc);
    diag_free(d);
    return ok ? 0 : 1;
}
