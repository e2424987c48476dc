/* SPDX-License-Identifier: MIT */
/* fuzz_push_decrypt.c - libFuzzer target for Web Push's decryption
 * (src/net/push/push_crypt.h), seeded from tests/fuzz/corpus-push (RFC 8291
 * Appendix A's body and truncations of it).
 *
 * The input is a body, opened with Appendix A's user agent key and auth
 * secret. Beyond "no crash": the answer is the same twice; a refusal has a
 * message and no plaintext; a plaintext is shorter than the body by at
 * least the header, the delimiter and the tag. An input that fits one
 * message is also encrypted with Appendix A's sender key and salt and
 * decrypted back, to itself; a body that says what such an encryption says
 * (rs 4096, Appendix A's salt and key, no padding) and opens is exactly that
 * encryption of its plaintext. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/base/b64url.h"
#include "net/push/push_crypt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

static void decode(const char *text, uint8_t *out, size_t len)
{
    size_t n = 0;
    check(fig_b64url_decode(text, strlen(text), out, len, &n, NULL) == FIG_OK && n == len);
}

/* Appendix A's keys. */
typedef struct {
    uint8_t ua_priv[32], ua_pub[65], as_priv[32], salt[16], auth[16];
} vectors_t;

static void vectors(vectors_t *v)
{
    decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94", v->ua_priv, 32);
    decode("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcx"
           "aOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", v->ua_pub, 65);
    decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw", v->as_priv, 32);
    decode("DGv6ra1nlYgDCS1FRnbzlw", v->salt, 16);
    decode("BTBZMqHH6r4Tts7J_aSIgg", v->auth, 16);
}

/* The input as plaintext: encrypted, then opened again. */
static void round_trip(const vectors_t *v, const uint8_t *data, size_t size)
{
    uint8_t body[FIG_PUSH_BODY_MAX], back[FIG_PUSH_BODY_MAX];
    fig_push_keys_t k = {v->ua_pub, sizeof v->ua_pub, v->auth, sizeof v->auth};
    size_t n = 0, m = 0;
    check(fig_push_encrypt_with(&k, v->as_priv, v->salt, data, size, body, sizeof body, &n, NULL)
          == FIG_OK);
    check(n == FIG_PUSH_BODY_LEN(size));
    check(fig_push_decrypt(v->ua_priv, v->auth, body, n, back, sizeof back, &m, NULL) == FIG_OK);
    check(m == size && memcmp(back, data, size) == 0);
}

/* An opened body that says what Appendix A's encryption of its plaintext
 * would say is that encryption. */
static void same_as_encryption(const vectors_t *v, const uint8_t *data, size_t size,
                               const uint8_t *plain, size_t len)
{
    static const uint8_t rs[4] = {0, 0, 0x10, 0};
    uint8_t again[FIG_PUSH_BODY_MAX];
    fig_push_keys_t k = {v->ua_pub, sizeof v->ua_pub, v->auth, sizeof v->auth};
    size_t n = 0;
    if (size != FIG_PUSH_BODY_LEN(len) || memcmp(data, v->salt, 16) != 0
        || memcmp(data + 16, rs, 4) != 0)
        return;
    check(fig_push_encrypt_with(&k, v->as_priv, v->salt, plain, len, again, sizeof again, &n,
                                NULL) == FIG_OK);
    check(n != size || memcmp(data + 21, again + 21, 65) != 0 || memcmp(again, data, size) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t a[FIG_PUSH_BODY_MAX], b[FIG_PUSH_BODY_MAX];
    vectors_t v;
    vectors(&v);
    size_t na = 7, nb = 7;
    fig_msg_t ma = {0}, mb = {0};
    fig_err_t ra = fig_push_decrypt(v.ua_priv, v.auth, data, size, a, sizeof a, &na, &ma);
    fig_err_t rb = fig_push_decrypt(v.ua_priv, v.auth, data, size, b, sizeof b, &nb, &mb);
    check(ra == rb && na == nb && strcmp(ma.text, mb.text) == 0);
    if (ra != FIG_OK) {
        check(ma.text[0] != '\0' && na == 0);
    } else {
        check(size >= FIG_PUSH_BODY_LEN(na) && memcmp(a, b, na) == 0);
        same_as_encryption(&v, data, size, a, na);
    }
    if (size <= FIG_PUSH_PLAIN_MAX)
        round_trip(&v, data, size);
    return 0;
}
