/* SPDX-License-Identifier: MIT */
/* greedy.c - a fast hand-written player that a casual human finds sensible.
 *
 * It tries every legal action on a copy of the (guessed) state and scores the
 * result from its seat's point of view, using only what the seat knows (its
 * own hand and the table; the guessed hands are never read):
 *   - cards it collects are bad (R11: more cards, longer road), cards others
 *     collect are good;
 *   - a pile of its own near 6 is a risk proportional to the table it would
 *     have to collect; the same for others is an opportunity, a small one;
 *   - a voluntary take is fine when the table is small and every play is bad;
 *   - high cards and jesters are worth shedding early, rings kept as escapes.
 * Weights were tuned against `random` in the arena (docs/bots.md). */
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"

/* Probability-like weight that a pile of this total gets pushed to 6 before
 * its owner's next turn: any card of value >= 6 - total will do it. */
static const double danger[6] = { 0.05, 0.10, 0.25, 0.55, 0.80, 0.95 };

double greedy_evaluate(const fig_state_t *before, fig_action_t a, int me)
{
    fig_state_t st = *before;
    fig_state_apply_legal(&st, a, NULL);
    double score = 0;
    int n = st.players;
    for (int s = 0; s < n; s++) {
        int gained = st.stack[s] - before->stack[s];
        if (st.round != before->round || st.phase != FIG_PHASE_PLAY)
            gained = 0;   /* the round ended: stacks were scored, compare no further */
        score += s == me ? -10.0 * gained : 2.5 * gained / (n - 1);
    }
    if (st.phase == FIG_PHASE_PLAY) {
        /* Risk of collecting later: my pile's total against the table size. */
        int table = st.table_cards;
        int mine = st.pile[me].total;
        score -= 4.0 * danger[mine] * (table + 1) / 4.0;
        for (int s = 0; s < n; s++)
            if (s != me)
                score += 0.6 * danger[st.pile[s].total] * (table + 1) / 4.0 / (n - 1);
    }
    if (!fig_act_is_take(a)) {
        int k = fig_act_kind(a);
        if (k == FIG_RING)
            score -= 0.8;   /* a ring is an escape: keep it for a dangerous table */
        else if (fig_kind_is_jester(k))
            score += 0.2;
        else if (k % 3 == 2)
            score += 0.5;   /* a 3 is the hardest card to place later */
    } else {
        score -= 1.0;   /* taking ends nothing: prefer a harmless play */
    }
    return score;
}

fig_action_t greedy_choose(const fig_state_t *st, fig_rng_t *rng)
{
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, moves), best = 0, ties = 0;
    double best_score = -1e300;
    for (int i = 0; i < n; i++) {
        double sc = greedy_evaluate(st, moves[i], st->turn);
        if (sc > best_score + 1e-9) {
            best_score = sc;
            best = i;
            ties = 1;
        } else if (sc > best_score - 1e-9 && fig_rng_below(rng, (uint32_t)++ties) == 0) {
            best = i;   /* reservoir sampling among equal scores */
        }
    }
    return n ? moves[best] : FIG_ACT_NONE;
}

static fig_action_t greedy_bot_choose(void *data, const fig_bot_turn_t *turn)
{
    return greedy_choose(turn->guess, data);
}

static const fig_bot_ops_t greedy_ops = {
    .kind = "greedy", .choose = greedy_bot_choose, .seed = rng_bot_seed, .free = free,
};

fig_err_t greedy_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                         fig_msg_t *msg)
{
    return rng_bot_new(spec, seed, &greedy_ops, ops, data, msg);
}
