/* bitname.h: how a flat name spells a bit of a vector, "v[3]" (its declared
 * index; docs/model.md).  The netlist's nets and the activity's signals
 * are matched by their names, so the Verilog and VCD readers write the
 * index alike, through this. */
#ifndef GP_UTIL_BITNAME_H
#define GP_UTIL_BITNAME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the longest index text, "[-9223372036854775808]". */
#define BITNAME_INDEX_MAX 24

/* "[index]" into out (not NUL-terminated); its length. */
size_t bitname_index(int64_t index, char out[BITNAME_INDEX_MAX]);

#ifdef __cplusplus
}
#endif

#endif
