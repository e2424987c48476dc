/* SPDX-License-Identifier: MIT */
/* service_forgotten.c - one job: a person forgotten anywhere (forget_me on
 * this server or another sharing the storage, `figaro people remove`) is
 * forgotten at the tables this server holds in memory and signed off its
 * connections, within a round or two.
 *
 * The storage logs every forget (net/store/db.h, fig_db_forgotten_since). The
 * service read the log's latest number before it loaded its tables (those
 * forgotten before are anonymous in what it loaded), and every
 * forgotten_ms it reads the rows after the last one it saw, on the writer
 * thread (a call, like the people's), then does for each person what a
 * forget_me it served does: their seats renamed at the tables whose seats
 * hold them (registry.c's index: what that person has, never every table),
 * each rename stored and told by its table (fig_table_forget_person), and
 * their connections told `forgotten` (service_conn_index.c's index by person).
 * Doing it twice changes nothing (a forget this server served comes back
 * in the log): the second time no seat and no connection holds them. A
 * round that fails is counted and logged, and the next one reads again
 * from the same mark. */
#include <stdio.h>
#include <stdlib.h>

#include "host/util.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_conn_index.h"
#include "net/service/service_forgotten.h"
#include "net/store/writer.h"

/* Rows read in one round; a full round is followed by the next at once. */
enum { ROUND_ROWS = 32 };

typedef struct {
    fig_db_batch_t b;   /* first: the writer's part (b.call) */
    long long after;    /* in: the last number seen */
    int n;              /* out: rows[0..n) */
    fig_db_forgotten_t rows[ROUND_ROWS];
} round_t;

void fig_svc_forgotten(fig_service_t *s, const char *id)
{
    fig_svc_person_seats_forget(s, id);
    for (conn_t *c = fig_svc_person_first(s, id), *nx; c; c = nx) {
        nx = fig_svc_person_next(c);
        fig_svc_sign_off(s, c);
        if (!c->closing)
            fig_svc_send_json(s, c, fig_proto_bare("forgotten"));
    }
}

/* On the writer thread. */
static fig_err_t round_run(fig_db_t *db, fig_db_batch_t *b, fig_msg_t *msg)
{
    round_t *r = (round_t *)b;
    return fig_db_forgotten_since(db, r->after, r->rows, ROUND_ROWS, &r->n, msg);
}

static void forgotten_back(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    round_t *r = (round_t *)b;
    long long wait = s->forgot_ms;
    if (b->rc) {
        s->stats.storage_errors++;
        fig_logf(s->log, s->log_ctx, "", "forgotten: %s: read again in %d ms", b->msg.text,
                 s->forgot_ms);
    } else {
        for (int i = 0; i < r->n; i++) {
            if (r->rows[i].seq <= s->forgot_seq)
                continue;
            s->forgot_seq = r->rows[i].seq;
            fig_svc_forgotten(s, r->rows[i].person);
        }
        if (r->n == ROUND_ROWS)
            wait = 0;   /* more rows wait */
    }
    free(r);
    s->forgot_next = fig_svc_now(s) + wait;
}

void fig_svc_forgotten_round(fig_service_t *s)
{
    round_t *r = calloc(1, sizeof *r);
    if (!r) {
        fig_logf(s->log, s->log_ctx, "", "forgotten: out of memory: read again later");
        s->forgot_next = fig_svc_now(s) + s->forgot_ms;
        return;
    }
    r->b.back = forgotten_back;
    r->b.drop = fig_db_batch_free;
    r->b.ctx = s;
    r->b.call = round_run;
    r->after = s->forgot_seq;
    s->forgot_next = -1;
    fig_writer_submit(s->writer, &r->b);
}

