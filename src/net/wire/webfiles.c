/* SPDX-License-Identifier: MIT */
/* webfiles.c - the web folder's files (webfiles.h). */
#define _DEFAULT_SOURCE   /* realpath */
#include "net/wire/webfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum { WEB_FILE_MAX = 16 << 20 };   /* the largest file of the web folder we serve */

int fig_wire_web_path(const char *path, char *rel, size_t cap)
{
    if (!path || path[0] != '/')
        return 400;
    size_t n = strlen(path);
    if (n > 512)
        return 404;
    const char *p = path + 1;
    size_t o = 0;
    for (;;) {
        /* one segment: p up to the next '/' or the end */
        size_t seg = strcspn(p, "/");
        if (seg == 0 && p[0] == '/')
            return 400;                       /* "//": an empty segment */
        if (seg > 0 && p[0] == '.')
            return 400;                       /* "..", ".", hidden files */
        for (size_t i = 0; i < seg; i++) {
            unsigned char ch = (unsigned char)p[i];
            if (ch == '%' || ch == '\\' || ch < 0x20 || ch == 0x7f)
                return 400;                   /* encodings, Windows separators, controls */
            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.'))
                return 404;                   /* no file of ours is named so */
        }
        if (o + seg + 2 > cap)
            return 404;
        memcpy(rel + o, p, seg);
        o += seg;
        p += seg;
        if (*p == '\0') {
            if (seg == 0) {                   /* "/" or "dir/": its index */
                const char *ix = "index.html";
                if (o + strlen(ix) + 1 > cap)
                    return 404;
                memcpy(rel + o, ix, strlen(ix));
                o += strlen(ix);
            }
            rel[o] = '\0';
            /* A precompressed copy is sent in its file's place (below),
             * never asked for by its own name: no page links one, and
             * served so it would be gzip without its Content-Encoding. */
            if (o >= 3 && strcasecmp(rel + o - 3, ".gz") == 0)
                return 404;
            return 0;
        }
        rel[o++] = '/';
        p++;
    }
}

const char *fig_wire_mime(const char *name)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        { ".html", "text/html; charset=utf-8" },
        { ".js", "text/javascript; charset=utf-8" },
        { ".mjs", "text/javascript; charset=utf-8" },
        { ".css", "text/css; charset=utf-8" },
        { ".json", "application/json" },
        { ".webmanifest", "application/manifest+json" },
        { ".svg", "image/svg+xml" },
        { ".png", "image/png" },
        { ".jpg", "image/jpeg" },
        { ".ico", "image/x-icon" },
        { ".woff2", "font/woff2" },
        { ".wasm", "application/wasm" },
        { ".txt", "text/plain; charset=utf-8" },
        { ".md", "text/plain; charset=utf-8" },
        { ".fgn", "text/plain; charset=utf-8" },
    };
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t e = strlen(types[i].ext);
        if (n > e && strcasecmp(name + n - e, types[i].ext) == 0)
            return types[i].type;
    }
    return "application/octet-stream";
}

/* [*b, *e) without the blanks (RFC 9110's OWS: spaces, tabs) at its ends. */
static void trim_ows(const char **b, const char **e)
{
    while (*b < *e && (**b == ' ' || **b == '\t'))
        (*b)++;
    while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
        (*e)--;
}

/* Whether the element [p, end) of an Accept-Encoding list names `name`
 * (case-insensitive), up to its parameters. */
static bool coding_is(const char *p, const char *end, const char *name)
{
    size_t n = strlen(name);
    return (size_t)(end - p) == n && strncasecmp(p, name, n) == 0;
}

/* The weight of a list element's parameters [p, end) (";q=0.5;..."):
 * 1 for a q above zero or none, 0 for q=0, -1 for a malformed q (the
 * element is then ignored, as RFC 9110 lets a recipient do). */
static int element_weight(const char *p, const char *end)
{
    int weight = 1;
    while (p < end) {
        /* p is at ';': one parameter up to the next ';' */
        const char *q = p + 1;
        const char *next = memchr(q, ';', (size_t)(end - q));
        if (!next)
            next = end;
        const char *e = next;
        trim_ows(&q, &e);
        if (e - q >= 2 && (q[0] == 'q' || q[0] == 'Q') && q[1] == '=') {
            /* qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ) */
            const char *v = q + 2;
            size_t len = (size_t)(e - v);
            if (len == 0 || len > 5 || (v[0] != '0' && v[0] != '1') ||
                (len > 1 && v[1] != '.'))
                return -1;
            bool nonzero = v[0] == '1';
            for (size_t i = 2; i < len; i++) {
                if (v[i] < '0' || v[i] > '9' || (v[0] == '1' && v[i] != '0'))
                    return -1;
                nonzero |= v[i] != '0';
            }
            weight = nonzero ? 1 : 0;
        }
        p = next;
    }
    return weight;
}

bool fig_webfiles_accepts_gzip(const char *accept_encoding)
{
    if (!accept_encoding)
        return false;
    /* gzip (or its old alias x-gzip) named: its weight decides, a refusal
     * (q=0) winning over any other mention; else "*" 's weight; else no. */
    int named = -1, star = -1;
    const char *p = accept_encoding;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *c = p, *ce = semi ? semi : end;
        trim_ows(&c, &ce);
        int w = element_weight(semi ? semi : end, end);
        if (w >= 0) {
            if (coding_is(c, ce, "gzip") || coding_is(c, ce, "x-gzip"))
                named = named == 0 ? 0 : w;
            else if (coding_is(c, ce, "*"))
                star = star == 0 ? 0 : w;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    return named >= 0 ? named == 1 : star == 1;
}

/* Opens the file `rel` + `suffix` of the web folder `root`: resolved, and
 * refused when that leads out of the folder (a symbolic link) or to
 * anything but a regular file of at most WEB_FILE_MAX bytes. Returns its
 * descriptor with its status in st, or -1. */
static int open_under(const char *root, const char *rel, const char *suffix, struct stat *st)
{
    char full[PATH_MAX], real[PATH_MAX];
    if (snprintf(full, sizeof full, "%s/%s%s", root, rel, suffix) >= (int)sizeof full)
        return -1;
    if (!realpath(full, real))
        return -1;
    size_t rl = strlen(root);
    if (strncmp(real, root, rl) != 0 || real[rl] != '/')
        return -1;                                    /* a link out of the folder */
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_size > WEB_FILE_MAX) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether a's modification time is before b's. */
static bool older(const struct stat *a, const struct stat *b)
{
    if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
        return a->st_mtim.tv_sec < b->st_mtim.tv_sec;
    return a->st_mtim.tv_nsec < b->st_mtim.tv_nsec;
}

int fig_webfiles_read(const char *root, const char *rel, bool gzip_ok, fig_http_answer_t *a,
                      fig_webfile_coding_t *how)
{
    how->gzip = false;
    how->vary = false;
    if (!root[0])
        return 404;
    struct stat st, gz_st;
    int fd = open_under(root, rel, "", &st);
    if (fd < 0)
        return 404;
    int gz = open_under(root, rel, ".gz", &gz_st);
    if (gz >= 0) {
        /* A copy older than its file was made before the last edit: the
         * file itself, never a stale copy. */
        how->vary = true;
        if (gzip_ok && !older(&gz_st, &st)) {
            close(fd);
            fd = gz;
            st = gz_st;
            how->gzip = true;
        } else {
            close(gz);
        }
    }
    size_t len = (size_t)st.st_size, got = 0;
    char *body = malloc(len + 1);
    if (!body) {
        close(fd);
        return 503;
    }
    while (got < len) {
        ssize_t r = read(fd, body + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    a->status = 200;
    a->type = fig_wire_mime(rel);
    a->body = body;
    a->len = got;
    return 200;
}
