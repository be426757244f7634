/* sdc_int.h: what the SDC reader's files share: the reader's state, the
 * design objects as Tcl values, and the reporting of a command's failure. */
#ifndef GP_SDC_SDC_INT_H
#define GP_SDC_SDC_INT_H

#include <tcl.h>

#include "sdc/sdc.h"

#ifndef TCL_SIZE_MAX /* Tcl 8.6 counts list elements in int, Tcl 9 in Tcl_Size */
typedef int Tcl_Size;
#endif

typedef enum sdc_kind { SDC_PORT, SDC_PIN, SDC_NET, SDC_CELL, SDC_CLOCK, SDC_KINDS } sdc_kind;

/* The kinds a command takes, as a bit set of 1 << sdc_kind, in the order a
 * bare name is looked up: ports, pins, nets, cells, clocks. */
typedef unsigned sdc_kinds;
#define SDC_KIND(k) (1u << (k))

/* An object of the design: ports[index], pin index, net index, instance
 * index or clocks[index]. */
typedef struct sdc_object {
    sdc_kind kind;
    uint32_t index;
} sdc_object;

/* The command names with no bearing on power, counted as they run. */
#define SDC_TIMING_ONLY_MAX 48

typedef struct sdc_reader {
    Tcl_Interp *interp;
    sdc *s;
    const design *dg;
    const lib_set *libs;
    diag_ctx *d;
    const char *path;           /* the file being read, as given */
    Tcl_Obj *path_normalized;   /* its absolute name, as Tcl's frames give it */
    double time_unit, cap_unit; /* one SDC unit: in fs, in F */
    uint32_t clocks_cap;
    uint32_t timing_only_count[SDC_TIMING_ONLY_MAX];
    /* A command's failure, reported when it ends the file (a script may
     * catch it): the message number, its text in the interpreter's result,
     * where the command stands. */
    int failed_no;
    char failed_file[4096];
    int failed_line;
    bool out_of_memory;
} sdc_reader;

extern const char *const sdc_timing_only[];

/* Records a failure of the running command and returns TCL_ERROR; its text
 * becomes the interpreter's result. */
int sdc_fail(sdc_reader *r, int no, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A warning at the running command's file:line. */
void sdc_warn(sdc_reader *r, int no, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int sdc_no_memory(sdc_reader *r);

/* A command's arguments: options (flags, or with a value) and the rest. */
typedef struct sdc_option {
    const char *name;  /* "-period" */
    bool has_value;
    bool given;
    Tcl_Obj *value;
} sdc_option;

#define SDC_FLAG(name) {name, false, false, NULL}
#define SDC_VALUE(name) {name, true, false, NULL}
#define SDC_MAX_POSITIONAL 4

/* Splits objv[1..objc) into opts and at most max_pos positional arguments;
 * TCL_ERROR after reporting an unknown option or a missing value. */
int sdc_parse_args(sdc_reader *r, int objc, Tcl_Obj *const objv[], sdc_option *opts,
                   size_t n_opts, Tcl_Obj **pos, int max_pos, int *n_pos);
/* The option called `name` in opts (it must be there). */
sdc_option *sdc_opt(sdc_option *opts, size_t n_opts, const char *name);
/* A number in SDC units times `unit` (SI), >= 0 unless allow_negative. */
int sdc_get_value(sdc_reader *r, const char *what, Tcl_Obj *o, double unit, bool allow_negative,
                  double *out);

/* The objects of Tcl value `list` (objects or bare names looked up as
 * `kinds` allow, in order); NULL items with *n = 0 for an empty list.  The
 * caller frees *out with ckfree. */
int sdc_objects(sdc_reader *r, const char *cmd, Tcl_Obj *list, sdc_kinds kinds,
                sdc_object **out, Tcl_Size *n);
/* A Tcl value naming `obj` that remembers what it is. */
Tcl_Obj *sdc_object_value(sdc_reader *r, sdc_object obj);
/* The net an object is on: a port's or pin's net, a net itself. */
uint32_t sdc_object_net(const sdc_reader *r, sdc_object obj);

void sdc_register_objects(sdc_reader *r);
void sdc_register_commands(sdc_reader *r);

#endif
