/* cuda_kernels.cu: the power kernels' common part (cuda_kernels.h): what
 * a run plans on the device before its power kernels, and what they share
 * after.  The power kernels: the walk (cuda_walk.cu), the paper's Naive-D
 * (cuda_naive.cu), the warp per gate (cuda_gate.cu, the default); the
 * rules they apply are power_rules.h's, the CPU engine's own, so that only
 * the order of the sums differs.
 *
 *   memo kernel          one thread per instance: its group energies and its
 *                        outputs' energies without a related pin.
 *   count, epochs        per net, its events in the window, and where they
 *                        stand at each epoch's start: walks start their
 *                        pins there.
 *   windows, task_insts  the gates' windows by event density, the tasks'
 *                        gates; pin_events: Naive-D's events by pin.
 *   levels kernel        the walks' leakage of whole cycles into the bins.
 *
 * Every booking is an atomic add (float64, or the 128-bit fixed point of
 * cuda_power.h). */
#include "cuda/cuda_kernels.h"

#include <cub/device/device_scan.cuh>

#include "cuda/cuda_rules.cuh"

/* ---- per-instance group energies (the memo switch) ------------------------------- */

/* Each instance's memo (power_memo_fill), a thread an instance. */
__global__ void memo_kernel(const __grid_constant__ cuda_dev_model m, double *memo)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m.n_insts)
        power_memo_fill(&m, i, memo + m.inst_memo0[i]);
}

/* ---- planning ------------------------------------------------------------------------ */

__global__ void count_kernel(cuda_dev_model m, cuda_dev_plan p, cuda_dev_tasks t)
{
    uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= m.n_nets)
        return;
    uint64_t lo = m.net_begin[n], hi = m.net_end[n];
    uint64_t a = first_at_or_after(m.ev, lo, hi, p.t0);
    t.net_first[n] = a;
    t.net_count[n] = first_at_or_after(m.ev, a, hi, p.t1) - a;
}

/* epoch_first: one warp a net, its lanes over the net's window events.
 * Event r (relative to net_first) is the first at or after the starts of
 * the epochs that begin after event r - 1 and not after event r; the
 * epochs after the last event get net_count.  Each entry is written once.
 * A net with many events an epoch (a clock over a long run) is searched
 * instead, a lane an epoch, where that reads fewer events. */
__global__ void epochs_kernel(cuda_dev_model m, cuda_dev_plan p, cuda_dev_tasks t)
{
    uint64_t net = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (net >= m.n_nets)
        return;
    uint64_t first = t.net_first[net], count = t.net_count[net];
    uint32_t *row = t.epoch_first + net * t.n_epochs;
    int64_t span = p.period * (int64_t)t.epoch_cycles;
    if ((uint64_t)t.n_epochs * (64 - __clzll(count)) < count) {
        for (uint64_t j = threadIdx.x & 31; j < t.n_epochs; j += 32)
            row[j] = (uint32_t)(first_at_or_after(m.ev, first, first + count,
                                                  p.t0 + (int64_t)j * span) - first);
        return;
    }
    for (uint64_t r = threadIdx.x & 31; r <= count; r += 32) {
        /* Epochs [j0, j1): those starting after event r - 1, at or before event r. */
        uint64_t j0 = r == 0 ? 0 : (uint64_t)((ev_time(m.ev[first + r - 1]) - p.t0) / span) + 1;
        uint64_t j1 = r == count ? t.n_epochs
                                 : (uint64_t)((ev_time(m.ev[first + r]) - p.t0) / span) + 1;
        for (uint64_t j = j0; j < j1 && j < t.n_epochs; j++)
            row[j] = (uint32_t)r;
    }
}

/* Gate g's window (the paper's event-density-aware partitioning, or one
 * cycle; then a whole number of epochs) and its task count, written into
 * task0[g] for the scan. */
__global__ void windows_kernel(cuda_dev_model m, cuda_dev_plan p, cuda_power_options o,
                               cuda_dev_tasks t)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g > m.n_insts)
        return;
    if (g == m.n_insts) {
        t.task0[g] = 0;
        return;
    }
    uint32_t window = 1;
    if (o.partition) {
        uint64_t n_events = 0;
        for (uint32_t pin = m.inst_pin0[g]; pin < m.inst_pin0[g + 1]; pin++)
            n_events += m.pin_net[pin] == DESIGN_NONE ? 0 : t.net_count[m.pin_net[pin]];
        uint32_t floor_window = (p.n_cycles + o.min_windows - 1) / o.min_windows;
        double density = (double)n_events / p.n_cycles;
        double cycles = density > 0 ? floor(o.target_events / density) : floor_window;
        window = cycles < 1 ? 1 : cycles >= floor_window ? floor_window : (uint32_t)cycles;
    }
    window = window < t.epoch_cycles ? t.epoch_cycles : window / t.epoch_cycles * t.epoch_cycles;
    t.window[g] = window;
    t.task0[g] = (p.n_cycles + window - 1) / window;
}

__global__ void task_insts_kernel(cuda_dev_model m, cuda_dev_tasks t)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= m.n_insts)
        return;
    for (uint64_t k = t.task0[g]; k < t.task0[g + 1]; k++)
        t.task_inst[k] = g;
}

__global__ void pin_events_kernel(cuda_dev_model m, cuda_dev_tasks t)
{
    uint32_t pin = blockIdx.x * blockDim.x + threadIdx.x;
    if (pin > m.n_pins)
        return;
    bool none = pin == m.n_pins || m.pin_net[pin] == DESIGN_NONE;
    t.pin_ev0[pin] = none ? 0 : t.net_count[m.pin_net[pin]];
}

/* ---- launches ------------------------------------------------------------------------- */

unsigned cuda_kernels_blocks(uint64_t n)
{
    uint64_t b = (n + CUDA_KERNEL_BLOCK - 1) / CUDA_KERNEL_BLOCK;
    return b == 0 ? 1 : b > (1u << 30) ? 1u << 30 : (unsigned)b;
}

size_t cuda_kernels_scan_bytes(uint64_t n_items)
{
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(NULL, bytes, (uint64_t *)NULL, (uint64_t *)NULL,
                                  (int64_t)n_items);
    return bytes;
}

cudaError_t cuda_kernels_scan(const cuda_dev_tasks &t, uint64_t *a, uint64_t n, uint64_t *total,
                        cudaStream_t stream)
{
    size_t bytes = t.scan_temp_bytes;
    cudaError_t err =
        cub::DeviceScan::ExclusiveSum(t.scan_temp, bytes, a, a, (int64_t)n + 1, stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(total, a + n, sizeof *total, cudaMemcpyDeviceToHost, stream);
    return err == cudaSuccess ? cudaStreamSynchronize(stream) : err;
}

cudaError_t cuda_kernels_memo(const cuda_dev_model &m, double *memo, cudaStream_t stream)
{
    memo_kernel<<<cuda_kernels_blocks(m.n_insts), CUDA_KERNEL_BLOCK, 0, stream>>>(m, memo);
    return cudaGetLastError();
}

cudaError_t cuda_kernels_count(const cuda_dev_model &m, const cuda_dev_plan &p,
                               const cuda_dev_tasks &t, cudaStream_t stream)
{
    count_kernel<<<cuda_kernels_blocks(m.n_nets), CUDA_KERNEL_BLOCK, 0, stream>>>(m, p, t);
    return cudaGetLastError();
}

cudaError_t cuda_kernels_epochs(const cuda_dev_model &m, const cuda_dev_plan &p,
                                const cuda_dev_tasks &t, cudaStream_t stream)
{
    epochs_kernel<<<cuda_kernels_blocks((uint64_t)m.n_nets * 32), CUDA_KERNEL_BLOCK, 0, stream>>>(m, p, t);
    return cudaGetLastError();
}

cudaError_t cuda_kernels_task_insts(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                    cudaStream_t stream)
{
    task_insts_kernel<<<cuda_kernels_blocks(m.n_insts), CUDA_KERNEL_BLOCK, 0, stream>>>(m, t);
    return cudaGetLastError();
}

cudaError_t cuda_kernels_windows(const cuda_dev_model &m, const cuda_dev_plan &p,
                                 const cuda_power_options &o, const cuda_dev_tasks &t,
                                 uint64_t *n_tasks, cudaStream_t stream)
{
    windows_kernel<<<cuda_kernels_blocks((uint64_t)m.n_insts + 1), CUDA_KERNEL_BLOCK, 0, stream>>>(m, p, o, t);
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? cuda_kernels_scan(t, t.task0, m.n_insts, n_tasks, stream) : err;
}

cudaError_t cuda_kernels_pin_events(const cuda_dev_model &m, const cuda_dev_tasks &t,
                                    uint64_t *n_events, cudaStream_t stream)
{
    pin_events_kernel<<<cuda_kernels_blocks((uint64_t)m.n_pins + 1), CUDA_KERNEL_BLOCK, 0, stream>>>(m, t);
    cudaError_t err = cudaGetLastError();
    return err == cudaSuccess ? cuda_kernels_scan(t, t.pin_ev0, m.n_pins, n_events, stream) : err;
}

cudaError_t cuda_kernels_resident_blocks(const void *fn, unsigned block, size_t smem,
                                         uint64_t needed, unsigned *blocks)
{
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)block, smem);
    uint64_t resident = (uint64_t)sms * (per_sm > 0 ? per_sm : 1);
    *blocks = (unsigned)(needed < 1 ? 1 : needed < resident ? needed : resident);
    return err;
}

/* Adds the leakage levels the walks booked into the bins: bin b gets the sum
 * of levels[0 .. b] times its length.  One block: each thread sums a run of
 * cycles, thread 0 scans the runs' sums, each thread then walks its run. */
__global__ void levels_kernel(const __grid_constant__ cuda_dev_plan p,
                              const __grid_constant__ cuda_dev_out o)
{
    __shared__ double run_sum[CUDA_KERNEL_BLOCK];
    __shared__ unsigned long long run_fixed[2 * CUDA_KERNEL_BLOCK];
    uint32_t per = (p.n_cycles + blockDim.x - 1) / blockDim.x;
    uint32_t a = min(p.n_cycles, threadIdx.x * per), b = min(p.n_cycles, a + per);
    double sum = 0.0;
    unsigned __int128 fixed = 0;
    for (uint32_t i = a; i < b; i++)
        if (o.fixed)
            fixed += (unsigned __int128)o.fixed_levels[2 * i + 1] << 64 | o.fixed_levels[2 * i];
        else
            sum += o.levels[i];
    run_sum[threadIdx.x] = sum;
    run_fixed[2 * threadIdx.x] = (unsigned long long)fixed;
    run_fixed[2 * threadIdx.x + 1] = (unsigned long long)(fixed >> 64);
    __syncthreads();
    if (threadIdx.x == 0) {
        double before = 0.0;
        unsigned __int128 fixed_before = 0;
        for (uint32_t r = 0; r < blockDim.x; r++) {
            unsigned __int128 f = (unsigned __int128)run_fixed[2 * r + 1] << 64 | run_fixed[2 * r];
            double s = run_sum[r];
            run_sum[r] = before, before += s;
            run_fixed[2 * r] = (unsigned long long)fixed_before;
            run_fixed[2 * r + 1] = (unsigned long long)(fixed_before >> 64);
            fixed_before += f;
        }
    }
    __syncthreads();
    sum = run_sum[threadIdx.x];
    fixed = (unsigned __int128)run_fixed[2 * threadIdx.x + 1] << 64 | run_fixed[2 * threadIdx.x];
    for (uint32_t i = a; i < b; i++) {
        double watts;
        if (o.fixed) {
            fixed += (unsigned __int128)o.fixed_levels[2 * i + 1] << 64 | o.fixed_levels[2 * i];
            watts = power_exact_value((unsigned long long)fixed, (unsigned long long)(fixed >> 64));
        } else {
            watts = sum += o.levels[i];
        }
        int64_t start = p.t0 + (int64_t)i * p.period;
        int64_t end = start + p.period < p.t1 ? start + p.period : p.t1;
        if (watts != 0.0)
            add_bin(o, (size_t)i * POWER_COMPONENTS + POWER_LEAKAGE,
                    power_leak_energy(watts, start, end));
    }
}

cudaError_t cuda_kernels_levels(const cuda_dev_plan &p, const cuda_dev_out &out,
                                cudaStream_t stream)
{
    levels_kernel<<<1, CUDA_KERNEL_BLOCK, 0, stream>>>(p, out);
    return cudaGetLastError();
}

/* ---- what the compiler made of them --------------------------------------------------- */

int cuda_kernels_report(const void *fn, const char *name, unsigned block, size_t smem,
                        cuda_kernel_report *out)
{
    cudaFuncAttributes attr;
    int device = 0, blocks = 0, max_threads = 0;
    if (cudaFuncGetAttributes(&attr, fn) != cudaSuccess ||
        cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device) !=
            cudaSuccess ||
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) !=
            cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, (int)block, smem) !=
            cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    *out = (cuda_kernel_report){name, attr.numRegs, (int)attr.localSizeBytes, (int)block,
                                (double)blocks * block / max_threads};
    return 1;
}

int cuda_kernels_reports(const cuda_dev_model &m, const cuda_dev_plan &p,
                         const cuda_power_options &o, cuda_kernel_report *out, int max)
{
    int n = 0;
    if (o.warp && n < max)
        return cuda_kernels_gate_warp_report(m, o.sipl, o.deterministic, out);
    if (o.fusion && n < max)
        n += cuda_kernels_walk_report(m, p, o, true, "walk", out + n);
    if (!o.fusion && n < max)
        n += cuda_kernels_naive_report(o.sipl, out + n);
    if (!o.fusion && n < max)
        n += cuda_kernels_walk_report(m, p, o, false, "naive-L", out + n);
    return n;
}
