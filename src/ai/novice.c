/* SPDX-License-Identifier: MIT */
/* novice.c - two players like people new to the game.
 *
 * `novice`, a person who has just learned the rules: it plays its lowest
 * card (a ring only when nothing else may go, since a newcomer keeps the odd
 * card for later) among the plays that do not make itself collect when there
 * are such plays (it knows that collecting lengthens its road), in front of
 * any player where it may go, at random; it takes only when it must (R5). It
 * reads only its hand and the table.
 *
 * It stands for a newcomer when the levels are measured (docs/play.md): the
 * lowest level is set so that this player wins a fair share of its games.
 *
 * `careless`, a person who knows which card may go where and nothing more:
 * any card that may go, anywhere it may go, uniformly; a take only when it
 * must. It is the lowest level, `beginner` (src/ai/bot.c): the newcomer wins
 * about a third of its games at a table of three of them. */
#include <stdlib.h>

#include "ai/ai.h"

/* The order in which a newcomer sheds cards: lowest value first, the ring
 * (value 0, but a card that moves every pile) last. */
static int shed_rank(int kind)
{
    return kind == FIG_RING ? 10 : fig_kind_value(kind);
}

/* Whether a card played makes the mover collect at once (R8 on its own pile;
 * a ring never does, R7). */
static bool collects(const fig_state_t *st, fig_action_t a)
{
    int k = fig_act_kind(a), t = fig_act_target(a);
    return t == st->turn && k != FIG_RING && st->pile[t].total + fig_kind_value(k) >= 6;
}

static fig_action_t novice_choose(void *data, const fig_bot_turn_t *turn)
{
    fig_rng_t *rng = data;
    const fig_state_t *st = turn->guess;
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, moves);
    /* The plays it would make: those that do not make it collect, if any. */
    bool safe = false;
    for (int i = 0; i < n; i++)
        safe |= !fig_act_is_take(moves[i]) && !collects(st, moves[i]);
    int lowest = 1000;
    for (int i = 0; i < n; i++)
        if (!fig_act_is_take(moves[i]) && !(safe && collects(st, moves[i])) &&
            shed_rank(fig_act_kind(moves[i])) < lowest)
            lowest = shed_rank(fig_act_kind(moves[i]));
    if (lowest == 1000)
        return n ? moves[0] : FIG_ACT_NONE;   /* only a take: it must (R5) */
    /* Its lowest such card, in front of any player where it may go (uniformly,
     * by reservoir sampling). */
    fig_action_t pick = FIG_ACT_NONE;
    int seen = 0;
    for (int i = 0; i < n; i++) {
        fig_action_t a = moves[i];
        if (fig_act_is_take(a) || (safe && collects(st, a)) ||
            shed_rank(fig_act_kind(a)) != lowest)
            continue;
        if (fig_rng_below(rng, (uint32_t)++seen) == 0)
            pick = a;
    }
    return pick;
}

static const fig_bot_ops_t novice_ops = {
    .kind = "novice", .choose = novice_choose, .seed = rng_bot_seed, .free = free,
};

fig_err_t novice_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                         fig_msg_t *msg)
{
    return rng_bot_new(spec, seed, &novice_ops, ops, data, msg);
}

/* ---- careless: a uniformly random play, a take only when it must */

static fig_action_t careless_choose(void *data, const fig_bot_turn_t *turn)
{
    fig_rng_t *rng = data;
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(turn->guess, moves), plays = 0;
    fig_action_t pick = n ? moves[0] : FIG_ACT_NONE;   /* a take when it is all there is */
    for (int i = 0; i < n; i++)
        if (!fig_act_is_take(moves[i]) && fig_rng_below(rng, (uint32_t)++plays) == 0)
            pick = moves[i];
    return pick;
}

static const fig_bot_ops_t careless_ops = {
    .kind = "careless", .choose = careless_choose, .seed = rng_bot_seed, .free = free,
};

fig_err_t careless_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops,
                           void **data, fig_msg_t *msg)
{
    return rng_bot_new(spec, seed, &careless_ops, ops, data, msg);
}
