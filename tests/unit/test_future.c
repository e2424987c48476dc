/* SPDX-License-Identifier: MIT */
/* test_future.c - src/ai/future.c, the exact scoring of the rest of a game
 * that ISMCTS uses at a round's end, against the engine itself: every rank
 * order of the remaining rounds is played through the core's own round end
 * (R10-R13, the R12 exchange included) and the places averaged, ties sharing
 * their places as future.c documents. Exact at 3 and 4 players; at 5 the
 * sampled average must be close. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ai/future.h"
#include "figaro/figaro.h"

/* Ends the current round through the engine with the rank order `order`
 * (most cards first): distinct positive stacks, then one last card played so
 * that the next seat starts its turn with an empty hand (R10). */
static void end_round(fig_state_t *st, const uint8_t order[])
{
    int n = st->players;
    st->phase = FIG_PHASE_PLAY;
    memset(st->hand, 0, sizeof st->hand);
    memset(st->hand_size, 0, sizeof st->hand_size);
    memset(st->present, 0, sizeof st->present);
    memset(st->pile, 0, sizeof st->pile);
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        st->pile[s].colour = FIG_NO_COLOUR;
    memset(st->owner, FIG_NOBODY, sizeof st->owner);
    st->owned = 0;
    st->table_cards = 0;
    st->colourless = (uint8_t)((1u << n) - 1);
    for (int i = 0; i < n; i++)
        st->stack[order[i]] = (uint8_t)(2 * (n - i));
    int x = st->king;
    st->turn = (uint8_t)x;
    st->hand[x].n[FIG_J1] = 1;
    st->hand_size[x] = 1;
    st->present[x] = 1u << FIG_J1;
    fig_state_apply_legal(st, fig_act_play(FIG_J1, x), NULL);
    assert_int_not_equal(st->phase, FIG_PHASE_PLAY);
}

typedef struct {
    double win[FIG_MAX_PLAYERS], score[FIG_MAX_PLAYERS], place[FIG_MAX_PLAYERS];
    long n;
} sums_t;

static void add(sums_t *sum, const fig_state_t *st)
{
    int n = st->players;
    for (int s = 0; s < n; s++) {
        int below = 0, equal = 0;
        for (int o = 0; o < n; o++) {
            below += fig_state_road(st, o) < fig_state_road(st, s);
            equal += fig_state_road(st, o) == fig_state_road(st, s);
        }
        double place = below + (equal - 1) / 2.0;
        sum->win[s] += below == 0 ? 1.0 / equal : 0;
        sum->score[s] += (n - 1 - place) / (n - 1);
        sum->place[s] += place + 1;
    }
    sum->n++;
}

static int orders(int n, uint8_t out[][FIG_MAX_PLAYERS])
{
    int count = 0;
    uint8_t p[FIG_MAX_PLAYERS];
    for (int code = 0; code < 46656; code++) {   /* 6^6: every tuple, keep permutations */
        int c = code, seen = 0, ok = 1;
        for (int i = 0; i < n; i++, c /= 6) {
            p[i] = (uint8_t)(c % 6);
            if (p[i] >= n || (seen >> p[i] & 1))
                ok = 0;
            seen |= 1 << p[i];
        }
        if (ok && c == 0)
            memcpy(out[count++], p, FIG_MAX_PLAYERS);
    }
    return count;
}

/* The engine's average over every order of the remaining rounds from st. */
static void brute(const fig_state_t *st, sums_t *sum)
{
    static uint8_t all[720][FIG_MAX_PLAYERS];
    int k = orders(st->players, all);
    memset(sum, 0, sizeof *sum);
    for (int a = 0; a < k; a++) {
        fig_state_t s2 = *st;
        end_round(&s2, all[a]);
        if (s2.phase == FIG_PHASE_OVER) {
            add(sum, &s2);
            continue;
        }
        for (int b = 0; b < k; b++) {
            fig_state_t s3 = s2;
            end_round(&s3, all[b]);
            add(sum, &s3);
        }
    }
}

static void compare(const fig_state_t *st, double tolerance)
{
    future_cache_t *cache = calloc(1, sizeof *cache);
    assert_non_null(cache);
    future_reset(cache);
    future_t scratch;
    const future_t *f = future_value(cache, st, &scratch);
    sums_t sum;
    brute(st, &sum);
    long per_round = 1;
    for (int i = 2; i <= st->players; i++)
        per_round *= i;
    assert_int_equal(sum.n, st->round == 3 ? per_round : per_round * per_round);
    double wins = 0;
    for (int s = 0; s < st->players; s++) {
        double w = sum.win[s] / (double)sum.n, sc = sum.score[s] / (double)sum.n;
        double pl = sum.place[s] / (double)sum.n;
        if (f->win[s] < w - tolerance || f->win[s] > w + tolerance ||
            f->score[s] < sc - tolerance || f->score[s] > sc + tolerance ||
            f->place[s] < pl - 4 * tolerance || f->place[s] > pl + 4 * tolerance)
            fail_msg("%d players, round %d, seat %d: future win %.4f score %.4f place %.4f, "
                     "engine %.4f %.4f %.4f", st->players, st->round, s, f->win[s], f->score[s],
                     f->place[s], w, sc, pl);
        wins += f->win[s];
    }
    assert_true(wins > 1 - 1e-4 && wins < 1 + 1e-4);
    /* a second call is served by the cache, with the same values */
    const future_t *again = future_value(cache, st, &scratch);
    assert_true(cache->hits == 1);
    assert_memory_equal(again, f, sizeof *f);
    free(cache);
}

static void test_future_matches_the_engine_after_round_one(void **state)
{
    (void)state;
    for (int players = 3; players <= 4; players++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            fig_setup_t setup;
            fig_state_t st;
            fig_setup_random(&setup, players, seed * 11, NULL);
            fig_state_init(&st, &setup);
            uint8_t order[FIG_MAX_PLAYERS] = { 0 };
            for (int i = 0; i < players; i++)
                order[i] = (uint8_t)((i + (int)seed) % players);
            end_round(&st, order);
            assert_int_equal(st.round, 2);
            compare(&st, 1e-4);
        }
}

/* Before round 3, with two pieces each already: the R12 exchange matters. */
static void test_future_matches_the_engine_before_round_three(void **state)
{
    (void)state;
    for (int players = 3; players <= 6; players++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            fig_setup_t setup;
            fig_state_t st;
            fig_setup_random(&setup, players, seed * 13, NULL);
            fig_state_init(&st, &setup);
            uint8_t order[FIG_MAX_PLAYERS] = { 0 };
            for (int r = 0; r < 2; r++) {
                for (int i = 0; i < players; i++)
                    order[i] = (uint8_t)((i * (r + 1) + (int)seed) % players);
                if (r == 1 && players % 2 == 0)   /* keep it a permutation */
                    for (int i = 0; i < players; i++)
                        order[i] = (uint8_t)(players - 1 - (i + (int)seed) % players);
                end_round(&st, order);
            }
            assert_int_equal(st.round, 3);
            compare(&st, 1e-4);
        }
}

/* 5 players after round 1: 120 x 120 pairs of orders, sampled by future.c. */
static void test_future_samples_closely_at_five_players(void **state)
{
    (void)state;
    fig_setup_t setup;
    fig_state_t st;
    fig_setup_random(&setup, 5, 77, NULL);
    fig_state_init(&st, &setup);
    uint8_t order[FIG_MAX_PLAYERS] = { 3, 1, 4, 0, 2 };
    end_round(&st, order);
    compare(&st, 0.03);
}

/* At the game's real end the value is the engine's ranking, King tie-break included. */
static void test_future_at_the_end_is_the_ranking(void **state)
{
    (void)state;
    fig_setup_t setup;
    fig_state_t st;
    fig_setup_random(&setup, 4, 5, NULL);
    fig_state_init(&st, &setup);
    uint8_t order[FIG_MAX_PLAYERS] = { 2, 0, 3, 1 };
    for (int r = 0; r < 3; r++)
        end_round(&st, order);
    assert_int_equal(st.phase, FIG_PHASE_OVER);
    future_cache_t *cache = calloc(1, sizeof *cache);
    assert_non_null(cache);
    future_reset(cache);
    future_t scratch;
    const future_t *f = future_value(cache, &st, &scratch);
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(&st, ranking);
    for (int place = 0; place < 4; place++) {
        assert_true(f->place[ranking[place]] == (float)(place + 1));
        assert_true(f->win[ranking[place]] == (place == 0 ? 1.0f : 0.0f));
    }
    free(cache);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_future_matches_the_engine_after_round_one),
        cmocka_unit_test(test_future_matches_the_engine_before_round_three),
        cmocka_unit_test(test_future_samples_closely_at_five_players),
        cmocka_unit_test(test_future_at_the_end_is_the_ranking),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
