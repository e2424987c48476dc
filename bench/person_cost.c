/* SPDX-License-Identifier: MIT */
/* person_cost.c - what finding a person's connections costs the server's
 * loop (a rename, a sign out, a forget, `rated`: docs/scaling.md), by the
 * number of signed-in connections:
 *
 *   person_cost
 *
 * For 1,000, 10,000 and 100,000 connections, four for each person (a
 * browser's tabs): the time to find one person's four connections through
 * the index of the signed-in connections by person
 * (src/net/service/service_conn_index.c), against a
 * walk over every connection comparing its person (what a rename did before the index); and one sign
 * off and sign in again (a redeem). The lookup must cost the same whatever
 * the number of connections. Prints one line per size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/service/service_conn_index.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void person(fig_db_person_t *p, int i)
{
    memset(p, 0, sizeof *p);
    char id[24];
    snprintf(id, sizeof id, "P%09d", i);   /* 10 characters, as a person's id */
    memcpy(p->id, id, FIG_PERSON_ID_LEN);
    p->id[FIG_PERSON_ID_LEN] = '\0';
    snprintf(p->name, sizeof p->name, "Person %d", i);
}

int main(void)
{
    printf("connections  index_ns  walk_ns  sign_in_ns\n");
    const int sizes[] = { 1000, 10000, 100000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k], people = n / 4;
        fig_service_t *s = calloc(1, sizeof *s);
        conn_t *c = calloc((size_t)n, sizeof *c);
        if (!s || !c)
            return 1;
        fig_db_person_t p;
        for (int i = 0; i < n; i++) {   /* a list as the service keeps it */
            c[i].next = i + 1 < n ? &c[i + 1] : NULL;
            person(&p, i % people);
            fig_svc_sign_in(s, &c[i], &p, "hash");
        }
        s->conns = c;
        const int reps = n >= 100000 ? 2000 : 200000;
        long long found = 0;
        double t0 = now_s();
        for (int r = 0; r < reps; r++) {
            person(&p, (int)((unsigned)r * 2654435761u % (unsigned)people));
            for (conn_t *o = fig_svc_person_first(s, p.id); o; o = fig_svc_person_next(o))
                found++;
        }
        double index = (now_s() - t0) / reps * 1e9;
        const int wreps = n >= 100000 ? 200 : n >= 10000 ? 2000 : 20000;
        t0 = now_s();
        for (int r = 0; r < wreps; r++) {
            person(&p, (int)((unsigned)r * 2654435761u % (unsigned)people));
            for (conn_t *o = s->conns; o; o = o->next)
                found -= strcmp(o->person, p.id) == 0;
        }
        double walk = (now_s() - t0) / wreps * 1e9;
        t0 = now_s();
        for (int r = 0; r < reps; r++) {
            int i = (int)((unsigned)r * 2654435761u % (unsigned)n);
            person(&p, (i + r) % people);
            fig_svc_sign_in(s, &c[i], &p, "hash");   /* signs off first */
        }
        double sign_in = (now_s() - t0) / reps * 1e9;
        if (found != 4LL * (reps - wreps))
            return fprintf(stderr, "%d: a person's connections were missed\n", n), 1;
        printf("%11d  %8.0f  %7.0f  %10.0f\n", n, index, walk, sign_in);
        for (int i = 0; i < n; i++)
            fig_svc_sign_off(s, &c[i]);
        if (s->by_person.n != 0)
            return fprintf(stderr, "%d: the index kept %d\n", n, s->by_person.n), 1;
        fig_svc_cx_free(&s->by_person);
        free(c);
        free(s);
    }
    return 0;
}
