/* SPDX-License-Identifier: MIT */
/* test_stats.c - the arena's statistics (host/stats.h) against values worked
 * out independently (by hand, from tables, or by a direct maximization of the
 * likelihood in Python, /tmp-free: the numbers are written here):
 *
 *   - Wilson interval, Student's t quantiles, mean and its interval;
 *   - Elo and score are each other's inverse;
 *   - SPRT bounds; the LLR of a binomial in closed form; the LLR of a
 *     trinomial against a line search over the distributions with the given
 *     mean; a pentanomial with only 0, 1/2, 1 observed is the trinomial;
 *   - Plackett-Luce: a symmetric record rates everyone 0; two and three
 *     entrants (one with two seats in a game) against a coordinate-wise
 *     maximization of the likelihood with the same prior; a large record
 *     without the prior's weight gives 400 log10(3) for 3 wins to 1;
 *   - the bootstrap interval contains the rating, narrows with more games,
 *     and is the same for the same seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "host/stats.h"

static void near(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.9f, want %.9f (+-%g)", got, want, tol);
}

static void test_intervals(void **state)
{
    (void)state;
    double lo, hi;
    fig_stats_wilson(5, 10, &lo, &hi);   /* textbook: [0.2366, 0.7634] */
    near(lo, 0.2366, 1e-4);
    near(hi, 0.7634, 1e-4);
    fig_stats_wilson(0, 4, &lo, &hi);
    near(lo, 0, 1e-12);
    near(hi, 0.4899, 1e-4);
    near(fig_stats_t975(1), 12.7062, 1e-4);
    near(fig_stats_t975(10), 2.2281, 1e-4);
    near(fig_stats_t975(40), 2.0211, 1e-4);    /* tables: 2.0211, 1.9840, 1.9623 */
    near(fig_stats_t975(100), 1.9840, 1e-4);
    near(fig_stats_t975(1000), 1.9623, 1e-4);
    double x[5] = { 1, 2, 3, 4, 5 }, mean, half;
    fig_stats_mean_ci(x, 5, &mean, &half);   /* sd sqrt(2.5), se sqrt(0.5), t(4) 2.7764 */
    near(mean, 3, 1e-12);
    near(half, 2.7764 * sqrt(0.5), 1e-4);
    fig_stats_mean_ci(x, 1, &mean, &half);
    near(mean, 1, 1e-12);
    near(half, 0, 1e-12);
}

static void test_elo(void **state)
{
    (void)state;
    near(fig_stats_elo_to_score(0), 0.5, 1e-12);
    near(fig_stats_elo_to_score(400), 10.0 / 11, 1e-12);
    near(fig_stats_score_to_elo(10.0 / 11), 400, 1e-9);
    near(fig_stats_score_to_elo(0.25), -400 * log10(3), 1e-9);
    for (double e = -600; e <= 600; e += 37)
        near(fig_stats_score_to_elo(fig_stats_elo_to_score(e)), e, 1e-7);
    assert_true(fig_stats_score_to_elo(1) > 1000);   /* finite */
}

static void test_sprt(void **state)
{
    (void)state;
    double lo, hi;
    fig_stats_sprt_bounds(0.05, 0.05, &lo, &hi);
    near(lo, -log(19), 1e-12);
    near(hi, log(19), 1e-12);
    fig_stats_sprt_bounds(0.05, 0.1, &lo, &hi);
    near(lo, log(0.1 / 0.95), 1e-12);
    near(hi, log(0.9 / 0.05), 1e-12);

    /* Values 0 and 1 only: the constrained MLE is (1 - s, s), so the LLR is
     * w log(s1/s0) + l log((1-s1)/(1-s0)) = 1.846259161 for 60 to 40, 0 to 50 Elo. */
    double v2[2] = { 0, 1 };
    long c2[2] = { 40, 60 };
    near(fig_stats_llr(2, v2, c2, 0, 50), 1.8462591612, 1e-6);

    /* Trinomial, by a line search over the distributions with the mean. */
    double v3[3] = { 0, 0.5, 1 };
    long c3[3] = { 30, 40, 30 };   /* losses, draws, wins */
    near(fig_stats_llr(3, v3, c3, 0, 20), -0.2757862468, 1e-6);
    long d3[3] = { 30, 20, 50 };
    near(fig_stats_llr(3, v3, d3, -10, 30), 2.4678665596, 1e-6);
    long none[3] = { 0, 0, 0 };
    near(fig_stats_llr(3, v3, none, 0, 10), 0, 1e-12);

    /* A pentanomial that saw only 0, 1/2 and 1 is that trinomial (but for the
     * 1e-3 given to the categories never seen). */
    double v5[5] = { 0, 0.25, 0.5, 0.75, 1 };
    long c5[5] = { 30, 0, 20, 0, 50 };
    near(fig_stats_llr(5, v5, c5, -10, 30), 2.4678665596, 0.01);
    /* More evidence of the same kind, more LLR; H0 favoured gives < 0. */
    long c5b[5] = { 60, 0, 40, 0, 100 };
    assert_true(fig_stats_llr(5, v5, c5b, -10, 30) > 1.9 * fig_stats_llr(5, v5, c5, -10, 30));
    long c5c[5] = { 50, 10, 20, 10, 30 };
    assert_true(fig_stats_llr(5, v5, c5c, 0, 20) < 0);

    double mean, slo, shi;
    fig_stats_score_ci(3, v3, d3, &mean, &slo, &shi);   /* 0.6, var 0.19 */
    near(mean, 0.6, 1e-12);
    near(shi - mean, 1.959963985 * sqrt(0.19 / 100), 1e-9);
    near(mean - slo, shi - mean, 1e-12);
}

static void test_plackett_luce(void **state)
{
    (void)state;
    fig_pl_rating_t r[3];
    fig_msg_t msg;

    int sym[4] = { 0, 1, 1, 0 };
    fig_pl_data_t d = { 2, 2, 2, sym };
    assert_int_equal(fig_pl_ratings(&d, 0, 1, 0, 1, r, &msg), FIG_OK);
    near(r[0].rating, 0, 1e-9);
    near(r[1].rating, 0, 1e-9);

    /* 3 wins to 1, with the prior: 145.790 Elo (direct maximization). */
    int two[8] = { 0, 1, 0, 1, 0, 1, 1, 0 };
    d = (fig_pl_data_t){ 2, 2, 4, two };
    assert_int_equal(fig_pl_ratings(&d, 1, 1, 0, 1, r, &msg), FIG_OK);
    near(r[0].rating, 145.7900957, 1e-5);
    near(r[1].rating, 0, 1e-12);

    /* Three seats; in the last game entrant 0 holds two of them. */
    int three[18] = { 0, 1, 2, 0, 1, 2, 1, 0, 2, 2, 1, 0, 1, 2, 0, 0, 0, 1 };
    d = (fig_pl_data_t){ 3, 3, 6, three };
    assert_int_equal(fig_pl_ratings(&d, 2, 1, 0, 1, r, &msg), FIG_OK);
    near(r[0].rating, 123.0096850, 1e-4);
    near(r[1].rating, 136.1749856, 1e-4);
    near(r[2].rating, 0, 1e-12);

    /* Many games: the prior fades, 3 to 1 is 400 log10(3) = 190.85 Elo. */
    enum { N = 4000 };
    int *many = malloc(2 * N * sizeof *many);
    assert_non_null(many);
    for (int g = 0; g < N; g++) {
        many[2 * g] = g % 4 == 3;
        many[2 * g + 1] = g % 4 != 3;
    }
    d = (fig_pl_data_t){ 2, 2, N, many };
    assert_int_equal(fig_pl_ratings(&d, 1, 4, 0, 1, r, &msg), FIG_OK);
    near(r[0].rating, 400 * log10(3), 0.3);
    free(many);

    assert_int_equal(fig_pl_ratings(&d, 2, 1, 0, 1, r, &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_pl_ratings(&d, 0, 3, 0, 1, r, &msg), FIG_ERR_INPUT);   /* 3 ∤ 4000 */
}

/* A record where 0 beats 1 beats 2 mostly, blocks of 3 games. */
static void fill(int *o, int games, int seed)
{
    unsigned x = (unsigned)seed;
    for (int g = 0; g < games; g++) {
        x = x * 1103515245u + 12345u;
        int upset = (x >> 16) % 10 < 3;
        o[3 * g] = upset ? 1 : 0;
        o[3 * g + 1] = upset ? 0 : 1;
        o[3 * g + 2] = 2;
        if ((x >> 8) % 7 == 0) {   /* sometimes 2 wins */
            o[3 * g + 2] = o[3 * g];
            o[3 * g] = 2;
        }
    }
}

static void test_bootstrap(void **state)
{
    (void)state;
    fig_msg_t msg;
    int small[3 * 60], big[3 * 600];
    fill(small, 60, 7);
    fill(big, 600, 7);
    fig_pl_data_t ds = { 3, 3, 60, small }, db = { 3, 3, 600, big };
    fig_pl_rating_t a[3], b[3], c[3];
    assert_int_equal(fig_pl_ratings(&ds, 2, 3, 200, 42, a, &msg), FIG_OK);
    assert_int_equal(fig_pl_ratings(&ds, 2, 3, 200, 42, b, &msg), FIG_OK);
    assert_int_equal(fig_pl_ratings(&db, 2, 3, 200, 42, c, &msg), FIG_OK);
    for (int i = 0; i < 2; i++) {
        assert_true(a[i].lo < a[i].rating && a[i].rating < a[i].hi);
        near(a[i].lo, b[i].lo, 0);   /* same seed, same interval */
        near(a[i].hi, b[i].hi, 0);
        assert_true(c[i].hi - c[i].lo < (a[i].hi - a[i].lo) * 0.6);   /* ~ 1/sqrt(10) */
    }
    assert_true(a[0].rating > a[1].rating && a[1].rating > 0);
    near(a[2].lo, 0, 1e-9);   /* the anchor is 0 in every replicate */
    near(a[2].hi, 0, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intervals),
        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_plackett_luce),
        cmocka_unit_test(test_bootstrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
