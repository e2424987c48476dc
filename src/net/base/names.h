/* SPDX-License-Identifier: MIT */
/* names.h - what the protocol and the storage both need to know of names
 * (proto.h, db.h): the sizes of a table's code, a person's public id, a
 * person's and an engine's names and a level's, the rules that make a typed
 * name a name, and the levels a table's bot may have. In the base room, under
 * both, so that the storage does not include the protocol nor the protocol
 * the storage. */
#ifndef FIGARO_NET_NAMES_H
#define FIGARO_NET_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "host/lang.h"

enum {
    FIG_TABLE_CODE_LEN = 6,          /* an invite code: 6 characters */
    FIG_PERSON_ID_LEN = 10,          /* a person's public id (fig_code_new's alphabet): no secret */
    FIG_ENGINE_NAME_MAX = 32,
    FIG_LEVEL_NAME_MAX = 15,        /* bytes of a level's name (fig_level_name) */
    FIG_PERSON_NAME_CHARS = 32,       /* a person's name: 1 to 32 characters (code points) */
    FIG_PERSON_NAME_BYTES = 4 * FIG_PERSON_NAME_CHARS   /* ... in UTF-8 */
};

/* A person's name as typed, made a name (the one place the server's name
 * rules live): every run of spaces (any Unicode space: U+00A0, U+3000, ...)
 * becomes one space, none at either end; then it must hold 1 to
 * FIG_PERSON_NAME_CHARS code points, no control character (C0, DEL, C1, the
 * bidirectional overrides and isolates, line and paragraph separators) and
 * at least one visible character (not only spaces, zero-width characters,
 * joiners, fillers, variation selectors or combining marks). FIG_OK with the
 * name in out, else FIG_ERR_INPUT with the reason in tr's language. `in`
 * must be UTF-8 (a malformed sequence is refused). */
fig_err_t fig_name_clean(const char *in, const fig_tr_t *tr,
                               char out[FIG_PERSON_NAME_BYTES + 1], fig_msg_t *msg);

/* The form of a (clean) name that an FGN record holds: one word of at most
 * FIG_NAME_MAX bytes (docs/fgn.md): spaces and '#' become '_', and the
 * name is cut after its last whole character that fits. */
void fig_name_record(const char *name, char out[FIG_NAME_MAX + 1]);

/* Writes into out (cap bytes) `name` cut to at most `chars` code points and
 * cap - 1 bytes, never inside a character. */
void fig_name_cut(const char *name, int chars, char *out, size_t cap);

/* The levels a table's bot may have: "random", then the ai layer's levels
 * (fig_bot_level_name). The server lists them in `welcome`; name is NULL out
 * of range. */
int fig_level_count(void);
const char *fig_level_name(int i);

/* Whether a bot level is one a table may have. */
bool fig_level_ok(const char *level);

#endif
