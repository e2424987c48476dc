/* SPDX-License-Identifier: MIT */
/* token.c - OS randomness, tokens and their hashes (token.h).
 *
 * SHA-256 is OpenSSL's (libcrypto, through the EVP interface that OpenSSL 3
 * keeps undeprecated). getrandom(2) blocks only until the kernel's pool is
 * first seeded at boot, then never. */
#include <errno.h>
#include <string.h>

#include <openssl/evp.h>

#include "host/util.h"
#include "net/base/token.h"

static void hex(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

fig_err_t fig_token_new(char out[FIG_TOKEN_HEX + 1], fig_msg_t *msg)
{
    unsigned char raw[FIG_TOKEN_HEX / 2];
    fig_err_t rc = fig_random_bytes(raw, sizeof raw, msg);
    if (rc)
        return rc;
    hex(raw, sizeof raw, out);
    return FIG_OK;
}

fig_err_t fig_sha256_hex(const void *text, size_t len, char out[FIG_HASH_HEX + 1],
                         fig_msg_t *msg)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    if (!EVP_Digest(text, len, md, &mdlen, EVP_sha256(), NULL) || mdlen != FIG_HASH_HEX / 2)
        return fig_fail(msg, FIG_ERR_SPACE, N_("cannot compute a SHA-256 hash"));
    hex(md, mdlen, out);
    return FIG_OK;
}

bool fig_hash_equal(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned diff = la != lb;
    size_t n = la < lb ? la : lb;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

fig_err_t fig_code_new(char *out, int len, fig_msg_t *msg)
{
    static const char alphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";   /* 31 signs */
    int i = 0;
    while (i < len) {
        unsigned char raw[16];
        fig_err_t rc = fig_random_bytes(raw, sizeof raw, msg);
        if (rc)
            return rc;
        /* Rejection: 248 = 8 x 31, so every sign is equally likely. */
        for (size_t k = 0; k < sizeof raw && i < len; k++)
            if (raw[k] < 248)
                out[i++] = alphabet[raw[k] % 31];
    }
    out[len] = '\0';
    return FIG_OK;
}
