/* SPDX-License-Identifier: MIT */
/* play.h - `figaro play`: a person against bots, full-screen (tui/tui.h) or
 * as plain lines (play_plain.c), and `figaro history`. The games are kept in
 * a store (host/store.h) on $XDG_DATA_HOME/figaro, by default
 * ~/.local/share/figaro: this command finds that folder, nothing below it
 * reads the environment.
 *
 * The options are two parts: the game (who plays and the seed: the host's
 * fig_session_opts_t, the person at seat 0 and bots at 1..N-1) and how the
 * terminal shows it (tui_display_t, which the full-screen game shares). */
#ifndef FIGARO_PLAY_H
#define FIGARO_PLAY_H

#include <stdbool.h>

#include "figaro/figaro.h"
#include "host/session.h"
#include "host/store.h"
#include "tui/tui.h"

typedef struct {
    fig_session_opts_t game;   /* players, the person's name (seat 0), bots' specs, seed */
    tui_display_t display;     /* --plain, --fast, --pace, --open, --color, --lang */
    bool resume;               /* --resume: continue the saved game */
} play_opts_t;

int cmd_play(int argc, char **argv);
int cmd_history(int argc, char **argv);   /* history.c */

/* Opens the store on $XDG_DATA_HOME/figaro, or ~/.local/share/figaro, in
 * the process's language (the person's games: `figaro play` and `figaro
 * history`). */
fig_err_t play_open_store(fig_store_t **out, fig_msg_t *msg);

/* The plain front end; returns an exit status (0, 1). cmd_play has checked
 * opts; with `saved` (read from the store with its seat table) that game goes
 * on (--resume) or is offered first ("Continue your saved game? (y/n)"),
 * else a new game of opts starts. The game is saved in `store` after every
 * step; tr is the person's language for the host's messages. */
int play_plain(const play_opts_t *opts, const tui_saved_t *saved, fig_store_t *store,
               const fig_tr_t *tr);

/* An action as a person types it in plain mode, in the process's language:
 * "R2>1", "Ve2>1" in French, "take" (plain_show.c; figaro learn too). */
void plain_action_code(fig_action_t a, char *buf, size_t cap);

/* The cards of a pile as a hand, for printing them (plain_show.c; figaro
 * learn too). */
void plain_pile_cards(const fig_pile_t *pile, fig_hand_t *h);

/* Prints a paragraph wrapped to 78 columns (plain_show.c; figaro learn too). */
void plain_print_para(const char *text);

#endif
