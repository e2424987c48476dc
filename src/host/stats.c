/* SPDX-License-Identifier: MIT */
/* stats.c - intervals, the sequential test and Plackett-Luce ratings (stats.h).
 *
 * Everything here is arithmetic on the caller's numbers. The SPRT follows
 * fishtest's generalized form: the observed outcome frequencies p on fixed
 * score values, and for each hypothesis the distribution q closest to p (most
 * likely) whose mean is the hypothesis's score, q_k = p_k / (1 + x (v_k - s))
 * with x the root of sum p_k (v_k - s) / (1 + x (v_k - s)) = 0 (the function
 * falls strictly in x, so bisection finds it). The ratings are the maximum of
 * the Plackett-Luce likelihood: a game's finishing order is drawn winner
 * first, each next finisher chosen among those left with probability
 * proportional to its strength. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/rng.h"
#include "host/stats.h"

#define Z975 1.959963984540054

void fig_stats_wilson(int w, int n, double *lo, double *hi)
{
    const double z = Z975;
    double p = (double)w / n, z2n = z * z / n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z / (1 + z2n) * sqrt(p * (1 - p) / n + z2n / (4.0 * n));
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

double fig_stats_t975(int df)
{
    static const double table[30] = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    };
    if (df < 1)
        df = 1;
    if (df <= 30)
        return table[df - 1];
    /* Abramowitz and Stegun 26.7.5. */
    double z = Z975, z2 = z * z, n = df;
    double g1 = (z2 + 1) * z / 4;
    double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
    double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
    double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
    return z + g1 / n + g2 / (n * n) + g3 / (n * n * n) + g4 / (n * n * n * n);
}

void fig_stats_mean_ci(const double *x, int n, double *mean, double *half)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    *mean = n > 0 ? sum / n : 0;
    *half = 0;
    if (n < 2)
        return;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *half = fig_stats_t975(n - 1) * sqrt(ss / (n - 1) / n);
}

double fig_stats_elo_to_score(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

double fig_stats_score_to_elo(double score)
{
    const double eps = 1e-3;   /* a perfect score would be infinitely many Elo */
    if (score < eps)
        score = eps;
    if (score > 1 - eps)
        score = 1 - eps;
    return -400 * log10(1 / score - 1);
}

void fig_stats_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}

/* The root x of sum p_k (v_k - s) / (1 + x (v_k - s)) = 0 on the interval
 * where every denominator is positive. */
static double mle_root(int k, const double v[], const double p[], double s)
{
    double vmin = v[0], vmax = v[0];
    for (int i = 1; i < k; i++) {
        vmin = v[i] < vmin ? v[i] : vmin;
        vmax = v[i] > vmax ? v[i] : vmax;
    }
    double lo = -1 / (vmax - s), hi = 1 / (s - vmin);
    for (int it = 0; it < 200; it++) {
        double x = (lo + hi) / 2, f = 0;
        for (int i = 0; i < k; i++)
            f += p[i] * (v[i] - s) / (1 + x * (v[i] - s));
        if (f > 0)
            lo = x;
        else
            hi = x;
    }
    return (lo + hi) / 2;
}

double fig_stats_llr(int k, const double value[], const long count[], double elo0, double elo1)
{
    enum { MAXK = 16 };
    double p[MAXK], total = 0, n = 0;
    if (k < 2 || k > MAXK)
        return 0;
    for (int i = 0; i < k; i++) {
        p[i] = count[i] > 0 ? (double)count[i] : 1e-3;
        total += p[i];
        n += (double)count[i];
    }
    if (n == 0)
        return 0;
    for (int i = 0; i < k; i++)
        p[i] /= total;
    double s0 = fig_stats_elo_to_score(elo0), s1 = fig_stats_elo_to_score(elo1);
    double x0 = mle_root(k, value, p, s0), x1 = mle_root(k, value, p, s1);
    double llr = 0;
    for (int i = 0; i < k; i++) {
        /* log(q1 / q0) = log((1 + x0 (v - s0)) / (1 + x1 (v - s1))) */
        llr += p[i] * log((1 + x0 * (value[i] - s0)) / (1 + x1 * (value[i] - s1)));
    }
    return n * llr;
}

void fig_stats_score_ci(int k, const double value[], const long count[], double *mean,
                        double *lo, double *hi)
{
    double n = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        n += (double)count[i];
        sum += (double)count[i] * value[i];
    }
    if (n == 0) {
        *mean = 0.5;
        *lo = 0;
        *hi = 1;
        return;
    }
    *mean = sum / n;
    double var = 0;
    for (int i = 0; i < k; i++)
        var += (double)count[i] * (value[i] - *mean) * (value[i] - *mean);
    double half = Z975 * sqrt(var / n / n);
    *lo = *mean - half < 0 ? 0 : *mean - half;
    *hi = *mean + half > 1 ? 1 : *mean + half;
}

/* ---- Plackett-Luce */

enum { PL_MAX = 64 };   /* entrants and seats per game: far more than an arena has */

int fig_pl_fit(const fig_pl_data_t *d, const int *weight, double gamma[], int warm)
{
    int e = d->entrants, size = d->size;
    if (e < 1 || e > PL_MAX || size < 2 || size > PL_MAX)
        return 0;
    double wins[PL_MAX], den[PL_MAX], suffix[PL_MAX + 1];
    /* The prior: one virtual win (and one loss, in den below) each. */
    for (int i = 0; i < e; i++) {
        wins[i] = 1;
        if (!warm || !(gamma[i] > 0) || !isfinite(gamma[i]))
            gamma[i] = 1;
    }
    /* Wins do not depend on the strengths: stage j of a game (j < size - 1)
     * is won by the j-th finisher; the last one is chosen with probability 1. */
    for (int g = 0; g < d->games; g++) {
        int w = weight ? weight[g] : 1;
        for (int j = 0; j < size - 1; j++)
            wins[d->order[g * size + j]] += w;
    }
    int it;
    for (it = 1; it <= 10000; it++) {
        for (int i = 0; i < e; i++)
            den[i] = 2 / (gamma[i] + 1);
        for (int g = 0; g < d->games; g++) {
            int w = weight ? weight[g] : 1;
            if (!w)
                continue;
            const int *o = &d->order[g * size];
            suffix[size] = 0;
            for (int t = size - 1; t >= 0; t--)
                suffix[t] = suffix[t + 1] + gamma[o[t]];
            /* The finisher at t was among those left at stages 0..min(t, size-2). */
            double acc = 0;
            for (int t = 0; t < size; t++) {
                if (t < size - 1)
                    acc += w / suffix[t];
                den[o[t]] += acc;
            }
        }
        double change = 0;
        for (int i = 0; i < e; i++) {
            double next = wins[i] / den[i];
            double rel = fabs(next / gamma[i] - 1);
            change = rel > change ? rel : change;
            gamma[i] = next;
        }
        if (change < 1e-10)
            break;
    }
    return it > 10000 ? 10000 : it;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile of sorted x[0..n-1], interpolated. */
static double quantile(const double *x, int n, double q)
{
    double h = q * (n - 1);
    int i = (int)h;
    if (i >= n - 1)
        return x[n - 1];
    return x[i] + (h - i) * (x[i + 1] - x[i]);
}

fig_err_t fig_pl_ratings(const fig_pl_data_t *d, int anchor, int block, int boot, uint64_t seed,
                         fig_pl_rating_t out[], fig_msg_t *msg)
{
    int e = d->entrants;
    if (e < 1 || e > PL_MAX || d->size < 2 || d->size > PL_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "ratings: 1 to %d entrants, 2 to %d seats", PL_MAX,
                        PL_MAX);
    if (anchor < 0 || anchor >= e)
        return fig_fail(msg, FIG_ERR_INPUT, "ratings: no entrant %d to anchor the scale", anchor);
    if (block < 1 || d->games % block)
        return fig_fail(msg, FIG_ERR_INPUT, "ratings: blocks of %d do not divide %d games",
                        block, d->games);
    double gamma[PL_MAX];
    fig_pl_fit(d, NULL, gamma, 0);
    for (int i = 0; i < e; i++) {
        out[i].rating = 400 * log10(gamma[i] / gamma[anchor]);
        out[i].lo = out[i].hi = out[i].rating;
    }
    if (boot <= 0 || d->games == 0)
        return FIG_OK;
    int blocks = d->games / block;
    int *weight = malloc((size_t)d->games * sizeof *weight);
    double *r = malloc((size_t)boot * (size_t)e * sizeof *r);
    if (!weight || !r) {
        free(weight);
        free(r);
        return fig_fail(msg, FIG_ERR_SPACE, "ratings: out of memory");
    }
    fig_rng_t rng;
    fig_rng_seed(&rng, seed);
    for (int b = 0; b < boot; b++) {
        memset(weight, 0, (size_t)d->games * sizeof *weight);
        for (int k = 0; k < blocks; k++) {
            int pick = (int)fig_rng_below(&rng, (uint32_t)blocks);
            for (int g = 0; g < block; g++)
                weight[pick * block + g]++;
        }
        double gb[PL_MAX];
        memcpy(gb, gamma, sizeof gb);   /* warm start: replicates are near the fit */
        fig_pl_fit(d, weight, gb, 1);
        for (int i = 0; i < e; i++)
            r[(size_t)i * (size_t)boot + (size_t)b] = 400 * log10(gb[i] / gb[anchor]);
    }
    for (int i = 0; i < e; i++) {
        double *x = &r[(size_t)i * (size_t)boot];
        qsort(x, (size_t)boot, sizeof *x, cmp_double);
        out[i].lo = quantile(x, boot, 0.025);
        out[i].hi = quantile(x, boot, 0.975);
    }
    free(weight);
    free(r);
    return FIG_OK;
}
