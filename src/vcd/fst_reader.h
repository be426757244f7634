/* fst_reader.h: reading activity from FST files (gatepower's own reader of
 * GTKWave's format) behind vcd.h's interface: vcd_read hands FST files to
 * fst_read, which gives the sink the same calls as for the equivalent VCD.
 * Builds without fstapi's sources (cmake/fstapi.cmake: the writer, and
 * FastLZ for the reader) answer with an error. */
#ifndef GP_VCD_FST_READER_H
#define GP_VCD_FST_READER_H

#include "vcd/vcd.h"

gp_status fst_read(const char *path, const vcd_options *opt, const vcd_sink *sink, diag_ctx *d);

#endif
