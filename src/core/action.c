/* SPDX-License-Identifier: MIT */
/* action.c - actions in FGN syntax: "R2>1", "J1>3", "RING", "take". */
#include <ctype.h>
#include <stdio.h>

#include "figaro/action.h"
#include "figaro/card.h"

const char *fig_act_format(fig_action_t a, char *buf, size_t cap)
{
    if (fig_act_is_take(a))
        snprintf(buf, cap, "take");
    else if (fig_act_kind(a) == FIG_RING)
        snprintf(buf, cap, "RING");
    else
        snprintf(buf, cap, "%s>%d", fig_kind_code(fig_act_kind(a)), fig_act_target(a));
    return buf;
}

static int equal_nocase(const char *s, size_t len, const char *word)
{
    size_t i = 0;
    for (; i < len && word[i]; i++)
        if (tolower((unsigned char)s[i]) != tolower((unsigned char)word[i]))
            return 0;
    return i == len && word[i] == '\0';
}

fig_action_t fig_act_parse(const char *s, size_t len, int actor)
{
    if (equal_nocase(s, len, "take"))
        return FIG_ACT_TAKE;
    size_t gt = 0;
    while (gt < len && s[gt] != '>')
        gt++;
    int kind = fig_kind_parse(s, gt);
    if (kind < 0)
        return FIG_ACT_NONE;
    if (gt == len)   /* no target: only a ring may omit it, it goes to the actor */
        return kind == FIG_RING && actor >= 0 && actor < FIG_MAX_PLAYERS
                   ? fig_act_play(FIG_RING, actor) : FIG_ACT_NONE;
    if (len - gt != 2 || !isdigit((unsigned char)s[gt + 1]))
        return FIG_ACT_NONE;
    int target = s[gt + 1] - '0';
    if (target >= FIG_MAX_PLAYERS)
        return FIG_ACT_NONE;
    return fig_act_play(kind, target);
}
