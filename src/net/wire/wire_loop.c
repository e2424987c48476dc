/* SPDX-License-Identifier: MIT */
/* wire_loop.c - the wire's libuv loop: the service's deadlines as one timer,
 * its descriptors as uv_polls indexed by descriptor, the wake pipe (see
 * wire_loop.h). The service keeps its deadlines in a heap, so reading the
 * next one after every call costs nothing. */
#include "net/wire/wire_loop.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "host/util.h"

/* A descriptor the service watches: a poll on it in the loop. */
typedef struct watch {
    uv_poll_t poll;       /* first: the handle's address is the watch's */
    fig_wire_loop_t *l;
    int fd;               /* the service's descriptor */
} watch_t;

struct fig_wire_loop {
    uv_loop_t loop;
    uv_timer_t timer;           /* the service's next deadline */
    uv_prepare_t turn;          /* the end of each turn, before the loop waits */
    uv_poll_t wake_poll;        /* the wake pipe */
    bool loop_ok, timer_ok, turn_ok, wake_ok;   /* initialised: to close */
    bool closed;                /* fig_wire_loop_close has run */
    fig_service_t *svc;
    watch_t **watches;          /* by the service's descriptor */
    int nwatches;
    int wake[2];
    volatile int stop;
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
};

/* ---- the service's deadlines: one timer */

static void on_timer(uv_timer_t *t)
{
    fig_wire_loop_t *l = t->data;
    if (l->svc)
        fig_service_tick(l->svc, fig_clock_ms());
    fig_wire_loop_reschedule(l);
}

void fig_wire_loop_reschedule(fig_wire_loop_t *l)
{
    long long d = l->svc ? fig_service_next_deadline(l->svc) : -1;
    if (d < 0) {
        uv_timer_stop(&l->timer);
        return;
    }
    long long now = fig_clock_ms();
    uv_update_time(&l->loop);   /* the loop's clock, not the turn's start */
    uv_timer_start(&l->timer, on_timer, d > now ? (uint64_t)(d - now) : 0, 0);
}

void fig_wire_loop_attach(fig_wire_loop_t *l, fig_service_t *svc)
{
    l->svc = svc;
    if (svc)
        fig_wire_loop_reschedule(l);
    else
        uv_timer_stop(&l->timer);
}

/* ---- the end of a turn: libuv's prepare phase, after the timers and the
 * turn's events, right before it waits for the next ones */

static void on_turn(uv_prepare_t *p)
{
    fig_wire_loop_t *l = p->data;
    if (l->svc) {
        fig_service_turn(l->svc);
        fig_wire_loop_reschedule(l);
    }
}

/* ---- the service's descriptors: a poll each */

static void on_watch(uv_poll_t *p, int status, int events)
{
    (void)events;
    watch_t *e = (watch_t *)p;
    fig_wire_loop_t *l = e->l;
    if (status < 0)
        fig_logf(l->log, l->log_ctx, "", "wire: descriptor %d: %s", e->fd, uv_strerror(status));
    if (l->svc) {
        fig_service_fd_ready(l->svc, e->fd);
        fig_wire_loop_reschedule(l);
    }
}

static void watch_closed(uv_handle_t *h)
{
    free(h);
}

/* Room in the index for descriptor fd. */
static bool watch_room(fig_wire_loop_t *l, int fd)
{
    if (fd < l->nwatches)
        return true;
    int n = l->nwatches ? l->nwatches : 64;
    while (n <= fd)
        n *= 2;
    watch_t **nv = realloc(l->watches, (size_t)n * sizeof *nv);
    if (!nv)
        return false;
    memset(nv + l->nwatches, 0, (size_t)(n - l->nwatches) * sizeof *nv);
    l->watches = nv;
    l->nwatches = n;
    return true;
}

void fig_wire_loop_watch(fig_wire_loop_t *l, int fd)
{
    bool twice = fd >= 0 && fd < l->nwatches && l->watches[fd];
    watch_t *e = fd >= 0 && !twice && watch_room(l, fd) ? calloc(1, sizeof *e) : NULL;
    if (!e) {
        fig_logf(l->log, l->log_ctx, "", "wire: cannot watch descriptor %d: %s", fd,
                 twice ? "watched already" : "out of memory");
        return;
    }
    e->l = l;
    e->fd = fd;
    int rc = uv_poll_init(&l->loop, &e->poll, fd);
    if (rc) {
        watch_closed((uv_handle_t *)&e->poll);   /* no handle yet: nothing for libuv to close */
    } else if ((rc = uv_poll_start(&e->poll, UV_READABLE, on_watch))) {
        uv_close((uv_handle_t *)&e->poll, watch_closed);
    }
    if (rc) {
        fig_logf(l->log, l->log_ctx, "", "wire: cannot watch descriptor %d: %s", fd,
                 uv_strerror(rc));
        return;
    }
    l->watches[fd] = e;
}

void fig_wire_loop_unwatch(fig_wire_loop_t *l, int fd)
{
    if (fd < 0 || fd >= l->nwatches || !l->watches[fd])
        return;
    watch_t *e = l->watches[fd];
    l->watches[fd] = NULL;
    /* libuv lets go of fd here, at once (epoll included): the service may
     * close it next, and a new descriptor of that number be watched; only
     * the memory waits for the close callback. */
    uv_poll_stop(&e->poll);
    uv_close((uv_handle_t *)&e->poll, watch_closed);
}

/* ---- the wake pipe */

static void on_wake(uv_poll_t *p, int status, int events)
{
    (void)status;
    (void)events;
    fig_wire_loop_t *l = p->data;
    char b[64];
    while (read(l->wake[0], b, sizeof b) > 0) {
    }
    l->stop = 1;
    uv_stop(&l->loop);
}

int fig_wire_loop_wake_fd(const fig_wire_loop_t *l)
{
    return l->wake[1];
}

/* ---- the loop */

/* The loop, its timer and the wake pipe's poll. */
static fig_err_t loop_init(fig_wire_loop_t *l, fig_msg_t *msg)
{
    int rc = uv_loop_init(&l->loop);
    if (rc)
        return fig_fail(msg, FIG_ERR_SPACE, "cannot start the event loop: %s", uv_strerror(rc));
    l->loop_ok = true;
    uv_timer_init(&l->loop, &l->timer);   /* cannot fail */
    l->timer.data = l;
    l->timer_ok = true;
    uv_prepare_init(&l->loop, &l->turn);   /* cannot fail */
    l->turn.data = l;
    l->turn_ok = true;
    uv_prepare_start(&l->turn, on_turn);
    uv_unref((uv_handle_t *)&l->turn);   /* it runs every turn, but is no reason to go on */
    int err = fig_wake_pipe(l->wake);
    if (err)
        return fig_fail(msg, FIG_ERR_SPACE, "pipe: %s", strerror(err));
    if ((rc = uv_poll_init(&l->loop, &l->wake_poll, l->wake[0])))
        return fig_fail(msg, FIG_ERR_SPACE, "cannot watch the wake pipe: %s", uv_strerror(rc));
    l->wake_poll.data = l;
    l->wake_ok = true;
    if ((rc = uv_poll_start(&l->wake_poll, UV_READABLE, on_wake)))
        return fig_fail(msg, FIG_ERR_SPACE, "cannot watch the wake pipe: %s", uv_strerror(rc));
    return FIG_OK;
}

fig_err_t fig_wire_loop_new(fig_wire_loop_t **out, void (*log)(void *ctx, const char *line),
                            void *log_ctx, fig_msg_t *msg)
{
    *out = NULL;
    fig_wire_loop_t *l = calloc(1, sizeof *l);
    if (!l)
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    l->wake[0] = l->wake[1] = -1;
    l->log = log;
    l->log_ctx = log_ctx;
    fig_err_t rc = loop_init(l, msg);
    if (rc) {
        fig_wire_loop_close(l);
        fig_wire_loop_free(l);
        return rc;
    }
    *out = l;
    return FIG_OK;
}

void *fig_wire_loop_uv(fig_wire_loop_t *l)
{
    return &l->loop;
}

int fig_wire_loop_run(fig_wire_loop_t *l)
{
    while (!l->stop)
        if (uv_run(&l->loop, UV_RUN_DEFAULT) == 0 && !l->stop)
            return -1;   /* nothing left to wait for: the listening socket is gone */
    return 0;
}

void fig_wire_loop_close(fig_wire_loop_t *l)
{
    if (!l || l->closed)
        return;
    l->closed = true;
    for (int fd = 0; fd < l->nwatches; fd++)
        if (l->watches[fd])
            fig_wire_loop_unwatch(l, fd);
    if (l->timer_ok)
        uv_close((uv_handle_t *)&l->timer, NULL);
    if (l->turn_ok)
        uv_close((uv_handle_t *)&l->turn, NULL);
    if (l->wake_ok)
        uv_close((uv_handle_t *)&l->wake_poll, NULL);
    if (l->loop_ok)
        uv_run(&l->loop, UV_RUN_DEFAULT);
}

void fig_wire_loop_free(fig_wire_loop_t *l)
{
    if (!l)
        return;
    fig_wire_loop_close(l);
    if (l->loop_ok)
        uv_loop_close(&l->loop);
    free(l->watches);
    for (int i = 0; i < 2; i++)
        if (l->wake[i] >= 0)
            close(l->wake[i]);
    free(l);
}
