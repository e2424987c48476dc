/* SPDX-License-Identifier: MIT */
/* obs.h - one seat's view as a fixed-length vector of numbers, and a fixed
 * action space: the interface of learning programs (docs/python.md).
 *
 * The observation is computed from a fig_view_t only (R14), so it cannot hold
 * another seat's hand: two states that differ only in the hands of seats other
 * than the observer give the same observation. Seats are numbered relative to
 * the observer (slot 0 is the observer, slot 1 the seat to its left, ...), so
 * a policy learnt at one seat plays at any seat.
 *
 * Actions are indexed the same way: a play of card kind k in front of the seat
 * `rel` places to the mover's left is index k * FIG_MAX_PLAYERS + rel; a take
 * is FIG_OBS_TAKE. Not every index is ever legal (a ring always goes in front
 * of its player, rel 0; slots past the number of players do not exist). */
#ifndef FIGARO_OBS_H
#define FIGARO_OBS_H

#include <stdint.h>

#include "figaro/state.h"
#include "figaro/view.h"

/* Offsets of the observation's parts (floats); each part is described in
 * docs/python.md. Counts are divided by fixed scales so values stay near
 * 0..1; one-hot parts are 0 or 1. */
enum {
    FIG_OBS_PLAYERS = 0,                   /* 4: one-hot, 3 to 6 players */
    FIG_OBS_ROUND = 4,                     /* 3: one-hot, round 1 to 3 */
    FIG_OBS_PHASE = 7,                     /* 3: one-hot, deal / play / over */
    FIG_OBS_REMOVED = 10,                  /* 5: one-hot, colour left out (3 players) */
    FIG_OBS_TABLE = 15,                    /* 1: face-up cards on the table / 10 */
    FIG_OBS_HAND = 16,                     /* 18: own hand, count of each kind / deck's */
    FIG_OBS_UNSEEN = 34,                   /* 18: other hands together, same scale */
    FIG_OBS_ROADS = 52,                    /* 15: 3 rounds x 5 pieces, length / 15 */
    FIG_OBS_SEATS = 67,                    /* 6 seat slots of FIG_OBS_SEAT_SIZE */
    FIG_OBS_SEAT_SIZE = 20,
    FIG_OBS_SIZE = FIG_OBS_SEATS + FIG_MAX_PLAYERS * FIG_OBS_SEAT_SIZE   /* 187 */
};

/* Offsets inside one seat slot. */
enum {
    FIG_OBS_S_PRESENT = 0,   /* 1 if the seat exists */
    FIG_OBS_S_TURN = 1,      /* 1 if it is to move */
    FIG_OBS_S_KING = 2,      /* 1 if it holds the King */
    FIG_OBS_S_HAND = 3,      /* cards in hand / 15 */
    FIG_OBS_S_STACK = 4,     /* cards collected this round / 15 */
    FIG_OBS_S_COLOUR = 5,    /* 5: one-hot colour of its pile (none: all 0) */
    FIG_OBS_S_TOTAL = 10,    /* pile total / 5 */
    FIG_OBS_S_PILE = 11,     /* 6: pile cards of value 1, 2, 3, J1, J2, rings, / 3 */
    FIG_OBS_S_ROAD = 17      /* 3: road pieces received in rounds 1-3, length / 15 */
};

enum {
    FIG_OBS_TAKE = FIG_KINDS * FIG_MAX_PLAYERS,   /* 108 */
    FIG_OBS_ACTIONS = FIG_OBS_TAKE + 1            /* 109 */
};

/* Writes the observation of the view's seat into out[0..FIG_OBS_SIZE). */
void fig_obs_encode(const fig_view_t *v, float *out);

/* fig_view_of(st, seat) then fig_obs_encode: the observation of `seat`. */
void fig_obs_of(const fig_state_t *st, int seat, float *out);

/* The index of action a for a mover at seat `mover` of a `players`-seat game,
 * or -1 if a is not an action of that game. */
int fig_obs_index(fig_action_t a, int mover, int players);

/* The action of an index for that mover, or FIG_ACT_NONE if the index names
 * no action of a `players`-seat game. Legality is a separate question. */
fig_action_t fig_obs_action(int index, int mover, int players);

/* Sets mask[i] to 1 for the index of every legal action of the seat to move,
 * 0 elsewhere (mask has FIG_OBS_ACTIONS entries), and returns how many are
 * legal (0 unless the phase is PLAY). Legality depends only on the mover's
 * hand and the table, so the mask shows the mover nothing it does not know. */
int fig_obs_mask(const fig_state_t *st, uint8_t *mask);

#endif
