/* hint.h - a hint for a person: the move a search bot would make in their
 * seat, computed on a worker pool so that the front end's loop never waits.
 *
 * The bot is made for each question and told only what the person's seat
 * knows: the setup, that seat's own hand each round and every public action
 * (R14). It thinks as a job of the pool (pool.h); the handle's descriptor
 * becomes readable when the answer is in, so a terminal's poll() or a
 * server's event loop waits for it among its other descriptors. One question
 * at a time per handle. The front end words the answer (fig_narrate_hint). */
#ifndef FIGARO_HOST_HINT_H
#define FIGARO_HOST_HINT_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/game.h"
#include "host/pool.h"

/* The search that answers: the levels' ISMCTS, a third of a second, trees
 * small enough for that time. */
#define FIG_HINT_SPEC "ismcts:ms=300,mem=64"

typedef struct fig_hint fig_hint_t;

/* Creates a hint handle that thinks on `pool` (NULL: a worker of its own,
 * started now). FIG_ERR_SPACE with a message if it cannot be had. */
fig_err_t fig_hint_new(fig_hint_t **out, fig_pool_t *pool, fig_msg_t *msg);

/* Returns at once, even while a question is out: the worker then stops the
 * search early and frees what is left. NULL is a no-op. */
void fig_hint_free(fig_hint_t *h);

/* Asks for the best move of `seat` in `record` (copied: the caller may go on
 * changing its own), with the search `spec` (NULL: FIG_HINT_SPEC). `tag`
 * names the question (e.g. the number of deals and actions so far) and comes
 * back with the answer; the search's seed is derived from it, so the same
 * question gets the same answer from an iteration-budgeted spec.
 * FIG_ERR_STATE if a question is still out or it is not that seat's turn to
 * play; FIG_ERR_INPUT for a bad spec. */
fig_err_t fig_hint_ask(fig_hint_t *h, const fig_game_t *record, int seat, const char *spec,
                       long tag, fig_msg_t *msg);

/* Whether a question is out (asked, its answer not taken yet). */
bool fig_hint_busy(const fig_hint_t *h);

/* A descriptor that becomes readable when the answer is in. */
int fig_hint_fd(const fig_hint_t *h);

/* Takes the answer if it is in: true with the action and the question's tag;
 * false (nothing changed) while the search goes on or nothing was asked. */
bool fig_hint_take(fig_hint_t *h, fig_action_t *action, long *tag);

#endif
