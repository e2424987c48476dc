/* SPDX-License-Identifier: MIT */
/* future.h - the rest of a game, scored exactly from a round's end.
 *
 * When a round ends, the road pieces of the later rounds are already known
 * (R3: all groups are drawn at setup); what is unknown is the order in which
 * the seats will rank in those rounds. Taking every rank order as equally
 * likely, the chance of each final place is an average over the orders of the
 * remaining rounds (N! per round), the round-3 exchange (R12) included. ISMCTS
 * stops its playouts at the end of the current round and takes this average
 * as the reward, instead of playing the later rounds at random: no noise from
 * two random rounds, and a third of the work per playout.
 *
 * Exact while the orders to average are few (3 and 4 players, and the last
 * round at 5 and 6); beyond FUTURE_EXACT orders, FUTURE_SAMPLES order pairs
 * drawn from a generator seeded by the position, so a value never depends on
 * what was computed before (a search stays deterministic for a seed). A round
 * ends only a few dozen ways during one think, so the values are cached by
 * what they depend on: the round and each seat's road total and longest piece.
 * The cache is a fixed table that a search keeps in its think's memory: no
 * allocation at all. */
#ifndef FIGARO_AI_FUTURE_H
#define FIGARO_AI_FUTURE_H

#include "figaro/state.h"

enum { FUTURE_SLOTS = 1024, FUTURE_EXACT = 4096, FUTURE_SAMPLES = 2048 };

/* What the rest of the game holds for each seat, averaged over the orders. */
typedef struct {
    float win[FIG_MAX_PLAYERS];     /* chance of finishing first (a tie shares it) */
    float score[FIG_MAX_PLAYERS];   /* expected (N - place) / (N - 1), 1 = first, 0 = last */
    float place[FIG_MAX_PLAYERS];   /* expected final place, 1 = first */
} future_t;

typedef struct {
    uint32_t total[FIG_MAX_PLAYERS];   /* road lengths may be up to FIG_MAX_ROAD each */
    uint16_t longest[FIG_MAX_PLAYERS];
    uint32_t round;
} future_key_t;

typedef struct {
    uint32_t stamp;       /* valid while equal to the cache's */
    future_key_t key;
    future_t value;
} future_slot_t;

typedef struct {
    uint32_t stamp;
    long computed, hits;
    future_slot_t slot[FUTURE_SLOTS];
} future_cache_t;

/* Forgets every value (and any bytes the memory held before): call at the
 * start of each think (the road groups, hence the values, differ from game to
 * game). */
void future_reset(future_cache_t *c);

/* The values for st, which must be at a round's end: phase DEAL after round 1
 * or 2 was scored, or OVER (then exact, ties broken by R13). Points into the
 * cache or into *scratch; valid until the next call. */
const future_t *future_value(future_cache_t *c, const fig_state_t *st, future_t *scratch);

#endif
