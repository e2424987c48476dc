/* SPDX-License-Identifier: MIT */
/* view.h - what one seat may know (R14), and states consistent with it.
 *
 * A view holds the seat's own hand and everything public: piles, hand sizes,
 * the King, road pieces, and what a perfect memory of the public actions gives
 * (stack counts, the cards played this round, hence the cards still unseen).
 * The public history itself (every action, in order) is the action list of the
 * game record (game.h), which holds no hidden card outside its `hands`.
 *
 * Nothing that shows a player anything may read a fig_state_t directly: it
 * goes through a view, so another seat's hand cannot leak. */
#ifndef FIGARO_VIEW_H
#define FIGARO_VIEW_H

#include <stdbool.h>

#include "figaro/state.h"

typedef struct {
    uint8_t seat;
    union {
        fig_public_t pub; /* everything public, as in the state (state.h) */
        struct {
            FIG_PUBLIC_MEMBERS
        };
    };
    fig_hand_t hand;      /* this seat's own hand */
    fig_hand_t seen;      /* every card played this round (piles and stacks) */
    fig_hand_t unseen;    /* the cards in the other seats' hands, together */
} fig_view_t;

/* Fills v with what `seat` knows of st. A seat outside 0..players-1 leaves
 * v zeroed and returns FIG_ERR_INPUT: nothing is read out of bounds. */
fig_err_t fig_view_of(const fig_state_t *st, int seat, fig_view_t *v);

/* Writes the legal actions of the viewer into out (at least FIG_MAX_ACTIONS
 * entries) and returns their number; 0 unless the phase is PLAY and it is the
 * viewer's turn. Computed from the public piles and the viewer's own hand
 * alone (R5-R7: what may be played depends on nothing else), in the order of
 * fig_state_legal, so it equals fig_state_legal on the true state. */
int fig_view_legal(const fig_view_t *v, fig_action_t out[]);

/* The viewer's view of a seat's road: the sum of its pieces (R13); 0 for a
 * seat out of range. */
int fig_view_road(const fig_view_t *v, int seat);

/* Samples a full state consistent with v: the unseen cards are shuffled and
 * dealt to the other seats with their hand sizes; everything public and the
 * viewer's hand are as in v. The viewer's view of the result equals v. */
void fig_view_sample(const fig_view_t *v, fig_rng_t *rng, fig_state_t *out);

/* The full state consistent with v in which the other seats hold hands[s]
 * (hands[v->seat] is not read: the viewer's hand is v's). The caller keeps
 * the hands consistent with v: together the unseen cards, each of its seat's
 * public size; a sample's hands (fig_view_sample) are. */
void fig_view_complete(const fig_view_t *v, const fig_hand_t hands[], fig_state_t *out);

/* Deals the next round for a seat that knows only its own hand: `hand` goes to
 * `viewer`, the rest of the deck to the others in a fixed order (a guess that
 * fig_state_apply_seen repairs as their plays are seen). Phase must be DEAL. */
fig_err_t fig_state_deal_seen(fig_state_t *st, int viewer, const fig_hand_t *hand,
                              fig_msg_t *msg);

/* Applies a public action to a state in which only `viewer`'s hand is certain
 * and the other hands are a guess. If another seat plays a card its guessed
 * hand lacks, the card is swapped in from a third seat's guessed hand, so the
 * state stays consistent with everything `viewer` has seen and the rules can
 * check the rest. This is how a bot follows a game from public actions only. */
fig_err_t fig_state_apply_seen(fig_state_t *st, int viewer, fig_action_t a, fig_events_t *ev,
                               fig_msg_t *msg);

bool fig_view_equal(const fig_view_t *a, const fig_view_t *b);

#endif
