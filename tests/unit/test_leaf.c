/* SPDX-License-Identifier: MIT */
/* test_leaf.c - the search's learned leaf (src/ai/leaf.c) and the engine's
 * round end it scores through (fig_state_end_round): the round end scores as
 * a played one does (R10-R12); the weights predict games they were not
 * fitted on (a stale weights file or a changed feature fails here); the
 * leaf's value is a proper average of round ends, reproducible for a seed,
 * and follows the stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ai/ai.h"
#include "ai/leaf.h"
#include "figaro/figaro.h"
#include "support.h"

static void built(fig_state_t *st, const sup_pos_t *pos)
{
    fig_msg_t msg = { "", 0 };
    if (sup_build(st, pos, &msg) != FIG_OK)
        fail_msg("sup_build: %s", msg.text);
}

/* fig_state_end_round(st, k) leaves the state a played round end leaves when
 * seat k begins its turn with no cards: seat 1 plays its last card and seat 2
 * is next. Rounds 1 to 3, the round-3 exchange (R12) included. */
static void test_end_round_scores_as_play_does(void **cm)
{
    (void)cm;
    static const int stacks[3][4] = { { 6, 3, 11, 2 }, { 0, 8, 0, 5 }, { 5, 9, 5, 0 } };
    for (int round = 1; round <= 3; round++) {
        sup_pos_t pos = {
            .players = 4, .round = round, .king = 0, .turn = 1,
            .roads = "9 5 2 / 14 11 1 / 13 8 3", .hand = { "R1", "J1", NULL, "B1" },
        };
        if (round == 3) {
            pos.held[0] = "9 1";   /* seat 3 has the fewest: it has no piece, no exchange */
            pos.held[3] = "5 14";
            pos.held[1] = "2 11";
        }
        memcpy(pos.stack, stacks[round - 1], sizeof stacks[0]);
        fig_state_t played, ended;
        built(&played, &pos);
        fig_state_apply_legal(&played, fig_act_play(FIG_J1, 1), NULL);
        built(&ended, &pos);
        /* the played card lies on seat 1's pile, which the round end ignores */
        ended.stack[1] = played.stack[1];
        fig_state_end_round(&ended, 2);
        assert_int_equal(ended.phase, round == 3 ? FIG_PHASE_OVER : FIG_PHASE_DEAL);
        assert_int_equal(ended.round, played.round);
        assert_int_equal(ended.king, 2);
        assert_memory_equal(ended.nroad, played.nroad, sizeof ended.nroad);
        assert_memory_equal(ended.road, played.road, sizeof ended.road);
        assert_memory_equal(ended.group, played.group, sizeof ended.group);
    }
    /* round 3 with an exchange: seat 0, fewest cards, swaps its 14 for the 3 */
    sup_pos_t pos = {
        .players = 4, .round = 3, .king = 0, .turn = 1, .roads = "9 5 2 / 14 11 1 / 13 8 3",
        .hand = { "R1", "J1", NULL, "B1" }, .held = { "2 14", "9 11", "5", "1" },
        .stack = { 1, 9, 5, 7 },
    };
    fig_state_t played, ended;
    built(&played, &pos);
    fig_state_apply_legal(&played, fig_act_play(FIG_J1, 1), NULL);
    built(&ended, &pos);
    fig_state_end_round(&ended, 2);
    assert_memory_equal(ended.road, played.road, sizeof ended.road);
    assert_memory_equal(ended.group, played.group, sizeof ended.group);
    assert_int_equal(fig_state_road(&ended, 0), 2 + 3);
}

/* Games of greedy the weights were not fitted on (another seed): the
 * predictions miss by about nothing on average and explain a good part of
 * what each seat still collects. The fit gave a held-out R^2 of 0.41, 0.36,
 * 0.29 and 0.24 at 3 to 6 players (leaf_weights.c); a feature changed without
 * training again, or weights of another feature list, fall far below. */
static void test_weights_predict_unseen_games(void **cm)
{
    (void)cm;
    static const double least_r2[4] = { 0.3, 0.27, 0.2, 0.15 };
    for (int players = 3; players <= 6; players++) {
        fig_rng_t rng;
        fig_rng_seed(&rng, 4242 + (uint64_t)players);
        double sum = 0, sum2 = 0, sse = 0, bias = 0;
        long n = 0;
        for (int g = 0; g < 60; g++) {
            fig_setup_t setup;
            fig_setup_random(&setup, players, fig_rng_next(&rng), NULL);
            fig_state_t st;
            fig_state_init(&st, &setup);
            fig_state_t kept[200];
            float pred[200][FIG_MAX_PLAYERS];
            int nkept = 0, round = 0;
            while (st.phase != FIG_PHASE_OVER) {
                if (st.phase == FIG_PHASE_DEAL) {
                    fig_state_deal(&st, &rng);
                    round = st.round;
                    nkept = 0;
                    continue;
                }
                if (nkept < 200) {
                    kept[nkept] = st;
                    leaf_predict(&st, pred[nkept++]);
                }
                fig_state_apply_legal(&st, greedy_choose(&st, &rng), NULL);
                if (st.phase == FIG_PHASE_PLAY && st.round == round)
                    continue;
                for (int q = 0; q < nkept; q++)
                    for (int s = 0; s < players; s++) {
                        double y = st.stack[s] - kept[q].stack[s], miss = y - pred[q][s];
                        sum += y;
                        sum2 += y * y;
                        sse += miss * miss;
                        bias += miss;
                        n++;
                    }
            }
        }
        double r2 = 1 - sse / (sum2 - sum * sum / (double)n);
        if (r2 < least_r2[players - 3] || bias / (double)n > 0.5 || bias / (double)n < -0.5)
            fail_msg("%d players: R^2 %.3f (at least %.2f), mean miss %.2f cards", players, r2,
                     least_r2[players - 3], bias / (double)n);
    }
}

/* A position of round 1, 4 players, seat 0 to move, with `stack` collected. */
static void middle(fig_state_t *st, const int stack[4])
{
    sup_pos_t pos = {
        .players = 4, .round = 1, .king = 0, .turn = 0,
        .hand = { "R1 R2 B2 G1 Y2 P2 J1 RING", "R2 B1 B2 G2 Y1 P1 J2 RING",
                  "R1 B2 G2 G3 Y2 P2 J1 RING", "R2 B1 G1 Y2 Y3 P1 P2 J1" },
        .pile = { "R2", "B1", NULL, "G2" },
    };
    memcpy(pos.stack, stack, 4 * sizeof stack[0]);
    built(st, &pos);
}

/* The value is an average of round ends: chances to win sum to one and the
 * places to 1 + 2 + 3 + 4; the same generator gives the same value; the state
 * keeps everything but its stacks, which grow by the prediction. */
static void test_value_is_an_average_of_round_ends(void **cm)
{
    (void)cm;
    static future_cache_t cache;
    future_reset(&cache);
    const int stack[4] = { 3, 0, 5, 2 };
    fig_state_t st, again, before;
    middle(&st, stack);
    before = st;
    again = st;
    fig_rng_t r1, r2;
    fig_rng_seed(&r1, 5);
    fig_rng_seed(&r2, 5);
    future_t a, b;
    leaf_value(&st, &r1, 16, &cache, &a);
    leaf_value(&again, &r2, 16, &cache, &b);
    assert_memory_equal(&a, &b, sizeof a);
    double win = 0, place = 0;
    for (int s = 0; s < 4; s++) {
        assert_true(a.win[s] >= 0 && a.win[s] <= 1);
        assert_true(a.score[s] >= 0 && a.score[s] <= 1);
        win += a.win[s];
        place += a.place[s];
        assert_true(st.stack[s] >= before.stack[s]);
    }
    assert_float_equal(win, 1, 1e-4);
    assert_float_equal(place, 10, 1e-3);
    memcpy(st.stack, before.stack, sizeof st.stack);
    assert_memory_equal(&st, &before, sizeof st);
}

/* The stacks count: with everything else equal, a seat that has already
 * collected many more cards this round than the others is less likely to win
 * and finishes further down. */
static void test_value_follows_the_stacks(void **cm)
{
    (void)cm;
    static future_cache_t cache;
    future_reset(&cache);
    fig_rng_t rng;
    fig_rng_seed(&rng, 9);
    fig_state_t even, heavy;
    middle(&even, (const int[4]){ 4, 4, 4, 4 });
    middle(&heavy, (const int[4]){ 4, 30, 4, 4 });
    future_t e, h;
    leaf_value(&even, &rng, 64, &cache, &e);
    leaf_value(&heavy, &rng, 64, &cache, &h);
    assert_true(h.win[1] < e.win[1] - 0.05);
    assert_true(h.place[1] > e.place[1] + 0.3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_end_round_scores_as_play_does),
        cmocka_unit_test(test_weights_predict_unseen_games),
        cmocka_unit_test(test_value_is_an_average_of_round_ends),
        cmocka_unit_test(test_value_follows_the_stacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
