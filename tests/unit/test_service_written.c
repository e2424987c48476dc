/* SPDX-License-Identifier: MIT */
/* test_service_written.c - what the service writes, what comes back from
 * its writer (src/net/service/service_written.c) and how it survives, on a real
 * SQLite file, over the recording wire (service_harness.h):
 *
 *   - the loop commits small groups itself with --sync normal;
 *   - WAL, and no seat token stored, not even in the files;
 *   - event numbers never told twice, across restarts and from a database
 *     of version 1;
 *   - a write that fails: the table goes back to what is stored, read off
 *     the loop thread;
 *   - deletion: finished tables nobody is at go after keep_finished_ms, the
 *     others after keep_idle_ms, from memory and from the database, never
 *     while someone watches; a restart brings back only what is left;
 *   - a child process that plays and is SIGKILLed at random moments, many
 *     times: the parent reopens the database and finds every action the
 *     child saw acknowledged, and the game goes on to its end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "figaro/figaro.h"
#include "host/util.h"
#include "service_harness.h"

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

/* Event numbers are never told twice (docs/protocol.md, "Events"): chat
 * and seat news are not stored, but their numbers are reserved on the disk
 * ahead of use, so after a restart -- even a SIGKILL, which this stop is as
 * far as the numbers go: nothing is written at the stop -- the table's
 * numbers go on above every one told. Before, a chat numbered 6 was
 * followed after the restart by another 6. And a database of version 1
 * (before the reserve) opens and keeps its tables. */
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

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_commits),
        cmocka_unit_test(test_wal_and_no_token_stored),
        cmocka_unit_test(test_numbers_never_reused),
        cmocka_unit_test(test_failed_write_rebuilds_off_loop),
        cmocka_unit_test(test_delete_tables),
        cmocka_unit_test(test_sigkill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
