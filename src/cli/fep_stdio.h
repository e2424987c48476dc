/* SPDX-License-Identifier: MIT */
/* fep_stdio.h - an FEP engine on standard input and output: the loop of an
 * engine program (`figaro engine`, bench/opponents/textbook_ismcts.c), around
 * the host layer's engine (host/fep_engine.h), which does no input or output
 * of its own. */
#ifndef FIGARO_CLI_FEP_STDIO_H
#define FIGARO_CLI_FEP_STDIO_H

#include <stdbool.h>

#include "host/fep_engine.h"

/* A fig_fep_say_fn writing each answer as a line on standard output,
 * flushed at once (the host waits for it); `user` is unused. */
bool cli_fep_say_stdout(void *user, const char *line);

/* Reads standard input line by line into e (made with cli_fep_say_stdout), a
 * line longer than FIG_FEP_LINE_MAX answered as fig_fep_engine_too_long says.
 * Returns at `quit` or the end of input with true, or false when standard
 * output failed (the host closed it). A host that goes away must end the
 * engine quietly, not with a signal: SIGPIPE is ignored from then on (the
 * process is the engine's own). */
bool cli_fep_serve_stdio(fig_fep_engine_t *e);

#endif
