/* sdc_read.c: the SDC files run in one Tcl interpreter: its setup (the
 * SDC commands, `unknown` for the rest, no `exit`), where a command stands
 * in its file, failures reported with their file:line, and the result. */
#include "sdc/sdc.h"

#ifdef GATEPOWER_HAVE_TCL
#include "sdc/sdc_int.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


bool sdc_available(void) { return true; }

/* The file and line of the command now running: Tcl's frame just below
 * the `info frame` this evaluates (TIP 280 keeps absolute lines, in
 * procs and loop bodies too). */
static void sdc_locate(sdc_reader *r, char *file, size_t cap, int *line)
{
    Tcl_Interp *ip = r->interp;
    Tcl_Obj *saved = Tcl_GetObjResult(ip), *value;
    Tcl_IncrRefCount(saved);
    int depth = 0;
    *line = 0;
    snprintf(file, cap, "%s", r->path);
    if (Tcl_EvalEx(ip, "info frame", -1, 0) == TCL_OK &&
        Tcl_GetIntFromObj(NULL, Tcl_GetObjResult(ip), &depth) == TCL_OK) {
        char cmd[48];
        snprintf(cmd, sizeof cmd, "info frame %d", depth - 1);
        if (Tcl_EvalEx(ip, cmd, -1, 0) == TCL_OK) {
            Tcl_Obj *frame = Tcl_GetObjResult(ip);
            Tcl_IncrRefCount(frame);
            Tcl_Obj *key = Tcl_NewStringObj("line", -1);
            Tcl_IncrRefCount(key);
            if (Tcl_DictObjGet(NULL, frame, key, &value) == TCL_OK && value)
                Tcl_GetIntFromObj(NULL, value, line);
            Tcl_SetStringObj(key, "file", -1);
            if (Tcl_DictObjGet(NULL, frame, key, &value) == TCL_OK && value &&
                strcmp(Tcl_GetString(value), Tcl_GetString(r->path_normalized)) != 0)
                snprintf(file, cap, "%s", Tcl_GetString(value)); /* a file it sourced */
            Tcl_DecrRefCount(key);
            Tcl_DecrRefCount(frame);
        }
    }
    Tcl_SetObjResult(ip, saved);
    Tcl_DecrRefCount(saved);
}

int sdc_fail(sdc_reader *r, int no, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    r->failed_no = no;
    sdc_locate(r, r->failed_file, sizeof r->failed_file, &r->failed_line);
    Tcl_SetObjResult(r->interp, Tcl_NewStringObj(text, -1));
    return TCL_ERROR;
}

void sdc_warn(sdc_reader *r, int no, const char *fmt, ...)
{
    char file[4096];
    int line;
    sdc_locate(r, file, sizeof file, &line);
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(r->d, DIAG_WARNING, no, ((diag_loc){file, line, 0}), fmt, ap);
    va_end(ap);
}

int sdc_no_memory(sdc_reader *r)
{
    r->out_of_memory = true;
    Tcl_SetObjResult(r->interp, Tcl_NewStringObj("out of memory", -1));
    return TCL_ERROR;
}

static int sdc_unknown(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    return sdc_fail(cd, 1602, "unknown command '%s': neither Tcl nor an SDC command gatepower "
                    "reads (docs/formats.md lists them)", objc > 1 ? Tcl_GetString(objv[1]) : "");
}

static int sdc_exit(ClientData cd, Tcl_Interp *ip, int objc, Tcl_Obj *const objv[])
{
    (void)ip;
    (void)objc;
    (void)objv;
    return sdc_fail(cd, 1603, "exit: an SDC file cannot end the program; remove the exit");
}

static pthread_once_t sdc_tcl_once = PTHREAD_ONCE_INIT;

static void sdc_tcl_init(void) { Tcl_FindExecutable(NULL); }

/* The interpreter with the SDC commands, and SDC's units (the first
 * library's, as the timing tools take them). */
static bool sdc_reader_init(sdc_reader *r)
{
    pthread_once(&sdc_tcl_once, sdc_tcl_init);
    r->interp = Tcl_CreateInterp();
    if (!r->interp)
        return false;
    const lib_library *lib = lib_library_count(r->libs) ? lib_library_at(r->libs, 0) : NULL;
    r->time_unit = lib && lib->time_unit > 0 ? lib->time_unit : 1e6;
    r->cap_unit = lib && lib->cap_unit > 0 ? lib->cap_unit : 1e-12;
    Tcl_CreateObjCommand(r->interp, "unknown", sdc_unknown, r, NULL);
    Tcl_CreateObjCommand(r->interp, "exit", sdc_exit, r, NULL);
    sdc_register_objects(r);
    sdc_register_commands(r);
    return true;
}

/* Reports why the file stopped: a command's recorded failure, or Tcl's. */
static gp_status sdc_report_failure(sdc_reader *r)
{
    const char *text = Tcl_GetStringResult(r->interp);
    if (r->out_of_memory) {
        diag_error(r->d, 1604, ((diag_loc){r->path, 0, 0}), "out of memory while reading SDC");
        return GP_ERR_NOMEM;
    }
    if (r->failed_no) {
        diag_report(r->d, DIAG_ERROR, r->failed_no, ((diag_loc){r->failed_file, r->failed_line, 0}),
                    "%s", text);
        return GP_ERR_PARSE;
    }
    diag_error(r->d, 1601, ((diag_loc){r->path, Tcl_GetErrorLine(r->interp), 0}), "Tcl: %s", text);
    return GP_ERR_PARSE;
}

static gp_status sdc_run_file(sdc_reader *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        diag_error(r->d, 1605, ((diag_loc){path, 0, 0}), "cannot read the SDC file: %s",
                   strerror(errno));
        return GP_ERR_IO;
    }
    fclose(f);
    r->path = path;
    Tcl_Obj *given = Tcl_NewStringObj(path, -1);
    Tcl_IncrRefCount(given);
    r->path_normalized = Tcl_FSGetNormalizedPath(r->interp, given);
    if (!r->path_normalized)
        r->path_normalized = given;
    Tcl_IncrRefCount(r->path_normalized);
    Tcl_DecrRefCount(given);
    r->failed_no = 0;
    gp_status st = Tcl_EvalFile(r->interp, path) == TCL_OK ? GP_OK : sdc_report_failure(r);
    Tcl_DecrRefCount(r->path_normalized);
    r->path_normalized = NULL;
    return st;
}

/* One note for the commands that were accepted and not applied. */
static void sdc_note_timing_only(const sdc_reader *r)
{
    char names[512] = "";
    size_t used = 0;
    for (int k = 0; sdc_timing_only[k] && used < sizeof names - 64; k++)
        if (r->timing_only_count[k])
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s x%u",
                                     used ? ", " : "", sdc_timing_only[k],
                                     r->timing_only_count[k]);
    if (r->s->timing_only)
        diag_note(r->d, 1606, DIAG_NOWHERE, "%u SDC commands that bear on timing only were "
                  "accepted and not applied (%s)", r->s->timing_only, names);
}

gp_status sdc_read(sdc **out, const design *dg, const lib_set *libs, const char *const *paths,
                   int n_paths, diag_ctx *d)
{
    *out = NULL;
    sdc_reader r = {.dg = dg, .libs = libs, .d = d, .path = n_paths ? paths[0] : ""};
    if (!(r.s = sdc_new(dg)) || !sdc_reader_init(&r)) {
        sdc_free(r.s);
        diag_error(d, 1607, DIAG_NOWHERE, "out of memory while starting the SDC interpreter");
        return GP_ERR_NOMEM;
    }
    gp_status st = GP_OK;
    for (int k = 0; st == GP_OK && k < n_paths; k++)
        st = sdc_run_file(&r, paths[k]);
    Tcl_DeleteInterp(r.interp);
    if (st != GP_OK) {
        sdc_free(r.s);
        return st;
    }
    sdc_note_timing_only(&r);
    *out = r.s;
    return GP_OK;
}

void sdc_thread_done(void) { Tcl_FinalizeThread(); }

#endif
