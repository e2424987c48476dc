/* SPDX-License-Identifier: MIT */
/* service_people.c - people and ratings in the service (docs/protocol.md,
 * "People"; docs/server.md, "People and ratings"): a connection's signed-in
 * person, the people's messages, their limits, the `rated` messages after
 * a rated game, and the HTTP API of people's pages and the leaderboard.
 *
 * Every storage call runs on the writer thread, the database's one user
 * once the server is up, through one mechanism: a job (people_job_t) is a
 * batch with a call (net/store/db.h, fig_db_batch_t.call) that the thread makes
 * in its turn, after every write queued before it; the job comes back to
 * the loop (people_back), which answers the connection that asked,
 * unless it closed meanwhile. The loop never reads the database.
 *
 * Secrets: a person's key and a device code are drawn here (net/base/token.h),
 * handed to the storage only as their SHA-256, sent once to the one
 * connection they are for, and never logged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/rating.h"
#include "host/util.h"
#include "net/base/limiter.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_conn_index.h"
#include "net/service/service_forgotten.h"
#include "net/service/service_people.h"
#include "net/service/service_replay.h"
#include "net/base/token.h"

/* The limits (docs/server.md, "Rate limits"): per address, a new person at
 * most 5 a minute and 20 an hour; a device code 10 per 10 minutes per
 * address and 5 per 10 minutes per person; a redeem 10 tries per 10 minutes
 * per address, a failed try counted. What else costs a storage call has a
 * limit of its own too, not only the connection's message rate: a rename or
 * hiding 10 a minute per person, a sign out 10 a minute and a forget me 5 a
 * minute per address; and a resume (a snapshot or the missed events) 20 a
 * minute per person. */
enum {
    PL_NEW_MINUTE, PL_NEW_HOUR, PL_CODE_ADDR, PL_CODE_PERSON, PL_REDEEM_ADDR, PL_SET_PERSON,
    PL_SIGN_OUT_ADDR, PL_FORGET_ADDR, PL_RESUME_PERSON, PL_COUNT
};

static const struct {
    int most;
    long long window_ms;
} limit_defs[PL_COUNT] = {
    [PL_NEW_MINUTE] = { 5, 60 * 1000LL },      [PL_NEW_HOUR] = { 20, 3600 * 1000LL },
    [PL_CODE_ADDR] = { 10, 600 * 1000LL },     [PL_CODE_PERSON] = { 5, 600 * 1000LL },
    [PL_REDEEM_ADDR] = { 10, 600 * 1000LL },   [PL_SET_PERSON] = { 10, 60 * 1000LL },
    [PL_SIGN_OUT_ADDR] = { 10, 60 * 1000LL },  [PL_FORGET_ADDR] = { 5, 60 * 1000LL },
    [PL_RESUME_PERSON] = { 20, 60 * 1000LL },
};

/* Jobs on their way at once: more is refused (busy). */
enum { PEOPLE_JOBS_MAX = 64, LEADERBOARD_MAX = 100 };

typedef enum {
    PJ_HELLO, PJ_NEW, PJ_CODE, PJ_REDEEM, PJ_SET, PJ_SIGN_OUT, PJ_FORGET,   /* a connection's */
    PJ_PAGE, PJ_BOARD, PJ_GAME                                             /* HTTP */
} pj_kind_t;

struct people_job {
    fig_db_batch_t b;                 /* first: the writer's part (b.call) */
    struct people_job *next;
    pj_kind_t kind;
    conn_t *c;                        /* who asked (NULL: closed meanwhile) */
    fig_conn_t *http;                 /* an HTTP request's (NULL: gone) */
    long long now;                    /* Unix seconds */
    /* in */
    char id[FIG_PERSON_ID_LEN + 1];
    char name[FIG_PERSON_NAME_BYTES + 1];
    int hidden;
    char key[FIG_TOKEN_HEX + 1];      /* new, redeem: the new key (to c alone) */
    char key_hash[FIG_HASH_HEX + 1];
    char code[FIG_PROTO_DEVICE_CODE_LEN + 1];
    char code_hash[FIG_HASH_HEX + 1];
    int idx;                          /* game: the played row */
    bool download;                    /* page: as an attachment */
    bool json;                        /* game: its replay (in tr's language), not its FGN */
    const fig_tr_t *tr;
    /* out */
    fig_db_person_t p;
    fig_db_person_seat_t seats[FIG_DB_PERSON_SEATS];
    int nseats;
    bool found;
    int status;                       /* HTTP */
    char *body;
};

/* ---- on the writer thread */

static void set_rating(json_t *o, double mu, double sigma) { fig_proto_rating_set(o, mu, sigma); }

/* The figures of one group of games (all, by players, by a level faced). */
typedef struct {
    int games, wins, places;
} figs_t;

static json_t *figs_json(const figs_t *f)
{
    json_t *o = json_object();
    json_object_set_new(o, "games", json_integer(f->games));
    json_object_set_new(o, "wins", json_integer(f->wins));
    json_object_set_new(o, "mean_place",
                        f->games ? json_real((double)f->places / f->games) : json_null());
    return o;
}

static void figs_add(figs_t *f, int place)
{
    f->games++;
    f->wins += place == 1;
    f->places += place;
}

typedef struct {
    people_job_t *j;
    json_t *games;
    figs_t all, players[FIG_MAX_PLAYERS + 1];
    figs_t *levels;                   /* fig_bot_level_count() */
} page_t;

static fig_err_t page_game(void *ctx, const fig_db_played_t *p, fig_msg_t *msg)
{
    (void)msg;
    page_t *pg = ctx;
    json_t *g = json_object();
    json_object_set_new(g, "table", json_string(p->code));
    json_object_set_new(g, "game", json_integer(p->game));
    json_object_set_new(g, "ended", json_integer(p->ended));
    json_object_set_new(g, "players", json_integer(p->players));
    json_object_set_new(g, "seat", json_integer(p->seat));
    json_object_set_new(g, "place", json_integer(p->place));
    json_object_set_new(g, "rated", json_boolean(p->rated));
    json_object_set_new(g, "mu", json_real(p->mu));
    json_object_set_new(g, "sigma", json_real(p->sigma));
    json_error_t err;
    json_t *seats = p->seats ? json_loads(p->seats, 0, &err) : NULL;
    json_object_set_new(g, "seats", seats ? seats : json_array());
    char url[96];
    snprintf(url, sizeof url, "/api/people/%s/games/%d.fgn", pg->j->id, p->idx);
    json_object_set_new(g, "record", json_string(url));
    json_array_append_new(pg->games, g);
    figs_add(&pg->all, p->place);
    if (p->players >= 0 && p->players <= FIG_MAX_PLAYERS)
        figs_add(&pg->players[p->players], p->place);
    /* The levels faced: each level once per game, whatever its seats. */
    bool seen[16] = { false };
    size_t i;
    json_t *x;
    json_array_foreach(seats, i, x) {
        const char *kind = json_string_value(json_object_get(x, "kind"));
        const char *level = json_string_value(json_object_get(x, "level"));
        int l = kind && strcmp(kind, "bot") == 0 && level ? fig_bot_level_index(level) : -1;
        if (l >= 0 && l < 16 && !seen[l]) {
            seen[l] = true;
            figs_add(&pg->levels[l], p->place);
        }
    }
    return FIG_OK;
}

/* A person's page (GET /api/people/ID) as JSON text in j->body. */
static fig_err_t page_json(fig_db_t *db, people_job_t *j, fig_msg_t *msg)
{
    fig_err_t rc = fig_db_person_get(db, j->id, &j->p, msg);
    if (rc || !j->p.id[0]) {
        j->status = rc ? 503 : 404;
        return rc;
    }
    int nl = fig_bot_level_count();
    page_t pg = { j, json_array(), { 0, 0, 0 }, { { 0, 0, 0 } },
                  calloc((size_t)nl, sizeof(figs_t)) };
    if (!pg.levels) {
        json_decref(pg.games);
        j->status = 503;
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    }
    rc = fig_db_person_played(db, j->id, page_game, &pg, msg);
    if (!rc) {
        json_t *o = json_object();
        json_object_set_new(o, "id", json_string(j->p.id));
        json_object_set_new(o, "name", json_string(j->p.name));
        set_rating(o, j->p.mu, j->p.sigma);
        json_object_set_new(o, "rated", json_integer(j->p.rated));
        json_object_set_new(o, "hidden", json_boolean(j->p.hidden));
        json_object_set_new(o, "created", json_integer(j->p.created));
        json_object_set_new(o, "games", pg.games);
        pg.games = NULL;
        json_t *f = figs_json(&pg.all);
        json_t *byp = json_object();
        for (int n = FIG_MIN_PLAYERS; n <= FIG_MAX_PLAYERS; n++)
            if (pg.players[n].games) {
                char key[12];
                snprintf(key, sizeof key, "%d", n);
                json_object_set_new(byp, key, figs_json(&pg.players[n]));
            }
        json_object_set_new(f, "by_players", byp);
        json_t *byl = json_object();
        for (int l = 0; l < nl; l++)
            if (pg.levels[l].games)
                json_object_set_new(byl, fig_bot_level_name(l), figs_json(&pg.levels[l]));
        json_object_set_new(f, "by_level", byl);
        json_object_set_new(o, "figures", f);
        j->body = fig_proto_dump(o, NULL);
        json_decref(o);
        j->status = j->body ? 200 : 503;
    } else {
        j->status = 503;
    }
    json_decref(pg.games);
    free(pg.levels);
    return rc;
}

static fig_err_t board_one(void *ctx, const fig_db_person_t *p, fig_msg_t *msg)
{
    (void)msg;
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(p->id));
    json_object_set_new(o, "name", json_string(p->name));
    set_rating(o, p->mu, p->sigma);
    json_object_set_new(o, "rated", json_integer(p->rated));
    json_array_append_new(ctx, o);
    return FIG_OK;
}

/* GET /api/leaderboard. */
static fig_err_t board_json(fig_db_t *db, people_job_t *j, fig_msg_t *msg)
{
    json_t *list = json_array();
    fig_err_t rc = fig_db_leaderboard(db, LEADERBOARD_MAX, board_one, list, msg);
    if (!rc) {
        json_t *o = json_object();
        json_object_set_new(o, "people", list);
        list = NULL;
        j->body = fig_proto_dump(o, NULL);
        json_decref(o);
    }
    json_decref(list);
    j->status = j->body ? 200 : 503;
    return rc;
}

/* The job's call (fig_db_batch_t.call), on the writer thread. */
static fig_err_t job_run(fig_db_t *db, fig_db_batch_t *b, fig_msg_t *msg)
{
    people_job_t *j = (people_job_t *)b;
    fig_err_t rc = FIG_OK;
    switch (j->kind) {
    case PJ_HELLO:
        rc = fig_db_person_by_key(db, j->key_hash, &j->p, msg);
        break;
    case PJ_NEW:
        rc = fig_db_person_new(db, j->name, j->key_hash, j->now, &j->p, msg);
        break;
    case PJ_CODE:
        rc = fig_db_code_new(db, j->id, j->code_hash, j->now, &j->found, msg);
        break;
    case PJ_REDEEM:
        rc = fig_db_code_redeem(db, j->code_hash, j->key_hash, j->now, &j->p, msg);
        break;
    case PJ_SET:
        rc = fig_db_person_set(db, j->id, j->name[0] ? j->name : NULL, j->hidden, &j->p, msg);
        break;
    case PJ_SIGN_OUT:
        rc = fig_db_key_drop(db, j->key_hash, msg);
        break;
    case PJ_FORGET:
        rc = fig_db_person_forget(db, j->id, j->now, &j->found, msg);
        break;
    case PJ_PAGE:
        return page_json(db, j, msg);
    case PJ_BOARD:
        return board_json(db, j, msg);
    case PJ_GAME:
        rc = fig_db_played_record(db, j->id, j->idx, &j->body, msg);
        j->status = rc ? 503 : j->body ? 200 : 404;
        return rc;
    }
    if (!rc && j->p.id[0])   /* a person told: with their seats */
        rc = fig_db_person_seats(db, j->p.id, j->seats, &j->nseats, msg);
    return rc;
}

/* ---- on the loop */

static fig_limiter_t *limiter(fig_service_t *s, int which)
{
    if (!s->limits) {
        s->limits = calloc(PL_COUNT, sizeof *s->limits);
        if (!s->limits)
            return NULL;
        for (int i = 0; i < PL_COUNT; i++)
            fig_limiter_init(&s->limits[i], limit_defs[i].most, limit_defs[i].window_ms);
    }
    return &s->limits[which];
}

/* Whether key may pass every limit of which[0..n) (then each counts it). */
static bool limits_take(fig_service_t *s, const int which[], int n, const char *const keys[])
{
    long long now = fig_svc_now(s);
    for (int i = 0; i < n; i++) {
        fig_limiter_t *l = limiter(s, which[i]);
        if (!l || !fig_limiter_may(l, keys[i], now))
            return false;
    }
    for (int i = 0; i < n; i++)
        fig_limiter_take(limiter(s, which[i]), keys[i], now);
    return true;
}

static void people_back(void *ctx, fig_db_batch_t *b);   /* the batch is back */

static people_job_t *job_new(fig_service_t *s, pj_kind_t kind)
{
    if (s->npjobs >= PEOPLE_JOBS_MAX)
        return NULL;
    people_job_t *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->b.call = job_run;
    j->b.back = people_back;
    j->b.ctx = s;
    j->kind = kind;
    j->hidden = -1;
    j->now = s->wall ? s->wall(s->clock_ctx) : (long long)time(NULL);
    return j;
}

static void job_submit(fig_service_t *s, people_job_t *j)
{
    j->next = s->pjobs;
    s->pjobs = j;
    s->npjobs++;
    fig_writer_submit(s->writer, &j->b);
}

static void job_free(people_job_t *j)
{
    if (!j)
        return;
    free(j->body);
    free(j);
}

/* An error to c: text an N_ msgid, said in c's language. */
static void error_to(fig_service_t *s, conn_t *c, fig_proto_code_t code, const char *text,
                     const char *re)
{
    fig_svc_send_error(s, c, code, fig_tr_text(c->tr, text), re, NULL);
}

/* The person frame of j's person (key: NULL, or the new key for c alone). */
static void send_person(fig_service_t *s, conn_t *c, const people_job_t *j, const char *key)
{
    fig_proto_person_t p = { .id = j->p.id, .name = j->p.name, .mu = j->p.mu,
                             .sigma = j->p.sigma, .rated = j->p.rated, .hidden = j->p.hidden,
                             .key = key };
    for (int i = 0; i < j->nseats && i < FIG_PROTO_PERSON_SEATS; i++) {
        snprintf(p.seats[i].table, sizeof p.seats[i].table, "%s", j->seats[i].code);
        p.seats[i].seat = j->seats[i].seat;
    }
    p.nseats = j->nseats < FIG_PROTO_PERSON_SEATS ? j->nseats : FIG_PROTO_PERSON_SEATS;
    fig_svc_send_json(s, c, fig_proto_person(&p));
}

/* A new key for c's job: drawn here, its hash to the storage. */
static bool new_key(people_job_t *j, fig_msg_t *msg)
{
    return fig_token_new(j->key, msg) == FIG_OK &&
           fig_sha256_hex(j->key, strlen(j->key), j->key_hash, msg) == FIG_OK;
}

void fig_svc_people_hello(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m)
{
    if (m->key_bad) {
        error_to(s, c, FIG_PC_BAD_KEY, N_("that key is not a person's key"), "hello");
        return;
    }
    if (!m->key[0])
        return;
    people_job_t *j = job_new(s, PJ_HELLO);
    fig_msg_t msg;
    if (!j || fig_sha256_hex(m->key, strlen(m->key), j->key_hash, &msg)) {
        free(j);
        error_to(s, c, FIG_PC_BUSY, N_("the server is busy, try again"), "hello");
        return;
    }
    j->c = c;
    job_submit(s, j);
}

/* within_limits' part for the kinds with one limit each. */
static bool within_one(fig_service_t *s, conn_t *c, pj_kind_t kind, const char *re)
{
    int w = kind == PJ_SET ? PL_SET_PERSON : kind == PJ_SIGN_OUT ? PL_SIGN_OUT_ADDR
            : kind == PJ_FORGET ? PL_FORGET_ADDR : -1;
    if (w < 0)
        return true;
    const char *const k[] = { kind == PJ_SET ? c->person : c->addr };
    if (limits_take(s, &w, 1, k))
        return true;
    error_to(s, c, FIG_PC_RATE,
             kind == PJ_SET ? N_("too many changes to your name: wait a minute")
             : kind == PJ_SIGN_OUT ? N_("too many sign-outs from your address: wait a minute")
             : N_("too many requests to forget from your address: wait a minute"), re);
    return false;
}

/* Whether c may make a job of that kind now (the limits: each counts it);
 * else c is told `rate`. */
static bool within_limits(fig_service_t *s, conn_t *c, pj_kind_t kind, const char *re)
{
    if (kind == PJ_NEW) {
        const int w[] = { PL_NEW_MINUTE, PL_NEW_HOUR };
        const char *const k[] = { c->addr, c->addr };
        if (limits_take(s, w, 2, k))
            return true;
        error_to(s, c, FIG_PC_RATE, N_("too many new people from your address: wait a while"),
                 re);
    } else if (kind == PJ_CODE) {
        const int w[] = { PL_CODE_ADDR, PL_CODE_PERSON };
        const char *const k[] = { c->addr, c->person };
        if (limits_take(s, w, 2, k))
            return true;
        error_to(s, c, FIG_PC_RATE, N_("too many device codes: wait a few minutes"), re);
    } else if (kind == PJ_REDEEM) {
        const int w[] = { PL_REDEEM_ADDR };
        const char *const k[] = { c->addr };
        if (limits_take(s, w, 1, k))   /* every try counts, a failed one too */
            return true;
        error_to(s, c, FIG_PC_RATE, N_("too many codes tried: wait a few minutes"), re);
    } else {
        return within_one(s, c, kind, re);
    }
    return false;
}

void fig_svc_people_message(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m)
{
    const char *re = fig_proto_type_name(m->type);
    bool signed_in = c->person[0] != '\0';
    pj_kind_t kind;
    switch (m->type) {
    case FIG_PROTO_PERSON_NEW:
        if (signed_in) {
            error_to(s, c, FIG_PC_ALREADY, N_("you are signed in already: sign out first"), re);
            return;
        }
        kind = PJ_NEW;
        break;
    case FIG_PROTO_REDEEM:
        kind = PJ_REDEEM;
        break;
    case FIG_PROTO_DEVICE_CODE:
        kind = PJ_CODE;
        break;
    case FIG_PROTO_PERSON_SET:
        kind = PJ_SET;
        break;
    case FIG_PROTO_SIGN_OUT:
        kind = PJ_SIGN_OUT;
        break;
    case FIG_PROTO_FORGET_ME:
        kind = PJ_FORGET;
        break;
    default:
        return;
    }
    if (!signed_in && kind != PJ_NEW && kind != PJ_REDEEM) {
        error_to(s, c, FIG_PC_NOT_SIGNED_IN, N_("sign in first (a person's key in hello)"), re);
        return;
    }
    if (!within_limits(s, c, kind, re))   /* before anything is drawn or stored */
        return;
    people_job_t *j = job_new(s, kind);
    if (!j) {
        error_to(s, c, FIG_PC_BUSY, N_("the server is busy, try again"), re);
        return;
    }
    j->c = c;
    snprintf(j->id, sizeof j->id, "%s", c->person);
    snprintf(j->name, sizeof j->name, "%s", m->name);
    j->hidden = m->hidden;
    fig_msg_t msg;
    bool ok = true;
    if (kind == PJ_NEW) {
        ok = new_key(j, &msg);
    } else if (kind == PJ_REDEEM) {
        snprintf(j->code, sizeof j->code, "%s", m->code);
        ok = new_key(j, &msg) &&
             fig_sha256_hex(j->code, strlen(j->code), j->code_hash, &msg) == FIG_OK;
    } else if (kind == PJ_CODE) {
        ok = fig_code_new(j->code, FIG_PROTO_DEVICE_CODE_LEN, &msg) == FIG_OK &&
             fig_sha256_hex(j->code, strlen(j->code), j->code_hash, &msg) == FIG_OK;
    } else if (kind == PJ_SIGN_OUT) {
        snprintf(j->key_hash, sizeof j->key_hash, "%s", c->key_hash);
    }
    if (!ok) {
        free(j);
        fig_svc_send_error(s, c, FIG_PC_STORAGE, msg.text, re, NULL);
        return;
    }
    /* The person's seats at the tables in memory (those only) lose the link
     * and their name now, before the storage has the forget: a seat a table
     * writes meanwhile (a vote) then carries neither, and cannot undo the
     * forgetting that commits before it. Again when it is stored
     * (fig_svc_forgotten: a table taken over meanwhile). */
    if (kind == PJ_FORGET)
        fig_svc_person_seats_forget(s, c->person);
    job_submit(s, j);
}

fig_proto_code_t fig_svc_resume(fig_service_t *s, conn_t *c, fig_table_t *t,
                                const fig_proto_msg_t *m, fig_msg_t *msg)
{
    if (!c->person[0]) {
        snprintf(msg->text, sizeof msg->text, "%s",
                 fig_tr_text(c->tr, "sign in first (a person's key in hello)"));
        return FIG_PC_NOT_SIGNED_IN;
    }
    const int w[] = { PL_RESUME_PERSON };
    const char *const k[] = { c->person };
    if (!limits_take(s, w, 1, k)) {
        snprintf(msg->text, sizeof msg->text, "%s",
                 fig_tr_text(c->tr, N_("too many seats taken back: wait a minute")));
        return FIG_PC_RATE;
    }
    fig_table_since_t since = { m->has_since, m->epoch, m->since };
    return fig_table_resume_person(t, c, c->tr, c->person, &since, msg);
}

const char *fig_svc_person_of(void *svc, void *peer)
{
    (void)svc;
    const conn_t *c = peer;
    return c ? c->person : "";
}

void fig_svc_rated(void *svc, const char *table, int game, const fig_db_result_t *r)
{
    fig_service_t *s = svc;
    for (int i = 0; i < r->players; i++) {
        const fig_db_result_seat_t *x = &r->seats[i];
        if (x->kind != FIG_DB_RS_PERSON || !x->person[0])
            continue;
        bool dup = false;   /* a person in two seats: the first is theirs */
        for (int k = 0; k < i; k++)
            dup |= r->seats[k].kind == FIG_DB_RS_PERSON &&
                   strcmp(r->seats[k].person, x->person) == 0;
        for (conn_t *c = dup ? NULL : fig_svc_person_first(s, x->person); c;
             c = fig_svc_person_next(c))
            if (!c->closing)
                fig_svc_send_json(s, c, fig_proto_rated(table, game, x->after.mu, x->after.sigma,
                                                        x->before.mu, x->before.sigma));
    }
}

static void signed_out(fig_service_t *s, conn_t *o)
{
    fig_svc_sign_off(s, o);
    if (!o->closing)
        fig_svc_send_json(s, o, fig_proto_bare("signed_out"));
}

/* Forget me or sign out is stored: every connection of that person or
 * key follows, even when the one that asked is gone. */
static void gone(fig_service_t *s, const people_job_t *j)
{
    conn_t *c = j->c;
    if (j->kind == PJ_FORGET) {
        if (j->found) {
            fig_logf(s->log, s->log_ctx, "", "person %s forgotten", j->id);
            fig_svc_forgotten(s, j->id);   /* the tables in memory, the connections */
        } else if (c && !c->closing) {
            fig_svc_sign_off(s, c);
            fig_svc_send_json(s, c, fig_proto_bare("forgotten"));
        }
        return;
    }
    bool asker = c != NULL;   /* told even if signed off meanwhile */
    for (conn_t *o = fig_svc_person_first(s, j->id), *nx; o; o = nx) {
        nx = fig_svc_person_next(o);
        if (o == c || (j->key_hash[0] && strcmp(o->key_hash, j->key_hash) == 0)) {
            asker &= o != c;
            signed_out(s, o);   /* this key stops working on every connection */
        }
    }
    if (asker)
        signed_out(s, c);
}

/* A connection's job is back. */
static void conn_job_back(fig_service_t *s, people_job_t *j)
{
    conn_t *c = j->c;
    const char *re = j->kind == PJ_HELLO ? "hello" : j->kind == PJ_NEW ? "person_new"
                     : j->kind == PJ_CODE ? "device_code" : j->kind == PJ_REDEEM ? "redeem"
                     : j->kind == PJ_SET ? "person_set" : j->kind == PJ_SIGN_OUT ? "sign_out"
                     : "forget_me";
    if (j->b.rc) {
        s->stats.storage_errors++;
        fig_logf(s->log, s->log_ctx, "", "people: %s: %s", re, j->b.msg.text);
        if (c && !c->closing)
            error_to(s, c, FIG_PC_STORAGE, N_("the server could not store that; nothing was done"),
                     re);
        return;
    }
    if (j->kind == PJ_FORGET || j->kind == PJ_SIGN_OUT) {
        gone(s, j);
        return;
    }
    if (!c || c->closing)
        return;
    switch (j->kind) {
    case PJ_HELLO:
        if (!j->p.id[0]) {
            error_to(s, c, FIG_PC_BAD_KEY, N_("that key is no person's: signed out or forgotten"),
                     "hello");
            return;
        }
        fig_svc_sign_in(s, c, &j->p, j->key_hash);
        send_person(s, c, j, NULL);
        return;
    case PJ_NEW:
        fig_svc_sign_in(s, c, &j->p, j->key_hash);
        fig_logf(s->log, s->log_ctx, "", "person %s is new (from %s)", j->p.id, c->addr);
        send_person(s, c, j, j->key);
        return;
    case PJ_REDEEM:
        if (!j->p.id[0]) {
            error_to(s, c, FIG_PC_BAD_CODE, N_("that code is unknown, used or expired"), re);
            return;
        }
        fig_svc_sign_in(s, c, &j->p, j->key_hash);
        fig_logf(s->log, s->log_ctx, "", "person %s: a device code redeemed (from %s)", j->p.id,
                 c->addr);
        send_person(s, c, j, j->key);
        return;
    case PJ_CODE:
        if (!j->found) {
            fig_svc_sign_off(s, c);
            error_to(s, c, FIG_PC_NOT_SIGNED_IN, N_("sign in first (a person's key in hello)"), re);
            return;
        }
        fig_svc_send_json(s, c, fig_proto_device_code(j->code, FIG_DB_DEVICE_CODE_S));
        return;
    case PJ_SET:
        if (!j->p.id[0]) {
            fig_svc_sign_off(s, c);
            error_to(s, c, FIG_PC_NOT_SIGNED_IN, N_("sign in first (a person's key in hello)"), re);
            return;
        }
        /* their next seats' name; every tab follows */
        for (conn_t *o = fig_svc_person_first(s, j->p.id); o; o = fig_svc_person_next(o)) {
            snprintf(o->pname, sizeof o->pname, "%s", j->p.name);
            if (o != c && !o->closing)
                send_person(s, o, j, NULL);
        }
        send_person(s, c, j, NULL);
        return;
    default:
        return;
    }
}

/* ---- HTTP (GET /api/people/ID, /api/people/ID/games/I.fgn or I.json,
 * /api/leaderboard) */

void fig_svc_people_http(fig_service_t *s, fig_conn_t *conn, const fig_http_path_t *p,
                         fig_http_answer_t *out)
{
    pj_kind_t kind = p->route == FIG_HTTP_LEADERBOARD ? PJ_BOARD
                     : p->route == FIG_HTTP_PERSON ? PJ_PAGE : PJ_GAME;
    people_job_t *j = job_new(s, kind);
    if (!j) {
        fig_svc_http_text(out, 503, "the server is busy, try again\n");
        return;
    }
    snprintf(j->id, sizeof j->id, "%s", p->person);
    j->idx = p->game;
    j->json = p->json;   /* replayed once read, on the loop */
    j->tr = fig_svc_lang_tr(s, p->lang);
    j->http = conn;
    j->download = p->download;
    job_submit(s, j);
    out->status = 0;   /* later: wire.answer */
}

static void http_job_back(fig_service_t *s, people_job_t *j)
{
    if (!j->http)
        return;
    fig_http_answer_t a;
    memset(&a, 0, sizeof a);
    if (j->b.rc) {
        s->stats.storage_errors++;
        fig_logf(s->log, s->log_ctx, "", "people: a page: %s", j->b.msg.text);
        fig_svc_http_text(&a, 503, "the storage did not answer: try again\n");
    } else if (j->status != 200 || !j->body) {
        fig_svc_http_text(&a, j->status == 404 ? 404 : 503,
                          j->status == 404 ? "not found\n" : "out of memory\n");
    } else if (j->kind == PJ_GAME && j->json) {
        fig_svc_kept_replay(&a, j->body, j->tr);
        if (a.status == 500 && a.body)   /* a record it kept: the server's fault, logged */
            fig_logf(s->log, s->log_ctx, "", "people: %s's game %d: %.*s", j->id, j->idx,
                     (int)strcspn(a.body, "\n"), a.body);
    } else {
        a.status = 200;
        a.type = j->kind == PJ_GAME ? "text/plain; charset=utf-8" : "application/json";
        a.body = j->body;
        a.len = strlen(j->body);
        j->body = NULL;
        if (j->kind == PJ_PAGE && j->download)
            snprintf(a.disposition, sizeof a.disposition,
                     "attachment; filename=\"figaro-%s.json\"", j->id);
    }
    s->wire.answer(s->wire.wire, j->http, &a);
}

static void people_back(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    people_job_t *j = (people_job_t *)b;
    people_job_t **pp = &s->pjobs;
    while (*pp && *pp != j)
        pp = &(*pp)->next;
    if (*pp) {
        *pp = j->next;
        s->npjobs--;
    }
    if (j->kind >= PJ_PAGE)
        http_job_back(s, j);
    else
        conn_job_back(s, j);
    job_free(j);
}

void fig_svc_people_closed(fig_service_t *s, conn_t *c)
{
    for (people_job_t *j = s->pjobs; j; j = j->next)
        if (j->c == c)
            j->c = NULL;
}

void fig_svc_people_http_gone(fig_service_t *s, fig_conn_t *conn)
{
    for (people_job_t *j = s->pjobs; j; j = j->next)
        if (j->http == conn)
            j->http = NULL;
}

void fig_svc_people_free(fig_service_t *s)
{
    while (s->pjobs) {
        people_job_t *j = s->pjobs;
        s->pjobs = j->next;
        job_free(j);
    }
    s->npjobs = 0;
    free(s->limits);
    s->limits = NULL;
}
