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

void *fst_guarded_open(const char *path, bool *escaped)
{
    jmp_buf here;
    jmp_buf *outer = fst_landing;
    *escaped = false;
    if (setjmp(here)) {
        fst_landing = outer;
        *escaped = true;
        return NULL;
    }
    fst_landing = &here;
    void *fst = fstReaderOpen(path);
    fst_landing = outer;
    return fst;
}

bool fst_guarded_blocks(void *fst, fst_reader *f)
{
    jmp_buf here;
    jmp_buf *outer = fst_landing;
    if (setjmp(here)) {
        fst_landing = outer;
        return false;
    }
    fst_landing = &here;
    fstReaderIterBlocks2(fst, fst_on_change, NULL, f, NULL);
    fst_landing = outer;
    return true;
}

bool fst_guarded_hier(void *fst, struct fstHier **h)
{
    jmp_buf here;
    jmp_buf *outer = fst_landing;
    if (setjmp(here)) {
        fst_landing = outer;
        return false;
    }
    fst_landing = &here;
    *h = fstReaderIterateHier(fst);
    fst_landing = outer;
    return true;
}
#endif
