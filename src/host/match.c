/* SPDX-License-Identifier: MIT */
/* match.c - one game between people and programs (match.h).
 *
 * The game record is the single source of truth, written only on the
 * caller's thread. Bots follow it through one job at a time on the pool
 * (host/pool.h): the match's one job node is queued when work is asked for
 * and not already scheduled; the job takes the work asked so far (`want`,
 * under the lock), does it without the lock, posts the results, and loops
 * until no work is left. So the jobs of a match never overlap, and a match
 * costs the pool one queue slot, whatever it asks. A match whose bots are
 * all instant (random), when its caller allows it, runs the same job on the
 * caller's thread, in ask(): nothing to wait for, and no thread to wake; it
 * posts and signals as on the pool, and fig_match_step, having asked for a
 * think, collects the answer at once and returns it as its step.
 *
 * Each bot has a cursor (rounds and moves it has been told); a job first
 * brings every bot up to `target`, the record's length when the work was
 * asked for. Entries below the target never change, and the caller only
 * appends beyond it, so the job reads the record without a lock and without
 * racing the caller.
 *
 * Results (an answer, the bots told the end, faults) are posted under the
 * lock, and one byte in the pipe wakes the caller's loop; fig_match_step
 * drains it and collects everything under the same lock. The `scheduled`
 * flag is cleared in the same critical section that finds no work left, so
 * a collect that sees it clear has seen every result.
 *
 * Freeing: the caller marks the match freed and raises `cancel` (the think
 * answers now) and `closing` (engines' waits give up); if no job is
 * scheduled it queues one. The job, seeing `freed`, tells the bots the game's
 * end if it is over and they have not heard, frees the bots (engines get
 * `quit`), the pipe and the match. A private pool is released at the same
 * time: its worker finishes that job, then frees the pool. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figaro/match.h"
#include "host/pool.h"
#include "host/util.h"

enum {
    W_HELLO = 1,   /* fig_bot_game for every bot (an engine's handshake) */
    W_THINK = 2,   /* the bot at think_seat chooses */
    W_OVER = 4,    /* fig_bot_game_over for every bot */
    FAULTS_KEEP = 16
};

/* How far the record goes: rounds dealt, moves in each. */
typedef struct {
    int dealt;
    int nmoves[FIG_ROUNDS];
} mark_t;

/* How far a bot has been told: rounds, and moves of the last of them. */
typedef struct {
    int dealt, moves;
} cursor_t;

/* A bounded queue of faults; the oldest go first when it is full. */
typedef struct {
    fig_fault_t f[FAULTS_KEEP];
    int first, n;
} faults_t;

struct fig_match {
    fig_game_t game;
    fig_bot_t *bots[FIG_MAX_PLAYERS];
    bool is_bot[FIG_MAX_PLAYERS];
    char specs[FIG_MAX_PLAYERS][128];
    int move_ms;
    bool keep_seeds;
    bool instant;           /* opts.inline_instant, and every bot instant: no job on the pool */
    fig_pool_t *pool;
    bool own_pool;
    fig_pool_job_t job;
    int pipe[2];            /* [0] readable when a result is in */
    fig_rng_t rng;          /* overrules an impossible answer (never from a sound bot) */
    fig_fault_fn on_fault;
    void *fault_user;
    atomic_bool cancel;     /* the think in progress is to answer now */
    atomic_bool closing;    /* the match is being freed: every wait of a bot gives up */

    /* The caller's thread only. */
    bool thinking;          /* a think was asked for; its answer is not applied yet */
    bool answer_in;         /* collected, to be applied */
    fig_action_t answer;
    bool over_asked;
    bool busy;              /* as of the last collect: a job scheduled */
    bool released;
    faults_t undelivered;   /* for fig_match_next_fault, without a callback */

    /* Shared by the caller and the job: under lock. */
    pthread_mutex_t lock;
    bool scheduled;         /* the job is queued or running */
    unsigned want;          /* work asked for and not begun */
    mark_t target;          /* the record as far as that work may read it */
    int think_seat;
    uint64_t think_seed;
    bool have_answer;
    fig_action_t posted;
    bool freed;
    bool signalled;         /* a byte is in the pipe */
    faults_t posted_faults;

    /* The job only (one at a time). */
    cursor_t told[FIG_MAX_PLAYERS];
    bool hello_done, over_done;
};

static void faults_push(faults_t *q, const fig_fault_t *f)
{
    if (q->n == FAULTS_KEEP) {
        q->first = (q->first + 1) % FAULTS_KEEP;
        q->n--;
    }
    q->f[(q->first + q->n++) % FAULTS_KEEP] = *f;
}

static bool faults_pop(faults_t *q, fig_fault_t *out)
{
    if (!q->n)
        return false;
    *out = q->f[q->first];
    q->first = (q->first + 1) % FAULTS_KEEP;
    q->n--;
    return true;
}

static void free_bots(fig_bot_t *const bots[])
{
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        fig_bot_free(bots[s]);
}

static mark_t mark_of(const fig_game_t *g)
{
    mark_t t;
    t.dealt = g->dealt;
    memcpy(t.nmoves, g->nmoves, sizeof t.nmoves);
    return t;
}

/* ---- the job (a worker's thread) */

/* Brings every bot up to the target: the deals and moves it has not heard. */
static void tell_up_to(fig_match_t *m, const mark_t *t)
{
    const fig_game_t *g = &m->game;
    for (int s = 0; s < g->setup.players; s++) {
        fig_bot_t *bot = m->bots[s];
        cursor_t *c = &m->told[s];
        if (!bot)
            continue;
        for (;;) {
            if (c->dealt > 0 && c->moves < t->nmoves[c->dealt - 1]) {
                fig_bot_move(bot, g->moves[c->dealt - 1][c->moves++].action, NULL);
            } else if (c->dealt < t->dealt) {
                fig_bot_round(bot, &g->hands[c->dealt][s], NULL);
                c->dealt++;
                c->moves = 0;
            } else {
                break;
            }
        }
    }
}

/* Moves the bots' new faults to the posted ones; true if there were any.
 * Under the lock. */
static bool gather_faults(fig_match_t *m)
{
    bool any = false;
    fig_fault_t f;
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        while (m->bots[s] && fig_bot_take_fault(m->bots[s], &f)) {
            faults_push(&m->posted_faults, &f);
            any = true;
        }
    return any;
}

/* Wakes the caller's loop, once per collect. Under the lock. */
static void signal_caller(fig_match_t *m)
{
    if (m->signalled)
        return;
    char byte = 1;
    while (write(m->pipe[1], &byte, 1) < 0 && errno == EINTR)
        ;
    m->signalled = true;
}

static void tell_over(fig_match_t *m)
{
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        if (m->bots[s])
            fig_bot_game_over(m->bots[s]);   /* FEP engines get their `gameover` */
    m->over_done = true;
}

/* Does the work asked for, without the lock; returns the think's answer
 * (FIG_ACT_NONE without W_THINK). */
static fig_action_t work(fig_match_t *m, unsigned want, const mark_t *target, int seat,
                         uint64_t seed, const fig_scratch_t *scratch)
{
    if (want & W_HELLO) {
        for (int s = 0; s < m->game.setup.players; s++)
            if (m->bots[s])
                fig_bot_game(m->bots[s], &m->game.setup, s, NULL);
        m->hello_done = true;
    }
    tell_up_to(m, target);
    fig_action_t a = FIG_ACT_NONE;
    if (want & W_THINK) {
        if (!m->keep_seeds)
            fig_bot_seed(m->bots[seat], seed);
        a = fig_bot_choose_with(m->bots[seat], m->move_ms, scratch, &m->cancel);
    }
    if (want & W_OVER)
        tell_over(m);
    return a;
}

/* The match was freed: what is left to do, then everything goes. */
static void finish(fig_match_t *m)
{
    if (!m->released) {
        if (m->hello_done && !m->over_done && fig_game_over(&m->game)) {
            mark_t all = mark_of(&m->game);   /* the caller is gone: it is all ours */
            tell_up_to(m, &all);
            tell_over(m);
        }
        free_bots(m->bots);
    }
    close(m->pipe[0]);
    close(m->pipe[1]);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* The match's job: loops while work is asked for. Results are posted in the
 * same critical section that looks for more work, so when the caller drains
 * a wake-up and finds the job still scheduled, more work was asked after
 * those results, and that work (a think or the game's end: the handshake is
 * only ever the first) posts and wakes the caller again. */
static void run(fig_pool_job_t *job, const fig_scratch_t *scratch)
{
    fig_match_t *m = (fig_match_t *)(void *)((char *)job - offsetof(fig_match_t, job));
    pthread_mutex_lock(&m->lock);
    for (;;) {
        if (m->freed) {
            pthread_mutex_unlock(&m->lock);
            finish(m);
            return;
        }
        unsigned want = m->want;
        mark_t target = m->target;
        int seat = m->think_seat;
        uint64_t seed = m->think_seed;
        m->want = 0;
        if (!want) {
            m->scheduled = false;
            pthread_mutex_unlock(&m->lock);
            return;
        }
        pthread_mutex_unlock(&m->lock);
        fig_action_t a = work(m, want, &target, seat, seed, scratch);
        pthread_mutex_lock(&m->lock);
        bool wake = gather_faults(m) || (want & (W_THINK | W_OVER));
        if (want & W_THINK) {
            m->posted = a;
            m->have_answer = true;
        }
        if (wake)
            signal_caller(m);
    }
}

/* ---- the caller's thread */

/* Asks for work: the job brings the bots up to the record as it is now. */
static void ask(fig_match_t *m, unsigned w, int seat, uint64_t seed)
{
    pthread_mutex_lock(&m->lock);
    m->want |= w;
    m->target = mark_of(&m->game);
    if (w & W_THINK) {
        m->think_seat = seat;
        m->think_seed = seed;
    }
    bool submit = !m->scheduled;
    m->scheduled = true;
    pthread_mutex_unlock(&m->lock);
    m->busy = true;
    if (submit && m->instant)
        run(&m->job, NULL);   /* no job runs for this match: the job's own steps, here */
    else if (submit)
        fig_pool_submit(m->pool, &m->job);
}

/* Takes in what the job posted and delivers the faults. */
static void collect(fig_match_t *m)
{
    faults_t got;
    got.first = got.n = 0;
    pthread_mutex_lock(&m->lock);
    if (m->signalled) {
        char buf[16];
        while (read(m->pipe[0], buf, sizeof buf) > 0)
            ;
        m->signalled = false;
    }
    if (m->have_answer) {
        m->have_answer = false;
        m->answer_in = true;
        m->answer = m->posted;
    }
    fig_fault_t f;
    while (faults_pop(&m->posted_faults, &f))
        faults_push(&got, &f);
    m->busy = m->scheduled;
    pthread_mutex_unlock(&m->lock);
    while (faults_pop(&got, &f)) {
        if (m->on_fault)
            m->on_fault(m->fault_user, &f);
        else
            faults_push(&m->undelivered, &f);
    }
}

static fig_err_t create(fig_match_t **out, const fig_match_opts_t *opts, fig_msg_t *msg)
{
    *out = NULL;
    fig_setup_t setup = opts->setup;
    fig_err_t rc = fig_setup_check(&setup, msg);
    if (rc) {
        free_bots(opts->bots);
        return rc;
    }
    fig_match_t *m = calloc(1, sizeof *m);
    if (!m) {
        free_bots(opts->bots);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a match: out of memory"));
    }
    m->pipe[0] = m->pipe[1] = -1;
    int err = fig_wake_pipe(m->pipe);
    if (err) {
        free(m);
        free_bots(opts->bots);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a match: %s"), strerror(err));
    }
    if (pthread_mutex_init(&m->lock, NULL) != 0) {
        close(m->pipe[0]);
        close(m->pipe[1]);
        free(m);
        free_bots(opts->bots);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a match: out of memory"));
    }
    m->pool = opts->pool;
    if (!m->pool) {
        fig_pool_opts_t po = { 1, 0 };
        if ((rc = fig_pool_new(&m->pool, &po, msg))) {
            pthread_mutex_destroy(&m->lock);
            close(m->pipe[0]);
            close(m->pipe[1]);
            free(m);
            free_bots(opts->bots);
            return rc;
        }
        m->own_pool = true;
    }
    m->job.run = run;
    atomic_init(&m->cancel, false);
    atomic_init(&m->closing, false);
    fig_game_init(&m->game, &setup);
    m->game.has_names = opts->has_names;
    memcpy(m->game.names, opts->names, sizeof m->game.names);
    memcpy(m->bots, opts->bots, sizeof m->bots);
    for (int s = 0; s < FIG_MAX_PLAYERS; s++) {
        if (!m->bots[s])
            continue;
        if (s >= setup.players) {   /* a bot for a seat that is not there: ours to free */
            fig_bot_free(m->bots[s]);
            m->bots[s] = NULL;
            continue;
        }
        m->is_bot[s] = true;
        snprintf(m->specs[s], sizeof m->specs[s], "%s", fig_bot_spec(m->bots[s]));
        fig_bot_watch(m->bots[s], &m->closing);
    }
    m->instant = opts->inline_instant;
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        m->instant &= !m->bots[s] || fig_bot_instant(m->bots[s]);
    m->move_ms = opts->move_ms;
    m->keep_seeds = opts->keep_bot_seeds;
    m->on_fault = opts->on_fault;
    m->fault_user = opts->fault_user;
    fig_rng_seed_stream(&m->rng, setup.seed, 77);
    *out = m;
    return FIG_OK;
}

/* Frees a match no job has run for (a failed resume): all on this thread,
 * which cannot block, since no engine has been started. */
static void destroy_unstarted(fig_match_t *m)
{
    free_bots(m->bots);
    if (m->own_pool)
        fig_pool_free(m->pool);   /* idle: joins at once */
    close(m->pipe[0]);
    close(m->pipe[1]);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

fig_err_t fig_match_new(fig_match_t **out, const fig_match_opts_t *opts, fig_msg_t *msg)
{
    fig_err_t rc = create(out, opts, msg);
    if (rc == FIG_OK)
        ask(*out, W_HELLO, 0, 0);
    return rc;
}

fig_err_t fig_match_resume(fig_match_t **out, const fig_game_t *record,
                           const fig_match_opts_t *opts, fig_msg_t *msg)
{
    fig_match_opts_t o = *opts;
    o.setup = record->setup;
    if (!o.has_names && record->has_names) {
        o.has_names = true;
        memcpy(o.names, record->names, sizeof o.names);
    }
    fig_err_t rc = create(out, &o, msg);
    if (rc)
        return rc;
    fig_match_t *m = *out;
    for (int r = 0; r < record->dealt && !rc; r++) {
        if ((rc = fig_game_deal(&m->game, record->hands[r], msg)))
            break;
        for (int i = 0; i < record->nmoves[r] && !rc; i++)
            rc = fig_game_play(&m->game, record->moves[r][i].action, NULL, msg);
    }
    if (rc) {
        destroy_unstarted(m);
        *out = NULL;
        return rc;
    }
    unsigned w = W_HELLO;
    if (fig_game_over(&m->game)) {
        w |= W_OVER;
        m->over_asked = true;
    }
    ask(m, w, 0, 0);
    return FIG_OK;
}

void fig_match_free(fig_match_t *m)
{
    if (!m)
        return;
    fig_pool_t *pool = m->pool;
    bool own = m->own_pool;
    atomic_store(&m->cancel, true);
    atomic_store(&m->closing, true);
    pthread_mutex_lock(&m->lock);
    m->freed = true;
    bool submit = !m->scheduled;
    m->scheduled = true;
    pthread_mutex_unlock(&m->lock);
    /* From here on, m belongs to the job: a running one may free it any time. */
    if (submit)
        fig_pool_submit(pool, &m->job);
    if (own)
        fig_pool_release(pool);
}

void fig_match_cancel(fig_match_t *m)
{
    atomic_store(&m->cancel, true);
}

/* Applies an action of the seat to move and fills step. */
static fig_err_t apply(fig_match_t *m, fig_action_t a, fig_match_step_t *step, fig_msg_t *msg)
{
    fig_match_step_t local;
    if (!step)
        step = &local;
    memset(step, 0, sizeof *step);
    step->round = m->game.state.round;
    step->seat = m->game.state.turn;
    step->action = a;
    fig_err_t rc = fig_game_play(&m->game, a, &step->events, msg);
    if (rc != FIG_OK)
        return rc;
    if (fig_game_over(&m->game) && !m->over_asked) {
        m->over_asked = true;
        ask(m, W_OVER, 0, 0);
    }
    return FIG_OK;
}

bool fig_match_step(fig_match_t *m, fig_match_step_t *step)
{
    fig_match_step_t local;
    if (!step)
        step = &local;
    collect(m);
    const fig_state_t *st = &m->game.state;
    if (m->answer_in) {
        m->answer_in = false;
        m->thinking = false;
        fig_action_t a = m->answer;
        if (fig_state_check(st, a, NULL) != FIG_OK)
            a = fig_state_random_action(st, &m->rng);
        apply(m, a, step, NULL);
        return true;
    }
    if (st->phase == FIG_PHASE_OVER || m->thinking)
        return false;
    if (st->phase == FIG_PHASE_DEAL) {
        fig_game_deal_seeded(&m->game);
        memset(step, 0, sizeof *step);
        step->deal = true;
        step->round = st->round;
        step->seat = st->turn;
        step->action = FIG_ACT_NONE;
        return true;
    }
    int turn = st->turn;
    if (!m->is_bot[turn] || m->released)
        return false;   /* a person's turn */
    /* Each think starts from a generator that depends only on the game seed,
     * the seat and the number of actions so far, so a resumed game continues
     * exactly as the uninterrupted one would have. */
    const fig_game_t *g = &m->game;
    uint64_t seed = fig_seed_derive(g->setup.seed, (uint64_t)turn,
                                    (uint64_t)(g->nmoves[0] + g->nmoves[1] + g->nmoves[2]) << 2 |
                                    (uint64_t)g->dealt);
    atomic_store(&m->cancel, false);
    m->thinking = true;
    ask(m, W_THINK, turn, seed);
    if (m->instant)   /* the bot answered in ask(), on this thread: the answer is the step */
        return fig_match_step(m, step);
    return false;
}

fig_match_status_t fig_match_status(const fig_match_t *m)
{
    const fig_state_t *st = &m->game.state;
    if (st->phase == FIG_PHASE_OVER)
        return FIG_MATCH_OVER;
    if (m->thinking)
        return FIG_MATCH_THINKING;
    if (st->phase == FIG_PHASE_DEAL || m->is_bot[st->turn])
        return FIG_MATCH_READY;
    return FIG_MATCH_WAIT_HUMAN;
}

bool fig_match_idle(fig_match_t *m)
{
    collect(m);
    return !m->busy && !m->answer_in;
}

fig_err_t fig_match_release_bots(fig_match_t *m, fig_bot_t *out[FIG_MAX_PLAYERS],
                                 fig_msg_t *msg)
{
    if (m->released || !fig_game_over(&m->game) || !fig_match_idle(m))
        return fig_fail(msg, FIG_ERR_STATE,
                        N_("the bots can be taken back only once the game is over and they "
                           "have been told"));
    for (int s = 0; s < FIG_MAX_PLAYERS; s++) {
        out[s] = m->bots[s];
        if (out[s])
            fig_bot_watch(out[s], NULL);   /* our flag dies with the match */
        m->bots[s] = NULL;
    }
    m->released = true;
    return FIG_OK;
}

bool fig_match_next_fault(fig_match_t *m, fig_fault_t *out)
{
    return faults_pop(&m->undelivered, out);
}

int fig_match_turn(const fig_match_t *m) { return m->game.state.turn; }

bool fig_match_is_human(const fig_match_t *m, int seat)
{
    return seat >= 0 && seat < m->game.setup.players && !m->is_bot[seat];
}

fig_err_t fig_match_play(fig_match_t *m, fig_action_t a, fig_match_step_t *step, fig_msg_t *msg)
{
    const fig_state_t *st = &m->game.state;
    if (st->phase == FIG_PHASE_OVER)
        return fig_fail(msg, FIG_ERR_STATE, N_("the game is over"));
    if (st->phase == FIG_PHASE_DEAL)
        return fig_fail(msg, FIG_ERR_STATE, N_("the next round has not been dealt yet"));
    if (m->is_bot[st->turn] || m->thinking)
        return fig_fail(msg, FIG_ERR_STATE, N_("it is not a person's turn: seat %d is a bot"),
                        st->turn);
    return apply(m, a, step, msg);
}

void fig_match_view(const fig_match_t *m, int seat, fig_view_t *v)
{
    fig_view_of(&m->game.state, seat, v);
}

const fig_game_t *fig_match_game(const fig_match_t *m) { return &m->game; }

int fig_match_fd(const fig_match_t *m) { return m->pipe[0]; }

const char *fig_match_bot_spec(const fig_match_t *m, int seat)
{
    return seat >= 0 && seat < FIG_MAX_PLAYERS && m->is_bot[seat] ? m->specs[seat] : NULL;
}
