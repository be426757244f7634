/* fst_trial.c: the file read once in a child process before it is read for
 * real.  fstapi trusts what lies inside a block: a damaged payload (a
 * varint that runs past its buffer, a chain offset out of range) makes it
 * read or write out of bounds, which no check of the blocks' framing
 * (fst_check.c) can rule out short of decoding them.  The child reads the
 * file as this process will (the same sink for the header, so the same
 * handles delivered, the same parts and time ranges) but hands the value
 * changes to a sink that keeps nothing, with its output silenced.  If it
 * dies, fstapi gives up in it, or it loops (a damaged block can make fstapi
 * spin: the child gets a minute plus a second per MB of file, far more than
 * reading takes, under sanitizers and on a loaded machine too), the file is refused here and this process never
 * runs fstapi on what failed. */
#include "fst/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fst/fst_int.h"

/* The child's exit statuses: read; refused with an error of gatepower's
 * own, which the real reading finds again; fstapi gave up on a block. */
enum { FST_TRIAL_READ = 0, FST_TRIAL_REFUSED = 3, FST_TRIAL_FSTAPI_GAVE_UP = 4 };
#define FST_TRIAL_SECONDS 60.0
#define FST_TRIAL_BYTES_PER_SECOND 1e6

static gp_status keep_nothing(void *ctx, int64_t time_fs, const vcd_change *c, size_t n)
{
    (void)ctx;
    (void)time_fs;
    (void)c;
    (void)n;
    return GP_OK;
}

static gp_status keep_no_end(void *ctx, int64_t end_time_fs)
{
    (void)ctx;
    (void)end_time_fs;
    return GP_OK;
}

static gp_status keep_no_parts(void *ctx, uint32_t n)
{
    (void)ctx;
    (void)n;
    return GP_OK;
}

static gp_status keep_no_part(void *ctx, uint32_t part, int64_t time_fs, const vcd_change *c,
                              size_t n)
{
    (void)part;
    return keep_nothing(ctx, time_fs, c, n);
}

static gp_status keep_no_window(void *ctx, uint32_t n, int64_t complete_fs)
{
    (void)n;
    return keep_no_end(ctx, complete_fs);
}

static _Noreturn void trial_child(const char *path, const vcd_options *opt, const vcd_sink *sink)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* it never outlives the reader that waits for it */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    }
    /* The same kinds of call as the real sink takes, so the same path runs. */
    vcd_sink nothing = {.changes = keep_nothing, .finish = keep_no_end,
                        .parts = sink->parts ? keep_no_parts : NULL,
                        .part_changes = sink->part_changes ? keep_no_part : NULL,
                        .parts_done = sink->parts_done ? keep_no_window : NULL};
    diag_ctx *quiet = diag_new(NULL);
    if (!quiet)
        _exit(FST_TRIAL_REFUSED);
    gp_status st = fst_read_file(path, opt, sink, &nothing, quiet);
    if (st == GP_OK)
        _exit(FST_TRIAL_READ);
    _exit(diag_first_error_no(quiet) == 6110 ? FST_TRIAL_FSTAPI_GAVE_UP : FST_TRIAL_REFUSED);
}

/* Why the child ended, in words: "signal 11 (Segmentation fault)". */
static void trial_end(int status, char *text, size_t cap)
{
    if (WIFSIGNALED(status))
        snprintf(text, cap, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(text, cap, "exit status %d", WEXITSTATUS(status));
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Waits for the child until `limit` seconds have passed; false (the child
 * killed and reaped) when it had not ended by then. */
static bool wait_within(pid_t child, double limit, int *status)
{
    double deadline = now_seconds() + limit;
    struct timespec nap = {0, 2000000};
    for (;;) {
        pid_t done = waitpid(child, status, WNOHANG);
        if (done == child)
            return true;
        if (done < 0 || now_seconds() > deadline) {
            kill(child, SIGKILL);
            waitpid(child, status, 0);
            return false;
        }
        nanosleep(&nap, NULL);
    }
}

gp_status fst_trial(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d)
{
    struct stat sb;
    double base = opt && opt->fst_trial_seconds > 0 ? opt->fst_trial_seconds : FST_TRIAL_SECONDS;
    double limit = base +
                   (stat(path, &sb) == 0 ? (double)sb.st_size / FST_TRIAL_BYTES_PER_SECOND : 0);
    fflush(NULL); /* nothing buffered is written twice */
    pid_t child = fork();
    if (child < 0)
        return GP_OK; /* no process to spare: read as fstapi can (the framing is checked) */
    if (child == 0)
        trial_child(path, opt, sink);
    int status;
    diag_loc loc = {path, 0, 0};
    if (!wait_within(child, limit, &status)) {
        diag_error(d, 6112, loc, "'%s' is damaged inside a block: GTKWave's fstapi did not end "
                   "reading it in %.0f s (a trial reading in a child process, stopped), where "
                   "a whole file takes a fraction of that: write it again, or give the VCD",
                   path, limit);
        return GP_ERR_PARSE;
    }
    if (WIFEXITED(status) && (WEXITSTATUS(status) == FST_TRIAL_READ ||
                              WEXITSTATUS(status) == FST_TRIAL_REFUSED))
        return GP_OK;
    if (WIFEXITED(status) && WEXITSTATUS(status) == FST_TRIAL_FSTAPI_GAVE_UP)
        return fst_report_damaged(d, loc, false);
    char end[96];
    trial_end(status, end, sizeof end);
    diag_error(d, 6111, loc, "'%s' is damaged inside a block: GTKWave's fstapi fails on it (a "
               "trial reading in a child process ended with %s); the file was cut or altered "
               "after it was written: write it again, or give the VCD", path, end);
    return GP_ERR_PARSE;
}
#endif
