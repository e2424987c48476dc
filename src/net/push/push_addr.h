/* SPDX-License-Identifier: MIT */
/* push_addr.h - where the server may post a push message: the decision on
 * one address that an endpoint's host resolved to, and the operator's
 * allow list. A subscription comes from a client, so its endpoint may name
 * any host; without this check the server would post wherever a client
 * asked it to, to its own loopback, to the operator's private network, to
 * a cloud's metadata service at 169.254.169.254 (server-side request
 * forgery).
 *
 * Refused, unless the allow list has it: the addresses that are not on the
 * public Internet. IPv4: 0.0.0.0/8 (0.0.0.0 among them), 10.0.0.0/8,
 * 100.64.0.0/10 (carrier-grade NAT), 127.0.0.0/8, 169.254.0.0/16,
 * 172.16.0.0/12, 192.0.0.0/24, 192.0.2.0/24, 192.168.0.0/16,
 * 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24, 224.0.0.0/4,
 * 240.0.0.0/4 and 255.255.255.255. IPv6: ::, ::1, the rest of ::/8,
 * 100::/64, 2001::/23, 2001:db8::/32, 3fff::/20, fc00::/7, fe80::/10,
 * fec0::/10, ff00::/8, 64:ff9b:1::/48, and anything outside 2000::/3. An
 * IPv6 address that carries an IPv4 one is judged as that IPv4 address,
 * the allow list included: IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::/48).
 *
 * Nothing here resolves a name or opens a socket: the caller resolves the
 * endpoint's host (getaddrinfo, which may wait on DNS, so never on the
 * event loop: on a worker thread), checks here every address it may
 * connect to, and connects to the very address it checked, never to the
 * host's name again: a second resolution may give another address (DNS
 * rebinding). */
#ifndef FIGARO_NET_PUSH_ADDR_H
#define FIGARO_NET_PUSH_ADDR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "figaro/error.h"
#include "net/push/push_url.h"

enum {
    FIG_PUSH_ALLOW_MAX = 32   /* entries of an allow list */
};

/* One entry: a range of addresses, or a host's name, and maybe a port. */
typedef struct {
    bool is_name;                        /* a name: the endpoint's host is this name */
    char name[FIG_PUSH_HOST_MAX + 1];    /* lower case */
    uint8_t addr[16];                    /* else a range: IPv4 in its IPv4-mapped form */
    int bits;                            /* the range's prefix, of the 128 bits */
    int port;                            /* only this port; 0: any */
} fig_push_allow_entry_t;

typedef struct {
    int n;
    fig_push_allow_entry_t e[FIG_PUSH_ALLOW_MAX];
} fig_push_allow_t;

/* Reads an allow list: entries separated by commas, without blanks, each
 *   an IPv4 range       127.0.0.0/8, or an address (/32): 127.0.0.1
 *   an IPv6 range       [fd00::]/8, [::1]/128, or an address: [::1]
 *   either with a port  127.0.0.1:8443, [::1]/128:8443
 *   a host's name       push.example.internal, push.example.internal:8443
 * A range's bits past its prefix are zero (10.0.0.0/8, not 10.1.0.0/8). A
 * name allows every address that name resolves to, whatever DNS says:
 * the operator trusts its DNS. FIG_ERR_INPUT, naming the entry, for
 * anything else; *out is set only on success. */
fig_err_t fig_push_allow_parse(fig_push_allow_t *out, const char *text, fig_msg_t *msg);

/* Whether the server may post to `addr` (AF_INET or AF_INET6, its port
 * set, as getaddrinfo gave it for the endpoint's host and port), an
 * address of the endpoint's host `host` (fig_push_url_t's host, lower
 * case; NULL when there is none, which no name of the list matches).
 * `allow` may be NULL: no list. FIG_OK, or FIG_ERR_INPUT with the reason,
 * e.g. "::ffff:10.0.0.1 (IPv4 10.0.0.1) is a private address
 * (10.0.0.0/8)". A pure function. */
fig_err_t fig_push_addr_check(const fig_push_allow_t *allow, const char *host,
                              const struct sockaddr_storage *addr, fig_msg_t *msg);

#endif
