/* SPDX-License-Identifier: MIT */
/* action.h - what a player does on a turn (R5).
 *
 * An action is a 16-bit value: a play is (card kind, target seat), since cards
 * of one kind are interchangeable (R6); a take is one flag. Actions are values:
 * compare them with ==. */
#ifndef FIGARO_ACTION_H
#define FIGARO_ACTION_H

#include <stddef.h>
#include <stdint.h>

typedef uint16_t fig_action_t;   /* bits 0-4 kind, 5-7 target seat; 0x8000 take */

#define FIG_ACT_TAKE ((fig_action_t)0x8000)
#define FIG_ACT_NONE ((fig_action_t)0xFFFF)

/* The most legal actions a position can have: 15 colour kinds x 6 targets,
 * 2 jesters x 6, a ring and a take fit easily in this bound. */
enum { FIG_MAX_ACTIONS = 128 };

static inline fig_action_t fig_act_play(int kind, int target)
{
    return (fig_action_t)(kind | target << 5);
}
static inline int fig_act_is_take(fig_action_t a) { return a == FIG_ACT_TAKE; }
static inline int fig_act_kind(fig_action_t a) { return a & 31; }
static inline int fig_act_target(fig_action_t a) { return a >> 5 & 7; }

/* Writes an action in FGN syntax ("R2>1", "RING", "take") into buf (cap >= 8
 * is always enough) and returns buf. */
const char *fig_act_format(fig_action_t a, char *buf, size_t cap);

/* Parses an action in FGN syntax, case-insensitive, from exactly `len`
 * characters: "<card>><seat>", "RING", "RING><seat>" or "take". `actor` is the
 * seat playing, used to fill in the ring's target. Returns FIG_ACT_NONE if the
 * text is not an action (semantic legality is checked by fig_state_check). */
fig_action_t fig_act_parse(const char *s, size_t len, int actor);

#endif
