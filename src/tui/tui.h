/* SPDX-License-Identifier: MIT */
/* tui.h - the full-screen game (`figaro play`), shared by its files: tui.c
 * (the loop, game after game), tui_turn.c (the state between keys, the
 * match's steps), tui_input.c (keys and the mouse), tui_hint.c (the hint),
 * tui_start.c (the start screen), tui_match.c (starting the match, plain
 * mode's too), tui_draw.c (the table), tui_overlay.c (the windows over it),
 * tui_screen.c (what they draw with), tui_wide.c (text in the terminal's
 * columns), tui_sheet.c (the score sheet as text, plain mode's too) and
 * tui_text.c (what happened, in sentences from narrate.c; the keys; the hint's
 * reason); tui_learn.c is `figaro learn` full screen.
 *
 * What is drawn comes from the person's view (fig_match_view) and from the
 * public actions of the record, never from another seat's hand (R14). The
 * record's hands are read in one place only: the person's own hand, to tell the
 * hint bot what its seat holds. */
#ifndef FIGARO_TUI_H
#define FIGARO_TUI_H

#include <libintl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/hint.h"
#include "host/lesson.h"
#include "host/pool.h"
#include "host/session.h"
#include "host/sheet.h"
#include "host/store.h"

/* How the terminal shows a game: the display options of `figaro play`, for
 * both terminal front ends (this one, and plain lines in cli/play_plain.c).
 * The game itself (who plays, the seed) is a fig_session_opts_t. */
typedef struct {
    bool plain;                  /* --plain: lines on stdin/stdout */
    bool fast;                   /* --fast: no pause between bot moves */
    bool open;                   /* --open: show stack counts and roads (R14 option) */
    bool color;                  /* plain mode: ANSI colours (--color) */
    int pace_ms;                 /* pause after each bot move, default 700; 0 if fast */
    const char *lang;            /* --lang, or NULL for the locale */
} tui_display_t;

/* A saved game that may go on: its record (read from the store, which holds
 * its seat table), who plays it and how it was shown. */
typedef struct {
    const fig_game_t *record;
    fig_session_opts_t game;     /* its seat table and seed */
    tui_display_t display;       /* the saved display options under the command line's */
    bool ask;                    /* ask first, "Continue your saved game?"; else go on */
} tui_saved_t;

/* The full-screen game; returns an exit status (0, 1). `game` is who plays
 * (the person at seat 0) and the seed, shown on the start screen first; with
 * `saved` that game goes on instead (--resume), or is offered first. The game
 * is saved in `store` after every step. tr is the person's language for the
 * messages of the host layer. */
int play_tui(const fig_session_opts_t *game, const tui_display_t *display,
             const tui_saved_t *saved, fig_store_t *store, const fig_tr_t *tr);

/* One line on a saved game for the question "Continue your saved game?":
 * "Round 2 of 3, Ann against Rosina, Bartolo and Basilio, 23 moves played."
 * (tui_match.c) */
void tui_saved_summary(const fig_game_t *g, char *buf, size_t cap);

/* The full-screen game's own strings: GNU gettext in the language the command
 * chose for the process (the terminal has one person). What the host layer
 * says (narration, the rules, the engine's refusals) goes through the
 * translator play_tui was given instead, the same language as a fig_tr_t. */
#define _(s) gettext(s)

/* The smallest terminal the table is drawn in (checked at every redraw). */
enum { TUI_MIN_COLS = 80, TUI_MIN_LINES = 24 };

/* What covers the table, if anything. */
typedef enum {
    OV_NONE,
    OV_HELP,    /* the rules, scrollable */
    OV_LOG,     /* everything that happened, scrollable */
    OV_QUIT,    /* "quit and save? y/n" */
    OV_ROUND,   /* a round is over: how the road pieces went (a key continues) */
    OV_OVER,    /* the game is over: ranking and roads */
    OV_SHEET    /* the score sheet: cards collected and road pieces, round by round */
} tui_overlay_t;

/* Colour pairs. */
enum { PAIR_RED = 1, PAIR_BLUE, PAIR_GREEN, PAIR_YELLOW, PAIR_PURPLE, PAIR_JESTER, PAIR_RING,
       PAIR_TARGET, PAIR_TITLE, PAIR_DIM, PAIR_WARN };

/* One line of the log: a sentence, and the round it belongs to. */
typedef struct {
    char *text;
    int round;
} tui_line_t;

/* The hint: an ismcts bot told the person's hand and the public actions,
 * thinking on the pool (host/hint.h). */
typedef struct {
    fig_hint_t *handle;     /* the search, on the pool (host/hint.h) */
    bool wanted;            /* show it when it arrives */
    long position;          /* actions + deals in the record of `action` */
    bool have;              /* `text` and `action` hold the hint for `position` */
    fig_action_t action;
    char text[800];                 /* the headline and its one reason */
    char more[1 + FIG_HINT_TOP][800];   /* the same, then the top moves, for the log */
    int nmore;
    bool logged;            /* `more` is in the log already */
} tui_hint_t;

/* A clickable rectangle: a card of the hand or a player's row. */
typedef struct {
    int y, x0, x1;          /* x1 exclusive */
    int what;               /* 0: hand slot, 1: a seat */
    int index;
} tui_region_t;

typedef struct {
    tui_display_t opts;
    fig_session_opts_t game;   /* the seat table and the seed */
    fig_store_t *store;
    const fig_tr_t *tr;
    fig_pool_t *pool;          /* where the bots and the hint think */
    fig_match_t *m;
    int me;                 /* the person's seat */
    int n;                  /* players */
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    char specs[FIG_MAX_PLAYERS][64];   /* bots' specs as given, "" for the person */
    fig_view_t view;        /* the person's view, refreshed after every step */
    bool utf8;              /* the terminal takes UTF-8: ♔, ▶, bars */
    bool colour;

    /* the person's choice */
    bool my_turn;           /* the match waits for the person */
    fig_action_t legal[FIG_MAX_ACTIONS];
    int nlegal;             /* the person's legal actions, when my_turn */
    int nslots;             /* distinct kinds in hand, sorted */
    int slot_kind[FIG_KINDS];
    int slot;               /* selected slot */
    int target;             /* selected target seat, -1 if none */
    bool confirm_take;      /* `t` asked "Take the N face-up cards?": the next key answers */

    /* what happened */
    tui_line_t *log;
    int nlog, caplog;
    int fresh;              /* lines of the log added by the last step (shown bold) */
    char status[320];       /* one line under the hand: a refusal, a hint, ... */
    bool status_warn;

    /* screens */
    tui_overlay_t overlay;
    tui_overlay_t quit_over;   /* what the quit question covers: back to it on "no" */
    int scroll;
    int log_round;          /* the round new log lines belong to */
    int round_log_start;    /* first log line of the last round's scoring */
    bool dirty;
    bool quit;
    bool finished;          /* the game is over and the history has it */
    bool again;             /* the person asked for another game (n, once it is over) */
    int over_log_start;     /* first log line of the game's end, or nlog before it */
    char result[4096];      /* what to print when the screen is gone */

    /* pacing */
    long long next_step_at; /* monotonic ms before which no bot move is shown */
    int pace_ms;

    tui_hint_t hint;

    /* the last move, highlighted on the table */
    int last_kind;          /* the card last played (a FIG_* kind), or -1 */
    int last_target;        /* in front of whom */
    int last_collector;     /* who collected with the last move, or -1 */
    int last_collected;     /* how many cards */


    tui_region_t regions[FIG_KINDS + FIG_MAX_PLAYERS];
    int nregions;
} tui_t;

/* ---- tui_turn.c: the state between keys ---- */

/* The status line under the hand (printf-style); `warn` shows it as a warning. */
void tui_status(tui_t *t, bool warn, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Actions and deals in the record so far: names a position for the hint. */
long tui_position(const tui_t *t);

/* Whether the person may play `a` now: one of t->legal (fig_view_legal). */
bool tui_legal(const tui_t *t, fig_action_t a);

/* The kind of card selected in the hand, or -1. */
int tui_cur_kind(const tui_t *t);

/* Selects hand slot `slot` (round the ends), and a seat it may go to. */
void tui_select_slot(tui_t *t, int slot);

/* Moves the target to the next (dir 1) or previous (-1) seat the card may go to. */
void tui_step_target(tui_t *t, int dir);

/* Refreshes the person's view, hand slots and legal actions after a step. */
void tui_update_view(tui_t *t);

/* Saves the game in progress (store.h); a failure goes to the status. */
void tui_save(tui_t *t);

/* Moves the match on if its time has come (paced, and never under a window);
 * returns true if something happened. */
bool tui_advance(tui_t *t);

/* Plays `a` for the person, or says in the status why it may not be played. */
void tui_play(tui_t *t, fig_action_t a);

/* Why the selected card may not go in front of seat s, into the status. */
void tui_refuse(tui_t *t, int kind, int s);

/* ---- tui_hint.c ---- */

/* `h`: the hint for this position, shown at once if known, else asked of
 * the pool (tui_hint_done shows it when it comes). */
void tui_ask_hint(tui_t *t);

/* The hint's descriptor is readable: its answer explained, and shown if the
 * person still wants it for this position (else asked again). */
void tui_hint_done(tui_t *t);

/* ---- tui_input.c: keys and the mouse ---- */

/* One key (get_wch's r and ch): on the table or the window over it. */
void tui_key(tui_t *t, int r, wint_t ch);

/* Whether ch answers yes (y, or the language's key) or no to a y/n question. */
bool tui_is_yes(wint_t ch);
bool tui_is_no(wint_t ch);

/* ---- tui_learn.c ---- */

/* `figaro learn` full screen (host/lesson.h): from lesson `from` (-1: where
 * `progress` says), `one` lesson only or on to the last; the progress is
 * written in `dir` (NULL: nowhere) at every step. tr is the learner's
 * language for the lessons' texts and the narration. Returns an exit status;
 * *play_after tells whether the learner, having done every lesson, asked for
 * the first game (the caller starts it). */
int learn_tui(const fig_lessons_t *ls, int from, bool one, const char *dir,
              const fig_lesson_progress_t *progress, const fig_tr_t *tr, bool *play_after);

/* ---- tui_signal.c ---- */

/* Catches SIGINT, SIGTERM and SIGHUP (the old dispositions into old), and
 * puts them back. */
void tui_catch_signals(struct sigaction old[3]);
void tui_restore_signals(const struct sigaction old[3]);

/* Whether SIGINT, SIGTERM or SIGHUP came: leave, restoring the terminal. */
bool tui_interrupted(void);

/* ---- tui_start.c ---- */

/* Runs the start screen, filling o (players, the person's name at seat 0,
 * the bots' specs at seats 1..N-1, the seed); returns 1 to play, 0 if the
 * person leaves (Esc). */
int tui_start_screen(fig_session_opts_t *o, bool utf8);

/* ---- tui_match.c: before a game, for both front ends (no curses) ---- */

/* A level's name in the person's language ("facile"); any other spec as it is. */
const char *tui_level_name(const char *spec);

/* Starts the game of either terminal front end (this one and plain mode),
 * the same way: with `saved` the saved game goes on, with game's seat table
 * (the store's, as fig_store_load_current read it); else a new game of game's
 * seats and seed, once the store's game in progress, if any, is set aside
 * into the history (`aside` receives where it went, or ""). A new game
 * without a seed gets a secret one and is saved sealed (store.h) until it
 * ends. On success the store holds the game's seat table and the display
 * options as its front-end lines ("pace N", "open 0|1", "color 0|1"), and
 * game its seed and names. On failure *out is NULL and msg says why (a damaged save, a bot
 * that cannot start). */
fig_err_t tui_match_start(fig_session_opts_t *game, const tui_display_t *display,
                          const fig_game_t *saved, fig_store_t *store, const fig_tr_t *tr,
                          fig_match_t **out, char *aside, size_t asidecap, fig_msg_t *msg);

/* ---- tui_wide.c: text in the terminal's columns (no curses) ---- */

/* Number of screen columns a UTF-8 string takes. */
int tui_width(const char *s);

/* UTF-8 text as wide characters (invalid bytes become '?'), as many as fit
 * in `maxw` columns and in w (cap, the NUL included); returns their number,
 * and the columns they take in *cols. */
int tui_widen(const char *s, int maxw, wchar_t *w, int cap, int *cols);

/* Whether the locale's character set is UTF-8 (else the ASCII stand-ins:
 * '#' for '▮', '.' for '·', ...). */
bool tui_utf8(void);

/* Splits UTF-8 text into lines of at most `width` columns (at spaces where it
 * can; "\n" forces a break). Returns a malloc'ed array of malloc'ed lines and
 * their number in *count; free with tui_free_lines. */
char **tui_wrap(const char *s, int width, int *count);
void tui_free_lines(char **lines, int count);

/* ---- tui_sheet.c: the score sheet as text (no curses) ---- */

/* The score sheet (host/sheet.h) as lines of text, its columns padded: the
 * heading, the sub-heading (cards, piece), one line per player; hidden
 * numbers are a dot (cards) or a block (a piece, a road), "#" and "." without
 * UTF-8. Returns the number of lines, 0 if cap is too small. The full-screen
 * sheet and plain mode's `score` print these same lines, and tui_sheet_note()
 * under them while numbers are hidden. */
enum { TUI_SHEET_LINE = 256 };
int tui_sheet_text(const fig_sheet_t *sh, const char names[][FIG_NAME_MAX + 1], bool utf8,
                   char lines[][TUI_SHEET_LINE], int cap);
const char *tui_sheet_note(void);

/* ---- tui_screen.c: what every full-screen view draws with ---- */

/* Whether the terminal is smaller than TUI_MIN_COLS x TUI_MIN_LINES. */
bool tui_too_small(void);

/* Writes UTF-8 text at (y, x), cut to `maxw` columns; returns the columns used. */
int tui_put(int y, int x, int maxw, int attr, const char *s);

/* Draws a card at (y, x) with its colour, "[R2]"; returns its width. */
int tui_draw_card(const tui_t *t, int y, int x, int kind, int extra_attr);

/* The attribute of a card's code: bold, in its colour when the terminal has them. */
int tui_card_attr(const tui_t *t, int kind);

/* The columns tui_draw_card takes for a card of that kind. */
int tui_card_width(int kind);

/* A box with a line around it, blank inside: h lines of w columns at (y0, x0). */
void tui_box(int y0, int x0, int h, int w);

/* Draws msg wrapped to the screen's width, bold, centred vertically: the
 * message for a terminal too small for the game. */
void tui_draw_notice(const char *msg);

/* The terminal's modes once curses runs it: keys one at a time, unechoed,
 * arrows as keys, no cursor, a short Esc; with `mouse` its clicks too. */
void tui_modes(bool mouse);

/* The colour pairs (PAIR_*), when the terminal has colours: t->colour says. */
void tui_colours(tui_t *t);

/* ---- tui_overlay.c ---- */

/* Draws the window over the table, t->overlay (not OV_NONE), scrolled to
 * t->scroll (which it keeps within the lines there are). */
void tui_draw_overlay(tui_t *t);

/* ---- tui_draw.c ---- */

/* Draws everything for the current state: the table or the overlay, or the
 * "too small" message. */
void tui_draw(tui_t *t);

/* ---- tui_text.c ---- */

/* The card as text, "[R2]" / "[J1]" / "[RING]" (the codes of the person's
 * language, narrate.h), into buf. */
const char *tui_card(int kind, char *buf, size_t cap);

/* The card's code alone, "R2", in the person's language. */
const char *tui_code(int kind, char *buf, size_t cap);

/* The keys that pick the cards of the hand, in order: digits, then letters
 * that are no other key of the table (h, j, k, l, n, q, s, t are). Enough
 * for the 18 kinds of card. */
#define TUI_SLOT_KEYS "1234567890abcdefgi"

/* The key that picks hand slot i (its label under the card), or 0. */
int tui_slot_key(int i);

/* The keys, translated, for the help: keys[i][0] the key, keys[i][1] what it
 * does. Returns the number filled (at most cap). */
int tui_keys(const char *keys[][2], int cap);

/* Appends a sentence to the log (printf-style). */
void tui_log(tui_t *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends the sentences for one step to the log; `before` is the person's view
 * before the step. */
void tui_log_step(tui_t *t, const fig_match_step_t *step, const fig_view_t *before);

/* Why the person may not play a now, in their words ("[B2] cannot go in front
 * of Bob: Ann already has blue."), narrate.h's one wording for every front
 * end; "" for a legal action. */
void tui_refusal(const tui_t *t, fig_action_t a, char *buf, size_t cap);

/* The hint with what the search saw (an: its analysis, or NULL): the
 * headline, the one reason and the top moves (host/hint.h), in the person's
 * words, from the person's view (t->view) only. */
void tui_explain_search(const tui_t *t, fig_action_t a, const fig_analysis_t *an,
                        fig_hint_text_t *out);

/* The review of the person's moves in the finished game (host/review.h),
 * written to the log: each mistake and inaccuracy, then the summary. It
 * searches every move again from what the person knew then (R14), with the
 * review's own search (the same review as `figaro review`), on the caller's
 * thread. */
void tui_review(tui_t *t);

/* "Bob", or "you" for the person (translated), for a seat after "in front
 * of": "[R2] cannot go in front of you". */
const char *tui_name(const tui_t *t, int seat);

/* The seat's name, the person's own included ("Ann"); "?" out of range. */
const char *tui_seat_name(const tui_t *t, int seat);

#endif
