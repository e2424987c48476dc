/* SPDX-License-Identifier: MIT */
/* test_wire.c - the web folder's paths (net/wire.h: fig_wire_web_path) and
 * content types. The wire itself runs over real sockets in
 * tests/net/test_serve.py; these are the checks that keep a request inside
 * the folder, whatever libwebsockets decoded or normalised before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "net/wire.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files_of_the_folder),
        cmocka_unit_test(test_leaving_the_folder_is_refused),
        cmocka_unit_test(test_content_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
