/* SPDX-License-Identifier: MIT */
/* rating.c - Weng and Lin's Plackett-Luce update (JMLR 12, 2011, Algorithm 4)
 * for one game's ranking, with ties as the paper has them, and the display of
 * a rating.
 *
 * The model: player i performs with strength exp(mu_i / c), and a ranking is
 * drawn as Plackett-Luce draws it, the first among everyone, the second among
 * the rest, and so on; a group of A_q players who tie for a place each count
 * as chosen among everyone from that place down, with weight 1/A_q. With
 *
 *   c^2    = sum over the game's players s of (sigma_s^2 + beta^2)
 *   C_q    = { s : rank_s >= rank_q }        (q and everyone it finished ahead of)
 *   A_q    = | { s : rank_s = rank_q } |
 *   p_iq   = exp(mu_i / c) / sum over s in C_q of exp(mu_s / c)
 *
 * the update of player i sums over the q with rank_q <= rank_i (those whose
 * choice set held i):
 *
 *   Omega_i = sigma_i^2 / c            * sum (1/A_q) ([q = i] - p_iq)
 *   Delta_i = (sigma_i / c) sigma_i^2 / c^2 * sum (1/A_q) p_iq (1 - p_iq)
 *   mu_i    <- mu_i + Omega_i
 *   sigma_i <- sigma_i sqrt(max(1 - Delta_i, kappa))
 *
 * after sigma_i^2 <- sigma_i^2 + tau^2 (the factor sigma_i / c in Delta is
 * the paper's gamma_q, as the OpenSkill libraries choose it). Omega is the
 * gradient of the game's log-likelihood in mu_i times sigma_i^2, Delta the
 * curvature: a surprising place moves mu far, and every game narrows sigma.
 *
 * exp(mu / c) is computed as exp((mu - m_q) / c), m_q the highest mu of C_q:
 * p_iq is a ratio within C_q, so shifting its exponents alike changes nothing,
 * but every sum is then at least 1 and no p is 0/0, however far apart the
 * ratings (a strong player first and one far weaker last). */
#include <math.h>

#include "host/rating.h"

enum { MAXN = FIG_MAX_PLAYERS };

fig_rating_t fig_rating_initial(void)
{
    return (fig_rating_t){ FIG_RATING_MU0, FIG_RATING_SIGMA0 };
}

double fig_rating_conservative(fig_rating_t r)
{
    return r.mu - 3 * r.sigma;
}

/* The input as the update needs it, or why not. */
static fig_err_t check(const fig_rating_seat_t seats[], int n, fig_msg_t *msg)
{
    if (n < 2 || n > MAXN)
        return fig_fail(msg, FIG_ERR_INPUT, "a game's ranking has 2 to %d players, not %d",
                        MAXN, n);
    for (int i = 0; i < n; i++) {
        double mu = seats[i].rating.mu, sigma = seats[i].rating.sigma;
        if (!isfinite(mu) || fabs(mu) > 1e6)
            return fig_fail(msg, FIG_ERR_INPUT,
                            "seat %d: mu must be a number from -1000000 to 1000000", i);
        if (!isfinite(sigma) || !(sigma > 0) || sigma > 1000)
            return fig_fail(msg, FIG_ERR_INPUT,
                            "seat %d: sigma must be a number above 0 and at most 1000", i);
    }
    /* Places as people count them: each is 1 + the number of players ahead. */
    for (int i = 0; i < n; i++)
        if (seats[i].rank < 1 || seats[i].rank > n)
            return fig_fail(msg, FIG_ERR_INPUT, "seat %d: place %d is not from 1 to %d", i,
                            seats[i].rank, n);
    for (int i = 0; i < n; i++) {
        int r = seats[i].rank, ahead = 0;
        for (int j = 0; j < n; j++)
            ahead += seats[j].rank < r;
        if (r != ahead + 1)
            return fig_fail(msg, FIG_ERR_INPUT,
                            "seat %d: place %d, but %d players are ahead of it (places "
                               "count the players ahead: 1, 2, 2, 4 for a tie for second)",
                            i, r, ahead);
    }
    return FIG_OK;
}

fig_err_t fig_rating_update(const fig_rating_seat_t seats[], int n, fig_rating_t out[],
                            fig_msg_t *msg)
{
    fig_err_t rc = check(seats, n, msg);
    if (rc)
        return rc;
    const double beta2 = FIG_RATING_BETA * FIG_RATING_BETA, tau2 = FIG_RATING_TAU * FIG_RATING_TAU;
    double var[MAXN], c2 = 0;
    for (int i = 0; i < n; i++) {
        double s = seats[i].rating.sigma;
        var[i] = s * s + (seats[i].fixed ? 0 : tau2);
        c2 += var[i] + beta2;
    }
    double c = sqrt(c2), top[MAXN], sum[MAXN];
    int tied[MAXN];
    for (int q = 0; q < n; q++) {
        top[q] = seats[q].rating.mu;
        tied[q] = 0;
        for (int s = 0; s < n; s++) {
            if (seats[s].rank >= seats[q].rank && seats[s].rating.mu > top[q])
                top[q] = seats[s].rating.mu;
            tied[q] += seats[s].rank == seats[q].rank;
        }
        sum[q] = 0;
        for (int s = 0; s < n; s++)
            if (seats[s].rank >= seats[q].rank)
                sum[q] += exp((seats[s].rating.mu - top[q]) / c);
    }
    fig_rating_t next[MAXN];
    for (int i = 0; i < n; i++) {
        next[i] = seats[i].rating;
        if (seats[i].fixed)
            continue;
        double omega = 0, delta = 0;
        for (int q = 0; q < n; q++) {
            if (seats[q].rank > seats[i].rank)
                continue;
            double p = exp((seats[i].rating.mu - top[q]) / c) / sum[q];
            omega += ((q == i) - p) / tied[q];
            delta += p * (1 - p) / tied[q];
        }
        omega *= var[i] / c;
        delta *= sqrt(var[i]) / c * var[i] / c2;
        double shrink = 1 - delta;
        if (shrink < FIG_RATING_KAPPA)
            shrink = FIG_RATING_KAPPA;
        next[i].mu = seats[i].rating.mu + omega;
        next[i].sigma = sqrt(var[i] * shrink);
    }
    for (int i = 0; i < n; i++)
        out[i] = next[i];
    return FIG_OK;
}

fig_rating_t fig_rating_level(int i)
{
    fig_rating_t r = { 0, 0 };
    fig_bot_level_rating(i, &r.mu, &r.sigma);
    return r;
}

void fig_rating_between(double mu, int *below, int *above)
{
    *below = *above = -1;
    for (int i = 0; i < fig_bot_level_count(); i++) {
        if (fig_rating_level(i).mu <= mu)
            *below = i;
        else if (*above < 0)
            *above = i;
    }
}
