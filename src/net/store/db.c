/* SPDX-License-Identifier: MIT */
/* db.c - the storage's front (db.h): the choice of a back end by the
 * storage's URL, and a stored game told again as a record. The hands are not
 * stored: each round is dealt from the setup's seed, as the match dealt it
 * (fig_game_deal_seeded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/store/db.h"

static bool is_sqlite(const char *url) { return strncmp(url, "sqlite:", 7) == 0 && url[7]; }

static bool is_pg(const char *url)
{
    return strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0;
}

bool fig_db_url_known(const char *url) { return is_sqlite(url) || is_pg(url); }

void fig_db_url_shown(const char *url, char *buf, size_t size)
{
    const char *auth = is_pg(url) ? strstr(url, "://") + 3 : NULL;
    const char *at = auth ? strchr(auth, '@') : NULL;
    const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    if (colon && (!strchr(auth, '/') || strchr(auth, '/') > at))
        snprintf(buf, size, "%.*s:***%s", (int)(colon - url), url, at);
    else
        snprintf(buf, size, "%s", url);
}

fig_err_t fig_db_open(fig_db_t **out, const char *url, const fig_db_opts_t *opts,
                      fig_msg_t *msg)
{
    *out = NULL;
    if (is_sqlite(url))
        return fig_db_sqlite_open(out, url + 7, opts, msg);
    if (is_pg(url))
        return fig_db_pg_open(out, url, opts, msg);
    return fig_fail(msg, FIG_ERR_INPUT, N_("database '%.64s': give sqlite:PATH or "
                                           "postgresql://USER@HOST:PORT/DATABASE"), url);
}

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

/* fig_db_take's callback in a lease round: a copy of each table taken. */
static fig_err_t keep_taken(void *ctx, const fig_db_table_t *t, const fig_db_game_t *last,
                            fig_msg_t *msg)
{
    fig_db_taken_t ***tail = ctx;
    fig_db_taken_t *x = calloc(1, sizeof *x);
    if (x && last && !(x->last = malloc(sizeof *x->last))) {
        free(x);
        x = NULL;
    }
    if (!x)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    x->row = *t;
    if (last)
        *x->last = *last;
    **tail = x;
    *tail = &x->next;
    return FIG_OK;
}

fig_err_t fig_db_lease_round(fig_db_t *db, fig_db_lease_t *l, fig_msg_t *msg)
{
    l->taken = NULL;
    fig_db_taken_t **tail = &l->taken;
    if (l->claim[0])
        return fig_db_claim(db, l->claim, l->look ? NULL : keep_taken, &tail, l->owner, msg);
    fig_err_t rc = fig_db_renew(db, l->codes, l->ncodes, l->lost, msg);
    if (!rc && l->take_max > 0)
        rc = fig_db_take(db, l->take_max, keep_taken, &tail, msg);
    fig_msg_t why;   /* the other servers' part of the lobby: not read, the lobby keeps its own */
    if (!rc && l->node[0] && (l->listed = calloc(FIG_DB_LISTED_MAX, sizeof *l->listed)) &&
        fig_db_others_listed(db, l->node, l->listed, FIG_DB_LISTED_MAX, &l->nlisted, &why)) {
        free(l->listed);
        l->listed = NULL;
    }
    return rc;
}

void fig_db_taken_free(fig_db_taken_t *list)
{
    while (list) {
        fig_db_taken_t *x = list;
        list = x->next;
        free(x->last);
        free(x);
    }
}

void fig_db_batch_free(fig_db_batch_t *b) { free(b); }
