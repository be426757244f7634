/* units.c: the unit words every reader shares: SI prefixes and time units,
 * scaled into femtoseconds (or any power of ten) in one rounding. */
#include "util/units.h"

#include <string.h>
#include <strings.h>

double gp_power_of_ten(int exponent)
{
    double p = 1;
    for (int k = 0; k < (exponent < 0 ? -exponent : exponent); k++)
        p *= 10;
    return exponent < 0 ? 1 / p : p;
}

bool gp_si_prefix(char c, int *exponent)
{
    static const char letters[] = "fpnumkM";
    static const int exponents[] = {-15, -12, -9, -6, -3, 3, 6};
    const char *at = c ? strchr(letters, c) : NULL;
    if (at)
        *exponent = exponents[at - letters];
    return at != NULL;
}

double gp_time_unit_fs(const char *s, size_t len, bool any_case)
{
    static const struct { const char *name; double fs; } units[] = {
        {"s", 1e15}, {"ms", 1e12}, {"us", 1e9}, {"ns", 1e6}, {"ps", 1e3}, {"fs", 1}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (len == strlen(units[i].name) &&
            (any_case ? strncasecmp(s, units[i].name, len) : strncmp(s, units[i].name, len)) == 0)
            return units[i].fs;
    return 0;
}
