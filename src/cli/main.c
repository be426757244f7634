/* main.c: the gatepower command line: global options, then a subcommand.
 *
 * Exit status: 0 success, 1 the analysis failed on its inputs (the message
 * says what to fix), 2 a usage error. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cuda/cuda_device.h"
#include "ranks/ranks.h"
#include "util/diag.h"
#include "util/mem.h"

typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv, const cli_context *ctx);
} cli_command;

static const cli_command commands[] = {
    {"info", "count what the inputs hold: cells, nets, levels, SDF arcs, events",
     cli_info},
    {"power", "time-based power by kind, group, instance, cell; waveform and peak",
     cli_power},
    {"resim", "re-simulate logic with delays from register activity (glitches)",
     cli_resim},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static void print_help(FILE *out)
{
    fprintf(out,
            "gatepower: gate-level, time-based power analysis (CPU and CUDA)\n"
            "\n"
            "usage: gatepower [--quiet] [--max-warnings N] COMMAND [OPTIONS]\n"
            "       gatepower --help | --version | help [COMMAND]\n"
            "\n"
            "commands:\n");
    for (int i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-7s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "global options:\n"
            "  --quiet           no progress bars (they appear only on a terminal anyway)\n"
            "  --max-warnings N  print at most N warnings of each kind and count the rest\n"
            "                    (default 10; 0 prints all)\n"
            "  --help, -h        this text; `gatepower help COMMAND` or `gatepower COMMAND\n"
            "                    --help` explains a command\n"
            "  --version         version, and the CUDA devices this build can use\n"
            "\n"
            "inputs: Liberty (.lib, .lib.gz), structural Verilog, SDF 3.0, SPEF, VCD or FST.\n"
            "Messages read `file:line:col: error N: text`; N is stable and documented.\n"
            "Exit status: 0 success, 1 bad input (the message says what to fix),\n"
            "2 usage error.\n");
}

static void print_cuda_devices(FILE *out)
{
    if (!cuda_built()) {
        fprintf(out, "CUDA: not in this build (nvcc was not found when it was configured)\n");
        return;
    }
    int version = cuda_build_version();
    int count = cuda_device_count();
    fprintf(out, "CUDA: built with %d.%d; %d device%s\n", version / 1000, version % 1000 / 10,
            count, count == 1 ? "" : "s");
    diag_ctx *d = diag_new(stderr);
    for (int i = 0; d && i < count; i++) {
        cuda_device_info info;
        if (cuda_device_query(i, &info, d) == GP_OK)
            fprintf(out, "  %d: %s, %d SMs, compute %d.%d, %.1f GB\n", i, info.name,
                    info.sm_count, info.cc_major, info.cc_minor,
                    (double)info.global_mem_bytes / 1e9);
    }
    diag_free(d);
}

static const cli_command *find_command(const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* What went to stdout (a report, JSON with --json -, help) must have been
 * written whole: a full disk or a closed pipe fails the run. */
static int stdout_written(int status, diag_ctx *d)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    diag_error(d, 1030, DIAG_NOWHERE, "cannot write to standard output: %s (a full disk or a "
               "closed pipe?); the output is incomplete", strerror(errno ? errno : EIO));
    return status ? status : CLI_EXIT_INPUT;
}

int main(int argc, char **argv)
{
    mem_release_freed_blocks();
    diag_ctx *d = diag_new(stderr);
    if (!d)
        return CLI_EXIT_INPUT;
    cli_context ctx = {.diag = d, .quiet = false};
    int status = CLI_EXIT_USAGE, i = 1;
    char rank_tag[32];
    if (ranks_start(&argc, &argv, d) != GP_OK) {
        status = CLI_EXIT_INPUT;
        goto done;
    }
    if (ranks_rank() > 0) { /* rank 0 speaks for the run */
        snprintf(rank_tag, sizeof rank_tag, "rank %d", ranks_rank());
        diag_set_errors_only(d, rank_tag);
        ctx.quiet = true;
    }
    for (; i < argc && argv[i][0] == '-'; i++) {
        int cap;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help(stdout);
            status = 0;
            goto done;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("gatepower %s\n", GATEPOWER_VERSION);
            printf("SDC: %s\n", sdc_available() ? "read by an embedded Tcl interpreter"
                                                 : "not in this build (no tcl-dev)");
            printf("MPI: %s\n", ranks_built() ? "yes: under mpirun, power and resim --power "
                                                "share their cycles out among the ranks"
                                              : "not in this build (no libopenmpi-dev)");
            print_cuda_devices(stdout);
            status = 0;
            goto done;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            ctx.quiet = true;
        } else if (strcmp(argv[i], "--max-warnings") == 0) {
            if (i + 1 == argc || !cli_parse_count(argv[i + 1], 1000000, &cap)) {
                diag_error(d, 1005, DIAG_NOWHERE, "--max-warnings takes a whole number from 0 "
                           "(print every warning) to 1000000, e.g. --max-warnings 50");
                goto done;
            }
            diag_set_warning_cap(d, cap);
            i++;
        } else {
            diag_error(d, 1002, DIAG_NOWHERE, "unknown or incomplete option '%s' (see gatepower --help)",
                       argv[i]);
            goto done;
        }
    }
    if (i == argc) {
        print_help(stderr);
        goto done;
    }
    if (strcmp(argv[i], "help") == 0) { /* `gatepower help [COMMAND]` */
        const cli_command *about = i + 1 < argc ? find_command(argv[i + 1]) : NULL;
        char *help_args[] = {argv[i], "--help", NULL};
        if (about)
            status = about->run(2, help_args, &ctx);
        else if (i + 1 < argc)
            diag_error(d, 1004, DIAG_NOWHERE, "unknown command '%s'; commands are info, power, "
                       "resim", argv[i + 1]);
        else
            print_help(stdout), status = 0;
        goto done;
    }
    const cli_command *cmd = find_command(argv[i]);
    if (!cmd) {
        diag_error(d, 1003, DIAG_NOWHERE, "unknown command '%s'; commands are info, power, resim",
                   argv[i]);
        goto done;
    }
    if (ranks_count() > 1 && cmd->run != cli_power && cmd->run != cli_resim) {
        diag_error(d, 1041, DIAG_NOWHERE, "gatepower %s runs as one process: power and resim "
                   "--power share their cycles out among the ranks of mpirun", cmd->name);
        goto done;
    }
    status = cmd->run(argc - i, argv + i, &ctx);
done:
    status = stdout_written(status, d);
    diag_finish(d);
    diag_free(d);
    ranks_stop();
    return status;
}
