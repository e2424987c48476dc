/* SPDX-License-Identifier: MIT */
/* invariants.c - whole-record invariant checks (invariants.h).
 *
 * The replay keeps what the state alone does not: the kinds collected into
 * stacks this round (the state keeps only the counts), taken from the table
 * as it lay before each collecting action, so conservation is checked kind by
 * kind and not only in total. */
#include <stdio.h>
#include <string.h>

#include "invariants.h"
#include "support.h"

#define FAIL(...) (snprintf(why, cap, __VA_ARGS__), false)

/* The state checks of support.h, with where we are in the record. */
static bool check_now(const fig_state_t *st, const fig_hand_t *stacked, int round, int action,
                      char *why, size_t cap)
{
    char what[200];
    if (st->king >= st->players)
        return FAIL("round %d, action %d: King at seat %d of %d", round, action, st->king,
                    st->players);
    if (!sup_check_state(st, what, sizeof what))
        return FAIL("round %d, action %d: %s", round, action, what);
    if (round > 0 && !sup_check_cards(st, stacked, what, sizeof what))
        return FAIL("round %d, action %d: %s", round, action, what);
    return true;
}

bool inv_check_game(const fig_game_t *g, char *why, size_t cap)
{
    fig_game_t r;
    fig_msg_t msg;
    fig_setup_t setup = g->setup;
    if (fig_setup_check(&setup, &msg) != FIG_OK)
        return FAIL("the setup does not check: %s", msg.text);
    if (g->dealt < 0 || g->dealt > FIG_ROUNDS)
        return FAIL("%d rounds dealt", g->dealt);
    fig_game_init(&r, &setup);
    if (!check_now(&r.state, NULL, 0, 0, why, cap))
        return false;
    for (int round = 1; round <= g->dealt; round++) {
        fig_hand_t stacked;
        memset(&stacked, 0, sizeof stacked);
        if (fig_game_deal(&r, g->hands[round - 1], &msg) != FIG_OK)
            return FAIL("round %d: the deal does not replay: %s", round, msg.text);
        if (!check_now(&r.state, &stacked, round, 0, why, cap))
            return false;
        if (g->nmoves[round - 1] < 0 || g->nmoves[round - 1] > FIG_MAX_ROUND_ACTIONS)
            return FAIL("round %d: %d actions", round, g->nmoves[round - 1]);
        for (int i = 0; i < g->nmoves[round - 1]; i++) {
            const fig_move_t *m = &g->moves[round - 1][i];
            fig_state_t before = r.state;
            fig_events_t ev;
            if (m->seat != before.turn)
                return FAIL("round %d, action %d: by seat %d, seat %d is to move", round, i + 1,
                            m->seat, before.turn);
            if (fig_game_play(&r, m->action, &ev, &msg) != FIG_OK)
                return FAIL("round %d, action %d: refused on replay: %s", round, i + 1,
                            msg.text);
            for (int j = 0; j < ev.n; j++)
                if (ev.ev[j].type == FIG_EV_COLLECT) {   /* the table goes to a stack */
                    fig_hand_t table;
                    sup_table_kinds(&before, &table);
                    for (int k = 0; k < FIG_KINDS; k++)
                        stacked.n[k] = (uint8_t)(stacked.n[k] + table.n[k]);
                    if (!fig_act_is_take(m->action))
                        stacked.n[fig_act_kind(m->action)]++;
                }
            if (!check_now(&r.state, &stacked, round, i + 1, why, cap))
                return false;
        }
    }
    if (memcmp(&r.state, &g->state, sizeof r.state) != 0)
        return FAIL("the replayed record ends in another state than the game's");
    return true;
}

bool inv_check_fgn(const fig_game_t *g, char *buf1, char *buf2, size_t cap, char *why,
                   size_t whycap)
{
    fig_game_t back;
    fig_msg_t msg;
    size_t n1 = fig_fgn_write(g, buf1, cap);
    if (n1 >= cap || strlen(buf1) != n1)
        return snprintf(why, whycap, "FGN write: %zu bytes", n1), false;
    if (fig_fgn_read(&back, buf1, n1, &msg) != FIG_OK)
        return snprintf(why, whycap, "FGN read back fails at line %d: %s", msg.line, msg.text),
               false;
    size_t n2 = fig_fgn_write(&back, buf2, cap);
    if (n1 != n2 || memcmp(buf1, buf2, n1) != 0)
        return snprintf(why, whycap, "FGN write-read-write differs"), false;
    if (memcmp(&back.state, &g->state, sizeof back.state) != 0)
        return snprintf(why, whycap, "the record read back is in another state"), false;
    return true;
}

#undef FAIL
