/* SPDX-License-Identifier: MIT */
/* b64url.c - base64url without padding (b64url.h). */
#include <string.h>

#include "net/push/b64url.h"

static const char SIGNS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fig_err_t fig_b64url_encode(const uint8_t *in, size_t len, char *out, size_t cap,
                            fig_msg_t *msg)
{
    if (FIG_B64URL_LEN(len) >= cap)
        return fig_fail(msg, FIG_ERR_SPACE, "no room for %zu bytes as base64url", len);
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        size_t rest = len - i;
        if (rest > 1)
            v |= (uint32_t)in[i + 1] << 8;
        if (rest > 2)
            v |= in[i + 2];
        out[o++] = SIGNS[v >> 18 & 63];
        out[o++] = SIGNS[v >> 12 & 63];
        if (rest > 1)
            out[o++] = SIGNS[v >> 6 & 63];
        if (rest > 2)
            out[o++] = SIGNS[v & 63];
    }
    out[o] = '\0';
    return FIG_OK;
}

/* A sign's value, or -1. */
static int value(char c)
{
    const char *p = c ? strchr(SIGNS, c) : NULL;
    return p ? (int)(p - SIGNS) : -1;
}

fig_err_t fig_b64url_decode(const char *text, uint8_t *out, size_t cap, size_t *len,
                            const char *what, fig_msg_t *msg)
{
    size_t n = strlen(text);
    *len = 0;
    if (n % 4 == 1)
        return fig_fail(msg, FIG_ERR_INPUT, "%s is not base64url: %zu signs cannot be",
                        what, n);
    size_t bytes = n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0);
    if (bytes > cap)
        return fig_fail(msg, FIG_ERR_INPUT, "%s is too long: %zu bytes, at most %zu", what,
                        bytes, cap);
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        int v = value(text[i]);
        if (v < 0)
            return fig_fail(msg, FIG_ERR_INPUT, "%s is not base64url: sign %zu is '%c'",
                            what, i + 1, (unsigned char)text[i] < 32 ? '?' : text[i]);
        acc = (acc << 6 | (uint32_t)v) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    if (acc & ((1u << bits) - 1))   /* the last sign's unused bits must be zero */
        return fig_fail(msg, FIG_ERR_INPUT, "%s is not base64url: its last sign has stray bits",
                        what);
    *len = o;
    return FIG_OK;
}
