/* cuda_bulk.cu: the pins the gate warp kernel does not walk (POWER_PIN_BULK,
 * power_rules.h), costed as power_bulk.c costs them for the CPU engine:
 * each bulk net's changes in the window booked into their cycles with the
 * net's pins' energies summed, their weights summed per net, then each
 * pin's energies times its net's weights into its instance. */
#include "cuda/cuda_rules.cuh"

#define BULK_BLOCK 256
/* Blocks over one net's events: enough for a clock net of a long run
 * (all of them when the design has one bulk net), one a net when it has
 * thousands (a clock tree's leaves). */
#define BULK_NET_THREADS (64 * BULK_BLOCK)

/* Bulk net `slot`'s events from this thread's on, strided: its changes
 * booked, their half weights and count summed into *half and *changes. */
__device__ __forceinline__ void bulk_net_changes(const cuda_dev_model &m, const cuda_dev_plan &p,
                                                 const cuda_dev_out &o, const cuda_dev_bulk &b,
                                                 uint32_t slot, unsigned long long half[2],
                                                 unsigned long long *changes)
{
    uint32_t net = b.net[slot];
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t e = m.net_begin[net] + blockIdx.x * blockDim.x + threadIdx.x;
         e < m.net_end[net]; e += stride) {
        int64_t t = ev_time(m.ev[e]);
        uint8_t old = value_before_event(m, net, e), now = ev_value(m.ev[e]);
        if (t < p.t0 || t >= p.t1 || old == now || is_initial(m, p, net, e))
            continue;
        bool rise = power_is_rise(old, now);
        double weight = power_weight(old, now);
        size_t bin = (size_t)((t - p.t0) / p.period);
        add_bin(o, bin * POWER_COMPONENTS + POWER_INTERNAL, weight * b.net_energy[2 * slot + rise]);
        half[rise] += (unsigned long long)(2.0 * weight);
        (*changes)++;
    }
}

/* Rows of blocks, a row a bulk net at a time (blockIdx.y, strided). */
__global__ void __launch_bounds__(BULK_BLOCK)
bulk_changes_kernel(const __grid_constant__ cuda_dev_model m,
                    const __grid_constant__ cuda_dev_plan p, const __grid_constant__ cuda_dev_out o,
                    const __grid_constant__ cuda_dev_bulk b)
{
    for (uint32_t slot = blockIdx.y; slot < b.n_nets; slot += gridDim.y) {
        unsigned long long half[2] = {0, 0}, changes = 0;
        bulk_net_changes(m, p, o, b, slot, half, &changes);
        add_count(&b.half_weight[2 * slot], half[0]);
        add_count(&b.half_weight[2 * slot + 1], half[1]);
        add_count(&b.changes[slot], changes);
    }
}

/* A thread a bulk pin: its energies times its net's summed weights. */
__global__ void bulk_pins_kernel(const __grid_constant__ cuda_dev_model m,
                                 const __grid_constant__ cuda_dev_out o,
                                 const __grid_constant__ cuda_dev_bulk b)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.n_pins)
        return;
    uint32_t slot = b.slot[i];
    double e = b.pin_energy[2 * i + 1] * (0.5 * (double)b.half_weight[2 * slot + 1]) +
               b.pin_energy[2 * i] * (0.5 * (double)b.half_weight[2 * slot]);
    add_inst(o, (size_t)m.pin_inst[b.pin[i]] * POWER_COMPONENTS + POWER_INTERNAL, e);
    atomicAdd(o.events_used, b.changes[slot]);
}

cudaError_t cuda_kernels_bulk(const cuda_dev_model &m, const cuda_dev_plan &p,
                              const cuda_dev_out &out, const cuda_dev_bulk &b,
                              cudaStream_t stream)
{
    if (b.n_nets == 0)
        return cudaSuccess;
    cudaError_t err = cudaMemsetAsync(b.half_weight, 0, 2 * (size_t)b.n_nets * 8, stream);
    if (err == cudaSuccess)
        err = cudaMemsetAsync(b.changes, 0, (size_t)b.n_nets * 8, stream);
    if (err != cudaSuccess)
        return err;
    unsigned rows = b.n_nets < 65535 ? b.n_nets : 65535;
    unsigned per_net = BULK_NET_THREADS / BULK_BLOCK / b.n_nets;
    bulk_changes_kernel<<<dim3(per_net ? per_net : 1, rows), BULK_BLOCK, 0, stream>>>(m, p, out, b);
    err = cudaGetLastError();
    if (err == cudaSuccess)
        bulk_pins_kernel<<<cuda_kernels_blocks(b.n_pins), CUDA_KERNEL_BLOCK, 0, stream>>>(m, out, b);
    return err == cudaSuccess ? cudaGetLastError() : err;
}
