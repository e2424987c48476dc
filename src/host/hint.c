/* SPDX-License-Identifier: MIT */
/* hint.c - a search bot's move for a person, thought on a worker (hint.h).
 *
 * A question makes a built-in bot (never an external program: a person's
 * hint starts no process) and tells it the seat's knowledge on the caller's
 * thread, which is quick; the think, which is not, runs as a job of the pool.
 * The job writes the answer, then one byte into the handle's pipe. The
 * handle's lock guards `running`, `closing` and the answer: a handle freed
 * while its job runs is left to the job, which frees it when the think is
 * over (the cancel flag cuts the think short). The analysis of the think is
 * written by the job before the answer's byte and read by the caller only
 * after it took the answer, so it needs no lock of its own.
 *
 * fig_hint_explain turns an analysis into sentences: pure wording over the
 * numbers and the person's view, through the narrator's translator. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/hint.h"
#include "host/util.h"

struct fig_hint {
    fig_pool_t *pool;
    bool own_pool;           /* made by fig_hint_new: released with the handle */
    fig_pool_job_t job;
    int pipe[2];             /* [0] readable when an answer is in */
    pthread_mutex_t lock;
    bool running;            /* the job is queued or thinking */
    bool closing;            /* freed meanwhile: the job frees the handle */
    atomic_bool cancel;
    bool asked;              /* a question is out, its answer not taken */
    fig_bot_t *bot;          /* the question's bot (the job's while running) */
    long tag;
    fig_action_t answer;
    bool has_analysis;       /* `analysis` is the last answer's */
    fig_analysis_t analysis;
};

static void destroy(fig_hint_t *h)
{
    fig_bot_free(h->bot);
    close(h->pipe[0]);
    close(h->pipe[1]);
    pthread_mutex_destroy(&h->lock);
    if (h->own_pool)
        fig_pool_release(h->pool);
    free(h);
}

fig_err_t fig_hint_new(fig_hint_t **out, fig_pool_t *pool, fig_msg_t *msg)
{
    *out = NULL;
    fig_hint_t *h = calloc(1, sizeof *h);
    if (!h)
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot prepare hints: out of memory"));
    int err = fig_wake_pipe(h->pipe);
    if (err) {
        free(h);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot prepare hints: %s"), strerror(err));
    }
    pthread_mutex_init(&h->lock, NULL);
    atomic_init(&h->cancel, false);
    h->pool = pool;
    if (!pool) {
        /* A small block: the search's trees are capped to it. */
        fig_pool_opts_t po = { 1, (size_t)64 << 20 };
        fig_err_t rc = fig_pool_new(&h->pool, &po, msg);
        if (rc != FIG_OK) {
            h->pool = NULL;
            destroy(h);
            return rc;
        }
        h->own_pool = true;
    }
    *out = h;
    return FIG_OK;
}

static void think(fig_pool_job_t *job, const fig_scratch_t *scratch)
{
    fig_hint_t *h = (fig_hint_t *)(void *)((char *)job - offsetof(fig_hint_t, job));
    fig_action_t a = fig_bot_choose_with(h->bot, 0, scratch, &h->cancel);
    bool has = fig_bot_analysis(h->bot, &h->analysis);
    /* The answer and its byte are posted under the lock, before `running`
     * falls: once it has, the caller may free the handle at any moment, so
     * the job touches nothing of it after unlocking (but when it was freed
     * meanwhile, and the handle is the job's to free). The pipe holds at most
     * one byte: a question is answered before the next is asked. */
    pthread_mutex_lock(&h->lock);
    bool closing = h->closing;
    h->answer = a;
    h->has_analysis = has;
    if (!closing) {
        char byte = 1;
        while (write(h->pipe[1], &byte, 1) < 0 && errno == EINTR)
            ;
    }
    h->running = false;
    pthread_mutex_unlock(&h->lock);
    if (closing)
        destroy(h);
}

void fig_hint_free(fig_hint_t *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    bool running = h->running;
    if (running) {
        h->closing = true;
        atomic_store(&h->cancel, true);
    }
    pthread_mutex_unlock(&h->lock);
    if (!running)
        destroy(h);
}

fig_err_t fig_hint_ask(fig_hint_t *h, const fig_game_t *record, int seat, const char *spec,
                       long tag, fig_msg_t *msg)
{
    if (h->asked)
        return fig_fail(msg, FIG_ERR_STATE, N_("a hint is still being worked out"));
    const fig_state_t *st = &record->state;
    if (st->phase != FIG_PHASE_PLAY || st->turn != seat)
        return fig_fail(msg, FIG_ERR_STATE, N_("a hint is for your turn"));
    fig_bot_t *bot = NULL;
    fig_err_t rc = fig_bot_new(&bot, spec ? spec : fig_bot_level_name(fig_bot_level_count() - 1), (uint64_t)tag * 7919u + 1, msg);
    if (rc == FIG_OK)
        rc = fig_bot_game(bot, &record->setup, seat, msg);
    /* The seat's knowledge: its own hands and the public actions (R14). */
    for (int r = 0; r < record->dealt && rc == FIG_OK; r++) {
        rc = fig_bot_round(bot, &record->hands[r][seat], msg);
        for (int i = 0; i < record->nmoves[r] && rc == FIG_OK; i++)
            rc = fig_bot_move(bot, record->moves[r][i].action, msg);
    }
    if (rc != FIG_OK) {
        fig_bot_free(bot);
        return rc;
    }
    fig_bot_free(h->bot);   /* the last question's, already answered */
    h->bot = bot;
    h->tag = tag;
    h->asked = true;
    h->has_analysis = false;
    atomic_store(&h->cancel, false);
    pthread_mutex_lock(&h->lock);
    h->running = true;
    pthread_mutex_unlock(&h->lock);
    h->job.run = think;
    fig_pool_submit(h->pool, &h->job);
    return FIG_OK;
}

bool fig_hint_busy(const fig_hint_t *h) { return h->asked; }

int fig_hint_fd(const fig_hint_t *h) { return h->pipe[0]; }

bool fig_hint_take(fig_hint_t *h, fig_action_t *action, long *tag)
{
    char byte;
    if (!h->asked || read(h->pipe[0], &byte, 1) != 1)
        return false;
    /* The byte was written after the answer, under the lock's release. */
    pthread_mutex_lock(&h->lock);
    *action = h->answer;
    pthread_mutex_unlock(&h->lock);
    *tag = h->tag;
    h->asked = false;
    return true;
}

bool fig_hint_analysis(const fig_hint_t *h, fig_analysis_t *out)
{
    if (h->asked || !h->has_analysis)
        return false;
    *out = h->analysis;
    return true;
}

/* ---- wording */

/* The seat (other than nobody) most often making the person collect after
 * move m, and that chance. */
static int main_maker(const fig_move_stat_t *m, int players, double *chance)
{
    int best = 0;
    for (int s = 1; s < players; s++)
        if (m->made_by[s] > m->made_by[best])
            best = s;
    *chance = m->made_by[best];
    return best;
}

/* Whether the search told moves a and b apart: their chances to win or
 * their expected places differ by more than twice the noise of the
 * difference, and by more than a person would see in the figures shown (a
 * point of win chance, 0.05 of a place). */
static bool separated(const fig_move_stat_t *a, const fig_move_stat_t *b, int players)
{
    double wa, pa, wb, pb;
    fig_move_stat_noise(a, players, &wa, &pa);
    fig_move_stat_noise(b, players, &wb, &pb);
    double dw = fabs(a->win - b->win), dp = fabs(a->place - b->place);
    return (dw > 2 * sqrt(wa * wa + wb * wb) && dw >= 0.01) ||
           (dp > 2 * sqrt(pa * pa + pb * pb) && dp >= 0.05);
}

/* Whether move a makes the person collect at once (a take, or their own pile
 * reaching 6): being made to collect "before their next turn" is then true
 * by definition, no reason against it. */
static bool collects_now(const fig_view_t *v, fig_action_t a)
{
    return fig_act_is_take(a) || fig_narrate_collector(v, a, NULL) == v->seat;
}

/* The one reason for the hint (order[0]) over the other moves searched
 * (order[1..k-1], in words in moves[1..k-1]), the first that applies: the
 * search cannot tell it from the next moves; the next move gets the person
 * made to collect soon (by another seat, or at their own next turn); it
 * makes them collect at least a card more this round; else what
 * the hint does at the table (`table`, fig_narrate_hint). */
static void reason(const fig_narrator_t *nr, const fig_view_t *v,
                   const fig_move_stat_t *const order[], int k, const fig_hint_move_t moves[],
                   const char *table, char *buf, size_t cap)
{
    int me = v->seat, n = v->players;
    const fig_move_stat_t *b = order[0], *o = k > 1 ? order[1] : NULL;
    int close = 0;
    while (close + 1 < k && !separated(b, order[close + 1], n))
        close++;
    if (close == 1) {
        snprintf(buf, cap, fig_tr_text(nr->tr, "The search cannot tell it from the next move "
                                               "(%s) yet: both win about %.0f%%."),
                 moves[1].move, 100 * b->win);
        return;
    }
    if (close >= 2) {
        snprintf(buf, cap, fig_tr_text(nr->tr, "The search cannot tell it from the next two "
                                               "moves (%s; %s) yet: all three win about "
                                               "%.0f%%."),
                 moves[1].move, moves[2].move, 100 * b->win);
        return;
    }
    if (o && !collects_now(v, o->action) && o->collect_next >= 0.2 &&
        o->collect_next - b->collect_next >= 0.15) {
        double chance;
        int maker = main_maker(o, n, &chance);
        if (maker == me)
            snprintf(buf, cap, fig_tr_text(nr->tr, "After the other move (%s) you collect at "
                                                   "your next turn in %.0f%% of the samples."),
                     moves[1].move, 100 * chance);
        else
            snprintf(buf, cap, fig_tr_text(nr->tr, "The other move (%s) lets %s make you "
                                                   "collect next turn in %.0f%% of the "
                                                   "samples."),
                     moves[1].move, fig_narrate_name(nr, maker), 100 * chance);
        return;
    }
    if (o && o->collect[me] - b->collect[me] >= 1.0) {
        snprintf(buf, cap, fig_tr_text(nr->tr, "With the other move (%s) you would collect "
                                               "about %.1f cards this round instead of %.1f."),
                 moves[1].move, o->collect[me], b->collect[me]);
        return;
    }
    if (!o)
        snprintf(buf, cap, "%s", fig_tr_text(nr->tr, "It is the only move."));
    else
        snprintf(buf, cap, "%s", table);
}

void fig_hint_explain(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a,
                      const fig_analysis_t *an, fig_hint_text_t *out)
{
    memset(out, 0, sizeof *out);
    out->action = a;
    char table[400];
    fig_narrate_hint(nr, v, a, out->headline, sizeof out->headline, table, sizeof table);
    snprintf(out->reason, sizeof out->reason, "%s", table);
    if (!an || an->n <= 0 || an->seat != v->seat)
        return;
    /* The hint first (a softened level may play another than the most
     * visited), then the most visited others. */
    const fig_move_stat_t *order[FIG_HINT_TOP];
    int k = 0;
    for (int i = 0; i < an->n && k < 1; i++)
        if (an->moves[i].action == a)
            order[k++] = &an->moves[i];
    if (k == 0)
        return;   /* the analysis is not of this answer */
    out->iterations = an->iterations;
    for (int i = 0; i < an->n && k < FIG_HINT_TOP; i++)
        if (an->moves[i].action != a)
            order[k++] = &an->moves[i];
    int me = v->seat;
    for (int i = 0; i < k; i++) {
        fig_hint_move_t *m = &out->moves[i];
        const fig_move_stat_t *st = order[i];
        m->action = st->action;
        m->share = st->share;
        m->win = st->win;
        m->place = st->place;
        m->collect = st->collect[me];
        fig_narrate_move(nr, v, st->action, m->move, sizeof m->move);
        snprintf(m->line, sizeof m->line,
                 fig_tr_text(nr->tr, "%s: %.0f%% of the search, wins %.0f%%, you collect about "
                                     "%.1f cards this round"),
                 m->move, 100 * m->share, 100 * m->win, m->collect);
    }
    out->n = k;
    reason(nr, v, order, k, out->moves, table, out->reason, sizeof out->reason);
}
