/* units.h: the one time unit.  Every time in gatepower is femtoseconds:
 * event stamps, the clock period and windows as int64, slews and delays as
 * double (a table's value or an NLDM slew is not a whole fs).  Readers
 * convert a file's unit into fs, writers fs into the unit they print; the
 * only other products with seconds are energies (W x fs) and powers (J per
 * fs of duration).  The readers' unit words go through the helpers below. */
#ifndef GP_UTIL_UNITS_H
#define GP_UTIL_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#define GP_FS_PER_S 1e15
#define GP_FS_PER_NS 1e6
#define GP_S_PER_FS 1e-15 /* a product, where a kernel would not divide */
/* Times and delays must stay below this many fs to fit an int64 (2^63 fs,
 * 2.56 hours). */
#define GP_FS_LIMIT 9.2e18

/* 10^exponent, correctly rounded (10^k is exact in a double up to k = 22):
 * how a unit's prefix scales a value read in another unit, in one rounding. */
double gp_power_of_ten(int exponent);

/* The power of ten of an SI prefix letter (f p n u m k M); false when `c`
 * is none. */
bool gp_si_prefix(char c, int *exponent);

/* The length in fs of the time unit s[0..len) (s ms us ns ps fs, in any case
 * when `any_case`); 0 when it is none. */
double gp_time_unit_fs(const char *s, size_t len, bool any_case);

#endif
