/* SPDX-License-Identifier: MIT */
/* p256.h - P-256 keys as the Web Push protocols write them, and what is done
 * with them: a private key is its 32-byte scalar, a public key its 65-byte
 * uncompressed point (0x04 || x || y, SEC 1), the form of a subscription's
 * p256dh, of the sender's key in an encrypted body (RFC 8291) and of the
 * VAPID key the page subscribes with (RFC 8292).
 *
 * Every key read from bytes is checked before it is used: a scalar in
 * [1, n-1], a point on the curve and not the point at infinity. Each call
 * builds its libcrypto objects and frees them before it returns: nothing is
 * kept between calls. Failures of libcrypto itself (no memory) are
 * FIG_ERR_STATE; bad keys FIG_ERR_INPUT, the message naming `what`. */
#ifndef FIGARO_NET_P256_H
#define FIGARO_NET_P256_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "figaro/error.h"

enum {
    FIG_P256_PRIVATE = 32,   /* a scalar, big-endian */
    FIG_P256_PUBLIC = 65,    /* 0x04, x, y */
    FIG_P256_SECRET = 32     /* an ECDH shared secret: the x coordinate */
};

/* Returns FIG_ERR_STATE with the message of a failure of libcrypto itself,
 * for every module of Web Push. */
fig_err_t fig_p256_failed(fig_msg_t *msg);

/* A new key pair from the operating system's randomness (libcrypto's
 * generator, which the kernel seeds). */
fig_err_t fig_p256_new(uint8_t priv[FIG_P256_PRIVATE], uint8_t pub[FIG_P256_PUBLIC],
                       fig_msg_t *msg);

/* The public point of a private scalar, which is checked ("<what> is not a
 * P-256 private key"). */
fig_err_t fig_p256_public(const uint8_t priv[FIG_P256_PRIVATE], uint8_t pub[FIG_P256_PUBLIC],
                          const char *what, fig_msg_t *msg);

/* Whether the `len` bytes at pub are a public key: 65 bytes, the
 * uncompressed form, a point of the curve other than infinity ("<what> is
 * not ..."); FIG_ERR_STATE when libcrypto cannot tell. */
fig_err_t fig_p256_check_public(const uint8_t *pub, size_t len, const char *what, fig_msg_t *msg);

/* An EVP_PKEY for a private scalar (with its public point), or for a public
 * point of `len` bytes (checked as fig_p256_check_public does). The caller
 * frees *out with EVP_PKEY_free. */
fig_err_t fig_p256_private_pkey(EVP_PKEY **out, const uint8_t priv[FIG_P256_PRIVATE],
                                const char *what, fig_msg_t *msg);
fig_err_t fig_p256_public_pkey(EVP_PKEY **out, const uint8_t *pub, size_t len,
                               const char *what, fig_msg_t *msg);

/* ECDH: the shared secret of our private scalar and the peer's public point
 * (`len` bytes, checked as fig_p256_public_pkey does, named `what`). */
fig_err_t fig_p256_ecdh(const uint8_t priv[FIG_P256_PRIVATE], const uint8_t *peer, size_t len,
                        uint8_t secret[FIG_P256_SECRET], const char *what, fig_msg_t *msg);

#endif
