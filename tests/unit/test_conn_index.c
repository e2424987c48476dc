/* SPDX-License-Identifier: MIT */
/* test_conn_index.c - the service's indexes of connections by person and by
 * address (service_conn_index.c): after every step of a seeded run (a
 * connection opened, signed in as someone, signed off, closed), looking up
 * a person or an address gives exactly the connections a plain array says
 * have it, through the buckets' doubling; and when memory for buckets runs
 * out (the first allocation, or a doubling) the index stays exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_fail.h"
#include "net/service/service_conn_index.h"

enum { N = 300, PEOPLE = 40, ADDRS = 25, STEPS = 20000 };

/* xorshift64*: the same draws on every run. */
static uint64_t next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ull;
}

typedef struct {
    conn_index_t by_person, by_addr;
    conn_t c[N];
    bool open[N];
} world_t;

static void world_init(world_t *w)
{
    memset(w, 0, sizeof *w);
    w->by_person.which = CX_PERSON;
    w->by_addr.which = CX_ADDR;
}

/* What an index finds for text, against the connections that have it. */
static void check_one(world_t *w, conn_index_t *ix, const char *text)
{
    int found = 0, want = 0;
    for (conn_t *c = fig_svc_cx_first(ix, text); c; c = fig_svc_cx_next(ix->which, c)) {
        int i = (int)(c - w->c);
        assert_true(i >= 0 && i < N && w->open[i]);
        assert_string_equal(ix->which == CX_PERSON ? c->person : c->addr, text);
        found++;
    }
    for (int i = 0; i < N; i++)
        want += w->open[i] && strcmp(ix->which == CX_PERSON ? w->c[i].person : w->c[i].addr,
                                     text) == 0;
    assert_int_equal(found, want);
}

static void check(world_t *w)
{
    char t[24];
    int persons = 0, open = 0;
    for (int k = 0; k < PEOPLE; k++) {
        snprintf(t, sizeof t, "P%d", k);
        check_one(w, &w->by_person, t);
    }
    for (int k = 0; k < ADDRS; k++) {
        snprintf(t, sizeof t, "10.0.0.%d", k);
        check_one(w, &w->by_addr, t);
    }
    for (int i = 0; i < N; i++) {
        open += w->open[i];
        persons += w->open[i] && w->c[i].person[0];
    }
    assert_int_equal(w->by_addr.n, open);
    assert_int_equal(w->by_person.n, persons);
}

/* One step: open a closed connection from an address, or sign one in as
 * someone (another person if it was), sign it off, or close it. */
static void step(world_t *w, uint64_t *x)
{
    int i = (int)(next(x) % N);
    conn_t *c = &w->c[i];
    unsigned what = (unsigned)(next(x) % 4);
    if (!w->open[i]) {
        memset(c, 0, sizeof *c);
        snprintf(c->addr, sizeof c->addr, "10.0.0.%d", (int)(next(x) % ADDRS));
        fig_svc_cx_add(&w->by_addr, c);
        w->open[i] = true;
    } else if (what <= 1) {
        if (c->person[0])
            fig_svc_cx_remove(&w->by_person, c);
        snprintf(c->person, sizeof c->person, "P%d", (int)(next(x) % PEOPLE));
        fig_svc_cx_add(&w->by_person, c);
    } else if (what == 2 && c->person[0]) {
        fig_svc_cx_remove(&w->by_person, c);
        c->person[0] = '\0';
    } else {
        if (c->person[0])
            fig_svc_cx_remove(&w->by_person, c);
        fig_svc_cx_remove(&w->by_addr, c);
        c->person[0] = '\0';
        w->open[i] = false;
    }
}

static void run(world_t *w, uint64_t seed, int steps)
{
    uint64_t x = seed;
    for (int s = 0; s < steps; s++) {
        step(w, &x);
        if (s % 97 == 0 || s == steps - 1)
            check(w);
    }
}

static void free_world(world_t *w)
{
    fig_svc_cx_free(&w->by_person);
    fig_svc_cx_free(&w->by_addr);
}

static void test_exact_through_growth(void **state)
{
    (void)state;
    static world_t w;
    world_init(&w);
    run(&w, 0x9e3779b97f4a7c15ull, STEPS);
    assert_true(w.by_addr.nb > 64);   /* it doubled on the way */
    free_world(&w);
}

/* No memory for the first buckets: one chain, still exact. */
static void test_exact_without_buckets(void **state)
{
    (void)state;
    static world_t w;
    world_init(&w);
    alloc_fail_arm(1);
    conn_t *c = &w.c[0];
    snprintf(c->addr, sizeof c->addr, "10.0.0.1");
    fig_svc_cx_add(&w.by_addr, c);   /* its buckets' allocation fails */
    alloc_fail_disarm();
    w.open[0] = true;
    assert_int_equal(w.by_addr.nb, 1);
    run(&w, 7, STEPS / 4);
    check(&w);
    free_world(&w);
}

/* No memory to double: the buckets stay as they are, still exact. */
static void test_exact_when_doubling_fails(void **state)
{
    (void)state;
    static world_t w;
    world_init(&w);
    for (int i = 0; i < 64; i++) {   /* as many as the first buckets */
        snprintf(w.c[i].addr, sizeof w.c[i].addr, "10.0.0.%d", i % ADDRS);
        fig_svc_cx_add(&w.by_addr, &w.c[i]);
        w.open[i] = true;
    }
    assert_int_equal(w.by_addr.nb, 64);
    alloc_fail_arm(1);
    snprintf(w.c[64].addr, sizeof w.c[64].addr, "10.0.0.3");
    fig_svc_cx_add(&w.by_addr, &w.c[64]);   /* the doubling fails */
    alloc_fail_disarm();
    w.open[64] = true;
    assert_int_equal(w.by_addr.nb, 64);
    check(&w);
    run(&w, 11, STEPS / 4);
    free_world(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_through_growth),
        cmocka_unit_test(test_exact_without_buckets),
        cmocka_unit_test(test_exact_when_doubling_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
