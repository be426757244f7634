/* status.c: names of the library's result codes. */
#include "util/status.h"

const char *gp_status_name(gp_status s)
{
    switch (s) {
    case GP_OK: return "ok";
    case GP_ERR_IO: return "I/O error";
    case GP_ERR_PARSE: return "parse error";
    case GP_ERR_INPUT: return "input error";
    case GP_ERR_NOMEM: return "out of memory";
    case GP_ERR_UNSUPPORTED: return "unsupported";
    case GP_ERR_USAGE: return "usage error";
    }
    return "unknown status";
}
