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
#include "net/service/service_internal.h"
#include "net/table/table.h"
#include "net/store/writer.h"

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
    b->kind = FIG_DBB_LEASE;
    b->lease = l;
    s->next_round = -1;
    fig_writer_submit(s->writer, b);
}

static bool drives(void *v, const char *code) { return fig_svc_find_table(v, code) != NULL; }

/* The round is back: tables lost are dropped, tables taken start here. */
void fig_svc_lease_round_done(fig_service_t *s, fig_db_batch_t *b)
{
    fig_db_lease_t *l = b->lease;
    if (l->claim[0]) {
        fig_svc_claimed(s, b);
        return;
    }
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

