/* SPDX-License-Identifier: MIT */
/* test_heap.c - the service's heap of deadlines (net/base/heap.h): after every
 * set, move and removal, drawn from a seeded generator, the top is the
 * earliest deadline of the entries a plain array says are in, and every
 * entry knows its place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "net/base/heap.h"

enum { N = 200, STEPS = 20000 };

/* xorshift64*: the same draws on every run. */
static uint64_t next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ull;
}

/* The heap's order and places, and its top against the entries' keys. */
static void check(const fig_heap_t *h, const fig_heap_node_t nodes[], const long long key[])
{
    long long min = -1;
    int in = 0;
    for (int i = 0; i < N; i++) {
        if (key[i] < 0) {
            assert_int_equal(nodes[i].pos, -1);
            continue;
        }
        in++;
        assert_true(nodes[i].pos >= 0 && nodes[i].pos < h->n);
        assert_ptr_equal(h->v[nodes[i].pos], &nodes[i]);
        assert_true(nodes[i].key == key[i]);
        if (min < 0 || key[i] < min)
            min = key[i];
    }
    assert_int_equal(h->n, in);
    for (int i = 1; i < h->n; i++)
        assert_true(h->v[(i - 1) / 2]->key <= h->v[i]->key);
    const fig_heap_node_t *top = fig_heap_top(h);
    if (min < 0)
        assert_null(top);
    else
        assert_true(top && top->key == min);
}

static void test_random_operations(void **state)
{
    (void)state;
    fig_heap_t h;
    fig_heap_init(&h);
    assert_true(fig_heap_reserve(&h, N));
    fig_heap_node_t nodes[N];
    long long key[N];
    for (int i = 0; i < N; i++) {
        fig_heap_node_init(&nodes[i]);
        key[i] = -1;
    }
    uint64_t x = 42;
    for (int step = 0; step < STEPS; step++) {
        int i = (int)(next(&x) % N);
        switch (next(&x) % 4) {
        case 0:   /* taken out */
            fig_heap_remove(&h, &nodes[i]);
            key[i] = -1;
            break;
        case 1:   /* no deadline: out too */
            fig_heap_set(&h, &nodes[i], -1);
            key[i] = -1;
            break;
        default:  /* set or moved, earlier or later; ties on purpose */
            key[i] = (long long)(next(&x) % 1000);
            fig_heap_set(&h, &nodes[i], key[i]);
            break;
        }
        check(&h, nodes, key);
    }
    /* Emptied from the top, the deadlines come in order. */
    long long last = -1;
    for (const fig_heap_node_t *t; (t = fig_heap_top(&h));) {
        assert_true(t->key >= last);
        last = t->key;
        fig_heap_remove(&h, (fig_heap_node_t *)t);
    }
    assert_int_equal(h.n, 0);
    fig_heap_free(&h);
}

/* Without room reserved, setting grows the heap itself. */
static void test_grows(void **state)
{
    (void)state;
    fig_heap_t h;
    fig_heap_init(&h);
    fig_heap_node_t nodes[100];
    for (int i = 0; i < 100; i++) {
        fig_heap_node_init(&nodes[i]);
        fig_heap_set(&h, &nodes[i], 1000 - i);
    }
    assert_int_equal(h.n, 100);
    assert_ptr_equal(fig_heap_top(&h), &nodes[99]);
    fig_heap_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_operations),
        cmocka_unit_test(test_grows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
