/* test_progress.c: the bar stays silent off a terminal; durations format. */
#include "check.h"
#include "util/progress.h"

#include <stdlib.h>

static void test_silent_when_not_a_terminal(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *sink = open_memstream(&text, &size);
    progress p;
    progress_init(&p, sink, true);
    progress_begin(&p, "reading", 1000);
    for (unsigned i = 0; i <= 1000; i++)
        progress_update(&p, i);
    progress_end(&p);
    fclose(sink);
    CHECK_EQ_INT(size, 0);
    free(text);
}

static void test_duration_format(void)
{
    char buf[32];
    progress_format_duration(0.2, buf, sizeof buf);
    CHECK_EQ_STR(buf, "0:00");
    progress_format_duration(75.0, buf, sizeof buf);
    CHECK_EQ_STR(buf, "1:15");
    progress_format_duration(3600.0 + 62.0, buf, sizeof buf);
    CHECK_EQ_STR(buf, "1:01:02");
    progress_format_duration(-3.0, buf, sizeof buf);
    CHECK_EQ_STR(buf, "0:00");
}

int main(void)
{
    RUN(test_silent_when_not_a_terminal);
    RUN(test_duration_format);
    return check_exit_code();
}
