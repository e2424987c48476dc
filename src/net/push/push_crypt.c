/* SPDX-License-Identifier: MIT */
/* push_crypt.c - Web Push message encryption, one aes128gcm record
 * (push_crypt.h).
 *
 * HKDF is libcrypto's EVP_KDF "HKDF" in its extract-only and expand-only
 * modes, one call per step of RFC 8291 §3.3-3.4, so that each step's result
 * can be compared with the RFC's; AES-128-GCM is EVP_CIPHER's. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/kdf.h>

#include "host/util.h"
#include "net/push/push_crypt.h"

static const char KEY_INFO[] = "WebPush: info";            /* each followed by its NUL */
static const char CEK_INFO[] = "Content-Encoding: aes128gcm";
static const char NONCE_INFO[] = "Content-Encoding: nonce";

enum { DELIMITER = 0x02 };   /* ends the last record's data (RFC 8188 §2) */

/* One HKDF step with SHA-256: extract (key = the input keying material,
 * salt) or expand (key = the pseudorandom key, info). Returns 1 on success. */
static int hkdf(int mode, const uint8_t *key, size_t key_len, const uint8_t *salt_or_info,
                size_t len, uint8_t *out, size_t out_len)
{
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
    const char *name = mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY ? OSSL_KDF_PARAM_SALT
                                                              : OSSL_KDF_PARAM_INFO;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0),
        OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key, key_len),
        OSSL_PARAM_construct_octet_string(name, (void *)salt_or_info, len),
        OSSL_PARAM_construct_end(),
    };
    int ok = ctx && EVP_KDF_derive(ctx, out, out_len, params) == 1;
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
    return ok;
}

fig_err_t fig_push_derive(const uint8_t ecdh_secret[FIG_P256_SECRET],
                          const uint8_t auth[FIG_PUSH_AUTH],
                          const uint8_t ua_public[FIG_P256_PUBLIC],
                          const uint8_t as_public[FIG_P256_PUBLIC],
                          const uint8_t salt[FIG_PUSH_SALT], fig_push_derived_t *out,
                          fig_msg_t *msg)
{
    enum { EXTRACT = EVP_KDF_HKDF_MODE_EXTRACT_ONLY, EXPAND = EVP_KDF_HKDF_MODE_EXPAND_ONLY };
    uint8_t key_info[sizeof KEY_INFO + 2 * FIG_P256_PUBLIC];
    memcpy(key_info, KEY_INFO, sizeof KEY_INFO);
    memcpy(key_info + sizeof KEY_INFO, ua_public, FIG_P256_PUBLIC);
    memcpy(key_info + sizeof KEY_INFO + FIG_P256_PUBLIC, as_public, FIG_P256_PUBLIC);
    int ok = hkdf(EXTRACT, ecdh_secret, FIG_P256_SECRET, auth, FIG_PUSH_AUTH, out->prk_key,
                  sizeof out->prk_key)
             && hkdf(EXPAND, out->prk_key, sizeof out->prk_key, key_info, sizeof key_info,
                     out->ikm, sizeof out->ikm)
             && hkdf(EXTRACT, out->ikm, sizeof out->ikm, salt, FIG_PUSH_SALT, out->prk,
                     sizeof out->prk)
             && hkdf(EXPAND, out->prk, sizeof out->prk, (const uint8_t *)CEK_INFO,
                     sizeof CEK_INFO, out->cek, sizeof out->cek)
             && hkdf(EXPAND, out->prk, sizeof out->prk, (const uint8_t *)NONCE_INFO,
                     sizeof NONCE_INFO, out->nonce, sizeof out->nonce);
    if (!ok) {
        OPENSSL_cleanse(out, sizeof *out);
        return fig_p256_failed(msg);
    }
    return FIG_OK;
}

/* AES-128-GCM of plain and the delimiter into out: len + 1 bytes, then the
 * tag. Returns 1 on success. */
static int seal(const fig_push_derived_t *k, const uint8_t *plain, size_t len, uint8_t *out)
{
    static const uint8_t delimiter[1] = {DELIMITER};
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, m = 0, end = 0;
    int ok = c && EVP_EncryptInit_ex2(c, EVP_aes_128_gcm(), k->cek, k->nonce, NULL) == 1
             && EVP_EncryptUpdate(c, out, &n, plain, (int)len) == 1
             && EVP_EncryptUpdate(c, out + n, &m, delimiter, 1) == 1
             && EVP_EncryptFinal_ex(c, out + n + m, &end) == 1
             && (size_t)(n + m + end) == len + 1
             && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, FIG_PUSH_TAG, out + len + 1) == 1;
    EVP_CIPHER_CTX_free(c);
    return ok;
}

/* The header of a body: salt, rs, idlen, keyid. */
static void write_header(uint8_t *out, const uint8_t salt[FIG_PUSH_SALT],
                         const uint8_t as_public[FIG_P256_PUBLIC])
{
    memcpy(out, salt, FIG_PUSH_SALT);
    out[16] = (uint8_t)(FIG_PUSH_RS >> 24);
    out[17] = (uint8_t)(FIG_PUSH_RS >> 16);
    out[18] = (uint8_t)(FIG_PUSH_RS >> 8);
    out[19] = (uint8_t)FIG_PUSH_RS;
    out[20] = FIG_P256_PUBLIC;
    memcpy(out + 21, as_public, FIG_P256_PUBLIC);
}

fig_err_t fig_push_encrypt_with(const fig_push_keys_t *keys,
                                const uint8_t as_private[FIG_P256_PRIVATE],
                                const uint8_t salt[FIG_PUSH_SALT], const uint8_t *plain,
                                size_t len, uint8_t *out, size_t cap, size_t *out_len,
                                fig_msg_t *msg)
{
    *out_len = 0;
    if (keys->auth_len != FIG_PUSH_AUTH)
        return fig_fail(msg, FIG_ERR_INPUT, "auth must be a 16-byte secret, not %zu bytes",
                        keys->auth_len);
    if (len > FIG_PUSH_PLAIN_MAX)
        return fig_fail(msg, FIG_ERR_INPUT,
                        "a push message holds at most %d bytes, not %zu",
                        FIG_PUSH_PLAIN_MAX, len);
    if (cap < FIG_PUSH_BODY_LEN(len))
        return fig_fail(msg, FIG_ERR_SPACE, "no room for a push message's %zu bytes",
                        FIG_PUSH_BODY_LEN(len));
    uint8_t as_public[FIG_P256_PUBLIC], secret[FIG_P256_SECRET];
    fig_push_derived_t k;
    fig_err_t rc = fig_p256_ecdh(as_private, keys->p256dh, keys->p256dh_len, secret,
                                 "p256dh", msg);
    if (rc == FIG_OK)
        rc = fig_p256_public(as_private, as_public, "the sender's key", msg);
    if (rc == FIG_OK)
        rc = fig_push_derive(secret, keys->auth, keys->p256dh, as_public, salt, &k, msg);
    OPENSSL_cleanse(secret, sizeof secret);
    if (rc)
        return rc;
    write_header(out, salt, as_public);
    if (!seal(&k, plain, len, out + FIG_PUSH_HEADER))
        rc = fig_p256_failed(msg);
    else
        *out_len = FIG_PUSH_BODY_LEN(len);
    OPENSSL_cleanse(&k, sizeof k);
    return rc;
}

fig_err_t fig_push_encrypt(const fig_push_keys_t *keys, const uint8_t *plain, size_t len,
                           uint8_t *out, size_t cap, size_t *out_len, fig_msg_t *msg)
{
    uint8_t as_private[FIG_P256_PRIVATE], as_public[FIG_P256_PUBLIC], salt[FIG_PUSH_SALT];
    *out_len = 0;
    fig_err_t rc = fig_p256_new(as_private, as_public, msg);   /* one key pair a message */
    if (rc == FIG_OK)
        rc = fig_random_bytes(salt, sizeof salt, msg);
    if (rc == FIG_OK)
        rc = fig_push_encrypt_with(keys, as_private, salt, plain, len, out, cap, out_len, msg);
    OPENSSL_cleanse(as_private, sizeof as_private);
    return rc;
}

/* The record's data: AES-128-GCM opened into rec (ct_len - FIG_PUSH_TAG
 * bytes), the tag checked. Returns 1 when the tag is right, 0 when it is
 * wrong, -1 when libcrypto failed before it could tell. */
static int open_record(const fig_push_derived_t *k, const uint8_t *ct, size_t ct_len,
                       uint8_t *rec)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int data = (int)(ct_len - FIG_PUSH_TAG), n = 0, end = 0;
    int ready = c && EVP_DecryptInit_ex2(c, EVP_aes_128_gcm(), k->cek, k->nonce, NULL) == 1
                && EVP_DecryptUpdate(c, rec, &n, ct, data) == 1
                && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, FIG_PUSH_TAG,
                                       (void *)(ct + data)) == 1;
    int ok = ready ? EVP_DecryptFinal_ex(c, rec + n, &end) == 1 && n + end == data : -1;
    EVP_CIPHER_CTX_free(c);
    return ok;
}

/* What of a body's header this coding accepts: the record size, and a key
 * id that is a public key. */
static fig_err_t check_header(const uint8_t *body, size_t body_len, fig_msg_t *msg)
{
    if (body_len > FIG_PUSH_BODY_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "a push message is at most %d bytes, not %zu",
                        FIG_PUSH_BODY_MAX, body_len);
    if (body_len < FIG_PUSH_HEADER)
        return fig_fail(msg, FIG_ERR_INPUT,
                        "a push message's header is truncated: %zu bytes, not %d",
                        body_len, FIG_PUSH_HEADER);
    uint32_t rs = (uint32_t)body[16] << 24 | (uint32_t)body[17] << 16
                  | (uint32_t)body[18] << 8 | body[19];
    if (body[20] != FIG_P256_PUBLIC)
        return fig_fail(msg, FIG_ERR_INPUT,
                        "a push message's key id must be 65 bytes long, not %u",
                        (unsigned)body[20]);
    size_t ct_len = body_len - FIG_PUSH_HEADER;
    if (ct_len < FIG_PUSH_TAG + 1)
        return fig_fail(msg, FIG_ERR_INPUT, "a push message's record is truncated: %zu bytes",
                        ct_len);
    if (rs < FIG_PUSH_TAG + 2 || ct_len > rs)   /* RFC 8188 §2: rs >= 18; one record */
        return fig_fail(msg, FIG_ERR_INPUT,
                        "a push message must be one record: %zu bytes for a record size of %lu",
                        ct_len, (unsigned long)rs);
    return FIG_OK;
}

/* The data of a record before its padding: the delimiter, then zeros.
 * Returns its length or -1. */
static long unpad(const uint8_t *rec, size_t len)
{
    while (len > 0 && rec[len - 1] == 0)
        len--;
    return len > 0 && rec[len - 1] == DELIMITER ? (long)len - 1 : -1;
}

fig_err_t fig_push_decrypt(const uint8_t ua_private[FIG_P256_PRIVATE],
                           const uint8_t auth[FIG_PUSH_AUTH], const uint8_t *body,
                           size_t body_len, uint8_t *out, size_t cap, size_t *out_len,
                           fig_msg_t *msg)
{
    *out_len = 0;
    fig_err_t rc = check_header(body, body_len, msg);
    if (rc)
        return rc;
    const uint8_t *as_public = body + 21, *ct = body + FIG_PUSH_HEADER;
    size_t ct_len = body_len - FIG_PUSH_HEADER;
    uint8_t ua_public[FIG_P256_PUBLIC], secret[FIG_P256_SECRET], rec[FIG_PUSH_BODY_MAX];
    fig_push_derived_t k;
    rc = fig_p256_public(ua_private, ua_public, "the user agent's key", msg);
    if (rc == FIG_OK)
        rc = fig_p256_ecdh(ua_private, as_public, FIG_P256_PUBLIC, secret,
                           "the sender's key in the message", msg);
    if (rc == FIG_OK)
        rc = fig_push_derive(secret, auth, ua_public, as_public, body, &k, msg);
    OPENSSL_cleanse(secret, sizeof secret);
    if (rc)
        return rc;
    int opened = open_record(&k, ct, ct_len, rec);
    long data = opened == 1 ? unpad(rec, ct_len - FIG_PUSH_TAG) : -2;
    OPENSSL_cleanse(&k, sizeof k);
    if (opened < 0)
        rc = fig_p256_failed(msg);
    else if (data == -2)
        rc = fig_fail(msg, FIG_ERR_INPUT, "a push message's tag is wrong: not ours, or altered");
    else if (data < 0)
        rc = fig_fail(msg, FIG_ERR_INPUT, "a push message's padding is wrong");
    else if ((size_t)data > cap)
        rc = fig_fail(msg, FIG_ERR_SPACE, "no room for a push message's %ld bytes", data);
    else {
        memcpy(out, rec, (size_t)data);
        *out_len = (size_t)data;
    }
    OPENSSL_cleanse(rec, ct_len - FIG_PUSH_TAG);
    return rc;
}
