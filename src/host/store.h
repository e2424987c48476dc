/* store.h - where `figaro play` keeps its games, for both front ends.
 *
 * Everything lives in one folder, $XDG_DATA_HOME/figaro (by default
 * ~/.local/share/figaro), created on first use:
 *
 *   current.fgn                          the game in progress, rewritten after
 *                                        every step (`figaro play --resume`)
 *   history/YYYYMMDD-HHMMSS-SEED.fgn     each finished game (`figaro history`)
 *   history/YYYYMMDD-HHMMSS-SEED-unfinished.fgn
 *                                        a game in progress set aside because a
 *                                        new one was started
 *
 * Every file is an FGN record (docs/fgn.md) preceded by comment lines that
 * FGN readers skip, holding what FGN does not say (who plays each seat, the
 * display options), e.g.
 *
 *   #! seat 0 human
 *   #! seat 1 bot normal
 *   #! seat 2 bot cmd:figaro engine --bot greedy
 *   #! pace 700
 *   #! open 0
 *
 * so `figaro replay FILE` reads any of them as it is. A file is always written
 * to a temporary file in the same folder and renamed into place, so a crash or
 * a full disk never leaves half a record behind. Functions return 0 on success
 * and -1 with a sentence in `err` on failure; nothing here prints or exits. */
#ifndef FIGARO_STORE_H
#define FIGARO_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/play.h"
#include "figaro/match.h"

enum { STORE_PATH_MAX = 4096 };

/* Writes the store folder into dir and creates it (and history/ inside) if
 * needed. Fails if neither XDG_DATA_HOME (absolute) nor HOME is set. */
int store_dir(char *dir, size_t cap, char *err, size_t errcap);

/* Writes the path of current.fgn into path (the folder is created). */
int store_current_path(char *path, size_t cap, char *err, size_t errcap);

/* Whether a game in progress is saved (current.fgn exists, readable or not). */
bool store_has_current(void);

/* Saves the match as the game in progress, with the seats (human or bot spec,
 * from the match) and opts' display options (pace, open, colour). Cheap
 * enough to call after every step. */
int store_save_current(const fig_match_t *m, const play_opts_t *opts, char *err, size_t errcap);

/* Reads the game in progress back. On success g is the record as far as it
 * went and opts holds what was saved: players, the person's name, the
 * opponents' specs (levels[1..N-1]), the seed, pace, open and colour, with
 * resume set; other fields are defaults. Returns 0; 1 if no game is saved;
 * -1 if the file cannot be read or is damaged, with err naming the file, the
 * line and what is wrong. */
int store_load_current(fig_game_t *g, play_opts_t *opts, char *err, size_t errcap);

/* Files a game into the history as history/YYYYMMDD-HHMMSS-SEED.fgn (local
 * time now; "-unfinished" added if the game is not over) and removes
 * current.fgn. path (may be NULL) receives the file written. */
int store_finish(const fig_match_t *m, const play_opts_t *opts, char *path, size_t pathcap,
                 char *err, size_t errcap);

/* Before a new game starts: moves an existing current.fgn, readable or not,
 * into the history as ...-unfinished.fgn so that nothing is overwritten.
 * path (may be NULL) receives where it went, or "" if there was nothing to
 * move. */
int store_set_aside(char *path, size_t cap, char *err, size_t errcap);

/* One file of the history, as store_history() hands it over. */
typedef struct {
    const char *path;       /* full path */
    const char *file;       /* file name alone */
    char date[20];          /* "YYYY-MM-DD HH:MM:SS" from the name, or the file's time */
    const fig_game_t *game; /* NULL if the file could not be read ... */
    const char *error;      /* ... and then why, with the line number */
    int human;              /* the person's seat (from "#! seat N human"), or -1 */
} store_entry_t;

/* Calls fn for every .fgn file of the history, oldest first (by name). A
 * nonzero return of fn stops the walk and is returned. An empty or missing
 * history calls fn never and returns 0; -1 if the folder cannot be read. */
int store_history(int (*fn)(void *ctx, const store_entry_t *e), void *ctx, char *err,
                  size_t errcap);

#endif
