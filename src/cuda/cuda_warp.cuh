/* cuda_warp.cuh: a warp's counts summed into one atomic, a warp's sum and
 * running sum, for any kernel (the power kernels, the re-simulation's).
 * CUDA C++ only. */
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

/* The warp's sum of v, the same in every lane (every lane of the warp must
 * call it; for doubles, in the same order in every call). */
template <typename T> __device__ __forceinline__ T warp_sum(T v)
{
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

/* Lane k gets v's sum over lanes 0 .. k.  Every thread of the warp must
 * call it. */
__device__ __forceinline__ unsigned long long warp_inclusive_sum(unsigned long long v)
{
    unsigned lane = threadIdx.x & 31;
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned long long other = __shfl_up_sync(0xffffffffu, v, d);
        v += lane >= d ? other : 0;
    }
    return v;
}

#endif
