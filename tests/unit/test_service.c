/* SPDX-License-Identifier: MIT */
/* test_service.c - the table service driven by scripted clients over a
 * recording wire (src/net/service.h), with a real SQLite file in a mkdtemp
 * folder and real bots on a real pool.
 *
 * The recording wire is the test harness the libwebsockets wire will
 * replace: it keeps every frame the service sends to every connection,
 * watches the descriptors the service asks for (and poll()s them), and
 * records closes. Clients are scripts that read their frames and answer.
 *
 *   - a full 4-player game, 2 people (English and French) and 2 bots, to
 *     the end; the FGN record is served only then;
 *   - reconnecting mid-game with the last event number gives exactly the
 *     missed events, in order; with an unknown epoch, a snapshot;
 *   - grace period: a fake clock passed to fig_service_tick; the bot plays
 *     the seat only once the grace period is over, the table is told, the
 *     person takes the seat back with the token; the same for a turn's time
 *     limit and "back";
 *   - rematch race: two people ask at once, exactly one new game; then the
 *     earlier game's record is read off the loop and answered later;
 *   - rematch by agreement: a vote is told to everyone with the count,
 *     withdrawn, kept across a restart of the service; the next game starts
 *     only when every person seated asked, or when the one who did not is
 *     gone past the grace period (a bot agrees for them) or left the seat;
 *   - the story after a reload: a connection that takes a seat back or
 *     starts watching mid-game gets in its snapshot exactly the sentences
 *     the live events carried to that seat (or to a spectator), in its
 *     language; after a restart, every deal and action of the game still;
 *   - bad input of every kind: an error to that client only, the table goes
 *     on, nothing is lost;
 *   - the leak test: every frame to every connection during whole games
 *     (seats, a spectator, reconnections, a rematch) is checked: a hand only
 *     in its owner's view and within its owner's deal, legal actions only to
 *     the seat to move, no token to anyone but its owner, no person's key to
 *     anyone but that person's connections (nor in a log line), narration naming
 *     only cards the event made public, stack counts and others' roads only
 *     as R14 and the table's `open` option allow; a snapshot's story names
 *     only cards its history made public;
 *   - a child process that plays and is SIGKILLed at random moments, many
 *     times: the parent reopens the database and finds every action the
 *     child saw acknowledged, and the game goes on to its end;
 *   - /metrics and /healthz;
 *   - reviews: only of one's own seat, only once the game is over, computed
 *     on the pool, told to the one who asked in their language, stored and
 *     then read back (also after a restart) rather than computed again, the
 *     same when computed again; stopped when the asker goes;
 *   - people: a signed-in person who leaves ranks last and is rated, the
 *     others keep their order; a seat is resumed by its person from another
 *     connection; forget me makes the seat anonymous at the table and in
 *     the games others keep; a device code lives 10 minutes, signs in once
 *     and is replaced by the next;
 *   - deletion: finished tables nobody is at go after keep_finished_ms, the
 *     others after keep_idle_ms, from memory and from the database, never
 *     while someone watches; a restart brings back only what is left. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "figaro/figaro.h"
#include "host/lang.h"
#include "host/rating.h"
#include "host/review.h"
#include "host/util.h"
#include "net/proto.h"
#include "net/service.h"

#include "service_harness.h"


/* ---- people at a table */

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

/* Whether a frame the connection got since `from` holds text. */
static bool frames_hold(const world_t *w, int id, int from, const char *text)
{
    const rconn_t *r = &w->wire.c[id];
    for (int i = from; i < r->n; i++)
        if (strstr(r->f[i], text))
            return true;
    return false;
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

/* ---- SIGKILL at random moments */

/* The child: opens the service on the folder, takes its seat back (or makes
 * the table: then "T code token" to the pipe), and plays. Its wire writes
 * "A n seat action" to the pipe for every action event the moment the
 * service hands it over: from then on it may be on the network, so it must
 * already be in the database. Never returns. */
static void child_play(world_t *w, int out, const char *code, const char *token, uint64_t seed)
{
    w->fake_clock = false;
    start_service(w);
    client_t me;
    cl_open(&me, w, "10.0.0.1");
    if (code[0]) {
        hello_seat(&me, "", code, token);
        if (me.seat < 0)
            _exit(3);
    } else {
        hello(&me, "en", "Ann");
        create_table(&me, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("easy") ","
                          SEAT_BOT("random"), NULL);
        dprintf(out, "T %s\n", me.table);
        w->wire.report_fd = out;
        join(&me, me.table, "Ann");
        dprintf(out, "K %s\n", me.token);
    }
    w->wire.report_fd = out;
    fig_rng_t rng;
    fig_rng_seed(&rng, seed);
    for (;;) {
        cl_play(&me, &rng);
        if (me.over) {
            dprintf(out, "O\n");
            pause();
        }
        pump_world(w, 5);
    }
}

typedef struct {
    long long n;
    int seat;
    char a[12];
} ack_t;

/* Reads one line of the child; false at its end. */
static bool child_line(FILE *in, char code[], char token[], ack_t acked[], int *nacked,
                       bool *over)
{
    char line[200];
    if (!fgets(line, sizeof line, in))
        return false;
    ack_t a;
    if (line[0] == 'T')
        sscanf(line, "T %7s", code);
    else if (line[0] == 'K')
        sscanf(line, "K %39s", token);
    else if (line[0] == 'O')
        *over = true;
    else if (line[0] == 'A' && sscanf(line, "A %lld %d %11s", &a.n, &a.seat, a.a) == 3 &&
             (*nacked == 0 || a.n > acked[*nacked - 1].n)) {   /* told again after a restart */
        assert_true(*nacked < 1000);
        acked[(*nacked)++] = a;
    }
    return true;
}

static void test_sigkill(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    stop_service(w);   /* the children run it */
    char code[8] = "", token[40] = "";
    static ack_t acked[1000];
    int nacked = 0, lives = 0;
    bool over = false;
    fig_rng_t rng;
    fig_rng_seed(&rng, 77);
    for (int life = 0; life < 40 && !over; life++, lives++) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(p[0]);
            child_play(w, p[1], code, token, 1000 + (uint64_t)life);
        }
        close(p[1]);
        FILE *in = fdopen(p[0], "r");
        assert_non_null(in);
        /* Kill after a random number of actions told, at a random moment
         * after the last (0-3 ms: mid-think, mid-commit, mid-broadcast). */
        int wait_for = nacked + 1 + (int)fig_rng_below(&rng, 8);
        while (nacked < wait_for && !over && child_line(in, code, token, acked, &nacked, &over))
            ;
        struct timespec nap = { 0, (long)fig_rng_below(&rng, 3000) * 1000L };
        nanosleep(&nap, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        while (child_line(in, code, token, acked, &nacked, &over))
            ;   /* what it wrote before it died was told too */
        fclose(in);
        assert_true(code[0] && token[0]);
        /* Every action told is in the database, with its event number. */
        sqlite3 *db;
        assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, "SELECT ev, seat, action FROM actions "
                                                "WHERE code = ? ORDER BY game, idx", -1, &st,
                                            NULL), SQLITE_OK);
        sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
        int k = 0;
        while (sqlite3_step(st) == SQLITE_ROW && k < nacked) {
            if (sqlite3_column_int64(st, 0) != acked[k].n)
                continue;
            assert_int_equal(sqlite3_column_int(st, 1), acked[k].seat);
            assert_string_equal((const char *)sqlite3_column_text(st, 2), acked[k].a);
            k++;
        }
        sqlite3_finalize(st);
        sqlite3_close(db);
        if (k != nacked)
            fail_msg("life %d: action %d of %d told (event %lld) is not in the database", life,
                     k, nacked, acked[k].n);
    }
    /* Once more, and the game goes on to its end. */
    w->fake_clock = false;
    start_service(w);
    client_t me;
    cl_open(&me, w, "10.0.0.1");
    hello_seat(&me, "", code, token);
    assert_true(me.seat >= 0);
    client_t *one[] = { &me };
    play(w, one, 1, &rng, NULL, NULL);
    fig_game_t g;
    fetch_record(w, code, 1, &g);
    /* The record holds every action told, in order. */
    int k = 0;
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < g.nmoves[r] && k < nacked; i++) {
            char a[16];
            if (g.moves[r][i].seat == acked[k].seat &&
                strcmp(fig_act_format(g.moves[r][i].action, a, sizeof a), acked[k].a) == 0)
                k++;
        }
    assert_int_equal(k, nacked);
    assert_true(nacked >= 30 && lives >= 5);
    cl_close(&me);
    world_free(w);
}

/* Rows of table `code` in the database, every kind together. */
static int rows_of(const world_t *w, const char *code)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    int n = 0;
    const char *q[] = { "SELECT COUNT(*) FROM tables WHERE code = ?",
                        "SELECT COUNT(*) FROM seats WHERE code = ?",
                        "SELECT COUNT(*) FROM games WHERE code = ?",
                        "SELECT COUNT(*) FROM actions WHERE code = ?" };
    for (int i = 0; i < 4; i++) {
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, q[i], -1, &st, NULL), SQLITE_OK);
        sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        n += sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

static int record_status(world_t *w, const char *code)
{
    return http_status(w, "/tables/%s/games/1.fgn", code);
}

static int tables_held(world_t *w)
{
    int status;
    char *body = http(w, "/metrics", &status);
    const char *p = strstr(body, "\nfigaro_tables ");
    assert_non_null(p);
    int n = atoi(p + strlen("\nfigaro_tables "));
    free(body);
    return n;
}

static void test_delete_tables(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    stop_service(w);
    w->keep_finished_ms = 60000;
    w->keep_idle_ms = 600000;
    start_service(w);
    client_t ann, bob, eve, watch;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "en", "Bob");
    cl_arrive(&eve, w, "10.0.0.3", "en", "Eve");
    cl_arrive(&watch, w, "10.0.0.4", "en", "Wat");
    /* A: bots only, watched to its end, then nobody. */
    create_table(&ann, SEAT_BOT("random") "," SEAT_BOT("random") "," SEAT_BOT("random"), NULL);
    char a[8], b[8], c[8], d[8];
    strcpy(a, ann.table);
    cl_send(&watch, "{\"type\":\"spectate\",\"table\":\"%s\"}", a);
    long long end = fig_clock_ms() + 60000;
    for (cl_update(&watch); !watch.over && fig_clock_ms() < end; cl_update(&watch))
        pump_world(w, 10);
    assert_true(watch.over);
    /* B: never started, nobody ever sat. C: Bob sits, plays, goes. D: Eve watches. */
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("random"), NULL);
    strcpy(b, ann.table);
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("random"), NULL);
    strcpy(c, ann.table);
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random"), NULL);
    strcpy(d, ann.table);
    join(&bob, c, "Bob");
    fig_rng_t rng;
    fig_rng_seed(&rng, 8);
    client_t *solo[] = { &bob };
    int want[2] = { 6, -1 };
    play(w, solo, 1, &rng, after_moves, want);
    cl_send(&eve, "{\"type\":\"spectate\",\"table\":\"%s\"}", d);
    long long t0 = w->clock;
    cl_close(&watch);   /* A: nobody from now */
    cl_close(&bob);     /* C: abandoned mid-game */
    assert_int_equal(tables_held(w), 4);
    assert_int_equal(record_status(w, a), 200);
    assert_true(rows_of(w, a) > 0);
    /* The finished table goes first, at keep_finished_ms; not a moment before. */
    long long due = fig_service_next_deadline(w->svc);
    assert_true(due > w->clock && due <= t0 + 60000);
    w->clock = t0 + 59999;
    fig_service_tick(w->svc, w->clock);
    assert_int_equal(tables_held(w), 4);
    w->clock = t0 + 60000;
    fig_service_tick(w->svc, w->clock);
    fig_service_sync(w->svc);
    assert_int_equal(tables_held(w), 3);
    assert_int_equal(record_status(w, a), 404);
    assert_int_equal(rows_of(w, a), 0);
    assert_true(rows_of(w, b) > 0 && rows_of(w, c) > 0 && rows_of(w, d) > 0);
    spectate(&ann, a);
    assert_string_equal(ann.error, "no_table");
    /* A restart brings back the three others; B and C, nobody there, go at
     * keep_idle_ms after the restart; D's watcher is gone with the old server. */
    cl_close(&ann);
    cl_close(&eve);
    stop_service(w);
    w->clock += 5000;
    start_service(w);
    assert_int_equal(tables_held(w), 3);
    long long t1 = w->clock;
    w->clock = t1 + 600000 - 1;
    fig_service_tick(w->svc, w->clock);
    assert_int_equal(tables_held(w), 3);
    /* Eve comes back to D just before: D stays while she watches. */
    client_t eve2;
    cl_arrive(&eve2, w, "10.0.0.3", "en", "Eve");
    spectate(&eve2, d);
    assert_true(eve2.snapshot);
    assert_int_equal(eve2.errors, 0);
    w->clock = t1 + 600000;
    fig_service_tick(w->svc, w->clock);
    fig_service_sync(w->svc);
    assert_int_equal(tables_held(w), 1);
    assert_int_equal(rows_of(w, b) + rows_of(w, c), 0);
    assert_true(rows_of(w, d) > 0);
    w->clock += 10 * 600000LL;
    fig_service_tick(w->svc, w->clock);
    assert_int_equal(tables_held(w), 1);
    /* Once she is gone too, D goes; and a restart finds nothing. */
    cl_close(&eve2);
    assert_true(fig_service_next_deadline(w->svc) == w->clock + 600000);
    w->clock += 600000;
    fig_service_tick(w->svc, w->clock);
    fig_service_sync(w->svc);
    assert_int_equal(rows_of(w, d), 0);
    stop_service(w);
    start_service(w);
    assert_int_equal(tables_held(w), 0);
    world_free(w);
}

static void test_wal_and_no_token_stored(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    sit_people(w, &(person_t){ &ann, "en", "Ann" }, 1,
               SEAT_PERSON "," SEAT_BOT("easy") "," SEAT_BOT("easy"), NULL);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT token_hash FROM seats WHERE kind = 'person'",
                                        -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const char *hash = (const char *)sqlite3_column_text(st, 0);
    assert_int_equal(strlen(hash), 64);
    assert_null(strstr(hash, ann.token));
    sqlite3_finalize(st);
    sqlite3_close(db);
    /* Nowhere in the files either. */
    char path[200];
    const char *files[] = { "figaro.db", "figaro.db-wal" };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", w->dir, files[i]);
        char *data = NULL;
        size_t len = 0;
        if (fig_read_file(path, 64u << 20, &data, &len, NULL, NULL) != FIG_OK)
            continue;
        size_t tl = strlen(ann.token);
        for (size_t at = 0; at + tl <= len; at++)
            assert_false(memcmp(data + at, ann.token, tl) == 0);
        free(data);
    }
    cl_close(&ann);
    world_free(w);
}

/* Event numbers are never told twice (docs/protocol.md, "Events"): chat
 * and seat news are not stored, but their numbers are reserved on the disk
 * ahead of use, so after a restart -- even a SIGKILL, which this stop is as
 * far as the numbers go: nothing is written at the stop -- the table's
 * numbers go on above every one told. Before, a chat numbered 6 was
 * followed after the restart by another 6. And a database of version 1
 * (before the reserve) opens and keeps its tables. */
/* The actions the database holds for table `code`. */
static int stored_actions(const world_t *w, const char *code)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(w->db, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM actions WHERE code = ?1", -1,
                                        &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* A write of an action fails (another connection holds the database's
 * write lock): the person is told `storage`, and the table goes back to
 * the game the database holds by a read of the writer thread, never on the
 * loop thread; an `act` meanwhile is refused with `storage` at once; then
 * the game goes on from what is stored. */
static void test_failed_write_rebuilds_off_loop(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    sit_people(w, &(person_t){ &ann, "en", "Ann" }, 1,
               SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("random"), NULL);
    wait_turn(w, &ann);
    int stored = stored_actions(w, ann.table);
    const char *a = json_string_value(json_array_get(json_object_get(ann.view, "legal"), 0));
    char action[32];
    snprintf(action, sizeof action, "%s", a);

    sqlite3 *lock;
    assert_int_equal(sqlite3_open(w->db, &lock), SQLITE_OK);
    assert_int_equal(sqlite3_exec(lock, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    int from = frames_of(&ann);
    w->clock += 60;
    cl_send(&ann, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s\"}", ann.table,
            ann.game_n, action);
    /* The writer waits for the lock (its busy timeout), then fails. */
    long long end = fig_clock_ms() + 20000;
    while (!error_since(w, ann.id, from, "storage") && fig_clock_ms() < end)
        pump_world(w, 50);
    assert_true(error_since(w, ann.id, from, "storage"));
    /* The read of the stored game is on its way (the writer's, not yet
     * taken back by the loop): an act now is refused at once. */
    assert_int_equal(fig_service_pending(w->svc), 1);
    from = frames_of(&ann);
    w->clock += 60;
    cl_send(&ann, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s\"}", ann.table,
            ann.game_n, action);
    assert_true(error_since(w, ann.id, from, "storage"));
    assert_int_equal(sqlite3_exec(lock, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(lock);

    cl_update(&ann);   /* the read is back: the match is the stored game again */
    assert_int_equal(ann.errors, 2);
    assert_int_equal(stored_actions(w, ann.table), stored);
    assert_true(my_turn(&ann));
    long long before = ann.game_n;
    w->clock += 60;
    cl_send(&ann, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s\"}", ann.table,
            ann.game_n, action);
    cl_update(&ann);
    assert_int_equal(ann.errors, 2);
    assert_true(ann.game_n > before);
    assert_true(stored_actions(w, ann.table) >= stored + 1);
    cl_close(&ann);
    world_free(w);
}

static void test_numbers_never_reused(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    sit_people(w, &(person_t){ &ann, "en", "Ann" }, 1,
               SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random"), NULL);
    for (int i = 0; i < 5; i++) {
        cl_send(&ann, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"line %d\"}", ann.table, i);
        cl_update(&ann);
    }
    assert_int_equal(ann.chats, 5);
    long long told = ann.last_n;
    assert_true(told >= 6);
    char table[8], token[40];
    snprintf(table, sizeof table, "%s", ann.table);
    snprintf(token, sizeof token, "%s", ann.token);
    fig_service_sync(w->svc);
    stop_service(w);
    /* The reserve on the disk covers every number told. */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    long long hw = -1;
    sqlite3_stmt *st;
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT hw FROM events WHERE code = '%s'", table);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    hw = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    assert_true(hw >= told);
    start_service(w);
    client_t again;
    cl_open(&again, w, "10.0.0.1");
    hello_seat(&again, ",\"name\":\"Ann\"", table, token);
    assert_true(again.snapshot);
    cl_send(&again, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"after\"}", table);
    cl_update(&again);
    assert_int_equal(again.chats, 1);
    assert_true(again.last_n > told);
    cl_close(&again);
    stop_service(w);
    /* Version 1: no events table at all (nor rematch votes); the table is
     * found all the same, and its numbers go on from what its rows hold. */
    assert_int_equal(sqlite3_exec(db, "DROP TABLE events; ALTER TABLE seats DROP COLUMN rematch; "
                                      "ALTER TABLE tables DROP COLUMN hints; "
                                      "ALTER TABLE tables DROP COLUMN listed; "
                                      "DROP INDEX seats_person; "
                                      "ALTER TABLE seats DROP COLUMN person; "
                                      "DROP TABLE played; DROP TABLE records; "
                                      "DROP TABLE device_codes; DROP TABLE person_keys; "
                                      "DROP TABLE people; "
                                      "PRAGMA user_version = 1;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    start_service(w);
    client_t old;
    cl_open(&old, w, "10.0.0.1");
    hello_seat(&old, ",\"name\":\"Ann\"", table, token);
    assert_true(old.snapshot);
    assert_int_equal(old.seat, 0);
    assert_int_equal(old.errors, 0);
    cl_close(&old);
    json_decref(ann.view);   /* its connection went with the first service */
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

static json_t *ask_review(world_t *w, client_t *c, int game)
{
    int from = frames_of(c);
    w->clock += 100;
    cl_send(c, "{\"type\":\"review\",\"table\":\"%s\",\"game\":%d}", c->table, game);
    return wait_frame(w, c->id, from, "review");
}

static void expect_review_error(world_t *w, client_t *c, const char *msg, const char *code)
{
    int from = frames_of(c);
    w->clock += 100;
    cl_send(c, "%s", msg);
    json_t *e = wait_frame(w, c->id, from, "error");
    assert_string_equal(str(e, "code"), code);
    assert_string_equal(str(e, "re"), "review");
    assert_true(strlen(str(e, "text")) > 10);
    json_decref(e);
}

static long long stored_reviews(const world_t *w, const char *code, const char *set)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char sql[300];
    if (set) {
        snprintf(sql, sizeof sql, "UPDATE reviews SET review = %s WHERE code = '%s'", set, code);
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM reviews WHERE code = '%s'", code);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long long n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* The review (docs/protocol.md, review) of seat `seat` against the record:
 * every move of that seat reviewed, the graded ones told with the move that
 * was played there, in French words. */
static void check_review(const json_t *rv, const fig_game_t *g, int seat, int game)
{
    assert_int_equal(num(rv, "game"), game);
    assert_int_equal(num(rv, "seat"), seat);
    int mine = 0;
    for (int r = 0; r < g->dealt; r++)
        for (int i = 0; i < g->nmoves[r]; i++)
            mine += g->moves[r][i].seat == seat;
    assert_int_equal(num(rv, "reviewed"), mine);
    assert_true(num(rv, "iterations") > 0);
    const json_t *moves = json_object_get(rv, "moves");
    const json_t *counts = json_object_get(rv, "counts");
    assert_int_equal(json_array_size(moves),
                     num(counts, "inaccuracy") + num(counts, "mistake") + num(counts, "blunder"));
    assert_true(json_array_size(moves) > 0);   /* random moves: some are graded */
    assert_non_null(strstr(str(rv, "summary"), "coups"));   /* "... en N coups" */
    for (size_t k = 0; k < json_array_size(moves); k++) {
        const json_t *m = json_array_get(moves, k);
        int r = (int)num(m, "round") - 1, i = (int)num(m, "index");
        assert_true(r >= 0 && r < g->dealt && i >= 0 && i < g->nmoves[r]);
        assert_int_equal(g->moves[r][i].seat, seat);
        char a[16];
        assert_string_equal(str(m, "played"), fig_act_format(g->moves[r][i].action, a, sizeof a));
        assert_string_not_equal(str(m, "played"), str(m, "best"));
        assert_string_not_equal(str(m, "grade"), "good");
        assert_true(strlen(str(m, "played_say")) > 0 && strlen(str(m, "best_say")) > 0);
        assert_non_null(strstr(str(m, "say"), " de la manche "));   /* in French */
        assert_null(strstr(str(m, "say"), " 0 sur 0 "));   /* its place in its round */
        double pw = json_number_value(json_object_get(m, "played_win"));
        double bw = json_number_value(json_object_get(m, "best_win"));
        assert_true(pw >= 0 && pw <= 1 && bw >= 0 && bw <= 1);
    }
}

/* Reviews: asked by a seated person once the game is over, computed on the
 * pool, told to that person alone in their language, stored once and read
 * back afterwards (even after a restart) instead of being computed again;
 * computed again (the stored one gone) it is the same. Refused during the
 * game, to a spectator, for another seat; stopped when its asker goes. */
static void test_review(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    /* The deal comes from the system's randomness (fair tables): enough
     * search that some of Ann's random moves stand out of its noise in any. */
    stop_service(w);
    w->review_spec = "ismcts:iters=1000," FIG_REVIEW_OPTIONS;
    start_service(w);
    client_t ann, bob, eve;
    client_t *cl[] = { &ann, &bob };
    fig_rng_t rng;
    fig_rng_seed(&rng, 25);
    fig_game_t *g = malloc(sizeof *g);
    fig_review_t *offline = malloc(sizeof *offline);
    assert_non_null(g);
    assert_non_null(offline);
    char msg[200];
    /* Some deals leave nothing to grade in a random player's game (her
     * chance to win and her place are settled early, and no move of hers
     * moves them): the same review computed here from the record says so,
     * and the game is played again at a new table, by new connections. */
    for (int tries = 0;; tries++) {
        assert_true(tries < 6);
        char addr[3][32];
        for (int k = 0; k < 3; k++)
            snprintf(addr[k], sizeof addr[k], "10.0.%d.%d", tries, k + 1);
        cl_open(&ann, w, addr[0]);
        cl_open(&bob, w, addr[1]);
        cl_open(&eve, w, addr[2]);
        hello(&ann, "fr", "Ann");
        hello(&bob, "en", "Bob");
        hello(&eve, "en", "Eve");
        create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random"), NULL);
        join(&ann, ann.table, "Ann");
        join(&bob, ann.table, "Bob");
        snprintf(eve.table, sizeof eve.table, "%s", ann.table);
        spectate(&eve, ann.table);
        snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1}",
                 ann.table);
        expect_review_error(w, &ann, msg, "not_over");   /* nothing during the game */
        play(w, cl, 2, &rng, NULL, NULL);
        fetch_record(w, ann.table, 1, g);
        fig_review_opts_t ro = { .spec = w->review_spec };
        fig_msg_t why;
        assert_int_equal(fig_review_game(g, ann.seat, &ro, offline, &why), FIG_OK);
        if (offline->count[FIG_REVIEW_INACCURACY] + offline->count[FIG_REVIEW_MISTAKE] +
            offline->count[FIG_REVIEW_BLUNDER] > 0)
            break;
    }

    expect_review_error(w, &eve, msg, "not_seated");
    snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1,\"seat\":%d}",
             ann.table, bob.seat);
    expect_review_error(w, &ann, msg, "not_your_seat");
    snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":2}", ann.table);
    expect_review_error(w, &ann, msg, "not_over");
    assert_int_equal(stored_reviews(w, ann.table, NULL), 0);

    int bob_from = frames_of(&bob), eve_from = frames_of(&eve);
    json_t *first = ask_review(w, &ann, 1);
    check_review(first, g, ann.seat, 1);
    /* The review everyone gets: the one computed here from the record. */
    const json_t *counts = json_object_get(first, "counts");
    assert_int_equal(num(counts, "inaccuracy"), offline->count[FIG_REVIEW_INACCURACY]);
    assert_int_equal(num(counts, "mistake"), offline->count[FIG_REVIEW_MISTAKE]);
    assert_int_equal(num(counts, "blunder"), offline->count[FIG_REVIEW_BLUNDER]);
    /* Asked again at once, while it is being stored: answered too. */
    json_t *twice = ask_review(w, &ann, 1);
    assert_true(json_equal(json_object_get(first, "moves"), json_object_get(twice, "moves")));
    json_decref(twice);
    assert_int_equal(frames_typed(w, bob.id, bob_from, "review", NULL), 0);
    assert_int_equal(frames_typed(w, eve.id, eve_from, "review", NULL), 0);
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, ann.table, NULL), 1);

    /* Asked again: the stored one. The row is marked (its iterations) to
     * tell it from a new computation. */
    assert_int_equal(stored_reviews(w, ann.table,
                                    "json_set(review, '$.iterations', 4242)"), 1);
    json_t *again = ask_review(w, &ann, 1);
    assert_int_equal(num(again, "iterations"), 4242);
    assert_true(json_equal(json_object_get(first, "moves"), json_object_get(again, "moves")));
    assert_string_equal(str(first, "summary"), str(again, "summary"));
    json_decref(again);

    /* A second game: one review at a time per connection. */
    for (int i = 0; i < 2; i++) {
        w->clock += 100;
        ask_rematch(cl[i], ann.table, 1);
        cl_update(cl[i]);
    }
    play(w, cl, 2, &rng, NULL, NULL);
    assert_int_equal(ann.game, 2);
    int from = frames_of(&ann);
    w->clock += 100;
    cl_send(&ann, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1}", ann.table);
    snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":2}",
             ann.table);
    expect_review_error(w, &ann, msg, "busy");
    json_decref(wait_frame(w, ann.id, from, "review"));   /* game 1's, stored: read back */
    json_t *second = ask_review(w, &ann, 2);
    assert_int_equal(num(second, "game"), 2);
    json_decref(second);
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, ann.table, NULL), 2);

    /* After a restart, still the stored one (the service reads it). */
    char token[40], table[8];
    snprintf(token, sizeof token, "%s", ann.token);
    snprintf(table, sizeof table, "%s", ann.table);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&eve);
    json_decref(ann.view);
    json_decref(bob.view);
    json_decref(eve.view);
    stop_service(w);
    start_service(w);
    client_t ann2;
    cl_open(&ann2, w, "10.0.0.1");
    hello_seat(&ann2, ",\"lang\":\"fr\"", table, token);
    assert_int_equal(ann2.seat, ann.seat);
    snprintf(ann2.table, sizeof ann2.table, "%s", table);
    again = ask_review(w, &ann2, 1);
    assert_int_equal(num(again, "iterations"), 4242);
    json_decref(again);

    /* Gone from the storage: computed again, the same review (its seed is
     * the game's, its search a fixed number of iterations). */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM reviews", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    again = ask_review(w, &ann2, 1);
    assert_true(json_equal(json_object_get(first, "moves"), json_object_get(again, "moves")));
    assert_int_equal(num(again, "iterations"), num(first, "iterations"));
    json_decref(again);
    json_decref(first);
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, table, NULL), 1);

    /* A slow search, and its asker goes: the worker stops, nothing is
     * stored. */
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM reviews", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    cl_close(&ann2);
    json_decref(ann2.view);
    stop_service(w);
    w->review_spec = "ismcts:ms=5000," FIG_REVIEW_OPTIONS;
    start_service(w);
    client_t ann3;
    cl_open(&ann3, w, "10.0.0.1");
    hello_seat(&ann3, "", table, token);
    cl_send(&ann3, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1}", table);
    long long end = fig_clock_ms() + 10000;
    while (!strstr(w->last_log, "reviewing") && fig_clock_ms() < end)
        pump_world(w, 20);   /* the read comes back, the search starts */
    pump_world(w, 200);
    cl_close(&ann3);
    end = fig_clock_ms() + 20000;
    while (!strstr(w->last_log, "stopped") && fig_clock_ms() < end)
        pump_world(w, 20);
    assert_non_null(strstr(w->last_log, "stopped: nobody waits for it"));
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, table, NULL), 0);
    json_decref(ann3.view);
    free(g);
    free(offline);
    world_free(w);
}

/* With --sync normal and a loop that ends its turns (fig_service_turn), the
 * loop commits small groups itself: a whole game of two people and two bots
 * is told to both, every event in order, as with the writer thread; its
 * record, read back after a restart, is the one served before it; and the
 * loop did commit (/metrics). */
static void test_loop_commits(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    stop_service(w);
    w->quick = true;
    start_service(w);
    client_t ann, bob;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "en", "Bob");
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_PERSON ","
                       SEAT_BOT("random"), NULL);
    join(&ann, ann.table, "");
    join(&bob, ann.table, "Bob");
    fig_rng_t rng;
    fig_rng_seed(&rng, 5);
    client_t *cl[] = { &ann, &bob };
    play(w, cl, 2, &rng, NULL, NULL);
    assert_false(ann.gap || bob.gap);
    assert_int_equal(ann.errors + bob.errors, 0);
    assert_string_equal(ann.record, bob.record);
    char path[64];
    snprintf(path, sizeof path, "/tables/%s/games/1.fgn", ann.table);
    int status;
    char *before = http(w, path, &status);
    assert_int_equal(status, 200);
    char *m = http(w, "/metrics", &status);
    const char *line = strstr(m, "\nfigaro_storage_loop_commits_total ");
    assert_non_null(line);
    assert_true(atoll(line + strlen("\nfigaro_storage_loop_commits_total ")) > 0);
    free(m);
    stop_service(w);
    start_service(w);
    /* Reloaded, the match tells its bots the game's end first: the record
     * is served once they know it. */
    char *after = NULL;
    for (int i = 0; i < 200; i++) {
        free(after);
        after = http(w, path, &status);
        if (status != 409)
            break;
        pump_world(w, 10);
    }
    assert_int_equal(status, 200);
    assert_string_equal(before, after);
    free(before);
    free(after);
    json_decref(ann.view);   /* their connections went with the first service */
    json_decref(bob.view);
    world_free(w);
}

/* ---- the lobby (docs/protocol.md, lobby) */

/* Runs the service's next deadline if it is due by the fake clock. */
static void lobby_tick(world_t *w)
{
    fig_service_sync(w->svc);
    long long d = fig_service_next_deadline(w->svc);
    if (d >= 0 && d <= w->clock)
        fig_service_tick(w->svc, w->clock);
}

/* The lobby frames the client got from frame `from` on: how many, and the
 * last (owned; NULL: none). Every one is checked on the way (R14): no
 * token, no hand, and none of the tokens `secrets` names. */
static int lobby_frames(const client_t *c, int from, json_t **last, const char *const secrets[])
{
    const rconn_t *r = &c->w->wire.c[c->id];
    int k = 0;
    if (last)
        *last = NULL;
    for (int i = from; i < r->n; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        assert_non_null(o);
        if (strcmp(str(o, "type"), "lobby") != 0) {
            json_decref(o);
            continue;
        }
        k++;
        assert_null(strstr(r->f[i], "token"));
        assert_null(strstr(r->f[i], "hand"));
        for (int s = 0; secrets && secrets[s]; s++)
            if (secrets[s][0])
                assert_null(strstr(r->f[i], secrets[s]));
        assert_true(json_is_array(json_object_get(o, "tables")));
        if (last) {
            json_decref(*last);
            *last = o;
        } else {
            json_decref(o);
        }
    }
    return k;
}

/* The lobby's entry of table `code` in frame f, or NULL. */
static json_t *lobby_entry(json_t *f, const char *code)
{
    json_t *a = json_object_get(f, "tables");
    for (size_t i = 0; i < json_array_size(a); i++)
        if (strcmp(str(json_array_get(a, i), "table"), code) == 0)
            return json_array_get(a, i);
    return NULL;
}

static const char *seat_field(json_t *entry, int s, const char *k)
{
    return str(json_array_get(json_object_get(entry, "seats"), (size_t)s), k);
}

static void test_lobby(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, cat, dan;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "en", "Bob");
    cl_arrive(&cat, w, "10.0.0.3", "en", "Cat");
    cl_arrive(&dan, w, "10.0.0.4", "en", "Dan");
    const char *secrets[] = { ann.token, bob.token, dan.token, NULL };
    /* Cat follows the lobby: the list at once, empty. */
    int from = frames_of(&cat);
    cl_send(&cat, "{\"type\":\"lobby\",\"on\":true}");
    json_t *f;
    assert_int_equal(lobby_frames(&cat, from, &f, secrets), 1);
    assert_int_equal(json_array_size(json_object_get(f, "tables")), 0);
    json_decref(f);
    /* An unlisted table with open seats, a listed one with no open seat
     * (bots only), and a listed one: only the last is in the lobby. */
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy"), NULL);
    char hidden[8];
    strcpy(hidden, ann.table);
    create_table(&ann, SEAT_BOT("random") "," SEAT_BOT("random") "," SEAT_BOT("random"),
                 ",\"listed\":true");
    char bots[8];
    strcpy(bots, ann.table);
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("hard"),
                 ",\"listed\":true,\"move_seconds\":60,\"fill\":\"normal\"");
    char code[8];
    strcpy(code, ann.table);
    join(&ann, code, "Ann");
    assert_true(ann.snapshot);
    /* Coalesced: the creation and Ann's seat came less than a second after
     * the first frame: nothing yet, then one frame with both. */
    lobby_tick(w);
    assert_int_equal(lobby_frames(&cat, from, NULL, secrets), 1);
    long long due = fig_service_next_deadline(w->svc);
    assert_true(due > w->clock && due <= w->clock + 1000);
    w->clock = due;
    lobby_tick(w);
    assert_int_equal(lobby_frames(&cat, from, &f, secrets), 2);
    assert_null(lobby_entry(f, hidden));
    assert_null(lobby_entry(f, bots));
    json_t *x = lobby_entry(f, code);
    assert_non_null(x);
    assert_int_equal(json_array_size(json_object_get(f, "tables")), 1);
    assert_int_equal(num(x, "players"), 4);
    assert_int_equal(num(x, "free"), 2);
    assert_string_equal(seat_field(x, 0, "kind"), "person");
    assert_string_equal(seat_field(x, 0, "name"), "Ann");
    assert_string_equal(seat_field(x, 1, "kind"), "open");
    assert_string_equal(seat_field(x, 3, "kind"), "bot");
    assert_string_equal(seat_field(x, 3, "level"), "hard");
    json_t *o = json_object_get(x, "options");
    assert_int_equal(num(o, "move_seconds"), 60);
    assert_string_equal(str(o, "fill"), "normal");
    assert_true(json_is_false(json_object_get(o, "open")));
    assert_true(json_is_false(json_object_get(o, "hints")));   /* two people: off */
    assert_true(json_is_true(json_object_get(o, "rated")));
    json_decref(f);
    /* Bob joins half a second later: told once the second is over. */
    w->clock += 500;
    join(&bob, code, "Bob");
    lobby_tick(w);
    assert_int_equal(lobby_frames(&cat, from, NULL, secrets), 2);
    w->clock = fig_service_next_deadline(w->svc);
    lobby_tick(w);
    assert_int_equal(lobby_frames(&cat, from, &f, secrets), 3);
    x = lobby_entry(f, code);
    assert_non_null(x);
    assert_int_equal(num(x, "free"), 1);
    assert_string_equal(seat_field(x, 1, "name"), "Bob");
    json_decref(f);
    /* Nothing changes: nothing is sent, nothing is due. */
    w->clock += 5000;
    lobby_tick(w);
    assert_int_equal(lobby_frames(&cat, from, NULL, secrets), 3);
    /* Dan takes the last seat: the game starts, the table leaves the lobby. */
    join(&dan, code, "Dan");
    lobby_tick(w);
    assert_int_equal(lobby_frames(&cat, from, &f, secrets), 4);
    assert_int_equal(json_array_size(json_object_get(f, "tables")), 0);
    json_decref(f);
    /* Stopped following: the lobby sends nothing more. */
    cl_send(&cat, "{\"type\":\"lobby\",\"on\":false}");
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy"), ",\"listed\":true");
    w->clock += 2000;
    lobby_tick(w);
    assert_int_equal(lobby_frames(&cat, from, NULL, secrets), 4);
    assert_int_equal(fig_service_next_deadline(w->svc) >= 0 &&
                         fig_service_next_deadline(w->svc) <= w->clock, 0);
    /* Bad lobby messages: refused, to that connection only. */
    cl_send(&cat, "{\"type\":\"lobby\",\"on\":1}");
    cl_update(&cat);
    assert_string_equal(cat.error, "bad_message");
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&cat);
    cl_close(&dan);
    world_free(w);
}

/* A restart keeps `listed` (the SQLite file holds it): the table is in the
 * lobby again, and its snapshot says so; an unlisted one stays out. */
static void test_lobby_restart(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy"), ",\"listed\":true");
    char code[8], hidden[8];
    strcpy(code, ann.table);
    join(&ann, code, "Ann");
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy"), NULL);
    strcpy(hidden, ann.table);
    char sql[120];
    snprintf(sql, sizeof sql, "SELECT listed FROM tables WHERE code = '%s'", code);
    assert_int_equal(db_u64(w, sql), 1);
    snprintf(sql, sizeof sql, "SELECT listed FROM tables WHERE code = '%s'", hidden);
    assert_int_equal(db_u64(w, sql), 0);
    cl_close(&ann);
    stop_service(w);
    w->clock += 5000;
    start_service(w);
    client_t cat;
    cl_arrive(&cat, w, "10.0.0.3", "en", "Cat");
    int from = frames_of(&cat);
    cl_send(&cat, "{\"type\":\"lobby\"}");
    json_t *f;
    assert_int_equal(lobby_frames(&cat, from, &f, NULL), 1);
    assert_int_equal(json_array_size(json_object_get(f, "tables")), 1);
    json_t *x = lobby_entry(f, code);
    assert_non_null(x);
    assert_int_equal(num(x, "free"), 1);
    assert_string_equal(seat_field(x, 0, "name"), "Ann");
    json_decref(f);
    /* The snapshot's options: listed, and not the other. */
    const char *codes[] = { code, hidden };
    for (int i = 0; i < 2; i++) {
        from = frames_of(&cat);
        spectate(&cat, codes[i]);
        assert_true(cat.snapshot);
        json_t *snap = frame_at(w, cat.id, frames_of(&cat) - 1);
        assert_string_equal(str(snap, "type"), "snapshot");
        json_t *listed = json_object_get(json_object_get(snap, "options"), "listed");
        assert_true(i == 0 ? json_is_true(listed) : json_is_false(listed));
        json_decref(snap);
    }
    cl_close(&cat);
    json_decref(ann.view);
    world_free(w);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (getenv("FIGARO_TEST_FILTER"))
        cmocka_set_test_filter(getenv("FIGARO_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_commits),
        cmocka_unit_test(test_leaver_last_and_forget),
        cmocka_unit_test(test_leaver_kept),
        cmocka_unit_test(test_device_code_expires),
        cmocka_unit_test(test_person_on_every_connection),
        cmocka_unit_test(test_person_index),
        cmocka_unit_test(test_people_limits),
        cmocka_unit_test(test_forget_at_tables),
        cmocka_unit_test(test_wal_and_no_token_stored),
        cmocka_unit_test(test_numbers_never_reused),
        cmocka_unit_test(test_failed_write_rebuilds_off_loop),
        cmocka_unit_test(test_delete_tables),
        cmocka_unit_test(test_sigkill),
        cmocka_unit_test(test_review),
        cmocka_unit_test(test_lobby),
        cmocka_unit_test(test_lobby_restart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
