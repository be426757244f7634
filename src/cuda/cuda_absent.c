/* cuda_absent.c: the CUDA interface of a build without the CUDA toolkit.
 * Every query answers "no device"; nothing pretends to compute. */
#include "cuda/cuda_device.h"

bool cuda_built(void) { return false; }
int cuda_build_version(void) { return 0; }
int cuda_device_count(void) { return 0; }

gp_status cuda_device_query(int index, cuda_device_info *out, diag_ctx *d)
{
    (void)out;
    diag_error(d, 1501, DIAG_NOWHERE,
               "device %d: this gatepower was built without CUDA (rebuild with nvcc installed "
               "and GATEPOWER_CUDA=AUTO or ON)",
               index);
    return GP_ERR_UNSUPPORTED;
}

gp_status cuda_selftest(int index, diag_ctx *d)
{
    cuda_device_info unused;
    return cuda_device_query(index, &unused, d);
}
