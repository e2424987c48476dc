/* SPDX-License-Identifier: MIT */
/* store_header.h - the "#!" lines of a saved game (store.h): what a saved
 * file says besides its FGN record, parsed from and written to memory, for
 * the store, its tests and its fuzzer.
 *
 * A saved file is a title comment, the "#!" lines, then the FGN record
 * (docs/fgn.md). The "#!" lines are FGN comments, so any FGN reader skips
 * them; they hold who plays each seat, and lines of the front end that
 * saved it, kept as they are:
 *
 *   #! play 1                      (the format's mark)
 *   #! seat 0 human
 *   #! seat 1 bot normal
 *   #! seat 2 bot cmd:figaro engine --bot greedy
 *   #! pace 700                    (front-end lines: the terminal's display
 *   #! open 0                       options; the store never reads their
 *   #! color 0                      values)
 *
 * No control character may stand in a key or a value, so whatever is read
 * can be written back unchanged. This module touches no file; its messages
 * are English msgids put through the caller's translator. */
#ifndef FIGARO_STORE_HEADER_H
#define FIGARO_STORE_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "host/session.h"

enum {
    FIG_STORE_PATH_MAX = 4096,   /* any path the store makes fits, its NUL included */
    FIG_STORE_LINES_MAX = 16,    /* front-end lines per file */
    FIG_STORE_KEY_MAX = 32,      /* a front-end line's key, its NUL included */
    FIG_STORE_VALUE_MAX = 256,   /* a front-end line's value, its NUL included */
    FIG_STORE_FILE_MAX = 1 << 20 /* a saved file is a few kilobytes: a larger one is not ours */
};

/* One front-end line, "#! KEY VALUE". */
typedef struct {
    char key[FIG_STORE_KEY_MAX];       /* no space, no control character */
    char value[FIG_STORE_VALUE_MAX];   /* the rest of the line as written; may be "" */
    int line;                          /* its line in the file it was read from, else 0 */
} fig_store_line_t;

/* What a saved file says besides its FGN record. */
typedef struct {
    fig_seats_t seats;                 /* players, and a person or a bot spec per seat */
    bool sealed;                       /* the record is kept sealed while the game runs */
    int nlines;
    fig_store_line_t lines[FIG_STORE_LINES_MAX];
} fig_store_header_t;

/* Parses the "#!" lines of a saved file's text (len bytes; the other lines
 * are skipped) for a game of `players` seats into h. `name` names the text in
 * messages ("NAME:LINE: what is wrong"; msg->line is the line). Every seat
 * 0..players-1 must be described once ("#! seat N human" or "#! seat N bot
 * SPEC"); "#! play" is the store's own; any other "#! KEY VALUE" line is a
 * front-end line, kept as it is. h->seats' names are left empty. */
fig_err_t fig_store_parse_header(const char *text, size_t len, const char *name, int players,
                                 fig_store_header_t *h, const fig_tr_t *tr, fig_msg_t *msg);

/* Parses a whole saved file: the FGN record into g, then its "#!" lines into h
 * (with the people's and bots' names from the record, if it has names). */
fig_err_t fig_store_parse(const char *text, size_t len, const char *name, fig_game_t *g,
                          fig_store_header_t *h, const fig_tr_t *tr, fig_msg_t *msg);

/* Writes h's "#!" lines ("#! play 1", the seats, the front-end lines) into buf
 * (cap bytes, NUL-terminated when cap > 0). Returns the length the whole text
 * needs, as snprintf does: it was cut if that is >= cap. */
size_t fig_store_write_header(const fig_store_header_t *h, char *buf, size_t cap);

/* ---- for the store's modules (store*.c) */

/* fig_store_parse, but unless strict, damaged "#!" lines only set *header_ok
 * (may be NULL) false, the record read all the same: a history file with a
 * damaged seat table is still a game worth listing. */
fig_err_t store_parse_file(const char *text, size_t len, const char *name, bool strict,
                           bool *header_ok, fig_game_t *g, fig_store_header_t *h,
                           const fig_tr_t *tr, fig_msg_t *msg);

/* Whether any of the n bytes at p is a control character, which no key,
 * value or bot spec of a saved file may hold. */
bool store_has_control(const char *p, size_t n);

/* The store's messages: fmt (an English msgid) in tr's language into msg
 * (NULL: none) with its line (0: none), and err returned. */
fig_err_t store_fail(fig_msg_t *msg, const fig_tr_t *tr, int line, fig_err_t err,
                     const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
