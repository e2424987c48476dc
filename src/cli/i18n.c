/* i18n.c - locale and catalogue set-up for the front ends (i18n.h).
 * A first version: the i18n work (po/, the rules text) completes it. */
#include <locale.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/i18n.h"

#ifndef LOCALEDIR
#define LOCALEDIR "build/locale"
#endif

int cli_i18n_init(const char *lang, char *err, size_t errcap)
{
    static const char *const known[] = { "en", "fr", "nl", "it" };
    if (lang) {
        size_t i = 0;
        while (i < sizeof known / sizeof known[0] && strcmp(lang, known[i]) != 0)
            i++;
        if (i == sizeof known / sizeof known[0]) {
            snprintf(err, errcap, "unknown language '%s' (en, fr, nl, it)", lang);
            return -1;
        }
        setenv("LANGUAGE", lang, 1);
    }
    setlocale(LC_ALL, "");
    bindtextdomain("figaro", LOCALEDIR);
    bind_textdomain_codeset("figaro", "UTF-8");
    textdomain("figaro");
    return 0;
}
