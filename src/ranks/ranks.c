/* ranks.c: ranks.h over MPI, for builds that found it (GATEPOWER_HAVE_MPI).
 * MPI is joined only where a launcher started the process, so that a plain
 * `gatepower` pays nothing for it and runs where MPI cannot start. */
#include "ranks/ranks.h"

#ifdef GATEPOWER_HAVE_MPI
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

/* Bytes one MPI message carries at most (its count is an int). */
#define RANKS_MESSAGE_MAX ((size_t)1 << 30)

static bool joined;
static int rank, count = 1, local_rank, local_count = 1;

/* Whether a launcher (Open MPI's, a PMI or PMIx one: MPICH's, Slurm's)
 * started this process. */
static bool launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"};
    for (size_t k = 0; k < sizeof vars / sizeof *vars; k++)
        if (getenv(vars[k]))
            return true;
    return false;
}

static gp_status mpi_failed(diag_ctx *d, const char *what, int code)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(code, text, &len);
    diag_error(d, 1410, DIAG_NOWHERE, "MPI: %s failed: %s", what, text);
    return GP_ERR_IO;
}

gp_status ranks_start(int *argc, char ***argv, diag_ctx *d)
{
    if (!launched())
        return GP_OK;
    int provided = 0, err = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (err != MPI_SUCCESS)
        return mpi_failed(d, "joining the run (MPI_Init_thread)", err);
    joined = true;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &count);
    MPI_Comm host;
    err = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
    if (err != MPI_SUCCESS)
        return mpi_failed(d, "grouping the ranks by host", err);
    MPI_Comm_rank(host, &local_rank);
    MPI_Comm_size(host, &local_count);
    MPI_Comm_free(&host);
    return GP_OK;
}

void ranks_stop(void)
{
    if (joined)
        MPI_Finalize();
    joined = false;
}

bool ranks_built(void) { return true; }
int ranks_rank(void) { return rank; }
int ranks_count(void) { return count; }
int ranks_local_rank(void) { return local_rank; }
int ranks_local_count(void) { return local_count; }

bool ranks_all_ok(bool ok)
{
    int mine = ok, all = 0;
    if (!joined)
        return ok;
    return MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD) == MPI_SUCCESS &&
           all;
}

gp_status ranks_send(int to, const void *data, size_t bytes, diag_ctx *d)
{
    const char *p = data;
    size_t at = 0;
    do { /* one message at least: an empty block is sent too */
        size_t n = bytes - at < RANKS_MESSAGE_MAX ? bytes - at : RANKS_MESSAGE_MAX;
        int err = MPI_Send(p + at, (int)n, MPI_BYTE, to, 0, MPI_COMM_WORLD);
        if (err != MPI_SUCCESS)
            return mpi_failed(d, "sending to another rank", err);
        at += n;
    } while (at < bytes);
    return GP_OK;
}

/* The fold of the scan running now: MPI gives a user operation no context. */
static ranks_fold *scan_fold;

static void mpi_fold(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    scan_fold(in, inout, (size_t)*len);
}

gp_status ranks_exscan(const void *mine, void *before, size_t item_bytes, size_t count,
                       ranks_fold *fold, diag_ctx *d)
{
    if (!joined)
        return GP_OK;
    if (count > INT32_MAX || item_bytes > INT32_MAX) {
        diag_error(d, 1414, DIAG_NOWHERE, "MPI: %zu items of %zu bytes are more than one "
                   "scan carries", count, item_bytes);
        return GP_ERR_UNSUPPORTED;
    }
    MPI_Datatype item;
    MPI_Op op;
    MPI_Type_contiguous((int)item_bytes, MPI_BYTE, &item);
    MPI_Type_commit(&item);
    MPI_Op_create(mpi_fold, 0, &op);
    scan_fold = fold;
    int err = MPI_Exscan(mine, before, (int)count, item, op, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    MPI_Type_free(&item);
    return err == MPI_SUCCESS ? GP_OK : mpi_failed(d, "the scan over the ranks (MPI_Exscan)", err);
}

gp_status ranks_recv(int from, void *data, size_t bytes, diag_ctx *d)
{
    char *p = data;
    size_t at = 0;
    do {
        size_t n = bytes - at < RANKS_MESSAGE_MAX ? bytes - at : RANKS_MESSAGE_MAX;
        int err = MPI_Recv(p + at, (int)n, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS)
            return mpi_failed(d, "receiving from another rank", err);
        at += n;
    } while (at < bytes);
    return GP_OK;
}
#endif
