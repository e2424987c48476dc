/* match.c - one game between people and programs (match.h).
 *
 * The game record is the single source of truth; bots follow it through
 * fig_bot_* calls, each told only its seat's hand and the public actions. A
 * bot thinks in a thread of its own while the front end keeps running; the
 * thread writes one byte into a pipe when its answer is ready, and the match
 * joins it at the next fig_match_step(). While a bot thinks, nothing else
 * touches that bot, and the game cannot move (it is that bot's turn). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figaro/match.h"

struct fig_match {
    fig_game_t game;
    fig_bot_t *bots[FIG_MAX_PLAYERS];
    int move_ms;
    int pipe[2];            /* [0] readable when a think is over */
    bool thinking;
    pthread_t thread;
    int think_seat;
    fig_action_t answer;    /* written by the think thread before its byte */
    fig_rng_t rng;          /* overrules an impossible answer (never from a sound bot) */
};

static void free_bots(fig_bot_t *const bots[])
{
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        fig_bot_free(bots[s]);
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
    if (!m || pipe(m->pipe) != 0) {
        free(m);
        free_bots(opts->bots);
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot start a match: out of resources"));
    }
    fcntl(m->pipe[0], F_SETFL, fcntl(m->pipe[0], F_GETFL) | O_NONBLOCK);
    fcntl(m->pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(m->pipe[1], F_SETFD, FD_CLOEXEC);
    fig_game_init(&m->game, &setup);
    m->game.has_names = opts->has_names;
    memcpy(m->game.names, opts->names, sizeof m->game.names);
    memcpy(m->bots, opts->bots, sizeof m->bots);
    m->move_ms = opts->move_ms;
    fig_rng_seed_stream(&m->rng, setup.seed, 77);
    for (int s = 0; s < setup.players; s++)
        if (m->bots[s] && (rc = fig_bot_game(m->bots[s], &setup, s, msg))) {
            fig_match_free(m);
            return rc;
        }
    *out = m;
    return FIG_OK;
}

fig_err_t fig_match_new(fig_match_t **out, const fig_match_opts_t *opts, fig_msg_t *msg)
{
    return create(out, opts, msg);
}

/* Tells every bot about the deal of the round just dealt. */
static void tell_deal(fig_match_t *m)
{
    int r = m->game.dealt - 1;
    for (int s = 0; s < m->game.setup.players; s++)
        if (m->bots[s])
            fig_bot_round(m->bots[s], &m->game.hands[r][s], NULL);
}

static void tell_move(fig_match_t *m, fig_action_t a)
{
    for (int s = 0; s < m->game.setup.players; s++)
        if (m->bots[s])
            fig_bot_move(m->bots[s], a, NULL);
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
        tell_deal(m);
        for (int i = 0; i < record->nmoves[r] && !rc; i++) {
            fig_action_t a = record->moves[r][i].action;
            if (!(rc = fig_game_play(&m->game, a, NULL, msg)))
                tell_move(m, a);
        }
    }
    if (rc) {
        fig_match_free(m);
        *out = NULL;
    }
    return rc;
}

void fig_match_free(fig_match_t *m)
{
    if (!m)
        return;
    if (m->thinking)
        pthread_join(m->thread, NULL);
    close(m->pipe[0]);
    close(m->pipe[1]);
    free_bots(m->bots);
    free(m);
}

static void *think(void *arg)
{
    fig_match_t *m = arg;
    m->answer = fig_bot_choose(m->bots[m->think_seat], m->move_ms);
    char byte = 1;
    while (write(m->pipe[1], &byte, 1) < 0 && errno == EINTR)
        ;
    return NULL;
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
    tell_move(m, a);
    if (fig_game_over(&m->game))
        for (int s = 0; s < m->game.setup.players; s++)
            if (m->bots[s])
                fig_bot_game_over(m->bots[s]);   /* FEP engines get their `gameover` */
    return FIG_OK;
}

bool fig_match_step(fig_match_t *m, fig_match_step_t *step)
{
    fig_match_step_t local;
    if (!step)
        step = &local;
    const fig_state_t *st = &m->game.state;
    if (st->phase == FIG_PHASE_OVER)
        return false;
    if (m->thinking) {
        char byte;
        if (read(m->pipe[0], &byte, 1) != 1)
            return false;   /* still thinking */
        pthread_join(m->thread, NULL);
        m->thinking = false;
        fig_action_t a = m->answer;
        if (fig_state_check(st, a, NULL) != FIG_OK)
            a = fig_state_random_action(st, &m->rng);
        apply(m, a, step, NULL);
        return true;
    }
    if (st->phase == FIG_PHASE_DEAL) {
        fig_game_deal_seeded(&m->game);
        tell_deal(m);
        memset(step, 0, sizeof *step);
        step->deal = true;
        step->round = st->round;
        step->seat = st->turn;
        step->action = FIG_ACT_NONE;
        return true;
    }
    int turn = st->turn;
    if (!m->bots[turn])
        return false;   /* a person's turn */
    /* Each think starts from a generator that depends only on the game seed,
     * the seat and the number of actions so far, so a resumed game continues
     * exactly as the uninterrupted one would have. */
    const fig_game_t *g = &m->game;
    fig_bot_seed(m->bots[turn],
                 fig_seed_derive(g->setup.seed, (uint64_t)turn,
                                 (uint64_t)(g->nmoves[0] + g->nmoves[1] + g->nmoves[2]) << 2 |
                                 (uint64_t)g->dealt));
    m->think_seat = turn;
    if (pthread_create(&m->thread, NULL, think, m) != 0) {
        /* No thread to be had: think here, once; the front end stalls but
         * the game goes on. */
        apply(m, fig_bot_choose(m->bots[turn], m->move_ms), step, NULL);
        return true;
    }
    m->thinking = true;
    return false;
}

fig_match_status_t fig_match_status(const fig_match_t *m)
{
    const fig_state_t *st = &m->game.state;
    if (st->phase == FIG_PHASE_OVER)
        return FIG_MATCH_OVER;
    if (m->thinking)
        return FIG_MATCH_THINKING;
    if (st->phase == FIG_PHASE_DEAL || m->bots[st->turn])
        return FIG_MATCH_READY;
    return FIG_MATCH_WAIT_HUMAN;
}

int fig_match_turn(const fig_match_t *m) { return m->game.state.turn; }

bool fig_match_is_human(const fig_match_t *m, int seat)
{
    return seat >= 0 && seat < m->game.setup.players && !m->bots[seat];
}

fig_err_t fig_match_play(fig_match_t *m, fig_action_t a, fig_match_step_t *step, fig_msg_t *msg)
{
    const fig_state_t *st = &m->game.state;
    if (st->phase == FIG_PHASE_OVER)
        return fig_fail(msg, FIG_ERR_STATE, N_("the game is over"));
    if (st->phase == FIG_PHASE_DEAL)
        return fig_fail(msg, FIG_ERR_STATE, N_("the next round has not been dealt yet"));
    if (m->bots[st->turn] || m->thinking)
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
    return seat >= 0 && seat < FIG_MAX_PLAYERS && m->bots[seat] ? fig_bot_spec(m->bots[seat])
                                                                : NULL;
}
