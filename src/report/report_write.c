/* report_write_all: the output directory, and each file written by its
 * writer under a temporary name and closed with its errors reported; only
 * when every file is whole do they take their names, so that a run that
 * fails (a full disk) leaves the previous run's files as they were; and
 * report_write_whole, the same for one file. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report_int.h"
#include "util/mem.h"

gp_status report_nomem(const report_ctx *c)
{
    diag_error(c->d, 8500, DIAG_NOWHERE, "out of memory writing '%s'", c->path);
    return GP_ERR_NOMEM;
}

gp_status report_write_failed(const report_ctx *c, int err)
{
    diag_error(c->d, 8501, DIAG_NOWHERE,
               "cannot write '%s': %s; check the free space and the permissions of the output "
               "directory",
               c->path, strerror(err));
    return GP_ERR_IO;
}

static gp_status mkdir_failed(const char *path, int err, diag_ctx *d)
{
    diag_error(d, 8502, DIAG_NOWHERE,
               "cannot create the output directory '%s': %s; choose another --out directory",
               path, strerror(err));
    return GP_ERR_IO;
}

/* mkdir -p: each prefix of `dir` ending before a '/', then dir itself. */
static gp_status make_dirs(const char *dir, diag_ctx *d)
{
    size_t len = strlen(dir);
    char *path = mem_alloc(len + 1);
    if (!path) {
        diag_error(d, 8503, DIAG_NOWHERE, "out of memory creating the directory '%s'", dir);
        return GP_ERR_NOMEM;
    }
    memcpy(path, dir, len + 1);
    gp_status st = GP_OK;
    for (size_t i = 1; i <= len && st == GP_OK; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char saved = path[i];
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            st = mkdir_failed(path, errno, d);
        path[i] = saved;
    }
    mem_free(path);
    struct stat sb;
    if (st == GP_OK && stat(dir, &sb) != 0)
        st = mkdir_failed(dir, errno, d);
    else if (st == GP_OK && !S_ISDIR(sb.st_mode))
        st = mkdir_failed(dir, ENOTDIR, d); /* an existing file of that name */
    return st;
}

typedef gp_status (*report_file_writer)(FILE *out, const report_ctx *c);

static gp_status text_file(FILE *out, const report_ctx *c)
{
    report_write_text(out, c->dg, c->r, &c->opt);
    return GP_OK;
}

static gp_status json_file(FILE *out, const report_ctx *c)
{
    report_write_json(out, c->dg, c->r, &c->opt);
    return GP_OK;
}

/* Closes a stream written to: 0, or the error its writing or closing
 * met first (a full disk, say). */
static int close_written(FILE *out)
{
    int err = ferror(out) ? (errno ? errno : EIO) : 0;
    if (fclose(out) != 0 && !err)
        err = errno ? errno : EIO;
    return err;
}

/* Opens c->path, runs the writer and closes it; a failed stream is
 * reported once, whichever step saw it. */
static gp_status write_file(report_ctx *c, report_file_writer writer)
{
    FILE *out = fopen(c->write_path, "w");
    if (!out)
        return report_write_failed(c, errno);
    gp_status st = writer(out, c);
    int err = close_written(out);
    if (st == GP_OK && err)
        st = report_write_failed(c, err);
    return st;
}

/* out_dir + "/" + prefix + name into a fresh string; NULL when out of
 * memory. */
static char *join_path(const char *dir, const char *prefix, const char *name)
{
    size_t n = strlen(dir) + strlen(prefix) + strlen(name) + 2;
    char *path = mem_alloc(n);
    if (path)
        snprintf(path, n, "%s/%s%s", dir, prefix, name);
    return path;
}

/* The temporary name a file is written under: hidden, in the same
 * directory (a rename within one file system is atomic). */
#define REPORT_TMP_PREFIX ".gatepower-tmp."

static const struct report_file {
    const char *name;
    report_file_writer writer; /* NULL: waveform.fst, which fstapi opens */
} report_files[] = {
    {"report.txt", text_file},
    {"report.json", json_file},
    {"hotspots.txt", report_hotspots_file},
    {"instances.csv", report_instances_file},
    {"cells.csv", report_cells_file},
    {"waveform.csv", report_waveform_csv_file},
    {"waveform.vcd", report_vcd_file},
    {"waveform.svg", report_svg_file},
    {"waveform.fst", NULL},
};

#define REPORT_FILES (sizeof report_files / sizeof report_files[0])

/* Writes file i under its temporary name. */
static gp_status write_temporary(report_ctx *c, const char *out_dir, size_t i)
{
    char *tmp = join_path(out_dir, REPORT_TMP_PREFIX, report_files[i].name);
    char *path = join_path(out_dir, "", report_files[i].name);
    c->path = path ? path : report_files[i].name;
    c->write_path = tmp;
    gp_status st = !tmp || !path            ? report_nomem(c)
                   : report_files[i].writer ? write_file(c, report_files[i].writer)
                                            : report_fst_file(c);
    mem_free(tmp);
    mem_free(path);
    return st;
}

/* Gives the first `written` files their names (keep) or removes them. */
static gp_status settle_files(report_ctx *c, const char *out_dir, size_t written, bool keep)
{
    gp_status st = GP_OK;
    for (size_t i = 0; i < written; i++) {
        char *tmp = join_path(out_dir, REPORT_TMP_PREFIX, report_files[i].name);
        char *path = join_path(out_dir, "", report_files[i].name);
        c->path = path ? path : report_files[i].name;
        if (!tmp || !path)
            st = st == GP_OK ? report_nomem(c) : st;
        else if (keep && st == GP_OK && rename(tmp, path) != 0 && errno != ENOENT)
            st = report_write_failed(c, errno); /* ENOENT: left out (FST without fstapi) */
        else if (!keep || st != GP_OK)
            unlink(tmp);
        mem_free(tmp);
        mem_free(path);
    }
    return st;
}

/* The temporary name of `path`: REPORT_TMP_PREFIX before its last
 * component; NULL when out of memory. */
static char *temporary_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + sizeof REPORT_TMP_PREFIX;
    char *tmp = mem_alloc(n);
    if (tmp)
        snprintf(tmp, n, "%.*s%s%s", (int)dir, path, REPORT_TMP_PREFIX, path + dir);
    return tmp;
}

gp_status report_write_whole(const char *path, report_stream_fn text, void *ctx, int msg_open,
                             int msg_finish, diag_ctx *d)
{
    char *tmp = temporary_name(path);
    FILE *f = tmp ? fopen(tmp, "w") : NULL;
    if (!f) {
        diag_error(d, msg_open, DIAG_NOWHERE, "cannot write '%s': %s; check the directory "
                   "exists and is writable", path, tmp ? strerror(errno) : "out of memory");
        mem_free(tmp);
        return GP_ERR_IO;
    }
    gp_status st = text(f, ctx);
    int err = close_written(f);
    if (st == GP_OK && !err && rename(tmp, path) != 0)
        err = errno;
    if (st == GP_OK && err) {
        diag_error(d, msg_finish, DIAG_NOWHERE, "cannot finish writing '%s': %s (is the disk "
                   "full?)", path, strerror(err));
        st = GP_ERR_IO;
    }
    if (st != GP_OK)
        unlink(tmp);
    mem_free(tmp);
    return st;
}

gp_status report_write_all(const char *out_dir, const design *dg, const power_result *r,
                           const report_options *opt, diag_ctx *d)
{
    gp_status st = make_dirs(out_dir, d);
    report_ctx c = {.dg = dg, .r = r, .opt = report_resolve_options(opt), .d = d};
    size_t written = 0;
    for (; written < REPORT_FILES && st == GP_OK; written++)
        st = write_temporary(&c, out_dir, written);
    gp_status settled = settle_files(&c, out_dir, written, st == GP_OK);
    return st == GP_OK ? settled : st;
}
