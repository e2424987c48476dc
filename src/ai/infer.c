/* SPDX-License-Identifier: MIT */
/* infer.c - the other seats' hands weighed by how they have played this
 * round (infer.h). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/infer.h"

/* One action of another seat, evaluated for every kind it might have held:
 * a hand's best action is the best of Take and of the kinds it held, and the
 * action's regret for that hand is that best minus `played`. */
typedef struct {
    int actor;
    double played;                /* greedy's value of the action taken */
    double take;                  /* of Take; -inf when the table was empty */
    double best_kind[FIG_KINDS];  /* of each kind's best target; -inf when it had none */
} step_t;

/* Evaluates the action `played` of the seat to move in st, and its others,
 * for a hand holding every kind: which of them it held is the sample's
 * business. */
static void evaluate_step(const fig_state_t *st, fig_action_t played, step_t *step)
{
    fig_state_t probe = *st;
    int s = st->turn;
    fig_hand_t deck;
    fig_deck(&deck, st->players, st->removed);
    probe.present[s] = 0;
    for (int k = 0; k < FIG_KINDS; k++) {
        probe.hand[s].n[k] = deck.n[k] != 0;   /* one of each kind; the size stays public */
        probe.present[s] |= (uint32_t)(deck.n[k] != 0) << k;
    }
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(&probe, moves);
    step->actor = s;
    step->played = 0;
    step->take = -HUGE_VAL;
    for (int k = 0; k < FIG_KINDS; k++)
        step->best_kind[k] = -HUGE_VAL;
    for (int i = 0; i < n; i++) {
        double v = greedy_evaluate(&probe, moves[i], s);
        double *best = fig_act_is_take(moves[i]) ? &step->take
                                                 : &step->best_kind[fig_act_kind(moves[i])];
        if (v > *best)
            *best = v;
        if (moves[i] == played)
            step->played = v;
    }
}

/* Each other seat's summed regret for one sample (the kinds each of its
 * hands holds now, its present[]), into out[]. Walks the round backwards from
 * now, adding back each card as it passes its play. */
static void regret(const step_t steps[], const int step_at[], const fig_action_t act[], int n,
                   const uint32_t present[FIG_MAX_PLAYERS], float out[FIG_MAX_PLAYERS])
{
    uint32_t held[FIG_MAX_PLAYERS];
    memcpy(held, present, sizeof held);
    double sum[FIG_MAX_PLAYERS] = { 0 };
    for (int i = n - 1; i >= 0; i--) {
        if (step_at[i] < 0)
            continue;   /* the viewer's own action: its hand is known */
        const step_t *st = &steps[step_at[i]];
        if (!fig_act_is_take(act[i]))
            held[st->actor] |= 1u << fig_act_kind(act[i]);
        double best = st->take;
        for (uint32_t kinds = held[st->actor]; kinds; kinds &= kinds - 1)
            if (st->best_kind[__builtin_ctz(kinds)] > best)
                best = st->best_kind[__builtin_ctz(kinds)];
        sum[st->actor] += best - st->played;   /* >= 0: the played action is among the hand's */
    }
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        out[s] = (float)sum[s];
}

void infer_weigh(infer_pool_t *pool, const fig_round_log_t *log, const fig_view_t *view,
                 double beta, fig_rng_t *rng)
{
    pool->n = 0;
    pool->ess = 0;
    if (!log || log->n > FIG_MAX_ROUND_ACTIONS)
        return;
    /* The round replayed from its deal, as the seat followed it, evaluating
     * each action of another seat before it is applied. */
    step_t steps[FIG_MAX_ROUND_ACTIONS];
    int step_at[FIG_MAX_ROUND_ACTIONS], nsteps = 0;
    fig_state_t st = log->start;
    for (int i = 0; i < log->n; i++) {
        step_at[i] = -1;
        if (st.phase != FIG_PHASE_PLAY)
            return;
        if (st.turn != view->seat) {
            evaluate_step(&st, log->action[i], &steps[nsteps]);
            step_at[i] = nsteps++;
        }
        if (fig_state_apply_seen(&st, view->seat, log->action[i], NULL, NULL) != FIG_OK)
            return;
    }
    if (nsteps == 0 || memcmp(&st.pub, &view->pub, sizeof st.pub) != 0)
        return;   /* nothing to read, or a log of some other position */

    float r[INFER_POOL][FIG_MAX_PLAYERS];   /* each sample's regret by seat (24 KiB) */
    double least[FIG_MAX_PLAYERS];
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        least[s] = HUGE_VAL;
    for (int j = 0; j < INFER_POOL; j++) {
        fig_state_t sample;
        fig_view_sample(view, rng, &sample);
        memcpy(pool->hand[j], sample.hand, sizeof pool->hand[j]);
        regret(steps, step_at, log->action, log->n, sample.present, r[j]);
        for (int s = 0; s < FIG_MAX_PLAYERS; s++)
            if (r[j][s] < least[s])
                least[s] = r[j][s];
    }
    /* A seat is read only while the model explains its play: while some
     * sample's hand makes every one of its actions this round one that greedy
     * could have chosen (INFER_FIT). Against other players no hand does after a
     * few actions, and the samples that come nearest are not nearer the truth. */
    bool read[FIG_MAX_PLAYERS];
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        read[s] = s != view->seat && least[s] <= INFER_FIT;
    double *w = pool->weight, sum = 0, sum2 = 0;
    for (int j = 0; j < INFER_POOL; j++) {
        double cost = 0;
        for (int s = 0; s < FIG_MAX_PLAYERS; s++)
            if (read[s])
                cost += r[j][s] - least[s];
        w[j] = exp(-beta * cost);
        sum += w[j];
        sum2 += w[j] * w[j];
    }
    pool->ess = sum * sum / sum2;
    if (pool->ess > INFER_POOL * (1 - 1e-9))
        return;   /* all alike: fresh samples from the view are as good and more varied */
    double run = 0;
    for (int j = 0; j < INFER_POOL; j++) {
        run += w[j];
        pool->cum[j] = (float)(run / sum);
    }
    pool->cum[INFER_POOL - 1] = 1.0f;
    pool->n = INFER_POOL;
}

void infer_draw(const infer_pool_t *pool, const fig_view_t *view, fig_rng_t *rng,
                fig_state_t *out)
{
    float u = (float)(fig_rng_next(rng) >> 40) * (1.0f / 16777216.0f);   /* [0, 1) */
    int lo = 0, hi = pool->n - 1;   /* the first j with u < cum[j] */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (u < pool->cum[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    fig_view_complete(view, pool->hand[lo], out);
}
