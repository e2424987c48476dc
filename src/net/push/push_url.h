/* SPDX-License-Identifier: MIT */
/* push_url.h - a push service's endpoint as a URL (RFC 3986), read
 * strictly: the server will post to it, so it is an absolute https URL to
 * a host named as DNS does or as an IP address, without anything that a
 * URL parser elsewhere might read another way.
 *
 * Taken: "https://" (the scheme in any case), a host (a DNS name, an IPv4
 * address in dotted decimal, or an IPv6 address in brackets), an optional
 * port 1-65535, a path and a query of printable ASCII (RFC 3986's pchar and
 * '%' with two hex digits). Refused: another scheme, a user name or
 * password ("user@host"), a fragment, a host that is none of the three (an
 * IPv4 address in another spelling, "127.1" or "0x7f.0.0.1", a zone in an
 * IPv6 address, a name with an empty label), an empty port, blanks,
 * controls and bytes past ASCII, and a URL of more than FIG_PUSH_URL_MAX
 * bytes (a push service's endpoints are 200 to 500). */
#ifndef FIGARO_NET_PUSH_URL_H
#define FIGARO_NET_PUSH_URL_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/error.h"

enum {
    FIG_PUSH_URL_MAX = 1024,      /* an endpoint's bytes at most */
    FIG_PUSH_HOST_MAX = 253,      /* a DNS name's characters at most (RFC 1035) */
    FIG_PUSH_ORIGIN_MAX = 272     /* "https://[host]:65535" and a NUL */
};

typedef enum {
    FIG_PUSH_HOST_NAME,   /* a DNS name, to be resolved */
    FIG_PUSH_HOST_IPV4,   /* an IPv4 address, dotted decimal */
    FIG_PUSH_HOST_IPV6    /* an IPv6 address (written in brackets in the URL) */
} fig_push_host_kind_t;

typedef struct {
    fig_push_host_kind_t kind;
    char host[FIG_PUSH_HOST_MAX + 1];   /* lower case; an IPv6 address without brackets,
                                           in its shortest form (RFC 5952) */
    int port;                           /* 443 when the URL names none */
    size_t target;                      /* where the path (or the query) starts in the URL:
                                           the request's target, "/" when empty */
    char origin[FIG_PUSH_ORIGIN_MAX];   /* "https://host" and ":port" unless 443, lower
                                           case: the audience of a VAPID token */
} fig_push_url_t;

/* Reads the len bytes of url into *out. FIG_ERR_INPUT with a sentence that
 * says what is wrong and where (it names no field: the caller says which
 * one it read), e.g. "not an https URL", "longer than 1024 bytes",
 * "character 31 (byte 0x20) is not allowed in a URL". */
fig_err_t fig_push_url_parse(fig_push_url_t *out, const char *url, size_t len, fig_msg_t *msg);

/* Whether the len characters at `name` are a DNS name as a host is written:
 * labels of 1 to 63 letters, digits and '-' (neither first nor last),
 * separated by dots, at most FIG_PUSH_HOST_MAX characters in all, the last
 * label beginning with a letter (a top-level domain is never a number: a
 * name that ends in one is an IPv4 address or nothing). FIG_ERR_INPUT with
 * the reason otherwise. */
fig_err_t fig_push_url_dns_name(const char *name, size_t len, fig_msg_t *msg);

/* Whether the len characters at s are a port, a decimal number from 1 to
 * 65535 (leading zeros allowed, as RFC 3986 allows them), into *port. */
bool fig_push_url_port(const char *s, size_t len, int *port);

#endif
