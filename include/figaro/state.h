/* SPDX-License-Identifier: MIT */
/* state.h - the rules engine: setup, deal, legal actions, apply, scoring.
 *
 * fig_state_t is a flat value without pointers (a few hundred bytes): copy it
 * with `=`; search copies and applies it millions of times per second, so
 * legal-action generation and application never touch the heap.
 *
 * A game goes DEAL(round 1) -> PLAY -> DEAL(round 2) -> PLAY -> DEAL(round 3)
 * -> PLAY -> OVER. Dealing is separate from play so that a record can state its
 * hands (FGN) and a simulation can draw them from an explicit generator.
 *
 * Invariants kept between calls (checked by the property tests):
 *   - cards are conserved: hands + piles + stacks + nothing else = the deck;
 *   - no pile totals 6 or more, and no two piles share a colour (R6, R8);
 *   - owner[c] is the seat whose pile has colour c, or FIG_NOBODY, and `owned`
 *     has the three kind bits of every colour that has an owner;
 *   - in PLAY, hand_size[turn] > 0 (a seat starting a turn empty ends the round, R10). */
#ifndef FIGARO_STATE_H
#define FIGARO_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/action.h"
#include "figaro/card.h"
#include "figaro/error.h"
#include "figaro/rng.h"

enum { FIG_ROUNDS = 3, FIG_NOBODY = 0xFF, FIG_MAX_ROAD = 65535 };

typedef enum { FIG_PHASE_DEAL, FIG_PHASE_PLAY, FIG_PHASE_OVER } fig_phase_t;

/* Every choice of a game's setup, stated explicitly (R1-R3). */
typedef struct {
    int players;                      /* 3..6 */
    int removed;                      /* 3 players: colour left out (R2); else FIG_NO_COLOUR */
    int king;                         /* starting King holder, 0..players-1 (R3) */
    uint16_t roads[FIG_ROUNDS][FIG_MAX_PLAYERS - 1];  /* players-1 per round, longest first */
    uint64_t seed;                    /* the seed the setup came from, if any (informative) */
    bool has_seed;
} fig_setup_t;

/* The default road set, lengths 1..15 (R1 ruling). */
extern const uint16_t fig_default_roads[15];

/* Draws a setup from a seed (R2, R3): roads from `lengths` (15 distinct values,
 * NULL for the default set), the removed colour with 3 players, the King. */
void fig_setup_random(fig_setup_t *setup, int players, uint64_t seed, const uint16_t *lengths);

/* Checks a setup a user or a record gave; sorts each road group longest first.
 * Returns FIG_ERR_INPUT with a message if anything is out of range. */
fig_err_t fig_setup_check(fig_setup_t *setup, fig_msg_t *msg);

/* A pile: the face-up cards in front of one player (R6). */
typedef struct {
    uint8_t colour;      /* FIG_NO_COLOUR until a colour card lies in it */
    uint8_t total;       /* sum of values, < 6 between actions (R8) */
    uint8_t cards;       /* number of cards */
    uint8_t n[6];        /* colour cards of value 1, 2, 3; jesters 1, 2; rings */
} fig_pile_t;

/* The public part of a position (R14): what every seat may see. Its members
 * are listed once, here, and appear twice in fig_state_t and fig_view_t:
 * as a named sub-struct `pub` (so a view takes them from a state, and a
 * sampled state from a view, in one assignment) and, through an anonymous
 * struct in the same union, as plain members (st->pile). Both have the same
 * members in the same order, so C11's common-initial-sequence rule makes
 * either name read the same bytes. */
#define FIG_PUBLIC_MEMBERS                                                     \
    uint8_t players, round, phase, turn, king, removed;                        \
    uint8_t table_cards;                 /* face-up cards on the whole table */ \
    uint8_t colourless;                  /* bit t set: pile t has no colour */  \
    uint8_t hand_size[FIG_MAX_PLAYERS];                                        \
    uint8_t stack[FIG_MAX_PLAYERS];      /* cards collected this round (R11) */ \
    uint8_t nroad[FIG_MAX_PLAYERS];      /* road pieces held */                 \
    fig_pile_t pile[FIG_MAX_PLAYERS];                                          \
    uint16_t group[FIG_ROUNDS][FIG_MAX_PLAYERS - 1]; /* per round, longest first */ \
    uint16_t road[FIG_MAX_PLAYERS][FIG_ROUNDS];      /* held, in order received */

typedef struct {
    FIG_PUBLIC_MEMBERS
} fig_public_t;

typedef struct {
    union {
        fig_public_t pub;
        struct {
            FIG_PUBLIC_MEMBERS
        };
    };
    uint8_t owner[FIG_COLOURS];          /* seat with that colour, or FIG_NOBODY */
    uint16_t owned;                      /* bit k set: colour kind k's colour is on the table */
    uint32_t present[FIG_MAX_PLAYERS];   /* bit k set: hand holds kind k */
    fig_hand_t hand[FIG_MAX_PLAYERS];
} fig_state_t;

/* ---- events: what an action made happen, for interfaces and logs ---- */

typedef enum {
    FIG_EV_PLAY,        /* seat played kind in front of target */
    FIG_EV_TAKE,        /* seat took voluntarily or by force (R5); a COLLECT follows */
    FIG_EV_RING,        /* seat played a ring; every pile moved one seat left (R7) */
    FIG_EV_COLLECT,     /* seat collected count cards; reason FIG_WHY_SIX or FIG_WHY_TAKE */
    FIG_EV_LAST_CARD,   /* seat has one card left in hand */
    FIG_EV_HAND_EMPTY,  /* seat played its last card; the round ends when its turn comes */
    FIG_EV_ROUND_END,   /* round `round` ended; seat takes the King (R10); counts[] = stacks */
    FIG_EV_EXCHANGE,    /* R12: seat gave length a, took length b */
    FIG_EV_PIECE,       /* R11: seat (rank `rank`, `count` cards) received length a;
                           tie != 0 when its rank was decided by the tie-break */
    FIG_EV_NO_PIECE,    /* R11: seat got nothing; reason FIG_WHY_LAST or FIG_WHY_ZERO */
    FIG_EV_GAME_OVER    /* R13: counts[] = ranking (winner first), totals[] = road totals */
} fig_event_type_t;

enum { FIG_WHY_SIX = 1, FIG_WHY_TAKE, FIG_WHY_LAST, FIG_WHY_ZERO };

typedef struct {
    uint8_t type;
    uint8_t seat;
    uint8_t target;
    uint8_t kind;
    uint8_t count;
    uint8_t reason;
    uint8_t rank;
    uint8_t tie;
    uint8_t round;
    uint16_t a, b;
    uint8_t counts[FIG_MAX_PLAYERS];
    uint32_t totals[FIG_MAX_PLAYERS];
} fig_event_t;

enum { FIG_MAX_EVENTS = 24 };

typedef struct {
    int n;
    fig_event_t ev[FIG_MAX_EVENTS];
} fig_events_t;

/* ---- the game ---- */

/* Starts a game from a checked setup: phase DEAL, round 1. */
void fig_state_init(fig_state_t *st, const fig_setup_t *setup);

/* Deals the next round (R4) by shuffling the deck with rng. Phase must be DEAL. */
void fig_state_deal(fig_state_t *st, fig_rng_t *rng);

/* Deals the next round with the given hands (from a record). Checks that they
 * are a legal deal: exactly the deck, the same number of cards each. */
fig_err_t fig_state_deal_hands(fig_state_t *st, const fig_hand_t hands[], fig_msg_t *msg);

/* Writes the legal actions of the seat to move into out (at least
 * FIG_MAX_ACTIONS entries) and returns their number; 0 unless phase is PLAY.
 * The order is fixed: take first, then kinds in order, targets ascending. */
int fig_state_legal(const fig_state_t *st, fig_action_t *out);

/* Whether `a` is legal for the seat to move; if not, says why in msg. */
fig_err_t fig_state_check(const fig_state_t *st, fig_action_t a, fig_msg_t *msg);

/* The same, with the message in a person's language: its pattern and the
 * colour it names go through tr (e.g. gettext). The verdict depends only on
 * what the mover knows, so a front end may check on any state consistent with
 * the mover's view (fig_view_sample). */
fig_err_t fig_state_check_tr(const fig_state_t *st, fig_action_t a, const fig_tr_t *tr,
                             fig_msg_t *msg);

/* Checks and applies an action of the seat to move (R5-R13). On error the
 * state is unchanged. `ev` may be NULL; otherwise it receives the events. */
fig_err_t fig_state_apply(fig_state_t *st, fig_action_t a, fig_events_t *ev, fig_msg_t *msg);

/* Applies an action known to be legal (from fig_state_legal): the fast path
 * for search. `ev` may be NULL. */
void fig_state_apply_legal(fig_state_t *st, fig_action_t a, fig_events_t *ev);

/* Plays a uniformly random legal action; returns it. Phase must be PLAY. */
fig_action_t fig_state_random_action(const fig_state_t *st, fig_rng_t *rng);

/* Plays random legal actions, dealing each new round with rng, until the game
 * is over: the playout of search bots and benchmarks. With redraws = 0 every
 * action is uniformly random (as fig_state_random_action). Otherwise, while
 * the action drawn would make the mover collect (a take, or its own pile
 * brought to 6), up to `redraws` more are drawn and the best kept, where
 * making another seat collect is a gain: a cheap imitation of a sensible
 * player that costs almost nothing when the first draw is harmless.
 * Returns the number of actions played. */
int fig_state_playout(fig_state_t *st, fig_rng_t *rng, int redraws);

/* How a playout policy chooses among its draws (fig_state_policy_action). */
typedef enum {
    FIG_PLAYOUT_AVOID,  /* fig_state_playout's: redraw only while the action drawn would
                           make the mover collect */
    FIG_PLAYOUT_SEEK    /* redraw while the best draw gains nothing, so that the mover
                           makes another seat collect when a draw offers it, and count a
                           card left on its own pile at 3, 4 or 5 as a risk of collecting */
} fig_playout_t;

/* One action of a playout policy for the seat to move (phase PLAY), for
 * playouts that stop elsewhere (a search bot's, at the end of the round).
 * With FIG_PLAYOUT_AVOID, what fig_state_playout would play here with the
 * same rng. FIG_PLAYOUT_SEEK imitates a sensible player more closely for a
 * few more draws: search bots won more with it (docs/bots.md). */
fig_action_t fig_state_policy_action(const fig_state_t *st, fig_rng_t *rng, int redraws,
                                     fig_playout_t kind);

/* Plays fig_state_policy_action until the current round ends (the phase is
 * no longer PLAY), with the same draws as calling it action by action, in
 * one loop the compiler can keep in registers. Returns the actions played. */
int fig_state_playout_round(fig_state_t *st, fig_rng_t *rng, int redraws, fig_playout_t kind);

/* Ends the current round at once (phase PLAY), as if `king` had just begun a
 * turn with no cards (R10), and scores it with the stacks as they stand (R11,
 * R12 and R13 after round 3), exactly as a played round end is scored. Not a
 * move of the game: for models that estimate how a round ends instead of
 * playing it (the search bot's learned leaf, docs/bots.md). */
void fig_state_end_round(fig_state_t *st, int king);

/* Road length of a seat: the sum of its pieces (R13). */
int fig_state_road(const fig_state_t *st, int seat);

/* Road pieces as text: the lengths in the order received, joined by sep
 * ("15 + 13 + 2" with " + ", "15 13 2" with " "), "" for no piece. Numbers
 * only: front ends put words around it in the reader's language. Writes into
 * buf (NUL-terminated when cap > 0) and returns the length the whole text
 * needs, as snprintf does. Pass st->road[s], st->nroad[s] or a view's. */
size_t fig_road_format(const uint16_t pieces[], int n, const char *sep, char *buf, size_t cap);

/* Final ranking (R13): all seats, shortest road first, ties from the King
 * clockwise. Valid at any time; meaningful when phase is OVER. */
void fig_state_ranking(const fig_state_t *st, int ranking[]);

/* Counts the sequences of exactly `depth` legal actions from st within the
 * current round; a sequence that ends the round (R10) early counts 0 (fgn.md). */
uint64_t fig_state_perft(const fig_state_t *st, int depth);

/* Scoring helpers, exposed for tests and interfaces. */

/* R11 order: seats by count descending, ties from the King's left clockwise,
 * the King last. Writes players entries into order. */
void fig_rank_counts(int players, int king, const int counts[], int order[]);

#endif
