/* cli_time.c: times, capacitances and sizes given on the command line
 * ("10ns", "2.5 us", "0:1us", "10fF", "512M"). */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    double fs;
} time_units[] = {{"s", 1e15}, {"ms", 1e12}, {"us", 1e9}, {"ns", 1e6}, {"ps", 1e3}, {"fs", 1.0}};

/* A plain non-negative decimal number and what follows it (blanks
 * skipped); false for anything else. */
static bool parse_number(const char *text, double *value, const char **unit)
{
    if (!(isdigit((unsigned char)text[0]) || text[0] == '.') || strpbrk(text, "xX"))
        return false; /* strtod would take hex, inf, nan, signs and blanks */
    char *end;
    *value = strtod(text, &end);
    if (end == text || !isfinite(*value) || *value < 0)
        return false;
    while (*end == ' ')
        end++;
    *unit = end;
    return true;
}

bool cli_parse_time(const char *text, int64_t *fs)
{
    double value;
    const char *unit;
    if (!parse_number(text, &value, &unit))
        return false;
    for (size_t u = 0; u < sizeof time_units / sizeof time_units[0]; u++) {
        if (strcmp(unit, time_units[u].name) != 0)
            continue;
        double scaled = value * time_units[u].fs;
        if (scaled >= 9.2e18)
            return false;
        *fs = (int64_t)llround(scaled);
        return true;
    }
    return false;
}

bool cli_parse_capacitance(const char *text, double *farads)
{
    static const struct {
        const char *name;
        double farads;
    } units[] = {{"F", 1}, {"uF", 1e-6}, {"nF", 1e-9}, {"pF", 1e-12}, {"fF", 1e-15}};
    double value;
    const char *unit;
    if (!parse_number(text, &value, &unit))
        return false;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
        if (strcmp(unit, units[u].name) == 0) {
            *farads = value * units[u].farads;
            return true;
        }
    return false;
}

bool cli_parse_window(const char *text, int64_t *start_fs, int64_t *end_fs)
{
    const char *colon = strchr(text, ':');
    if (!colon || colon - text >= 64)
        return false;
    char first[64];
    memcpy(first, text, (size_t)(colon - text));
    first[colon - text] = '\0';
    return cli_parse_time(first, start_fs) && cli_parse_time(colon + 1, end_fs);
}

bool cli_parse_size(const char *text, uint64_t *bytes)
{
    static const char units[] = "KMGT";
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || !isdigit((unsigned char)text[0]))
        return false;
    const char *unit = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    if (*end && (!unit || end[1] != '\0'))
        return false;
    int shift = unit ? 10 * (int)(unit - units + 1) : 0;
    if (v == 0 || v > (UINT64_MAX >> shift))
        return false;
    *bytes = (uint64_t)v << shift;
    return true;
}
