/* SPDX-License-Identifier: MIT */
/* stats.h - the statistics of the arena: intervals, a sequential test, and
 * ratings on one multi-player scale.
 *
 * Pure functions over numbers the caller hands in: no I/O, no global state;
 * the one random choice (the bootstrap's resampling) comes from an explicit
 * seed. Scores are in [0, 1] (1 = the candidate did better); Elo differences
 * are logistic: a score s is worth -400 log10(1/s - 1) Elo, so two entrants
 * 100 Elo apart score 0.64 against each other.
 *
 * References: the generalized SPRT on a multinomial with a constrained mean
 * (Van den Bergh's MLE, as fishtest uses it for trinomial and pentanomial
 * game results); Plackett-Luce fitted by minorization-maximization (Hunter,
 * "MM algorithms for generalized Bradley-Terry models", Ann. Statist. 2004). */
#ifndef FIGARO_HOST_STATS_H
#define FIGARO_HOST_STATS_H

#include <stdint.h>

#include "figaro/error.h"

/* Wilson score interval for w successes in n > 0 trials, 95%. */
void fig_stats_wilson(int w, int n, double *lo, double *hi);

/* The 97.5% quantile of Student's t with df >= 1 degrees of freedom: a
 * table to 30, then the Cornish-Fisher expansion (error < 1e-4). */
double fig_stats_t975(int df);

/* Mean of x[0..n-1] and the half-width of its 95% interval (Student's t
 * with n - 1 degrees of freedom; 0 when n < 2). */
void fig_stats_mean_ci(const double *x, int n, double *mean, double *half);

/* Logistic Elo and score, each the other's inverse; the score is clamped to
 * (0, 1) first, so 0 and 1 give large finite Elo values (+-1200 or more). */
double fig_stats_elo_to_score(double elo);
double fig_stats_score_to_elo(double score);

/* ---- the sequential probability ratio test */

/* The stopping bounds of an SPRT with error rates alpha (accepting H1 when
 * H0 holds) and beta: log(beta / (1 - alpha)) and log((1 - beta) / alpha). */
void fig_stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* The log-likelihood ratio of H1 (mean score s1 = score of elo1) against H0
 * (s0 = score of elo0) for k outcome categories of scores value[0..k-1] in
 * [0, 1] observed count[0..k-1] times: N sum p log(q1/q0), where p are the
 * observed frequencies and q0, q1 the most likely distributions on the same
 * values with means s0 and s1. A category never observed counts 1e-3, so
 * that q exists for any mean strictly between 0 and 1 (the values must
 * include 0 and 1, as trinomial {0, 1/2, 1} and pentanomial {0, 1/4, ..., 1}
 * do). 0 when nothing was observed. */
double fig_stats_llr(int k, const double value[], const long count[], double elo0, double elo1);

/* Mean score of k categories (as above) and its 95% interval by the normal
 * approximation; 0.5 and [0, 1] when nothing was observed. */
void fig_stats_score_ci(int k, const double value[], const long count[], double *mean,
                        double *lo, double *hi);

/* ---- Plackett-Luce ratings from finishing orders */

/* Games of `size` seats among `entrants`: order[g * size + i] is the entrant
 * that finished (i+1)-th in game g. An entrant may hold several seats of a
 * game (its copies are items of the same strength). */
typedef struct {
    int entrants;
    int size;
    int games;
    const int *order;
} fig_pl_data_t;

/* Fits the strengths gamma[0..entrants-1] by Hunter's MM iterations, each
 * game weighted by weight[g] (NULL: 1). A weak prior keeps every strength
 * finite (an entrant that always finished last, or first): each entrant is
 * also credited with two virtual two-player games against a reference of
 * strength 1, one won and one lost -- negligible beside hundreds of games.
 * Starts from gamma's values when `warm` (else all 1). Returns the number of
 * iterations (at most 10000; the relative change of every strength was below
 * 1e-10 at the end). */
int fig_pl_fit(const fig_pl_data_t *d, const int *weight, double gamma[], int warm);

typedef struct {
    double rating;   /* 400 log10(gamma / gamma[anchor]): 0 for the anchor */
    double lo, hi;   /* 95% percentile interval of the bootstrap (lo = hi = rating if none) */
} fig_pl_rating_t;

/* Ratings of every entrant on one scale, the anchor's 0, with 95% intervals
 * from `boot` bootstrap replicates (0: none) that resample whole blocks of
 * `block` consecutive games with replacement (an arena's deal: its games
 * share the cards, so they are resampled together; block must divide
 * d->games). The resampling draws from `seed` only. FIG_ERR_SPACE if out of
 * memory, FIG_ERR_INPUT for a bad anchor or block. */
fig_err_t fig_pl_ratings(const fig_pl_data_t *d, int anchor, int block, int boot, uint64_t seed,
                         fig_pl_rating_t out[], fig_msg_t *msg);

#endif
