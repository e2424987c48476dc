/* SPDX-License-Identifier: MIT */
/* review.h - `figaro review`'s text, which the plain game prints too at its
 * end: one seat's reviewed moves (host/review.h) in the terminal's language. */
#ifndef FIGARO_CLI_REVIEW_H
#define FIGARO_CLI_REVIEW_H

#include <stdbool.h>

#include "figaro/game.h"
#include "host/review.h"

/* Prints the review rv of the finished game g to standard output: a heading
 * naming the seat (names[rv->seat]) and the search (spec), each move graded
 * below good (every move with `all`, the good ones unmarked), then the
 * summary. */
void cli_review_print(const fig_game_t *g, const fig_review_t *rv, const char *spec,
                      const char names[][FIG_NAME_MAX + 1], bool all);

#endif
