/* SPDX-License-Identifier: MIT */
/* support.h - helpers for building and checking positions in the unit tests.
 *
 * Two ways to reach a position:
 *   - deal explicit hands (sup_deal, sup_deal_fill) and apply real moves written
 *     in FGN syntax (sup_apply): the engine builds every field itself, so such a
 *     position is one a game can reach;
 *   - describe the table directly (sup_pos_t, sup_build) when the position is
 *     awkward to reach by play (a round-3 ending, six coloured piles...). The
 *     builder recomputes every derived field (owner[], colourless, present[],
 *     hand_size[], table_cards, pile totals) with sup_derive, so the engine sees
 *     a consistent state; it does not insist that cards are conserved, because
 *     scoring tests need stack counts no real deal could give.
 *
 * Nothing here uses cmocka: helpers return a result and write what went wrong
 * into a buffer or a fig_msg_t, and the tests assert on it. Card and pile texts
 * use the FGN card codes ("R2", "J1", "RING"), separated by spaces. */
#ifndef FIGARO_TESTS_SUPPORT_H
#define FIGARO_TESTS_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figaro/figaro.h"

/* ---- cards, hands, piles as text ---- */

/* Parses "R2 R2 J1" (case-insensitive, spaces between codes; NULL or "" is no
 * card) into counts, adding nothing else. Returns the number of cards, or -1 if
 * a word is not a card code. */
int sup_hand_parse(const char *text, fig_hand_t *out);

/* Parses a pile "R2 R2 J1 RING": colour cards of at most one colour, jesters,
 * rings. Fills colour, n[], cards and total. Returns the number of cards, or -1
 * if a word is not a card or two colours are mixed. */
int sup_pile_parse(const char *text, fig_pile_t *out);

/* Writes a pile in canonical order (colour cards by value, J1, J2, RING), e.g.
 * "R1 R2 J1 RING", "" for an empty pile. Returns buf. */
const char *sup_pile_format(const fig_pile_t *p, char *buf, size_t cap);

/* Adds the kinds lying in pile p to h (colour cards become kinds of the pile's
 * colour). */
void sup_pile_kinds(const fig_pile_t *p, fig_hand_t *h);

/* Every kind face up on the table (piles 0..players-1), as counts. */
void sup_table_kinds(const fig_state_t *st, fig_hand_t *h);

/* Parses one action in FGN syntax for `actor` ("R2>1", "RING", "take");
 * FIG_ACT_NONE if it is not one. */
fig_action_t sup_act(const char *text, int actor);

/* ---- setups and deals ---- */

/* A checked setup: `players`, King `king`, removed colour `removed` (used only
 * with 3 players; pass FIG_NO_COLOUR otherwise) and road groups from `roads`
 * ("9 5 2 / 14 11 1 / 13 8 3"), or, when roads is NULL, the default groups
 * 15 14 13 ... handed out in order (group 1 holds the longest pieces). Returns
 * FIG_OK or the error of fig_setup_check / the road text. */
fig_err_t sup_setup(fig_setup_t *setup, int players, int king, int removed, const char *roads,
                    fig_msg_t *msg);

/* Deals the next round of st (phase DEAL) with the hands written out in full,
 * one text per seat. Returns the error of fig_state_deal_hands, if any. */
fig_err_t sup_deal(fig_state_t *st, const char *const hands[], fig_msg_t *msg);

/* Like sup_deal, but each text is only the start of that seat's hand: the rest
 * of the deck is then dealt round-robin, in kind order, to the seats that still
 * need cards (R4 sizes). Deterministic. Fails if a prefix asks for more cards
 * than the deck or a seat holds. */
fig_err_t sup_deal_fill(fig_state_t *st, const char *const prefix[], fig_msg_t *msg);

/* Applies moves written "0 R2>1; 1 J1>1; 2 take" ("seat action" pairs separated
 * by ';'). Each seat must be the seat to move. Stops at the first failure and
 * says which move in msg. ev (may be NULL) receives the events of the last move
 * applied. */
fig_err_t sup_apply(fig_state_t *st, const char *moves, fig_events_t *ev, fig_msg_t *msg);

/* ---- positions described directly ---- */

typedef struct {
    int players;                          /* 3..6 */
    int round;                            /* 1..3; 0 means 1 */
    int king, turn;
    int removed;                          /* 3 players: colour left out; 0 means red */
    const char *hand[FIG_MAX_PLAYERS];    /* cards in hand; NULL = none */
    const char *pile[FIG_MAX_PLAYERS];    /* face-up pile; NULL = empty */
    int stack[FIG_MAX_PLAYERS];           /* cards collected this round */
    const char *roads;                    /* road groups, as for sup_setup; NULL = default */
    const char *held[FIG_MAX_PLAYERS];    /* road pieces held, in order received: "11 4" */
} sup_pos_t;

/* Builds a PLAY-phase state from pos. Fails (FIG_ERR_INPUT and a message) if a
 * text does not parse, a pile totals 6 or more, two piles share a colour, or the
 * seat to move has no card: the engine's invariants hold for what it builds. */
fig_err_t sup_build(fig_state_t *st, const sup_pos_t *pos, fig_msg_t *msg);

/* Recomputes every derived field of st from hand[] and pile[] (pile colour and
 * n[] are the source): present[], hand_size[], pile totals and card counts,
 * owner[], owned, colourless, table_cards. */
void sup_derive(fig_state_t *st);

/* ---- invariants ---- */

/* Checks that the derived fields of st (those sup_derive sets) agree with its
 * hands and piles, that no
 * pile totals 6 or more, that no two piles share a colour, and that in PLAY
 * the seat to move holds a card. Returns true if all hold; otherwise writes the
 * first problem into why. */
bool sup_check_state(const fig_state_t *st, char *why, size_t cap);

/* Checks card conservation in PLAY: for every kind, hands + face-up cards + the
 * stacks' kinds `stacked` = the round's deck, and sum(stack[]) = cards in
 * `stacked`. Pass stacked = NULL to check only the totals (hands + piles +
 * stack counts = deck size, and no kind more often than the deck has it). */
bool sup_check_cards(const fig_state_t *st, const fig_hand_t *stacked, char *why, size_t cap);

/* ---- events ---- */

/* The n-th (0-based) event of the given type in ev, or NULL. */
const fig_event_t *sup_event(const fig_events_t *ev, int type, int nth);

/* Number of events of the given type in ev. */
int sup_event_count(const fig_events_t *ev, int type);

#endif
