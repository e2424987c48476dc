/* SPDX-License-Identifier: MIT */
/* test_rating.c - Weng and Lin's Plackett-Luce update (host/rating.h) against
 * examples worked from the paper's formulas (JMLR 12, 2011, Algorithm 4), and
 * its edge cases. tests/python/test_rating.py checks it again against a
 * second implementation on many random games with ties.
 *
 * Worked example (test_worked): three players, tau = 25/300, beta = 25/6.
 *
 *   ann  mu 27  sigma 5      place 2
 *   bob  mu 25  sigma 25/3   place 1
 *   cid  mu 21  sigma 3      place 3
 *
 * sigma^2 + tau^2: ann 25 + 0.0069444 = 25.0069444, bob 69.4444444 +
 * 0.0069444 = 69.4513889, cid 9.0069444.
 * c^2 = (25.0069444 + 17.3611111) + (69.4513889 + 17.3611111)
 *     + (9.0069444 + 17.3611111) = 155.5486111,  c = 12.4719129.
 * exp(mu / c): ann exp(2.1648665) = 8.7134201, bob exp(2.0044985) =
 * 7.4224119, cid exp(1.6837794) = 5.3858945.
 * The sums over C_q (q and those it finished ahead of):
 *   S_bob = 8.7134201 + 7.4224119 + 5.3858945 = 21.5217266
 *   S_ann = 8.7134201 + 5.3858945             = 14.0993147
 *   S_cid = 5.3858945
 * Every A_q is 1 (no tie).
 * bob (first; q = bob): p = 7.4224119 / 21.5217266 = 0.3448799
 *   Omega = 69.4513889 / 12.4719129 * (1 - 0.3448799) = 5.5685739 * 0.6551201
 *         = 3.6481170;  mu 28.6481170
 *   Delta = (8.3337500 / 12.4719129) * (69.4513889 / 155.5486111)
 *           * 0.3448799 * 0.6551201 = 0.6681971 * 0.4464945 * 0.2259378
 *         = 0.0674079;  sigma sqrt(69.4513889 * 0.9325921) = 8.0479696
 * ann (second; q = bob, ann): p_bob = 8.7134201 / 21.5217266 = 0.4048662,
 *   p_ann = 8.7134201 / 14.0993147 = 0.6180031
 *   Omega = 25.0069444 / 12.4719129 * ((0 - 0.4048662) + (1 - 0.6180031))
 *         = 2.0050775 * -0.0228693 = -0.0458544;  mu 26.9541456
 *   Delta = (5.0006944 / 12.4719129) * (25.0069444 / 155.5486111)
 *           * (0.4048662 * 0.5951338 + 0.6180031 * 0.3819969)
 *         = 0.4009562 * 0.1607661 * 0.4770248 = 0.0307491;
 *   sigma sqrt(25.0069444 * 0.9692509) = 4.9232106
 * cid (third; q = bob, ann, cid): p = 0.2502538, 0.3819969, 1
 *   Omega = 9.0069444 / 12.4719129 * (-0.2502538 - 0.3819969 + 0)
 *         = 0.7221780 * -0.6322507 = -0.4565977;  mu 20.5434023
 *   Delta = (3.0011572 / 12.4719129) * (9.0069444 / 155.5486111)
 *           * (0.2502538 * 0.7497462 + 0.3819969 * 0.6180031 + 1 * 0)
 *         = 0.2406330 * 0.0579047 * 0.4237021 = 0.0059037;
 *   sigma sqrt(9.0069444 * 0.9940963) = 2.9922850
 *
 * A tie (test_tie): three new players (mu 25, sigma 25/3), two share the
 * first place. sigma^2 = 69.4513889, c^2 = 3 (69.4513889 + 17.3611111) =
 * 260.4375, c = 16.1380699. All exp(mu / c) are equal, so every p over the
 * three is 1/3; A = 2 for each of the first two.
 *   a first:  sum over q = both firsts of (1/2)([q = i] - 1/3)
 *           = (1/2)(2/3) + (1/2)(-1/3) = 1/6
 *           Omega = 69.4513889 / 16.1380699 / 6 = 0.7172622;  mu 25.7172622
 *   the third: (1/2)(-1/3) + (1/2)(-1/3) + (1)(1 - 1) = -1/3
 *           Omega = -1.4345243;  mu 23.5654757
 *   each: sum (1/A_q) p (1 - p) = 2 (1/2)(1/3)(2/3) (+ 1 * 1 * 0) = 2/9
 *           Delta = (8.3337500 / 16.1380699)(69.4513889 / 260.4375)(2/9)
 *                 = 0.0306023;  sigma sqrt(69.4513889 * 0.9693977) = 8.2052434 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "host/rating.h"

static void near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.9f, want %.9f (+-%g)", got, want, tol);
}

static fig_rating_seat_t seat(double mu, double sigma, int rank, bool fixed)
{
    return (fig_rating_seat_t){ { mu, sigma }, rank, fixed };
}

static void test_initial(void **state)
{
    (void)state;
    fig_rating_t r = fig_rating_initial();
    near(r.mu, 25, 0);
    near(r.sigma, 25.0 / 3, 1e-15);
    near(fig_rating_conservative(r), 0, 1e-12);
    near(fig_rating_conservative((fig_rating_t){ 30, 2 }), 24, 1e-12);
}

static void test_worked(void **state)
{
    (void)state;
    fig_rating_seat_t s[3] = { seat(27, 5, 2, false), seat(25, 25.0 / 3, 1, false),
                               seat(21, 3, 3, false) };
    fig_rating_t out[3];
    fig_msg_t msg;
    assert_int_equal(fig_rating_update(s, 3, out, &msg), FIG_OK);
    near(out[0].mu, 26.9541456, 1e-6);
    near(out[0].sigma, 4.9232106, 1e-6);
    near(out[1].mu, 28.6481170, 1e-6);
    near(out[1].sigma, 8.0479696, 1e-6);
    near(out[2].mu, 20.5434023, 1e-6);
    near(out[2].sigma, 2.9922850, 1e-6);
}

static void test_tie(void **state)
{
    (void)state;
    double s0 = 25.0 / 3;
    fig_rating_seat_t s[3] = { seat(25, s0, 3, false), seat(25, s0, 1, false),
                               seat(25, s0, 1, false) };
    fig_rating_t out[3];
    assert_int_equal(fig_rating_update(s, 3, out, NULL), FIG_OK);
    near(out[1].mu, 25.7172622, 1e-6);
    near(out[2].mu, 25.7172622, 1e-6);
    near(out[0].mu, 23.5654757, 1e-6);
    for (int i = 0; i < 3; i++)
        near(out[i].sigma, 8.2052434, 1e-6);
    /* Everyone tied: each did as well as the others, so the weakest rises and
     * the strongest falls (Omega_i is sigma_i^2 / c (1/n - p_i) there). */
    fig_rating_seat_t all[4] = { seat(20, 3, 1, false), seat(30, 5, 1, false),
                                 seat(25, s0, 1, false), seat(28, 1, 1, true) };
    fig_rating_t o4[4];
    assert_int_equal(fig_rating_update(all, 4, o4, NULL), FIG_OK);
    assert_true(o4[0].mu > 20);
    assert_true(o4[1].mu < 30);
}

/* The update's mu steps are the log-likelihood's gradient times sigma^2, and
 * the gradient sums to 0 over the players: sum (mu' - mu) / sigma^2 = 0. */
static void test_gradient_sums_to_zero(void **state)
{
    (void)state;
    double tau2 = FIG_RATING_TAU * FIG_RATING_TAU;
    fig_rating_seat_t s[6] = { seat(31, 2, 4, false), seat(18, 6, 1, false),
                               seat(25, 25.0 / 3, 2, false), seat(27, 4, 2, false),
                               seat(22, 1.5, 5, false), seat(35, 3, 5, false) };
    fig_rating_t out[6];
    assert_int_equal(fig_rating_update(s, 6, out, NULL), FIG_OK);
    double sum = 0;
    for (int i = 0; i < 6; i++) {
        double var = s[i].rating.sigma * s[i].rating.sigma + tau2;
        sum += (out[i].mu - s[i].rating.mu) / var;
        assert_true(out[i].sigma > 0);
        assert_true(out[i].sigma <= sqrt(var));   /* a game never widens beyond tau */
    }
    near(sum, 0, 1e-12);
    /* The first place rises, the last places fall. */
    assert_true(out[1].mu > s[1].rating.mu);
    assert_true(out[4].mu < s[4].rating.mu);
    assert_true(out[5].mu < s[5].rating.mu);
}

/* A fixed seat is not moved and gets no tau; for the others it is a player of
 * its sigma: the same as a free player whose sigma^2 + tau^2 is its sigma^2. */
static void test_fixed(void **state)
{
    (void)state;
    double tau2 = FIG_RATING_TAU * FIG_RATING_TAU;
    fig_rating_seat_t s[4] = { seat(25, 25.0 / 3, 2, false), seat(32, 1.2, 1, true),
                               seat(29, 3, 4, false), seat(24, 0.9, 3, true) };
    fig_rating_seat_t t[4];
    memcpy(t, s, sizeof t);
    t[1] = seat(32, sqrt(1.2 * 1.2 - tau2), 1, false);
    t[3] = seat(24, sqrt(0.9 * 0.9 - tau2), 3, false);
    fig_rating_t a[4], b[4];
    assert_int_equal(fig_rating_update(s, 4, a, NULL), FIG_OK);
    assert_int_equal(fig_rating_update(t, 4, b, NULL), FIG_OK);
    assert_true(a[1].mu == 32 && a[1].sigma == 1.2);
    assert_true(a[3].mu == 24 && a[3].sigma == 0.9);
    assert_true(b[1].mu != 32);   /* free, the same seat moves */
    near(a[0].mu, b[0].mu, 1e-12);
    near(a[0].sigma, b[0].sigma, 1e-12);
    near(a[2].mu, b[2].mu, 1e-12);
    near(a[2].sigma, b[2].sigma, 1e-12);
    /* Only bots: nothing moves, and that is no error. */
    fig_rating_seat_t bots[3] = { seat(25, 1, 1, true), seat(30, 1, 2, true),
                                  seat(35, 1, 3, true) };
    fig_rating_t o[3];
    assert_int_equal(fig_rating_update(bots, 3, o, NULL), FIG_OK);
    for (int i = 0; i < 3; i++)
        assert_true(o[i].mu == bots[i].rating.mu && o[i].sigma == bots[i].rating.sigma);
}

/* The seats' order is only their names: permuting it permutes the result. */
static void test_order_and_determinism(void **state)
{
    (void)state;
    fig_rating_seat_t s[5] = { seat(31, 2, 3, false), seat(18, 6, 1, false),
                               seat(25, 25.0 / 3, 2, false), seat(27, 4, 3, true),
                               seat(22, 1.5, 5, false) };
    const int perm[5] = { 3, 0, 4, 1, 2 };
    fig_rating_seat_t p[5];
    for (int i = 0; i < 5; i++)
        p[i] = s[perm[i]];
    fig_rating_t a[5], b[5], again[5];
    assert_int_equal(fig_rating_update(s, 5, a, NULL), FIG_OK);
    assert_int_equal(fig_rating_update(p, 5, b, NULL), FIG_OK);
    assert_int_equal(fig_rating_update(s, 5, again, NULL), FIG_OK);
    for (int i = 0; i < 5; i++) {
        near(b[i].mu, a[perm[i]].mu, 1e-12);
        near(b[i].sigma, a[perm[i]].sigma, 1e-12);
        assert_memory_equal(&again[i], &a[i], sizeof a[i]);   /* bit for bit */
    }
}

/* Far apart ratings stay finite: the exponents are shifted by the top mu. */
static void test_extremes(void **state)
{
    (void)state;
    fig_rating_seat_t s[3] = { seat(1e6, 1000, 3, false), seat(-1e6, 1e-9, 1, false),
                               seat(0, 1000, 2, false) };
    fig_rating_t out[3];
    assert_int_equal(fig_rating_update(s, 3, out, NULL), FIG_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(isfinite(out[i].mu));
        assert_true(isfinite(out[i].sigma) && out[i].sigma > 0);
    }
    assert_true(out[0].mu < 1e6);   /* the favourite came last */
    /* The expected order, as far apart as allowed: each C_q is scaled by its
     * own best, so the last one's choice set (itself) is no 0/0. */
    fig_rating_seat_t t[3] = { seat(1e6, 1, 1, false), seat(0, 1, 2, false),
                               seat(-1e6, 1, 3, false) };
    assert_int_equal(fig_rating_update(t, 3, out, NULL), FIG_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(isfinite(out[i].mu));
        near(out[i].mu, t[i].rating.mu, 1e-9);   /* no surprise, no change */
        assert_true(isfinite(out[i].sigma) && out[i].sigma > 0);
    }
}

/* The levels' fixed points: beginner is a new person's mu, each level above
 * the one below, every sigma a valid one; a level's seat is never moved. */
static void test_levels(void **state)
{
    (void)state;
    int n = fig_bot_level_count();
    assert_true(n >= 2);
    near(fig_rating_level(0).mu, FIG_RATING_MU0, 0);
    assert_string_equal(fig_bot_level_name(0), "beginner");
    for (int i = 0; i < n; i++) {
        fig_rating_t r = fig_rating_level(i);
        assert_true(r.sigma > 0 && r.sigma < FIG_RATING_SIGMA0);
        if (i > 0)
            assert_true(r.mu > fig_rating_level(i - 1).mu);
    }
    double mu, sigma;
    assert_false(fig_bot_level_rating(n, &mu, &sigma));
    assert_false(fig_bot_level_rating(-1, &mu, &sigma));
    fig_rating_seat_t s[4] = { { fig_rating_initial(), 1, false },
                               { fig_rating_level(n - 1), 2, true },
                               { fig_rating_level(1), 3, true },
                               { fig_rating_level(0), 4, true } };
    fig_rating_t out[4];
    assert_int_equal(fig_rating_update(s, 4, out, NULL), FIG_OK);
    assert_true(out[0].mu > FIG_RATING_MU0);
    for (int i = 1; i < 4; i++)
        assert_memory_equal(&out[i], &s[i].rating, sizeof out[i]);
}

static void between(double mu, int below, int above)
{
    int b = 7, a = 7;
    fig_rating_between(mu, &b, &a);
    if (b != below || a != above)
        fail_msg("mu %.3f: between %d and %d, want %d and %d", mu, b, a, below, above);
}

static void test_between(void **state)
{
    (void)state;
    int n = fig_bot_level_count();
    between(fig_rating_level(0).mu - 0.01, -1, 0);
    between(-1e6, -1, 0);
    for (int i = 0; i < n; i++) {
        double mu = fig_rating_level(i).mu;
        between(mu, i, i + 1 < n ? i + 1 : -1);   /* a level's own mu: that level */
        if (i + 1 < n)
            between((mu + fig_rating_level(i + 1).mu) / 2, i, i + 1);
    }
    between(fig_rating_level(n - 1).mu + 0.01, n - 1, -1);
    between(1e6, n - 1, -1);
}

static void expect_input(fig_rating_seat_t *s, int n, const char *words)
{
    fig_rating_t out[FIG_MAX_PLAYERS + 1];
    for (int i = 0; i < FIG_MAX_PLAYERS + 1; i++)
        out[i] = (fig_rating_t){ -7, -7 };
    fig_msg_t msg = { "", 0 };
    assert_int_equal(fig_rating_update(s, n, out, &msg), FIG_ERR_INPUT);
    if (!strstr(msg.text, words))
        fail_msg("message '%s' does not say '%s'", msg.text, words);
    for (int i = 0; i < FIG_MAX_PLAYERS + 1; i++)
        assert_true(out[i].mu == -7 && out[i].sigma == -7);   /* untouched */
}

static void test_bad_input(void **state)
{
    (void)state;
    fig_rating_seat_t s[7];
    for (int i = 0; i < 7; i++)
        s[i] = seat(25, 25.0 / 3, i + 1, false);
    expect_input(s, 0, "2 to 6 players, not 0");
    expect_input(s, 1, "2 to 6 players, not 1");
    expect_input(s, 7, "2 to 6 players, not 7");
    s[2].rating.mu = NAN;
    expect_input(s, 4, "seat 2: mu");
    s[2].rating.mu = INFINITY;
    expect_input(s, 4, "seat 2: mu");
    s[2].rating.mu = 1e7;
    expect_input(s, 4, "seat 2: mu");
    s[2].rating.mu = 25;
    s[1].rating.sigma = 0;
    expect_input(s, 4, "seat 1: sigma");
    s[1].rating.sigma = -1;
    expect_input(s, 4, "seat 1: sigma");
    s[1].rating.sigma = NAN;
    expect_input(s, 4, "seat 1: sigma");
    s[1].rating.sigma = 1001;
    expect_input(s, 4, "seat 1: sigma");
    s[1].rating.sigma = 25.0 / 3;
    s[3].rank = 0;
    expect_input(s, 4, "seat 3: place 0 is not from 1 to 4");
    s[3].rank = 5;
    expect_input(s, 4, "seat 3: place 5 is not from 1 to 4");
    /* Places as people count them: a tie for first then 2 is not a place. */
    s[0].rank = 1, s[1].rank = 1, s[2].rank = 2, s[3].rank = 3;
    expect_input(s, 4, "place 2, but 2 players are ahead");
    s[0].rank = 2, s[1].rank = 2, s[2].rank = 3, s[3].rank = 4;
    expect_input(s, 4, "place 2, but 0 players are ahead");
    s[0].rank = 1, s[1].rank = 2, s[2].rank = 2, s[3].rank = 4;   /* a tie for second */
    fig_rating_t out[4];
    assert_int_equal(fig_rating_update(s, 4, out, NULL), FIG_OK);
    near(out[1].mu, out[2].mu, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial),
        cmocka_unit_test(test_worked),
        cmocka_unit_test(test_tie),
        cmocka_unit_test(test_gradient_sums_to_zero),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_order_and_determinism),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_between),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
