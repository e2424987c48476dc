/* SPDX-License-Identifier: MIT */
/* replay_json.h - a game told again as JSON, for the browser's replay
 * (docs/protocol.md, "Replays"): the setup, then every step (each deal and
 * each action) with the whole state after it -- every seat's hand, the piles,
 * stacks and roads --, the step's public events and its sentences in a
 * language, then the summary `figaro replay --json` prints.
 *
 * Every step is computed by the engine (src/core), from the record's setup,
 * deals and actions: the client plays no rule itself. Every hand is in the
 * text, so it is only for a game that is over (the server's records, R14) or
 * for a record the person already holds (a file they upload). */
#ifndef FIGARO_NET_REPLAY_JSON_H
#define FIGARO_NET_REPLAY_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "figaro/figaro.h"

enum {
    FIG_REPLAY_JSON_MAX = 1 << 20    /* bytes of a replay: a long game makes ~300 KiB */
};

/* The replay of record `g` (read by fig_fgn_read, or a table's), finished or
 * not, as compact JSON text (malloc'ed, NUL-terminated; *len its length).
 * Sentences and the names of unnamed seats are in tr's language (NULL:
 * English). FIG_ERR_INPUT with the engine's message if a deal or an action of
 * the record does not replay; FIG_ERR_SPACE when memory runs out or the text
 * would pass FIG_REPLAY_JSON_MAX. */
fig_err_t fig_replay_json(const fig_game_t *g, const fig_tr_t *tr, char **out, size_t *len,
                          fig_msg_t *msg);

/* What `figaro replay --json` prints for g (finished or not): rounds with
 * their stacks, pieces and exchange; once over, roads, totals, ranking and
 * winner. A new reference; NULL only when memory runs out. */
json_t *fig_replay_summary_json(const fig_game_t *g);

#endif
