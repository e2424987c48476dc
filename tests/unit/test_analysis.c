/* SPDX-License-Identifier: MIT */
/* test_analysis.c - fig_bot_analysis: what a search saw at its root.
 *
 * The numbers are estimates, so the tests check what must hold whatever the
 * samples: shares sum to 1, the first move is the one the bot played, every
 * mean lies in its range, made_by sums to collect_next; and, on positions
 * found in seeded games, a move that makes the seat collect by itself (a Take,
 * or a card that brings its own pile to 6) shows collect_next = 1, made by the
 * seat, while a harmless move shows less. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ai/ai.h"   /* greedy_choose, to play the other seats */
#include "figaro/bot.h"
#include "figaro/figaro.h"
#include "support_bot.h"

static const fig_move_stat_t *find(const fig_analysis_t *an, fig_action_t a)
{
    for (int i = 0; i < an->n; i++)
        if (an->moves[i].action == a)
            return &an->moves[i];
    return NULL;
}

/* What holds for every analysis, whatever the samples. */
static void check_consistent(const fig_analysis_t *an, const fig_state_t *st, int seat,
                             fig_action_t chosen)
{
    assert_int_equal(an->seat, seat);
    assert_true(an->n > 0);
    assert_true(an->iterations > 0);
    assert_int_equal(an->moves[0].action, chosen);
    double shares = 0;
    long visits = 0;
    for (int i = 0; i < an->n; i++) {
        const fig_move_stat_t *ms = &an->moves[i];
        assert_int_equal(fig_state_check(st, ms->action, NULL), FIG_OK);
        assert_true(ms->visits > 0);
        if (i > 0)
            assert_true(ms->visits <= an->moves[i - 1].visits);
        shares += ms->share;
        visits += ms->visits;
        assert_true(ms->win >= 0 && ms->win <= 1);
        assert_true(ms->place >= 1 && ms->place <= st->players);
        assert_true(ms->collect_next >= 0 && ms->collect_next <= 1 + 1e-9);
        double by = 0;
        for (int s = 0; s < FIG_MAX_PLAYERS; s++) {
            assert_true(ms->made_by[s] >= 0);
            assert_true(ms->collect[s] >= 0);
            if (s >= st->players) {
                assert_true(ms->made_by[s] == 0);
                assert_true(ms->collect[s] == 0);
            }
            by += ms->made_by[s];
        }
        assert_true(by > ms->collect_next - 1e-9 && by < ms->collect_next + 1e-9);
        /* at most every card of the round is collected, each by one seat */
        double cards = 0;
        for (int s = 0; s < st->players; s++)
            cards += ms->collect[s];
        assert_true(cards <= FIG_DECK_MAX);
        for (int j = 0; j < i; j++)
            assert_int_not_equal(an->moves[j].action, ms->action);
    }
    assert_true(shares > 1 - 1e-9 && shares < 1 + 1e-9);
    assert_true(visits <= an->iterations);
}

static void test_bots_that_do_not_search_have_no_analysis(void **state)
{
    (void)state;
    fig_analysis_t an;
    const char *specs[] = { "random", "greedy", "ismcts:iters=50" };
    for (int i = 0; i < 3; i++) {
        fig_bot_t *bot = make_bot(specs[i], 1);
        assert_false(fig_bot_analysis(bot, &an));   /* before any think */
        fig_bot_free(bot);
    }
}

/* A 4-player game with every seat but `seat` played by greedy on the true
 * state, one ismcts bot following it at `seat`; at each of its turns that
 * `pick` accepts, the bot thinks and is checked. Returns the turns checked. */
typedef bool (*pick_fn)(const fig_state_t *st, fig_action_t *bad, fig_action_t *good);

static int run_game(uint64_t seed, int players, int seat, const char *spec, pick_fn pick,
                    int max_checks, double harmless_below)
{
    fig_setup_t setup;
    fig_game_t g;
    fig_msg_t msg;
    fig_rng_t rng;
    fig_rng_seed(&rng, seed * 31 + 7);
    fig_setup_random(&setup, players, seed, NULL);
    fig_game_init(&g, &setup);
    fig_bot_t *bot = make_bot(spec, seed);
    assert_int_equal(fig_bot_game(bot, &setup, seat, &msg), FIG_OK);
    int checks = 0;
    while (!fig_game_over(&g) && checks < max_checks) {
        if (g.state.phase == FIG_PHASE_DEAL) {
            fig_game_deal_seeded(&g);
            assert_int_equal(fig_bot_round(bot, &g.hands[g.dealt - 1][seat], &msg), FIG_OK);
        }
        fig_action_t a = greedy_choose(&g.state, &rng), bad, good;
        if (g.state.turn == seat) {
            bool wanted = pick && pick(&g.state, &bad, &good);
            if (wanted || !pick) {
                fig_analysis_t an;
                a = fig_bot_choose(bot, 0);
                assert_true(fig_bot_analysis(bot, &an));
                check_consistent(&an, &g.state, seat, a);
                checks++;
                if (wanted) {
                    const fig_move_stat_t *b = find(&an, bad), *h = find(&an, good);
                    assert_non_null(b);   /* every root move is tried once at least */
                    assert_non_null(h);
                    /* the bad move makes the seat collect in every sample, by itself */
                    assert_true(b->collect_next > 1 - 1e-9);
                    assert_true(b->made_by[seat] > 1 - 1e-9);
                    assert_true(b->collect[seat] >= g.state.table_cards);
                    if (h->collect_next >= harmless_below)
                        fail_msg("seed %llu: a harmless move shows collect_next %.2f",
                                 (unsigned long long)seed, h->collect_next);
                    assert_true(h->made_by[seat] < 1e-9);
                }
            }
        }
        assert_int_equal(fig_game_play(&g, a, NULL, &msg), FIG_OK);
        assert_int_equal(fig_bot_move(bot, a, &msg), FIG_OK);
    }
    fig_bot_free(bot);
    return checks;
}

/* The shape of every analysis through whole games, 3 to 6 players, with one
 * thread and two. */
static void test_analysis_is_consistent_with_the_choice(void **state)
{
    (void)state;
    for (int players = 3; players <= 6; players++) {
        int checks = run_game(100 + (uint64_t)players, players, 1, "ismcts:iters=300", NULL,
                              1000, 0);
        assert_true(checks > 5);
    }
    assert_true(run_game(7, 4, 2, "ismcts:iters=300,threads=2", NULL, 1000, 0) > 5);
}

/* A harmless play: a card in front of another seat that does not bring that
 * pile to 6 and leaves the mover's own pile empty. */
static bool harmless_play(const fig_state_t *st, fig_action_t *good)
{
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, moves), me = st->turn;
    if (st->pile[me].cards != 0)
        return false;
    for (int i = 0; i < n; i++) {
        if (fig_act_is_take(moves[i]) || fig_act_kind(moves[i]) == FIG_RING)
            continue;
        int t = fig_act_target(moves[i]);
        if (t != me && st->pile[t].total + fig_kind_value(fig_act_kind(moves[i])) < 6) {
            *good = moves[i];
            return true;
        }
    }
    return false;
}

/* Positions where a Take would collect several cards and a harmless play
 * exists: the Take is "made to collect" by the seat itself. */
static bool take_or_harmless(const fig_state_t *st, fig_action_t *bad, fig_action_t *good)
{
    if (st->table_cards < 3 || !harmless_play(st, good))
        return false;
    *bad = FIG_ACT_TAKE;
    return true;
}

/* Positions where a card brings the seat's own pile to 6 and a play in front
 * of another seat collects nothing now: feeding makes the seat collect in
 * every sample; the other move only when a later seat feeds the pile (which
 * is then high, so often: "lower" is all that is sure). */
static bool feed_or_harmless(const fig_state_t *st, fig_action_t *bad, fig_action_t *good)
{
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, moves), me = st->turn, feed = -1, calm = -1;
    if (st->table_cards < 2)
        return false;
    for (int i = 0; i < n; i++) {
        if (fig_act_is_take(moves[i]) || fig_act_kind(moves[i]) == FIG_RING)
            continue;
        int t = fig_act_target(moves[i]), v = fig_kind_value(fig_act_kind(moves[i]));
        if (t == me && st->pile[me].total + v >= 6)
            feed = i;
        else if (t != me && st->pile[t].total + v < 6)
            calm = i;
    }
    if (feed < 0 || calm < 0)
        return false;
    *bad = moves[feed];
    *good = moves[calm];
    return true;
}

static void test_a_take_shows_the_seat_collecting_next(void **state)
{
    (void)state;
    int checks = 0;
    for (uint64_t seed = 1; seed <= 40 && checks < 6; seed++)
        checks += run_game(seed, 4, (int)(seed % 4), "ismcts:iters=400", take_or_harmless, 2,
                           0.5);
    assert_true(checks >= 3);
}

static void test_feeding_the_own_pile_shows_collect_next(void **state)
{
    (void)state;
    int checks = 0;
    for (uint64_t seed = 1; seed <= 200 && checks < 4; seed++)
        checks += run_game(seed, 4, (int)(seed % 4), "ismcts:iters=400", feed_or_harmless, 2,
                           0.95);
    assert_true(checks >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_that_do_not_search_have_no_analysis),
        cmocka_unit_test(test_analysis_is_consistent_with_the_choice),
        cmocka_unit_test(test_a_take_shows_the_seat_collecting_next),
        cmocka_unit_test(test_feeding_the_own_pile_shows_collect_next),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
