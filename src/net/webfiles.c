/* SPDX-License-Identifier: MIT */
/* webfiles.c - the web folder's files (webfiles.h). */
#define _DEFAULT_SOURCE   /* realpath */
#include "net/webfiles.h"

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

int fig_webfiles_read(const char *root, const char *rel, fig_http_answer_t *a)
{
    if (!root[0])
        return 404;
    char full[PATH_MAX], real[PATH_MAX];
    if (snprintf(full, sizeof full, "%s/%s", root, rel) >= (int)sizeof full)
        return 404;
    if (!realpath(full, real))
        return 404;
    size_t rl = strlen(root);
    if (strncmp(real, root, rl) != 0 || real[rl] != '/')
        return 404;                                   /* a link out of the folder */
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 404;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > WEB_FILE_MAX) {
        close(fd);
        return 404;
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
