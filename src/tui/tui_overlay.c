/* SPDX-License-Identifier: MIT */
/* tui_overlay.c - the windows over the table: the help (the keys, then the
 * rules of host/rules_text.h), the log, the score sheet, the quit question,
 * and the summaries at the end of a round and of the game. Each is a list of
 * lines with their attributes, wrapped to the window's width, shown in a box
 * that scrolls (t->scroll) when they do not fit. What they tell comes from
 * the log and the person's sheet (R14), as the table does. */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/rules_text.h"
#include "tui/tui.h"

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
    tui_box(y0, x0, h, w);
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

void tui_draw_overlay(tui_t *t)
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
        tui_box(y0, x0, h, w);
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
