/* SPDX-License-Identifier: MIT */
/* util.h - small helpers every host module and front end shares: the one
 * clock for timeouts and pacing, secret random bits, reading a whole file
 * into memory, the one bounded string builder, the one growable text and the
 * one log line. */
#ifndef FIGARO_HOST_UTIL_H
#define FIGARO_HOST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "figaro/error.h"

/* Milliseconds on the monotonic clock (never jumps with the wall clock): for
 * deadlines, timeouts and pacing, never for dates. */
long long fig_clock_ms(void);

/* The same clock in microseconds: for measuring short spans (the server's
 * latency histogram has sub-millisecond buckets). */
long long fig_clock_us(void);

/* A pipe for waking a loop: both ends non-blocking and closed on exec (a
 * forked engine must not hold another's wake-up). Returns 0, or the errno of
 * the failure with nothing left open. */
int fig_wake_pipe(int fds[2]);

/* n unpredictable bytes from the system (getrandom): for what must stay
 * secret (a game's seed nobody chose, the key of sealed saves, a seat's
 * token), never for a game's own randomness, which flows from its seed.
 * FIG_ERR_SPACE with a message if the system has none to give. */
fig_err_t fig_random_bytes(void *buf, size_t n, fig_msg_t *msg);

/* 64 such bits. */
fig_err_t fig_random_u64(uint64_t *out, fig_msg_t *msg);

/* Reads the file at `path` whole, at most `limit` bytes. On success *data is
 * malloc'ed (the caller frees it) and NUL-terminated after its *len bytes (a
 * file may hold NULs of its own). On failure *data is NULL and msg says why,
 * in tr's language (NULL: English), without the path: the caller knows it
 * ("cannot open: No such file or directory"). FIG_ERR_INPUT for a file that
 * cannot be read or is too large, FIG_ERR_SPACE when memory runs out. */
fig_err_t fig_read_file(const char *path, size_t limit, char **data, size_t *len,
                        const fig_tr_t *tr, fig_msg_t *msg);

/* fig_read_file on a stream the caller opened (and closes), e.g. stdin. */
fig_err_t fig_read_stream(FILE *f, size_t limit, char **data, size_t *len, const fig_tr_t *tr,
                          fig_msg_t *msg);

/* The text of an errno value, like strerror() but into the caller's buffer
 * (strerror may share one buffer between threads). Returns buf. */
const char *fig_strerror(int err, char *buf, size_t cap);

/* The one bounded string builder: appends fmt's text to buf (cap bytes) at
 * *len, like snprintf: what fits is written and buf stays NUL-terminated
 * (cap > 0), and *len grows by the whole text, so *len >= cap says it was
 * cut. Once cut, further calls write nothing and keep counting. */
void fig_putf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The one growable text: appended to, then taken whole. A failed allocation
 * marks it failed, once: every later append is skipped, and what was
 * appended before stays readable in data (NUL-terminated) and len, so a
 * caller may go on without the rest (plain mode's log) or give the text up
 * at the end (fig_buf_take returns NULL). Nothing here aborts. A zeroed
 * fig_buf_t is an empty one, as fig_buf_init makes it. */
typedef struct {
    char *data;      /* the text so far, NUL-terminated; NULL while empty */
    size_t len;      /* its bytes, without the NUL */
    size_t cap;      /* the bytes allocated */
    bool failed;     /* an allocation failed: the text stops at what was there */
} fig_buf_t;

void fig_buf_init(fig_buf_t *b);

/* Appends the n bytes at s (which may hold no NUL of its own). */
void fig_buf_append(fig_buf_t *b, const char *s, size_t n);

/* Appends fmt's text, like printf. */
void fig_buf_appendf(fig_buf_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The text, malloc'ed ("" when nothing was appended; the caller frees it),
 * or NULL if an allocation failed (the text is freed then). Either way b is
 * empty again, as after fig_buf_init. */
char *fig_buf_take(fig_buf_t *b);

/* Frees the text; b is empty again. */
void fig_buf_free(fig_buf_t *b);

/* The one log line: `prefix` then fmt's text, cut to FIG_LOG_LINE - 1 bytes,
 * handed to log(ctx, line); nothing when log is NULL (the server's parts:
 * service, tables, wire, log through their owner's callback this way). */
enum { FIG_LOG_LINE = 512 };
typedef void (*fig_log_fn)(void *ctx, const char *line);
void fig_logf(fig_log_fn log, void *ctx, const char *prefix, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
