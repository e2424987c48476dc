/* SPDX-License-Identifier: MIT */
/* expert.c - a held-out opponent: a rule-based expert, no search, an FEP
 * engine on standard input and output.
 *
 * It exists, with pimc.c, to measure figaro's own bot against strong players
 * that were never used to tune it (docs/bots.md, "How strength is measured"):
 * nothing of src/ai is in it. It plays by hand-written knowledge of Figaro
 * (expert_policy.h): never bring its own pile to 6 when it can help it, make
 * another seat collect when the table is large, the leader on the road first
 * (R8, R13), keep its pile out of reach of the cards still unseen (it counts
 * every card played), keep jesters and rings as escapes, and take only when
 * every play costs more. Its own random stream (--seed) breaks ties only.
 *
 *   figaro arena ... --bot 'cmd:build/expert'
 */
#include <stdio.h>
#include <stdlib.h>

#include "expert_policy.h"
#include "opponent.h"
#include "figaro/view.h"

typedef struct {
    xp_params_t params;
    fig_rng_t rng;
} expert_t;

static fig_action_t choose(void *data, const fig_bot_turn_t *turn)
{
    expert_t *x = data;
    /* Any state consistent with the view scores alike (xp_scores reads the
     * public part, the own hand and the unseen cards together). */
    fig_state_t st;
    fig_view_sample(turn->view, &x->rng, &st);
    return xp_choose(&st, &x->params, 0.0, &x->rng);
}

static void seed_expert(void *data, uint64_t seed)
{
    fig_rng_seed(&((expert_t *)data)->rng, seed);
}

static const fig_bot_ops_t expert_ops = {
    .kind = "expert",
    .choose = choose,
    .seed = seed_expert,
    .free = free,
};

int main(int argc, char **argv)
{
    opp_options_t o = { .seed = 1 };
    int bad = opp_options(argc, argv, "expert", false, &o);
    if (bad)
        return bad;
    expert_t *x = calloc(1, sizeof *x);
    if (!x) {
        fprintf(stderr, "expert: out of memory\n");
        return 1;
    }
    xp_defaults(&x->params);
    fig_rng_seed(&x->rng, o.seed);
    return opp_serve(&expert_ops, x, "expert", "expert");
}
