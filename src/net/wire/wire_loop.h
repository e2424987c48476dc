/* SPDX-License-Identifier: MIT */
/* wire_loop.h - the wire's event loop (libuv, epoll) and what of it is the
 * service's: its next deadline (one timer), the descriptors it watches (a
 * poll each, whose readability calls fig_service_fd_ready) and the wake
 * pipe a signal handler writes to. The wire (wire.c) lends the loop to
 * libwebsockets as a foreign loop and calls fig_wire_loop_reschedule after
 * every call into the service; this file is the one that calls libuv, the
 * wire the one that calls libwebsockets.
 *
 * Everything runs on the loop's thread, but the wake pipe's write end. */
#ifndef FIGARO_NET_WIRE_LOOP_H
#define FIGARO_NET_WIRE_LOOP_H

#include "figaro/error.h"
#include "net/service/service.h"

typedef struct fig_wire_loop fig_wire_loop_t;

/* A loop with its timer and the wake pipe watched; log lines (a descriptor
 * that fails, one that cannot be watched) go to log(log_ctx, line). */
fig_err_t fig_wire_loop_new(fig_wire_loop_t **out, void (*log)(void *ctx, const char *line),
                            void *log_ctx, fig_msg_t *msg);

/* libuv's loop itself (a uv_loop_t *), for lws's foreign_loops. */
void *fig_wire_loop_uv(fig_wire_loop_t *l);

/* The service whose deadlines and descriptors the loop serves; NULL: none
 * (the timer stops). */
void fig_wire_loop_attach(fig_wire_loop_t *l, fig_service_t *svc);

/* Sets the timer to the service's next deadline (after any call into it). */
void fig_wire_loop_reschedule(fig_wire_loop_t *l);

/* Watches fd for readability (fig_service_fd_ready), or stops: libuv lets
 * go of fd at once, so that the service may close it next. */
void fig_wire_loop_watch(fig_wire_loop_t *l, int fd);
void fig_wire_loop_unwatch(fig_wire_loop_t *l, int fd);

/* The wake pipe's write end: a byte written there stops fig_wire_loop_run. */
int fig_wire_loop_wake_fd(const fig_wire_loop_t *l);

/* Runs the loop until woken (0), or until nothing is left to wait for (-1). */
int fig_wire_loop_run(fig_wire_loop_t *l);

/* Closes the loop's own handles (timer, wake pipe, watches) and runs the
 * loop until every handle in it, lws's included, is closed. */
void fig_wire_loop_close(fig_wire_loop_t *l);

/* Frees a loop (closed first, by fig_wire_loop_close); NULL is fine. */
void fig_wire_loop_free(fig_wire_loop_t *l);

#endif
