/* ranks.h: the processes of one run started by an MPI launcher (mpirun -np N,
 * Slurm's srun): how many there are, which one this is, which GPU-sharing
 * group of one host it is in, and the few exchanges they make: whether all
 * of them succeeded, and blocks of bytes from one rank to another.  A process
 * that no launcher started, or a build without MPI, is the one rank of its
 * run; every call then works without MPI.
 *
 * Every rank makes the same calls in the same order (they are collective
 * or paired); messages are raw bytes, so the ranks run the same build on
 * machines of one byte order. */
#ifndef GP_RANKS_RANKS_H
#define GP_RANKS_RANKS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"
#include "util/status.h"

/* Joins the run's ranks when a launcher started this process (its
 * environment says so); otherwise, or on error (reported), this process is
 * one rank alone.  Call once, before any other call here. */
gp_status ranks_start(int *argc, char ***argv, diag_ctx *d);
/* Leaves the run; every rank calls it once, at the end. */
void ranks_stop(void);

/* Whether this build can join ranks (it has MPI). */
bool ranks_built(void);
int ranks_rank(void);        /* 0 .. ranks_count() - 1 */
int ranks_count(void);
/* This rank's place among the ranks of its host, and their number. */
int ranks_local_rank(void);
int ranks_local_count(void);

/* Whether `ok` holds on every rank; every rank waits for the others. */
bool ranks_all_ok(bool ok);
/* Sends `bytes` at data to rank `to`, which receives them with ranks_recv
 * (the same size). */
gp_status ranks_send(int to, const void *data, size_t bytes, diag_ctx *d);
gp_status ranks_recv(int from, void *data, size_t bytes, diag_ctx *d);

/* Folds `count` items of the ranks before into as many of the ranks after
 * them, in place: after[k] becomes before[k] followed by after[k].  It
 * must be associative; it need not be commutative. */
typedef void ranks_fold(const void *before, void *after, size_t count);
/* The exclusive scan of `count` items of `item_bytes` each, in rank order:
 * rank r's `before` gets the fold of ranks 0 .. r - 1's `mine` (rank 0's
 * is left undefined).  Every rank passes the same count and size. */
gp_status ranks_exscan(const void *mine, void *before, size_t item_bytes, size_t count,
                       ranks_fold *fold, diag_ctx *d);

#endif
