/* SPDX-License-Identifier: MIT */
/* rules_text.c - the rules for players (rules_text.h).
 *
 * A summary of docs/rules.md in the words of the published English edition
 * (jesters, ring-around-the-rosey, road pieces, the King, stacks). Each entry
 * of `paras` is one msgid: translators see whole paragraphs, and callers wrap
 * them to any width, in the language of the translator they pass. Keep the
 * English plain ASCII: it is also what a terminal in the C locale shows. */
#include <string.h>

#include "figaro/error.h"
#include "host/rules_text.h"
#include "host/util.h"

typedef struct {
    fig_rules_kind_t kind;
    const char *text;
    unsigned rules;   /* FIG_RULE(k): the rules of docs/rules.md it tells */
} entry_t;

#define R(k) FIG_RULE(k)

static const entry_t paras[] = {
    { FIG_RULES_TITLE, N_("Figaro: the rules in brief"), 0 },
    { FIG_RULES_TEXT,
      N_("Figaro is Reiner Knizia's card game for 3 to 6 players, played in three rounds. "
         "In each round you try to collect as few cards as you can: the more cards you "
         "collect, the longer the road piece you get. After three rounds the player with the "
         "shortest road is closest to the King and wins."), 0 },

    { FIG_RULES_HEADING, N_("The cards"), R(1) },
    { FIG_RULES_TEXT,
      N_("There are 60 cards. Each of the five colours (red, blue, green, yellow and purple) "
         "has three 1s, six 2s and one 3. The five jesters (three 1s and two 2s) are wild. "
         "The five ring-around-the-rosey cards (rings) are worth 0 and have no colour."), R(1) },
    { FIG_RULES_TEXT,
      N_("In the game a card is shown as its colour letter and its value: R red, B blue, "
         "G green, Y yellow, P purple, so R2 is a red 2 and P3 a purple 3. J1 and J2 are "
         "jesters and RING is a ring."), R(1) },
    { FIG_RULES_TEXT,
      N_("With 3 players only 45 cards are used: one colour (all ten of its cards), a jester "
         "of value 1, a jester of value 2 and three rings stay out for the whole game."), R(2) },

    { FIG_RULES_HEADING, N_("Setup"), R(3) },
    { FIG_RULES_TEXT,
      N_("Before the first round, road pieces are drawn at random for all three rounds: for "
         "each round, one fewer than the number of players, sorted longest first. The "
         "starting player takes the King."), R(3) },
    { FIG_RULES_TEXT,
      N_("At the start of each round all the cards are shuffled and dealt out: 15 each with "
         "3 or 4 players, 12 with 5 and 10 with 6. The player with the King takes the first "
         "turn."), R(4) },

    { FIG_RULES_HEADING, N_("Your turn"), R(5) },
    { FIG_RULES_TEXT, N_("Play goes clockwise. On your turn you do one of two things:"), R(5) },
    { FIG_RULES_ITEM,
      N_("play one card from your hand face up in front of any player, yourself included, "
         "as the rules below allow; or"), R(5) },
    { FIG_RULES_ITEM,
      N_("take: put all the face-up cards in front of all the players into your own "
         "face-down stack. You may take whenever there are face-up cards, even if you could "
         "play; you must take when you cannot play."), R(5) },

    { FIG_RULES_HEADING, N_("Where a card may go"), R(6) },
    { FIG_RULES_TEXT,
      N_("The face-up cards in front of a player are that player's pile. A pile has the "
         "colour of the colour cards in it; a pile of only jesters and rings, or of no cards, "
         "has no colour yet."), R(6) },
    { FIG_RULES_ITEM,
      N_("A colour card may go in front of a player whose pile has no colour yet or already "
         "has that colour, and only if no other player has that colour in front of them: "
         "no two players ever have the same colour."), R(6) },
    { FIG_RULES_ITEM,
      N_("A jester may go in front of any player at any time. It matches every colour and "
         "never gives a pile its colour."), R(6) },
    { FIG_RULES_ITEM, N_("A ring is always played in front of yourself."), R(6) },

    { FIG_RULES_HEADING, N_("Ring-around-the-rosey"), R(7) },
    { FIG_RULES_TEXT,
      N_("When you play a ring, put it on your own pile; then every player passes their "
         "whole pile, the ring included, to the player on their left."), R(7) },

    { FIG_RULES_HEADING, N_("The King has had enough!"), R(8) },
    { FIG_RULES_TEXT,
      N_("As soon as the cards in front of a player add up to 6 or more, that player must "
         "collect all the face-up cards of all the players into their face-down stack, no "
         "matter who played the last card. Whoever collects cards, this way or by taking, "
         "plays the next turn; then play goes on clockwise."), R(8) | R(9) },

    { FIG_RULES_HEADING, N_("End of a round"), R(10) },
    { FIG_RULES_TEXT,
      N_("A round ends when a player starts their turn with no cards in hand; that player "
         "takes the King. The game marks a player who has only one card left. Face-up cards "
         "on the table and cards left in hands do not count."), R(10) },

    { FIG_RULES_HEADING, N_("Road pieces"), R(11) },
    { FIG_RULES_TEXT,
      N_("Each player counts the cards in their stack; their values do not matter. The "
         "player with the most cards takes the round's longest road piece, the player with "
         "the second most the second longest, and so on. The player with the fewest cards "
         "gets no piece, nor does any player with no cards at all; pieces left over are out "
         "of the game."), R(11) },
    { FIG_RULES_TEXT,
      N_("Ties are broken around the table: starting from the player on the King's left and "
         "going clockwise, the first of the tied players ranks higher and takes the longer "
         "piece. The player with the King comes last."), R(11) },

    { FIG_RULES_HEADING, N_("Round 3: the exchange"), R(12) },
    { FIG_RULES_TEXT,
      N_("At the end of the third round, before the road pieces are handed out, the player "
         "with the fewest cards (in a tie, the player with the King, or else the tied player "
         "nearest to the King clockwise) exchanges their longest road piece for the shortest "
         "piece of the round, if theirs is longer."), R(12) },

    { FIG_RULES_HEADING, N_("The winner"), R(13) },
    { FIG_RULES_TEXT,
      N_("After the third round each player lays their road pieces end to end. The player "
         "with the shortest road is closest to the castle: their Figaro gets the job and they "
         "win. In a tie, the player with the King wins, or else the tied player nearest to "
         "the King clockwise."), R(13) },

    { FIG_RULES_HEADING, N_("No counting"), R(14) },
    { FIG_RULES_TEXT,
      N_("During the game you may not count the cards in the stacks or compare your road "
         "pieces with the other players' pieces. So the game does not show how many cards a "
         "stack holds, nor how long the other players' roads are, while you play; the option "
         "--open of figaro play shows them."), R(14) },
};
enum { NPARAS = sizeof paras / sizeof paras[0] };

/* The player aid: one screen to keep at hand while playing, as the French
 * edition's aide de jeu sums the rules up (the goal, a turn, the special
 * cards, the end of a round, round 3's exchange). */
static const entry_t aid[] = {
    { FIG_RULES_TITLE, N_("Player aid"), 0 },
    { FIG_RULES_TEXT, N_("Goal: after three rounds, the shortest road wins."), R(13) },

    { FIG_RULES_HEADING, N_("A turn"), R(5) },
    { FIG_RULES_ITEM, N_("Play a card in front of any player, yourself included."), R(5) },
    { FIG_RULES_ITEM,
      N_("A colour card goes on a pile of its colour, or on a pile with no colour if no other "
         "player has that colour."), R(6) },
    { FIG_RULES_ITEM,
      N_("Or take all the face-up cards: you may at any time, you must when you cannot "
         "play."), R(5) },
    { FIG_RULES_ITEM,
      N_("A pile at 6 or more: its player collects all the face-up cards and plays "
         "next."), R(8) | R(9) },

    { FIG_RULES_HEADING, N_("Special cards"), R(6) | R(7) },
    { FIG_RULES_ITEM, N_("Jester: any colour, in front of anyone; it never gives a pile a colour."),
      R(6) },
    { FIG_RULES_ITEM, N_("Ring: in front of yourself; then every pile moves one player to the left."),
      R(7) },

    { FIG_RULES_HEADING, N_("End of a round"), R(10) | R(11) },
    { FIG_RULES_ITEM,
      N_("A player starts a turn with no cards: the round ends, that player takes the King."),
      R(10) },
    { FIG_RULES_ITEM,
      N_("Most cards collected: the longest piece, and so on; the fewest, or none: no piece. "
         "Ties: clockwise from the King's left, the King last."), R(11) },

    { FIG_RULES_HEADING, N_("Round 3: the exchange"), R(12) },
    { FIG_RULES_ITEM,
      N_("First, the fewest cards swaps their longest piece for the round's shortest, if "
         "longer."), R(12) },

    { FIG_RULES_HEADING, N_("During play"), R(14) },
    { FIG_RULES_ITEM, N_("No counting the stacks, no measuring the roads."), R(14) },
};
enum { NAID = sizeof aid / sizeof aid[0] };

int fig_rules_part_count(fig_rules_part_t part)
{
    return part == FIG_RULES_AID ? NAID : NPARAS;
}

fig_rules_para_t fig_rules_part_get(fig_rules_part_t part, int i, const fig_tr_t *tr)
{
    const entry_t *list = part == FIG_RULES_AID ? aid : paras;
    fig_rules_para_t p = { FIG_RULES_TEXT, "", 0 };
    if (i >= 0 && i < fig_rules_part_count(part)) {
        p.kind = list[i].kind;
        p.text = fig_tr_text(tr, list[i].text);
        p.rules = list[i].rules;
    }
    return p;
}

int fig_rules_count(void)
{
    return NPARAS;
}

fig_rules_para_t fig_rules_get(int i, const fig_tr_t *tr)
{
    return fig_rules_part_get(FIG_RULES_BRIEF, i, tr);
}

/* A UTF-8 continuation byte: not the start of a character. */
static int is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

int fig_rules_wrap(const char *s, int width)
{
    if (width < 1)
        width = 1;
    int cols = 0, i = 0, last_space = -1;
    while (s[i]) {
        if (s[i] == ' ')
            last_space = i;
        if (!is_cont((unsigned char)s[i])) {
            if (cols == width)
                break;
            cols++;
        }
        i++;
    }
    if (!s[i])
        return i;                          /* the rest fits */
    if (s[i] == ' ')
        return i;                          /* the line ends exactly at a space */
    if (last_space > 0) {
        while (last_space > 0 && s[last_space - 1] == ' ')
            last_space--;                  /* no trailing spaces */
        if (last_space > 0)
            return last_space;
    }
    return i;                              /* one long word: cut it */
}

/* A line of n times c under a title or a heading. */
static void add_rule(fig_buf_t *t, char c, int n)
{
    for (int k = 0; k < n; k++)
        fig_buf_append(t, &c, 1);
    fig_buf_append(t, "\n", 1);
}

/* Adds `text` wrapped to `width`, the first line after `first`, the next
 * ones after `indent` (both the same number of columns). */
static void add_wrapped(fig_buf_t *t, const char *text, int width, const char *first,
                        const char *indent, int margin)
{
    const char *lead = first;
    while (*text == ' ')
        text++;
    while (*text) {
        int n = fig_rules_wrap(text, width - margin);
        fig_buf_appendf(t, "%s%.*s\n", lead, n, text);
        text += n;
        while (*text == ' ')
            text++;
        lead = indent;
    }
}

/* The number of columns of a UTF-8 string (one per character). */
static int columns(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += !is_cont((unsigned char)*s);
    return n;
}

char *fig_rules_part_render(fig_rules_part_t part, int width, const fig_tr_t *tr)
{
    fig_buf_t t;
    fig_buf_init(&t);
    if (width < 20)
        width = 20;
    int count = fig_rules_part_count(part);
    for (int i = 0; i < count; i++) {
        fig_rules_para_t p = fig_rules_part_get(part, i, tr);
        int n = columns(p.text);
        switch (p.kind) {
        case FIG_RULES_TITLE:
            add_wrapped(&t, p.text, width, "", "", 0);
            add_rule(&t, '=', n < width ? n : width);
            break;
        case FIG_RULES_HEADING:
            fig_buf_append(&t, "\n", 1);
            add_wrapped(&t, p.text, width, "", "", 0);
            add_rule(&t, '-', n < width ? n : width);
            break;
        case FIG_RULES_ITEM:
            add_wrapped(&t, p.text, width, "  - ", "    ", 4);
            break;
        case FIG_RULES_TEXT:
            if (i > 0 && fig_rules_part_get(part, i - 1, NULL).kind == FIG_RULES_TEXT)
                fig_buf_append(&t, "\n", 1);
            add_wrapped(&t, p.text, width, "", "", 0);
            break;
        }
    }
    return fig_buf_take(&t);   /* NULL when memory ran out */
}

char *fig_rules_render(int width, const fig_tr_t *tr)
{
    return fig_rules_part_render(FIG_RULES_BRIEF, width, tr);
}
