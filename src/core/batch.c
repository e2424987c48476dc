/* SPDX-License-Identifier: MIT */
/* batch.c - many games stepped at once (batch.h).
 *
 * Each slot holds a fig_state_t and the generator of its random opponents.
 * Between calls every slot is either at a decision of the learner (phase PLAY,
 * the seat to move is the learner's or, in self-play, anyone's) or over with
 * done set. advance() restores that invariant after a reset or an action: it
 * deals rounds from the seed's streams (as fig_game_deal_seeded) and plays the
 * opponents. Everything a call writes out is from the view of the seat to
 * move (fig_obs_of), never from the state's other hands. */
#include <string.h>

#include "figaro/batch.h"

size_t fig_env_size(void) { return sizeof(fig_env_t); }

fig_err_t fig_batch_check(const fig_batch_opts_t *o, fig_msg_t *msg)
{
    if (o->players < FIG_MIN_PLAYERS || o->players > FIG_MAX_PLAYERS)
        return fig_fail(msg, FIG_ERR_INPUT, N_("Figaro is played by 3 to 6 players, not %d"),
                        o->players);
    if (o->seat < -1 || o->seat >= o->players)
        return fig_fail(msg, FIG_ERR_INPUT,
                        N_("the learner's seat must be -1 (every seat) or 0 to %d, not %d"),
                        o->players - 1, o->seat);
    return FIG_OK;
}

void fig_batch_rewards(const fig_state_t *st, float *reward)
{
    int ranking[FIG_MAX_PLAYERS], n = st->players;
    fig_state_ranking(st, ranking);
    for (int rank = 0; rank < n; rank++)
        reward[ranking[rank]] = 1.0f - 2.0f * (float)rank / (float)(n - 1);
}

/* Plays the legal action a in game i and tells the opponents. */
static void play(fig_env_t *e, int i, fig_action_t a, const fig_batch_opp_t *opp)
{
    fig_state_apply_legal(&e->st, a, NULL);
    e->actions++;
    if (opp)
        opp->moved(opp->ctx, i, a);
}

/* Deals and plays opponents until the learner decides or the game is over;
 * opp (NULL: random opponents) follows every deal and action of game i. */
static void advance(fig_env_t *e, int i, const fig_batch_opts_t *o, const fig_batch_opp_t *opp)
{
    for (;;) {
        fig_state_t *st = &e->st;
        if (st->phase == FIG_PHASE_DEAL) {
            fig_rng_t deal;
            fig_rng_seed_stream(&deal, e->seed, (uint64_t)st->round);
            fig_state_deal(st, &deal);
            if (opp)
                opp->dealt(opp->ctx, i, st->hand);
            continue;
        }
        if (st->phase == FIG_PHASE_OVER || o->seat < 0 || st->turn == o->seat)
            return;
        fig_action_t a = FIG_ACT_NONE;
        if (opp)
            a = opp->choose(opp->ctx, i, st->turn);
        if (a == FIG_ACT_NONE || fig_state_check(st, a, NULL) != FIG_OK)
            a = fig_state_random_action(st, &e->opp);
        play(e, i, a, opp);
    }
}

static void start(fig_env_t *e, int i, const fig_batch_opts_t *o, const fig_batch_opp_t *opp,
                  uint64_t seed)
{
    fig_setup_t setup;
    fig_setup_random(&setup, o->players, seed, NULL);
    fig_state_init(&e->st, &setup);
    fig_rng_seed_stream(&e->opp, seed, 4);   /* streams 0-3: setup and deals */
    e->seed = seed;
    e->actions = 0;
    e->done = 0;
    if (opp)
        opp->start(opp->ctx, i, &setup, seed);
    advance(e, i, o, opp);
}

/* Writes slot i's observation, mask and turn. */
static void emit(const fig_env_t *e, int i, const fig_batch_out_t *out)
{
    const fig_state_t *st = &e->st;
    int live = st->phase == FIG_PHASE_PLAY;
    if (out->obs) {
        float *obs = out->obs + (size_t)i * FIG_OBS_SIZE;
        if (live)
            fig_obs_of(st, st->turn, obs);
        else
            memset(obs, 0, sizeof(float) * FIG_OBS_SIZE);
    }
    if (out->mask) {
        uint8_t *mask = out->mask + (size_t)i * FIG_OBS_ACTIONS;
        if (live)
            fig_obs_mask(st, mask);
        else
            memset(mask, 0, FIG_OBS_ACTIONS);
    }
    if (out->turn)
        out->turn[i] = (int8_t)(live ? st->turn : -1);
}

fig_err_t fig_batch_reset(fig_env_t envs[], int n, const fig_batch_opts_t *o,
                          const uint64_t seeds[], const fig_batch_out_t *out, fig_msg_t *msg)
{
    return fig_batch_reset_with(envs, n, o, seeds, NULL, out, msg);
}

fig_err_t fig_batch_step(fig_env_t envs[], int n, const fig_batch_opts_t *o,
                         const int32_t actions[], const fig_batch_out_t *out, fig_msg_t *msg)
{
    return fig_batch_step_with(envs, n, o, actions, NULL, out, msg);
}

/* Zeroes row i of the per-step outputs (rewards, done, final observation). */
static void clear_step(int i, const fig_batch_opts_t *o, const fig_batch_out_t *out)
{
    if (out->reward)
        memset(out->reward + (size_t)i * (size_t)o->players, 0,
               sizeof(float) * (size_t)o->players);
    if (out->done)
        out->done[i] = 0;
    if (out->final_obs)
        memset(out->final_obs + (size_t)i * FIG_OBS_SIZE, 0, sizeof(float) * FIG_OBS_SIZE);
}

fig_err_t fig_batch_reset_with(fig_env_t envs[], int n, const fig_batch_opts_t *o,
                               const uint64_t seeds[], const fig_batch_opp_t *opp,
                               const fig_batch_out_t *out, fig_msg_t *msg)
{
    fig_err_t rc = fig_batch_check(o, msg);
    if (rc)
        return rc;
    if (n < 0)
        return fig_fail(msg, FIG_ERR_INPUT, N_("a batch of %d games"), n);
    for (int i = 0; i < n; i++) {
        envs[i].base = seeds[i];
        envs[i].games = 0;
        start(&envs[i], i, o, opp, seeds[i]);
        emit(&envs[i], i, out);
        clear_step(i, o, out);
    }
    return FIG_OK;
}

fig_err_t fig_batch_step_with(fig_env_t envs[], int n, const fig_batch_opts_t *o,
                              const int32_t actions[], const fig_batch_opp_t *opp,
                              const fig_batch_out_t *out, fig_msg_t *msg)
{
    fig_err_t rc = fig_batch_check(o, msg);
    if (rc)
        return rc;
    if (n < 0)
        return fig_fail(msg, FIG_ERR_INPUT, N_("a batch of %d games"), n);
    /* Check every action first, so that an error leaves the batch as it was. */
    for (int i = 0; i < n; i++) {
        const fig_state_t *st = &envs[i].st;
        if (envs[i].done)
            continue;
        if (st->players != o->players || st->phase != FIG_PHASE_PLAY)
            return fig_fail(msg, FIG_ERR_STATE,
                            N_("game %d of the batch was not reset with these options"), i);
        fig_action_t a = fig_obs_action(actions[i], st->turn, st->players);
        if (a == FIG_ACT_NONE)
            return fig_fail(msg, FIG_ERR_INPUT,
                            N_("game %d: %ld is not an action index of a %d-player game"), i,
                            (long)actions[i], st->players);
        fig_msg_t why;
        if (fig_state_check(st, a, &why) != FIG_OK)
            return fig_fail(msg, FIG_ERR_INPUT, N_("game %d: %s"), i, why.text);
    }
    for (int i = 0; i < n; i++) {
        fig_env_t *e = &envs[i];
        clear_step(i, o, out);
        if (e->done) {
            emit(e, i, out);
            continue;
        }
        fig_state_t *st = &e->st;
        int mover = st->turn;
        play(e, i, fig_obs_action(actions[i], mover, st->players), opp);
        advance(e, i, o, opp);
        if (st->phase == FIG_PHASE_OVER) {
            if (out->reward)
                fig_batch_rewards(st, out->reward + (size_t)i * (size_t)o->players);
            if (out->done)
                out->done[i] = 1;
            if (out->final_obs)
                fig_obs_of(st, o->seat < 0 ? mover : o->seat,
                           out->final_obs + (size_t)i * FIG_OBS_SIZE);
            e->games++;
            if (o->autoreset)
                start(e, i, o, opp, fig_seed_derive(e->base, 0, e->games));
            else
                e->done = 1;
        }
        emit(e, i, out);
    }
    return FIG_OK;
}
