/* SPDX-License-Identifier: MIT */
/* fgn.h - reading and writing game records in FGN (docs/fgn.md).
 *
 * The reader checks everything a record says against the rules and stops at
 * the first offending line, with its number and a message in plain words.
 * The writer is canonical: write(read(write(g))) is byte-identical. */
#ifndef FIGARO_FGN_H
#define FIGARO_FGN_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/game.h"

enum { FIG_FGN_LINE_MAX = 4096 };

/* Whether byte c may stand in a name on a record's `names` line (fgn.md): a
 * name is one word, so no space or control byte, and no '#', which starts a
 * comment. The host layer checks names by it and the server cleans them by it
 * (python/figaro/game.py repeats it: a binding cannot call an inline). */
static inline bool fig_fgn_name_byte_ok(unsigned char c)
{
    return c > ' ' && c != '#' && c != 0x7F;
}

/* Reads a record of `len` bytes (need not be NUL-terminated). On success g is
 * the game as far as the record goes. On error msg->line is the 1-based line of
 * the first offending line and g is undefined. */
fig_err_t fig_fgn_read(fig_game_t *g, const char *text, size_t len, fig_msg_t *msg);

/* Writes g as FGN into buf (NUL-terminated when cap > 0) and returns the length
 * the whole record needs, excluding the NUL, as snprintf does. */
size_t fig_fgn_write(const fig_game_t *g, char *buf, size_t cap);

#endif
