/* SPDX-License-Identifier: MIT */
/* card.h - cards, colours, hands and the deck (R1, R2).
 *
 * A card is identified by its kind: cards of one kind are interchangeable (R6),
 * so a hand is 18 counters rather than a list. Colour kinds come first, three
 * per colour in value order, so colour = kind / 3 and value = kind % 3 + 1. */
#ifndef FIGARO_CARD_H
#define FIGARO_CARD_H

#include <stddef.h>
#include <stdint.h>

#include "figaro/error.h"

enum { FIG_RED, FIG_BLUE, FIG_GREEN, FIG_YELLOW, FIG_PURPLE, FIG_COLOURS,
       FIG_NO_COLOUR = FIG_COLOURS };

enum {
    FIG_R1, FIG_R2, FIG_R3, FIG_B1, FIG_B2, FIG_B3, FIG_G1, FIG_G2, FIG_G3,
    FIG_Y1, FIG_Y2, FIG_Y3, FIG_P1, FIG_P2, FIG_P3,
    FIG_J1, FIG_J2, FIG_RING,
    FIG_KINDS
};

enum { FIG_MIN_PLAYERS = 3, FIG_MAX_PLAYERS = 6, FIG_DECK_MAX = 60 };

/* Counts of each kind. Used for hands, decks and "cards seen". */
typedef struct {
    uint8_t n[FIG_KINDS];
} fig_hand_t;

static inline int fig_kind_is_colour(int kind) { return kind < FIG_J1; }
static inline int fig_kind_is_jester(int kind) { return kind == FIG_J1 || kind == FIG_J2; }
/* Colour of a colour kind, FIG_NO_COLOUR for jesters and rings. */
static inline int fig_kind_colour(int kind) { return kind < FIG_J1 ? kind / 3 : FIG_NO_COLOUR; }
/* Face value: 1-3 for colour cards, 1-2 for jesters, 0 for a ring (R1). The
 * kinds are ordered so that kind % 3 + 1 is the value of every kind but the
 * ring: one select, no chain of branches (playouts ask it at every action). */
static inline int fig_kind_value(int kind)
{
    return kind == FIG_RING ? 0 : kind % 3 + 1;
}

/* "R2", "J1", "RING". */
const char *fig_kind_code(int kind);
/* Parses a card code (case-insensitive) of exactly `len` characters; -1 if none. */
int fig_kind_parse(const char *s, size_t len);

/* Colour letter 'R','B','G','Y','P', and colour names for people. */
char fig_colour_letter(int colour);
const char *fig_colour_name(int colour);   /* "red", ... */
/* Parses a colour letter (case-insensitive); -1 if none. */
int fig_colour_parse(char c);

/* The deck of a game (R1, R2): 60 cards, or 45 with 3 players (removed colour,
 * one J1, one J2 and three rings out). `removed` is ignored unless players == 3. */
void fig_deck(fig_hand_t *deck, int players, int removed);

/* Cards dealt to each player (R4): the deck divided by the number of players. */
int fig_hand_cards(int players);

int fig_hand_total(const fig_hand_t *h);   /* number of cards */

/* Writes the cards of h as codes separated by spaces, in kind order, into buf
 * (always NUL-terminated when cap > 0). Returns the length it needed. */
size_t fig_hand_format(const fig_hand_t *h, char *buf, size_t cap);

#endif
