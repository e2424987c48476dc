/* test_hint.c - hints on a worker pool (host/hint.h).
 *
 *   - the answer comes through the descriptor, is legal for the seat, and is
 *     the same for the same question with an iteration budget;
 *   - R14: the hint depends only on what the seat knows: another seat's hand
 *     swapped for a different one with the same public history gives the
 *     same answer;
 *   - questions out of turn, or while one is out, are refused; a bad spec is
 *     refused and nothing is left running;
 *   - freeing a handle while it thinks returns at once and leaks nothing
 *     (the sanitizers say so), with its own pool and with a shared one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <poll.h>
#include <stdbool.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/hint.h"
#include "host/util.h"

#define QUICK "ismcts:iters=300"

/* A record of a game of `players` seeded `seed`, played with random actions
 * until the `after`-th action; returns the seat to move. */
static int record_at(fig_game_t *g, int players, uint64_t seed, int after)
{
    fig_setup_t setup;
    fig_setup_random(&setup, players, seed, NULL);
    fig_game_init(g, &setup);
    fig_rng_t rng;
    fig_rng_seed(&rng, seed + 5);
    fig_game_deal_seeded(g);
    for (int i = 0; i < after; i++) {
        if (g->state.phase == FIG_PHASE_DEAL)
            fig_game_deal_seeded(g);
        assert_int_equal(fig_game_play(g, fig_state_random_action(&g->state, &rng), NULL, NULL),
                         FIG_OK);
    }
    if (g->state.phase == FIG_PHASE_DEAL)
        fig_game_deal_seeded(g);
    return g->state.turn;
}

/* Asks and waits for the answer (at most 20 s). */
static fig_action_t answer(fig_hint_t *h, const fig_game_t *g, int seat, long tag)
{
    fig_msg_t msg;
    assert_int_equal(fig_hint_ask(h, g, seat, QUICK, tag, &msg), FIG_OK);
    assert_true(fig_hint_busy(h));
    struct pollfd p = { .fd = fig_hint_fd(h), .events = POLLIN };
    assert_int_equal(poll(&p, 1, 20000), 1);
    fig_action_t a;
    long got;
    assert_true(fig_hint_take(h, &a, &got));
    assert_int_equal(got, tag);
    assert_false(fig_hint_busy(h));
    return a;
}

static void test_answer_is_legal_and_reproducible(void **state)
{
    (void)state;
    fig_hint_t *h;
    fig_msg_t msg;
    assert_int_equal(fig_hint_new(&h, NULL, &msg), FIG_OK);
    fig_action_t a, b;
    long tag;
    assert_false(fig_hint_take(h, &a, &tag));   /* nothing asked */
    for (int players = 3; players <= 6; players++) {
        fig_game_t g;
        int seat = record_at(&g, players, 40 + (uint64_t)players, 7);
        a = answer(h, &g, seat, 11);
        assert_int_equal(fig_state_check(&g.state, a, NULL), FIG_OK);
        b = answer(h, &g, seat, 11);
        assert_int_equal(a, b);
    }
    fig_hint_free(h);
}

static void test_only_the_seats_knowledge(void **state)
{
    (void)state;
    fig_pool_t *pool;
    fig_hint_t *h;
    fig_msg_t msg;
    assert_int_equal(fig_pool_new(&pool, &(fig_pool_opts_t){ 2, (size_t)16 << 20 }, &msg),
                     FIG_OK);
    assert_int_equal(fig_hint_new(&h, pool, &msg), FIG_OK);
    int checked = 0, moved = 0;
    for (uint64_t seed = 1; seed <= 30 && checked < 8; seed++) {
        /* At the start of a round the seat to move has seen no other hand:
         * deal the others' cards differently and ask again. */
        fig_setup_t setup;
        fig_setup_random(&setup, 4, seed, NULL);
        fig_game_t g1, g2;
        fig_game_init(&g1, &setup);
        fig_game_init(&g2, &setup);
        fig_game_deal_seeded(&g1);
        int seat = g1.state.turn, other = (seat + 1) % 4, third = (seat + 2) % 4;
        fig_hand_t hands[FIG_MAX_PLAYERS];
        memcpy(hands, g1.hands[0], sizeof hands);
        /* swap one card of different kinds between two other seats */
        int k1 = -1, k2 = -1;
        for (int k = 0; k < FIG_KINDS && (k1 < 0 || k2 < 0); k++) {
            if (k1 < 0 && hands[other].n[k] && !hands[third].n[k])
                k1 = k;
            else if (k2 < 0 && hands[third].n[k] && !hands[other].n[k])
                k2 = k;
        }
        if (k1 < 0 || k2 < 0)
            continue;
        fig_hand_t mine[FIG_MAX_PLAYERS];
        memcpy(mine, hands, sizeof mine);
        hands[other].n[k1]--, hands[third].n[k1]++;
        hands[third].n[k2]--, hands[other].n[k2]++;
        assert_int_equal(fig_game_deal(&g2, hands, &msg), FIG_OK);
        fig_action_t a = answer(h, &g1, seat, (long)seed);
        assert_int_equal(a, answer(h, &g2, seat, (long)seed));
        checked++;
        /* The same swap with the seat's own hand is something it knows: the
         * answer may change, and does in some deal (so the equality above
         * says something). */
        for (int k = 0; k < FIG_KINDS; k++)
            if (mine[seat].n[k] && !mine[other].n[k]) {
                for (int j = 0; j < FIG_KINDS; j++)
                    if (j != k && mine[other].n[j] && !mine[seat].n[j]) {
                        mine[seat].n[k]--, mine[other].n[k]++;
                        mine[other].n[j]--, mine[seat].n[j]++;
                        fig_game_t g3;
                        fig_game_init(&g3, &setup);
                        assert_int_equal(fig_game_deal(&g3, mine, &msg), FIG_OK);
                        moved += answer(h, &g3, seat, (long)seed) != a;
                        break;
                    }
                break;
            }
    }
    assert_true(checked >= 5);
    assert_true(moved >= 1);
    fig_hint_free(h);
    fig_pool_free(pool);
}

static void test_refusals(void **state)
{
    (void)state;
    fig_hint_t *h;
    fig_msg_t msg;
    assert_int_equal(fig_hint_new(&h, NULL, &msg), FIG_OK);
    fig_game_t g;
    int seat = record_at(&g, 4, 9, 5);
    assert_int_equal(fig_hint_ask(h, &g, (seat + 1) % 4, QUICK, 1, &msg), FIG_ERR_STATE);
    assert_string_equal(msg.text, "a hint is for your turn");
    assert_int_equal(fig_hint_ask(h, &g, seat, "ismcts:nonsense=1", 1, &msg), FIG_ERR_INPUT);
    assert_false(fig_hint_busy(h));
    assert_int_equal(fig_hint_ask(h, &g, seat, "ismcts:iters=100000000", 1, &msg), FIG_OK);
    assert_int_equal(fig_hint_ask(h, &g, seat, QUICK, 2, &msg), FIG_ERR_STATE);
    /* freed while thinking 10^8 iterations: returns at once */
    long long t0 = fig_clock_ms();
    fig_hint_free(h);
    assert_true(fig_clock_ms() - t0 < 1000);
}

static void test_free_while_thinking_on_a_shared_pool(void **state)
{
    (void)state;
    fig_pool_t *pool;
    fig_msg_t msg;
    assert_int_equal(fig_pool_new(&pool, &(fig_pool_opts_t){ 1, (size_t)16 << 20 }, &msg),
                     FIG_OK);
    fig_game_t g;
    int seat = record_at(&g, 5, 3, 12);
    for (int i = 0; i < 5; i++) {
        fig_hint_t *h;
        assert_int_equal(fig_hint_new(&h, pool, &msg), FIG_OK);
        assert_int_equal(fig_hint_ask(h, &g, seat, "ismcts:ms=2000", i, &msg), FIG_OK);
        fig_hint_free(h);
    }
    long long t0 = fig_clock_ms();
    fig_pool_free(pool);   /* the cancelled searches stop early */
    assert_true(fig_clock_ms() - t0 < 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answer_is_legal_and_reproducible),
        cmocka_unit_test(test_only_the_seats_knowledge),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_free_while_thinking_on_a_shared_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
