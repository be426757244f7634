/* status.h: the result codes every library function returns.
 *
 * The library never exits the process: a failing call returns one of these,
 * after reporting the details (file, line, message number) to a diag_ctx. */
#ifndef GP_UTIL_STATUS_H
#define GP_UTIL_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_status {
    GP_OK = 0,
    GP_ERR_IO,          /* a file could not be opened, read or written */
    GP_ERR_PARSE,       /* the input is malformed */
    GP_ERR_INPUT,       /* well-formed input that does not make sense (unknown cell, ...) */
    GP_ERR_NOMEM,       /* an allocation failed */
    GP_ERR_UNSUPPORTED, /* a construct or feature this build does not handle */
    GP_ERR_USAGE        /* a bad command-line option or argument */
} gp_status;

/* A short English name of a status, e.g. "parse error". */
const char *gp_status_name(gp_status s);

#ifdef __cplusplus
}
#endif

#endif
