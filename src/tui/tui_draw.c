/* SPDX-License-Identifier: MIT */
/* tui_draw.c - drawing the full-screen game: the table, the person's hand,
 * what happened, and the screens that cover them (rules, log, round over,
 * game over, quit).
 *
 * Layout, top to bottom, on at least TUI_MIN_COLS x TUI_MIN_LINES:
 *   title bar; a header and one row per player (turn, target, seat, name,
 *   King, hand size, pile, total, road, stack with --open); the table's
 *   count and the round's road pieces; the person's hand and road; two lines
 *   of prompt and status; what happened (as many lines as fit); the keys.
 * Everything is drawn from the person's view (R14): other hands never, stack
 * counts and other players' road lengths only with --open or when the game is
 * over. Text goes through wide characters so that translated names and
 * sentences take the columns they need; every string is cut to its room. */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "host/narrate.h"
#include "host/rules_text.h"
#include "host/util.h"
#include "tui/tui.h"

/* ---- text helpers ---- */

/* Converts UTF-8 to wide characters (invalid bytes become '?'); returns the
 * count, w is NUL-terminated. */
static int to_wide(const char *s, wchar_t *w, int cap)
{
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    size_t len = strlen(s);
    int n = 0;
    while (len && n < cap - 1) {
        wchar_t wc;
        size_t r = mbrtowc(&wc, s, len, &ps);
        if (r == (size_t)-1 || r == (size_t)-2) {
            wc = L'?';
            r = 1;
            memset(&ps, 0, sizeof ps);
        } else if (r == 0) {
            break;
        }
        w[n++] = wc;
        s += r;
        len -= r;
    }
    w[n] = L'\0';
    return n;
}

static int wc_cols(wchar_t c)
{
    int w = wcwidth(c);
    return w < 0 ? 0 : w;
}

bool tui_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && strcmp(cs, "UTF-8") == 0;
}

int tui_width(const char *s)
{
    wchar_t w[512];
    int n = to_wide(s, w, 512), cols = 0;
    for (int i = 0; i < n; i++)
        cols += wc_cols(w[i]);
    return cols;
}

int tui_put(int y, int x, int maxw, int attr, const char *s)
{
    if (maxw <= 0 || y < 0 || y >= LINES || x >= COLS)
        return 0;
    if (x + maxw > COLS)
        maxw = COLS - x;
    wchar_t w[512];
    int n = to_wide(s, w, 512), cols = 0, i = 0;
    for (; i < n; i++) {
        int c = wc_cols(w[i]);
        if (cols + c > maxw)
            break;
        cols += c;
    }
    attron(attr);
    mvaddnwstr(y, x, w, i);
    attroff(attr);
    return cols;
}

static char *from_wide(const wchar_t *w, int n)
{
    char *s = malloc((size_t)n * MB_CUR_MAX + 1);
    if (!s)
        return NULL;
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        size_t r = wcrtomb(s + len, w[i], &ps);
        if (r == (size_t)-1) {
            s[len++] = '?';
            memset(&ps, 0, sizeof ps);
        } else {
            len += r;
        }
    }
    s[len] = '\0';
    return s;
}

void tui_free_lines(char **lines, int count)
{
    for (int i = 0; i < count; i++)
        free(lines[i]);
    free(lines);
}

char **tui_wrap(const char *s, int width, int *count)
{
    *count = 0;
    if (width < 1)
        width = 1;
    size_t cap = strlen(s) + 1;
    wchar_t *w = malloc(cap * sizeof *w);
    if (!w)
        return NULL;
    int n = to_wide(s, w, (int)cap);
    int nl = 0, capl = 16;
    char **lines = malloc((size_t)capl * sizeof *lines);
    if (!lines) {
        free(w);
        return NULL;
    }
    int i = 0;
    while (i <= n) {
        /* one output line from w[i...] */
        int start = i, cols = 0, last_space = -1, end;
        while (i < n && w[i] != L'\n') {
            int c = wc_cols(w[i]);
            if (cols + c > width)
                break;
            if (w[i] == L' ')
                last_space = i;
            cols += c;
            i++;
        }
        if (i < n && w[i] != L'\n' && last_space > start) {
            end = last_space;   /* break at the last space */
            i = last_space;
        } else {
            end = i;
        }
        if (nl == capl) {
            capl *= 2;
            char **p = realloc(lines, (size_t)capl * sizeof *p);
            if (!p)
                break;
            lines = p;
        }
        char *line = from_wide(w + start, end - start);
        if (!line)
            break;
        lines[nl++] = line;
        if (i >= n)
            break;
        if (w[i] == L'\n')
            i++;
        else
            while (i < n && w[i] == L' ')
                i++;
    }
    free(w);
    *count = nl;
    return lines;
}

/* ---- cards ---- */

static int kind_pair(int kind)
{
    if (kind == FIG_RING)
        return PAIR_RING;
    if (fig_kind_is_jester(kind))
        return PAIR_JESTER;
    return PAIR_RED + fig_kind_colour(kind);
}

int tui_draw_card(const tui_t *t, int y, int x, int kind, int extra)
{
    char code[16];
    tui_code(kind, code, sizeof code);
    int attr = A_BOLD | (t->colour ? COLOR_PAIR(kind_pair(kind)) : 0);
    int w = 0;
    w += tui_put(y, x + w, 1, extra, "[");
    w += tui_put(y, x + w, 8, attr | extra, code);
    w += tui_put(y, x + w, 1, extra, "]");
    return w;
}

static int card_width(int kind)
{
    char code[16];
    return tui_width(tui_code(kind, code, sizeof code)) + 2;
}

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
        need += card_width(kinds[i]);
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
            if (w + card_width(kinds[i]) > room)
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

bool tui_legal(const tui_t *t, fig_action_t a)
{
    for (int i = 0; i < t->nlegal; i++)
        if (t->legal[i] == a)
            return true;
    return false;
}

static int selected_kind(const tui_t *t)
{
    return t->nslots && t->slot >= 0 && t->slot < t->nslots ? t->slot_kind[t->slot] : -1;
}

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

    int kind = t->my_turn ? selected_kind(t) : -1;
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
        int card = card_width(k) - (layout == HAND_BARE ? 2 : 0);
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
            x += tui_put(y + 1, x, 8, A_BOLD | attr | (t->colour ? COLOR_PAIR(kind_pair(k)) : 0),
                         code);
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
    int kind = selected_kind(t);
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

/* ---- what covers the table ---- */

static void draw_box(int y0, int x0, int h, int w)
{
    for (int y = y0; y < y0 + h; y++)
        mvhline(y, x0, ' ', w);
    mvhline(y0, x0 + 1, 0, w - 2);
    mvhline(y0 + h - 1, x0 + 1, 0, w - 2);
    mvvline(y0 + 1, x0, 0, h - 2);
    mvvline(y0 + 1, x0 + w - 1, 0, h - 2);
    mvaddch(y0, x0, ACS_ULCORNER);
    mvaddch(y0, x0 + w - 1, ACS_URCORNER);
    mvaddch(y0 + h - 1, x0, ACS_LLCORNER);
    mvaddch(y0 + h - 1, x0 + w - 1, ACS_LRCORNER);
}

/* Lines to show in a scrollable box, each with its attribute. */
typedef struct {
    char **text;
    int *attr;
    int n, cap;
} styled_t;

static void styled_add(styled_t *st, const char *text, int attr)
{
    if (st->n == st->cap) {
        int cap = st->cap ? st->cap * 2 : 64;
        char **t = realloc(st->text, (size_t)cap * sizeof *t);
        if (!t)
            return;
        st->text = t;
        int *a = realloc(st->attr, (size_t)cap * sizeof *a);
        if (!a)
            return;
        st->attr = a;
        st->cap = cap;
    }
    char *copy = strdup(text);
    if (!copy)
        return;
    st->text[st->n] = copy;
    st->attr[st->n++] = attr;
}

/* Adds `text` wrapped to `width`, the first line after `first`, the others
 * after `indent`: every line within `width`, whichever margin is wider (the
 * log indents its continued lines; they were cut by that much). */
static void styled_wrap(styled_t *st, const char *text, int width, const char *first,
                        const char *indent, int attr)
{
    int count, margin = tui_width(first);
    if (tui_width(indent) > margin)
        margin = tui_width(indent);
    char **lines = tui_wrap(text, width - margin, &count);
    for (int i = 0; i < count; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s%s", i ? indent : first, lines[i]);
        styled_add(st, buf, attr);
    }
    tui_free_lines(lines, count);
}

static void styled_free(styled_t *st)
{
    for (int i = 0; i < st->n; i++)
        free(st->text[i]);
    free(st->text);
    free(st->attr);
}

/* A scrollable box of lines; t->scroll < 0 with from_end starts at the end. */
static void draw_lines_box(tui_t *t, int y0, int x0, int h, int w, const char *title,
                           const styled_t *st, const char *footer, bool from_end)
{
    draw_box(y0, x0, h, w);
    tui_put(y0, x0 + 2, w - 4, A_BOLD, title);
    int rows = h - 3;
    int max = st->n > rows ? st->n - rows : 0;
    if (from_end && t->scroll < 0)
        t->scroll = max;
    if (t->scroll > max)
        t->scroll = max;
    if (t->scroll < 0)
        t->scroll = 0;
    for (int i = 0; i < rows && t->scroll + i < st->n; i++)
        tui_put(y0 + 1 + i, x0 + 2, w - 4, st->attr[t->scroll + i], st->text[t->scroll + i]);
    tui_put(y0 + h - 2, x0 + 2, w - 4, t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM, footer);
    if (st->n > rows) {
        char more[64];
        snprintf(more, sizeof more, " %d-%d / %d ", t->scroll + 1,
                 t->scroll + rows < st->n ? t->scroll + rows : st->n, st->n);
        int mw = tui_width(more);
        tui_put(y0 + h - 1, x0 + w - mw - 2, mw, 0, more);
    }
}

/* The help: the keys, then the rules (rules_text.h), wrapped to `width`. */
static void help_lines(styled_t *st, int width, const fig_tr_t *tr)
{
    const char *keys[24][2];
    int nk = tui_keys(keys, 24), kw = 0;
    for (int i = 0; i < nk; i++)
        if (tui_width(keys[i][0]) > kw)
            kw = tui_width(keys[i][0]);
    kw = kw > width / 3 ? width / 3 : kw;
    styled_add(st, _("Keys"), A_BOLD);
    for (int i = 0; i < nk; i++) {
        char first[128], indent[128];
        int pad = kw - tui_width(keys[i][0]);
        snprintf(indent, sizeof indent, "%*s", kw + 4, "");
        if (pad < 0) {   /* a key wider than its column: alone on its line, so the
                            descriptions stay in one column */
            snprintf(first, sizeof first, "  %s", keys[i][0]);
            styled_add(st, first, 0);
            snprintf(first, sizeof first, "%s", indent);
        } else {
            snprintf(first, sizeof first, "  %s%*s  ", keys[i][0], pad, "");
        }
        styled_wrap(st, keys[i][1], width, first, indent, 0);
    }
    for (int i = 0; i < fig_rules_count(); i++) {
        fig_rules_para_t p = fig_rules_get(i, tr);
        switch (p.kind) {
        case FIG_RULES_TITLE:
            styled_add(st, "", 0);
            styled_wrap(st, p.text, width, "", "", A_BOLD | A_UNDERLINE);
            break;
        case FIG_RULES_HEADING:
            styled_add(st, "", 0);
            styled_wrap(st, p.text, width, "", "", A_BOLD);
            break;
        case FIG_RULES_ITEM:
            styled_wrap(st, p.text, width, "  - ", "    ", 0);
            break;
        case FIG_RULES_TEXT:
            if (i > 0 && fig_rules_get(i - 1, tr).kind == FIG_RULES_TEXT)
                styled_add(st, "", 0);
            styled_wrap(st, p.text, width, "", "", 0);
            break;
        }
    }
}

/* The log from line `from`, wrapped, with a heading per round if asked. */
static void log_lines(const tui_t *t, styled_t *st, int from, int width, bool headings)
{
    int round = -1;
    for (int i = from; i < t->nlog; i++) {
        if (headings && t->log[i].round != round) {
            char h[80];
            round = t->log[i].round;
            snprintf(h, sizeof h, _("Round %d"), round);
            if (st->n)
                styled_add(st, "", 0);
            styled_add(st, h, A_BOLD);
        }
        styled_wrap(st, t->log[i].text, width, "", "  ", 0);
    }
}

/* Pads s with spaces to `cols` columns (cut if longer), into buf. */
static void cell(char *buf, size_t cap, size_t *len, const char *s, int cols, bool right)
{
    int w = tui_width(s), pad = cols - w > 0 ? cols - w : 0;
    if (right)
        fig_putf(buf, cap, len, "%*s%s", pad, "", s);
    else
        fig_putf(buf, cap, len, "%s%*s", s, pad, "");
    if (*len >= cap)   /* the next cell writes after what fitted */
        *len = cap - 1;
}

/* A cell's text: its number, or the mark of what is hidden (host/sheet.h). */
static const char *mark(const fig_sheet_cell_t *c, const char *hidden, char *buf, size_t cap)
{
    switch (c->mark) {
    case FIG_SHEET_NUMBER: snprintf(buf, cap, "%d", c->value); return buf;
    case FIG_SHEET_HIDDEN: return hidden;
    case FIG_SHEET_NO_PIECE: return "-";
    case FIG_SHEET_UNKNOWN: return "?";
    case FIG_SHEET_BLANK: break;
    }
    return "";
}

int tui_sheet_text(const fig_sheet_t *sh, const char names[][FIG_NAME_MAX + 1], bool utf8,
                   char lines[][TUI_SHEET_LINE], int cap)
{
    const char *dot = utf8 ? "·" : ".", *block = utf8 ? "▮" : "#";
    char num[32];
    size_t len = 0;
    int n = 0;
    if (cap < 2 + sh->players)
        return 0;
    char *line = lines[n++];
    line[0] = '\0';
    cell(line, TUI_SHEET_LINE, &len, _("player"), 14, false);
    for (int r = 0; r < FIG_ROUNDS; r++) {
        snprintf(num, sizeof num, _("Round %d"), r + 1);
        cell(line, TUI_SHEET_LINE, &len, num, 16, true);
    }
    cell(line, TUI_SHEET_LINE, &len, _("road"), 8, true);
    line = lines[n++];
    len = 0;
    line[0] = '\0';
    cell(line, TUI_SHEET_LINE, &len, "", 14, false);
    for (int r = 0; r < FIG_ROUNDS; r++) {
        cell(line, TUI_SHEET_LINE, &len, _("cards"), 8, true);
        cell(line, TUI_SHEET_LINE, &len, _("piece"), 8, true);
    }
    for (int s = 0; s < sh->players; s++) {
        char cb[16];
        line = lines[n++];
        len = 0;
        line[0] = '\0';
        cell(line, TUI_SHEET_LINE, &len, names[s], 14, false);
        for (int r = 0; r < FIG_ROUNDS; r++) {
            cell(line, TUI_SHEET_LINE, &len, mark(&sh->cards[r][s], dot, cb, sizeof cb), 8, true);
            cell(line, TUI_SHEET_LINE, &len, mark(&sh->piece[r][s], block, cb, sizeof cb), 8,
                 true);
        }
        cell(line, TUI_SHEET_LINE, &len, mark(&sh->road[s], block, cb, sizeof cb), 8, true);
    }
    return n;
}

const char *tui_sheet_note(void)
{
    return _("During play the rules (R14) hide the others' cards and road lengths "
             "(▮ is a piece); every number shows after each round.");
}

/* The score sheet: per round, the cards each player collected and the road
 * piece each received, then the road, as R14 lets the person see them
 * (host/sheet.h decides, tui_sheet_text writes the lines plain mode prints
 * too). After a round (its summary) and at the end, everything. */
static void sheet_lines(const tui_t *t, styled_t *st, bool reveal, int width)
{
    fig_sheet_t sh;
    fig_sheet_make(fig_match_game(t->m), t->me, reveal || t->opts.open, &sh);
    char lines[2 + FIG_MAX_PLAYERS][TUI_SHEET_LINE];
    int n = tui_sheet_text(&sh, t->names, t->utf8, lines, 2 + FIG_MAX_PLAYERS);
    for (int i = 0; i < n; i++)
        styled_add(st, lines[i], i == 0                ? A_BOLD
                                 : i == 1              ? (t->colour ? COLOR_PAIR(PAIR_DIM) : A_DIM)
                                 : i - 2 == t->me      ? A_BOLD
                                                       : 0);
    if (!sh.open) {
        styled_add(st, "", 0);
        styled_wrap(st, tui_sheet_note(), width, "", "", 0);
    }
}

static void draw_overlay(tui_t *t)
{
    int H = LINES, W = COLS;
    const char *scroll_keys = _("Up/Down, PgUp/PgDn scroll; Esc closes.");
    styled_t st = { 0 };
    switch (t->overlay) {
    case OV_HELP:
        help_lines(&st, W - 4, t->tr);
        draw_lines_box(t, 0, 0, H, W, _("Help: keys and rules"), &st, scroll_keys, false);
        break;
    case OV_LOG:
        log_lines(t, &st, 0, W - 4, true);
        draw_lines_box(t, 0, 0, H, W, _("What happened"), &st, scroll_keys, true);
        break;
    case OV_SHEET: {
        sheet_lines(t, &st, false, (W - 4 < 92 ? W - 4 : 92) - 4);
        int w = W - 4 < 92 ? W - 4 : 92, h = st.n + 4 < H - 2 ? st.n + 4 : H - 2;
        draw_lines_box(t, (H - h) / 2, (W - w) / 2, h, w, _("Score sheet"), &st,
                       _("s or Esc closes."), false);
        break;
    }
    case OV_QUIT: {
        const char *q = t->view.phase == FIG_PHASE_OVER
            ? _("Leave the game? (y/n)")
            : _("Quit now? The game is saved; continue it later with\nfigaro play --resume\n"
                "(y/n)");
        int w = W - 10 < 64 ? W - 10 : 64;
        styled_wrap(&st, q, w - 4, "", "", A_BOLD);
        int h = st.n + 2, y0 = (H - h) / 2, x0 = (W - w) / 2;
        draw_box(y0, x0, h, w);
        for (int i = 0; i < st.n; i++)
            tui_put(y0 + 1 + i, x0 + 2, w - 4, st.attr[i], st.text[i]);
        break;
    }
    case OV_ROUND:
    case OV_OVER: {
        int w = W - 4 < 92 ? W - 4 : 92;
        log_lines(t, &st, t->round_log_start, w - 4, false);
        styled_add(&st, "", 0);
        sheet_lines(t, &st, true, w - 4);   /* after a round, every number */
        int h = st.n + 4 < H - 2 ? st.n + 4 : H - 2;
        char title[120];
        if (t->overlay == OV_OVER)
            snprintf(title, sizeof title, "%s", _("The game is over"));
        else
            snprintf(title, sizeof title, _("Round %d is over"),
                     t->round_log_start < t->nlog ? t->log[t->round_log_start].round : 0);
        draw_lines_box(t, (H - h) / 2, (W - w) / 2, h, w, title, &st,
                       t->overlay == OV_OVER ? _("Enter: the table; n: a new game; l: the log; "
                                                 "q: leave.")
                                             : _("Press Enter to deal the next round."),
                       false);
        break;
    }
    case OV_NONE:
        break;
    }
    styled_free(&st);
}

void tui_draw_notice(const char *msg)
{
    int count;
    char **lines = tui_wrap(msg, COLS > 4 ? COLS - 2 : COLS, &count);
    int y0 = (LINES - count) / 2;
    for (int i = 0; i < count; i++)
        tui_put(y0 + i > 0 ? y0 + i : i, 1, COLS - 1, A_BOLD, lines[i]);
    tui_free_lines(lines, count);
}

static void draw_too_small(void)
{
    char msg[400];
    snprintf(msg, sizeof msg,
             _("This terminal is %d columns by %d lines. Figaro needs at least %d by %d: please "
               "make the window larger, or play with figaro play --plain. (q quits)"),
             COLS, LINES, TUI_MIN_COLS, TUI_MIN_LINES);
    tui_draw_notice(msg);
}

bool tui_too_small(void)
{
    return COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES;
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
            draw_overlay(t);
        }
    }
    refresh();
    t->dirty = false;
}
