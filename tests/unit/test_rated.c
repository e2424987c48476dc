/* SPDX-License-Identifier: MIT */
/* test_rated.c - the rated decision (src/net/table/rated.h):
 *
 *   - a game is rated only without open hands and hints, with no `random`
 *     bot and no engine, and when a signed-in person held their seat to the
 *     end;
 *   - the seats' ranks: the game's order, signed-in leavers last in their
 *     order among themselves; bots fixed at their level, people not signed
 *     in fixed at mu0, sigma0;
 *   - a worked game: what fig_rating_update makes of those seats;
 *   - the limits on what creates a person or tries a device code
 *     (net/base/limiter.h): N in a sliding window per key, exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figaro/bot.h"
#include "net/base/limiter.h"
#include "net/table/rated.h"

static void test_which_games(void **state)
{
    (void)state;
    int hard = fig_bot_level_index("hard");
    fig_rated_seat_t s[4] = {
        { FIG_RATED_PERSON, -1, 2 }, { FIG_RATED_BOT, hard, 1 },
        { FIG_RATED_ANON, -1, 3 }, { FIG_RATED_LEFT, -1, 4 },
    };
    assert_true(fig_rated_is(false, false, s, 4));
    assert_false(fig_rated_is(true, false, s, 4));    /* open hands */
    assert_false(fig_rated_is(false, true, s, 4));    /* hints */
    s[1].level = -1;                                   /* random: no point of the scale */
    assert_false(fig_rated_is(false, false, s, 4));
    s[1].level = hard;
    s[2].kind = FIG_RATED_ENGINE;
    assert_false(fig_rated_is(false, false, s, 4));
    s[2].kind = FIG_RATED_ANON;
    s[0].kind = FIG_RATED_LEFT;                        /* nobody signed in held a seat */
    assert_false(fig_rated_is(false, false, s, 4));
    s[0].kind = FIG_RATED_ANON;
    assert_false(fig_rated_is(false, false, s, 4));
}

static void test_ranks(void **state)
{
    (void)state;
    int easy = fig_bot_level_index("easy");
    /* Places 1..5 in the game; seats 0 and 3 left (a bot ended their games). */
    fig_rated_seat_t s[5] = {
        { FIG_RATED_LEFT, -1, 1 }, { FIG_RATED_PERSON, -1, 4 },
        { FIG_RATED_BOT, easy, 2 }, { FIG_RATED_LEFT, -1, 3 }, { FIG_RATED_ANON, -1, 5 },
    };
    fig_rating_seat_t out[5];
    fig_rated_seats(s, 5, out);
    assert_int_equal(out[0].rank, 4);   /* the first leaver, after everyone who stayed */
    assert_int_equal(out[3].rank, 5);
    assert_int_equal(out[2].rank, 1);
    assert_int_equal(out[1].rank, 2);
    assert_int_equal(out[4].rank, 3);
    assert_false(out[0].fixed);
    assert_false(out[1].fixed);
    assert_true(out[2].fixed);
    assert_true(out[4].fixed);
    double mu, sigma;
    assert_true(fig_bot_level_rating(easy, &mu, &sigma));
    assert_true(out[2].rating.mu == mu && out[2].rating.sigma == sigma);
    assert_true(out[4].rating.mu == FIG_RATING_MU0 && out[4].rating.sigma == FIG_RATING_SIGMA0);
}

/* A person new (25, 25/3) second behind a `hard` bot, ahead of a person
 * not signed in: the update moves the person alone, by the rules of
 * docs/ratings.md (the bot and the anonymous seat are fixed). */
static void test_worked(void **state)
{
    (void)state;
    int hard = fig_bot_level_index("hard");
    fig_rated_seat_t s[3] = {
        { FIG_RATED_PERSON, -1, 2 }, { FIG_RATED_BOT, hard, 1 }, { FIG_RATED_ANON, -1, 3 },
    };
    fig_rating_seat_t in[3];
    fig_rated_seats(s, 3, in);
    in[0].rating = fig_rating_initial();
    fig_rating_t out[3];
    fig_msg_t msg;
    assert_int_equal(fig_rating_update(in, 3, out, &msg), FIG_OK);
    assert_true(out[1].mu == in[1].rating.mu && out[2].mu == FIG_RATING_MU0);
    /* Second of three, behind the expected winner, ahead of an equal: up. */
    assert_true(out[0].mu > FIG_RATING_MU0);
    assert_true(out[0].sigma < FIG_RATING_SIGMA0);
}

static void test_limiter(void **state)
{
    (void)state;
    static fig_limiter_t l;   /* 40 KB: not on the stack */
    fig_limiter_init(&l, 5, 60000);
    for (int i = 0; i < 5; i++)
        assert_true(fig_limiter_take(&l, "10.0.0.1", 1000 + i * 1000));
    assert_false(fig_limiter_take(&l, "10.0.0.1", 6000));   /* the sixth in a minute */
    assert_false(fig_limiter_may(&l, "10.0.0.1", 60999));
    assert_true(fig_limiter_take(&l, "10.0.0.2", 6000));    /* another key: its own */
    assert_true(fig_limiter_take(&l, "10.0.0.1", 61001));   /* the first use left the window */
    assert_false(fig_limiter_take(&l, "10.0.0.1", 61500));
    assert_true(fig_limiter_take(&l, "10.0.0.1", 62001));
    /* More keys than slots: the one unused longest gives its slot. */
    char key[32];
    for (int i = 0; i < FIG_LIMIT_KEYS + 10; i++) {
        snprintf(key, sizeof key, "k%d", i);
        assert_true(fig_limiter_take(&l, key, 70000 + i));
    }
    assert_true(fig_limiter_may(&l, "k0", 80000));   /* forgotten: fresh again */
    for (int i = 0; i < 4; i++)   /* k137 was used once at 70137 */
        assert_true(fig_limiter_take(&l, "k137", 90000));
    assert_false(fig_limiter_take(&l, "k137", 90000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_games),
        cmocka_unit_test(test_ranks),
        cmocka_unit_test(test_worked),
        cmocka_unit_test(test_limiter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
