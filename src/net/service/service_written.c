/* SPDX-License-Identifier: MIT */
/* service_written.c - what comes back to the loop (service.h:
 * fig_service_fd_ready, fig_service_sync): the writer's batches, each by its
 * kind (a table's, a lease round's or claim's, a review's, a record's, a
 * deletion, a people's call, a read of the people forgotten), the reviews
 * computed on the pool, a match's or hint's descriptor. */
#include <stdio.h>
#include <stdlib.h>

#include "host/util.h"
#include "net/service/service.h"
#include "net/service/service_internal.h"

/* A table's batch is back: the table acts on it (tells, acknowledges),
 * then what waited for the table runs, or the table goes (its lease is
 * lost, or its creation failed). */
static void table_written(fig_service_t *s, fig_db_batch_t *b)
{
    fig_table_t *t = b->user;
    tab_t *e = fig_svc_find_tab(s, fig_table_code(t));   /* a busy table is never deleted */
    bool fenced = b->fenced;
    s->fenced += fenced;
    fig_table_written(t, b);
    if (!e || e->t != t)
        return;
    if (fenced || (e->lost && !fig_table_busy(t))) {
        s->leases_lost += fenced && !e->lost;
        fig_svc_drop_table(s, e, "another server drives it now (its lease is lost)");
    } else {
        fig_svc_run_waiting(s, e);
        if (fig_table_dead(t))
            fig_svc_remove_table(s, e);
    }
}

/* The writer gave batches back: each goes its way, by its kind. */
static void written(fig_service_t *s)
{
    fig_db_batch_t *b = fig_writer_done(s->writer);
    while (b) {
        fig_db_batch_t *next = b->next;
        switch (b->kind) {
        case FIG_DBB_TABLE:
            table_written(s, b);
            break;
        case FIG_DBB_LEASE:
            fig_svc_lease_round_done(s, b);
            break;
        case FIG_DBB_REVIEW:
            fig_svc_review_back(s, (review_wait_t *)b);
            break;
        case FIG_DBB_RECORD:
            fig_svc_record_read(s, (http_wait_t *)b);
            break;
        case FIG_DBB_PEOPLE:
            fig_svc_people_back(s, b);
            break;
        case FIG_DBB_FORGOTTEN:
            fig_svc_forgotten_back(s, b);
            break;
        case FIG_DBB_DELETE:
            s->fenced += b->fenced;
            if (b->rc) {
                s->stats.storage_errors++;
                fig_logf(s->log, s->log_ctx, "",
                         "table %s: not deleted from the database: %s", b->w[0].code,
                         b->msg.text);
            }
            free(b);
            break;
        }
        b = next;
    }
}

/* How many groups one turn's end commits on the loop: acting on one may
 * write again (a table's next step: after a person's action, its random
 * bots' replies, one by one), and then the next; past these the thread
 * takes the rest, so that a turn's end stays short. */
enum { TURN_GROUPS = 8 };

void fig_service_turn(fig_service_t *s)
{
    for (int i = 0; i < TURN_GROUPS; i++) {
        if (!fig_writer_flush(s->writer, true))
            return;
        written(s);
    }
    fig_writer_flush(s->writer, false);
}

void fig_service_sync(fig_service_t *s)
{
    while (fig_writer_pending(s->writer) > 0) {
        fig_writer_wait(s->writer, -1);
        written(s);
    }
}

int fig_service_pending(const fig_service_t *s) { return fig_writer_pending(s->writer); }

void fig_service_fd_ready(fig_service_t *s, int fd)
{
    if (fd == fig_writer_fd(s->writer)) {
        written(s);
        return;
    }
    if (fd == fig_reviews_fd(s->reviews)) {
        fig_svc_reviews_ready(s);
        return;
    }
    for (fdent_t *e = s->by_fd[fig_svc_fd_bucket(s, fd)]; e; e = e->next)
        if (e->fd == fd) {
            fig_svc_find_tab(s, fig_table_code(e->t));   /* its deadline may move */
            fig_table_ready(e->t);
            return;
        }
}
