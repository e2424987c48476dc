/* SPDX-License-Identifier: MIT */
/* service_clock.c - the service's deadlines (service.h:
 * fig_service_next_deadline, fig_service_tick): the tables due come from the
 * heap (registry.c), the connections yet to say hello from their list, the
 * lease round and the read of the people forgotten from their times; a
 * table nobody is at for long enough is deleted. Nothing here walks every
 * table. */
#include <stdio.h>
#include <stdlib.h>

#include "host/util.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_conns.h"
#include "net/service/service_forgotten.h"
#include "net/service/service_leases.h"

long long fig_service_next_deadline(fig_service_t *s)
{
    fig_svc_refresh(s);
    fig_heap_node_t *top = fig_heap_top(&s->due);
    long long d = top ? top->key : -1;
    conn_t *c = fig_svc_hello_next(s);
    if (c) {
        long long x = c->opened + s->hello_ms;
        if (d < 0 || x < d)
            d = x;
    }
    if (s->shared && s->next_round >= 0 && (d < 0 || s->next_round < d))
        d = s->next_round;
    if (s->forgot_next >= 0 && (d < 0 || s->forgot_next < d))
        d = s->forgot_next;
    long long l = fig_lobby_due(&s->lobby);
    if (l >= 0 && (d < 0 || l < d))
        d = l;
    return d;
}

/* A deletion is back: only a failure has something to say. */
static void deleted(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    s->fenced += b->fenced;
    if (b->rc) {
        s->stats.storage_errors++;
        fig_logf(s->log, s->log_ctx, "", "table %s: not deleted from the database: %s",
                 b->w[0].code, b->msg.text);
    }
    free(b);
}

/* Removes the table from memory now and from the database through the
 * writer (its records go with it). */
static void delete_table(fig_service_t *s, tab_t *e, long long now)
{
    bool over = fig_table_over(e->t);
    long long idle = fig_table_idle_since(e->t);
    fig_db_batch_t *b = calloc(1, sizeof *b);
    if (b) {
        b->back = deleted;
        b->drop = fig_db_batch_free;
        b->ctx = s;
        b->n = 1;
        b->w[0].kind = FIG_DBW_DELETE;
        snprintf(b->w[0].code, sizeof b->w[0].code, "%s", fig_table_code(e->t));
    }
    fig_logf(s->log, s->log_ctx, "",
             "table %s deleted: %s, nobody there for %lld s", fig_table_code(e->t),
             over ? "its game is over" : "not finished", (now - idle) / 1000);
    fig_svc_remove_table(s, e);
    s->deleted++;
    if (b)
        fig_writer_submit(s->writer, b);
}

void fig_service_tick(fig_service_t *s, long long now)
{
    if (s->shared && s->next_round >= 0 && now >= s->next_round)
        fig_svc_lease_round(s);
    if (s->forgot_next >= 0 && now >= s->forgot_next)
        fig_svc_forgotten_round(s);
    fig_svc_refresh(s);
    /* The tables due, taken out of the heap first: each runs once. */
    tab_t *due = NULL;
    for (fig_heap_node_t *x; (x = fig_heap_top(&s->due)) && x->key <= now;) {
        tab_t *e = (tab_t *)((char *)x - offsetof(tab_t, due));
        fig_heap_remove(&s->due, x);
        e->next_dirty = due;
        due = e;
    }
    while (due) {
        tab_t *e = due;
        due = e->next_dirty;
        e->dirty = false;
        long long at = fig_svc_delete_at(s, e);
        if (at >= 0 && now >= at) {
            delete_table(s, e, now);
            continue;
        }
        fig_table_tick(e->t, now);
        fig_svc_touch(s, e);
    }
    for (conn_t *c; (c = fig_svc_hello_next(s)) && now >= c->opened + s->hello_ms;) {
        c->closing = true;
        fig_svc_hello_unlink(s, c);
        fig_logf(s->log, s->log_ctx, "", "connection from %s said no hello: closed", c->addr);
        s->wire.close(s->wire.wire, c->wc);
    }
    fig_svc_refresh(s);   /* the tables just ticked: the lobby as it is now */
    fig_lobby_flush(&s->lobby, now);
}
