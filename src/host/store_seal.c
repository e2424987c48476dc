/* SPDX-License-Identifier: MIT */
/* store_seal.c - sealed saved games (store_seal.h).
 *
 * The keystream is the one seed derivation (rng.h) run over the key, the
 * nonce and the word's index; a check of the clear record, keyed too, tells
 * a wrong key or an altered byte from a good one (what this protects against,
 * and what not: store.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/store_file.h"
#include "host/store_header.h"
#include "host/store_seal.h"
#include "host/util.h"

enum { KEY_WORDS = STORE_KEY_WORDS, SEAL_BYTES_PER_LINE = 32 };

static const char seal_tag[] = "#= sealed 1 ";

/* Word i of the keystream of key k and nonce n: two rounds of the one seed
 * derivation, so that every word depends on all of the key. */
static uint64_t stream_word(const uint64_t k[KEY_WORDS], uint64_t nonce, uint64_t i)
{
    return fig_seed_derive(fig_seed_derive(k[0] ^ nonce, k[1], i) ^ k[2], k[3], i);
}

static void xor_stream(const uint64_t k[KEY_WORDS], uint64_t nonce, unsigned char *p, size_t n)
{
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            w = stream_word(k, nonce, i / 8);
        p[i] ^= (unsigned char)(w >> (8 * (i % 8)));
    }
}

/* A check of the clear record: a wrong key or an altered byte changes it. */
static uint64_t record_check(const uint64_t k[KEY_WORDS], const unsigned char *p, size_t n)
{
    uint64_t h = k[3];
    for (size_t i = 0; i < n; i++)
        h = fig_seed_derive(h, p[i], i);
    return h;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parses exactly 16 hex digits at p into *v. */
static bool hex_word(const char *p, uint64_t *v)
{
    *v = 0;
    for (int i = 0; i < 16; i++) {
        int d = hex_digit(p[i]);
        if (d < 0)
            return false;
        *v = *v << 4 | (uint64_t)d;
    }
    return true;
}

/* The key of keyfile ("figaro key 1 HEX64") into k; *missing when there is
 * none. */
static fig_err_t read_key(const char *keyfile, uint64_t k[KEY_WORDS], bool *missing,
                          const fig_tr_t *tr, fig_msg_t *msg)
{
    char *text;
    size_t len;
    fig_msg_t why;
    *missing = false;
    if (access(keyfile, F_OK) != 0 && errno == ENOENT) {
        *missing = true;
        return store_fail(msg, tr, 0, FIG_ERR_INPUT,
                          N_("the key of sealed games, %s, is missing"), keyfile);
    }
    fig_err_t rc = fig_read_file(keyfile, 256, &text, &len, tr, &why);
    if (rc != FIG_OK)
        return store_fail(msg, tr, 0, rc, "%s: %s", keyfile, why.text);
    static const char magic[] = "figaro key 1 ";
    bool ok = len >= sizeof magic - 1 + 16 * KEY_WORDS &&
              memcmp(text, magic, sizeof magic - 1) == 0;
    for (int i = 0; i < KEY_WORDS && ok; i++)
        ok = hex_word(text + sizeof magic - 1 + 16 * i, &k[i]);
    free(text);
    if (!ok)
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("%s is not a key of sealed games"),
                          keyfile);
    return FIG_OK;
}

fig_err_t store_seal_key(const char *keyfile, const char *root, bool create,
                         uint64_t k[STORE_KEY_WORDS], const fig_tr_t *tr, fig_msg_t *msg)
{
    bool missing;
    fig_err_t rc = read_key(keyfile, k, &missing, tr, msg);
    if (rc == FIG_OK || !missing || !create)
        return rc;
    if ((rc = store_file_make_dirs(root, tr, msg)) != FIG_OK)
        return rc;
    char text[16 + 16 * KEY_WORDS + 2];
    size_t n = (size_t)snprintf(text, sizeof text, "figaro key 1 ");
    for (int i = 0; i < KEY_WORDS; i++) {
        uint64_t word;
        if ((rc = fig_random_u64(&word, msg)) != FIG_OK)
            return rc;
        fig_putf(text, sizeof text, &n, "%016" PRIx64, word);
    }
    fig_putf(text, sizeof text, &n, "\n");
    rc = store_file_write(keyfile, text, true, tr, msg);   /* mkstemp: mode 0600 */
    if (rc != FIG_OK && rc != FIG_ERR_STATE)
        return rc;
    return read_key(keyfile, k, &missing, tr, msg);   /* ours, or one made at the same moment */
}

/* The line where text's sealed record starts, or NULL. */
static const char *seal_line(const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (end - i >= sizeof seal_tag - 1 && memcmp(text + i, seal_tag, sizeof seal_tag - 1) == 0)
            return text + i;
        i = end + 1;
    }
    return NULL;
}

bool fig_store_is_sealed(const char *text, size_t len)
{
    return !memchr(text, '\0', len) && seal_line(text, len);
}

fig_err_t store_unseal(const char *keyfile, const char *path, const char *text, size_t len,
                       char **out, size_t *outlen, const fig_tr_t *tr, fig_msg_t *msg)
{
    const char *tag = seal_line(text, len);
    uint64_t nonce, check, k[KEY_WORDS];
    unsigned long long rlen = 0;
    char *end;
    const char *p = tag + sizeof seal_tag - 1;
    if (!hex_word(p, &nonce) || p[16] != ' ' ||
        (errno = 0, rlen = strtoull(p + 17, &end, 10), errno) || rlen > FIG_STORE_FILE_MAX ||
        *end != ' ' || !hex_word(end + 1, &check) ||
        (end[17] != '\n' && end[17] != '\r' && end[17] != '\0'))
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("%s: its sealed record is damaged"), path);
    fig_err_t rc = store_seal_key(keyfile, NULL, false, k, tr, msg);
    if (rc != FIG_OK)
        return rc;
    char *clear = malloc(len + rlen + 2);
    if (!clear)
        return store_fail(msg, tr, 0, FIG_ERR_SPACE, N_("out of memory"));
    size_t n = 0, got = 0;
    unsigned char *rec = (unsigned char *)clear + len + 1;   /* the record, then moved */
    bool damaged = false;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        if (e - i >= 2 && text[i] == '#' && text[i + 1] == '=') {
            size_t j = i + 3, stop = e > i && text[e - 1] == '\r' ? e - 1 : e;
            if (text + i == tag)
                j = stop;   /* the tag line itself */
            else if (stop < j || (stop - j) % 2 || got + (stop - j) / 2 > rlen)
                damaged = true;
            for (; j < stop && !damaged; j += 2) {
                int hi = hex_digit(text[j]), lo = hex_digit(text[j + 1]);
                if (hi < 0 || lo < 0)
                    damaged = true;
                else
                    rec[got++] = (unsigned char)(hi << 4 | lo);
            }
        } else {
            memcpy(clear + n, text + i, e - i);
            n += e - i;
            clear[n++] = '\n';
        }
        i = e + 1;
    }
    static const char magic[] = "figaro 1";
    if (!damaged && got == rlen)
        xor_stream(k, nonce, rec, got);
    if (damaged || got != rlen || got < sizeof magic - 1 || memcmp(rec, magic, sizeof magic - 1) ||
        record_check(k, rec, got) != check) {
        free(clear);
        return store_fail(msg, tr, 0, FIG_ERR_INPUT,
                          N_("%s: its sealed record is damaged, or %s is not the key it was sealed "
                             "with"),
                          path, keyfile);
    }
    memmove(clear + n, rec, got);
    n += got;
    clear[n] = '\0';
    *out = clear;
    *outlen = n;
    return FIG_OK;
}

size_t store_seal_size(size_t rec)
{
    return sizeof seal_tag + 72 + rec * 2 + (rec / SEAL_BYTES_PER_LINE + 1) * 4;
}

fig_err_t store_seal_write(const uint64_t k[STORE_KEY_WORDS], const fig_game_t *g, size_t rec,
                           char *buf, size_t cap, size_t *n, const fig_tr_t *tr, fig_msg_t *msg)
{
    unsigned char *clear = malloc(rec + 1);
    if (!clear)
        return store_fail(msg, tr, 0, FIG_ERR_SPACE, N_("out of memory"));
    fig_fgn_write(g, (char *)clear, rec + 1);
    uint64_t nonce, check = record_check(k, clear, rec);
    fig_err_t rc = fig_random_u64(&nonce, msg);
    if (rc != FIG_OK) {
        free(clear);
        return rc;
    }
    xor_stream(k, nonce, clear, rec);
    fig_putf(buf, cap, n, "%s%016" PRIx64 " %zu %016" PRIx64 "\n", seal_tag, nonce, rec, check);
    for (size_t i = 0; i < rec; i += SEAL_BYTES_PER_LINE) {
        fig_putf(buf, cap, n, "#= ");
        for (size_t j = i; j < rec && j < i + SEAL_BYTES_PER_LINE; j++)
            fig_putf(buf, cap, n, "%02x", clear[j]);
        fig_putf(buf, cap, n, "\n");
    }
    free(clear);
    return FIG_OK;
}
