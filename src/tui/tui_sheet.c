/* SPDX-License-Identifier: MIT */
/* tui_sheet.c - the score sheet as lines of text (host/sheet.h decides what
 * R14 hides; this file only lays it out): the columns padded to the
 * terminal's widths of the person's language, hidden numbers as a mark. The
 * full-screen sheet and plain mode's `score` print these same lines, so this
 * file draws nothing itself (no curses). */
#include <stdio.h>

#include "host/util.h"
#include "tui/tui.h"

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
