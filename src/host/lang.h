/* SPDX-License-Identifier: MIT */
/* lang.h - the languages figaro speaks: the one table of them. Their
 * catalogues, read without libintl so one process can speak French to Ann and
 * Dutch to Bob at once, are catalog.h's. */
#ifndef FIGARO_HOST_LANG_H
#define FIGARO_HOST_LANG_H

#include <stdbool.h>
#include <stddef.h>

/* The one table of the languages figaro speaks (en, fr, nl, it: those of the
 * published rules): the server and its page (welcome), the catalogues the
 * build compiles (po/LANG.po, checked by test_lang) all follow it. At most
 * FIG_LANG_MAX of them. */
enum { FIG_LANG_MAX = 16, FIG_LANG_CODE_MAX = 7 };   /* codes of at most 7 bytes */

/* The number of languages. */
int fig_lang_count(void);

/* Language i's code ("en", "fr", "nl", "it"), or NULL when i is out of range.
 * "en", the first, is the language of the msgids and has no catalogue. */
const char *fig_lang_code(int i);

/* Language i's name in itself ("Français"), for a menu; NULL out of range. */
const char *fig_lang_name(int i);

/* The codes, "en, fr, nl, it", into out (cut to cap - 1 bytes), for a
 * message that names them. */
void fig_lang_list(char *out, size_t cap);

/* Whether `code` is exactly one of ours ("fr" is, "fr_FR" and "de" are not). */
bool fig_lang_known(const char *code);

#endif
