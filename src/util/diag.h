/* diag.h: numbered diagnostics with severity and file:line:col.
 *
 * Every message has a stable number, unique in the source tree (checked by
 * scripts/check-msgids).  Ranges by module:
 *   1000-1599 util, CLI, CUDA  1600-1999 SDC        2000-2999 Liberty    3000-3999 Verilog
 *   4000-4999 SDF              5000-5999 SPEF       6000-6999 VCD / FST
 *   7000-7999 design, events   8000-8999 power      9000-9999 resim
 *   (within 1000-1599: 1410-1449 ranks, 1500-1599 CUDA)
 *
 * A message prints as
 *   path:line:col: error 3012: unknown cell 'FOO'
 * (line and col are left out when 0; path when NULL).  Warnings beyond a cap
 * per message number are counted, not printed; diag_finish() prints how many
 * were suppressed.  Errors are never suppressed. */
#ifndef GP_UTIL_DIAG_H
#define GP_UTIL_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum diag_severity { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_severity;

/* Where a message points to; a zero line or col is "unknown". */
typedef struct diag_loc {
    const char *file;
    int line;
    int col;
} diag_loc;

typedef struct diag_ctx diag_ctx;

/* A context that prints to `sink` (NULL: print nothing, only count and keep). */
diag_ctx *diag_new(FILE *sink);
/* A context that holds its messages (counting them as its own) for
 * `parent`: diag_release reports the held ones to parent, in order, and
 * from then on each message goes to parent as it comes.  Messages never
 * released are dropped with the context.  For a reading that runs beside
 * another whose messages come first. */
diag_ctx *diag_new_held(diag_ctx *parent);
void diag_release(diag_ctx *held);
void diag_free(diag_ctx *d);

/* Print at most `cap` warnings per message number (default 10; 0: no cap). */
void diag_set_warning_cap(diag_ctx *d, int cap);
/* Print only errors, each after "tag: " (a rank of several, say), and count
 * the rest; the tag must outlive d. */
void diag_set_errors_only(diag_ctx *d, const char *tag);

void diag_report(diag_ctx *d, diag_severity sev, int msgno, diag_loc loc,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_vreport(diag_ctx *d, diag_severity sev, int msgno, diag_loc loc,
                  const char *fmt, va_list ap);

/* Shorthands for a message with a location. */
#define diag_error(d, no, loc, ...) diag_report((d), DIAG_ERROR, (no), (loc), __VA_ARGS__)
#define diag_warn(d, no, loc, ...) diag_report((d), DIAG_WARNING, (no), (loc), __VA_ARGS__)
#define diag_note(d, no, loc, ...) diag_report((d), DIAG_NOTE, (no), (loc), __VA_ARGS__)
/* A location-less message. */
#define DIAG_NOWHERE ((diag_loc){0, 0, 0})

int diag_error_count(const diag_ctx *d);
int diag_warning_count(const diag_ctx *d);

/* The number and text of the first error reported, or 0 / "" if none: lets
 * tests assert which message a failing call produced. */
int diag_first_error_no(const diag_ctx *d);
const char *diag_first_error_text(const diag_ctx *d);
/* How many times message `msgno` was reported (printed or suppressed). */
int diag_count_of(const diag_ctx *d, int msgno);

/* Print one line per message number whose warnings were suppressed. */
void diag_finish(diag_ctx *d);

#ifdef __cplusplus
}
#endif

#endif
