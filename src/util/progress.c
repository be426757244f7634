/* progress.c: the terminal progress bar (see progress.h). */
#include "util/progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_BAR_WIDTH 30
#define PROGRESS_REDRAW_S 0.1

double progress_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_init(progress *p, FILE *stream, bool enabled)
{
    memset(p, 0, sizeof *p);
    if (enabled && stream && isatty(fileno(stream)))
        p->stream = stream;
}

void progress_begin(progress *p, const char *label, uint64_t total)
{
    p->label = label;
    p->total = total;
    p->next_check = 0;
    p->start_s = p->last_draw_s = progress_now_seconds();
    p->drawn = false;
}

void progress_format_duration(double seconds, char *buf, size_t size)
{
    long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%ld:%02ld", s / 60, s % 60);
}

static void draw(progress *p, uint64_t done, double now)
{
    char elapsed[32], left[32] = "?";
    double spent = now - p->start_s;
    progress_format_duration(spent, elapsed, sizeof elapsed);
    if (p->total == 0) {
        fprintf(p->stream, "\r%s: %llu  %s elapsed\033[K", p->label, (unsigned long long)done,
                elapsed);
    } else {
        double frac = done >= p->total ? 1.0 : (double)done / (double)p->total;
        int filled = (int)(frac * PROGRESS_BAR_WIDTH);
        char bar[PROGRESS_BAR_WIDTH + 1];
        memset(bar, '#', (size_t)filled);
        memset(bar + filled, '.', (size_t)(PROGRESS_BAR_WIDTH - filled));
        bar[PROGRESS_BAR_WIDTH] = '\0';
        if (frac > 0.0)
            progress_format_duration(spent * (1.0 - frac) / frac, left, sizeof left);
        fprintf(p->stream, "\r%s [%s] %3d%%  %s elapsed, %s left\033[K", p->label, bar,
                (int)(100.0 * frac), elapsed, left);
    }
    fflush(p->stream);
    p->drawn = true;
    p->last_draw_s = now;
}

void progress_update(progress *p, uint64_t done)
{
    if (!p->stream || done < p->next_check)
        return;
    /* Reading the clock on every call would cost more than the work reported
     * by small steps: look again after another 1/1000 of the total. */
    p->next_check = done + (p->total / 1000 > 0 ? p->total / 1000 : 1);
    double now = progress_now_seconds();
    if (now - p->last_draw_s >= PROGRESS_REDRAW_S)
        draw(p, done, now);
}

void progress_end(progress *p)
{
    if (p->stream && p->drawn) {
        fprintf(p->stream, "\r\033[K");
        fflush(p->stream);
    }
    p->drawn = false;
}
