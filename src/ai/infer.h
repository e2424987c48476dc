/* SPDX-License-Identifier: MIT */
/* infer.h - the other seats' hands weighed by how they have played this round.
 *
 * A state drawn from a seat's view (fig_view_sample) gives every arrangement
 * of the unseen cards the same chance. But the others chose their actions
 * knowing their hands: a seat that left a big table on a pile at 4 probably
 * held nothing that was safe to play. infer_weigh draws a pool of states from
 * the view and weighs each by the likelihood of the other seats' actions this
 * round under a model of a sensible player: each action costs
 * exp(-beta * regret), the regret being how much worse the action was, by
 * greedy's evaluation (greedy.c, where a card collected costs 10), than the
 * best action the sample's hand allowed then. A search then draws its states
 * from the pool by weight (infer_draw). (A softmax likelihood, which also
 * divides by how many good actions the hand had, did worse: docs/bots.md.)
 *
 * The model is greedy's, so a seat is read only while it fits: while some
 * sample's hand makes the seat's every action this round one that greedy
 * could have chosen, within INFER_FIT. A greedy seat always fits; other
 * players, after a few actions, do not, and weighing their hands by the model
 * anyway lost games against a player kept out of tuning (docs/bots.md).
 *
 * Greedy's evaluation reads the table and the card played, never the hands,
 * so each action of another seat is evaluated once per think, for every kind
 * that seat might have held, and a sample's regret is then a maximum over the
 * kinds its hand held at that moment (its hand now and the cards it has
 * played since). Weighing 1,024 samples takes about a third of a millisecond
 * (docs/bots.md). */
#ifndef FIGARO_INFER_H
#define FIGARO_INFER_H

#include "figaro/bot.h"

enum { INFER_POOL = 1024 };

/* The most a seat's best-fitting sample may regret (greedy's units, a card
 * collected being 10) for the seat to be read: half of greedy's preference
 * for placing a 3, far more than rounding. Against greedy the best fit's
 * regret is 0 at 99-100% of thinks (docs/bots.md). */
#define INFER_FIT 0.25

typedef struct {
    int n;                     /* states in the pool: INFER_POOL, or 0 when unused */
    double ess;                /* effective sample size of the weights (all alike: INFER_POOL) */
    double weight[INFER_POOL]; /* each sample's weight, at most 1 */
    float cum[INFER_POOL];     /* cumulative weights, cum[n - 1] = 1 */
    fig_hand_t hand[INFER_POOL][FIG_MAX_PLAYERS];   /* each sample's hands */
} infer_pool_t;

/* Draws the pool from view with rng and weighs it by the actions in log (this
 * round so far, as the seat saw it). Leaves the pool unused (n = 0), so that
 * a search draws from the view as before, when there is nothing to read: no
 * log, a log that does not lead to the view, no action of another seat yet, or
 * weights that are all the same. */
void infer_weigh(infer_pool_t *pool, const fig_round_log_t *log, const fig_view_t *view,
                 double beta, fig_rng_t *rng);

/* A state consistent with view drawn from a used pool by weight. */
void infer_draw(const infer_pool_t *pool, const fig_view_t *view, fig_rng_t *rng,
                fig_state_t *out);

#endif
