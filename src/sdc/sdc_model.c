/* sdc_model.c: the constraints as arrays per port and net, and their
 * clocks: made empty, looked up, freed. */
#include "sdc/sdc.h"

#include <math.h>
#include <string.h>

#include "util/mem.h"

sdc *sdc_new(const design *dg)
{
    sdc *s = mem_calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n_ports = dg->n_ports;
    s->n_nets = dg->n_nets;
    size_t ports = s->n_ports ? s->n_ports : 1, nets = s->n_nets ? s->n_nets : 1;
    double **per_port[] = {&s->port_transition[0], &s->port_transition[1], &s->port_load[0],
                           &s->port_load[1]};
    bool ok = (s->port_drive = mem_calloc(ports, sizeof *s->port_drive)) &&
              (s->net_load = mem_alloc(nets * sizeof *s->net_load));
    for (size_t k = 0; ok && k < sizeof per_port / sizeof per_port[0]; k++) {
        ok = (*per_port[k] = mem_alloc(ports * sizeof(double))) != NULL;
        for (uint32_t p = 0; ok && p < s->n_ports; p++)
            (*per_port[k])[p] = NAN;
    }
    for (uint32_t n = 0; ok && n < s->n_nets; n++)
        s->net_load[n] = NAN;
    if (!ok) {
        sdc_free(s);
        return NULL;
    }
    return s;
}

void sdc_free(sdc *s)
{
    if (!s)
        return;
    for (uint32_t c = 0; c < s->n_clocks; c++) {
        mem_free(s->clocks[c].name);
        mem_free(s->clocks[c].source_nets);
    }
    mem_free(s->clocks);
    for (int k = 0; k < 2; k++) {
        mem_free(s->port_transition[k]);
        mem_free(s->port_load[k]);
    }
    mem_free(s->port_drive);
    mem_free(s->net_load);
    mem_free(s);
}

const sdc_clock *sdc_find_clock(const sdc *s, const char *name)
{
    const sdc_clock *best = NULL;
    for (uint32_t c = 0; c < s->n_clocks; c++) {
        const sdc_clock *k = &s->clocks[c];
        if (name && strcmp(k->name, name) == 0)
            return k;
        if (!name && (!best || k->period < best->period))
            best = k;
    }
    return best;
}
