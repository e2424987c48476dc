/* SPDX-License-Identifier: MIT */
/* tui_input.c - the full-screen game's keys and mouse: on the table (a card
 * by the arrows or its key, a seat, play, take after asking, the hint, the
 * windows) and in the windows over it (scrolling, closing, the quit
 * question, a new game once it is over). A key changes the state through
 * tui_turn.c and tui_hint.c; drawing it is the loop's next step. */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>

#include "tui/tui.h"

static void open_overlay(tui_t *t, tui_overlay_t o)
{
    if (o == OV_QUIT)
        t->quit_over = t->overlay;   /* the table, or a round's or the game's summary */
    t->overlay = o;
    t->scroll = o == OV_LOG ? -1 : 0;
    t->dirty = true;
}

bool tui_is_yes(wint_t ch)
{
    /* TRANSLATORS: the key that answers yes to "Quit now? ... (y/n)" ('y' works too). */
    const char *yes = _("y");
    return ch == 'y' || ch == 'Y' || (yes[0] && (wint_t)(unsigned char)yes[0] == ch);
}

bool tui_is_no(wint_t ch)
{
    /* TRANSLATORS: the key that answers no to a y/n question ('n' works too). */
    const char *no = _("n");
    return ch == 'n' || ch == 'N' || (no[0] && (wint_t)(unsigned char)no[0] == ch);
}

/* Keys while a window covers the table. */
/* ---- the windows ---- */

static void overlay_key(tui_t *t, int r, wint_t ch)
{
    int page = LINES > 6 ? LINES - 5 : 1;
    bool fn = r == KEY_CODE_YES;
    if (t->overlay == OV_QUIT) {
        if (!fn && tui_is_yes(ch)) {
            if (!t->finished)
                tui_save(t);
            t->quit = true;
        } else {
            t->overlay = t->quit_over;   /* "no": back to what the question covered */
        }
        t->dirty = true;
        return;
    }
    if (fn) {
        switch (ch) {
        case KEY_UP: t->scroll--; break;
        case KEY_DOWN: t->scroll++; break;
        case KEY_PPAGE: t->scroll -= page; break;
        case KEY_NPAGE: t->scroll += page; break;
        case KEY_HOME: t->scroll = 0; break;
        case KEY_END: t->scroll = 1 << 20; break;
        case KEY_ENTER:
            if (t->overlay == OV_ROUND || t->overlay == OV_OVER)
                t->overlay = OV_NONE;
            break;
        default: break;
        }
        t->dirty = true;
        return;
    }
    bool reading = t->overlay == OV_HELP || t->overlay == OV_LOG || t->overlay == OV_SHEET;
    switch (ch) {
    case 'k': t->scroll--; break;
    case 'j': t->scroll++; break;
    case ' ':
        if (reading)
            t->scroll += page;
        else
            t->overlay = OV_NONE;
        break;
    case 'n':
        if (t->overlay == OV_OVER) {
            t->again = true;
            t->quit = true;
        }
        break;
    case 's':
        open_overlay(t, t->overlay == OV_SHEET ? OV_NONE : OV_SHEET);
        break;
    case 27:
    case '\n':
    case '\r':
        t->overlay = OV_NONE;
        break;
    case 'q':
        if (reading)
            t->overlay = OV_NONE;
        else if (t->overlay == OV_OVER)
            t->quit = true;
        else
            open_overlay(t, OV_QUIT);
        break;
    case '?':
        open_overlay(t, t->overlay == OV_HELP ? OV_NONE : OV_HELP);
        break;
    case 'l':
        open_overlay(t, t->overlay == OV_LOG ? OV_NONE : OV_LOG);
        break;
    default: break;
    }
    t->dirty = true;
}

/* ---- the table ---- */

static void click(tui_t *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED)))
        return;
    if (ev.bstate & BUTTON1_RELEASED && !(ev.bstate & BUTTON1_CLICKED))
        return;
    for (int i = 0; i < t->nregions; i++) {
        const tui_region_t *g = &t->regions[i];
        if (ev.y != g->y || ev.x < g->x0 || ev.x >= g->x1)
            continue;
        if (g->what == 0) {
            tui_select_slot(t, g->index);
        } else if (!t->my_turn) {
            tui_status(t, true, "%s", _("It is not your turn yet."));
        } else {
            int k = tui_cur_kind(t);
            if (k >= 0 && tui_legal(t, fig_act_play(k, g->index)))
                tui_play(t, fig_act_play(k, g->index));
            else if (k >= 0)
                tui_refuse(t, k, g->index);
        }
        return;
    }
}

static int slot_of_key(wint_t ch)
{
    static const char keys[] = TUI_SLOT_KEYS;
    for (int i = 0; i < (int)sizeof keys - 1; i++)
        if ((wint_t)(unsigned char)keys[i] == ch)
            return i;
    return -1;
}

/* What the keys do once the game is over, for a key that does nothing then. */
static void game_over_status(tui_t *t, bool warn)
{
    tui_status(t, warn, "%s",
               _("The game is over: v reviews your moves, n starts a new game, q leaves."));
}

/* `t`: taking collects every face-up card, so it asks first. */
static void take_key(tui_t *t)
{
    if (t->view.phase == FIG_PHASE_OVER)
        game_over_status(t, true);
    else if (!t->my_turn)
        tui_status(t, true, "%s", _("It is not your turn yet."));
    else if (!tui_legal(t, FIG_ACT_TAKE))
        tui_status(t, true, "%s", _("There are no face-up cards to take."));
    else {
        t->confirm_take = true;
        tui_status(t, true,
                   ngettext("Take the %d face-up card? You collect it. Press t again (or y) to "
                            "take; any other key goes back.",
                            "Take the %d face-up cards? You collect them. Press t again (or y) "
                            "to take; any other key goes back.",
                            (unsigned long)t->view.table_cards),
                   t->view.table_cards);
    }
}

/* The answer to "Take the N face-up cards?": t or yes takes, any other key
 * goes back. */
static void take_answer(tui_t *t, int r, wint_t ch)
{
    t->confirm_take = false;
    t->status[0] = '\0';
    if (r != KEY_CODE_YES && (ch == 't' || tui_is_yes(ch)) && t->my_turn &&
        tui_legal(t, FIG_ACT_TAKE))
        tui_play(t, FIG_ACT_TAKE);
}

/* The arrows, Enter and the mouse on the table. */
static void table_fn_key(tui_t *t, wint_t ch)
{
    switch (ch) {
    case KEY_LEFT: tui_select_slot(t, t->slot - 1); break;
    case KEY_RIGHT: tui_select_slot(t, t->slot + 1); break;
    case KEY_BTAB: tui_select_slot(t, t->slot - 1); break;
    case KEY_UP: tui_step_target(t, -1); break;
    case KEY_DOWN: tui_step_target(t, 1); break;
    case KEY_ENTER:
        if (t->my_turn && t->target >= 0 && tui_cur_kind(t) >= 0)
            tui_play(t, fig_act_play(tui_cur_kind(t), t->target));
        break;
    case KEY_MOUSE: click(t); break;
    default: break;
    }
}

/* Enter or Space: the selected card in front of the selected seat. */
static void play_key(tui_t *t)
{
    int k = tui_cur_kind(t);
    if (t->view.phase == FIG_PHASE_OVER)
        game_over_status(t, false);
    else if (!t->my_turn)
        tui_status(t, true, "%s", _("It is not your turn yet."));
    else if (k >= 0 && t->target >= 0)
        tui_play(t, fig_act_play(k, t->target));
    else if (k >= 0)
        tui_status(t, true, "%s", _("That card cannot be played now: pick another, or take (t)."));
}

/* `v` once the game is over: the review, written to the log, which opens. */
static void review_key(tui_t *t)
{
    tui_status(t, false, "%s", _("Reviewing your moves..."));
    tui_draw(t);   /* the search takes a while: say so first */
    tui_review(t);
    t->status[0] = '\0';
    open_overlay(t, OV_LOG);
}

/* A card's key (TUI_SLOT_KEYS): that card selected, or why there is none. */
static void slot_key(tui_t *t, int slot, wint_t ch)
{
    if (slot < t->nslots) {
        tui_select_slot(t, slot);
        return;
    }
    char last[2] = { (char)tui_slot_key(t->nslots > 0 ? t->nslots - 1 : 0), '\0' };
    tui_status(t, true,
               ngettext("There is no card %c: your hand has %d kind of card, keys 1 to %s.",
                        "There is no card %c: your hand has %d kinds of card, keys 1 to %s.",
                        (unsigned long)t->nslots),
               (char)ch, t->nslots, last);
}

static void table_key(tui_t *t, int r, wint_t ch)
{
    bool over = t->view.phase == FIG_PHASE_OVER;
    int slot = slot_of_key(ch);
    if (t->confirm_take)
        take_answer(t, r, ch);
    else if (r == KEY_CODE_YES)
        table_fn_key(t, ch);
    else
        switch (ch) {
        case '\t': tui_select_slot(t, t->slot + 1); break;
        case 'H': tui_select_slot(t, t->slot - 1); break;
        case 'L': tui_select_slot(t, t->slot + 1); break;
        case 'k': tui_step_target(t, -1); break;
        case 'j': tui_step_target(t, 1); break;
        case '\n':
        case '\r':
        case ' ': play_key(t); break;
        case 't': take_key(t); break;
        case 'h':
            if (over)
                game_over_status(t, false);
            else
                tui_ask_hint(t);
            break;
        case 's': open_overlay(t, OV_SHEET); break;
        case 'l': open_overlay(t, OV_LOG); break;
        case '?': open_overlay(t, OV_HELP); break;
        case 'v':
            if (over)
                review_key(t);
            break;
        case 'n':
            if (over)
                t->again = t->quit = true;
            break;
        case 'q':
            if (over)
                t->quit = true;
            else
                open_overlay(t, OV_QUIT);
            break;
        default:
            if (slot >= 0 && !over)
                slot_key(t, slot, ch);
            break;
        }
    t->dirty = true;
}

void tui_key(tui_t *t, int r, wint_t ch)
{
    if (r == KEY_CODE_YES && ch == KEY_RESIZE) {
        t->dirty = true;
        return;
    }
    if (tui_too_small()) {
        if (r != KEY_CODE_YES && ch == 'q')
            t->quit = true;   /* the game is saved after every step */
        return;
    }
    if (!t->confirm_take)
        t->status[0] = '\0';   /* a message lasts until the next key or action */
    if (t->overlay != OV_NONE)
        overlay_key(t, r, ch);
    else
        table_key(t, r, ch);
}
