/* vec.h: typed growable arrays, header-only.
 *
 * VEC_DECLARE(name, T) defines
 *     typedef struct name { T *data; size_t len, cap; } name;
 * and static inline functions name_push, name_reserve, name_resize, name_pop
 * and name_free.  A zero-initialised struct is an empty vector.  Capacity
 * doubles (from 8), so pushes are amortised O(1); sizes are checked against
 * overflow.  A function that fails to allocate returns false and leaves the
 * vector as it was.  `data` may move on any growth: do not keep pointers into
 * it across a push, reserve or resize.  Memory comes from mem_realloc. */
#ifndef GP_UTIL_VEC_H
#define GP_UTIL_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/mem.h"

#define VEC_MIN_CAP 8
/* The generated functions: `unused` keeps compilers quiet about the ones a
 * file that expands VEC_DECLARE itself does not call. */
#define VEC_FN static inline __attribute__((unused))

#define VEC_DECLARE(name, T)                                                 \
    typedef struct name {                                                    \
        T *data;                                                             \
        size_t len, cap;                                                     \
    } name;                                                                  \
                                                                             \
    /* Room for at least n elements. */                                      \
    VEC_FN bool name##_reserve(name *v, size_t n)                     \
    {                                                                        \
        if (n <= v->cap)                                                     \
            return true;                                                     \
        size_t max_elems = SIZE_MAX / sizeof(T);                             \
        if (n > max_elems)                                                   \
            return false;                                                    \
        size_t cap = v->cap ? v->cap : VEC_MIN_CAP;                          \
        while (cap < n)                                                      \
            cap = cap > max_elems / 2 ? n : cap * 2;                         \
        T *data = mem_realloc(v->data, cap * sizeof(T));                     \
        if (!data)                                                           \
            return false;                                                    \
        v->data = data;                                                      \
        v->cap = cap;                                                        \
        return true;                                                         \
    }                                                                        \
                                                                             \
    VEC_FN bool name##_push(name *v, T x)                             \
    {                                                                        \
        if (v->len == v->cap && !name##_reserve(v, v->len + 1))              \
            return false;                                                    \
        v->data[v->len++] = x;                                               \
        return true;                                                         \
    }                                                                        \
                                                                             \
    /* Sets the length to n: new elements are all-bits zero, a shrink keeps  \
     * the capacity. */                                                      \
    VEC_FN bool name##_resize(name *v, size_t n)                      \
    {                                                                        \
        if (n > v->len) {                                                    \
            if (!name##_reserve(v, n))                                       \
                return false;                                                \
            memset(v->data + v->len, 0, (n - v->len) * sizeof(T));           \
        }                                                                    \
        v->len = n;                                                          \
        return true;                                                         \
    }                                                                        \
                                                                             \
    /* Removes the last element into *out (out may be NULL); false if empty. */ \
    VEC_FN bool name##_pop(name *v, T *out)                           \
    {                                                                        \
        if (v->len == 0)                                                     \
            return false;                                                    \
        v->len--;                                                            \
        if (out)                                                             \
            *out = v->data[v->len];                                          \
        return true;                                                         \
    }                                                                        \
                                                                             \
    /* Frees the storage; the vector is empty and usable again. */           \
    VEC_FN void name##_free(name *v)                                  \
    {                                                                        \
        mem_free(v->data);                                                   \
        v->data = NULL;                                                      \
        v->len = v->cap = 0;                                                 \
    }

VEC_DECLARE(vec_i32, int32_t)
VEC_DECLARE(vec_u32, uint32_t)
VEC_DECLARE(vec_i64, int64_t)
VEC_DECLARE(vec_u64, uint64_t)
VEC_DECLARE(vec_f64, double)
VEC_DECLARE(vec_ptr, void *)
VEC_DECLARE(vec_u8, uint8_t)
VEC_DECLARE(vec_char, char)

#endif
