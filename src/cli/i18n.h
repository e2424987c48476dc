/* SPDX-License-Identifier: MIT */
/* i18n.h - the terminal's language: what `figaro` says to the one person at
 * the terminal, through GNU gettext.
 *
 * The command's own strings are written in English inside _() and translated
 * at run time from the catalogues in po/ (fr, nl, it). The core marks its
 * messages with N_() and never translates; the host layer (narration, the
 * rules text) takes a translator (fig_tr_t) instead of a process-wide
 * language, and the terminal hands it cli_i18n_tr(): gettext in the language
 * cli_i18n_init chose. Choosing the language (setlocale, $LANGUAGE) happens
 * here and nowhere else. docs/translations.md explains how the catalogues are
 * built and found, and how to add a language. */
#ifndef FIGARO_I18N_H
#define FIGARO_I18N_H

#include <libintl.h>
#include <stddef.h>

#include "figaro/error.h"

#define _(s) gettext(s)
#ifndef N_
#define N_(s) s
#endif

/* Sets the locale from the environment and binds the "figaro" text domain.
 *
 * The language is, first found: `lang` ("en", "fr", "nl", "it"; NULL for
 * none), $LANGUAGE (unless the locale is explicitly C or POSIX, as GNU gettext
 * does), $LC_ALL, $LC_MESSAGES, $LANG. A language works even when its system
 * locale is not installed (a fresh machine may have only C.UTF-8): messages
 * then run in C.UTF-8 with $LANGUAGE naming the language, which glibc honours.
 * LC_NUMERIC stays "C" so numbers in files, JSON and options keep their '.'.
 *
 * The catalogues (LANG/LC_MESSAGES/figaro.mo) are looked for in
 * $FIGARO_LOCALEDIR if set, else next to the program: DIR/locale,
 * DIR/../share/locale and DIR/../locale where DIR holds the executable
 * (build/figaro finds build/locale), else in LOCALEDIR.
 *
 * Returns 0, or -1 with a message in err if lang is not one of ours (the
 * locale is then still set from the environment). */
int cli_i18n_init(const char *lang, char *err, size_t errcap);

/* The folder the catalogues were bound to by cli_i18n_init ("" before). */
const char *cli_i18n_localedir(void);

/* The terminal's translator: GNU gettext (text) and ngettext (plural) in the
 * language cli_i18n_init chose, so narration and the rules text speak exactly
 * as the rest of the command does. A static constant: valid for the whole
 * run; before cli_i18n_init it gives English. */
const fig_tr_t *cli_i18n_tr(void);

#endif
