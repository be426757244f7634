/* infile.h: reading an input file that may be gzip-compressed.
 *
 * Compression is detected by the gzip magic bytes (1f 8b), never by the name;
 * any other file is read as it is, with read(2).  Concatenated gzip members
 * are read as one stream, as gzip -d does.  Every failure is reported to the
 * diag_ctx with the file's path in the text (messages 1101-1106) before the
 * call returns; after a failed read the file stays failed.  Works on pipes and
 * FIFOs too (nothing is seeked).  diag_ctx must not be NULL. */
#ifndef GP_UTIL_INFILE_H
#define GP_UTIL_INFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/status.h"

typedef struct infile infile;

/* Opens `path`: GP_ERR_IO ("cannot open 'path': reason", message 1101) or
 * GP_ERR_NOMEM on failure, *out set to NULL then. */
gp_status infile_open(const char *path, diag_ctx *d, infile **out);

/* Reads up to n decompressed bytes into buf; fewer than n (*got) only at the
 * end of the input, 0 once there.  A read error, corrupt or truncated gzip
 * data gives GP_ERR_IO. */
gp_status infile_read(infile *f, void *buf, size_t n, size_t *got);

void infile_close(infile *f);

const char *infile_path(const infile *f);
bool infile_is_gzip(const infile *f);
/* The file's size on disk (compressed size for gzip), 0 if unknown (a pipe):
 * the total for a progress bar, with infile_raw_pos as its position. */
uint64_t infile_size_hint(const infile *f);
/* Bytes of the file on disk consumed so far. */
uint64_t infile_raw_pos(const infile *f);

/* The whole (decompressed) file, NUL-terminated for convenience (*len excludes
 * the NUL), in a block the caller releases with mem_free.  For small files. */
gp_status infile_read_all(const char *path, diag_ctx *d, char **data, size_t *len);

#endif
