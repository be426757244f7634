/* hostdev.h: GP_HOSTDEV marks the small pure functions that the host's C
 * and the CUDA kernels share (the reference engine's rules, a table's
 * interpolation): both then run the same expressions, written once.  Such
 * a function uses nothing but its arguments and <math.h>. */
#ifndef GP_UTIL_HOSTDEV_H
#define GP_UTIL_HOSTDEV_H

#ifdef __CUDACC__
#define GP_HOSTDEV static inline __host__ __device__
#else
#define GP_HOSTDEV static inline
#endif

#endif
