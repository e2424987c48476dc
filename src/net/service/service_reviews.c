/* SPDX-License-Identifier: MIT */
/* service_reviews.c - the reviews of finished games on their way to the
 * people who asked (docs/protocol.md, review): read from the storage with
 * their game (the writer thread), else computed on the pool (net/service/reviews.h),
 * then told and stored. At most REVIEWS_MAX at once; at most half the pool's
 * workers compute reviews, so the bots of every table keep the others. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/util.h"
#include "net/service/registry.h"
#include "net/service/service_reviews.h"

static void review_fail(fig_service_t *s, review_wait_t *r, const char *why);

void fig_svc_review_drop(fig_service_t *s, review_wait_t *r)
{
    review_wait_t **p = &s->rwaits;
    while (*p != r)
        p = &(*p)->next;
    *p = r->next;
    s->nrwaits--;
    free(r->text);
    free(r->record);
    free(r);
}

static bool review_wanted(const review_wait_t *r)
{
    for (int i = 0; i < FIG_PROTO_HELD_MAX; i++)
        if (r->to[i])
            return true;
    return false;
}

/* Starts the oldest queued reviews while workers may take them; drops the
 * ones nobody waits for any more. */
static void reviews_pump(fig_service_t *s)
{
    int most = fig_pool_threads(s->pool) / 2;
    if (most < 1)
        most = 1;
    for (;;) {
        review_wait_t *oldest = NULL;
        for (review_wait_t *r = s->rwaits; r; r = r->next)
            if (r->state == RV_QUEUED)
                oldest = r;
        if (!oldest)
            return;
        if (!review_wanted(oldest)) {
            fig_svc_review_drop(s, oldest);
            continue;
        }
        if (s->computing >= most)
            return;
        if (!(oldest->job = fig_reviews_start(s->reviews, oldest->record, oldest->seat,
                                              oldest))) {
            review_fail(s, oldest, "out of memory");
            fig_svc_review_drop(s, oldest);
            continue;
        }
        fig_logf(s->log, s->log_ctx, "", "table %s: reviewing seat %d of game %d",
                 oldest->code, oldest->seat, oldest->game);
        free(oldest->record);
        oldest->record = NULL;
        oldest->state = RV_COMPUTING;
        s->computing++;
    }
}

/* The review to everyone waiting for it, each in their language. */
static void review_tell(fig_service_t *s, review_wait_t *r, const fig_review_t *rv)
{
    tab_t *e = fig_svc_find_tab(s, r->code);
    for (int i = 0; i < FIG_PROTO_HELD_MAX && e; i++) {
        if (!r->to[i] || r->to[i]->closing)
            continue;
        fig_narrator_t nr;
        fig_table_narrator(e->t, r->seat, r->to[i]->tr, &nr);
        fig_svc_send_json(s, r->to[i], fig_proto_review(r->code, r->game, rv, &nr));
    }
}

static void review_fail(fig_service_t *s, review_wait_t *r, const char *why)
{
    fig_logf(s->log, s->log_ctx, "", "table %s: no review of seat %d in game %d: %s", r->code,
             r->seat, r->game, why);
    for (int i = 0; i < FIG_PROTO_HELD_MAX; i++)
        if (r->to[i] && !r->to[i]->closing)
            fig_svc_send_error(s, r->to[i], FIG_PC_STORAGE,
                       fig_tr_text(r->to[i]->tr, "the server could not make that review: "
                                                 "try again later"), "review", r->code);
}

static void review_back(void *ctx, fig_db_batch_t *b);   /* the batch is back */

fig_proto_code_t fig_svc_review(fig_service_t *s, conn_t *c, fig_table_t *t,
                                const fig_proto_msg_t *m, fig_msg_t *msg)
{
    int seat;
    fig_proto_code_t code = fig_table_review_seat(t, c, c->tr, m->game, m->seat, &seat, msg);
    if (code)
        return code;
    const char *tcode = fig_table_code(t);
    for (review_wait_t *r = s->rwaits; r; r = r->next) {
        if (strcmp(r->code, tcode) || r->game != m->game || r->seat != seat)
            continue;
        /* On its way already: one more to tell (twice asked is one answer). */
        int free_at = -1;
        for (int i = 0; i < FIG_PROTO_HELD_MAX; i++) {
            if (r->to[i] == c)
                return FIG_PC_NONE;
            if (!r->to[i] && free_at < 0)
                free_at = i;
        }
        if (free_at < 0 || r->state == RV_STORING)
            break;   /* told already (being stored), or many askers: a read of its own */
        r->to[free_at] = c;
        return FIG_PC_NONE;
    }
    for (review_wait_t *r = s->rwaits; r; r = r->next)
        for (int i = 0; i < FIG_PROTO_HELD_MAX; i++)
            if (r->to[i] == c) {   /* another review of it is on its way: one at a time */
                snprintf(msg->text, sizeof msg->text, "%s",
                         fig_tr_text(c->tr, "your other review is on its way: ask again when "
                                            "it came"));
                return FIG_PC_BUSY;
            }
    review_wait_t *r = NULL;
    fig_game_t *names = NULL;
    bool stored;
    if (s->nrwaits >= REVIEWS_MAX || !(r = calloc(1, sizeof *r)) ||
        !(names = malloc(sizeof *names)) ||
        fig_table_record(t, m->game, names, &stored, msg) != FIG_OK) {
        free(r);
        free(names);
        snprintf(msg->text, sizeof msg->text, "%s",
                 fig_tr_text(c->tr, "the server is busy reviewing other games: try again in a "
                                    "minute"));
        return FIG_PC_BUSY;
    }
    memcpy(r->names, names->names, sizeof r->names);
    free(names);
    snprintf(r->code, sizeof r->code, "%s", tcode);
    r->game = m->game;
    r->seat = seat;
    r->to[0] = c;
    r->state = RV_READING;
    r->b.back = review_back;
    r->b.ctx = s;
    r->b.user = s;
    r->b.read.out = &r->g;
    snprintf(r->b.read.code, sizeof r->b.read.code, "%s", tcode);
    r->b.read.game = m->game;
    r->b.read.seat = seat;
    r->b.read.review = &r->text;
    r->next = s->rwaits;
    s->rwaits = r;
    s->nrwaits++;
    fig_writer_submit(s->writer, &r->b);
    return FIG_PC_NONE;
}

/* A review's batch came back from the writer: the read (tell the stored
 * review, or compute it) or the write (done). */
static void review_back(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    review_wait_t *r = (review_wait_t *)b;
    if (r->state == RV_STORING) {
        /* Fenced: its table is another server's now, which reviews it again
         * if asked. */
        s->fenced += r->b.fenced;
        if (r->b.rc) {
            s->stats.storage_errors += !r->b.fenced;
            fig_logf(s->log, s->log_ctx, "", "table %s: review not stored: %s", r->code,
                     r->b.msg.text);
        }
        fig_svc_review_drop(s, r);
        return;
    }
    fig_game_t *g = malloc(sizeof *g);
    fig_review_t *rv = malloc(sizeof *rv);
    fig_msg_t msg = r->b.msg;
    fig_err_t rc = !g || !rv ? fig_fail(&msg, FIG_ERR_SPACE, "out of memory") : r->b.rc ? r->b.rc
                   : fig_table_record_stored(&r->g, r->game, r->names, g, &msg);
    if (!rc && r->text) {
        if (fig_review_from_text(r->text, g, r->seat, rv, &msg) == FIG_OK) {
            review_tell(s, r, rv);   /* computed once: the stored one */
            fig_svc_review_drop(s, r);
            free(g);
            free(rv);
            return;
        }
        fig_logf(s->log, s->log_ctx, "", "table %s: game %d: %s: reviewed again", r->code,
                 r->game, msg.text);
        free(r->text);
        r->text = NULL;
    }
    free(rv);
    if (rc) {
        free(g);
        review_fail(s, r, msg.text);
        fig_svc_review_drop(s, r);
        return;
    }
    r->record = g;
    r->state = RV_QUEUED;
    reviews_pump(s);
}

/* Reviews computed on the pool: told, then stored. */
void fig_svc_reviews_ready(fig_service_t *s)
{
    fig_review_job_t *j = fig_reviews_done(s->reviews);
    while (j) {
        fig_review_job_t *next = fig_review_job_next(j);
        review_wait_t *r = fig_review_job_user(j);
        const fig_review_t *rv;
        const fig_msg_t *why;
        fig_err_t rc = fig_review_job_result(j, &rv, &why);
        char *text = rc == FIG_OK ? fig_review_text(rv) : NULL;
        if (rc == FIG_OK)
            review_tell(s, r, rv);
        else if (rc != FIG_ERR_STATE)
            review_fail(s, r, why->text);
        else   /* stopped (fig_service_closed): nobody waits then */
            fig_logf(s->log, s->log_ctx, "", "table %s: the review of seat %d in game %d "
                     "stopped: nobody waits for it", r->code, r->seat, r->game);
        fig_reviews_job_free(j);
        s->computing--;
        if (text) {
            r->state = RV_STORING;   /* told: whoever asks from now on reads it back */
            memset(r->to, 0, sizeof r->to);
            r->job = NULL;
            r->text = text;
            memset(&r->b, 0, sizeof r->b);
            r->b.back = review_back;
            r->b.ctx = s;
            r->b.user = s;
            r->b.n = 1;
            r->b.w[0].kind = FIG_DBW_REVIEW;
            snprintf(r->b.w[0].code, sizeof r->b.w[0].code, "%s", r->code);
            r->b.w[0].game = r->game;
            r->b.w[0].seat = r->seat;
            r->b.w[0].text = text;
            fig_writer_submit(s->writer, &r->b);
        } else {
            fig_svc_review_drop(s, r);
        }
        j = next;
    }
    reviews_pump(s);
}
