/* SPDX-License-Identifier: MIT */
/* test_service_lobby.c - the lobby (src/net/service/service_lobby.c,
 * docs/protocol.md): the listed tables with open seats, told to those who
 * follow it at most once a second, kept across a restart. Over the
 * recording wire (service_harness.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "figaro/figaro.h"
#include "service_harness.h"

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
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lobby),
        cmocka_unit_test(test_lobby_restart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
