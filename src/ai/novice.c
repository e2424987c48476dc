/* novice.c - a player like a person who has just learned the rules: it plays
 * its lowest card that may go somewhere (a ring only when nothing else may,
 * since a newcomer keeps the odd card for later), in front of a player where
 * the card does not make itself collect when there is such a place (it knows
 * that collecting lengthens its road), anywhere else at random; it takes
 * only when it must (R5). It reads only its hand and the table.
 *
 * It stands for a newcomer when the levels are measured (docs/play.md): the
 * lowest level is set so that this player wins a fair share of its games. */
#include <stdlib.h>

#include "ai/ai.h"

/* The order in which a newcomer sheds cards: lowest value first, the ring
 * (value 0, but a card that moves every pile) last. */
static int shed_rank(int kind)
{
    return kind == FIG_RING ? 10 : fig_kind_value(kind);
}

static fig_action_t novice_choose(void *data, const fig_bot_turn_t *turn)
{
    fig_rng_t *rng = data;
    const fig_state_t *st = turn->guess;
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, moves), me = st->turn;
    int lowest = 1000;
    for (int i = 0; i < n; i++)
        if (!fig_act_is_take(moves[i]) && shed_rank(fig_act_kind(moves[i])) < lowest)
            lowest = shed_rank(fig_act_kind(moves[i]));
    if (lowest == 1000)
        return n ? moves[0] : FIG_ACT_NONE;   /* only a take: it must (R5) */
    /* Among the places for a lowest card, those where it does not collect
     * (R8 on its own pile); a uniform choice by reservoir sampling. */
    fig_action_t pick = FIG_ACT_NONE, fallback = FIG_ACT_NONE;
    int safe = 0, any = 0;
    for (int i = 0; i < n; i++) {
        fig_action_t a = moves[i];
        if (fig_act_is_take(a) || shed_rank(fig_act_kind(a)) != lowest)
            continue;
        if (fig_rng_below(rng, (uint32_t)++any) == 0)
            fallback = a;
        int t = fig_act_target(a);
        bool collects = t == me && fig_act_kind(a) != FIG_RING &&
                        st->pile[t].total + fig_kind_value(fig_act_kind(a)) >= 6;
        if (!collects && fig_rng_below(rng, (uint32_t)++safe) == 0)
            pick = a;
    }
    return safe ? pick : fallback;
}

static const fig_bot_ops_t novice_ops = {
    .kind = "novice", .choose = novice_choose, .seed = rng_bot_seed, .free = free,
};

fig_err_t novice_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                         fig_msg_t *msg)
{
    return rng_bot_new(spec, seed, &novice_ops, ops, data, msg);
}
