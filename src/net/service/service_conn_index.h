/* SPDX-License-Identifier: MIT */
/* service_conn_index.h - the service's connections by a text of theirs
 * (service_conn_index.c): by signed-in person and by client address. */
#ifndef FIGARO_NET_SERVICE_CONN_INDEX_H
#define FIGARO_NET_SERVICE_CONN_INDEX_H

#include "net/service/service_state.h"

/* c into ix, by its text (ix->which's); cannot fail. */
void fig_svc_cx_add(conn_index_t *ix, conn_t *c);

/* c, which is in ix, out of it (before its text changes). */
void fig_svc_cx_remove(conn_index_t *ix, conn_t *c);

/* The first connection in ix whose text is `text`, and the next after c
 * with c's in the index `which` (CX_...), or NULL (take the next before
 * removing c). */
conn_t *fig_svc_cx_first(conn_index_t *ix, const char *text);
conn_t *fig_svc_cx_next(int which, const conn_t *c);
void fig_svc_cx_free(conn_index_t *ix);

/* c is signed in as p with the key whose hash is key_hash (signed off
 * first if someone was); cannot fail. */
void fig_svc_sign_in(fig_service_t *s, conn_t *c, const fig_db_person_t *p, const char *key_hash);

/* Nobody is signed in on c any more (nothing if nobody was). */
void fig_svc_sign_off(fig_service_t *s, conn_t *c);

/* Person id's first signed-in connection, and the next after c, or NULL:
 *   for (conn_t *o = fig_svc_person_first(s, id), *nx; o; o = nx) {
 *       nx = fig_svc_person_next(o);   (before o is signed off)
 *       ... } */
conn_t *fig_svc_person_first(fig_service_t *s, const char *id);
conn_t *fig_svc_person_next(const conn_t *c);

#endif
