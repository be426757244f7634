/* bench_nvml.c: NVML through dlopen (bench_nvml.h).  The few entry points
 * used are declared here by their documented C signatures: every NVML call
 * returns an int status (0: success), and a device is an opaque pointer. */
#include "bench_nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct nvml_device_st *nvml_device;
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0, NVML_NAME_SIZE = 96 };

typedef int (*nvml_void_fn)(void);
typedef int (*nvml_handle_fn)(unsigned index, nvml_device *device);
typedef int (*nvml_clock_fn)(nvml_device device, int type, unsigned *mhz);
typedef int (*nvml_name_fn)(nvml_device device, char *name, unsigned length);
typedef int (*nvml_temp_fn)(nvml_device device, int sensor, unsigned *celsius);
typedef int (*nvml_power_fn)(nvml_device device, unsigned *milliwatts);
typedef int (*nvml_reasons_fn)(nvml_device device, unsigned long long *reasons);

static struct {
    void *lib;
    nvml_device device;
    nvml_void_fn shutdown;
    nvml_clock_fn clock, max_clock;
    nvml_temp_fn temperature;
    nvml_power_fn power;
    nvml_reasons_fn reasons;
    char name[NVML_NAME_SIZE];
} nvml;

/* The clock event reasons, by bit (NVML's nvmlClocksEventReason* values). */
static const char *const nvml_reason_names[] = {
    "idle", "app-clocks", "sw-power-cap", "hw-slowdown", "sync-boost",
    "sw-thermal", "hw-thermal", "hw-power-brake", "display-clocks"};

static void *nvml_sym(const char *name) { return dlsym(nvml.lib, name); }

static bool nvml_fail(char *why, size_t size, const char *text)
{
    snprintf(why, size, "%s", text);
    if (nvml.lib)
        dlclose(nvml.lib);
    memset(&nvml, 0, sizeof nvml);
    return false;
}

bool bench_nvml_open(unsigned index, char *why, size_t size)
{
    nvml.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nvml.lib)
        return nvml_fail(why, size, "libnvidia-ml.so.1 not found (no NVIDIA driver here)");
    nvml_void_fn init = (nvml_void_fn)nvml_sym("nvmlInit_v2");
    nvml_handle_fn handle = (nvml_handle_fn)nvml_sym("nvmlDeviceGetHandleByIndex_v2");
    nvml_name_fn name = (nvml_name_fn)nvml_sym("nvmlDeviceGetName");
    nvml.shutdown = (nvml_void_fn)nvml_sym("nvmlShutdown");
    nvml.clock = (nvml_clock_fn)nvml_sym("nvmlDeviceGetClockInfo");
    nvml.max_clock = (nvml_clock_fn)nvml_sym("nvmlDeviceGetMaxClockInfo");
    nvml.temperature = (nvml_temp_fn)nvml_sym("nvmlDeviceGetTemperature");
    nvml.power = (nvml_power_fn)nvml_sym("nvmlDeviceGetPowerUsage");
    nvml.reasons = (nvml_reasons_fn)nvml_sym("nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml.reasons)
        nvml.reasons = (nvml_reasons_fn)nvml_sym("nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !handle || !name || !nvml.shutdown || !nvml.clock)
        return nvml_fail(why, size, "libnvidia-ml.so.1 lacks nvmlInit_v2, "
                         "nvmlDeviceGetHandleByIndex_v2 or nvmlDeviceGetClockInfo");
    if (init() != 0)
        return nvml_fail(why, size, "nvmlInit_v2 failed");
    if (handle(index, &nvml.device) != 0) {
        nvml.shutdown();
        return nvml_fail(why, size, "NVML has no device of that index");
    }
    if (name(nvml.device, nvml.name, sizeof nvml.name) != 0)
        snprintf(nvml.name, sizeof nvml.name, "(unnamed)");
    return true;
}

const char *bench_nvml_name(void) { return nvml.name; }

bool bench_nvml_clocks(unsigned *sm_mhz, unsigned *mem_mhz)
{
    *sm_mhz = *mem_mhz = 0;
    return nvml.lib && nvml.clock(nvml.device, NVML_CLOCK_SM, sm_mhz) == 0 &&
           nvml.clock(nvml.device, NVML_CLOCK_MEM, mem_mhz) == 0;
}

bench_nvml_sample bench_nvml_read(void)
{
    bench_nvml_sample s = {0};
    if (!nvml.lib)
        return s;
    s.ok = bench_nvml_clocks(&s.sm_mhz, &s.mem_mhz);
    if (nvml.max_clock && (nvml.max_clock(nvml.device, NVML_CLOCK_SM, &s.sm_max_mhz) != 0 ||
                           nvml.max_clock(nvml.device, NVML_CLOCK_MEM, &s.mem_max_mhz) != 0))
        s.sm_max_mhz = s.mem_max_mhz = 0;
    if (nvml.temperature && nvml.temperature(nvml.device, NVML_TEMPERATURE_GPU, &s.temp_c) != 0)
        s.temp_c = 0;
    if (nvml.power && nvml.power(nvml.device, &s.power_mw) != 0)
        s.power_mw = 0;
    if (nvml.reasons && nvml.reasons(nvml.device, &s.reasons) != 0)
        s.reasons = 0;
    return s;
}

void bench_nvml_format(const bench_nvml_sample *s, char *buf, size_t size)
{
    if (!s->ok) {
        snprintf(buf, size, "clocks not read");
        return;
    }
    int n = snprintf(buf, size, "SM %u/%u MHz, memory %u/%u MHz, %u C, %.1f W, reasons 0x%llx",
                     s->sm_mhz, s->sm_max_mhz, s->mem_mhz, s->mem_max_mhz, s->temp_c,
                     s->power_mw * 1e-3, s->reasons);
    const size_t names = sizeof nvml_reason_names / sizeof *nvml_reason_names;
    for (size_t bit = 0; bit < names && n > 0 && (size_t)n < size; bit++)
        if (s->reasons >> bit & 1)
            n += snprintf(buf + n, size - (size_t)n, " %s", nvml_reason_names[bit]);
}

void bench_nvml_close(void)
{
    if (!nvml.lib)
        return;
    nvml.shutdown();
    dlclose(nvml.lib);
    memset(&nvml, 0, sizeof nvml);
}
