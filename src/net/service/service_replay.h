/* SPDX-License-Identifier: MIT */
/* service_replay.h - replays and plain texts as HTTP answers
 * (service_replay.c), in a query's language. */
#ifndef FIGARO_NET_SERVICE_REPLAY_H
#define FIGARO_NET_SERVICE_REPLAY_H

#include "net/service/service_state.h"

/* The catalogue of language code `lang` (a query's, http_path.h), or NULL:
 * English, for "", that language or one the server does not have. */
const fig_tr_t *fig_svc_lang_tr(const fig_service_t *s, const char *lang);

/* out: a text/plain answer (text copied). */
void fig_svc_http_text(fig_http_answer_t *out, int status, const char *text);

/* out: the replay of g in tr's language (200), or why not: bad_status when
 * g does not replay, 503 when memory runs out. */
void fig_svc_replay_answer(fig_http_answer_t *out, const fig_game_t *g, const fig_tr_t *tr,
                           int bad_status);

/* out: the replay of a kept record's FGN text, the same bytes POST /replay
 * gives for that text; 500 if it does not read or replay (the server's). */
void fig_svc_kept_replay(fig_http_answer_t *out, const char *fgn, const fig_tr_t *tr);

#endif
