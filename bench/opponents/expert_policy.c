/* SPDX-License-Identifier: MIT */
/* expert_policy.c - the expert's scores of a position's actions
 * (expert_policy.h says what they weigh). */
#include "expert_policy.h"

#include <math.h>

void xp_defaults(xp_params_t *p)
{
    /* Set by hand (docs/bots.md): nothing changes them afterwards. */
    *p = (xp_params_t){
        .other = 0.8,
        .leader = 0.3,
        .risk = 1.0,
        .hit = 0.3,
        .jester = 0.6,
        .ring = 1.2,
        .liability = 0.15,
        .take = 0.5,
    };
    for (int k = 0; k <= FIG_DECK_MAX; k++)
        p->hit_of[k] = 1.0 - pow(1.0 - p->hit, k);
}

typedef struct {
    uint8_t total, colour;
} pile_t;

/* The cards of `pool` that, played on pile p, bring it to 6 or more (R8) and
 * may legally go there (R6): jesters anywhere; a colour card on a pile of its
 * colour, or on a pile with none while no other pile has that colour
 * (`owned`, a bit per colour on the table). */
static int killers(pile_t p, unsigned owned, const int pool[FIG_KINDS])
{
    int need = 6 - p.total;
    if (need > 3)
        return 0;
    int k = 0;
    if (need <= 1)
        k += pool[FIG_J1];
    if (need <= 2)
        k += pool[FIG_J2];
    for (int c = 0; c < FIG_COLOURS; c++) {
        if (p.colour == FIG_NO_COLOUR ? (owned >> c & 1) : p.colour != c)
            continue;
        for (int v = need < 1 ? 1 : need; v <= 3; v++)
            k += pool[c * 3 + v - 1];
    }
    return k;
}

void xp_scores(const fig_state_t *st, const xp_params_t *p, const fig_action_t legal[], int n,
               double out[])
{
    const int me = st->turn, np = st->players, table = st->table_cards;
    int unseen[FIG_KINDS] = { 0 }, mine[FIG_KINDS], theirs[FIG_KINDS];
    for (int s = 0; s < np; s++)
        if (s != me)
            for (int k = 0; k < FIG_KINDS; k++)
                unseen[k] += st->hand[s].n[k];
    /* The cards that can reach another seat's pile: the unseen ones but that
     * seat's own share of them (on average), and the mover's. */
    for (int k = 0; k < FIG_KINDS; k++) {
        mine[k] = st->hand[me].n[k];
        theirs[k] = mine[k] + (int)lround(unseen[k] * (np - 2) / (double)(np - 1));
    }
    const double *hit = p->hit_of;
    pile_t pile[FIG_MAX_PLAYERS];
    unsigned owned = 0;
    for (int s = 0; s < np; s++) {
        pile[s] = (pile_t){ st->pile[s].total, st->pile[s].colour };
        if (pile[s].colour != FIG_NO_COLOUR)
            owned |= 1u << pile[s].colour;
    }
    /* Who leads: a seat with a shorter road than the mover's counts more. */
    double w[FIG_MAX_PLAYERS], before[FIG_MAX_PLAYERS];
    int road = fig_state_road(st, me);
    for (int s = 0; s < np; s++) {
        int r = fig_state_road(st, s);
        w[s] = p->other * (1.0 + p->leader * (r < road ? 1 : r > road ? -1 : 0));
        before[s] = hit[killers(pile[s], owned, theirs)];
    }
    /* The table when a card brings a pile to 6 before the mover's next turn:
     * this play's card, about half the others' plays, and the card itself. */
    const double stake = table + 1 + 0.5 * (np - 2) + 1;

    for (int i = 0; i < n; i++) {
        fig_action_t a = legal[i];
        if (fig_act_is_take(a)) {
            out[i] = -table - p->take;
            continue;
        }
        int kind = fig_act_kind(a), v = fig_kind_value(kind);
        double score = 0;
        pile_t after[FIG_MAX_PLAYERS];
        for (int s = 0; s < np; s++)
            after[s] = pile[s];
        unsigned owned_after = owned;
        if (kind == FIG_RING) {   /* R7: every pile one seat left, the mover's with the ring */
            for (int s = 0; s < np; s++)
                after[(s + 1) % np] = pile[s];
            for (int s = 0; s < np; s++)
                if (s != me)
                    score += w[s] * 0.5 * p->risk * stake
                             * (hit[killers(after[s], owned, theirs)] - before[s]);
            score -= p->ring;
        } else {
            int t = fig_act_target(a);
            if (pile[t].total + v >= 6) {   /* R8: t collects the table and this card */
                out[i] = t == me ? -(table + 1) : w[t] * (table + 1);
                continue;
            }
            after[t].total = (uint8_t)(pile[t].total + v);
            if (fig_kind_is_colour(kind)) {
                after[t].colour = (uint8_t)fig_kind_colour(kind);
                owned_after |= 1u << after[t].colour;
            }
            if (t != me)
                score += w[t] * 0.5 * p->risk * stake
                         * (hit[killers(after[t], owned_after, theirs)] - before[t]);
            if (fig_kind_is_jester(kind))
                score -= p->jester * (kind == FIG_J2 ? 1.5 : 1.0);
        }
        /* The mover's own pile until its next turn: the unseen cards that
         * can bring it to 6, and the cards in hand that can go nowhere else. */
        score -= p->risk * stake * hit[killers(after[me], owned_after, unseen)];
        if (after[me].colour != FIG_NO_COLOUR) {
            int c = after[me].colour, left = 0;
            for (int vv = 1; vv <= 3; vv++)
                left += vv * (mine[c * 3 + vv - 1] - (kind == c * 3 + vv - 1));
            score -= p->liability * left;
        }
        out[i] = score;
    }
}

fig_action_t xp_choose(const fig_state_t *st, const xp_params_t *p, double eps, fig_rng_t *rng)
{
    fig_action_t legal[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, legal);
    if (n == 1)
        return legal[0];
    if (eps > 0 && (double)(fig_rng_next(rng) >> 11) * 0x1p-53 < eps)
        return legal[fig_rng_below(rng, (uint32_t)n)];
    double score[FIG_MAX_ACTIONS];
    xp_scores(st, p, legal, n, score);
    int best = 0, ties = 1;
    for (int i = 1; i < n; i++) {
        if (score[i] > score[best] + 1e-9) {
            best = i;
            ties = 1;
        } else if (score[i] > score[best] - 1e-9 && fig_rng_below(rng, (uint32_t)++ties) == 0) {
            best = i;   /* reservoir: each of the tied actions with the same chance */
        }
    }
    return legal[best];
}
