/* SPDX-License-Identifier: MIT */
/* webfiles.h - the browser client's files, as `figaro serve` answers GET for
 * them: a URL path checked character by character, then resolved and
 * checked again (realpath), so that neither ".." nor a symbolic link leads
 * out of the web folder; the Content-Type by extension; the build's gzip
 * copy of a file, for a request that takes gzip. Nothing here calls
 * libwebsockets: the wire (wire.c) sends what this reads. */
#ifndef FIGARO_NET_WEBFILES_H
#define FIGARO_NET_WEBFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "net/service/service_types.h"

/* The file a URL path names inside the web folder: writes the path relative
 * to it into rel ("index.html" for "/") and returns 0, or returns the HTTP
 * status to answer: 400 for a path that tries to leave the folder (".."
 * segments, hidden files, encoded characters, backslashes, NULs, "//"), 404
 * for one it cannot hold or one ending in ".gz" (a precompressed copy,
 * below, is never served by its own name). The query string must already
 * be cut off. */
int fig_wire_web_path(const char *path, char *rel, size_t cap);

/* The Content-Type of a file name, by its extension. */
const char *fig_wire_mime(const char *name);

/* Whether a request's Accept-Encoding value (NULL: no such header) takes
 * gzip (RFC 9110 12.5.3): "gzip" or "x-gzip" with a weight above zero, or
 * else "*" so; "gzip;q=0" refuses it whatever else the list says. A
 * malformed weight makes its element count for nothing. */
bool fig_webfiles_accepts_gzip(const char *accept_encoding);

/* How a file was read: gzip, the bytes are F.gz's (Content-Encoding:
 * gzip); vary, F.gz exists, so the answer depends on Accept-Encoding. */
typedef struct {
    bool gzip, vary;
} fig_webfile_coding_t;

/* Reads the file `rel` (fig_wire_web_path's) of the web folder `root` (a
 * real path; "": none) into a (status 200, its type, a malloc'ed body);
 * else returns the status to answer (404, or 503 out of memory). With
 * gzip_ok, its precompressed copy rel.gz (made by the build next to each
 * text file, gzip -9 -n) is read instead when there is one, under the same
 * checks, and not older than rel (a file edited since it was compressed
 * is sent as it is now). */
int fig_webfiles_read(const char *root, const char *rel, bool gzip_ok, fig_http_answer_t *a,
                      fig_webfile_coding_t *how);

#endif
