/* resim_threads.c: how many workers a re-simulation runs (they run through
 * util/parts.h). */
#include "resim/resim_int.h"

#include "util/parts.h"

uint32_t resim_workers(uint32_t threads)
{
    return threads ? threads : parts_online_cores();
}
