/* SPDX-License-Identifier: MIT */
/* service_conns.h - the service's connections (service_conns.c): the
 * tables each asked anything of, and those yet to say hello. */
#ifndef FIGARO_NET_SERVICE_CONNS_H
#define FIGARO_NET_SERVICE_CONNS_H

#include "net/service/service_state.h"

/* Remembers that c asked something of table `code` (conn_t.at); out of
 * memory, c forgets nothing: its closing then looks at every table. */
void fig_svc_conn_at(conn_t *c, const char *code);

/* Takes c off the list of those yet to say hello. */
void fig_svc_hello_unlink(fig_service_t *s, conn_t *c);

/* The oldest connection yet to say hello, or NULL (those that did, or are
 * closing, leave the list here). */
conn_t *fig_svc_hello_next(fig_service_t *s);

#endif
