/* SPDX-License-Identifier: MIT */
/* utf8.h - the fuzz targets' check that a message is valid UTF-8: messages
 * end up in JSON and on terminals, even when they quote a piece of a broken
 * input. Header-only: each target is one program of its own. */
#ifndef FIGARO_FUZZ_UTF8_H
#define FIGARO_FUZZ_UTF8_H

static inline int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
              : (*p & 0xF8) == 0xF0 ? 4 : 0;
        if (!n)
            return 0;
        for (int i = 1; i < n; i++)
            if ((p[i] & 0xC0) != 0x80)
                return 0;
        p += n;
    }
    return 1;
}

#endif
