/* SPDX-License-Identifier: MIT */
/* test_service_message.c - what the service makes of the messages it is
 * sent (src/net/service/service_message.c), over the recording wire
 * (service_harness.h):
 *
 *   - bad input of every kind: an error to that client only, the table goes
 *     on, nothing is lost;
 *   - names as people type them, a bot's name kept from the table's
 *     creation to its end;
 *   - `welcome` lists the bot levels and the languages, and a refusal names
 *     the same lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/lang.h"
#include "net/proto/proto.h"
#include "service_harness.h"

static void test_bad_input(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, eve;
    cl_open(&ann, w, "10.0.0.1");
    cl_open(&bob, w, "10.0.0.2");
    cl_open(&eve, w, "10.0.0.3");
    client_t *not_eve[] = { &ann, &bob }, *not_bob[] = { &ann, &eve };
    expect_error(w, &eve, not_eve, 2, "hello_first", "{\"type\":\"ping\"}");
    expect_error(w, &eve, not_eve, 2, "version", "{\"type\":\"hello\",\"v\":2}");
    hello(&ann, "en", "Ann");
    hello(&bob, "en", "Bob");
    hello(&eve, "fr", "Eve");
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("easy"), NULL);
    join(&ann, ann.table, "Ann");
    join(&bob, ann.table, "Bob");
    spectate(&eve, ann.table);
    assert_true(eve.snapshot);
    /* Let the game reach a person's turn. */
    client_t *mover = wait_mover(w, &ann, &bob), *other = mover == &ann ? &bob : &ann;
    assert_true(my_turn(mover));
    long long n = mover->game_n;
    char buf[10000];
    client_t *watchers[] = { other, &eve };
    expect_error(w, mover, watchers, 2, "bad_json", "{\"type\":\"act\",");
    expect_error(w, mover, watchers, 2, "bad_json", "\"act\"");
    expect_error(w, mover, watchers, 2, "unknown_type", "{\"type\":\"cheat\"}");
    expect_error(w, mover, watchers, 2, "bad_message", "{\"table\":\"ABCDEF\"}");
    memset(buf, 'x', sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    memcpy(buf, "{\"type\":\"chat\",\"text\":\"", 23);
    expect_error(w, mover, watchers, 2, "too_big", buf);
    snprintf(buf, sizeof buf,
             "{\"type\":\"act\",\"table\":\"ZZZZZZ\",\"n\":%lld,\"action\":\"take\"}",
             n);
    expect_error(w, mover, watchers, 2, "no_table", buf);
    /* Wrong, missing and stolen tokens. */
    /* A malformed token is that seat's error, after the welcome. */
    cl_update(&eve);
    int eve_at = frames_of(&eve);
    snprintf(buf, sizeof buf,
             "{\"type\":\"hello\",\"v\":1,\"seats\":[{\"table\":\"ABCDEF\",\"token\":\"1\"}]}");
    fig_service_message(w->svc, eve.cs, buf, strlen(buf));
    assert_int_equal(frames_of(&eve), eve_at + 2);
    assert_non_null(strstr(w->wire.c[eve.id].f[eve_at], "\"welcome\""));
    assert_non_null(strstr(w->wire.c[eve.id].f[eve_at + 1], "\"code\":\"bad_token\""));
    assert_non_null(strstr(w->wire.c[eve.id].f[eve_at + 1], "\"re\":\"hello\""));
    assert_non_null(strstr(w->wire.c[eve.id].f[eve_at + 1], "\"table\":\"ABCDEF\""));
    cl_update(&eve);
    snprintf(buf, sizeof buf, "{\"type\":\"hello\",\"v\":1,\"seats\":[{\"table\":\"%s\","
             "\"token\":\"00000000000000000000000000000000\"}]}", ann.table);
    int eve_before = frames_of(&eve);
    fig_service_message(w->svc, eve.cs, buf, strlen(buf));
    cl_update(&eve);
    assert_string_equal(eve.error, "bad_token");
    assert_int_equal(eve.seat, -1);
    assert_int_equal(frames_of(&eve), eve_before + 2);   /* welcome + the error */
    /* A spectator cannot act; the other person cannot act out of turn. */
    snprintf(buf, sizeof buf, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"take\"}",
             ann.table, n);
    expect_error(w, &eve, not_eve, 2, "not_seated", buf);
    client_t *nobody[] = { mover, &eve };
    expect_error(w, other, nobody, 2, "not_your_turn", buf);
    /* Illegal and malformed actions, a stale event number. */
    snprintf(buf, sizeof buf, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"Q9>9\"}",
             ann.table, n);
    expect_error(w, mover, watchers, 2, "illegal", buf);
    fig_action_t all[FIG_MAX_ACTIONS];
    (void)all;
    /* an action of the right form the rules refuse: a card the mover lacks */
    json_t *hand = json_object_get(mover->view, "hand");
    const char *lack = NULL;
    static const char *const kinds[] = { "R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2", "G3",
                                         "Y1", "Y2", "Y3", "P1", "P2", "P3", "J1", "J2" };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && !lack; k++) {
        bool held = false;
        for (size_t i = 0; i < json_array_size(hand); i++)
            held |= strcmp(json_string_value(json_array_get(hand, i)), kinds[k]) == 0;
        if (!held)
            lack = kinds[k];
    }
    assert_non_null(lack);
    snprintf(buf, sizeof buf, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s>0\"}",
             ann.table, n, lack);
    expect_error(w, mover, watchers, 2, "illegal", buf);
    snprintf(buf, sizeof buf, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"take\"}",
             ann.table, n - 1);
    expect_error(w, mover, watchers, 2, "stale", buf);
    /* Nothing was lost: the same action, answering the right event, plays. */
    const char *legal = json_string_value(json_array_get(json_object_get(mover->view, "legal"), 0));
    char good[200];
    snprintf(good, sizeof good, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s\"}",
             ann.table, n, legal);
    fig_service_message(w->svc, mover->cs, good, strlen(good));
    cl_update(mover);
    assert_true(mover->game_n > n);
    /* Resent: refused as stale, never applied twice. */
    long long after = mover->game_n;
    expect_error(w, mover, watchers, 2, "stale", good);
    assert_int_equal(mover->game_n, after);
    /* Chat: a flood, an oversize line, a bad name, a storm of messages. */
    for (int i = 0; i < 5; i++) {
        snprintf(buf, sizeof buf, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"hi %d\"}",
                 ann.table, i);
        fig_service_message(w->svc, bob.cs, buf, strlen(buf));
    }
    cl_update(&ann);
    assert_int_equal(ann.chats, 5);
    expect_error(w, &bob, not_bob, 2, "chat_flood", buf);
    w->clock += 2000;   /* a line every two seconds is fine */
    cl_update(&ann);
    int chats = ann.chats;
    fig_service_message(w->svc, bob.cs, buf, strlen(buf));
    cl_update(&ann);
    assert_int_equal(ann.chats, chats + 1);
    char line[400];
    memset(line, 'a', 201);
    line[201] = '\0';
    snprintf(buf, sizeof buf, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"%s\"}", ann.table,
             line);
    expect_error(w, &bob, not_bob, 2, "bad_message", buf);
    snprintf(buf, sizeof buf, "{\"type\":\"join\",\"table\":\"%s\",\"name\":\"%s\"}", ann.table,
             "averyveryveryveryveryverylongname");
    expect_error(w, &eve, not_eve, 2, "bad_name", buf);
    snprintf(buf, sizeof buf, "{\"type\":\"join\",\"table\":\"%s\"}", ann.table);
    expect_error(w, &eve, not_eve, 2, "no_seat", buf);
    expect_error(w, &eve, not_eve, 2, "bad_seats", "{\"type\":\"create\",\"seats\":[{\"kind\":"
                 "\"engine\",\"engine\":\"x\"}]}");
    expect_error(w, &eve, not_eve, 2, "unknown_engine", "{\"type\":\"create\",\"seats\":["
                 "{\"kind\":\"person\"},{\"kind\":\"engine\",\"engine\":\"/bin/sh -c reboot\"},"
                 "{\"kind\":\"person\"}]}");
    int got = 0;
    for (int i = 0; i < 100; i++) {
        int k = frames_of(&eve);
        fig_service_message(w->svc, eve.cs, "{\"type\":\"ping\"}", 15);
        got += frames_of(&eve) - k;
    }
    cl_update(&eve);
    assert_string_equal(eve.error, "rate");
    assert_true(got < 60);   /* the burst, then one word about it */
    /* The table went on: the game finishes. */
    fig_rng_t rng;
    fig_rng_seed(&rng, 3);
    client_t *both[] = { &ann, &bob };
    play(w, both, 2, &rng, NULL, NULL);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&eve);
    world_free(w);
}

/* The name of seat `seat` in the latest frame to c that carries the seats
 * (a snapshot, a start, a seat's news); NULL if it is null. */
static const char *latest_seat_name(const client_t *c, int seat, char *buf, size_t cap)
{
    const rconn_t *r = &c->w->wire.c[c->id];
    for (int i = r->n - 1; i >= 0; i--) {
        json_t *f = json_loads(r->f[i], 0, NULL);
        assert_non_null(f);
        const json_t *seats = json_object_get(f, "seats");
        if (json_is_array(seats)) {
            const json_t *n = json_object_get(json_array_get(seats, (size_t)seat), "name");
            const char *v = json_is_string(n) ? json_string_value(n) : NULL;
            if (v)
                snprintf(buf, cap, "%s", v);
            json_decref(f);
            return v ? buf : NULL;
        }
        json_decref(f);
    }
    fail_msg("no frame with the seats");
    return NULL;
}

/* Names as people type them (docs/protocol.md, hello): spaces kept, told
 * as typed, written with '_' in the record; a bot keeps its name from the
 * table's creation to its end, whoever joins and whatever they are called;
 * a spectator chats only with a name. */
static void test_names_at_table(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, sam;
    cl_open(&ann, w, "10.0.0.1");
    cl_open(&bob, w, "10.0.0.2");
    cl_open(&sam, w, "10.0.0.3");
    hello(&ann, "en", "  Ann   Lee \xf0\x9f\x8e\xa9 ");
    hello(&bob, "en", "Rosina");
    cl_send(&sam, "{\"type\":\"hello\",\"v\":1}");   /* no name */
    cl_update(&sam);
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_PERSON ","
                       SEAT_BOT("random"), NULL);
    join(&ann, ann.table, "");
    char b1[200], b3[200], buf[200];
    assert_string_equal(latest_seat_name(&ann, 0, buf, sizeof buf), "Ann Lee \xf0\x9f\x8e\xa9");
    assert_non_null(latest_seat_name(&ann, 1, b1, sizeof b1));
    assert_null(latest_seat_name(&ann, 2, buf, sizeof buf));   /* open, no game yet */
    assert_non_null(latest_seat_name(&ann, 3, b3, sizeof b3));
    assert_string_not_equal(b1, b3);
    /* Sam watches: a spectator without a name cannot chat. */
    spectate(&sam, ann.table);
    client_t *others[] = { &ann, &bob };
    char frame[200];
    snprintf(frame, sizeof frame, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"hi\"}",
             ann.table);
    expect_error(w, &sam, others, 2, "bad_name", frame);
    /* Bob calls himself Rosina, a bot's name: he gets a number, and no bot
     * changes its name as he sits (before, the bot after him was renamed). */
    join(&bob, ann.table, "Rosina");
    assert_int_equal(bob.game, 1);
    for (int s = 0; s < 4; s++) {
        const char *n = latest_seat_name(&ann, s, buf, sizeof buf);
        assert_non_null(n);
        if (s == 1)
            assert_string_equal(n, b1);
        if (s == 3)
            assert_string_equal(n, b3);
        if (s == 2) {
            assert_string_not_equal(n, b1);
            assert_string_not_equal(n, b3);
        }
    }
    assert_string_equal(latest_seat_name(&ann, 2, buf, sizeof buf),
                        strcmp(b1, "Rosina") && strcmp(b3, "Rosina") ? "Rosina" : "Rosina2");
    /* Sam says hello with a name: now he may chat, under it. */
    cl_send(&sam, "{\"type\":\"hello\",\"v\":1,\"name\":\"Sam  S\"}");
    cl_send(&sam, "{\"type\":\"spectate\",\"table\":\"%s\"}", ann.table);
    cl_send(&sam, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"hi\"}", ann.table);
    cl_update(&sam);
    cl_update(&ann);
    assert_int_equal(ann.chats, 1);
    const rconn_t *ra = &w->wire.c[ann.id];
    assert_non_null(strstr(ra->f[ra->n - 1], "\"name\":\"Sam S\""));
    /* The game to its end: the record holds the names as one word each. */
    fig_rng_t rng;
    fig_rng_seed(&rng, 41);
    client_t *both[] = { &ann, &bob };
    play(w, both, 2, &rng, NULL, NULL);
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fetch_record(w, ann.table, 1, g);
    assert_string_equal(g->names[0], "Ann_Lee_\xf0\x9f\x8e\xa9");
    assert_string_equal(g->names[1], b1);
    assert_string_equal(g->names[3], b3);
    assert_string_equal(latest_seat_name(&ann, 1, buf, sizeof buf), b1);
    assert_string_equal(latest_seat_name(&ann, 3, buf, sizeof buf), b3);
    free(g);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&sam);
    world_free(w);
}

/* `welcome` lists the levels a table's bots may have (and the default) and
 * the languages the server speaks, exactly those of the one table each
 * (proto.c over the ai layer's levels, host/lang.c); a level or a language
 * outside them is refused with the same list; the longest level ("beginner")
 * fits a table's fill. */
static void test_welcome_lists(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    cl_arrive(&ann, w, "10.0.0.1", "fr", "Ann");
    json_t *o = frame_at(w, ann.id, 0);
    assert_string_equal(str(o, "type"), "welcome");
    const json_t *levels = json_object_get(o, "levels");
    assert_true(json_is_array(levels));
    assert_int_equal(json_array_size(levels), fig_level_count());
    assert_int_equal(fig_level_count(), 1 + fig_bot_level_count());
    bool beginner = false;
    for (int i = 0; i < fig_level_count(); i++) {
        const char *l = json_string_value(json_array_get(levels, (size_t)i));
        assert_non_null(l);
        assert_string_equal(l, fig_level_name(i));
        assert_true(fig_level_ok(l));
        assert_true(strlen(l) <= FIG_LEVEL_NAME_MAX);
        beginner |= strcmp(l, "beginner") == 0;
    }
    assert_true(beginner);
    assert_null(fig_level_name(fig_level_count()));
    /* The level a menu starts on: the ai layer's default, one of the list. */
    assert_string_equal(str(o, "default_level"), FIG_BOT_LEVEL_DEFAULT);
    assert_true(fig_level_ok(str(o, "default_level")));
    const json_t *langs = json_object_get(o, "languages");
    assert_true(json_is_array(langs));
    assert_int_equal(json_array_size(langs), fig_lang_count());
    for (int i = 0; i < fig_lang_count(); i++) {
        const json_t *l = json_array_get(langs, (size_t)i);
        assert_string_equal(str(l, "code"), fig_lang_code(i));
        assert_string_equal(str(l, "name"), fig_lang_name(i));
    }
    json_decref(o);

    /* Refusals name the choices, from the same tables. */
    client_t *none[1] = { NULL };
    expect_error(w, &ann, none, 0, "bad_seats",
                 "{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                 "{\"kind\":\"person\"},{\"kind\":\"bot\",\"level\":\"expert\"}]}");
    const rconn_t *r = &w->wire.c[ann.id];
    assert_non_null(strstr(r->f[r->n - 1], "random, beginner, easy, normal, hard, max"));
    expect_error(w, &ann, none, 0, "bad_message",
                 "{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                 "{\"kind\":\"person\"},{\"kind\":\"person\"}],\"fill\":\"expert\"}");
    assert_non_null(strstr(r->f[r->n - 1], "random, beginner, easy, normal, hard, max"));
    client_t bob;
    cl_open(&bob, w, "10.0.0.2");
    expect_error(w, &bob, none, 0, "bad_message", "{\"type\":\"hello\",\"v\":1,\"lang\":\"de\"}");
    const rconn_t *rb = &w->wire.c[bob.id];
    assert_non_null(strstr(rb->f[rb->n - 1], "en, fr, nl, it"));

    /* beginner, the longest, plays for the absent. */
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("beginner"),
                 ",\"fill\":\"beginner\"");
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_welcome_lists),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_names_at_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
