/* SPDX-License-Identifier: MIT */
/* test_wire.c - the web folder's paths (net/wire/wire.h: fig_wire_web_path),
 * content types, and the choice of a file's gzip copy (Accept-Encoding, a
 * stale or missing copy, one that leads out of the folder) on real files
 * in a temporary folder; what Origin and X-Forwarded-For say (net/wire/hosts.h). The wire itself runs over real sockets in
 * tests/net/test_serve.py; these are the checks that keep a request inside
 * the folder, whatever libwebsockets decoded or normalised before. */
#define _DEFAULT_SOURCE   /* realpath, mkdtemp, symlink */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/wire/hosts.h"
#include "net/wire/wire.h"

static void check(const char *path, int want, const char *rel)
{
    char out[128] = "";
    int got = fig_wire_web_path(path, out, sizeof out);
    if (got != want)
        fail_msg("%s: status %d, want %d", path, got, want);
    if (want == 0)
        assert_string_equal(out, rel);
}

static void test_files_of_the_folder(void **state)
{
    (void)state;
    check("/", 0, "index.html");
    check("/index.html", 0, "index.html");
    check("/app.js", 0, "app.js");
    check("/img/cards-v2.svg", 0, "img/cards-v2.svg");
    check("/img/", 0, "img/index.html");
    check("/app.gzip.js", 0, "app.gzip.js");
}

static void test_leaving_the_folder_is_refused(void **state)
{
    (void)state;
    check("/..", 400, NULL);
    check("/../Makefile", 400, NULL);
    check("/img/../../etc/passwd", 400, NULL);
    check("/./index.html", 400, NULL);
    check("/.git/config", 400, NULL);
    check("/img/.hidden", 400, NULL);
    check("//etc/passwd", 400, NULL);
    check("/img//x.js", 400, NULL);
    check("/%2e%2e/Makefile", 400, NULL);
    check("/..%2fMakefile", 400, NULL);
    check("/..\\Makefile", 400, NULL);
    check("/a\x01" "b", 400, NULL);
    check("etc/passwd", 400, NULL);     /* not absolute: not a URL path */
    check("", 400, NULL);
    check(NULL, 400, NULL);
    check("/a b.html", 404, NULL);      /* no file of ours is named so */
    check("/caf\xc3\xa9.html", 404, NULL);
    check("/app.js.gz", 404, NULL);     /* a gzip copy, only ever sent in its file's place */
    check("/app.js.GZ", 404, NULL);
    check("/.gz", 400, NULL);
    char longp[700];
    memset(longp, 'a', sizeof longp - 1);
    longp[0] = '/';
    longp[sizeof longp - 1] = '\0';
    check(longp, 404, NULL);
    char small[8];
    assert_int_equal(fig_wire_web_path("/index.html", small, sizeof small), 404);
}

static void test_content_types(void **state)
{
    (void)state;
    assert_string_equal(fig_wire_mime("index.html"), "text/html; charset=utf-8");
    assert_string_equal(fig_wire_mime("a/app.JS"), "text/javascript; charset=utf-8");
    assert_string_equal(fig_wire_mime("x.css"), "text/css; charset=utf-8");
    assert_string_equal(fig_wire_mime("x.svg"), "image/svg+xml");
    assert_string_equal(fig_wire_mime("x.wasm"), "application/wasm");
    assert_string_equal(fig_wire_mime("html"), "application/octet-stream");
    assert_string_equal(fig_wire_mime("x.exe"), "application/octet-stream");
}

static void test_accept_encoding(void **state)
{
    (void)state;
    static const struct {
        const char *value;
        bool gzip;
    } cases[] = {
        { "gzip", true },
        { "gzip, deflate, br, zstd", true },   /* a browser's */
        { "GZIP", true },
        { "x-gzip", true },
        { "br;q=1.0, gzip;q=0.8, *;q=0.1", true },
        { " \tgzip \t;\tq=0.5 ", true },
        { "gzip;q=1", true },
        { "gzip;q=0.001", true },
        { "gzip;Q=0.5", true },
        { "*", true },
        { "br, *;q=0.5", true },
        { "gzip;level=9", true },               /* another parameter: ignored */
        { "", false },
        { NULL, false },                        /* no header: the file as it is */
        { "identity", false },
        { "br, deflate", false },
        { "gzip;q=0", false },
        { "br, gzip\t ; q=0 \t", false },      /* blanks around a refusal */
        { "gzip;q=0.000", false },
        { "gzip;q=0.", false },
        { "gzip;q=0, *", false },               /* named and refused: "*" does not bring it back */
        { "*, gzip;q=0", false },
        { "gzip, gzip;q=0", false },            /* a refusal wins */
        { "*;q=0", false },
        { "*;q=0, br", false },
        { "gzip;q=2", false },                  /* a malformed weight: the element is nothing */
        { "gzip;q=1.5", false },
        { "gzip;q=0.0001", false },
        { "gzip;q=", false },
        { "gzip;q=x", false },
        { "gzip;q=-1", false },
        { "gzipx", false },
        { "xgzip", false },
        { "gz", false },
        { "gzip deflate", false },
        { ",,,", false },
        { ";q=1", false },
        { "gzip;q=2, *", true },                /* the malformed gzip is ignored, "*" takes it */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (fig_webfiles_accepts_gzip(cases[i].value) != cases[i].gzip)
            fail_msg("Accept-Encoding \"%s\": want gzip %s", cases[i].value ? cases[i].value : "(none)",
                     cases[i].gzip ? "yes" : "no");
}

static void test_origin_and_forwarded(void **state)
{
    (void)state;
    assert_true(fig_hosts_same_origin("http://figaro.example", "figaro.example"));
    assert_true(fig_hosts_same_origin("HTTPS://Figaro.Example:8443", "figaro.example:8443"));
    assert_false(fig_hosts_same_origin("https://evil.example", "figaro.example"));
    assert_false(fig_hosts_same_origin("null", "figaro.example"));
    assert_false(fig_hosts_same_origin("file://figaro.example", "figaro.example"));
    assert_false(fig_hosts_same_origin("https://figaro.example.evil", "figaro.example"));
    char addr[64] = "peer";
    assert_true(fig_hosts_forwarded("10.0.0.1, 192.0.2.7", addr, sizeof addr));
    assert_string_equal(addr, "192.0.2.7");   /* the proxy's entry: the last */
    assert_true(fig_hosts_forwarded(" 2001:db8::1 \t", addr, sizeof addr));
    assert_string_equal(addr, "2001:db8::1");
    strcpy(addr, "peer");
    assert_false(fig_hosts_forwarded("192.0.2.7, evil.example", addr, sizeof addr));
    assert_false(fig_hosts_forwarded("", addr, sizeof addr));
    assert_false(fig_hosts_forwarded("1.2.3.4,", addr, sizeof addr));
    assert_false(fig_hosts_forwarded("1.2.3.4 5.6.7.8", addr, sizeof addr));
    assert_false(fig_hosts_forwarded("192.0.2.7", addr, 9));   /* does not fit */
    assert_string_equal(addr, "peer");        /* left alone each time */
}

/* A temporary web folder (its real path) and a folder beside it. */
typedef struct {
    char base[PATH_MAX], root[PATH_MAX + 8], out[PATH_MAX + 8];
} folder_t;

static void put(const char *dir, const char *name, const char *text, time_t mtime)
{
    char p[PATH_MAX * 2 + 16];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    struct timespec t[2] = { { mtime, 0 }, { mtime, 0 } };
    assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
}

static void folder_make(folder_t *f)
{
    char tmpl[] = "/tmp/figaro-test-wire-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    assert_non_null(realpath(tmpl, f->base));
    snprintf(f->root, sizeof f->root, "%s/web", f->base);
    snprintf(f->out, sizeof f->out, "%s/out", f->base);
    assert_int_equal(mkdir(f->root, 0700), 0);
    assert_int_equal(mkdir(f->out, 0700), 0);
}

static void folder_remove(const folder_t *f)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->base);
    assert_int_equal(system(cmd), 0);
}

/* Reads rel as the wire would; returns the body (static) or NULL for a
 * status other than 200. */
static const char *get(const folder_t *f, const char *rel, bool gzip_ok, fig_webfile_coding_t *how)
{
    static char text[256];
    fig_http_answer_t a = { 0, NULL, NULL, 0, "", 0 };
    int st = fig_webfiles_read(f->root, rel, gzip_ok, &a, how);
    if (st != 200) {
        assert_int_equal(st, 404);
        assert_false(how->gzip);
        return NULL;
    }
    assert_true(a.len < sizeof text);
    memcpy(text, a.body, a.len);
    text[a.len] = '\0';
    assert_string_equal(a.type, fig_wire_mime(rel));   /* the file's type, gzip or not */
    free(a.body);
    return text;
}

static void test_gzip_copy(void **state)
{
    (void)state;
    folder_t f;
    folder_make(&f);
    fig_webfile_coding_t how;
    /* A fresh copy: sent to a client that takes gzip, with Vary; the file
     * to one that does not, with Vary too (the answer depends on it). */
    put(f.root, "app.js", "plain", 1000);
    put(f.root, "app.js.gz", "GZ", 1000);          /* as old as its file: fresh */
    assert_string_equal(get(&f, "app.js", true, &how), "GZ");
    assert_true(how.gzip && how.vary);
    assert_string_equal(get(&f, "app.js", false, &how), "plain");
    assert_true(!how.gzip && how.vary);
    /* Stale: the file was edited after its copy was made. */
    put(f.root, "app.js", "edited", 1001);
    assert_string_equal(get(&f, "app.js", true, &how), "edited");
    assert_true(!how.gzip && how.vary);
    put(f.root, "app.js.gz", "GZ2", 2000);
    assert_string_equal(get(&f, "app.js", true, &how), "GZ2");
    /* No copy: the file, no Vary. */
    put(f.root, "icon.png", "png", 1000);
    assert_string_equal(get(&f, "icon.png", true, &how), "png");
    assert_true(!how.gzip && !how.vary);
    /* A copy without its file is not served. */
    put(f.root, "gone.js.gz", "GZ", 1000);
    assert_null(get(&f, "gone.js", true, &how));
    /* A copy that leads out of the folder, or is not a file: the file. */
    put(f.root, "style.css", "css", 1000);
    put(f.out, "secret.gz", "SECRET", 3000);
    char target[PATH_MAX + 64], link[PATH_MAX + 64];
    snprintf(target, sizeof target, "%s/secret.gz", f.out);
    snprintf(link, sizeof link, "%s/style.css.gz", f.root);
    assert_int_equal(symlink(target, link), 0);
    assert_string_equal(get(&f, "style.css", true, &how), "css");
    assert_false(how.gzip);
    put(f.root, "index.html", "html", 1000);
    snprintf(link, sizeof link, "%s/index.html.gz", f.root);
    assert_int_equal(mkdir(link, 0700), 0);
    assert_string_equal(get(&f, "index.html", true, &how), "html");
    assert_false(how.gzip);
    /* A copy linked inside the folder is as good as a file there. */
    put(f.root, "real.gz", "INSIDE", 3000);
    put(f.root, "a.json", "{}", 1000);
    snprintf(link, sizeof link, "%s/a.json.gz", f.root);
    assert_int_equal(symlink("real.gz", link), 0);
    assert_string_equal(get(&f, "a.json", true, &how), "INSIDE");
    assert_true(how.gzip);
    /* A file that leads out of the folder has no copy to offer either. */
    put(f.out, "x.js", "out", 1000);
    put(f.out, "x.js.gz", "OUT", 1000);
    snprintf(target, sizeof target, "%s/x.js", f.out);
    snprintf(link, sizeof link, "%s/x.js", f.root);
    assert_int_equal(symlink(target, link), 0);
    assert_null(get(&f, "x.js", true, &how));
    folder_remove(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_of_the_folder),
        cmocka_unit_test(test_leaving_the_folder_is_refused),
        cmocka_unit_test(test_content_types),
        cmocka_unit_test(test_accept_encoding),
        cmocka_unit_test(test_origin_and_forwarded),
        cmocka_unit_test(test_gzip_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
