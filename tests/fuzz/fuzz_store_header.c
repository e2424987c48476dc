/* SPDX-License-Identifier: MIT */
/* fuzz_store_header.c - libFuzzer target for the saved-game header parser
 * (fig_store_parse_header, fig_store_parse in host/store_header.h).
 *
 * Each input is parsed as the "#!" lines of a game of 3, 4, 5 and 6 players,
 * and as a whole saved file. Beyond "no crash": a header that parses must
 * describe every seat and hold only what can be written back (no control
 * character, no reserved key), and writing it and parsing that again must
 * give the same header; a rejected one must name a line inside the input.
 * Seeded from tests/fuzz/corpus-store/ (files of `figaro play`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/store_header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char out[1 << 16];

static int clean(const char *s, int allow_space)
{
    for (; *s; s++)
        if ((unsigned char)*s < ' ' || *s == 0x7F || (!allow_space && *s == ' '))
            return 0;
    return 1;
}

static void check_header(const fig_store_header_t *h, int players, int named)
{
    if (h->seats.players != players || h->nlines < 0 || h->nlines > FIG_STORE_LINES_MAX)
        abort();
    for (int s = 0; s < players; s++) {
        const fig_seat_t *st = &h->seats.seat[s];
        if (!named && st->name[0])
            abort();   /* names are the record's, never the header's */
        if (st->bot ? !st->spec[0] || st->spec[0] == ' ' || !clean(st->spec, 1) : st->spec[0] != 0)
            abort();
    }
    for (int i = 0; i < h->nlines; i++) {
        const fig_store_line_t *l = &h->lines[i];
        if (!l->key[0] || !clean(l->key, 0) || !strcmp(l->key, "seat") || !strcmp(l->key, "play"))
            abort();
        if (!clean(l->value, 1) || l->value[0] == ' ' || l->line <= 0)
            abort();
    }
}

static void same_header(const fig_store_header_t *a, const fig_store_header_t *b)
{
    if (a->seats.players != b->seats.players || a->nlines != b->nlines)
        abort();
    for (int s = 0; s < a->seats.players; s++)
        if (a->seats.seat[s].bot != b->seats.seat[s].bot ||
            strcmp(a->seats.seat[s].spec, b->seats.seat[s].spec) != 0)
            abort();
    for (int i = 0; i < a->nlines; i++)
        if (strcmp(a->lines[i].key, b->lines[i].key) != 0 ||
            strcmp(a->lines[i].value, b->lines[i].value) != 0 ||
            b->lines[i].line != 2 + a->seats.players + i)   /* after "play" and the seats */
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fig_store_header_t h, h2;
    static fig_game_t g;
    const char *text = (const char *)data;
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    for (int players = FIG_MIN_PLAYERS; players <= FIG_MAX_PLAYERS; players++) {
        fig_msg_t msg;
        memset(&msg, 0, sizeof msg);
        if (fig_store_parse_header(text, size, "fuzz", players, &h, NULL, &msg) != FIG_OK) {
            if (msg.line < 0 || (size_t)msg.line > lines || strncmp(msg.text, "fuzz", 4) != 0)
                abort();
            continue;
        }
        check_header(&h, players, 0);
        size_t n = fig_store_write_header(&h, out, sizeof out);
        if (n >= sizeof out || strlen(out) != n)
            abort();
        if (fig_store_parse_header(out, n, "again", players, &h2, NULL, &msg) != FIG_OK)
            abort();
        same_header(&h, &h2);
    }
    fig_msg_t msg;
    if (fig_store_parse(text, size, "fuzz", &g, &h, NULL, &msg) == FIG_OK) {
        check_header(&h, g.setup.players, g.has_names);
    } else if (msg.line < 0 || (size_t)msg.line > lines) {
        abort();
    }
    return 0;
}
