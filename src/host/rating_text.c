/* SPDX-License-Identifier: MIT */
/* rating_text.c - a finishing order as a line of text (rating_text.h). */
#include <string.h>

#include "host/rating_text.h"

/* The length of the well-formed UTF-8 sequence at s (at most n bytes), or 0:
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    unsigned cp = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

fig_err_t fig_rating_game_parse(const char *line, size_t len, fig_rating_game_t *out,
                                fig_msg_t *msg)
{
    const unsigned char *s = (const unsigned char *)line;
    if (len > 0 && s[len - 1] == '\r')
        len--;
    out->n = 0;
    int place = 1;   /* the place of the word being read: 1 + the players before it */
    size_t i = 0;
    while (i < len) {
        if (blank((char)s[i])) {
            i++;
            continue;
        }
        if (s[i] == '#')
            break;
        /* A word: names joined by '='. */
        int first = out->n;
        for (;;) {
            size_t start = i;
            while (i < len && !blank((char)s[i]) && s[i] != '=') {
                if (s[i] < 0x20 || s[i] == 0x7F)
                    return fig_fail(msg, FIG_ERR_INPUT,
                                    "column %zu: a control character (byte %u) in a name",
                                    i + 1, s[i]);
                size_t k = utf8_len(s + i, len - i);
                if (!k)
                    return fig_fail(msg, FIG_ERR_INPUT, "column %zu: a name is not UTF-8",
                                    i + 1);
                i += k;
            }
            size_t nlen = i - start;
            if (nlen == 0)
                return fig_fail(msg, FIG_ERR_INPUT,
                                "column %zu: a name is missing ('=' joins two names who "
                                "tie: bob=cid)", start + 1);
            if (nlen > FIG_RATING_NAME_MAX)
                return fig_fail(msg, FIG_ERR_INPUT,
                                "column %zu: a name of %zu bytes (at most %d)", start + 1,
                                nlen, FIG_RATING_NAME_MAX);
            if (out->n == FIG_MAX_PLAYERS)
                return fig_fail(msg, FIG_ERR_INPUT,
                                "column %zu: more than %d players in a game", start + 1,
                                FIG_MAX_PLAYERS);
            for (int j = 0; j < out->n; j++)
                if (strlen(out->name[j]) == nlen && memcmp(out->name[j], line + start, nlen) == 0)
                    return fig_fail(msg, FIG_ERR_INPUT,
                                    "column %zu: '%s' is in this game twice", start + 1,
                                    out->name[j]);
            memcpy(out->name[out->n], line + start, nlen);
            out->name[out->n][nlen] = '\0';
            out->rank[out->n] = place;
            out->n++;
            if (i < len && s[i] == '=') {
                i++;
                continue;
            }
            break;
        }
        place += out->n - first;
    }
    if (out->n == 1)
        return fig_fail(msg, FIG_ERR_INPUT, "a game of one player ('%s'): 2 to %d are needed",
                        out->name[0], FIG_MAX_PLAYERS);
    return FIG_OK;
}
