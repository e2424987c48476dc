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

typedef struct {
    fig_rules_kind_t kind;
    const char *text;   /* translated (static storage or the translator's: do not free) */
} fig_rules_para_t;

/* The number of paragraphs. */
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
