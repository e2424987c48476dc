/* SPDX-License-Identifier: MIT */
/* test_batch.c - many games stepped at once (batch.h).
 *
 *   - self-play with uniformly random choices from stream 4 of each seed plays
 *     exactly the game of fig_game_random, i.e. `figaro random-game`;
 *   - a learner at one seat against random opponents sees, at each decision,
 *     the observation and mask a single state played by hand gives, and the
 *     rewards of the final ranking;
 *   - an illegal action anywhere leaves the whole batch unchanged and names
 *     the game; bad options are refused;
 *   - autoreset starts the next seed's game; without it a finished slot stays
 *     over and ignores its actions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"

enum { N = 16 };

typedef struct {
    float obs[N][FIG_OBS_SIZE];
    uint8_t mask[N][FIG_OBS_ACTIONS];
    int8_t turn[N];
    float reward[N][FIG_MAX_PLAYERS];
    uint8_t done[N];
    fig_batch_out_t out;
} outs_t;

static outs_t *outs_new(void)
{
    outs_t *o = calloc(1, sizeof *o);
    assert_non_null(o);
    o->out = (fig_batch_out_t){ &o->obs[0][0], &o->mask[0][0], o->turn, &o->reward[0][0],
                                o->done, NULL };
    return o;
}

/* The reward row of game i when rows are `players` wide. */
static const float *reward_row(const outs_t *o, int i, int players)
{
    return &o->reward[0][0] + i * players;
}

static void test_self_play_is_random_game(void **unused)
{
    (void)unused;
    for (int players = 3; players <= 6; players++) {
        fig_env_t envs[N];
        uint64_t seeds[N];
        fig_rng_t rng[N];
        outs_t *o = outs_new();
        fig_batch_opts_t opts = { players, -1, 0 };
        for (int i = 0; i < N; i++) {
            seeds[i] = 1000u * (uint64_t)players + (uint64_t)i;
            fig_rng_seed_stream(&rng[i], seeds[i], 4);   /* as figaro random-game */
        }
        assert_int_equal(fig_batch_reset(envs, N, &opts, seeds, &o->out, NULL), FIG_OK);
        int finished = 0;
        while (finished < N) {
            int32_t act[N];
            for (int i = 0; i < N; i++) {
                act[i] = 0;
                if (o->turn[i] < 0)
                    continue;
                fig_action_t a = fig_state_random_action(&envs[i].st, &rng[i]);
                act[i] = fig_obs_index(a, o->turn[i], players);
                assert_int_equal(o->mask[i][act[i]], 1);
            }
            assert_int_equal(fig_batch_step(envs, N, &opts, act, &o->out, NULL), FIG_OK);
            for (int i = 0; i < N; i++)
                finished += o->done[i];
        }
        for (int i = 0; i < N; i++) {
            fig_setup_t setup;
            fig_game_t *g = malloc(sizeof *g);
            assert_non_null(g);
            fig_setup_random(&setup, players, seeds[i], NULL);
            fig_rng_t moves;
            fig_rng_seed_stream(&moves, seeds[i], 4);
            fig_game_random(g, &setup, &moves);
            assert_int_equal(envs[i].done, 1);
            assert_memory_equal(&envs[i].st, &g->state, sizeof g->state);
            free(g);
        }
        free(o);
    }
}

static void test_learner_sees_what_single_play_gives(void **unused)
{
    (void)unused;
    const int players = 4, seat = 1;
    fig_env_t envs[N];
    uint64_t seeds[N];
    outs_t *o = outs_new();
    fig_batch_opts_t opts = { players, seat, 0 };
    fig_state_t st[N];
    fig_rng_t opp[N], pick;
    fig_rng_seed(&pick, 77);
    for (int i = 0; i < N; i++) {
        seeds[i] = 0xABCD00u + (uint64_t)i;
        fig_setup_t setup;
        fig_setup_random(&setup, players, seeds[i], NULL);
        fig_state_init(&st[i], &setup);
        fig_rng_seed_stream(&opp[i], seeds[i], 4);
    }
    assert_int_equal(fig_batch_reset(envs, N, &opts, seeds, &o->out, NULL), FIG_OK);
    int live = N, decisions = 0;
    while (live) {
        int32_t act[N] = { 0 };
        for (int i = 0; i < N; i++) {
            /* Bring the reference to the learner's decision the same way. */
            while (st[i].phase != FIG_PHASE_OVER &&
                   (st[i].phase == FIG_PHASE_DEAL || st[i].turn != seat)) {
                if (st[i].phase == FIG_PHASE_DEAL) {
                    fig_rng_t deal;
                    fig_rng_seed_stream(&deal, seeds[i], (uint64_t)st[i].round);
                    fig_state_deal(&st[i], &deal);
                } else {
                    fig_state_apply_legal(&st[i], fig_state_random_action(&st[i], &opp[i]),
                                          NULL);
                }
            }
            if (st[i].phase == FIG_PHASE_OVER) {
                assert_int_equal(o->turn[i], -1);
                continue;
            }
            float want[FIG_OBS_SIZE];
            uint8_t mask[FIG_OBS_ACTIONS];
            fig_obs_of(&st[i], seat, want);
            fig_obs_mask(&st[i], mask);
            assert_int_equal(o->turn[i], seat);
            assert_memory_equal(o->obs[i], want, sizeof want);
            assert_memory_equal(o->mask[i], mask, sizeof mask);
            fig_action_t a = fig_state_random_action(&st[i], &pick);
            act[i] = fig_obs_index(a, seat, players);
            fig_state_apply_legal(&st[i], a, NULL);
            decisions++;
        }
        assert_int_equal(fig_batch_step(envs, N, &opts, act, &o->out, NULL), FIG_OK);
        for (int i = 0; i < N; i++) {
            const float *r = reward_row(o, i, players);
            if (!o->done[i]) {
                for (int s = 0; s < players; s++)
                    assert_true(r[s] == 0.0f);
                continue;
            }
            live--;
            /* The reference must be over too once the opponents have played. */
            while (st[i].phase == FIG_PHASE_PLAY)
                fig_state_apply_legal(&st[i], fig_state_random_action(&st[i], &opp[i]), NULL);
            assert_int_equal(st[i].phase, FIG_PHASE_OVER);
            int ranking[FIG_MAX_PLAYERS];
            fig_state_ranking(&st[i], ranking);
            assert_true(r[ranking[0]] == 1.0f);
            assert_true(r[ranking[players - 1]] == -1.0f);
            float sum = 0;
            for (int s = 0; s < players; s++)
                sum += r[s];
            assert_true(sum > -1e-5f && sum < 1e-5f);
        }
    }
    assert_true(decisions > N * 10);
    free(o);
}

static void test_illegal_action_changes_nothing(void **unused)
{
    (void)unused;
    fig_env_t envs[N], before[N];
    uint64_t seeds[N];
    outs_t *o = outs_new();
    fig_batch_opts_t opts = { 5, 0, 1 };
    for (int i = 0; i < N; i++)
        seeds[i] = (uint64_t)i * 7919u;
    assert_int_equal(fig_batch_reset(envs, N, &opts, seeds, &o->out, NULL), FIG_OK);
    int32_t act[N];
    for (int i = 0; i < N; i++) {   /* the first legal index of each game */
        act[i] = 0;
        while (!o->mask[i][act[i]])
            act[i]++;
    }
    memcpy(before, envs, sizeof envs);
    fig_msg_t msg;
    int bad = 0;   /* an index the rules refuse in game 3 */
    while (o->mask[3][bad] || fig_obs_action(bad, o->turn[3], 5) == FIG_ACT_NONE)
        bad++;
    act[3] = bad;
    assert_int_equal(fig_batch_step(envs, N, &opts, act, &o->out, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "game 3: seat 0 "));
    assert_memory_equal(envs, before, sizeof envs);
    act[3] = FIG_OBS_ACTIONS;
    assert_int_equal(fig_batch_step(envs, N, &opts, act, &o->out, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "not an action index"));
    act[3] = FIG_R1 * 6 + 5;   /* slot 5 does not exist with 5 players */
    assert_int_equal(fig_batch_step(envs, N, &opts, act, &o->out, &msg), FIG_ERR_INPUT);
    assert_memory_equal(envs, before, sizeof envs);

    fig_batch_opts_t wrong = { 7, 0, 0 };
    assert_int_equal(fig_batch_reset(envs, N, &wrong, seeds, &o->out, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "not 7"));
    wrong = (fig_batch_opts_t){ 4, 4, 0 };
    assert_int_equal(fig_batch_check(&wrong, &msg), FIG_ERR_INPUT);
    wrong = (fig_batch_opts_t){ 4, 0, 0 };   /* the batch was reset with 5 players */
    assert_int_equal(fig_batch_step(envs, N, &wrong, act, &o->out, &msg), FIG_ERR_STATE);
    assert_int_equal(fig_batch_reset(envs, -1, &opts, seeds, &o->out, &msg), FIG_ERR_INPUT);
    free(o);
}

/* Plays the first legal action everywhere until `games` games have ended in
 * slot 0; returns the steps taken. */
static int run_first_legal(fig_env_t envs[], const fig_batch_opts_t *opts, outs_t *o,
                           int steps)
{
    int ended = 0;
    for (int step = 0; step < steps; step++) {
        int32_t act[N];
        for (int i = 0; i < N; i++) {
            act[i] = 0;
            while (o->turn[i] >= 0 && !o->mask[i][act[i]])
                act[i]++;
        }
        assert_int_equal(fig_batch_step(envs, N, opts, act, &o->out, NULL), FIG_OK);
        ended += o->done[0];
    }
    return ended;
}

static void test_autoreset_and_finished_slots(void **unused)
{
    (void)unused;
    fig_env_t envs[N];
    uint64_t seeds[N];
    outs_t *o = outs_new();
    for (int i = 0; i < N; i++)
        seeds[i] = 42 + (uint64_t)i;
    fig_batch_opts_t opts = { 3, 2, 1 };
    assert_int_equal(fig_batch_reset(envs, N, &opts, seeds, &o->out, NULL), FIG_OK);
    int ended = run_first_legal(envs, &opts, o, 200);
    assert_true(ended >= 2);   /* a 3-player game gives the learner ~25 decisions */
    assert_int_equal(envs[0].games, (uint32_t)ended);
    assert_int_equal(envs[0].seed, fig_seed_derive(seeds[0], 0, envs[0].games));
    for (int i = 0; i < N; i++)
        assert_int_equal(o->turn[i], 2);   /* always at a learner's decision */

    opts.autoreset = 0;
    assert_int_equal(fig_batch_reset(envs, N, &opts, seeds, &o->out, NULL), FIG_OK);
    run_first_legal(envs, &opts, o, 200);
    uint8_t zero_mask[FIG_OBS_ACTIONS] = { 0 };
    for (int i = 0; i < N; i++) {
        assert_int_equal(envs[i].done, 1);
        assert_int_equal(o->turn[i], -1);
        assert_int_equal(o->done[i], 0);   /* it ended in an earlier step */
        assert_memory_equal(o->mask[i], zero_mask, sizeof zero_mask);
    }
    /* Reset brings every slot back to the seed's first decision. */
    assert_int_equal(fig_batch_reset(envs, N, &opts, seeds, &o->out, NULL), FIG_OK);
    for (int i = 0; i < N; i++) {
        assert_int_equal(envs[i].done, 0);
        assert_int_equal(envs[i].seed, seeds[i]);
        assert_int_equal(o->turn[i], 2);
    }
    assert_int_equal(fig_env_size(), sizeof(fig_env_t));
    free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_play_is_random_game),
        cmocka_unit_test(test_learner_sees_what_single_play_gives),
        cmocka_unit_test(test_illegal_action_changes_nothing),
        cmocka_unit_test(test_autoreset_and_finished_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
