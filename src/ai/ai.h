/* SPDX-License-Identifier: MIT */
/* ai.h - the built-in bot kinds, for the registry in bot.c. Each constructor
 * reads its options from a parsed spec and returns its ops and data. */
#ifndef FIGARO_AI_H
#define FIGARO_AI_H

#include "figaro/bot.h"

typedef fig_err_t (*bot_ctor_t)(const char *spec, uint64_t seed, const fig_bot_ops_t **ops,
                                void **data, fig_msg_t *msg);

fig_err_t random_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                         fig_msg_t *msg);
fig_err_t greedy_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                         fig_msg_t *msg);
fig_err_t novice_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                         fig_msg_t *msg);
fig_err_t careless_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops,
                           void **data, fig_msg_t *msg);
fig_err_t mcts_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                       fig_msg_t *msg);

/* The kinds whose only state is their generator (random, greedy, novice, careless): their data
 * is a fig_rng_t. rng_bot_new checks that the spec has no options, allocates
 * the generator seeded with seed, and returns `kind` as the ops. */
fig_err_t rng_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t *kind,
                      const fig_bot_ops_t **ops, void **data, fig_msg_t *msg);
void rng_bot_seed(void *data, uint64_t seed);

/* The greedy heuristic as a function, for playouts: the best action for the
 * seat to move in st by the greedy evaluation, ties broken by rng. */
fig_action_t greedy_choose(const fig_state_t *st, fig_rng_t *rng);

/* Its evaluation of action a (legal in before) for seat `me`, the seat to
 * move: higher is better, a card collected costs 10. It reads only what that
 * seat knows (the table, and which card a plays), not the hands. */
double greedy_evaluate(const fig_state_t *before, fig_action_t a, int me);

#endif
