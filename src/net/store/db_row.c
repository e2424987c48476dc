/* SPDX-License-Identifier: MIT */
/* db_row.c - what the storage's back ends share (db_row.h): the text forms
 * of what they store alike, and the checks of what they read back. */
#include <stdlib.h>
#include <string.h>

#include "host/util.h"
#include "net/store/db_row.h"

static const char *const kind_names[] = { "open", "person", "bot", "engine" };

const char *fig_db_kind_name(fig_db_seat_kind_t kind) { return kind_names[kind]; }

void fig_db_roads_text(const fig_setup_t *setup, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < setup->players - 1; i++)
            fig_putf(buf, size, &len, "%s%u", i ? " " : r ? "/" : "",
                     (unsigned)setup->roads[r][i]);
}

/* Reads "15 9 2/14 11 1/13 8 3" into setup->roads. */
static bool parse_roads(const char *text, fig_setup_t *setup)
{
    const char *p = text;
    for (int r = 0; r < FIG_ROUNDS; r++) {
        for (int i = 0; i < setup->players - 1; i++) {
            char *end;
            unsigned long v = strtoul(p, &end, 10);
            if (end == p || v == 0 || v > FIG_MAX_ROAD)
                return false;
            setup->roads[r][i] = (uint16_t)v;
            p = end;
            if (*p == ' ')
                p++;
        }
        if (r < FIG_ROUNDS - 1 && *p++ != '/')
            return false;
    }
    return *p == '\0';
}

fig_err_t fig_db_setup_read(fig_db_game_t *out, const char *code, int game, int players,
                            int removed, int king, const char *roads, uint64_t seed,
                            long long ev, fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    out->game = game;
    fig_setup_t *u = &out->setup;
    u->players = players;
    u->removed = removed;
    u->king = king;
    u->seed = seed;
    u->has_seed = true;
    out->ev = ev;
    if (u->players < FIG_MIN_PLAYERS || u->players > FIG_MAX_PLAYERS ||
        !parse_roads(roads, u) || fig_setup_check(u, NULL) != FIG_OK)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: game %d of table %s: bad setup"),
                        game, code);
    return FIG_OK;
}

fig_err_t fig_db_action_read(fig_db_game_t *g, const char *code, int idx, int seat,
                             const char *text, long long ev, fig_msg_t *msg)
{
    fig_action_t a = fig_act_parse(text, strlen(text), seat);
    if (idx != g->nactions || g->nactions >= FIG_DB_GAME_ACTIONS || seat < 0 ||
        seat >= g->setup.players || a == FIG_ACT_NONE)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: game %d of table %s: bad action %d"),
                        g->game, code, idx);
    fig_db_action_t *x = &g->actions[g->nactions++];
    x->seat = (uint8_t)seat;
    x->action = a;
    x->ev = ev;
    return FIG_OK;
}

fig_err_t fig_db_table_read(fig_db_table_t *t, const char *code, const char *fill,
                            fig_msg_t *msg)
{
    if (strlen(code) != FIG_TABLE_CODE_LEN || !fig_level_ok(fill) ||
        t->players < FIG_MIN_PLAYERS || t->players > FIG_MAX_PLAYERS)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: a bad table row (%s)"), code);
    strcpy(t->code, code);
    strcpy(t->fill, fill);
    return FIG_OK;
}

fig_err_t fig_db_seat_read(fig_db_table_t *t, int n, int seat, const char *kind,
                           const char *what, const char *name, const char *token_hash,
                           int rematch, const char *person, fig_msg_t *msg)
{
    int k;
    for (k = 0; k < 4 && strcmp(kind, kind_names[k]); k++)
        ;
    fig_db_seat_t *x = &t->seats[seat < FIG_MAX_PLAYERS && seat >= 0 ? seat : 0];
    if (seat != n || seat >= t->players || k == 4 || strlen(what) >= sizeof x->what ||
        strlen(name) >= sizeof x->name || strlen(token_hash) >= sizeof x->token_hash ||
        strlen(person) >= sizeof x->person)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: table %s: bad seat %d"), t->code,
                        seat);
    x->kind = (fig_db_seat_kind_t)k;
    strcpy(x->what, what);
    strcpy(x->name, name);
    strcpy(x->token_hash, token_hash);
    x->rematch = rematch;
    strcpy(x->person, person);
    return FIG_OK;
}

