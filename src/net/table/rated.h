/* SPDX-License-Identifier: MIT */
/* rated.h - whether a finished game is rated, and how its seats enter the
 * rating update (docs/server.md "People and ratings", docs/ratings.md
 * "Decisions for the server"). Pure functions of the table's options and
 * its seats at the game's end: the table asks them, the storage applies
 * fig_rating_update with what they give, in the transaction of the game's
 * last action.
 *
 *   - rated: a table without `open` and without `hints`, no `random` bot
 *     and no engine, where at least one signed-in person holds their seat
 *     at the end;
 *   - every seat takes part: a signed-in person is updated; a bot is a
 *     fixed point at its level's mu (sigma 1.5); a person not signed in is
 *     a fixed point at mu0, sigma0;
 *   - a signed-in person whose seat a bot played at the end (away, timed
 *     out, left) ranks after everyone, several such in their order of the
 *     game among themselves, and is updated. The others keep the game's
 *     order (R13: a finished game has no tie). */
#ifndef FIGARO_NET_RATED_H
#define FIGARO_NET_RATED_H

#include <stdbool.h>

#include "figaro/figaro.h"
#include "host/rating.h"
#include "net/store/db.h"

typedef enum {
    FIG_RATED_PERSON,    /* a signed-in person, in their seat at the end */
    FIG_RATED_LEFT,      /* a signed-in person whose seat a bot played at the end */
    FIG_RATED_ANON,      /* a person not signed in (there or not) */
    FIG_RATED_BOT,       /* a bot the table was made with: `level` */
    FIG_RATED_ENGINE     /* an operator's engine */
} fig_rated_kind_t;

typedef struct {
    fig_rated_kind_t kind;
    int level;           /* a bot's: fig_bot_level_index, -1 for one that is no level
                            (`random`) */
    int place;           /* in the game's result: 1 the winner, ... n */
} fig_rated_seat_t;

/* Whether a table's options let its games be rated: no open hands, no
 * hints, no `random` bot, no engine (whether a game is also depends on who
 * holds the seats at its end). */
bool fig_rated_table(const fig_db_table_t *row);

/* Whether the game is rated. */
bool fig_rated_is(bool open, bool hints, const fig_rated_seat_t seats[], int n);

/* The seats as fig_rating_update takes them: out[i].rank the seat's place
 * in the rating (leavers last), out[i].fixed for bots and people not
 * signed in, whose out[i].rating is their fixed point; a signed-in seat's
 * rating is left for the caller (the person's own, read from the storage).
 * Only for a rated game (fig_rated_is). */
void fig_rated_seats(const fig_rated_seat_t seats[], int n, fig_rating_seat_t out[]);

#endif
