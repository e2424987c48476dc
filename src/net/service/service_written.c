/* SPDX-License-Identifier: MIT */
/* service_written.c - what comes back to the loop (service.h:
 * fig_service_fd_ready, fig_service_sync): the writer's batches, each to its
 * own completion (a table's here; a lease round's or claim's, a review's, a
 * record's, a deletion, a people's call, a read of the people forgotten in
 * their files), the reviews computed on the pool, a match's or hint's
 * descriptor. */
#include <stdio.h>
#include <stdlib.h>

#include "host/util.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_reviews.h"

/* The writer gave batches back: each goes its own way (its back). */
static void written(fig_service_t *s)
{
    fig_db_batch_t *b = fig_writer_done(s->writer);
    while (b) {
        fig_db_batch_t *next = b->next;
        b->back(b->ctx, b);
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
