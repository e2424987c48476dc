/* fgn.h - reading and writing game records in FGN (docs/fgn.md).
 *
 * The reader checks everything a record says against the rules and stops at
 * the first offending line, with its number and a message in plain words.
 * The writer is canonical: write(read(write(g))) is byte-identical. */
#ifndef FIGARO_FGN_H
#define FIGARO_FGN_H

#include <stddef.h>

#include "figaro/game.h"

enum { FIG_FGN_LINE_MAX = 4096 };

/* Reads a record of `len` bytes (need not be NUL-terminated). On success g is
 * the game as far as the record goes. On error msg->line is the 1-based line of
 * the first offending line and g is undefined. */
fig_err_t fig_fgn_read(fig_game_t *g, const char *text, size_t len, fig_msg_t *msg);

/* Writes g as FGN into buf (NUL-terminated when cap > 0) and returns the length
 * the whole record needs, excluding the NUL, as snprintf does. */
size_t fig_fgn_write(const fig_game_t *g, char *buf, size_t cap);

#endif
