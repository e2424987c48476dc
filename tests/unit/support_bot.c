/* SPDX-License-Identifier: MIT */
/* support_bot.c - see support_bot.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support_bot.h"

fig_bot_t *make_bot(const char *spec, uint64_t seed)
{
    fig_bot_t *bot = NULL;
    fig_msg_t msg;
    if (fig_bot_new(&bot, spec, seed, &msg) != FIG_OK)
        fail_msg("fig_bot_new(%s): %s", spec, msg.text);
    return bot;
}
