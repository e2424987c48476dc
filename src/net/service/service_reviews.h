/* SPDX-License-Identifier: MIT */
/* service_reviews.h - reviews asked at a table (service_reviews.c;
 * docs/protocol.md, review): read, computed on the pool, told, stored. */
#ifndef FIGARO_NET_SERVICE_REVIEWS_H
#define FIGARO_NET_SERVICE_REVIEWS_H

#include "net/service/service_state.h"

/* c asks for the review of game m->game of table t: read, computed or
 * queued; FIG_PC_NONE, or the error (msg). */
fig_proto_code_t fig_svc_review(fig_service_t *s, conn_t *c, fig_table_t *t,
                                const fig_proto_msg_t *m, fig_msg_t *msg);

/* The pool's descriptor for reviews is readable: computed reviews are in. */
void fig_svc_reviews_ready(fig_service_t *s);

/* Forgets the review (its job cancelled if it runs). */
void fig_svc_review_drop(fig_service_t *s, review_wait_t *r);

#endif
