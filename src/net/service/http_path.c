/* SPDX-License-Identifier: MIT */
/* http_path.c - the service's HTTP paths and queries, read (http_path.h). */
#include "net/service/http_path.h"

#include <string.h>

/* A span of the target: the path or one parameter of the query. */
typedef struct {
    const char *s;
    size_t n;
} span_t;

static bool is(span_t x, const char *lit)
{
    return x.n == strlen(lit) && memcmp(x.s, lit, x.n) == 0;
}

/* Takes lit off the front of *x. */
static bool eat(span_t *x, const char *lit)
{
    size_t k = strlen(lit);
    if (x->n < k || memcmp(x->s, lit, k) != 0)
        return false;
    x->s += k;
    x->n -= k;
    return true;
}

/* Takes n capitals or digits off the front of *x into out (n + 1 bytes). */
static bool eat_code(span_t *x, size_t n, char out[])
{
    if (x->n < n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = x->s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return false;
        out[i] = c;
    }
    out[n] = '\0';
    x->s += n;
    x->n -= n;
    return true;
}

/* What is left of *x is a number (1 to FIG_HTTP_NUMBER_DIGITS digits; a
 * leading zero only if `zeros`, or "0" alone) then ".fgn" or ".json". */
static bool number_ext(span_t x, bool zeros, int *num, bool *json)
{
    size_t d = 0;
    long v = 0;
    while (d < x.n && d < FIG_HTTP_NUMBER_DIGITS && x.s[d] >= '0' && x.s[d] <= '9')
        v = v * 10 + (x.s[d++] - '0');
    if (d == 0 || (!zeros && x.s[0] == '0' && d > 1))
        return false;
    span_t ext = { x.s + d, x.n - d };
    *json = is(ext, ".json");
    if (!*json && !is(ext, ".fgn"))
        return false;
    *num = (int)v;
    return true;
}

/* /tables/CODE/games/N.fgn|.json (x: after "/tables/"). */
static fig_http_route_t table_game(span_t x, fig_http_path_t *out)
{
    int n;
    bool json;
    if (!eat_code(&x, FIG_TABLE_CODE_LEN, out->code) || !eat(&x, "/games/") ||
        !number_ext(x, true, &n, &json) || n < 1) {
        out->code[0] = '\0';
        return FIG_HTTP_NONE;
    }
    out->game = n;
    out->json = json;
    return FIG_HTTP_TABLE_GAME;
}

/* /api/people/ID[/games/I.fgn|.json] (x: after "/api/people/"). */
static fig_http_route_t person(span_t x, fig_http_path_t *out)
{
    int n;
    bool json;
    fig_http_route_t r = FIG_HTTP_NONE;
    if (eat_code(&x, FIG_PERSON_ID_LEN, out->person)) {
        if (x.n == 0)
            return FIG_HTTP_PERSON;
        if (eat(&x, "/games/") && number_ext(x, false, &n, &json)) {
            out->game = n;
            out->json = json;
            r = FIG_HTTP_PERSON_GAME;
        }
    }
    if (r == FIG_HTTP_NONE)
        out->person[0] = '\0';
    return r;
}

/* The query's parameters (what follows '?'). */
static void query(const char *q, fig_http_path_t *out)
{
    bool lang_seen = false;
    while (*q) {
        span_t x = { q, strcspn(q, "&") };
        q += x.n + (q[x.n] == '&');
        if (is(x, "download=1"))
            out->download = true;
        else if (!lang_seen && eat(&x, "lang=")) {
            lang_seen = true;   /* the first one counts, whatever it holds */
            if (x.n >= 1 && x.n <= FIG_HTTP_LANG_MAX &&
                strspn(x.s, "abcdefghijklmnopqrstuvwxyz_") >= x.n) {
                memcpy(out->lang, x.s, x.n);
                out->lang[x.n] = '\0';
            }
        }
    }
}

fig_http_route_t fig_http_path_parse(const char *target, fig_http_path_t *out)
{
    memset(out, 0, sizeof *out);
    out->game = -1;
    if (!target)
        return out->route = FIG_HTTP_NONE;
    span_t x = { target, strcspn(target, "?") };
    bool has_query = target[x.n] == '?';
    if (has_query)
        query(target + x.n + 1, out);
    fig_http_route_t r = FIG_HTTP_NONE;
    if (is(x, "/healthz"))
        r = has_query ? FIG_HTTP_NONE : FIG_HTTP_HEALTHZ;
    else if (is(x, "/metrics"))
        r = has_query ? FIG_HTTP_NONE : FIG_HTTP_METRICS;
    else if (is(x, "/api/leaderboard"))
        r = FIG_HTTP_LEADERBOARD;
    else if (is(x, "/replay"))
        r = FIG_HTTP_REPLAY;
    else if (eat(&x, "/tables/"))
        r = table_game(x, out);
    else if (eat(&x, "/api/people/"))
        r = person(x, out);
    return out->route = r;
}

bool fig_http_path_replays(const fig_http_path_t *p)
{
    return (p->route == FIG_HTTP_TABLE_GAME || p->route == FIG_HTTP_PERSON_GAME) && p->json;
}
