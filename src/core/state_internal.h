/* SPDX-License-Identifier: MIT */
/* state_internal.h - helpers shared by the core's rules and scoring files. */
#ifndef FIGARO_STATE_INTERNAL_H
#define FIGARO_STATE_INTERNAL_H

#include "figaro/state.h"

/* Empties every pile: no colour anywhere, no card on the table. */
void clear_table(fig_state_t *st);

/* Shuffles n card kinds in place for dealing: cards[keep..n) become a
 * uniformly random arrangement and cards[0..keep) hold the others, in an
 * order that is not random (they make one hand). */
void shuffle_kinds(uint8_t cards[], int n, int keep, fig_rng_t *rng);

/* R10-R13: the round ends because seat `king` starts a turn with no cards. */
void score_round(fig_state_t *st, int king, fig_events_t *ev);

#endif
