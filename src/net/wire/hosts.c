/* SPDX-License-Identifier: MIT */
/* hosts.c - the Host names answered (hosts.h). */
#include "net/wire/hosts.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Adds one allowed host name, lower case, an IPv6 address in brackets. */
static bool host_add(fig_hosts_t *h, const char *name, size_t len)
{
    if (len == 0 || h->n == FIG_HOSTS_MAX)
        return false;
    char *out = h->names[h->n];
    bool v6 = memchr(name, ':', len) && name[0] != '[';
    if (len + 3 > FIG_HOST_LEN)
        return false;
    size_t o = 0;
    if (v6)
        out[o++] = '[';
    for (size_t i = 0; i < len; i++)
        out[o++] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] - 'A' + 'a' : name[i]);
    if (v6)
        out[o++] = ']';
    out[o] = '\0';
    h->n++;
    return true;
}

fig_err_t fig_hosts_init(fig_hosts_t *h, const char *list, const char *addr, fig_msg_t *msg)
{
    memset(h, 0, sizeof *h);
    if (!list) {
        bool loopback = addr && (strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0 ||
                                 strcmp(addr, "[::1]") == 0 || strcmp(addr, "localhost") == 0);
        if (!loopback) {
            h->any = true;
            return FIG_OK;
        }
        host_add(h, "localhost", 9);
        host_add(h, "127.0.0.1", 9);
        host_add(h, "::1", 3);
        if (addr[0] != '[')
            host_add(h, addr, strlen(addr));
        return FIG_OK;
    }
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 1 && p[0] == '*')
            h->any = true;
        else if (!host_add(h, p, n))
            return fig_fail(msg, FIG_ERR_INPUT, "--allowed-hosts: at most %d names of at most "
                            "%d characters, none empty", FIG_HOSTS_MAX, FIG_HOST_LEN - 3);
        p += n;
        if (*p == ',')
            p++;
    }
    return FIG_OK;
}

bool fig_hosts_allow(const fig_hosts_t *h, const char *header)
{
    if (h->any)
        return true;
    if (!header || strlen(header) >= FIG_HOST_LEN)
        return false;
    char host[FIG_HOST_LEN];
    snprintf(host, sizeof host, "%s", header);
    char *end = host[0] == '[' ? strchr(host, ']') : strchr(host, ':');
    if (end)
        end[host[0] == '[' ? 1 : 0] = '\0';   /* "[::1]:8080" -> "[::1]", "a:80" -> "a" */
    for (int i = 0; i < h->n; i++)
        if (strcasecmp(host, h->names[i]) == 0)
            return true;
    return false;
}

bool fig_hosts_same_origin(const char *origin, const char *host)
{
    const char *o = origin;
    if (strncasecmp(o, "http://", 7) == 0)
        o += 7;
    else if (strncasecmp(o, "https://", 8) == 0)
        o += 8;
    else
        return false;   /* "null", file:, other schemes */
    return strcasecmp(o, host) == 0;
}

bool fig_hosts_forwarded(const char *xff, char *addr, size_t cap)
{
    const char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    last += strspn(last, " \t");
    size_t len = strspn(last, "0123456789abcdefABCDEF.:");
    if (len == 0 || len >= cap || last[len + strspn(last + len, " \t")] != '\0')
        return false;   /* not an address */
    memcpy(addr, last, len);
    addr[len] = '\0';
    return true;
}
