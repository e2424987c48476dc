/* SPDX-License-Identifier: MIT */
/* db_result.c - a finished game as the people who played it keep it
 * (FIG_DBW_RESULT, db.h): their ratings moved once by fig_rating_update,
 * a `played` row each, the game's record once; inside the transaction of
 * the game's last action (fig_db_apply), so that the game's end and the
 * ratings are stored together or not at all. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "net/store/db_sql.h"

static const char *const kind_names[] = { "person", "anonymous", "bot", "engine" };

static fig_err_t check_result(const fig_db_result_t *r, fig_msg_t *msg)
{
    bool seen[FIG_MAX_PLAYERS + 1] = { false };
    bool ok = r && r->fgn && r->players >= FIG_MIN_PLAYERS && r->players <= FIG_MAX_PLAYERS;
    for (int i = 0; ok && i < r->players; i++) {
        const fig_db_result_seat_t *s = &r->seats[i];
        ok = s->place >= 1 && s->place <= r->players && !seen[s->place] &&
             (unsigned)s->kind <= FIG_DB_RS_ENGINE &&
             (s->kind != FIG_DB_RS_PERSON || strlen(s->person) == FIG_PERSON_ID_LEN) &&
             memchr(s->name, 0, sizeof s->name) && memchr(s->level, 0, sizeof s->level);
        json_t *utf8[] = { ok ? json_string(s->name) : NULL, ok ? json_string(s->level) : NULL };
        ok = ok && utf8[0] && utf8[1];   /* the seats' JSON can hold them */
        json_decref(utf8[0]);
        json_decref(utf8[1]);
        if (ok)
            seen[s->place] = true;
    }
    return ok ? FIG_OK
              : fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad result of a game");
}

typedef struct {
    fig_rating_t r;
    bool found;
} rating_row_t;

static fig_err_t rating_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    rating_row_t *x = ctx;
    if (n >= 2) {
        x->r.mu = fig_db_col_real(col[0]);
        x->r.sigma = fig_db_col_real(col[1]);
        x->found = true;
    }
    return FIG_OK;
}

/* The seats as fig_rating_update takes them: the persons stored (their
 * first seat: mine[i]) at their rating read (locked, in the order of
 * their ids: two games ending at once lock alike, never crosswise), the
 * rest fixed. */
static fig_err_t read_ratings(fig_db_t *db, fig_db_result_t *r, fig_rating_seat_t in[],
                              bool mine[], fig_msg_t *msg)
{
    int owner[FIG_MAX_PLAYERS], order[FIG_MAX_PLAYERS], n = 0;
    for (int i = 0; i < r->players; i++) {
        in[i] = (fig_rating_seat_t){ r->seats[i].fixed, r->seats[i].place, true };
        mine[i] = false;
        owner[i] = -1;
        for (int j = 0; j < i && owner[i] < 0; j++)
            if (r->seats[i].kind == FIG_DB_RS_PERSON && r->seats[j].kind == FIG_DB_RS_PERSON &&
                strcmp(r->seats[i].person, r->seats[j].person) == 0)
                owner[i] = j;
        if (r->seats[i].kind == FIG_DB_RS_PERSON && owner[i] < 0) {
            int k = n++;   /* insertion by id */
            for (; k > 0 && strcmp(r->seats[order[k - 1]].person, r->seats[i].person) > 0; k--)
                order[k] = order[k - 1];
            order[k] = i;
        }
    }
    for (int k = 0; k < n; k++) {
        int i = order[k];
        rating_row_t x = { fig_rating_initial(), false };
        fig_dbp_t p[] = { FIG_DBP_T(r->seats[i].person) };
        fig_err_t rc = fig_dbq(db, db->ops->sql->pg
                                   ? "SELECT mu, sigma FROM people WHERE id = $1 FOR UPDATE"
                                   : "SELECT mu, sigma FROM people WHERE id = $1",
                               p, 1, rating_row, &x, msg);
        if (rc)
            return rc;
        in[i].rating = x.r;   /* forgotten meanwhile: a person not signed in */
        in[i].fixed = !x.found;
        mine[i] = x.found;
    }
    for (int i = 0; i < r->players; i++) {
        if (owner[i] >= 0)
            in[i].rating = in[owner[i]].rating;
        r->seats[i].before = r->seats[i].after = in[i].rating;
    }
    return FIG_OK;
}

/* Every seat as the played row of seat `me` shows it (db.h's
 * fig_db_played_t.seats); NULL when out of memory. */
static char *seats_json(const fig_db_result_t *r, const bool mine[], int me)
{
    json_t *a = json_array();
    for (int s = 0; a && s < r->players; s++) {
        const fig_db_result_seat_t *x = &r->seats[s];
        bool gone = x->kind == FIG_DB_RS_PERSON && !mine[s] &&
                    strcmp(x->person, r->seats[me].person) != 0;   /* forgotten */
        const char *kind = s == me ? "me" : gone ? "anonymous" : kind_names[x->kind];
        json_t *o = json_pack("{s:s, s:s}", "kind", kind, "name", x->name);
        if (o && x->kind == FIG_DB_RS_PERSON && s != me && !gone)
            json_object_set_new(o, "id", json_string(x->person));
        if (o && (x->kind == FIG_DB_RS_BOT || x->kind == FIG_DB_RS_ENGINE))
            json_object_set_new(o, "level", json_string(x->level));
        if (o)
            json_object_set_new(o, "place", json_integer(x->place));
        if (!o || json_array_append_new(a, o)) {
            json_decref(a);
            a = NULL;
        }
    }
    char *text = a ? json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(a);
    return text;
}

static fig_err_t one_ll(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    if (n >= 1)
        *(long long *)ctx = fig_db_col_ll(col[0]);
    return FIG_OK;
}

/* Person seat i's new rating and played row (pointing at record). */
static fig_err_t store_one(fig_db_t *db, const char *code, int game, const fig_db_result_t *r,
                           const bool mine[], int i, long long record, fig_msg_t *msg)
{
    const fig_db_result_seat_t *x = &r->seats[i];
    fig_dbp_t u[] = { FIG_DBP_T(x->person), FIG_DBP_R(x->after.mu), FIG_DBP_R(x->after.sigma),
                      FIG_DBP_I(r->rated ? 1 : 0) };
    fig_err_t rc = fig_dbq(db, "UPDATE people SET mu = $2, sigma = $3, rated = rated + $4 "
                           "WHERE id = $1", u, 4, NULL, NULL, msg);
    long long idx = -1;
    if (!rc)
        rc = fig_dbq(db, "SELECT COALESCE(MAX(idx), -1) FROM played WHERE person = $1", u, 1,
                     one_ll, &idx, msg);
    if (rc)
        return rc;
    char *seats = seats_json(r, mine, i);
    if (!seats)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    fig_dbp_t p[] = { FIG_DBP_T(x->person), FIG_DBP_I(idx + 1), FIG_DBP_T(code),
                      FIG_DBP_I(game), FIG_DBP_I(i), FIG_DBP_I(r->players),
                      FIG_DBP_I(x->place), FIG_DBP_B(r->rated), FIG_DBP_R(x->after.mu),
                      FIG_DBP_R(x->after.sigma), FIG_DBP_I(r->ended), FIG_DBP_T(seats),
                      FIG_DBP_I(record) };
    rc = fig_dbq(db, "INSERT INTO played (person, idx, code, game, seat, players, place, rated, "
                 "mu, sigma, ended, seats, record) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
                 "$10, $11, $12, $13)", p, 13, NULL, NULL, msg);
    free(seats);
    return rc;
}

fig_err_t fig_db_result_write(fig_db_t *db, const char *code, int game, fig_db_result_t *r,
                              fig_msg_t *msg)
{
    fig_err_t rc = check_result(r, msg);
    fig_rating_seat_t in[FIG_MAX_PLAYERS];
    fig_rating_t out[FIG_MAX_PLAYERS];
    bool mine[FIG_MAX_PLAYERS], any = false;
    if (rc || (rc = read_ratings(db, r, in, mine, msg)))
        return rc;
    for (int i = 0; i < r->players; i++)
        any = any || mine[i];
    if (r->rated && any && (rc = fig_rating_update(in, r->players, out, msg)))
        return rc;
    for (int i = 0; i < r->players; i++)
        if (mine[i] && r->rated)
            r->seats[i].after = out[i];
    if (!any)
        return FIG_OK;   /* nobody to keep it */
    long long record = -1;
    fig_dbp_t f[] = { FIG_DBP_T(r->fgn) };
    if ((rc = fig_dbq(db, "INSERT INTO records (fgn) VALUES ($1) RETURNING id", f, 1, one_ll,
                      &record, msg)))
        return rc;
    for (int i = 0; i < r->players && !rc; i++)
        if (mine[i])
            rc = store_one(db, code, game, r, mine, i, record, msg);
    return rc;
}
