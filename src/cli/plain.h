/* SPDX-License-Identifier: MIT */
/* plain.h - `figaro play --plain` (play_plain.c, the game), shared by its
 * files: plain_show.c (what it prints from the person's view: the table,
 * the menu, the score sheet, the hint, the log, the help) and plain_turn.c
 * (the person's turn: a line read, a command or a move, and each step told
 * and saved). Everything printed comes from seat 0's view and the public
 * events (R14). */
#ifndef FIGARO_CLI_PLAIN_H
#define FIGARO_CLI_PLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/hint.h"
#include "host/narrate.h"
#include "host/session.h"
#include "host/store.h"
#include "host/util.h"
#include "tui/tui.h"

typedef struct {
    tui_display_t o;                          /* how to show the game */
    fig_session_opts_t game;                  /* who plays, the seed */
    bool resume;
    fig_store_t *store;
    const fig_tr_t *tr;
    fig_match_t *m;
    int n;                                    /* players */
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    fig_view_t view;                          /* seat 0's view after the last step told */
    fig_buf_t log;                            /* everything said, '\n'-separated */
    fig_narrator_t narr;                           /* tells steps and menu lines (seat 0: "You") */
    int last_about;                           /* what the last sentence told was about */
    size_t over_at;                           /* where the end of the game starts in the log */
    bool echo;                                /* print what is said (off while rebuilding) */
    bool save_warned;
    bool script;                              /* standard input is not a terminal */
    fig_hint_t *hint;                         /* made at the first `hint` */
} plain_t;

/* ---- plain_show.c ---- */

/* A card inside narrate.c's sentences and menu lines: "R2", coloured with
 * --color (ctx: the plain_t). */
const char *plain_narrate_card(void *ctx, int kind, char *buf, size_t cap);

/* The table as seat 0 sees it: each seat's pile, hand size and road, then
 * the person's hand. */
void plain_show_table(plain_t *p);

/* The menu: the person's legal moves, numbered, each with what it does. */
void plain_show_menu(const plain_t *p, const fig_action_t *acts, int n);

/* `help`: the commands. */
void plain_show_help(void);

/* `score`: the score sheet, the full-screen game's lines (tui_sheet_text). */
void plain_show_sheet(const plain_t *p);

/* `hint`: the move the strongest level would make, and why (waits for it). */
void plain_show_hint(plain_t *p);

/* `log`: everything told so far, or its `last` lines (last > 0). */
void plain_show_log(const plain_t *p, long last);

/* ---- plain_turn.c ---- */

/* Tells one step (narrate.c); before/after are seat 0's views around it. */
void plain_tell_step(plain_t *p, const fig_match_step_t *step, const fig_view_t *before,
                     const fig_view_t *after);

/* A step of the match: seat 0's view refreshed, the step told, the game saved. */
void plain_told(plain_t *p, const fig_match_step_t *step);

/* Saves the game in progress; a failure is said once, on standard error. */
void plain_autosave(plain_t *p);

/* Reads one line of the person's answer into *line (trimmed); false at the
 * end of the input. A script's answer is echoed, so the output reads as a
 * dialogue. */
bool plain_read_line(plain_t *p, char **line, size_t *cap);

/* Reads and carries out the person's input until one action is played
 * (PLAIN_TURN_PLAYED) or the person leaves (an exit status). */
enum { PLAIN_TURN_PLAYED = -1 };
int plain_person_turn(plain_t *p);

#endif
