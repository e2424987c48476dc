/* SPDX-License-Identifier: MIT */
/* test_obs.c - the observation vector and the action space (obs.h).
 *
 *   - the layout: a built position's observation holds, at the documented
 *     offsets, the players, the round, the observer's hand, and each seat's
 *     slot relative to the observer (obs.h, docs/python.md);
 *   - R14: over random games, moving cards between two other seats' hands
 *     never changes an observer's vector, while its own hand does;
 *   - the action space: every legal action of thousands of positions has an
 *     index that maps back to it, distinct actions have distinct indices, and
 *     the mask is exactly the legal set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "figaro/figaro.h"
#include "support.h"

static void near(float got, float want)
{
    if (got < want - 1e-6f || got > want + 1e-6f)
        fail_msg("observation value %g, expected %g", (double)got, (double)want);
}

static void test_layout_of_a_built_position(void **unused)
{
    (void)unused;
    fig_state_t st;
    fig_msg_t msg;
    sup_pos_t pos = {
        .players = 4, .round = 2, .king = 3, .turn = 2,
        .hand = { "R1 R2", "B2 J1", "G3 RING RING", "Y1" },
        .pile = { "P2", NULL, "B1 J2", NULL },
        .stack = { 0, 4, 0, 2 },
        .held = { "9", "", "12", "" },
    };
    assert_int_equal(sup_build(&st, &pos, &msg), FIG_OK);
    float o[FIG_OBS_SIZE];
    fig_obs_of(&st, 2, o);   /* seat 2, to move */
    near(o[FIG_OBS_PLAYERS + 1], 1);
    near(o[FIG_OBS_PLAYERS + 0] + o[FIG_OBS_PLAYERS + 2] + o[FIG_OBS_PLAYERS + 3], 0);
    near(o[FIG_OBS_ROUND + 1], 1);
    near(o[FIG_OBS_PHASE + FIG_PHASE_PLAY], 1);
    for (int c = 0; c < FIG_COLOURS; c++)
        near(o[FIG_OBS_REMOVED + c], 0);
    near(o[FIG_OBS_TABLE], 3 / 10.0f);
    near(o[FIG_OBS_HAND + FIG_G3], 1.0f);          /* one G3; the deck has one */
    near(o[FIG_OBS_HAND + FIG_RING], 2 / 5.0f);
    near(o[FIG_OBS_HAND + FIG_R1], 0);
    /* slot 0 is the observer: to move, holds 3 cards, blue pile of total 3 */
    const float *me = o + FIG_OBS_SEATS;
    near(me[FIG_OBS_S_PRESENT], 1);
    near(me[FIG_OBS_S_TURN], 1);
    near(me[FIG_OBS_S_KING], 0);
    near(me[FIG_OBS_S_HAND], 3 / 15.0f);
    near(me[FIG_OBS_S_COLOUR + FIG_BLUE], 1);
    near(me[FIG_OBS_S_TOTAL], 3 / 5.0f);
    near(me[FIG_OBS_S_PILE + 0], 1 / 3.0f);        /* B1 */
    near(me[FIG_OBS_S_PILE + 4], 1 / 3.0f);        /* J2 */
    near(me[FIG_OBS_S_ROAD + 0], 12 / 15.0f);
    /* slot 1 is seat 3, the King, with 2 cards collected */
    const float *left = o + FIG_OBS_SEATS + FIG_OBS_SEAT_SIZE;
    near(left[FIG_OBS_S_KING], 1);
    near(left[FIG_OBS_S_TURN], 0);
    near(left[FIG_OBS_S_STACK], 2 / 15.0f);
    /* slot 2 is seat 0, purple pile */
    const float *s0 = o + FIG_OBS_SEATS + 2 * FIG_OBS_SEAT_SIZE;
    near(s0[FIG_OBS_S_COLOUR + FIG_PURPLE], 1);
    near(s0[FIG_OBS_S_ROAD], 9 / 15.0f);
    /* slots 4 and 5 do not exist with 4 players */
    for (int i = 4 * FIG_OBS_SEAT_SIZE; i < FIG_MAX_PLAYERS * FIG_OBS_SEAT_SIZE; i++)
        near(o[FIG_OBS_SEATS + i], 0);
}

/* Moves one card between the hands of seats a and b (sizes kept by a second
 * card the other way). Returns false if no such swap exists. */
static bool swap_hidden(fig_state_t *st, int a, int b)
{
    for (int ka = 0; ka < FIG_KINDS; ka++) {
        if (!st->hand[a].n[ka])
            continue;
        for (int kb = 0; kb < FIG_KINDS; kb++) {
            if (kb == ka || !st->hand[b].n[kb])
                continue;
            st->hand[a].n[ka]--;
            st->hand[b].n[ka]++;
            st->hand[b].n[kb]--;
            st->hand[a].n[kb]++;
            sup_derive(st);
            return true;
        }
    }
    return false;
}

static void test_r14_other_hands_never_show(void **unused)
{
    (void)unused;
    int swaps = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        int players = 3 + (int)(seed % 4);
        fig_setup_t setup;
        fig_setup_random(&setup, players, seed, NULL);
        fig_state_t st;
        fig_state_init(&st, &setup);
        fig_rng_t rng;
        fig_rng_seed(&rng, seed);
        while (st.phase != FIG_PHASE_OVER) {
            if (st.phase == FIG_PHASE_DEAL)
                fig_state_deal(&st, &rng);
            for (int me = 0; me < players; me++) {
                int a = (me + 1) % players, b = (me + 2) % players;
                fig_state_t other = st;
                if (!swap_hidden(&other, a, b))
                    continue;
                float x[FIG_OBS_SIZE], y[FIG_OBS_SIZE];
                fig_obs_of(&st, me, x);
                fig_obs_of(&other, me, y);
                assert_memory_equal(x, y, sizeof x);
                swaps++;
                /* The same swap seen by a or b changes its vector: the test
                 * would catch an encoding that ignored hands altogether. */
                fig_obs_of(&st, a, x);
                fig_obs_of(&other, a, y);
                assert_memory_not_equal(x, y, sizeof x);
            }
            fig_state_apply_legal(&st, fig_state_random_action(&st, &rng), NULL);
        }
    }
    assert_true(swaps > 1000);
}

static void test_action_space_and_mask(void **unused)
{
    (void)unused;
    long checked = 0;
    for (uint64_t seed = 100; seed < 160; seed++) {
        int players = 3 + (int)(seed % 4);
        fig_setup_t setup;
        fig_setup_random(&setup, players, seed, NULL);
        fig_state_t st;
        fig_state_init(&st, &setup);
        fig_rng_t rng;
        fig_rng_seed(&rng, seed);
        while (st.phase != FIG_PHASE_OVER) {
            if (st.phase == FIG_PHASE_DEAL)
                fig_state_deal(&st, &rng);
            fig_action_t legal[FIG_MAX_ACTIONS];
            int n = fig_state_legal(&st, legal);
            uint8_t mask[FIG_OBS_ACTIONS], want[FIG_OBS_ACTIONS] = { 0 };
            for (int i = 0; i < n; i++) {
                int idx = fig_obs_index(legal[i], st.turn, players);
                assert_in_range(idx, 0, FIG_OBS_ACTIONS - 1);
                assert_int_equal(fig_obs_action(idx, st.turn, players), legal[i]);
                assert_int_equal(want[idx], 0);   /* distinct actions, distinct indices */
                want[idx] = 1;
                checked++;
            }
            memset(mask, 7, sizeof mask);   /* every byte must be written */
            assert_int_equal(fig_obs_mask(&st, mask), n);
            assert_memory_equal(mask, want, sizeof mask);
            /* Every index that is not in the mask is refused by the rules. */
            for (int idx = 0; idx < FIG_OBS_ACTIONS; idx++) {
                fig_action_t a = fig_obs_action(idx, st.turn, players);
                if (!mask[idx] && a != FIG_ACT_NONE)
                    assert_int_not_equal(fig_state_check(&st, a, NULL), FIG_OK);
            }
            fig_state_apply_legal(&st, fig_state_random_action(&st, &rng), NULL);
        }
    }
    assert_true(checked > 10000);
}

static void test_index_edges(void **unused)
{
    (void)unused;
    /* Targets are relative to the mover: seat 3 of 4 playing R2 at seat 0 is
     * one place to its left. */
    assert_int_equal(fig_obs_index(fig_act_play(FIG_R2, 0), 3, 4), FIG_R2 * 6 + 1);
    assert_int_equal(fig_obs_action(FIG_R2 * 6 + 1, 3, 4), fig_act_play(FIG_R2, 0));
    assert_int_equal(fig_obs_index(fig_act_play(FIG_RING, 2), 2, 5), FIG_RING * 6);
    assert_int_equal(fig_obs_index(FIG_ACT_TAKE, 0, 3), FIG_OBS_TAKE);
    assert_int_equal(fig_obs_action(FIG_OBS_TAKE, 1, 3), FIG_ACT_TAKE);
    /* Out of range: slot 4 with 4 players, negative and too large indices,
     * targets past the table, impossible games. */
    assert_int_equal(fig_obs_action(FIG_R1 * 6 + 4, 0, 4), FIG_ACT_NONE);
    assert_int_equal(fig_obs_action(-1, 0, 4), FIG_ACT_NONE);
    assert_int_equal(fig_obs_action(FIG_OBS_ACTIONS, 0, 4), FIG_ACT_NONE);
    assert_int_equal(fig_obs_action(0, 4, 4), FIG_ACT_NONE);
    assert_int_equal(fig_obs_action(0, 0, 7), FIG_ACT_NONE);
    assert_int_equal(fig_obs_index(fig_act_play(FIG_R1, 5), 0, 4), -1);
    assert_int_equal(fig_obs_index(FIG_ACT_NONE, 0, 4), -1);
    assert_int_equal(fig_obs_index(fig_act_play(FIG_R1, 0), 0, 2), -1);
    /* A zeroed view (no game) encodes as zeros rather than reading garbage. */
    fig_view_t v;
    memset(&v, 0, sizeof v);
    float o[FIG_OBS_SIZE], zero[FIG_OBS_SIZE] = { 0 };
    memset(o, 0xFF, sizeof o);
    fig_obs_encode(&v, o);
    assert_memory_equal(o, zero, sizeof o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_of_a_built_position),
        cmocka_unit_test(test_r14_other_hands_never_show),
        cmocka_unit_test(test_action_space_and_mask),
        cmocka_unit_test(test_index_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
