/* SPDX-License-Identifier: MIT */
/* table_hint.c - the hint of a table (table.h: fig_table_hint): one
 * search per turn on the shared pool, its answer to the peer that asked
 * alone, dropped if the turn moves on first. */
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

/* ---- hints */

/* Stops the hint being thought of, if any: its worker stops early. */
void fig_tb_hint_cancel(fig_table_t *t)
{
    if (!t->hint.h)
        return;
    t->env->unwatch(t->env->svc, fig_hint_fd(t->hint.h));
    fig_hint_free(t->hint.h);
    t->hint.h = NULL;
    t->hint.peer = NULL;
}

fig_proto_code_t fig_table_hint(fig_table_t *t, void *p, const fig_tr_t *tr, long long n,
                                fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return fig_tb_not_seated(t, tr, msg);
    if (!t->row.hints) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("this table was made without hints"));
        return FIG_PC_HINTS_OFF;
    }
    if (!t->match) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("the game has not started: seats are still "
                                               "open"));
        return FIG_PC_NOT_STARTED;
    }
    if (n != t->game_n) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("that hint answers event %lld, but the game is "
                                               "at event %lld"), n, t->game_n);
        return FIG_PC_STALE;
    }
    if (t->inflight || fig_match_status(t->match) != FIG_MATCH_WAIT_HUMAN ||
        fig_match_turn(t->match) != s || t->seat[s].bot_plays) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a hint is for your turn"));
        return FIG_PC_NOT_YOUR_TURN;
    }
    if (t->hint.h && t->hint.seat == s) {   /* asked already for this turn: one search */
        t->hint.peer = p;
        t->hint.tr = tr;
        return FIG_PC_NONE;
    }
    fig_msg_t why;
    if (fig_hint_new(&t->hint.h, t->env->pool, &why) ||
        fig_hint_ask(t->hint.h, fig_match_game(t->match), s, NULL, (long)n, &why)) {
        fig_hint_free(t->hint.h);
        t->hint.h = NULL;
        fig_logf(t->env->log, t->env->svc, t->logp, "no hint: %s", why.text);
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    t->env->watch(t->env->svc, fig_hint_fd(t->hint.h), t);
    t->hint.peer = p;
    t->hint.tr = tr;
    t->hint.seat = s;
    return FIG_PC_NONE;
}

/* The hint's answer, if it is in, goes to the seat that asked (its hand
 * shows in it: nobody else ever gets it, R14), in their language. */
void fig_tb_hint_done(fig_table_t *t)
{
    fig_action_t a;
    long tag;
    if (!t->hint.h || !fig_hint_take(t->hint.h, &a, &tag))
        return;
    int i = t->hint.peer ? peer_index(t, t->hint.peer) : -1;
    if (i >= 0 && tag == t->game_n && t->peers[i].seat == t->hint.seat &&
        !t->seat[t->hint.seat].bot_plays) {
        fig_view_t v;
        fig_match_view(t->match, t->hint.seat, &v);
        fig_analysis_t an;
        bool has = fig_hint_analysis(t->hint.h, &an);
        fig_narrator_t nr;
        fig_tb_narrator_init(t, &nr, t->hint.seat, t->hint.tr, fig_tb_card_cb, NULL, NULL);
        fig_hint_text_t *ht = malloc(sizeof *ht);
        if (ht) {
            fig_hint_explain(&nr, &v, a, has ? &an : NULL, ht);
            fig_tb_send_json(t, &t->peers[i], fig_proto_hint(t->row.code, tag, ht));
            free(ht);
        }
    }
    fig_tb_hint_cancel(t);
}
