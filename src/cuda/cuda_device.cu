/* cuda_device.cu: device discovery, contexts made and ended, and a
 * self-test kernel (see cuda_device.h). */
#include "cuda/cuda_device.h"

#include <cuda_runtime.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_upload.h"

/* Reports a failed CUDA call as message `msgno` and returns GP_ERR_UNSUPPORTED. */
static gp_status cuda_fail(diag_ctx *d, int msgno, const char *what, cudaError_t err)
{
    diag_error(d, msgno, DIAG_NOWHERE, "%s: %s (%s)", what, cudaGetErrorString(err),
               cudaGetErrorName(err));
    return GP_ERR_UNSUPPORTED;
}

extern "C" bool cuda_built(void) { return true; }
extern "C" int cuda_build_version(void) { return CUDART_VERSION; }

extern "C" int cuda_device_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no GPU: clear the sticky error */
        return 0;
    }
    return count;
}

extern "C" bool cuda_device_listed(int index)
{
    if (getenv("CUDA_VISIBLE_DEVICES"))
        return false;
    DIR *gpus = opendir("/proc/driver/nvidia/gpus");
    if (!gpus)
        return false;
    int listed = 0;
    for (struct dirent *e; (e = readdir(gpus));)
        listed += e->d_name[0] != '.';
    closedir(gpus);
    return index >= 0 && index < listed;
}

extern "C" void cuda_device_stop(int index)
{
    cuda_upload_release(index); /* its buffers belong to the context */
    if (cudaSetDevice(index) == cudaSuccess)
        cudaDeviceReset();
    cudaGetLastError();
}

extern "C" void cuda_device_start(int index)
{
    if (cudaSetDevice(index) != cudaSuccess || cudaFree(0) != cudaSuccess) {
        cudaGetLastError(); /* this thread's error: the later call meets and reports it */
        return;
    }
    cuda_upload_prepare(index);
}

extern "C" gp_status cuda_device_query(int index, cuda_device_info *out, diag_ctx *d)
{
    cudaDeviceProp prop;
    cudaError_t err = cudaGetDeviceProperties(&prop, index);
    if (err != cudaSuccess)
        return cuda_fail(d, 1502, "cannot query the CUDA device", err);
    memset(out, 0, sizeof *out);
    strncpy(out->name, prop.name, sizeof out->name - 1);
    out->sm_count = prop.multiProcessorCount;
    out->cc_major = prop.major;
    out->cc_minor = prop.minor;
    out->global_mem_bytes = prop.totalGlobalMem;
    cudaRuntimeGetVersion(&out->runtime_version);
    cudaDriverGetVersion(&out->driver_version);
    return GP_OK;
}

/* Each thread adds its global index: the total is n(n-1)/2. */
__global__ static void cuda_selftest_sum(unsigned long long *total, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, (unsigned long long)i);
}

extern "C" gp_status cuda_selftest(int index, diag_ctx *d)
{
    const unsigned n = 1u << 20;
    unsigned long long *dev_total = NULL, total = 0;
    cudaError_t err = cudaSetDevice(index);
    if (err != cudaSuccess)
        return cuda_fail(d, 1503, "cannot select the CUDA device", err);
    if ((err = cudaMalloc(&dev_total, sizeof total)) != cudaSuccess)
        return cuda_fail(d, 1504, "cannot allocate device memory", err);
    cudaMemset(dev_total, 0, sizeof total);
    cuda_selftest_sum<<<(n + 255) / 256, 256>>>(dev_total, n);
    err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaMemcpy(&total, dev_total, sizeof total, cudaMemcpyDeviceToHost);
    cudaFree(dev_total);
    if (err != cudaSuccess)
        return cuda_fail(d, 1505, "the self-test kernel did not run", err);
    unsigned long long expected = (unsigned long long)n * (n - 1) / 2;
    if (total != expected) {
        diag_error(d, 1506, DIAG_NOWHERE, "the self-test kernel computed %llu instead of %llu",
                   total, expected);
        return GP_ERR_UNSUPPORTED;
    }
    return GP_OK;
}
