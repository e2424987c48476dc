/* SPDX-License-Identifier: MIT */
/* fuzz_fgn.c - libFuzzer target for the FGN reader.
 *
 * Beyond "no crash": a rejected record must name a line inside the input and
 * explain in valid UTF-8; a record that reads must write back canonically
 * (write -> read -> write is byte-identical) and, replayed deal by deal and
 * action by action, keep every invariant the property tests check
 * (tests/unit/invariants.h: cards conserved kind by kind, no pile at 6 or
 * more after any action, colours unique across piles, one King, derived
 * fields consistent, each action by the seat to move), ending in the very
 * state the reader built. A violation traps, so libFuzzer reports the input,
 * after printing what broke. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "invariants.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char out1[1 << 16], out2[1 << 16];

/* Says what broke, then stops the run where libFuzzer sees it. */
static void violated(const char *why)
{
    fprintf(stderr, "fuzz_fgn: invariant violated: %s\n", why);
    __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fig_game_t g;
    fig_msg_t msg;
    char why[256];
    if (fig_fgn_read(&g, (const char *)data, size, &msg) != FIG_OK) {
        size_t lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n';
        if (msg.line < 1 || (size_t)msg.line > lines)
            violated("a rejection names no line of the input");
        if (!msg.text[0] || !valid_utf8(msg.text))
            violated("a rejection without a message in valid UTF-8");
        return 0;
    }
    if (!inv_check_fgn(&g, out1, out2, sizeof out1, why, sizeof why))
        violated(why);
    if (!inv_check_game(&g, why, sizeof why))
        violated(why);
    return 0;
}
