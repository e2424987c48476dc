/* SPDX-License-Identifier: MIT */
/* test_util.c - the growable text of src/host/util.h (fig_buf_t), which the
 * rules text, plain mode's log and the server's /metrics are written into:
 *   - what is appended comes out byte for byte, across every doubling, NULs
 *     included, and printf-style text is what snprintf writes;
 *   - taking gives the text (an empty one is "", never NULL) and leaves an
 *     empty buffer behind, ready again;
 *   - a failed allocation (each one in turn, from the first) marks the text
 *     failed once: what was there stays readable, every later append is
 *     skipped, taking gives NULL, and nothing leaks (LeakSanitizer).
 * Linked with the Makefile's WRAP_ALLOC: alloc_fail.c fails the allocation
 * asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_fail.h"
#include "host/util.h"

enum { PIECES = 400 };

static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                              "abcdefghijklmnopqrstuvwxyzABCD";

/* Piece i of the test text: lengths from 0 to 96 bytes, so that the text
 * crosses the first capacity (256) and several doublings at odd places. */
static int piece(int i, char *out, size_t cap)
{
    return snprintf(out, cap, "%d:%.*s|", i, (i * 37) % 90, letters);
}

/* Appends the test text to b, even pieces through fig_buf_append, odd ones
 * through fig_buf_appendf; the same text into want (the reference). */
static size_t fill(fig_buf_t *b, char *want, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < PIECES; i++) {
        char p[128];
        int k = piece(i, p, sizeof p);
        if (i % 2)
            fig_buf_appendf(b, "%d:%.*s|", i, (i * 37) % 90, letters);
        else
            fig_buf_append(b, p, (size_t)k);
        assert_true(n + (size_t)k < cap);
        memcpy(want + n, p, (size_t)k);
        n += (size_t)k;
    }
    want[n] = '\0';
    return n;
}

static void test_appends_come_out_byte_for_byte(void **state)
{
    (void)state;
    static char want[64 * 1024];
    fig_buf_t b;
    fig_buf_init(&b);
    size_t n = fill(&b, want, sizeof want);
    assert_false(b.failed);
    assert_int_equal(b.len, n);
    assert_true(b.cap > b.len);
    assert_int_equal(strlen(b.data), n);   /* NUL-terminated at len */
    assert_memory_equal(b.data, want, n);
    char *text = fig_buf_take(&b);
    assert_non_null(text);
    assert_string_equal(text, want);
    free(text);
    assert_null(b.data);   /* empty again, and usable */
    assert_int_equal(b.len, 0);
    fig_buf_appendf(&b, "%s %05d %.2f", "again", 42, 1.5);
    assert_string_equal(b.data, "again 00042 1.50");
    fig_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
}

/* One text longer than the first capacity, at once; NULs inside appended
 * bytes stay. */
static void test_long_text_and_nuls(void **state)
{
    (void)state;
    static char big[5000];
    memset(big, 'x', sizeof big - 1);
    fig_buf_t b;
    fig_buf_init(&b);
    fig_buf_append(&b, "a\0b", 3);
    fig_buf_appendf(&b, "<%s>", big);
    assert_false(b.failed);
    assert_int_equal(b.len, 3 + 2 + sizeof big - 1);
    assert_memory_equal(b.data, "a\0b<", 4);
    assert_memory_equal(b.data + 4, big, sizeof big - 1);
    assert_string_equal(b.data + b.len - 2, "x>");
    fig_buf_appendf(&b, "%s", "");   /* nothing appended: no change */
    assert_int_equal(b.len, 3 + 2 + sizeof big - 1);
    fig_buf_free(&b);
}

static void test_an_empty_text_is_taken_as_empty(void **state)
{
    (void)state;
    fig_buf_t b;
    fig_buf_init(&b);
    char *text = fig_buf_take(&b);
    assert_non_null(text);
    assert_string_equal(text, "");
    free(text);
    fig_buf_t zeroed = { 0 };   /* a zeroed one is an empty one (plain mode's, calloc'ed) */
    fig_buf_append(&zeroed, "ok", 2);
    assert_string_equal(zeroed.data, "ok");
    fig_buf_free(&zeroed);
    fig_buf_free(&zeroed);   /* twice: nothing left to free */
}

/* Fails allocation k = 1, 2, 3... while the text is written, until it is
 * written without one failing. */
static void test_failed_allocation_stops_the_text_once(void **state)
{
    (void)state;
    static char want[64 * 1024];
    long k = 1;
    for (;; k++) {
        fig_buf_t b;
        fig_buf_init(&b);
        alloc_fail_arm(k);
        size_t n = fill(&b, want, sizeof want);
        long made = alloc_fail_disarm();
        if (!b.failed) {
            assert_true(made < k);   /* done before allocation k */
            assert_int_equal(b.len, n);
            assert_memory_equal(b.data, want, n);
            fig_buf_free(&b);
            break;
        }
        /* what came before the failure is there, whole pieces, and only that */
        assert_true(b.len < n);
        if (b.data) {
            assert_int_equal(strlen(b.data), b.len);
            assert_memory_equal(b.data, want, b.len);
            assert_true(b.len == 0 || b.data[b.len - 1] == '|');
        } else {
            assert_int_equal(b.len, 0);   /* the first allocation failed */
        }
        size_t len = b.len;
        fig_buf_append(&b, "more", 4);   /* skipped, though memory is back */
        fig_buf_appendf(&b, "%s", "more");
        assert_int_equal(b.len, len);
        assert_true(b.failed);
        assert_null(fig_buf_take(&b));   /* the text is freed */
        assert_null(b.data);
        assert_false(b.failed);   /* empty again */
    }
    assert_true(k > 3);   /* the sweep met several doublings */
}

/* fig_buf_take's one allocation, for a text still empty, failing. */
static void test_failed_take_of_an_empty_text(void **state)
{
    (void)state;
    fig_buf_t b;
    fig_buf_init(&b);
    alloc_fail_arm(1);
    char *text = fig_buf_take(&b);
    alloc_fail_disarm();
    assert_null(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appends_come_out_byte_for_byte),
        cmocka_unit_test(test_long_text_and_nuls),
        cmocka_unit_test(test_an_empty_text_is_taken_as_empty),
        cmocka_unit_test(test_failed_allocation_stops_the_text_once),
        cmocka_unit_test(test_failed_take_of_an_empty_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
