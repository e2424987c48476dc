/* SPDX-License-Identifier: MIT */
/* abi_ai.c - sizes and offsets of the ai layer's public structs for bindings
 * (bot.h: the search's analysis), as abi.c does for the core's. */
#include <stddef.h>
#include <string.h>

#include "figaro/bot.h"

static const struct {
    const char *type;
    size_t size;
} sizes[] = {
    { "fig_move_stat_t", sizeof(fig_move_stat_t) },
    { "fig_analysis_t", sizeof(fig_analysis_t) },
};

#define FIELD(t, f) { #t, #f, offsetof(t, f) }
static const struct {
    const char *type, *field;
    size_t offset;
} fields[] = {
    FIELD(fig_move_stat_t, visits), FIELD(fig_move_stat_t, share), FIELD(fig_move_stat_t, place),
    FIELD(fig_move_stat_t, collect), FIELD(fig_move_stat_t, collect_next),
    FIELD(fig_move_stat_t, made_by),
    FIELD(fig_analysis_t, n), FIELD(fig_analysis_t, iterations), FIELD(fig_analysis_t, moves),
};

size_t fig_ai_abi_size(const char *type)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].type, type) == 0)
            return sizes[i].size;
    return 0;
}

size_t fig_ai_abi_offset(const char *type, const char *field)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i].type, type) == 0 && strcmp(fields[i].field, field) == 0)
            return fields[i].offset;
    return (size_t)-1;
}
