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

#endif
