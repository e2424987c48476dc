/* SPDX-License-Identifier: MIT */
/* sheet.h - the score sheet of a game as one seat may see it: per round, the
 * cards each player collected and the road piece each received, then each
 * road; the one place that decides which of its numbers a seat is shown
 * (R14), for every front end (the full-screen `s`, plain mode's `score`).
 *
 * During play a seat sees its own numbers; of the others, which of them got
 * a piece but not its length, nor their cards collected, nor their roads, nor
 * the stacks of the round being played. With `open` (--open, or a round's
 * summary) and once the game is over, everything. A hidden cell holds no
 * number at all: a front end cannot show what it was never given. */
#ifndef FIGARO_HOST_SHEET_H
#define FIGARO_HOST_SHEET_H

#include <stdbool.h>

#include "figaro/game.h"

typedef enum {
    FIG_SHEET_BLANK = 0,    /* nothing yet (a round not played) */
    FIG_SHEET_NUMBER,       /* value is shown */
    FIG_SHEET_HIDDEN,       /* a number the seat may not see (R14); value is 0 */
    FIG_SHEET_NO_PIECE,     /* the player received no road piece that round */
    FIG_SHEET_UNKNOWN       /* the stack of the round being played, hidden */
} fig_sheet_mark_t;

typedef struct {
    fig_sheet_mark_t mark;
    int value;              /* only with FIG_SHEET_NUMBER */
} fig_sheet_cell_t;

typedef struct {
    int players;
    int me;                 /* the seat it is shown to */
    bool open;              /* every number shown */
    fig_sheet_cell_t cards[FIG_ROUNDS][FIG_MAX_PLAYERS];   /* collected (the stack) */
    fig_sheet_cell_t piece[FIG_ROUNDS][FIG_MAX_PLAYERS];   /* road piece received */
    fig_sheet_cell_t road[FIG_MAX_PLAYERS];                /* the road so far */
} fig_sheet_t;

/* Fills *out with the sheet of the record g as seat `me` sees it; `open`
 * shows every number (--open, a round's summary); a finished game shows every
 * number anyway. Reads the record's finished rounds (fig_game_results) and the
 * seat's view of the current state, never another hand. */
void fig_sheet_make(const fig_game_t *g, int me, bool open, fig_sheet_t *out);

#endif
