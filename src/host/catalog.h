/* SPDX-License-Identifier: MIT */
/* catalog.h - the catalogues of the languages we have (lang.h), read without
 * libintl, so one process can speak French to Ann and Dutch to Bob at once.
 *
 * A catalogue (fig_catalog_t) is one compiled GNU gettext file,
 * LOCALEDIR/LANG/LC_MESSAGES/figaro.mo, read whole into memory, checked, and
 * never changed afterwards: lookups read it only, so any number of threads may
 * share one catalogue. fig_catalog_tr() gives it as a translator (fig_tr_t,
 * figaro/error.h), which narration and every host message take.
 *
 * A .mo file is untrusted input: every offset and length is checked against
 * the file's size, every string must end in NUL, the originals must be sorted
 * (msgfmt sorts them; lookups are a binary search), the Plural-Forms header
 * must parse, and every translation must take the same printf arguments as
 * its msgid (what `msgfmt --check` verifies), because callers use
 * translations as printf formats. A file that fails any check is refused
 * whole, with a message naming the file and what is wrong.
 *
 * The messages about a damaged catalogue are in English on purpose: they are
 * for whoever installs figaro, and the catalogue that would translate them is
 * the one that failed. */
#ifndef FIGARO_HOST_CATALOG_H
#define FIGARO_HOST_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/error.h"
#include "host/plural.h"

typedef struct fig_catalog fig_catalog_t;

/* Opens the catalogue of language `lang` (fig_lang_known) from
 * LOCALEDIR/LANG/LC_MESSAGES/figaro.mo. "en" needs no file: it gives an empty
 * catalogue whose translator returns the msgids, with English plurals.
 * Returns FIG_OK and a catalogue in *out (free it with fig_catalog_free), or
 * FIG_ERR_INPUT with *out NULL and a message: an unknown language, a missing
 * or unreadable file, a damaged file (what is wrong, and where); FIG_ERR_SPACE
 * when memory runs out. */
fig_err_t fig_catalog_open(fig_catalog_t **out, const char *localedir, const char *lang,
                           fig_msg_t *msg);

/* The same from `size` bytes in memory (copied: the caller keeps data), with
 * the same errors. `name` names the input in messages (a path, "fr.mo"). */
fig_err_t fig_catalog_from_buffer(fig_catalog_t **out, const void *data, size_t size,
                                  const char *name, fig_msg_t *msg);

/* Frees a catalogue; NULL is a no-op. Its translator dies with it. */
void fig_catalog_free(fig_catalog_t *cat);

/* The catalogue as a translator, valid until fig_catalog_free. Its `text`
 * returns the translation of a msgid, or the msgid itself when the catalogue
 * has none; `plural` chooses the form by the catalogue's Plural-Forms (English
 * when it has none). The header (msgid "") is no message: looking up "" gives
 * "". The strings returned live in the catalogue. */
const fig_tr_t *fig_catalog_tr(const fig_catalog_t *cat);

/* The number of messages in the catalogue (its header, msgid "", included). */
int fig_catalog_count(const fig_catalog_t *cat);

/* Message i (0 <= i < fig_catalog_count) as stored: msgid, msgid_plural (NULL
 * if none), and the translation's first form; false when i is out of range.
 * For tests and tools that check a catalogue. */
bool fig_catalog_entry(const fig_catalog_t *cat, int i, const char **msgid,
                       const char **msgid_plural, const char **msgstr);

/* The catalogue's plural forms (English when it has no Plural-Forms). */
const fig_plural_t *fig_catalog_plural(const fig_catalog_t *cat);

#endif
