/* SPDX-License-Identifier: MIT */
/* limiter.c - sliding-window limits per key (limiter.h). */
#include <stdio.h>
#include <string.h>

#include "net/base/limiter.h"

void fig_limiter_init(fig_limiter_t *l, int most, long long window_ms)
{
    memset(l, 0, sizeof *l);
    l->most = most < 1 ? 1 : most > FIG_LIMIT_MAX ? FIG_LIMIT_MAX : most;
    l->window_ms = window_ms;
}

static int find(const fig_limiter_t *l, const char *key)
{
    for (int i = 0; i < FIG_LIMIT_KEYS; i++)
        if (l->slot[i].key[0] && strncmp(l->slot[i].key, key, FIG_LIMIT_KEY_MAX) == 0)
            return i;
    return -1;
}

/* Uses of slot i within the window ending at now. */
static int recent(const fig_limiter_t *l, int i, long long now)
{
    int k = 0;
    for (int j = 0; j < l->slot[i].n; j++)
        k += l->slot[i].at[j] > now - l->window_ms;
    return k;
}

bool fig_limiter_may(const fig_limiter_t *l, const char *key, long long now)
{
    int i = find(l, key);
    return i < 0 || recent(l, i, now) < l->most;
}

bool fig_limiter_take(fig_limiter_t *l, const char *key, long long now)
{
    int i = find(l, key);
    if (i < 0) {   /* a free slot, else the one unused longest */
        i = 0;
        for (int j = 0; j < FIG_LIMIT_KEYS; j++) {
            if (!l->slot[j].key[0]) {
                i = j;
                break;
            }
            if (l->slot[j].last < l->slot[i].last)
                i = j;
        }
        memset(&l->slot[i], 0, sizeof l->slot[i]);
        snprintf(l->slot[i].key, sizeof l->slot[i].key, "%s", key[0] ? key : "?");
    }
    if (recent(l, i, now) >= l->most)
        return false;
    /* The ring keeps the last `most` uses: the oldest gives its place. */
    int at = (l->slot[i].head + l->slot[i].n) % l->most;
    if (l->slot[i].n < l->most)
        l->slot[i].n++;
    else
        l->slot[i].head = (l->slot[i].head + 1) % l->most;
    l->slot[i].at[at] = now;
    l->slot[i].last = now;
    return true;
}
