/* SPDX-License-Identifier: MIT */
/* match.h - runs one game between people and programs, for every front end.
 *
 * A match owns the game record and one bot handle per program seat. It never
 * reads a terminal or a socket, and nothing it does on the caller's thread
 * blocks: the front end calls fig_match_step() to move the game on as far as
 * it can go without waiting, and gets back one step (a deal, or an applied
 * action with its events) per call. People's actions come in through
 * fig_match_play(). Nothing here is global: a server runs hundreds of
 * matches side by side in one event loop.
 *
 * Threading contract.
 *   - Every call below is made from one thread, the caller's (an event
 *     loop); a match is not shared between caller threads. None of them
 *     blocks: each returns at once.
 *   - Everything that may wait on a bot runs as a job on a worker pool
 *     (host/pool.h): an engine's handshake (fig_bot_game), the round and move
 *     notifications, thinks, `game_over`, and at free the engines' `quit`.
 *     The jobs of one match run one at a time, in order; many matches share
 *     the pool's bounded threads. A job first brings every bot up to date
 *     with the record (each bot has a cursor into it), then does its work.
 *     (With opts.inline_instant, a match whose bots are all instant runs
 *     its jobs on the caller's thread instead, inside the call that asks
 *     for them: they return at once.)
 *   - The descriptor fig_match_fd() becomes readable when something a job
 *     did is in (a bot's answer, the end of the bots' game, a fault); the
 *     caller then calls fig_match_step(), which applies it on the caller's
 *     thread. The record (fig_match_game) changes only in fig_match_step and
 *     fig_match_play, on the caller's thread; jobs read only the part of it
 *     that existed when they were asked for, which never changes.
 *   - Faults of external engines are delivered on the caller's thread, from
 *     fig_match_step (and fig_match_idle, fig_match_release_bots): through
 *     opts.on_fault if given, else queued for fig_match_next_fault.
 *   - fig_match_free returns at once, even while a job runs: the worker
 *     finishes (told to hurry: the think is cancelled and engines' waits give
 *     up), then frees what is left on its own; with a shared pool, free every
 *     match before fig_pool_free, which waits for those last jobs.
 *   - Bots belong to the match from fig_match_new on, and are touched only by
 *     its jobs; the caller must not use them until fig_match_release_bots
 *     hands them back.
 *   - A bot whose spec asks for search threads (ismcts threads=k) adds k - 1
 *     helper threads to its worker while it thinks; the pool bounds how many
 *     thinks run at once.
 *
 * Hidden information (R14): fig_match_view() is what a seat may be shown. The
 * record (fig_match_game) holds every hand and is for saving, never showing. */
#ifndef FIGARO_MATCH_H
#define FIGARO_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/bot.h"
#include "figaro/error.h"
#include "figaro/game.h"

typedef struct fig_match fig_match_t;
typedef struct fig_pool fig_pool_t;   /* host/pool.h */

/* A fault of an engine, on the caller's thread; f is valid during the call. */
typedef void (*fig_fault_fn)(void *user, const fig_fault_t *f);

typedef struct {
    fig_setup_t setup;                       /* checked by fig_match_new */
    bool has_names;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    fig_bot_t *bots[FIG_MAX_PLAYERS];        /* NULL: a person; the match owns the rest */
    int move_ms;                             /* time limit given to bots, 0: their own */
    fig_pool_t *pool;                        /* where jobs run (shared, not owned); NULL:
                                              * a private pool of one worker */
    fig_fault_fn on_fault;                   /* NULL: faults wait for fig_match_next_fault */
    void *fault_user;
    /* false (the default): before each think the match reseeds the bot from
     * the game seed, the seat and the move number, so a resumed game goes on
     * as the uninterrupted one would have. true: the caller seeded the bots
     * and the match leaves their streams alone (the arena seeds once per
     * game, as it always has). */
    bool keep_bot_seeds;
    /* true: when every bot of the match is instant (fig_bot_instant: random
     * ones), their work (handshake, notifications, thinks) runs on the
     * caller's thread, inside the call that asks for it, instead of on the
     * pool: it returns at once anyway, and a server saves a sleep and a
     * wake-up of two threads a move. A think's answer is then the step the
     * same fig_match_step returns; what else a job does (the bots told the
     * game's end, faults) comes through fig_match_fd as usual. false (the
     * default): always the pool. */
    bool inline_instant;
} fig_match_opts_t;

typedef enum {
    FIG_MATCH_WAIT_HUMAN,   /* fig_match_turn() is a person's seat: call fig_match_play */
    FIG_MATCH_THINKING,     /* a bot is thinking: wait on fig_match_fd(), then step */
    FIG_MATCH_READY,        /* fig_match_step() has something to do now */
    FIG_MATCH_OVER          /* the record is complete (fig_match_idle: the bots know it) */
} fig_match_status_t;

/* One thing that happened. */
typedef struct {
    bool deal;              /* round `round` was dealt (no action) */
    int round;
    int seat;               /* who acted */
    fig_action_t action;
    fig_events_t events;    /* what the action made happen (state.h) */
} fig_match_step_t;

/* Starts a match from a fresh setup; deals come from the setup's seed. Takes
 * ownership of the bots, even on failure. Returns at once: the engines'
 * handshakes run on the pool. */
fig_err_t fig_match_new(fig_match_t **out, const fig_match_opts_t *opts, fig_msg_t *msg);

/* Continues a saved game: replays `record` (its setup, deals and actions),
 * then goes on from there; the bots are told what their seat saw by the
 * match's first job. */
fig_err_t fig_match_resume(fig_match_t **out, const fig_game_t *record,
                           const fig_match_opts_t *opts, fig_msg_t *msg);

/* Frees the match; returns at once (see the threading contract). Faults not
 * yet delivered are dropped. NULL is a no-op. */
void fig_match_free(fig_match_t *m);

/* Asks the bot thinking now (if any) to answer at once with the best it has;
 * the answer then comes through fig_match_fd/fig_match_step as usual. An
 * external engine cannot be hurried: it is stopped, without a fault, and its
 * seat plays random legal actions for the rest of the game. */
void fig_match_cancel(fig_match_t *m);

/* Moves the game on by one step if it can without waiting: deals the next
 * round, or applies a bot's finished answer, or starts a bot thinking.
 * Returns true and fills *step when something happened. Delivers faults. */
bool fig_match_step(fig_match_t *m, fig_match_step_t *step);

fig_match_status_t fig_match_status(const fig_match_t *m);

/* Whether no job of the match is asked for, running, or waiting to be
 * collected (collects what is in, delivering faults). Once the match is over
 * and idle, every bot has been told the game's end. */
bool fig_match_idle(fig_match_t *m);

/* Hands the bots back to the caller (out[seat], NULL for people); the match
 * then owns none. Only when the match is over and idle: FIG_ERR_STATE
 * otherwise. For a caller that plays many games with the same bots (the
 * arena keeps an engine process from one game to the next). */
fig_err_t fig_match_release_bots(fig_match_t *m, fig_bot_t *out[FIG_MAX_PLAYERS],
                                 fig_msg_t *msg);

/* Takes the oldest fault not delivered yet, when opts.on_fault was NULL;
 * false when there is none. Keeps the last 16. */
bool fig_match_next_fault(fig_match_t *m, fig_fault_t *out);

/* The seat to move (meaningful unless the match is over). */
int fig_match_turn(const fig_match_t *m);

bool fig_match_is_human(const fig_match_t *m, int seat);

/* A person's action for the seat to move: checked against the rules; on
 * error the message says why (e.g. "seat 2 cannot play B2 in front of seat 0:
 * seat 3 already has blue"). On success *step holds what happened. */
fig_err_t fig_match_play(fig_match_t *m, fig_action_t a, fig_match_step_t *step, fig_msg_t *msg);

/* What `seat` may see (R14). */
void fig_match_view(const fig_match_t *m, int seat, fig_view_t *v);

/* The whole record, hands included: for saving (FGN) and for the end of the
 * game, never for showing during play. */
const fig_game_t *fig_match_game(const fig_match_t *m);

/* A descriptor that becomes readable when a job's result is in. */
int fig_match_fd(const fig_match_t *m);

/* The spec of the bot at a seat, or NULL for a person. */
const char *fig_match_bot_spec(const fig_match_t *m, int seat);

/* An engine's fault as one sentence in the reader's language (tr; NULL for
 * English), without a program-name prefix, e.g. "FEP engine 'cmd:x' (seat 2):
 * fault: malformed answer 'play banana'; it plays random moves for the rest
 * of this game". Writes at most cap bytes into buf; returns buf. */
const char *fig_fault_text(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap);

#endif
