/* SPDX-License-Identifier: MIT */
/* leaf.c - a learned estimate of how a round ends (leaf.h). */
#include <math.h>
#include <string.h>

#include "ai/leaf.h"

/* Colour kinds of value >= v, every colour: bit c*3 + (value - 1). */
static const uint32_t at_least[4] = { 0, 0x7FFF, 0x6DB6, 0x4924 };

/* The 256 quantiles (i + 1/2) / 256 of the standard normal distribution: a
 * draw is one table read, and the same numbers on every machine and build
 * (libm's logf and cosf need not round alike everywhere). */
static const float normal_quantile[256] = {
    -2.88563f, -2.52050f, -2.33523f, -2.20658f, -2.10655f, -2.02401f, -1.95332f, -1.89123f,
    -1.83567f, -1.78526f, -1.73902f, -1.69622f, -1.65632f, -1.61890f, -1.58362f, -1.55020f,
    -1.51843f, -1.48812f, -1.45912f, -1.43130f, -1.40455f, -1.37876f, -1.35386f, -1.32977f,
    -1.30643f, -1.28378f, -1.26177f, -1.24036f, -1.21950f, -1.19915f, -1.17929f, -1.15989f,
    -1.14091f, -1.12234f, -1.10414f, -1.08631f, -1.06881f, -1.05163f, -1.03476f, -1.01818f,
    -1.00187f, -0.98583f, -0.97003f, -0.95447f, -0.93915f, -0.92403f, -0.90913f, -0.89443f,
    -0.87991f, -0.86558f, -0.85143f, -0.83744f, -0.82362f, -0.80995f, -0.79643f, -0.78306f,
    -0.76982f, -0.75672f, -0.74374f, -0.73089f, -0.71816f, -0.70555f, -0.69305f, -0.68065f,
    -0.66836f, -0.65616f, -0.64407f, -0.63207f, -0.62015f, -0.60833f, -0.59659f, -0.58493f,
    -0.57335f, -0.56185f, -0.55042f, -0.53906f, -0.52777f, -0.51655f, -0.50540f, -0.49430f,
    -0.48327f, -0.47229f, -0.46137f, -0.45051f, -0.43970f, -0.42894f, -0.41823f, -0.40756f,
    -0.39695f, -0.38638f, -0.37585f, -0.36536f, -0.35491f, -0.34450f, -0.33413f, -0.32379f,
    -0.31349f, -0.30322f, -0.29299f, -0.28278f, -0.27261f, -0.26246f, -0.25234f, -0.24224f,
    -0.23217f, -0.22212f, -0.21210f, -0.20209f, -0.19211f, -0.18215f, -0.17220f, -0.16227f,
    -0.15236f, -0.14246f, -0.13257f, -0.12270f, -0.11284f, -0.10299f, -0.09315f, -0.08332f,
    -0.07350f, -0.06369f, -0.05388f, -0.04408f, -0.03428f, -0.02448f, -0.01469f, -0.00490f,
    0.00490f, 0.01469f, 0.02448f, 0.03428f, 0.04408f, 0.05388f, 0.06369f, 0.07350f,
    0.08332f, 0.09315f, 0.10299f, 0.11284f, 0.12270f, 0.13257f, 0.14246f, 0.15236f,
    0.16227f, 0.17220f, 0.18215f, 0.19211f, 0.20209f, 0.21210f, 0.22212f, 0.23217f,
    0.24224f, 0.25234f, 0.26246f, 0.27261f, 0.28278f, 0.29299f, 0.30322f, 0.31349f,
    0.32379f, 0.33413f, 0.34450f, 0.35491f, 0.36536f, 0.37585f, 0.38638f, 0.39695f,
    0.40756f, 0.41823f, 0.42894f, 0.43970f, 0.45051f, 0.46137f, 0.47229f, 0.48327f,
    0.49430f, 0.50540f, 0.51655f, 0.52777f, 0.53906f, 0.55042f, 0.56185f, 0.57335f,
    0.58493f, 0.59659f, 0.60833f, 0.62015f, 0.63207f, 0.64407f, 0.65616f, 0.66836f,
    0.68065f, 0.69305f, 0.70555f, 0.71816f, 0.73089f, 0.74374f, 0.75672f, 0.76982f,
    0.78306f, 0.79643f, 0.80995f, 0.82362f, 0.83744f, 0.85143f, 0.86558f, 0.87991f,
    0.89443f, 0.90913f, 0.92403f, 0.93915f, 0.95447f, 0.97003f, 0.98583f, 1.00187f,
    1.01818f, 1.03476f, 1.05163f, 1.06881f, 1.08631f, 1.10414f, 1.12234f, 1.14091f,
    1.15989f, 1.17929f, 1.19915f, 1.21950f, 1.24036f, 1.26177f, 1.28378f, 1.30643f,
    1.32977f, 1.35386f, 1.37876f, 1.40455f, 1.43130f, 1.45912f, 1.48812f, 1.51843f,
    1.55020f, 1.58362f, 1.61890f, 1.65632f, 1.69622f, 1.73902f, 1.78526f, 1.83567f,
    1.89123f, 1.95332f, 2.02401f, 2.10655f, 2.20658f, 2.33523f, 2.52050f, 2.88563f,
};

/* Kinds that bring seat t's pile to 6 if played on it now (R6, R8). */
static uint32_t finishers(const fig_state_t *st, int t)
{
    int need = 6 - st->pile[t].total;
    if (need > 3)
        return 0;
    int c = st->pile[t].colour;
    uint32_t m = at_least[need] & (c == FIG_NO_COLOUR ? ~(uint32_t)st->owned : 7u << (c * 3));
    if (need <= 2)
        m |= 1u << FIG_J2;
    if (need <= 1)
        m |= 1u << FIG_J1;
    return m;
}

/* Cards of a hand among the given kinds. */
static int cards_of(const fig_hand_t *h, uint32_t kinds)
{
    int n = 0;
    for (; kinds; kinds &= kinds - 1)
        n += h->n[__builtin_ctz(kinds)];
    return n;
}

int leaf_cards_in_play(const fig_state_t *st)
{
    int v = st->table_cards;
    for (int s = 0; s < st->players; s++)
        v += st->hand_size[s];
    return v;
}

/* What the features of every seat share, worked out once per state: the
 * cards in play, the table, the smallest hand (its seat, the first from the
 * seat to move, is taken to run out first, R10) and what is left before it
 * runs out, and each pile's finishers. */
typedef struct {
    float v, table, vol;
    int king, least;
    uint32_t finish[FIG_MAX_PLAYERS];
} shared_t;

static void share(const fig_state_t *st, shared_t *sh)
{
    int n = st->players;
    sh->v = (float)leaf_cards_in_play(st);
    sh->table = st->table_cards;
    sh->king = st->turn;
    for (int i = 1; i < n; i++) {
        int s = (st->turn + i) % n;
        if (st->hand_size[s] < st->hand_size[sh->king])
            sh->king = s;
    }
    sh->least = st->hand_size[sh->king];
    /* The round ends when the first seat runs out (R10): what is still to be
     * collected is about the table and that many cards from every hand. */
    sh->vol = sh->table + (float)(n * sh->least);
    for (int t = 0; t < n; t++)
        sh->finish[t] = finishers(st, t);
}

static int seat_features(const fig_state_t *st, const shared_t *sh, int i,
                         float f[LEAF_FEATURES])
{
    int n = st->players, d = (i - st->turn + n) % n, k = 0;
    float table = sh->table, v = sh->v;
    const fig_hand_t *h = &st->hand[i];
    int c1 = 0, c2 = 0, c3 = 0;
    for (int c = 0; c < FIG_COLOURS; c++) {
        c1 += h->n[c * 3];
        c2 += h->n[c * 3 + 1];
        c3 += h->n[c * 3 + 2];
    }
    int p = st->pile[i].total;
    /* The volume still to share, the seat's hand by kind of card. */
    f[k++] = 1;
    f[k++] = v;
    f[k++] = table;
    f[k++] = st->hand_size[i];
    f[k++] = (float)c1;
    f[k++] = (float)c2;
    f[k++] = (float)c3;
    f[k++] = h->n[FIG_J1];
    f[k++] = h->n[FIG_J2];
    f[k++] = h->n[FIG_RING];
    /* Its pile's total, and near 6 the table it would collect. */
    for (int t = 1; t <= 5; t++)
        f[k++] = (float)(p == t);
    for (int t = 3; t <= 5; t++)
        f[k++] = (float)(p == t) * table;
    /* Where it sits from the seat to move (R9: who plays before whom). */
    for (int e = 1; e < FIG_MAX_PLAYERS; e++)
        f[k++] = (float)(d == e);
    for (int e = 0; e < FIG_MAX_PLAYERS; e++)
        f[k++] = (float)(d == e) * table;
    f[k++] = (float)st->hand_size[i] * v / (v - table + 1);
    f[k++] = (float)c3 * v / 60;
    f[k++] = (float)(h->n[FIG_J1] + h->n[FIG_J2]) * v / 60;
    f[k++] = (float)h->n[FIG_RING] * v / 60;
    /* Cards in the other hands that would bring its pile to 6 now, and its
     * own cards that would do that to another pile. */
    int threats = 0, strikes = 0;
    for (int j = 0; j < n; j++) {
        if (j == i)
            continue;
        threats += cards_of(&st->hand[j], sh->finish[i]);
        strikes += cards_of(h, sh->finish[j]);
    }
    f[k++] = (float)(threats > 0);
    f[k++] = (float)(threats > 0) * table;
    f[k++] = (float)threats * table / 4;
    f[k++] = (float)(strikes > 0);
    f[k++] = (float)(strikes > 0) * table;
    f[k++] = (float)cards_of(h, st->owned);   /* cards with a single place to go */
    f[k++] = sh->vol;
    f[k++] = (float)(st->hand_size[i] - sh->least);
    f[k++] = sh->vol / (float)n * (float)(st->hand_size[i] == sh->least);
    for (int e = 0; e < 3; e++)
        f[k++] = (float)(d == e) * sh->vol;
    return k;
}

int leaf_features(const fig_state_t *st, int i, float f[LEAF_FEATURES])
{
    shared_t sh;
    share(st, &sh);
    return seat_features(st, &sh, i, f);
}

static void predict(const fig_state_t *st, const shared_t *sh, float mean[FIG_MAX_PLAYERS])
{
    const leaf_model_t *m = &leaf_models[st->players - 3];
    for (int s = 0; s < st->players; s++) {
        float f[LEAF_FEATURES] = { 0 }, y = 0;
        int nf = seat_features(st, sh, s, f);
        for (int j = 0; j < nf; j++)
            y += m->w[j] * f[j];
        mean[s] = y;
    }
}

void leaf_predict(const fig_state_t *st, float mean[FIG_MAX_PLAYERS])
{
    shared_t sh;
    share(st, &sh);
    predict(st, &sh, mean);
}

/* Adds a count drawn around mean to a stack (never below what it holds). */
static uint8_t grown(uint8_t stack, float y)
{
    int total = stack + (y > 0 ? (int)(y + 0.5f) : 0);
    return (uint8_t)(total > 255 ? 255 : total);
}

void leaf_value(fig_state_t *st, fig_rng_t *rng, int draws, future_cache_t *cache,
                future_t *out)
{
    int n = st->players;
    const leaf_model_t *m = &leaf_models[n - 3];
    float mean[FIG_MAX_PLAYERS];
    shared_t sh;
    share(st, &sh);
    predict(st, &sh, mean);
    /* The misses of the seats sum to about nothing (the cards in play are
     * shared out): the noise is centred, and widened by n / (n - 1) in
     * variance so that each seat's keeps the model's size. */
    float sd = sqrtf(fmaxf(m->var0 + m->var1 * sh.v, 0) * (float)n / (float)(n - 1));
    memset(out, 0, sizeof *out);
    for (int d = 0; d < draws; d++) {
        float noise[FIG_MAX_PLAYERS], centre = 0;
        for (int s = 0; s < n; s++) {
            noise[s] = sd * normal_quantile[fig_rng_below(rng, 256)];
            centre += noise[s];
        }
        centre /= (float)n;
        fig_state_t end = *st;
        for (int s = 0; s < n; s++)
            end.stack[s] = grown(st->stack[s], mean[s] + noise[s] - centre);
        fig_state_end_round(&end, sh.king);
        future_t scratch;
        const future_t *f = future_value(cache, &end, &scratch);
        for (int s = 0; s < n; s++) {
            out->win[s] += f->win[s];
            out->score[s] += f->score[s];
            out->place[s] += f->place[s];
        }
    }
    for (int s = 0; s < n; s++) {
        out->win[s] /= (float)draws;
        out->score[s] /= (float)draws;
        out->place[s] /= (float)draws;
        st->stack[s] = grown(st->stack[s], mean[s]);
    }
}
