/* SPDX-License-Identifier: MIT */
/* service_types.h - the types the table service and its wire share
 * (service.h, wire.h): the wire's connection, an HTTP answer, the
 * callbacks through which the service talks to the wire. Apart from
 * service.h so that the service's own files (service_state.h) can name
 * them without including the service's public header. */
#ifndef FIGARO_NET_SERVICE_TYPES_H
#define FIGARO_NET_SERVICE_TYPES_H

#include <stddef.h>

/* The wire's connection: opaque to the service, handed back in send/close. */
typedef struct fig_conn fig_conn_t;

/* An HTTP answer: status, content type, body (malloc'ed: the caller frees). */
typedef struct {
    int status;
    const char *type;
    char *body;
    size_t len;
    char disposition[96];   /* Content-Disposition; "": none */
    int retry_after;        /* a 429's Retry-After, seconds; 0: none */
} fig_http_answer_t;

typedef struct {
    /* Queues one text frame for conn (the wire copies text). */
    void (*send)(void *wire, fig_conn_t *conn, const char *text, size_t len);
    /* Closes conn (then the wire calls fig_service_closed). */
    void (*close)(void *wire, fig_conn_t *conn);
    /* Starts and stops watching a descriptor for reading. */
    void (*watch)(void *wire, int fd);
    void (*unwatch)(void *wire, int fd);
    /* The answer to conn's HTTP request, which fig_service_http left for
     * later; the wire takes a->body. */
    void (*answer)(void *wire, fig_conn_t *conn, fig_http_answer_t *a);
    void *wire;
} fig_wire_ops_t;

#endif
