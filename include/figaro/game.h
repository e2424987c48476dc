/* SPDX-License-Identifier: MIT */
/* game.h - a game record: the setup, each round's deal and every action.
 *
 * fig_game_t is what FGN stores (fgn.h) and what front ends drive: it keeps
 * the current state beside the history, and only appends actions the rules
 * accept, so a record is always a valid (possibly unfinished) game. It is a
 * flat value too (a few kilobytes); it owns no memory. */
#ifndef FIGARO_GAME_H
#define FIGARO_GAME_H

#include <stdbool.h>

#include "figaro/state.h"

/* Takes are always followed by a play of the same seat (R9 ruling), and there
 * are at most 60 plays in a round, so 120 actions bound a round. */
enum { FIG_NAME_MAX = 32, FIG_MAX_ROUND_ACTIONS = 120 };

typedef struct {
    uint8_t seat;
    fig_action_t action;
} fig_move_t;

typedef struct {
    fig_setup_t setup;
    bool has_names;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    int dealt;                                        /* rounds dealt so far, 0..3 */
    fig_hand_t hands[FIG_ROUNDS][FIG_MAX_PLAYERS];    /* each round's deal */
    int nmoves[FIG_ROUNDS];
    fig_move_t moves[FIG_ROUNDS][FIG_MAX_ROUND_ACTIONS];
    fig_state_t state;                                /* after the last move */
} fig_game_t;

/* Starts a record from a setup, which must have passed fig_setup_check. */
void fig_game_init(fig_game_t *g, const fig_setup_t *setup);

/* Deals the next round with given hands (checked, R4). */
fig_err_t fig_game_deal(fig_game_t *g, const fig_hand_t hands[], fig_msg_t *msg);

/* Deals the next round by shuffling with rng. */
void fig_game_deal_random(fig_game_t *g, fig_rng_t *rng);

/* Deals the next round from the setup's seed alone: round r uses stream r of
 * the seed, so the same seed gives the same deals whatever is played. */
void fig_game_deal_seeded(fig_game_t *g);

/* Checks and applies an action of the seat to move, and records it. */
fig_err_t fig_game_play(fig_game_t *g, fig_action_t a, fig_events_t *ev, fig_msg_t *msg);

static inline bool fig_game_over(const fig_game_t *g) { return g->state.phase == FIG_PHASE_OVER; }

/* How one finished round was scored (R10-R12), for summaries and replays. */
typedef struct {
    int round;
    int king;                           /* the seat that ended the round (R10) */
    int stacks[FIG_MAX_PLAYERS];        /* cards in each stack */
    int order[FIG_MAX_PLAYERS];         /* R11 rank order, most cards first */
    bool tie[FIG_MAX_PLAYERS];          /* seat's rank was decided by the tie-break */
    bool exchanged;                     /* R12 exchange took place (round 3) */
    int exchange_seat, gave, took;
    int pieces[FIG_MAX_PLAYERS];        /* length received, 0 for none */
    int no_piece_why[FIG_MAX_PLAYERS];  /* FIG_WHY_LAST / FIG_WHY_ZERO, or 0 */
} fig_round_result_t;

/* Replays the record and fills one result per finished round; returns their
 * number (0-3). */
int fig_game_results(const fig_game_t *g, fig_round_result_t out[FIG_ROUNDS]);

/* Plays a whole game of uniformly random legal actions from the setup,
 * dealing from the setup's seed and choosing moves with rng. */
void fig_game_random(fig_game_t *g, const fig_setup_t *setup, fig_rng_t *rng);

#endif
