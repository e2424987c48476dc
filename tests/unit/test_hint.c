/* SPDX-License-Identifier: MIT */
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
 *     (the sanitizers say so), with its own pool and with a shared one;
 *   - the answer comes with the search's analysis (its first move is the
 *     answer), the same for the same question and, like the answer, the same
 *     when another seat's hand differs (R14);
 *   - fig_hint_explain: the top moves with their numbers, the hint first;
 *     one reason, each from numbers made up for it: the search cannot tell
 *     the top moves apart (within its noise, or by less than the figures
 *     show), the other move gets the person made to collect soon (never when
 *     it is a take: true by definition), or more cards; else what the move
 *     does at the table, as without an analysis; every sentence through the
 *     narrator's translator. */
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
#include "host/narrate.h"
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
        fig_analysis_t an1, an2;
        assert_true(fig_hint_analysis(h, &an1));
        assert_int_equal(a, answer(h, &g2, seat, (long)seed));
        assert_true(fig_hint_analysis(h, &an2));
        assert_int_equal(an1.n, an2.n);
        assert_int_equal(an1.iterations, an2.iterations);
        assert_memory_equal(an1.moves, an2.moves, (size_t)an1.n * sizeof an1.moves[0]);
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

/* ---- the hint in words */

static const char *card_code(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return fig_card_code_in(NULL, kind, buf, cap);
}

static const char names4[4][FIG_NAME_MAX + 1] = { "Ann", "Bartolo", "Rosina", "Figaro" };

static void test_analysis_comes_with_the_answer(void **state)
{
    (void)state;
    fig_hint_t *h;
    fig_msg_t msg;
    assert_int_equal(fig_hint_new(&h, NULL, &msg), FIG_OK);
    fig_analysis_t an, again;
    assert_false(fig_hint_analysis(h, &an));   /* nothing taken yet */
    fig_game_t g;
    int seat = record_at(&g, 4, 17, 9);
    fig_action_t a = answer(h, &g, seat, 5);
    assert_true(fig_hint_analysis(h, &an));
    assert_int_equal(an.seat, seat);
    assert_true(an.n >= 1 && an.iterations >= 300);
    assert_int_equal(an.moves[0].action, a);
    assert_int_equal(answer(h, &g, seat, 5), a);
    assert_true(fig_hint_analysis(h, &again));
    assert_memory_equal(an.moves, again.moves, (size_t)an.n * sizeof an.moves[0]);
    /* While a question is out, there is no analysis to read. */
    assert_int_equal(fig_hint_ask(h, &g, seat, QUICK, 6, &msg), FIG_OK);
    assert_false(fig_hint_analysis(h, &again));
    struct pollfd p = { .fd = fig_hint_fd(h), .events = POLLIN };
    assert_int_equal(poll(&p, 1, 20000), 1);
    long tag;
    assert_true(fig_hint_take(h, &a, &tag));
    /* greedy does not search: an answer, no analysis */
    assert_int_equal(fig_hint_ask(h, &g, seat, "greedy", 7, &msg), FIG_OK);
    assert_int_equal(poll(&p, 1, 20000), 1);
    assert_true(fig_hint_take(h, &a, &tag));
    assert_false(fig_hint_analysis(h, &again));

    /* Worded: the hint first, at most three moves, each with its numbers. */
    fig_narrator_t nr;
    fig_narrate_init(&nr, 4, seat, names4, NULL, card_code, NULL, NULL);
    fig_view_t v;
    fig_view_of(&g.state, seat, &v);
    fig_hint_text_t t;
    fig_hint_explain(&nr, &v, an.moves[0].action, &an, &t);
    assert_int_equal(t.action, an.moves[0].action);
    assert_true(t.n >= 1 && t.n <= FIG_HINT_TOP && t.n <= an.n);
    assert_int_equal(t.moves[0].action, an.moves[0].action);
    assert_non_null(strstr(t.headline, "Hint: "));
    assert_true(t.reason[0] != '\0');
    for (int i = 0; i < t.n; i++) {
        assert_non_null(strstr(t.moves[i].line, "of the search, wins"));
        assert_true(t.moves[i].share >= 0 && t.moves[i].share <= 1);
    }
    /* The hint need not be the most visited move: it still comes first. */
    if (an.n >= 2) {
        fig_hint_explain(&nr, &v, an.moves[1].action, &an, &t);
        assert_int_equal(t.moves[0].action, an.moves[1].action);
        assert_int_equal(t.moves[1].action, an.moves[0].action);
    }
    /* No analysis, or another seat's: the headline and what the move does
     * at the table, no moves. */
    fig_hint_explain(&nr, &v, a, NULL, &t);
    assert_int_equal(t.n, 0);
    char what[400], why[400];
    fig_narrate_hint(&nr, &v, a, what, sizeof what, why, sizeof why);
    assert_string_equal(t.headline, what);
    assert_string_equal(t.reason, why);
    assert_true(why[0] != '\0');
    an.seat = (seat + 1) % 4;
    fig_hint_explain(&nr, &v, an.moves[0].action, &an, &t);
    assert_int_equal(t.n, 0);
    fig_hint_free(h);
}

/* A position at seat 0's turn, with three moves that make nobody collect and
 * a take, and an analysis of three of those moves made up, clearly apart. */
static void made_up(fig_game_t *g, fig_view_t *v, fig_analysis_t *an, fig_action_t *take)
{
    fig_action_t legal[FIG_MAX_ACTIONS], quiet[3];
    for (uint64_t seed = 100;; seed++) {
        if (record_at(g, 4, seed, 8) != 0)
            continue;
        fig_view_of(&g->state, 0, v);
        int n = fig_view_legal(v, legal), k = 0;
        *take = 0;
        for (int i = 0; i < n; i++) {
            if (fig_act_is_take(legal[i]))
                *take = legal[i];
            else if (k < 3 && fig_narrate_collector(v, legal[i], NULL) < 0)
                quiet[k++] = legal[i];
        }
        if (k == 3 && *take)
            break;
    }
    memset(an, 0, sizeof *an);
    an->seat = 0;
    an->n = 3;
    an->iterations = 1000;
    an->moves[0] = (fig_move_stat_t){ .action = quiet[0], .visits = 600, .share = 0.6,
                                      .win = 0.41, .place = 1.9 };
    an->moves[1] = (fig_move_stat_t){ .action = quiet[1], .visits = 300, .share = 0.3,
                                      .win = 0.30, .place = 2.2 };
    an->moves[2] = (fig_move_stat_t){ .action = quiet[2], .visits = 100, .share = 0.1,
                                      .win = 0.20, .place = 2.6 };
}

static void test_reasons(void **state)
{
    (void)state;
    fig_game_t g;
    fig_view_t v;
    fig_analysis_t an;
    fig_action_t take;
    made_up(&g, &v, &an, &take);
    fig_narrator_t nr;
    fig_narrate_init(&nr, 4, 0, names4, NULL, card_code, NULL, NULL);
    fig_hint_text_t t;
    fig_action_t a = an.moves[0].action;
    char what[400], table[400];
    fig_narrate_hint(&nr, &v, a, what, sizeof what, table, sizeof table);

    /* the other move gets the person made to collect soon, mostly by Bartolo */
    an.moves[1].collect_next = 0.5;
    an.moves[1].made_by[1] = 0.4;
    an.moves[1].made_by[2] = 0.1;
    an.moves[0].collect_next = 0.1;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_string_equal(t.headline, what);
    assert_non_null(strstr(t.reason, "lets Bartolo make you collect next turn in 40% of the "
                                     "samples"));
    assert_non_null(strstr(t.reason, t.moves[1].move));
    /* ... at the person's own next turn */
    an.moves[1].made_by[0] = 0.5;
    an.moves[1].made_by[1] = 0;
    an.moves[1].made_by[2] = 0;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_non_null(strstr(t.reason, "you collect at your next turn in 50% of the samples"));
    /* a small difference is no reason: more cards this round is */
    an.moves[1].collect_next = 0.2;
    an.moves[1].collect[0] = 4.5;
    an.moves[0].collect[0] = 2.0;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_non_null(strstr(t.reason, "you would collect about 4.5 cards this round instead of "
                                     "2.0"));
    assert_non_null(strstr(t.moves[0].line, "you collect about 2.0 cards this round"));
    assert_non_null(strstr(t.moves[0].line, "60% of the search, wins 41%"));
    /* nothing from the search stands out: what the move does at the table,
     * the same sentence as without a search */
    an.moves[1].collect[0] = 2.5;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_string_equal(t.reason, table);
    /* true by definition is no reason: the other move is a take, which makes
     * the person collect at once in every sample */
    fig_move_stat_t quiet = an.moves[1];
    an.moves[1].action = take;
    an.moves[1].collect_next = 1.0;
    an.moves[1].made_by[0] = 1.0;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_null(strstr(t.reason, "next turn"));
    assert_string_equal(t.reason, table);
    an.moves[1] = quiet;
    /* the search cannot tell the hint from the next move, then from the next
     * two: it says so, whatever else it saw */
    an.moves[1].win = 0.405;
    an.moves[1].place = 1.92;
    an.moves[1].collect_next = 0.6;
    an.moves[1].made_by[1] = 0.6;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_non_null(strstr(t.reason, "The search cannot tell it from the next move ("));
    assert_non_null(strstr(t.reason, t.moves[1].move));
    assert_non_null(strstr(t.reason, "yet: both win about 41%."));
    an.moves[2].win = 0.40;
    an.moves[2].place = 1.93;
    an.moves[2].visits = 290;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_non_null(strstr(t.reason, "cannot tell it from the next two moves ("));
    assert_non_null(strstr(t.reason, "all three win about 41%."));
    /* a difference of a point with few visits is within the noise; with many
     * visits, beyond it, but still too small to show: not separated either */
    an.n = 2;
    an.moves[1].win = 0.39;
    an.moves[1].place = 1.9;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_non_null(strstr(t.reason, "cannot tell it from the next move"));
    an.moves[0].visits = an.moves[1].visits = 400000;
    an.moves[1].win = 0.405;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_non_null(strstr(t.reason, "cannot tell it from the next move"));
    an.moves[1].win = 0.37;   /* 4 points over 400,000 visits each: apart */
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_null(strstr(t.reason, "cannot tell"));
    an.n = 1;
    fig_hint_explain(&nr, &v, a, &an, &t);
    assert_string_equal(t.reason, "It is the only move.");
    assert_int_equal(t.n, 1);
}

/* A translator that knows two of the hint's sentences. */
static const char *fake_text(const fig_tr_t *tr, const char *msgid)
{
    (void)tr;
    if (!strcmp(msgid, "With the other move (%s) you would collect about %.1f cards this round "
                       "instead of %.1f."))
        return "Avec l'autre coup (%s), vous ramasseriez environ %.1f cartes dans cette manche "
               "au lieu de %.1f.";
    if (!strcmp(msgid, "%s: %.0f%% of the search, wins %.0f%%, you collect about %.1f cards "
                       "this round"))
        return "%s : %.0f %% de la recherche, gagne %.0f %%, vous ramassez environ %.1f cartes "
               "dans cette manche";
    return msgid;
}

static const char *fake_plural(const fig_tr_t *tr, const char *s, const char *p, unsigned long n)
{
    (void)tr;
    return n == 1 ? s : p;
}

static void test_translated(void **state)
{
    (void)state;
    fig_game_t g;
    fig_view_t v;
    fig_analysis_t an;
    fig_action_t take;
    made_up(&g, &v, &an, &take);
    an.moves[1].collect[0] = 4.5;
    an.moves[0].collect[0] = 2.0;
    fig_tr_t tr = { fake_text, fake_plural, NULL };
    fig_narrator_t nr;
    fig_narrate_init(&nr, 4, 0, names4, &tr, card_code, NULL, NULL);
    fig_hint_text_t t;
    fig_hint_explain(&nr, &v, an.moves[0].action, &an, &t);
    assert_non_null(strstr(t.reason, "Avec l'autre coup ("));
    assert_non_null(strstr(t.reason, "), vous ramasseriez environ 4.5 cartes dans cette manche "
                                     "au lieu de 2.0."));
    assert_non_null(strstr(t.moves[0].line, ": 60 % de la recherche, gagne 41 %"));
    assert_non_null(strstr(t.moves[1].line, ": 30 % de la recherche, gagne 30 %"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answer_is_legal_and_reproducible),
        cmocka_unit_test(test_only_the_seats_knowledge),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_free_while_thinking_on_a_shared_pool),
        cmocka_unit_test(test_analysis_comes_with_the_answer),
        cmocka_unit_test(test_reasons),
        cmocka_unit_test(test_translated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
