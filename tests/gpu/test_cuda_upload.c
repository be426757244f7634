/* test_cuda_upload.c: cuda_upload_bytes lands every byte where it belongs:
 * sizes below, at and between staging buffers, with the device's kept
 * buffers and with buffers of the call's own, after a release, and two
 * uploads to one device at once (the second makes its own).  CUDA builds
 * only; skips (exit 77) without a GPU, as CI has. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_upload.h"

/* Bytes that tell their offset and the upload apart. */
static unsigned char *pattern(size_t n, unsigned seed)
{
    unsigned char *p = malloc(n ? n : 1);
    for (size_t i = 0; p && i < n; i++)
        p[i] = (unsigned char)(i * 131u + (i >> 13) + seed);
    return p;
}

/* Uploads n bytes with o into a fresh device array (its bytes 0xee
 * first) and reads them back: true when every byte came and none past n
 * changed. */
static bool round_trip(size_t n, const cuda_upload_options *o, unsigned seed)
{
    unsigned char *src = pattern(n, seed), *back = malloc(n + 64), *dev = NULL;
    bool ok = src && back && cudaMalloc((void **)&dev, n + 64) == cudaSuccess &&
              cudaMemset(dev, 0xee, n + 64) == cudaSuccess &&
              cuda_upload_bytes(dev, src, n, o) == cudaSuccess &&
              cudaMemcpy(back, dev, n + 64, cudaMemcpyDeviceToHost) == cudaSuccess;
    ok = ok && memcmp(back, src, n) == 0;
    for (size_t i = n; ok && i < n + 64; i++)
        ok = back[i] == 0xee;
    cudaFree(dev);
    free(src);
    free(back);
    return ok;
}

static void test_sizes_with_kept_and_own_buffers(void)
{
    size_t stage = CUDA_UPLOAD_STAGE_BYTES;
    size_t sizes[] = {0, 1, 7, stage - 1, stage, stage + 1, 5 * stage + 12345, 37 * stage + 3};
    cuda_upload_options kept = cuda_upload_defaults();
    cuda_upload_options small = kept;
    small.stage_bytes = 4096; /* its own buffers: many chunks a worker */
    small.workers = 3;
    cuda_upload_options wc = kept;
    wc.write_combined = true;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        CHECK(round_trip(sizes[k], &kept, (unsigned)k));
        CHECK(round_trip(sizes[k], &kept, (unsigned)k + 100)); /* the kept buffers again */
        CHECK(round_trip(sizes[k] < 3000000 ? sizes[k] : 3000000, &small, (unsigned)k + 200));
        CHECK(round_trip(sizes[k], &wc, (unsigned)k + 300));
    }
}

static void test_after_release(void)
{
    cuda_upload_options o = cuda_upload_defaults();
    o.workers = 4;
    CHECK(round_trip(9 * CUDA_UPLOAD_STAGE_BYTES + 5, &o, 1));
    cuda_upload_release(0);
    CHECK(round_trip(9 * CUDA_UPLOAD_STAGE_BYTES + 5, &o, 2));
    cuda_upload_prepare(0);
    CHECK(round_trip(9 * CUDA_UPLOAD_STAGE_BYTES + 5, &o, 3));
    cuda_upload_release(0);
    cuda_upload_release(0); /* nothing left to free */
}

static void *upload_beside(void *arg)
{
    bool *ok = arg;
    cuda_upload_options o = cuda_upload_defaults();
    for (int r = 0; r < 4; r++)
        *ok = round_trip(21 * CUDA_UPLOAD_STAGE_BYTES + 999, &o, 40 + (unsigned)r) && *ok;
    return NULL;
}

static void test_two_at_once(void)
{
    bool ok = true;
    pthread_t beside;
    CHECK(pthread_create(&beside, NULL, upload_beside, &ok) == 0);
    cuda_upload_options o = cuda_upload_defaults();
    for (int r = 0; r < 4; r++)
        CHECK(round_trip(17 * CUDA_UPLOAD_STAGE_BYTES + 77, &o, 50 + (unsigned)r));
    pthread_join(beside, NULL);
    CHECK(ok);
}

int main(void)
{
    if (cuda_device_count() == 0)
        check_skip("no CUDA device on this machine (CI has none): GPU tests not run");
    RUN(test_sizes_with_kept_and_own_buffers);
    RUN(test_after_release);
    RUN(test_two_at_once);
    cuda_device_stop(0); /* releases the kept buffers, then the context */
    return check_exit_code();
}
