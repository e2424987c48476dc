/* util.c - small shared helpers (util.h): the monotonic clock, secret bits, reading a
 * whole file, errno texts for threads. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "figaro/rng.h"
#include "host/util.h"

long long fig_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

unsigned long long fig_random_u64(void)
{
    uint64_t v = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n;
        do
            n = read(fd, &v, sizeof v);
        while (n < 0 && errno == EINTR);
        close(fd);
        if (n == (ssize_t)sizeof v)
            return v;
    }
    struct timespec ts;   /* no /dev/urandom: the clock and the process, mixed */
    clock_gettime(CLOCK_REALTIME, &ts);
    return fig_seed_derive((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec,
                           (uint64_t)getpid(), v);
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
