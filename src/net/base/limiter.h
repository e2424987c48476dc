/* SPDX-License-Identifier: MIT */
/* limiter.h - "at most N in a window" per key (a client's address, a
 * person's id): the limits on what creates a person, makes a device code or
 * tries one (docs/server.md, "People and ratings"). A sliding window, exact:
 * the times of the last N uses are kept per key, and a use is allowed when
 * fewer than N fall in the window. A fixed number of keys: a new key takes
 * the slot of the key unused longest (an attacker who cycles through more
 * addresses than that pays with the slots, never with the server's memory).
 * No clock of its own: the caller passes the time. */
#ifndef FIGARO_NET_LIMITER_H
#define FIGARO_NET_LIMITER_H

#include <stdbool.h>

enum {
    FIG_LIMIT_KEYS = 128,      /* keys remembered */
    FIG_LIMIT_MAX = 20,        /* N at most */
    FIG_LIMIT_KEY_MAX = 63     /* bytes of a key */
};

typedef struct {
    int most;                  /* N: uses in a window */
    long long window_ms;
    struct {
        char key[FIG_LIMIT_KEY_MAX + 1];
        long long last;        /* the latest use (for the slot's reuse) */
        int n;                 /* uses kept in `at`, a ring from `head` */
        int head;
        long long at[FIG_LIMIT_MAX];
    } slot[FIG_LIMIT_KEYS];
} fig_limiter_t;

/* A limiter of `most` uses (1 to FIG_LIMIT_MAX) per window_ms per key. */
void fig_limiter_init(fig_limiter_t *l, int most, long long window_ms);

/* Whether key may use it at `now` (ms); if so, the use is counted. */
bool fig_limiter_take(fig_limiter_t *l, const char *key, long long now);

/* Whether key may use it at `now`, counting nothing. */
bool fig_limiter_may(const fig_limiter_t *l, const char *key, long long now);

#endif
