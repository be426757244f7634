/* progress.h: a progress bar on a terminal for long work.
 *
 * Draws only when the stream is a TTY and the bar is enabled (the CLI turns
 * it off with --quiet); otherwise every call is a cheap no-op, so library
 * code can report progress unconditionally.  Redraws at most ten times a
 * second.  Not thread-safe: one thread owns a bar. */
#ifndef GP_UTIL_PROGRESS_H
#define GP_UTIL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct progress {
    FILE *stream;        /* NULL: disabled */
    const char *label;
    uint64_t total;      /* 0: unknown, show a count instead of a bar */
    uint64_t next_check; /* `done` at which the clock is read again */
    double start_s;
    double last_draw_s;
    bool drawn;
} progress;

/* Sets up a bar on `stream` when `enabled` and `stream` is a terminal. */
void progress_init(progress *p, FILE *stream, bool enabled);
/* Starts a phase of `total` units (bytes, events...) called `label`. */
void progress_begin(progress *p, const char *label, uint64_t total);
void progress_update(progress *p, uint64_t done);
/* Ends the phase and clears the line. */
void progress_end(progress *p);

/* Seconds on the monotonic clock (the bar's clock; also for timing work). */
double progress_now_seconds(void);

/* Formats `seconds` as m:ss or h:mm:ss into buf. */
void progress_format_duration(double seconds, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
