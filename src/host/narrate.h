/* SPDX-License-Identifier: MIT */
/* narrate.h - what happened in a game, in whole translated sentences, for
 * every front end (the terminal's full-screen game and plain mode; a server's
 * connections, each in its person's language).
 *
 * A narrator is a value the front end fills once with fig_narrate_init(): the
 * players' names, the person's seat (who gets "You ..." sentences), the
 * person's language (a translator, figaro/error.h: each narrator has its own,
 * so one process can narrate to Ann in French and to Bob in Dutch), how a card
 * is written (the full-screen game writes "[R2]", plain mode "R2", coloured
 * with --color) and where sentences go. fig_narrate_step() then turns one match
 * step into sentences, each handed to the `say` callback on its own;
 * fig_narrate_move() and fig_narrate_hint() describe an action the person could take.
 *
 * Everything told comes from the step's events and the person's views, which
 * are public (R14): no function here can see another seat's hand. */
#ifndef FIGARO_NARRATE_H
#define FIGARO_NARRATE_H

#include <stddef.h>

#include "figaro/figaro.h"
#include "figaro/match.h"

/* Receives one sentence, already translated and formatted. `about` is the
 * FIG_EV_* type of the event it tells (the tie-breaks of R11 are told with
 * the first FIG_EV_PIECE/NO_PIECE, a missing R12 exchange as FIG_EV_EXCHANGE),
 * or FIG_NARRATE_DEAL for the sentences of a deal. An event may take several
 * sentences, all with the same `about`. */
typedef void fig_narrate_say_fn(void *ctx, int about, const char *sentence);

/* Writes a card (a FIG_* kind) into buf and returns buf. */
typedef const char *fig_narrate_card_fn(void *ctx, int kind, char *buf, size_t cap);

enum {
    FIG_NARRATE_NAME_MAX = 128,   /* bytes of a name: 32 characters of UTF-8 (the server's) */
    FIG_NARRATE_DEAL = -1,   /* `about` of a deal's sentences */
    FIG_NARRATE_NONE = -2    /* never passed: a starting value for callers who compare `about`s */
};

typedef struct {
    int n;                                   /* players */
    int me;                                  /* the person's seat, or -1 for nobody */
    char names[FIG_MAX_PLAYERS][FIG_NARRATE_NAME_MAX + 1];
    const fig_tr_t *tr;                      /* the person's language; NULL: English */
    fig_narrate_card_fn *card;
    fig_narrate_say_fn *say;
    void *ctx;                               /* handed to card and say */
} fig_narrator_t;

/* Fills nr: `players` seats named names[0..players-1] (copied), the person at
 * seat `me` (-1: every sentence in the third person), speaking through `tr`
 * (not copied: it must outlive nr; NULL for English). */
void fig_narrate_init(fig_narrator_t *nr, int players, int me, const char names[][FIG_NAME_MAX + 1],
                      const fig_tr_t *tr, fig_narrate_card_fn *card, fig_narrate_say_fn *say,
                      void *ctx);

/* Names seat `seat` `name` (up to FIG_NARRATE_NAME_MAX bytes: a name
 * longer than a record's, with spaces, as the server's people type them). */
void fig_narrate_set_name(fig_narrator_t *nr, int seat, const char *name);

/* A seat's name, or "?" for a seat out of range. */
const char *fig_narrate_name(const fig_narrator_t *nr, int seat);

/* ---- card codes in the person's language
 *
 * FGN records keep the project's codes (R2, J1, RING); people read codes in
 * their language: FIG_CARD_CODES is a msgid whose translation lists the
 * codes of red, blue, green, yellow and purple cards, jesters and rings
 * ("R B V Ja Vi Jo RONDE" in French: vert and violet, jaune and jongleur
 * would clash on one letter). A translation that is not 7 distinct codes of
 * 1 to 5 letters, or that gives a colour or the jester an FGN letter of
 * another kind, is ignored: English codes then. */
#define FIG_CARD_CODES "R B G Y P J RING"

/* The code of card `kind` ("R2", "Ve2", "RONDE") by the translated table
 * (the translation of FIG_CARD_CODES, or NULL for English) into buf. */
const char *fig_card_code_in(const char *table, int kind, char *buf, size_t cap);

/* The card whose code in `table` (as above) starts text, ignoring case;
 * *used receives its length. -1 if none. */
int fig_card_code_parse_in(const char *table, const char *text, size_t *used);

/* fig_card_code_in with the table in tr's language. */
const char *fig_narrate_code(const fig_tr_t *tr, int kind, char *buf, size_t cap);

/* Tells one step, sentence by sentence, through nr->say. `before` and `after`
 * are the person's views just before and just after the step (for a deal,
 * `before` is not read). */
void fig_narrate_step(const fig_narrator_t *nr, const fig_match_step_t *step,
                      const fig_view_t *before, const fig_view_t *after);

/* One menu line for an action the person may take now (v: their view, their
 * turn): "R2 in front of Bob", "R3 in front of Bob: that pile reaches 6 and Bob
 * collects 4 cards", "take the 3 face-up cards". Not a sentence: no capital,
 * no full stop. */
void fig_narrate_move(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a, char *buf,
                      size_t cap);

/* What action a would do from the person's view v (their turn): the seat
 * that would collect the face-up cards, or -1 if nobody would (also if a
 * cannot be taken); *count (may be NULL) receives how many cards. From the
 * table and the mover's own card only (R14). */
int fig_narrate_collector(const fig_view_t *v, fig_action_t a, int *count);

/* Whether the person (v: their view, their turn) may take action a. If not,
 * writes why into msg, in the language of tr ("seat 2 cannot play B2 in
 * front of seat 0: seat 3 already has blue", translated; NULL: English), and
 * returns the error. Legality depends only on what the person knows: it comes
 * from the view (fig_view_legal); the engine words the refusal. */
fig_err_t fig_narrate_check(const fig_view_t *v, fig_action_t a, const fig_tr_t *tr,
                            fig_msg_t *msg);

/* Why the person (v: their view, their turn) may not take action a, in
 * their words, language and names, as one sentence ("R2 cannot go in front
 * of Bartolo: Rosina already has red."), into buf: the reason the engine
 * gives (fig_narrate_check), with the seats' names. For an action that is
 * legal, "". */
void fig_narrate_refusal(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a,
                         char *buf, size_t cap);

/* The hint for an action the person may take now, into `what` ("Hint: play
 * [R2] in front of Bob."), and what the move does at the table into `why`
 * ("It makes Bob collect 8 cards."; "" when the position cannot be read). */
void fig_narrate_hint(const fig_narrator_t *nr, const fig_view_t *v, fig_action_t a, char *what,
                      size_t wcap, char *why, size_t ycap);

#endif
