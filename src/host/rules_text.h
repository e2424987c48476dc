/* SPDX-License-Identifier: MIT */
/* rules_text.h - the rules of Figaro for players, in every language we have:
 * the `?` help of the game and `figaro rules`.
 *
 * The text is a list of paragraphs, each one msgid (docs/translations.md),
 * summarising docs/rules.md (R1-R14) in the published editions' words. A
 * paragraph has no line breaks: the caller wraps it to its width, e.g. with
 * fig_rules_wrap(). */
#ifndef FIGARO_RULES_TEXT_H
#define FIGARO_RULES_TEXT_H


#include "figaro/error.h"

typedef enum {
    FIG_RULES_TITLE,     /* the first paragraph only */
    FIG_RULES_HEADING,   /* a section: "The ring", ... */
    FIG_RULES_TEXT,      /* a paragraph */
    FIG_RULES_ITEM       /* a list item: shown with a bullet and a hanging indent */
} fig_rules_kind_t;

/* The bit of rule Rk (1-14, docs/rules.md) in a paragraph's `rules`. */
#define FIG_RULE(k) (1u << (k))

typedef struct {
    fig_rules_kind_t kind;
    const char *text;   /* translated (static storage or the translator's: do not free) */
    unsigned rules;     /* the rules it tells: FIG_RULE(k) for each Rk; 0 for none */
} fig_rules_para_t;

/* Which text: the rules in brief, or the player aid (one screen to keep at
 * hand while playing: the goal, a turn, the special cards, the end of a
 * round, round 3's exchange). */
typedef enum { FIG_RULES_BRIEF, FIG_RULES_AID } fig_rules_part_t;

/* The number of paragraphs of a part, and paragraph i of it, as below. */
int fig_rules_part_count(fig_rules_part_t part);
fig_rules_para_t fig_rules_part_get(fig_rules_part_t part, int i, const fig_tr_t *tr);

/* A part rendered as fig_rules_render renders the rules in brief. */
char *fig_rules_part_render(fig_rules_part_t part, int width, const fig_tr_t *tr);

/* The number of paragraphs of the rules in brief. */
int fig_rules_count(void);

/* Paragraph i (0 <= i < fig_rules_count()) in the language of tr (NULL:
 * English); an out-of-range i gives an empty FIG_RULES_TEXT. */
fig_rules_para_t fig_rules_get(int i, const fig_tr_t *tr);

/* The length in bytes of the first line of `s` when wrapped to `width`
 * columns (UTF-8 characters count one column each): it ends before a space,
 * or is cut hard when one word is longer than the width. The next line starts
 * after the spaces that follow. Returns 0 only for an empty string. */
int fig_rules_wrap(const char *s, int width);

/* The whole text in the language of tr, wrapped to `width` columns (at least
 * 20): a title underlined with '=', headings with '-', items with a bullet
 * and a hanging indent, one line per '\n'. Returns a string the caller frees,
 * or NULL if out of memory. `figaro rules` (cmd_rules, cli.h) prints it. */
char *fig_rules_render(int width, const fig_tr_t *tr);

#endif
