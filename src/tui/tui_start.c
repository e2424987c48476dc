/* SPDX-License-Identifier: MIT */
/* tui_start.c - starting a game in the terminal: the start screen of the
 * full-screen game (the number of players, the person's name, each
 * opponent's level and an optional seed; every line has a default, from the
 * command line, else 4 players against `normal` bots and a random seed, so
 * Enter alone starts a game). Starting the match itself is tui_match.c's,
 * plain mode's too. */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/util.h"
#include "tui/tui.h"

typedef struct {
    fig_session_opts_t *o;
    int field;                          /* 0 players, 1 name, 2.. levels, then seed */
    char custom[FIG_MAX_PLAYERS][FIG_SPEC_MAX];   /* a command line's spec that is no level */
    char seed[24];
    char error[400];
} start_t;

static int level_index(const char *spec)
{
    return fig_bot_level_index(spec);
}

/* The screen's lines: players, the name, one per opponent, the seed (last). */
static int fields(const start_t *ss)
{
    return 3 + ss->o->seats.players - 1;
}

/* Cycles the spec of seat s through the levels (and its custom spec, if any). */
static void cycle_level(start_t *ss, int s, int dir)
{
    char *spec = ss->o->seats.seat[s].spec;
    int nlevels = fig_bot_level_count();
    int n = nlevels + (ss->custom[s][0] ? 1 : 0);
    int i = level_index(spec);
    if (i < 0)
        i = nlevels;   /* the custom one */
    i = ((i + dir) % n + n) % n;
    snprintf(spec, FIG_SPEC_MAX, "%s", i < nlevels ? fig_bot_level_name(i) : ss->custom[s]);
}

static void draw_start(const start_t *ss, bool utf8)
{
    erase();
    const fig_session_opts_t *o = ss->o;
    int players = o->seats.players;
    if (tui_too_small()) {
        char msg[300];
        snprintf(msg, sizeof msg,
                 _("This terminal is %d columns by %d lines. Figaro needs at least %d by %d: "
                   "please make the window larger. (Esc leaves)"),
                 COLS, LINES, TUI_MIN_COLS, TUI_MIN_LINES);
        tui_draw_notice(msg);
        refresh();
        return;
    }
    attron(A_REVERSE);
    mvhline(0, 0, ' ', COLS);
    attroff(A_REVERSE);
    tui_put(0, 1, COLS - 2, A_REVERSE | A_BOLD, _("Figaro: a new game"));
    int x = 4, vx = 24, y = 2;
    const char *lt = utf8 ? "◀" : "<", *gt = utf8 ? "▶" : ">";
    char buf[160];
    int nf = fields(ss);
    for (int f = 0; f < nf; f++, y++) {
        bool sel = f == ss->field;
        int attr = sel ? A_REVERSE : 0;
        if (sel)
            tui_put(y, 1, 2, A_BOLD, utf8 ? "▶" : ">");
        if (f == 0) {
            tui_put(y, x, vx - x - 1, 0, _("Players"));
            snprintf(buf, sizeof buf, " %s %d %s ", lt, players, gt);
            tui_put(y, vx, 20, attr, buf);
        } else if (f == 1) {
            tui_put(y, x, vx - x - 1, 0, _("Your name"));
            snprintf(buf, sizeof buf, " %-*s ", FIG_NAME_MAX / 2, o->seats.seat[0].name);
            tui_put(y, vx, FIG_NAME_MAX + 2, attr | A_UNDERLINE, buf);
        } else if (f < nf - 1) {
            int s = f - 1;
            snprintf(buf, sizeof buf, _("Opponent %d"), s);
            tui_put(y, x, vx - x - 1, 0, buf);
            snprintf(buf, sizeof buf, " %s %s %s ", lt, tui_level_name(o->seats.seat[s].spec), gt);
            int w = tui_put(y, vx, COLS - vx - 20, attr, buf);
            tui_put(y, vx + w + 2, COLS - vx - w - 3, A_DIM,
                    fig_session_bot_name(&o->seats, s));
        } else {
            tui_put(y, x, vx - x - 1, 0, _("Seed"));
            snprintf(buf, sizeof buf, " %-12s ", ss->seed);
            int w = tui_put(y, vx, 16, attr | A_UNDERLINE, buf);
            tui_put(y, vx + w + 2, COLS - vx - w - 3, A_DIM, _("(empty: a random game)"));
        }
    }
    y++;
    const char *lines[] = {
        _("Levels: beginner makes mistakes to catch; easy plays move by move; normal, hard "
          "and max search ahead, further and further."),
        _("Up/Down: choose a line. Left/Right: change it. Type a name or a seed."),
        _("Enter starts the game. Esc leaves."),
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        int count;
        char **w = tui_wrap(lines[i], COLS - 2 * x, &count);
        for (int j = 0; j < count; j++)
            tui_put(y++, x, COLS - 2 * x, A_DIM, w[j]);
        tui_free_lines(w, count);
    }
    if (ss->error[0]) {
        int count;
        char **w = tui_wrap(ss->error, COLS - 2 * x, &count);
        y++;
        for (int j = 0; j < count; j++)
            tui_put(y++, x, COLS - 2 * x, A_BOLD, w[j]);
        tui_free_lines(w, count);
    }
    refresh();
}

/* Edits a text field with a typed character; returns true if it changed. */
static bool edit(char *buf, size_t cap, int r, wint_t ch, bool digits_only)
{
    size_t len = strlen(buf);
    bool fn = r == KEY_CODE_YES;
    if ((fn && ch == KEY_BACKSPACE) || (!fn && (ch == 127 || ch == 8))) {
        while (len > 0 && ((unsigned char)buf[len - 1] & 0xC0) == 0x80)
            len--;   /* a whole UTF-8 character */
        if (len > 0)
            len--;
        buf[len] = '\0';
        return true;
    }
    if (r == KEY_CODE_YES || ch <= ' ' || ch == '#' || ch == 127)
        return false;
    if (digits_only && (ch < '0' || ch > '9'))
        return false;
    char mb[MB_LEN_MAX];
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    size_t n = wcrtomb(mb, (wchar_t)ch, &ps);
    if (n == (size_t)-1 || len + n >= cap)
        return false;
    memcpy(buf + len, mb, n);
    buf[len + n] = '\0';
    return true;
}

/* The start screen's lines from o: the person at seat 0, bots at the others
 * (`normal` unless the command line named one; a spec that is no level is
 * kept as that seat's custom choice), the seed if one was given. */
static void start_init(start_t *ss, fig_session_opts_t *o)
{
    memset(ss, 0, sizeof *ss);
    ss->o = o;
    if (o->seats.players < FIG_MIN_PLAYERS || o->seats.players > FIG_MAX_PLAYERS)
        o->seats.players = 4;
    o->seats.seat[0].bot = false;
    for (int s = 1; s < FIG_MAX_PLAYERS; s++) {
        fig_seat_t *st = &o->seats.seat[s];
        st->bot = true;   /* the person plays seat 0, bots the others */
        if (!st->spec[0])
            snprintf(st->spec, sizeof st->spec, "%s", FIG_BOT_LEVEL_DEFAULT);
        if (level_index(st->spec) < 0)
            snprintf(ss->custom[s], sizeof ss->custom[s], "%s", st->spec);
    }
    if (o->has_seed)
        snprintf(ss->seed, sizeof ss->seed, "%llu", (unsigned long long)o->seed);
}

/* Enter: true when the lines make a game (a name, a seed that is a number or
 * none), the seed then in o; else the error shown and its line selected. */
static bool start_ready(start_t *ss)
{
    fig_session_opts_t *o = ss->o;
    if (!o->seats.seat[0].name[0]) {
        snprintf(ss->error, sizeof ss->error, "%s", _("Please type your name."));
        ss->field = 1;
        return false;
    }
    o->has_seed = ss->seed[0] != '\0';
    if (o->has_seed) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(ss->seed, &end, 10);
        if (errno || *end) {
            snprintf(ss->error, sizeof ss->error, "%s",
                     _("The seed must be a whole number (or empty)."));
            ss->field = fields(ss) - 1;
            return false;
        }
        o->seed = v;
    }
    return true;
}

/* Left or Right on the selected line: the number of players (3 to 6, round
 * the ends) or an opponent's level. */
static void start_change(start_t *ss, int dir)
{
    int *players = &ss->o->seats.players, nf = fields(ss);
    if (ss->field == 0) {
        *players += dir;
        if (*players < FIG_MIN_PLAYERS)
            *players = FIG_MAX_PLAYERS;
        if (*players > FIG_MAX_PLAYERS)
            *players = FIG_MIN_PLAYERS;
    } else if (ss->field >= 2 && ss->field < nf - 1) {
        cycle_level(ss, ss->field - 1, dir);
    }
}

/* Any other key: moving between the lines, changing one, typing a name or
 * a seed (digits only), or the number of players as a digit. */
static void start_key(start_t *ss, int r, wint_t ch)
{
    fig_session_opts_t *o = ss->o;
    int nf = fields(ss);
    bool fn = r == KEY_CODE_YES;
    ss->error[0] = '\0';
    if ((fn && ch == KEY_UP) || (fn && ch == KEY_BTAB))
        ss->field = (ss->field + nf - 1) % nf;
    else if ((fn && ch == KEY_DOWN) || (!fn && ch == '\t'))
        ss->field = (ss->field + 1) % nf;
    else if (fn && (ch == KEY_LEFT || ch == KEY_RIGHT))
        start_change(ss, ch == KEY_LEFT ? -1 : 1);
    else if (ss->field == 1)
        edit(o->seats.seat[0].name, sizeof o->seats.seat[0].name, r, ch, false);
    else if (ss->field == nf - 1) {
        if (!fn && ch > ' ' && ch != 127 && (ch < '0' || ch > '9'))
            snprintf(ss->error, sizeof ss->error, "%s",
                     _("The seed takes digits only (or stays empty for a random game)."));
        else
            edit(ss->seed, sizeof ss->seed, r, ch, true);
    } else if (ss->field == 0 && !fn && ch >= '3' && ch <= '6') {
        o->seats.players = (int)(ch - '0');
    }
}

int tui_start_screen(fig_session_opts_t *o, bool utf8)
{
    start_t ss;
    start_init(&ss, o);
    timeout(200);   /* wake now and then to see whether a signal came */
    bool dirty = true;
    for (;;) {
        if (tui_interrupted())
            return 0;
        if (dirty)
            draw_start(&ss, utf8);
        wint_t ch;
        int r = get_wch(&ch);
        dirty = r != ERR;
        if (r == ERR)
            continue;
        bool fn = r == KEY_CODE_YES;
        if (fn && ch == KEY_RESIZE)
            continue;
        if ((!fn && ch == 27))
            return 0;
        if ((fn && ch == KEY_ENTER) || (!fn && (ch == '\n' || ch == '\r'))) {
            if (start_ready(&ss))
                return 1;
            continue;
        }
        start_key(&ss, r, ch);
    }
}
