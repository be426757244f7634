/* cuda_warp.cuh: a warp's counts summed into one atomic, for any kernel
 * (the power kernels, the re-simulation's).  CUDA C++ only. */
#ifndef GP_CUDA_CUDA_WARP_CUH
#define GP_CUDA_CUDA_WARP_CUH

/* Adds each thread's count into *total, one atomic per warp.  Every thread
 * of the warp must call it. */
__device__ __forceinline__ void add_count(unsigned long long *total, unsigned long long n)
{
    for (int d = 16; d > 0; d /= 2)
        n += __shfl_down_sync(0xffffffffu, n, d);
    if ((threadIdx.x & 31) == 0 && n)
        atomicAdd(total, n);
}

#endif
