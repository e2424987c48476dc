/* SPDX-License-Identifier: MIT */
/* lang.c - the languages we have (lang.h): one table, which everything that
 * lists or checks a language asks. */
#include <string.h>

#include "host/lang.h"
#include "host/util.h"

/* To add a language: a line here and po/LANG.po (docs/translations.md). */
static const struct {
    const char *code, *name;
} langs[] = {
    { "en", "English" },
    { "fr", "Français" },
    { "nl", "Nederlands" },
    { "it", "Italiano" },
};
enum { NLANGS = sizeof langs / sizeof langs[0] };
_Static_assert((int)NLANGS <= (int)FIG_LANG_MAX, "FIG_LANG_MAX is too small");

int fig_lang_count(void)
{
    return NLANGS;
}

const char *fig_lang_code(int i)
{
    return i >= 0 && i < NLANGS ? langs[i].code : NULL;
}

const char *fig_lang_name(int i)
{
    return i >= 0 && i < NLANGS ? langs[i].name : NULL;
}

void fig_lang_list(char *out, size_t cap)
{
    size_t len = 0;
    if (cap)
        out[0] = '\0';
    for (int i = 0; i < NLANGS; i++)
        fig_putf(out, cap, &len, "%s%s", i ? ", " : "", langs[i].code);
}

bool fig_lang_known(const char *code)
{
    for (int i = 0; code && i < NLANGS; i++)
        if (strcmp(code, langs[i].code) == 0)
            return true;
    return false;
}
