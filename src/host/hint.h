/* SPDX-License-Identifier: MIT */
/* hint.h - a hint for a person: the move a search bot would make in their
 * seat, computed on a worker pool so that the front end's loop never waits.
 *
 * The bot is made for each question and told only what the person's seat
 * knows: the setup, that seat's own hand each round and every public action
 * (R14). It thinks as a job of the pool (pool.h); the handle's descriptor
 * becomes readable when the answer is in, so a terminal's poll() or a
 * server's event loop waits for it among its other descriptors. One question
 * at a time per handle.
 *
 * The answer comes with what the search saw at its root (fig_hint_analysis:
 * every move's share of the search, chance to win, expected place and cards
 * collected this round), and fig_hint_explain words it for a person: the
 * move, one reason, and the top two or three moves with their numbers. The
 * reason is the same wherever the hint is shown (the terminal's status line
 * and its log, plain mode, a server's hint frame): the search cannot tell the
 * hint from the next moves yet ("both win about 25%"), else the other move
 * gets the person made to collect soon, or more cards this round, else what
 * the move does at the table ("It makes Bartolo collect 8 cards"), in the
 * person's language (the narrator's translator). Everything here comes from
 * the seat's own knowledge (R14): a server calls the same functions for each
 * person's seat. */
#ifndef FIGARO_HOST_HINT_H
#define FIGARO_HOST_HINT_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/bot.h"
#include "figaro/game.h"
#include "host/narrate.h"
#include "host/pool.h"

typedef struct fig_hint fig_hint_t;

/* Creates a hint handle that thinks on `pool` (NULL: a worker of its own,
 * started now). FIG_ERR_SPACE with a message if it cannot be had. */
fig_err_t fig_hint_new(fig_hint_t **out, fig_pool_t *pool, fig_msg_t *msg);

/* Returns at once, even while a question is out: the worker then stops the
 * search early and frees what is left. NULL is a no-op. */
void fig_hint_free(fig_hint_t *h);

/* Asks for the best move of `seat` in `record` (copied: the caller may go on
 * changing its own), with the search `spec` (NULL: the strongest level, the last of
 * ai/bot.c's levels, so that a hint is what the strongest bot would play, the
 * same every time it is asked: an iteration budget, seeded by the tag). `tag`
 * names the question (e.g. the number of deals and actions so far) and comes
 * back with the answer; the search's seed is derived from it, so the same
 * question gets the same answer from an iteration-budgeted spec.
 * FIG_ERR_STATE if a question is still out or it is not that seat's turn to
 * play; FIG_ERR_INPUT for a bad spec. */
fig_err_t fig_hint_ask(fig_hint_t *h, const fig_game_t *record, int seat, const char *spec,
                       long tag, fig_msg_t *msg);

/* Whether a question is out (asked, its answer not taken yet). */
bool fig_hint_busy(const fig_hint_t *h);

/* A descriptor that becomes readable when the answer is in. */
int fig_hint_fd(const fig_hint_t *h);

/* Takes the answer if it is in: true with the action and the question's tag;
 * false (nothing changed) while the search goes on or nothing was asked. */
bool fig_hint_take(fig_hint_t *h, fig_action_t *action, long *tag);

/* What the search saw at its root for the answer taken last (fig_bot_analysis
 * of the hint's bot; moves[0] is the answer). false when nothing was taken
 * yet, or the spec's bot does not search (e.g. greedy). */
bool fig_hint_analysis(const fig_hint_t *h, fig_analysis_t *out);

/* ---- the hint in words */

enum { FIG_HINT_TOP = 3 };   /* moves shown with their numbers */

typedef struct {
    fig_action_t action;
    double share;          /* of the search's root visits, 0..1 */
    double win;            /* estimated chance to finish first, 0..1 */
    double place;          /* expected final place, 1 = first */
    double collect;        /* cards the seat is expected to collect this round, this move on */
    char move[200];        /* the move in words (fig_narrate_move) */
    char line[400];        /* "R2 in front of Bob: 62% of the search, wins 41%, you collect
                              about 2.5 cards this round" */
} fig_hint_move_t;

typedef struct {
    fig_action_t action;                 /* the hint */
    char headline[400];                  /* "Hint: play [R2] in front of Bob." */
    char reason[400];                    /* the one reason, shown with the headline wherever
                                            the hint is: "It makes Bob collect 8 cards." */
    int n;                               /* moves below, the hint first; 0 without one */
    fig_hint_move_t moves[FIG_HINT_TOP];
    long iterations;                     /* of the search, 0 without one */
} fig_hint_text_t;

/* Words the hint `a` for the person of narrator nr, whose view (their turn)
 * is v, with the search's analysis an (NULL, an->n == 0 or another seat's:
 * the headline and what the move does at the table, no moves). Every
 * sentence goes through nr->tr; names are nr's. */
void fig_hint_explain(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a,
                      const fig_analysis_t *an, fig_hint_text_t *out);

#endif
