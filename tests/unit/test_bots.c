/* SPDX-License-Identifier: MIT */
/* test_bots.c - the bots: specs, legal choices only, R14 (a bot's knowledge is
 * exactly its seat's view), determinism for a fixed iteration budget, time
 * budgets honoured, the memory cap. Speed and strength are measured by
 * `figaro bench` and `figaro arena`, never asserted here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ai/ai.h"   /* greedy_choose, the heuristic itself */
#include "figaro/bot.h"
#include "figaro/figaro.h"
#include "support_bot.h"

/* Plays a whole game with one bot per seat, checking after every action that
 * each bot's view of the game equals the seat's true view (R14: a bot knows its
 * own hand and the public record, nothing else, and loses nothing of it).
 * Returns the record in *g. */
static void play(fig_bot_t **bots, int players, uint64_t seed, fig_game_t *g)
{
    fig_setup_t setup;
    fig_msg_t msg;
    fig_setup_random(&setup, players, seed, NULL);
    fig_game_init(g, &setup);
    for (int s = 0; s < players; s++)
        assert_int_equal(fig_bot_game(bots[s], &setup, s, &msg), FIG_OK);
    while (!fig_game_over(g)) {
        if (g->state.phase == FIG_PHASE_DEAL) {
            fig_game_deal_seeded(g);
            for (int s = 0; s < players; s++)
                assert_int_equal(fig_bot_round(bots[s], &g->hands[g->dealt - 1][s], &msg),
                                 FIG_OK);
        }
        int turn = g->state.turn;
        fig_action_t a = fig_bot_choose(bots[turn], 0);
        if (fig_game_play(g, a, NULL, &msg) != FIG_OK)
            fail_msg("seed %llu: seat %d (%s) chose an illegal action: %s",
                     (unsigned long long)seed, turn, fig_bot_spec(bots[turn]), msg.text);
        for (int s = 0; s < players; s++) {
            if (fig_bot_move(bots[s], a, &msg) != FIG_OK)
                fail_msg("seed %llu: seat %d could not follow the game: %s",
                         (unsigned long long)seed, s, msg.text);
            fig_view_t mine, truth;
            fig_view_of(fig_bot_state(bots[s]), s, &mine);
            fig_view_of(&g->state, s, &truth);
            if (!fig_view_equal(&mine, &truth))
                fail_msg("seed %llu: seat %d's tracked view differs from the truth after %d "
                         "actions of round %d", (unsigned long long)seed, s,
                         g->nmoves[g->state.round - 1], g->state.round);
        }
    }
    for (int s = 0; s < players; s++) {
        fig_bot_game_over(bots[s]);
        assert_int_equal(fig_bot_overrules(bots[s]), 0);
    }
}

static void test_specs_and_levels_create_bots(void **state)
{
    (void)state;
    const char *good[] = { "random", "greedy", "novice", "careless", "ismcts", "ismcts:ms=50",
                           "ismcts:iters=100,threads=2,c=1.2,copp=0,win=0.3,mem=8",
                           "ismcts:iters=100,exact=0,temp=0.5,redraws=0",
                           "ismcts:iters=100,leaf=-1",
                           "ismcts:iters=100,leaf=0,leafcards=0,draws=1",
                           "beginner", "easy", "normal", "hard", "max" };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        fig_bot_t *bot = make_bot(good[i], 1);
        assert_string_equal(fig_bot_spec(bot), good[i]);
        fig_bot_free(bot);
    }
    fig_bot_free(NULL);
    /* The levels' one table: weakest first, each a spec fig_bot_new takes. */
    const char *levels[] = { "beginner", "easy", "normal", "hard", "max" };
    assert_int_equal(fig_bot_level_count(), 5);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(fig_bot_level_name(i), levels[i]);
        assert_int_equal(fig_bot_level_index(levels[i]), i);
    }
    assert_null(fig_bot_level_name(5));
    assert_null(fig_bot_level_name(-1));
    assert_int_equal(fig_bot_level_index("random"), -1);
    assert_int_equal(fig_bot_level_index(NULL), -1);
    /* The default level (docs/play.md, docs/protocol.md's fill) is one of them. */
    assert_string_equal(FIG_BOT_LEVEL_DEFAULT, "normal");
    assert_int_equal(fig_bot_level_index(FIG_BOT_LEVEL_DEFAULT), 2);
}

static void test_bad_specs_are_refused_with_a_reason(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *words;
    } bad[] = {
        { "", "not a bot" },
        { "chess", "not a bot" },
        { "random:ms=5", "takes no options" },
        { "ismcts:ms", "key=value" },
        { "ismcts:ms=", "needs a value" },
        { "ismcts:ms=0", "ms must be" },
        { "ismcts:ms=fast", "ms must be" },
        { "ismcts:iters=-3", "iters must be" },
        { "ismcts:threads=99", "threads must be" },
        { "ismcts:c=abc", "c must be" },
        { "ismcts:copp=-0.1", "copp must be" },
        { "ismcts:copp=0.3x", "copp must be" },
        { "ismcts:win=2", "win must be" },
        { "ismcts:wopp=1.5", "wopp must be" },
        { "ismcts:wopp=-1", "wopp must be" },
        { "ismcts:depth=3", "unknown option 'depth'" },
        { "ismcts:exact=2", "exact must be" },
        { "ismcts:temp=-1", "temp must be" },
        { "ismcts:leaf=-2", "leaf must be" },
        { "ismcts:leafcards=61", "leafcards must be" },
        { "ismcts:draws=0", "draws must be" },
        { "ismcts:infer=11", "infer must be" },
        { "beginner:iters=5", "not a bot" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fig_bot_t *bot = (fig_bot_t *)&bot;
        fig_msg_t msg = { "", 0 };
        assert_int_not_equal(fig_bot_new(&bot, bad[i].spec, 1, &msg), FIG_OK);
        assert_null(bot);
        if (!strstr(msg.text, bad[i].words))
            fail_msg("spec '%s': message '%s' lacks '%s'", bad[i].spec, msg.text, bad[i].words);
    }
}

/* Every built-in bot plays only legal actions and follows the game exactly,
 * for every number of players. */
static void test_bots_play_legal_games_r14_views(void **state)
{
    (void)state;
    const char *specs[] = { "random", "greedy", "ismcts:iters=40" };
    for (int players = 3; players <= 6; players++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            fig_bot_t *bots[FIG_MAX_PLAYERS];
            for (int s = 0; s < players; s++)
                bots[s] = make_bot(specs[(s + seed) % 3], seed * 10 + (uint64_t)s);
            fig_game_t g;
            play(bots, players, seed * 7 + (uint64_t)players, &g);
            for (int s = 0; s < players; s++)
                fig_bot_free(bots[s]);
        }
}

/* A bot that is told about a game it does not play in order refuses the
 * message instead of going wrong. */
static void test_bot_refuses_out_of_order_messages(void **state)
{
    (void)state;
    fig_bot_t *bot = make_bot("greedy", 1);
    fig_msg_t msg;
    fig_hand_t hand;
    memset(&hand, 0, sizeof hand);
    assert_int_not_equal(fig_bot_round(bot, &hand, &msg), FIG_OK);
    assert_int_not_equal(fig_bot_move(bot, FIG_ACT_TAKE, &msg), FIG_OK);
    assert_int_equal(fig_bot_choose(bot, 0), FIG_ACT_NONE);
    fig_setup_t setup;
    fig_setup_random(&setup, 4, 3, NULL);
    assert_int_not_equal(fig_bot_game(bot, &setup, 4, &msg), FIG_OK);   /* no seat 4 */
    assert_int_equal(fig_bot_game(bot, &setup, 1, &msg), FIG_OK);
    assert_int_not_equal(fig_bot_round(bot, &hand, &msg), FIG_OK);      /* 0 cards */
    assert_int_not_equal(fig_bot_move(bot, FIG_ACT_TAKE, &msg), FIG_OK); /* not dealt */
    fig_bot_free(bot);
}

/* Sets up a bot in a seeded 4-player game at its turn after `actions`
 * actions of greedy players in the first round (at least; the bot's seat is
 * the one to move then). */
static fig_bot_t *at_turn(const char *spec, uint64_t bot_seed, int actions)
{
    fig_setup_t setup;
    fig_game_t g;
    fig_setup_random(&setup, 4, 99, NULL);
    fig_game_init(&g, &setup);
    fig_game_deal_seeded(&g);
    fig_rng_t rng;
    fig_rng_seed(&rng, 3);
    for (int i = 0; i < actions; i++)
        assert_int_equal(fig_game_play(&g, greedy_choose(&g.state, &rng), NULL, NULL), FIG_OK);
    assert_int_equal(g.state.round, 1);
    int seat = g.state.turn;
    fig_bot_t *bot = make_bot(spec, bot_seed);
    assert_int_equal(fig_bot_game(bot, &setup, seat, NULL), FIG_OK);
    assert_int_equal(fig_bot_round(bot, &g.hands[0][seat], NULL), FIG_OK);
    for (int i = 0; i < actions; i++)
        assert_int_equal(fig_bot_move(bot, g.moves[0][i].action, NULL), FIG_OK);
    return bot;
}

/* Sets up a bot at the first turn of a seeded 4-player game. */
static fig_bot_t *at_first_turn(const char *spec, uint64_t bot_seed)
{
    return at_turn(spec, bot_seed, 0);
}

static void test_ismcts_is_deterministic_for_an_iteration_budget(void **state)
{
    (void)state;
    const char *specs[] = { "ismcts:iters=600", "ismcts:iters=600,threads=2" };
    for (int i = 0; i < 2; i++) {
        fig_action_t first = FIG_ACT_NONE;
        for (int run = 0; run < 3; run++) {
            fig_bot_t *bot = at_first_turn(specs[i], 42);
            fig_action_t a = fig_bot_choose(bot, 0);
            if (run == 0)
                first = a;
            assert_int_equal(a, first);
            fig_bot_free(bot);
        }
    }
    /* and whole games too: the same seeds give the same record */
    fig_game_t g1, g2;
    for (int run = 0; run < 2; run++) {
        fig_bot_t *bots[3];
        for (int s = 0; s < 3; s++)
            bots[s] = make_bot(s ? "greedy" : "ismcts:iters=30", (uint64_t)s + 5);
        play(bots, 3, 77, run ? &g2 : &g1);
        for (int s = 0; s < 3; s++)
            fig_bot_free(bots[s]);
    }
    char a[16384], b[16384];
    fig_fgn_write(&g1, a, sizeof a);
    fig_fgn_write(&g2, b, sizeof b);
    assert_string_equal(a, b);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A time budget is a promise to the host: the bot answers within it (with a
 * generous margin for a loaded machine and the sanitizers). */
static void test_ismcts_honours_time_budgets(void **state)
{
    (void)state;
    fig_bot_t *bot = at_first_turn("ismcts:ms=100", 1);
    double t0 = seconds();
    fig_action_t a = fig_bot_choose(bot, 0);
    double own = seconds() - t0;
    assert_int_not_equal(a, FIG_ACT_NONE);
    assert_true(own < 0.100 + 0.5);
    assert_true(own >= 0.090);   /* it does use its time */
    fig_bot_free(bot);
    /* the host's shorter limit wins over the bot's own */
    bot = at_first_turn("ismcts:ms=5000", 1);
    t0 = seconds();
    a = fig_bot_choose(bot, 50);
    assert_true(seconds() - t0 < 0.050 + 0.5);
    assert_int_not_equal(a, FIG_ACT_NONE);
    fig_bot_free(bot);
}

/* A search's memory: one that suffices plays the same whichever memory it
 * runs in (the bot's own pool or a host's scratch block); one that fills up
 * (160 KiB: room for about 1,200 nodes, full after about 1,100 iterations) stops
 * expanding but keeps sampling to the end of its budget, answers legally and
 * never writes outside its block (the block is malloc'd to its exact size, so
 * AddressSanitizer sees any write past it). */
static void memory_case(const char *spec, int actions)
{
    fig_bot_t *own = at_turn(spec, 3, actions);
    fig_action_t a = fig_bot_choose(own, 0);
    fig_analysis_t an_own, an;
    assert_true(fig_bot_analysis(own, &an_own));

    size_t sizes[] = { 8u << 20, 160u << 10 };
    for (int i = 0; i < 2; i++) {
        fig_scratch_t scratch = { malloc(sizes[i]), sizes[i] };
        assert_non_null(scratch.mem);
        fig_bot_t *bot = at_turn(spec, 3, actions);
        fig_action_t b = fig_bot_choose_with(bot, 0, &scratch, NULL);
        assert_int_equal(fig_state_check(fig_bot_state(bot), b, NULL), FIG_OK);
        assert_int_equal(fig_bot_overrules(bot), 0);
        assert_true(fig_bot_analysis(bot, &an));
        assert_int_equal(an.iterations, 3000);
        if (i == 0) {   /* enough memory: the same search */
            assert_int_equal(b, a);
            assert_int_equal(an.n, an_own.n);
            for (int k = 0; k < an.n; k++)
                assert_int_equal(an.moves[k].visits, an_own.moves[k].visits);
        }
        fig_bot_free(bot);
        free(scratch.mem);
    }
    fig_bot_free(own);
}

static void test_ismcts_memory(void **state)
{
    (void)state;
    /* with infer, after others have played: the pool of weighed states comes
     * out of the same memory (in the small block, none: see mcts.c) */
    const char *specs[] = { "ismcts:iters=3000,infer=0", "ismcts:iters=3000" };
    for (int v = 0; v < 2; v++)
        memory_case(specs[v], v ? 20 : 0);
}

/* Each spec thinks once from the same turn (at_turn) and seed; its root into an[i]. */
static void root_analyses(const char *const specs[], int n, uint64_t seed, int actions,
                          fig_analysis_t an[])
{
    for (int i = 0; i < n; i++) {
        fig_bot_t *bot = at_turn(specs[i], seed, actions);
        fig_bot_choose(bot, 0);
        assert_true(fig_bot_analysis(bot, &an[i]));
        fig_bot_free(bot);
    }
}

/* Whether two roots differ in a move or in its visits. */
static bool roots_differ(const fig_analysis_t *a, const fig_analysis_t *b)
{
    bool differs = a->n != b->n;
    for (int k = 0; k < a->n && !differs; k++)
        differs = a->moves[k].action != b->moves[k].action ||
                  a->moves[k].visits != b->moves[k].visits;
    return differs;
}

/* copp, the exploration constant at the other seats' choices, reaches the
 * search: from the same position and seed, the root's visits differ when only
 * copp does (the root is the bot's own choice, so they differ through what the
 * search expects of the others below it). */
static void test_ismcts_copp_shapes_the_search(void **state)
{
    (void)state;
    const char *specs[] = { "ismcts:iters=3000", "ismcts:iters=3000,copp=0.35",
                            "ismcts:iters=3000,copp=2" };
    fig_analysis_t an[3];
    root_analyses(specs, 3, 11, 0, an);
    assert_false(roots_differ(&an[0], &an[1]));   /* the default is 0.35: the same search */
    assert_true(roots_differ(&an[0], &an[2]));
}

/* wopp, what the search assumes the other seats play for, reaches the search
 * and is the bot's own `win` unless given: the same search with wopp written
 * as the default's win, another with wopp=1 (the root is the bot's own choice,
 * so they differ through what it expects of the others below it). */
static void test_ismcts_wopp_shapes_the_search(void **state)
{
    (void)state;
    const char *specs[] = { "ismcts:iters=3000", "ismcts:iters=3000,wopp=0.5",
                            "ismcts:iters=3000,wopp=1", "ismcts:iters=3000,win=1",
                            "ismcts:iters=3000,win=1,wopp=1" };
    fig_analysis_t an[5];
    root_analyses(specs, 5, 11, 0, an);
    assert_false(roots_differ(&an[0], &an[1]));
    assert_true(roots_differ(&an[0], &an[2]));
    assert_false(roots_differ(&an[3], &an[4]));   /* wopp follows win */
    assert_true(roots_differ(&an[2], &an[4]));
}

/* The learned leaf (leaf.h) reaches the search, and so do its options: from
 * the same position and seed, the defaults (leaf=4,leafcards=30,draws=8) search
 * alike when written out, and differently with leaf=-1 (playouts to the
 * round's end) or another number of draws. */
static void test_ismcts_leaf_shapes_the_search(void **state)
{
    (void)state;
    const char *specs[] = { "ismcts:iters=3000", "ismcts:iters=3000,leaf=4,leafcards=30,draws=8",
                            "ismcts:iters=3000,leaf=-1", "ismcts:iters=3000,draws=2" };
    fig_analysis_t an[4];
    root_analyses(specs, 4, 12, 0, an);
    assert_false(roots_differ(&an[0], &an[1]));
    assert_true(roots_differ(&an[0], &an[2]));
    assert_true(roots_differ(&an[0], &an[3]));
}

/* infer, the others' hands weighed by their play (infer.h), reaches the
 * search once others have played: at the first turn of a round there is
 * nothing to read and the default searches as infer=0 does; 20 actions later
 * it searches differently, and infer=5 is the default written out. */
static void test_ismcts_infer_shapes_the_search(void **state)
{
    (void)state;
    const char *specs[] = { "ismcts:iters=3000", "ismcts:iters=3000,infer=5",
                            "ismcts:iters=3000,infer=0" };
    fig_analysis_t an[3];
    root_analyses(specs, 3, 13, 0, an);
    assert_false(roots_differ(&an[0], &an[2]));
    root_analyses(specs, 3, 13, 20, an);
    assert_false(roots_differ(&an[0], &an[1]));
    assert_true(roots_differ(&an[0], &an[2]));
}

/* Greedy's character (docs/bots.md): it never plays a card that makes its own
 * pile collect when some action collects nothing. Checked over every position
 * of random games. */
static void test_greedy_never_feeds_its_own_pile_to_six(void **state)
{
    (void)state;
    fig_rng_t rng;
    fig_rng_seed(&rng, 8);
    int checked = 0;
    for (uint64_t seed = 0; seed < 40; seed++) {
        fig_setup_t setup;
        fig_state_t st;
        fig_setup_random(&setup, 3 + (int)(seed % 4), seed, NULL);
        fig_state_init(&st, &setup);
        while (st.phase != FIG_PHASE_OVER) {
            if (st.phase == FIG_PHASE_DEAL)
                fig_state_deal(&st, &rng);
            fig_action_t moves[FIG_MAX_ACTIONS];
            int n = fig_state_legal(&st, moves), me = st.turn, harmless = 0;
            for (int i = 0; i < n && !harmless; i++) {
                fig_state_t after = st;
                fig_state_apply_legal(&after, moves[i], NULL);
                harmless = after.phase != FIG_PHASE_PLAY || after.stack[me] == st.stack[me];
            }
            fig_action_t a = greedy_choose(&st, &rng);
            fig_state_t after = st;
            fig_state_apply_legal(&after, a, NULL);
            if (harmless && after.phase == FIG_PHASE_PLAY && !fig_act_is_take(a) &&
                after.stack[me] > st.stack[me])
                fail_msg("seed %llu: greedy fed its own pile to 6 with a harmless play at hand",
                         (unsigned long long)seed);
            checked++;
            fig_state_apply_legal(&st, fig_state_random_action(&st, &rng), NULL);
        }
    }
    assert_true(checked > 1000);
}

/* The beginner level (careless) and the newcomer it is measured against
 * (novice) take only when they must: a take when a card may go is the one
 * move a person who knows the rules never makes. The novice never makes
 * itself collect when some card does not; beginner plays any card, so over
 * whole games it sometimes does (it is no search: the same moves as a
 * uniform draw among the plays). Checked at every turn of whole games
 * against greedy. */
static void test_beginner_and_novice_take_only_when_they_must(void **state)
{
    (void)state;
    int checked = 0, careless_collects = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        int players = 3 + (int)(seed % 4), seat = (int)(seed % (uint64_t)players);
        const char *spec = seed % 2 ? "beginner" : "novice";
        fig_setup_t setup;
        fig_game_t g;
        fig_msg_t msg;
        fig_rng_t rng;
        fig_rng_seed(&rng, seed);
        fig_setup_random(&setup, players, seed, NULL);
        fig_game_init(&g, &setup);
        fig_bot_t *bot = make_bot(spec, seed);
        assert_int_equal(fig_bot_game(bot, &setup, seat, &msg), FIG_OK);
        while (!fig_game_over(&g)) {
            if (g.state.phase == FIG_PHASE_DEAL) {
                fig_game_deal_seeded(&g);
                assert_int_equal(fig_bot_round(bot, &g.hands[g.dealt - 1][seat], &msg), FIG_OK);
            }
            fig_action_t a = greedy_choose(&g.state, &rng);
            if (g.state.turn == seat) {
                fig_action_t moves[FIG_MAX_ACTIONS];
                int n = fig_state_legal(&g.state, moves), plays = 0, harmless = 0;
                for (int i = 0; i < n; i++) {
                    if (fig_act_is_take(moves[i]))
                        continue;
                    plays++;
                    fig_state_t after = g.state;
                    fig_state_apply_legal(&after, moves[i], NULL);
                    harmless += after.stack[seat] == g.state.stack[seat];
                }
                a = fig_bot_choose(bot, 0);
                if (plays && fig_act_is_take(a))
                    fail_msg("seed %llu: %s took when a card could go", (unsigned long long)seed,
                             spec);
                fig_state_t after = g.state;
                fig_state_apply_legal(&after, a, NULL);
                bool collects = after.stack[seat] > g.state.stack[seat];
                if (!fig_act_is_take(a) && collects && harmless) {
                    if (seed % 2 == 0)
                        fail_msg("seed %llu: novice made itself collect with a harmless card "
                                 "at hand", (unsigned long long)seed);
                    careless_collects++;
                }
                checked++;
            }
            assert_int_equal(fig_game_play(&g, a, NULL, &msg), FIG_OK);
            assert_int_equal(fig_bot_move(bot, a, &msg), FIG_OK);
        }
        fig_bot_free(bot);
    }
    assert_true(checked > 100);
    assert_true(careless_collects > 0);   /* the test can tell the two apart */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs_and_levels_create_bots),
        cmocka_unit_test(test_bad_specs_are_refused_with_a_reason),
        cmocka_unit_test(test_bots_play_legal_games_r14_views),
        cmocka_unit_test(test_bot_refuses_out_of_order_messages),
        cmocka_unit_test(test_ismcts_is_deterministic_for_an_iteration_budget),
        cmocka_unit_test(test_ismcts_honours_time_budgets),
        cmocka_unit_test(test_ismcts_memory),
        cmocka_unit_test(test_ismcts_copp_shapes_the_search),
        cmocka_unit_test(test_ismcts_wopp_shapes_the_search),
        cmocka_unit_test(test_ismcts_leaf_shapes_the_search),
        cmocka_unit_test(test_ismcts_infer_shapes_the_search),
        cmocka_unit_test(test_greedy_never_feeds_its_own_pile_to_six),
        cmocka_unit_test(test_beginner_and_novice_take_only_when_they_must),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
