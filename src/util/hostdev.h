/* hostdev.h: GP_HOSTDEV marks the small pure functions that the host's C
 * and the CUDA kernels share (the power rules, a table's interpolation):
 * both then run the same expressions, written once.  Such a function uses
 * nothing but its arguments and <math.h>; on the device it is always
 * inlined, so that a constant argument (a kernel variant's switch) leaves
 * one path.  GP_UNROLL_1 keeps a loop rolled in a kernel (lanes that take
 * different paths wait for each other's instructions). */
#ifndef GP_UTIL_HOSTDEV_H
#define GP_UTIL_HOSTDEV_H

#ifdef __CUDACC__
#define GP_HOSTDEV static __forceinline__ __host__ __device__
#define GP_UNROLL_1 _Pragma("unroll 1")
#else
#define GP_HOSTDEV static inline
#define GP_UNROLL_1
#endif

#endif
