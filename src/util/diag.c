/* diag.c: numbered diagnostics, counted per message number, with a cap on
 * repeated warnings, and contexts that hold their messages for another
 * until released.  A mutex makes reporting safe from worker threads. */
#include "util/diag.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define DIAG_MSGNO_LIMIT 10000 /* message numbers are 1000..9999 */
#define DIAG_DEFAULT_WARNING_CAP 10

typedef struct diag_held_message {
    diag_severity sev;
    int msgno;
    char *text; /* NULL: lost to a lack of memory */
} diag_held_message;

struct diag_ctx {
    FILE *sink;
    diag_ctx *parent;           /* diag_new_held's; NULL for a context of its own */
    bool holding;               /* messages wait in `held` until diag_release */
    diag_held_message *held;
    size_t n_held, held_cap;
    int warning_cap;
    const char *errors_only;    /* diag_set_errors_only's tag; NULL: print every message */
    int errors;
    int warnings;
    int first_error_no;
    char *first_error_text;
    int count_of[DIAG_MSGNO_LIMIT];    /* every report, by message number */
    int warnings_of[DIAG_MSGNO_LIMIT]; /* warnings only: the cap applies to these */
    pthread_mutex_t lock;
};

diag_ctx *diag_new(FILE *sink)
{
    diag_ctx *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->sink = sink;
    d->warning_cap = DIAG_DEFAULT_WARNING_CAP;
    pthread_mutex_init(&d->lock, NULL);
    return d;
}

diag_ctx *diag_new_held(diag_ctx *parent)
{
    diag_ctx *d = diag_new(NULL);
    if (d) {
        d->parent = parent;
        d->holding = true;
    }
    return d;
}

void diag_free(diag_ctx *d)
{
    if (!d)
        return;
    for (size_t k = 0; k < d->n_held; k++)
        free(d->held[k].text);
    free(d->held);
    pthread_mutex_destroy(&d->lock);
    free(d->first_error_text);
    free(d);
}

void diag_set_warning_cap(diag_ctx *d, int cap) { d->warning_cap = cap; }
void diag_set_errors_only(diag_ctx *d, const char *tag) { d->errors_only = tag; }

static const char *severity_word(diag_severity sev)
{
    switch (sev) {
    case DIAG_NOTE: return "note";
    case DIAG_WARNING: return "warning";
    case DIAG_ERROR: return "error";
    }
    return "message";
}

/* Formats "file:line:col: severity N: text" into a fresh string. */
static char *format_message(diag_severity sev, int msgno, diag_loc loc, const char *fmt,
                            va_list ap)
{
    char prefix[512] = "";
    if (loc.file && loc.line > 0 && loc.col > 0)
        snprintf(prefix, sizeof prefix, "%s:%d:%d: ", loc.file, loc.line, loc.col);
    else if (loc.file && loc.line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", loc.file, loc.line);
    else if (loc.file)
        snprintf(prefix, sizeof prefix, "%s: ", loc.file);

    va_list ap2;
    va_copy(ap2, ap);
    int body_len = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (body_len < 0)
        body_len = 0;
    size_t size = strlen(prefix) + 32 + (size_t)body_len + 1;
    char *text = malloc(size);
    if (!text)
        return NULL;
    int head = snprintf(text, size, "%s%s %d: ", prefix, severity_word(sev), msgno);
    vsnprintf(text + head, size - (size_t)head, fmt, ap);
    return text;
}

static int slot_of(int msgno) { return msgno >= 0 && msgno < DIAG_MSGNO_LIMIT ? msgno : 0; }

static char *copy_text(const char *text)
{
    char *copy = text ? malloc(strlen(text) + 1) : NULL;
    return copy ? strcpy(copy, text) : NULL;
}

static void report_text(diag_ctx *d, diag_severity sev, int msgno, char *text);

/* A message of a context with a parent: held, or passed on (d locked). */
static void hold_or_pass(diag_ctx *d, diag_severity sev, int msgno, const char *text)
{
    if (!d->holding) {
        report_text(d->parent, sev, msgno, copy_text(text));
        return;
    }
    if (d->n_held == d->held_cap) {
        size_t cap = d->held_cap ? 2 * d->held_cap : 16;
        diag_held_message *grown = realloc(d->held, cap * sizeof *grown);
        if (!grown)
            return; /* the message is counted here, not shown */
        d->held = grown;
        d->held_cap = cap;
    }
    d->held[d->n_held++] = (diag_held_message){sev, msgno, copy_text(text)};
}

void diag_release(diag_ctx *d)
{
    pthread_mutex_lock(&d->lock);
    for (size_t k = 0; d->holding && k < d->n_held; k++)
        report_text(d->parent, d->held[k].sev, d->held[k].msgno, d->held[k].text);
    d->n_held = 0;
    d->holding = false;
    pthread_mutex_unlock(&d->lock);
}

/* Counts, prints and keeps a formatted message (text may be NULL: lost). */
static void report_text(diag_ctx *d, diag_severity sev, int msgno, char *text)
{
    int slot = slot_of(msgno);
    pthread_mutex_lock(&d->lock);
    if (d->parent)
        hold_or_pass(d, sev, msgno, text);
    d->count_of[slot]++;
    bool print = true;
    if (sev == DIAG_WARNING) {
        d->warnings++;
        print = d->warning_cap == 0 || d->warnings_of[slot] < d->warning_cap;
        d->warnings_of[slot]++;
    }
    if (d->errors_only) {
        print = sev == DIAG_ERROR;
        if (print && d->sink)
            fprintf(d->sink, "%s: ", d->errors_only);
    }
    if (print && d->sink) {
        if (text)
            fprintf(d->sink, "%s\n", text);
        else
            fprintf(d->sink, "%s %d: (message text lost: out of memory)\n", severity_word(sev), msgno);
    }
    if (sev == DIAG_ERROR) {
        d->errors++;
        if (d->first_error_no == 0) {
            d->first_error_no = msgno;
            d->first_error_text = text; /* kept for diag_first_error_text */
            text = NULL;
        }
    }
    pthread_mutex_unlock(&d->lock);
    free(text);
}

void diag_vreport(diag_ctx *d, diag_severity sev, int msgno, diag_loc loc, const char *fmt,
                  va_list ap)
{
    report_text(d, sev, msgno, format_message(sev, msgno, loc, fmt, ap));
}

void diag_report(diag_ctx *d, diag_severity sev, int msgno, diag_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, sev, msgno, loc, fmt, ap);
    va_end(ap);
}

int diag_error_count(const diag_ctx *d) { return d->errors; }
int diag_warning_count(const diag_ctx *d) { return d->warnings; }
int diag_first_error_no(const diag_ctx *d) { return d->first_error_no; }
const char *diag_first_error_text(const diag_ctx *d)
{
    return d->first_error_text ? d->first_error_text : "";
}
int diag_count_of(const diag_ctx *d, int msgno) { return d->count_of[slot_of(msgno)]; }

void diag_finish(diag_ctx *d)
{
    if (!d->sink || d->warning_cap == 0 || d->errors_only)
        return;
    for (int no = 0; no < DIAG_MSGNO_LIMIT; no++) {
        int extra = d->warnings_of[no] - d->warning_cap;
        if (extra > 0)
            fprintf(d->sink, "note: %d more of warning %d not shown\n", extra, no);
    }
}
