/* SPDX-License-Identifier: MIT */
/* vapid.h - the server's identity to push services (VAPID, RFC 8292): a
 * P-256 key pair kept as text, and the Authorization header that goes with
 * each push message, `vapid t=JWT, k=PUBLIC KEY`. The page subscribes with
 * the public key (PushManager.subscribe's applicationServerKey); a push
 * service accepts a message for that subscription only with a JWT signed by
 * the matching private key.
 *
 * The key's text is base64url without padding: the private key its 32-byte
 * scalar (43 signs), the public key its 65-byte uncompressed point (87
 * signs), the form the page takes as it is. The JWT is ES256 (RFC 7518
 * §3.4: the signature r || s, 64 bytes), its claims the endpoint's origin
 * (aud), an expiry FIG_VAPID_LIFE seconds after `now` (exp; RFC 8292 allows
 * at most 24 hours, and half of that leaves room for a push service's clock)
 * and the operator's contact (sub: a mailto: or https: address). */
#ifndef FIGARO_NET_VAPID_H
#define FIGARO_NET_VAPID_H

#include <stddef.h>
#include <stdint.h>

#include "figaro/error.h"
#include "net/push/push_url.h"
#include "net/push/p256.h"

enum {
    FIG_VAPID_PRIVATE_TEXT = 44,   /* 43 signs and a NUL */
    FIG_VAPID_PUBLIC_TEXT = 88,    /* 87 signs and a NUL */
    FIG_VAPID_LIFE = 12 * 3600,
    FIG_VAPID_SUB_MAX = 255,
    FIG_VAPID_HEADER_CAP = 1280    /* the longest header of an origin and a sub within these */
};

/* A key pair, a value: the scalar and its point. */
typedef struct {
    uint8_t priv[FIG_P256_PRIVATE];
    uint8_t pub[FIG_P256_PUBLIC];
} fig_vapid_key_t;

/* A new key pair from the operating system's randomness. */
fig_err_t fig_vapid_key_new(fig_vapid_key_t *key, fig_msg_t *msg);

/* A key pair from the private key's text (its public key follows); refuses
 * a text that is not 32 bytes of base64url or not a P-256 scalar. */
fig_err_t fig_vapid_key_read(fig_vapid_key_t *key, const char *text, fig_msg_t *msg);

/* The texts of the private and the public key. */
void fig_vapid_private_text(const fig_vapid_key_t *key, char out[FIG_VAPID_PRIVATE_TEXT]);
void fig_vapid_public_text(const fig_vapid_key_t *key, char out[FIG_VAPID_PUBLIC_TEXT]);

/* The Authorization header's value for one push message whose endpoint's
 * origin is `origin` (the audience: push_url.h's fig_push_url_t.origin, as
 * fig_push_url_parse gives it for the subscription's endpoint), signed by
 * key at time `now` (seconds since the epoch), with the contact `sub`, into
 * out (cap bytes, FIG_VAPID_HEADER_CAP is enough). */
fig_err_t fig_vapid_header(const fig_vapid_key_t *key, const char *origin, const char *sub,
                           int64_t now, char *out, size_t cap, fig_msg_t *msg);

#endif
