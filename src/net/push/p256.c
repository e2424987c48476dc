/* SPDX-License-Identifier: MIT */
/* p256.c - P-256 keys from and to bytes, checked, and ECDH (p256.h).
 *
 * Keys become EVP_PKEYs through OSSL_PARAM (OpenSSL 3's provider interface);
 * the EC_GROUP and EC_POINT calls, which OpenSSL 3 keeps, only check a point
 * and multiply a scalar by the generator, so that every check has a message
 * of its own instead of a code from deep inside libcrypto. */
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include "net/push/p256.h"

static const char GROUP[] = "prime256v1";

fig_err_t fig_p256_failed(fig_msg_t *msg)
{
    return fig_fail(msg, FIG_ERR_STATE, "the cryptography library failed (out of memory?)");
}

/* An EVP_PKEY of `selection` (EVP_PKEY_KEYPAIR or EVP_PKEY_PUBLIC_KEY) from a
 * scalar (may be NULL) and a point, both already checked. */
static fig_err_t from_data(EVP_PKEY **out, int selection, const BIGNUM *d,
                           const uint8_t pub[FIG_P256_PUBLIC], fig_msg_t *msg)
{
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    int ok = bld && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, GROUP, 0)
             && OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub,
                                                 FIG_P256_PUBLIC)
             && (!d || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d))
             && (params = OSSL_PARAM_BLD_to_param(bld)) != NULL
             && (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) != NULL
             && EVP_PKEY_fromdata_init(ctx) == 1
             && EVP_PKEY_fromdata(ctx, out, selection, params) == 1;
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);   /* clears the private key's copy too (OSSL_PARAM_BLD) */
    OSSL_PARAM_BLD_free(bld);
    return ok ? FIG_OK : fig_p256_failed(msg);
}

/* d * G as 65 bytes, for a scalar checked to lie in [1, n-1]. */
static fig_err_t scalar_point(const EC_GROUP *g, const BIGNUM *d, uint8_t pub[FIG_P256_PUBLIC],
                              const char *what, fig_msg_t *msg)
{
    if (BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(g)) >= 0)
        return fig_fail(msg, FIG_ERR_INPUT, "%s is not a P-256 private key", what);
    EC_POINT *p = EC_POINT_new(g);
    int ok = p && EC_POINT_mul(g, p, d, NULL, NULL, NULL) == 1
             && EC_POINT_point2oct(g, p, POINT_CONVERSION_UNCOMPRESSED, pub, FIG_P256_PUBLIC,
                                   NULL) == FIG_P256_PUBLIC;
    EC_POINT_free(p);
    return ok ? FIG_OK : fig_p256_failed(msg);
}

/* The scalar's point and, if out is not NULL, its EVP_PKEY. */
static fig_err_t private_key(EVP_PKEY **out, const uint8_t priv[FIG_P256_PRIVATE],
                             uint8_t pub[FIG_P256_PUBLIC], const char *what, fig_msg_t *msg)
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    BIGNUM *d = BN_secure_new();
    fig_err_t rc = FIG_OK;
    if (!g || !d || !BN_bin2bn(priv, FIG_P256_PRIVATE, d))
        rc = fig_p256_failed(msg);
    if (rc == FIG_OK)
        rc = scalar_point(g, d, pub, what, msg);
    if (rc == FIG_OK && out)
        rc = from_data(out, EVP_PKEY_KEYPAIR, d, pub, msg);
    BN_clear_free(d);
    EC_GROUP_free(g);
    return rc;
}

fig_err_t fig_p256_public(const uint8_t priv[FIG_P256_PRIVATE], uint8_t pub[FIG_P256_PUBLIC],
                          const char *what, fig_msg_t *msg)
{
    return private_key(NULL, priv, pub, what, msg);
}

fig_err_t fig_p256_private_pkey(EVP_PKEY **out, const uint8_t priv[FIG_P256_PRIVATE],
                                const char *what, fig_msg_t *msg)
{
    uint8_t pub[FIG_P256_PUBLIC];
    *out = NULL;
    return private_key(out, priv, pub, what, msg);
}

/* Whether libcrypto's errors, taken off its queue, include a failed
 * allocation: then a refusal says nothing of the input. */
static int out_of_memory(void)
{
    int oom = 0;
    for (unsigned long e; (e = ERR_get_error()) != 0;)
        oom |= ERR_GET_REASON(e) == ERR_GET_REASON(ERR_R_MALLOC_FAILURE);
    return oom;
}

/* Whether 65 bytes in the uncompressed form are a point of the curve other
 * than infinity: FIG_OK, FIG_ERR_INPUT, or FIG_ERR_STATE when libcrypto
 * could not tell. libcrypto's error queue, which nothing else here reads,
 * is emptied first so that it tells this call's failures. */
static fig_err_t check_point(const uint8_t pub[FIG_P256_PUBLIC], const char *what,
                             fig_msg_t *msg)
{
    ERR_clear_error();
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    EC_POINT *p = g ? EC_POINT_new(g) : NULL;
    /* oct2point refuses a point off the curve; the checks after it say so
     * even where a libcrypto version would not. */
    int ok = p && EC_POINT_oct2point(g, p, pub, FIG_P256_PUBLIC, NULL) == 1
             && !EC_POINT_is_at_infinity(g, p) && EC_POINT_is_on_curve(g, p, NULL) == 1;
    EC_POINT_free(p);
    EC_GROUP_free(g);
    if (!p || (!ok && out_of_memory()))
        return fig_p256_failed(msg);
    ERR_clear_error();
    if (!ok)
        return fig_fail(msg, FIG_ERR_INPUT, "%s is not a point of the P-256 curve", what);
    return FIG_OK;
}

fig_err_t fig_p256_check_public(const uint8_t *pub, size_t len, const char *what, fig_msg_t *msg)
{
    if (len != FIG_P256_PUBLIC)
        return fig_fail(msg, FIG_ERR_INPUT,
                        "%s must be a 65-byte P-256 public key, not %zu bytes", what, len);
    if (pub[0] != 0x04)   /* 0x00 alone is infinity; 0x02, 0x03 compressed forms */
        return fig_fail(msg, FIG_ERR_INPUT,
                        "%s is not an uncompressed P-256 point (its first byte is %u, not 4)",
                        what, (unsigned)pub[0]);
    return check_point(pub, what, msg);
}

fig_err_t fig_p256_public_pkey(EVP_PKEY **out, const uint8_t *pub, size_t len,
                               const char *what, fig_msg_t *msg)
{
    *out = NULL;
    fig_err_t rc = fig_p256_check_public(pub, len, what, msg);
    return rc ? rc : from_data(out, EVP_PKEY_PUBLIC_KEY, NULL, pub, msg);
}

fig_err_t fig_p256_new(uint8_t priv[FIG_P256_PRIVATE], uint8_t pub[FIG_P256_PUBLIC],
                       fig_msg_t *msg)
{
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    BIGNUM *d = NULL;
    size_t len = 0;
    int ok = key && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1
             && BN_bn2binpad(d, priv, FIG_P256_PRIVATE) == FIG_P256_PRIVATE
             && EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, pub,
                                                FIG_P256_PUBLIC, &len) == 1
             && len == FIG_P256_PUBLIC && pub[0] == 0x04;
    BN_clear_free(d);
    EVP_PKEY_free(key);
    if (!ok) {
        OPENSSL_cleanse(priv, FIG_P256_PRIVATE);
        return fig_p256_failed(msg);
    }
    return FIG_OK;
}

fig_err_t fig_p256_ecdh(const uint8_t priv[FIG_P256_PRIVATE], const uint8_t *peer, size_t len,
                        uint8_t secret[FIG_P256_SECRET], const char *what, fig_msg_t *msg)
{
    EVP_PKEY *own = NULL, *other = NULL;
    fig_err_t rc = fig_p256_public_pkey(&other, peer, len, what, msg);
    if (rc == FIG_OK)
        rc = fig_p256_private_pkey(&own, priv, "the private key", msg);
    if (rc == FIG_OK) {
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, own, NULL);
        size_t n = FIG_P256_SECRET;
        if (!ctx || EVP_PKEY_derive_init(ctx) != 1 || EVP_PKEY_derive_set_peer(ctx, other) != 1
            || EVP_PKEY_derive(ctx, secret, &n) != 1 || n != FIG_P256_SECRET)
            rc = fig_p256_failed(msg);
        EVP_PKEY_CTX_free(ctx);
    }
    EVP_PKEY_free(own);
    EVP_PKEY_free(other);
    return rc;
}
