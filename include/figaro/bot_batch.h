/* SPDX-License-Identifier: MIT */
/* bot_batch.h - a batch of games (batch.h) whose opponents are built-in bots.
 *
 * The learner holds one seat of every game (opts.seat, 0 to players-1); every
 * other seat is played in C by a bot of the given spec (bot.h: "greedy",
 * "ismcts:iters=200", a level such as "normal"). Each opponent is a fig_bot_t
 * that follows its game from what its seat may know (R14): the setup, its
 * own hand each round and every action. Its choices are reproducible: at the
 * start of each game the bot of seat s is seeded with fig_seed_derive(S, 1, s),
 * S the game's seed (a spec with a time budget, `ms`, is reproducible only as
 * far as the machine's speed allows; use `iters`).
 *
 * The games, seeds, observations, masks, rewards and autoreset are those of
 * fig_batch_reset and fig_batch_step; only the opponents differ. The searching
 * bots of a batch think one at a time and share one block of search memory.
 * Implemented in the ai layer (libfigaro-ai). */
#ifndef FIGARO_BOT_BATCH_H
#define FIGARO_BOT_BATCH_H

#include <stdint.h>

#include "figaro/batch.h"

typedef struct fig_bot_batch fig_bot_batch_t;

/* n games (1 or more), opts as fig_batch_check but with a seat (self-play has
 * no opponents), opponents a bot spec. FIG_ERR_INPUT for a bad spec or
 * options, FIG_ERR_SPACE out of memory; free with fig_bot_batch_free. */
fig_err_t fig_bot_batch_new(fig_bot_batch_t **out, int n, const fig_batch_opts_t *opts,
                            const char *opponents, fig_msg_t *msg);
void fig_bot_batch_free(fig_bot_batch_t *b);   /* NULL is a no-op */

/* fig_batch_reset / fig_batch_step of the batch's n games. */
fig_err_t fig_bot_batch_reset(fig_bot_batch_t *b, const uint64_t seeds[],
                              const fig_batch_out_t *out, fig_msg_t *msg);
fig_err_t fig_bot_batch_step(fig_bot_batch_t *b, const int32_t actions[],
                             const fig_batch_out_t *out, fig_msg_t *msg);

/* The n games (seeds, games finished, states), to read between calls. */
const fig_env_t *fig_bot_batch_envs(const fig_bot_batch_t *b);

#endif
