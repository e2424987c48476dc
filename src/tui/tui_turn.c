/* SPDX-License-Identifier: MIT */
/* tui_turn.c - the full-screen game's state between keys: the status line,
 * the person's choice (the card selected, the seat it would go to, kept on
 * one where it does no harm), the person's view and legal actions refreshed
 * after every step, the steps of the match told and paced, a move played or
 * refused in the person's words, and the game saved after every step
 * (store.h) or filed in the history at its end. What the person may play is
 * read from their view alone (R14): their hand and the piles. */
#include <stdarg.h>
#include <stdio.h>

#include "host/narrate.h"
#include "host/store.h"
#include "host/util.h"
#include "tui/tui.h"

void tui_status(tui_t *t, bool warn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->status, sizeof t->status, fmt, ap);
    va_end(ap);
    t->status_warn = warn;
    t->dirty = true;
}

/* Actions and deals in the record so far: names a position for the hint. */
long tui_position(const tui_t *t)
{
    const fig_game_t *g = fig_match_game(t->m);
    long p = g->dealt;
    for (int r = 0; r < g->dealt; r++)
        p += g->nmoves[r];
    return p;
}

/* ---- the person's choice ---- */

bool tui_legal(const tui_t *t, fig_action_t a)
{
    for (int i = 0; i < t->nlegal; i++)
        if (t->legal[i] == a)
            return true;
    return false;
}

int tui_cur_kind(const tui_t *t)
{
    return t->slot >= 0 && t->slot < t->nslots ? t->slot_kind[t->slot] : -1;
}

/* Whether playing `kind` in front of seat s is legal and does not make the
 * person collect. */
static bool harmless(const tui_t *t, int kind, int s)
{
    fig_action_t a = fig_act_play(kind, s);
    return tui_legal(t, a) && fig_narrate_collector(&t->view, a, NULL) != t->me;
}

/* Keeps the target if the card may go there, else the first seat it may go
 * to without making the person collect, starting from the person's left and
 * ending with the person; a seat that makes them collect only if no other is
 * left. */
static void fix_target(tui_t *t)
{
    int k = tui_cur_kind(t);
    if (k < 0 || !t->my_turn) {
        t->target = -1;
        return;
    }
    if (t->target >= 0 && tui_legal(t, fig_act_play(k, t->target)))
        return;
    t->target = -1;
    for (int pass = 0; pass < 2 && t->target < 0; pass++)
        for (int i = 1; i <= t->n; i++) {
            int s = (t->me + i) % t->n;
            if (pass ? tui_legal(t, fig_act_play(k, s)) : harmless(t, k, s)) {
                t->target = s;
                break;
            }
        }
}

/* At the start of the person's turn: the selected card, unless it can only
 * make them collect while another card can go somewhere harmless. */
static void preselect(tui_t *t)
{
    int k = tui_cur_kind(t);
    for (int s = 0; s < t->n && k >= 0; s++)
        if (harmless(t, k, s))
            return;
    for (int i = 0; i < t->nslots; i++)
        for (int s = 0; s < t->n; s++)
            if (harmless(t, t->slot_kind[i], s)) {
                t->slot = i;
                t->target = -1;
                return;
            }
}

void tui_select_slot(tui_t *t, int slot)
{
    if (t->nslots == 0)
        return;
    t->slot = (slot % t->nslots + t->nslots) % t->nslots;
    fix_target(t);
    t->dirty = true;
}

/* Moves the target to the next (dir 1) or previous (-1) seat the card may go to. */
void tui_step_target(tui_t *t, int dir)
{
    int k = tui_cur_kind(t);
    if (k < 0 || !t->my_turn)
        return;
    int s = t->target < 0 ? t->me : t->target;
    for (int i = 1; i <= t->n; i++) {
        int c = ((s + dir * i) % t->n + t->n) % t->n;
        if (tui_legal(t, fig_act_play(k, c))) {
            t->target = c;
            break;
        }
    }
    t->dirty = true;
}

/* Refreshes the person's view, hand slots and legal actions (from the view
 * alone: what the person may play depends on their hand and the piles only). */
void tui_update_view(tui_t *t)
{
    fig_match_view(t->m, t->me, &t->view);
    int keep = tui_cur_kind(t);
    t->nslots = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        if (t->view.hand.n[k])
            t->slot_kind[t->nslots++] = k;
    t->slot = 0;
    for (int i = 0; i < t->nslots; i++)
        if (t->slot_kind[i] == keep)
            t->slot = i;
    bool was = t->my_turn;
    t->my_turn = fig_match_status(t->m) == FIG_MATCH_WAIT_HUMAN &&
                 fig_match_turn(t->m) == t->me && t->view.phase == FIG_PHASE_PLAY;
    t->nlegal = t->my_turn ? fig_view_legal(&t->view, t->legal) : 0;
    if (t->my_turn && !was)
        preselect(t);
    fix_target(t);
    t->dirty = true;
}

/* ---- saving ---- */

void tui_save(tui_t *t)
{
    fig_msg_t msg;
    if (t->finished)
        return;
    if (fig_store_save_current(t->store, fig_match_game(t->m), &msg))
        tui_status(t, true, _("The game could not be saved: %s"), msg.text);
}

static void finish(tui_t *t)
{
    char path[FIG_STORE_PATH_MAX];
    fig_msg_t msg;
    if (t->finished)
        return;
    const fig_game_t *g = fig_match_game(t->m);
    if (fig_store_finish(t->store, g, path, sizeof path, &msg))
        tui_status(t, true, _("The game could not be filed in the history: %s"), msg.text);
    else {
        tui_log(t, _("The game is kept in the history: %s"), path);
        tui_log(t, "%s", _("To see where you could have played better: v here, or "
                           "'figaro review FILE' with that file."));
    }
    tui_log(t, _("Its seed was %llu: figaro play --seed %llu deals it again."),
            (unsigned long long)g->setup.seed, (unsigned long long)g->setup.seed);
    t->finished = true;
}

/* ---- steps ---- */

static void handle_step(tui_t *t, const fig_match_step_t *step)
{
    fig_view_t before = t->view;
    t->status[0] = '\0';        /* a message lasts until the next key or action */
    t->confirm_take = false;
    tui_update_view(t);
    tui_log_step(t, step, &before);
    if (t->hint.have && t->hint.position != tui_position(t))
        t->hint.have = false;
    if (!step->deal && step->seat == t->me) {
        t->status[0] = '\0';
        t->hint.wanted = false;   /* the person has moved: no hint pops up later */
    }
    for (int i = 0; i < step->events.n; i++) {
        int type = step->events.ev[i].type;
        if (type == FIG_EV_ROUND_END || type == FIG_EV_GAME_OVER) {
            t->overlay = type == FIG_EV_GAME_OVER ? OV_OVER : OV_ROUND;
            t->scroll = 0;
        }
    }
    if (t->view.phase == FIG_PHASE_OVER)
        finish(t);
    else
        tui_save(t);
    t->next_step_at = fig_clock_ms() + t->pace_ms;
    t->dirty = true;
}

/* Moves the match on if its time has come; returns true if something happened. */
bool tui_advance(tui_t *t)
{
    if (t->overlay != OV_NONE || tui_too_small())
        return false;
    fig_match_status_t s = fig_match_status(t->m);
    if (s == FIG_MATCH_OVER || s == FIG_MATCH_WAIT_HUMAN)
        return false;
    fig_match_step_t step;
    if (s == FIG_MATCH_READY && t->view.phase == FIG_PHASE_PLAY) {
        /* a bot's turn: let it start thinking now, during the pause */
        if (fig_match_step(t->m, &step)) {
            handle_step(t, &step);
            return true;
        }
        t->dirty = true;   /* "... is thinking" */
    }
    if (fig_clock_ms() < t->next_step_at)
        return false;
    if (fig_match_step(t->m, &step)) {
        handle_step(t, &step);
        return true;
    }
    return false;
}

void tui_play(tui_t *t, fig_action_t a)
{
    if (!t->my_turn) {
        tui_status(t, true, "%s", _("It is not your turn yet."));
        return;
    }
    fig_match_step_t step;
    fig_msg_t msg;
    if (fig_narrate_check(&t->view, a, t->tr, &msg) != FIG_OK) {
        char why[400];
        tui_refusal(t, a, why, sizeof why);
        tui_status(t, true, "%s", why);
        return;
    }
    if (fig_match_play(t->m, a, &step, &msg) != FIG_OK) {
        tui_status(t, true, "%s", msg.text);
        return;
    }
    t->status[0] = '\0';
    handle_step(t, &step);
}

/* Why the selected card may not go in front of seat s, into the status. */
void tui_refuse(tui_t *t, int kind, int s)
{
    char why[400];
    tui_refusal(t, fig_act_play(kind, s), why, sizeof why);
    tui_status(t, true, "%s", why);
}
