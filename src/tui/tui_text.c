/* tui_text.c - what the full-screen game says: the log (one sentence per
 * thing that happened, told by narrate.c with cards written "[R2]"), the
 * reason given with a hint (narrate.c too), and the keys shown in the help.
 *
 * The sentences themselves live in narrate.c, shared with plain mode; this
 * file only files them in the log and marks where a round's scoring starts,
 * for the overlay at the end of a round. Nothing here reads a hand other than
 * the person's: events and views are public (R14). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/narrate.h"
#include "tui/tui.h"

const char *tui_seat_name(const tui_t *t, int seat)
{
    if (seat < 0 || seat >= t->n)
        return "?";
    return t->names[seat];
}

/* Said to the person, their own seat is "you", not their name: "[R2] cannot
 * go in front of you: that pile is red." */
const char *tui_name(const tui_t *t, int seat)
{
    if (seat == t->me)
        /* TRANSLATORS: the person, after "in front of" ("R2 cannot go in front of you"). */
        return _("you");
    return tui_seat_name(t, seat);
}

static void vlog(tui_t *t, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (t->nlog == t->caplog) {
        int cap = t->caplog ? t->caplog * 2 : 256;
        tui_line_t *p = realloc(t->log, (size_t)cap * sizeof *p);
        if (!p)
            return;   /* out of memory: the log loses a line, the game goes on */
        t->log = p;
        t->caplog = cap;
    }
    char *copy = strdup(buf);
    if (!copy)
        return;
    t->log[t->nlog].text = copy;
    t->log[t->nlog].round = t->log_round;
    t->nlog++;
    t->fresh++;
}

void tui_log(tui_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(t, fmt, ap);
    va_end(ap);
}

/* ---- what happened, through narrate.c ---- */

typedef struct {
    tui_t *t;
    int last;   /* what the previous sentence of this step was about */
} said_t;

static void say(void *ctx, int about, const char *sentence)
{
    said_t *c = ctx;
    if (about == FIG_EV_ROUND_END && c->last != FIG_EV_ROUND_END)
        c->t->round_log_start = c->t->nlog;   /* the round's overlay starts here */
    if (about == FIG_EV_GAME_OVER && c->last != FIG_EV_GAME_OVER)
        c->t->over_log_start = c->t->nlog;    /* what is printed on leaving starts here */
    c->last = about;
    tui_log(c->t, "%s", sentence);
}

static const char *card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return tui_card(kind, buf, cap);   /* "[R2]" */
}

static void narrator(const tui_t *t, fig_narrator_t *nr, said_t *ctx)
{
    fig_narrate_init(nr, t->n, t->me, t->names, t->tr, card, say, ctx);
}

void tui_log_step(tui_t *t, const fig_match_step_t *step, const fig_view_t *before)
{
    fig_narrator_t nr;
    said_t ctx = { t, FIG_NARRATE_NONE };
    t->fresh = 0;
    t->log_round = step->round;
    narrator(t, &nr, &ctx);
    fig_narrate_step(&nr, step, before, &t->view);
}

void tui_explain(const tui_t *t, fig_action_t a, char *buf, size_t cap)
{
    fig_narrator_t nr;
    narrator(t, &nr, NULL);   /* a hint says nothing: no sentence reaches say() */
    fig_narrate_hint(&nr, &t->view, a, buf, cap);
}

/* ---- the keys, at the top of the help ---- */

int tui_keys(const char *keys[][2], int cap)
{
    static const char *const k[][2] = {
        { N_("Left, Right, Tab, H, L"), N_("pick a card of your hand") },
        { N_("1 ... 9, 0"), N_("pick the card with that number; then a number picks the seat") },
        { N_("Up, Down, j, k"), N_("pick the player in front of whom the card goes") },
        { N_("Enter, Space"), N_("play the card") },
        { N_("t"), N_("take all the face-up cards") },
        { N_("h"), N_("hint: what the strongest bot would play, and why") },
        { N_("l"), N_("the log: everything that happened") },
        { N_("?"), N_("this help") },
        { N_("Esc"), N_("back to picking a card; close a window") },
        { N_("q"), N_("quit (the game is saved: figaro play --resume)") },
        { N_("mouse"), N_("click a card, then a player, to play it there") },
    };
    int n = (int)(sizeof k / sizeof k[0]);
    for (int i = 0; i < n && i < cap; i++) {
        keys[i][0] = _(k[i][0]);
        keys[i][1] = _(k[i][1]);
    }
    return n < cap ? n : cap;
}
