/* SPDX-License-Identifier: MIT */
/* pool.c - the bounded worker pool (pool.h).
 *
 * One mutex guards the queue (head/tail), the closing flag and the count of
 * live workers; one condition wakes idle workers. A worker takes the job at
 * the head, runs it without the lock, and comes back. Workers stop only when
 * the pool is closing AND the queue is empty, so every job queued before
 * fig_pool_free/fig_pool_release runs to its end.
 *
 * Scratch blocks are anonymous mappings (MAP_NORESERVE): address space, not
 * memory, until a search writes to it, so a pool's cost is what its searches
 * actually use. A released pool's workers are detached, and the last one out
 * unmaps the blocks and frees the pool. */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS, MAP_NORESERVE (glibc hides them under POSIX) */

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/pool.h"

#ifndef MAP_NORESERVE
#define MAP_NORESERVE 0
#endif
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

typedef struct {
    struct fig_pool *pool;
    pthread_t tid;
    fig_scratch_t scratch;
} worker_t;

struct fig_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    fig_pool_job_t *head, *tail;
    bool closing;
    bool detached;        /* released: the last worker out frees the pool */
    int live;             /* workers not yet stopped */
    int nworkers;
    worker_t *workers;
};

static void destroy(fig_pool_t *pool)
{
    for (int i = 0; i < pool->nworkers; i++)
        if (pool->workers[i].scratch.mem)
            munmap(pool->workers[i].scratch.mem, pool->workers[i].scratch.size);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(pool);
}

static void *work(void *arg)
{
    worker_t *w = arg;
    fig_pool_t *pool = w->pool;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->head && !pool->closing)
            pthread_cond_wait(&pool->wake, &pool->lock);
        fig_pool_job_t *job = pool->head;
        if (!job)
            break;   /* closing, and nothing left to do */
        pool->head = job->next;
        if (!pool->head)
            pool->tail = NULL;
        pthread_mutex_unlock(&pool->lock);
        job->run(job, &w->scratch);   /* job may be freed by now */
        pthread_mutex_lock(&pool->lock);
    }
    bool last = --pool->live == 0 && pool->detached;
    pthread_mutex_unlock(&pool->lock);
    if (last)
        destroy(pool);   /* released: nobody joins us; the others are gone */
    return NULL;
}

/* Stops the workers started so far (no job was ever queued) and frees. */
static void abandon(fig_pool_t *pool, int started)
{
    pthread_mutex_lock(&pool->lock);
    pool->closing = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < started; i++)
        pthread_join(pool->workers[i].tid, NULL);
    destroy(pool);
}

fig_err_t fig_pool_new(fig_pool_t **out, const fig_pool_opts_t *opts, fig_msg_t *msg)
{
    *out = NULL;
    fig_pool_opts_t o = { 0, 0 };
    if (opts)
        o = *opts;
    if (o.threads < 0 || o.threads > FIG_POOL_MAX_THREADS)
        return fig_fail(msg, FIG_ERR_INPUT, N_("a pool has 1 to %d threads, not %d"),
                        FIG_POOL_MAX_THREADS, o.threads);
    if (o.threads == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        o.threads = online < 1 ? 1 : online > FIG_POOL_MAX_THREADS ? FIG_POOL_MAX_THREADS
                                                                    : (int)online;
    }
    if (o.scratch_bytes == 0)
        o.scratch_bytes = (size_t)FIG_POOL_SCRATCH_MIB * 1024 * 1024;
    fig_pool_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a worker pool: out of memory"));
    pool->workers = calloc((size_t)o.threads, sizeof *pool->workers);
    if (!pool->workers) {
        free(pool);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a worker pool: out of memory"));
    }
    if (pthread_mutex_init(&pool->lock, NULL) != 0) {
        free(pool->workers);
        free(pool);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a worker pool: out of memory"));
    }
    if (pthread_cond_init(&pool->wake, NULL) != 0) {
        pthread_mutex_destroy(&pool->lock);
        free(pool->workers);
        free(pool);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a worker pool: out of memory"));
    }
    pool->nworkers = o.threads;
    for (int i = 0; i < o.threads; i++) {
        void *mem = mmap(NULL, o.scratch_bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED) {
            int err = errno;
            abandon(pool, 0);
            return fig_fail(msg, FIG_ERR_SPACE, N_("cannot reserve %zu MiB of search memory "
                                                   "for a worker: %s"),
                            o.scratch_bytes >> 20, strerror(err));
        }
        pool->workers[i].scratch = (fig_scratch_t){ mem, o.scratch_bytes };
        pool->workers[i].pool = pool;
    }
    for (int i = 0; i < o.threads; i++) {
        pool->live++;
        int err = pthread_create(&pool->workers[i].tid, NULL, work, &pool->workers[i]);
        if (err != 0) {
            pool->live--;
            abandon(pool, i);
            return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a worker thread: %s"),
                            strerror(err));
        }
    }
    *out = pool;
    return FIG_OK;
}

void fig_pool_submit(fig_pool_t *pool, fig_pool_job_t *job)
{
    job->next = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->tail)
        pool->tail->next = job;
    else
        pool->head = job;
    pool->tail = job;
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

void fig_pool_free(fig_pool_t *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->closing = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->nworkers; i++)
        pthread_join(pool->workers[i].tid, NULL);
    destroy(pool);
}

void fig_pool_release(fig_pool_t *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    /* Detached under the lock: no worker can stop (and free the pool, tids
     * included) before closing is set below. */
    for (int i = 0; i < pool->nworkers; i++)
        pthread_detach(pool->workers[i].tid);
    pool->closing = true;
    pool->detached = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

int fig_pool_threads(const fig_pool_t *pool)
{
    return pool->nworkers;
}
