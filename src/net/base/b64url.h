/* SPDX-License-Identifier: MIT */
/* b64url.h - base64url (RFC 4648 §5: the alphabet A-Z a-z 0-9 '-' '_'),
 * the encoding of Web Push's keys and of VAPID's JSON Web Tokens.
 *
 * The encoder writes no '=' padding (as browsers and RFC 7515 do). The
 * decoder is strict, for text that came from the network: it takes the text
 * with or without its padding, and refuses a character outside the
 * alphabet, a length that no encoding has (4k + 1 characters, or padding
 * that does not complete a group of four), and a last character whose
 * unused bits are not zero, so that each byte string has one encoding. */
#ifndef FIGARO_NET_B64URL_H
#define FIGARO_NET_B64URL_H

#include <stddef.h>
#include <stdint.h>

#include "figaro/error.h"

/* The length of n bytes' encoding, without padding or NUL. */
size_t fig_b64url_encoded_len(size_t n);

/* Encodes the n bytes at `in` into out, NUL-terminated, without padding;
 * FIG_ERR_SPACE when out's cap bytes cannot hold the encoding and its NUL
 * (fig_b64url_encoded_len(n) + 1). */
fig_err_t fig_b64url_encode(const void *in, size_t n, char *out, size_t cap, fig_msg_t *msg);

/* Decodes the len characters at `text` into out and sets *n to the number
 * of bytes they encode. FIG_ERR_INPUT, with a sentence that says which
 * character is wrong and why, for text that is not base64url (the
 * sentence names no field: the caller says which one it read);
 * FIG_ERR_SPACE when the bytes are more than cap, with *n set to their
 * number and out unchanged, so that a caller that expects a fixed size can
 * say how many there were. */
fig_err_t fig_b64url_decode(const char *text, size_t len, uint8_t *out, size_t cap, size_t *n,
                            fig_msg_t *msg);

#endif
