/* SPDX-License-Identifier: MIT */
/* fep_line.h - an FEP engine's lines (docs/fep.md), as the host reads them:
 * cut out of what the pipe delivered, and classified. Pure functions, with no
 * process and no clock, so that tests/fuzz/fuzz_fep_host.c can drive them with
 * anything an engine might write. */
#ifndef FIGARO_HOST_FEP_LINE_H
#define FIGARO_HOST_FEP_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/action.h"

enum { FIG_FEP_LINE_CAP = 4096 };   /* longest engine line, "\n" included */

/* Takes the first whole line out of buf (len bytes, updated): copies it into
 * out (which holds FIG_FEP_LINE_CAP bytes) without its "\n" or "\r\n",
 * NUL-terminated, length in *outlen, and moves the rest of buf to its start.
 * Returns false, changing nothing, when buf holds no "\n". len must be at
 * most FIG_FEP_LINE_CAP. */
bool fig_fep_split_line(char *buf, size_t *len, char *out, size_t *outlen);

/* What an engine's line is. Words are separated by spaces and tabs and read
 * case-insensitively; a line holding a NUL byte is never `fepok` or `play`. */
typedef enum {
    FIG_FEP_BLANK,       /* nothing but spaces: ignored */
    FIG_FEP_INFO,        /* info ...: kept for fault reports */
    FIG_FEP_ID,          /* id ...: handshake only */
    FIG_FEP_FEPOK,       /* fepok: the handshake is done */
    FIG_FEP_PLAY,        /* play ACTION, one well-formed action (legality not checked) */
    FIG_FEP_MALFORMED,   /* play with no action, several words or no valid action */
    FIG_FEP_OTHER        /* anything else */
} fig_fep_line_t;

/* Classifies line[0..len) (it may hold NUL bytes; it need not be
 * terminated). For FIG_FEP_PLAY, *action (may be NULL) is the action, read
 * for `seat` ("RING" is the ring in front of the seat); otherwise
 * FIG_ACT_NONE. */
fig_fep_line_t fig_fep_parse_line(const char *line, size_t len, int seat, fig_action_t *action);

#endif
