/* SPDX-License-Identifier: MIT */
/* tui.c - `figaro play`, full screen: the start screen, then one loop that
 * draws, reads keys and the mouse, and moves the match on.
 *
 * The loop never blocks on a bot: it waits in poll() on the terminal, the
 * match's descriptor (a bot's answer is in) and the hint's pipe, with a
 * timeout that paces the bots' moves (opts->pace_ms, 0 with --fast). A move
 * is shown only when its time has come and nothing covers the table, so a
 * person reading the rules or the round's scoring misses nothing. After every
 * step the game is saved (store.h) for `figaro play --resume`.
 *
 * The bots and the hint think on one worker pool (pool.h) of a thread per
 * core. The hint (hint.h) is the strongest level's bot, made for the occasion
 * and told what the person's seat knows (R14); the answer is shown with its
 * one reason, the same in the status lines and in the log, and preselected,
 * so Enter plays it. */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/hint.h"
#include "host/narrate.h"
#include "host/pool.h"
#include "host/store.h"
#include "host/util.h"
#include "tui/tui.h"

static void set_status(tui_t *t, bool warn, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void set_status(tui_t *t, bool warn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->status, sizeof t->status, fmt, ap);
    va_end(ap);
    t->status_warn = warn;
    t->dirty = true;
}

/* Actions and deals in the record so far: names a position for the hint. */
static long position(const tui_t *t)
{
    const fig_game_t *g = fig_match_game(t->m);
    long p = g->dealt;
    for (int r = 0; r < g->dealt; r++)
        p += g->nmoves[r];
    return p;
}

/* ---- the person's choice ---- */

static int cur_kind(const tui_t *t)
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
    int k = cur_kind(t);
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
    int k = cur_kind(t);
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

static void select_slot(tui_t *t, int slot)
{
    if (t->nslots == 0)
        return;
    t->slot = (slot % t->nslots + t->nslots) % t->nslots;
    fix_target(t);
    t->dirty = true;
}

/* Moves the target to the next (dir 1) or previous (-1) seat the card may go to. */
static void step_target(tui_t *t, int dir)
{
    int k = cur_kind(t);
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
static void update_view(tui_t *t)
{
    fig_match_view(t->m, t->me, &t->view);
    int keep = cur_kind(t);
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

static void save(tui_t *t)
{
    fig_msg_t msg;
    if (t->finished)
        return;
    if (fig_store_save_current(t->store, fig_match_game(t->m), &msg))
        set_status(t, true, _("The game could not be saved: %s"), msg.text);
}

static void finish(tui_t *t)
{
    char path[FIG_STORE_PATH_MAX];
    fig_msg_t msg;
    if (t->finished)
        return;
    const fig_game_t *g = fig_match_game(t->m);
    if (fig_store_finish(t->store, g, path, sizeof path, &msg))
        set_status(t, true, _("The game could not be filed in the history: %s"), msg.text);
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
    update_view(t);
    tui_log_step(t, step, &before);
    if (t->hint.have && t->hint.position != position(t))
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
        save(t);
    t->next_step_at = fig_clock_ms() + t->pace_ms;
    t->dirty = true;
}

/* Moves the match on if its time has come; returns true if something happened. */
static bool advance(tui_t *t)
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

static void play(tui_t *t, fig_action_t a)
{
    if (!t->my_turn) {
        set_status(t, true, "%s", _("It is not your turn yet."));
        return;
    }
    fig_match_step_t step;
    fig_msg_t msg;
    if (fig_narrate_check(&t->view, a, t->tr, &msg) != FIG_OK) {
        char why[400];
        tui_refusal(t, a, why, sizeof why);
        set_status(t, true, "%s", why);
        return;
    }
    if (fig_match_play(t->m, a, &step, &msg) != FIG_OK) {
        set_status(t, true, "%s", msg.text);
        return;
    }
    t->status[0] = '\0';
    handle_step(t, &step);
}

/* Why the selected card may not go in front of seat s, into the status. */
static void refuse(tui_t *t, int kind, int s)
{
    char why[400];
    tui_refusal(t, fig_act_play(kind, s), why, sizeof why);
    set_status(t, true, "%s", why);
}

/* ---- the hint ---- */

static void show_hint(tui_t *t)
{
    t->hint.wanted = false;
    set_status(t, false, "%s", t->hint.text);
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

static void ask_hint(tui_t *t)
{
    tui_hint_t *h = &t->hint;
    if (!t->my_turn) {
        set_status(t, false, "%s", _("A hint is for your turn."));
        return;
    }
    long pos = position(t);
    if (h->have && h->position == pos) {
        show_hint(t);
        return;
    }
    h->wanted = true;
    set_status(t, false, "%s", _("Thinking about a hint..."));
    if (fig_hint_busy(h->handle))
        return;   /* an older question is still out: ask when it is back */
    fig_msg_t msg;
    if (fig_hint_ask(h->handle, fig_match_game(t->m), t->me, NULL, pos, &msg) != FIG_OK) {
        h->wanted = false;
        set_status(t, true, _("No hint: %s"), fig_tr_text(t->tr, msg.text));
    }
}

/* The hint's answer is in: explain it, show it if still wanted. */
static void hint_done(tui_t *t)
{
    tui_hint_t *h = &t->hint;
    fig_action_t a;
    long pos;
    if (!fig_hint_take(h->handle, &a, &pos))
        return;
    if (pos == position(t)) {
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
        if (h->have && h->position == position(t))
            show_hint(t);
        else
            ask_hint(t);   /* the position moved on while it thought */
    }
}

/* ---- keys and the mouse ---- */

static void open_overlay(tui_t *t, tui_overlay_t o)
{
    if (o == OV_QUIT)
        t->quit_over = t->overlay;   /* the table, or a round's or the game's summary */
    t->overlay = o;
    t->scroll = o == OV_LOG ? -1 : 0;
    t->dirty = true;
}

static bool is_yes(wint_t ch)
{
    /* TRANSLATORS: the key that answers yes to "Quit now? ... (y/n)" ('y' works too). */
    const char *yes = _("y");
    return ch == 'y' || ch == 'Y' || (yes[0] && (wint_t)(unsigned char)yes[0] == ch);
}

static bool is_no(wint_t ch)
{
    /* TRANSLATORS: the key that answers no to a y/n question ('n' works too). */
    const char *no = _("n");
    return ch == 'n' || ch == 'N' || (no[0] && (wint_t)(unsigned char)no[0] == ch);
}

/* Keys while a window covers the table. */
static void overlay_key(tui_t *t, int r, wint_t ch)
{
    int page = LINES > 6 ? LINES - 5 : 1;
    bool fn = r == KEY_CODE_YES;
    if (t->overlay == OV_QUIT) {
        if (!fn && is_yes(ch)) {
            if (!t->finished)
                save(t);
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
            select_slot(t, g->index);
        } else if (!t->my_turn) {
            set_status(t, true, "%s", _("It is not your turn yet."));
        } else {
            int k = cur_kind(t);
            if (k >= 0 && tui_legal(t, fig_act_play(k, g->index)))
                play(t, fig_act_play(k, g->index));
            else if (k >= 0)
                refuse(t, k, g->index);
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
    set_status(t, warn, "%s",
               _("The game is over: v reviews your moves, n starts a new game, q leaves."));
}

/* `t`: taking collects every face-up card, so it asks first. */
static void take_key(tui_t *t)
{
    if (t->view.phase == FIG_PHASE_OVER)
        game_over_status(t, true);
    else if (!t->my_turn)
        set_status(t, true, "%s", _("It is not your turn yet."));
    else if (!tui_legal(t, FIG_ACT_TAKE))
        set_status(t, true, "%s", _("There are no face-up cards to take."));
    else {
        t->confirm_take = true;
        set_status(t, true,
                   ngettext("Take the %d face-up card? You collect it. Press t again (or y) to "
                            "take; any other key goes back.",
                            "Take the %d face-up cards? You collect them. Press t again (or y) "
                            "to take; any other key goes back.",
                            (unsigned long)t->view.table_cards),
                   t->view.table_cards);
    }
}

static void table_key(tui_t *t, int r, wint_t ch)
{
    if (t->confirm_take) {   /* the answer to "Take the N face-up cards?" */
        t->confirm_take = false;
        t->status[0] = '\0';
        if (r != KEY_CODE_YES && (ch == 't' || is_yes(ch)) && t->my_turn &&
            tui_legal(t, FIG_ACT_TAKE))
            play(t, FIG_ACT_TAKE);
        t->dirty = true;
        return;
    }
    if (r == KEY_CODE_YES) {
        switch (ch) {
        case KEY_LEFT: select_slot(t, t->slot - 1); break;
        case KEY_RIGHT: select_slot(t, t->slot + 1); break;
        case KEY_BTAB: select_slot(t, t->slot - 1); break;
        case KEY_UP: step_target(t, -1); break;
        case KEY_DOWN: step_target(t, 1); break;
        case KEY_ENTER:
            if (t->my_turn && t->target >= 0 && cur_kind(t) >= 0)
                play(t, fig_act_play(cur_kind(t), t->target));
            break;
        case KEY_MOUSE: click(t); break;
        default: break;
        }
        t->dirty = true;
        return;
    }
    bool over = t->view.phase == FIG_PHASE_OVER;
    int slot = slot_of_key(ch);
    switch (ch) {
    case '\t': select_slot(t, t->slot + 1); break;
    case 'H': select_slot(t, t->slot - 1); break;
    case 'L': select_slot(t, t->slot + 1); break;
    case 'k': step_target(t, -1); break;
    case 'j': step_target(t, 1); break;
    case '\n':
    case '\r':
    case ' ': {
        int k = cur_kind(t);
        if (over)
            game_over_status(t, false);
        else if (!t->my_turn)
            set_status(t, true, "%s", _("It is not your turn yet."));
        else if (k >= 0 && t->target >= 0)
            play(t, fig_act_play(k, t->target));
        else if (k >= 0)
            set_status(t, true, "%s",
                       _("That card cannot be played now: pick another, or take (t)."));
        break;
    }
    case 't': take_key(t); break;
    case 'h':
        if (over)
            game_over_status(t, false);
        else
            ask_hint(t);
        break;
    case 's': open_overlay(t, OV_SHEET); break;
    case 'l': open_overlay(t, OV_LOG); break;
    case '?': open_overlay(t, OV_HELP); break;
    case 'v':
        if (over) {
            set_status(t, false, "%s", _("Reviewing your moves..."));
            tui_draw(t);
            tui_review(t);
            t->status[0] = '\0';
            open_overlay(t, OV_LOG);
        }
        break;
    case 'n':
        if (over) {
            t->again = true;
            t->quit = true;
        }
        break;
    case 'q':
        if (over)
            t->quit = true;
        else
            open_overlay(t, OV_QUIT);
        break;
    default:
        if (slot >= 0 && !over) {
            if (slot < t->nslots) {
                select_slot(t, slot);
            } else {
                char last[2] = { (char)tui_slot_key(t->nslots > 0 ? t->nslots - 1 : 0), '\0' };
                set_status(t, true,
                           ngettext("There is no card %c: your hand has %d kind of card, keys "
                                    "1 to %s.",
                                    "There is no card %c: your hand has %d kinds of card, keys "
                                    "1 to %s.",
                                    (unsigned long)t->nslots),
                           (char)ch, t->nslots, last);
            }
        }
        break;
    }
    t->dirty = true;
}

static void key(tui_t *t, int r, wint_t ch)
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

/* ---- the game ---- */

static void replay_step(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                        const fig_view_t *after)
{
    tui_t *t = ctx;
    t->view = *after;   /* tui_log_step tells from t->view */
    tui_log_step(t, step, before);
}

/* Rebuilds the log of a resumed game from its record, one step at a time, as
 * the person's seat saw it (views only: R14). */
static void replay_log(tui_t *t)
{
    fig_session_replay(fig_match_game(t->m), t->me, replay_step, t, NULL);
    t->fresh = 0;
}

static void setup_colours(tui_t *t)
{
    t->colour = has_colors();
    if (!t->colour)
        return;
    start_color();
    use_default_colors();
    init_pair(PAIR_RED, COLOR_RED, -1);
    init_pair(PAIR_BLUE, COLOR_BLUE, -1);
    init_pair(PAIR_GREEN, COLOR_GREEN, -1);
    init_pair(PAIR_YELLOW, COLOR_YELLOW, -1);
    init_pair(PAIR_PURPLE, COLOR_MAGENTA, -1);
    init_pair(PAIR_JESTER, COLOR_CYAN, -1);
    init_pair(PAIR_RING, -1, -1);
    init_pair(PAIR_TARGET, COLOR_BLACK, COLOR_CYAN);
    init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_WHITE);
    init_pair(PAIR_DIM, COLORS >= 16 ? 8 : COLOR_WHITE, -1);
    init_pair(PAIR_WARN, COLOR_RED, -1);
}

static void loop(tui_t *t)
{
    while (!t->quit && !tui_interrupted()) {
        if (t->dirty)
            tui_draw(t);
        wint_t ch;
        int r = get_wch(&ch);
        if (r != ERR) {
            key(t, r, ch);
            continue;
        }
        if (advance(t) || t->dirty)
            continue;
        struct pollfd fds[3];
        int nfds = 0, timeout = -1;
        fds[nfds++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
        long long now = fig_clock_ms();
        fig_match_status_t s = fig_match_status(t->m);
        bool paused = t->overlay != OV_NONE || tui_too_small();
        if (!paused && (s == FIG_MATCH_READY || s == FIG_MATCH_THINKING)) {
            if (now < t->next_step_at)
                timeout = (int)(t->next_step_at - now);
            else if (s == FIG_MATCH_THINKING)
                fds[nfds++] = (struct pollfd){ .fd = fig_match_fd(t->m), .events = POLLIN };
            else
                timeout = 0;
        }
        bool hinting = fig_hint_busy(t->hint.handle);
        if (hinting)
            fds[nfds++] = (struct pollfd){ .fd = fig_hint_fd(t->hint.handle), .events = POLLIN };
        int n = poll(fds, (nfds_t)nfds, timeout);
        if (n > 0 && hinting && (fds[nfds - 1].revents & POLLIN))
            hint_done(t);
    }
}

/* "Continue your saved game?" before the start screen: 1 continue, 0 a new
 * game, -1 leave (Esc). */
static int ask_continue(const fig_game_t *g, bool utf8)
{
    char about[400];
    tui_saved_summary(g, about, sizeof about);
    timeout(200);
    bool dirty = true;
    for (;;) {
        if (tui_interrupted())
            return -1;
        if (dirty) {
            erase();
            attron(A_REVERSE);
            mvhline(0, 0, ' ', COLS);
            attroff(A_REVERSE);
            tui_put(0, 1, COLS - 2, A_REVERSE | A_BOLD, _("Figaro: your saved game"));
            const char *lines[] = {
                _("Continue your saved game?"),
                about,
                "",
                utf8 ? _("Enter or y: continue it  ·  n: a new game (the saved one is kept in "
                         "the history)  ·  Esc: leave")
                     : _("Enter or y: continue it  -  n: a new game (the saved one is kept in "
                         "the history)  -  Esc: leave"),
            };
            int y = 2;
            for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
                int count;
                char **w = tui_wrap(lines[i], COLS - 8, &count);
                for (int j = 0; j < count; j++)
                    tui_put(y++, 4, COLS - 8, i == 0 ? A_BOLD : 0, w[j]);
                tui_free_lines(w, count);
                if (count == 0)
                    y++;
            }
            refresh();
        }
        wint_t ch;
        int r = get_wch(&ch);
        dirty = r != ERR;
        if (r == ERR || (r == KEY_CODE_YES && ch == KEY_RESIZE))
            continue;
        if (r == KEY_CODE_YES ? ch == KEY_ENTER : (ch == '\n' || ch == '\r' || is_yes(ch)))
            return 1;
        if (r != KEY_CODE_YES && (ch == 'n' || ch == 'N' || is_no(ch)))
            return 0;
        if (r != KEY_CODE_YES && (ch == 27 || ch == 'q'))
            return -1;
    }
}

/* One game, from the start screen or a saved record to the person leaving.
 * Returns 0, or 1 if the game could not start. */
static int run_game(tui_t *t, const fig_game_t *record)
{
    char aside[FIG_STORE_PATH_MAX];
    fig_msg_t err;
    aside[0] = '\0';
    if (tui_match_start(&t->game, &t->opts, record, t->store, t->tr, &t->m, aside, sizeof aside,
                        &err)) {
        snprintf(t->result, sizeof t->result, "figaro play: %s\n", err.text);
        return 1;
    }
    const fig_game_t *g = fig_match_game(t->m);
    t->n = g->setup.players;
    t->me = 0;
    for (int s = 0; s < t->n; s++) {
        snprintf(t->names[s], sizeof t->names[s], "%s", g->names[s]);   /* session.h */
        const char *spec = fig_match_bot_spec(t->m, s);
        snprintf(t->specs[s], sizeof t->specs[s], "%s", spec ? spec : "");
    }
    t->log_round = 1;
    if (record) {
        replay_log(t);
        tui_log(t, "%s", _("The saved game goes on."));
        t->next_step_at = fig_clock_ms() + t->pace_ms;   /* the table first, then the bots */
    } else {
        tui_log(t, "%s", _("A new game: its seed is told when it is over."));
        if (aside[0])
            tui_log(t, _("The unfinished game was filed in the history: %s ('figaro history' "
                         "numbers it; 'figaro play --resume N' continues it)."), aside);
    }
    update_view(t);
    if (fig_game_over(g))
        t->finished = true;
    nodelay(stdscr, TRUE);
    t->dirty = true;
    loop(t);
    if (!t->finished)
        save(t);
    return 0;
}

/* What the terminal says once the screen is gone: the result of a finished
 * game, or how to go on with a saved one. */
static void leave_words(tui_t *t)
{
    size_t len = strlen(t->result);
    if (!t->m)
        return;
    if (!t->finished) {   /* store.h: a game nobody has played in is not kept */
        snprintf(t->result + len, sizeof t->result - len, "%s\n",
                 fig_store_has_current(t->store)
                     ? _("The game is saved: figaro play --resume continues it.")
                     : _("You had not played yet: nothing is saved."));
        return;
    }
    for (int i = t->over_log_start; i < t->nlog; i++)
        fig_putf(t->result, sizeof t->result, &len, "%s\n", t->log[i].text);
}

static void free_game(tui_t *t)
{
    fig_match_free(t->m);
    t->m = NULL;
    for (int i = 0; i < t->nlog; i++)
        free(t->log[i].text);
    free(t->log);
}

int play_tui(const fig_session_opts_t *game, const tui_display_t *display,
             const tui_saved_t *saved, fig_store_t *store, const fig_tr_t *tr)
{
    fig_pool_t *pool;
    fig_hint_t *hint = NULL;
    fig_msg_t pm;
    if (fig_pool_new(&pool, NULL, &pm) != FIG_OK ||
        fig_hint_new(&hint, pool, &pm) != FIG_OK) {
        fprintf(stderr, "figaro play: %s\n", fig_tr_text(tr, pm.text));
        fig_pool_free(pool);
        return 1;
    }
    bool utf8 = tui_utf8();

    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        fprintf(stderr, "figaro play: %s\n",
                _("cannot use this terminal for the full-screen game; try figaro play --plain"));
        fig_hint_free(hint);
        fig_pool_free(pool);
        return 1;
    }
    set_term(scr);
    struct sigaction old_sigs[3];
    tui_catch_signals(old_sigs);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    mouseinterval(0);

    int status = 0;
    fig_session_opts_t next = *game;   /* the start screen's settings, game after game */
    char words[sizeof ((tui_t *)0)->result] = "";
    for (bool first = true;; first = false) {
        tui_t *t = calloc(1, sizeof *t);
        if (!t) {
            status = 1;
            break;
        }
        t->opts = *display;
        t->game = next;
        t->store = store;
        t->tr = tr;
        t->pool = pool;
        t->hint.handle = hint;
        t->utf8 = utf8;
        setup_colours(t);
        const fig_game_t *record = NULL;
        int answer = 0;
        if (first && saved) {
            answer = saved->ask ? ask_continue(saved->record, utf8) : 1;
            if (answer == 1) {
                record = saved->record;
                t->game = saved->game;
                t->opts = saved->display;
            }
        }
        t->pace_ms = t->opts.fast ? 0 : t->opts.pace_ms;
        t->game.pool = pool;
        bool go = answer >= 0 && (record || tui_start_screen(&t->game, utf8));
        if (go)
            status = run_game(t, record);
        if (go && status == 0)
            leave_words(t);
        if (t->result[0])   /* the last game's words, not an empty start screen's */
            snprintf(words, sizeof words, "%s", t->result);
        bool again = go && status == 0 && t->again;
        next = t->game;
        next.has_seed = false;   /* another deal */
        for (int s = 1; s < FIG_MAX_PLAYERS; s++)
            next.seats.seat[s].name[0] = '\0';
        free_game(t);
        free(t);
        if (!again)
            break;
    }
    endwin();
    delscreen(scr);
    tui_restore_signals(old_sigs);
    fputs(words, status ? stderr : stdout);
    fig_hint_free(hint);
    fig_pool_free(pool);   /* waits for the engines' `gameover` and `quit` */
    return status;
}
