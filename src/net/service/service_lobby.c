/* SPDX-License-Identifier: MIT */
/* service_lobby.c - the service's side of the lobby (net/service/lobby.h): a
 * table's entry put again when the table was touched (registry.c reads it
 * with the table's deadline, so the cost of a change is that one table's),
 * and the connections that follow it. */
#include <stddef.h>

#include "net/service/service_lobby.h"

/* The lobby's frame to the connection of that subscription. */
static void lobby_send(void *v, fig_lobby_sub_t *sub, const char *text, size_t len)
{
    fig_service_t *s = v;
    conn_t *c = (conn_t *)((char *)sub - offsetof(conn_t, lobby));
    if (c->closing)
        return;
    s->wire.send(s->wire.wire, c->wc, text, len);
    s->stats.frames++;
}

void fig_svc_lobby_init(fig_service_t *s) { fig_lobby_init(&s->lobby, lobby_send, s); }

void fig_svc_lobby_touch(fig_service_t *s, tab_t *e, bool gone)
{
    fig_lobby_table_t x;
    bool in = !gone && fig_table_lobby(e->t, &x);
    if (!in && !e->lob)
        return;   /* most tables: unlisted, or past the lobby */
    if (in && !e->lob)   /* ours now: not another server's any more */
        fig_lobby_drop_remote(&s->lobby, x.code, fig_svc_now(s));
    fig_lobby_put(&s->lobby, &e->lob, in ? &x : NULL, fig_svc_now(s));
}


void fig_svc_lobby_message(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m)
{
    if (m->on)
        fig_lobby_on(&s->lobby, &c->lobby, fig_svc_now(s));
    else
        fig_lobby_off(&s->lobby, &c->lobby);
}
