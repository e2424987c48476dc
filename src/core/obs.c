/* SPDX-License-Identifier: MIT */
/* obs.c - the observation vector and the fixed action space (obs.h).
 *
 * fig_obs_encode reads a fig_view_t and nothing else, which is what keeps the
 * vector free of hidden cards (R14); the layout is fixed by the offsets in
 * obs.h and documented in docs/python.md. Seats are relative to the observer.
 * Every float is written on each call (zeros included), so a caller may reuse
 * its buffers without clearing them. */
#include <string.h>

#include "figaro/obs.h"

/* Copies of each kind in the full deck (R1): the scale of hand counts. */
static const float deck_scale[FIG_KINDS] = {
    3, 6, 1, 3, 6, 1, 3, 6, 1, 3, 6, 1, 3, 6, 1, 3, 2, 5,
};

static void encode_seat(const fig_view_t *v, int s, float *o)
{
    const fig_pile_t *p = &v->pile[s];
    o[FIG_OBS_S_PRESENT] = 1;
    o[FIG_OBS_S_TURN] = v->phase == FIG_PHASE_PLAY && v->turn == s;
    o[FIG_OBS_S_KING] = v->king == s;
    o[FIG_OBS_S_HAND] = (float)v->hand_size[s] / 15.0f;
    o[FIG_OBS_S_STACK] = (float)v->stack[s] / 15.0f;
    if (p->colour < FIG_COLOURS)
        o[FIG_OBS_S_COLOUR + p->colour] = 1;
    o[FIG_OBS_S_TOTAL] = (float)p->total / 5.0f;
    for (int i = 0; i < 6; i++)
        o[FIG_OBS_S_PILE + i] = (float)p->n[i] / 3.0f;
    for (int r = 0; r < v->nroad[s] && r < FIG_ROUNDS; r++)
        o[FIG_OBS_S_ROAD + r] = (float)v->road[s][r] / 15.0f;
}

void fig_obs_encode(const fig_view_t *v, float *out)
{
    int n = v->players;
    memset(out, 0, sizeof(float) * FIG_OBS_SIZE);
    if (n < FIG_MIN_PLAYERS || n > FIG_MAX_PLAYERS)
        return;   /* not a game's view (e.g. zeroed memory): all zeros */
    out[FIG_OBS_PLAYERS + n - FIG_MIN_PLAYERS] = 1;
    if (v->round >= 1 && v->round <= FIG_ROUNDS)
        out[FIG_OBS_ROUND + v->round - 1] = 1;
    if (v->phase <= FIG_PHASE_OVER)
        out[FIG_OBS_PHASE + v->phase] = 1;
    if (v->removed < FIG_COLOURS)
        out[FIG_OBS_REMOVED + v->removed] = 1;
    out[FIG_OBS_TABLE] = (float)v->table_cards / 10.0f;
    for (int k = 0; k < FIG_KINDS; k++) {
        out[FIG_OBS_HAND + k] = (float)v->hand.n[k] / deck_scale[k];
        out[FIG_OBS_UNSEEN + k] = (float)v->unseen.n[k] / deck_scale[k];
    }
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < n - 1; i++)
            out[FIG_OBS_ROADS + r * (FIG_MAX_PLAYERS - 1) + i] = (float)v->group[r][i] / 15.0f;
    for (int rel = 0; rel < n; rel++)
        encode_seat(v, (v->seat + rel) % n, out + FIG_OBS_SEATS + rel * FIG_OBS_SEAT_SIZE);
}

void fig_obs_of(const fig_state_t *st, int seat, float *out)
{
    fig_view_t v;
    fig_view_of(st, seat, &v);
    fig_obs_encode(&v, out);
}

int fig_obs_index(fig_action_t a, int mover, int players)
{
    if (players < FIG_MIN_PLAYERS || players > FIG_MAX_PLAYERS || mover < 0 || mover >= players)
        return -1;
    if (fig_act_is_take(a))
        return FIG_OBS_TAKE;
    int k = fig_act_kind(a), t = fig_act_target(a);
    if ((a & ~0xFFu) || k >= FIG_KINDS || t >= players)
        return -1;
    return k * FIG_MAX_PLAYERS + (t - mover + players) % players;
}

fig_action_t fig_obs_action(int index, int mover, int players)
{
    if (players < FIG_MIN_PLAYERS || players > FIG_MAX_PLAYERS || mover < 0 || mover >= players)
        return FIG_ACT_NONE;
    if (index == FIG_OBS_TAKE)
        return FIG_ACT_TAKE;
    if (index < 0 || index >= FIG_OBS_TAKE)
        return FIG_ACT_NONE;
    int rel = index % FIG_MAX_PLAYERS;
    if (rel >= players)
        return FIG_ACT_NONE;
    return fig_act_play(index / FIG_MAX_PLAYERS, (mover + rel) % players);
}

int fig_obs_mask(const fig_state_t *st, uint8_t *mask)
{
    fig_action_t legal[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, legal);
    memset(mask, 0, FIG_OBS_ACTIONS);
    for (int i = 0; i < n; i++) {
        int idx = fig_obs_index(legal[i], st->turn, st->players);
        if (idx >= 0)
            mask[idx] = 1;
    }
    return n;
}
