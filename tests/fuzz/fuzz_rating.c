/* SPDX-License-Identifier: MIT */
/* fuzz_rating.c - libFuzzer target for the finishing orders of `figaro rate`
 * (src/host/rating_text.h), seeded from tests/fuzz/corpus-rating.
 *
 * Each line of the input is read. Beyond "no crash": a refused line gets a
 * message that is printable UTF-8; an accepted one holds no game or 2 to 6
 * players with names of 1 to 64 bytes of UTF-8 without blanks, control
 * characters or '=', each once, and places that the rating update accepts
 * (host/rating.h: rated from new players, every result finite); written back
 * as text (names best first, '=' within a tie) it reads the same again. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/rating.h"
#include "host/rating_text.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_game(const fig_rating_game_t *g)
{
    if (g->n == 0)
        return;
    if (g->n < 2 || g->n > FIG_MAX_PLAYERS)
        abort();
    char text[FIG_MAX_PLAYERS * (FIG_RATING_NAME_MAX + 1) + 1];
    size_t at = 0;
    for (int i = 0; i < g->n; i++) {
        size_t len = strlen(g->name[i]);
        if (len == 0 || len > FIG_RATING_NAME_MAX || !valid_utf8(g->name[i]))
            abort();
        for (size_t k = 0; k < len; k++) {
            unsigned char c = (unsigned char)g->name[i][k];
            if (c <= 0x20 || c == 0x7F || c == '=')
                abort();
        }
        for (int j = 0; j < i; j++)
            if (strcmp(g->name[i], g->name[j]) == 0)
                abort();
        /* Best first: a tie continues with '=', a new place with a space. */
        if (i > 0) {
            if (g->rank[i] < g->rank[i - 1])
                abort();
            text[at++] = g->rank[i] == g->rank[i - 1] ? '=' : ' ';
        }
        memcpy(text + at, g->name[i], len);
        at += len;
    }
    fig_rating_seat_t seat[FIG_MAX_PLAYERS];
    fig_rating_t out[FIG_MAX_PLAYERS];
    for (int i = 0; i < g->n; i++)
        seat[i] = (fig_rating_seat_t){ fig_rating_initial(), g->rank[i], i == 1 };
    if (fig_rating_update(seat, g->n, out, NULL) != FIG_OK)
        abort();
    for (int i = 0; i < g->n; i++)
        if (!isfinite(out[i].mu) || !(out[i].sigma > 0))
            abort();
    fig_rating_game_t again;
    if (fig_rating_game_parse(text, at, &again, NULL) != FIG_OK || again.n != g->n)
        abort();
    for (int i = 0; i < g->n; i++)
        if (strcmp(again.name[i], g->name[i]) || again.rank[i] != g->rank[i])
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t at = 0;
    while (at <= size) {
        const char *nl = memchr(s + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - s) : size;
        fig_rating_game_t g;
        fig_msg_t msg = { "", 0 };
        if (fig_rating_game_parse(s + at, end - at, &g, &msg) == FIG_OK)
            check_game(&g);
        else if (!msg.text[0] || !valid_utf8(msg.text))
            abort();
        if (!nl)
            break;
        at = end + 1;
    }
    return 0;
}
