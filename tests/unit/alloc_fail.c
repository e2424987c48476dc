/* SPDX-License-Identifier: MIT */
/* alloc_fail.c - counting allocations and failing the one asked for
 * (alloc_fail.h). Atomic: the match runner and the pool allocate on worker
 * threads too. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "alloc_fail.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static atomic_long fail_at;   /* 0: never; k: the k-th allocation from arming fails */
static atomic_long counted;   /* allocations since arming */

/* Whether this allocation is the one to fail. */
static bool fails(void)
{
    long at = atomic_load(&fail_at);
    return at > 0 && atomic_fetch_add(&counted, 1) + 1 == at;
}

void *__wrap_malloc(size_t n) { return fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return fails() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return fails() ? NULL : __real_strdup(s); }

void alloc_fail_arm(long k)
{
    atomic_store(&counted, 0);
    atomic_store(&fail_at, k);
}

long alloc_fail_disarm(void)
{
    atomic_store(&fail_at, 0);
    return atomic_load(&counted);
}
