/* i18n.h - translations of what figaro says to people (GNU gettext).
 *
 * Front-end strings are written in English inside _() and translated at run
 * time from the catalogues in po/ (fr, nl, it). The core marks its messages
 * with N_() and never translates; front ends pass them through _() when they
 * show them. */
#ifndef FIGARO_I18N_H
#define FIGARO_I18N_H

#include <libintl.h>

#define _(s) gettext(s)
#ifndef N_
#define N_(s) s
#endif

/* Sets the locale from the environment (LC_ALL, LC_MESSAGES, LANG) and, when
 * lang is not NULL ("fr", "nl", "it", "en"), forces that language. Finds the
 * catalogues next to the program (build/locale) or in the installed prefix.
 * Returns 0, or -1 with a message in err if lang is not one of ours. */
int cli_i18n_init(const char *lang, char *err, size_t errcap);

#endif
