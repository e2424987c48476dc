/* SPDX-License-Identifier: MIT */
/* expert_policy.h - hand-written Figaro knowledge for the held-out opponents
 * bench/opponents/expert.c (it plays by it) and bench/opponents/pimc.c (its
 * playouts do, with some randomness). Written from the rules alone
 * (../shared/spec/rules.md); nothing of src/ai is in it.
 *
 * Every legal action of the seat to move is scored in cards, from what that
 * seat may know (R14): the public piles, stacks, roads and hand sizes, its own
 * hand, and the cards still unseen (the other hands together, a multiset that
 * perfect memory of the public actions gives). The score is
 *   - the cards the mover collects (a Take, or its own pile brought to 6, R8),
 *     and the risk of collecting before its next turn: the chance that one of
 *     the unseen cards can legally bring its pile to 6, times the table then;
 *   + the cards it makes another seat collect, and the risk it puts on
 *     another pile, weighted by how that seat stands on the road (R13: the
 *     shortest road leads; making the leader collect counts more);
 *   - spending a jester or a ring (the escapes) on an ordinary play, and the
 *     cards left in hand that can only go on the mover's own pile (its colour,
 *     R6).
 * The best score is played; ties at random. */
#ifndef FIGARO_BENCH_EXPERT_POLICY_H
#define FIGARO_BENCH_EXPERT_POLICY_H

#include "figaro/bot.h"
#include "figaro/state.h"

typedef struct {
    double other;        /* a card another seat collects, against one the mover does (1) */
    double leader;       /* more for a seat whose road is shorter than the mover's, less for
                            one whose road is longer (by this fraction) */
    double risk;         /* weight of the risk of collecting before the next turn */
    double hit;          /* chance that one unseen card able to bring a pile to 6 does */
    double jester, ring; /* the cost of spending a J1/J2, a ring, on an ordinary play */
    double liability;    /* per point of value left in hand that only fits the own pile */
    double take;         /* the cost of a Take beyond the cards it collects */
    double hit_of[FIG_DECK_MAX + 1];  /* 1 - (1 - hit)^k: xp_defaults fills it */
} xp_params_t;

/* The expert's weights, and hit_of from them. */
void xp_defaults(xp_params_t *p);

/* Scores the n legal actions of st->turn (from fig_state_legal) into out.
 * Reads the public part of st, the mover's hand and the sum of the other
 * hands only (the unseen cards): any state consistent with the mover's view
 * (fig_view_sample) gives the same scores. */
void xp_scores(const fig_state_t *st, const xp_params_t *p, const fig_action_t legal[], int n,
               double out[]);

/* The action of st->turn (phase PLAY): with probability eps a uniformly random
 * legal one, otherwise the best scored, ties drawn from rng. */
fig_action_t xp_choose(const fig_state_t *st, const xp_params_t *p, double eps, fig_rng_t *rng);

#endif
