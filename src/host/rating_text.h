/* SPDX-License-Identifier: MIT */
/* rating_text.h - one game's finishing order as a line of text, the input of
 * `figaro rate` (docs/ratings.md), so that a program outside figaro can hand
 * it the games a server rated and check the ratings.
 *
 *   ann bob=cid dan      ann first, bob and cid tie for second, dan fourth
 *
 * Players best first, separated by spaces or tabs; '=' joins players who tie.
 * A name is 1 to FIG_RATING_NAME_MAX bytes of UTF-8 without spaces, control
 * characters or '='; a game has 2 to FIG_MAX_PLAYERS players, each once. '#'
 * at the start of a word begins a comment to the line's end; a line of
 * nothing else holds no game. */
#ifndef FIGARO_HOST_RATING_TEXT_H
#define FIGARO_HOST_RATING_TEXT_H

#include <stddef.h>

#include "figaro/figaro.h"

enum { FIG_RATING_NAME_MAX = 64 };

typedef struct {
    int n;   /* 0: the line holds no game */
    char name[FIG_MAX_PLAYERS][FIG_RATING_NAME_MAX + 1];
    int rank[FIG_MAX_PLAYERS];   /* places as fig_rating_seat_t has them: 1, 2, 2, 4 */
} fig_rating_game_t;

/* Reads one line of len bytes (its newline excluded; a '\r' at its end is
 * ignored). FIG_ERR_INPUT with what and where (the word, the byte's column)
 * for anything else than the above; out is then unspecified. */
fig_err_t fig_rating_game_parse(const char *line, size_t len, fig_rating_game_t *out,
                                fig_msg_t *msg);

#endif
