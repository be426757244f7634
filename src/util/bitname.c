/* bitname.c: a vector bit's index as flat names spell it (bitname.h). */
#include "util/bitname.h"

size_t bitname_index(int64_t index, char out[BITNAME_INDEX_MAX])
{
    char digits[20];
    size_t n = 0, len = 0;
    uint64_t mag = index < 0 ? 0 - (uint64_t)index : (uint64_t)index;
    do
        digits[n++] = (char)('0' + mag % 10);
    while ((mag /= 10) > 0);
    out[len++] = '[';
    if (index < 0)
        out[len++] = '-';
    while (n > 0)
        out[len++] = digits[--n];
    out[len++] = ']';
    return len;
}
