/* SPDX-License-Identifier: MIT */
/* invariants.h - the engine's promises (state.h) checked over a whole game
 * record, shared by the property tests (test_props.c) and the FGN fuzzer
 * (tests/fuzz/fuzz_fgn.c), so that a record read from any input is held to
 * the same invariants as the games the property tests play.
 *
 * Built on the state checks of support.h (sup_check_state, sup_check_cards);
 * nothing here uses cmocka: a check returns false and says why in a buffer. */
#ifndef FIGARO_TESTS_INVARIANTS_H
#define FIGARO_TESTS_INVARIANTS_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"

/* Replays g from its setup, deal by deal and action by action, and checks
 * after the setup, each deal and each action:
 *   - cards are conserved kind by kind: hands + piles + stacks = the deck of
 *     the game (with 3 players, the cards out of play are not in it, R2);
 *   - no pile totals 6 or more; no two piles share a colour (R6, R8);
 *   - there is one King, a seat of the game; the turn is a seat of the game;
 *   - the derived fields (owner, owned, colourless, table_cards, present,
 *     hand sizes, pile totals) agree with the hands and piles;
 *   - in PLAY, the seat to move holds a card (R10);
 *   - every recorded action is by the seat to move and accepted by the rules;
 * and that the replay ends in g->state exactly. Returns true if everything
 * holds; otherwise writes the first problem into why (with the round and the
 * action). */
bool inv_check_game(const fig_game_t *g, char *why, size_t cap);

/* Checks that g's record writes, reads back and writes again byte for byte,
 * into the caller's two buffers of cap bytes, and that the record read back is
 * in g's state. Returns false and says why otherwise. */
bool inv_check_fgn(const fig_game_t *g, char *buf1, char *buf2, size_t cap, char *why,
                   size_t whycap);

#endif
