/* resim_threads.c: how many workers a re-simulation runs (they run through
 * util/parts.h). */
#include "resim/resim_int.h"

#include <unistd.h>

uint32_t resim_workers(uint32_t threads)
{
    if (threads)
        return threads;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (uint32_t)cores : 1;
}
