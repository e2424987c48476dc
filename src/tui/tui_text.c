/* SPDX-License-Identifier: MIT */
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
#include "host/review.h"
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

/* The last move (for the table's highlight), from the step's events
 * (public: R14). */
static void track(tui_t *t, const fig_match_step_t *step)
{
    if (step->deal) {
        t->last_kind = -1;
        t->last_collector = -1;
        return;
    }
    t->last_kind = -1;
    t->last_collector = -1;
    for (int i = 0; i < step->events.n; i++) {
        const fig_event_t *e = &step->events.ev[i];
        switch (e->type) {
        case FIG_EV_PLAY:
            t->last_kind = e->kind;
            t->last_target = e->target;
            break;
        case FIG_EV_RING:
            t->last_kind = FIG_RING;
            t->last_target = e->seat;
            break;
        case FIG_EV_COLLECT:
            t->last_collector = e->seat;
            t->last_collected = e->count;
            break;
        default:
            break;
        }
    }
}

void tui_log_step(tui_t *t, const fig_match_step_t *step, const fig_view_t *before)
{
    fig_narrator_t nr;
    said_t ctx = { t, FIG_NARRATE_NONE };
    t->fresh = 0;
    t->log_round = step->round;
    track(t, step);
    narrator(t, &nr, &ctx);
    fig_narrate_step(&nr, step, before, &t->view);
}

void tui_refusal(const tui_t *t, fig_action_t a, char *buf, size_t cap)
{
    fig_narrator_t nr;
    narrator(t, &nr, NULL);
    fig_narrate_refusal(&nr, &t->view, a, buf, cap);
}

void tui_explain_search(const tui_t *t, fig_action_t a, const fig_analysis_t *an,
                        fig_hint_text_t *out)
{
    fig_narrator_t nr;
    narrator(t, &nr, NULL);   /* a hint says nothing: no sentence reaches say() */
    fig_hint_explain(&nr, &t->view, a, an, out);
}

void tui_review(tui_t *t)
{
    fig_review_t *rv = malloc(sizeof *rv);
    if (!rv) {
        tui_log(t, "%s", _("out of memory"));
        return;
    }
    const fig_game_t *g = fig_match_game(t->m);
    fig_review_opts_t o = { NULL, 0, NULL, t->tr };   /* the review everyone gets */
    fig_msg_t msg;
    if (fig_review_game(g, t->me, &o, rv, &msg) != FIG_OK) {
        tui_log(t, _("The review failed: %s"), msg.text);
        free(rv);
        return;
    }
    fig_narrator_t nr;
    narrator(t, &nr, NULL);
    char line[1200];
    tui_log(t, "%s", _("Review of your moves (the search's choice, from what you knew then):"));
    for (int i = 0; i < rv->n; i++) {
        if (rv->moves[i].grade == FIG_REVIEW_GOOD)
            continue;
        fig_review_describe(&nr, rv, i, line, sizeof line);
        tui_log(t, "%s", line);
    }
    fig_review_summary(&nr, rv, line, sizeof line);
    tui_log(t, "%s", line);
    free(rv);
}

/* ---- the keys, at the top of the help ---- */

int tui_keys(const char *keys[][2], int cap)
{
    static const char *const k[][2] = {
        { N_("Left, Right, Tab, H, L"), N_("pick a card of your hand") },
        { N_("1 ... 9, 0, a ... g, i"), N_("pick the card with that key: it is written under the "
                                        "card") },
        { N_("Up, Down, j, k"), N_("pick the player in front of whom the card goes") },
        { N_("Enter, Space"), N_("play the card") },
        { N_("t"), N_("take all the face-up cards (asks first: you collect them)") },
        { N_("h"), N_("hint: what the strongest bot would play, and why") },
        { N_("s"), N_("the score sheet: cards collected and road pieces, round by round") },
        { N_("l"), N_("the log: everything that happened") },
        { N_("?"), N_("this help") },
        { N_("Esc"), N_("close a window") },
        { N_("v"), N_("once the game is over: a review of your moves") },
        { N_("n"), N_("once the game is over: a new game") },
        { N_("q"), N_("quit (the game is saved: figaro play --resume)") },
        { N_("mouse"), N_("click a card, then a player, to play it there") },
        { N_("▶ or >"), N_("on the table: whose turn it is") },
        { N_("♔ or K"), N_("the King") },
        { N_("· or ."), N_("a player the selected card may go to") },
        { N_("» or *"), N_("the player it goes to now (highlighted)") },
        { N_("5→7"), N_("that pile's total now, and with your card") },
        { N_("+8"), N_("who collected just now, and how many cards; the card just played is "
                       "underlined") },
        { N_("▮ or #"), N_("another player's road piece: its length stays hidden until the "
                              "end (rule R14)") },
    };
    int n = (int)(sizeof k / sizeof k[0]);
    for (int i = 0; i < n && i < cap; i++) {
        keys[i][0] = _(k[i][0]);
        keys[i][1] = _(k[i][1]);
    }
    return n < cap ? n : cap;
}

/* ---- cards and keys ---- */

const char *tui_card(int kind, char *buf, size_t cap)
{
    char code[16];
    snprintf(buf, cap, "[%s]", tui_code(kind, code, sizeof code));
    return buf;
}

const char *tui_code(int kind, char *buf, size_t cap)
{
    return fig_card_code_in(_(FIG_CARD_CODES), kind, buf, cap);   /* narrate.h */
}

/* The key that picks hand slot i: 1..9 and 0 for the first ten, then the
 * letters that are no other key (tui.h: TUI_SLOT_KEYS). */
int tui_slot_key(int i)
{
    static const char keys[] = TUI_SLOT_KEYS;
    return i >= 0 && i < (int)sizeof keys - 1 ? keys[i] : 0;
}
