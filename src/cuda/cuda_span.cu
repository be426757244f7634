/* cuda_span.cu: device memory in one growing address range (cuda_span.h),
 * through the driver's virtual memory management functions. */
#include "cuda/cuda_span.h"

#include <cuda.h>
#include <pthread.h>
#include <stdint.h>

#define ALIGN ((size_t)256)

/* The driver's functions, looked up once (their CUDA 12.0 versions). */
static struct {
    CUresult (*granularity)(size_t *, const CUmemAllocationProp *,
                            CUmemAllocationGranularity_flags);
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *,
                       unsigned long long);
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                    unsigned long long);
    CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*release)(CUmemGenericAllocationHandle);
    CUresult (*unmap)(CUdeviceptr, size_t);
    CUresult (*address_free)(CUdeviceptr, size_t);
    bool found;
} driver;

static pthread_once_t driver_once = PTHREAD_ONCE_INIT;

/* The driver's function `name`, or NULL (the runtime's lookup changed
 * with CUDA 12.0 and 12.5; Debian's toolkits span both). */
static void *entry_point(const char *name)
{
    void *p = NULL;
#if CUDART_VERSION >= 12050
    cudaDriverEntryPointQueryResult result = cudaDriverEntryPointSymbolNotFound;
    cudaError_t err = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &result);
    bool found = err == cudaSuccess && result == cudaDriverEntryPointSuccess;
#elif CUDART_VERSION >= 12000
    cudaDriverEntryPointQueryResult result = cudaDriverEntryPointSymbolNotFound;
    cudaError_t err = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault, &result);
    bool found = err == cudaSuccess && result == cudaDriverEntryPointSuccess;
#else
    bool found = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault) == cudaSuccess;
#endif
    if (!found)
        cudaGetLastError();
    return found ? p : NULL;
}

template <typename F> static void look_up(F *fn, const char *name, bool *found)
{
    void *p = entry_point(name);
    *found = *found && p != NULL;
    *fn = (F)p;
}

static void find_driver(void)
{
    bool found = true;
    look_up(&driver.granularity, "cuMemGetAllocationGranularity", &found);
    look_up(&driver.reserve, "cuMemAddressReserve", &found);
    look_up(&driver.create, "cuMemCreate", &found);
    look_up(&driver.map, "cuMemMap", &found);
    look_up(&driver.set_access, "cuMemSetAccess", &found);
    look_up(&driver.release, "cuMemRelease", &found);
    look_up(&driver.unmap, "cuMemUnmap", &found);
    look_up(&driver.address_free, "cuMemAddressFree", &found);
    driver.found = found;
}

static cudaError_t from_driver(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS:
        return cudaSuccess;
    case CUDA_ERROR_OUT_OF_MEMORY:
        return cudaErrorMemoryAllocation;
    case CUDA_ERROR_NOT_SUPPORTED:
        return cudaErrorNotSupported;
    case CUDA_ERROR_INVALID_VALUE:
        return cudaErrorInvalidValue;
    default:
        return cudaErrorUnknown;
    }
}

/* Device memory of `device`, pinned. */
static CUmemAllocationProp device_memory(int device)
{
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    return prop;
}

static size_t round_up(size_t bytes, size_t to)
{
    return (bytes + to - 1) / to * to;
}

cudaError_t cuda_span_open(cuda_span *s, int device)
{
    *s = cuda_span{};
    s->device = device;
    pthread_once(&driver_once, find_driver);
    if (!driver.found)
        return cudaErrorNotSupported;
    size_t free_bytes = 0, total = 0;
    cudaError_t err = cudaMemGetInfo(&free_bytes, &total);
    if (err != cudaSuccess)
        return err;
    CUmemAllocationProp prop = device_memory(device);
    CUresult r = driver.granularity(&s->granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    CUdeviceptr base = 0;
    if (r == CUDA_SUCCESS) {
        s->reserved = round_up(total, s->granularity);
        r = driver.reserve(&base, s->reserved, s->granularity, 0, 0);
    }
    if (r != CUDA_SUCCESS) {
        *s = cuda_span{};
        return from_driver(r);
    }
    s->base = (char *)base;
    return cudaSuccess;
}

/* At least `short_by` more bytes mapped at the mapped part's end. */
static cudaError_t map_more(cuda_span *s, size_t short_by)
{
    size_t step = round_up(short_by > CUDA_SPAN_STEP ? short_by : CUDA_SPAN_STEP, s->granularity);
    if (step > s->reserved - s->mapped)
        step = s->reserved - s->mapped;
    CUmemAllocationProp prop = device_memory(s->device);
    CUmemGenericAllocationHandle memory;
    CUdeviceptr at = (CUdeviceptr)(s->base + s->mapped);
    CUresult r = driver.create(&memory, step, &prop, 0);
    if (r == CUDA_SUCCESS) {
        r = driver.map(at, step, 0, memory, 0);
        driver.release(memory); /* the mapping holds the memory until it is unmapped */
    }
    if (r == CUDA_SUCCESS) {
        CUmemAccessDesc access = {};
        access.location = prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        r = driver.set_access(at, step, &access, 1);
        if (r != CUDA_SUCCESS)
            driver.unmap(at, step);
    }
    if (r == CUDA_SUCCESS)
        s->mapped += step;
    return from_driver(r);
}

cudaError_t cuda_span_take(cuda_span *s, size_t bytes, void **p)
{
    if (bytes > SIZE_MAX - ALIGN)
        return cudaErrorMemoryAllocation;
    size_t need = bytes ? round_up(bytes, ALIGN) : ALIGN;
    if (need > s->reserved - s->used)
        return cudaErrorMemoryAllocation;
    if (s->used + need > s->mapped) {
        cudaError_t err = map_more(s, s->used + need - s->mapped);
        if (err != cudaSuccess)
            return err;
    }
    *p = s->base + s->used;
    s->used += need;
    return cudaSuccess;
}

void cuda_span_close(cuda_span *s)
{
    if (s->base) {
        int current = s->device;
        cudaGetDevice(&current);
        cudaSetDevice(s->device);
        cudaDeviceSynchronize(); /* as cudaFree does: no kernel may still read the memory */
        if (s->mapped)
            driver.unmap((CUdeviceptr)s->base, s->mapped);
        driver.address_free((CUdeviceptr)s->base, s->reserved);
        cudaSetDevice(current);
    }
    *s = cuda_span{};
}
