/* SPDX-License-Identifier: MIT */
/* writer.c - the writer thread (writer.h).
 *
 * Two queues under one mutex: `todo` (submitted, not yet written) and `done`
 * (written, not yet taken back), each a chain with a tail pointer, so order
 * is kept end to end. The thread waits on a condition variable, takes the
 * whole of `todo`, writes it with one fig_db_apply (outside the lock: the
 * loop keeps submitting meanwhile; a read in the group splits it: the writes
 * before it are committed first, then it reads), appends it to `done`, and writes one
 * byte to the pipe when `done` was empty (one wake-up per group the loop has
 * not collected yet, not one per batch).
 *
 * A loop that calls fig_writer_flush once a turn gets its batches held
 * (`held`, the loop's alone) until then: a small group the storage can
 * commit without waiting for the disk (fig_db_quick), while the thread is
 * idle, the loop commits itself (`busy` keeps the thread off the storage
 * meanwhile), which spares the thread's wake-up and the loop's; any other
 * group goes to the thread as before. At low load every hand-off is a sleep
 * and a wake-up of its own, which cost more than the commit.
 *
 * Its errors (no thread, no pipe) are for the operator's log only, in
 * English, as the wire's are: not marked for translation. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/util.h"
#include "net/store/writer.h"

typedef struct {
    fig_db_batch_t *head, *tail;
} chain_t;

struct fig_writer {
    fig_db_t *db;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    chain_t todo, done;          /* under lock */
    bool stop;                   /* under lock */
    bool busy;                   /* under lock: a group is being written (thread or loop) */
    chain_t held;                /* the loop's: submitted, kept for fig_writer_flush */
    int nheld;
    bool flushes;                /* the loop calls fig_writer_flush: hold its batches */
    fig_writer_stats_t stats;    /* under lock */
    int pipe[2];
    int pending;                 /* the loop's count: submitted - taken back */
};

static void chain_add(chain_t *c, fig_db_batch_t *first, fig_db_batch_t *last)
{
    if (c->tail)
        c->tail->next = first;
    else
        c->head = first;
    c->tail = last;
}

/* Commits the writes of `first`..`last` (a stretch of the chain) in one
 * transaction. */
static void commit(fig_writer_t *w, fig_db_batch_t *first, fig_db_batch_t *last,
                   fig_writer_stats_t *st)
{
    fig_db_batch_t *after = last->next;
    last->next = NULL;   /* the stretch alone: fig_db_apply never sees a read */
    unsigned long long n = 0;
    for (fig_db_batch_t *b = first; b; b = b->next)
        n++;
    long long t0 = fig_clock_us();
    fig_db_apply(w->db, first);
    st->commit_ms += (double)(fig_clock_us() - t0) / 1000.0;
    st->commits++;
    st->batches += n;
    if (n > st->largest)
        st->largest = n;
    last->next = after;
}

/* Whether b is a batch of writes (else a read, a lease round or a call). */
static bool writes_only(const fig_db_batch_t *b) { return !b->read.out && !b->lease && !b->call; }

/* Does a group in order: each stretch of writes in one transaction, each
 * read (or lease round, or call) after the writes before it. */
static void run_group(fig_writer_t *w, fig_db_batch_t *head, fig_writer_stats_t *st)
{
    fig_db_batch_t *first = NULL, *last = NULL;
    for (fig_db_batch_t *b = head; b; b = b->next) {
        if (writes_only(b)) {
            if (!first)
                first = b;
            last = b;
            continue;
        }
        if (first)
            commit(w, first, last, st);
        first = last = NULL;
        if (b->call) {
            b->rc = b->call(w->db, b, &b->msg);
        } else if (b->lease) {
            b->rc = fig_db_lease_round(w->db, b->lease, &b->msg);
        } else {
            b->rc = fig_db_game_get(w->db, b->read.code, b->read.game, b->read.out, &b->msg);
            if (!b->rc && b->read.review)
                b->rc = fig_db_review_get(w->db, b->read.code, b->read.game, b->read.seat,
                                          b->read.review, &b->msg);
        }
    }
    if (first)
        commit(w, first, last, st);
}

/* A group is written: its figures are added, the storage is free again.
 * Under the lock. */
static void add_stats(fig_writer_t *w, const fig_writer_stats_t *st)
{
    w->stats.commit_ms += st->commit_ms;
    w->stats.commits += st->commits;
    w->stats.batches += st->batches;
    w->stats.loop_commits += st->loop_commits;
    if (st->largest > w->stats.largest)
        w->stats.largest = st->largest;
    w->busy = false;
}

static void *run(void *arg)
{
    fig_writer_t *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->todo.head && !w->stop)
            pthread_cond_wait(&w->wake, &w->lock);
        if (!w->todo.head)
            break;   /* stopping, and nothing is left to write */
        chain_t group = w->todo;
        w->todo.head = w->todo.tail = NULL;
        w->busy = true;
        pthread_mutex_unlock(&w->lock);
        fig_writer_stats_t st = { 0, 0, 0, 0, 0.0 };
        run_group(w, group.head, &st);
        fig_db_upkeep(w->db);   /* a checkpoint, here rather than in a commit the loop makes */
        pthread_mutex_lock(&w->lock);
        add_stats(w, &st);
        bool signal = !w->done.head;
        chain_add(&w->done, group.head, group.tail);
        if (signal) {
            ssize_t r = write(w->pipe[1], "w", 1);
            (void)r;   /* full: the loop has a byte to read already */
        }
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

fig_err_t fig_writer_new(fig_writer_t **out, fig_db_t *db, fig_msg_t *msg)
{
    *out = NULL;
    fig_writer_t *w = calloc(1, sizeof *w);
    if (!w) {
        fig_db_close(db);
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    }
    w->db = db;
    int err = fig_wake_pipe(w->pipe);
    if (err) {
        fig_db_close(db);
        free(w);
        return fig_fail(msg, FIG_ERR_SPACE, "the writer's pipe: %s", strerror(err));
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    if ((err = pthread_create(&w->thread, NULL, run, w)) != 0) {
        close(w->pipe[0]);
        close(w->pipe[1]);
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        fig_db_close(db);
        free(w);
        return fig_fail(msg, FIG_ERR_SPACE, "the writer's thread: %s", strerror(err));
    }
    *out = w;
    return FIG_OK;
}

/* Hands `first`..`last` to the thread. */
static void to_thread(fig_writer_t *w, fig_db_batch_t *first, fig_db_batch_t *last)
{
    pthread_mutex_lock(&w->lock);
    bool was_idle = !w->todo.head;
    chain_add(&w->todo, first, last);
    if (was_idle)
        pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->lock);
}

void fig_writer_submit(fig_writer_t *w, fig_db_batch_t *b)
{
    b->next = NULL;
    b->rc = FIG_OK;
    b->msg.text[0] = '\0';
    w->pending++;
    if (w->flushes) {
        chain_add(&w->held, b, b);
        w->nheld++;
    } else {
        to_thread(w, b, b);
    }
}

/* Takes what the loop holds (an empty chain when nothing). */
static chain_t take_held(fig_writer_t *w)
{
    chain_t c = w->held;
    w->held.head = w->held.tail = NULL;
    w->nheld = 0;
    return c;
}

/* The most batches the loop commits itself in one group: more, and the
 * loop is busy enough that the thread's wake-up is shared by many and its
 * core worth having. */
enum { INLINE_MAX = 8 };

bool fig_writer_flush(fig_writer_t *w, bool may_commit)
{
    w->flushes = true;
    int n = w->nheld;
    chain_t group = take_held(w);
    if (!group.head)
        return false;
    bool writes = true;   /* reads, lease rounds and calls stay the thread's */
    for (fig_db_batch_t *b = group.head; b; b = b->next)
        writes &= writes_only(b);
    pthread_mutex_lock(&w->lock);
    bool here = may_commit && writes && n <= INLINE_MAX && !w->busy && !w->todo.head &&
                fig_db_quick(w->db);
    if (!here) {
        pthread_mutex_unlock(&w->lock);
        to_thread(w, group.head, group.tail);
        return false;
    }
    w->busy = true;   /* the thread is idle and stays off the storage */
    pthread_mutex_unlock(&w->lock);
    fig_writer_stats_t st = { 0, 0, 0, 0, 0.0 };
    run_group(w, group.head, &st);
    st.loop_commits = st.commits;
    pthread_mutex_lock(&w->lock);
    add_stats(w, &st);
    chain_add(&w->done, group.head, group.tail);   /* after the thread's: order is kept */
    pthread_mutex_unlock(&w->lock);
    return true;
}

int fig_writer_fd(const fig_writer_t *w) { return w->pipe[0]; }

fig_db_batch_t *fig_writer_done(fig_writer_t *w)
{
    char buf[64];
    pthread_mutex_lock(&w->lock);
    /* Drained under the lock: the thread writes a byte only when `done` is
     * empty, which it is again once we leave. */
    while (read(w->pipe[0], buf, sizeof buf) > 0)
        ;
    fig_db_batch_t *list = w->done.head;
    w->done.head = w->done.tail = NULL;
    pthread_mutex_unlock(&w->lock);
    for (fig_db_batch_t *b = list; b; b = b->next)
        w->pending--;
    return list;
}

int fig_writer_pending(const fig_writer_t *w) { return w->pending; }

void fig_writer_wait(fig_writer_t *w, int ms)
{
    chain_t held = take_held(w);
    if (held.head)   /* what the loop holds is the thread's to write now */
        to_thread(w, held.head, held.tail);
    pthread_mutex_lock(&w->lock);
    bool ready = w->done.head != NULL;   /* the loop's own commits write no byte */
    pthread_mutex_unlock(&w->lock);
    if (ready)
        return;
    struct pollfd p = { w->pipe[0], POLLIN, 0 };
    while (poll(&p, 1, ms) < 0 && errno == EINTR)
        ;
}

void fig_writer_stats(const fig_writer_t *w, fig_writer_stats_t *out)
{
    fig_writer_t *mw = (fig_writer_t *)w;   /* the lock, not the data, changes */
    pthread_mutex_lock(&mw->lock);
    *out = w->stats;
    pthread_mutex_unlock(&mw->lock);
}

void fig_writer_free(fig_writer_t *w, fig_db_batch_t **left)
{
    if (!w)
        return;
    chain_t held = take_held(w);
    if (held.head)   /* written too, before the thread stops */
        to_thread(w, held.head, held.tail);
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);   /* it wrote what was queued first */
    fig_db_batch_t *list = w->done.head;
    if (left)
        *left = list;
    else
        while (list) {
            fig_db_batch_t *b = list;
            list = b->next;
            free(b);
        }
    close(w->pipe[0]);
    close(w->pipe[1]);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    fig_db_close(w->db);
    free(w);
}
