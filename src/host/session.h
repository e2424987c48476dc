/* SPDX-License-Identifier: MIT */
/* session.h - what every front end does to start a game, done once: the seat
 * table (who plays where, people and bots, and their names), the seeds, the
 * match for a new game or for a saved record, and telling a record again step
 * by step.
 *
 * A game is a pure function of its seed and its actions: the deals come from
 * the game seed (game.h), and the bot at seat s is created with
 * fig_session_bot_seed(seed, s), so the same seed and the same moves of
 * the people give the same game, in any front end (time-limited search bots
 * aside: how far they get in their time varies).
 *
 * Nothing here touches files, the terminal or the environment: a front end
 * reads a saved game through store.h and hands the record over. Messages are
 * English msgids (N_) put through the caller's translator. */
#ifndef FIGARO_SESSION_H
#define FIGARO_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/pool.h"

enum {
    FIG_SPEC_MAX = 128,          /* a bot spec, its NUL included */
    FIG_SESSION_ENGINE_MS = 1000 /* time per move of an FEP engine seat, unless told */
};

/* Who plays one seat. */
typedef struct {
    bool bot;                     /* a program, else a person */
    char name[FIG_NAME_MAX + 1];  /* a person's name (required); a bot's, or "" for a
                                     default one (fig_session_bot_name) */
    char spec[FIG_SPEC_MAX];      /* a bot's spec: "normal", "ismcts:ms=50", "cmd:PROGRAM
                                     ARGS..."; "" for a person */
} fig_seat_t;

/* The seat table: how many play and who sits where. Any seat may be a
 * person; several people may play. */
typedef struct {
    int players;                          /* FIG_MIN_PLAYERS..FIG_MAX_PLAYERS */
    fig_seat_t seat[FIG_MAX_PLAYERS];     /* seats 0..players-1 */
} fig_seats_t;

/* What a new game starts from. */
typedef struct {
    fig_seats_t seats;
    uint64_t seed;       /* the game seed: the deals and every bot's stream */
    bool has_seed;       /* else fig_session_start draws one from the clock */
    int engine_ms;       /* time per move told to FEP engines; 0: FIG_SESSION_ENGINE_MS */
    fig_pool_t *pool;    /* where the bots think (pool.h); NULL: a worker of the match's own */
    fig_fault_fn on_fault;   /* an engine's faults, on the caller's thread (match.h) */
    void *fault_user;
} fig_session_opts_t;

/* The name of bot seat `seat` when none is given: the bot seats, in seat
 * order, take the characters of the Barber of Seville ("Rosina", "Bartolo",
 * "Basilio", ...), skipping any that equals a person's name (ignoring case),
 * so a default name never equals a person's. "Bot" when the names run out;
 * NULL if `seat` is not a bot seat of the table. With the person at seat 0,
 * seat s gets the s-th name, as it always has. */
const char *fig_session_bot_name(const fig_seats_t *seats, int seat);

/* Whether `name` is a name FGN can hold: 1 to FIG_NAME_MAX bytes, no space,
 * no control character, no '#'. */
bool fig_session_name_ok(const char *name);

/* Checks that a spec makes a bot: creates it and frees it at once (an FEP
 * program is looked up on PATH, not started). FIG_ERR_INPUT with the reason. */
fig_err_t fig_session_check_spec(const char *spec, const fig_tr_t *tr, fig_msg_t *msg);

/* The seed of the bot at `seat` in a game seeded `seed`
 * (fig_seed_derive(seed, 0, 1000 + seat)): the terminal and the server derive
 * it this one way, so a seed and the people's moves give the same game
 * anywhere. */
uint64_t fig_session_bot_seed(uint64_t seed, int seat);

/* Starts a new game: checks the seat table, names the bots that have no name
 * (fig_session_bot_name), draws a secret 64-bit seed if there is none, creates every bot
 * through the one bot factory for all specs (built-in and "cmd:" engines)
 * with its seat's seed, deals from the game seed. What it decided is written
 * back into opts (seed, has_seed, the bots' names), for the front end to show
 * and for the store to save. On failure *out is NULL and msg says why (a seat
 * that is wrong, "seat 2 (nonsense): 'nonsense' is not a bot", ...). */
fig_err_t fig_session_start(fig_match_t **out, fig_session_opts_t *opts, const fig_tr_t *tr,
                            fig_msg_t *msg);

/* Goes on with a saved game: `record` (its setup, deals and moves) is played
 * again and every bot is told what its seat saw, with the seat table of opts
 * (from the store); the names are the record's when it has some, else the
 * table's (bots without one named as above). opts' seed becomes the record's,
 * so each bot gets the seed it had when the game began. The record's players
 * must match the table's. On failure *out is NULL and msg says why. */
fig_err_t fig_session_resume(fig_match_t **out, const fig_game_t *record,
                             fig_session_opts_t *opts, const fig_tr_t *tr, fig_msg_t *msg);

/* Receives one step of a record told again: the same fig_match_step_t that
 * fig_match_step or fig_match_play gave when it happened, and the watching
 * seat's views just before and just after it (for a deal, `before` is the
 * view before the cards came). */
typedef void fig_session_step_fn(void *ctx, const fig_match_step_t *step,
                                 const fig_view_t *before, const fig_view_t *after);

/* Tells a record again, step by step, as `seat` saw it: every deal and every
 * action in order, through fn. Only views of `seat` and public events reach
 * fn (R14), so a narrator can tell the game so far to the person at `seat`
 * exactly as it was told live. Returns FIG_OK, or the record's error (with
 * msg) if a deal or an action does not replay; the steps before it were
 * told. FIG_ERR_SPACE if memory runs out (nothing told). */
fig_err_t fig_session_replay(const fig_game_t *record, int seat, fig_session_step_fn *fn,
                             void *ctx, fig_msg_t *msg);

/* Receives one step of a record told with every hand: as fig_session_step_fn
 * (seat 0's views), and the whole state after the step. */
typedef void fig_session_state_fn(void *ctx, const fig_match_step_t *step,
                                  const fig_view_t *before, const fig_view_t *after,
                                  const fig_state_t *st);

/* fig_session_replay that also hands fn the whole state, every hand in it:
 * only for a game that is over, or a record its reader already holds (R14). */
fig_err_t fig_session_replay_open(const fig_game_t *record, fig_session_state_fn *fn, void *ctx,
                                  fig_msg_t *msg);

#endif
