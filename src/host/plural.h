/* SPDX-License-Identifier: MIT */
/* plural.h - a catalogue's Plural-Forms (GNU gettext): parsed from its text,
 * held as a small fixed-size tree, and evaluated for a number. The text is
 * untrusted (it comes from a .mo file): parsing is bounded in size and
 * nesting, and evaluating never traps. */
#ifndef FIGARO_HOST_PLURAL_H
#define FIGARO_HOST_PLURAL_H

#include "figaro/error.h"

enum { FIG_PLURAL_NODES = 96, FIG_PLURAL_DEPTH = 32, FIG_PLURAL_MAX = 16 };

/* A parsed Plural-Forms header: nplurals and the expression `plural=` as a
 * small tree of nodes (indices into `node`, pointer-free, so a copy is a
 * value). Fixed size: parsing refuses expressions of more than
 * FIG_PLURAL_NODES nodes or FIG_PLURAL_DEPTH levels of nesting. */
typedef struct {
    unsigned char op;            /* a token of gettext's grammar, see plural.c */
    unsigned char a, b, c;       /* operands: node indices */
    unsigned long value;         /* a number */
} fig_plural_node_t;

typedef struct {
    int nplurals;                /* 1 .. FIG_PLURAL_MAX */
    int root;                    /* the expression's node */
    int nnodes;
    fig_plural_node_t node[FIG_PLURAL_NODES];
} fig_plural_t;

/* English: nplurals=2; plural=(n != 1). */
void fig_plural_english(fig_plural_t *p);

/* Parses the value of a Plural-Forms header, e.g. "nplurals=2; plural=(n > 1);"
 * (gettext's C-like grammar: n, decimal integers, ! * / % + - < > <= >= == !=
 * && || ?: and parentheses; arithmetic on unsigned long as in GNU gettext).
 * Returns FIG_OK, or FIG_ERR_INPUT with what is wrong in msg (p is then
 * English). */
fig_err_t fig_plural_parse(fig_plural_t *p, const char *forms, fig_msg_t *msg);

/* The plural form for n: the expression's value, or 0 when it is not below
 * nplurals. Division and remainder by zero give 0. */
int fig_plural_index(const fig_plural_t *p, unsigned long n);

#endif
