/* ranks_absent.c: ranks.h in a build without MPI: one rank, and a clear
 * refusal when a launcher started several (each would do the whole run). */
#include "ranks/ranks.h"

#ifndef GATEPOWER_HAVE_MPI
#include <stdlib.h>

gp_status ranks_start(int *argc, char ***argv, diag_ctx *d)
{
    (void)argc;
    (void)argv;
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    if (!size)
        size = getenv("PMI_SIZE");
    if (!size || atoi(size) <= 1)
        return GP_OK;
    diag_error(d, 1411, DIAG_NOWHERE, "started as one of %s ranks, but this gatepower was built "
               "without MPI: install libopenmpi-dev and rebuild, or run it without mpirun", size);
    return GP_ERR_UNSUPPORTED;
}

void ranks_stop(void) {}
bool ranks_built(void) { return false; }
int ranks_rank(void) { return 0; }
int ranks_count(void) { return 1; }
int ranks_local_rank(void) { return 0; }
int ranks_local_count(void) { return 1; }
bool ranks_all_ok(bool ok) { return ok; }

gp_status ranks_send(int to, const void *data, size_t bytes, diag_ctx *d)
{
    (void)to;
    (void)data;
    (void)bytes;
    diag_error(d, 1412, DIAG_NOWHERE, "no other rank to send to (a build without MPI)");
    return GP_ERR_UNSUPPORTED;
}

gp_status ranks_recv(int from, void *data, size_t bytes, diag_ctx *d)
{
    (void)from;
    (void)data;
    (void)bytes;
    diag_error(d, 1413, DIAG_NOWHERE, "no other rank to receive from (a build without MPI)");
    return GP_ERR_UNSUPPORTED;
}

gp_status ranks_exscan(const void *mine, void *before, size_t item_bytes, size_t count,
                       ranks_fold *fold, diag_ctx *d)
{
    (void)mine, (void)before, (void)item_bytes, (void)count, (void)fold, (void)d;
    return GP_OK; /* one rank: none before it */
}
#endif
