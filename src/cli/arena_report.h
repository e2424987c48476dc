/* SPDX-License-Identifier: MIT */
/* arena_report.h - the report of `figaro arena` (arena_report.c). */
#ifndef FIGARO_CLI_ARENA_REPORT_H
#define FIGARO_CLI_ARENA_REPORT_H

#include <stdbool.h>

#include "cli/arena_run.h"

/* Prints the results of a's games to standard output, as text or JSON
 * (docs/bots.md shows both); a failure of the ratings is told on standard error and
 * leaves them out. */
void arena_report(const arena_t *a, bool json);

#endif
