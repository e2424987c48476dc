/* SPDX-License-Identifier: MIT */
/* fuzz_http.c - libFuzzer target for what `figaro serve` reads of an HTTP
 * request itself, libwebsockets aside: the URL path of a web file
 * (fig_wire_web_path) and the Accept-Encoding value
 * (fig_webfiles_accepts_gzip) of src/net/wire/webfiles.h, X-Forwarded-For and
 * Origin (src/net/wire/hosts.h), each given the input, seeded from
 * tests/fuzz/corpus-http.
 *
 * Beyond "no crash": a path is refused (400, 404) or names a file inside the
 * folder: relative, no empty, hidden or ".." segment, only the characters
 * of our file names, never a gzip copy ("*.gz"). A list takes gzip only if
 * it says "gzip" or "*"; the answer does not change with blanks before it,
 * and a list that starts by refusing gzip never takes it. A forwarded
 * address is the input's last entry, made of an address's characters, and
 * fits; an Origin matches a host only as http:// or https:// and that host
 * (the input split at its first newline). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/wire/hosts.h"
#include "net/wire/webfiles.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_path(const char *path)
{
    char rel[600];
    int st = fig_wire_web_path(path, rel, sizeof rel);
    if (st == 400 || st == 404)
        return;
    if (st != 0)
        abort();
    size_t n = strlen(rel);
    if (n == 0 || rel[0] == '/' || rel[n - 1] == '/' || strstr(rel, "//") ||
        (n >= 3 && strcasecmp(rel + n - 3, ".gz") == 0))
        abort();
    for (const char *seg = rel; seg; seg = strchr(seg, '/') ? strchr(seg, '/') + 1 : NULL)
        if (seg[0] == '.')
            abort();                      /* "..", ".", a hidden file */
    for (size_t i = 0; i < n; i++) {
        char c = rel[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.' || c == '/'))
            abort();
    }
}

/* Whether s holds needle, case aside. */
static bool has(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++)
        if (strncasecmp(s, needle, n) == 0)
            return true;
    return false;
}

static void check_accept(const char *value, size_t len)
{
    bool gz = fig_webfiles_accepts_gzip(value);
    if (gz && !has(value, "gzip") && !strchr(value, '*'))
        abort();
    char *more = malloc(len + 32);
    if (!more)
        return;
    memcpy(more, " \t", 2);
    memcpy(more + 2, value, len + 1);
    if (fig_webfiles_accepts_gzip(more) != gz)
        abort();
    memcpy(more, "gzip;q=0,", 9);
    memcpy(more + 9, value, len + 1);
    if (fig_webfiles_accepts_gzip(more))
        abort();
    free(more);
}

static void check_hosts(char *s)
{
    char addr[8];
    memcpy(addr, "unset", 6);
    if (fig_hosts_forwarded(s, addr, sizeof addr)) {
        size_t n = strlen(addr);
        if (n == 0 || n >= sizeof addr || strspn(addr, "0123456789abcdefABCDEF.:") != n ||
            !strstr(strrchr(s, ',') ? strrchr(s, ',') : s, addr))
            abort();
    } else if (strcmp(addr, "unset") != 0) {
        abort();                          /* refused, yet written */
    }
    char *nl = strchr(s, '\n');
    if (!nl)
        return;
    *nl = '\0';
    if (fig_hosts_same_origin(s, nl + 1) && strncasecmp(s, "http://", 7) != 0 &&
        strncasecmp(s, "https://", 8) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    check_path(s);
    check_accept(s, strlen(s));
    check_hosts(s);
    free(s);
    return 0;
}
