/* SPDX-License-Identifier: MIT */
/* push_addr.c - the addresses a push message may go to, and the
 * operator's allow list (push_addr.h).
 *
 * Every address is handled as 16 bytes, an IPv4 one in its IPv4-mapped
 * form (::ffff:a.b.c.d), so one prefix match serves both families and an
 * IPv4-mapped IPv6 address is its IPv4 address by construction. The
 * refused ranges are one table of text, read by the allow list's own
 * reader of ranges at each check: the table is the one place that says
 * them, and a check is rare (one a push message) against the work of
 * posting one. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "net/push/push_addr.h"

typedef enum { NOT_EMBEDDED, NAT64, SIX_TO_FOUR } embed_t;

typedef struct {
    const char *range;   /* IPv4 "a.b.c.d/n", IPv6 "x::/n" */
    const char *what;    /* what an address in it is, after "is" */
    embed_t embed;       /* the range's addresses carry an IPv4 one, judged instead */
} range_t;

/* First match wins: a range inside another comes before it. */
static const range_t refused4[] = {
    {"0.0.0.0/32", "the unspecified address", NOT_EMBEDDED},
    {"0.0.0.0/8", "an address of \"this network\" (RFC 1122)", NOT_EMBEDDED},
    {"10.0.0.0/8", "a private address", NOT_EMBEDDED},
    {"100.64.0.0/10", "a carrier-grade NAT address", NOT_EMBEDDED},
    {"127.0.0.0/8", "a loopback address", NOT_EMBEDDED},
    {"169.254.0.0/16", "a link-local address", NOT_EMBEDDED},
    {"172.16.0.0/12", "a private address", NOT_EMBEDDED},
    {"192.0.0.0/24", "an IETF protocol address", NOT_EMBEDDED},
    {"192.0.2.0/24", "a documentation address", NOT_EMBEDDED},
    {"192.168.0.0/16", "a private address", NOT_EMBEDDED},
    {"198.18.0.0/15", "a benchmarking address", NOT_EMBEDDED},
    {"198.51.100.0/24", "a documentation address", NOT_EMBEDDED},
    {"203.0.113.0/24", "a documentation address", NOT_EMBEDDED},
    {"224.0.0.0/4", "a multicast address", NOT_EMBEDDED},
    {"255.255.255.255/32", "the broadcast address", NOT_EMBEDDED},
    {"240.0.0.0/4", "a reserved address", NOT_EMBEDDED},
};

static const range_t refused6[] = {
    {"::/128", "the unspecified address", NOT_EMBEDDED},
    {"::1/128", "the loopback address", NOT_EMBEDDED},
    {"64:ff9b::/96", "NAT64", NAT64},
    {"64:ff9b:1::/48", "a local-use NAT64 address", NOT_EMBEDDED},
    {"::/8", "a reserved address", NOT_EMBEDDED},
    {"100::/64", "a discard-only address", NOT_EMBEDDED},
    {"2001:db8::/32", "a documentation address", NOT_EMBEDDED},
    {"2001::/23", "an IETF protocol address (Teredo, benchmarking, ...)", NOT_EMBEDDED},
    {"2002::/16", "6to4", SIX_TO_FOUR},
    {"3fff::/20", "a documentation address", NOT_EMBEDDED},
    {"fc00::/7", "a unique local (private) address", NOT_EMBEDDED},
    {"fe80::/10", "a link-local address", NOT_EMBEDDED},
    {"fec0::/10", "a site-local address", NOT_EMBEDDED},
    {"ff00::/8", "a multicast address", NOT_EMBEDDED},
};

/* Past the table: an IPv6 address outside the global unicast ones. */
static const range_t unicast6 = {"2000::/3", "outside the global unicast addresses",
                                 NOT_EMBEDDED};

static const uint8_t mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* ---- ranges as text */

/* The prefix length of the len characters at s, at most max (none: max). */
static bool read_bits(const char *s, size_t len, int max, int *bits)
{
    if (!s) {
        *bits = max;
        return true;
    }
    if (len == 0 || len > 3 || (len > 1 && s[0] == '0'))
        return false;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *bits = v;
    return v <= max;
}

/* Whether the first `bits` bits of a and b are the same. */
static bool same_prefix(const uint8_t a[16], const uint8_t b[16], int bits)
{
    int whole = bits / 8, rest = bits % 8;
    if (memcmp(a, b, (size_t)whole) != 0)
        return false;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return rest == 0 || ((a[whole] ^ b[whole]) & mask) == 0;
}

/* A range: the address (alen characters at a, IPv6 without brackets when
 * v6), then the prefix's bits (blen at b; b NULL: the whole address), into
 * out and *bits of the 128. The message says what is wrong, without the
 * entry: the caller names it. */
static fig_err_t read_range(const char *a, size_t alen, const char *b, size_t blen, bool v6,
                            uint8_t out[16], int *bits, fig_msg_t *msg)
{
    char text[INET6_ADDRSTRLEN] = "";
    uint8_t addr[16] = {0};
    if (alen < sizeof text)
        memcpy(text, a, alen);
    if (v6 ? alen >= sizeof text || memchr(a, '%', alen) || inet_pton(AF_INET6, text, addr) != 1
           : alen >= sizeof text || inet_pton(AF_INET, text, addr + 12) != 1)
        return fig_fail(msg, FIG_ERR_INPUT, "not an %s address", v6 ? "IPv6" : "IPv4");
    int max = v6 ? 128 : 32;
    if (!read_bits(b, blen, max, bits))
        return fig_fail(msg, FIG_ERR_INPUT, "the prefix is not a number of bits from 0 to %d",
                        max);
    if (!v6) {
        memcpy(addr, mapped_prefix, sizeof mapped_prefix);
        *bits += 96;
    }
    uint8_t zero[16] = {0};
    for (int i = *bits; i < 128; i++)
        zero[i / 8] |= (uint8_t)(0x80 >> (i % 8));
    for (int i = 0; i < 16; i++)
        if (addr[i] & zero[i])
            return fig_fail(msg, FIG_ERR_INPUT, "the address has bits set past its prefix");
    memcpy(out, addr, 16);
    return FIG_OK;
}

/* Whether the 16 bytes at a fall in r (a range of the tables above). */
static bool in_range(const range_t *r, const uint8_t a[16])
{
    const char *slash = strchr(r->range, '/');
    bool v6 = strchr(r->range, ':') != NULL;
    uint8_t base[16];
    int bits;
    if (read_range(r->range, (size_t)(slash - r->range), slash + 1, strlen(slash + 1), v6, base,
                   &bits, NULL) != FIG_OK)
        return true;   /* a typo in a table refuses all (test_push_sub tries every range) */
    return same_prefix(a, base, bits);
}

/* The first refused range that holds a, or NULL. */
static const range_t *refused(const uint8_t a[16])
{
    bool v4 = memcmp(a, mapped_prefix, sizeof mapped_prefix) == 0;
    const range_t *t = v4 ? refused4 : refused6;
    size_t n = v4 ? sizeof refused4 / sizeof *refused4 : sizeof refused6 / sizeof *refused6;
    for (size_t i = 0; i < n; i++)
        if (in_range(&t[i], a))
            return &t[i];
    return v4 || in_range(&unicast6, a) ? NULL : &unicast6;
}

/* ---- the allow list */

static bool allowed(const fig_push_allow_t *allow, const char *host, const uint8_t a[16],
                    int port)
{
    for (int i = 0; allow && i < allow->n; i++) {
        const fig_push_allow_entry_t *e = &allow->e[i];
        if (e->port && e->port != port)
            continue;
        if (e->is_name ? host && strcmp(host, e->name) == 0 : same_prefix(a, e->addr, e->bits))
            return true;
    }
    return false;
}

/* One entry of len characters at s, without its port: a range or a name. */
static fig_err_t read_place(fig_push_allow_entry_t *e, const char *s, size_t len,
                            fig_msg_t *msg)
{
    const char *slash = memchr(s, '/', len);
    size_t alen = slash ? (size_t)(slash - s) : len;
    const char *b = slash ? slash + 1 : NULL;
    size_t blen = slash ? len - alen - 1 : 0;
    if (len && s[0] == '[') {
        if (alen < 2 || s[alen - 1] != ']')
            return fig_fail(msg, FIG_ERR_INPUT, "an IPv6 address is written in brackets, "
                            "and a prefix after them: [fd00::]/8");
        return read_range(s + 1, alen - 2, b, blen, true, e->addr, &e->bits, msg);
    }
    if (alen && strspn(s, "0123456789.") >= alen)
        return read_range(s, alen, b, blen, false, e->addr, &e->bits, msg);
    fig_err_t rc = fig_push_url_dns_name(s, alen, msg);
    if (rc != FIG_OK)
        return rc;
    if (slash)
        return fig_fail(msg, FIG_ERR_INPUT, "a prefix goes after an address, not after a name");
    e->is_name = true;
    for (size_t i = 0; i < len; i++)
        e->name[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
    e->name[len] = '\0';
    return FIG_OK;
}

/* One entry, the len characters at s. */
static fig_err_t read_entry(fig_push_allow_entry_t *e, const char *s, size_t len,
                            fig_msg_t *msg)
{
    if (len == 0)
        return fig_fail(msg, FIG_ERR_INPUT, "an empty entry");
    const char *close = s[0] == '[' ? memchr(s, ']', len) : NULL;
    if (s[0] == '[' && !close)
        return fig_fail(msg, FIG_ERR_INPUT, "the IPv6 address has no closing ']'");
    const char *from = close ? close : s;
    const char *colon = memchr(from, ':', len - (size_t)(from - s));
    if (!close && colon && memchr(colon + 1, ':', len - (size_t)(colon + 1 - s)))
        return fig_fail(msg, FIG_ERR_INPUT, "an IPv6 address is written in brackets: [::1]");
    size_t place = colon ? (size_t)(colon - s) : len;
    memset(e, 0, sizeof *e);
    if (colon && !fig_push_url_port(colon + 1, len - place - 1, &e->port))
        return fig_fail(msg, FIG_ERR_INPUT, "the port is not a number from 1 to 65535");
    return read_place(e, s, place, msg);
}

fig_err_t fig_push_allow_parse(fig_push_allow_t *out, const char *text, fig_msg_t *msg)
{
    fig_push_allow_t list;
    list.n = 0;
    size_t len = strlen(text);
    for (size_t at = 0; at <= len;) {
        const char *comma = memchr(text + at, ',', len - at);
        size_t n = comma ? (size_t)(comma - text) - at : len - at;
        if (list.n == FIG_PUSH_ALLOW_MAX)
            return fig_fail(msg, FIG_ERR_INPUT, "at most %d entries", FIG_PUSH_ALLOW_MAX);
        fig_msg_t why = {0};
        if (read_entry(&list.e[list.n], text + at, n, &why) != FIG_OK)
            return fig_fail(msg, FIG_ERR_INPUT, "entry %d (\"%.*s\"): %s", list.n + 1,
                            (int)(n < 60 ? n : 60), text + at, why.text);
        list.n++;
        at += n + 1;
    }
    *out = list;
    return FIG_OK;
}

/* ---- the decision */

/* The 16 bytes of an IPv4 address carried at a[at], IPv4-mapped. */
static void embedded(const uint8_t a[16], size_t at, uint8_t out[16])
{
    memcpy(out, mapped_prefix, sizeof mapped_prefix);
    memcpy(out + 12, a + at, 4);
}

fig_err_t fig_push_addr_check(const fig_push_allow_t *allow, const char *host,
                              const struct sockaddr_storage *addr, fig_msg_t *msg)
{
    uint8_t a[16];
    int port;
    char text[INET6_ADDRSTRLEN] = "", v4[INET_ADDRSTRLEN] = "";
    if (addr->ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)addr;
        memcpy(a, mapped_prefix, sizeof mapped_prefix);
        memcpy(a + 12, &in->sin_addr, 4);
        port = ntohs(in->sin_port);
        inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    } else if (addr->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)addr;
        memcpy(a, &in6->sin6_addr, 16);
        port = ntohs(in6->sin6_port);
        inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    } else
        return fig_fail(msg, FIG_ERR_INPUT, "not an IPv4 or IPv6 address");
    if (port == 0)
        return fig_fail(msg, FIG_ERR_INPUT, "%s: port 0 is no port to post to", text);
    if (allowed(allow, host, a, port))
        return FIG_OK;
    const range_t *r = refused(a);
    if (addr->ss_family == AF_INET6 && memcmp(a, mapped_prefix, sizeof mapped_prefix) == 0) {
        inet_ntop(AF_INET, a + 12, v4, sizeof v4);
        return r ? fig_fail(msg, FIG_ERR_INPUT, "%s (IPv4 %s) is %s (%s)", text, v4, r->what,
                            r->range)
                 : FIG_OK;
    }
    if (!r)
        return FIG_OK;
    if (r->embed == NOT_EMBEDDED)
        return fig_fail(msg, FIG_ERR_INPUT, "%s is %s (%s)", text, r->what, r->range);
    uint8_t e[16];
    embedded(a, r->embed == NAT64 ? 12 : 2, e);
    inet_ntop(AF_INET, e + 12, v4, sizeof v4);
    const range_t *r4 = allowed(allow, host, e, port) ? NULL : refused(e);
    return r4 ? fig_fail(msg, FIG_ERR_INPUT, "%s is %s of %s, %s (%s)", text, r->what, v4,
                         r4->what, r4->range)
              : FIG_OK;
}
