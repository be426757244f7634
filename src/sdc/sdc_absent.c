/* sdc_absent.c: sdc_read in a build without Tcl's development files. */
#include "sdc/sdc.h"

#ifndef GATEPOWER_HAVE_TCL

bool sdc_available(void) { return false; }

gp_status sdc_read(sdc **out, const design *dg, const lib_set *libs, const char *const *paths,
                   int n_paths, diag_ctx *d)
{
    (void)dg;
    (void)libs;
    *out = NULL;
    diag_error(d, 1651, ((diag_loc){n_paths ? paths[0] : NULL, 0, 0}),
               "this build reads no SDC: SDC is Tcl, and the build found no Tcl; install "
               "tcl-dev and rebuild");
    return GP_ERR_UNSUPPORTED;
}

void sdc_thread_done(void) {}
#endif
