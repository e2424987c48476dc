/* SPDX-License-Identifier: MIT */
/* fuzz_fep.c - libFuzzer target for FEP lines as `figaro engine` reads them.
 *
 * The input is split into lines, each handed to the engine's line handler
 * (src/host/fep_engine.c, linked from libfigaro-host) exactly as `figaro
 * engine` does with standard input: "\r\n" ends a line too, and a line longer
 * than FIG_FEP_LINE_MAX goes to the too-long answer. A bot follows whatever
 * the lines make of the game. Nothing may crash, leak or read out of bounds;
 * every answer must be one printable line; and a `go` that is answered must
 * be answered with a legal action, which the bot handle guarantees and this
 * target checks through the overrule counter. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/fep_engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The engine's answers: each must be a single line of printable ASCII. */
static bool check_answer(void *user, const char *line)
{
    (void)user;
    if (!line[0])
        abort();
    for (const char *c = line; *c; c++)
        if (*c < 0x20 || *c > 0x7E)
            abort();   /* a control character would break the host's line reading */
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fig_bot_t *bot;
    fig_fep_engine_t *e;
    if (fig_bot_new(&bot, "random", 1, NULL) != FIG_OK)
        abort();
    if (fig_fep_engine_new(&e, bot, check_answer, NULL, NULL) != FIG_OK)
        abort();
    static char line[FIG_FEP_LINE_MAX + 1];
    size_t pos = 0;
    bool go_on = true;
    while (go_on && pos < size) {
        size_t n = 0;
        bool too_long = false;
        while (pos < size && data[pos] != '\n') {
            if (n < FIG_FEP_LINE_MAX)
                line[n++] = (char)data[pos];
            else
                too_long = true;
            pos++;
        }
        pos++;
        if (n && line[n - 1] == '\r')
            n--;
        line[n] = '\0';   /* a NUL inside ends the line early, as on standard input */
        go_on = too_long ? fig_fep_engine_too_long(e, line) : fig_fep_engine_line(e, line);
    }
    if (fig_bot_overrules(fig_fep_engine_bot(e)) != 0)
        abort();   /* the bot chose an illegal action from what the lines told it */
    fig_fep_engine_free(e);
    return 0;
}
