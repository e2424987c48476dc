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
 *                               the bot deterministic), threads, c, mem (MiB)
 *   easy, normal, hard, max     levels for people (docs/bots.md)
 * Other layers add kinds through fig_bot_wrap (e.g. "cmd:PROGRAM" for FEP). */
#ifndef FIGARO_BOT_H
#define FIGARO_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "figaro/state.h"
#include "figaro/view.h"

typedef struct fig_bot fig_bot_t;

/* What a bot is asked to decide on. `view` is all it may use; `guess` is the
 * tracked state whose other hands are a consistent guess (handy as a
 * determinization); `ms` is the time the host allows, 0 for the bot's own. */
typedef struct {
    const fig_view_t *view;
    const fig_state_t *guess;
    int ms;
} fig_bot_turn_t;

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
} fig_bot_ops_t;

/* Creates a built-in bot from its spec. `seed` makes its choices
 * reproducible. Returns FIG_ERR_INPUT with a message for a bad spec. The bot
 * must be freed with fig_bot_free. */
fig_err_t fig_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, fig_msg_t *msg);

/* Wraps a bot implemented elsewhere; takes ownership of data (ops->free).
 * Returns NULL if out of memory (and frees data). */
fig_bot_t *fig_bot_wrap(const fig_bot_ops_t *ops, void *data, const char *spec);

void fig_bot_free(fig_bot_t *bot);   /* NULL is a no-op */

const char *fig_bot_spec(const fig_bot_t *bot);
void fig_bot_seed(fig_bot_t *bot, uint64_t seed);
int fig_bot_seat(const fig_bot_t *bot);
int fig_bot_faults(const fig_bot_t *bot);
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

/* The tracked state (other hands guessed) and the seat's view of it. */
const fig_state_t *fig_bot_state(const fig_bot_t *bot);

/* Parses "name:k=v,k=v": fills name (cap bytes) and calls f for each pair.
 * Shared by the built-in kinds; returns FIG_ERR_INPUT with a message. */
typedef fig_err_t (*fig_spec_fn)(void *ctx, const char *key, const char *value, fig_msg_t *msg);
fig_err_t fig_spec_parse(const char *spec, char *name, size_t cap, fig_spec_fn f, void *ctx,
                         fig_msg_t *msg);

#endif
