/* SPDX-License-Identifier: MIT */
/* rating.h - a person's rating across games: Weng and Lin's Bayesian
 * approximation for multiplayer rankings, the Plackett-Luce model (R. C. Weng
 * and C.-J. Lin, "A Bayesian Approximation Method for Online Ranking", JMLR
 * 12, 2011, Algorithm 4; the model the OpenSkill libraries call
 * PlackettLuce), and where a rating stands among the bots' levels.
 *
 * A rating is a belief about a player's skill: a normal distribution with
 * mean mu and standard deviation sigma. One finished game's ranking moves the
 * ratings of everyone in it (fig_rating_update); the bot levels are fixed
 * points on the same scale, measured once in the arena (docs/ratings.md) and
 * never moved by games. Pure functions: no I/O, no global state, the same
 * games in the same order give the same ratings. */
#ifndef FIGARO_HOST_RATING_H
#define FIGARO_HOST_RATING_H

#include <stdbool.h>

#include "figaro/bot.h"
#include "figaro/figaro.h"

/* The model's constants (docs/ratings.md): a new player's mu and sigma, the
 * spread beta of one game's performance around a player's skill, the floor
 * kappa of the factor that shrinks sigma^2 in one game, and tau, added to
 * sigma^2 before every game (skills drift, so sigma never settles at 0). */
#define FIG_RATING_MU0 25.0
#define FIG_RATING_SIGMA0 (25.0 / 3.0)
#define FIG_RATING_BETA (25.0 / 6.0)
#define FIG_RATING_KAPPA 0.0001
#define FIG_RATING_TAU (25.0 / 300.0)

typedef struct {
    double mu, sigma;
} fig_rating_t;

/* One player of a finished game, as fig_rating_update takes them. */
typedef struct {
    fig_rating_t rating;   /* before the game */
    /* The place: 1 for the first, players who tie share a place and the
     * places after them count the players ahead (1, 2, 2, 4: a tie for
     * second). A finished game of Figaro has no tie (R13); a game left early
     * may (docs/ratings.md). */
    int rank;
    /* A bot level: a fixed point of the scale. It weighs in the others'
     * update with its mu and sigma, and is neither moved nor widened by tau. */
    bool fixed;
} fig_rating_seat_t;

/* A new player's rating: mu0 and sigma0. */
fig_rating_t fig_rating_initial(void);

/* The ratings after one game of n players (2 to FIG_MAX_PLAYERS): out[i] is
 * seats[i]'s (seats[i].rating again for a fixed seat); out is written only
 * when the whole input is good. FIG_ERR_INPUT, with the seat and why, for a
 * bad n, a mu that is not a finite number within +-1e6, a sigma that is
 * not in (0, 1000], or ranks that are not places as above. */
fig_err_t fig_rating_update(const fig_rating_seat_t seats[], int n, fig_rating_t out[],
                            fig_msg_t *msg);

/* The rating shown to people and sorted on a leaderboard: mu - 3 sigma, a
 * skill the player very probably has at least (0 for a new player). */
double fig_rating_conservative(fig_rating_t r);

/* Level i's fixed point (fig_bot_level_rating, include/figaro/bot.h): the
 * rating a seat of that level enters fig_rating_update with, fixed. i must be
 * a level (0 to fig_bot_level_count() - 1). */
fig_rating_t fig_rating_level(int i);

/* Where a rating's mu stands among the levels': *below is the strongest
 * level whose mu is at most mu and *above the weakest whose mu is higher, -1
 * when there is none (below the weakest, or at or above the strongest). "Plays
 * between normal and hard" reads mu, the estimate, not mu - 3 sigma: a new
 * person (25) is beginner's equal, where their conservative 0 would put them
 * below every level (docs/ratings.md). */
void fig_rating_between(double mu, int *below, int *above);

#endif
