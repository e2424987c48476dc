/* fuzz_fep.c - libFuzzer target for FEP lines as `figaro engine` reads them.
 *
 * The input is split into lines, each handed to the engine's line handler
 * exactly as `figaro engine` does with standard input (the engine's source is
 * included to reach its static handler). A bot follows whatever the lines
 * make of the game; nothing may crash, leak or read out of bounds, and a
 * `go` that is answered must be answered with a legal action, which the bot
 * handle guarantees and this target checks through the overrule counter. */
#include <stdlib.h>

#include "cli/fep_engine.c"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout))   /* the engine's answers are not the point */
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    engine_t e = { .spec = "random", .seat = -1 };
    if (fig_bot_new(&e.bot, "random", 1, NULL) != FIG_OK)
        abort();
    char line[LINE_CAP];
    size_t pos = 0;
    while (pos < size) {
        size_t n = 0;
        while (pos < size && data[pos] != '\n') {
            if (n + 1 < sizeof line)
                line[n++] = data[pos] == '\0' ? ' ' : (char)data[pos];
            pos++;
        }
        pos++;
        if (n && line[n - 1] == '\r')
            n--;
        line[n] = '\0';
        if (!handle(&e, line))
            break;
    }
    if (fig_bot_overrules(e.bot) != 0)
        abort();   /* the bot chose an illegal action from what the lines told it */
    fig_bot_free(e.bot);
    return 0;
}
