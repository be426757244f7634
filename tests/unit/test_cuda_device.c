/* test_cuda_device.c: the CUDA build runs kernels on this machine's GPU.
 * Skips (exit 77, with the reason) on a build without CUDA or a machine
 * without a GPU, as CI is. */
#include "check.h"
#include "cuda/cuda_device.h"

static void test_query_and_selftest(void)
{
    diag_ctx *d = diag_new(stderr);
    cuda_device_info info;
    CHECK_EQ_INT(cuda_device_query(0, &info, d), GP_OK);
    CHECK(info.sm_count > 0);
    CHECK(info.global_mem_bytes > 0);
    CHECK(info.cc_major >= 5);
    fprintf(stderr, "device 0: %s, %d SMs, compute %d.%d, %.1f GB\n", info.name, info.sm_count,
            info.cc_major, info.cc_minor, (double)info.global_mem_bytes / 1e9);
    CHECK_EQ_INT(cuda_selftest(0, d), GP_OK);
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
}

static void test_bad_device_index_is_an_error(void)
{
    diag_ctx *d = diag_new(NULL);
    cuda_device_info info;
    CHECK(cuda_device_query(cuda_device_count() + 5, &info, d) != GP_OK);
    CHECK_EQ_INT(diag_first_error_no(d), 1502);
    diag_free(d);
}

int main(void)
{
    if (!cuda_built())
        check_skip("this build has no CUDA (configured with GATEPOWER_CUDA=OFF or without nvcc)");
    if (cuda_device_count() == 0)
        check_skip("no CUDA device on this machine (CI has none): GPU tests not run");
    RUN(test_query_and_selftest);
    RUN(test_bad_device_index_is_an_error);
    return check_exit_code();
}
