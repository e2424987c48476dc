/* play.h - `figaro play`: a person against bots, full-screen (tui.c) or as
 * plain lines (play_plain.c); games saved under $XDG_DATA_HOME/figaro (store.h). */
#ifndef FIGARO_PLAY_H
#define FIGARO_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/figaro.h"

typedef struct {
    bool plain;                                /* --plain: lines on stdin/stdout */
    bool fast;                                 /* --fast: no pause between bot moves */
    bool open;                                 /* --open: show stack counts and roads (R14 option) */
    bool resume;                               /* --resume: continue the saved game */
    bool color;                                /* plain mode: ANSI colours (--color) */
    int players;                               /* 3..6, default 4 */
    char name[FIG_NAME_MAX + 1];               /* the person's name, default from $USER or "You" */
    char levels[FIG_MAX_PLAYERS][64];          /* opponents' specs, seats 1..N-1 (default "normal") */
    uint64_t seed;
    bool has_seed;                             /* else a seed from the clock, printed */
    int pace_ms;                               /* pause after each bot move, default 700; 0 if fast */
    const char *lang;                          /* --lang, or NULL for the locale */
} play_opts_t;

int cmd_play(int argc, char **argv);
int cmd_history(int argc, char **argv);

/* The two front ends; both return an exit status (0, 1, 2). */
int play_plain(const play_opts_t *opts);
int play_tui(const play_opts_t *opts);

#endif
