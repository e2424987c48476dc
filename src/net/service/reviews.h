/* SPDX-License-Identifier: MIT */
/* reviews.h - the reviews of finished games the table server computes for
 * the people seated (docs/protocol.md, review): each one a host review
 * (host/review.h) run as a job of the server's worker pool, never on the
 * loop, stopped when nobody waits for it any more; and the text a review is
 * stored as with its game, so that it is computed once.
 *
 * A job's seed is derived from the finished game's own seed (public once
 * the game is over: its record shows it) and the seat, so the same game
 * gives the same review (with an iteration-budgeted search) every time.
 *
 * Threads: fig_reviews_start, fig_reviews_cancel, fig_reviews_done and
 * fig_reviews_fd are the loop's; the jobs run on the pool's workers and hand
 * their result back through a list guarded by a lock, then make the
 * descriptor readable. */
#ifndef FIGARO_NET_REVIEWS_H
#define FIGARO_NET_REVIEWS_H

#include <stdint.h>

#include "figaro/figaro.h"
#include "host/pool.h"
#include "host/review.h"

typedef struct fig_reviews fig_reviews_t;

/* One review being computed: the loop's handle until fig_reviews_done gives
 * it back (then the caller frees it with fig_reviews_job_free). */
typedef struct fig_review_job fig_review_job_t;

/* A place for jobs on `pool`; `spec` is the search (NULL: the review's own,
 * FIG_REVIEW_SPEC; tests give a cheaper one). FIG_ERR_SPACE with a message
 * if its descriptor cannot be had. */
fig_err_t fig_reviews_new(fig_reviews_t **out, fig_pool_t *pool, const char *spec,
                          fig_msg_t *msg);

/* Frees what came back and was not taken. Call it once the pool is freed
 * (every job has run): the jobs still out then are lost. NULL is a no-op. */
void fig_reviews_free(fig_reviews_t *r);

/* Readable when a job is done. */
int fig_reviews_fd(const fig_reviews_t *r);

/* Starts the review of `seat` in the finished game g (copied): the one the
 * terminal and `figaro review` give (review.h, seed 0); `user` comes back
 * with it. NULL when out of memory. */
fig_review_job_t *fig_reviews_start(fig_reviews_t *r, const fig_game_t *g, int seat, void *user);

/* Asks the job to stop early: it still comes back through fig_reviews_done,
 * its rc FIG_ERR_STATE. */
void fig_reviews_cancel(fig_review_job_t *j);

/* Every job done since the last call, in no particular order (a chain
 * through fig_review_job_next), and drains the descriptor. */
fig_review_job_t *fig_reviews_done(fig_reviews_t *r);
fig_review_job_t *fig_review_job_next(const fig_review_job_t *j);

/* A done job's outcome: FIG_OK and the review, or the error and why. */
fig_err_t fig_review_job_result(const fig_review_job_t *j, const fig_review_t **rv,
                                const fig_msg_t **msg);
void *fig_review_job_user(const fig_review_job_t *j);
void fig_reviews_job_free(fig_review_job_t *j);

/* The review as stored (JSON text, malloc'd; NULL when out of memory):
 * every reviewed move's numbers, not its words (they are said in each
 * asker's language when asked) nor its view (it follows from the record). */
char *fig_review_text(const fig_review_t *rv);

/* Reads a stored review of `seat` back into *out, with each move's view
 * from the record g (the game it was made of). FIG_ERR_INPUT with the
 * reason when the text is not one (a damaged database). */
fig_err_t fig_review_from_text(const char *text, const fig_game_t *g, int seat,
                               fig_review_t *out, fig_msg_t *msg);

#endif
