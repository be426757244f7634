/* report_json.c: the results' summary as JSON for scripts (watts and
 * seconds, numbers with 17 significant digits): design totals, the glitch
 * split, the groups, the peak, the period, the cycles and the window. */
#include "report/report_int.h"
#include "util/json.h"

/* {"internal": W, "switching": W, "leakage": W, "glitch": W, "total": W} */
static void json_columns(json_writer *w, const double cols[REPORT_COLS])
{
    json_begin_object(w);
    for (int k = 0; k < REPORT_COLS; k++) {
        json_key(w, report_col_names[k]);
        json_number(w, cols[k]);
    }
    json_end(w);
}

static void json_groups(json_writer *w, const power_result *r)
{
    double cols[REPORT_COLS];
    json_key(w, "groups");
    json_begin_object(w);
    for (int g = 0; g < POWER_GROUPS; g++) {
        report_columns(r->group_energy[g], report_duration(r), cols);
        json_key(w, report_group_name((power_group)g));
        json_columns(w, cols);
    }
    json_end(w);
}

static void json_peak(json_writer *w, const power_result *r)
{
    uint32_t cycle;
    double peak = report_peak(r, &cycle);
    json_key(w, "peak");
    json_begin_object(w);
    json_key(w, "power");
    json_number(w, peak);
    json_key(w, "cycle");
    json_uint(w, cycle);
    json_key(w, "time");
    json_number(w, report_cycle_start(r, cycle));
    json_end(w);
}

static void json_totals(json_writer *w, const power_result *r)
{
    double cols[REPORT_COLS];
    report_total_columns(r, cols);
    json_key(w, "total");
    json_columns(w, cols);
    json_key(w, "glitch");
    json_begin_object(w);
    json_key(w, "internal");
    json_number(w, power_total_energy(r, POWER_GLITCH_INTERNAL) / report_duration(r));
    json_key(w, "switching");
    json_number(w, power_total_energy(r, POWER_GLITCH_SWITCHING) / report_duration(r));
    json_end(w);
    json_key(w, "io_switching");
    json_number(w, r->io_switching / report_duration(r));
}

/* What the numbers are in: every power in watts, every time in seconds. */
static void json_units(json_writer *w)
{
    json_key(w, "units");
    json_begin_object(w);
    json_key(w, "power");
    json_string(w, "W");
    json_key(w, "time");
    json_string(w, "s");
    json_end(w);
}

static void json_window(json_writer *w, const power_result *r)
{
    json_key(w, "window");
    json_begin_object(w);
    json_key(w, "start");
    json_number(w, report_seconds(r->window_start_fs));
    json_key(w, "end");
    json_number(w, report_seconds(r->window_end_fs));
    json_end(w);
    json_key(w, "period");
    json_number(w, report_seconds(r->period_fs));
    json_key(w, "cycles");
    json_uint(w, r->n_cycles);
}

/* Seconds per phase, when the run was timed. */
static void json_timing(json_writer *w, const report_options *o)
{
    if (!o->timing)
        return;
    json_key(w, "timing");
    json_begin_object(w);
    for (int k = 0; k < o->n_timing; k++) {
        json_key(w, o->timing[k].name);
        json_number(w, o->timing[k].seconds);
    }
    json_end(w);
}

/* The activities a combined result adds up: each one's window and power. */
static void json_activities(json_writer *w, const report_options *o)
{
    if (o->n_activities == 0)
        return;
    json_key(w, "activities");
    json_begin_array(w);
    for (int k = 0; k < o->n_activities; k++) {
        const power_result *r = o->activities[k].r;
        json_begin_object(w);
        json_key(w, "activity");
        json_string(w, o->activities[k].name);
        json_window(w, r);
        json_totals(w, r);
        json_peak(w, r);
        json_end(w);
    }
    json_end(w);
}

void report_write_json(FILE *out, const design *dg, const power_result *r,
                       const report_options *opt)
{
    report_options o = report_resolve_options(opt);
    json_writer w;
    json_init(&w, out);
    json_begin_object(&w);
    json_key(&w, "design");
    json_string(&w, o.design_name);
    json_units(&w);
    json_key(&w, "instances");
    json_uint(&w, dg->n_insts);
    json_key(&w, "glitch_analysis");
    json_bool(&w, o.glitch);
    json_key(&w, "include_io");
    json_bool(&w, r->include_io);
    json_key(&w, "events_used");
    json_uint(&w, r->events_used);
    json_timing(&w, &o);
    json_window(&w, r);
    json_totals(&w, r);
    json_groups(&w, r);
    json_peak(&w, r);
    json_activities(&w, &o);
    json_end(&w);
    json_finish(&w);
}
