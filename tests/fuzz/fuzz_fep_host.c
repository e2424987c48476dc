/* SPDX-License-Identifier: MIT */
/* fuzz_fep_host.c - libFuzzer target for the FEP host's reader: what an
 * engine writes, cut into lines (fig_fep_split_line) as the host's buffer
 * receives it, and each line classified (fig_fep_parse_line).
 *
 * The first byte of the input chooses the seat (low 3 bits) and how many
 * bytes arrive per read (high bits); the rest is the engine's output. Beyond
 * "no crash", each line must keep these properties:
 *   - splitting conserves the bytes: every byte read is in a line, its "\n",
 *     a "\r" before that "\n", or still in the buffer; a line holds no "\n";
 *   - classifying is a pure function: the same line gives the same answer;
 *   - a line with nothing but spaces and tabs before its first NUL is BLANK,
 *     and only such a line;
 *   - PLAY comes with an action, every other kind with none; that action,
 *     written back in FGN ("play " + fig_act_format), reads as the same
 *     action for the same seat (a ring as the seat's own ring: FGN writes
 *     none other); and a line holding a NUL is never PLAY or FEPOK;
 *   - keywords are case-insensitive: the line with its ASCII letters
 *     upper-cased is of the same kind, with the same action.
 * A full buffer without a "\n" is what the host calls a line too long: the
 * target then starts again with an empty buffer, as the next game would. */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/fep_line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_line(const char *line, size_t len, int seat)
{
    fig_action_t a, again;
    fig_fep_line_t k = fig_fep_parse_line(line, len, seat, &a);
    if (fig_fep_parse_line(line, len, seat, &again) != k || again != a)
        abort();
    const char *nul = memchr(line, '\0', len);
    size_t n = nul ? (size_t)(nul - line) : len;
    bool blank = true;
    for (size_t i = 0; i < n; i++)
        blank = blank && (line[i] == ' ' || line[i] == '\t');
    if (blank != (k == FIG_FEP_BLANK))
        abort();
    if ((k == FIG_FEP_PLAY) != (a != FIG_ACT_NONE))
        abort();
    if (nul && (k == FIG_FEP_PLAY || k == FIG_FEP_FEPOK))
        abort();
    if (k == FIG_FEP_PLAY) {
        char text[32], code[16];
        int w = snprintf(text, sizeof text, "play %s", fig_act_format(a, code, sizeof code));
        fig_action_t back;
        fig_fep_line_t bk = fig_fep_parse_line(text, (size_t)w, seat, &back);
        /* FGN writes a ring without its target: it goes in front of the
         * actor (R7), so "RING>4" from seat 3 reads back as seat 3's ring
         * (and the host then finds the original illegal). */
        bool ring = !fig_act_is_take(a) && fig_act_kind(a) == FIG_RING;
        if (ring ? !(bk == FIG_FEP_PLAY && back == fig_act_play(FIG_RING, seat)) &&
                       !(bk == FIG_FEP_MALFORMED && seat >= FIG_MAX_PLAYERS)
                 : bk != FIG_FEP_PLAY || back != a)
            abort();
    }
    /* on the stack, not malloc'ed: under ASan an allocation per line (its
     * stack trace recorded) cost more than the parsing */
    char upper[FIG_FEP_LINE_CAP];
    for (size_t i = 0; i < len; i++)
        upper[i] = (char)toupper((unsigned char)line[i]);
    fig_action_t ua;
    if (fig_fep_parse_line(upper, len, seat, &ua) != k || ua != a)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[FIG_FEP_LINE_CAP], line[FIG_FEP_LINE_CAP];
    if (size == 0)
        return 0;
    int seat = data[0] & 7;   /* 6 and 7: seats that do not exist */
    size_t chunk = (size_t)(data[0] >> 3) * 7 + 1;
    data++;
    size--;
    size_t len = 0, fed = 0, accounted = 0;
    while (fed < size || len > 0) {
        size_t n = size - fed < chunk ? size - fed : chunk;
        if (n > sizeof buf - len)
            n = sizeof buf - len;
        memcpy(buf + len, data + fed, n);
        len += n;
        fed += n;
        size_t linelen, before = len;
        bool took = false;
        while (fig_fep_split_line(buf, &len, line, &linelen)) {
            took = true;
            if (linelen >= sizeof line || memchr(line, '\n', linelen) || line[linelen] != '\0')
                abort();
            size_t used = before - len;   /* the line, its "\n", perhaps a "\r" */
            if (used != linelen + 1 && used != linelen + 2)
                abort();
            accounted += used;
            before = len;
            check_line(line, linelen, seat);
        }
        if (!took && len == sizeof buf) {   /* a line too long: the host gives up on it */
            accounted += len;
            len = 0;
        }
        if (fed == size && !took) {
            accounted += len;   /* the last, unfinished line */
            len = 0;
        }
    }
    if (accounted != size)
        abort();
    return 0;
}
