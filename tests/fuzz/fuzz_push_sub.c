/* SPDX-License-Identifier: MIT */
/* fuzz_push_sub.c - libFuzzer target for Web Push subscriptions
 * (src/net/push/push_sub.h) and the allow list of where the server may
 * post (push_addr.h), seeded from tests/fuzz/corpus-push-sub.
 *
 * The input is a subscription's JSON text. Beyond "no crash": a refusal
 * names what it refuses and a subscription taken holds what the header
 * says (an endpoint whose URL reads the same again, its origin a prefix
 * of the URL's spelling in lower case, a key that starts 0x04), and its
 * fields written again as JSON read back to the same subscription. The
 * same bytes, up to a NUL, are then read as an allow list: one taken has
 * 1 to FIG_PUSH_ALLOW_MAX entries, and a few addresses are judged against
 * it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/base/b64url.h"
#include "net/push/push_addr.h"
#include "net/push/push_sub.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok)
{
    if (!ok)
        abort();
}

/* Field by field: a struct's padding is no part of its value. */
static bool same_url(const fig_push_url_t *a, const fig_push_url_t *b)
{
    return a->kind == b->kind && strcmp(a->host, b->host) == 0 && a->port == b->port &&
           a->target == b->target && strcmp(a->origin, b->origin) == 0;
}

static bool same_sub(const fig_push_sub_t *a, const fig_push_sub_t *b)
{
    return strcmp(a->endpoint, b->endpoint) == 0 && same_url(&a->url, &b->url) &&
           a->expires == b->expires && (!a->expires || a->expires_ms == b->expires_ms) &&
           memcmp(a->p256dh, b->p256dh, sizeof a->p256dh) == 0 &&
           memcmp(a->auth, b->auth, sizeof a->auth) == 0;
}

/* s written again as JSON and read back: the same subscription. */
static void round_trip(const fig_push_sub_t *s)
{
    char p256dh[128], auth[32];
    check(fig_b64url_encode(s->p256dh, sizeof s->p256dh, p256dh, sizeof p256dh, NULL) == FIG_OK);
    check(fig_b64url_encode(s->auth, sizeof s->auth, auth, sizeof auth, NULL) == FIG_OK);
    json_t *v = json_pack("{s:s, s:o, s:{s:s, s:s}}", "endpoint", s->endpoint, "expirationTime",
                          s->expires ? json_integer(s->expires_ms) : json_null(), "keys",
                          "p256dh", p256dh, "auth", auth);
    check(v != NULL);
    fig_push_sub_t again;
    check(fig_push_sub_from_json(&again, v, NULL) == FIG_OK);
    json_decref(v);
    check(same_sub(&again, s));
}

static void subscription(const uint8_t *data, size_t size)
{
    fig_push_sub_t s;
    memset(&s, 0, sizeof s);
    fig_msg_t msg = {0};
    fig_err_t rc = fig_push_sub_parse(&s, (const char *)data, size, &msg);
    if (rc != FIG_OK) {
        check(rc == FIG_ERR_INPUT && msg.text[0] != '\0');
        return;
    }
    size_t len = strlen(s.endpoint);
    check(len <= FIG_PUSH_URL_MAX && s.p256dh[0] == 0x04);
    fig_push_url_t u;
    check(fig_push_url_parse(&u, s.endpoint, len, NULL) == FIG_OK);
    check(same_url(&u, &s.url));
    check(u.port >= 1 && u.port <= 65535 && u.target <= len);
    size_t o = strlen(u.origin);
    check(o >= 8 && strncmp(u.origin, "https://", 8) == 0);
    if (u.port == 443 && u.kind != FIG_PUSH_HOST_IPV6)
        for (size_t i = 0; i < o; i++)
            check(u.origin[i] == (s.endpoint[i] >= 'A' && s.endpoint[i] <= 'Z'
                                      ? s.endpoint[i] - 'A' + 'a' : s.endpoint[i]));
    round_trip(&s);
}

static void allow_list(const uint8_t *data, size_t size)
{
    size_t n = strnlen((const char *)data, size);
    char *text = malloc(n + 1);
    check(text != NULL);
    memcpy(text, data, n);
    text[n] = '\0';
    fig_push_allow_t a;
    fig_msg_t msg = {0};
    fig_err_t rc = fig_push_allow_parse(&a, text, &msg);
    free(text);
    if (rc != FIG_OK) {
        check(rc == FIG_ERR_INPUT && msg.text[0] != '\0');
        return;
    }
    check(a.n >= 1 && a.n <= FIG_PUSH_ALLOW_MAX);
    static const char *const v6[] = {"::1", "64:ff9b::7f00:1", "2002:a00:1::", "fd00::1"};
    for (size_t i = 0; i < sizeof v6 / sizeof *v6; i++) {
        struct sockaddr_storage ss;
        memset(&ss, 0, sizeof ss);
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(8443);
        check(inet_pton(AF_INET6, v6[i], &in6->sin6_addr) == 1);
        rc = fig_push_addr_check(&a, "push.example", &ss, &msg);
        check(rc == FIG_OK || rc == FIG_ERR_INPUT);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    subscription(data, size);
    allow_list(data, size);
    return 0;
}
