/* SPDX-License-Identifier: MIT */
/* fep_stdio.c - an FEP engine on standard input and output (fep_stdio.h). */
#include <signal.h>
#include <stdio.h>

#include "cli/fep_stdio.h"

bool cli_fep_say_stdout(void *user, const char *line)
{
    (void)user;
    return puts(line) >= 0 && fflush(stdout) == 0 && !ferror(stdout);
}

/* Reads one line into buf (cap bytes) without its "\n" or "\r\n". Returns 1
 * for a line, 0 for a line too long (the rest of it is skipped), -1 at the end
 * of input (a last line without "\n" still counts as a line). */
static int read_line(FILE *in, char *buf, size_t cap)
{
    size_t n = 0;
    bool too_long = false;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 < cap)
            buf[n++] = (char)c;
        else
            too_long = true;
    }
    if (c == EOF && n == 0 && !too_long)
        return -1;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return too_long ? 0 : 1;
}

bool cli_fep_serve_stdio(fig_fep_engine_t *e)
{
    signal(SIGPIPE, SIG_IGN);   /* a failed write is noticed by cli_fep_say_stdout */
    char line[FIG_FEP_LINE_MAX + 1];
    for (;;) {
        int got = read_line(stdin, line, sizeof line);
        if (got < 0)
            return true;   /* end of input: the host is done with us */
        if (!(got == 0 ? fig_fep_engine_too_long(e, line) : fig_fep_engine_line(e, line)))
            return !ferror(stdout);
    }
}
