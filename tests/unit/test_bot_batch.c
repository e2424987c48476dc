/* SPDX-License-Identifier: MIT */
/* test_bot_batch.c - a batch whose opponents are built-in bots (bot_batch.h).
 *
 *   - every game of a greedy-opponent batch is the game a single state gives
 *     when its opponents are fig_bot_t bots of the same spec, seeded
 *     fig_seed_derive(seed, 1, seat) and fed only their own hand and the
 *     actions: observations and masks at each decision, rewards and the final
 *     state, and the final observation kept when autoreset starts the next
 *     game;
 *   - self-play, a bad spec, a bad seat and a batch of 0 games are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "figaro/bot.h"
#include "figaro/bot_batch.h"
#include "figaro/figaro.h"

enum { N = 6, PLAYERS = 4, SEAT = 2 };

typedef struct {
    fig_state_t st;
    fig_bot_t *bots[PLAYERS];
} ref_t;

/* The reference game: the batch's deals, bots told everything in order. */
static void ref_start(ref_t *r, uint64_t seed)
{
    fig_setup_t setup;
    fig_setup_random(&setup, PLAYERS, seed, NULL);
    fig_state_init(&r->st, &setup);
    for (int s = 0; s < PLAYERS; s++) {
        if (s == SEAT)
            continue;
        fig_bot_seed(r->bots[s], fig_seed_derive(seed, 1, (uint64_t)s));
        assert_int_equal(fig_bot_game(r->bots[s], &setup, s, NULL), FIG_OK);
    }
}

static void ref_play(ref_t *r, fig_action_t a)
{
    assert_int_equal(fig_state_check(&r->st, a, NULL), FIG_OK);
    fig_state_apply_legal(&r->st, a, NULL);
    for (int s = 0; s < PLAYERS; s++)
        if (s != SEAT)
            assert_int_equal(fig_bot_move(r->bots[s], a, NULL), FIG_OK);
}

static void ref_advance(ref_t *r, uint64_t seed)
{
    for (;;) {
        if (r->st.phase == FIG_PHASE_DEAL) {
            fig_rng_t deal;
            fig_rng_seed_stream(&deal, seed, (uint64_t)r->st.round);
            fig_state_deal(&r->st, &deal);
            for (int s = 0; s < PLAYERS; s++)
                if (s != SEAT)
                    assert_int_equal(fig_bot_round(r->bots[s], &r->st.hand[s], NULL), FIG_OK);
            continue;
        }
        if (r->st.phase == FIG_PHASE_OVER || r->st.turn == SEAT)
            return;
        ref_play(r, fig_bot_choose(r->bots[r->st.turn], 0));
    }
}

static void test_greedy_opponents_are_single_bots(void **unused)
{
    (void)unused;
    static float obs[N][FIG_OBS_SIZE], final_obs[N][FIG_OBS_SIZE], reward[N][PLAYERS];
    static uint8_t mask[N][FIG_OBS_ACTIONS], done[N];
    static int8_t turn[N];
    fig_batch_out_t out = { &obs[0][0], &mask[0][0], turn, &reward[0][0], done,
                            &final_obs[0][0] };
    fig_batch_opts_t opts = { PLAYERS, SEAT, 1 };
    fig_bot_batch_t *b;
    fig_msg_t msg;
    assert_int_equal(fig_bot_batch_new(&b, N, &opts, "greedy", &msg), FIG_OK);
    ref_t *ref = calloc(N, sizeof *ref);
    assert_non_null(ref);
    uint64_t seeds[N];
    for (int i = 0; i < N; i++) {
        seeds[i] = 4200 + (uint64_t)i;
        for (int s = 0; s < PLAYERS; s++)
            if (s != SEAT)
                assert_int_equal(fig_bot_new(&ref[i].bots[s], "greedy", 0, NULL), FIG_OK);
        ref_start(&ref[i], seeds[i]);
        ref_advance(&ref[i], seeds[i]);
    }
    assert_int_equal(fig_bot_batch_reset(b, seeds, &out, &msg), FIG_OK);
    int finished = 0, steps = 0;
    while (finished < N) {
        int32_t act[N] = { 0 };
        for (int i = 0; i < N; i++) {
            /* the learner plays its last legal index */
            for (int k = FIG_OBS_ACTIONS - 1; k >= 0; k--)
                if (mask[i][k]) {
                    act[i] = k;
                    break;
                }
            if (ref[i].st.phase == FIG_PHASE_OVER)
                continue;   /* the row has moved on to its next game */
            assert_int_equal(turn[i], SEAT);
            float want[FIG_OBS_SIZE];
            fig_obs_of(&ref[i].st, SEAT, want);
            assert_memory_equal(obs[i], want, sizeof want);
            uint8_t want_mask[FIG_OBS_ACTIONS];
            fig_obs_mask(&ref[i].st, want_mask);
            assert_memory_equal(mask[i], want_mask, sizeof want_mask);
        }
        assert_int_equal(fig_bot_batch_step(b, act, &out, &msg), FIG_OK);
        steps++;
        for (int i = 0; i < N; i++) {
            if (ref[i].st.phase == FIG_PHASE_OVER)
                continue;
            ref_play(&ref[i], fig_obs_action(act[i], SEAT, PLAYERS));
            ref_advance(&ref[i], seeds[i]);
            int over = ref[i].st.phase == FIG_PHASE_OVER;
            assert_int_equal(done[i], over);
            float zero[FIG_OBS_SIZE] = { 0 }, want[FIG_OBS_SIZE], rewards[PLAYERS] = { 0 };
            if (over) {
                finished++;
                fig_batch_rewards(&ref[i].st, rewards);
                fig_obs_of(&ref[i].st, SEAT, want);
                assert_memory_equal(final_obs[i], want, sizeof want);
                /* autoreset: the row shows the next game, whose seed is derived */
                const fig_env_t *e = &fig_bot_batch_envs(b)[i];
                assert_int_equal(e->games, 1);
                assert_int_equal(e->seed, fig_seed_derive(seeds[i], 0, 1));
                assert_int_equal(turn[i], SEAT);
            } else {
                assert_memory_equal(final_obs[i], zero, sizeof zero);
            }
            assert_memory_equal(reward[i], rewards, sizeof rewards);
        }
    }
    assert_true(steps > 20);
    for (int i = 0; i < N; i++)
        for (int s = 0; s < PLAYERS; s++)
            fig_bot_free(ref[i].bots[s]);
    free(ref);
    fig_bot_batch_free(b);
}

static void test_refused(void **unused)
{
    (void)unused;
    fig_bot_batch_t *b = (fig_bot_batch_t *)&b;
    fig_msg_t msg;
    fig_batch_opts_t self = { 4, -1, 1 }, opts = { 4, 0, 1 }, wide = { 4, 4, 1 };
    assert_int_equal(fig_bot_batch_new(&b, 2, &self, "greedy", &msg), FIG_ERR_INPUT);
    assert_null(b);
    assert_non_null(strstr(msg.text, "self-play"));
    assert_int_equal(fig_bot_batch_new(&b, 2, &opts, "nobot", &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "'nobot' is not a bot"));
    assert_int_equal(fig_bot_batch_new(&b, 2, &wide, "greedy", &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_bot_batch_new(&b, 0, &opts, "greedy", &msg), FIG_ERR_INPUT);
    assert_null(b);
    fig_bot_batch_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_opponents_are_single_bots),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
