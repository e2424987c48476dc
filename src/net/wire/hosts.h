/* SPDX-License-Identifier: MIT */
/* hosts.h - the Host names a server answers to (`--allowed-hosts`): a page
 * of evil.example whose name resolves to our address would otherwise be
 * same-origin with us (DNS rebinding); and what the other headers that
 * name hosts say (Origin, X-Forwarded-For). The wire reads a request's
 * headers and asks here; nothing here calls libwebsockets. */
#ifndef FIGARO_NET_HOSTS_H
#define FIGARO_NET_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/error.h"

enum {
    FIG_HOSTS_MAX = 16,      /* --allowed-hosts entries */
    FIG_HOST_LEN = 256       /* a Host header, the port included */
};

typedef struct {
    bool any;                                  /* every Host is answered */
    int n;
    char names[FIG_HOSTS_MAX][FIG_HOST_LEN];   /* else these only, lower case, IPv6 in [] */
} fig_hosts_t;

/* The names answered: `list`, a comma list ("figaro.example.org,localhost";
 * "*": any), or, for NULL, on a loopback address localhost, 127.0.0.1,
 * [::1] and the address itself, on any other address any name (wire.h).
 * FIG_ERR_INPUT for a list too long or with an empty name. */
fig_err_t fig_hosts_init(fig_hosts_t *h, const char *list, const char *addr, fig_msg_t *msg);

/* Whether a request whose Host header is `host` (the port, if any, is not
 * looked at; NULL: there was none) is answered. */
bool fig_hosts_allow(const fig_hosts_t *h, const char *host);

/* Whether a browser's Origin header names the host the request was sent to
 * (`host`, its Host header): "http://" or "https://" and that name, the
 * case aside; "null", file: and other schemes never. */
bool fig_hosts_same_origin(const char *origin, const char *host);

/* The client's address a trusted proxy reports in X-Forwarded-For `xff`:
 * its last entry (the one the proxy itself appended; entries before it came
 * from the client and may be forged), between blanks, into addr (cap
 * bytes); false when that is not an address (IPv4 or IPv6 characters). */
bool fig_hosts_forwarded(const char *xff, char *addr, size_t cap);

#endif
