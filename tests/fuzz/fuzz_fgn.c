/* fuzz_fgn.c - libFuzzer target for the FGN reader.
 *
 * Beyond "no crash": a record that reads must write back canonically
 * (write -> read -> write is byte-identical), a rejected one must name a line
 * inside the input, and the game must keep the engine's invariants. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char out1[1 << 16], out2[1 << 16];

/* Messages end up in JSON and on terminals: they must be valid UTF-8 even
 * when they quote a piece of a broken input. */
static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
              : (*p & 0xF8) == 0xF0 ? 4 : 0;
        if (!n)
            return 0;
        for (int i = 1; i < n; i++)
            if ((p[i] & 0xC0) != 0x80)
                return 0;
        p += n;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fig_game_t g, g2;
    fig_msg_t msg;
    if (fig_fgn_read(&g, (const char *)data, size, &msg) != FIG_OK) {
        size_t lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n';
        if (msg.line < 1 || (size_t)msg.line > lines || !msg.text[0] || !valid_utf8(msg.text))
            abort();   /* every rejection points at a line of the input and explains */
        return 0;
    }
    size_t n1 = fig_fgn_write(&g, out1, sizeof out1);
    if (n1 >= sizeof out1)
        abort();
    if (fig_fgn_read(&g2, out1, n1, &msg) != FIG_OK)
        abort();   /* what we write we must read */
    size_t n2 = fig_fgn_write(&g2, out2, sizeof out2);
    if (n1 != n2 || memcmp(out1, out2, n1) != 0)
        abort();
    const fig_state_t *st = &g.state;
    for (int s = 0; s < st->players; s++)
        if (st->pile[s].total >= 6)
            abort();   /* R8: no pile is left at 6 or more */
    return 0;
}
