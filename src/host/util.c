/* SPDX-License-Identifier: MIT */
/* util.c - small shared helpers (util.h): the monotonic clock, secret bits, reading a
 * whole file, errno texts for threads, the string builders, the log line. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <unistd.h>

#include "figaro/rng.h"
#include "host/util.h"

long long fig_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long fig_clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int fig_wake_pipe(int fds[2])
{
    if (pipe(fds) != 0)
        return errno;
    for (int i = 0; i < 2; i++) {
        int fl = fcntl(fds[i], F_GETFL);
        if (fl < 0 || fcntl(fds[i], F_SETFL, fl | O_NONBLOCK) != 0 ||
            fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0) {
            int err = errno;
            close(fds[0]);
            close(fds[1]);
            fds[0] = fds[1] = -1;
            return err;
        }
    }
    return 0;
}

fig_err_t fig_random_bytes(void *buf, size_t n, fig_msg_t *msg)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t k = getrandom(p, n, 0);   /* blocks only until the pool is first seeded */
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return fig_fail(msg, FIG_ERR_SPACE, N_("no random numbers from the system: %s"),
                            strerror(errno));
        }
        p += k;
        n -= (size_t)k;
    }
    return FIG_OK;
}

fig_err_t fig_random_u64(uint64_t *out, fig_msg_t *msg)
{
    return fig_random_bytes(out, sizeof *out, msg);
}

const char *fig_strerror(int err, char *buf, size_t cap)
{
    /* _POSIX_C_SOURCE 200809L gives the XSI strerror_r, which fills buf. */
    if (cap == 0)
        return buf;
    if (strerror_r(err, buf, cap) != 0)
        snprintf(buf, cap, "error %d", err);
    return buf;
}

fig_err_t fig_read_stream(FILE *f, size_t limit, char **data, size_t *len, const fig_tr_t *tr,
                          fig_msg_t *msg)
{
    *data = NULL;
    *len = 0;
    size_t cap = limit < 4096 ? limit : 4096, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
    for (;;) {
        if (n == cap) {
            /* Full: one byte more tells a file of exactly `limit` bytes from
             * a larger one. */
            int c = getc(f);
            if (c == EOF && !ferror(f))
                break;
            if (c != EOF && cap >= limit) {
                free(buf);
                return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                                   N_("larger than %zu bytes: not a game record"), limit);
            }
            if (c == EOF) {
                int e = errno;
                char why[128];
                free(buf);
                return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("cannot read: %s"),
                                   fig_strerror(e, why, sizeof why));
            }
            size_t bigger = cap * 2 > limit ? limit : cap * 2;
            char *grown = realloc(buf, bigger + 1);
            if (!grown) {
                free(buf);
                return fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
            }
            buf = grown;
            cap = bigger;
            buf[n++] = (char)c;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                char why[128];
                free(buf);
                return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("cannot read: %s"),
                                   fig_strerror(e, why, sizeof why));
            }
            break;
        }
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return FIG_OK;
}

fig_err_t fig_read_file(const char *path, size_t limit, char **data, size_t *len,
                        const fig_tr_t *tr, fig_msg_t *msg)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        char why[128];
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("cannot open: %s"),
                           fig_strerror(e, why, sizeof why));
    }
    fig_err_t rc = fig_read_stream(f, limit, data, len, tr, msg);
    fclose(f);
    return rc;
}

void fig_putf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(*len < cap ? buf + *len : NULL, *len < cap ? cap - *len : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        *len += (size_t)k;
}

void fig_buf_init(fig_buf_t *b)
{
    *b = (fig_buf_t){ NULL, 0, 0, false };
}

/* Room for `extra` more bytes and the NUL, doubling (from 256 bytes) so that
 * appending n bytes one at a time costs O(n); false, and b failed, when
 * memory runs out (or the size would not fit a size_t). */
static bool buf_reserve(fig_buf_t *b, size_t extra)
{
    if (b->failed)
        return false;
    if (extra < b->cap - b->len)   /* (cap > len whenever cap > 0) */
        return true;
    if (extra > SIZE_MAX / 2 - b->len - 1) {
        b->failed = true;
        return false;
    }
    size_t need = b->len + extra + 1, cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = true;   /* b->data, untouched, still holds the text so far */
        return false;
    }
    b->data = grown;
    b->cap = cap;
    return true;
}

void fig_buf_append(fig_buf_t *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void fig_buf_appendf(fig_buf_t *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {   /* a format the C library cannot write: the text would lie */
        b->failed = true;
        if (b->data)
            b->data[b->len] = '\0';
        return;
    }
    if (b->data && (size_t)k < b->cap - b->len) {
        b->len += (size_t)k;   /* it fitted */
        return;
    }
    if (b->data)
        b->data[b->len] = '\0';   /* what was cut is written again below */
    if (!buf_reserve(b, (size_t)k))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)k;
}

char *fig_buf_take(fig_buf_t *b)
{
    char *text = b->failed ? NULL : b->data;
    if (b->failed)
        free(b->data);
    else if (!text)
        text = strdup("");
    fig_buf_init(b);
    return text;
}

void fig_buf_free(fig_buf_t *b)
{
    free(b->data);
    fig_buf_init(b);
}

void fig_logf(fig_log_fn log, void *ctx, const char *prefix, const char *fmt, ...)
{
    if (!log)
        return;
    char line[FIG_LOG_LINE];
    size_t len = 0;
    line[0] = '\0';
    fig_putf(line, sizeof line, &len, "%s", prefix);
    if (len < sizeof line) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line + len, sizeof line - len, fmt, ap);
        va_end(ap);
    }
    log(ctx, line);
}
