/* SPDX-License-Identifier: MIT */
/* tui_hint.c - the full-screen game's hint (host/hint.h): asked on the
 * person's turn, answered on the pool by the strongest level told only what
 * the person's seat knows (R14), then shown with its one reason in the
 * status, its top moves in the log, and the move preselected so that Enter
 * plays it. An answer for a position the game has left is asked again. */
#include <stdio.h>

#include "host/hint.h"
#include "tui/tui.h"

static void show_hint(tui_t *t)
{
    t->hint.wanted = false;
    tui_status(t, false, "%s", t->hint.text);
    if (!t->hint.logged) {   /* why, and the search's top moves, once per hint */
        t->hint.logged = true;
        for (int i = 0; i < t->hint.nmore; i++)
            tui_log(t, "%s", t->hint.more[i]);
    }
    fig_action_t a = t->hint.action;
    if (fig_act_is_take(a))
        return;
    for (int i = 0; i < t->nslots; i++)
        if (t->slot_kind[i] == fig_act_kind(a)) {
            t->slot = i;
            t->target = fig_act_target(a);
        }
    t->dirty = true;
}

void tui_ask_hint(tui_t *t)
{
    tui_hint_t *h = &t->hint;
    if (!t->my_turn) {
        tui_status(t, false, "%s", _("A hint is for your turn."));
        return;
    }
    long pos = tui_position(t);
    if (h->have && h->position == pos) {
        show_hint(t);
        return;
    }
    h->wanted = true;
    tui_status(t, false, "%s", _("Thinking about a hint..."));
    if (fig_hint_busy(h->handle))
        return;   /* an older question is still out: ask when it is back */
    fig_msg_t msg;
    if (fig_hint_ask(h->handle, fig_match_game(t->m), t->me, NULL, pos, &msg) != FIG_OK) {
        h->wanted = false;
        tui_status(t, true, _("No hint: %s"), fig_tr_text(t->tr, msg.text));
    }
}

/* The hint's answer is in: explain it, show it if still wanted. */
void tui_hint_done(tui_t *t)
{
    tui_hint_t *h = &t->hint;
    fig_action_t a;
    long pos;
    if (!fig_hint_take(h->handle, &a, &pos))
        return;
    if (pos == tui_position(t)) {
        h->position = pos;
        h->action = a;
        fig_analysis_t an;
        fig_hint_text_t ht;
        tui_explain_search(t, a, fig_hint_analysis(h->handle, &an) ? &an : NULL, &ht);
        snprintf(h->text, sizeof h->text, "%s%s%s", ht.headline, ht.reason[0] ? " " : "",
                 ht.reason);
        h->nmore = 0;
        snprintf(h->more[h->nmore++], sizeof h->more[0], "%s", h->text);
        for (int i = 0; i < ht.n; i++)
            snprintf(h->more[h->nmore++], sizeof h->more[0], "  %d. %s", i + 1, ht.moves[i].line);
        h->logged = false;
        h->have = true;
    }
    if (h->wanted && t->my_turn) {
        if (h->have && h->position == tui_position(t))
            show_hint(t);
        else
            tui_ask_hint(t);   /* the position moved on while it thought */
    }
}
