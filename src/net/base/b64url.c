/* SPDX-License-Identifier: MIT */
/* b64url.c - base64url encoding and its strict decoder (b64url.h).
 *
 * Four characters carry three bytes; a last group of two or three
 * characters carries one or two. The decoder checks the whole text before
 * it writes a byte, so out is left as it was on any refusal. */
#include "net/base/b64url.h"

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The 6-bit value of c in the url alphabet, or -1. */
static int value_of(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '-')
        return 62;
    if (c == '_')
        return 63;
    return -1;
}

size_t fig_b64url_encoded_len(size_t n)
{
    return n / 3 * 4 + (n % 3 ? n % 3 + 1 : 0);
}

fig_err_t fig_b64url_encode(const void *in, size_t n, char *out, size_t cap, fig_msg_t *msg)
{
    size_t need = fig_b64url_encoded_len(n);
    if (cap <= need)
        return fig_fail(msg, FIG_ERR_SPACE, "%zu bytes take %zu base64url characters, more "
                        "than the %zu there is room for", n, need, cap ? cap - 1 : 0);
    const uint8_t *b = in;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)b[i + 1] << 8;
        if (i + 2 < n)
            v |= b[i + 2];
        size_t chars = n - i >= 3 ? 4 : n - i + 1;
        for (size_t k = 0; k < chars; k++)
            out[o++] = alphabet[(v >> (18 - 6 * k)) & 63];
    }
    out[o] = '\0';
    return FIG_OK;
}

/* The character at 0-based index i, for a message: itself when printable. */
static fig_err_t bad_char(fig_msg_t *msg, const char *text, size_t i, const char *why)
{
    unsigned char c = (unsigned char)text[i];
    if (c > ' ' && c < 127)
        return fig_fail(msg, FIG_ERR_INPUT, "character %zu ('%c') %s", i + 1, c, why);
    return fig_fail(msg, FIG_ERR_INPUT, "character %zu (byte 0x%02x) %s", i + 1, c, why);
}

/* The length of the text without its padding, checked: the padding, if
 * any, completes the last group of four. */
static fig_err_t unpadded(const char *text, size_t len, size_t *m, fig_msg_t *msg)
{
    size_t pad = 0;
    while (pad < len && pad < 2 && text[len - 1 - pad] == '=')
        pad++;
    *m = len - pad;
    if (pad && (len % 4 != 0 || pad + *m % 4 != 4))
        return fig_fail(msg, FIG_ERR_INPUT, "%zu '=' after %zu characters do not complete a "
                        "group of four", pad, *m);
    if (*m % 4 == 1)
        return fig_fail(msg, FIG_ERR_INPUT, "%zu characters: no base64url text has that "
                        "length", *m);
    return FIG_OK;
}

fig_err_t fig_b64url_decode(const char *text, size_t len, uint8_t *out, size_t cap, size_t *n,
                            fig_msg_t *msg)
{
    size_t m;
    fig_err_t rc = unpadded(text, len, &m, msg);
    if (rc != FIG_OK)
        return rc;
    for (size_t i = 0; i < m; i++)
        if (value_of((unsigned char)text[i]) < 0)
            return bad_char(msg, text, i, text[i] == '=' ? "is padding before the end"
                                                         : "is not base64url");
    /* The bits of the last character that no byte holds: 4 of a group of
     * two, 2 of a group of three. */
    if (m % 4 && value_of((unsigned char)text[m - 1]) & (m % 4 == 2 ? 15 : 3))
        return bad_char(msg, text, m - 1, "has bits set beyond the last byte");
    *n = m / 4 * 3 + (m % 4 ? m % 4 - 1 : 0);
    if (*n > cap)
        return fig_fail(msg, FIG_ERR_SPACE, "%zu bytes, more than %zu", *n, cap);
    size_t o = 0;
    for (size_t i = 0; i < m; i += 4) {
        size_t chars = m - i >= 4 ? 4 : m - i;
        uint32_t v = 0;
        for (size_t k = 0; k < 4; k++)
            v = v << 6 | (k < chars ? (uint32_t)value_of((unsigned char)text[i + k]) : 0);
        for (size_t k = 0; k + 1 < chars; k++)
            out[o++] = (uint8_t)(v >> (16 - 8 * k));
    }
    return FIG_OK;
}
