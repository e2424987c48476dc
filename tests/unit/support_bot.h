/* SPDX-License-Identifier: MIT */
/* support_bot.h - a bot for the unit tests that need one. Apart from support.h
 * because the fuzzers link support.c but no bots; this one stops the test with
 * cmocka's fail_msg when the spec is refused. */
#ifndef FIGARO_TESTS_SUPPORT_BOT_H
#define FIGARO_TESTS_SUPPORT_BOT_H

#include <stdint.h>

#include "figaro/bot.h"

/* A bot from a spec (bot.h) with that seed; fails the test if it cannot be
 * made, saying why. */
fig_bot_t *make_bot(const char *spec, uint64_t seed);

#endif
