/* SPDX-License-Identifier: MIT */
/* service_lobby.h - the service's part of the lobby (service_lobby.c;
 * docs/protocol.md, lobby): the tables' entries and the connections that
 * follow it. */
#ifndef FIGARO_NET_SERVICE_LOBBY_H
#define FIGARO_NET_SERVICE_LOBBY_H

#include "net/service/service_state.h"

/* Starts the lobby with nothing listed and nobody following it. */
void fig_svc_lobby_init(fig_service_t *s);

/* The table may have changed: its entry in the lobby is put again (read
 * when its deadline is: fig_svc_refresh). gone: the table goes. */
void fig_svc_lobby_touch(fig_service_t *s, tab_t *e, bool gone);

/* A `lobby` message of c: it follows the lobby (m->on) or stops. */
void fig_svc_lobby_message(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m);

#endif
