/* SPDX-License-Identifier: MIT */
/* heap.h - deadlines in a binary min-heap: setting, moving or removing one
 * costs O(log n), the earliest is read in O(1). The service keeps one entry
 * per table in it, so that nothing walks every table to find what is due.
 *
 * An entry (fig_heap_node_t) lives inside the caller's own struct and knows
 * its place in the heap; the caller gets back to its struct from the node
 * (an offsetof). Room is reserved ahead (fig_heap_reserve), so that setting
 * a deadline never fails. */
#ifndef FIGARO_NET_HEAP_H
#define FIGARO_NET_HEAP_H

#include <stdbool.h>

typedef struct {
    long long key;   /* the deadline */
    int pos;         /* its index in the heap; -1: not in it */
} fig_heap_node_t;

typedef struct {
    fig_heap_node_t **v;
    int n, cap;
} fig_heap_t;

/* An empty heap; a node not yet in one (pos -1). */
void fig_heap_init(fig_heap_t *h);
void fig_heap_node_init(fig_heap_node_t *x);
void fig_heap_free(fig_heap_t *h);

/* Room for n entries in all; false: out of memory (nothing changed). */
bool fig_heap_reserve(fig_heap_t *h, int n);

/* Puts x in the heap with deadline key, or moves it there; key < 0 takes it
 * out. Needs room (fig_heap_reserve) for a node not yet in the heap. */
void fig_heap_set(fig_heap_t *h, fig_heap_node_t *x, long long key);

/* Takes x out (nothing if it is not in). */
void fig_heap_remove(fig_heap_t *h, fig_heap_node_t *x);

/* The earliest entry, or NULL when the heap is empty. */
fig_heap_node_t *fig_heap_top(const fig_heap_t *h);

#endif
