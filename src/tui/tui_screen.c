/* SPDX-License-Identifier: MIT */
/* tui_screen.c - what every full-screen view draws with (the game's table
 * and its windows, the start screen, the lessons): UTF-8 text at a place,
 * cut to its room; a card in its colour; a box; a notice for a terminal too
 * small; and that check itself (TUI_MIN_COLS x TUI_MIN_LINES); the
 * terminal's modes and colours, set up the same for the game and the lessons. */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>
#include <wchar.h>

#include "tui/tui.h"

int tui_put(int y, int x, int maxw, int attr, const char *s)
{
    if (maxw <= 0 || y < 0 || y >= LINES || x >= COLS)
        return 0;
    if (x + maxw > COLS)
        maxw = COLS - x;
    wchar_t w[512];
    int cols, n = tui_widen(s, maxw, w, 512, &cols);
    attron(attr);
    mvaddnwstr(y, x, w, n);
    attroff(attr);
    return cols;
}

static int kind_pair(int kind)
{
    if (kind == FIG_RING)
        return PAIR_RING;
    if (fig_kind_is_jester(kind))
        return PAIR_JESTER;
    return PAIR_RED + fig_kind_colour(kind);
}

int tui_card_attr(const tui_t *t, int kind)
{
    return A_BOLD | (t->colour ? COLOR_PAIR(kind_pair(kind)) : 0);
}

int tui_draw_card(const tui_t *t, int y, int x, int kind, int extra)
{
    char code[16];
    tui_code(kind, code, sizeof code);
    int attr = tui_card_attr(t, kind);
    int w = 0;
    w += tui_put(y, x + w, 1, extra, "[");
    w += tui_put(y, x + w, 8, attr | extra, code);
    w += tui_put(y, x + w, 1, extra, "]");
    return w;
}

int tui_card_width(int kind)
{
    char code[16];
    return tui_width(tui_code(kind, code, sizeof code)) + 2;
}

void tui_box(int y0, int x0, int h, int w)
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

void tui_draw_notice(const char *msg)
{
    int count;
    char **lines = tui_wrap(msg, COLS > 4 ? COLS - 2 : COLS, &count);
    int y0 = (LINES - count) / 2;
    for (int i = 0; i < count; i++)
        tui_put(y0 + i > 0 ? y0 + i : i, 1, COLS - 1, A_BOLD, lines[i]);
    tui_free_lines(lines, count);
}

bool tui_too_small(void)
{
    return COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES;
}

void tui_modes(bool mouse)
{
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    if (mouse) {
        mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
        mouseinterval(0);
    }
}

void tui_colours(tui_t *t)
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
