/* SPDX-License-Identifier: MIT */
/* reviews.c - reviews of finished games on the worker pool, and as stored
 * text (reviews.h).
 *
 * A job holds its own copy of the record, its result and its cancel flag;
 * it is the loop's before it is queued and after it came back, the worker's
 * in between (the loop only sets its atomic cancel flag meanwhile). The
 * worker puts it on the done list under the lock and writes one byte into
 * the pipe; fig_reviews_done drains both. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/util.h"
#include "net/service/reviews.h"

struct fig_reviews {
    fig_pool_t *pool;
    const char *spec;
    int pipe[2];
    pthread_mutex_t lock;
    fig_review_job_t *done;      /* under lock */
};

struct fig_review_job {
    fig_pool_job_t job;          /* first */
    fig_reviews_t *owner;
    fig_review_job_t *next;
    void *user;
    fig_game_t g;
    int seat;
    atomic_bool cancel;
    fig_err_t rc;
    fig_msg_t msg;
    fig_review_t rv;
};

fig_err_t fig_reviews_new(fig_reviews_t **out, fig_pool_t *pool, const char *spec,
                          fig_msg_t *msg)
{
    *out = NULL;
    fig_reviews_t *r = calloc(1, sizeof *r);
    if (!r)
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot prepare reviews: out of memory"));
    int err = fig_wake_pipe(r->pipe);
    if (err) {
        free(r);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot prepare reviews: %s"), strerror(err));
    }
    pthread_mutex_init(&r->lock, NULL);
    r->pool = pool;
    r->spec = spec;
    *out = r;
    return FIG_OK;
}

void fig_reviews_free(fig_reviews_t *r)
{
    if (!r)
        return;
    fig_review_job_t *j = fig_reviews_done(r);
    while (j) {
        fig_review_job_t *next = j->next;
        fig_reviews_job_free(j);
        j = next;
    }
    close(r->pipe[0]);
    close(r->pipe[1]);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

int fig_reviews_fd(const fig_reviews_t *r) { return r->pipe[0]; }

static void run(fig_pool_job_t *job, const fig_scratch_t *scratch)
{
    (void)scratch;   /* the review's bot has trees of its own (mem=64) */
    fig_review_job_t *j = (fig_review_job_t *)(void *)job;
    /* seed 0: the review every front end gives of this game and seat
     * (review.h: its searches are seeded from the game and the seat) */
    fig_review_opts_t o = { j->owner->spec, 0, &j->cancel, NULL };
    j->rc = fig_review_game(&j->g, j->seat, &o, &j->rv, &j->msg);
    fig_reviews_t *r = j->owner;
    pthread_mutex_lock(&r->lock);
    j->next = r->done;
    r->done = j;
    char byte = 1;
    while (write(r->pipe[1], &byte, 1) < 0 && errno == EINTR)
        ;
    pthread_mutex_unlock(&r->lock);
}

fig_review_job_t *fig_reviews_start(fig_reviews_t *r, const fig_game_t *g, int seat, void *user)
{
    fig_review_job_t *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->owner = r;
    j->user = user;
    j->g = *g;
    j->seat = seat;
    atomic_init(&j->cancel, false);
    j->job.run = run;
    fig_pool_submit(r->pool, &j->job);
    return j;
}

void fig_reviews_cancel(fig_review_job_t *j) { atomic_store(&j->cancel, true); }

fig_review_job_t *fig_reviews_done(fig_reviews_t *r)
{
    char buf[64];
    while (read(r->pipe[0], buf, sizeof buf) > 0)
        ;
    pthread_mutex_lock(&r->lock);
    fig_review_job_t *j = r->done;
    r->done = NULL;
    pthread_mutex_unlock(&r->lock);
    return j;
}

fig_review_job_t *fig_review_job_next(const fig_review_job_t *j) { return j->next; }

fig_err_t fig_review_job_result(const fig_review_job_t *j, const fig_review_t **rv,
                                const fig_msg_t **msg)
{
    *rv = &j->rv;
    *msg = &j->msg;
    return j->rc;
}

void *fig_review_job_user(const fig_review_job_t *j) { return j->user; }

void fig_reviews_job_free(fig_review_job_t *j) { free(j); }

/* ---- stored text:
 * {"seat":0,"iterations":N,"costliest":i,"moves":[[round,index,number,"played","best",
 *   played_win,best_win,played_place,best_place,played_share,loss_place,loss_win,grade],...]} */

enum { FIELDS = 13 };

char *fig_review_text(const fig_review_t *rv)
{
    json_t *o = json_object(), *moves = json_array();
    json_object_set_new(o, "seat", json_integer(rv->seat));
    json_object_set_new(o, "iterations", json_integer(rv->iterations));
    json_object_set_new(o, "costliest", json_integer(rv->costliest));
    for (int i = 0; i < rv->n; i++) {
        const fig_review_move_t *m = &rv->moves[i];
        char a[16], b[16];
        json_array_append_new(
            moves, json_pack("[iiissfffffffi]", m->round, m->index, m->number,
                             fig_act_format(m->played, a, sizeof a),
                             fig_act_format(m->best, b, sizeof b), m->played_win, m->best_win,
                             m->played_place, m->best_place, m->played_share, m->loss_place,
                             m->loss_win, (int)m->grade));
    }
    json_object_set_new(o, "moves", moves);
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

static bool num(const json_t *v, double lo, double hi, double *out)
{
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return isfinite(*out) && *out >= lo && *out <= hi;
}

/* Reads move i of the stored array x into m (its view aside). */
static bool move_from(const json_t *x, int players, int seat, fig_review_move_t *m)
{
    if (!json_is_array(x) || json_array_size(x) != FIELDS)
        return false;
    for (int k = 0; k < 3; k++)
        if (!json_is_integer(json_array_get(x, (size_t)k)))
            return false;
    m->round = (int)json_integer_value(json_array_get(x, 0));
    m->index = (int)json_integer_value(json_array_get(x, 1));
    m->number = (int)json_integer_value(json_array_get(x, 2));
    const char *a = json_string_value(json_array_get(x, 3));
    const char *b = json_string_value(json_array_get(x, 4));
    if (!a || !b || m->round < 1 || m->round > FIG_ROUNDS || m->index < 0 ||
        m->index >= FIG_MAX_ROUND_ACTIONS || m->number < 1)
        return false;
    m->played = fig_act_parse(a, strlen(a), seat);
    m->best = fig_act_parse(b, strlen(b), seat);
    double g;
    if (m->played == FIG_ACT_NONE || m->best == FIG_ACT_NONE ||
        !num(json_array_get(x, 5), 0, 1, &m->played_win) ||
        !num(json_array_get(x, 6), 0, 1, &m->best_win) ||
        !num(json_array_get(x, 7), 1, players, &m->played_place) ||
        !num(json_array_get(x, 8), 1, players, &m->best_place) ||
        !num(json_array_get(x, 9), 0, 1, &m->played_share) ||
        !num(json_array_get(x, 10), 0, players, &m->loss_place) ||
        !num(json_array_get(x, 11), 0, 1, &m->loss_win) ||
        !json_is_integer(json_array_get(x, 12)) ||
        !num(json_array_get(x, 12), FIG_REVIEW_GOOD, FIG_REVIEW_BLUNDER, &g))
        return false;
    m->grade = (fig_review_grade_t)(int)g;
    return true;
}

/* Each move's view (what the seat knew before it) and its place among the
 * seat's moves of its round (in_round of of_round), from the record, as
 * fig_review_game found them: neither is stored. */
static fig_err_t views_from(const fig_game_t *g, fig_review_t *out, fig_msg_t *msg)
{
    fig_game_t *replay = malloc(sizeof *replay);
    if (!replay)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    fig_game_init(replay, &g->setup);
    fig_err_t rc = FIG_OK;
    int k = 0;
    for (int r = 0; r < g->dealt && rc == FIG_OK; r++) {
        rc = fig_game_deal(replay, g->hands[r], msg);
        int in_round = 0;
        for (int i = 0; i < g->nmoves[r] && rc == FIG_OK; i++) {
            const fig_move_t *mv = &g->moves[r][i];
            if (k < out->n && out->moves[k].round == r + 1 && out->moves[k].index == i) {
                if (mv->seat != out->seat)
                    break;
                out->moves[k].in_round = ++in_round;
                fig_view_of(&replay->state, out->seat, &out->moves[k++].view);
            }
            rc = fig_game_play(replay, mv->action, NULL, msg);
        }
        for (int j = k - 1; j >= 0 && out->moves[j].round == r + 1; j--)
            out->moves[j].of_round = in_round;
    }
    free(replay);
    if (rc == FIG_OK && k != out->n)
        rc = fig_fail(msg, FIG_ERR_INPUT, N_("a stored review does not match its game"));
    return rc;
}

fig_err_t fig_review_from_text(const char *text, const fig_game_t *g, int seat,
                               fig_review_t *out, fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    const json_t *moves = json_object_get(o, "moves");
    const json_t *s = json_object_get(o, "seat"), *it = json_object_get(o, "iterations");
    const json_t *c = json_object_get(o, "costliest");
    bool ok = json_is_object(o) && json_is_array(moves) && json_is_integer(s) &&
              json_integer_value(s) == seat && json_is_integer(it) && json_is_integer(c) &&
              json_array_size(moves) <= FIG_REVIEW_MAX_MOVES;
    if (ok) {
        out->seat = seat;
        out->iterations = (long)json_integer_value(it);
        out->n = (int)json_array_size(moves);
        long long cost = json_integer_value(c);
        ok = cost >= -1 && cost < out->n;
        out->costliest = (int)cost;
        for (int i = 0; i < out->n && ok; i++) {
            ok = move_from(json_array_get(moves, (size_t)i), g->setup.players, seat,
                           &out->moves[i]);
            if (ok)
                out->count[out->moves[i].grade]++;
        }
    }
    json_decref(o);
    if (!ok)
        return fig_fail(msg, FIG_ERR_INPUT, N_("a stored review does not read"));
    return views_from(g, out, msg);
}
