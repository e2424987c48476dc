/* SPDX-License-Identifier: MIT */
/* test_db_people.c - the people calls of the storage (src/net/store/db.h, schema
 * 6) on a real back end: a person made, found by a key's hash, renamed,
 * hidden; keys added and dropped; device codes single use, expiring,
 * replaced; a game's result (FIG_DBW_RESULT) moves the ratings exactly as
 * fig_rating_update does and keeps a played row each and the record once,
 * all or nothing with the rest of its batch; forget me leaves nothing of the
 * person (the rows are read back with SQL) and others' games name them
 * "Anonymous"; the log of the people forgotten, in order, from a mark,
 * pruned after a day; a database of schema 5 brought to 6; the lists and
 * the leaderboard in their order; a key or a code is never in the
 * database file.
 *
 * The back end is the URL in FIGARO_TEST_DB (tests/net/test_pg.py runs this
 * binary with a throwaway PostgreSQL's URL); without it, an SQLite file in a
 * temporary folder. The database may hold other tests' rows: every test
 * makes its own people and tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/store/db.h"
#include "net/store/db_sql.h"
#include "net/base/token.h"

static char url[4200];
static char dir[64];

static fig_db_t *open_db(void)
{
    fig_db_t *db;
    fig_msg_t msg;
    if (fig_db_open(&db, url, NULL, &msg) != FIG_OK)
        fail_msg("open %s: %s", url, msg.text);
    return db;
}

/* A new key (or code) and its hash. */
static void new_key(char key[FIG_TOKEN_HEX + 1], char hash[FIG_HASH_HEX + 1])
{
    assert_int_equal(fig_token_new(key, NULL), FIG_OK);
    assert_int_equal(fig_sha256_hex(key, strlen(key), hash, NULL), FIG_OK);
}

static void person(fig_db_t *db, const char *name, fig_db_person_t *p, char hash[])
{
    char key[FIG_TOKEN_HEX + 1];
    new_key(key, hash);
    fig_msg_t msg;
    if (fig_db_person_new(db, name, hash, 1800000000, p, &msg) != FIG_OK)
        fail_msg("person_new: %s", msg.text);
}

/* One integer a statement answers (the rows read back as they are). */
static fig_err_t one_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    if (n >= 1)
        *(long long *)ctx = fig_db_col_ll(col[0]);
    return FIG_OK;
}

/* The integer sql answers, with arg as $1 (NULL: no parameter). */
static long long count(fig_db_t *db, const char *sql, const char *arg)
{
    long long n = -1;
    fig_dbp_t p[] = { FIG_DBP_T(arg) };
    fig_msg_t msg;
    if (fig_dbq(db, sql, p, arg ? 1 : 0, one_row, &n, &msg) != FIG_OK)
        fail_msg("%s: %s", sql, msg.text);
    return n;
}

static fig_err_t apply_batch(fig_db_t *db, fig_db_batch_t *b)
{
    assert_int_equal(fig_db_apply(db, b), FIG_OK);
    return b->rc;
}

/* A table of `players` seats: seats[i] a person of ids[i] (NULL: a bot
 * of level normal), named names[i]. */
static void add_table(fig_db_t *db, char code[8], int players, long long created,
                      const char *const *ids, const char *const *names)
{
    assert_int_equal(fig_code_new(code, FIG_TABLE_CODE_LEN, NULL), FIG_OK);
    code[FIG_TABLE_CODE_LEN] = '\0';
    fig_db_batch_t *b = calloc(1, sizeof *b);
    assert_non_null(b);
    b->n = 1;
    fig_db_write_t *w = &b->w[0];
    w->kind = FIG_DBW_TABLE;
    fig_db_table_t *t = &w->row;
    strcpy(t->code, code);
    t->players = players;
    strcpy(t->fill, "normal");
    t->created = created;
    for (int i = 0; i < players; i++) {
        fig_db_seat_t *x = &t->seats[i];
        x->kind = ids[i] ? FIG_DB_SEAT_PERSON : FIG_DB_SEAT_BOT;
        strcpy(ids[i] ? x->name : x->what, ids[i] ? names[i] : "normal");
        if (ids[i]) {
            strcpy(x->person, ids[i]);
            memset(x->token_hash, 'a' + i, FIG_HASH_HEX);
        }
    }
    assert_int_equal(apply_batch(db, b), FIG_OK);
    free(b);
}

/* ---- a person, keys, codes */

static void test_person_and_keys(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    fig_db_person_t ann, got;
    char h1[FIG_HASH_HEX + 1], k2[FIG_TOKEN_HEX + 1], h2[FIG_HASH_HEX + 1];
    person(db, "Ann \xc3\xa9", &ann, h1);
    assert_int_equal(strlen(ann.id), FIG_PERSON_ID_LEN);
    assert_int_equal(strspn(ann.id, "23456789ABCDEFGHJKMNPQRSTUVWXYZ"), FIG_PERSON_ID_LEN);
    assert_string_equal(ann.name, "Ann \xc3\xa9");
    assert_true(ann.mu == FIG_RATING_MU0 && ann.sigma == FIG_RATING_SIGMA0);
    assert_int_equal(ann.rated, 0);
    assert_false(ann.hidden);
    assert_int_equal(ann.created, 1800000000);
    assert_int_equal(fig_db_person_by_key(db, h1, &got, NULL), FIG_OK);
    assert_string_equal(got.id, ann.id);
    new_key(k2, h2);
    assert_int_equal(fig_db_person_by_key(db, h2, &got, NULL), FIG_OK);
    assert_string_equal(got.id, "");   /* unknown: not an error */
    bool found;
    assert_int_equal(fig_db_key_add(db, ann.id, h2, 1800000001, &found, NULL), FIG_OK);
    assert_true(found);
    assert_int_equal(fig_db_key_add(db, "2222222222", h2, 1, &found, NULL), FIG_OK);
    assert_false(found);
    /* sign out drops one key: the other still works */
    assert_int_equal(fig_db_key_drop(db, h1, NULL), FIG_OK);
    assert_int_equal(fig_db_person_by_key(db, h1, &got, NULL), FIG_OK);
    assert_string_equal(got.id, "");
    assert_int_equal(fig_db_person_by_key(db, h2, &got, NULL), FIG_OK);
    assert_string_equal(got.id, ann.id);
    /* renamed, hidden, shown again; an id that is not one finds nobody */
    assert_int_equal(fig_db_person_set(db, ann.id, "Ann B", -1, &got, NULL), FIG_OK);
    assert_string_equal(got.name, "Ann B");
    assert_false(got.hidden);
    assert_int_equal(fig_db_person_set(db, ann.id, NULL, 1, &got, NULL), FIG_OK);
    assert_true(got.hidden);
    assert_string_equal(got.name, "Ann B");
    assert_int_equal(fig_db_person_get(db, ann.id, &got, NULL), FIG_OK);
    assert_true(got.hidden);
    assert_int_equal(fig_db_person_set(db, ann.id, NULL, 0, &got, NULL), FIG_OK);
    assert_false(got.hidden);
    const char *bad[] = { "", "2222222222", "x' OR '1'='1", "22222222222" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(fig_db_person_get(db, bad[i], &got, NULL), FIG_OK);
        assert_string_equal(got.id, "");
        assert_int_equal(fig_db_person_set(db, bad[i], "X", 1, &got, NULL), FIG_OK);
        assert_string_equal(got.id, "");
    }
    fig_msg_t msg;
    assert_int_equal(fig_db_person_new(db, "", h1, 1, &got, &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_db_person_new(db, "Bob", "abc", 1, &got, &msg), FIG_ERR_INPUT);
    fig_db_close(db);
}

static void test_device_codes(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    fig_db_person_t ann, got;
    char h[FIG_HASH_HEX + 1], c1[FIG_TOKEN_HEX + 1], ch1[FIG_HASH_HEX + 1];
    char c2[FIG_TOKEN_HEX + 1], ch2[FIG_HASH_HEX + 1], k[FIG_TOKEN_HEX + 1];
    char kh[FIG_HASH_HEX + 1], kh2[FIG_HASH_HEX + 1];
    person(db, "Ann", &ann, h);
    new_key(c1, ch1);
    new_key(c2, ch2);
    new_key(k, kh);
    new_key(k, kh2);
    long long t0 = 1800000100;
    bool found;
    assert_int_equal(fig_db_code_new(db, ann.id, ch1, t0, &found, NULL), FIG_OK);
    assert_true(found);
    /* a new code replaces the old one */
    assert_int_equal(fig_db_code_new(db, ann.id, ch2, t0 + 1, &found, NULL), FIG_OK);
    assert_int_equal(fig_db_code_redeem(db, ch1, kh, t0 + 2, &got, NULL), FIG_OK);
    assert_string_equal(got.id, "");
    /* expired: refused (the same answer), and gone */
    assert_int_equal(fig_db_code_redeem(db, ch2, kh, t0 + 1 + FIG_DB_DEVICE_CODE_S, &got, NULL),
                     FIG_OK);
    assert_string_equal(got.id, "");
    assert_int_equal(count(db, "SELECT count(*) FROM device_codes WHERE person = $1", ann.id), 0);
    /* a live one: the new device's own key, once */
    assert_int_equal(fig_db_code_new(db, ann.id, ch1, t0 + 10, &found, NULL), FIG_OK);
    assert_int_equal(fig_db_code_redeem(db, ch1, kh, t0 + 9 + FIG_DB_DEVICE_CODE_S, &got, NULL),
                     FIG_OK);
    assert_string_equal(got.id, ann.id);
    assert_string_equal(got.name, "Ann");
    assert_int_equal(fig_db_code_redeem(db, ch1, kh2, t0 + 12, &got, NULL), FIG_OK);
    assert_string_equal(got.id, "");   /* used */
    assert_int_equal(fig_db_person_by_key(db, kh, &got, NULL), FIG_OK);
    assert_string_equal(got.id, ann.id);
    assert_int_equal(fig_db_person_by_key(db, h, &got, NULL), FIG_OK);
    assert_string_equal(got.id, ann.id);   /* the first device's key still works */
    assert_int_equal(fig_db_code_new(db, "3333333333", ch1, t0, &found, NULL), FIG_OK);
    assert_false(found);
    fig_db_close(db);
}

/* ---- a game's result */

typedef struct {
    char code[8];
    fig_db_person_t p[3];
    char h[3][FIG_HASH_HEX + 1];
    fig_db_result_t r;
} game_t;

/* Ann, Bob and Cid (new people) and a bot at a new table; the result of a
 * game: places 3 1 4 2 (Bob first, the bot second), rated. */
static game_t *new_game(fig_db_t *db)
{
    game_t *g = calloc(1, sizeof *g);
    assert_non_null(g);
    const char *names[] = { "Ann", "Bob", "Cid", NULL };
    for (int i = 0; i < 3; i++)
        person(db, names[i], &g->p[i], g->h[i]);
    const char *ids[] = { g->p[0].id, g->p[1].id, g->p[2].id, NULL };
    add_table(db, g->code, 4, 1800000200, ids, names);
    fig_db_result_t *r = &g->r;
    r->players = 4;
    r->rated = true;
    r->ended = 1800000300;
    r->fgn = "players 4\nnames Ann Bob Cid Bot\nseed 1\n";
    static const int places[] = { 3, 1, 4, 2 };
    for (int i = 0; i < 4; i++) {
        fig_db_result_seat_t *s = &r->seats[i];
        s->kind = i < 3 ? FIG_DB_RS_PERSON : FIG_DB_RS_BOT;
        s->place = places[i];
        snprintf(s->name, sizeof s->name, "%s", i < 3 ? names[i] : "Bot");
        if (i < 3)
            strcpy(s->person, g->p[i].id);
        else
            strcpy(s->level, "normal");
        s->fixed = i < 3 ? fig_rating_initial() : (fig_rating_t){ 24.5, 1.5 };
    }
    return g;
}

/* The result in a batch of its own (with the game's last action, as the
 * server writes it: the storage does not check the action). */
static fig_err_t write_result(fig_db_t *db, game_t *g, int game)
{
    fig_db_batch_t *b = calloc(1, sizeof *b);
    assert_non_null(b);
    b->n = 1;
    b->w[0].kind = FIG_DBW_RESULT;
    strcpy(b->w[0].code, g->code);
    b->w[0].game = game;
    b->w[0].result = &g->r;
    fig_err_t rc = apply_batch(db, b);
    free(b);
    return rc;
}

/* What fig_rating_update makes of g's result from the ratings `before`. */
static void expected(const game_t *g, const fig_rating_t before[3], fig_rating_t out[4])
{
    fig_rating_seat_t in[4];
    for (int i = 0; i < 4; i++)
        in[i] = (fig_rating_seat_t){ i < 3 ? before[i] : g->r.seats[i].fixed,
                                     g->r.seats[i].place, i == 3 };
    assert_int_equal(fig_rating_update(in, 4, out, NULL), FIG_OK);
}

typedef struct {
    fig_db_played_t p[4];
    char seats[4][1024];
    int n;
} played_t;

static fig_err_t on_played(void *ctx, const fig_db_played_t *p, fig_msg_t *msg)
{
    (void)msg;
    played_t *l = ctx;
    assert_true(l->n < 4);
    l->p[l->n] = *p;
    snprintf(l->seats[l->n], sizeof l->seats[0], "%s", p->seats);
    l->p[l->n].seats = l->seats[l->n];
    l->n++;
    return FIG_OK;
}

static void test_result_rates_once(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    game_t *g = new_game(db);
    fig_rating_t before[3] = { fig_rating_initial(), fig_rating_initial(), fig_rating_initial() };
    fig_rating_t want[4];
    expected(g, before, want);
    assert_int_equal(write_result(db, g, 1), FIG_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(g->r.seats[i].before.mu == before[i].mu);
        assert_true(g->r.seats[i].after.mu == want[i].mu);       /* the same doubles */
        assert_true(g->r.seats[i].after.sigma == want[i].sigma);
        fig_db_person_t got;
        assert_int_equal(fig_db_person_get(db, g->p[i].id, &got, NULL), FIG_OK);
        assert_true(got.mu == want[i].mu && got.sigma == want[i].sigma);   /* read back exactly */
        assert_int_equal(got.rated, 1);
    }
    assert_true(want[1].mu > FIG_RATING_MU0 && want[2].mu < FIG_RATING_MU0);
    /* the second game starts from the first's ratings */
    for (int i = 0; i < 3; i++)
        before[i] = want[i];
    expected(g, before, want);
    g->r.ended++;
    assert_int_equal(write_result(db, g, 2), FIG_OK);
    assert_true(g->r.seats[0].after.mu == want[0].mu && g->r.seats[0].after.sigma == want[0].sigma);
    /* not rated: a played row, the rating as it was */
    g->r.rated = false;
    assert_int_equal(write_result(db, g, 3), FIG_OK);
    assert_true(g->r.seats[0].after.mu == want[0].mu && g->r.seats[0].before.mu == want[0].mu);
    played_t *l = calloc(1, sizeof *l);
    assert_non_null(l);
    assert_int_equal(fig_db_person_played(db, g->p[1].id, on_played, l, NULL), FIG_OK);
    assert_int_equal(l->n, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(l->p[i].idx, i);
        assert_string_equal(l->p[i].code, g->code);
        assert_int_equal(l->p[i].game, i + 1);
        assert_int_equal(l->p[i].seat, 1);
        assert_int_equal(l->p[i].players, 4);
        assert_int_equal(l->p[i].place, 1);
        assert_int_equal(l->p[i].rated, i < 2);
    }
    assert_true(l->p[1].mu == want[1].mu && l->p[2].mu == want[1].mu);
    assert_int_equal(l->p[0].ended, 1800000300);
    char want_seats[512];
    snprintf(want_seats, sizeof want_seats,
             "[{\"kind\":\"person\",\"name\":\"Ann\",\"id\":\"%s\",\"place\":3},"
             "{\"kind\":\"me\",\"name\":\"Bob\",\"place\":1},"
             "{\"kind\":\"person\",\"name\":\"Cid\",\"id\":\"%s\",\"place\":4},"
             "{\"kind\":\"bot\",\"name\":\"Bot\",\"level\":\"normal\",\"place\":2}]",
             g->p[0].id, g->p[2].id);
    assert_string_equal(l->p[0].seats, want_seats);
    char *fgn;
    assert_int_equal(fig_db_played_record(db, g->p[1].id, 2, &fgn, NULL), FIG_OK);
    assert_string_equal(fgn, g->r.fgn);
    free(fgn);
    assert_int_equal(fig_db_played_record(db, g->p[1].id, 3, &fgn, NULL), FIG_OK);
    assert_null(fgn);
    /* one record per game, shared by its people's rows */
    assert_int_equal(count(db, "SELECT count(DISTINCT record) FROM played WHERE code = $1",
                           g->code), 3);
    free(l);
    free(g);
    fig_db_close(db);
}

/* A batch whose other write fails stores nothing of the result, before or
 * after it in the batch, alone or in a group. */
static void test_result_all_or_nothing(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    game_t *g = new_game(db);
    fig_db_game_t *gm = calloc(1, sizeof *gm);
    assert_non_null(gm);
    fig_setup_random(&gm->setup, 4, 7, NULL);
    fig_db_batch_t *b = calloc(1, sizeof *b), *c = calloc(1, sizeof *c);
    assert_true(b && c);
    b->n = 2;
    b->w[0] = (fig_db_write_t){ .kind = FIG_DBW_GAME, .game = 1, .setup = gm->setup };
    b->w[1] = (fig_db_write_t){ .kind = FIG_DBW_ACTION, .game = 1, .index = 0 };
    strcpy(b->w[0].code, g->code);
    strcpy(b->w[1].code, g->code);
    b->w[1].action.action = FIG_ACT_TAKE;
    assert_int_equal(apply_batch(db, b), FIG_OK);
    for (int order = 0; order < 2; order++) {
        /* the result, and action 0 again (refused), in either order */
        memset(b, 0, sizeof *b);
        b->n = 2;
        b->w[order] = (fig_db_write_t){ .kind = FIG_DBW_RESULT, .game = 1, .result = &g->r };
        b->w[1 - order] = (fig_db_write_t){ .kind = FIG_DBW_ACTION, .game = 1, .index = 0 };
        strcpy(b->w[0].code, g->code);
        strcpy(b->w[1].code, g->code);
        b->w[1 - order].action.action = FIG_ACT_TAKE;
        memset(c, 0, sizeof *c);   /* a group: another batch, kept */
        c->n = 1;
        c->w[0] = (fig_db_write_t){ .kind = FIG_DBW_EVENTS, .ev = 7 + order };
        strcpy(c->w[0].code, g->code);
        b->next = order ? c : NULL;
        assert_int_equal(apply_batch(db, b), FIG_ERR_STATE);
        if (order)
            assert_int_equal(c->rc, FIG_OK);
        for (int i = 0; i < 3; i++) {
            fig_db_person_t got;
            assert_int_equal(fig_db_person_get(db, g->p[i].id, &got, NULL), FIG_OK);
            assert_true(got.mu == FIG_RATING_MU0 && got.sigma == FIG_RATING_SIGMA0);
            assert_int_equal(got.rated, 0);
            assert_int_equal(count(db, "SELECT count(*) FROM played WHERE person = $1",
                                   g->p[i].id), 0);
        }
    }
    /* a bad result fails its batch alone, and says so */
    g->r.seats[0].place = 2;   /* two seconds */
    assert_int_equal(write_result(db, g, 1), FIG_ERR_INPUT);
    g->r.seats[0].place = 3;
    strcpy(g->r.seats[3].name, "\xff");   /* not UTF-8 */
    assert_int_equal(write_result(db, g, 1), FIG_ERR_INPUT);
    strcpy(g->r.seats[3].name, "Bot");
    g->r.players = 7;
    assert_int_equal(write_result(db, g, 1), FIG_ERR_INPUT);
    g->r.players = 4;
    assert_int_equal(count(db, "SELECT count(*) FROM played WHERE code = $1", g->code), 0);
    assert_int_equal(write_result(db, g, 1), FIG_OK);   /* the same, good: stored */
    assert_int_equal(count(db, "SELECT count(*) FROM played WHERE code = $1", g->code), 3);
    free(b);
    free(c);
    free(gm);
    free(g);
    fig_db_close(db);
}

/* ---- forget me */

static void test_forget(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    game_t *g = new_game(db);   /* Ann, Bob, Cid play a game; Ann's seat is forgotten */
    assert_int_equal(write_result(db, g, 1), FIG_OK);
    game_t *solo = new_game(db);   /* and Ann alone (of the three) plays one more */
    strcpy(solo->p[0].id, g->p[0].id);
    strcpy(solo->r.seats[0].person, g->p[0].id);
    solo->r.seats[1].kind = solo->r.seats[2].kind = FIG_DB_RS_ANONYMOUS;
    assert_int_equal(write_result(db, solo, 1), FIG_OK);
    /* a running table where Ann sits beside a seat already named Anonymous */
    char running[8];
    const char *ids[] = { g->p[0].id, g->p[1].id, NULL };
    const char *names[] = { "Ann", "anonymous", NULL };
    add_table(db, running, 3, 1800000400, ids, names);
    char ch[FIG_HASH_HEX + 1], c[FIG_TOKEN_HEX + 1];
    new_key(c, ch);
    bool found;
    assert_int_equal(fig_db_code_new(db, g->p[0].id, ch, 1800000000, &found, NULL), FIG_OK);
    const char *ann = g->p[0].id;
    assert_int_equal(count(db, "SELECT count(*) FROM records WHERE id IN (SELECT record FROM "
                           "played WHERE person = $1)", ann), 2);

    assert_int_equal(fig_db_person_forget(db, ann, 1800000500, &found, NULL), FIG_OK);
    assert_true(found);
    static const char *const none[] = {
        "SELECT count(*) FROM people WHERE id = $1",
        "SELECT count(*) FROM person_keys WHERE person = $1",
        "SELECT count(*) FROM device_codes WHERE person = $1",
        "SELECT count(*) FROM played WHERE person = $1",
        "SELECT count(*) FROM seats WHERE person = $1",
        "SELECT count(*) FROM played WHERE seats LIKE '%' || $1 || '%'",
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_int_equal(count(db, none[i], ann), 0);
    fig_db_person_t got;
    assert_int_equal(fig_db_person_by_key(db, g->h[0], &got, NULL), FIG_OK);
    assert_string_equal(got.id, "");
    /* Ann's solo record went with her; the shared one stays for Bob, anonymous */
    assert_int_equal(count(db, "SELECT count(*) FROM played WHERE code = $1", solo->code), 0);
    char *fgn;
    assert_int_equal(fig_db_played_record(db, g->p[1].id, 0, &fgn, NULL), FIG_OK);
    assert_string_equal(fgn, "players 4\nnames Anonymous Bob Cid Bot\nseed 1\n");
    free(fgn);
    played_t *l = calloc(1, sizeof *l);
    assert_non_null(l);
    assert_int_equal(fig_db_person_played(db, g->p[1].id, on_played, l, NULL), FIG_OK);
    assert_int_equal(l->n, 1);
    assert_non_null(strstr(l->p[0].seats, "{\"kind\":\"anonymous\",\"name\":\"Anonymous\","
                                          "\"place\":3}"));
    /* the seats: no person, Anonymous (numbered beside "anonymous") */
    assert_int_equal(count(db, "SELECT count(*) FROM seats WHERE code = $1 AND seat = 0 AND "
                           "name = 'Anonymous2' AND person IS NULL", running), 1);
    assert_int_equal(count(db, "SELECT count(*) FROM seats WHERE code = $1 AND seat = 0 AND "
                           "name = 'Anonymous' AND person IS NULL", g->code), 1);
    assert_int_equal(count(db, "SELECT count(*) FROM seats WHERE code = $1 AND "
                           "token_hash <> ''", running), 2);   /* the seat token still works */
    assert_int_equal(fig_db_person_forget(db, ann, 1800000500, &found, NULL), FIG_OK);
    assert_false(found);
    free(l);
    free(solo);
    free(g);
    fig_db_close(db);
}

/* ---- the log of the people forgotten */

static void test_forgotten_log(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    fig_db_person_t p[3];
    char h[FIG_HASH_HEX + 1];
    const char *names[] = { "Una", "Vic", "Wes" };
    for (int i = 0; i < 3; i++)
        person(db, names[i], &p[i], h);
    long long mark, last;
    assert_int_equal(fig_db_forgotten_last(db, &mark, NULL), FIG_OK);
    const long long t0 = 1800000000;
    bool found;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(fig_db_person_forget(db, p[i].id, t0 + i, &found, NULL), FIG_OK);
        assert_true(found);
    }
    /* a forget that finds nobody logs nothing */
    assert_int_equal(fig_db_person_forget(db, p[0].id, t0 + 2, &found, NULL), FIG_OK);
    assert_false(found);
    fig_db_forgotten_t rows[4];
    int n;
    assert_int_equal(fig_db_forgotten_since(db, mark, rows, 4, &n, NULL), FIG_OK);
    assert_int_equal(n, 2);
    assert_string_equal(rows[0].person, p[0].id);
    assert_string_equal(rows[1].person, p[1].id);
    assert_true(mark < rows[0].seq && rows[0].seq < rows[1].seq);
    assert_int_equal(fig_db_forgotten_last(db, &last, NULL), FIG_OK);
    assert_true(last == rows[1].seq);
    /* at most max, oldest first; then from a mark */
    assert_int_equal(fig_db_forgotten_since(db, mark, rows, 1, &n, NULL), FIG_OK);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].person, p[0].id);
    assert_int_equal(fig_db_forgotten_since(db, rows[0].seq, rows, 4, &n, NULL), FIG_OK);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].person, p[1].id);
    assert_int_equal(fig_db_forgotten_since(db, last, rows, 4, &n, NULL), FIG_OK);
    assert_int_equal(n, 0);
    /* a day later, the rows older than a day go with the next forget; its
     * number still follows the last one given */
    assert_int_equal(fig_db_person_forget(db, p[2].id, t0 + FIG_DB_FORGOTTEN_KEEP_S + 1, &found,
                                          NULL), FIG_OK);
    assert_int_equal(fig_db_forgotten_since(db, mark, rows, 4, &n, NULL), FIG_OK);
    assert_int_equal(n, 2);   /* Una's (a day old) went, Vic's (not quite) stays */
    assert_string_equal(rows[0].person, p[1].id);
    assert_string_equal(rows[1].person, p[2].id);
    assert_true(rows[1].seq > last);
    fig_db_close(db);
}

/* A database of schema 5 (no log) is brought to 6 when opened: the log
 * there and empty, what was stored kept. */
static void test_schema_5_to_6(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    fig_db_person_t kept;
    char h[FIG_HASH_HEX + 1];
    person(db, "Xia", &kept, h);
    bool pg = db->ops->sql->pg;
    fig_msg_t msg;
    if (fig_dbq(db, "DROP TABLE forgotten", NULL, 0, NULL, NULL, &msg) ||
        fig_dbq(db, pg ? "UPDATE figaro_schema SET version = 5" : "PRAGMA user_version = 5", NULL,
                0, NULL, NULL, &msg))
        fail_msg("back to schema 5: %s", msg.text);
    const char *version = pg ? "SELECT max(version) FROM figaro_schema" : "PRAGMA user_version";
    assert_int_equal(count(db, version, NULL), 5);
    fig_db_close(db);
    db = open_db();
    assert_int_equal(count(db, version, NULL), FIG_DB_SCHEMA);
    assert_int_equal(FIG_DB_SCHEMA, 6);
    assert_int_equal(count(db, "SELECT count(*) FROM forgotten", NULL), 0);
    fig_db_person_t got;
    assert_int_equal(fig_db_person_by_key(db, h, &got, NULL), FIG_OK);
    assert_string_equal(got.id, kept.id);
    long long last;
    assert_int_equal(fig_db_forgotten_last(db, &last, NULL), FIG_OK);
    assert_true(last == 0);
    bool found;
    assert_int_equal(fig_db_person_forget(db, kept.id, 1800000000, &found, NULL), FIG_OK);
    assert_int_equal(count(db, "SELECT count(*) FROM forgotten WHERE person = $1", kept.id), 1);
    fig_db_close(db);
}

/* ---- the lists */

typedef struct {
    const char *ids[8];
    int nids;
    int order[8];
    int n;
} seen_t;

static fig_err_t on_person(void *ctx, const fig_db_person_t *p, fig_msg_t *msg)
{
    (void)msg;
    seen_t *s = ctx;
    for (int i = 0; i < s->nids; i++)
        if (strcmp(s->ids[i], p->id) == 0 && s->n < 8)
            s->order[s->n++] = i;
    return FIG_OK;
}

static void test_lists(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    game_t *g = new_game(db);
    fig_db_person_t dee;
    char h[FIG_HASH_HEX + 1];
    char k[FIG_TOKEN_HEX + 1];
    new_key(k, h);   /* Dee: no rated game, not on the leaderboard; made last */
    assert_int_equal(fig_db_person_new(db, "Dee", h, 1800000001, &dee, NULL), FIG_OK);
    assert_int_equal(write_result(db, g, 1), FIG_OK);
    seen_t s = { { g->p[0].id, g->p[1].id, g->p[2].id, dee.id }, 4, { 0 }, 0 };
    assert_int_equal(fig_db_people_list(db, on_person, &s, NULL), FIG_OK);
    assert_int_equal(s.n, 4);   /* all, oldest first (same second: by id) */
    for (int i = 1; i < 3; i++)
        assert_true(strcmp(s.ids[s.order[i - 1]], s.ids[s.order[i]]) < 0);
    assert_int_equal(s.order[3], 3);
    s.n = 0;
    assert_int_equal(fig_db_leaderboard(db, 1000, on_person, &s, NULL), FIG_OK);
    assert_int_equal(s.n, 3);   /* Bob first, then Ann, then Cid: their places */
    assert_int_equal(s.order[0], 1);
    assert_int_equal(s.order[1], 0);
    assert_int_equal(s.order[2], 2);
    fig_db_person_t got;
    assert_int_equal(fig_db_person_set(db, g->p[1].id, NULL, 1, &got, NULL), FIG_OK);
    s.n = 0;
    assert_int_equal(fig_db_leaderboard(db, 1000, on_person, &s, NULL), FIG_OK);
    assert_int_equal(s.n, 2);   /* hidden */
    assert_int_equal(s.order[0], 0);
    /* seats: newest table first, at most FIG_DB_PERSON_SEATS */
    char codes[10][8];
    const char *ids[] = { dee.id, NULL, NULL };
    const char *names[] = { "Dee", NULL, NULL };
    for (int i = 0; i < 10; i++)
        add_table(db, codes[i], 3, 1800001000 + i, ids, names);
    fig_db_person_seat_t seats[FIG_DB_PERSON_SEATS];
    int n;
    assert_int_equal(fig_db_person_seats(db, dee.id, seats, &n, NULL), FIG_OK);
    assert_int_equal(n, FIG_DB_PERSON_SEATS);
    for (int i = 0; i < n; i++) {
        assert_string_equal(seats[i].code, codes[9 - i]);
        assert_int_equal(seats[i].seat, 0);
    }
    assert_int_equal(fig_db_person_seats(db, "4444444444", seats, &n, NULL), FIG_OK);
    assert_int_equal(n, 0);
    free(g);
    fig_db_close(db);
}

/* ---- secrets: only their hashes stored */

static bool file_holds(const char *path, const char *text)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t len = strlen(text), n = 0;
    char *buf = NULL;
    for (size_t cap = 0;;) {
        if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 1 << 16)))
            fail_msg("out of memory");
        size_t k = fread(buf + n, 1, cap - n, f);
        if (!k)
            break;
        n += k;
    }
    fclose(f);
    bool hit = false;
    for (size_t i = 0; i + len <= n && !hit; i++)
        hit = memcmp(buf + i, text, len) == 0;
    free(buf);
    return hit;
}

/* The rows hold the hashes; an SQLite file holds no key and no code. */
static void test_secrets_not_stored(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char key[FIG_TOKEN_HEX + 1], hash[FIG_HASH_HEX + 1], code[9], ch[FIG_HASH_HEX + 1];
    new_key(key, hash);
    fig_db_person_t p;
    assert_int_equal(fig_db_person_new(db, "Eve", hash, 1, &p, NULL), FIG_OK);
    assert_int_equal(fig_code_new(code, 8, NULL), FIG_OK);
    code[8] = '\0';
    assert_int_equal(fig_sha256_hex(code, 8, ch, NULL), FIG_OK);
    bool found;
    assert_int_equal(fig_db_code_new(db, p.id, ch, 1, &found, NULL), FIG_OK);
    assert_int_equal(count(db, "SELECT count(*) FROM person_keys WHERE hash = $1", hash), 1);
    assert_int_equal(count(db, "SELECT count(*) FROM person_keys WHERE hash = $1", key), 0);
    assert_int_equal(count(db, "SELECT count(*) FROM device_codes WHERE hash = $1", ch), 1);
    assert_int_equal(count(db, "SELECT count(*) FROM device_codes WHERE hash = $1", code), 0);
    fig_db_close(db);
    if (!dir[0])
        return;   /* PostgreSQL: its files are its server's */
    char path[128];
    const char *suffix[] = { "", "-wal" };
    bool name_seen = false;
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/figaro.sqlite%s", dir, suffix[i]);
        assert_false(file_holds(path, key));
        assert_false(file_holds(path, code));
        name_seen = name_seen || file_holds(path, hash);   /* the check can see */
    }
    assert_true(name_seen);
}

int main(void)
{
    const char *env = getenv("FIGARO_TEST_DB");
    if (env && env[0]) {
        snprintf(url, sizeof url, "%s", env);
    } else {
        strcpy(dir, "/tmp/figaro-dbp-XXXXXX");
        if (!mkdtemp(dir))
            return 1;
        snprintf(url, sizeof url, "sqlite:%s/figaro.sqlite", dir);
    }
    char shown[4200];
    fig_db_url_shown(url, shown, sizeof shown);
    printf("storage: %s\n", shown);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_person_and_keys),
        cmocka_unit_test(test_device_codes),
        cmocka_unit_test(test_result_rates_once),
        cmocka_unit_test(test_result_all_or_nothing),
        cmocka_unit_test(test_forget),
        cmocka_unit_test(test_forgotten_log),
        cmocka_unit_test(test_schema_5_to_6),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_secrets_not_stored),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (dir[0]) {
        char p[128];
        const char *suffix[] = { "", "-wal", "-shm" };
        for (int i = 0; i < 3; i++) {
            snprintf(p, sizeof p, "%s/figaro.sqlite%s", dir, suffix[i]);
            unlink(p);
        }
        rmdir(dir);
    }
    return failed;
}
