/* SPDX-License-Identifier: MIT */
/* test_push_crypt.c - Web Push (src/net/push): RFC 8291 Appendix A byte for
 * byte, each step of its derivation; round trips with random keys; every
 * byte of a body altered, truncated, badly padded, refused; subscription
 * keys off the curve, of the wrong length, at infinity, refused by name;
 * base64url; VAPID keys, endpoint origins and a header checked here (its
 * signature verified by libcrypto) and by tests/net/test_push_crypt.py
 * (Python's cryptography), to which test_export writes what it checks; and
 * libcrypto's allocations failed one by one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <openssl/crypto.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>

#include "host/util.h"
#include "net/base/b64url.h"
#include "net/push/push_crypt.h"
#include "net/push/vapid.h"

/* RFC 8291 Appendix A. */
#define A_PLAIN "When I grow up, I want to be a watermelon"
#define A_AS_PUBLIC                                                                            \
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
#define A_AS_PRIVATE "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
#define A_UA_PUBLIC                                                                            \
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
#define A_UA_PRIVATE "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
#define A_SALT "DGv6ra1nlYgDCS1FRnbzlw"
#define A_AUTH "BTBZMqHH6r4Tts7J_aSIgg"
#define A_ECDH "kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs"
#define A_PRK_KEY "Snr3JMxaHVDXHWJn5wdC52WjpCtd2EIEGBykDcZW32k"
#define A_IKM "S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg"
#define A_PRK "09_eUZGrsvxChDCGRCdkLiDXrReGOEVeSCdCcPBSJSc"
#define A_CEK "oIhVW04MRdy2XN9CiKLxTg"
#define A_NONCE "4h_95klXJ5E_qnoN"
#define A_BODY                                                                                 \
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"                         \
    "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"                         \
    "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

/* P-256's order n, big-endian. */
static const uint8_t ORDER[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};

/* text decoded; it must be exactly `len` bytes. */
static void dec(const char *text, uint8_t *out, size_t len)
{
    size_t n = 0;
    fig_msg_t msg = {0};
    if (fig_b64url_decode(text, strlen(text), out, len, &n, &msg) != FIG_OK)
        fail_msg("%s: %s", text, msg.text);
    assert_int_equal(n, len);
}

/* bytes as base64url, compared with the expected text. */
static void expect_b64(const uint8_t *bytes, size_t len, const char *want)
{
    char text[8192];
    assert_int_equal(fig_b64url_encode(bytes, len, text, sizeof text, NULL), FIG_OK);
    assert_string_equal(text, want);
}

/* Appendix A's values. */
typedef struct {
    uint8_t as_priv[32], as_pub[65], ua_priv[32], ua_pub[65], salt[16], auth[16];
    uint8_t body[FIG_PUSH_BODY_MAX];
    size_t body_len;
} vectors_t;

static void vectors(vectors_t *v)
{
    dec(A_AS_PRIVATE, v->as_priv, 32);
    dec(A_AS_PUBLIC, v->as_pub, 65);
    dec(A_UA_PRIVATE, v->ua_priv, 32);
    dec(A_UA_PUBLIC, v->ua_pub, 65);
    dec(A_SALT, v->salt, 16);
    dec(A_AUTH, v->auth, 16);
    v->body_len = FIG_PUSH_BODY_LEN(strlen(A_PLAIN));
    dec(A_BODY, v->body, v->body_len);
}

static fig_push_keys_t keys_of(const uint8_t *p256dh, size_t p_len, const uint8_t *auth,
                               size_t a_len)
{
    fig_push_keys_t k = {p256dh, p_len, auth, a_len};
    return k;
}

static void test_appendix_a_steps(void **state)
{
    (void)state;
    vectors_t v;
    vectors(&v);
    uint8_t pub[65], secret[32], other[32];
    assert_int_equal(fig_p256_public(v.as_priv, pub, "as", NULL), FIG_OK);
    assert_memory_equal(pub, v.as_pub, 65);
    assert_int_equal(fig_p256_public(v.ua_priv, pub, "ua", NULL), FIG_OK);
    assert_memory_equal(pub, v.ua_pub, 65);
    assert_int_equal(fig_p256_ecdh(v.as_priv, v.ua_pub, 65, secret, "ua", NULL), FIG_OK);
    expect_b64(secret, 32, A_ECDH);
    assert_int_equal(fig_p256_ecdh(v.ua_priv, v.as_pub, 65, other, "as", NULL), FIG_OK);
    assert_memory_equal(secret, other, 32);
    fig_push_derived_t d;
    assert_int_equal(fig_push_derive(secret, v.auth, v.ua_pub, v.as_pub, v.salt, &d, NULL),
                     FIG_OK);
    expect_b64(d.prk_key, 32, A_PRK_KEY);
    expect_b64(d.ikm, 32, A_IKM);
    expect_b64(d.prk, 32, A_PRK);
    expect_b64(d.cek, 16, A_CEK);
    expect_b64(d.nonce, 12, A_NONCE);
}

static void test_appendix_a_body(void **state)
{
    (void)state;
    vectors_t v;
    vectors(&v);
    fig_push_keys_t k = keys_of(v.ua_pub, 65, v.auth, 16);
    uint8_t body[FIG_PUSH_BODY_MAX], plain[FIG_PUSH_BODY_MAX];
    size_t n = 0;
    fig_msg_t msg = {0};
    assert_int_equal(fig_push_encrypt_with(&k, v.as_priv, v.salt, (const uint8_t *)A_PLAIN,
                                           strlen(A_PLAIN), body, sizeof body, &n, &msg),
                     FIG_OK);
    assert_int_equal(n, v.body_len);
    expect_b64(body, n, A_BODY);
    assert_int_equal(fig_push_decrypt(v.ua_priv, v.auth, v.body, v.body_len, plain,
                                      sizeof plain, &n, &msg), FIG_OK);
    assert_int_equal(n, strlen(A_PLAIN));
    assert_memory_equal(plain, A_PLAIN, n);
    /* the output buffer: exactly enough, one byte short */
    assert_int_equal(fig_push_encrypt_with(&k, v.as_priv, v.salt, (const uint8_t *)A_PLAIN,
                                           strlen(A_PLAIN), body, v.body_len, &n, NULL),
                     FIG_OK);
    assert_int_equal(fig_push_encrypt_with(&k, v.as_priv, v.salt, (const uint8_t *)A_PLAIN,
                                           strlen(A_PLAIN), body, v.body_len - 1, &n, NULL),
                     FIG_ERR_SPACE);
    assert_int_equal(fig_push_decrypt(v.ua_priv, v.auth, v.body, v.body_len, plain,
                                      strlen(A_PLAIN) - 1, &n, &msg), FIG_ERR_SPACE);
}

static void test_round_trip(void **state)
{
    (void)state;
    static const size_t lens[] = {0, 1, 15, 16, 17, 1000, FIG_PUSH_PLAIN_MAX};
    uint8_t ua_priv[32], ua_pub[65], auth[16], plain[FIG_PUSH_BODY_MAX], back[FIG_PUSH_BODY_MAX];
    uint8_t a[FIG_PUSH_BODY_MAX], b[FIG_PUSH_BODY_MAX];
    assert_int_equal(fig_p256_new(ua_priv, ua_pub, NULL), FIG_OK);
    assert_int_equal(fig_random_bytes(auth, sizeof auth, NULL), FIG_OK);
    assert_int_equal(fig_random_bytes(plain, sizeof plain, NULL), FIG_OK);
    fig_push_keys_t k = keys_of(ua_pub, 65, auth, 16);
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        size_t na = 0, nb = 0, n = 0;
        fig_msg_t msg = {0};
        if (fig_push_encrypt(&k, plain, lens[i], a, sizeof a, &na, &msg) != FIG_OK)
            fail_msg("%zu bytes: %s", lens[i], msg.text);
        assert_int_equal(fig_push_encrypt(&k, plain, lens[i], b, sizeof b, &nb, &msg), FIG_OK);
        assert_int_equal(na, FIG_PUSH_BODY_LEN(lens[i]));
        assert_true(na <= FIG_PUSH_BODY_MAX);
        /* a new salt and key each time: nothing of the two bodies alike */
        assert_true(memcmp(a, b, FIG_PUSH_SALT) != 0);
        assert_true(memcmp(a + 21, b + 21, 65) != 0);
        assert_int_equal(fig_push_decrypt(ua_priv, auth, a, na, back, sizeof back, &n, &msg),
                         FIG_OK);
        assert_int_equal(n, lens[i]);
        assert_memory_equal(back, plain, n);
    }
    size_t n = 0;
    fig_msg_t msg = {0};
    assert_int_equal(fig_push_encrypt(&k, plain, FIG_PUSH_PLAIN_MAX + 1, a, sizeof a + 1, &n, &msg),
                     FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "at most 3993 bytes"));
    /* another's auth secret: the tag is wrong */
    assert_int_equal(fig_push_encrypt(&k, plain, 10, a, sizeof a, &n, NULL), FIG_OK);
    auth[3] ^= 1;
    assert_int_equal(fig_push_decrypt(ua_priv, auth, a, n, back, sizeof back, &n, &msg),
                     FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "tag is wrong"));
}

/* The decryption of body refused, with a message holding `want`. */
static void refused_body(const vectors_t *v, const uint8_t *body, size_t len, const char *want)
{
    uint8_t out[FIG_PUSH_BODY_MAX];
    size_t n = 99;
    fig_msg_t msg = {0};
    fig_err_t rc = fig_push_decrypt(v->ua_priv, v->auth, body, len, out, sizeof out, &n, &msg);
    if (rc != FIG_ERR_INPUT || n != 0)
        fail_msg("a body of %zu bytes: %d, %zu bytes (%s)", len, rc, n, msg.text);
    if (want && !strstr(msg.text, want))
        fail_msg("a body of %zu bytes: \"%s\", not \"%s\"", len, msg.text, want);
}

static void test_tampering(void **state)
{
    (void)state;
    vectors_t v;
    vectors(&v);
    uint8_t body[FIG_PUSH_BODY_MAX];
    /* every byte but the record size's, which only bounds the record */
    for (size_t i = 0; i < v.body_len; i++) {
        if (i >= 16 && i < 20)
            continue;
        for (int bit = 0; bit < 8; bit += 7) {
            memcpy(body, v.body, v.body_len);
            body[i] ^= (uint8_t)(1 << bit);
            const char *want = i < 16 || i >= 86 ? "tag is wrong" : NULL;
            if (i == 20)
                want = "key id";
            refused_body(&v, body, v.body_len, want);
        }
    }
    /* the sender's key replaced by a point off the curve */
    memcpy(body, v.body, v.body_len);
    body[85] ^= 1;
    refused_body(&v, body, v.body_len, "the sender's key in the message is not a point");
}

static void test_truncated(void **state)
{
    (void)state;
    vectors_t v;
    vectors(&v);
    for (size_t len = 0; len < FIG_PUSH_HEADER; len++)
        refused_body(&v, v.body, len, "header is truncated");
    for (size_t len = FIG_PUSH_HEADER; len < FIG_PUSH_HEADER + FIG_PUSH_TAG + 1; len++)
        refused_body(&v, v.body, len, "record is truncated");
    for (size_t len = FIG_PUSH_HEADER + FIG_PUSH_TAG + 1; len < v.body_len; len++)
        refused_body(&v, v.body, len, "tag is wrong");
    uint8_t body[FIG_PUSH_BODY_MAX + 1];
    memcpy(body, v.body, v.body_len);
    body[19] = 17;   /* rs 17: less than a tag and a delimiter */
    body[18] = 0;
    refused_body(&v, body, v.body_len, "one record");
    body[19] = (uint8_t)(v.body_len - FIG_PUSH_HEADER - 1);   /* the record longer than rs */
    refused_body(&v, body, v.body_len, "one record");
    body[19] = (uint8_t)(v.body_len - FIG_PUSH_HEADER);       /* exactly rs: fine */
    uint8_t out[64];
    size_t n = 0;
    assert_int_equal(fig_push_decrypt(v.ua_priv, v.auth, body, v.body_len, out, sizeof out, &n,
                                      NULL), FIG_OK);
    memset(body, 0, sizeof body);
    refused_body(&v, body, sizeof body, "at most 4096 bytes");
}

/* A body of Appendix A's keys whose record is `rec` (len bytes), as it is:
 * no delimiter added. */
static size_t raw_body(const vectors_t *v, const uint8_t *rec, int len, uint8_t *body)
{
    uint8_t secret[32];
    fig_push_derived_t d;
    assert_int_equal(fig_p256_ecdh(v->as_priv, v->ua_pub, 65, secret, "ua", NULL), FIG_OK);
    assert_int_equal(fig_push_derive(secret, v->auth, v->ua_pub, v->as_pub, v->salt, &d, NULL),
                     FIG_OK);
    memcpy(body, v->body, FIG_PUSH_HEADER);
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, end = 0;
    assert_non_null(c);
    assert_int_equal(EVP_EncryptInit_ex2(c, EVP_aes_128_gcm(), d.cek, d.nonce, NULL), 1);
    assert_int_equal(EVP_EncryptUpdate(c, body + FIG_PUSH_HEADER, &n, rec, len), 1);
    assert_int_equal(EVP_EncryptFinal_ex(c, body + FIG_PUSH_HEADER + n, &end), 1);
    assert_int_equal(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16,
                                         body + FIG_PUSH_HEADER + len), 1);
    EVP_CIPHER_CTX_free(c);
    return FIG_PUSH_HEADER + (size_t)len + 16;
}

static void test_padding(void **state)
{
    (void)state;
    vectors_t v;
    vectors(&v);
    uint8_t body[FIG_PUSH_BODY_MAX], out[64];
    size_t n = 0;
    /* a delimiter then zeros: the zeros are padding */
    size_t len = raw_body(&v, (const uint8_t *)"abc\2\0\0\0", 7, body);
    assert_int_equal(fig_push_decrypt(v.ua_priv, v.auth, body, len, out, sizeof out, &n, NULL),
                     FIG_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(out, "abc", 3);
    /* no delimiter, another record's delimiter (1), nothing but zeros */
    len = raw_body(&v, (const uint8_t *)"abc", 3, body);
    refused_body(&v, body, len, "padding is wrong");
    len = raw_body(&v, (const uint8_t *)"abc\1\0", 5, body);
    refused_body(&v, body, len, "padding is wrong");
    len = raw_body(&v, (const uint8_t *)"\0\0\0\0", 4, body);
    refused_body(&v, body, len, "padding is wrong");
    len = raw_body(&v, (const uint8_t *)"\2", 1, body);   /* empty data: fine */
    assert_int_equal(fig_push_decrypt(v.ua_priv, v.auth, body, len, out, sizeof out, &n, NULL),
                     FIG_OK);
    assert_int_equal(n, 0);
}

/* Encryption to these keys refused, with a message holding `want`. */
static void refused_keys(const uint8_t *p256dh, size_t p_len, const uint8_t *auth, size_t a_len,
                         const char *want)
{
    vectors_t v;
    vectors(&v);
    fig_push_keys_t k = keys_of(p256dh, p_len, auth, a_len);
    uint8_t body[FIG_PUSH_BODY_MAX];
    size_t n = 99;
    fig_msg_t msg = {0};
    assert_int_equal(fig_push_encrypt(&k, (const uint8_t *)"x", 1, body, sizeof body, &n, &msg),
                     FIG_ERR_INPUT);
    assert_int_equal(n, 0);
    if (!strstr(msg.text, want))
        fail_msg("\"%s\", not \"%s\"", msg.text, want);
    assert_int_equal(fig_push_encrypt_with(&k, v.as_priv, v.salt, (const uint8_t *)"x", 1, body,
                                           sizeof body, &n, NULL), FIG_ERR_INPUT);
}

static void test_bad_keys(void **state)
{
    (void)state;
    vectors_t v;
    vectors(&v);
    uint8_t p[66] = {0};
    refused_keys(v.ua_pub, 64, v.auth, 16, "p256dh must be a 65-byte P-256 public key, not 64");
    memcpy(p, v.ua_pub, 65);
    refused_keys(p, 66, v.auth, 16, "p256dh must be a 65-byte");
    refused_keys(p, 0, v.auth, 16, "p256dh must be a 65-byte");
    uint8_t infinity[65] = {0};   /* SEC 1: the point at infinity is 0x00 */
    refused_keys(infinity, 1, v.auth, 16, "p256dh must be a 65-byte");
    refused_keys(infinity, 65, v.auth, 16, "p256dh is not an uncompressed P-256 point");
    uint8_t compressed[65];
    memcpy(compressed, v.ua_pub, 65);
    compressed[0] = 0x02;
    refused_keys(compressed, 65, v.auth, 16, "p256dh is not an uncompressed");
    uint8_t zero[65] = {0x04};   /* (0, 0): not on the curve */
    refused_keys(zero, 65, v.auth, 16, "p256dh is not a point of the P-256 curve");
    p[64] ^= 1;
    refused_keys(p, 65, v.auth, 16, "p256dh is not a point of the P-256 curve");
    refused_keys(v.ua_pub, 65, v.auth, 15, "auth must be a 16-byte secret, not 15");
    refused_keys(v.ua_pub, 65, v.auth, 17, "auth must be a 16-byte secret, not 17");
    /* private scalars out of [1, n-1] */
    uint8_t d[32] = {0}, pub[65];
    fig_msg_t msg = {0};
    assert_int_equal(fig_p256_public(d, pub, "d", &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "d is not a P-256 private key");
    assert_int_equal(fig_p256_public(ORDER, pub, "d", NULL), FIG_ERR_INPUT);
    memset(d, 0xff, sizeof d);
    assert_int_equal(fig_p256_public(d, pub, "d", NULL), FIG_ERR_INPUT);
    memcpy(d, ORDER, 32);
    d[31]--;   /* n - 1 */
    assert_int_equal(fig_p256_public(d, pub, "d", NULL), FIG_OK);
}

/* The origin of an endpoint, as a subscription's URL gives it (push_url.h);
 * one buffer, good until the next call. */
static const char *origin_of(const char *endpoint)
{
    static fig_push_url_t u;
    fig_msg_t msg = {0};
    if (fig_push_url_parse(&u, endpoint, strlen(endpoint), &msg) != FIG_OK)
        fail_msg("%s: %s", endpoint, msg.text);
    return u.origin;
}

/* Whether sig (r || s) is key's ES256 signature of data, by libcrypto. */
static int verifies(const uint8_t pub[65], const char *data, size_t len, const uint8_t sig[64])
{
    EVP_PKEY *pk = NULL;
    assert_int_equal(fig_p256_public_pkey(&pk, pub, 65, "k", NULL), FIG_OK);
    ECDSA_SIG *s = ECDSA_SIG_new();
    assert_int_equal(ECDSA_SIG_set0(s, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL)),
                     1);
    uint8_t *der = NULL;
    int der_len = i2d_ECDSA_SIG(s, &der);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int ok = EVP_DigestVerifyInit_ex(md, NULL, "SHA256", NULL, NULL, pk, NULL) == 1
             && EVP_DigestVerify(md, der, (size_t)der_len, (const uint8_t *)data, len) == 1;
    EVP_MD_CTX_free(md);
    OPENSSL_free(der);
    ECDSA_SIG_free(s);
    EVP_PKEY_free(pk);
    return ok;
}

/* Checks a header of key's for these claims. */
static void check_header(const char *h, const fig_vapid_key_t *key, const char *claims)
{
    char pub[FIG_VAPID_PUBLIC_TEXT], jwt[FIG_VAPID_HEADER_CAP];
    fig_vapid_public_text(key, pub);
    assert_int_equal(strncmp(h, "vapid t=", 8), 0);
    const char *k = strstr(h, ", k=");
    assert_non_null(k);
    assert_string_equal(k + 4, pub);
    memcpy(jwt, h + 8, (size_t)(k - h - 8));
    jwt[k - h - 8] = '\0';
    char *dot1 = strchr(jwt, '.'), *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
    assert_non_null(dot2);
    *dot1 = '\0';
    assert_string_equal(jwt, "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9");
    *dot2 = '\0';
    uint8_t text[1024], sig[64];
    size_t len = 0;
    assert_int_equal(fig_b64url_decode(dot1 + 1, strlen(dot1 + 1), text, sizeof text - 1, &len, NULL),
                     FIG_OK);
    text[len] = '\0';
    assert_string_equal((char *)text, claims);
    dec(dot2 + 1, sig, 64);
    *dot1 = '.';
    assert_true(verifies(key->pub, jwt, strlen(jwt), sig));
    sig[5] ^= 1;
    assert_false(verifies(key->pub, jwt, strlen(jwt), sig));
}

static void test_vapid_header(void **state)
{
    (void)state;
    fig_vapid_key_t key, again;
    char priv[FIG_VAPID_PRIVATE_TEXT], pub[FIG_VAPID_PUBLIC_TEXT], h[FIG_VAPID_HEADER_CAP];
    fig_msg_t msg = {0};
    assert_int_equal(fig_vapid_key_new(&key, &msg), FIG_OK);
    fig_vapid_private_text(&key, priv);
    fig_vapid_public_text(&key, pub);
    assert_int_equal(strlen(priv), 43);
    assert_int_equal(strlen(pub), 87);
    assert_int_equal(fig_vapid_key_read(&again, priv, &msg), FIG_OK);
    assert_memory_equal(&again, &key, sizeof key);
    assert_int_equal(fig_vapid_header(&key, origin_of("https://Push.Example:8443/w/1?a=b"),
                                      "mailto:ops@x.org", 1700000000, h, sizeof h, &msg), FIG_OK);
    check_header(h, &key, "{\"aud\":\"https://push.example:8443\",\"exp\":1700043200,"
                          "\"sub\":\"mailto:ops@x.org\"}");
    assert_true(strlen(h) < 400);
    /* Appendix A's sender key as a VAPID key: its public key follows */
    assert_int_equal(fig_vapid_key_read(&key, A_AS_PRIVATE, &msg), FIG_OK);
    fig_vapid_public_text(&key, pub);
    assert_string_equal(pub, A_AS_PUBLIC);
    /* the longest origin and contact fit */
    char endpoint[300] = "https://", sub[FIG_VAPID_SUB_MAX + 2] = "https:";
    memset(endpoint + 8, 'a', 253);   /* a host of 253 characters: labels of 63, 63, 63, 61 */
    endpoint[8 + 63] = endpoint[8 + 127] = endpoint[8 + 191] = '.';
    strcpy(endpoint + 261, ":65535/x");
    memset(sub + 6, 'b', FIG_VAPID_SUB_MAX - 6);
    sub[FIG_VAPID_SUB_MAX] = '\0';
    const char *origin = origin_of(endpoint);
    assert_int_equal(fig_vapid_header(&key, origin, sub, INT64_MAX - FIG_VAPID_LIFE, h, sizeof h,
                                      &msg), FIG_OK);
    assert_int_equal(fig_vapid_header(&key, origin, sub, 0, h, 200, &msg), FIG_ERR_SPACE);
    strcat(sub, "b");
    assert_int_equal(fig_vapid_header(&key, origin, sub, 0, h, sizeof h, &msg), FIG_ERR_INPUT);
}

static void test_vapid_refusals(void **state)
{
    (void)state;
    fig_vapid_key_t key;
    char h[FIG_VAPID_HEADER_CAP];
    static const char *const subs[][2] = {
        {"ops@x.org", "mailto: or https:"}, {"mailto:", "mailto: or https:"},
        {"http://x.org", "mailto: or https:"}, {"mailto:a b@x.org", "may not hold a space"},
        {"mailto:a\"@x.org", "quote"}, {"https://x.org/\\", "backslash"},
        {"mailto:\xc3\xa9@x.org", "outside ASCII"}, {"", "mailto: or https:"},
    };
    assert_int_equal(fig_vapid_key_read(&key, A_AS_PRIVATE, NULL), FIG_OK);
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        fig_msg_t msg = {0};
        assert_int_equal(fig_vapid_header(&key, "https://p.example", subs[i][0], 0, h, sizeof h,
                                          &msg), FIG_ERR_INPUT);
        if (!strstr(msg.text, subs[i][1]))
            fail_msg("%s: \"%s\"", subs[i][0], msg.text);
    }
    static const char *const origins[] = {
        "http://p.example", "https://", "https://p.example/", "https://P.example",
        "https://p.example\",\"x", "p.example",
    };
    for (size_t i = 0; i < sizeof origins / sizeof *origins; i++) {
        fig_msg_t m = {0};
        if (fig_vapid_header(&key, origins[i], "mailto:a@b", 0, h, sizeof h, &m) != FIG_ERR_INPUT)
            fail_msg("%s taken as an origin", origins[i]);
        assert_string_equal(m.text, "the VAPID audience is not an https origin");
    }
    fig_msg_t msg = {0};
    assert_int_equal(fig_vapid_header(&key, "https://p.example", "mailto:a@b", -1, h, sizeof h,
                                      NULL), FIG_ERR_INPUT);
    assert_int_equal(fig_vapid_header(&key, "https://p.example", "mailto:a@b",
                                      INT64_MAX - FIG_VAPID_LIFE + 1, h, sizeof h, NULL),
                     FIG_ERR_INPUT);
    /* private keys' texts */
    static const char *const texts[] = {
        "", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",   /* 0 */
        "__________________________________________8",      /* > n */
        "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oR",       /* 31 bytes */
        "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRwA",     /* 33 */
        "yfWPiYE+n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        memset(&key, 0x5a, sizeof key);
        assert_int_equal(fig_vapid_key_read(&key, texts[i], &msg), FIG_ERR_INPUT);
        assert_non_null(strstr(msg.text, "the VAPID private key"));
    }
}

/* For tests/net/test_push_crypt.py: with FIG_PUSH_EXPORT naming a file, a
 * new VAPID key and the header for FIG_PUSH_ENDPOINT and FIG_PUSH_SUB at
 * this time, and FIG_PUSH_PLAIN encrypted to FIG_PUSH_P256DH and
 * FIG_PUSH_AUTH (base64url), one "name value" line each, for Python's
 * cryptography to check. */
static void test_export(void **state)
{
    (void)state;
    const char *path = getenv("FIG_PUSH_EXPORT");
    if (!path)
        skip();
    const char *endpoint = getenv("FIG_PUSH_ENDPOINT"), *sub = getenv("FIG_PUSH_SUB");
    const char *plain = getenv("FIG_PUSH_PLAIN"), *p256dh = getenv("FIG_PUSH_P256DH");
    const char *auth = getenv("FIG_PUSH_AUTH");
    assert_true(endpoint && sub && plain && p256dh && auth);
    fig_vapid_key_t key;
    char priv[FIG_VAPID_PRIVATE_TEXT], pub[FIG_VAPID_PUBLIC_TEXT], h[FIG_VAPID_HEADER_CAP];
    char text[2 * FIG_PUSH_BODY_MAX];
    uint8_t ua[80], secret[20], body[FIG_PUSH_BODY_MAX];
    size_t ua_len = 0, auth_len = 0, len = 0;
    fig_msg_t msg = {0};
    int64_t now = (int64_t)time(NULL);
    assert_int_equal(fig_vapid_key_new(&key, &msg), FIG_OK);
    fig_vapid_private_text(&key, priv);
    fig_vapid_public_text(&key, pub);
    if (fig_vapid_header(&key, origin_of(endpoint), sub, now, h, sizeof h, &msg) != FIG_OK)
        fail_msg("%s", msg.text);
    assert_int_equal(fig_b64url_decode(p256dh, strlen(p256dh), ua, sizeof ua, &ua_len, NULL), FIG_OK);
    assert_int_equal(fig_b64url_decode(auth, strlen(auth), secret, sizeof secret, &auth_len, NULL),
                     FIG_OK);
    fig_push_keys_t k = keys_of(ua, ua_len, secret, auth_len);
    if (fig_push_encrypt(&k, (const uint8_t *)plain, strlen(plain), body, sizeof body, &len,
                         &msg) != FIG_OK)
        fail_msg("%s", msg.text);
    assert_int_equal(fig_b64url_encode(body, len, text, sizeof text, NULL), FIG_OK);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "now %lld\nprivate %s\npublic %s\nheader %s\nbody %s\n", (long long)now, priv, pub,
            h, text);
    assert_int_equal(fclose(f), 0);
}

/* ---- libcrypto's allocations failed one by one: libcrypto allocates
 * through the functions CRYPTO_set_mem_functions names, set before its
 * first allocation (main). 0: never fail. */
static long fail_at, counted;

static int fails(void)
{
    return fail_at > 0 && ++counted == fail_at;
}

static void *sweep_malloc(size_t n, const char *file, int line)
{
    (void)file, (void)line;
    return fails() ? NULL : malloc(n);
}

static void *sweep_realloc(void *p, size_t n, const char *file, int line)
{
    (void)file, (void)line;
    return fails() ? NULL : realloc(p, n);
}

static void sweep_free(void *p, const char *file, int line)
{
    (void)file, (void)line;
    free(p);
}

/* One of the calls swept: 0 Appendix A's encryption, 1 its decryption, 2
 * an encryption with a new key, 3 a VAPID header with a new key, 4 a
 * p256dh off the curve. Checks what it made when it succeeded. */
static fig_err_t swept(int op, const vectors_t *v, fig_msg_t *msg)
{
    uint8_t out[FIG_PUSH_BODY_MAX];
    size_t n = 0;
    fig_push_keys_t k = keys_of(v->ua_pub, 65, v->auth, 16);
    fig_vapid_key_t key;
    char h[FIG_VAPID_HEADER_CAP];
    fig_err_t rc;
    switch (op) {
    case 0:
        rc = fig_push_encrypt_with(&k, v->as_priv, v->salt, (const uint8_t *)A_PLAIN,
                                   strlen(A_PLAIN), out, sizeof out, &n, msg);
        if (rc == FIG_OK)
            assert_memory_equal(out, v->body, v->body_len);
        return rc;
    case 1:
        rc = fig_push_decrypt(v->ua_priv, v->auth, v->body, v->body_len, out, sizeof out, &n, msg);
        if (rc == FIG_OK)
            assert_memory_equal(out, A_PLAIN, n);
        return rc;
    case 2:
        return fig_push_encrypt(&k, (const uint8_t *)"x", 1, out, sizeof out, &n, msg);
    case 3:
        rc = fig_vapid_key_new(&key, msg);
        return rc ? rc : fig_vapid_header(&key, "https://p.example", "mailto:a@b", 0, h,
                                          sizeof h, msg);
    default:
        out[0] = 0x04;
        memset(out + 1, 7, 64);
        k.p256dh = out;
        return fig_push_encrypt(&k, (const uint8_t *)"x", 1, out + 65, 100, &n, msg);
    }
}

static void test_alloc_sweep(void **state)
{
    (void)state;
    vectors_t v;
    vectors(&v);
    for (int op = 0; op < 5; op++) {
        fig_msg_t msg = {0};
        fig_err_t want = swept(op, &v, &msg);   /* libcrypto's first uses, unswept */
        long k = 1;
        for (;; k++) {
            msg.text[0] = '\0';
            fail_at = k;
            counted = 0;
            fig_err_t rc = swept(op, &v, &msg);
            fail_at = 0;
            if (counted < k) {   /* no allocation failed: the call as it is */
                assert_int_equal(rc, want);
                break;
            }
            if (rc == FIG_OK)   /* libcrypto may do without what it could not have */
                continue;
            /* out of memory, or (for bad input) the refusal when it came first */
            if ((rc != FIG_ERR_STATE && rc != want) || msg.text[0] == '\0')
                fail_msg("op %d, allocation %ld failed: %d \"%s\"", op, k, rc, msg.text);
        }
        print_message("op %d: %ld allocations failed one by one\n", op, k - 1);
        assert_true(k > 1);
    }
}

int main(void)
{
    if (!CRYPTO_set_mem_functions(sweep_malloc, sweep_realloc, sweep_free)) {
        fprintf(stderr, "libcrypto allocated before main\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appendix_a_steps), cmocka_unit_test(test_appendix_a_body),
        cmocka_unit_test(test_round_trip),       cmocka_unit_test(test_tampering),
        cmocka_unit_test(test_truncated),        cmocka_unit_test(test_padding),
        cmocka_unit_test(test_bad_keys),
        cmocka_unit_test(test_vapid_header),
        cmocka_unit_test(test_vapid_refusals),   cmocka_unit_test(test_export),
        cmocka_unit_test(test_alloc_sweep),
    };
    if (getenv("FIG_PUSH_EXPORT"))
        cmocka_set_test_filter("test_export");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
