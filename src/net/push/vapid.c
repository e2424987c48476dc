/* SPDX-License-Identifier: MIT */
/* vapid.c - VAPID keys, endpoint origins and the signed header (vapid.h).
 *
 * The JWT is built as text by hand rather than by a JSON library: its
 * header is a constant, and its claims hold only an origin this file wrote
 * and a contact checked to need no escaping. libcrypto signs in DER (X9.62's
 * SEQUENCE of r and s); a JWT wants r and s as two 32-byte numbers. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/ecdsa.h>

#include "net/base/b64url.h"
#include "net/push/vapid.h"

/* base64url of {"typ":"JWT","alg":"ES256"}. */
static const char JWT_HEADER[] = "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9";

enum { SIGNATURE = 64, DER_MAX = 80 /* a P-256 ECDSA signature in DER: at most 72 */ };

fig_err_t fig_vapid_key_new(fig_vapid_key_t *key, fig_msg_t *msg)
{
    return fig_p256_new(key->priv, key->pub, msg);
}

fig_err_t fig_vapid_key_read(fig_vapid_key_t *key, const char *text, fig_msg_t *msg)
{
    size_t len = 0;
    fig_msg_t why = {0};
    fig_err_t rc = fig_b64url_decode(text, strlen(text), key->priv, sizeof key->priv, &len, &why);
    if (rc == FIG_ERR_INPUT)
        rc = fig_fail(msg, rc, "the VAPID private key: %s", why.text);
    else if (rc == FIG_ERR_SPACE || (rc == FIG_OK && len != FIG_P256_PRIVATE))
        rc = fig_fail(msg, FIG_ERR_INPUT,
                      "the VAPID private key must be 32 bytes (43 signs of base64url), not %zu",
                      len);
    if (rc == FIG_OK)
        rc = fig_p256_public(key->priv, key->pub, "the VAPID private key", msg);
    if (rc)
        OPENSSL_cleanse(key, sizeof *key);
    return rc;
}

void fig_vapid_private_text(const fig_vapid_key_t *key, char out[FIG_VAPID_PRIVATE_TEXT])
{
    fig_b64url_encode(key->priv, sizeof key->priv, out, FIG_VAPID_PRIVATE_TEXT, NULL);
}

void fig_vapid_public_text(const fig_vapid_key_t *key, char out[FIG_VAPID_PUBLIC_TEXT])
{
    fig_b64url_encode(key->pub, sizeof key->pub, out, FIG_VAPID_PUBLIC_TEXT, NULL);
}

/* Whether s starts with the lower-case prefix p, in any case. */
static int has_scheme(const char *s, const char *p)
{
    for (; *p; s++, p++)
        if (tolower((unsigned char)*s) != *p)
            return 0;
    return 1;
}

/* Whether origin is an https origin as push_url.c writes one (lower case,
 * no path), so that the claims can hold it as it is. */
static fig_err_t check_origin(const char *origin, fig_msg_t *msg)
{
    size_t n = strlen(origin);
    if (!has_scheme(origin, "https://") || n == 8 || n >= FIG_PUSH_ORIGIN_MAX ||
        strspn(origin + 8, "abcdefghijklmnopqrstuvwxyz0123456789.-:[]") != n - 8)
        return fig_fail(msg, FIG_ERR_INPUT, "the VAPID audience is not an https origin");
    return FIG_OK;
}

/* A contact the claims can hold as it is: mailto: or https:, then printable
 * ASCII that JSON need not escape. */
static fig_err_t check_sub(const char *sub, fig_msg_t *msg)
{
    size_t n = strlen(sub);
    size_t scheme = has_scheme(sub, "mailto:") ? 7 : has_scheme(sub, "https:") ? 6 : 0;
    if (scheme == 0 || n == scheme)
        return fig_fail(msg, FIG_ERR_INPUT,
                        "the VAPID contact must be a mailto: or https: address");
    if (n > FIG_VAPID_SUB_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "the VAPID contact is longer than %d bytes",
                        FIG_VAPID_SUB_MAX);
    for (size_t i = 0; i < n; i++)
        if (sub[i] <= ' ' || sub[i] > '~' || sub[i] == '"' || sub[i] == '\\')
            return fig_fail(msg, FIG_ERR_INPUT,
                            "the VAPID contact may not hold a space, a quote, a backslash "
                               "or a sign outside ASCII");
    return FIG_OK;
}

/* The ES256 signature of input as r || s. */
static fig_err_t sign(const fig_vapid_key_t *key, const char *input, size_t len,
                      uint8_t sig[SIGNATURE], fig_msg_t *msg)
{
    EVP_PKEY *pk = NULL;
    fig_err_t rc = fig_p256_private_pkey(&pk, key->priv, "the VAPID private key", msg);
    if (rc)
        return rc;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    uint8_t der[DER_MAX];
    size_t der_len = sizeof der;
    ECDSA_SIG *s = NULL;
    int ok = md && EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, pk, NULL) == 1
             && EVP_DigestSign(md, der, &der_len, (const uint8_t *)input, len) == 1;
    if (ok) {
        const uint8_t *p = der;
        s = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
        ok = s && BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, 32) == 32
             && BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + 32, 32) == 32;
    }
    ECDSA_SIG_free(s);
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pk);
    return ok ? FIG_OK : fig_p256_failed(msg);
}

/* The JWT: header, claims, signature, each base64url, joined by dots. */
static fig_err_t make_jwt(const fig_vapid_key_t *key, const char *origin, const char *sub,
                          int64_t now, char *jwt, size_t cap, fig_msg_t *msg)
{
    char claims[FIG_PUSH_ORIGIN_MAX + FIG_VAPID_SUB_MAX + 64];
    int n = snprintf(claims, sizeof claims, "{\"aud\":\"%s\",\"exp\":%" PRId64 ",\"sub\":\"%s\"}",
                     origin, now + FIG_VAPID_LIFE, sub);
    if (n < 0 || (size_t)n >= sizeof claims)
        return fig_fail(msg, FIG_ERR_SPACE, "no room for the VAPID claims");
    size_t h = sizeof JWT_HEADER - 1;
    if (cap < h + 2)
        return fig_fail(msg, FIG_ERR_SPACE, "no room for the VAPID token");
    memcpy(jwt, JWT_HEADER, h);
    jwt[h++] = '.';
    fig_err_t rc = fig_b64url_encode((const uint8_t *)claims, (size_t)n, jwt + h, cap - h, msg);
    uint8_t sig[SIGNATURE];
    size_t len = h + strlen(jwt + h);
    if (rc == FIG_OK)
        rc = sign(key, jwt, len, sig, msg);
    if (rc == FIG_OK && len + 1 < cap) {
        jwt[len++] = '.';
        rc = fig_b64url_encode(sig, sizeof sig, jwt + len, cap - len, msg);
    } else if (rc == FIG_OK)
        rc = fig_fail(msg, FIG_ERR_SPACE, "no room for the VAPID token");
    return rc;
}

fig_err_t fig_vapid_header(const fig_vapid_key_t *key, const char *origin, const char *sub,
                           int64_t now, char *out, size_t cap, fig_msg_t *msg)
{
    char jwt[FIG_VAPID_HEADER_CAP], pub[FIG_VAPID_PUBLIC_TEXT];
    if (now < 0 || now > INT64_MAX - FIG_VAPID_LIFE)
        return fig_fail(msg, FIG_ERR_INPUT, "the time is not a time since 1970");
    fig_err_t rc = check_origin(origin, msg);
    if (rc == FIG_OK)
        rc = check_sub(sub, msg);
    if (rc == FIG_OK)
        rc = make_jwt(key, origin, sub, now, jwt, sizeof jwt, msg);
    if (rc)
        return rc;
    fig_vapid_public_text(key, pub);
    int n = snprintf(out, cap, "vapid t=%s, k=%s", jwt, pub);
    if (n < 0 || (size_t)n >= cap)
        return fig_fail(msg, FIG_ERR_SPACE, "no room for the VAPID header");
    return FIG_OK;
}
