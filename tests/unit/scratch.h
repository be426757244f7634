/* scratch.h: the small file helpers of the tests that read and write files
 * in a scratch directory (each test makes its own with mkdtemp, as
 * "/tmp/gp_test_<name>_XXXXXX", and removes it with scratch_remove), and the
 * library most of them read from a text of their own. */
#ifndef GP_TESTS_SCRATCH_H
#define GP_TESTS_SCRATCH_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "design/design.h"
#include "liberty/liberty.h"
#include "util/diag.h"

/* Writes `text` to the file `path` (nothing when it cannot be opened: the
 * test that reads it fails then). */
static inline void scratch_write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Writes `text` to dir/name and returns that path, held in path[size]. */
static inline const char *scratch_write(const char *dir, const char *name, const char *text,
                                        char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    scratch_write_text(path, text);
    return path;
}

/* A VCD in ps whose 1-bit variables, in scope `top`, are the nets named in
 * `vars` (blank-separated); each name is its own identifier code, so the body
 * reads "1a" for net a going to 1. */
static inline void scratch_write_vcd(const char *path, const char *vars, const char *body)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs("$timescale 1ps $end\n$scope module top $end\n", f);
    char names[256];
    snprintf(names, sizeof names, "%s", vars);
    for (char *save = NULL, *v = strtok_r(names, " ", &save); v; v = strtok_r(NULL, " ", &save))
        fprintf(f, "$var wire 1 %s %s $end\n", v, v);
    fputs("$upscope $end\n$enddefinitions $end\n", f);
    fputs(body, f);
    fclose(f);
}

/* A new library set holding the Liberty `text`, written as dir/name and
 * read without error or warning (checked). */
static inline lib_set *scratch_libs(const char *dir, const char *name, const char *text,
                                    diag_ctx *d)
{
    char path[256];
    lib_set *libs = lib_set_new();
    CHECK_EQ_INT(lib_read(libs, scratch_write(dir, name, text, path, sizeof path), d), GP_OK);
    CHECK_EQ_INT(diag_warning_count(d), 0);
    return libs;
}

/* The design of the Verilog `text` (top module "top") over libs, written
 * as dir/name.v, with its timing at an input slew of 0.1 ns; NULL when it
 * cannot be read (checked). */
static inline design *scratch_design(const char *dir, lib_set *libs, const char *name,
                                     const char *text, diag_ctx *d)
{
    char file[64], path[256];
    snprintf(file, sizeof file, "%s.v", name);
    const char *paths[] = {scratch_write(dir, file, text, path, sizeof path)};
    design *dg = NULL;
    CHECK_EQ_INT(design_read_netlist(&dg, libs, paths, 1, "top", d), GP_OK);
    if (dg)
        CHECK_EQ_INT(design_compute_timing(dg, &(design_timing_options){.input_slew = 1e-10}, d),
                     GP_OK);
    return dg;
}

/* Removes the scratch directory and everything in it; false on failure. */
static inline bool scratch_remove(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0;
}

#endif
