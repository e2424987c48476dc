/* SPDX-License-Identifier: MIT */
/* test_service_people.c - people (src/net/service/service_people.c,
 * service_conn_index.c), over the recording wire (service_harness.h):
 *
 *   - a signed-in person who leaves ranks last and is rated, the others
 *     keep their order, whatever happens to the server meanwhile; a seat is
 *     resumed by its person from another connection; forget me makes the
 *     seat anonymous at the table and in the games others keep;
 *   - a device code lives 10 minutes, signs in once and is replaced by the
 *     next;
 *   - a rename reaches every connection of the person and nobody else, sign
 *     out every connection of the key, among many people (the index of
 *     connections by person);
 *   - the people's own rate limits;
 *   - forget me reaches every table whose seats hold the person. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/rating.h"
#include "service_harness.h"

/* The played row `idx` of person `id`'s page (owned), through the HTTP API. */
static json_t *played_row(world_t *w, const char *id, int idx)
{
    json_t *page = http_json(w, "/api/people/%s", id);
    json_t *g = json_incref(json_array_get(json_object_get(page, "games"), (size_t)idx));
    json_decref(page);
    assert_non_null(g);
    return g;
}

/* Two signed-in people and two bots; Bob goes mid-game and a bot ends his
 * game: he ranks last (his played row says so) and is rated; Ann keeps her
 * order among those who stayed and is told her rating. The seats are
 * theirs: the snapshot of a connection that signs in with Ann's key and
 * sends `resume` is hers. Then Bob forgets himself: the table in memory
 * and Ann's kept game call him Anonymous. */
static void test_leaver_last_and_forget(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "en", "Bob");
    char ann_key[33], bob_key[33], ann_id[11], bob_id[11];
    sign_up(&ann, "Ann", ann_key, ann_id);
    sign_up(&bob, "Bob", bob_key, bob_id);
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy") "," SEAT_BOT("easy"),
                 ",\"hints\":false");
    int from = frames_of(&ann);

    join(&ann, ann.table, "");
    join(&bob, ann.table, "");
    json_t *snap = last_frame(&ann, from, "snapshot");
    assert_true(json_is_true(json_object_get(json_object_get(snap, "options"), "rated")));
    json_decref(snap);
    fig_rng_t rng;
    fig_rng_seed(&rng, 77);
    client_t *both[] = { &ann, &bob };
    int want[2] = { 6, -1 };
    play(w, both, 2, &rng, after_moves, want);
    /* Ann on another connection: resume by her person, no token. */
    client_t ann2;
    cl_open(&ann2, w, "10.0.0.3");
    hello_key(&ann2, ann_key);
    json_t *p = last_frame(&ann2, 0, "person");
    assert_non_null(p);
    assert_string_equal(str(p, "id"), ann_id);
    assert_null(json_object_get(p, "key"));
    json_decref(p);
    cl_send(&ann2, "{\"type\":\"resume\",\"table\":\"%s\"}", ann.table);
    cl_update(&ann2);
    assert_int_equal(ann2.seat, ann.seat);
    assert_string_equal(ann2.token, "");   /* never sent again */
    cl_update(&ann);
    assert_int_equal(ann.seat, -1);         /* unseated: she watches there */
    /* Bob goes; past the grace period a bot plays his seat to the end. */
    int bseat = bob.seat;
    cl_close(&bob);
    w->clock += 30001;
    fig_service_tick(w->svc, w->clock);
    client_t *solo[] = { &ann2 };
    int afrom = frames_of(&ann2);
    play(w, solo, 1, &rng, NULL, NULL);
    for (int i = 0; i < 20; i++)
        pump_world(w, 5);
    cl_update(&ann2);
    json_t *rated = last_frame(&ann2, afrom, "rated");
    assert_non_null(rated);
    assert_string_equal(str(rated, "table"), ann.table);
    json_t *ranking = json_object_get(ann2.view, "ranking");
    assert_int_equal(json_array_size(ranking), 4);
    int stayed_place = 0, k = 0;
    for (size_t i = 0; i < 4; i++) {
        int s = (int)json_integer_value(json_array_get(ranking, i));
        if (s != bseat)
            k++;
        if (s == ann2.seat)
            stayed_place = k;
    }
    json_t *mine = played_row(w, ann_id, 0);
    assert_int_equal(json_integer_value(json_object_get(mine, "place")), stayed_place);
    assert_true(json_is_true(json_object_get(mine, "rated")));
    assert_true(json_real_value(json_object_get(mine, "mu")) ==
                json_real_value(json_object_get(rated, "mu")));
    json_decref(mine);
    json_decref(rated);
    json_t *his = played_row(w, bob_id, 0);
    assert_int_equal(json_integer_value(json_object_get(his, "place")), 4);   /* last */
    assert_true(json_is_true(json_object_get(his, "rated")));
    json_decref(his);
    /* Bob forgets himself, from a new connection. */
    client_t bob2;
    cl_open(&bob2, w, "10.0.0.2");
    hello_key(&bob2, bob_key);
    int bfrom = frames_of(&bob2);
    forget_me(&bob2);
    assert_int_equal(http_status(w, "/api/people/%s", bob_id), 404);
    spectate(&bob2, ann.table);
    snap = last_frame(&bob2, bfrom, "snapshot");
    assert_non_null(snap);
    assert_string_equal(str(json_array_get(json_object_get(snap, "seats"), (size_t)bseat), "name"),
                        "Anonymous");
    json_decref(snap);
    mine = played_row(w, ann_id, 0);
    json_t *seat = json_array_get(json_object_get(mine, "seats"), (size_t)bseat);
    assert_string_equal(str(seat, "kind"), "anonymous");
    json_decref(mine);
    /* Her kept game's replay names him no more than its record does. */
    json_t *replay = http_json(w, "/api/people/%s/games/0.json", ann_id);
    const json_t *names = json_object_get(replay, "names");
    assert_string_equal(json_string_value(json_array_get(names, (size_t)bseat)), "Anonymous");
    for (size_t i = 0; i < json_array_size(names); i++)
        assert_string_not_equal(json_string_value(json_array_get(names, i)), "Bob");
    json_decref(replay);
    assert_int_equal(w->secrets_logged, 0);
    cl_close(&ann);
    cl_close(&ann2);
    cl_close(&bob2);
    world_free(w);
}

/* How the leaver's game goes on in test_leaver_kept. */
typedef enum {
    LV_STAY,        /* no restart: the service that saw the leave ends the game */
    LV_RESTART,     /* a restart after the leave; then a rematch, a restart, its end */
    LV_TAKEN,       /* Cat (not signed in) takes the seat, then a restart */
    LV_FORGOTTEN    /* the leaver forgets himself, then a restart */
} leaver_case_t;

/* A count the SQLite file answers about table `code`'s seat s: the open
 * seat whose person is `id`. */
static uint64_t leaver_rows(world_t *w, const char *code, int s, const char *id)
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM seats WHERE code = '%s' AND seat = %d AND "
             "kind = 'open' AND person = '%s'", code, s, id);
    return db_u64(w, sql);
}

/* Person id's page (owned). */
static json_t *person_page(world_t *w, const char *id)
{
    return http_json(w, "/api/people/%s", id);
}

/* Stops the service and makes it again on the same file; Ann comes back
 * with her key and seat token on a new connection (returned in *ann2). */
static void restart_with(world_t *w, client_t *ann, const char *key, client_t *ann2)
{
    char token[40], table[8];
    strcpy(token, ann->token);
    strcpy(table, ann->table);
    stop_service(w);
    w->clock += 5000;
    start_service(w);
    cl_open(ann2, w, "10.0.0.1");
    char fields[64];
    snprintf(fields, sizeof fields, ",\"key\":\"%s\"", key);
    hello_seat(ann2, fields, table, token);
    assert_true(ann2->snapshot);
    strcpy(ann2->token, token);
    ann2->seat = ann->seat;
}

/* Ann plays the game to its end alone (Bob's seat is a bot's); the
 * `rated` she is told (owned). */
static json_t *ann_ends_it(world_t *w, client_t *ann, fig_rng_t *rng)
{
    client_t *solo[] = { ann };
    int from = frames_of(ann);
    play(w, solo, 1, rng, NULL, NULL);
    json_t *rated = NULL;
    for (int i = 0; i < 40 && !rated; i++) {
        pump_world(w, 5);
        cl_update(ann);
        rated = last_frame(ann, from, "rated");
    }
    assert_non_null(rated);
    return rated;
}

/* Bob's rating after his first game, as fig_rating_update gives it from
 * the places of his played row (both people new, the bots easy). */
static void assert_leaver_rating(const json_t *row, const json_t *page, int bseat)
{
    const json_t *seats = json_object_get(row, "seats");
    int n = (int)json_array_size(seats);
    fig_rating_seat_t in[FIG_MAX_PLAYERS];
    fig_rating_t out[FIG_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        const json_t *x = json_array_get(seats, (size_t)i);
        bool bot = strcmp(str(x, "kind"), "bot") == 0;
        in[i].rating = bot ? fig_rating_level(fig_bot_level_index("easy")) : fig_rating_initial();
        in[i].rank = (int)num(x, "place");
        in[i].fixed = bot;
    }
    assert_int_equal(num(json_array_get(seats, (size_t)bseat), "place"), n);   /* last */
    assert_int_equal(fig_rating_update(in, n, out, NULL), FIG_OK);
    assert_true(fabs(json_real_value(json_object_get(page, "mu")) - out[bseat].mu) < 1e-12);
    assert_true(fabs(json_real_value(json_object_get(page, "sigma")) - out[bseat].sigma) < 1e-12);
    assert_true(out[bseat].mu < fig_rating_initial().mu);
}

static void leaver_case(leaver_case_t how)
{
    world_t *w = world_new(30000);
    client_t ann, bob, cat, ann2, ann3, eve;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "en", "Bob");
    char ann_key[33], bob_key[33], ann_id[11], bob_id[11];
    sign_up(&ann, "Ann", ann_key, ann_id);
    sign_up(&bob, "Bob", bob_key, bob_id);
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy") ","
                       SEAT_BOT("easy"), ",\"hints\":false");
    char code[8];
    strcpy(code, ann.table);
    join(&ann, code, "");
    join(&bob, code, "");
    fig_rng_t rng;
    fig_rng_seed(&rng, 91 + (uint64_t)how);
    client_t *both[] = { &ann, &bob };
    int want[2] = { 6, -1 };
    play(w, both, 2, &rng, after_moves, want);
    int bseat = bob.seat;
    cl_send(&bob, "{\"type\":\"leave\",\"table\":\"%s\"}", code);
    cl_update(&bob);
    assert_int_equal(bob.seat, -1);
    assert_int_equal(leaver_rows(w, code, bseat, bob_id), 1);   /* kept with the open seat */
    if (how == LV_TAKEN) {
        cl_arrive(&cat, w, "10.0.0.3", "en", "Cat");
        join(&cat, code, "Cat");
        assert_int_equal(cat.seat, bseat);
        assert_int_equal(leaver_rows(w, code, bseat, bob_id), 0);
        cl_close(&cat);
    } else if (how == LV_FORGOTTEN) {
        forget_me(&bob);
        assert_int_equal(db_u64(w, "SELECT count(*) FROM seats WHERE person IS NOT NULL AND "
                                   "kind = 'open'"), 0);
    }
    client_t *a = &ann;
    cl_close(&bob);
    if (how != LV_STAY) {
        cl_close(&ann);
        restart_with(w, &ann, ann_key, &ann2);
        a = &ann2;
        /* A spectator after the restart: the open seat shows nobody's id. */
        cl_arrive(&eve, w, "10.0.0.4", "en", "Eve");
        spectate(&eve, code);
        json_t *snap = last_frame(&eve, 0, "snapshot");
        assert_non_null(snap);
        json_t *x = json_array_get(json_object_get(snap, "seats"), (size_t)bseat);
        assert_string_equal(str(x, "kind"), how == LV_TAKEN ? "person" : "open");
        assert_string_not_equal(str(x, "name"), "Bob");
        json_decref(snap);
        if (how == LV_TAKEN) {   /* Cat is gone: past her grace a bot plays her seat */
            w->clock += 30001;
            fig_service_tick(w->svc, w->clock);
        }
    }
    json_decref(ann_ends_it(w, a, &rng));
    json_t *page = person_page(w, ann_id);
    const json_t *mine = json_array_get(json_object_get(page, "games"), 0);
    assert_true(json_is_true(json_object_get(mine, "rated")));
    assert_string_equal(str(json_array_get(json_object_get(mine, "seats"), (size_t)bseat),
                            "kind"), how == LV_STAY || how == LV_RESTART ? "person"
                                                                         : "anonymous");
    json_decref(page);
    if (how == LV_FORGOTTEN) {
        assert_int_equal(http_status(w, "/api/people/%s", bob_id), 404);
    } else {
        page = person_page(w, bob_id);
        const json_t *games = json_object_get(page, "games");
        if (how == LV_TAKEN) {   /* someone else took the seat: not his game */
            assert_int_equal(json_array_size(games), 0);
            assert_int_equal(num(page, "rated"), 0);
        } else {
            assert_int_equal(json_array_size(games), 1);
            assert_int_equal(num(page, "rated"), 1);
            assert_leaver_rating(json_array_get(games, 0), page, bseat);
        }
        json_decref(page);
    }
    if (how == LV_RESTART) {
        /* A rematch: Bob is no leaver of the next game, after a restart too. */
        ask_rematch(a, code, 1);
        cl_update(a);
        for (int i = 0; i < 40 && a->starts == 0; i++) {
            pump_world(w, 5);
            cl_update(a);
        }
        assert_int_equal(a->game, 2);
        assert_int_equal(leaver_rows(w, code, bseat, bob_id), 0);
        cl_close(a);
        cl_close(&eve);
        restart_with(w, a, ann_key, &ann3);
        json_decref(ann_ends_it(w, &ann3, &rng));
        page = person_page(w, bob_id);
        assert_int_equal(json_array_size(json_object_get(page, "games")), 1);
        assert_int_equal(num(page, "rated"), 1);
        json_decref(page);
        page = person_page(w, ann_id);
        assert_int_equal(json_array_size(json_object_get(page, "games")), 2);
        json_decref(page);
        a = &ann3;
    }
    /* Nothing sent to anyone names Bob's id, and no log line holds a key. */
    for (int i = 0; i < w->wire.nconn; i++)
        if (i != bob.id)
            assert_false(frames_hold(w, i, 0, bob_id));
    assert_int_equal(w->secrets_logged, 0);
    cl_close(a);
    if (how != LV_STAY && how != LV_RESTART)
        cl_close(&eve);
    world_free(w);
}

/* A signed-in person who leaves a running game is its leaver whatever
 * happens to the server: after a restart on the same file (the open seat's
 * row keeps them) the game's end ranks him last and rates him as without
 * the restart; the next game does not count him; someone who takes the seat
 * before the end, or his forget me, ends that (and the open seat keeps no
 * trace of him); nothing sent shows his id. */
static void test_leaver_kept(void **state)
{
    (void)state;
    leaver_case(LV_STAY);
    leaver_case(LV_RESTART);
    leaver_case(LV_TAKEN);
    leaver_case(LV_FORGOTTEN);
}

/* A device code lives 10 minutes and signs in once; a new one replaces
 * the old; an unknown, used or expired code gets one answer. */
static void test_device_code_expires(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    w->wall = 1900000000;
    client_t ann, pad;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&pad, w, "10.0.0.2", "en", "Pad");
    char key[33], id[11];
    sign_up(&ann, "Ann", key, id);
    char codes[3][9];
    for (int i = 0; i < 3; i++) {
        json_t *d = ask_frame(&ann, "device_code", "{\"type\":\"device_code\"}");
        assert_int_equal(num(d, "expires_s"), 600);
        snprintf(codes[i], sizeof codes[i], "%s", str(d, "code"));
        json_decref(d);
        w->secrets[w->nsecrets++] = codes[i];
    }
    /* codes[0] and [1] were replaced; [2] is good until 600 s from now. */
    for (int i = 0; i < 2; i++) {
        pad.error[0] = '\0';
        cl_send(&pad, "{\"type\":\"redeem\",\"code\":\"%s\"}", codes[i]);
        cl_update(&pad);
        assert_string_equal(pad.error, "bad_code");
    }
    w->wall += 601;   /* expired */
    pad.error[0] = '\0';
    cl_send(&pad, "{\"type\":\"redeem\",\"code\":\"%s\"}", codes[2]);
    cl_update(&pad);
    assert_string_equal(pad.error, "bad_code");
    /* A fresh one, within its time: once, then never again. */
    char code[9];
    device_code(&ann, code);
    w->secrets[w->nsecrets++] = code;
    w->wall += 599;
    int from = frames_of(&pad);
    pad.error[0] = '\0';
    cl_send(&pad, "{\"type\":\"redeem\",\"code\":\"%s\"}", code);
    cl_update(&pad);
    json_t *p = last_frame(&pad, from, "person");
    assert_non_null(p);
    assert_string_equal(str(p, "id"), id);
    assert_string_not_equal(str(p, "key"), key);   /* its own key */
    json_decref(p);
    client_t eve;
    cl_arrive(&eve, w, "10.0.0.3", "en", "Eve");
    cl_send(&eve, "{\"type\":\"redeem\",\"code\":\"%s\"}", code);
    cl_update(&eve);
    assert_string_equal(eve.error, "bad_code");
    assert_int_equal(w->secrets_logged, 0);
    cl_close(&ann);
    cl_close(&pad);
    cl_close(&eve);
    world_free(w);
}

/* The tabs of one browser share a key, another device has its own: a
 * rename reaches every connection of the person (never a key in it, never
 * to anyone else); sign out ends that key on every connection holding it
 * (told `signed_out`: a seat taken there afterwards is not the person's),
 * not the other device's. */
static void test_person_on_every_connection(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t tab1, tab2, pad, eve;
    cl_open(&tab1, w, "10.0.0.1");
    cl_open(&tab2, w, "10.0.0.1");
    cl_open(&pad, w, "10.0.0.2");
    cl_open(&eve, w, "10.0.0.3");
    hello(&tab1, "en", "Ann");
    hello(&eve, "en", "Eve");
    char key[33], id[11], ekey[33], eid[11];
    sign_up(&tab1, "Ann", key, id);
    sign_up(&eve, "Eve", ekey, eid);
    hello_key(&tab2, key);
    char code[9];
    device_code(&tab1, code);
    w->secrets[w->nsecrets++] = code;
    hello(&pad, "en", "Pad");
    cl_send(&pad, "{\"type\":\"redeem\",\"code\":\"%s\"}", code);
    cl_update(&pad);
    client_t *ours[] = { &tab1, &tab2, &pad };
    int at[3], eat = frames_of(&eve);
    for (int i = 0; i < 3; i++)
        at[i] = frames_of(ours[i]);
    cl_send(&tab1, "{\"type\":\"person_set\",\"name\":\"Ann B\"}");
    for (int i = 0; i < 3; i++) {
        cl_update(ours[i]);
        assert_int_equal(frames_typed(w, ours[i]->id, at[i], "person", NULL), 1);
        json_t *p = last_frame(ours[i], at[i], "person");
        assert_string_equal(str(p, "id"), id);
        assert_string_equal(str(p, "name"), "Ann B");
        assert_null(json_object_get(p, "key"));
        json_decref(p);
    }
    cl_update(&eve);
    assert_int_equal(frames_of(&eve), eat);
    /* tab1 signs out: both tabs are nobody now, the other device is not. */
    for (int i = 0; i < 3; i++)
        at[i] = frames_of(ours[i]);
    cl_send(&tab1, "{\"type\":\"sign_out\"}");
    for (int i = 0; i < 3; i++)
        cl_update(ours[i]);
    assert_int_equal(frames_typed(w, tab1.id, at[0], "signed_out", NULL), 1);
    assert_int_equal(frames_typed(w, tab2.id, at[1], "signed_out", NULL), 1);
    assert_int_equal(frames_typed(w, pad.id, at[2], "signed_out", NULL), 0);
    cl_send(&tab2, "{\"type\":\"device_code\"}");
    cl_update(&tab2);
    assert_true(error_since(w, tab2.id, at[1], "not_signed_in"));
    create_table(&eve, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy"), NULL);
    join(&tab2, eve.table, "Ann");   /* not tied to her */
    cl_send(&pad, "{\"type\":\"person_set\",\"hidden\":true}");
    cl_update(&pad);
    json_t *p = last_frame(&pad, at[2], "person");
    assert_non_null(p);
    assert_int_equal(json_array_size(json_object_get(p, "seats")), 0);
    json_decref(p);
    cl_send(&pad, "{\"type\":\"device_code\"}");
    cl_update(&pad);
    assert_false(error_since(w, pad.id, at[2], "not_signed_in"));
    assert_int_equal(w->secrets_logged, 0);
    cl_close(&tab1);
    cl_close(&tab2);
    cl_close(&pad);
    cl_close(&eve);
    world_free(w);
}

/* The signed-in connections by person stay exact through sign-in (person_new
 * and a key's hello), redeem (a connection becomes another person), close,
 * sign out and forget, among 200 connections of 50 persons: a rename reaches
 * exactly the person's connections, sign out exactly the key's, forget
 * exactly the person's. */
enum { IX_PEOPLE = 50, IX_TABS = 4, IX_CONNS = IX_PEOPLE * IX_TABS };

typedef struct {
    client_t c[IX_CONNS];
    int at[IX_CONNS];
    char key[IX_PEOPLE][33], id[IX_PEOPLE][11];
} ix_world_t;

static client_t *ix(ix_world_t *x, int person, int tab) { return &x->c[person * IX_TABS + tab]; }

static void ix_mark(ix_world_t *x)
{
    for (int i = 0; i < IX_CONNS; i++)
        x->at[i] = x->c[i].cs ? frames_of(&x->c[i]) : 0;
}

/* Which connections got a frame of that type since ix_mark: exactly those
 * of want[0..n) (each once), and no other open one. */
static void ix_expect(world_t *w, ix_world_t *x, const char *type, client_t *const want[], int n)
{
    fig_service_sync(w->svc);
    for (int i = 0; i < IX_CONNS; i++) {
        if (!x->c[i].cs)
            continue;
        bool wanted = false;
        for (int k = 0; k < n; k++)
            wanted |= want[k] == &x->c[i];
        int got = frames_typed(w, x->c[i].id, x->at[i], type, NULL);
        if (got != (wanted ? 1 : 0))
            fail_msg("connection %d (person %d): %d %s frames, %d wanted", i, i / IX_TABS, got,
                     type, wanted ? 1 : 0);
    }
}

static void ix_rename(world_t *w, ix_world_t *x, client_t *by, const char *name,
                      client_t *const want[], int n)
{
    ix_mark(x);
    cl_send(by, "{\"type\":\"person_set\",\"name\":\"%s\"}", name);
    ix_expect(w, x, "person", want, n);
}

static void test_person_index(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    ix_world_t *x = calloc(1, sizeof *x);
    assert_non_null(x);
    for (int p = 0; p < IX_PEOPLE; p++) {
        char addr[32];
        snprintf(addr, sizeof addr, "10.1.%d.%d", p / 200, p % 200);
        for (int t = 0; t < IX_TABS; t++)
            cl_open(ix(x, p, t), w, addr);
        hello(ix(x, p, 0), "en", "P");
        json_t *o = ask_frame(ix(x, p, 0), "person", "{\"type\":\"person_new\",\"name\":\"P%d\"}",
                              p);
        snprintf(x->key[p], sizeof x->key[p], "%s", str(o, "key"));
        snprintf(x->id[p], sizeof x->id[p], "%s", str(o, "id"));
        json_decref(o);
        for (int t = 1; t < IX_TABS; t++) {   /* the browser's other tabs: its key */
            int from = frames_of(ix(x, p, t));
            hello_key(ix(x, p, t), x->key[p]);
            o = last_frame(ix(x, p, t), from, "person");
            assert_non_null(o);
            assert_string_equal(str(o, "id"), x->id[p]);
            json_decref(o);
        }
    }
    /* Signed in: a rename reaches the person's four connections, no other. */
    const int some[] = { 0, 17, 49 };
    for (int i = 0; i < 3; i++) {
        int p = some[i];
        client_t *want[] = { ix(x, p, 0), ix(x, p, 1), ix(x, p, 2), ix(x, p, 3) };
        ix_rename(w, x, ix(x, p, 1 + i), "Renamed", want, 4);
    }
    /* Redeem: (5, 2) becomes person 3, leaving person 5. */
    char code[9];
    device_code(ix(x, 3, 1), code);
    ix_mark(x);
    cl_send(ix(x, 5, 2), "{\"type\":\"redeem\",\"code\":\"%s\"}", code);
    client_t *redeemed[] = { ix(x, 5, 2) };
    ix_expect(w, x, "person", redeemed, 1);
    {
        client_t *want[] = { ix(x, 5, 0), ix(x, 5, 1), ix(x, 5, 3) };
        ix_rename(w, x, ix(x, 5, 0), "Five", want, 3);
    }
    {
        client_t *want[] = { ix(x, 3, 0), ix(x, 3, 1), ix(x, 3, 2), ix(x, 3, 3), ix(x, 5, 2) };
        ix_rename(w, x, ix(x, 3, 0), "Three", want, 5);
    }
    /* Close: the closed connections leave the index (a walk over them would
     * be a use after free). */
    cl_close(ix(x, 7, 0));
    cl_close(ix(x, 7, 1));
    {
        client_t *want[] = { ix(x, 7, 2), ix(x, 7, 3) };
        ix_rename(w, x, ix(x, 7, 2), "Seven", want, 2);
    }
    /* Sign out: the key's connections (3's four), not the redeemed one. */
    ix_mark(x);
    cl_send(ix(x, 3, 0), "{\"type\":\"sign_out\"}");
    {
        client_t *want[] = { ix(x, 3, 0), ix(x, 3, 1), ix(x, 3, 2), ix(x, 3, 3) };
        ix_expect(w, x, "signed_out", want, 4);
    }
    {
        client_t *want[] = { ix(x, 5, 2) };
        ix_rename(w, x, ix(x, 5, 2), "Three again", want, 1);
    }
    /* Forget: person 9's connections, no other; then they are nobody. */
    ix_mark(x);
    cl_send(ix(x, 9, 0), "{\"type\":\"forget_me\"}");
    {
        client_t *want[] = { ix(x, 9, 0), ix(x, 9, 1), ix(x, 9, 2), ix(x, 9, 3) };
        ix_expect(w, x, "forgotten", want, 4);
    }
    ix_mark(x);
    cl_send(ix(x, 9, 3), "{\"type\":\"person_set\",\"name\":\"Nine\"}");
    fig_service_sync(w->svc);
    assert_true(error_since(w, ix(x, 9, 3)->id, x->at[ix(x, 9, 3) - x->c], "not_signed_in"));
    /* A connection signed in again after signing out is found again. */
    hello_key(ix(x, 3, 3), x->key[4]);
    {
        client_t *want[] = { ix(x, 4, 0), ix(x, 4, 1), ix(x, 4, 2), ix(x, 4, 3), ix(x, 3, 3) };
        ix_rename(w, x, ix(x, 4, 0), "Four", want, 5);
    }
    for (int i = 0; i < IX_CONNS; i++)
        if (x->c[i].cs)
            cl_close(&x->c[i]);
    free(x);
    world_free(w);
}

/* The last error connection c got since frame `from`: code and re. */
static void expect_rate(client_t *c, int from, const char *re)
{
    json_t *e = last_frame(c, from, "error");
    assert_non_null(e);
    assert_string_equal(str(e, "code"), "rate");
    assert_string_equal(str(e, "re"), re);
    assert_true(strlen(str(e, "text")) > 0);
    json_decref(e);
}

/* A new person made on a connection of its own from addr: their key. */
static void key_from(world_t *w, const char *addr, char key[33])
{
    client_t c;
    cl_arrive(&c, w, addr, "en", "K");
    json_t *p = ask_frame(&c, "person", "{\"type\":\"person_new\",\"name\":\"K\"}");
    snprintf(key, 33, "%s", str(p, "key"));
    json_decref(p);
    cl_close(&c);
}

/* Renaming, signing out, forgetting and taking a seat back each cost the
 * server a storage call or a snapshot: each has a limit of its own
 * (docs/server.md, "Rate limits"), answered `rate` with the message's re. */
static void test_people_limits(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t a1, a2;
    cl_open(&a1, w, "10.2.0.1");
    cl_open(&a2, w, "10.2.0.1");
    hello(&a1, "en", "Ann");
    char key[33], id[11];
    sign_up(&a1, "Ann", key, id);
    hello_key(&a2, key);
    /* person_set: 10 a minute per person, whichever connection asks. */
    for (int i = 0; i < 10; i++) {
        client_t *c = i % 2 ? &a2 : &a1;
        int from = frames_of(c);
        cl_send(c, "{\"type\":\"person_set\",\"name\":\"Ann %d\"}", i);
        cl_update(c);
        json_t *p = last_frame(c, from, "person");
        assert_non_null(p);
        json_decref(p);
        assert_null(last_frame(c, from, "error"));
    }
    int from = frames_of(&a2);
    cl_send(&a2, "{\"type\":\"person_set\",\"hidden\":true}");
    cl_update(&a2);
    expect_rate(&a2, from, "person_set");
    assert_null(last_frame(&a2, from, "person"));
    w->clock += 60000;
    from = frames_of(&a2);
    cl_send(&a2, "{\"type\":\"person_set\",\"hidden\":true}");
    cl_update(&a2);
    json_t *p = last_frame(&a2, from, "person");
    assert_non_null(p);
    assert_true(json_is_true(json_object_get(p, "hidden")));
    json_decref(p);
    /* resume: 20 a minute per person (the limit before the seat is looked
     * for: the first 20 are told the person holds no seat there). */
    client_t eve;
    cl_arrive(&eve, w, "10.2.0.2", "en", "Eve");
    create_table(&eve, SEAT_PERSON "," SEAT_BOT("easy") "," SEAT_BOT("easy"), NULL);
    for (int i = 0; i < 21; i++) {
        client_t *c = i % 2 ? &a2 : &a1;
        from = frames_of(c);
        cl_send(c, "{\"type\":\"resume\",\"table\":\"%s\"}", eve.table);
        cl_update(c);
        json_t *e = last_frame(c, from, "error");
        assert_non_null(e);
        assert_string_equal(str(e, "code"), i < 20 ? "not_your_seat" : "rate");
        assert_string_equal(str(e, "re"), "resume");
        json_decref(e);
    }
    /* sign_out: 10 a minute per address; forget_me: 5 a minute per address
     * (people made elsewhere, signed in here by their keys). */
    client_t b;
    cl_open(&b, w, "10.2.0.3");
    for (int i = 0; i < 17; i++) {
        char k[33], addr[32];
        snprintf(addr, sizeof addr, "10.3.0.%d", i);
        key_from(w, addr, k);
        const char *type = i < 11 ? "sign_out" : "forget_me";
        bool over = i == 10 || i == 16;
        from = frames_of(&b);
        hello_key(&b, k);
        assert_non_null((p = last_frame(&b, from, "person")));
        json_decref(p);
        cl_send(&b, "{\"type\":\"%s\"}", type);
        cl_update(&b);
        if (over) {
            expect_rate(&b, from, type);
        } else {
            assert_null(last_frame(&b, from, "error"));
            assert_non_null((p = last_frame(&b, from, i < 11 ? "signed_out" : "forgotten")));
            json_decref(p);
        }
    }
    cl_close(&a1);
    cl_close(&a2);
    cl_close(&b);
    cl_close(&eve);
    world_free(w);
}

/* The name seat s has in the snapshot a new spectator of `table` gets. */
static char *seat_name_seen(world_t *w, const char *table, int s)
{
    client_t v;
    cl_arrive(&v, w, "10.4.0.9", "en", "Vic");
    int from = frames_of(&v);
    spectate(&v, table);
    json_t *snap = last_frame(&v, from, "snapshot");
    assert_non_null(snap);
    char *name = strdup(str(json_array_get(json_object_get(snap, "seats"), (size_t)s), "name"));
    json_decref(snap);
    cl_close(&v);
    return name;
}

/* Forget me reaches the tables whose seats hold the person, whether they
 * took the seat here or the table came back from the storage with it (a
 * restart), with no connection of theirs open; a table where they never
 * sat keeps its names (a guest there named Bob stays Bob). */
static void test_forget_at_tables(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, guest;
    cl_arrive(&ann, w, "10.4.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.4.0.2", "en", "Bob");
    cl_arrive(&guest, w, "10.4.0.3", "en", "Bob");
    char ann_key[33], bob_key[33], ann_id[11], bob_id[11];
    sign_up(&ann, "Ann", ann_key, ann_id);
    sign_up(&bob, "Bob", bob_key, bob_id);
    const char *seats = SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy");
    char tables[3][8];
    int bseat[3];
    for (int i = 0; i < 3; i++) {
        create_table(&ann, seats, NULL);
        snprintf(tables[i], sizeof tables[i], "%s", ann.table);
        client_t *sitter = i == 2 ? &guest : &bob;   /* at the third, the guest */
        join(sitter, tables[i], "");
        bseat[i] = sitter->seat;
    }
    /* Tables 0 and 1 hold Bob; they come back from the storage. */
    stop_service(w);
    w->clock += 5000;
    w->keep_idle_ms = 600000;
    start_service(w);
    json_decref(ann.view);
    json_decref(bob.view);
    json_decref(guest.view);
    client_t bob2;
    cl_open(&bob2, w, "10.4.0.2");
    hello_key(&bob2, bob_key);
    create_table(&bob2, seats, NULL);   /* a fourth, taken after the restart */
    char fourth[8];
    snprintf(fourth, sizeof fourth, "%s", bob2.table);
    join(&bob2, fourth, "");
    int fseat = bob2.seat;
    forget_me(&bob2);
    for (int i = 0; i < 3; i++) {
        char *name = seat_name_seen(w, tables[i], bseat[i]);
        assert_string_equal(name, i < 2 ? "Anonymous" : "Bob");
        free(name);
    }
    char *name = seat_name_seen(w, fourth, fseat);
    assert_string_equal(name, "Anonymous");
    free(name);
    /* A table deleted (idle) leaves the index with it: Cy's forget after
     * that touches no freed table. */
    client_t cy;
    cl_arrive(&cy, w, "10.4.0.4", "en", "Cy");
    char cy_key[33], cy_id[11];
    sign_up(&cy, "Cy", cy_key, cy_id);
    create_table(&cy, seats, NULL);
    char gone[8];
    snprintf(gone, sizeof gone, "%s", cy.table);
    join(&cy, gone, "");
    cl_close(&cy);
    cl_close(&bob2);
    w->clock += 600001;
    fig_service_tick(w->svc, w->clock);
    client_t cy2;
    cl_open(&cy2, w, "10.4.0.4");
    hello_key(&cy2, cy_key);
    int from = frames_of(&cy2);
    spectate(&cy2, gone);
    assert_true(error_since(w, cy2.id, from, "no_table"));
    forget_me(&cy2);
    json_decref(cy.view);
    cl_close(&cy2);
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leaver_last_and_forget),
        cmocka_unit_test(test_leaver_kept),
        cmocka_unit_test(test_device_code_expires),
        cmocka_unit_test(test_person_on_every_connection),
        cmocka_unit_test(test_person_index),
        cmocka_unit_test(test_people_limits),
        cmocka_unit_test(test_forget_at_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
