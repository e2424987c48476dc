/* SPDX-License-Identifier: MIT */
/* push_crypt.h - the encryption of a Web Push message (RFC 8291) in the
 * aes128gcm content coding (RFC 8188): what the server sends a person's
 * browser through its push service when it is their turn, readable by that
 * browser alone, and its decryption, which the tests' push service uses to
 * check what was sent.
 *
 * A body is one record: a header (salt 16 bytes, record size 4 big-endian,
 * key id length 1, the sender's ephemeral public key 65), then the
 * plaintext, the last record's delimiter 0x02 and no further padding,
 * encrypted by AES-128-GCM with its 16-byte tag. The record size written is
 * 4096 and a body is at most 4096 bytes, what every push service must accept
 * (RFC 8291 §4): hence at most FIG_PUSH_PLAIN_MAX = 3993 bytes of
 * plaintext. Each message has a new ephemeral key pair and a new salt, so
 * no key and nonce ever serve twice.
 *
 * Errors: FIG_ERR_INPUT for a bad key, secret or body (the message names
 * the field), FIG_ERR_SPACE for an output buffer too small, FIG_ERR_STATE
 * when libcrypto itself fails. The messages are English, for the server's
 * log and the tests (no player reads them: they are not in the
 * catalogues), as are those of p256.h and vapid.h. Secrets are
 * wiped from the stack before a call returns. */
#ifndef FIGARO_NET_PUSH_CRYPT_H
#define FIGARO_NET_PUSH_CRYPT_H

#include <stddef.h>
#include <stdint.h>

#include "figaro/error.h"
#include "net/push/p256.h"

enum {
    FIG_PUSH_AUTH = 16,         /* the subscription's auth secret */
    FIG_PUSH_SALT = 16,
    FIG_PUSH_HEADER = 86,       /* salt, rs, idlen, keyid */
    FIG_PUSH_TAG = 16,
    FIG_PUSH_RS = 4096,         /* the record size a body says */
    FIG_PUSH_BODY_MAX = 4096,
    FIG_PUSH_PLAIN_MAX = FIG_PUSH_BODY_MAX - FIG_PUSH_HEADER - FIG_PUSH_TAG - 1,
    FIG_PUSH_CEK = 16,
    FIG_PUSH_NONCE = 12
};

/* The length of the body of `len` bytes of plaintext. */
#define FIG_PUSH_BODY_LEN(len) ((size_t)FIG_PUSH_HEADER + (len) + 1 + FIG_PUSH_TAG)

/* A subscription's keys as they arrive (decoded from base64url): the user
 * agent's public key (p256dh, 65 bytes) and its auth secret (16 bytes). The
 * lengths are the ones received, checked here. */
typedef struct {
    const uint8_t *p256dh;
    size_t p256dh_len;
    const uint8_t *auth;
    size_t auth_len;
} fig_push_keys_t;

/* The body of one push message of `len` bytes (at most FIG_PUSH_PLAIN_MAX)
 * for the subscription's keys, into out (cap bytes; FIG_PUSH_BODY_LEN(len)
 * are needed), *out_len its length. The ephemeral key and the salt come
 * from the operating system's randomness. */
fig_err_t fig_push_encrypt(const fig_push_keys_t *keys, const uint8_t *plain, size_t len,
                           uint8_t *out, size_t cap, size_t *out_len, fig_msg_t *msg);

/* fig_push_encrypt with the sender's private key and the salt given: for
 * tests with known values (RFC 8291 Appendix A). Never reuse them to send. */
fig_err_t fig_push_encrypt_with(const fig_push_keys_t *keys,
                                const uint8_t as_private[FIG_P256_PRIVATE],
                                const uint8_t salt[FIG_PUSH_SALT], const uint8_t *plain,
                                size_t len, uint8_t *out, size_t cap, size_t *out_len,
                                fig_msg_t *msg);

/* The plaintext of a body (body_len bytes, untrusted) for the user agent
 * whose private key is ua_private and auth secret auth (16 bytes), into out
 * (cap bytes), *out_len its length. Refuses a truncated header, a record
 * size or key id that is not this coding's, a sender key off the curve, a
 * body of more than one record, a wrong tag and a wrong padding. */
fig_err_t fig_push_decrypt(const uint8_t ua_private[FIG_P256_PRIVATE],
                           const uint8_t auth[FIG_PUSH_AUTH], const uint8_t *body,
                           size_t body_len, uint8_t *out, size_t cap, size_t *out_len,
                           fig_msg_t *msg);

/* The keys RFC 8291 §3.3-3.4 derives, each step's result, named as there.
 * The derivation is the same on both sides. */
typedef struct {
    uint8_t prk_key[32];   /* HKDF-Extract(auth, ecdh_secret) */
    uint8_t ikm[32];       /* HKDF-Expand(PRK_key, "WebPush: info" 0 ua as, 32) */
    uint8_t prk[32];       /* HKDF-Extract(salt, IKM) */
    uint8_t cek[FIG_PUSH_CEK];
    uint8_t nonce[FIG_PUSH_NONCE];
} fig_push_derived_t;

/* The derivation from the ECDH secret of the two key pairs (fig_p256_ecdh),
 * for both sides and for tests of each step. */
fig_err_t fig_push_derive(const uint8_t ecdh_secret[FIG_P256_SECRET],
                          const uint8_t auth[FIG_PUSH_AUTH],
                          const uint8_t ua_public[FIG_P256_PUBLIC],
                          const uint8_t as_public[FIG_P256_PUBLIC],
                          const uint8_t salt[FIG_PUSH_SALT], fig_push_derived_t *out,
                          fig_msg_t *msg);

#endif
