/* SPDX-License-Identifier: MIT */
/* writer.h - the table server's writer thread: the storage's commits off
 * the event loop, in groups.
 *
 * The loop submits batches of writes (net/store/db.h: fig_db_batch_t, the writes
 * of one request); the writer thread, which alone writes through its
 * storage handle, takes everything queued at once and commits it in one
 * transaction (fig_db_apply: one sync to the disk for the whole group), then
 * hands the batches back, each with its outcome, and makes fig_writer_fd
 * readable. The loop takes them with fig_writer_done, in the order they were
 * submitted, and only then acknowledges or tells what they hold: nothing is
 * told before it is durable.
 *
 * While the disk syncs one group, the next one gathers: the busier the
 * server, the larger the groups, and one sync serves them all.
 *
 * Threads: fig_writer_submit, fig_writer_flush, fig_writer_done,
 * fig_writer_pending and fig_writer_wait are the loop's (one thread); the writer thread touches
 * only the storage handle and the batches it holds. No lws call here: the
 * loop watches the descriptor. */
#ifndef FIGARO_NET_WRITER_H
#define FIGARO_NET_WRITER_H

#include <stdbool.h>

#include "figaro/error.h"
#include "net/store/db.h"

typedef struct fig_writer fig_writer_t;

/* Counters for /metrics (read on the loop thread). */
typedef struct {
    unsigned long long commits;     /* transactions committed (or failed) */
    unsigned long long batches;     /* batches written in them */
    unsigned long long largest;     /* the most batches in one transaction */
    unsigned long long loop_commits;   /* of the commits, the loop's own (fig_writer_flush) */
    double commit_ms;               /* time spent in them (writing and syncing) */
} fig_writer_stats_t;

/* Starts the thread, which owns `db` from now on (fig_writer_free closes
 * it). FIG_ERR_SPACE with the reason (no thread, no pipe). On error db is
 * closed too. */
fig_err_t fig_writer_new(fig_writer_t **out, fig_db_t *db, fig_msg_t *msg);

/* Queues a batch (b->next is the writer's from now on until fig_writer_done
 * gives it back). Returns at once. A read (b->read.out, net/store/db.h) is done
 * in its turn, after every write queued before it, and comes back the same
 * way, its rc and msg the read's; so does a lease round (b->lease), and a
 * call (b->call: any synchronous work on the storage, the people's). */
void fig_writer_submit(fig_writer_t *w, fig_db_batch_t *b);

/* Called by the loop once a turn, before it waits: from the first call on,
 * fig_writer_submit holds the loop's batches until the next flush. Then a
 * small group of writes (a few batches, no read) that the storage commits
 * without waiting for the disk (fig_db_quick: SQLite with
 * synchronous=NORMAL; never PostgreSQL, never synchronous=FULL), while the
 * thread is idle, is committed here, on the loop's thread, when
 * may_commit; true then: the caller takes it with
 * fig_writer_done at once (no byte comes on the descriptor for it). Any
 * other group goes to the thread (false). Either way it is written before
 * it is given back: store before tell holds. */
bool fig_writer_flush(fig_writer_t *w, bool may_commit);

/* A descriptor that becomes readable when batches are written. */
int fig_writer_fd(const fig_writer_t *w);

/* Takes the batches written so far, oldest first (a chain through `next`,
 * NULL when none), each with its rc and msg; drains the descriptor. */
fig_db_batch_t *fig_writer_done(fig_writer_t *w);

/* Batches submitted and not yet taken back by fig_writer_done. */
int fig_writer_pending(const fig_writer_t *w);

/* Blocks until something is written (or ms pass; -1: no limit). For tests
 * and shutdown, never in the loop's normal course. */
void fig_writer_wait(fig_writer_t *w, int ms);

void fig_writer_stats(const fig_writer_t *w, fig_writer_stats_t *out);

/* Writes what is queued, stops the thread, closes the storage; the batches
 * not taken back are returned (a chain, oldest first; the caller frees
 * them) in *left when left is not NULL, else dropped. NULL is a no-op. */
void fig_writer_free(fig_writer_t *w, fig_db_batch_t **left);

#endif
