/* SPDX-License-Identifier: MIT */
/* test_http_path.c - the service's HTTP paths (net/service/http_path.h): every
 * route with its fields, every spelling refused (the service answers 404
 * to those), the numbers at their bounds, the query's language and
 * download, percent-encoding left alone (libwebsockets decodes before), and
 * very long targets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "net/service/http_path.h"

#define ID "AB3DEFGH2K"   /* a person's id: 10 capitals or digits */

/* target's parse, twice: the same every time, whatever out held before. */
static fig_http_path_t parse(const char *target)
{
    fig_http_path_t a, b;
    memset(&a, 0x5a, sizeof a);
    memset(&b, 0xa5, sizeof b);
    fig_http_route_t r = fig_http_path_parse(target, &a);
    assert_int_equal(r, a.route);
    assert_int_equal(fig_http_path_parse(target, &b), r);
    assert_memory_equal(&a, &b, sizeof a);
    return a;
}

static void refused(const char *target)
{
    fig_http_path_t p = parse(target);
    if (p.route != FIG_HTTP_NONE)
        fail_msg("\"%s\" is route %d, not refused", target, p.route);
    assert_string_equal(p.code, "");
    assert_string_equal(p.person, "");
    assert_int_equal(p.game, -1);
    assert_false(p.json);
    assert_false(fig_http_path_replays(&p));
}

static void test_plain_routes(void **state)
{
    (void)state;
    static const struct {
        const char *target;
        fig_http_route_t route;
    } cases[] = {
        { "/healthz", FIG_HTTP_HEALTHZ },
        { "/metrics", FIG_HTTP_METRICS },
        { "/api/leaderboard", FIG_HTTP_LEADERBOARD },
        { "/api/leaderboard?lang=fr", FIG_HTTP_LEADERBOARD },
        { "/replay", FIG_HTTP_REPLAY },
        { "/replay?lang=nl", FIG_HTTP_REPLAY },
        { "/replay?", FIG_HTTP_REPLAY },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fig_http_path_t p = parse(cases[i].target);
        assert_int_equal(p.route, cases[i].route);
        assert_string_equal(p.code, "");
        assert_string_equal(p.person, "");
        assert_int_equal(p.game, -1);
        assert_false(fig_http_path_replays(&p));
    }
    /* /healthz and /metrics are those bytes alone: a query is not theirs. */
    static const char *const bad[] = {
        "/healthz?", "/healthz?lang=fr", "/metrics?x", "/healthz/", "/HEALTHZ", "/healthzz",
        "/metric", "/api/leaderboard/", "/api/leaderboards", "/replay/", "/replayed", "/REPLAY",
        "", "/", "?", "/api", "/api/", "/tables", "/tables/", "healthz", "//healthz",
        "/favicon.ico", "/ws",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused(bad[i]);
    fig_http_path_t p;
    assert_int_equal(fig_http_path_parse(NULL, &p), FIG_HTTP_NONE);
    assert_int_equal(p.game, -1);
}

static void test_table_game(void **state)
{
    (void)state;
    fig_http_path_t p = parse("/tables/ABC123/games/1.fgn");
    assert_int_equal(p.route, FIG_HTTP_TABLE_GAME);
    assert_string_equal(p.code, "ABC123");
    assert_string_equal(p.person, "");
    assert_int_equal(p.game, 1);
    assert_false(p.json);
    assert_false(fig_http_path_replays(&p));
    p = parse("/tables/ZZZZZZ/games/17.json?lang=fr");
    assert_int_equal(p.route, FIG_HTTP_TABLE_GAME);
    assert_string_equal(p.code, "ZZZZZZ");
    assert_int_equal(p.game, 17);
    assert_true(p.json);
    assert_string_equal(p.lang, "fr");
    assert_true(fig_http_path_replays(&p));
    /* N: 1 to 9 digits, at least 1; leading zeros are read (01 is game 1). */
    static const struct {
        const char *n;
        int game;
    } ok[] = { { "999999999", 999999999 }, { "01", 1 }, { "000000001", 1 }, { "100", 100 },
               { "123456789", 123456789 } };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char t[64];
        snprintf(t, sizeof t, "/tables/000000/games/%s.json", ok[i].n);
        p = parse(t);
        assert_int_equal(p.route, FIG_HTTP_TABLE_GAME);
        assert_int_equal(p.game, ok[i].game);
        assert_string_equal(p.code, "000000");
    }
    static const char *const bad[] = {
        "/tables/ABC123/games/0.fgn", "/tables/ABC123/games/000000000.fgn",
        "/tables/ABC123/games/1000000000.fgn", "/tables/ABC123/games/0000000001.fgn",
        "/tables/ABC123/games/+1.fgn", "/tables/ABC123/games/-1.fgn",
        "/tables/ABC123/games/ 1.fgn", "/tables/ABC123/games/1 .fgn",
        "/tables/ABC123/games/1.FGN", "/tables/ABC123/games/1.Json",
        "/tables/ABC123/games/1.fgn/", "/tables/ABC123/games/1.fgnx",
        "/tables/ABC123/games/1.json.fgn", "/tables/ABC123/games/1.txt",
        "/tables/ABC123/games/.fgn", "/tables/ABC123/games/1fgn", "/tables/ABC123/games/1",
        "/tables/ABC123/games/", "/tables/ABC123/games", "/tables/ABC123",
        "/tables/ABC123/", "/tables/abc123/games/1.fgn", "/tables/ABC12/games/1.fgn",
        "/tables/ABC1234/games/1.fgn", "/tables/ABC-12/games/1.fgn",
        "/tables/ABC123/game/1.fgn", "/tables/ABC123//games/1.fgn",
        "/tables//games/1.fgn", "/tables/ABC123/games//1.fgn",
        "//tables/ABC123/games/1.fgn", "/Tables/ABC123/games/1.fgn",
        "/tables/ABC123/games/0x1.fgn", "/tables/ABC123/games/1e3.fgn",
        /* percent-encoding is the wire's to decode: here it is no code */
        "/tables/ABC%31%32/games/1.fgn", "/tables/ABC123/games/%31.fgn",
        "/tables/ABC123%2Fgames%2F1.fgn", "/tables/ABC123/games/1%2Efgn",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused(bad[i]);
}

static void test_person(void **state)
{
    (void)state;
    fig_http_path_t p = parse("/api/people/" ID);
    assert_int_equal(p.route, FIG_HTTP_PERSON);
    assert_string_equal(p.person, ID);
    assert_string_equal(p.code, "");
    assert_int_equal(p.game, -1);
    assert_false(p.download);
    assert_false(fig_http_path_replays(&p));
    p = parse("/api/people/" ID "?download=1");
    assert_int_equal(p.route, FIG_HTTP_PERSON);
    assert_true(p.download);
    p = parse("/api/people/" ID "/games/0.fgn");
    assert_int_equal(p.route, FIG_HTTP_PERSON_GAME);
    assert_string_equal(p.person, ID);
    assert_int_equal(p.game, 0);
    assert_false(p.json);
    assert_false(fig_http_path_replays(&p));
    p = parse("/api/people/0000000000/games/999999999.json?lang=it");
    assert_int_equal(p.route, FIG_HTTP_PERSON_GAME);
    assert_string_equal(p.person, "0000000000");
    assert_int_equal(p.game, 999999999);
    assert_true(p.json);
    assert_string_equal(p.lang, "it");
    assert_true(fig_http_path_replays(&p));
    p = parse("/api/people/" ID "/games/10.json");
    assert_int_equal(p.game, 10);
    /* I as %d writes it: no sign, no leading zero, at most 9 digits. */
    static const char *const bad[] = {
        "/api/people/" ID "/games/01.json", "/api/people/" ID "/games/00.fgn",
        "/api/people/" ID "/games/+1.fgn", "/api/people/" ID "/games/-0.json",
        "/api/people/" ID "/games/-1.fgn", "/api/people/" ID "/games/ 1.fgn",
        "/api/people/" ID "/games/1000000000.fgn", "/api/people/" ID "/games/0.JSON",
        "/api/people/" ID "/games/0.json/", "/api/people/" ID "/games/0.jsonx",
        "/api/people/" ID "/games/.json", "/api/people/" ID "/games/0json",
        "/api/people/" ID "/games/0.json.fgn", "/api/people/" ID "/games/0",
        "/api/people/" ID "/games/", "/api/people/" ID "/games", "/api/people/" ID "/",
        "/api/people/" ID "/game/0.fgn", "/api/people/" ID "//games/0.fgn",
        "/api/people/", "/api/people", "/api/people/abc", "/api/people/ab3defgh2k",
        "/api/people/AB3DEFGH2", "/api/people/AB3DEFGH2KL", "/api/people/AB3DEFGH2-",
        "/api/people/ZZZZZZZZZZ/games/%30.fgn", "/api/people/AB3DEFGH2%4B",
        "/api/person/" ID, "/api/people//" ID,
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused(bad[i]);
}

static void test_query(void **state)
{
    (void)state;
    static const struct {
        const char *query;
        const char *lang;
        bool download;
    } cases[] = {
        { "", "", false },
        { "lang=fr", "fr", false },
        { "lang=nl&download=1", "nl", true },
        { "download=1&lang=it", "it", true },
        { "lang=fr&lang=nl", "fr", false },      /* the first counts */
        { "lang=FR&lang=fr", "", false },        /* ... whatever it holds */
        { "lang=&lang=fr", "", false },
        { "x=1&lang=pt_br", "pt_br", false },
        { "lang=abcdefghijklmno", "abcdefghijklmno", false },   /* 15 */
        { "lang=abcdefghijklmnop", "", false },                 /* 16: no language */
        { "lang=f-r", "", false },
        { "lang=fr%20", "", false },
        { "lang", "", false },
        { "xlang=fr", "", false },
        { "Lang=fr", "", false },
        { "download=1", "", true },
        { "download=10", "", false },
        { "download=0", "", false },
        { "download", "", false },
        { "xdownload=1", "", false },
        { "&&download=1&&", "", true },
        { "lang=fr?lang=nl", "", false },
        { "?lang=fr", "", false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char t[128];
        snprintf(t, sizeof t, "/api/people/" ID "?%s", cases[i].query);
        fig_http_path_t p = parse(t);
        assert_int_equal(p.route, FIG_HTTP_PERSON);
        if (strcmp(p.lang, cases[i].lang) != 0)
            fail_msg("?%s: lang \"%s\", not \"%s\"", cases[i].query, p.lang, cases[i].lang);
        assert_int_equal(p.download, cases[i].download);
    }
}

/* Long targets: refused or read in full, never cut into a route. */
static void test_long(void **state)
{
    (void)state;
    enum { BIG = 1 << 17 };
    char *t = malloc(BIG + 64);
    assert_non_null(t);
    strcpy(t, "/tables/");
    memset(t + 8, 'A', BIG);
    t[8 + BIG] = '\0';
    refused(t);
    strcpy(t, "/api/people/" ID "/games/");
    size_t n = strlen(t);
    memset(t + n, '1', BIG);
    strcpy(t + n + BIG, ".json");
    refused(t);
    strcpy(t + n, "123456789");   /* the longest number */
    strcat(t, ".json");
    assert_int_equal(parse(t).game, 123456789);
    /* a long query: its parameters are all read */
    strcpy(t, "/tables/ABC123/games/2.json?");
    n = strlen(t);
    for (size_t i = n; i < n + BIG; i += 2)
        memcpy(t + i, "x&", 2);
    strcpy(t + n + BIG, "lang=nl&download=1");
    fig_http_path_t p = parse(t);
    assert_int_equal(p.route, FIG_HTTP_TABLE_GAME);
    assert_string_equal(p.lang, "nl");
    assert_true(p.download);
    /* a long language: none */
    strcpy(t, "/replay?lang=");
    n = strlen(t);
    memset(t + n, 'a', BIG);
    t[n + BIG] = '\0';
    p = parse(t);
    assert_int_equal(p.route, FIG_HTTP_REPLAY);
    assert_string_equal(p.lang, "");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_routes),
        cmocka_unit_test(test_table_game),
        cmocka_unit_test(test_person),
        cmocka_unit_test(test_query),
        cmocka_unit_test(test_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
