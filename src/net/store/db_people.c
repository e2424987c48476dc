/* SPDX-License-Identifier: MIT */
/* db_people.c - the people calls of the storage (db.h): a person, their
 * keys and device codes, the lists, the games they played; on either back
 * end through the statements both share (db_sql.h). Keys and codes come and
 * go as their SHA-256 only, and nothing here logs. Forget me is
 * db_forget.c's, a game's result db_result.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/store/db_sql.h"

#define PERSON_COLS "p.id, p.name, p.mu, p.sigma, p.rated, p.hidden, p.created"

fig_err_t fig_db_txn(fig_db_t *db, fig_err_t (*body)(fig_db_t *db, void *ctx, fig_msg_t *msg),
                     void *ctx, fig_msg_t *msg)
{
    const struct fig_db_sql *q = db->ops->sql;
    fig_err_t rc = q->begin(db, msg);
    if (rc)
        return rc;
    if (!(rc = body(db, ctx, msg)) && !(rc = q->commit(db, msg)))
        return FIG_OK;
    q->rollback(db);
    return rc;
}

bool fig_db_col_bool(const char *v) { return v[0] == 't' || v[0] == '1'; }

long long fig_db_col_ll(const char *v) { return strtoll(v, NULL, 10); }

double fig_db_col_real(const char *v) { return strtod(v, NULL); }

void fig_db_anonymous(const char *const *names, int n, char out[FIG_PERSON_NAME_BYTES + 1])
{
    for (int k = 1; k < 1000; k++) {
        snprintf(out, FIG_PERSON_NAME_BYTES + 1, k == 1 ? "Anonymous" : "Anonymous%d", k);
        bool clash = false;
        for (int i = 0; i < n && !clash; i++)
            clash = names[i] && strcasecmp(names[i], out) == 0;
        if (!clash)
            return;
    }
}

/* A person's row (PERSON_COLS) into the fig_db_person_t ctx. */
static fig_err_t person_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    fig_db_person_t *p = ctx;
    if (n < 7 || strlen(col[0]) != FIG_PERSON_ID_LEN || strlen(col[1]) >= sizeof p->name)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad person");
    strcpy(p->id, col[0]);
    strcpy(p->name, col[1]);
    p->mu = fig_db_col_real(col[2]);
    p->sigma = fig_db_col_real(col[3]);
    p->rated = (int)fig_db_col_ll(col[4]);
    p->hidden = fig_db_col_bool(col[5]);
    p->created = fig_db_col_ll(col[6]);
    return FIG_OK;
}

/* Person `id` into *out (out->id "" when none). */
static fig_err_t get(fig_db_t *db, const char *id, fig_db_person_t *out, fig_msg_t *msg)
{
    char who[FIG_PERSON_ID_LEN + 1];   /* id may be out->id */
    snprintf(who, sizeof who, "%s", id);
    memset(out, 0, sizeof *out);
    if (strlen(id) != FIG_PERSON_ID_LEN)
        return FIG_OK;   /* no such id (never cut to one that is) */
    fig_dbp_t p[] = { FIG_DBP_T(who) };
    return fig_dbq(db, "SELECT " PERSON_COLS " FROM people p WHERE p.id = $1", p, 1,
                   person_row, out, msg);
}

fig_err_t fig_db_person_get(fig_db_t *db, const char *id, fig_db_person_t *out,
                            fig_msg_t *msg)
{
    return get(db, id, out, msg);
}

typedef struct {
    char id[FIG_PERSON_ID_LEN + 1];         /* the person the call is about */
    const char *name, *key_hash, *code_hash;
    long long now;
    int hidden;
    fig_db_person_t *out;
    bool found;
} call_t;

static fig_err_t person_new_body(fig_db_t *db, void *ctx, fig_msg_t *msg)
{
    call_t *c = ctx;
    fig_rating_t r = fig_rating_initial();
    fig_dbp_t p[] = { FIG_DBP_T(c->id), FIG_DBP_T(c->name), FIG_DBP_R(r.mu),
                      FIG_DBP_R(r.sigma), FIG_DBP_I(c->now) };
    fig_err_t rc = fig_dbq(db, "INSERT INTO people (id, name, mu, sigma, rated, hidden, "
                           "created) VALUES ($1, $2, $3, $4, 0, false, $5)", p, 5, NULL, NULL,
                           msg);
    fig_dbp_t k[] = { FIG_DBP_T(c->key_hash), FIG_DBP_T(c->id), FIG_DBP_I(c->now) };
    if (!rc)
        rc = fig_dbq(db, "INSERT INTO person_keys (hash, person, created) VALUES ($1, $2, $3)",
                     k, 3, NULL, NULL, msg);
    return rc ? rc : get(db, c->id, c->out, msg);
}

fig_err_t fig_db_person_new(fig_db_t *db, const char *name, const char *key_hash,
                            long long now, fig_db_person_t *out, fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    if (!name[0] || strlen(name) > FIG_PERSON_NAME_BYTES || strlen(key_hash) != FIG_HASH_HEX)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad new person");
    call_t c = { .name = name, .key_hash = key_hash, .now = now, .out = out };
    fig_err_t rc = FIG_ERR_STATE;
    /* A clash of ids (1 in 31^10 per person stored) is drawn again. */
    for (int tries = 0; tries < 5 && rc == FIG_ERR_STATE; tries++) {
        if ((rc = fig_code_new(c.id, FIG_PERSON_ID_LEN, msg)))
            return rc;
        rc = fig_db_txn(db, person_new_body, &c, msg);
    }
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* A person found by a key's hash: the hash compared again in constant time. */
static fig_err_t keyed_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    call_t *c = ctx;
    if (n < 8 || !fig_hash_equal(col[7], c->key_hash))
        return FIG_OK;
    return person_row(c->out, col, n, msg);
}

fig_err_t fig_db_person_by_key(fig_db_t *db, const char *key_hash, fig_db_person_t *out,
                               fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    call_t c = { .key_hash = key_hash, .out = out };
    fig_dbp_t p[] = { FIG_DBP_T(key_hash) };
    return fig_dbq(db, "SELECT " PERSON_COLS ", k.hash FROM people p JOIN person_keys k "
                   "ON k.person = p.id WHERE k.hash = $1", p, 1, keyed_row, &c, msg);
}

static fig_err_t person_set_body(fig_db_t *db, void *ctx, fig_msg_t *msg)
{
    call_t *c = ctx;
    fig_err_t rc = get(db, c->id, c->out, msg);
    if (rc || !c->out->id[0])
        return rc;
    fig_dbp_t p[] = { FIG_DBP_T(c->id), FIG_DBP_T(c->name) };
    fig_dbp_t h[] = { FIG_DBP_T(c->id), FIG_DBP_B(c->hidden > 0) };
    if (c->name)
        rc = fig_dbq(db, "UPDATE people SET name = $2 WHERE id = $1", p, 2, NULL, NULL, msg);
    if (!rc && c->hidden >= 0)
        rc = fig_dbq(db, "UPDATE people SET hidden = $2 WHERE id = $1", h, 2, NULL, NULL, msg);
    return rc ? rc : get(db, c->id, c->out, msg);
}

fig_err_t fig_db_person_set(fig_db_t *db, const char *id, const char *name, int hidden,
                            fig_db_person_t *out, fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    if (name && (!name[0] || strlen(name) > FIG_PERSON_NAME_BYTES))
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad name");
    call_t c = { .name = name, .hidden = hidden, .out = out };
    snprintf(c.id, sizeof c.id, "%s", id);
    if (strlen(id) != FIG_PERSON_ID_LEN)
        return FIG_OK;
    fig_err_t rc = fig_db_txn(db, person_set_body, &c, msg);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* Whether person c->id is stored (c->found). */
static fig_err_t found_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)col;
    (void)n;
    (void)msg;
    ((call_t *)ctx)->found = true;
    return FIG_OK;
}

static fig_err_t exists(fig_db_t *db, call_t *c, fig_msg_t *msg)
{
    c->found = false;
    fig_dbp_t p[] = { FIG_DBP_T(c->id) };
    return fig_dbq(db, db->ops->sql->pg ? "SELECT 1 FROM people WHERE id = $1 FOR UPDATE"
                                         : "SELECT 1 FROM people WHERE id = $1",
                   p, 1, found_row, c, msg);
}

static fig_err_t key_add_body(fig_db_t *db, void *ctx, fig_msg_t *msg)
{
    call_t *c = ctx;
    fig_err_t rc = exists(db, c, msg);
    fig_dbp_t k[] = { FIG_DBP_T(c->key_hash), FIG_DBP_T(c->id), FIG_DBP_I(c->now) };
    if (!rc && c->found)
        rc = fig_dbq(db, "INSERT INTO person_keys (hash, person, created) VALUES ($1, $2, $3)",
                     k, 3, NULL, NULL, msg);
    return rc;
}

fig_err_t fig_db_key_add(fig_db_t *db, const char *id, const char *key_hash, long long now,
                         bool *found, fig_msg_t *msg)
{
    call_t c = { .key_hash = key_hash, .now = now };
    snprintf(c.id, sizeof c.id, "%s", id);
    *found = false;
    if (strlen(id) != FIG_PERSON_ID_LEN)
        return FIG_OK;
    if (strlen(key_hash) != FIG_HASH_HEX)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad key");
    fig_err_t rc = fig_db_txn(db, key_add_body, &c, msg);
    *found = !rc && c.found;
    return rc;
}

fig_err_t fig_db_key_drop(fig_db_t *db, const char *key_hash, fig_msg_t *msg)
{
    fig_dbp_t p[] = { FIG_DBP_T(key_hash) };
    return fig_dbq(db, "DELETE FROM person_keys WHERE hash = $1", p, 1, NULL, NULL, msg);
}

static fig_err_t code_new_body(fig_db_t *db, void *ctx, fig_msg_t *msg)
{
    call_t *c = ctx;
    fig_err_t rc = exists(db, c, msg);
    if (rc || !c->found)
        return rc;
    fig_dbp_t p[] = { FIG_DBP_T(c->id), FIG_DBP_I(c->now) };
    fig_dbp_t q[] = { FIG_DBP_T(c->code_hash), FIG_DBP_T(c->id),
                      FIG_DBP_I(c->now + FIG_DB_DEVICE_CODE_S) };
    rc = fig_dbq(db, "DELETE FROM device_codes WHERE person = $1 OR expires <= $2", p, 2, NULL,
                 NULL, msg);
    return rc ? rc : fig_dbq(db, "INSERT INTO device_codes (hash, person, expires) "
                             "VALUES ($1, $2, $3)", q, 3, NULL, NULL, msg);
}

fig_err_t fig_db_code_new(fig_db_t *db, const char *id, const char *code_hash, long long now,
                          bool *found, fig_msg_t *msg)
{
    call_t c = { .code_hash = code_hash, .now = now };
    snprintf(c.id, sizeof c.id, "%s", id);
    *found = false;
    if (strlen(id) != FIG_PERSON_ID_LEN)
        return FIG_OK;
    if (strlen(code_hash) != FIG_HASH_HEX)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad device code");
    fig_err_t rc = fig_db_txn(db, code_new_body, &c, msg);
    *found = !rc && c.found;
    return rc;
}

/* The person a device code was for (DELETE ... RETURNING person). */
static fig_err_t code_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    fig_db_person_t *who = ctx;
    if (n >= 1)
        snprintf(who->id, sizeof who->id, "%s", col[0]);
    return FIG_OK;
}

static fig_err_t redeem_body(fig_db_t *db, void *ctx, fig_msg_t *msg)
{
    call_t *c = ctx;
    fig_dbp_t p[] = { FIG_DBP_T(c->code_hash) }, t[] = { FIG_DBP_I(c->now) };
    fig_err_t rc = fig_dbq(db, "DELETE FROM device_codes WHERE expires <= $1", t, 1, NULL, NULL,
                           msg);
    fig_db_person_t who = { .id = "" };
    if (!rc)
        rc = fig_dbq(db, "DELETE FROM device_codes WHERE hash = $1 RETURNING person", p, 1,
                     code_row, &who, msg);
    if (rc || !who.id[0])
        return rc;
    fig_dbp_t k[] = { FIG_DBP_T(c->key_hash), FIG_DBP_T(who.id), FIG_DBP_I(c->now) };
    rc = fig_dbq(db, "INSERT INTO person_keys (hash, person, created) VALUES ($1, $2, $3)", k, 3,
                 NULL, NULL, msg);
    return rc ? rc : get(db, who.id, c->out, msg);
}

fig_err_t fig_db_code_redeem(fig_db_t *db, const char *code_hash, const char *key_hash,
                             long long now, fig_db_person_t *out, fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    if (strlen(code_hash) != FIG_HASH_HEX || strlen(key_hash) != FIG_HASH_HEX)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad device code or key");
    call_t c = { .code_hash = code_hash, .key_hash = key_hash, .now = now, .out = out };
    fig_err_t rc = fig_db_txn(db, redeem_body, &c, msg);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* Each person of a list, to the caller's fn. */
typedef struct {
    fig_db_person_fn *fn;
    void *ctx;
} list_t;

static fig_err_t list_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    list_t *l = ctx;
    fig_db_person_t p;
    fig_err_t rc = person_row(&p, col, n, msg);
    return rc ? rc : l->fn(l->ctx, &p, msg);
}

fig_err_t fig_db_people_list(fig_db_t *db, fig_db_person_fn *fn, void *ctx, fig_msg_t *msg)
{
    list_t l = { fn, ctx };
    return fig_dbq(db, "SELECT " PERSON_COLS " FROM people p ORDER BY p.created, p.id", NULL,
                   0, list_row, &l, msg);
}

fig_err_t fig_db_leaderboard(fig_db_t *db, int max, fig_db_person_fn *fn, void *ctx,
                             fig_msg_t *msg)
{
    list_t l = { fn, ctx };
    fig_dbp_t p[] = { FIG_DBP_I(max > 0 ? max : 0) };
    return fig_dbq(db, "SELECT " PERSON_COLS " FROM people p WHERE NOT p.hidden AND p.rated > 0 "
                   "ORDER BY p.mu - 3 * p.sigma DESC, p.rated DESC, p.id LIMIT $1", p, 1,
                   list_row, &l, msg);
}

typedef struct {
    fig_db_person_seat_t *out;
    int n;
} seats_t;

static fig_err_t seat_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    seats_t *s = ctx;
    if (n < 2 || strlen(col[0]) != FIG_TABLE_CODE_LEN)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad seat of a person");
    if (s->n < FIG_DB_PERSON_SEATS) {
        strcpy(s->out[s->n].code, col[0]);
        s->out[s->n++].seat = (int)fig_db_col_ll(col[1]);
    }
    return FIG_OK;
}

fig_err_t fig_db_person_seats(fig_db_t *db, const char *id,
                              fig_db_person_seat_t out[FIG_DB_PERSON_SEATS], int *n,
                              fig_msg_t *msg)
{
    seats_t s = { out, 0 };
    fig_dbp_t p[] = { FIG_DBP_T(id), FIG_DBP_I(FIG_DB_PERSON_SEATS) };
    fig_err_t rc = fig_dbq(db, "SELECT s.code, s.seat FROM seats s JOIN tables t "
                           "ON t.code = s.code WHERE s.person = $1 AND s.kind = 'person' "
                           "ORDER BY t.created DESC, s.code, s.seat LIMIT $2", p, 2, seat_row,
                           &s, msg);
    *n = rc ? 0 : s.n;
    return rc;
}

typedef struct {
    fig_db_played_fn *fn;
    void *ctx;
} played_t;

static fig_err_t played_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    played_t *l = ctx;
    fig_db_played_t x;
    if (n < 12 || strlen(col[1]) != FIG_TABLE_CODE_LEN)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "a bad game of a person");
    x.idx = (int)fig_db_col_ll(col[0]);
    strcpy(x.code, col[1]);
    x.game = (int)fig_db_col_ll(col[2]);
    x.seat = (int)fig_db_col_ll(col[3]);
    x.players = (int)fig_db_col_ll(col[4]);
    x.place = (int)fig_db_col_ll(col[5]);
    x.rated = fig_db_col_bool(col[6]);
    x.mu = fig_db_col_real(col[7]);
    x.sigma = fig_db_col_real(col[8]);
    x.ended = fig_db_col_ll(col[9]);
    x.seats = col[10];
    x.record = fig_db_col_ll(col[11]);
    return l->fn(l->ctx, &x, msg);
}

fig_err_t fig_db_person_played(fig_db_t *db, const char *id, fig_db_played_fn *fn, void *ctx,
                               fig_msg_t *msg)
{
    played_t l = { fn, ctx };
    fig_dbp_t p[] = { FIG_DBP_T(id) };
    return fig_dbq(db, "SELECT idx, code, game, seat, players, place, rated, mu, sigma, ended, "
                   "seats, record FROM played WHERE person = $1 ORDER BY idx", p, 1, played_row,
                   &l, msg);
}

static fig_err_t record_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    char **fgn = ctx;
    if (n < 1 || *fgn)
        return FIG_OK;
    if (!(*fgn = strdup(col[0])))
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    return FIG_OK;
}

fig_err_t fig_db_played_record(fig_db_t *db, const char *id, int idx, char **fgn,
                               fig_msg_t *msg)
{
    *fgn = NULL;
    fig_dbp_t p[] = { FIG_DBP_T(id), FIG_DBP_I(idx) };
    fig_err_t rc = fig_dbq(db, "SELECT r.fgn FROM played p JOIN records r ON r.id = p.record "
                           "WHERE p.person = $1 AND p.idx = $2", p, 2, record_row, fgn, msg);
    if (rc) {
        free(*fgn);
        *fgn = NULL;
    }
    return rc;
}
