/* SPDX-License-Identifier: MIT */
/* store.h - saved games: a handle on one folder that holds a game in progress
 * and a history of games, for every front end.
 *
 * The caller chooses the folder (the terminal's `figaro play` passes
 * $XDG_DATA_HOME/figaro, by default ~/.local/share/figaro). In it:
 *
 *   current.fgn                          the game in progress, rewritten after
 *                                        every step (`figaro play --resume`)
 *   history/YYYYMMDD-HHMMSS-SEED.fgn     each finished game (`figaro history`)
 *   history/YYYYMMDD-HHMMSS-SEED-unfinished.fgn
 *                                        a game in progress set aside because a
 *                                        new one was started
 *
 * Every file is an FGN record (docs/fgn.md) preceded by "#!" comment lines
 * that FGN readers skip, holding what FGN does not say: who plays each seat,
 * and lines of the front end that saved it, kept as they are
 * (store_header.h), so `figaro replay FILE` reads any of them as it is.
 * People's names are the record's own (its `names` line).
 *
 * Sealed games. A game whose deals must stay secret while it runs (one whose
 * seed nobody chose: rule R14, no player sees another's hand) is saved
 * sealed: the "#!" lines in clear, then the FGN record XORed with a keystream
 * drawn from a key kept in another file of the folder (`key`, made on the
 * first sealed save, readable by its owner only) and a fresh nonce, as hex on
 * "#=" lines (store_seal.h). Reading a sealed file opens it with the key (a
 * missing key or one that does not open it is an error); the game goes on
 * sealed, and is filed in clear once it is over. This keeps the hands out of
 * sight of the player, of a text editor and of every figaro command while
 * the game runs; it is not a defence against the machine's owner reading the
 * key and this source (the game runs on their machine: docs/play.md says
 * so).
 *
 * The handle holds the seat table and the front-end lines of the game in
 * progress: set them when a game starts (or load them with the game), then
 * each save needs only the record. Reading never changes anything on disk;
 * folders are created when something is written. A file is always written to
 * a temporary file in the same folder and renamed into place, so a crash or a
 * full disk never leaves half a record behind. Every function returns a
 * fig_err_t with a message for people in msg (English msgids put through the
 * translator given to fig_store_open), naming the file and, for a damaged
 * one, the line; nothing here prints or exits. */
#ifndef FIGARO_STORE_H
#define FIGARO_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "host/session.h"
#include "host/store_header.h"   /* the format: fig_store_header_t, its parser */
#include "host/store_seal.h"     /* sealed games: fig_store_is_sealed */

typedef struct fig_store fig_store_t;

/* Opens the store on `root` (created only when a game is first written).
 * tr is the language of every message of the store (NULL: English); it must
 * outlive the handle. FIG_ERR_INPUT for an empty or too long root,
 * FIG_ERR_SPACE when memory runs out. Free with fig_store_free. */
fig_err_t fig_store_open(fig_store_t **out, const char *root, const fig_tr_t *tr,
                         fig_msg_t *msg);

void fig_store_free(fig_store_t *s);   /* NULL is a no-op */

/* The folder, current.fgn and history/ (paths, whether they exist or not). */
const char *fig_store_root(const fig_store_t *s);
const char *fig_store_current_path(const fig_store_t *s);
const char *fig_store_history_path(const fig_store_t *s);

/* Whether a game in progress is saved (current.fgn exists, readable or not). */
bool fig_store_has_current(const fig_store_t *s);

/* ---- the game in progress: its seat table and front-end lines */

/* Whether the game in progress is kept sealed until it ends (see "Sealed
 * games" above): set for a game whose seed is secret; a sealed game read
 * back stays sealed. A finished game is always filed in clear. */
void fig_store_set_sealed(fig_store_t *s, bool sealed);

/* Sets who plays each seat of the game in progress (names are the record's
 * and are not saved from here). FIG_ERR_INPUT if the table cannot be saved:
 * players out of 3..6, a bot without a spec, a spec with control characters
 * or starting with a space. */
fig_err_t fig_store_set_seats(fig_store_t *s, const fig_seats_t *seats, fig_msg_t *msg);
const fig_seats_t *fig_store_seats(const fig_store_t *s);

/* Sets the front-end line `key` (replacing its value if it is there, else
 * appending it). The key is a word of at most FIG_STORE_KEY_MAX - 1 bytes
 * without spaces or control characters, other than the store's own "play"
 * and "seat"; the value has no control characters and starts with no space.
 * FIG_ERR_INPUT otherwise, FIG_ERR_SPACE if FIG_STORE_LINES_MAX are set. */
fig_err_t fig_store_set_line(fig_store_t *s, const char *key, const char *value,
                             fig_msg_t *msg);

/* The value of front-end line `key` (the last one if a file said it twice),
 * or NULL. *line (may be NULL) receives its line in the file read, or 0. */
const char *fig_store_line(const fig_store_t *s, const char *key, int *line);

/* Removes every front-end line. */
void fig_store_clear_lines(fig_store_t *s);

/* The seat table and front-end lines together. */
const fig_store_header_t *fig_store_header(const fig_store_t *s);

/* ---- saving and reading */

/* Whether g is worth keeping: false while people sit at the table (seats)
 * and none of them has made a move yet (a start abandoned before playing is
 * not a game to resume or list); true at a table of bots alone. */
bool fig_store_worth_keeping(const fig_game_t *g, const fig_seats_t *seats);

/* Saves g as the game in progress, with the handle's seat table (whose
 * players must be g's) and front-end lines. Cheap enough to call after every
 * step. A game not worth keeping yet (fig_store_worth_keeping) is not
 * written: FIG_OK, and current.fgn stays as it was. FIG_ERR_STATE without a
 * matching seat table. */
fig_err_t fig_store_save_current(fig_store_t *s, const fig_game_t *g, fig_msg_t *msg);

/* Reads the game in progress back into g, and its seat table and front-end
 * lines into the handle (a person's name from the record, when it has names).
 * *found is false, and FIG_OK returned, if no game is saved. FIG_ERR_INPUT if
 * the file cannot be read or is damaged, msg naming the file, the line and
 * what is wrong ("/.../current.fgn:4: seat 1 is described twice"); the handle
 * is then unchanged. */
fig_err_t fig_store_load_current(fig_store_t *s, fig_game_t *g, bool *found, fig_msg_t *msg);

/* Files g into the history as history/YYYYMMDD-HHMMSS-SEED.fgn (local time
 * now; "-unfinished" added if the game is not over; -2, -3... if the name is
 * taken) with the handle's seat table and lines, then removes current.fgn.
 * path (may be NULL) receives the file written. */
fig_err_t fig_store_finish(fig_store_t *s, const fig_game_t *g, char *path, size_t pathcap,
                           fig_msg_t *msg);

/* Before a new game starts: moves an existing current.fgn, readable or not,
 * into the history as ...-unfinished.fgn, so that nothing is overwritten; one
 * that reads as a game not worth keeping (fig_store_worth_keeping) is
 * removed instead. path (may be NULL) receives where it went, or "" if there
 * was nothing to keep. */
fig_err_t fig_store_set_aside(fig_store_t *s, char *path, size_t pathcap, fig_msg_t *msg);

/* Reads any saved file (current.fgn, a history file, a copy) into g and h,
 * opening a sealed one; the handle is not changed. Errors as
 * fig_store_load_current. */
fig_err_t fig_store_read(const fig_store_t *s, const char *path, fig_game_t *g,
                         fig_store_header_t *h, fig_msg_t *msg);

/* Makes the unfinished game of the history file `path` the game in progress
 * again (`figaro play --resume N`): reads it into g (and its seat table and
 * lines into the handle), sets an existing current.fgn aside into the
 * history (aside, may be NULL, receives where it went, or ""), saves the game
 * as current.fgn and removes `path`. Nothing changes if the file cannot be
 * read (FIG_ERR_INPUT) or holds a finished game (FIG_ERR_STATE). */
fig_err_t fig_store_reopen(fig_store_t *s, const char *path, fig_game_t *g, char *aside,
                           size_t asidecap, fig_msg_t *msg);

/* ---- the history */

/* Removes the history file `path` (as fig_store_history handed it over).
 * FIG_ERR_INPUT if path is not a file of this store's history or cannot be
 * removed. */
fig_err_t fig_store_remove(const fig_store_t *s, const char *path, fig_msg_t *msg);

/* One file of the history, as fig_store_history() hands it over. */
typedef struct {
    const char *path;                  /* full path */
    const char *file;                  /* file name alone */
    char date[20];                     /* "YYYY-MM-DD HH:MM:SS" from the name, or the file's time */
    const fig_game_t *game;            /* NULL if the file could not be read ... */
    const char *error;                 /* ... and then why, with the line number */
    const fig_store_header_t *header;  /* NULL if its "#!" lines are damaged (or no game) */
    bool sealed;                       /* a sealed game in progress: its seed is secret */
} fig_store_entry_t;

/* Receives one entry; returns false to stop the walk. */
typedef bool fig_store_walk_fn(void *ctx, const fig_store_entry_t *e);

/* Calls fn for every .fgn file of the history, oldest first (by name). A
 * missing history calls fn never. FIG_ERR_INPUT if the folder cannot be read,
 * FIG_ERR_SPACE if memory runs out. */
fig_err_t fig_store_history(const fig_store_t *s, fig_store_walk_fn *fn, void *ctx,
                            fig_msg_t *msg);

#endif
