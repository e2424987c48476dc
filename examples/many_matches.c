/* SPDX-License-Identifier: MIT */
/* many_matches.c - 200 bot-only matches at once on the host layer: one pool
 * of 4 worker threads, one poll() loop over every match's descriptor, as a
 * server's event loop would run them. Prints how many finished, the peak
 * number of threads of the process and its peak memory.
 *
 *   build/many_matches [MATCHES [THREADS [ISMCTS_ITERS]]]   (200, 4, 200)
 *
 * Uses only the public headers and the host layer's (pool, bot factory). */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/fep_host.h"
#include "host/pool.h"

/* A number from /proc/self/status ("Threads:", "VmHWM:"), or -1. */
static long status_field(const char *name)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, name, n) == 0) {
            v = strtol(line + n, NULL, 10);
            break;
        }
    if (f)
        fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200, threads = argc > 2 ? atoi(argv[2]) : 4;
    int iters = argc > 3 ? atoi(argv[3]) : 200;
    if (n < 1 || threads < 1 || iters < 1)
        return fprintf(stderr, "usage: many_matches [MATCHES [THREADS [ISMCTS_ITERS]]]\n"), 2;
    char mcts[64];
    snprintf(mcts, sizeof mcts, "ismcts:iters=%d", iters);
    const char *lineup[4] = { "greedy", "random", mcts, "random" };

    fig_msg_t msg;
    fig_pool_t *pool;
    fig_pool_opts_t po = { threads, 0 };
    if (fig_pool_new(&pool, &po, &msg) != FIG_OK)
        return fprintf(stderr, "many_matches: %s\n", msg.text), 1;
    fig_match_t **m = calloc((size_t)n, sizeof *m);
    struct pollfd *fds = calloc((size_t)n, sizeof *fds);
    if (!m || !fds)
        return fprintf(stderr, "many_matches: out of memory\n"), 1;
    for (int i = 0; i < n; i++) {
        fig_match_opts_t o;
        memset(&o, 0, sizeof o);
        fig_setup_random(&o.setup, 4, 1000 + (uint64_t)i, NULL);
        for (int s = 0; s < 4; s++)   /* each seat a different bot from game to game */
            if (fig_bot_any_new(&o.bots[s], lineup[(s + i) % 4], (uint64_t)(i * 4 + s), 0,
                                &msg) != FIG_OK)
                return fprintf(stderr, "many_matches: %s\n", msg.text), 1;
        o.pool = pool;
        if (fig_match_new(&m[i], &o, &msg) != FIG_OK)
            return fprintf(stderr, "many_matches: %s\n", msg.text), 1;
    }

    long peak_threads = status_field("Threads:");
    int finished = 0;
    while (finished < n) {
        int nfds = 0;
        finished = 0;
        for (int i = 0; i < n; i++) {
            while (fig_match_step(m[i], NULL))   /* deals and bots' moves */
                ;
            if (fig_match_status(m[i]) == FIG_MATCH_OVER)
                finished++;
            else
                fds[nfds++] = (struct pollfd){ .fd = fig_match_fd(m[i]), .events = POLLIN };
        }
        long t = status_field("Threads:");
        peak_threads = t > peak_threads ? t : peak_threads;
        if (nfds > 0 && poll(fds, (nfds_t)nfds, -1) < 0)
            return perror("poll"), 1;
    }

    long moves = 0;
    for (int i = 0; i < n; i++) {
        const fig_game_t *g = fig_match_game(m[i]);
        moves += g->nmoves[0] + g->nmoves[1] + g->nmoves[2];
        fig_match_free(m[i]);
    }
    fig_pool_free(pool);
    printf("finished: %d of %d matches (%ld actions), pool of %d threads\n", finished, n, moves,
           threads);
    printf("peak threads: %ld\n", peak_threads);
    printf("peak memory: %ld KiB\n", status_field("VmHWM:"));
    free(fds);
    free(m);
    return finished == n ? 0 : 1;
}
