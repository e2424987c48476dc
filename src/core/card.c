/* SPDX-License-Identifier: MIT */
/* card.c - card codes, colours and the composition of the deck (R1, R2). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "figaro/card.h"

static const char *const kind_codes[FIG_KINDS] = {
    "R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2", "G3",
    "Y1", "Y2", "Y3", "P1", "P2", "P3", "J1", "J2", "RING",
};
static const char colour_letters[FIG_COLOURS] = { 'R', 'B', 'G', 'Y', 'P' };
static const char *const colour_names[FIG_COLOURS] = {
    N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("purple"),
};

const char *fig_kind_code(int kind)
{
    return kind >= 0 && kind < FIG_KINDS ? kind_codes[kind] : "?";
}

int fig_kind_parse(const char *s, size_t len)
{
    for (int k = 0; k < FIG_KINDS; k++) {
        const char *code = kind_codes[k];
        size_t i = 0;
        while (i < len && code[i] && toupper((unsigned char)s[i]) == code[i])
            i++;
        if (i == len && code[i] == '\0')
            return k;
    }
    return -1;
}

char fig_colour_letter(int colour)
{
    return colour >= 0 && colour < FIG_COLOURS ? colour_letters[colour] : '-';
}

const char *fig_colour_name(int colour)
{
    return colour >= 0 && colour < FIG_COLOURS ? colour_names[colour] : N_("no colour");
}

int fig_colour_parse(char c)
{
    for (int i = 0; i < FIG_COLOURS; i++)
        if (toupper((unsigned char)c) == colour_letters[i])
            return i;
    return -1;
}

void fig_deck(fig_hand_t *deck, int players, int removed)
{
    static const uint8_t per_value[3] = { 3, 6, 1 };   /* three 1s, six 2s, one 3 */
    memset(deck, 0, sizeof *deck);
    for (int k = 0; k < FIG_J1; k++)
        deck->n[k] = per_value[k % 3];
    deck->n[FIG_J1] = 3;
    deck->n[FIG_J2] = 2;
    deck->n[FIG_RING] = 5;
    if (players == 3) {   /* R2: one colour, one J1, one J2 and three rings out */
        if (removed >= 0 && removed < FIG_COLOURS)
            for (int v = 0; v < 3; v++)
                deck->n[removed * 3 + v] = 0;
        deck->n[FIG_J1] = 2;
        deck->n[FIG_J2] = 1;
        deck->n[FIG_RING] = 2;
    }
}

int fig_hand_cards(int players)
{
    return players == 3 ? 15 : FIG_DECK_MAX / players;
}

int fig_hand_total(const fig_hand_t *h)
{
    int t = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        t += h->n[k];
    return t;
}

size_t fig_hand_format(const fig_hand_t *h, char *buf, size_t cap)
{
    size_t len = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        for (int i = 0; i < h->n[k]; i++) {
            int w = snprintf(buf + (len < cap ? len : cap), len < cap ? cap - len : 0,
                             "%s%s", len ? " " : "", kind_codes[k]);
            len += (size_t)w;
        }
    if (cap && len == 0)
        buf[0] = '\0';
    return len;
}
