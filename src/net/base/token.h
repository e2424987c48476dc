/* SPDX-License-Identifier: MIT */
/* token.h - secrets and names that come from the operating system's random
 * source: seat tokens (128 bits), their SHA-256 hashes (the only form the
 * database ever holds), invite codes and the server's epoch.
 *
 * These are the server's only random draws that do not come from a seed, on
 * purpose: a token that followed from a seed could be guessed. */
#ifndef FIGARO_NET_TOKEN_H
#define FIGARO_NET_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figaro/error.h"

enum {
    FIG_TOKEN_HEX = 32,    /* a token: 16 bytes from getrandom, as hex */
    FIG_HASH_HEX = 64      /* a SHA-256 as hex */
};

/* A new token: FIG_TOKEN_HEX lowercase hex digits and a NUL. */
fig_err_t fig_token_new(char out[FIG_TOKEN_HEX + 1], fig_msg_t *msg);

/* The SHA-256 of `text` (len bytes) as FIG_HASH_HEX lowercase hex digits. */
fig_err_t fig_sha256_hex(const void *text, size_t len, char out[FIG_HASH_HEX + 1],
                         fig_msg_t *msg);

/* Whether two hashes (NUL-terminated hex) are equal, in time that does not
 * depend on where they differ. */
bool fig_hash_equal(const char *a, const char *b);

/* A new invite code of `len` characters from an alphabet without look-alikes
 * (no 0/O, 1/I/L). */
fig_err_t fig_code_new(char *out, int len, fig_msg_t *msg);

#endif
