/* play.h - `figaro play`: a person against bots, full-screen (tui.c) or as
 * plain lines (play_plain.c); games saved under $XDG_DATA_HOME/figaro (store.h). */
#ifndef FIGARO_PLAY_H
#define FIGARO_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/figaro.h"
#include "figaro/match.h"

typedef struct {
    bool plain;                                /* --plain: lines on stdin/stdout */
    bool fast;                                 /* --fast: no pause between bot moves */
    bool open;                                 /* --open: show stack counts and roads (R14 option) */
    bool resume;                               /* --resume: continue the saved game */
    bool color;                                /* plain mode: ANSI colours (--color) */
    int players;                               /* 3..6, default 4 */
    char name[FIG_NAME_MAX + 1];               /* the person's name, default from $USER or "You" */
    char levels[FIG_MAX_PLAYERS][128];          /* levels[s]: seat s's spec, s = 1..N-1 ("normal") */
    uint64_t seed;
    bool has_seed;                             /* else a seed from the clock, printed */
    int pace_ms;                               /* pause after each bot move, default 700; 0 if fast */
    const char *lang;                          /* --lang, or NULL for the locale */
    const fig_tr_t *tr;                        /* the person's language, for narration */
} play_opts_t;

int cmd_play(int argc, char **argv);
int cmd_history(int argc, char **argv);

/* The two front ends; both return an exit status (0, 1, 2). cmd_play has
 * checked opts and, with --resume, already filled them from the saved game
 * (store_load_current) with the command line's display options on top. */
int play_plain(const play_opts_t *opts);
int play_tui(const play_opts_t *opts);

/* Creates the match both front ends play: the person at seat 0 named
 * opts->name, bots at seats 1..N-1 from opts->levels (cli_bot_new, each
 * seeded from the game seed and its seat, so a seed and the person's moves
 * give the same game), deals from the seed. Without opts->has_seed a seed
 * is taken from the clock and stored in opts (show it: it replays the game).
 * A game in progress already saved is first set aside into the history
 * (store_set_aside), never overwritten; `aside` (may be NULL) receives where
 * it went, or "".
 * With opts->resume the saved game is read back instead (store.h) and its
 * seats, names and seed replace those of opts.
 * Returns EXIT_OK, or EXIT_INPUT with a sentence in err (a damaged save, a
 * bot that cannot start). */
int play_match_start(play_opts_t *opts, fig_match_t **out, char *aside, size_t asidecap,
                     char *err, size_t errcap);

/* The name of a bot seat when the record has none ("Rosina", "Bartolo"...),
 * never equal to `person`. */
const char *play_bot_name(int seat, const char *person);

#endif
