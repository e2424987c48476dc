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
 * fig_review_game is synchronous: it searches once per move of the seat
 * (about 45 in a 4-player game), so it takes that many times the search's
 * budget. The command line calls it directly; a server calls it from a job
 * of its worker pool and may stop it early through `cancel`.
 *
 * Grades, from the loss of the move played against the search's best (its
 * most searched move), in expected final place (1 = first) or in chance to
 * win, whichever is worse:
 *   inaccuracy  place loss >= 0.10 or win loss >= 0.05
 *   mistake     place loss >= 0.25 or win loss >= 0.10
 *   blunder     place loss >= 0.50 or win loss >= 0.20
 * Smaller losses are within the noise of a short search and count as good;
 * so does the part of a loss within one standard error of the played move's
 * estimate (sqrt(w (1 - w) / visits) in win chance w, sqrt((N^2 - 1) / 12 /
 * visits) in place at N players): a move the search tried only a few times is
 * not condemned on a few playouts. The losses reported are the raw ones. */
#ifndef FIGARO_HOST_REVIEW_H
#define FIGARO_HOST_REVIEW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "figaro/bot.h"
#include "figaro/game.h"
#include "host/narrate.h"

/* The options of every review's search, whatever its budget (the command's
 * --ms or --iters, the terminal game's time): the hint's small trees, and
 * playouts to the round's end (leaf=-1): the grades' thresholds were set on
 * what playouts report, and the learned leaf's smoother values show smaller
 * losses (docs/bots.md). */
#define FIG_REVIEW_OPTIONS "mem=64,leaf=-1"

/* The search of a review: the hint's. */
#define FIG_REVIEW_SPEC "ismcts:ms=300," FIG_REVIEW_OPTIONS

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
    uint64_t seed;              /* the searches' seeds derive from it and the move */
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
 * "Round 2, move 14: you chose "R2 in front of Bob" (wins 22%, place 2.6);
 * better: "J1 in front of yourself" (wins 41%, place 1.9). A mistake." */
void fig_review_describe(const fig_narrator_t *nr, const fig_review_t *rv, int i, char *buf,
                         size_t cap);

/* The summary: "3 mistakes and 1 inaccuracy in 45 moves; the costliest in
 * round 2: ..." or "No mistake in 45 moves: ...". */
void fig_review_summary(const fig_narrator_t *nr, const fig_review_t *rv, char *buf, size_t cap);

#endif
