/* SPDX-License-Identifier: MIT */
/* wire.h - the network in front of the table service (service.h): one
 * libwebsockets 4.1 context, one port, HTTP and WebSocket, one event loop
 * thread.
 *
 * HTTP: GET /healthz, /metrics and /tables/... are the service's answers
 * (fig_service_http); every other path is a file of the web folder (the
 * browser client), checked against traversal, with security headers.
 * A request whose Host is not one the server answers to (allowed_hosts)
 * gets 403, an upgrade to it is refused.
 * WebSocket: one path, /ws, subprotocol "figaro.v1" or none; text frames of
 * at most FIG_NET_FRAME_MAX bytes go to fig_service_message; a browser's
 * Origin must be the request's Host. Each connection has a send queue (one
 * lws_write per writeable callback), capped: a client that does not read is
 * closed. The loop is libuv's (epoll), lws joined to it: the descriptors
 * the service watches are polled in it, its deadlines are one timer of it.
 *
 * Nothing here prints: log lines go to the caller's callback. Everything runs
 * on the thread that calls fig_wire_run, but fig_wire_wake_fd's descriptor,
 * which a signal handler may write to. */
#ifndef FIGARO_NET_WIRE_H
#define FIGARO_NET_WIRE_H

#include <stddef.h>

#include "figaro/error.h"
#include "net/service/service.h"
#include "net/wire/webfiles.h"   /* fig_wire_web_path, fig_wire_mime */

typedef struct fig_wire fig_wire_t;

typedef struct {
    const char *addr;           /* the address to listen on: "127.0.0.1", "::", "0.0.0.0" */
    int port;                   /* 0: any free port (fig_wire_port tells which) */
    const char *tls_cert;       /* PEM files for HTTPS/WSS; both or neither */
    const char *tls_key;
    const char *web_dir;        /* the browser client's files; NULL: none (404) */
    size_t queue_max;           /* bytes queued for one connection; 0: 1 MiB */
    int ping_s;                 /* idle seconds before a ping; 0: 30 (hang up at twice) */
    const char *trust_proxy;    /* a reverse proxy's address: for its connections, the
                                   client's address is the last of X-Forwarded-For; NULL:
                                   none (the header is never read) */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
    const char *allowed_hosts;  /* the Host names answered, a comma list ("figaro.example.org,
                                   localhost"; "*": any); NULL: on a loopback address,
                                   localhost, 127.0.0.1, [::1] and the address itself only
                                   (DNS rebinding), on any other address any Host */
} fig_wire_opts_t;

/* Opens the listening socket. FIG_ERR_INPUT (the address, the port, the
 * certificate) or FIG_ERR_SPACE with the reason. */
fig_err_t fig_wire_new(fig_wire_t **out, const fig_wire_opts_t *opts, fig_msg_t *msg);

/* The callbacks to hand to fig_service_new. */
const fig_wire_ops_t *fig_wire_ops(fig_wire_t *w);

/* The service the wire drives (NULL: none; connections are then refused). */
void fig_wire_attach(fig_wire_t *w, fig_service_t *svc);

/* The port the wire listens on. */
int fig_wire_port(const fig_wire_t *w);

/* A descriptor a signal handler may write one byte to: fig_wire_run then
 * returns (write(2) is async-signal-safe). */
int fig_wire_wake_fd(const fig_wire_t *w);

/* Serves until woken through fig_wire_wake_fd. 0, or -1 if the loop failed. */
int fig_wire_run(fig_wire_t *w);

/* Closes every connection and the socket. Detach (fig_wire_attach NULL) and
 * free the service first. NULL is a no-op. */
void fig_wire_free(fig_wire_t *w);

#endif
