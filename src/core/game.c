/* SPDX-License-Identifier: MIT */
/* game.c - a game record that only ever holds a valid game.
 *
 * Every deal and action goes through the rules engine before it is appended,
 * so readers and front ends can trust g->state to be the position after the
 * last recorded move. */
#include <string.h>

#include "figaro/game.h"

void fig_game_init(fig_game_t *g, const fig_setup_t *setup)
{
    memset(g, 0, sizeof *g);
    g->setup = *setup;
    fig_state_init(&g->state, setup);
}

fig_err_t fig_game_deal(fig_game_t *g, const fig_hand_t hands[], fig_msg_t *msg)
{
    fig_err_t rc = fig_state_deal_hands(&g->state, hands, msg);
    if (rc == FIG_OK) {
        memcpy(g->hands[g->dealt], hands, sizeof(fig_hand_t) * (size_t)g->setup.players);
        g->dealt++;
    }
    return rc;
}

static void record_deal(fig_game_t *g)
{
    memcpy(g->hands[g->dealt], g->state.hand, sizeof g->hands[0]);
    g->dealt++;
}

void fig_game_deal_random(fig_game_t *g, fig_rng_t *rng)
{
    fig_state_deal(&g->state, rng);
    record_deal(g);
}

void fig_game_deal_seeded(fig_game_t *g)
{
    fig_rng_t rng;
    fig_rng_seed_stream(&rng, g->setup.seed, (uint64_t)g->state.round);
    fig_game_deal_random(g, &rng);
}

fig_err_t fig_game_play(fig_game_t *g, fig_action_t a, fig_events_t *ev, fig_msg_t *msg)
{
    int seat = g->state.turn, round = g->state.round;
    if (g->state.phase == FIG_PHASE_PLAY && g->nmoves[round - 1] == FIG_MAX_ROUND_ACTIONS)
        return fig_fail(msg, FIG_ERR_SPACE, N_("round %d has too many actions"), round);
    fig_err_t rc = fig_state_apply(&g->state, a, ev, msg);
    if (rc != FIG_OK)
        return rc;
    fig_move_t *m = &g->moves[round - 1][g->nmoves[round - 1]++];
    m->seat = (uint8_t)seat;
    m->action = a;
    return FIG_OK;
}

void fig_game_random(fig_game_t *g, const fig_setup_t *setup, fig_rng_t *rng)
{
    fig_game_init(g, setup);
    while (!fig_game_over(g)) {
        if (g->state.phase == FIG_PHASE_DEAL)
            fig_game_deal_seeded(g);
        fig_game_play(g, fig_state_random_action(&g->state, rng), NULL, NULL);
    }
}

static void note_event(const fig_event_t *e, fig_round_result_t *res)
{
    switch (e->type) {
    case FIG_EV_ROUND_END:
        memset(res, 0, sizeof *res);
        res->round = e->round;
        res->king = e->seat;
        for (int s = 0; s < FIG_MAX_PLAYERS; s++)
            res->stacks[s] = e->counts[s];
        break;
    case FIG_EV_EXCHANGE:
        res->exchanged = true;
        res->exchange_seat = e->seat;
        res->gave = e->a;
        res->took = e->b;
        break;
    case FIG_EV_PIECE:
    case FIG_EV_NO_PIECE:
        res->order[e->rank] = e->seat;
        res->tie[e->seat] = e->tie != 0;
        res->pieces[e->seat] = e->a;
        res->no_piece_why[e->seat] = e->type == FIG_EV_NO_PIECE ? e->reason : 0;
        break;
    default:
        break;
    }
}

int fig_game_results(const fig_game_t *g, fig_round_result_t out[FIG_ROUNDS])
{
    fig_state_t st;
    fig_events_t ev;
    int done = 0;
    fig_state_init(&st, &g->setup);
    for (int r = 0; r < g->dealt; r++) {
        if (fig_state_deal_hands(&st, g->hands[r], NULL) != FIG_OK)
            break;
        for (int i = 0; i < g->nmoves[r]; i++) {
            if (fig_state_apply(&st, g->moves[r][i].action, &ev, NULL) != FIG_OK)
                return done;   /* cannot happen for a record built by fig_game_* */
            for (int e = 0; e < ev.n; e++)
                note_event(&ev.ev[e], &out[done]);
            if (st.phase != FIG_PHASE_PLAY)
                done++;
        }
    }
    return done;
}
