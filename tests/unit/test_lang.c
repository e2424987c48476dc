/* SPDX-License-Identifier: MIT */
/* test_lang.c - catalogues read without libintl (src/host/catalog.h, plural.h)
 * and the table of the languages (src/host/lang.h).
 *
 *   - the languages we have, and nothing else, are known;
 *   - the real catalogues of the test build (build/test/locale, compiled from
 *     po/ by msgfmt) load, give known French, Dutch and Italian translations
 *     and their plural forms for n = 0, 1, 2, and return an unknown msgid
 *     itself; for every message and many n they agree with GNU gettext
 *     reading the same files (in a child process, as gettext's language is
 *     process-wide);
 *   - a catalogue written in the other byte order reads the same;
 *   - damaged files written to a temporary folder (bad magic, cut short at
 *     every length, tables and strings out of range, strings without NUL,
 *     unsorted or repeated messages, a translation with other printf
 *     arguments or %n, another charset, hostile Plural-Forms) are refused
 *     with a message naming the file and what is wrong;
 *   - the plural evaluator on gettext's expressions for many languages,
 *     precedence, unsigned arithmetic, division by zero and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <libintl.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/catalog.h"
#include "host/lang.h"
#include "host/plural.h"

/* ------------------------------------------------------------------ helpers */

/* The test build's catalogues: build/test/locale next to this program. */
static const char *localedir(void)
{
    static char dir[4096];
    if (!dir[0]) {
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 16);
        assert_true(n > 0);
        dir[n] = '\0';
        char *slash = strrchr(dir, '/');
        assert_non_null(slash);
        strcpy(slash, "/locale");
    }
    return dir;
}

static fig_catalog_t *open_ok(const char *lang)
{
    fig_catalog_t *c = NULL;
    fig_msg_t msg = { "", 0 };
    if (fig_catalog_open(&c, localedir(), lang, &msg) != FIG_OK)
        fail_msg("fig_catalog_open(%s): %s", lang, msg.text);
    assert_non_null(c);
    return c;
}

/* The bytes of a file, malloc'ed. */
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *buf = malloc(1 << 20);
    assert_non_null(buf);
    *size = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static unsigned char *real_mo(const char *lang, size_t *size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/figaro.mo", localedir(), lang);
    return slurp(path, size);
}

/* ---- writing .mo files: a message, its plural, its translation (NUL-
 * separated forms: give the lengths), in either byte order */

typedef struct {
    const char *id;
    size_t idlen;          /* with "\0plural" for a plural message */
    const char *str;
    size_t strlen;
} ent_t;

#define ENT(id, str) { id, sizeof id - 1, str, sizeof str - 1 }

static void put32(unsigned char *p, size_t off, uint32_t v, bool big)
{
    for (int i = 0; i < 4; i++)
        p[off + (size_t)i] = (unsigned char)(big ? v >> (24 - 8 * i) : v >> (8 * i));
}

static uint32_t get32(const unsigned char *p, size_t off, bool big)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[off + (size_t)i] << (big ? 24 - 8 * i : 8 * i);
    return v;
}

/* Writes entries (in the order given: msgfmt sorts them, a test may not)
 * into out; returns the size. Layout: header, originals' table at 28,
 * translations' table after it, no hash table, then the strings. */
static size_t mo_write(unsigned char *out, size_t cap, const ent_t *e, int n, bool big)
{
    size_t off = 28 + 16 * (size_t)n;
    memset(out, 0, cap);
    put32(out, 0, 0x950412de, big);
    put32(out, 4, 0, big);
    put32(out, 8, (uint32_t)n, big);
    put32(out, 12, 28, big);
    put32(out, 16, 28 + 8 * (uint32_t)n, big);
    put32(out, 20, 0, big);
    put32(out, 24, (uint32_t)off, big);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const char *s = pass ? e[i].str : e[i].id;
            size_t len = pass ? e[i].strlen : e[i].idlen;
            size_t table = pass ? 28 + 8 * (size_t)n : 28;
            assert_true(off + len + 1 <= cap);
            put32(out, table + 8 * (size_t)i, (uint32_t)len, big);
            put32(out, table + 8 * (size_t)i + 4, (uint32_t)off, big);
            memcpy(out + off, s, len);
            out[off + len] = '\0';
            off += len + 1;
        }
    return off;
}

#define HEADER_FR                                                                          \
    "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n > 1);\n"

/* A small valid catalogue, sorted as msgfmt would. */
static const ent_t small[] = {
    ENT("", HEADER_FR),
    ENT("%d card\0%d cards", "%d carte\0%d cartes"),
    ENT("%s plays %s in front of %s.", "%2$s est jou\xc3\xa9 par %1$s devant %3$s."),
    ENT("red", "rouge"),
    ENT("take the card\0take the %d cards", "ramasser la carte\0ramasser les %d cartes"),
};
enum { NSMALL = sizeof small / sizeof small[0] };

/* Opens `size` bytes from memory; FIG_OK or the error, message in msg. */
static fig_err_t from_buf(const unsigned char *buf, size_t size, fig_catalog_t **c,
                          fig_msg_t *msg)
{
    memset(msg, 0, sizeof *msg);
    return fig_catalog_from_buffer(c, buf, size, "test.mo", msg);
}

/* Expects buf to be refused with a message naming the file and holding `why`. */
static void expect_refused(const unsigned char *buf, size_t size, const char *why)
{
    fig_catalog_t *c = (fig_catalog_t *)1;
    fig_msg_t msg;
    fig_err_t rc = from_buf(buf, size, &c, &msg);
    if (rc == FIG_OK)
        fail_msg("accepted, expected refusal with '%s'", why);
    assert_null(c);
    if (!strstr(msg.text, "test.mo") || !strstr(msg.text, why))
        fail_msg("message '%s' lacks 'test.mo' or '%s'", msg.text, why);
}

/* ------------------------------------------------------------------ languages */

static void test_languages(void **state)
{
    (void)state;
    assert_int_equal(fig_lang_count(), 4);
    const char *want[] = { "en", "fr", "nl", "it" };
    for (int i = 0; i < 4; i++) {
        assert_string_equal(fig_lang_code(i), want[i]);
        assert_true(fig_lang_known(want[i]));
    }
    assert_null(fig_lang_code(4));
    assert_null(fig_lang_code(-1));
    assert_string_equal(fig_lang_name(1), "Français");
    assert_null(fig_lang_name(4));
    const char *bad[] = { "de", "fr_FR", "FR", "", "f", "fr ", "../fr", "en_US.UTF-8" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(fig_lang_known(bad[i]));
    assert_false(fig_lang_known(NULL));
}

/* The build compiles the catalogues po/LANG.po (the Makefile's LANGS): one
 * for every language of the table but English, and none other. */
static void test_table_is_the_catalogues(void **state)
{
    (void)state;
    assert_true(fig_lang_count() <= FIG_LANG_MAX);
    assert_string_equal(fig_lang_code(0), "en");
    for (int i = 0; i < fig_lang_count(); i++) {
        assert_true(strlen(fig_lang_code(i)) <= FIG_LANG_CODE_MAX);
        assert_true(fig_lang_name(i) && fig_lang_name(i)[0]);
        if (i > 0) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/figaro.mo", localedir(),
                     fig_lang_code(i));
            if (access(path, R_OK) != 0)
                fail_msg("%s: no catalogue (po/%s.po?)", path, fig_lang_code(i));
        }
    }
    DIR *d = opendir(localedir());
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.' && !fig_lang_known(e->d_name))
            fail_msg("po/%s.po is a language src/host/lang.c lacks", e->d_name);
    closedir(d);
}

/* ------------------------------------------------------------------ the real catalogues */

static const char *take1 = "You take the %d face-up card and play again.";
static const char *take2 = "You take all %d face-up cards and play again.";

static void check_lang(const char *lang, const char *red, const char *one_left,
                       const char *forms[3])
{
    fig_catalog_t *c = open_ok(lang);
    const fig_tr_t *tr = fig_catalog_tr(c);
    assert_true(fig_catalog_count(c) > 300);
    assert_string_equal(fig_tr_text(tr, "red"), red);
    assert_string_equal(fig_tr_text(tr, "You have one card left!"), one_left);
    for (unsigned long n = 0; n < 3; n++)
        assert_string_equal(fig_tr_plural(tr, take1, take2, n), forms[n]);
    const char *unknown = "A sentence no catalogue has.";
    assert_ptr_equal(fig_tr_text(tr, unknown), unknown);
    assert_ptr_equal(fig_tr_plural(tr, unknown, "plural", 1), unknown);
    const char *pl = "Sentences no catalogue has.";
    assert_ptr_equal(fig_tr_plural(tr, unknown, pl, 2), pl);
    /* The same msgid with another msgid_plural than the catalogue's is
     * answered in English: the caller's arguments fit its own plural. */
    assert_ptr_equal(fig_tr_plural(tr, take1, "%s", 2), (const char *)"%s");
    fig_catalog_free(c);
}

static void test_real_french(void **state)
{
    (void)state;
    const char *forms[3] = { "Vous ramassez la carte visible (%d) et rejouez.",
                             "Vous ramassez la carte visible (%d) et rejouez.",
                             "Vous ramassez les %d cartes visibles et rejouez." };
    /* French: n = 0 is singular (plural=(n > 1)). */
    check_lang("fr", "rouge", "Il ne vous reste qu'une carte\xc2\xa0!", forms);
}

static void test_real_dutch(void **state)
{
    (void)state;
    const char *forms[3] = { "Je neemt alle %d open kaarten en speelt opnieuw.",
                             "Je neemt de %d open kaart en speelt opnieuw.",
                             "Je neemt alle %d open kaarten en speelt opnieuw." };
    fig_catalog_t *c = open_ok("nl");
    char one_left[200];
    snprintf(one_left, sizeof one_left, "%s", fig_tr_text(fig_catalog_tr(c),
                                                          "You have one card left!"));
    fig_catalog_free(c);
    assert_string_not_equal(one_left, "You have one card left!");
    check_lang("nl", "rood", one_left, forms);
}

static void test_real_italian(void **state)
{
    (void)state;
    const char *forms[3] = { "Prendi tutte le %d carte scoperte e giochi di nuovo.",
                             "Prendi la %d carta scoperta e giochi di nuovo.",
                             "Prendi tutte le %d carte scoperte e giochi di nuovo." };
    fig_catalog_t *c = open_ok("it");
    char one_left[200];
    snprintf(one_left, sizeof one_left, "%s", fig_tr_text(fig_catalog_tr(c),
                                                          "You have one card left!"));
    fig_catalog_free(c);
    assert_string_not_equal(one_left, "You have one card left!");
    check_lang("it", "rosso", one_left, forms);
}

static void test_english(void **state)
{
    (void)state;
    fig_catalog_t *c = open_ok("en");
    const fig_tr_t *tr = fig_catalog_tr(c);
    assert_int_equal(fig_catalog_count(c), 0);
    assert_ptr_equal(fig_tr_text(tr, take1), take1);
    assert_ptr_equal(fig_tr_plural(tr, take1, take2, 0), take2);
    assert_ptr_equal(fig_tr_plural(tr, take1, take2, 1), take1);
    assert_ptr_equal(fig_tr_plural(tr, take1, take2, 2), take2);
    fig_catalog_free(c);
    fig_catalog_free(NULL);
}

static void test_open_errors(void **state)
{
    (void)state;
    fig_catalog_t *c = (fig_catalog_t *)1;
    fig_msg_t msg;
    assert_int_equal(fig_catalog_open(&c, localedir(), "de", &msg), FIG_ERR_INPUT);
    assert_null(c);
    assert_non_null(strstr(msg.text, "unknown language 'de'"));
    assert_int_equal(fig_catalog_open(&c, localedir(), "../fr", &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_catalog_open(&c, "/nonexistent/figaro", "fr", &msg), FIG_ERR_INPUT);
    assert_null(c);
    assert_non_null(strstr(msg.text, "/nonexistent/figaro/fr/LC_MESSAGES/figaro.mo"));
    assert_non_null(strstr(msg.text, "No such file"));
}

/* In a child process (gettext's language is the process's): every message
 * and many n, our reader against GNU gettext on the same file. Returns the
 * number of messages compared, or -1 with the first difference printed. */
static int compare_with_gettext(const char *lang)
{
    fig_catalog_t *c = open_ok(lang);
    const fig_tr_t *tr = fig_catalog_tr(c);
    setlocale(LC_ALL, "C.UTF-8");
    setenv("LANGUAGE", lang, 1);
    bindtextdomain("figaro", localedir());
    bind_textdomain_codeset("figaro", "UTF-8");
    static const unsigned long ns[] = { 0, 1, 2, 3, 5, 11, 21, 100, 1001 };
    int compared = 0;
    for (int i = 0; i < fig_catalog_count(c); i++) {
        const char *id, *plural, *str;
        assert_true(fig_catalog_entry(c, i, &id, &plural, &str));
        if (!*id)
            continue;   /* the header */
        if (!plural) {
            const char *ours = fig_tr_text(tr, id), *theirs = dgettext("figaro", id);
            if (strcmp(ours, theirs) != 0) {
                fprintf(stderr, "%s: '%s': ours '%s', gettext '%s'\n", lang, id, ours, theirs);
                return -1;
            }
        } else {
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                const char *ours = fig_tr_plural(tr, id, plural, ns[k]);
                const char *theirs = dngettext("figaro", id, plural, ns[k]);
                if (strcmp(ours, theirs) != 0) {
                    fprintf(stderr, "%s: '%s' n=%lu: ours '%s', gettext '%s'\n", lang, id,
                            ns[k], ours, theirs);
                    return -1;
                }
            }
        }
        compared++;
    }
    fig_catalog_free(c);
    return compared;
}

static void test_agrees_with_gettext(void **state)
{
    (void)state;
    const char *langs[] = { "fr", "nl", "it" };
    for (int i = 0; i < 3; i++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            int n = compare_with_gettext(langs[i]);
            ssize_t w = write(fds[1], &n, sizeof n);
            _exit(w == (ssize_t)sizeof n ? 0 : 1);
        }
        close(fds[1]);
        int n = -2;
        ssize_t r = read(fds[0], &n, sizeof n);
        close(fds[0]);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        assert_int_equal(r, (ssize_t)sizeof n);
        if (n < 300)
            fail_msg("%s: %d messages agree with gettext", langs[i], n);
    }
}

/* ------------------------------------------------------------------ files we write */

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* fig_catalog_open on files in a temporary folder: a good one, a damaged
 * one, an empty one, a folder where the file should be, a missing one. */
static void test_files_in_temp_dir(void **state)
{
    (void)state;
    char dir[] = "/tmp/figaro-lang-XXXXXX", sub[256], path[300];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/fr", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/fr/LC_MESSAGES", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(path, sizeof path, "%s/figaro.mo", sub);

    static unsigned char buf[4096];
    size_t size = mo_write(buf, sizeof buf, small, NSMALL, false);
    write_file(path, buf, size);
    fig_catalog_t *c = NULL;
    fig_msg_t msg;
    if (fig_catalog_open(&c, dir, "fr", &msg) != FIG_OK)
        fail_msg("%s", msg.text);
    assert_string_equal(fig_tr_text(fig_catalog_tr(c), "red"), "rouge");
    fig_catalog_free(c);

    buf[3] = 0;
    write_file(path, buf, size);
    assert_int_equal(fig_catalog_open(&c, dir, "fr", &msg), FIG_ERR_INPUT);
    assert_null(c);
    assert_non_null(strstr(msg.text, "fr/LC_MESSAGES/figaro.mo: not a GNU .mo catalogue"));

    write_file(path, buf, 0);
    assert_int_equal(fig_catalog_open(&c, dir, "fr", &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "figaro.mo: too short to be a .mo catalogue (0 bytes)"));

    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(fig_catalog_open(&c, dir, "fr", &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "figaro.mo: not a file"));
    assert_int_equal(rmdir(path), 0);

    assert_int_equal(fig_catalog_open(&c, dir, "nl", &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "nl/LC_MESSAGES/figaro.mo: No such file"));

    assert_int_equal(rmdir(sub), 0);
    snprintf(sub, sizeof sub, "%s/fr", dir);
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_small_both_byte_orders(void **state)
{
    (void)state;
    static unsigned char buf[4096];
    for (int big = 0; big < 2; big++) {
        size_t size = mo_write(buf, sizeof buf, small, NSMALL, big);
        fig_catalog_t *c;
        fig_msg_t msg;
        if (from_buf(buf, size, &c, &msg) != FIG_OK)
            fail_msg("%s-endian: %s", big ? "big" : "little", msg.text);
        const fig_tr_t *tr = fig_catalog_tr(c);
        assert_string_equal(fig_tr_text(tr, "red"), "rouge");
        assert_string_equal(fig_tr_text(tr, "%s plays %s in front of %s."),
                            "%2$s est jou\xc3\xa9 par %1$s devant %3$s.");
        assert_string_equal(fig_tr_plural(tr, "%d card", "%d cards", 0), "%d carte");
        assert_string_equal(fig_tr_plural(tr, "%d card", "%d cards", 1), "%d carte");
        assert_string_equal(fig_tr_plural(tr, "%d card", "%d cards", 2), "%d cartes");
        /* a plural form may leave the number out */
        assert_string_equal(fig_tr_plural(tr, "take the card", "take the %d cards", 1),
                            "ramasser la carte");
        /* looked up as a singular, a plural message is not translated */
        assert_string_equal(fig_tr_text(tr, "%d card"), "%d card");
        assert_int_equal(fig_catalog_plural(c)->nplurals, 2);
        assert_int_equal(fig_plural_index(fig_catalog_plural(c), 0), 0);
        fig_catalog_free(c);
    }
    /* no header: English plurals */
    size_t size = mo_write(buf, sizeof buf, small + 1, NSMALL - 1, false);
    fig_catalog_t *c;
    fig_msg_t msg;
    assert_int_equal(from_buf(buf, size, &c, &msg), FIG_OK);
    assert_string_equal(fig_tr_plural(fig_catalog_tr(c), "%d card", "%d cards", 0),
                        "%d cartes");
    fig_catalog_free(c);
}

static void test_real_byte_swapped(void **state)
{
    (void)state;
    /* The French catalogue, every 32-bit word of its header and tables
     * swapped: the same file as a big-endian machine's msgfmt writes it. */
    size_t size;
    unsigned char *buf = real_mo("fr", &size);
    uint32_t n = get32(buf, 8, false), o = get32(buf, 12, false), t = get32(buf, 16, false);
    uint32_t hs = get32(buf, 20, false), ho = get32(buf, 24, false);
    unsigned char *sw = malloc(size);
    assert_non_null(sw);
    memcpy(sw, buf, size);
    for (size_t off = 0; off < 28; off += 4)
        put32(sw, off, get32(buf, off, false), true);
    for (size_t k = 0; k < 2 * (size_t)n; k++) {
        put32(sw, o + 4 * k, get32(buf, o + 4 * k, false), true);
        put32(sw, t + 4 * k, get32(buf, t + 4 * k, false), true);
    }
    for (size_t k = 0; k < hs; k++)
        put32(sw, ho + 4 * k, get32(buf, ho + 4 * k, false), true);
    assert_int_not_equal(memcmp(buf, sw, 28), 0);
    fig_catalog_t *c;
    fig_msg_t msg;
    if (from_buf(sw, size, &c, &msg) != FIG_OK)
        fail_msg("swapped: %s", msg.text);
    assert_string_equal(fig_tr_text(fig_catalog_tr(c), "red"), "rouge");
    assert_string_equal(fig_tr_plural(fig_catalog_tr(c), take1, take2, 2),
                        "Vous ramassez les %d cartes visibles et rejouez.");
    fig_catalog_free(c);
    free(sw);
    free(buf);
}

static void test_bad_magic_and_size(void **state)
{
    (void)state;
    static unsigned char buf[4096];
    size_t size = mo_write(buf, sizeof buf, small, NSMALL, false);
    buf[0] ^= 1;
    expect_refused(buf, size, "not a GNU .mo catalogue");
    memcpy(buf, "# a .po file, not compiled\n", 27);
    expect_refused(buf, size, "not a GNU .mo catalogue");
    for (size_t k = 0; k < 28; k++)
        expect_refused(buf, k, "too short");
    size = mo_write(buf, sizeof buf, small, NSMALL, false);
    put32(buf, 4, 2u << 16, false);
    expect_refused(buf, size, "unsupported .mo revision 2.0");
}

/* The real French catalogue cut at many lengths: every cut is refused. */
static void test_truncated(void **state)
{
    (void)state;
    size_t size;
    unsigned char *buf = real_mo("fr", &size);
    int refused = 0;
    for (size_t cut = 0; cut < size; cut += cut < 4096 ? 7 : 211) {
        fig_catalog_t *c = NULL;
        fig_msg_t msg;
        if (from_buf(buf, cut, &c, &msg) == FIG_OK)
            fail_msg("cut at %zu of %zu bytes: accepted", cut, size);
        assert_non_null(strstr(msg.text, "test.mo"));
        refused++;
    }
    assert_true(refused > 200);
    /* the last byte (the last string's NUL) too */
    fig_catalog_t *c = NULL;
    fig_msg_t msg;
    assert_int_equal(from_buf(buf, size - 1, &c, &msg), FIG_ERR_INPUT);
    assert_int_equal(from_buf(buf, size, &c, &msg), FIG_OK);
    fig_catalog_free(c);
    free(buf);
}

static void test_out_of_range(void **state)
{
    (void)state;
    static unsigned char buf[4096];
    size_t size = mo_write(buf, sizeof buf, small, NSMALL, false);
    unsigned char saved[4096];
    memcpy(saved, buf, size);

    put32(buf, 8, 0xffffffffu, false);              /* message count */
    expect_refused(buf, size, "messages cannot fit");
    memcpy(buf, saved, size);
    put32(buf, 8, 100, false);
    expect_refused(buf, size, "messages cannot fit");
    memcpy(buf, saved, size);
    put32(buf, 12, (uint32_t)size, false);          /* originals' table */
    expect_refused(buf, size, "table of messages");
    memcpy(buf, saved, size);
    put32(buf, 12, 0xfffffff0u, false);
    expect_refused(buf, size, "table of messages");
    memcpy(buf, saved, size);
    put32(buf, 16, (uint32_t)size - 8, false);      /* translations' table */
    expect_refused(buf, size, "table of translations");
    memcpy(buf, saved, size);
    put32(buf, 28 + 8 * 2 + 4, (uint32_t)size, false);   /* a msgid's offset */
    expect_refused(buf, size, "message 2: the message");
    memcpy(buf, saved, size);
    put32(buf, 28 + 8 * 2 + 4, 0xffffffffu, false);
    expect_refused(buf, size, "runs past the end");
    memcpy(buf, saved, size);
    put32(buf, 28 + 8 * 3, 0xfffffffeu, false);          /* a msgid's length */
    expect_refused(buf, size, "runs past the end");
    memcpy(buf, saved, size);
    put32(buf, 28 + 8 * NSMALL + 8 * 3, 0xffffffffu, false);   /* a translation's length */
    expect_refused(buf, size, "message 3: the translation");
    memcpy(buf, saved, size);
    /* a string without its NUL: "red" grows by one byte into "rouge"'s start */
    put32(buf, 28 + 8 * 3, 4, false);
    expect_refused(buf, size, "does not end in NUL");
    memcpy(buf, saved, size);
    buf[size - 1] = 'x';                                  /* the last string's NUL */
    expect_refused(buf, size, "does not end in NUL");
}

static void test_order(void **state)
{
    (void)state;
    static unsigned char buf[4096];
    ent_t e[NSMALL];
    memcpy(e, small, sizeof e);
    ent_t tmp = e[2];
    e[2] = e[3];
    e[3] = tmp;
    size_t size = mo_write(buf, sizeof buf, e, NSMALL, false);
    expect_refused(buf, size, "message 3 is out of order");
    memcpy(e, small, sizeof e);
    e[2] = e[3];
    size = mo_write(buf, sizeof buf, e, NSMALL, false);
    expect_refused(buf, size, "message 3 is there twice");
}

static void refused_entry(ent_t bad, const char *why)
{
    static unsigned char buf[4096];
    ent_t e[2] = { ENT("", HEADER_FR), bad };
    size_t size = mo_write(buf, sizeof buf, e, 2, false);
    expect_refused(buf, size, why);
}

static void accepted_entry(ent_t good)
{
    static unsigned char buf[4096];
    ent_t e[2] = { ENT("", HEADER_FR), good };
    size_t size = mo_write(buf, sizeof buf, e, 2, false);
    fig_catalog_t *c;
    fig_msg_t msg;
    if (from_buf(buf, size, &c, &msg) != FIG_OK)
        fail_msg("'%s' -> '%s' refused: %s", good.id, good.str, msg.text);
    fig_catalog_free(c);
}

static void test_formats(void **state)
{
    (void)state;
    const char *why = "does not take the same printf arguments";
    refused_entry((ent_t)ENT("%d cards", "%s cartes"), why);
    refused_entry((ent_t)ENT("%d cards", "%d cartes %n"), why);
    refused_entry((ent_t)ENT("%d cards", "%d cartes %d"), why);
    refused_entry((ent_t)ENT("%d cards", "cartes"), why);           /* must take it all */
    refused_entry((ent_t)ENT("red", "%s"), why);
    refused_entry((ent_t)ENT("%s has %d", "%1$s a %2$s"), why);
    refused_entry((ent_t)ENT("%s has %d", "%2$d"), why);           /* a gap at 1 */
    refused_entry((ent_t)ENT("%s has %d", "%1$s a %d"), why);      /* mixed */
    refused_entry((ent_t)ENT("%u", "%d"), why);
    refused_entry((ent_t)ENT("%d", "%ld"), why);
    refused_entry((ent_t)ENT("%d", "%*d"), why);
    refused_entry((ent_t)ENT("%d", "%"), why);
    refused_entry((ent_t)ENT("%d card\0%d cards", "%d carte\0%s cartes"), "(a plural form)");
    refused_entry((ent_t)ENT("%d card\0%d cards", "%d carte\0%d cartes %d"), why);
    /* found by fuzz_mo: a msgid that is no format does not exempt the plural */
    refused_entry((ent_t)ENT("%\0%s cards", "%s carte\0%d cartes"), "(a plural form)");
    accepted_entry((ent_t)ENT("%s has %d", "%2$d pour %1$s"));
    accepted_entry((ent_t)ENT("%s has %d", "%s a %d (100%%)"));
    accepted_entry((ent_t)ENT("%d%%", "%d\xc2\xa0%%"));
    accepted_entry((ent_t)ENT("%5.2f and %-3s", "%f et %s"));
    accepted_entry((ent_t)ENT("%d card\0%d cards", "une carte\0%d cartes"));
    accepted_entry((ent_t)ENT("100%", "100\xc2\xa0%"));   /* not a format: not checked */
}

/* Found by fuzz_mo (tests/fuzz/corpus-mo/crash-header-as-plural.mo): an
 * empty msgid with a msgid_plural made the header a plural message whose
 * "forms" (the header's text, with a "% n" in it) a plural lookup handed out
 * unchecked. The header is no message: it has no plural, and no lookup
 * returns it. */
static void test_header_is_no_message(void **state)
{
    (void)state;
    static unsigned char buf[4096];
    ent_t e[2] = { ENT("\0%s plays %s in front of %s.", "nplurals=2; plural=(n==1 ? 0% n: 1);"),
                   ENT("red", "rouge") };
    size_t size = mo_write(buf, sizeof buf, e, 2, false);
    expect_refused(buf, size, "message 0: the header (the empty msgid) has a plural");

    size = mo_write(buf, sizeof buf, small, NSMALL, false);
    fig_catalog_t *c;
    fig_msg_t msg;
    assert_int_equal(from_buf(buf, size, &c, &msg), FIG_OK);
    const fig_tr_t *tr = fig_catalog_tr(c);
    const char *empty = "";
    assert_ptr_equal(fig_tr_text(tr, empty), empty);
    assert_string_equal(fig_tr_plural(tr, empty, "%d cards", 2), "%d cards");
    assert_string_equal(fig_tr_text(tr, "red"), "rouge");
    fig_catalog_free(c);

    size_t crash_size;
    unsigned char *crash = slurp("tests/fuzz/corpus-mo/crash-header-as-plural.mo", &crash_size);
    expect_refused(crash, crash_size, "the header (the empty msgid) has a plural");
    free(crash);
}

static void refused_header(const char *header, const char *why)
{
    static unsigned char buf[32768];
    ent_t e[2] = { { "", 0, header, strlen(header) }, ENT("red", "rouge") };
    size_t size = mo_write(buf, sizeof buf, e, 2, false);
    expect_refused(buf, size, why);
}

static void test_hostile_headers(void **state)
{
    (void)state;
    refused_header("Content-Type: text/plain; charset=ISO-8859-1\n", "charset ISO-8859-1");
    refused_header("Plural-Forms: nplurals=2;\n", "nplurals= and plural= expected");
    refused_header("Plural-Forms: nplurals=0; plural=0;\n", "nplurals must be 1 to 16");
    refused_header("Plural-Forms: nplurals=99999999999999999999; plural=0;\n",
                   "nplurals must be");
    refused_header("Plural-Forms: nplurals=x; plural=0;\n", "nplurals is not a number");
    refused_header("Plural-Forms: nplurals=2; plural=n +;\n", "Plural-Forms:");
    refused_header("Plural-Forms: nplurals=2; plural=(n != 1;\n", "')' expected");
    refused_header("Plural-Forms: nplurals=2; plural=n ? 1;\n", "':' expected");
    refused_header("Plural-Forms: nplurals=2; plural=n & 1;\n", "unexpected character");
    refused_header("Plural-Forms: nplurals=2; plural=n = 1;\n", "unexpected character");
    refused_header("Plural-Forms: nplurals=2; plural=x;\n", "unexpected character");
    refused_header("Plural-Forms: nplurals=2; plural=99999999999999999999999;\n",
                   "number too large");
    /* deep nesting and long expressions: bounded, never a stack overflow */
    static char deep[20000];
    strcpy(deep, "Plural-Forms: nplurals=2; plural=");
    for (int i = 0; i < 5000; i++)
        strcat(deep, "(");
    strcat(deep, "n");
    for (int i = 0; i < 5000; i++)
        strcat(deep, ")");
    strcat(deep, ";\n");
    refused_header(deep, "nested too deeply");
    strcpy(deep, "Plural-Forms: nplurals=2; plural=");
    for (int i = 0; i < 5000; i++)
        strcat(deep, "!");
    strcat(deep, "n;\n");
    refused_header(deep, "nested too deeply");
    strcpy(deep, "Plural-Forms: nplurals=2; plural=n");
    for (int i = 0; i < 500; i++)
        strcat(deep, "+n");
    strcat(deep, ";\n");
    refused_header(deep, "expression too long");
    strcpy(deep, "Plural-Forms: nplurals=2; plural=");
    for (int i = 0; i < 200; i++)
        strcat(deep, "n?");
    strcat(deep, "1");
    for (int i = 0; i < 200; i++)
        strcat(deep, ":0");
    strcat(deep, ";\n");
    refused_header(deep, "Plural-Forms:");
}

/* ------------------------------------------------------------------ the plural evaluator */

typedef struct {
    const char *forms;
    unsigned long n;
    int want;
} plural_case_t;

static void test_plural_expressions(void **state)
{
    (void)state;
    static const char *polish = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && "
                                "(n%100<10 || n%100>=20) ? 1 : 2);";
    static const char *russian = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "
                                 "n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);";
    static const char *arabic = "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : "
                                "n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);";
    static const char *irish = "nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : n<7 ? 2 : "
                               "n<11 ? 3 : 4);";
    const plural_case_t cases[] = {
        { "nplurals=2; plural=(n != 1);", 0, 1 }, { "nplurals=2; plural=(n != 1);", 1, 0 },
        { "nplurals=2; plural=(n != 1);", 2, 1 }, { "nplurals=2; plural=(n > 1);", 0, 0 },
        { "nplurals=2; plural=(n > 1);", 1, 0 },  { "nplurals=2; plural=(n > 1);", 2, 1 },
        { "nplurals=1; plural=0;", 7, 0 },
        { polish, 1, 0 }, { polish, 2, 1 }, { polish, 4, 1 }, { polish, 5, 2 },
        { polish, 12, 2 }, { polish, 22, 1 }, { polish, 0, 2 }, { polish, 112, 2 },
        { russian, 1, 0 }, { russian, 11, 2 }, { russian, 21, 0 }, { russian, 23, 1 },
        { russian, 111, 2 }, { russian, 1001, 0 },
        { arabic, 0, 0 }, { arabic, 1, 1 }, { arabic, 2, 2 }, { arabic, 3, 3 },
        { arabic, 10, 3 }, { arabic, 11, 4 }, { arabic, 99, 4 }, { arabic, 100, 5 },
        { arabic, 102, 5 }, { arabic, 103, 3 },
        { irish, 1, 0 }, { irish, 2, 1 }, { irish, 6, 2 }, { irish, 10, 3 }, { irish, 11, 4 },
        /* precedence and associativity */
        { "nplurals=16; plural=1+2*3;", 0, 7 },
        { "nplurals=16; plural=(1+2)*3;", 0, 9 },
        { "nplurals=16; plural=10-4-3;", 0, 3 },
        { "nplurals=16; plural=12/2/3;", 0, 2 },
        { "nplurals=16; plural=n%4*2;", 7, 6 },
        { "nplurals=3; plural=n==0?0:n==1?1:2;", 0, 0 },
        { "nplurals=3; plural=n==0?0:n==1?1:2;", 1, 1 },
        { "nplurals=3; plural=n==0?0:n==1?1:2;", 9, 2 },
        { "nplurals=2; plural=!n;", 0, 1 }, { "nplurals=2; plural=!n;", 3, 0 },
        { "nplurals=2; plural=!!n;", 3, 1 },
        { "nplurals=2; plural=1 || 0 && 0;", 0, 1 },
        { "nplurals=2; plural=2 < 3 == 1;", 0, 1 },
        { "nplurals=2; plural=n <= 3 && n >= 3;", 3, 1 },
        { "nplurals=2; plural=n <= 3 && n >= 3;", 4, 0 },
        /* division and remainder by zero: 0, not a crash */
        { "nplurals=2; plural=n/0;", 5, 0 }, { "nplurals=2; plural=n%0;", 5, 0 },
        { "nplurals=2; plural=1+n/(n-n);", 5, 1 },
        /* unsigned arithmetic as in GNU gettext; a value past nplurals is form 0 */
        { "nplurals=2; plural=n-1;", 0, 0 }, { "nplurals=2; plural=n-1;", 2, 1 },
        { "nplurals=2; plural=n*2;", 1, 0 },
        { "  nplurals= 2 ;  plural= ( n != 1 ) ;", 1, 0 },
        { "nplurals=2; plural=(n != 1)", 5, 1 },   /* no final ';' */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fig_plural_t p;
        fig_msg_t msg;
        if (fig_plural_parse(&p, cases[i].forms, &msg) != FIG_OK)
            fail_msg("'%s': %s", cases[i].forms, msg.text);
        int got = fig_plural_index(&p, cases[i].n);
        if (got != cases[i].want)
            fail_msg("'%s' n=%lu: %d, expected %d", cases[i].forms, cases[i].n, got,
                     cases[i].want);
    }
    fig_plural_t en;
    fig_plural_english(&en);
    assert_int_equal(fig_plural_index(&en, 0), 1);
    assert_int_equal(fig_plural_index(&en, 1), 0);
    assert_int_equal(fig_plural_index(&en, 2), 1);
}

static void test_plural_errors(void **state)
{
    (void)state;
    static const char *bad[] = {
        "", "plural=n;", "nplurals=2;", "nplurals=2; plural=", "nplurals=2; plural=;",
        "nplurals=2; plural=n n;", "nplurals=2; plural=(n;", "nplurals=2; plural=n);",
        "nplurals=2; plural=n ? 1 : ;", "nplurals=2; plural=n | 1;", "nplurals=2; plural=-n;",
        "nplurals=2; plural=n >> 1;", "nplurals=17; plural=0;", "nplurals=0; plural=0;",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fig_plural_t p;
        fig_msg_t msg = { "", 0 };
        if (fig_plural_parse(&p, bad[i], &msg) == FIG_OK)
            fail_msg("'%s' accepted", bad[i]);
        assert_non_null(strstr(msg.text, "Plural-Forms"));
        /* a failed parse leaves English */
        assert_int_equal(p.nplurals, 2);
        assert_int_equal(fig_plural_index(&p, 1), 0);
        assert_int_equal(fig_plural_index(&p, 5), 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_languages),
        cmocka_unit_test(test_table_is_the_catalogues),
        cmocka_unit_test(test_real_french),
        cmocka_unit_test(test_real_dutch),
        cmocka_unit_test(test_real_italian),
        cmocka_unit_test(test_english),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_agrees_with_gettext),
        cmocka_unit_test(test_files_in_temp_dir),
        cmocka_unit_test(test_small_both_byte_orders),
        cmocka_unit_test(test_real_byte_swapped),
        cmocka_unit_test(test_bad_magic_and_size),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_hostile_headers),
        cmocka_unit_test(test_header_is_no_message),
        cmocka_unit_test(test_plural_expressions),
        cmocka_unit_test(test_plural_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
