/* SPDX-License-Identifier: MIT */
/* fep_host.h - the host side of FEP (docs/fep.md): a bot that is an external
 * program, and the one bot factory for every spec. An engine's spec is
 * "cmd:PROGRAM ARGS..." (split on spaces, no shell).
 *
 * The engine process is started at the first game and kept for the next ones;
 * a fault (malformed or illegal answer, an answer later than the move time +
 * 1000 ms, exit, failed handshake within 5 s) is counted and recorded as a
 * fig_fault_t (bot.h) for the host to take (fig_bot_take_fault) and tell in
 * the reader's language (fig_fault_text, match.h); nothing is printed. The
 * engine is stopped, the host plays uniformly random legal actions for that
 * seat for the rest of the game, and the next game starts a fresh process.
 * Nothing an engine does can crash or stall the host: every wait is bounded,
 * and gives up early when the think's cancel flag or the flag given to
 * fig_bot_watch becomes true (then the engine is stopped without a fault and
 * the seat plays random actions for the rest of that game). */
#ifndef FIGARO_FEP_HOST_H
#define FIGARO_FEP_HOST_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/bot.h"

/* Creates an FEP bot from "cmd:PROGRAM ARGS...". `move_ms` is the time sent
 * with each `go` when fig_bot_choose gives none. PROGRAM is looked up on PATH
 * now: a missing program is FIG_ERR_INPUT with a message, not a fault. The
 * process starts lazily, at the first game. fig_bot_faults counts the faults;
 * fig_bot_take_fault hands out the last few. `seed` drives the random actions
 * played after a fault. Free with fig_bot_free (which sends `quit` and waits
 * up to half a second for the engine to exit: call it off the event loop). */
fig_err_t fep_host_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                           fig_msg_t *msg);

/* Creates any bot: "cmd:..." through FEP (move_ms as above), everything else
 * built in (fig_bot_new; move_ms unused). */
fig_err_t fig_bot_any_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                          fig_msg_t *msg);

/* ---- the engine's lines, as pure functions (the reader, and its fuzzer) */

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
