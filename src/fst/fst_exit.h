/* fst_exit.h: included before GTKWave's fstapi.c (cmake/fstapi.cmake: its
 * -include), so that fstapi's exit() on a damaged file calls fst_escape.
 * Here fst_escape is a weak one that exits, as fstapi meant, for programs
 * that only write FST; fst_guard.c's, linked with the reader, returns to
 * the reader's guard instead.  Only fstapi.c sees the macro. */
#ifndef GP_FST_FST_EXIT_H
#define GP_FST_FST_EXIT_H

#include <stdlib.h>

__attribute__((weak, noreturn)) void fst_escape(int status)
{
    exit(status);
}
#define exit(status) fst_escape(status)

#endif
