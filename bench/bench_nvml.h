/* bench_nvml.h: the GPU's clocks, temperature and power through NVML, loaded
 * at run time with dlopen("libnvidia-ml.so.1") (CI machines have neither the
 * library nor its header), for the clock record that SPEC §6 asks beside
 * every GPU figure.  Reads only: nothing here changes a setting. */
#ifndef GP_BENCH_NVML_H
#define GP_BENCH_NVML_H

#include <stdbool.h>
#include <stddef.h>

/* One reading; a field that could not be read is 0 (ok false: none could). */
typedef struct bench_nvml_sample {
    bool ok;
    unsigned sm_mhz, mem_mhz;          /* current clocks */
    unsigned sm_max_mhz, mem_max_mhz;  /* the highest the card allows */
    unsigned temp_c;                   /* GPU core temperature */
    unsigned power_mw;                 /* board power draw */
    /* Why the clocks are held down (NVML's clock event / throttle reasons
     * bit mask; 0: not held down, or not read). */
    unsigned long long reasons;
} bench_nvml_sample;

/* Loads NVML and opens device `index` (NVML's numbering; the same as CUDA's
 * on a machine of one GPU).  false, with a reason in why[size], when there
 * is no NVML or no such device; the other functions then read nothing. */
bool bench_nvml_open(unsigned index, char *why, size_t size);
/* The device's name ("" when closed). */
const char *bench_nvml_name(void);
bench_nvml_sample bench_nvml_read(void);
/* The SM and memory clocks alone: cheap enough to read around each timed run. */
bool bench_nvml_clocks(unsigned *sm_mhz, unsigned *mem_mhz);
/* "SM 1980/1980 MHz, memory 3201/3201 MHz, 45 C, 120.5 W, reasons 0x0". */
void bench_nvml_format(const bench_nvml_sample *s, char *buf, size_t size);
void bench_nvml_close(void);

#endif
