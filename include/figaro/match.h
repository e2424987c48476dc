/* match.h - runs one game between people and programs, for every front end.
 *
 * A match owns the game record and one bot handle per program seat. It never
 * reads a terminal or a socket and never blocks: the front end calls
 * fig_match_step() to move the game on as far as it can go without waiting,
 * and gets back one step (a deal, or an applied action with its events) per
 * call. When a bot is to move, the match starts its think in a thread of its
 * own and fig_match_step() returns false until the answer is in; the
 * descriptor from fig_match_fd() becomes readable then, so an event loop (the
 * terminal's getch timeout, a server's poll) can wait for it among others.
 * People's actions come in through fig_match_play(). Nothing here is global:
 * a server can run hundreds of matches side by side.
 *
 * Hidden information (R14): fig_match_view() is what a seat may be shown. The
 * record (fig_match_game) holds every hand and is for saving, never showing. */
#ifndef FIGARO_MATCH_H
#define FIGARO_MATCH_H

#include <stdbool.h>

#include "figaro/bot.h"
#include "figaro/game.h"

typedef struct fig_match fig_match_t;

typedef struct {
    fig_setup_t setup;                       /* checked by fig_match_new */
    bool has_names;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    fig_bot_t *bots[FIG_MAX_PLAYERS];        /* NULL: a person; the match owns the rest */
    int move_ms;                             /* time limit given to bots, 0: their own */
} fig_match_opts_t;

typedef enum {
    FIG_MATCH_WAIT_HUMAN,   /* fig_match_turn() is a person's seat: call fig_match_play */
    FIG_MATCH_THINKING,     /* a bot is thinking: wait on fig_match_fd(), then step */
    FIG_MATCH_READY,        /* fig_match_step() has something to do now */
    FIG_MATCH_OVER
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
 * ownership of the bots, even on failure. */
fig_err_t fig_match_new(fig_match_t **out, const fig_match_opts_t *opts, fig_msg_t *msg);

/* Continues a saved game: replays `record` (its setup, deals and actions) and
 * tells every bot what its seat saw, then goes on from there. */
fig_err_t fig_match_resume(fig_match_t **out, const fig_game_t *record,
                           const fig_match_opts_t *opts, fig_msg_t *msg);

/* Stops any think in progress (waiting for it) and frees everything. */
void fig_match_free(fig_match_t *m);

/* Moves the game on by one step if it can without waiting: deals the next
 * round, or applies a bot's finished answer, or starts a bot thinking. Returns
 * true and fills *step when something happened. */
bool fig_match_step(fig_match_t *m, fig_match_step_t *step);

fig_match_status_t fig_match_status(const fig_match_t *m);

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

/* A descriptor that becomes readable when a bot's answer is ready. */
int fig_match_fd(const fig_match_t *m);

/* The spec of the bot at a seat, or NULL for a person. */
const char *fig_match_bot_spec(const fig_match_t *m, int seat);

#endif
