/* SPDX-License-Identifier: MIT */
/* fuzz_http_path.c - libFuzzer target for the service's HTTP paths
 * (src/net/service/http_path.h), seeded from tests/fuzz/corpus-http-path.
 *
 * The input, up to its first NUL, is a request's target. Beyond "no crash":
 * the parse is the same twice; a route's fields are well formed (a table's
 * code 6 capitals or digits, a person's id 10, a game 1 to 999999999 or an
 * index 0 to 999999999) and the others empty; the path is the route's one
 * spelling (written again from the fields it reads the same, and for all
 * but a table's game, whose number may have leading zeros, it is those very
 * bytes); the language is 1 to 15 of a-z and '_' and stands in the query
 * as its first lang= parameter, download=1 as a parameter of its own; and
 * the query does not change the route (but for /healthz and /metrics,
 * which take none). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/service/http_path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok)
{
    if (!ok)
        abort();
}

static bool well_formed(const char *s, size_t n)
{
    if (strlen(s) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

/* Whether the query q holds the parameter `param` whole; first_lang: and
 * no other "lang=" parameter before it. */
static bool has_param(const char *q, const char *param, bool first_lang)
{
    size_t n = strlen(param);
    while (*q) {
        size_t k = strcspn(q, "&");
        if (k == n && memcmp(q, param, n) == 0)
            return true;
        if (first_lang && strncmp(q, "lang=", 5) == 0)
            return false;
        q += k + (q[k] == '&');
    }
    return false;
}

/* The parse of target's path part with query appended. */
static fig_http_route_t with_query(const char *target, size_t plen, const char *query,
                                   fig_http_path_t *p)
{
    char *t = malloc(plen + strlen(query) + 1);
    check(t != NULL);
    memcpy(t, target, plen);
    strcpy(t + plen, query);
    fig_http_route_t r = fig_http_path_parse(t, p);
    free(t);
    return r;
}

static void check_fields(const char *target, const fig_http_path_t *p)
{
    size_t plen = strcspn(target, "?");
    const char *q = target[plen] ? target + plen + 1 : "";
    bool game = p->route == FIG_HTTP_TABLE_GAME || p->route == FIG_HTTP_PERSON_GAME;
    check(p->route >= FIG_HTTP_NONE && p->route <= FIG_HTTP_REPLAY);
    check(p->route == FIG_HTTP_TABLE_GAME ? well_formed(p->code, FIG_TABLE_CODE_LEN)
                                          : p->code[0] == '\0');
    check(p->route == FIG_HTTP_PERSON || p->route == FIG_HTTP_PERSON_GAME
              ? well_formed(p->person, FIG_PERSON_ID_LEN) : p->person[0] == '\0');
    check(game ? p->game >= (p->route == FIG_HTTP_TABLE_GAME) && p->game <= 999999999
               : p->game == -1);
    check(game || !p->json);
    check(fig_http_path_replays(p) == (game && p->json));
    size_t ln = strlen(p->lang);
    check(ln <= FIG_HTTP_LANG_MAX && strspn(p->lang, "abcdefghijklmnopqrstuvwxyz_") == ln);
    if (ln) {
        char param[FIG_HTTP_LANG_MAX + 8];
        snprintf(param, sizeof param, "lang=%s", p->lang);
        check(has_param(q, param, true));
    }
    check(p->download == has_param(q, "download=1", false));
    /* The one spelling: written again from the fields. */
    char again[96];
    const char *ext = p->json ? "json" : "fgn";
    again[0] = '\0';
    if (p->route == FIG_HTTP_TABLE_GAME)
        snprintf(again, sizeof again, "/tables/%s/games/%d.%s", p->code, p->game, ext);
    else if (p->route == FIG_HTTP_PERSON_GAME)
        snprintf(again, sizeof again, "/api/people/%s/games/%d.%s", p->person, p->game, ext);
    else if (p->route == FIG_HTTP_PERSON)
        snprintf(again, sizeof again, "/api/people/%s", p->person);
    else if (p->route != FIG_HTTP_NONE)
        snprintf(again, sizeof again, "%s",
                 p->route == FIG_HTTP_HEALTHZ ? "/healthz" : p->route == FIG_HTTP_METRICS
                 ? "/metrics" : p->route == FIG_HTTP_LEADERBOARD ? "/api/leaderboard" : "/replay");
    if (again[0] && p->route != FIG_HTTP_TABLE_GAME)
        check(strlen(again) == plen && memcmp(again, target, plen) == 0);
    if (again[0]) {
        fig_http_path_t b;
        check(fig_http_path_parse(again, &b) == p->route);
        check(strcmp(b.code, p->code) == 0 && strcmp(b.person, p->person) == 0 &&
              b.game == p->game && b.json == p->json && !b.lang[0] && !b.download);
    }
    /* The query changes nothing of the path's reading. */
    fig_http_path_t b;
    fig_http_route_t r = with_query(target, plen, "?lang=fr&download=1", &b);
    bool bare = p->route == FIG_HTTP_HEALTHZ || p->route == FIG_HTTP_METRICS;
    check(r == (bare ? FIG_HTTP_NONE : p->route));
    check(strcmp(b.code, p->code) == 0 && strcmp(b.person, p->person) == 0 &&
          b.game == p->game && b.json == p->json);
    check(strcmp(b.lang, "fr") == 0 && b.download);   /* read whatever the route */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *target = malloc(size + 1);
    if (!target)
        return 0;
    memcpy(target, data, size);
    target[size] = '\0';   /* a NUL inside ends it, as it would a C string */
    fig_http_path_t a, b;
    memset(&b, 0xa5, sizeof b);   /* nothing of what out held before stays */
    fig_http_route_t r = fig_http_path_parse(target, &a);
    check(r == a.route);
    check(fig_http_path_parse(target, &b) == r);
    check(memcmp(&a, &b, sizeof a) == 0);
    check_fields(target, &a);
    free(target);
    return 0;
}
