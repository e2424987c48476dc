/* SPDX-License-Identifier: MIT */
/* lobby_cost.c - what the lobby costs the server's loop (src/net/service/lobby.h,
 * docs/server.md "Lobby"), by the number of tables in it:
 *
 *   lobby_cost [SUBSCRIBERS]
 *
 * For lobbies of 100, 1,000 and 10,000 listed tables that wait: the time of
 * one change of a table (a seat taken: fig_lobby_put of an entry already
 * there), of a new table put (the newest: first in the list), of one frame
 * built (the newest 50) and of one frame sent to SUBSCRIBERS connections
 * (default 1,000; the send is a no-op here: the wire's copy is the wire's).
 * A change must cost the same whatever the lobby's size; a frame goes at
 * most once a second. Prints one line per size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/service/lobby.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void no_send(void *ctx, fig_lobby_sub_t *sub, const char *text, size_t len)
{
    (void)sub;
    (void)text;
    *(size_t *)ctx += len;
}

static void table(fig_lobby_table_t *x, int i, int joined)
{
    memset(x, 0, sizeof *x);
    unsigned v = (unsigned)i % 100000u;
    snprintf(x->code, sizeof x->code, "T%05u", v);
    x->created = 1000000 + i;
    x->players = 4;
    x->free = 2 - joined;
    x->seats[0].kind = FIG_LOBBY_PERSON;
    strcpy(x->seats[0].name, "Ann");
    x->seats[1].kind = joined ? FIG_LOBBY_PERSON : FIG_LOBBY_OPEN;
    if (joined)
        strcpy(x->seats[1].name, "Bob");
    x->seats[2].kind = FIG_LOBBY_BOT;
    strcpy(x->seats[2].level, "hard");
    x->seats[3].kind = FIG_LOBBY_OPEN;
    x->move_seconds = 60;
    strcpy(x->fill, "normal");
}

int main(int argc, char **argv)
{
    int nsubs = argc > 1 ? atoi(argv[1]) : 1000;
    if (nsubs < 1)
        nsubs = 1;
    printf("tables  change_ns  new_ns  frame_us  flush_us(%d subscribers)  frame_bytes\n", nsubs);
    const int sizes[] = { 100, 1000, 10000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        size_t sent = 0;
        fig_lobby_t l;
        fig_lobby_init(&l, no_send, &sent);
        fig_lobby_ent_t **slots = calloc((size_t)n + 1, sizeof *slots);
        fig_lobby_sub_t *subs = calloc((size_t)nsubs, sizeof *subs);
        if (!slots || !subs)
            return 1;
        fig_lobby_table_t x;
        for (int i = 0; i < n; i++) {   /* each the newest when it came */
            table(&x, i, 0);
            fig_lobby_put(&l, &slots[i], &x, 0);
        }
        for (int i = 0; i < nsubs; i++)
            fig_lobby_on(&l, &subs[i], 0);
        /* changes: a seat taken and left again, in tables all over the list */
        const int reps = 200000;
        fig_lobby_table_t on;
        double t0 = now_s();
        for (int r = 0; r < reps; r++) {
            int i = (int)((unsigned)r * 2654435761u % (unsigned)n);
            table(&on, i, r & 1);
            fig_lobby_put(&l, &slots[i], &on, 0);
        }
        double change = (now_s() - t0) / reps * 1e9;
        /* a new table: the newest, put and taken out again */
        t0 = now_s();
        for (int r = 0; r < reps; r++) {
            table(&x, n + 1000000, 0);
            fig_lobby_put(&l, &slots[n], &x, 0);
            fig_lobby_put(&l, &slots[n], NULL, 0);
        }
        double fresh = (now_s() - t0) / reps / 2 * 1e9;
        /* a frame built */
        const int frames = 2000;
        size_t len = 0;
        t0 = now_s();
        for (int r = 0; r < frames; r++) {
            char *text = fig_lobby_frame(&l, &len);
            free(text);
        }
        double frame = (now_s() - t0) / frames * 1e6;
        /* a frame sent to everyone: a change, then the flush a second later */
        const int flushes = 200;
        long long clock = 10000;
        t0 = now_s();
        for (int r = 0; r < flushes; r++) {
            table(&on, r % n, (r / n + r + 1) & 1);   /* the other state than now */
            fig_lobby_put(&l, &slots[r % n], &on, clock);
            clock += FIG_LOBBY_EVERY_MS;
            fig_lobby_flush(&l, clock);
        }
        double flush = (now_s() - t0) / flushes * 1e6;
        if (l.frames != (unsigned long long)nsubs * (flushes + 1))
            return fprintf(stderr, "a flush sent nothing\n"), 1;
        printf("%6d  %9.0f  %6.0f  %8.1f  %8.1f  %zu\n", n, change, fresh, frame, flush, len);
        for (int i = 0; i < nsubs; i++)
            fig_lobby_off(&l, &subs[i]);
        fig_lobby_free(&l);
        free(slots);
        free(subs);
    }
    return 0;
}
