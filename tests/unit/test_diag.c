/* test_diag.c: message format, counting, the warning cap and its summary,
 * and a held context's messages coming after its parent's. */
#include "check.h"
#include "util/diag.h"

#include <stdlib.h>

/* Runs `report` against a context printing into a memory buffer; returns
 * what was printed (caller frees). */
static char *printed_by(void (*report)(diag_ctx *), int cap)
{
    char *text = NULL;
    size_t size = 0;
    FILE *sink = open_memstream(&text, &size);
    diag_ctx *d = diag_new(sink);
    diag_set_warning_cap(d, cap);
    report(d);
    diag_finish(d);
    diag_free(d);
    fclose(sink);
    return text;
}

static void one_error_each_form(diag_ctx *d)
{
    diag_error(d, 3012, ((diag_loc){"top.v", 12, 5}), "unknown cell '%s'", "FOO");
    diag_error(d, 3013, ((diag_loc){"top.v", 7, 0}), "no column");
    diag_error(d, 3014, ((diag_loc){"top.v", 0, 0}), "no line");
    diag_note(d, 1101, DIAG_NOWHERE, "nowhere");
}

static void test_format(void)
{
    char *text = printed_by(one_error_each_form, 10);
    CHECK_EQ_STR(text, "top.v:12:5: error 3012: unknown cell 'FOO'\n"
                       "top.v:7: error 3013: no column\n"
                       "top.v: error 3014: no line\n"
                       "note 1101: nowhere\n");
    free(text);
}

static void twelve_warnings_two_errors(diag_ctx *d)
{
    for (int i = 0; i < 12; i++)
        diag_warn(d, 2100, ((diag_loc){"a.lib", i + 1, 1}), "w%d", i);
    diag_error(d, 2200, DIAG_NOWHERE, "e1");
    diag_error(d, 2200, DIAG_NOWHERE, "e2");
}

static void test_warning_cap_and_summary(void)
{
    char *text = printed_by(twelve_warnings_two_errors, 3);
    CHECK_EQ_STR(text, "a.lib:1:1: warning 2100: w0\n"
                       "a.lib:2:1: warning 2100: w1\n"
                       "a.lib:3:1: warning 2100: w2\n"
                       "error 2200: e1\n"
                       "error 2200: e2\n"
                       "note: 9 more of warning 2100 not shown\n");
    free(text);
}

static void test_uncapped_prints_all(void)
{
    char *text = printed_by(twelve_warnings_two_errors, 0);
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    CHECK_EQ_INT(lines, 14);
    free(text);
}

static void test_counts_and_first_error(void)
{
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(diag_first_error_no(d), 0);
    CHECK_EQ_STR(diag_first_error_text(d), "");
    twelve_warnings_two_errors(d);
    CHECK_EQ_INT(diag_warning_count(d), 12);
    CHECK_EQ_INT(diag_error_count(d), 2);
    CHECK_EQ_INT(diag_count_of(d, 2100), 12);
    CHECK_EQ_INT(diag_count_of(d, 2200), 2);
    CHECK_EQ_INT(diag_count_of(d, 2300), 0);
    CHECK_EQ_INT(diag_first_error_no(d), 2200);
    CHECK_EQ_STR(diag_first_error_text(d), "error 2200: e1");
    diag_free(d);
}

/* What a held context reports reaches its parent on release, after the
 * parent's own, in order and under the parent's cap; then as it comes.
 * One never released gives nothing. */
static void held_after_parent(diag_ctx *d)
{
    diag_ctx *held = diag_new_held(d), *dropped = diag_new_held(d);
    diag_warn(held, 2100, DIAG_NOWHERE, "w0");
    diag_error(held, 2200, DIAG_NOWHERE, "e0");
    diag_error(dropped, 2300, DIAG_NOWHERE, "never shown");
    diag_warn(held, 2100, DIAG_NOWHERE, "w1");
    diag_note(d, 1101, DIAG_NOWHERE, "parent first");
    CHECK_EQ_INT(diag_error_count(held), 1);
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_release(held);
    diag_warn(held, 2100, DIAG_NOWHERE, "w2");
    CHECK_EQ_INT(diag_error_count(d), 1);
    CHECK_EQ_INT(diag_count_of(d, 2100), 3);
    CHECK_EQ_INT(diag_warning_count(held), 3);
    diag_free(held);
    diag_free(dropped);
}

static void test_held_after_parent(void)
{
    char *text = printed_by(held_after_parent, 2);
    CHECK_EQ_STR(text, "note 1101: parent first\nwarning 2100: w0\nerror 2200: e0\n"
                       "warning 2100: w1\nnote: 1 more of warning 2100 not shown\n");
    free(text);
}

int main(void)
{
    RUN(test_format);
    RUN(test_warning_cap_and_summary);
    RUN(test_uncapped_prints_all);
    RUN(test_counts_and_first_error);
    RUN(test_held_after_parent);
    return check_exit_code();
}
