/* SPDX-License-Identifier: MIT */
/* push_url.c - an endpoint's URL read strictly (push_url.h).
 *
 * One pass per part, left to right: the bytes (printable ASCII, at most
 * FIG_PUSH_URL_MAX), the scheme, the authority up to the first '/', '?' or
 * '#' (no '@' in it: userinfo), the host and the port in it, then the path
 * and query. Character positions in messages count from 1. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "net/push/push_url.h"

static const char scheme[] = "https://";

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

fig_err_t fig_push_url_dns_name(const char *name, size_t len, fig_msg_t *msg)
{
    if (len == 0)
        return fig_fail(msg, FIG_ERR_INPUT, "the host is empty");
    if (len > FIG_PUSH_HOST_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "the host has more than %d characters",
                        FIG_PUSH_HOST_MAX);
    size_t start = 0;   /* of the current label */
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] != '.') {
            char c = name[i];
            if (!is_alpha(c) && !is_digit(c) && c != '-')
                return fig_fail(msg, FIG_ERR_INPUT, "the host's character %zu ('%c') is not "
                                "a letter, a digit, '-' or '.'", i + 1, c);
            continue;
        }
        size_t n = i - start;
        if (n == 0)
            return fig_fail(msg, FIG_ERR_INPUT, "the host has an empty label");
        if (n > 63)
            return fig_fail(msg, FIG_ERR_INPUT, "the host has a label of more than 63 "
                            "characters");
        if (name[start] == '-' || name[i - 1] == '-')
            return fig_fail(msg, FIG_ERR_INPUT, "a label of the host begins or ends with '-'");
        if (i == len && !is_alpha(name[start]))
            return fig_fail(msg, FIG_ERR_INPUT, "the host's last label begins with a digit, "
                            "and the host is not an IPv4 address in dotted decimal");
        start = i + 1;
    }
    return FIG_OK;
}

bool fig_push_url_port(const char *s, size_t len, int *port)
{
    long v = 0;
    for (size_t i = 0; i < len && v <= 65535; i++)
        v = is_digit(s[i]) ? v * 10 + (s[i] - '0') : 65536;
    if (len == 0 || v < 1 || v > 65535)
        return false;
    *port = (int)v;
    return true;
}

/* Whether the len characters at s are an IPv4 address as RFC 3986 writes
 * one: four decimal numbers 0-255 without leading zeros. (inet_pton would
 * say the same, but this says it without a copy to terminate.) */
static bool dotted_quad(const char *s, size_t len)
{
    size_t i = 0;
    for (int part = 0; part < 4; part++) {
        if (part && (i >= len || s[i++] != '.'))
            return false;
        size_t start = i;
        int v = 0;
        while (i < len && is_digit(s[i]) && i - start < 3)
            v = v * 10 + (s[i++] - '0');
        size_t n = i - start;
        if (n == 0 || v > 255 || (n > 1 && s[start] == '0'))
            return false;
    }
    return i == len;
}

/* An IPv6 address between the brackets at host[0] and host[len - 1]. */
static fig_err_t ipv6_host(fig_push_url_t *out, const char *host, size_t len, fig_msg_t *msg)
{
    const char *in = host + 1;
    size_t n = len - 2;
    if (memchr(in, '%', n))
        return fig_fail(msg, FIG_ERR_INPUT, "a zone in an IPv6 address is not allowed");
    char text[INET6_ADDRSTRLEN] = "";
    struct in6_addr a;
    if (n < sizeof text)
        memcpy(text, in, n);
    if (n >= sizeof text || inet_pton(AF_INET6, text, &a) != 1)
        return fig_fail(msg, FIG_ERR_INPUT, "the host %.*s is not an IPv6 address",
                        (int)(len < 60 ? len : 60), host);
    inet_ntop(AF_INET6, &a, out->host, sizeof out->host);   /* the one spelling, lower case */
    out->kind = FIG_PUSH_HOST_IPV6;
    return FIG_OK;
}

/* The host, the len characters at `host` (brackets included). */
static fig_err_t read_host(fig_push_url_t *out, const char *host, size_t len, fig_msg_t *msg)
{
    if (len == 0)
        return fig_fail(msg, FIG_ERR_INPUT, "the URL has no host");
    if (host[0] == '[')
        return ipv6_host(out, host, len, msg);
    if (dotted_quad(host, len))
        out->kind = FIG_PUSH_HOST_IPV4;
    else {
        fig_err_t rc = fig_push_url_dns_name(host, len, msg);
        if (rc != FIG_OK)
            return rc;
        out->kind = FIG_PUSH_HOST_NAME;
    }
    for (size_t i = 0; i < len; i++)
        out->host[i] = lower(host[i]);
    out->host[len] = '\0';
    return FIG_OK;
}

/* The authority, the len characters after the scheme: host and port. */
static fig_err_t read_authority(fig_push_url_t *out, const char *a, size_t len, fig_msg_t *msg)
{
    if (memchr(a, '@', len))
        return fig_fail(msg, FIG_ERR_INPUT, "a user name or password in the URL is not allowed");
    size_t host_len = len;
    if (len && a[0] == '[') {
        const char *close = memchr(a, ']', len);
        if (!close)
            return fig_fail(msg, FIG_ERR_INPUT, "the IPv6 address has no closing ']'");
        host_len = (size_t)(close - a) + 1;
        if (host_len < len && a[host_len] != ':')
            return fig_fail(msg, FIG_ERR_INPUT, "the IPv6 address is followed by '%c', not by "
                            "':' and a port", a[host_len]);
    } else {
        const char *colon = memchr(a, ':', len);
        if (colon)
            host_len = (size_t)(colon - a);
    }
    fig_err_t rc = read_host(out, a, host_len, msg);
    if (rc != FIG_OK)
        return rc;
    out->port = 443;
    if (host_len == len)
        return FIG_OK;
    if (!fig_push_url_port(a + host_len + 1, len - host_len - 1, &out->port))
        return fig_fail(msg, FIG_ERR_INPUT, "the port is not a number from 1 to 65535");
    return FIG_OK;
}

/* Whether c may stand in a path or a query as it is (RFC 3986: unreserved,
 * sub-delims, ':', '@', '/', '?'); '%' is looked at by the caller. */
static bool path_char(char c)
{
    return is_alpha(c) || is_digit(c) || strchr("-._~!$&'()*+,;=:@/?", c) != NULL;
}

/* The path and query: the len characters from url[at]. */
static fig_err_t read_target(const char *url, size_t at, size_t len, fig_msg_t *msg)
{
    for (size_t i = at; i < len; i++) {
        char c = url[i];
        if (c == '#')
            return fig_fail(msg, FIG_ERR_INPUT, "a fragment ('#', character %zu) is not "
                            "allowed", i + 1);
        if (c == '%') {
            if (i + 2 >= len || !is_hex(url[i + 1]) || !is_hex(url[i + 2]))
                return fig_fail(msg, FIG_ERR_INPUT, "character %zu ('%%') is not followed by "
                                "two hex digits", i + 1);
            i += 2;
        } else if (!path_char(c))
            return fig_fail(msg, FIG_ERR_INPUT, "character %zu ('%c') is not allowed in a "
                            "URL's path or query", i + 1, c);
    }
    return FIG_OK;
}

static void write_origin(fig_push_url_t *u)
{
    bool v6 = u->kind == FIG_PUSH_HOST_IPV6;
    char port[8] = "";
    if (u->port != 443)
        snprintf(port, sizeof port, ":%d", u->port);
    snprintf(u->origin, sizeof u->origin, "%s%s%s%s%s", scheme, v6 ? "[" : "", u->host,
             v6 ? "]" : "", port);
}

fig_err_t fig_push_url_parse(fig_push_url_t *out, const char *url, size_t len, fig_msg_t *msg)
{
    if (len > FIG_PUSH_URL_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "longer than %d bytes", FIG_PUSH_URL_MAX);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)url[i];
        if (c <= ' ' || c >= 127)
            return fig_fail(msg, FIG_ERR_INPUT, "character %zu (byte 0x%02x) is not allowed "
                            "in a URL", i + 1, c);
    }
    size_t s = sizeof scheme - 1;
    bool https = len >= s;
    for (size_t i = 0; https && i < s; i++)
        https = lower(url[i]) == scheme[i];
    if (!https)
        return fig_fail(msg, FIG_ERR_INPUT, "not an https URL");
    size_t end = s;
    while (end < len && !strchr("/?#", url[end]))
        end++;
    fig_push_url_t u = {0};
    fig_err_t rc = read_authority(&u, url + s, end - s, msg);
    if (rc != FIG_OK)
        return rc;
    rc = read_target(url, end, len, msg);
    if (rc != FIG_OK)
        return rc;
    u.target = end;
    write_origin(&u);
    *out = u;
    return FIG_OK;
}
