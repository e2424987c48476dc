/* SPDX-License-Identifier: MIT */
/* test_view.c - what one seat knows (view.h) and what front ends compute
 * from it alone.
 *
 *   - fig_view_legal, from the public piles and the viewer's own hand, equals
 *     fig_state_legal on the true state (same actions, same order) for every
 *     seat of every position of thousands of seeded random games of 3-6
 *     players, and is empty for a seat whose turn it is not or between rounds;
 *     the other hands in the state do not change it (R14: they are not read);
 *   - fig_view_of refuses a seat out of range without reading out of bounds
 *     and leaves a zeroed view;
 *   - fig_view_road and fig_road_format: road totals and "15 + 13 + 2" texts,
 *     truncation as snprintf.
 *
 * FIGARO_VIEW_GAMES=<n> changes the number of games (default 2,000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"

static uint64_t games_to_run(void)
{
    const char *env = getenv("FIGARO_VIEW_GAMES");
    return env && *env ? strtoull(env, NULL, 10) : 2000;
}

/* Checks every seat's fig_view_legal against the engine at one position. */
static void check_position(const fig_state_t *st, uint64_t seed, int step)
{
    fig_action_t want[FIG_MAX_ACTIONS], got[FIG_MAX_ACTIONS];
    int nwant = fig_state_legal(st, want);
    for (int s = 0; s < st->players; s++) {
        fig_view_t v;
        assert_int_equal(fig_view_of(st, s, &v), FIG_OK);
        int ngot = fig_view_legal(&v, got);
        int expect = st->phase == FIG_PHASE_PLAY && st->turn == s ? nwant : 0;
        if (ngot != expect || memcmp(got, want, sizeof got[0] * (size_t)expect) != 0) {
            print_error("seed %llu, action %d, seat %d (turn %d, phase %d): the view gives %d "
                        "actions, the state %d\n", (unsigned long long)seed, step, s, st->turn,
                        st->phase, ngot, expect);
            fail();
        }
    }
}

static void test_view_legal_matches_state(void **cm)
{
    (void)cm;
    uint64_t games = games_to_run(), positions = 0;
    int players_seen = 0;
    for (uint64_t seed = 0; seed < games; seed++) {
        int n = 3 + (int)(seed % 4);
        fig_setup_t setup;
        fig_game_t g;
        fig_rng_t rng;
        fig_setup_random(&setup, n, seed, NULL);
        fig_game_init(&g, &setup);
        fig_rng_seed_stream(&rng, seed, 7);
        int step = 0;
        check_position(&g.state, seed, step);   /* before the first deal: nobody plays */
        while (!fig_game_over(&g)) {
            if (g.state.phase == FIG_PHASE_DEAL) {
                check_position(&g.state, seed, step);
                fig_game_deal_seeded(&g);
            }
            check_position(&g.state, seed, step);
            positions++;
            fig_action_t a = fig_state_random_action(&g.state, &rng);
            assert_int_equal(fig_game_play(&g, a, NULL, NULL), FIG_OK);
            step++;
        }
        check_position(&g.state, seed, step);
        players_seen |= 1 << n;
    }
    if (games >= 4)
        assert_int_equal(players_seen, 0x78);   /* 3, 4, 5 and 6 players */
    assert_true(positions >= games * 50);
}

/* The mover's legal actions do not depend on the other hands: swap them all
 * around (keeping the sizes) and the view, hence the list, stays the same. */
static void test_view_legal_ignores_other_hands(void **cm)
{
    (void)cm;
    for (uint64_t seed = 0; seed < 200; seed++) {
        int n = 3 + (int)(seed % 4);
        fig_setup_t setup;
        fig_game_t g;
        fig_rng_t rng;
        fig_setup_random(&setup, n, seed, NULL);
        fig_game_init(&g, &setup);
        fig_game_deal_seeded(&g);
        fig_rng_seed_stream(&rng, seed, 9);
        for (int i = 0; i < 20 && g.state.phase == FIG_PHASE_PLAY; i++)
            assert_int_equal(fig_game_play(&g, fig_state_random_action(&g.state, &rng), NULL,
                                           NULL), FIG_OK);
        if (g.state.phase != FIG_PHASE_PLAY)
            continue;
        fig_view_t v, w;
        fig_state_t other;
        fig_action_t a[FIG_MAX_ACTIONS], b[FIG_MAX_ACTIONS];
        int me = g.state.turn;
        fig_view_of(&g.state, me, &v);
        fig_view_sample(&v, &rng, &other);   /* the other hands redealt at random */
        fig_view_of(&other, me, &w);
        int na = fig_view_legal(&v, a), nb = fig_view_legal(&w, b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, sizeof a[0] * (size_t)na);
        assert_int_equal(na, fig_state_legal(&other, b));
        assert_memory_equal(a, b, sizeof a[0] * (size_t)na);
    }
}

static void test_view_of_refuses_bad_seats(void **cm)
{
    (void)cm;
    fig_setup_t setup;
    fig_game_t g;
    fig_setup_random(&setup, 4, 11, NULL);
    fig_game_init(&g, &setup);
    fig_game_deal_seeded(&g);
    const int bad[] = { -1, -100, 4, 5, 6, 7, 255, 1 << 20 };
    fig_view_t zero;
    memset(&zero, 0, sizeof zero);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fig_view_t v;
        memset(&v, 0x5A, sizeof v);
        assert_int_equal(fig_view_of(&g.state, bad[i], &v), FIG_ERR_INPUT);
        assert_memory_equal(&v, &zero, sizeof v);
        fig_action_t out[FIG_MAX_ACTIONS];
        assert_int_equal(fig_view_legal(&v, out), 0);
    }
    fig_view_t v;
    assert_int_equal(fig_view_of(&g.state, 3, &v), FIG_OK);
    assert_int_equal(v.seat, 3);
    assert_memory_equal(&v.hand, &g.state.hand[3], sizeof v.hand);
}

static void test_view_road_and_text(void **cm)
{
    (void)cm;
    const uint16_t pieces[] = { 15, 13, 2 };
    char buf[64];
    assert_int_equal(fig_road_format(pieces, 3, " + ", buf, sizeof buf), 11);
    assert_string_equal(buf, "15 + 13 + 2");
    assert_int_equal(fig_road_format(pieces, 3, " ", buf, sizeof buf), 7);
    assert_string_equal(buf, "15 13 2");
    assert_int_equal(fig_road_format(pieces, 1, " + ", buf, sizeof buf), 2);
    assert_string_equal(buf, "15");
    memset(buf, 'x', sizeof buf);
    assert_int_equal(fig_road_format(pieces, 0, " + ", buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    /* truncated as snprintf: the prefix that fits, the whole length returned */
    memset(buf, 'x', sizeof buf);
    assert_int_equal(fig_road_format(pieces, 3, " + ", buf, 7), 11);
    assert_string_equal(buf, "15 + 1");
    assert_int_equal(fig_road_format(pieces, 3, " + ", buf, 3), 11);
    assert_string_equal(buf, "15");
    assert_int_equal(fig_road_format(pieces, 3, " + ", NULL, 0), 11);
    const uint16_t longest[] = { 65535, 65535, 65535 };
    assert_int_equal(fig_road_format(longest, 3, " + ", buf, sizeof buf), 21);
    assert_string_equal(buf, "65535 + 65535 + 65535");

    /* totals: a finished game's view and state agree on every seat */
    for (uint64_t seed = 0; seed < 40; seed++) {
        fig_setup_t setup;
        fig_game_t g;
        fig_rng_t rng;
        fig_rng_seed(&rng, seed);
        fig_setup_random(&setup, 3 + (int)(seed % 4), seed, NULL);
        fig_game_random(&g, &setup, &rng);
        fig_view_t v;
        fig_view_of(&g.state, 0, &v);
        int sum_all = 0;
        for (int s = 0; s < g.state.players; s++) {
            assert_int_equal(fig_view_road(&v, s), fig_state_road(&g.state, s));
            sum_all += fig_view_road(&v, s);
        }
        assert_true(sum_all > 0);
        assert_int_equal(fig_view_road(&v, -1), 0);
        assert_int_equal(fig_view_road(&v, FIG_MAX_PLAYERS), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_legal_matches_state),
        cmocka_unit_test(test_view_legal_ignores_other_hands),
        cmocka_unit_test(test_view_of_refuses_bad_seats),
        cmocka_unit_test(test_view_road_and_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
