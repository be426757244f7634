/* fst_guard.c: fstapi's calls that read a file's blocks, run under a guard.
 * fstapi ends the process (exit(255), after a line on stderr) when it
 * cannot decompress a block; built with fst_exit.h, its exit() calls
 * fst_escape, which jumps back to the innermost guard of the thread, and
 * the guarded call reports failure.  The reader fstapi was in is then left
 * as it is (not closed: its state is unknown), a leak on a failed file. */
#include "fst/fst_reader.h"

#ifdef GATEPOWER_HAVE_FST
#include <setjmp.h>

#include "fst/fst_int.h"

static _Thread_local jmp_buf *fst_landing;

_Noreturn void fst_escape(int status)
{
    if (fst_landing)
        longjmp(*fst_landing, 1);
    exit(status); /* not under a guard (the writer): as fstapi meant */
}

/* Runs call(arg) under a guard; false when fstapi gave up inside it.  The
 * guards nest: the outer one is the landing again on the way out. */
static bool guarded(void (*call)(void *), void *arg)
{
    jmp_buf here;
    jmp_buf *outer = fst_landing;
    if (setjmp(here)) {
        fst_landing = outer;
        return false;
    }
    fst_landing = &here;
    call(arg);
    fst_landing = outer;
    return true;
}

typedef struct fst_call {
    const char *path;
    void *fst;
    fst_reader *f;
    struct fstHier *hier;
} fst_call;

static void call_open(void *arg)
{
    fst_call *c = arg;
    c->fst = fstReaderOpen(c->path);
}

static void call_blocks(void *arg)
{
    fst_call *c = arg;
    fstReaderIterBlocks2(c->fst, fst_on_change, NULL, c->f, NULL);
}

static void call_hier(void *arg)
{
    fst_call *c = arg;
    c->hier = fstReaderIterateHier(c->fst);
}

void *fst_guarded_open(const char *path, bool *escaped)
{
    fst_call c = {.path = path};
    *escaped = !guarded(call_open, &c);
    return *escaped ? NULL : c.fst;
}

bool fst_guarded_blocks(void *fst, fst_reader *f)
{
    fst_call c = {.fst = fst, .f = f};
    return guarded(call_blocks, &c);
}

bool fst_guarded_hier(void *fst, struct fstHier **h)
{
    fst_call c = {.fst = fst};
    bool ok = guarded(call_hier, &c);
    *h = c.hier;
    return ok;
}
#endif
