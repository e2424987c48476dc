/* SPDX-License-Identifier: MIT */
/* wire.c - the table service on the network, through libwebsockets 4.1: one
 * context, one vhost, one port, HTTP and WebSocket, one loop thread.
 *
 * The loop is libuv's (epoll: a turn costs what is ready, not what is open),
 * made and run by wire_loop.c, lent to lws as a foreign loop; lws 4.1 drives
 * it through its event library plugin (libwebsockets-evlib_uv.so, loaded
 * when the context is made). What of the loop is the service's (its next
 * deadline, the descriptors it watches, the wake pipe) is wire_loop.c's too;
 * this file sets the timer again after every call into the service
 * (reschedule). A table costs three descriptors (its person's socket, its
 * match's pipe).
 *
 * lws 4.1's rules shape the rest: only the loop thread calls lws; a
 * connection writes once per writeable callback, so whatever the service
 * says is queued per connection and one frame goes out at each callback.
 *
 * One protocol, "figaro.v1", is the vhost's first: it gets the HTTP requests
 * (static files and the service's paths; the one POST, /replay, whose body
 * is gathered up to its Content-Length, at most FIG_NET_RECORD_MAX) and the
 * WebSocket upgrades, with or without that subprotocol named. Every HTTP
 * answer carries the security headers; files come only from the web folder
 * (webfiles.h). */
#define _DEFAULT_SOURCE   /* realpath */
#include "net/wire/wire.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "host/util.h"
#include "net/wire/hosts.h"
#include "net/base/limits.h"
#include "net/wire/webfiles.h"
#include "net/wire/wire_loop.h"

enum {
    PATH_MAX_URL = 512,        /* a longer path is answered 414 */
    HEADERS_MAX = 16384,       /* lws's buffer for a request's line and headers: above,
                                  lws hangs up without an answer (docs/server.md) */
    HTTP_CHUNK = 16384,        /* one lws_write of an HTTP body */
    CLOSE_GRACE_S = 3,         /* a closing connection that cannot flush is dropped */
    WS_WRITE_CLOSE = 4,        /* lws 4.1's own LWS_WRITE_CLOSE, which lws-write.h leaves
                                  out (its value 4 kept for it): a close frame (ws_bye) */
};

/* One queued text frame, with lws's headroom before it. */
typedef struct frame {
    struct frame *next;
    size_t len;
    unsigned char buf[];   /* LWS_PRE + len */
} frame_t;

/* A connection: lws's per-session data, the same for HTTP and WebSocket. */
struct fig_conn {
    struct lws *wsi;
    void *cs;                   /* the service's state; NULL: not (or no longer) open */
    frame_t *head, *tail;
    size_t queued;
    bool closing;               /* flush what is queued, then close */
    int close_status;
    bool skip;                  /* the rest of an oversized message */
    size_t rxlen;
    char *rx;                   /* FIG_NET_FRAME_MAX + 1 bytes, while a message arrives */
    /* HTTP: the answer being sent */
    char *body;
    size_t body_len, body_sent;
    bool later;                 /* the service answers later (op_answer) */
    bool ready;                 /* it did: `answer` is to be sent when writable */
    fig_http_answer_t answer;
    /* HTTP POST: the request's body as it arrives, and the path it goes to */
    char *post;
    size_t post_len, post_want;
    char post_path[64];
    char addr[64];              /* who sent it (the replays' rate limits) */
};

struct fig_wire {
    fig_wire_loop_t *lp;        /* the loop, the service's timer and watches (wire_loop.h) */
    void *loops[1];             /* lws's foreign loops: ours */
    struct lws_context *ctx;
    struct lws_vhost *vh;
    fig_service_t *svc;
    fig_wire_ops_t ops;
    lws_retry_bo_t retry;
    int port;
    size_t queue_max;
    char proxy[64];             /* the trusted reverse proxy's address; "": none */
    fig_hosts_t hosts;          /* the Host names answered */
    char web_root[PATH_MAX];    /* "" : no web folder */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
};

static fig_wire_t *wire_of(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

/* ---- the service's callbacks */

static void conn_drop_queue(struct fig_conn *c)
{
    while (c->head) {
        frame_t *f = c->head;
        c->head = f->next;
        free(f);
    }
    c->tail = NULL;
    c->queued = 0;
}

/* Closes c after what is queued (or at once, dropping it), with a status. */
static void conn_close(fig_wire_t *w, struct fig_conn *c, int status, bool drop)
{
    (void)w;
    if (drop)
        conn_drop_queue(c);
    if (!c->closing) {
        c->closing = true;
        c->close_status = status;
    }
    lws_callback_on_writable(c->wsi);
    /* A client that reads nothing never makes us writeable again. */
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, CLOSE_GRACE_S);
}

static void op_send(void *wire, fig_conn_t *conn, const char *text, size_t len)
{
    fig_wire_t *w = wire;
    struct fig_conn *c = conn;
    if (c->closing)
        return;
    if (c->queued + len > w->queue_max) {
        fig_logf(w->log, w->log_ctx, "",
                 "wire: a connection reads too slowly (%zu bytes queued): closed", c->queued);
        conn_close(w, c, LWS_CLOSE_STATUS_POLICY_VIOLATION, true);
        return;
    }
    frame_t *f = malloc(sizeof *f + LWS_PRE + len);
    if (!f) {
        fig_logf(w->log, w->log_ctx, "", "wire: out of memory queueing a frame: connection closed");
        conn_close(w, c, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, true);
        return;
    }
    f->next = NULL;
    f->len = len;
    memcpy(f->buf + LWS_PRE, text, len);
    if (c->tail)
        c->tail->next = f;
    else
        c->head = f;
    c->tail = f;
    c->queued += len;
    lws_callback_on_writable(c->wsi);
}

static void op_close(void *wire, fig_conn_t *conn)
{
    conn_close(wire, conn, LWS_CLOSE_STATUS_NORMAL, false);
}

/* The service's descriptors and deadlines are the loop's (wire_loop.c). */
static void op_watch(void *wire, int fd)
{
    fig_wire_loop_watch(((fig_wire_t *)wire)->lp, fd);
}

static void op_unwatch(void *wire, int fd)
{
    fig_wire_loop_unwatch(((fig_wire_t *)wire)->lp, fd);
}

static void reschedule(fig_wire_t *w)
{
    fig_wire_loop_reschedule(w->lp);
}

static int service_answer(struct lws *wsi, struct fig_conn *c, fig_http_answer_t *a);

/* The service's answer to a request it left for later: sent when the
 * connection is writable (on_http_writeable), from its own callback. */
static void op_answer(void *wire, fig_conn_t *conn, fig_http_answer_t *a)
{
    (void)wire;
    conn->later = false;
    conn->ready = true;
    conn->answer = *a;
    lws_callback_on_writable(conn->wsi);
}

/* ---- HTTP */

/* The headers of every HTTP answer: the vhost's, which lws writes after
 * every status line, its own refusals included (a request line it will not
 * take: a target that is not a path, a method it does not know). The files
 * are sent without validators, so "no-store" costs them nothing. */
static const struct lws_protocol_vhost_options hdr_cache = {
    NULL, NULL, "cache-control:", "no-store"
};
static const struct lws_protocol_vhost_options hdr_frame = {
    &hdr_cache, NULL, "x-frame-options:", "DENY"
};
static const struct lws_protocol_vhost_options hdr_referrer = {
    &hdr_frame, NULL, "referrer-policy:", "no-referrer"
};
static const struct lws_protocol_vhost_options hdr_nosniff = {
    &hdr_referrer, NULL, "x-content-type-options:", "nosniff"
};
static const struct lws_protocol_vhost_options hdr_csp = {
    &hdr_nosniff, NULL, "content-security-policy:",
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; worker-src 'self'; "
    "manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
};

/* Writes the status line and headers of `a` (the vhost's with them) and
 * starts its body; the callback's return value. Takes a->body. A web file's
 * answer (how; NULL for the others) may be its gzip copy, and may depend
 * on Accept-Encoding. */
static int http_answer(struct lws *wsi, struct fig_conn *c, fig_http_answer_t *a,
                       const fig_webfile_coding_t *how)
{
    unsigned char buf[LWS_PRE + 2048], *start = buf + LWS_PRE, *p = start,
                  *end = buf + sizeof buf - 1;
    char retry[16];
    int nr = snprintf(retry, sizeof retry, "%d", a->retry_after);
    c->body = a->body;
    c->body_len = a->len;
    c->body_sent = 0;
    if (lws_add_http_common_headers(wsi, (unsigned)a->status, a->type, a->len, &p, end) ||
        (a->disposition[0] &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                     (const unsigned char *)a->disposition,
                                     (int)strlen(a->disposition), &p, end)) ||
        (a->retry_after > 0 && lws_add_http_header_by_name(wsi, (const unsigned char *)
                                   "retry-after:", (unsigned char *)retry, nr, &p, end)) ||
        (how && how->gzip &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)"content-encoding:",
                                     (const unsigned char *)"gzip", 4, &p, end)) ||
        (how && how->vary &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)"vary:",
                                     (const unsigned char *)"Accept-Encoding", 15, &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    if (c->body_len == 0) {
        free(c->body);
        c->body = NULL;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    lws_callback_on_writable(wsi);
    return 0;
}

/* Whether the request takes a gzip body (an Accept-Encoding too long to
 * copy: no, the file as it is is always right). */
static bool takes_gzip(struct lws *wsi)
{
    char ae[256];
    return lws_hdr_copy(wsi, ae, sizeof ae, WSI_TOKEN_HTTP_ACCEPT_ENCODING) > 0 &&
           fig_webfiles_accepts_gzip(ae);
}

static int http_text(struct lws *wsi, struct fig_conn *c, int status, const char *text)
{
    fig_http_answer_t a = { status, "text/plain; charset=utf-8", strdup(text), strlen(text),
                            "", 0 };
    return a.body ? http_answer(wsi, c, &a, NULL) : -1;
}

/* The service's answer `a` with the defaults it may leave out. */
static int service_answer(struct lws *wsi, struct fig_conn *c, fig_http_answer_t *a)
{
    if (!a->body && a->len == 0)
        a->body = strdup("");
    if (!a->body)
        return -1;
    if (!a->type)
        a->type = "text/plain; charset=utf-8";
    return http_answer(wsi, c, a, NULL);
}

/* Appends to path the queries the service reads (http_path.h): "lang=xx",
 * "download=1" (a person's page as a file). lws copies an argument whole. */
static void add_query(struct lws *wsi, char *path, size_t cap)
{
    char arg[32];
    const char *v = lws_get_urlarg_by_name(wsi, "lang=", arg, sizeof arg);
    size_t n = strlen(path);
    if (v && v[0] && strlen(v) <= 5 && strspn(v, "abcdefghijklmnopqrstuvwxyz_") == strlen(v))
        n += (size_t)snprintf(path + n, cap - n, "?lang=%s", v);
    if ((v = lws_get_urlarg_by_name(wsi, "download=", arg, sizeof arg)) && !strcmp(v, "1"))
        snprintf(path + n, cap - n, "%sdownload=1", strchr(path, '?') ? "&" : "?");
}

static void post_forget(struct fig_conn *c)
{
    free(c->post);
    c->post = NULL;
    c->post_len = c->post_want = 0;
    c->post_path[0] = '\0';
}

/* The client's address a trusted proxy reports (hosts.h); addr is left alone
 * when there is none: the proxy's own address counts. */
static void forwarded_for(struct lws *wsi, char *addr, size_t cap)
{
    char xff[512];
    if (lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) > 0)
        fig_hosts_forwarded(xff, addr, cap);
}

/* The client's address: the peer's, or the one a trusted proxy names. */
static void client_addr(const fig_wire_t *w, struct lws *wsi, char *peer, size_t cap)
{
    peer[0] = '\0';
    lws_get_peer_simple(wsi, peer, cap);
    /* An IPv4 peer of a dual-stack socket reads "::ffff:127.0.0.1". */
    const char *v4 = strncmp(peer, "::ffff:", 7) == 0 && strchr(peer + 7, '.') ? peer + 7 : peer;
    if (w->proxy[0] && (strcmp(peer, w->proxy) == 0 || strcmp(v4, w->proxy) == 0))
        forwarded_for(wsi, peer, cap);
}

/* POST /replay: checks the length it announces, then lets lws read the body
 * (on_http_body); anything else is refused. An answer sent before the body
 * is read makes lws discard the body, then end the transaction. */
static int on_post(fig_wire_t *w, struct lws *wsi, struct fig_conn *c, const char *path)
{
    if (strcmp(path, "/replay") != 0)
        return http_text(wsi, c, 405, "only GET is served here (and POST /replay)\n");
    if (!w->svc)
        return http_text(wsi, c, 503, "starting\n");
    char cl[24];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH);
    if (n <= 0 || n >= (int)sizeof cl ||
        lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0 ||
        strspn(cl, "0123456789") != strlen(cl))
        return http_text(wsi, c, 411, "a record is sent with its Content-Length\n");
    if (strlen(cl) > 9 || atol(cl) > FIG_NET_RECORD_MAX) {
        char text[80];
        snprintf(text, sizeof text, "a record is at most %d bytes\n", FIG_NET_RECORD_MAX);
        return http_text(wsi, c, 413, text);
    }
    post_forget(c);
    c->post_want = (size_t)atol(cl);
    if (!(c->post = malloc(c->post_want + 1)))
        return -1;
    memcpy(c->post_path, "/replay", sizeof "/replay");   /* the one path (above) */
    add_query(wsi, c->post_path, sizeof c->post_path);
    client_addr(w, wsi, c->addr, sizeof c->addr);
    return 0;   /* for an empty body, lws calls HTTP_BODY_COMPLETION at once */
}

static int on_http_body(struct fig_conn *c, const char *in, size_t len)
{
    if (!c->post || len == 0)
        return 0;   /* a body nobody asked for: dropped; lws's empty call for an empty one */
    if (len > c->post_want - c->post_len)
        return -1;  /* more than it announced */
    memcpy(c->post + c->post_len, in, len);
    c->post_len += len;
    return 0;
}

static int on_http_body_done(fig_wire_t *w, struct lws *wsi, struct fig_conn *c)
{
    if (!c->post)
        return 0;
    if (!w->svc) {
        post_forget(c);
        return http_text(wsi, c, 503, "starting\n");
    }
    fig_http_answer_t a = { 0, NULL, NULL, 0, "", 0 };
    c->post[c->post_len] = '\0';
    fig_service_http_post(w->svc, c->addr, c->post_path, c->post, c->post_len, &a);
    post_forget(c);
    return service_answer(wsi, c, &a);
}

/* Whether the request's Host is one we answer (hosts.h). */
static bool host_ok(const fig_wire_t *w, struct lws *wsi)
{
    char host[FIG_HOST_LEN];
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HOST);
    bool has = n > 0 && n < (int)sizeof host &&
               lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0;
    return fig_hosts_allow(&w->hosts, has ? host : NULL);
}

static int on_http(fig_wire_t *w, struct lws *wsi, struct fig_conn *c, const char *in,
                   size_t len)
{
    free(c->body);
    c->body = NULL;
    if (!host_ok(w, wsi)) {
        char peer[64] = "?";
        lws_get_peer_simple(wsi, peer, sizeof peer);
        fig_logf(w->log, w->log_ctx, "",
                 "http: refused a request from %s: its Host is not this server's "
                 "(--allowed-hosts)", peer);
        return http_text(wsi, c, 403, "this server does not answer to that host name\n");
    }
    bool post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    if (!post && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
        return http_text(wsi, c, 405, "only GET is served here (and POST /replay)\n");
    if (!in || memchr(in, '\0', len) || strlen(in) != len)
        return http_text(wsi, c, 400, "bad path\n");
    char path[PATH_MAX_URL + 24];
    if (len > PATH_MAX_URL)
        return http_text(wsi, c, 414, "the path is too long\n");
    memcpy(path, in, len);
    path[len] = '\0';
    if (post)
        return on_post(w, wsi, c, path);
    fig_http_answer_t a = { 0, NULL, NULL, 0, "", 0 };
    if (strcmp(path, "/healthz") == 0 || strcmp(path, "/metrics") == 0 ||
        strncmp(path, "/tables/", 8) == 0 || strncmp(path, "/api/", 5) == 0) {
        if (!w->svc)
            return http_text(wsi, c, 503, "starting\n");
        add_query(wsi, path, sizeof path);
        c->wsi = wsi;
        client_addr(w, wsi, c->addr, sizeof c->addr);
        fig_service_http(w->svc, c, c->addr, path, &a);
        if (a.status == 0) {
            c->later = true;
            return 0;
        }
        return service_answer(wsi, c, &a);
    }
    char rel[600];
    fig_webfile_coding_t how;
    int st = fig_wire_web_path(path, rel, sizeof rel);
    if (st == 0)
        st = fig_webfiles_read(w->web_root, rel, takes_gzip(wsi), &a, &how);
    if (st == 200)
        return http_answer(wsi, c, &a, &how);
    if (st == 400)
        fig_logf(w->log, w->log_ctx, "", "http: refused path %s", path);
    return http_text(wsi, c, st, st == 400 ? "bad path\n"
                                 : st == 503 ? "out of memory\n" : "not found\n");
}

static int on_http_writeable(struct lws *wsi, struct fig_conn *c)
{
    if (c->ready) {
        c->ready = false;
        return service_answer(wsi, c, &c->answer);
    }
    if (!c->body)
        return 0;
    unsigned char buf[LWS_PRE + HTTP_CHUNK];
    size_t n = c->body_len - c->body_sent;
    if (n > HTTP_CHUNK)
        n = HTTP_CHUNK;
    memcpy(buf + LWS_PRE, c->body + c->body_sent, n);
    bool final = c->body_sent + n == c->body_len;
    if (lws_write(wsi, buf + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) !=
        (int)n)
        return -1;
    c->body_sent += n;
    if (!final) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    free(c->body);
    c->body = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ---- WebSocket */

/* True when a browser's Origin names the host the request was sent to (or
 * when there is no Origin: not a browser). */
static bool origin_ok(struct lws *wsi)
{
    char origin[256], host[256];
    int ol = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    return ol <= 0 ||
           (ol < (int)sizeof origin &&
            lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) >= 0 &&
            lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0 &&
            fig_hosts_same_origin(origin, host));
}

static int ws_filter(fig_wire_t *w, struct lws *wsi)
{
    char uri[64], peer[64] = "?";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws") != 0) {
        fig_logf(w->log, w->log_ctx, "",
                 "ws: refused an upgrade from %s on another path than /ws", peer);
        return 1;
    }
    if (!host_ok(w, wsi)) {
        fig_logf(w->log, w->log_ctx, "",
                 "ws: refused a connection from %s: its Host is not this server's "
                 "(--allowed-hosts)", peer);
        return 1;
    }
    if (!origin_ok(wsi)) {
        fig_logf(w->log, w->log_ctx, "",
                 "ws: refused a connection from %s: its Origin is not this server", peer);
        return 1;
    }
    return 0;
}

static int ws_established(fig_wire_t *w, struct lws *wsi, struct fig_conn *c)
{
    free(c->body);
    memset(c, 0, sizeof *c);
    c->wsi = wsi;
    char peer[64];
    client_addr(w, wsi, peer, sizeof peer);
    c->cs = w->svc ? fig_service_open(w->svc, c, peer) : NULL;
    if (!c->cs) {
        static const char why[] = "refused";
        fig_logf(w->log, w->log_ctx, "", "ws: refused a connection from %s", peer);
        lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)why,
                         sizeof why - 1);
        return -1;
    }
    reschedule(w);
    return 0;
}

/* From a writeable callback: sends the close frame (status, "bye") and
 * hangs up (-1), as lws 4.1 on its poll loop did for lws_close_reason and
 * -1. Written here because on libuv, Debian's lws (a _DEBUG build) closes
 * such a connection a second time at once ("uv repeat test"), before the
 * close frame it prepared is sent. */
static int ws_bye(struct lws *wsi, int status)
{
    static const char why[] = "bye";
    unsigned char buf[LWS_PRE + 2 + sizeof why];
    unsigned char *p = buf + LWS_PRE;
    p[0] = (unsigned char)(status >> 8);
    p[1] = (unsigned char)status;
    memcpy(p + 2, why, sizeof why - 1);
    lws_write(wsi, p, 2 + sizeof why - 1, (enum lws_write_protocol)WS_WRITE_CLOSE);
    return -1;
}

static int ws_receive(fig_wire_t *w, struct lws *wsi, struct fig_conn *c, const char *in,
                      size_t len)
{
    if (c->closing || !c->cs)
        return 0;
    bool last = lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0;
    if (lws_frame_is_binary(wsi)) {   /* refused; the close frame when writeable */
        conn_close(w, c, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, true);
        return 0;
    }
    if (!c->rx && !(c->rx = malloc(FIG_NET_FRAME_MAX + 1)))
        return -1;
    if (c->rxlen + len > FIG_NET_FRAME_MAX) {
        /* The service sees one byte too many and answers too_big; then the
         * connection closes, the rest of the message unread. */
        size_t take = FIG_NET_FRAME_MAX + 1 - c->rxlen;
        memcpy(c->rx + c->rxlen, in, take);
        fig_service_message(w->svc, c->cs, c->rx, FIG_NET_FRAME_MAX + 1);
        c->rxlen = 0;
        fig_logf(w->log, w->log_ctx, "",
                 "ws: a message over %d bytes: connection closed", FIG_NET_FRAME_MAX);
        conn_close(w, c, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, false);
        reschedule(w);
        return 0;
    }
    memcpy(c->rx + c->rxlen, in, len);
    c->rxlen += len;
    if (!last)
        return 0;
    size_t n = c->rxlen;
    c->rxlen = 0;
    fig_service_message(w->svc, c->cs, c->rx, n);
    free(c->rx);    /* most connections are quiet: no buffer while idle */
    c->rx = NULL;
    reschedule(w);
    return 0;
}

static int ws_writeable(struct lws *wsi, struct fig_conn *c)
{
    frame_t *f = c->head;
    if (!f)
        return c->closing ? ws_bye(wsi, c->close_status) : 0;
    if (lws_write(wsi, f->buf + LWS_PRE, f->len, LWS_WRITE_TEXT) < (int)f->len)
        return -1;
    c->head = f->next;
    if (!c->head)
        c->tail = NULL;
    c->queued -= f->len;
    free(f);
    if (c->head || c->closing)
        lws_callback_on_writable(wsi);
    return 0;
}

static void ws_closed(fig_wire_t *w, struct fig_conn *c)
{
    void *cs = c->cs;
    c->cs = NULL;
    conn_drop_queue(c);
    free(c->rx);
    c->rx = NULL;
    if (cs && w->svc) {
        fig_service_closed(w->svc, cs);
        reschedule(w);
    }
}

static int cb_main(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                   size_t len)
{
    fig_wire_t *w = wire_of(wsi);
    struct fig_conn *c = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        return on_http(w, wsi, c, in, len);
    case LWS_CALLBACK_HTTP_BODY:
        return on_http_body(c, in, len);
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return on_http_body_done(w, wsi, c);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return on_http_writeable(wsi, c);
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        if (c) {
            free(c->body);
            c->body = NULL;
            post_forget(c);
            if (c->later && w->svc)
                fig_service_http_gone(w->svc, c);
            c->later = false;
            if (c->ready)
                free(c->answer.body);
            c->ready = false;
        }
        break;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return ws_filter(w, wsi);
    case LWS_CALLBACK_ESTABLISHED:
        return ws_established(w, wsi, c);
    case LWS_CALLBACK_RECEIVE:
        return ws_receive(w, wsi, c, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return ws_writeable(wsi, c);
    case LWS_CALLBACK_CLOSED:
        ws_closed(w, c);
        break;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    { "figaro.v1", cb_main, sizeof(struct fig_conn), FIG_NET_FRAME_MAX, 0, NULL, 0 },
    { NULL, NULL, 0, 0, 0, NULL, 0 },
};

/* ---- the wire */

/* Closes whatever was made of w and frees it. lws first: it lets go of its
 * handles in our loop, which then runs until every handle is closed. */
static void wire_destroy(fig_wire_t *w)
{
    /* On a foreign loop, lws 4.1 ends in two calls: the first closes its
     * handles, which the loop then runs to their end; the second frees the
     * context and unloads the event library plugin, which no close callback
     * may follow. pcontext sets w->ctx to NULL once it is gone. */
    if (w->ctx)
        lws_context_destroy(w->ctx);
    fig_wire_loop_close(w->lp);
    if (w->ctx)
        lws_context_destroy(w->ctx);
    fig_wire_loop_free(w->lp);
    free(w);
}

/* The context on our loop, and its one vhost listening. */
static fig_err_t lws_init(fig_wire_t *w, const fig_wire_opts_t *o, fig_msg_t *msg)
{
    struct lws_context_creation_info ci;
    memset(&ci, 0, sizeof ci);
    ci.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_VALIDATE_UTF8 |
                 LWS_SERVER_OPTION_LIBUV |
                 (o->tls_cert ? LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT : 0);
    w->loops[0] = fig_wire_loop_uv(w->lp);
    ci.foreign_loops = w->loops;
    ci.pcontext = &w->ctx;   /* NULL once lws is wholly gone */
    ci.user = w;
    ci.port = CONTEXT_PORT_NO_LISTEN;
    ci.max_http_header_data = HEADERS_MAX;   /* the parser's limit is the context's */
    w->ctx = lws_create_context(&ci);
    if (!w->ctx)
        return fig_fail(msg, FIG_ERR_SPACE, "cannot start libwebsockets on libuv (its event "
                        "library, libwebsockets-evlib_uv.so, is in the package "
                        "libwebsockets-evlib-uv)");
    struct lws_context_creation_info vi;
    memset(&vi, 0, sizeof vi);
    vi.vhost_name = "figaro";
    vi.port = o->port;
    vi.iface = o->addr;
    vi.protocols = protocols;
    /* An IPv4 address on an IPv4 socket: libwebsockets 4.1.6 reads it into
     * an IPv6 socket's address at sin_addr's offset (sin6_flowinfo) and
     * listens on "::", every interface, whatever --listen said. */
    vi.options = ci.options | (strchr(o->addr, ':') ? 0 : LWS_SERVER_OPTION_DISABLE_IPV6);
    vi.ssl_cert_filepath = o->tls_cert;
    vi.ssl_private_key_filepath = o->tls_key;
    vi.retry_and_idle_policy = &w->retry;
    vi.timeout_secs = 10;
    vi.max_http_header_data = HEADERS_MAX;
    vi.headers = &hdr_csp;
    vi.user = w;
    w->vh = lws_create_vhost(w->ctx, &vi);
    if (!w->vh)
        return fig_fail(msg, FIG_ERR_INPUT, "cannot listen on %s port %d%s", o->addr, o->port,
                        o->tls_cert ? " (or read the certificate and key)" : "");
    w->port = lws_get_vhost_listen_port(w->vh);
    return FIG_OK;
}

fig_err_t fig_wire_new(fig_wire_t **out, const fig_wire_opts_t *o, fig_msg_t *msg)
{
    *out = NULL;
    if (!!o->tls_cert != !!o->tls_key)
        return fig_fail(msg, FIG_ERR_INPUT, "TLS needs both a certificate and a key");
    fig_wire_t *w = calloc(1, sizeof *w);
    if (!w)
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    /* The library's own log (process-wide, stderr): its errors and warnings
     * only. Here, so that no file but this one calls libwebsockets. */
    lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
    w->log = o->log;
    w->log_ctx = o->log_ctx;
    w->queue_max = o->queue_max ? o->queue_max : (size_t)1 << 20;
    if (o->trust_proxy)
        snprintf(w->proxy, sizeof w->proxy, "%s", o->trust_proxy);
    w->ops = (fig_wire_ops_t){ op_send, op_close, op_watch, op_unwatch, op_answer, w };
    int ping = o->ping_s > 0 ? o->ping_s : 30;
    w->retry.secs_since_valid_ping = (uint16_t)ping;
    w->retry.secs_since_valid_hangup = (uint16_t)(2 * ping);
    fig_err_t rc = fig_hosts_init(&w->hosts, o->allowed_hosts, o->addr, msg);
    if (!rc && o->web_dir && !realpath(o->web_dir, w->web_root))
        rc = fig_fail(msg, FIG_ERR_INPUT, "web folder %s: %s", o->web_dir, strerror(errno));
    if (!rc)
        rc = fig_wire_loop_new(&w->lp, o->log, o->log_ctx, msg);
    if (!rc)
        rc = lws_init(w, o, msg);
    if (rc) {
        wire_destroy(w);
        return rc;
    }
    *out = w;
    return FIG_OK;
}

const fig_wire_ops_t *fig_wire_ops(fig_wire_t *w)
{
    return &w->ops;
}

void fig_wire_attach(fig_wire_t *w, fig_service_t *svc)
{
    w->svc = svc;
    fig_wire_loop_attach(w->lp, svc);
}

int fig_wire_port(const fig_wire_t *w)
{
    return w->port;
}

int fig_wire_wake_fd(const fig_wire_t *w)
{
    return fig_wire_loop_wake_fd(w->lp);
}

int fig_wire_run(fig_wire_t *w)
{
    return fig_wire_loop_run(w->lp);
}

void fig_wire_free(fig_wire_t *w)
{
    if (!w)
        return;
    w->svc = NULL;
    wire_destroy(w);   /* closes every connection */
}
