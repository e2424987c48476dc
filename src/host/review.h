/* SPDX-License-Identifier: MIT */
/* review.h - a finished game gone through move by move: for each move of one
 * seat, the move played against the best a search finds from what that seat
 * knew then, graded by what it cost.
 *
 * The seat's knowledge (R14) is rebuilt as a bot follows a game: the setup,
 * the seat's own hand each round, every public action before the move; the
 * search (an ismcts bot, host-independent) thinks from it and tells its root
 * analysis (bot.h). No other hand of the record is ever read: the review of a
 * seat is the same for every deal of the other hands that agrees with the
 * public actions (a test swaps them).
 *
 * The same game gets the same review wherever it is reviewed (the terminal's
 * in-game review, `figaro review`, a server): the review's own search
 * (FIG_REVIEW_SPEC, spec NULL) is an iteration budget, not a time, and its
 * seeds come from what the seat knows of the game (its setup, its own hands,
 * every action) and the seat, so neither the machine nor its load changes a
 * grade.
 *
 * fig_review_game is synchronous: it searches FIG_REVIEW_SEARCHES times per
 * move of the seat (about 45 moves in a 4-player game), so it takes that many
 * times the search's budget (docs/bots.md, Review: the seconds it takes). The
 * command line and the terminal call it directly; a server calls it from a
 * job of its worker pool and may stop it early through `cancel`.
 *
 * Grades, from the loss of the move played against the search's best (its
 * most searched move), in expected final place (1 = first) or in chance to
 * win, whichever is worse:
 *   inaccuracy  place loss >= 0.10 or win loss >= 0.05
 *   mistake     place loss >= 0.25 or win loss >= 0.10
 *   blunder     place loss >= 0.50 or win loss >= 0.20
 * A grade is given only beyond the searches' noise: each search grades the
 * part of the loss beyond one standard error of the difference of the two
 * moves' estimates (sqrt(w (1 - w) / visits) in win chance w, sqrt((N^2 - 1)
 * / 12 / visits) in place at N players, for each), and the move gets the
 * mildest of the independent searches' grades: a grade stands only where
 * they agree. The losses reported are the raw ones, of the searches
 * together. */
#ifndef FIGARO_HOST_REVIEW_H
#define FIGARO_HOST_REVIEW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "figaro/bot.h"
#include "figaro/game.h"
#include "host/narrate.h"

/* The options of every review's search, whatever its budget (the command's
 * --ms or --iters): small trees, playouts to the round's end (leaf=-1) and
 * the others' hands drawn alike (infer=0): the grades' thresholds were set on
 * what such a search reports, and the learned leaf's smoother values show
 * smaller losses (docs/bots.md). */
#define FIG_REVIEW_OPTIONS "mem=64,leaf=-1,infer=0"

/* The review's own search (spec NULL): a budget of iterations, the same on
 * every machine, large enough for stable grades (docs/bots.md, Review). */
#define FIG_REVIEW_SPEC "ismcts:iters=20000," FIG_REVIEW_OPTIONS

/* Independent searches per move, whose grades must agree. */
enum { FIG_REVIEW_SEARCHES = 2 };

typedef enum {
    FIG_REVIEW_GOOD = 0,
    FIG_REVIEW_INACCURACY,
    FIG_REVIEW_MISTAKE,
    FIG_REVIEW_BLUNDER
} fig_review_grade_t;

/* The thresholds above, for documentation and tests. */
#define FIG_REVIEW_PLACE_LOSS { 0.10, 0.25, 0.50 }
#define FIG_REVIEW_WIN_LOSS { 0.05, 0.10, 0.20 }

typedef struct {
    int round;                  /* 1..3 */
    int index;                  /* the action's index in its round, 0-based */
    int number;                 /* the seat's move number in the game, 1-based */
    int in_round, of_round;     /* the seat's move number in its round, 1-based, of how many */
    fig_action_t played, best;  /* best: the search's most searched move */
    double played_win, best_win;       /* estimated chance to win, 0..1 */
    double played_place, best_place;   /* expected final place, 1 = first */
    double played_share;        /* the played move's share of the search */
    double loss_place, loss_win;       /* >= 0 */
    fig_review_grade_t grade;
    fig_view_t view;            /* what the seat knew before the move (fig_view_of) */
} fig_review_move_t;

enum { FIG_REVIEW_MAX_MOVES = FIG_ROUNDS * FIG_MAX_ROUND_ACTIONS };

typedef struct {
    int seat;
    int n;                      /* moves reviewed */
    fig_review_move_t moves[FIG_REVIEW_MAX_MOVES];
    int count[4];               /* moves by grade */
    int costliest;              /* index of the worst graded move, -1 if none is graded */
    long iterations;            /* summed over the searches */
} fig_review_t;

typedef struct {
    const char *spec;           /* a search bot's spec; NULL: FIG_REVIEW_SPEC */
    uint64_t seed;              /* 0: the review everyone gets; another: another review,
                                   as valid (the grades' stability is measured so). The
                                   searches' seeds derive from it, the seat's knowledge of
                                   the game, the seat and the move */
    const atomic_bool *cancel;  /* NULL, or true to stop early (FIG_ERR_STATE) */
    const fig_tr_t *tr;         /* the reader's language for refusals; NULL: English */
} fig_review_opts_t;

/* Reviews every move of `seat` in the finished game g into *out (about 80
 * KiB: allocate it). FIG_ERR_INPUT for a seat out of range, an unfinished
 * game, or a spec that is not a searching built-in bot (random and greedy
 * tell no analysis; no external program is started); FIG_ERR_STATE when
 * cancelled. */
fig_err_t fig_review_game(const fig_game_t *g, int seat, const fig_review_opts_t *opts,
                          fig_review_t *out, fig_msg_t *msg);

/* The grade's name in the reader's language ("mistake"). */
const char *fig_review_grade_name(fig_review_grade_t grade, const fig_tr_t *tr);

/* One reviewed move in words, through nr (nr->me should be the seat):
 * "Your move 9 of 15 in round 2: you chose "R2 in front of Bob" (wins 22%,
 * place 2.6); better: "J1 in front of yourself" (wins 41%, place 1.9). A
 * mistake." */
void fig_review_describe(const fig_narrator_t *nr, const fig_review_t *rv, int i, char *buf,
                         size_t cap);

/* The summary: "0 blunders, 3 mistakes, 1 inaccuracy in 45 moves. The
 * costliest, your move 9 of 15 in round 2: ..." */
void fig_review_summary(const fig_narrator_t *nr, const fig_review_t *rv, char *buf, size_t cap);

#endif
