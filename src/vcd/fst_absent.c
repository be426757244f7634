/* fst_absent.c: fst_read in a build without GTKWave's fstapi. */
#include "vcd/fst_reader.h"

#ifndef GATEPOWER_HAVE_FST

gp_status fst_read(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d)
{
    (void)opt;
    (void)sink;
    diag_error(d, 6199, DIAG_NOWHERE,
               "'%s' is an FST file, but this build has no FST support: install verilator (it "
               "ships GTKWave's fstapi sources) and rebuild, or convert the file with fst2vcd",
               path);
    return GP_ERR_UNSUPPORTED;
}
#endif
