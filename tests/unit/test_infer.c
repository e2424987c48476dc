/* SPDX-License-Identifier: MIT */
/* test_infer.c - the others' hands weighed by their play (src/ai/infer.c)
 * and the round log the bot handle gives a think (fig_round_log_t):
 *   - at every turn the log is the round so far, and replayed from its start
 *     it leads to the seat's view;
 *   - the weighed pool holds only states consistent with the view, the same
 *     for the same seed, and is left unused when there is nothing to read;
 *   - against players who choose as the model says (greedy), the weighed
 *     pool puts the others' cards where they really are more often than the
 *     same pool unweighed: the weighing reads the play, not noise;
 *   - players who choose otherwise (at random) are not read once no hand
 *     explains their play (INFER_FIT), while greedy players still are. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ai/ai.h"
#include "ai/infer.h"
#include "figaro/figaro.h"

enum { PLAYERS = 4, SPY = 0 };

/* What the spy seat (a bot whose choices are greedy's on its guess) checks
 * at each of its turns; `game` is the true game, read only by the checks. */
typedef struct {
    const fig_game_t *game;
    fig_rng_t rng;
    int turns, read;             /* turns seen; turns whose pool was used */
    int late, late_read;         /* turns after every other seat's 6th action this round; read */
    double weighed, unweighed;   /* sums of the pools' agreement with the truth */
    infer_pool_t pool;
} spy_t;

/* Replays a log from its start as the seat followed it. */
static void replay(const fig_round_log_t *log, int seat, fig_state_t *st)
{
    fig_msg_t msg;
    *st = log->start;
    for (int i = 0; i < log->n; i++)
        if (fig_state_apply_seen(st, seat, log->action[i], NULL, &msg) != FIG_OK)
            fail_msg("the log's action %d does not follow: %s", i, msg.text);
}

/* The share of the other seats' cards that a sample places in the hand that
 * really holds them. */
static double agreement(const fig_hand_t sample[], const fig_state_t *truth)
{
    int right = 0, all = 0;
    for (int s = 0; s < truth->players; s++) {
        if (s == SPY)
            continue;
        for (int k = 0; k < FIG_KINDS; k++) {
            right += sample[s].n[k] < truth->hand[s].n[k] ? sample[s].n[k] : truth->hand[s].n[k];
            all += truth->hand[s].n[k];
        }
    }
    return all ? (double)right / all : 1;
}

static fig_action_t spy_choose(void *data, const fig_bot_turn_t *turn)
{
    spy_t *spy = data;
    const fig_game_t *g = spy->game;
    int round = g->state.round;
    spy->turns++;

    /* The log is this round's moves, and leads to the view. */
    assert_non_null(turn->round);
    assert_int_equal(turn->round->n, g->nmoves[round - 1]);
    for (int i = 0; i < turn->round->n; i++)
        assert_int_equal(turn->round->action[i], g->moves[round - 1][i].action);
    fig_state_t st;
    replay(turn->round, SPY, &st);
    assert_memory_equal(&st.pub, &turn->view->pub, sizeof st.pub);

    infer_weigh(&spy->pool, turn->round, turn->view, 1.0, &spy->rng);
    bool others_acted = false;
    for (int i = 0; i < g->nmoves[round - 1]; i++)
        others_acted |= g->moves[round - 1][i].seat != SPY;
    if (!others_acted)
        assert_int_equal(spy->pool.n, 0);   /* nothing to read */
    int acted[PLAYERS] = { 0 }, least = 1 << 30;
    for (int i = 0; i < g->nmoves[round - 1]; i++)
        acted[g->moves[round - 1][i].seat]++;
    for (int s = 0; s < PLAYERS; s++)
        if (s != SPY && acted[s] < least)
            least = acted[s];
    if (least >= 6) {
        spy->late++;
        spy->late_read += spy->pool.n != 0;
    }
    if (spy->pool.n) {
        spy->read++;
        assert_int_equal(spy->pool.n, INFER_POOL);
        assert_true(spy->pool.ess >= 1 && spy->pool.ess < INFER_POOL);
        assert_true(fabsf(spy->pool.cum[INFER_POOL - 1] - 1.0f) < 1e-6f);
        double sum = 0, w = 0, plain = 0;
        for (int j = 0; j < INFER_POOL; j++) {
            double a = agreement(spy->pool.hand[j], &g->state);
            sum += spy->pool.weight[j] * a;
            w += spy->pool.weight[j];
            plain += a;
        }
        spy->weighed += sum / w;
        spy->unweighed += plain / INFER_POOL;
        /* Every draw is a state the seat could be in. */
        for (int d = 0; d < 8; d++) {
            fig_state_t drawn;
            fig_view_t seen;
            infer_draw(&spy->pool, turn->view, &spy->rng, &drawn);
            fig_view_of(&drawn, SPY, &seen);
            assert_true(fig_view_equal(&seen, turn->view));
        }
    }
    return greedy_choose(turn->guess, &spy->rng);
}

static const fig_bot_ops_t spy_ops = {
    .kind = "spy", .choose = spy_choose, .free = free,
};

/* Plays games with the spy in seat 0 and greedy (or random players, whom the
 * model does not describe) in the others, the spy checking at each of its
 * turns; returns its totals in *out. */
static void play_spied(int games, bool greedy_others, spy_t *out)
{
    memset(out, 0, sizeof *out);
    for (int game = 0; game < games; game++) {
        fig_game_t g;
        fig_setup_t setup;
        fig_msg_t msg;
        fig_setup_random(&setup, PLAYERS, 700 + (uint64_t)game, NULL);
        fig_game_init(&g, &setup);
        spy_t *spy = calloc(1, sizeof *spy);
        assert_non_null(spy);
        spy->game = &g;
        fig_rng_seed(&spy->rng, (uint64_t)game);
        fig_bot_t *bot = fig_bot_wrap(&spy_ops, spy, "spy");
        assert_non_null(bot);
        fig_rng_t rng;
        fig_rng_seed(&rng, 1000 + (uint64_t)game);
        assert_int_equal(fig_bot_game(bot, &setup, SPY, &msg), FIG_OK);
        while (g.state.phase != FIG_PHASE_OVER) {
            if (g.state.phase == FIG_PHASE_DEAL) {
                fig_game_deal_seeded(&g);
                assert_int_equal(fig_bot_round(bot, &g.hands[g.dealt - 1][SPY], &msg), FIG_OK);
            }
            fig_action_t a = g.state.turn == SPY ? fig_bot_choose(bot, 0)
                  : greedy_others ? greedy_choose(&g.state, &rng)
                                  : fig_state_random_action(&g.state, &rng);
            assert_int_equal(fig_game_play(&g, a, NULL, &msg), FIG_OK);
            assert_int_equal(fig_bot_move(bot, a, &msg), FIG_OK);
        }
        assert_int_equal(fig_bot_overrules(bot), 0);
        out->turns += spy->turns;
        out->read += spy->read;
        out->late += spy->late;
        out->late_read += spy->late_read;
        out->weighed += spy->weighed;
        out->unweighed += spy->unweighed;
        fig_bot_free(bot);
    }
}

static void test_pools_read_the_play_of_greedy_players(void **cm)
{
    (void)cm;
    spy_t total;
    play_spied(6, true, &total);
    assert_true(total.turns > 50);
    assert_true(total.read > total.turns / 2);
    assert_true(total.late > 20);
    assert_true(total.late_read > total.late * 9 / 10);   /* greedy players fit the model */
    /* On average over the turns read, the weighed pool agrees with the truth
     * more than the same pool unweighed, by a margin noise does not give. */
    double gain = (total.weighed - total.unweighed) / total.read;
    print_message("turns %d, read %d: agreement %.4f weighed, %.4f unweighed\n", total.turns,
                  total.read, total.weighed / total.read, total.unweighed / total.read);
    assert_true(gain > 0.01);
}

/* Players the model does not describe stop being read once each has played a
 * few times this round: no hand makes their play greedy's. Before the fit
 * check every such turn was read (and lost games to a held-out opponent). */
static void test_players_unlike_greedy_are_not_read(void **cm)
{
    (void)cm;
    spy_t total;
    play_spied(6, false, &total);
    print_message("random players: %d turns after their 6th actions, %d read\n", total.late,
                  total.late_read);
    assert_true(total.late > 20);
    assert_true(total.late_read <= total.late / 10);
}

/* A position after a few actions of the others, with its log. */
static void mid_round(fig_round_log_t *log, fig_view_t *view, fig_state_t *truth)
{
    fig_setup_t setup;
    fig_game_t g;
    fig_setup_random(&setup, PLAYERS, 31, NULL);
    fig_game_init(&g, &setup);
    fig_game_deal_seeded(&g);
    fig_rng_t rng;
    fig_rng_seed(&rng, 5);
    int seat = -1;
    for (int i = 0; i < 7 || g.state.turn != seat; i++) {
        if (i == 0)
            seat = (g.state.turn + 2) % PLAYERS;   /* not the first to act */
        assert_int_equal(fig_game_play(&g, greedy_choose(&g.state, &rng), NULL, NULL), FIG_OK);
    }
    assert_int_equal(g.state.round, 1);
    /* The log as the seat's handle keeps it: the deal as the seat saw it. */
    fig_state_init(&log->start, &setup);
    assert_int_equal(fig_state_deal_seen(&log->start, seat, &g.hands[0][seat], NULL), FIG_OK);
    log->n = g.nmoves[0];
    for (int i = 0; i < log->n; i++)
        log->action[i] = g.moves[0][i].action;
    fig_view_of(&g.state, seat, view);
    *truth = g.state;
}

static void test_pool_is_reproducible_and_unused_without_a_matching_log(void **cm)
{
    (void)cm;
    fig_round_log_t log;
    fig_view_t view;
    fig_state_t truth;
    mid_round(&log, &view, &truth);
    infer_pool_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    fig_rng_t r1, r2;
    fig_rng_seed(&r1, 9);
    fig_rng_seed(&r2, 9);
    infer_weigh(a, &log, &view, 1.0, &r1);
    infer_weigh(b, &log, &view, 1.0, &r2);
    assert_int_equal(a->n, INFER_POOL);
    assert_memory_equal(a->cum, b->cum, sizeof a->cum);
    assert_memory_equal(a->hand, b->hand, sizeof a->hand);

    infer_weigh(a, NULL, &view, 1.0, &r1);   /* no log */
    assert_int_equal(a->n, 0);
    log.n--;   /* a log one action short leads elsewhere */
    infer_weigh(a, &log, &view, 1.0, &r1);
    assert_int_equal(a->n, 0);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pools_read_the_play_of_greedy_players),
        cmocka_unit_test(test_players_unlike_greedy_are_not_read),
        cmocka_unit_test(test_pool_is_reproducible_and_unused_without_a_matching_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
