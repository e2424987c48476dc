/* db.c - what every storage back end shares (db.h): a stored game told
 * again as a record. The hands are not stored: each round is dealt from the
 * setup's seed, as the match dealt it (fig_game_deal_seeded). */
#include <string.h>

#include "net/db.h"

fig_err_t fig_db_game_record(const fig_db_game_t *g, fig_game_t *out, fig_msg_t *msg)
{
    fig_setup_t setup = g->setup;
    fig_err_t rc = fig_setup_check(&setup, msg);
    if (rc)
        return rc;
    fig_game_init(out, &setup);
    for (int i = 0; i < g->nactions; i++) {
        if (out->state.phase == FIG_PHASE_DEAL)
            fig_game_deal_seeded(out);
        const fig_db_action_t *a = &g->actions[i];
        if (out->state.phase != FIG_PHASE_PLAY || a->seat != out->state.turn)
            return fig_fail(msg, FIG_ERR_INPUT, N_("stored action %d is not seat %d's to play"),
                            i, a->seat);
        if ((rc = fig_game_play(out, a->action, NULL, msg)))
            return rc;
    }
    return FIG_OK;
}
