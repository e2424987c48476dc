/* SPDX-License-Identifier: MIT */
/* i18n.c - locale and catalogue set-up for the front ends (i18n.h).
 *
 * Two things make this more than setlocale() + bindtextdomain():
 *
 * - A fresh Debian machine may have no locale but C, C.UTF-8 and POSIX. With
 *   LANG=fr_FR.UTF-8 and no fr_FR locale, setlocale(LC_ALL, "") fails and
 *   leaves "C", and GNU gettext ignores $LANGUAGE in the "C" locale, so
 *   nothing would be translated. Measured on glibc 2.36: gettext honours
 *   $LANGUAGE when LC_MESSAGES is C.UTF-8 (or C.utf8), and not when it is "C".
 *   So when the locale in force for messages is a C locale but the person
 *   asked for a language, we run LC_MESSAGES (and a plain-C LC_CTYPE, so wide
 *   characters work) in C.UTF-8 and name the language in $LANGUAGE.
 * - The catalogues live next to the program (build/locale for build/figaro,
 *   build/test/locale for the test build), wherever it is run from; see
 *   find_localedir().
 *
 * The translator the host layer speaks through (cli_i18n_tr) is gettext
 * itself rather than a catalogue of host/catalog.h: the terminal has one person,
 * and gettext already resolves their language ($LANGUAGE lists such as
 * "fr:en", fr_BE falling back to fr, LC_ALL=C) in the one way the command's
 * own _() strings follow. A second reader could disagree with it on some
 * environment, and a screen would mix two languages. The server, which
 * speaks many languages at once, opens catalogues (fig_catalog_open). */
#include <locale.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/i18n.h"
#include "host/catalog.h"
#include "host/lang.h"

#ifndef LOCALEDIR
#define LOCALEDIR "/usr/local/share/locale"
#endif

#define DOMAIN "figaro"

static const char *env_nonempty(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* "C" and "POSIX" exactly: the locales in which gettext ignores $LANGUAGE. */
static int is_plain_c(const char *name)
{
    return strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0;
}

/* Any C locale, including C.UTF-8: messages in it are the English msgids. */
static int is_c_name(const char *name)
{
    return is_plain_c(name) || strncmp(name, "C.", 2) == 0;
}

/* The locale the environment names for messages, in POSIX order, or NULL. */
static const char *env_messages_locale(void)
{
    const char *v = env_nonempty("LC_ALL");
    if (!v)
        v = env_nonempty("LC_MESSAGES");
    if (!v)
        v = env_nonempty("LANG");
    return v;
}

/* Switches `category` to a C locale with UTF-8 characters; 0 if one exists. */
static int set_c_utf8(int category)
{
    return setlocale(category, "C.UTF-8") || setlocale(category, "C.utf8") ? 0 : -1;
}

/* Sets every category from the environment. When one names a locale that is
 * not installed, setlocale(LC_ALL, "") changes nothing at all; we then start
 * from C.UTF-8 and take each category that does exist. */
static void set_locale_from_env(void)
{
    if (setlocale(LC_ALL, ""))
        return;
    set_c_utf8(LC_ALL);
    static const int categories[] = { LC_CTYPE, LC_COLLATE, LC_TIME, LC_MONETARY, LC_MESSAGES };
    for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
        setlocale(categories[i], "");
}

/* The language the person asked for, or NULL for none (English). */
static const char *wanted_language(const char *lang)
{
    if (lang)
        return lang;
    const char *loc = env_messages_locale();
    const char *language = env_nonempty("LANGUAGE");
    /* GNU gettext: $LANGUAGE wins unless the locale is C; an explicit
     * LC_ALL=C means "untranslated". With nothing set at all we still take
     * $LANGUAGE: the person said which language they want. */
    if (language && !(loc && is_plain_c(loc)))
        return language;
    if (loc && !is_c_name(loc))
        return loc;
    return NULL;
}

static int has_catalogue(const char *dir)
{
    char path[4096];
    for (int i = 0; fig_lang_code(i); i++) {
        if (strcmp(fig_lang_code(i), "en") == 0)
            continue;
        int n = snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/" DOMAIN ".mo", dir,
                         fig_lang_code(i));
        if (n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0)
            return 1;
    }
    return 0;
}

/* Writes into out (cap bytes) the folder holding the catalogues:
 * $FIGARO_LOCALEDIR, else the first of EXEDIR/locale, EXEDIR/../share/locale,
 * EXEDIR/../locale that holds one, else LOCALEDIR. */
static void find_localedir(char *out, size_t cap)
{
    const char *over = env_nonempty("FIGARO_LOCALEDIR");
    if (over) {
        snprintf(out, cap, "%s", over);
        return;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            static const char *const rel[] = { "/locale", "/../share/locale", "/../locale" };
            for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
                int m = snprintf(out, cap, "%s%s", exe, rel[i]);
                if (m > 0 && (size_t)m < cap && has_catalogue(out))
                    return;
            }
        }
    }
    snprintf(out, cap, "%s", LOCALEDIR);
}

int cli_i18n_init(const char *asked, char *err, size_t errcap)
{
    /* The languages `--lang` accepts; all but "en" have a catalogue in po/. */
    int known = asked == NULL || fig_lang_known(asked);
    /* An unknown language: set up from the environment, so the error is
     * said in the person's language. */
    const char *lang = known ? asked : NULL;

    set_locale_from_env();
    /* Numbers in records, JSON and bot options are written with '.', always. */
    setlocale(LC_NUMERIC, "C");

    const char *want = wanted_language(lang);
    const char *cur = setlocale(LC_MESSAGES, NULL);
    if (lang || (want && !is_c_name(want) && cur && is_c_name(cur))) {
        if (cur && is_plain_c(cur) && set_c_utf8(LC_MESSAGES) == 0) {
            const char *ctype = setlocale(LC_CTYPE, NULL);
            if (ctype && is_plain_c(ctype))
                set_c_utf8(LC_CTYPE);
        }
        /* gettext reads $LANGUAGE at each lookup: it must hold the language
         * before the first one. `want` may point into the environment. */
        if (want != getenv("LANGUAGE"))
            setenv("LANGUAGE", want, 1);
    }

    char dir[4096];
    find_localedir(dir, sizeof dir);
    bindtextdomain(DOMAIN, dir);
    bind_textdomain_codeset(DOMAIN, "UTF-8");
    textdomain(DOMAIN);

    if (!known) {
        char list[8 * FIG_LANG_MAX];
        fig_lang_list(list, sizeof list);
        /* TRANSLATORS: the second %s lists the languages' codes: "en, fr, nl, it". */
        snprintf(err, errcap, _("unknown language '%s' (%s)"), asked, list);
        return -1;
    }
    return 0;
}

const char *cli_i18n_localedir(void)
{
    const char *dir = bindtextdomain(DOMAIN, NULL);
    return dir ? dir : "";
}

/* gettext as a translator: the language is the process's, set above. */
static const char *tr_text(const fig_tr_t *tr, const char *msgid)
{
    (void)tr;
    return gettext(msgid);
}

static const char *tr_plural(const fig_tr_t *tr, const char *msgid, const char *msgid_plural,
                             unsigned long n)
{
    (void)tr;
    return ngettext(msgid, msgid_plural, n);
}

const fig_tr_t *cli_i18n_tr(void)
{
    static const fig_tr_t tr = { tr_text, tr_plural, NULL };
    return &tr;
}
