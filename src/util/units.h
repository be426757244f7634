/* units.h: the one time unit.  Every time in gatepower is femtoseconds:
 * event stamps, the clock period and windows as int64, slews and delays as
 * double (a table's value or an NLDM slew is not a whole fs).  Readers
 * convert a file's unit into fs, writers fs into the unit they print; the
 * only other products with seconds are energies (W x fs) and powers (J per
 * fs of duration). */
#ifndef GP_UTIL_UNITS_H
#define GP_UTIL_UNITS_H

#define GP_FS_PER_S 1e15
#define GP_FS_PER_NS 1e6
#define GP_S_PER_FS 1e-15 /* a product, where a kernel would not divide */

/* 10^exponent, correctly rounded (10^k is exact in a double up to k = 22):
 * how a unit's prefix scales a value read in another unit, in one rounding. */
static inline double gp_power_of_ten(int exponent)
{
    double p = 1;
    for (int k = 0; k < (exponent < 0 ? -exponent : exponent); k++)
        p *= 10;
    return exponent < 0 ? 1 / p : p;
}

#endif
