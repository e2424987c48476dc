/* SPDX-License-Identifier: MIT */
/* table_people.c - a table and the people who sit at it (table.h,
 * "people"): a seat taken back by its person, a person forgotten, and a
 * game's end as the people keep it: whether it is rated (net/rated.h), its
 * result written in the batch of its last action (FIG_DBW_RESULT: one
 * transaction with the game's end), and the service told once it is
 * stored, for the `rated` messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "figaro/bot.h"
#include "figaro/fgn.h"
#include "host/util.h"
#include "net/rated.h"
#include "net/table.h"
#include "net/table_internal.h"

bool fig_tb_rated_table(const fig_table_t *t)
{
    if (t->row.open || t->row.hints)
        return false;
    for (int s = 0; s < t->row.players; s++) {
        const fig_db_seat_t *x = &t->row.seats[s];
        if (x->kind == FIG_DB_SEAT_ENGINE ||
            (x->kind == FIG_DB_SEAT_BOT && fig_bot_level_index(x->what) < 0))
            return false;
    }
    return true;
}

bool fig_table_may_rate(const fig_table_t *t) { return fig_tb_rated_table(t); }

/* How seat s counts at the game's end (net/rated.h), and its person. */
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
    case FIG_DB_SEAT_OPEN:   /* left during the game: the fill bot ended it */
        break;
    }
    if (!t->left[s][0])
        return FIG_RATED_ANON;
    *person = t->left[s];
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
    size_t flen = fig_fgn_write(g, NULL, 0);
    op_t *big = realloc(op, sizeof *op + sizeof(fig_db_result_t) + flen + 1);
    if (!big) {
        fig_logf(t->env->log, t->env->svc, t->logp,
                 "game %d: its result is not kept for its people: out of memory", t->game);
        return op;
    }
    op = big;
    fig_db_result_t *r = (fig_db_result_t *)(op + 1);
    char *fgn = (char *)(r + 1);
    memset(r, 0, sizeof *r);
    fig_fgn_write(g, fgn, flen + 1);
    r->players = n;
    r->rated = fig_rated_is(t->row.open, t->row.hints, rs, n) && fig_tb_rated_table(t);
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
        snprintf(x->name, sizeof x->name, "%s", names[s]);
        if (rs[s].kind == FIG_RATED_BOT || rs[s].kind == FIG_RATED_ENGINE)
            snprintf(x->level, sizeof x->level, "%s", t->row.seats[s].what);
        /* Rated: the rating's places (leavers last); else the game's. */
        x->place = r->rated ? rk[s].rank : rs[s].place;
        x->fixed = rs[s].kind == FIG_RATED_BOT && rs[s].level >= 0 ? fig_rating_level(rs[s].level)
                                                                   : fig_rating_initial();
    }
    op->result = r;
    fig_db_write_t *w = fig_tb_op_write(t, op, FIG_DBW_RESULT);
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

fig_proto_code_t fig_table_resume_person(fig_table_t *t, void *p, const fig_tr_t *tr,
                                         const char *person, const fig_table_since_t *since,
                                         fig_msg_t *msg)
{
    int seat = -1;
    for (int s = 0; s < t->row.players && person[0]; s++)
        if (t->row.seats[s].kind == FIG_DB_SEAT_PERSON && strcmp(t->row.seats[s].person, person) == 0)
            seat = s;
    if (seat < 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("you hold no seat at table %s"), t->row.code);
        return FIG_PC_NOT_YOUR_SEAT;
    }
    return fig_tb_resume_seat(t, p, tr, seat, since, msg);
}

void fig_table_forget_person(fig_table_t *t, const char *person)
{
    if (!person[0])
        return;
    for (int s = 0; s < t->row.players; s++) {
        if (strcmp(t->left[s], person) == 0)
            t->left[s][0] = '\0';
        fig_db_seat_t *x = &t->row.seats[s];
        if (x->kind != FIG_DB_SEAT_PERSON || strcmp(x->person, person) != 0)
            continue;
        x->person[0] = '\0';
        /* "Anonymous", numbered as join numbers a name another seat has. */
        name_t names[FIG_MAX_PLAYERS];
        fig_tb_seat_names(t, names);
        char want[FIG_PROTO_NAME_BYTES + 1] = "Anonymous";
        for (int k = 2; k < 100; k++) {
            bool clash = false;
            for (int o = 0; o < t->row.players; o++)
                clash |= o != s && strcasecmp(names[o], want) == 0;
            if (!clash)
                break;
            snprintf(want, sizeof want, "Anonymous%d", k);
        }
        snprintf(x->name, sizeof x->name, "%s", want);
    }
}
