/* cuda_absent.c: the CUDA interface of a build without the CUDA toolkit.
 * Every query answers "no device" and the power engine "not in this
 * build"; nothing pretends to compute. */
#include "cuda/cuda_device.h"
#include "cuda/cuda_power.h"
#include "cuda/cuda_resim.h"

bool cuda_built(void) { return false; }
int cuda_build_version(void) { return 0; }
int cuda_device_count(void) { return 0; }
bool cuda_device_listed(int index) { (void)index; return false; }
void cuda_device_start(int index) { (void)index; }
void cuda_device_stop(int index) { (void)index; }

static gp_status not_built(int device, diag_ctx *d)
{
    diag_error(d, 1501, DIAG_NOWHERE,
               "device %d: this gatepower was built without CUDA (rebuild with nvcc installed "
               "and GATEPOWER_CUDA=AUTO or ON, or use --engine cpu)",
               device);
    return GP_ERR_UNSUPPORTED;
}

gp_status cuda_power_check_device(int device, diag_ctx *d) { return not_built(device, d); }

gp_status cuda_device_query(int index, cuda_device_info *out, diag_ctx *d)
{
    (void)out;
    return not_built(index, d);
}

gp_status cuda_selftest(int index, diag_ctx *d) { return not_built(index, d); }

gp_status cuda_power_open(const design *dg, const events *ev, const power_options *opt,
                          int device, cuda_power_session **out, cuda_power_open_timing *timing,
                          diag_ctx *d)
{
    (void)dg, (void)ev, (void)opt, (void)timing;
    *out = NULL;
    return not_built(device, d);
}

gp_status cuda_power_open_resident(const design *dg, const events *host_ev,
                                   const cuda_events *dev, const power_options *opt,
                                   cuda_power_session **out, cuda_power_open_timing *timing,
                                   diag_ctx *d)
{
    (void)dg, (void)host_ev, (void)opt, (void)timing;
    *out = NULL;
    return not_built(dev->device, d);
}

gp_status cuda_power_run(cuda_power_session *s, const cuda_power_options *copt,
                         power_result **out, cuda_power_timing *timing, diag_ctx *d)
{
    (void)s, (void)timing;
    if (out)
        *out = NULL;
    return not_built(copt->device, d);
}

void cuda_power_close(cuda_power_session *s) { (void)s; }

gp_status cuda_power_analyze(const design *dg, const events *ev, const power_options *opt,
                             const cuda_power_options *copt, power_result **out, diag_ctx *d)
{
    (void)dg, (void)ev, (void)opt;
    *out = NULL;
    return not_built(copt->device, d);
}

int cuda_power_kernel_reports(const cuda_power_session *s, const cuda_power_options *copt,
                              cuda_kernel_report *out, int max)
{
    (void)s, (void)copt, (void)out, (void)max;
    return 0;
}

cuda_resim_options cuda_resim_defaults(void)
{
    return (cuda_resim_options){0, CUDA_RESIM_WINDOW_EVENTS, true, true};
}

gp_status cuda_resim_run(const resim_plan *p, const cuda_resim_options *o, cuda_events **out,
                         resim_stats *stats, cuda_resim_timing *timing, diag_ctx *d)
{
    (void)p, (void)stats, (void)timing;
    *out = NULL;
    return not_built(o->device, d);
}

gp_status cuda_events_download(const cuda_events *e, events **out, diag_ctx *d)
{
    *out = NULL;
    return not_built(e->device, d);
}

void cuda_events_free(cuda_events *e) { (void)e; }
