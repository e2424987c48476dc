/* SPDX-License-Identifier: MIT */
/* fep_line.c - an FEP engine's lines as the host reads them (fep_line.h):
 * cutting them out of the bytes received, and telling what each one says.
 *
 * Nothing here allocates, waits or keeps state: a line is at most
 * FIG_FEP_LINE_CAP bytes (the host's buffer; longer is the engine's fault),
 * may hold any byte, NUL included, and is read word by word without ever
 * looking past its length. tests/fuzz/fuzz_fep_host.c checks these functions'
 * properties on arbitrary input. */
#include <string.h>
#include <strings.h>

#include "host/fep_line.h"

bool fig_fep_split_line(char *buf, size_t *len, char *out, size_t *outlen)
{
    char *nl = memchr(buf, '\n', *len);
    if (!nl)
        return false;
    size_t n = (size_t)(nl - buf);
    memcpy(out, buf, n);
    memmove(buf, nl + 1, *len - n - 1);
    *len -= n + 1;
    if (n > 0 && out[n - 1] == '\r')
        n--;
    out[n] = '\0';
    *outlen = n;
    return true;
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* The word at or after *at in s[0..n): its start and length; *at moves past it. */
static const char *next_word(const char *s, size_t n, size_t *at, size_t *wlen)
{
    size_t i = *at;
    while (i < n && is_blank(s[i]))
        i++;
    size_t start = i;
    while (i < n && !is_blank(s[i]))
        i++;
    *at = i;
    *wlen = i - start;
    return s + start;
}

static bool word_is(const char *s, size_t n, const char *word)
{
    return n == strlen(word) && strncasecmp(s, word, n) == 0;
}

fig_fep_line_t fig_fep_parse_line(const char *line, size_t len, int seat, fig_action_t *action)
{
    if (action)
        *action = FIG_ACT_NONE;
    /* Words end at the first NUL, as they do for a C string; a NUL anywhere
     * makes the line no `fepok` or `play`. */
    const char *nul = memchr(line, '\0', len);
    size_t n = nul ? (size_t)(nul - line) : len, at = 0, wlen;
    const char *w = next_word(line, n, &at, &wlen);
    if (wlen == 0)
        return FIG_FEP_BLANK;
    if (word_is(w, wlen, "info"))
        return FIG_FEP_INFO;
    if (word_is(w, wlen, "id"))
        return FIG_FEP_ID;
    if (nul)
        return FIG_FEP_OTHER;
    if (word_is(w, wlen, "fepok"))
        return FIG_FEP_FEPOK;
    if (!word_is(w, wlen, "play"))
        return FIG_FEP_OTHER;
    size_t alen, trailing;
    const char *act = next_word(line, n, &at, &alen);
    next_word(line, n, &at, &trailing);
    fig_action_t a = alen && !trailing ? fig_act_parse(act, alen, seat) : FIG_ACT_NONE;
    if (a == FIG_ACT_NONE)
        return FIG_FEP_MALFORMED;
    if (action)
        *action = a;
    return FIG_FEP_PLAY;
}
