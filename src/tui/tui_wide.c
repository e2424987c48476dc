/* SPDX-License-Identifier: MIT */
/* tui_wide.c - text as the terminal shows it, without curses: UTF-8 through
 * wide characters, the columns a string takes (wcwidth: a translated name or
 * sentence takes the columns it needs, not its bytes), wrapping to a width,
 * and whether the terminal takes UTF-8 at all. The full-screen game draws
 * with these; plain mode's score sheet pads its columns with them. Invalid
 * bytes are shown as '?', never trusted. */
#define _XOPEN_SOURCE 700

#include <langinfo.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/tui.h"

/* Converts UTF-8 to wide characters (invalid bytes become '?'); returns the
 * count, w is NUL-terminated. */
static int to_wide(const char *s, wchar_t *w, int cap)
{
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    size_t len = strlen(s);
    int n = 0;
    while (len && n < cap - 1) {
        wchar_t wc;
        size_t r = mbrtowc(&wc, s, len, &ps);
        if (r == (size_t)-1 || r == (size_t)-2) {
            wc = L'?';
            r = 1;
            memset(&ps, 0, sizeof ps);
        } else if (r == 0) {
            break;
        }
        w[n++] = wc;
        s += r;
        len -= r;
    }
    w[n] = L'\0';
    return n;
}

static int wc_cols(wchar_t c)
{
    int w = wcwidth(c);
    return w < 0 ? 0 : w;
}

bool tui_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && strcmp(cs, "UTF-8") == 0;
}

int tui_widen(const char *s, int maxw, wchar_t *w, int cap, int *cols)
{
    int n = to_wide(s, w, cap), i = 0, used = 0;
    for (; i < n; i++) {
        int c = wc_cols(w[i]);
        if (used + c > maxw)
            break;
        used += c;
    }
    w[i] = L'\0';
    *cols = used;
    return i;
}

int tui_width(const char *s)
{
    wchar_t w[512];
    int cols;
    tui_widen(s, INT_MAX, w, 512, &cols);
    return cols;
}

static char *from_wide(const wchar_t *w, int n)
{
    char *s = malloc((size_t)n * MB_CUR_MAX + 1);
    if (!s)
        return NULL;
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        size_t r = wcrtomb(s + len, w[i], &ps);
        if (r == (size_t)-1) {
            s[len++] = '?';
            memset(&ps, 0, sizeof ps);
        } else {
            len += r;
        }
    }
    s[len] = '\0';
    return s;
}

void tui_free_lines(char **lines, int count)
{
    for (int i = 0; i < count; i++)
        free(lines[i]);
    free(lines);
}

char **tui_wrap(const char *s, int width, int *count)
{
    *count = 0;
    if (width < 1)
        width = 1;
    size_t cap = strlen(s) + 1;
    wchar_t *w = malloc(cap * sizeof *w);
    if (!w)
        return NULL;
    int n = to_wide(s, w, (int)cap);
    int nl = 0, capl = 16;
    char **lines = malloc((size_t)capl * sizeof *lines);
    if (!lines) {
        free(w);
        return NULL;
    }
    int i = 0;
    while (i <= n) {
        /* one output line from w[i...] */
        int start = i, cols = 0, last_space = -1, end;
        while (i < n && w[i] != L'\n') {
            int c = wc_cols(w[i]);
            if (cols + c > width)
                break;
            if (w[i] == L' ')
                last_space = i;
            cols += c;
            i++;
        }
        if (i < n && w[i] != L'\n' && last_space > start) {
            end = last_space;   /* break at the last space */
            i = last_space;
        } else {
            end = i;
        }
        if (nl == capl) {
            capl *= 2;
            char **p = realloc(lines, (size_t)capl * sizeof *p);
            if (!p)
                break;
            lines = p;
        }
        char *line = from_wide(w + start, end - start);
        if (!line)
            break;
        lines[nl++] = line;
        if (i >= n)
            break;
        if (w[i] == L'\n')
            i++;
        else
            while (i < n && w[i] == L' ')
                i++;
    }
    free(w);
    *count = nl;
    return lines;
}
