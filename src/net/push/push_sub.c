/* SPDX-License-Identifier: MIT */
/* push_sub.c - a Web Push subscription read and checked (push_sub.h).
 *
 * Each field is read into a local copy by its own function, which names
 * the field in its refusal; *out is written only when all are good. The
 * browser's key is checked to be on the curve because the server will
 * later derive a shared secret from it (RFC 8291): a point off the curve
 * is refused now, with the field's name, rather than when a message is
 * encrypted. */
#include <string.h>

#include "net/base/b64url.h"
#include "net/push/p256.h"
#include "net/push/push_sub.h"

/* rc with msg's sentence "field: " and the sentence in `inner`. */
static fig_err_t named(fig_msg_t *msg, fig_err_t rc, const char *field, const fig_msg_t *inner)
{
    return fig_fail(msg, rc, "%s: %s", field, inner->text);
}

/* The string field `key` of o, named `field` in messages. */
static fig_err_t get_string(const json_t *o, const char *key, const char *field,
                            const char **s, size_t *len, fig_msg_t *msg)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return fig_fail(msg, FIG_ERR_INPUT, "%s: missing", field);
    if (!json_is_string(v))
        return fig_fail(msg, FIG_ERR_INPUT, "%s: not a string", field);
    *s = json_string_value(v);
    *len = json_string_length(v);
    return FIG_OK;
}

static fig_err_t read_endpoint(fig_push_sub_t *sub, const json_t *o, fig_msg_t *msg)
{
    const char *s;
    size_t len;
    fig_err_t rc = get_string(o, "endpoint", "endpoint", &s, &len, msg);
    if (rc != FIG_OK)
        return rc;
    fig_msg_t why = {0};
    rc = fig_push_url_parse(&sub->url, s, len, &why);
    if (rc != FIG_OK)
        return named(msg, rc, "endpoint", &why);
    memcpy(sub->endpoint, s, len);   /* len <= FIG_PUSH_URL_MAX: the URL was taken */
    sub->endpoint[len] = '\0';
    return FIG_OK;
}

/* expirationTime: null, absent, or milliseconds since 1970 (a whole number
 * of at most 2^53, JavaScript's exact integers; a fraction is cut off). */
static fig_err_t read_expiration(fig_push_sub_t *sub, const json_t *o, fig_msg_t *msg)
{
    const json_t *v = json_object_get(o, "expirationTime");
    if (!v || json_is_null(v))
        return FIG_OK;
    if (!json_is_number(v))
        return fig_fail(msg, FIG_ERR_INPUT, "expirationTime: not a number or null");
    double t = json_number_value(v);
    if (!(t >= 0 && t <= 9007199254740992.0))
        return fig_fail(msg, FIG_ERR_INPUT, "expirationTime: not a time in milliseconds "
                        "since 1970");
    sub->expires = true;
    sub->expires_ms = json_is_integer(v) ? (int64_t)json_integer_value(v) : (int64_t)t;
    return FIG_OK;
}

/* The base64url field `key` of keys, decoded to exactly n bytes. */
static fig_err_t read_key(const json_t *keys, const char *key, const char *field, uint8_t *out,
                          size_t n, fig_msg_t *msg)
{
    const char *s;
    size_t len, got = 0;
    fig_err_t rc = get_string(keys, key, field, &s, &len, msg);
    if (rc != FIG_OK)
        return rc;
    fig_msg_t why = {0};
    rc = fig_b64url_decode(s, len, out, n, &got, &why);
    if (rc == FIG_ERR_INPUT)
        return named(msg, rc, field, &why);
    if (rc != FIG_OK || got != n)
        return fig_fail(msg, FIG_ERR_INPUT, "%s: %zu bytes, not %zu", field, got, n);
    return FIG_OK;
}

/* Whether the 65 bytes at pt are a point on P-256 (p256.h's check: on the
 * curve, not at infinity). An error only when libcrypto cannot tell. */
static fig_err_t on_p256(const uint8_t pt[FIG_PUSH_P256DH_LEN], bool *ok, fig_msg_t *msg)
{
    fig_msg_t why = {0};
    fig_err_t rc = fig_p256_check_public(pt, FIG_PUSH_P256DH_LEN, "keys.p256dh", &why);
    *ok = rc == FIG_OK;
    if (rc == FIG_OK || rc == FIG_ERR_INPUT)
        return FIG_OK;
    return fig_fail(msg, rc, "keys.p256dh: cannot check the key: %s", why.text);
}

static fig_err_t read_keys(fig_push_sub_t *sub, const json_t *o, fig_msg_t *msg)
{
    const json_t *keys = json_object_get(o, "keys");
    if (!keys)
        return fig_fail(msg, FIG_ERR_INPUT, "keys: missing");
    if (!json_is_object(keys))
        return fig_fail(msg, FIG_ERR_INPUT, "keys: not an object");
    fig_err_t rc = read_key(keys, "p256dh", "keys.p256dh", sub->p256dh, FIG_PUSH_P256DH_LEN,
                            msg);
    if (rc != FIG_OK)
        return rc;
    if (sub->p256dh[0] != 0x04)
        return fig_fail(msg, FIG_ERR_INPUT, "keys.p256dh: not an uncompressed point (its "
                        "first byte is 0x%02x, not 0x04)", sub->p256dh[0]);
    bool ok = false;
    rc = on_p256(sub->p256dh, &ok, msg);
    if (rc != FIG_OK)
        return rc;
    if (!ok)
        return fig_fail(msg, FIG_ERR_INPUT, "keys.p256dh: not a point on P-256");
    return read_key(keys, "auth", "keys.auth", sub->auth, FIG_PUSH_AUTH_LEN, msg);
}

fig_err_t fig_push_sub_from_json(fig_push_sub_t *out, const json_t *v, fig_msg_t *msg)
{
    if (!json_is_object(v))
        return fig_fail(msg, FIG_ERR_INPUT, "a subscription is a JSON object");
    fig_push_sub_t sub;
    memset(&sub, 0, sizeof sub);
    fig_err_t rc = read_endpoint(&sub, v, msg);
    if (rc == FIG_OK)
        rc = read_expiration(&sub, v, msg);
    if (rc == FIG_OK)
        rc = read_keys(&sub, v, msg);
    if (rc == FIG_OK)
        *out = sub;
    return rc;
}

fig_err_t fig_push_sub_parse(fig_push_sub_t *out, const char *text, size_t len,
                             fig_msg_t *msg)
{
    if (len > FIG_PUSH_SUB_TEXT_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "a subscription has at most %d bytes",
                        FIG_PUSH_SUB_TEXT_MAX);
    json_error_t jerr;
    json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!v)
        return fig_fail(msg, FIG_ERR_INPUT, "a subscription is not JSON: %s (line %d, column "
                        "%d)", jerr.text, jerr.line, jerr.column);
    fig_err_t rc = fig_push_sub_from_json(out, v, msg);
    json_decref(v);
    return rc;
}
