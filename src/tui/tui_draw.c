/* SPDX-License-Identifier: MIT */
/* tui_draw.c - drawing the full-screen game: the table, the person's hand,
 * what happened and the keys, and under the windows that cover them
 * (tui_overlay.c) or the notice for a terminal too small.
 *
 * Layout, top to bottom, on at least TUI_MIN_COLS x TUI_MIN_LINES:
 *   title bar; a header and one row per player (turn, target, seat, name,
 *   King, hand size, pile, total, road, stack with --open); the table's
 *   count and the round's road pieces; the person's hand and road; two lines
 *   of prompt and status; what happened (as many lines as fit); the keys.
 * Everything is drawn from the person's view (R14): other hands never, stack
 * counts and other players' road lengths only with --open or when the game is
 * over. Text goes through wide characters (tui_wide.c) so that translated
 * names and sentences take the columns they need; every string is cut to its
 * room (tui_put). */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "host/narrate.h"
#include "host/util.h"
#include "tui/tui.h"

/* ---- cards ---- */

/* The cards of a pile in a fixed order: colour cards by value, jesters, rings. */
static int pile_kinds(const fig_pile_t *p, int kinds[], int cap)
{
    int k = 0;
    for (int v = 0; v < 3; v++)
        for (int i = 0; i < p->n[v] && k < cap; i++)
            kinds[k++] = p->colour * 3 + v;
    for (int i = 0; i < p->n[3] && k < cap; i++)
        kinds[k++] = FIG_J1;
    for (int i = 0; i < p->n[4] && k < cap; i++)
        kinds[k++] = FIG_J2;
    for (int i = 0; i < p->n[5] && k < cap; i++)
        kinds[k++] = FIG_RING;
    return k;
}

/* Draws the pile within `room` columns: every card if they fit, else each
 * kind once with "×n". */
static void draw_pile(const tui_t *t, int y, int x, int room, const fig_pile_t *p, int mark)
{
    int kinds[16], n = pile_kinds(p, kinds, 16), need = 0;
    if (n == 0) {
        tui_put(y, x, room, t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM, t->utf8 ? "·" : "-");
        return;
    }
    for (int i = 0; i < n; i++)
        need += tui_card_width(kinds[i]);
    int w = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && kinds[j] == kinds[i])
            j++;
        int hl = kinds[i] == mark ? A_UNDERLINE : 0;   /* the card just played */
        if (need <= room) {
            for (; i < j; i++)
                w += tui_draw_card(t, y, x + w, kinds[i], i == j - 1 ? hl : 0);
        } else {
            char times[16];
            if (w + tui_card_width(kinds[i]) > room)
                break;
            w += tui_draw_card(t, y, x + w, kinds[i], hl);
            if (j - i > 1) {
                snprintf(times, sizeof times, t->utf8 ? "×%d" : "x%d", j - i);
                w += tui_put(y, x + w, room - w, 0, times);
            }
            i = j;
        }
    }
}

/* ---- the table ---- */

static void add_region(tui_t *t, int y, int x0, int x1, int what, int index)
{
    if (t->nregions < (int)(sizeof t->regions / sizeof t->regions[0]))
        t->regions[t->nregions++] = (tui_region_t){ y, x0, x1, what, index };
}

static void draw_title(const tui_t *t)
{
    int W = COLS;
    attron(A_REVERSE);
    mvhline(0, 0, ' ', W);
    attroff(A_REVERSE);
    char left[160], right[160];
    const fig_view_t *v = &t->view;
    if (v->phase == FIG_PHASE_OVER)
        snprintf(left, sizeof left, "%s", _("Figaro: the game is over"));
    else if (v->phase == FIG_PHASE_DEAL && v->round > 1)   /* the last round's table */
        snprintf(left, sizeof left, _("Figaro: round %d of 3 is over"), v->round - 1);
    else
        snprintf(left, sizeof left, _("Figaro: round %d of 3"), v->round);
    if (t->n == 3) {
        size_t len = strlen(left);
        snprintf(left + len, sizeof left - len, "%s", t->utf8 ? "  ·  " : "  -  ");
        len = strlen(left);
        snprintf(left + len, sizeof left - len, _("no %s cards"), _(fig_colour_name(v->removed)));
    }
    snprintf(right, sizeof right, "%s", _("? rules  l log  q quit"));
    int lw = tui_put(0, 1, W - 2, A_REVERSE | A_BOLD, left);
    int rw = tui_width(right);
    if (1 + lw + 2 + rw < W)
        tui_put(0, W - rw - 1, rw, A_REVERSE, right);
}

/* Column positions of the players' rows. */
typedef struct {
    int mark, seat, name, king, hand, pile, total, road, stack, end;
} cols_t;

static cols_t columns(const tui_t *t)
{
    cols_t c;
    bool open = t->opts.open || t->view.phase == FIG_PHASE_OVER;
    c.mark = 0;
    c.seat = 4;
    c.name = 6;
    c.king = 19;
    c.hand = 22;
    c.pile = 36;
    c.end = COLS - 1;
    c.stack = open ? c.end - 6 : c.end;
    c.road = c.stack - 10;
    c.total = c.road - 7;
    return c;
}

static void draw_players(tui_t *t, int top)
{
    const fig_view_t *v = &t->view;
    cols_t c = columns(t);
    bool reveal = t->opts.open || v->phase == FIG_PHASE_OVER;
    int dim = t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM;
    tui_put(top, c.seat, 2, dim, "#");
    tui_put(top, c.name, c.king - c.name, dim, _("player"));
    tui_put(top, c.hand, c.pile - c.hand - 1, dim, _("hand"));
    tui_put(top, c.pile, c.total - c.pile - 1, dim, _("pile"));
    tui_put(top, c.total, c.road - c.total - 1, dim, _("total"));
    tui_put(top, c.road, c.stack - c.road - 1, dim, _("road"));
    if (c.stack < c.end)
        tui_put(top, c.stack, c.end - c.stack, dim, _("stack"));

    int kind = t->my_turn ? tui_cur_kind(t) : -1;
    for (int s = 0; s < t->n; s++) {
        int y = top + 1 + s;
        bool legal = kind >= 0 && tui_legal(t, fig_act_play(kind, s));
        bool chosen = legal && s == t->target;
        add_region(t, y, 0, COLS, 1, s);
        if (chosen) {
            attron(t->colour ? COLOR_PAIR(PAIR_TARGET) : A_REVERSE);
            mvhline(y, 0, ' ', c.pile - 1);
            attroff(t->colour ? COLOR_PAIR(PAIR_TARGET) : A_REVERSE);
        }
        int rowattr = chosen ? (t->colour ? COLOR_PAIR(PAIR_TARGET) : A_REVERSE) : 0;
        if (v->phase == FIG_PHASE_PLAY && v->turn == s)
            tui_put(y, c.mark, 2, rowattr | A_BOLD, t->utf8 ? "▶" : ">");
        if (chosen)
            tui_put(y, c.mark + 2, 2, rowattr | A_BOLD, t->utf8 ? "»" : "*");
        else if (legal)
            tui_put(y, c.mark + 2, 2, A_BOLD, t->utf8 ? "·" : ".");
        char buf[64];
        snprintf(buf, sizeof buf, "%d", s);
        tui_put(y, c.seat, 2, rowattr, buf);
        int nameattr = rowattr | (s == t->me ? A_BOLD : 0) | (legal ? A_UNDERLINE : 0);
        tui_put(y, c.name, c.king - c.name - 1, nameattr, tui_seat_name(t, s));
        if (v->king == s)
            tui_put(y, c.king, 2, rowattr | A_BOLD, t->utf8 ? "♔" : "K");
        snprintf(buf, sizeof buf, "%2d", v->hand_size[s]);
        int w = tui_put(y, c.hand, 3, rowattr, buf);
        if (v->hand_size[s] == 1 && v->phase == FIG_PHASE_PLAY)
            tui_put(y, c.hand + w + 1, c.pile - c.hand - w - 2,
                    rowattr | A_BOLD | (t->colour ? COLOR_PAIR(PAIR_WARN) : 0), _("last card!"));
        draw_pile(t, y, c.pile, c.total - c.pile - 1, &v->pile[s],
                  s == t->last_target && v->phase == FIG_PHASE_PLAY ? t->last_kind : -1);
        /* total, and what it would become with the chosen card; who just
         * collected, and how many */
        if (s == t->last_collector && !v->pile[s].cards) {
            snprintf(buf, sizeof buf, "+%d", t->last_collected);
            tui_put(y, c.total, c.road - c.total - 1,
                    A_BOLD | (t->colour ? COLOR_PAIR(PAIR_WARN) : A_UNDERLINE), buf);
        } else if (chosen && kind != FIG_RING) {
            int after = v->pile[s].total + fig_kind_value(kind);
            snprintf(buf, sizeof buf, t->utf8 ? "%d→%d" : "%d>%d", v->pile[s].total, after);
            tui_put(y, c.total, c.road - c.total - 1,
                    A_BOLD | (after >= 6 && t->colour ? COLOR_PAIR(PAIR_WARN) : 0), buf);
        } else if (v->pile[s].cards) {
            snprintf(buf, sizeof buf, "%d", v->pile[s].total);
            tui_put(y, c.total, c.road - c.total - 1, 0, buf);
        }
        /* road pieces: lengths for the person (and for all with --open or at
         * the end), a block per piece for the others (R14) */
        size_t len = 0;
        buf[0] = '\0';
        if (reveal || s == t->me)
            fig_road_format(v->road[s], v->nroad[s], " ", buf, sizeof buf);
        else
            for (int p = 0; p < v->nroad[s]; p++)
                fig_putf(buf, sizeof buf, &len, "%s%s", p ? " " : "", t->utf8 ? "▮" : "#");
        tui_put(y, c.road, c.stack - c.road - 1, 0, buf);
        if (c.stack < c.end) {
            snprintf(buf, sizeof buf, "%3d", v->stack[s]);
            tui_put(y, c.stack, c.end - c.stack, 0, buf);
        }
    }
}

/* The person's road as bars, one per piece, a column per three units. */
static void draw_my_road(const tui_t *t, int y, int right)
{
    const fig_view_t *v = &t->view;
    char buf[200];
    size_t len = 0;
    int total = fig_view_road(v, t->me);
    buf[0] = '\0';
    for (int p = 0; p < v->nroad[t->me]; p++) {
        int l = v->road[t->me][p];
        fig_putf(buf, sizeof buf, &len, "%s", p ? "  " : "");
        for (int i = 0; i < (l + 2) / 3; i++)
            fig_putf(buf, sizeof buf, &len, "%s", t->utf8 ? "█" : "#");
        fig_putf(buf, sizeof buf, &len, " %d", l);
    }
    char line[320];
    if (v->nroad[t->me])
        snprintf(line, sizeof line, _("Your road: %s = %d"), buf, total);
    else
        snprintf(line, sizeof line, "%s", _("Your road: no pieces yet"));
    int w = tui_width(line);
    tui_put(y, right - w > 40 ? right - w : 40, right - 40, 0, line);
}

enum { HAND_FULL, HAND_COUNTS, HAND_BARE };   /* how the hand is drawn, widest first */

/* The columns the hand takes drawn in `layout`, a space after each kind. */
static int hand_width(const tui_t *t, int layout)
{
    int w = 0;
    for (int i = 0; i < t->nslots; i++) {
        int k = t->slot_kind[i], cnt = t->view.hand.n[k];
        int card = tui_card_width(k) - (layout == HAND_BARE ? 2 : 0);
        w += (layout == HAND_FULL ? cnt : 1) * card + 1;
        if (layout != HAND_FULL && cnt > 1)
            w += cnt > 9 ? 3 : 2;   /* "×n" */
    }
    return w;
}

static void draw_hand(tui_t *t, int y)
{
    const fig_view_t *v = &t->view;
    char label[120];
    snprintf(label, sizeof label,
             ngettext("Your hand, %d card:", "Your hand, %d cards:",
                      (unsigned long)fig_hand_total(&v->hand)),
             fig_hand_total(&v->hand));
    tui_put(y, 1, 38, A_BOLD, label);
    draw_my_road(t, y, COLS - 1);

    /* every card if they fit; else each kind once with its count; else
     * (the widest hands in the longer languages at 80 columns) the same
     * without brackets */
    int layout = HAND_FULL;
    while (layout < HAND_BARE && 2 + hand_width(t, layout) > COLS - 2)
        layout++;
    int x = 2;
    for (int i = 0; i < t->nslots; i++) {
        int k = t->slot_kind[i], cnt = v->hand.n[k];
        bool sel = t->my_turn && i == t->slot;
        bool playable = false;
        for (int s = 0; s < t->n && t->my_turn; s++)
            playable |= tui_legal(t, fig_act_play(k, s));
        int attr = sel ? A_REVERSE : (t->my_turn && !playable ? A_DIM : 0);
        int x0 = x;
        if (layout == HAND_BARE) {
            char code[16];
            tui_code(k, code, sizeof code);
            x += tui_put(y + 1, x, 8, tui_card_attr(t, k) | attr, code);
        }
        for (int c = 0; layout != HAND_BARE && c < (layout == HAND_FULL ? cnt : 1); c++)
            x += tui_draw_card(t, y + 1, x, k, attr);
        if (layout != HAND_FULL && cnt > 1) {
            char times[16];
            snprintf(times, sizeof times, t->utf8 ? "×%d" : "x%d", cnt);
            x += tui_put(y + 1, x, COLS - x, attr, times);
        }
        add_region(t, y + 1, x0, x, 0, i);
        if (tui_slot_key(i)) {   /* the key that picks it: 1..9, 0, then letters */
            char num[4];
            snprintf(num, sizeof num, "%c", tui_slot_key(i));
            tui_put(y + 2, x0 + (layout != HAND_BARE), 1,
                    sel ? A_BOLD : (t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM), num);
        }
        x += 1;
    }
    if (t->nslots == 0)
        tui_put(y + 1, 2, COLS - 4, A_DIM, _("(no cards)"));
}

/* The prompt at line y, and under it the status (a hint, a refusal: wrapped,
 * at most `room` lines) or what the selected move does. Returns the lines
 * used. */
static int draw_prompt(const tui_t *t, int y, int room)
{
    const fig_view_t *v = &t->view;
    char line[400];
    line[0] = '\0';
    int kind = tui_cur_kind(t);
    if (v->phase == FIG_PHASE_OVER) {
        snprintf(line, sizeof line, "%s",
                 _("The game is over. Press q to leave, l to read the log."));
    } else if (t->my_turn && kind >= 0) {
        char c[16];
        tui_card(kind, c, sizeof c);
        if (kind == FIG_RING)
            snprintf(line, sizeof line, _("Your turn: play the ring %s? Enter plays it; t takes."),
                     c);
        else if (t->target == t->me)
            snprintf(line, sizeof line,
                     _("Your turn: play %s in front of yourself? Enter plays it; t takes."), c);
        else if (t->target >= 0)
            snprintf(line, sizeof line,
                     _("Your turn: play %s in front of %s? Enter plays it; t takes."), c,
                     tui_name(t, t->target));
        else
            snprintf(line, sizeof line,
                     _("Your turn: %s cannot be played now; choose another card, or t takes."),
                     c);
    } else if (t->my_turn) {
        snprintf(line, sizeof line, "%s", _("Your turn: press t to take the face-up cards."));
    } else if (v->phase == FIG_PHASE_PLAY) {
        if (fig_match_status(t->m) == FIG_MATCH_THINKING)
            snprintf(line, sizeof line, _("%s is thinking..."), tui_seat_name(t, v->turn));
        else
            snprintf(line, sizeof line, _("%s is to play."), tui_seat_name(t, v->turn));
    }
    tui_put(y, 1, COLS - 2, A_BOLD, line);
    int warn = A_BOLD | (t->colour ? COLOR_PAIR(PAIR_WARN) : 0);
    if (t->status[0]) {
        int count;
        char **lines = tui_wrap(t->status, COLS - 2, &count);
        int shown = count < room ? count : room > 1 ? room : 1;
        for (int i = 0; i < shown; i++)
            tui_put(y + 1 + i, 1, COLS - 2, t->status_warn ? warn : 0, lines[i]);
        tui_free_lines(lines, count);
        return 1 + (shown > 1 ? shown : 1);
    } else if (t->my_turn && kind >= 0 && t->target >= 0) {
        /* what the selected move does, when someone collects */
        int count, who = fig_narrate_collector(v, fig_act_play(kind, t->target), &count);
        if (who == t->me)
            snprintf(line, sizeof line,
                     _("Careful: your pile reaches %d and you collect %d cards."),
                     v->pile[who].total + fig_kind_value(kind), count);
        else if (who >= 0)
            snprintf(line, sizeof line, _("%s's pile reaches %d: %s collects %d cards."),
                     tui_seat_name(t, who), v->pile[who].total + fig_kind_value(kind),
                     tui_seat_name(t, who), count);
        if (who >= 0)
            tui_put(y + 1, 1, COLS - 2, who == t->me ? warn : 0, line);
    }
    return 2;
}

static void draw_messages(const tui_t *t, int top, int bottom)
{
    int W = COLS;
    char title[120];
    snprintf(title, sizeof title, " %s ", _("What happened"));
    attron(t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM);
    mvhline(top, 0, t->utf8 ? 0 : '-', W);
    attroff(t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM);
    tui_put(top, 2, W - 4, A_BOLD, title);
    /* the newest lines, wrapped (continued lines two columns further in,
     * within the same margin), from the bottom up */
    int y = bottom;
    for (int i = t->nlog - 1; i >= 0 && y > top; i--) {
        int count;
        char **lines = tui_wrap(t->log[i].text, W - 6, &count);
        int attr = i >= t->nlog - t->fresh ? A_BOLD : 0;
        for (int j = count - 1; j >= 0 && y > top; j--, y--)
            tui_put(y, j ? 4 : 2, W - 5, attr, lines[j]);
        tui_free_lines(lines, count);
    }
}

/* keys (items separated by two spaces, as the translations keep them)
 * fitted into `room` columns: when they do not all fit, items are left out
 * from the right, but the last two stay (? lists every key, q leaves). */
static void fit_keys(const char *keys, int room, char *out, size_t cap)
{
    enum { MAX_ITEMS = 16 };
    const char *item[MAX_ITEMS];
    int len[MAX_ITEMS], cols[MAX_ITEMS], n = 0, width = 0;
    bool keep[MAX_ITEMS];
    for (const char *p = keys; *p && n < MAX_ITEMS; n++) {
        const char *sep = strstr(p, "  ");
        item[n] = p;
        len[n] = sep ? (int)(sep - p) : (int)strlen(p);
        char one[200];
        snprintf(one, sizeof one, "%.*s", len[n], p);
        cols[n] = tui_width(one);
        width += (n ? 2 : 0) + cols[n];
        keep[n] = true;
        p = sep ? sep + 2 : p + strlen(p);
    }
    for (int i = n - 3; i >= 0 && width > room; i--) {
        width -= 2 + cols[i];
        keep[i] = false;
    }
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        if (keep[i])
            fig_putf(out, cap, &k, "%s%.*s", k ? "  " : "", len[i], item[i]);
}

static void draw_keys(const tui_t *t, int y)
{
    const char *keys = t->view.phase == FIG_PHASE_OVER
        ? _("v review  n a new game  s score sheet  l log  ? rules  q quit")
        : t->utf8
        ? _("←→ card  ↑↓ player  Enter play  t take  h hint  s score  ? rules  q quit")
        : _("<> card  ^v player  Enter play  t take  h hint  s score  ? rules  q quit");
    char fitted[400];
    fit_keys(keys, COLS - 2, fitted, sizeof fitted);
    tui_put(y, 1, COLS - 2, t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM, fitted);
}

static void draw_table(tui_t *t)
{
    const fig_view_t *v = &t->view;
    int H = LINES;
    draw_title(t);
    int top = 2;
    draw_players(t, top);
    int y = top + 1 + t->n;
    char info[200];
    if (v->phase == FIG_PHASE_PLAY) {
        snprintf(info, sizeof info,
                 ngettext("%d face-up card on the table.", "%d face-up cards on the table.",
                          (unsigned long)v->table_cards),
                 v->table_cards);
        int w = tui_put(y, 1, COLS - 2, 0, info);
        char g[64];
        fig_road_format(v->group[v->round - 1], t->n - 1, ", ", g, sizeof g);
        snprintf(info, sizeof info, _("Road pieces this round: %s."), g);
        int dim = t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM;
        if (w + 3 + tui_width(info) <= COLS - 1) {
            tui_put(y, w + 3, COLS - w - 4, dim, info);
        } else {   /* on the line below, wrapped: never a number cut */
            int count;
            char **lines = tui_wrap(info, COLS - 2, &count);
            if (lines && count)
                tui_put(y + 1, 1, COLS - 2, dim, lines[0]);
            tui_free_lines(lines, count);
        }
    }
    y += 2;
    draw_hand(t, y);
    y += 4;
    /* the status may take more lines, but leaves the log two */
    y += draw_prompt(t, y, H - 2 - y - 3);
    draw_messages(t, y, H - 2);
    draw_keys(t, H - 1);
}

/* ---- the whole screen ---- */

static void draw_too_small(void)
{
    char msg[400];
    snprintf(msg, sizeof msg,
             _("This terminal is %d columns by %d lines. Figaro needs at least %d by %d: please "
               "make the window larger, or play with figaro play --plain. (q quits)"),
             COLS, LINES, TUI_MIN_COLS, TUI_MIN_LINES);
    tui_draw_notice(msg);
}

void tui_draw(tui_t *t)
{
    erase();
    t->nregions = 0;
    if (tui_too_small()) {
        draw_too_small();
    } else {
        draw_table(t);
        if (t->overlay != OV_NONE) {
            t->nregions = 0;
            tui_draw_overlay(t);
        }
    }
    refresh();
    t->dirty = false;
}
