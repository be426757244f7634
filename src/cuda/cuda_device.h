/* cuda_device.h: the CUDA devices this build can use, behind a C interface.
 *
 * Built from cuda_device.cu when the CUDA toolkit is present, else from
 * cuda_absent.c, whose functions say "no CUDA" so that the program builds
 * and runs everywhere and GPU tests can skip with a message. */
#ifndef GP_CUDA_DEVICE_H
#define GP_CUDA_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"
#include "util/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuda_device_info {
    char name[256];
    int sm_count;
    int cc_major, cc_minor;      /* compute capability */
    size_t global_mem_bytes;
    int runtime_version;         /* e.g. 13000 for CUDA 13.0 */
    int driver_version;          /* 0 when no driver is loaded */
} cuda_device_info;

/* True when this build contains the CUDA engine. */
bool cuda_built(void);
/* The version of the CUDA toolkit this build was compiled with (0 if none). */
int cuda_build_version(void);
/* How many devices can be used: 0 without CUDA, without a driver or a GPU. */
int cuda_device_count(void);
/* Whether the NVIDIA kernel driver lists a GPU numbered `index`, found
 * without starting CUDA (whose start takes 0.1-0.2 s): true when no
 * CUDA_VISIBLE_DEVICES renumbers the GPUs and /proc/driver/nvidia/gpus
 * holds more than `index` of them.  False says only that CUDA must be
 * asked (cuda_device_count). */
bool cuda_device_listed(int index);
gp_status cuda_device_query(int index, cuda_device_info *out, diag_ctx *d);
/* Makes device `index`'s context, which the first CUDA call on a device
 * waits for, and its upload's pinned buffers (cuda_upload.h), so that a
 * call made later (on any thread) finds them made; for a thread started
 * while the inputs are read.  Failures are left for the later call to
 * report. */
void cuda_device_start(int index);
/* Ends the device's context (cudaDeviceReset), its upload's buffers
 * freed first, once no CUDA call follows. */
void cuda_device_stop(int index);
/* Runs a small kernel on device `index` and checks its result: proves the
 * build's device code runs on this GPU (right architecture, working driver). */
gp_status cuda_selftest(int index, diag_ctx *d);

#ifdef __cplusplus
}
#endif

#endif
