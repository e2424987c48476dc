/* SPDX-License-Identifier: MIT */
/* b64url.h - base64url without padding (RFC 4648 §5), the form of every
 * binary value of Web Push: a subscription's keys, the VAPID public key the
 * page subscribes with, a JWT's three parts (RFC 7515). */
#ifndef FIGARO_NET_B64URL_H
#define FIGARO_NET_B64URL_H

#include <stddef.h>
#include <stdint.h>

#include "figaro/error.h"

/* The length of the text of n bytes (without its NUL). */
#define FIG_B64URL_LEN(n) (((n) / 3) * 4 + ((n) % 3 ? (n) % 3 + 1 : 0))

/* Writes the text of `len` bytes and a NUL into out (cap bytes); returns
 * FIG_ERR_SPACE if it does not fit. */
fig_err_t fig_b64url_encode(const uint8_t *in, size_t len, char *out, size_t cap,
                            fig_msg_t *msg);

/* Decodes text (NUL-terminated) into out (cap bytes), *len its length.
 * Refuses a sign outside the alphabet, '=' padding, a length that cannot be
 * base64 and bits left over in the last sign (one text per value), naming
 * `what`. */
fig_err_t fig_b64url_decode(const char *text, uint8_t *out, size_t cap, size_t *len,
                            const char *what, fig_msg_t *msg);

#endif
