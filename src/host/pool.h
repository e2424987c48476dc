/* SPDX-License-Identifier: MIT */
/* pool.h - a bounded pool of worker threads, shared by every match of a
 * process (match.h), so that a thousand matches never mean a thousand
 * threads.
 *
 * Jobs wait in one FIFO queue and run in the order they came, each on
 * whichever worker is free. Each worker owns one block of search memory (its
 * scratch) and lends it to every job it runs, so the memory of all searches
 * is bounded by workers x block, however many bots exist. The block is
 * reserved address space: pages become memory only as a search touches them.
 *
 * The caller creates the pool, hands it to the matches (fig_match_opts_t),
 * frees every match, then frees the pool. Submitting never blocks (beyond
 * the queue's mutex) and never fails: a job is an intrusive node the
 * submitter owns, so the queue needs no memory. */
#ifndef FIGARO_HOST_POOL_H
#define FIGARO_HOST_POOL_H

#include <stddef.h>

#include "figaro/bot.h"
#include "figaro/error.h"

typedef struct fig_pool fig_pool_t;

enum {
    FIG_POOL_MAX_THREADS = 256,
    FIG_POOL_SCRATCH_MIB = 256   /* default block: ismcts's default `mem` */
};

typedef struct {
    int threads;            /* workers, 1 to FIG_POOL_MAX_THREADS; 0: one per online core */
    size_t scratch_bytes;   /* search memory per worker; 0: FIG_POOL_SCRATCH_MIB MiB */
} fig_pool_opts_t;

/* A unit of work. The submitter fills `run` and keeps the node alive until
 * run is called; the pool uses `next`. run gets the worker's scratch, lent
 * for the duration of the call. A job may free its own node in run. */
typedef struct fig_pool_job {
    void (*run)(struct fig_pool_job *job, const fig_scratch_t *scratch);
    struct fig_pool_job *next;
} fig_pool_job_t;

/* Starts the workers. opts may be NULL (all defaults). Returns FIG_ERR_SPACE
 * with a message when threads or memory cannot be had, FIG_ERR_INPUT for a
 * thread count out of range. */
fig_err_t fig_pool_new(fig_pool_t **out, const fig_pool_opts_t *opts, fig_msg_t *msg);

/* Queues a job at the end of the queue. */
void fig_pool_submit(fig_pool_t *pool, fig_pool_job_t *job);

/* Finishes every job already queued (none is dropped: the last jobs of freed
 * matches are what frees their bots), then joins the workers and frees the
 * pool. Blocks until then. Free the matches first; a job submitted after
 * this call starts is a bug. NULL is a no-op. */
void fig_pool_free(fig_pool_t *pool);

/* Like fig_pool_free, but returns at once: the workers finish the queued
 * jobs in the background and the last one to stop frees the pool. For a
 * pool that belongs to one match (the match's own, when its caller gave
 * none). */
void fig_pool_release(fig_pool_t *pool);

/* The number of workers. */
int fig_pool_threads(const fig_pool_t *pool);

#endif
