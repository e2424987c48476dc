/* SPDX-License-Identifier: MIT */
/* abi.c - sizes and offsets of the public structs for bindings (abi.h).
 *
 * The tables list every struct a binding mirrors, and the fields where a
 * mistake in a mirror would show first (those after arrays and mixed widths).
 * Adding a field to a public struct changes a size here, which the Python
 * tests compare with their mirrors. */
#include <stddef.h>
#include <string.h>

#include "figaro/abi.h"
#include "figaro/batch.h"
#include "figaro/figaro.h"

const char *fig_version(void) { return FIG_VERSION; }

static const struct {
    const char *type;
    size_t size;
} sizes[] = {
    { "fig_hand_t", sizeof(fig_hand_t) },
    { "fig_pile_t", sizeof(fig_pile_t) },
    { "fig_setup_t", sizeof(fig_setup_t) },
    { "fig_public_t", sizeof(fig_public_t) },
    { "fig_state_t", sizeof(fig_state_t) },
    { "fig_event_t", sizeof(fig_event_t) },
    { "fig_events_t", sizeof(fig_events_t) },
    { "fig_view_t", sizeof(fig_view_t) },
    { "fig_move_t", sizeof(fig_move_t) },
    { "fig_game_t", sizeof(fig_game_t) },
    { "fig_msg_t", sizeof(fig_msg_t) },
    { "fig_rng_t", sizeof(fig_rng_t) },
    { "fig_env_t", sizeof(fig_env_t) },
    { "fig_batch_opts_t", sizeof(fig_batch_opts_t) },
    { "fig_batch_out_t", sizeof(fig_batch_out_t) },
};

#define FIELD(t, f) { #t, #f, offsetof(t, f) }
static const struct {
    const char *type, *field;
    size_t offset;
} fields[] = {
    FIELD(fig_setup_t, roads), FIELD(fig_setup_t, seed), FIELD(fig_setup_t, has_seed),
    FIELD(fig_state_t, pub), FIELD(fig_view_t, pub),
    FIELD(fig_state_t, owned), FIELD(fig_state_t, present), FIELD(fig_state_t, hand),
    FIELD(fig_state_t, pile), FIELD(fig_state_t, group), FIELD(fig_state_t, road),
    FIELD(fig_event_t, a), FIELD(fig_event_t, counts), FIELD(fig_event_t, totals),
    FIELD(fig_events_t, ev),
    FIELD(fig_view_t, hand), FIELD(fig_view_t, unseen), FIELD(fig_view_t, pile),
    FIELD(fig_view_t, group), FIELD(fig_view_t, road),
    FIELD(fig_move_t, action),
    FIELD(fig_game_t, has_names), FIELD(fig_game_t, names), FIELD(fig_game_t, dealt),
    FIELD(fig_game_t, hands), FIELD(fig_game_t, nmoves), FIELD(fig_game_t, moves),
    FIELD(fig_game_t, state),
    FIELD(fig_msg_t, line),
    FIELD(fig_env_t, opp), FIELD(fig_env_t, seed), FIELD(fig_env_t, base),
    FIELD(fig_env_t, games), FIELD(fig_env_t, actions), FIELD(fig_env_t, done),
    FIELD(fig_batch_out_t, mask), FIELD(fig_batch_out_t, turn), FIELD(fig_batch_out_t, reward),
    FIELD(fig_batch_out_t, done), FIELD(fig_batch_out_t, final_obs),
};

size_t fig_abi_size(const char *type)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].type, type) == 0)
            return sizes[i].size;
    return 0;
}

size_t fig_abi_offset(const char *type, const char *field)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i].type, type) == 0 && strcmp(fields[i].field, field) == 0)
            return fields[i].offset;
    return (size_t)-1;
}
