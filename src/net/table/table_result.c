/* SPDX-License-Identifier: MIT */
/* table_result.c - a game's end as the people who played it keep it
 * (table_internal.h): whether it is rated (net/table/rated.h), its result
 * written in the batch of its last action (FIG_DBW_RESULT: one transaction
 * with the game's end), and the service told once it is stored, for the
 * `rated` messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figaro/bot.h"
#include "figaro/fgn.h"
#include "host/util.h"
#include "net/table/rated.h"
#include "net/table/table.h"
#include "net/table/table_internal.h"

/* How seat s counts at the game's end (net/table/rated.h), and its person. */
static fig_rated_kind_t seat_kind(const fig_table_t *t, int s, const char **person)
{
    const fig_db_seat_t *x = &t->row.seats[s];
    *person = "";
    switch (x->kind) {
    case FIG_DB_SEAT_BOT:
        return FIG_RATED_BOT;
    case FIG_DB_SEAT_ENGINE:
        return FIG_RATED_ENGINE;
    case FIG_DB_SEAT_PERSON:
        if (!x->person[0])
            return FIG_RATED_ANON;
        *person = x->person;
        return t->seat[s].bot_plays ? FIG_RATED_LEFT : FIG_RATED_PERSON;
    case FIG_DB_SEAT_OPEN:   /* the fill bot ended it; its person: who left it meanwhile */
        break;
    }
    if (!x->person[0])
        return FIG_RATED_ANON;
    *person = x->person;
    return FIG_RATED_LEFT;
}

/* The game is over with op's action (applied in the match, not stored
 * yet): when a signed-in person took part, its result rides in the same
 * batch. The op grows to hold it (one block: whoever frees the op frees
 * it). Out of memory, the game ends unrecorded for the people (logged). */
op_t *fig_tb_with_result(fig_table_t *t, op_t *op)
{
    const fig_game_t *g = fig_match_game(t->match);
    int n = t->row.players;
    fig_rated_seat_t rs[FIG_MAX_PLAYERS];
    const char *person[FIG_MAX_PLAYERS];
    int ranking[FIG_MAX_PLAYERS];
    bool anyone = false;
    fig_state_ranking(&g->state, ranking);
    for (int k = 0; k < n; k++)
        rs[ranking[k]].place = k + 1;
    for (int s = 0; s < n; s++) {
        rs[s].kind = seat_kind(t, s, &person[s]);
        rs[s].level = rs[s].kind == FIG_RATED_BOT ? fig_bot_level_index(t->row.seats[s].what) : -1;
        anyone |= person[s][0] != '\0';
    }
    if (!anyone)
        return op;
    /* The record with the names the table shows now (a person forgotten
     * during the game is Anonymous there), as its download gives them. */
    fig_game_t *rec = malloc(sizeof *rec);
    size_t flen = 0;
    op_t *big = NULL;
    if (rec) {
        *rec = *g;
        rec->has_names = true;
        fig_tb_record_names(t, rec->names);
        flen = fig_fgn_write(rec, NULL, 0);
        big = realloc(op, sizeof *op + sizeof(fig_db_result_t) + flen + 1);
    }
    if (!big) {
        free(rec);
        fig_logf(t->env->log, t->env->svc, t->logp,
                 "game %d: its result is not kept for its people: out of memory", t->game);
        return op;
    }
    op = big;
    fig_db_result_t *r = (fig_db_result_t *)(op + 1);
    char *fgn = (char *)(r + 1);
    memset(r, 0, sizeof *r);
    fig_fgn_write(rec, fgn, flen + 1);
    free(rec);
    r->players = n;
    r->rated = fig_rated_is(t->row.open, t->row.hints, rs, n) && fig_rated_table(&t->row);
    r->ended = (long long)time(NULL);
    r->fgn = fgn;
    fig_rating_seat_t rk[FIG_MAX_PLAYERS];
    fig_rated_seats(rs, n, rk);
    name_t names[FIG_MAX_PLAYERS];
    fig_tb_seat_names(t, names);
    for (int s = 0; s < n; s++) {
        fig_db_result_seat_t *x = &r->seats[s];
        x->kind = person[s][0] ? FIG_DB_RS_PERSON
                  : rs[s].kind == FIG_RATED_BOT ? FIG_DB_RS_BOT
                  : rs[s].kind == FIG_RATED_ENGINE ? FIG_DB_RS_ENGINE : FIG_DB_RS_ANONYMOUS;
        snprintf(x->person, sizeof x->person, "%s", person[s]);
        memcpy(x->name, names[s], sizeof x->name);   /* both FIG_PERSON_NAME_BYTES + 1 */
        if (rs[s].kind == FIG_RATED_BOT || rs[s].kind == FIG_RATED_ENGINE)
            snprintf(x->level, sizeof x->level, "%s", t->row.seats[s].what);
        /* Rated: the rating's places (leavers last); else the game's. */
        x->place = r->rated ? rk[s].rank : rs[s].place;
        x->fixed = rs[s].kind == FIG_RATED_BOT && rs[s].level >= 0 ? fig_rating_level(rs[s].level)
                                                                   : fig_rating_initial();
    }
    op->result = r;
    fig_db_write_t *w = &op->b.w[op->b.n++];   /* before the events' (fig_tb_submit) */
    w->kind = FIG_DBW_RESULT;
    snprintf(w->code, sizeof w->code, "%s", t->row.code);
    w->game = t->game;
    w->result = r;
    return op;
}

/* The game's end is stored with its result: the service tells the people
 * their new ratings. */
void fig_tb_result_stored(fig_table_t *t, const op_t *op)
{
    if (op->result->rated && t->env->rated)
        t->env->rated(t->env->svc, t->row.code, t->game, op->result);
}

