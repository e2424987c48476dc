/* SPDX-License-Identifier: MIT */
/* leaf.h - a learned estimate of how a round ends, to stop playouts early.
 *
 * From a full state in the middle of a round (a search's sampled one, where
 * every hand is known), a linear model predicts how many more cards each seat
 * will collect before the round ends. leaf_value draws round ends around that
 * prediction (with noise of the size the model misses by), scores each as
 * the engine scores a round (fig_state_end_round) and averages the exact rest
 * of the game over them (future.h): what a playout to the round's end gives,
 * without the noise of one random playout and at a fraction of its cost.
 *
 * The weights (leaf_weights.c) are fitted by least squares on games of
 * `greedy` against itself; bench/train_leaf.c writes the file again, the same
 * bytes from the same seed (`make leaf-weights`; docs/bots.md). */
#ifndef FIGARO_AI_LEAF_H
#define FIGARO_AI_LEAF_H

#include "ai/future.h"
#include "figaro/rng.h"
#include "figaro/state.h"

enum { LEAF_FEATURES = 46 };

typedef struct {
    float w[LEAF_FEATURES];   /* cards a seat still collects = w . its features */
    float var0, var1;         /* the misses' variance: var0 + var1 * cards in play */
} leaf_model_t;

/* One model per player count, 3 to 6 players (leaf_weights.c). */
extern const leaf_model_t leaf_models[4];

/* Cards in play: on the table and in every hand. */
int leaf_cards_in_play(const fig_state_t *st);

/* The features of seat i in st (phase PLAY, every hand known) into f, whose
 * LEAF_FEATURES entries must be zero beforehand; returns how many it set. */
int leaf_features(const fig_state_t *st, int i, float f[LEAF_FEATURES]);

/* The model's expected further cards for each seat of st (phase PLAY). */
void leaf_predict(const fig_state_t *st, float mean[FIG_MAX_PLAYERS]);

/* The value of the rest of the game from st (phase PLAY), averaged over
 * `draws` round ends drawn around the prediction, each scored and valued by
 * future_value (cache). st's stacks are then moved to the prediction's (for
 * a search's analysis of the cards collected), nothing else of it changes. */
void leaf_value(fig_state_t *st, fig_rng_t *rng, int draws, future_cache_t *cache,
                future_t *out);

#endif
