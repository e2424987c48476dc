/* SPDX-License-Identifier: MIT */
/* fuzz_mo.c - libFuzzer target for the .mo catalogue reader (src/host/catalog.h),
 * seeded from tests/fuzz/corpus-mo (the built catalogues and small ones in
 * both byte orders).
 *
 * Beyond "no crash": a refused file gets a message that names it and is
 * printable UTF-8; an accepted one answers every one of its messages with its
 * own translation (the binary search finds every original), chooses plural
 * forms inside nplurals, answers an unknown msgid and the header's empty one
 * with itself, and every
 * translation it hands out works as a printf format with the arguments of
 * its msgid (what catalog.c checks at load) - exercised here for the messages
 * whose arguments are ints and strings. The same bytes, as text, also go
 * through the Plural-Forms parser. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/catalog.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether fmt's conversions are only %d and %s (unnumbered), with at most 4:
 * then it can be formatted here with ints and strings in that order. Returns
 * the pattern of arguments ('d'/'s') in kinds, or -1. */
static int simple_format(const char *fmt, char kinds[5])
{
    int n = 0;
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
        if (p[1] == '%') {
            p += 2;
            continue;
        }
        if ((p[1] != 'd' && p[1] != 's') || n == 4)
            return -1;
        kinds[n++] = p[1];
        p += 2;
    }
    kinds[n] = '\0';
    return n;
}

/* vsnprintf on a format from the catalogue (not a literal, on purpose). */
static void format(const char *fmt, ...)
{
    char out[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, sizeof out, fmt, ap);
    va_end(ap);
}

/* Formats tr with arguments of the msgid's kinds: ints for %d, strings for
 * %s. A translation may reorder them with %n$, so a mismatch of types in a
 * translation load() accepted would read a string from an int here, which
 * the sanitizers catch. */
static void format_with(const char *tr, const char *kinds)
{
    const char *s = "Ann";
    int d = 7;
    if (!strcmp(kinds, ""))
        format(tr);
    else if (!strcmp(kinds, "d"))
        format(tr, d);
    else if (!strcmp(kinds, "s"))
        format(tr, s);
    else if (!strcmp(kinds, "dd"))
        format(tr, d, d);
    else if (!strcmp(kinds, "ds"))
        format(tr, d, s);
    else if (!strcmp(kinds, "sd"))
        format(tr, s, d);
    else if (!strcmp(kinds, "ss"))
        format(tr, s, s);
    else if (!strcmp(kinds, "sdd"))
        format(tr, s, d, d);
    else if (!strcmp(kinds, "sds"))
        format(tr, s, d, s);
    else if (!strcmp(kinds, "dds"))
        format(tr, d, d, s);
    else if (!strcmp(kinds, "sss"))
        format(tr, s, s, s);
    else if (!strcmp(kinds, "ddd"))
        format(tr, d, d, d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fig_catalog_t *c = NULL;
    fig_msg_t msg;
    memset(&msg, 0, sizeof msg);
    if (fig_catalog_from_buffer(&c, data, size, "fuzz.mo", &msg) != FIG_OK) {
        if (c || !strstr(msg.text, "fuzz.mo") || !valid_utf8(msg.text))
            abort();
    } else {
        const fig_tr_t *tr = fig_catalog_tr(c);
        const fig_plural_t *pl = fig_catalog_plural(c);
        static const unsigned long ns[] = { 0, 1, 2, 3, 5, 11, 22, 101, 1000000 };
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            int i = fig_plural_index(pl, ns[k]);
            if (i < 0 || i >= pl->nplurals)
                abort();
        }
        const char *unknown = "\x01 not a message \x02";
        bool has_unknown = false;   /* the fuzzer can write it into a file too */
        int n = fig_catalog_count(c);
        for (int i = 0; i < n; i++) {
            const char *id, *plural, *str;
            if (!fig_catalog_entry(c, i, &id, &plural, &str))
                abort();
            has_unknown |= strcmp(id, unknown) == 0;
            char kinds[5];
            if (!plural) {
                const char *got = fig_tr_text(tr, id);
                if (got != (*id && *str ? str : id))
                    abort();   /* the search missed an original, or gave the header */
                if (*id && simple_format(id, kinds) >= 0)
                    format_with(got, kinds);
            } else {
                for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                    const char *got = fig_tr_plural(tr, id, plural, ns[k]);
                    if (!got)
                        abort();
                    /* A translation must suit the caller's arguments,
                     * which suit its msgid_plural (fig_tr_plural matched
                     * it with the catalogue's). The English fallback is the
                     * caller's own string, and this pair from the file is
                     * no caller's: not formatted. */
                    if (got != id && got != plural && simple_format(plural, kinds) >= 0)
                        format_with(got, kinds);
                }
                if (fig_tr_text(tr, id) != id)
                    abort();   /* a plural message is not a singular one */
            }
        }
        if (!has_unknown && fig_tr_text(tr, unknown) != unknown)
            abort();
        fig_catalog_free(c);
    }

    /* the Plural-Forms parser on the bytes as text */
    char text[600];
    size_t k = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, k);
    text[k] = '\0';
    fig_plural_t p;
    fig_msg_t pmsg;
    if (fig_plural_parse(&p, text, &pmsg) == FIG_OK) {
        for (unsigned long v = 0; v < 30; v++) {
            int i = fig_plural_index(&p, v * v * 7);
            if (i < 0 || i >= p.nplurals)
                abort();
        }
    } else if (!valid_utf8(pmsg.text)) {
        abort();
    }
    return 0;
}
