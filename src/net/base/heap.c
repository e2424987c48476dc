/* SPDX-License-Identifier: MIT */
/* heap.c - a binary min-heap of nodes that know their index (heap.h). */
#include "net/base/heap.h"

#include <stdlib.h>

void fig_heap_init(fig_heap_t *h)
{
    h->v = NULL;
    h->n = h->cap = 0;
}

void fig_heap_node_init(fig_heap_node_t *x)
{
    x->key = -1;
    x->pos = -1;
}

void fig_heap_free(fig_heap_t *h)
{
    free(h->v);
    fig_heap_init(h);
}

bool fig_heap_reserve(fig_heap_t *h, int n)
{
    if (n <= h->cap)
        return true;
    int ncap = h->cap ? h->cap : 16;
    while (ncap < n)
        ncap *= 2;
    fig_heap_node_t **nv = realloc(h->v, (size_t)ncap * sizeof *nv);
    if (!nv)
        return false;
    h->v = nv;
    h->cap = ncap;
    return true;
}

static void place(fig_heap_t *h, fig_heap_node_t *x, int i)
{
    h->v[i] = x;
    x->pos = i;
}

static void up(fig_heap_t *h, int i)
{
    fig_heap_node_t *x = h->v[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (h->v[p]->key <= x->key)
            break;
        place(h, h->v[p], i);
        i = p;
    }
    place(h, x, i);
}

static void down(fig_heap_t *h, int i)
{
    fig_heap_node_t *x = h->v[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1]->key < h->v[c]->key)
            c++;
        if (x->key <= h->v[c]->key)
            break;
        place(h, h->v[c], i);
        i = c;
    }
    place(h, x, i);
}

void fig_heap_remove(fig_heap_t *h, fig_heap_node_t *x)
{
    int i = x->pos;
    if (i < 0)
        return;
    x->pos = -1;
    fig_heap_node_t *last = h->v[--h->n];
    if (last == x)
        return;
    place(h, last, i);
    up(h, i);
    down(h, last->pos);
}

void fig_heap_set(fig_heap_t *h, fig_heap_node_t *x, long long key)
{
    if (key < 0) {
        fig_heap_remove(h, x);
        x->key = -1;
        return;
    }
    if (x->pos < 0) {
        if (h->n == h->cap && !fig_heap_reserve(h, h->n + 1))
            return;   /* never, with the room the caller reserved */
        x->key = key;
        place(h, x, h->n++);
        up(h, x->pos);
        return;
    }
    long long old = x->key;
    x->key = key;
    if (key < old)
        up(h, x->pos);
    else if (key > old)
        down(h, x->pos);
}

fig_heap_node_t *fig_heap_top(const fig_heap_t *h)
{
    return h->n > 0 ? h->v[0] : NULL;
}
