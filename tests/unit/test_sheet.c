/* SPDX-License-Identifier: MIT */
/* test_sheet.c - the score sheet as one seat sees it (src/host/sheet.h), the
 * one place that decides what the full-screen sheet and plain mode's `score`
 * show: over random games, replayed action by action, for every seat,
 *   - during play (R14) another seat's cards, pieces and road are hidden and
 *     hold no number; the seat's own are the record's; a missing piece is
 *     said whoever got none (that much is public);
 *   - with `open`, and once the game is over, every number is the record's;
 *   - the stacks of the round being played show only with `open`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/sheet.h"

static void check_number(const fig_sheet_cell_t *c, int want)
{
    assert_int_equal(c->mark, FIG_SHEET_NUMBER);
    assert_int_equal(c->value, want);
}

/* Checks the sheet of g for every seat, open and not. */
static void check_sheets(const fig_game_t *g)
{
    fig_round_result_t res[FIG_ROUNDS];
    int rounds = fig_game_results(g, res);
    bool over = fig_game_over(g);
    int current = g->state.phase == FIG_PHASE_PLAY ? g->state.round - 1 : -1;
    for (int me = 0; me < g->setup.players; me++)
        for (int open = 0; open < 2; open++) {
            fig_sheet_t sh;
            fig_sheet_make(g, me, open, &sh);
            assert_int_equal(sh.players, g->setup.players);
            assert_int_equal(sh.open, open || over);
            fig_view_t v;
            fig_view_of(&g->state, me, &v);
            for (int s = 0; s < g->setup.players; s++) {
                bool see = open || over || s == me;
                for (int r = 0; r < FIG_ROUNDS; r++) {
                    const fig_sheet_cell_t *c = &sh.cards[r][s], *p = &sh.piece[r][s];
                    if (r < rounds) {
                        if (see)
                            check_number(c, res[r].stacks[s]);
                        else
                            assert_true(c->mark == FIG_SHEET_HIDDEN && c->value == 0);
                        if (!res[r].pieces[s])
                            assert_int_equal(p->mark, FIG_SHEET_NO_PIECE);
                        else if (see)
                            check_number(p, res[r].pieces[s]);
                        else
                            assert_true(p->mark == FIG_SHEET_HIDDEN && p->value == 0);
                    } else if (r == current) {
                        if (open || over)
                            check_number(c, v.stack[s]);
                        else
                            assert_true(c->mark == FIG_SHEET_UNKNOWN && c->value == 0);
                        assert_int_equal(p->mark, FIG_SHEET_BLANK);
                    } else {
                        assert_int_equal(c->mark, FIG_SHEET_BLANK);
                        assert_int_equal(p->mark, FIG_SHEET_BLANK);
                    }
                }
                if (see)
                    check_number(&sh.road[s], fig_state_road(&g->state, s));
                else
                    assert_true(sh.road[s].mark == FIG_SHEET_HIDDEN && sh.road[s].value == 0);
            }
        }
}

static void test_r14_sheet_over_random_games(void **state)
{
    (void)state;
    int hidden_seen = 0;
    for (uint64_t seed = 0; seed < 12; seed++) {
        fig_setup_t setup;
        fig_game_t full, g;
        fig_rng_t rng;
        fig_rng_seed(&rng, seed);
        fig_setup_random(&setup, 3 + (int)(seed % 4), seed, NULL);
        fig_game_random(&full, &setup, &rng);
        fig_game_init(&g, &setup);
        for (int r = 0; r < full.dealt; r++) {
            fig_msg_t msg;
            assert_int_equal(fig_game_deal(&g, full.hands[r], &msg), FIG_OK);
            check_sheets(&g);
            for (int i = 0; i < full.nmoves[r]; i++) {
                fig_events_t ev;
                assert_int_equal(fig_game_play(&g, full.moves[r][i].action, &ev, &msg), FIG_OK);
                if (i % 7 == 0 || i + 1 == full.nmoves[r])
                    check_sheets(&g);
            }
            fig_sheet_t sh;
            fig_sheet_make(&g, 0, false, &sh);
            for (int s = 1; s < g.setup.players; s++)
                hidden_seen += sh.road[s].mark == FIG_SHEET_HIDDEN;
        }
        assert_true(fig_game_over(&g));
    }
    assert_true(hidden_seen > 0);   /* the sweep did see hidden numbers */
}

/* A seat out of range gets a sheet with nothing of anyone shown. */
static void test_sheet_seat_out_of_range(void **state)
{
    (void)state;
    fig_setup_t setup;
    fig_game_t g;
    fig_rng_t rng;
    fig_rng_seed(&rng, 3);
    fig_setup_random(&setup, 4, 3, NULL);
    fig_game_init(&g, &setup);
    fig_game_deal_seeded(&g);
    fig_sheet_t sh;
    fig_sheet_make(&g, 9, false, &sh);
    for (int s = 0; s < 4; s++)
        assert_int_equal(sh.road[s].mark, FIG_SHEET_HIDDEN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r14_sheet_over_random_games),
        cmocka_unit_test(test_sheet_seat_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
