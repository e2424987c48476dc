/* fep_host.h - the host side of FEP (docs/fep.md): a bot that is an external
 * program. The spec is "cmd:PROGRAM ARGS..." (split on spaces, no shell).
 *
 * The engine process is started at the first game and kept for the next ones;
 * a fault (malformed or illegal answer, an answer later than the move time +
 * 1000 ms, exit, failed handshake within 5 s) is counted, the engine is
 * stopped, the host plays uniformly random legal actions for that seat for the
 * rest of the game, and the next game starts a fresh process. Nothing an
 * engine does can crash or stall the host. */
#ifndef FIGARO_FEP_HOST_H
#define FIGARO_FEP_HOST_H

#include "figaro/bot.h"

/* Creates an FEP bot from "cmd:PROGRAM ARGS...". `move_ms` is the time sent
 * with each `go` when fig_bot_choose gives none. PROGRAM is looked up on PATH
 * now: a missing program is FIG_ERR_INPUT with a message, not a fault. The
 * process starts lazily, at the first game. Each fault is told on standard
 * error in one line; fig_bot_faults counts them. `seed` drives the random
 * actions played after a fault. Free with fig_bot_free (which sends `quit`). */
fig_err_t fep_host_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                           fig_msg_t *msg);

/* Creates any bot: "cmd:..." through FEP, everything else built in. */
fig_err_t cli_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                      fig_msg_t *msg);

#endif
