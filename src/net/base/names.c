/* SPDX-License-Identifier: MIT */
/* names.c - names and levels (names.h): the one place the server's rules
 * for a person's name live, and the levels a table's bot may have. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "figaro/bot.h"
#include "host/lang.h"
#include "host/util.h"
#include "net/base/names.h"

/* TRANSLATORS: a bot level of the server's tables: a player that picks its
 * moves at random. */
static const char random_level[] = N_LEVEL("random");

/* A table's levels: "random" (a uniformly random player, for a quick table
 * and the tests), then the ai layer's levels for people. */
int fig_level_count(void)
{
    return 1 + fig_bot_level_count();
}

const char *fig_level_name(int i)
{
    return i == 0 ? random_level : fig_bot_level_name(i - 1);
}

bool fig_level_ok(const char *level)
{
    return strcmp(level, random_level) == 0 || fig_bot_level_index(level) >= 0;
}

/* The code point at s (n bytes left) into *cp; its length, or 0 for a
 * malformed sequence (overlong, a surrogate, beyond U+10FFFF, cut short). */
static int utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (n == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    int len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (len == 0 || s[0] > 0xF4 || (size_t)len > n)
        return 0;
    uint32_t c = s[0] & (0x3F >> (len - 1));
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (c < least[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

/* A space: a run of them is one space in a name. */
static bool name_space(uint32_t c)
{
    return c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

/* A character that must not be in a name: C0, DEL, C1; line and paragraph
 * separators; the bidirectional embeddings, overrides and isolates (they
 * reorder what others see); noncharacters. */
static bool name_control(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
           (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;
}

/* A character that shows nothing alone: zero-width characters and joiners,
 * fillers, variation selectors, tags, combining marks, the soft hyphen. A
 * name of only these (and spaces) names nobody. */
static bool name_invisible(uint32_t c)
{
    return c == 0xAD || c == 0x34F || c == 0x61C || c == 0x115F || c == 0x1160 ||
           c == 0x17B4 || c == 0x17B5 || c == 0x180E || (c >= 0x180B && c <= 0x180F) ||
           (c >= 0x200B && c <= 0x200F) || (c >= 0x2060 && c <= 0x2064) || c == 0x2800 ||
           c == 0x3164 || c == 0xFEFF || c == 0xFFA0 || (c >= 0xFE00 && c <= 0xFE0F) ||
           (c >= 0xFFF0 && c <= 0xFFF8) || (c >= 0xE0000 && c <= 0xE0FFF) ||
           (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) ||
           (c >= 0x1DC0 && c <= 0x1DFF) || (c >= 0x20D0 && c <= 0x20FF) ||
           (c >= 0xFE20 && c <= 0xFE2F) || (c >= 0x1D173 && c <= 0x1D17A);
}

fig_err_t fig_name_clean(const char *in, const fig_tr_t *tr,
                               char out[FIG_PERSON_NAME_BYTES + 1], fig_msg_t *msg)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t n = strlen(in), len = 0;
    int chars = 0;
    bool visible = false, space = false;
    out[0] = '\0';
    while (n > 0) {
        uint32_t c;
        int k = utf8_next(s, n, &c);
        if (k == 0)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a name must be UTF-8 text"));
        s += k;
        n -= (size_t)k;
        if (name_control(c))
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                               N_("a name cannot hold control characters (U+%04X)"),
                               (unsigned)c);
        if (name_space(c)) {
            space = chars > 0;   /* none at the start; one for a run */
            continue;
        }
        if (space) {
            if (len >= FIG_PERSON_NAME_BYTES || ++chars > FIG_PERSON_NAME_CHARS)
                goto too_long;
            out[len++] = ' ';
            space = false;
        }
        if (len + (size_t)k > FIG_PERSON_NAME_BYTES || ++chars > FIG_PERSON_NAME_CHARS)
            goto too_long;
        memcpy(out + len, s - k, (size_t)k);
        len += (size_t)k;
        visible |= !name_invisible(c);
    }
    out[len] = '\0';
    if (chars == 0)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a name has 1 to %d characters"),
                           FIG_PERSON_NAME_CHARS);
    if (!visible) {
        out[0] = '\0';
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                           N_("a name needs a visible character, not only spaces or "
                              "invisible ones"));
    }
    return FIG_OK;
too_long:
    out[0] = '\0';
    return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a name has at most %d characters"),
                       FIG_PERSON_NAME_CHARS);
}

void fig_name_cut(const char *name, int chars, char *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t n = strlen(name), len = 0;
    for (int i = 0; i < chars && n > 0; i++) {
        uint32_t c;
        int k = utf8_next(s, n, &c);
        if (k == 0)
            k = 1;   /* not a name's: copied byte by byte */
        if (len + (size_t)k >= cap)
            break;
        memcpy(out + len, s, (size_t)k);
        len += (size_t)k;
        s += k;
        n -= (size_t)k;
    }
    out[len] = '\0';
}

void fig_name_record(const char *name, char out[FIG_NAME_MAX + 1])
{
    fig_name_cut(name, FIG_PERSON_NAME_BYTES, out, FIG_NAME_MAX + 1);
    for (char *p = out; *p; p++)
        if (!fig_fgn_name_byte_ok((unsigned char)*p))
            *p = '_';
    if (!out[0])
        strcpy(out, "_");
}
