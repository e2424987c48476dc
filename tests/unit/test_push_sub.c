/* SPDX-License-Identifier: MIT */
/* test_push_sub.c - Web Push subscriptions and where the server may post
 * (src/net/push/push_sub.h, push_url.h, push_addr.h), and base64url
 * (src/net/base/b64url.h): subscriptions as Chrome and Firefox send them,
 * each bad field refused with its name, RFC 4648's vectors in the url
 * alphabet, endpoints' URLs good and bad, the refused address ranges at
 * their first, last and just-outside addresses (and in their IPv4-mapped,
 * NAT64 and 6to4 forms), with and without an allow list, and the allow
 * list's reader. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "net/base/b64url.h"
#include "net/push/push_addr.h"
#include "net/push/push_sub.h"
#include "net/push/push_url.h"

/* RFC 8291, Appendix A: the user agent's public key and its auth secret. */
#define UA_PUBLIC "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
#define UA_AUTH "BTBZMqHH6r4Tts7J_aSIgg"
#define FCM "https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bHqjZxM0VImWWqDRN7U0a3AycjUf4O-" \
            "byuxb_wJsKRaKvV_iKw56s16ekq6FUqoCF7k2nICUpd8fHPxVTgqLunFeVeB9lLCQZyohyAztTH8ZQL9WCxKpA6" \
            "dvTG_TUIhQUFq_n"
#define MOZ "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmR9Vb1Fh3rP2kQ7-WxzJqKU_" \
            "N8cVj1rXwTn0bq7sLwF3Yd4hZ2mG6tK9eA5pR8uC1vB0nD7xS3oI4lE2jH6gM9fQ"

/* ---- base64url */

static void test_b64url_rfc4648_vectors(void **state)
{
    (void)state;
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const coded[] = {"", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"};
    static const char *const padded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
                                         "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char out[16];
        size_t n = strlen(plain[i]);
        assert_int_equal(fig_b64url_encoded_len(n), strlen(coded[i]));
        assert_int_equal(fig_b64url_encode(plain[i], n, out, sizeof out, NULL), FIG_OK);
        assert_string_equal(out, coded[i]);
        uint8_t back[8];
        size_t got = 99;
        assert_int_equal(fig_b64url_decode(coded[i], strlen(coded[i]), back, sizeof back, &got,
                                           NULL), FIG_OK);
        assert_int_equal(got, n);
        assert_memory_equal(back, plain[i], n);
        got = 99;
        assert_int_equal(fig_b64url_decode(padded[i], strlen(padded[i]), back, sizeof back,
                                           &got, NULL), FIG_OK);
        assert_int_equal(got, n);
        assert_memory_equal(back, plain[i], n);
    }
}

/* The two characters where the url alphabet differs from base64's. */
static void test_b64url_alphabet(void **state)
{
    (void)state;
    const uint8_t bytes[] = {0xfb, 0xff, 0xbf};
    char out[8];
    assert_int_equal(fig_b64url_encode(bytes, 3, out, sizeof out, NULL), FIG_OK);
    assert_string_equal(out, "-_-_");
    uint8_t back[3];
    size_t n;
    assert_int_equal(fig_b64url_decode("-_-_", 4, back, 3, &n, NULL), FIG_OK);
    assert_memory_equal(back, bytes, 3);
    fig_msg_t msg = {0};
    assert_int_equal(fig_b64url_decode("+/+/", 4, back, 3, &n, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "character 1 ('+') is not base64url");
}

static void refused_b64(const char *text, const char *why)
{
    uint8_t out[16];
    memset(out, 0x77, sizeof out);
    size_t n = 0;
    fig_msg_t msg = {0};
    assert_int_equal(fig_b64url_decode(text, strlen(text), out, sizeof out, &n, &msg),
                     FIG_ERR_INPUT);
    assert_string_equal(msg.text, why);
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(out[i], 0x77);   /* left as it was */
}

static void test_b64url_strict(void **state)
{
    (void)state;
    refused_b64("Z", "1 characters: no base64url text has that length");
    refused_b64("Zm9vY", "5 characters: no base64url text has that length");
    refused_b64("Zg=", "1 '=' after 2 characters do not complete a group of four");
    refused_b64("Zm9v=", "1 '=' after 4 characters do not complete a group of four");
    refused_b64("Zm8==", "2 '=' after 3 characters do not complete a group of four");
    refused_b64("Zg==Zg==", "character 3 ('=') is padding before the end");
    refused_b64("Z===", "character 2 ('=') is padding before the end");
    refused_b64("Zm 9", "character 3 (byte 0x20) is not base64url");
    refused_b64("Zm9\xc3", "character 4 (byte 0xc3) is not base64url");
    refused_b64("Zh", "character 2 ('h') has bits set beyond the last byte");
    refused_b64("Zm9", "character 3 ('9') has bits set beyond the last byte");
    const char nul[] = "Zm\0v";
    uint8_t out[4];
    size_t n;
    assert_int_equal(fig_b64url_decode(nul, 4, out, sizeof out, &n, NULL), FIG_ERR_INPUT);
}

static void test_b64url_space(void **state)
{
    (void)state;
    uint8_t out[2] = {1, 2};
    size_t n = 0;
    fig_msg_t msg = {0};
    assert_int_equal(fig_b64url_decode("Zm9v", 4, out, 2, &n, &msg), FIG_ERR_SPACE);
    assert_int_equal(n, 3);
    assert_int_equal(out[0], 1);
    assert_string_equal(msg.text, "3 bytes, more than 2");
    char text[4];
    assert_int_equal(fig_b64url_encode("foo", 3, text, 4, &msg), FIG_ERR_SPACE);
    assert_string_equal(msg.text, "3 bytes take 4 base64url characters, more than the 3 "
                                  "there is room for");
    assert_int_equal(fig_b64url_encode("fo", 2, text, 4, NULL), FIG_OK);
    assert_string_equal(text, "Zm8");
}

/* ---- endpoints' URLs */

static fig_push_url_t url_ok(const char *url)
{
    fig_push_url_t u;
    fig_msg_t msg = {0};
    if (fig_push_url_parse(&u, url, strlen(url), &msg) != FIG_OK)
        fail_msg("%s refused: %s", url, msg.text);
    return u;
}

static void url_refused(const char *url, const char *why)
{
    fig_push_url_t u;
    memset(&u, 0x5a, sizeof u);
    fig_push_url_t before = u;
    fig_msg_t msg = {0};
    if (fig_push_url_parse(&u, url, strlen(url), &msg) != FIG_ERR_INPUT)
        fail_msg("%s taken", url);
    assert_string_equal(msg.text, why);
    assert_memory_equal(&u, &before, sizeof u);
}

static void test_url_good(void **state)
{
    (void)state;
    fig_push_url_t u = url_ok(FCM);
    assert_int_equal(u.kind, FIG_PUSH_HOST_NAME);
    assert_string_equal(u.host, "fcm.googleapis.com");
    assert_int_equal(u.port, 443);
    assert_string_equal(FCM + u.target, "/fcm/send/dpH5lCsTSSM:APA91bHqjZxM0VImWWqDRN7U0a3Ayc"
                        "jUf4O-byuxb_wJsKRaKvV_iKw56s16ekq6FUqoCF7k2nICUpd8fHPxVTgqLunFeVeB9lL"
                        "CQZyohyAztTH8ZQL9WCxKpA6dvTG_TUIhQUFq_n");
    assert_string_equal(u.origin, "https://fcm.googleapis.com");

    u = url_ok("HTTPS://Push.Example.ORG:8443?x=1&y=%2F");
    assert_string_equal(u.host, "push.example.org");
    assert_int_equal(u.port, 8443);
    assert_int_equal(u.target, strlen("HTTPS://Push.Example.ORG:8443"));
    assert_string_equal(u.origin, "https://push.example.org:8443");

    u = url_ok("https://127.0.0.1:4433/push/1");
    assert_int_equal(u.kind, FIG_PUSH_HOST_IPV4);
    assert_string_equal(u.host, "127.0.0.1");
    assert_string_equal(u.origin, "https://127.0.0.1:4433");

    u = url_ok("https://[2001:DB8::1]/p");
    assert_int_equal(u.kind, FIG_PUSH_HOST_IPV6);
    assert_string_equal(u.host, "2001:db8::1");
    assert_int_equal(u.port, 443);
    assert_string_equal(u.origin, "https://[2001:db8::1]");

    u = url_ok("https://[2001:0DB8:0:0::1:0]:8443/");
    assert_string_equal(u.host, "2001:db8::1:0");
    assert_string_equal(u.origin, "https://[2001:db8::1:0]:8443");

    u = url_ok("https://[::ffff:1.2.3.4]:443");
    assert_string_equal(u.host, "::ffff:1.2.3.4");
    assert_int_equal(u.target, strlen("https://[::ffff:1.2.3.4]:443"));
    assert_string_equal(u.origin, "https://[::ffff:1.2.3.4]");

    url_ok("https://a.b-c.d9/~x/!$&'()*+,;=:@/?/?");
    url_ok("https://xn--80ak6aa92e.com/");
    url_ok("https://host:00443/");
}

static void test_url_refused(void **state)
{
    (void)state;
    url_refused("http://fcm.googleapis.com/fcm/send/x", "not an https URL");
    url_refused("wss://a.example/", "not an https URL");
    url_refused("https:/a.example/", "not an https URL");
    url_refused("", "not an https URL");
    url_refused("https://", "the URL has no host");
    url_refused("https:///x", "the URL has no host");
    url_refused("https://user:pw@a.example/", "a user name or password in the URL is not "
                "allowed");
    url_refused("https://@a.example/", "a user name or password in the URL is not allowed");
    url_refused("https://a.example/#top", "a fragment ('#', character 19) is not allowed");
    url_refused("https://a.example#", "a fragment ('#', character 18) is not allowed");
    url_refused("https://a.example:/", "the port is not a number from 1 to 65535");
    url_refused("https://a.example:0/", "the port is not a number from 1 to 65535");
    url_refused("https://a.example:65536/", "the port is not a number from 1 to 65535");
    url_refused("https://a.example:99999999999999999999/", "the port is not a number from 1 "
                "to 65535");
    url_refused("https://a.example:44a/", "the port is not a number from 1 to 65535");
    url_refused("https://a.example:1:2/", "the port is not a number from 1 to 65535");
    url_refused("https://a example/", "character 10 (byte 0x20) is not allowed in a URL");
    url_refused("https://a.example/\x7f", "character 19 (byte 0x7f) is not allowed in a URL");
    url_refused("https://a.example/caf\xc3\xa9", "character 22 (byte 0xc3) is not allowed in "
                "a URL");
    url_refused("https://a.example/a\"b", "character 20 ('\"') is not allowed in a URL's path "
                "or query");
    url_refused("https://a.example/a%2", "character 20 ('%') is not followed by two hex digits");
    url_refused("https://a.example/%zz", "character 19 ('%') is not followed by two hex digits");
    url_refused("https://127.1/", "the host's last label begins with a digit, and the host is "
                "not an IPv4 address in dotted decimal");
    url_refused("https://0x7f.0.0.1/", "the host's last label begins with a digit, and the "
                "host is not an IPv4 address in dotted decimal");
    url_refused("https://127.0.0.01/", "the host's last label begins with a digit, and the "
                "host is not an IPv4 address in dotted decimal");
    url_refused("https://256.0.0.1/", "the host's last label begins with a digit, and the "
                "host is not an IPv4 address in dotted decimal");
    url_refused("https://a..example/", "the host has an empty label");
    url_refused("https://a.example./", "the host has an empty label");
    url_refused("https://-a.example/", "a label of the host begins or ends with '-'");
    url_refused("https://a_b.example/", "the host's character 2 ('_') is not a letter, a "
                "digit, '-' or '.'");
    url_refused("https://a%2e.example/", "the host's character 2 ('%') is not a letter, a "
                "digit, '-' or '.'");
    url_refused("https://[fe80::1%25eth0]/", "a zone in an IPv6 address is not allowed");
    url_refused("https://[v1.x]/", "the host [v1.x] is not an IPv6 address");
    url_refused("https://[::1/", "the IPv6 address has no closing ']'");
    url_refused("https://[::1]x/", "the IPv6 address is followed by 'x', not by ':' and a "
                "port");
    url_refused("https://[1.2.3.4]/", "the host [1.2.3.4] is not an IPv6 address");
    char label[80], host[300];
    memset(label, 'a', 64);
    snprintf(host, sizeof host, "https://%.64s.example/", label);
    url_refused(host, "the host has a label of more than 63 characters");
    char name[260];
    memset(name, 'a', sizeof name);
    for (int i = 63; i < 254; i += 64)
        name[i] = '.';
    snprintf(host, sizeof host, "https://%.254s/", name);
    url_refused(host, "the host has more than 253 characters");
    snprintf(host, sizeof host, "https://%.253s/", name);
    url_ok(host);
}

static void test_url_length(void **state)
{
    (void)state;
    char url[FIG_PUSH_URL_MAX + 2];
    memset(url, 'x', sizeof url);
    memcpy(url, "https://a.example/", 18);
    url[FIG_PUSH_URL_MAX] = '\0';
    url_ok(url);
    url[FIG_PUSH_URL_MAX] = 'x';
    url[FIG_PUSH_URL_MAX + 1] = '\0';
    url_refused(url, "longer than 1024 bytes");
}

/* ---- subscriptions */

/* A fresh key pair's public key, base64url: the test does not rest on a
 * single point. */
static void fresh_key(char out[128])
{
    EVP_PKEY *key = EVP_EC_gen("P-256");
    assert_non_null(key);
    uint8_t pt[80];
    size_t n = 0;
    assert_int_equal(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
                                                     pt, sizeof pt, &n), 1);
    EVP_PKEY_free(key);
    assert_int_equal(n, 65);
    assert_int_equal(fig_b64url_encode(pt, n, out, 128, NULL), FIG_OK);
}

static fig_push_sub_t sub_ok(const char *json)
{
    fig_push_sub_t s;
    fig_msg_t msg = {0};
    if (fig_push_sub_parse(&s, json, strlen(json), &msg) != FIG_OK)
        fail_msg("refused: %s\n%s", msg.text, json);
    return s;
}

static void sub_refused(const char *json, const char *why)
{
    fig_push_sub_t s;
    memset(&s, 0x5a, sizeof s);
    fig_push_sub_t before = s;
    fig_msg_t msg = {0};
    if (fig_push_sub_parse(&s, json, strlen(json), &msg) != FIG_ERR_INPUT)
        fail_msg("taken: %s", json);
    assert_string_equal(msg.text, why);
    assert_memory_equal(&s, &before, sizeof s);
}

static void test_sub_chrome(void **state)
{
    (void)state;
    fig_push_sub_t s = sub_ok("{\"endpoint\":\"" FCM "\",\"expirationTime\":null,"
                              "\"keys\":{\"p256dh\":\"" UA_PUBLIC "\",\"auth\":\"" UA_AUTH "\"}}");
    assert_string_equal(s.endpoint, FCM);
    assert_string_equal(s.url.host, "fcm.googleapis.com");
    assert_string_equal(s.url.origin, "https://fcm.googleapis.com");
    assert_false(s.expires);
    char text[128];
    assert_int_equal(fig_b64url_encode(s.p256dh, sizeof s.p256dh, text, sizeof text, NULL),
                     FIG_OK);
    assert_string_equal(text, UA_PUBLIC);
    assert_int_equal(fig_b64url_encode(s.auth, sizeof s.auth, text, sizeof text, NULL), FIG_OK);
    assert_string_equal(text, UA_AUTH);
}

static void test_sub_firefox(void **state)
{
    (void)state;
    char key[128], json[2048];
    fresh_key(key);
    /* Keys padded, expirationTime a number, the keys' order another and a
     * field this reader does not know. */
    snprintf(json, sizeof json, "{\"endpoint\": \"%s\", \"expirationTime\": 1767225600000,\n"
             " \"keys\": {\"auth\": \"%s==\", \"p256dh\": \"%s=\", \"extra\": 1}, \"new\": []}",
             MOZ, UA_AUTH, key);
    fig_push_sub_t s = sub_ok(json);
    assert_string_equal(s.url.host, "updates.push.services.mozilla.com");
    assert_true(s.expires);
    assert_int_equal(s.expires_ms, 1767225600000LL);
    char text[128];
    assert_int_equal(fig_b64url_encode(s.p256dh, sizeof s.p256dh, text, sizeof text, NULL),
                     FIG_OK);
    assert_string_equal(text, key);
    snprintf(json, sizeof json, "{\"endpoint\":\"%s\",\"expirationTime\":1.5e12,"
             "\"keys\":{\"p256dh\":\"%s\",\"auth\":\"%s\"}}", MOZ, key, UA_AUTH);
    s = sub_ok(json);
    assert_int_equal(s.expires_ms, 1500000000000LL);
}

/* Parsed once by the protocol, read here from the value. */
static void test_sub_from_json(void **state)
{
    (void)state;
    json_t *v = json_pack("{s:s, s:{s:s, s:s}}", "endpoint", "https://web.push.apple.com/QGuQy"
                          "avXutnMHTVFv2hBSXFh0P-8eIL3", "keys", "p256dh", UA_PUBLIC, "auth",
                          UA_AUTH);
    assert_non_null(v);
    fig_push_sub_t s;
    assert_int_equal(fig_push_sub_from_json(&s, v, NULL), FIG_OK);
    assert_string_equal(s.url.host, "web.push.apple.com");
    json_object_set_new(json_object_get(v, "keys"), "auth", json_string("AAAA"));
    fig_msg_t msg = {0};
    assert_int_equal(fig_push_sub_from_json(&s, v, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "keys.auth: 3 bytes, not 16");
    json_decref(v);
    v = json_string("x");
    assert_int_equal(fig_push_sub_from_json(&s, v, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "a subscription is a JSON object");
    json_decref(v);
    /* A NUL inside a string that jansson was given whole. */
    v = json_pack("{s:s%, s:{s:s, s:s}}", "endpoint", "https://a.example/\0x", (size_t)20,
                  "keys", "p256dh", UA_PUBLIC, "auth", UA_AUTH);
    assert_int_equal(fig_push_sub_from_json(&s, v, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "endpoint: character 19 (byte 0x00) is not allowed in a URL");
    json_decref(v);
}

#define KEYS ",\"keys\":{\"p256dh\":\"" UA_PUBLIC "\",\"auth\":\"" UA_AUTH "\"}}"
#define ENDPOINT "{\"endpoint\":\"https://push.example/x\""

static void test_sub_bad_json(void **state)
{
    (void)state;
    sub_refused("", "a subscription is not JSON: '[' or '{' expected near end of file (line 1, "
                "column 0)");
    sub_refused("[1]", "a subscription is a JSON object");
    sub_refused("{\"endpoint\":\"https://a.example/\",\"endpoint\":\"https://b.example/\"" KEYS,
                "a subscription is not JSON: duplicate object key near '\"endpoint\"' (line 1, "
                "column 43)");
    char big[FIG_PUSH_SUB_TEXT_MAX + 2];
    memset(big, ' ', sizeof big);
    big[sizeof big - 1] = '\0';
    sub_refused(big, "a subscription has at most 4096 bytes");
}

static void test_sub_bad_endpoint(void **state)
{
    (void)state;
    sub_refused("{\"keys\":{\"p256dh\":\"" UA_PUBLIC "\",\"auth\":\"" UA_AUTH "\"}}",
                "endpoint: missing");
    sub_refused("{\"endpoint\":42" KEYS, "endpoint: not a string");
    sub_refused("{\"endpoint\":\"http://push.example/x\"" KEYS, "endpoint: not an https URL");
    sub_refused("{\"endpoint\":\"https://u@push.example/x\"" KEYS, "endpoint: a user name or "
                "password in the URL is not allowed");
    char json[2200], path[1100];
    memset(path, 'a', sizeof path);
    snprintf(json, sizeof json, "{\"endpoint\":\"https://push.example/%.1003s\"" KEYS, path);
    sub_ok(json);   /* 1024 bytes */
    snprintf(json, sizeof json, "{\"endpoint\":\"https://push.example/%.1004s\"" KEYS, path);
    sub_refused(json, "endpoint: longer than 1024 bytes");
}

static void test_sub_bad_expiration(void **state)
{
    (void)state;
    sub_ok(ENDPOINT ",\"expirationTime\":0" KEYS);
    sub_refused(ENDPOINT ",\"expirationTime\":\"soon\"" KEYS, "expirationTime: not a number "
                "or null");
    sub_refused(ENDPOINT ",\"expirationTime\":true" KEYS, "expirationTime: not a number or "
                "null");
    sub_refused(ENDPOINT ",\"expirationTime\":-1" KEYS, "expirationTime: not a time in "
                "milliseconds since 1970");
    sub_refused(ENDPOINT ",\"expirationTime\":1e300" KEYS, "expirationTime: not a time in "
                "milliseconds since 1970");
}

/* A subscription whose keys are p256dh and auth as given. */
static void keys_refused(const char *p256dh, const char *auth, const char *why)
{
    char json[1024];
    snprintf(json, sizeof json, ENDPOINT ",\"keys\":{\"p256dh\":\"%s\",\"auth\":\"%s\"}}",
             p256dh, auth);
    sub_refused(json, why);
}

static void test_sub_bad_keys(void **state)
{
    (void)state;
    sub_refused(ENDPOINT "}", "keys: missing");
    sub_refused(ENDPOINT ",\"keys\":[]}", "keys: not an object");
    sub_refused(ENDPOINT ",\"keys\":{\"auth\":\"" UA_AUTH "\"}}", "keys.p256dh: missing");
    sub_refused(ENDPOINT ",\"keys\":{\"p256dh\":65,\"auth\":\"" UA_AUTH "\"}}",
                "keys.p256dh: not a string");
    sub_refused(ENDPOINT ",\"keys\":{\"p256dh\":\"" UA_PUBLIC "\"}}", "keys.auth: missing");
    keys_refused("BCVxsr7N+eNgVRqv", UA_AUTH, "keys.p256dh: character 9 ('+') is not base64url");
    keys_refused("BCVxs", UA_AUTH, "keys.p256dh: 5 characters: no base64url text has that "
                 "length");
    keys_refused("", UA_AUTH, "keys.p256dh: 0 bytes, not 65");
    /* The same point compressed (33 bytes, 0x02 or 0x03 first). */
    keys_refused("AiVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcx", UA_AUTH,
                 "keys.p256dh: 33 bytes, not 65");
    /* 65 bytes, but 0x05 first. */
    keys_refused("BSVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SR"
                 "pkNtoIAiw4", UA_AUTH, "keys.p256dh: not an uncompressed point (its first byte "
                 "is 0x05, not 0x04)");
    /* y changed in its last bit: off the curve. */
    keys_refused("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SR"
                 "pkNtoIAiw8", UA_AUTH, "keys.p256dh: not a point on P-256");
    /* x = p, a coordinate out of the field, and all zeros. */
    uint8_t pt[65] = {0x04};
    char text[128];
    memset(pt + 1, 0xff, 4);
    memset(pt + 5, 0x00, 4);
    pt[12] = 1;
    memset(pt + 25, 0xff, 8);
    assert_int_equal(fig_b64url_encode(pt, 65, text, sizeof text, NULL), FIG_OK);
    keys_refused(text, UA_AUTH, "keys.p256dh: not a point on P-256");
    memset(pt + 1, 0, 64);
    assert_int_equal(fig_b64url_encode(pt, 65, text, sizeof text, NULL), FIG_OK);
    keys_refused(text, UA_AUTH, "keys.p256dh: not a point on P-256");
    uint8_t many[130] = {0x04};
    assert_int_equal(fig_b64url_encode(many, sizeof many, text, sizeof text, NULL), FIG_ERR_SPACE);
    char long_key[200];
    assert_int_equal(fig_b64url_encode(many, sizeof many, long_key, sizeof long_key, NULL), FIG_OK);
    keys_refused(long_key, UA_AUTH, "keys.p256dh: 130 bytes, not 65");
    keys_refused(UA_PUBLIC, "BTBZMqHH6r4Tts7J", "keys.auth: 12 bytes, not 16");
    keys_refused(UA_PUBLIC, "BTBZMqHH6r4Tts7J_aSIggAA", "keys.auth: 18 bytes, not 16");
    keys_refused(UA_PUBLIC, "BTBZMqHH6r4Tts7J/aSIgg", "keys.auth: character 17 ('/') is not "
                 "base64url");
    keys_refused(UA_PUBLIC, "BTBZMqHH6r4Tts7J_aSIgh", "keys.auth: character 22 ('h') has bits "
                 "set beyond the last byte");
}

/* ---- where the server may post */

static struct sockaddr_storage sa(const char *ip, int port)
{
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    if (strchr(ip, ':')) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, ip, &in6->sin6_addr) != 1)
            fail_msg("bad test address %s", ip);
    } else {
        struct sockaddr_in *in = (struct sockaddr_in *)&ss;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t)port);
        if (inet_pton(AF_INET, ip, &in->sin_addr) != 1)
            fail_msg("bad test address %s", ip);
    }
    return ss;
}

/* An address and the range that refuses it ("" for one allowed). */
typedef struct {
    const char *ip;
    const char *range;
} addr_case_t;

static const addr_case_t addr_cases[] = {
    {"0.0.0.0", "0.0.0.0/32"}, {"0.0.0.1", "0.0.0.0/8"}, {"0.255.255.255", "0.0.0.0/8"},
    {"1.0.0.0", ""},
    {"9.255.255.255", ""}, {"10.0.0.0", "10.0.0.0/8"}, {"10.255.255.255", "10.0.0.0/8"},
    {"11.0.0.0", ""},
    {"100.63.255.255", ""}, {"100.64.0.0", "100.64.0.0/10"},
    {"100.127.255.255", "100.64.0.0/10"}, {"100.128.0.0", ""},
    {"126.255.255.255", ""}, {"127.0.0.0", "127.0.0.0/8"}, {"127.0.0.1", "127.0.0.0/8"},
    {"127.255.255.255", "127.0.0.0/8"}, {"128.0.0.0", ""},
    {"169.253.255.255", ""}, {"169.254.0.0", "169.254.0.0/16"},
    {"169.254.169.254", "169.254.0.0/16"}, {"169.254.255.255", "169.254.0.0/16"},
    {"169.255.0.0", ""},
    {"172.15.255.255", ""}, {"172.16.0.0", "172.16.0.0/12"}, {"172.31.255.255", "172.16.0.0/12"},
    {"172.32.0.0", ""},
    {"191.255.255.255", ""}, {"192.0.0.0", "192.0.0.0/24"}, {"192.0.0.255", "192.0.0.0/24"},
    {"192.0.1.0", ""}, {"192.0.2.0", "192.0.2.0/24"}, {"192.0.2.255", "192.0.2.0/24"},
    {"192.0.3.0", ""},
    {"192.167.255.255", ""}, {"192.168.0.0", "192.168.0.0/16"},
    {"192.168.255.255", "192.168.0.0/16"}, {"192.169.0.0", ""},
    {"198.17.255.255", ""}, {"198.18.0.0", "198.18.0.0/15"}, {"198.19.255.255", "198.18.0.0/15"},
    {"198.20.0.0", ""},
    {"198.51.99.255", ""}, {"198.51.100.0", "198.51.100.0/24"},
    {"198.51.100.255", "198.51.100.0/24"}, {"198.51.101.0", ""},
    {"203.0.112.255", ""}, {"203.0.113.0", "203.0.113.0/24"}, {"203.0.113.255", "203.0.113.0/24"},
    {"203.0.114.0", ""},
    {"223.255.255.255", ""}, {"224.0.0.0", "224.0.0.0/4"}, {"239.255.255.255", "224.0.0.0/4"},
    {"240.0.0.0", "240.0.0.0/4"}, {"255.255.255.254", "240.0.0.0/4"},
    {"255.255.255.255", "255.255.255.255/32"},
    {"8.8.8.8", ""}, {"142.250.185.74", ""},
    /* IPv6 */
    {"::", "::/128"}, {"::1", "::1/128"}, {"::2", "::/8"}, {"::7f00:1", "::/8"},
    {"ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "::/8"},
    {"100::", "100::/64"}, {"100::ffff:ffff:ffff:ffff", "100::/64"},
    {"100:0:0:1::", "2000::/3"}, {"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2000::/3"},
    {"2000::", ""},
    {"2001::", "2001::/23"}, {"2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "2001::/23"},
    {"2001:200::", ""}, {"2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", ""},
    {"2001:db8::", "2001:db8::/32"}, {"2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db8::/32"},
    {"2001:db9::", ""},
    {"3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""}, {"3fff::", "3fff::/20"},
    {"3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff::/20"}, {"3fff:1000::", ""},
    {"3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""}, {"4000::", "2000::/3"},
    {"fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2000::/3"},
    {"fc00::", "fc00::/7"}, {"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fc00::/7"},
    {"fe00::", "2000::/3"}, {"fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2000::/3"},
    {"fe80::", "fe80::/10"}, {"fe80::1", "fe80::/10"},
    {"febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::/10"},
    {"fec0::", "fec0::/10"}, {"feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fec0::/10"},
    {"ff00::", "ff00::/8"}, {"ff02::1", "ff00::/8"},
    {"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ff00::/8"},
    {"2a00:1450:4001:82b::200a", ""}, {"2607:f8b0:4004:c1b::5f", ""},
    /* IPv4-mapped: judged as IPv4 */
    {"::ffff:127.0.0.1", "127.0.0.0/8"}, {"::ffff:10.0.0.1", "10.0.0.0/8"},
    {"::ffff:169.254.169.254", "169.254.0.0/16"}, {"::ffff:0.0.0.0", "0.0.0.0/32"},
    {"::ffff:255.255.255.255", "255.255.255.255/32"}, {"::ffff:8.8.8.8", ""},
    {"::fffe:8.8.8.8", "::/8"}, {"::1:ffff:8.8.8.8", "::/8"},
    /* NAT64: the IPv4 address in the last 32 bits */
    {"64:ff9b::7f00:1", "127.0.0.0/8"}, {"64:ff9b::a9fe:a9fe", "169.254.0.0/16"},
    {"64:ff9b::ffff:ffff", "255.255.255.255/32"}, {"64:ff9b::", "0.0.0.0/32"},
    {"64:ff9b::808:808", ""}, {"64:ff9b::1:0:0", "::/8"}, {"64:ff9a:ffff:ffff::", "::/8"},
    {"64:ff9b:1::", "64:ff9b:1::/48"}, {"64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "64:ff9b:1::/48"},
    {"64:ff9b:2::", "::/8"},
    /* 6to4: the IPv4 address in bits 16 to 47 */
    {"2002:7f00:1::", "127.0.0.0/8"}, {"2002:c0a8:101:1::1", "192.168.0.0/16"},
    {"2002:a00::", "10.0.0.0/8"}, {"2002:808:808::1", ""}, {"2002:ffff:ffff::", "255.255.255.255/32"},
    {"2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ""}, {"2003::", ""},
};

static void test_addr_ranges(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof addr_cases / sizeof *addr_cases; i++) {
        const addr_case_t *c = &addr_cases[i];
        struct sockaddr_storage ss = sa(c->ip, 443);
        fig_msg_t msg = {0};
        fig_err_t rc = fig_push_addr_check(NULL, "push.example", &ss, &msg);
        if (!c->range[0]) {
            if (rc != FIG_OK)
                fail_msg("%s refused: %s", c->ip, msg.text);
            continue;
        }
        if (rc != FIG_ERR_INPUT)
            fail_msg("%s allowed, not refused by %s", c->ip, c->range);
        char paren[64];
        snprintf(paren, sizeof paren, "(%s)", c->range);
        size_t n = strlen(msg.text), p = strlen(paren);
        if (n < p || strcmp(msg.text + n - p, paren) != 0)
            fail_msg("%s: \"%s\", not by %s", c->ip, msg.text, c->range);
    }
}

static void addr_says(const fig_push_allow_t *allow, const char *host, const char *ip,
                      int port, const char *why)
{
    struct sockaddr_storage ss = sa(ip, port);
    fig_msg_t msg = {0};
    fig_err_t rc = fig_push_addr_check(allow, host, &ss, &msg);
    if (!why) {
        if (rc != FIG_OK)
            fail_msg("%s port %d refused: %s", ip, port, msg.text);
        return;
    }
    if (rc != FIG_ERR_INPUT)
        fail_msg("%s port %d allowed", ip, port);
    assert_string_equal(msg.text, why);
}

static void test_addr_messages(void **state)
{
    (void)state;
    addr_says(NULL, "h", "127.0.0.1", 443, "127.0.0.1 is a loopback address (127.0.0.0/8)");
    addr_says(NULL, "h", "169.254.169.254", 80, "169.254.169.254 is a link-local address "
              "(169.254.0.0/16)");
    addr_says(NULL, "h", "::ffff:10.0.0.1", 443, "::ffff:10.0.0.1 (IPv4 10.0.0.1) is a private "
              "address (10.0.0.0/8)");
    addr_says(NULL, "h", "64:ff9b::7f00:1", 443, "64:ff9b::7f00:1 is NAT64 of 127.0.0.1, a "
              "loopback address (127.0.0.0/8)");
    addr_says(NULL, "h", "2002:c0a8:101::", 443, "2002:c0a8:101:: is 6to4 of 192.168.1.1, a "
              "private address (192.168.0.0/16)");
    addr_says(NULL, "h", "4000::1", 443, "4000::1 is outside the global unicast addresses "
              "(2000::/3)");
    addr_says(NULL, "h", "8.8.8.8", 0, "8.8.8.8: port 0 is no port to post to");
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_family = AF_UNIX;
    fig_msg_t msg = {0};
    assert_int_equal(fig_push_addr_check(NULL, "h", &ss, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "not an IPv4 or IPv6 address");
}

static fig_push_allow_t allow_ok(const char *text)
{
    fig_push_allow_t a;
    fig_msg_t msg = {0};
    if (fig_push_allow_parse(&a, text, &msg) != FIG_OK)
        fail_msg("%s refused: %s", text, msg.text);
    return a;
}

static void test_addr_allowed(void **state)
{
    (void)state;
    fig_push_allow_t a = allow_ok("127.0.0.1/32,[::1]/128");
    assert_int_equal(a.n, 2);
    addr_says(&a, "localhost", "127.0.0.1", 4433, NULL);
    addr_says(&a, NULL, "127.0.0.1", 4433, NULL);
    addr_says(&a, "h", "127.0.0.2", 4433, "127.0.0.2 is a loopback address (127.0.0.0/8)");
    addr_says(&a, "h", "::1", 4433, NULL);
    addr_says(&a, "h", "::ffff:127.0.0.1", 4433, NULL);       /* judged as its IPv4 */
    addr_says(&a, "h", "64:ff9b::7f00:1", 4433, NULL);        /* the IPv4 it carries */
    addr_says(&a, "h", "2002:7f00:1::", 4433, NULL);
    addr_says(&a, "h", "::2", 4433, "::2 is a reserved address (::/8)");
    addr_says(&a, "h", "8.8.8.8", 443, NULL);                  /* the Internet as before */

    a = allow_ok("127.0.0.1:8443,10.0.0.0/8,[fd00::]/8:9000,[64:ff9b::a00:1]");
    addr_says(&a, "h", "127.0.0.1", 8443, NULL);
    addr_says(&a, "h", "127.0.0.1", 8444, "127.0.0.1 is a loopback address (127.0.0.0/8)");
    addr_says(&a, "h", "10.1.2.3", 1, NULL);
    addr_says(&a, "h", "11.0.0.0", 1, NULL);
    addr_says(&a, "h", "fd12::1", 9000, NULL);
    addr_says(&a, "h", "fd12::1", 443, "fd12::1 is a unique local (private) address "
              "(fc00::/7)");
    addr_says(&a, "h", "fe80::1", 9000, "fe80::1 is a link-local address (fe80::/10)");
    addr_says(&a, "h", "64:ff9b::a00:1", 443, NULL);

    a = allow_ok("Push.Internal:8443,localhost");
    assert_true(a.e[0].is_name);
    assert_string_equal(a.e[0].name, "push.internal");
    addr_says(&a, "push.internal", "10.0.0.7", 8443, NULL);
    addr_says(&a, "push.internal", "10.0.0.7", 443, "10.0.0.7 is a private address "
              "(10.0.0.0/8)");
    addr_says(&a, "other.internal", "10.0.0.7", 8443, "10.0.0.7 is a private address "
              "(10.0.0.0/8)");
    addr_says(&a, NULL, "10.0.0.7", 8443, "10.0.0.7 is a private address (10.0.0.0/8)");
    addr_says(&a, "localhost", "::1", 1234, NULL);

    a = allow_ok("0.0.0.0/0,[::]/0");
    addr_says(&a, "h", "127.0.0.1", 1, NULL);
    addr_says(&a, "h", "ff02::1", 1, NULL);
}

static void allow_refused(const char *text, const char *why)
{
    fig_push_allow_t a;
    memset(&a, 0x5a, sizeof a);
    fig_msg_t msg = {0};
    if (fig_push_allow_parse(&a, text, &msg) != FIG_ERR_INPUT)
        fail_msg("%s taken", text);
    assert_string_equal(msg.text, why);
    assert_int_equal(a.n, 0x5a5a5a5a);
}

static void test_allow_refused(void **state)
{
    (void)state;
    allow_refused("", "entry 1 (\"\"): an empty entry");
    allow_refused("127.0.0.1,", "entry 2 (\"\"): an empty entry");
    allow_refused(",127.0.0.1", "entry 1 (\"\"): an empty entry");
    allow_refused("127.0.0.1, 10.0.0.0/8", "entry 2 (\" 10.0.0.0/8\"): the host's character 1 "
                  "(' ') is not a letter, a digit, '-' or '.'");
    allow_refused("10.0.0.1/33", "entry 1 (\"10.0.0.1/33\"): the prefix is not a number of "
                  "bits from 0 to 32");
    allow_refused("10.0.0.0/08", "entry 1 (\"10.0.0.0/08\"): the prefix is not a number of "
                  "bits from 0 to 32");
    allow_refused("10.0.0.0/", "entry 1 (\"10.0.0.0/\"): the prefix is not a number of bits "
                  "from 0 to 32");
    allow_refused("10.0.0.0/x", "entry 1 (\"10.0.0.0/x\"): the prefix is not a number of bits "
                  "from 0 to 32");
    allow_refused("[::]/129", "entry 1 (\"[::]/129\"): the prefix is not a number of bits from "
                  "0 to 128");
    allow_refused("10.1.0.0/8", "entry 1 (\"10.1.0.0/8\"): the address has bits set past its "
                  "prefix");
    allow_refused("[fd00::1]/8", "entry 1 (\"[fd00::1]/8\"): the address has bits set past its "
                  "prefix");
    allow_refused("256.0.0.1", "entry 1 (\"256.0.0.1\"): not an IPv4 address");
    allow_refused("010.0.0.1", "entry 1 (\"010.0.0.1\"): not an IPv4 address");
    allow_refused("127.1", "entry 1 (\"127.1\"): not an IPv4 address");
    allow_refused("::1/128", "entry 1 (\"::1/128\"): an IPv6 address is written in brackets: "
                  "[::1]");
    allow_refused("[::1", "entry 1 (\"[::1\"): the IPv6 address has no closing ']'");
    allow_refused("[::1/128]", "entry 1 (\"[::1/128]\"): an IPv6 address is written in "
                  "brackets, and a prefix after them: [fd00::]/8");
    allow_refused("[127.0.0.1]", "entry 1 (\"[127.0.0.1]\"): not an IPv6 address");
    allow_refused("[fe80::1%eth0]", "entry 1 (\"[fe80::1%eth0]\"): not an IPv6 address");
    allow_refused("[::1]:0", "entry 1 (\"[::1]:0\"): the port is not a number from 1 to 65535");
    allow_refused("127.0.0.1:", "entry 1 (\"127.0.0.1:\"): the port is not a number from 1 to "
                  "65535");
    allow_refused("127.0.0.1:70000", "entry 1 (\"127.0.0.1:70000\"): the port is not a number "
                  "from 1 to 65535");
    allow_refused("push.internal/8", "entry 1 (\"push.internal/8\"): a prefix goes after an "
                  "address, not after a name");
    allow_refused("bad_name", "entry 1 (\"bad_name\"): the host's character 4 ('_') is not a "
                  "letter, a digit, '-' or '.'");
    allow_refused(":443", "entry 1 (\":443\"): the host is empty");
    char many[FIG_PUSH_ALLOW_MAX * 12 + 16] = "";
    for (int i = 0; i <= FIG_PUSH_ALLOW_MAX; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%s10.0.0.%d", i ? "," : "", i);
    allow_refused(many, "at most 32 entries");
    many[strlen(many) - strlen(",10.0.0.32")] = '\0';
    assert_int_equal(allow_ok(many).n, FIG_PUSH_ALLOW_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_b64url_rfc4648_vectors),
        cmocka_unit_test(test_b64url_alphabet),
        cmocka_unit_test(test_b64url_strict),
        cmocka_unit_test(test_b64url_space),
        cmocka_unit_test(test_url_good),
        cmocka_unit_test(test_url_refused),
        cmocka_unit_test(test_url_length),
        cmocka_unit_test(test_sub_chrome),
        cmocka_unit_test(test_sub_firefox),
        cmocka_unit_test(test_sub_from_json),
        cmocka_unit_test(test_sub_bad_json),
        cmocka_unit_test(test_sub_bad_endpoint),
        cmocka_unit_test(test_sub_bad_expiration),
        cmocka_unit_test(test_sub_bad_keys),
        cmocka_unit_test(test_addr_ranges),
        cmocka_unit_test(test_addr_messages),
        cmocka_unit_test(test_addr_allowed),
        cmocka_unit_test(test_allow_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
