/* SPDX-License-Identifier: MIT */
/* store_seal.h - sealed saved games (store.h, "Sealed games"): the FGN
 * record of a game whose deals must stay secret while it runs, XORed with a
 * keystream drawn from the folder's key and a fresh nonce, written as hex on
 * "#=" lines after the file's "#!" lines (store_header.h):
 *
 *   #= sealed 1 NONCE LENGTH CHECK   (CHECK: of the clear record, with the key)
 *   #= 3a9f...                     (32 bytes a line)
 *
 * The key is a file of the store's folder ("figaro key 1 HEX64", made on the
 * first sealed save with mode 0600). Messages are English msgids put through
 * tr, naming the files. */
#ifndef FIGARO_STORE_SEAL_H
#define FIGARO_STORE_SEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figaro/figaro.h"

enum { STORE_KEY_WORDS = 4 };

/* Whether text (len bytes) is a sealed save: a game in progress whose record
 * only the store that sealed it can open (its cards stay hidden until the
 * game ends). */
bool fig_store_is_sealed(const char *text, size_t len);

/* Reads the key of `keyfile` into k; with `create`, makes one there (and the
 * folder `root` that holds it) if there is none. FIG_ERR_INPUT with a message
 * if it is missing or damaged. */
fig_err_t store_seal_key(const char *keyfile, const char *root, bool create,
                         uint64_t k[STORE_KEY_WORDS], const fig_tr_t *tr, fig_msg_t *msg);

/* At most how many bytes the sealed lines of a record of rec bytes take. */
size_t store_seal_size(size_t rec);

/* Appends g's record (rec bytes, as fig_fgn_write counts them) sealed with
 * key k to buf (cap bytes) at *n: the "#= sealed" line, then the hex lines.
 * store_seal_size(rec) bytes must be free. */
fig_err_t store_seal_write(const uint64_t k[STORE_KEY_WORDS], const fig_game_t *g, size_t rec,
                           char *buf, size_t cap, size_t *n, const fig_tr_t *tr, fig_msg_t *msg);

/* The clear text of the sealed file `path` (its text, len bytes, sealed as
 * fig_store_is_sealed says): its lines but the "#=" ones, then the record
 * opened with the key of `keyfile`. *out is malloc'ed and NUL-terminated
 * after its *outlen bytes. FIG_ERR_INPUT if the key is missing or does not
 * open it, or the record is damaged. */
fig_err_t store_unseal(const char *keyfile, const char *path, const char *text, size_t len,
                       char **out, size_t *outlen, const fig_tr_t *tr, fig_msg_t *msg);

#endif
