/* SPDX-License-Identifier: MIT */
/* bot.h - players that are programs: the built-in bots and external engines.
 *
 * A bot is a vtable (fig_bot_ops_t) and its data, behind a fig_bot_t handle
 * that follows the game from what its seat may know (R14): the setup, its own
 * hand each round and every public action. When asked, the bot chooses from a
 * fig_view_t built from that knowledge alone; no bot ever sees another hand.
 *
 * Bots are created from spec strings:
 *   random                      uniformly random legal action
 *   greedy                      fast hand-written heuristics
 *   ismcts[:k=v,...]            Information-Set MCTS; keys: ms (time per move),
 *                               iters (iterations per move, replaces ms, makes
 *                               the bot deterministic), threads, c, copp,
 *                               win, wopp, mem (MiB), redraws, playout, exact,
 *                               leaf, leafcards, draws, infer, temp
 *                               (docs/bots.md)
 *   beginner, easy, normal,     levels for people (docs/bots.md)
 *   hard, max
 * Other layers add kinds through fig_bot_wrap (e.g. "cmd:PROGRAM" for FEP). */
#ifndef FIGARO_BOT_H
#define FIGARO_BOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figaro/game.h"
#include "figaro/state.h"
#include "figaro/view.h"

typedef struct fig_bot fig_bot_t;

/* Search memory lent to a bot for one think: a pool worker's block (host/
 * pool.h), so that memory is bounded by workers x block, not by bots. A bot
 * may use all of it during the think and must keep nothing in it after. */
typedef struct {
    void *mem;
    size_t size;
} fig_scratch_t;

/* The current round as the seat has seen it: the state just after the deal
 * (the seat's own hand exact, the others' a guess, as in a turn's `guess`)
 * and every action since, in order. */
typedef struct {
    fig_state_t start;
    int n;
    fig_action_t action[FIG_MAX_ROUND_ACTIONS];
} fig_round_log_t;

/* What a bot is asked to decide on. `view` is all it may use; `guess` is the
 * tracked state whose other hands are a consistent guess (handy as a
 * determinization); `ms` is the time the host allows, 0 for the bot's own.
 * `scratch`, when not NULL, is memory the bot uses instead of its own for
 * this think. `cancel`, when not NULL, may become true from another thread
 * at any time: the bot then answers at once with the best it has (a search
 * reads it in its loop, an engine's host in its waits). */
typedef struct {
    const fig_view_t *view;
    const fig_state_t *guess;
    int ms;
    const fig_scratch_t *scratch;
    const atomic_bool *cancel;
    const fig_round_log_t *round;   /* this round so far (for a bot that reads the
                                       others' play), or NULL */
} fig_bot_turn_t;

/* A fault of an external engine (FEP, docs/fep.md), recorded as data so that
 * a host can tell each person about it in their own language
 * (fig_fault_text in match.h formats one). Which fields mean something
 * depends on the kind; the others are 0 or "". */
typedef enum {
    FIG_FAULT_NONE = 0,
    FIG_FAULT_PIPES,               /* could not make its pipes: sys_errno */
    FIG_FAULT_FORK,                /* could not start a process: sys_errno */
    FIG_FAULT_PIPE_SETUP,          /* could not set up the pipes: sys_errno */
    FIG_FAULT_INPUT_CLOSED,        /* it closed its input (EPIPE on a write) */
    FIG_FAULT_WRITE,               /* a write failed otherwise: sys_errno */
    FIG_FAULT_DEAF,                /* it left its input unread for ms */
    FIG_FAULT_WAIT,                /* poll() failed: sys_errno */
    FIG_FAULT_HANDSHAKE_TIMEOUT,   /* no `fepok` within ms of `fep 1` */
    FIG_FAULT_HANDSHAKE_EXIT,      /* it exited during the handshake */
    FIG_FAULT_HANDSHAKE_LONG,      /* a handshake line longer than ms bytes */
    FIG_FAULT_HANDSHAKE_ANSWER,    /* it answered `fep 1` with line */
    FIG_FAULT_LATE,                /* no answer to `go ms` within limit_ms */
    FIG_FAULT_EXIT,                /* it exited instead of answering `go ms` */
    FIG_FAULT_LONG,                /* an answer line longer than ms bytes */
    FIG_FAULT_MALFORMED,           /* `play` with no, several or no valid action: line */
    FIG_FAULT_ILLEGAL,             /* an action the rules refuse: line, detail (why) */
    FIG_FAULT_NOT_PLAY             /* `go` answered with line, not `play <action>` */
} fig_fault_kind_t;

typedef struct {
    fig_fault_kind_t kind;
    int seat;              /* the engine's seat in that game */
    char spec[128];        /* "cmd:PROGRAM ARGS" */
    int ms, limit_ms;      /* the times or sizes the kind names */
    int sys_errno;         /* the system's error number, for the kinds that say so */
    char line[80];         /* the engine's line, shortened, control characters as '?' */
    char detail[200];      /* why an action is illegal (the rules' English message) */
    int exit_status;       /* how the process ended before it was stopped: */
    int signal;            /*   exit status >= 0 or killed by signal > 0; -1/0: unknown */
    char info[160];        /* its last `info` line, "" for none */
} fig_fault_t;

/* What a search learned about one move at its root (averages over the
 * playouts through that move, from the searching seat's point of view). */
typedef struct {
    fig_action_t action;
    uint32_t visits;                  /* root visits, summed over the trees */
    double share;                     /* visits / all root visits, 0..1 */
    double win;                       /* estimated chance the seat finishes first, 0..1 */
    double place;                     /* expected final place, 1.0 = first */
    double collect[FIG_MAX_PLAYERS];  /* expected cards each seat collects from now to the
                                         end of this round, this move included */
    double collect_next;              /* chance the seat itself collects (R8 or a Take) at or
                                         before its next turn after this move */
    double made_by[FIG_MAX_PLAYERS];  /* chance that seat s's action is the one that makes the
                                         seat collect then (sums to collect_next) */
} fig_move_stat_t;

typedef struct {
    int seat;                         /* the seat that searched */
    int n;                            /* moves below, most visited first */
    long iterations;
    fig_move_stat_t moves[FIG_MAX_ACTIONS];
} fig_analysis_t;

typedef struct {
    const char *kind;
    /* Required: choose a legal action for view->turn (== the bot's seat). */
    fig_action_t (*choose)(void *data, const fig_bot_turn_t *turn);
    /* Optional notifications, for bots that keep their own record (FEP). */
    void (*game)(void *data, const fig_setup_t *setup, int seat);
    void (*round)(void *data, int round, const fig_hand_t *hand);
    void (*move)(void *data, int seat, fig_action_t a);
    void (*game_over)(void *data, const int totals[]);
    /* Optional: faults committed so far (external engines). */
    int (*faults)(void *data);
    /* Optional: restart the bot's random stream (arena games are reproducible
     * whichever worker plays them). */
    void (*seed)(void *data, uint64_t seed);
    void (*free)(void *data);
    /* Optional: takes the oldest fault not yet taken (external engines). */
    bool (*take_fault)(void *data, fig_fault_t *out);
    /* Optional: every later wait of the bot outside a think (an engine's
     * handshake, its notifications) gives up once *closing is true. */
    void (*watch)(void *data, const atomic_bool *closing);
    /* Optional: what the last think saw at its root (bots that search);
     * false when there is nothing to tell. */
    bool (*analysis)(void *data, fig_analysis_t *out);
    /* true: choose and the notifications return at once, whatever the
     * position (no search, no process, no scratch): a caller may run them on
     * its own thread (match.h: fig_match_opts_t.inline_instant). */
    bool instant;
} fig_bot_ops_t;

/* Creates a built-in bot from its spec. `seed` makes its choices
 * reproducible. Returns FIG_ERR_INPUT with a message for a bad spec. The bot
 * must be freed with fig_bot_free. */
fig_err_t fig_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, fig_msg_t *msg);

/* Wraps a bot implemented elsewhere; takes ownership of data (ops->free).
 * Returns NULL if out of memory (and frees data). */
fig_bot_t *fig_bot_wrap(const fig_bot_ops_t *ops, void *data, const char *spec);

void fig_bot_free(fig_bot_t *bot);   /* NULL is a no-op */

/* The levels for people, weakest first ("beginner" ... "max"): the one list
 * the terminal's start screen, the server and its page offer. Each is a name
 * fig_bot_new takes. fig_bot_level_name is NULL when i is out of range;
 * fig_bot_level_index is -1 for a name that is no level. */
int fig_bot_level_count(void);
const char *fig_bot_level_name(int i);
int fig_bot_level_index(const char *name);
/* Level i's fixed point on the people's rating scale (docs/ratings.md): the
 * mu and sigma a person's rating update (host/rating.h) takes for it, measured
 * once in the arena and never moved by games; mu rises with the level. false
 * when i is out of range. */
bool fig_bot_level_rating(int i, double *mu, double *sigma);
/* The level of a bot seat nobody named a bot for: the terminal's opponents
 * (play, its start screen) and a table's `fill` on the server. One of the
 * levels above. */
#define FIG_BOT_LEVEL_DEFAULT "normal"

const char *fig_bot_spec(const fig_bot_t *bot);
bool fig_bot_instant(const fig_bot_t *bot);   /* its kind's ops.instant */
void fig_bot_seed(fig_bot_t *bot, uint64_t seed);
int fig_bot_seat(const fig_bot_t *bot);
int fig_bot_faults(const fig_bot_t *bot);
/* Takes the oldest fault the bot recorded and has not handed out yet; false
 * when there is none (always, for a built-in bot). An engine keeps the last
 * few; older ones not taken are dropped. */
bool fig_bot_take_fault(fig_bot_t *bot, fig_fault_t *out);
/* From now on every wait of the bot outside a think gives up when *closing
 * becomes true (set from another thread); NULL: never. For the match's free,
 * which must not wait for an engine. */
void fig_bot_watch(fig_bot_t *bot, const atomic_bool *closing);
/* Times fig_bot_choose replaced an illegal answer of the bot (0 for a sound bot). */
int fig_bot_overrules(const fig_bot_t *bot);

/* The game as the bot's seat sees it. Call in order: game, then for each round
 * `round` with the seat's hand, `move` for every action by anyone, `choose`
 * when the seat is to move; `game_over` at the end. */
fig_err_t fig_bot_game(fig_bot_t *bot, const fig_setup_t *setup, int seat, fig_msg_t *msg);
fig_err_t fig_bot_round(fig_bot_t *bot, const fig_hand_t *hand, fig_msg_t *msg);
fig_err_t fig_bot_move(fig_bot_t *bot, fig_action_t a, fig_msg_t *msg);
void fig_bot_game_over(fig_bot_t *bot);

/* Chooses an action; always legal for the tracked state (a bot that returns
 * an illegal one is overruled by a random legal action). ms: the host's time
 * limit, 0 for the bot's own budget. */
fig_action_t fig_bot_choose(fig_bot_t *bot, int ms);

/* fig_bot_choose with the host's search memory and a cancel flag (see
 * fig_bot_turn_t; either may be NULL). Without scratch, a bot that searches
 * (ismcts) uses a pool of its own, allocated at its first think. */
fig_action_t fig_bot_choose_with(fig_bot_t *bot, int ms, const fig_scratch_t *scratch,
                                 const atomic_bool *cancel);

/* What the bot's last think (fig_bot_choose / _with) saw at its root. false for a
 * bot that does not search (random, greedy, an engine) or before its first think.
 * "At or before its next turn" (collect_next, made_by) spans this move and every
 * action after it until the seat's next turn begins (or the round ends): the
 * move itself when it is a Take or brings the seat's own pile to 6 (made_by the
 * seat), or a later player's card that brings the seat's pile to 6 (R8). A level
 * whose choice is softened (a temperature over root values) still reports the
 * search's numbers; the move it actually played is what fig_bot_choose returned. */
bool fig_bot_analysis(const fig_bot_t *bot, fig_analysis_t *out);

/* fig_abi_size and fig_abi_offset (abi.h) for the ai layer's structs
 * (fig_move_stat_t, fig_analysis_t), for bindings that mirror them. */
size_t fig_ai_abi_size(const char *type);
size_t fig_ai_abi_offset(const char *type, const char *field);

/* The noise of a move's figures: the standard errors of its chance to win
 * (a mean of `visits` wins or losses, the chance kept off 0 and 1: a few
 * samples) and of its expected place (places spread as a uniform one over
 * 1..players), so that two moves are told apart only by more than that. */
void fig_move_stat_noise(const fig_move_stat_t *m, int players, double *se_win,
                         double *se_place);

/* The tracked state (other hands guessed) and the seat's view of it. */
const fig_state_t *fig_bot_state(const fig_bot_t *bot);

/* Parses "name:k=v,k=v": fills name (cap bytes) and calls f for each pair.
 * Shared by the built-in kinds; returns FIG_ERR_INPUT with a message. */
typedef fig_err_t (*fig_spec_fn)(void *ctx, const char *key, const char *value, fig_msg_t *msg);
fig_err_t fig_spec_parse(const char *spec, char *name, size_t cap, fig_spec_fn f, void *ctx,
                         fig_msg_t *msg);

#endif
