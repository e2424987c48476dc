/* SPDX-License-Identifier: MIT */
/* sheet.c - the score sheet as one seat may see it (sheet.h): the finished
 * rounds' stacks and pieces from the record, the current stacks and the roads
 * from the seat's view, each number kept or masked here alone (R14). */
#include <string.h>

#include "figaro/view.h"
#include "host/sheet.h"

static fig_sheet_cell_t number(int value)
{
    return (fig_sheet_cell_t){ FIG_SHEET_NUMBER, value };
}

static fig_sheet_cell_t hidden(void)
{
    return (fig_sheet_cell_t){ FIG_SHEET_HIDDEN, 0 };
}

void fig_sheet_make(const fig_game_t *g, int me, bool open, fig_sheet_t *out)
{
    memset(out, 0, sizeof *out);
    out->players = g->setup.players;
    out->me = me;
    fig_view_t v;
    fig_view_of(&g->state, me, &v);   /* a seat out of range: zeroed, all hidden */
    out->open = open || v.phase == FIG_PHASE_OVER;
    fig_round_result_t res[FIG_ROUNDS];
    int rounds = fig_game_results(g, res);
    int current = v.phase == FIG_PHASE_PLAY ? v.round - 1 : -1;
    for (int s = 0; s < out->players; s++) {
        bool see = out->open || s == me;
        for (int r = 0; r < FIG_ROUNDS; r++) {
            if (r < rounds) {
                int piece = res[r].pieces[s];
                out->cards[r][s] = see ? number(res[r].stacks[s]) : hidden();
                out->piece[r][s] = !piece ? (fig_sheet_cell_t){ FIG_SHEET_NO_PIECE, 0 }
                                 : see    ? number(piece)
                                          : hidden();
            } else if (r == current) {   /* the round being played: its stacks */
                out->cards[r][s] = out->open ? number(v.stack[s])
                                             : (fig_sheet_cell_t){ FIG_SHEET_UNKNOWN, 0 };
            }
        }
        out->road[s] = see ? number(fig_view_road(&v, s)) : hidden();
    }
}
