/* SPDX-License-Identifier: MIT */
/* push_sub.h - a Web Push subscription as a browser gives it
 * (PushSubscription.toJSON(), W3C Push API; RFC 8030, RFC 8291):
 *
 *   {"endpoint": "https://fcm.googleapis.com/fcm/send/...",
 *    "expirationTime": null,
 *    "keys": {"p256dh": "BCVxsr7N_eNgVRqv...", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}}
 *
 * read strictly, since a client sends it and the server will post to it:
 * the endpoint an https URL (push_url.h), keys.p256dh the browser's public
 * key, base64url of an uncompressed point on P-256 (65 bytes, 0x04 first,
 * checked on the curve with libcrypto), keys.auth base64url of the 16-byte
 * authentication secret; both with or without '=' padding (browsers send
 * none). expirationTime is kept when it is a number (milliseconds since
 * 1970), and may be null or absent. Other fields are ignored (a newer
 * browser may send more). Every refusal names the field, e.g.
 * "keys.p256dh: not a point on P-256", "endpoint: not an https URL",
 * "keys.auth: 12 bytes, not 16".
 *
 * Where the server may then post (the endpoint's addresses) is push_addr.h's
 * decision, made on each address the endpoint's host resolves to. */
#ifndef FIGARO_NET_PUSH_SUB_H
#define FIGARO_NET_PUSH_SUB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figaro/error.h"
#include "net/push/push_url.h"

enum {
    FIG_PUSH_SUB_TEXT_MAX = 4096,   /* a subscription's JSON text, in bytes, at most */
    FIG_PUSH_P256DH_LEN = 65,       /* an uncompressed P-256 point: 0x04, x, y */
    FIG_PUSH_AUTH_LEN = 16          /* the authentication secret (RFC 8291) */
};

/* A subscription: a value (no pointers), copied with `=`. */
typedef struct {
    char endpoint[FIG_PUSH_URL_MAX + 1];   /* as the browser wrote it */
    fig_push_url_t url;                    /* its host, port, target and origin */
    bool expires;                          /* expirationTime was a number */
    int64_t expires_ms;                    /* it, in milliseconds since 1970 */
    uint8_t p256dh[FIG_PUSH_P256DH_LEN];
    uint8_t auth[FIG_PUSH_AUTH_LEN];
} fig_push_sub_t;

/* Reads a subscription from the len bytes of JSON at `text` (at most
 * FIG_PUSH_SUB_TEXT_MAX, one object, no key twice). FIG_OK and *out set,
 * or FIG_ERR_INPUT with the field and what is wrong with it in msg and
 * *out unchanged. */
fig_err_t fig_push_sub_parse(fig_push_sub_t *out, const char *text, size_t len,
                             fig_msg_t *msg);

/* The same from a parsed JSON value (a message's field that holds the
 * subscription); the caller keeps `v`. */
fig_err_t fig_push_sub_from_json(fig_push_sub_t *out, const json_t *v, fig_msg_t *msg);

#endif
