/* SPDX-License-Identifier: MIT */
/* table_record.c - a table's games for download and review (table.h:
 * fig_table_record, fig_table_review_seat, fig_table_narrator): only once a
 * game is over, since its record holds every hand. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/fep_host.h"
#include "host/narrate.h"
#include "host/session.h"
#include "host/util.h"
#include "net/table/table.h"
#include "net/table/table_internal.h"
#include "net/base/token.h"

static fig_err_t not_over(fig_msg_t *msg, int game)
{
    return fig_fail(msg, FIG_ERR_STATE, N_("game %d is not over: its record holds every hand"),
                    game);
}

fig_proto_code_t fig_table_review_seat(const fig_table_t *t, const void *peer,
                                       const fig_tr_t *tr, int game, int asked, int *seat,
                                       fig_msg_t *msg)
{
    int i = peer_index(t, peer);
    int s = i >= 0 ? t->peers[i].seat : -1;
    if (s < 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("only the people seated at the table may see a "
                                               "review, each of their own moves"));
        return FIG_PC_NOT_SEATED;
    }
    if (asked >= 0 && asked != s) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a review is of your own moves: you sit at seat "
                                               "%d, not %d"), s, asked);
        return FIG_PC_NOT_YOUR_SEAT;
    }
    if (game < 1 || game > t->game || !t->match) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("table %s has no game %d"), t->row.code, game);
        return FIG_PC_NOT_OVER;
    }
    if (game == t->game && (running(t) || t->inflight)) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("game %d is not over: its review comes after "
                                               "its end"), game);
        return FIG_PC_NOT_OVER;
    }
    *seat = s;
    return FIG_PC_NONE;
}

void fig_table_narrator(const fig_table_t *t, int me, const fig_tr_t *tr, fig_narrator_t *nr)
{
    fig_tb_narrator_init(t, nr, me, tr, fig_tb_card_cb, NULL, NULL);
}

fig_err_t fig_table_record(const fig_table_t *t, int game, fig_game_t *out, bool *stored,
                           fig_msg_t *msg)
{
    if (game < 1 || game > t->game || !t->match)
        return fig_fail(msg, FIG_ERR_INPUT, N_("table %s has no game %d"), t->row.code, game);
    *stored = game < t->game;
    if (*stored) {
        memset(out, 0, sizeof *out);
    } else {
        if (running(t) || t->inflight)   /* its last action may not be on the disk yet */
            return not_over(msg, game);
        *out = *fig_match_game(t->match);
    }
    out->has_names = true;
    fig_tb_record_names(t, out->names);
    return FIG_OK;
}

fig_err_t fig_table_record_stored(const fig_db_game_t *g, int game,
                                  const char names[][FIG_NAME_MAX + 1], fig_game_t *out,
                                  fig_msg_t *msg)
{
    fig_err_t rc = fig_db_game_record(g, out, msg);
    if (rc)
        return rc;
    if (!fig_game_over(out))
        return not_over(msg, game);
    out->has_names = true;
    memcpy(out->names, names, sizeof out->names);
    return FIG_OK;
}
