/* SPDX-License-Identifier: MIT */
/* service_leases.c - the leases of tables on a shared storage: a round
 * every lease_ms/3 renews this server's leases and takes the tables whose
 * server is gone (fig_db_lease_round, on the writer thread); when it is
 * back, tables lost are dropped and tables taken start here. A claim's
 * batch, of the same kind, goes back to the message that waits for it
 * (service_message.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/lang.h"
#include "host/util.h"
#include "net/store/db.h"
#include "net/proto/proto.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_leases.h"
#include "net/table/table.h"
#include "net/store/writer.h"

static void lease_back(void *ctx, fig_db_batch_t *b);   /* the round is back */

/* A lease round: every table's lease renewed, then tables whose server is
 * gone taken, on the writer thread (fig_db_lease_round). */
void fig_svc_lease_round(fig_service_t *s)
{
    fig_db_batch_t *b = calloc(1, sizeof *b);
    fig_db_lease_t *l = calloc(1, sizeof *l);
    fig_db_code_t *codes = calloc((size_t)s->ntables + 1, sizeof *codes);
    bool *lost = calloc((size_t)s->ntables + 1, sizeof *lost);
    if (!b || !l || !codes || !lost) {
        free(b);
        free(l);
        free(codes);
        free(lost);
        fig_logf(s->log, s->log_ctx, "", "leases: out of memory: tried again later");
        s->next_round = fig_svc_now(s) + 1000;
        return;
    }
    for (int i = 0; i < s->ntables; i++)
        snprintf(codes[i], sizeof codes[i], "%s", fig_table_code(s->tabs[i]->t));
    l->codes = codes;
    l->ncodes = s->ntables;
    l->lost = lost;
    l->take_max = fig_svc_room(s) > 0 ? fig_svc_room(s) : 0;
    snprintf(l->node, sizeof l->node, "%s", s->node);   /* and the others' lobby */
    b->back = lease_back;
    b->drop = fig_svc_free_lease_batch;
    b->ctx = s;
    b->lease = l;
    s->next_round = -1;
    fig_writer_submit(s->writer, b);
}

static bool drives(void *v, const char *code) { return fig_svc_find_table(v, code) != NULL; }

/* The round is back: tables lost are dropped, tables taken start here. */
static void lease_back(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    fig_db_lease_t *l = b->lease;
    if (b->rc)
        fig_logf(s->log, s->log_ctx, "", "leases: %s", b->msg.text);
    for (int i = 0; i < l->ncodes; i++) {
        tab_t *e = l->lost[i] ? fig_svc_find_tab(s, l->codes[i]) : NULL;
        if (!e)
            continue;
        s->leases_lost++;
        if (fig_table_busy(e->t))
            e->lost = true;   /* dropped when its write is back */
        else
            fig_svc_drop_table(s, e, "its lease ran out or another server took it");
    }
    for (fig_db_taken_t *x = l->taken; x; x = x->next)
        fig_svc_take_over(s, x, "its server is gone");
    if (!b->rc && l->listed)   /* the other servers' listed tables: the lobby's part of them */
        fig_lobby_remote(&s->lobby, l->listed, l->nlisted, drives, s, fig_svc_now(s));
    fig_svc_free_lease_batch(b);
    s->next_round = fig_svc_now(s) + s->lease_ms / 3;
}

/* A lease round's or claim's batch, and all it holds. */
void fig_svc_free_lease_batch(fig_db_batch_t *b)
{
    fig_db_taken_free(b->lease->taken);
    free(b->lease->listed);
    free(b->lease->codes);
    free(b->lease->lost);
    free(b->lease);
    free(b);
}

/* The table's lease is lost (another server drives it now, or may): it is
 * dropped from memory, and the connections of its people and spectators
 * closed, so that they come back to the server that drives it. */
void fig_svc_drop_table(fig_service_t *s, tab_t *e, const char *why)
{
    fig_logf(s->log, s->log_ctx, "", "table %s: dropped: %s", fig_table_code(e->t), why);
    /* its own peers, never a walk of every connection; closing one only asks
     * the wire (it is closed, and leaves the table, later) */
    for (int i = 0; i < fig_table_npeers(e->t); i++) {
        conn_t *c = fig_table_peer(e->t, i);
        if (!c->closing) {
            c->closing = true;
            s->wire.close(s->wire.wire, c->wc);
        }
    }
    fig_svc_remove_table(s, e);
}

fig_err_t fig_svc_load_table(void *ctx, const fig_db_table_t *row, const fig_db_game_t *last,
                          fig_msg_t *msg)
{
    fig_service_t *s = ctx;
    fig_table_t *t;
    tab_t *e = fig_svc_room_for_table(s);
    if (!e)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    fig_err_t rc = fig_table_restore(&t, &s->env, row, last, msg);
    if (rc) {
        free(e);
        return rc;
    }
    fig_svc_insert_table(s, e, t);
    return FIG_OK;
}

/* The tables this server may still take or create: --max-tables, less
 * those it holds and those its claims on their way may take. */
int fig_svc_room(const fig_service_t *s)
{
    return s->max_tables - s->ntables - s->claiming;
}

/* A table this server took (a lease round's or a claim's) starts here,
 * unless the server holds --max-tables tables meanwhile (it created some):
 * then its lease runs out unrenewed and another server takes it. */
void fig_svc_take_over(fig_service_t *s, const fig_db_taken_t *x, const char *why)
{
    fig_msg_t msg;
    if (fig_svc_find_tab(s, x->row.code))
        return;   /* ours already: its lease ran out, nobody else took it */
    if (s->ntables >= s->max_tables) {
        fig_logf(s->log, s->log_ctx, "", "table %s: not taken over: the server holds as many "
                 "tables as it may", x->row.code);
        return;
    }
    if (fig_svc_load_table(s, &x->row, x->last, &msg) != FIG_OK) {
        fig_logf(s->log, s->log_ctx, "", "table %s: cannot take it over: %s", x->row.code,
                 msg.text);
        return;
    }
    s->takeovers++;
    fig_logf(s->log, s->log_ctx, "", "table %s: taken over (%s)", x->row.code, why);
}
