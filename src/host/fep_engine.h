/* SPDX-License-Identifier: MIT */
/* fep_engine.h - the engine side of FEP (docs/fep.md): a bot answering a
 * host's lines, without any input or output of its own.
 *
 * The caller reads lines from wherever the host is (standard input for
 * `figaro engine`, a socket for a server) and hands each one to
 * fig_fep_engine_line; every answer comes back through the `say` callback,
 * one line at a time, without its newline. A line that is malformed, too long
 * or out of order is answered with one `info error: <what> (line '<line>')`
 * and otherwise ignored: the bot's tracked game only changes through lines
 * the rules accept, so one bad line cannot desynchronise the rest, and
 * nothing a host sends can crash the engine.
 *
 * What the bot learns is exactly what FEP sends: the setup, its own hand per
 * round and every public action (R14). The engine does not apply its own
 * answer to `go`: the host echoes every action, the engine's own included, as
 * a `move` line, and that is what the bot follows. One handle serves one host
 * on one thread; handles share nothing. */
#ifndef FIGARO_HOST_FEP_ENGINE_H
#define FIGARO_HOST_FEP_ENGINE_H

#include <stdbool.h>

#include "figaro/bot.h"

/* The longest host line, without its newline: the longest real one (`game`
 * with 6 players) is under 100 bytes, so anything past this is an error,
 * never a reason to grow a buffer. */
enum { FIG_FEP_LINE_MAX = 4095 };

typedef struct fig_fep_engine fig_fep_engine_t;

/* Delivers one answer line (no newline) to the host. Returns false when the
 * host cannot be reached any more; the engine then asks its caller to stop. */
typedef bool fig_fep_say_fn(void *user, const char *line);

/* Creates an engine around `bot`, which it owns from now on (also when the
 * call fails). `say` and `user` receive the answers. The engine introduces
 * itself as "figaro <the bot's spec>". Returns FIG_ERR_SPACE if out of
 * memory. Free with fig_fep_engine_free. */
fig_err_t fig_fep_engine_new(fig_fep_engine_t **out, fig_bot_t *bot, fig_fep_say_fn *say,
                             void *user, fig_msg_t *msg);

void fig_fep_engine_free(fig_fep_engine_t *e);   /* frees the bot too; NULL is a no-op */

/* Handles one host line (NUL-terminated, without "\n" or "\r\n"). Returns
 * false when the engine should stop: after `quit`, or when `say` failed. */
bool fig_fep_engine_line(fig_fep_engine_t *e, const char *line);

/* Answers a host line longer than FIG_FEP_LINE_MAX bytes, of which `start`
 * holds the beginning (at least the first 100 bytes, for the echo); the line
 * is otherwise ignored. Returns false when `say` failed. */
bool fig_fep_engine_too_long(fig_fep_engine_t *e, const char *start);

/* With `on`, every answer to `go` of a bot that searches is preceded by what
 * the search saw (off by default: the answers stay `play` alone):
 *   info analysis seat <S> iterations <N> moves <M>
 *   info move <i> <action> share <0..1> win <0..1> place <1..N> collect <cards> next <0..1>
 *     (i = 1 to 3: the move played first, then the most searched others;
 *     collect: cards the seat is expected to collect this round from this
 *     move on; next: the chance it is made to collect before its next turn)
 *   info hint <the hint and its reason, in English: host/hint.h>
 * Names in the hint are those of the `names` line, else "seat N". */
void fig_fep_engine_set_analysis(fig_fep_engine_t *e, bool on);

/* The engine's bot, e.g. for its overrule counter (fig_bot_overrules). */
const fig_bot_t *fig_fep_engine_bot(const fig_fep_engine_t *e);

#endif
