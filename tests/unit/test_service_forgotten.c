/* SPDX-License-Identifier: MIT */
/* test_service_forgotten.c - a person forgotten by another process
 * (net/service/service_forgotten.c) while their own seat's write is on its way, on
 * the harness's world (a recording wire, a fake clock, a real SQLite file)
 * with the rounds of the people forgotten elsewhere on:
 *
 * Quillon, signed in, plays a game to its end with two bots; another handle
 * on the same file forgets her (as `figaro people remove` does). Then the
 * service's round reads the log, and right behind it in the writer's queue
 * comes her vote for a rematch, written with her name. The round comes back
 * first: the table renames her seat while the vote is on its way. Once
 * everything is back, the seat is Anonymous in memory (the vote kept, but
 * not the name it carried), the rename is stored over the vote's row, the
 * table told it (news `forgotten`), and her connection was told
 * `forgotten`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <string.h>

#include "service_harness.h"

/* Whether connection `id` was told since `from`, in one frame, that seat
 * news `news` gave a seat the name `name`. */
static bool told_news(const world_t *w, int id, int from, const char *news, const char *name)
{
    bool told = false;
    for (int k = from; k < w->wire.c[id].n; k++) {
        json_t *o = frame_at(w, id, k);
        told |= !strcmp(str(o, "news"), news) && !strcmp(str(o, "name"), name);
        json_decref(o);
    }
    return told;
}

static void test_vote_on_its_way_when_forgotten(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    stop_service(w);
    w->forgotten_ms = 2000;
    start_service(w);
    client_t q;
    cl_arrive(&q, w, "10.0.0.1", "en", "Quillon");
    char key[33], id[11];
    sign_up(&q, "Quillon", key, id);
    create_table(&q, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("random"),
                 ",\"hints\":false");
    join(&q, q.table, "Quillon");
    client_t *cl[] = { &q };
    fig_rng_t rng;
    fig_rng_seed(&rng, 31);
    play(w, cl, 1, &rng, NULL, NULL);
    stored_seat_t x = stored_seat(w, q.table, q.seat);
    assert_string_equal(x.name, "Quillon");
    assert_true(x.person);

    /* Forgotten by another handle; then the round, and her vote behind it. */
    forget_elsewhere(w, id);
    int from = frames_of(&q);
    w->clock += w->forgotten_ms;
    fig_service_tick(w->svc, w->clock);
    ask_rematch(&q, q.table, 1);
    cl_update(&q);   /* the round, the vote, the rename: all back */
    json_t *f = last_frame(&q, from, "forgotten");
    assert_non_null(f);
    json_decref(f);
    x = stored_seat(w, q.table, q.seat);
    assert_string_equal(x.name, "Anonymous");
    assert_false(x.person);
    assert_int_equal(x.rematch, 1);   /* the vote stands */
    assert_true(told_news(w, q.id, from, "forgotten", "Anonymous"));
    assert_false(frames_hold(w, q.id, from, "Quillon"));
    cl_close(&q);
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vote_on_its_way_when_forgotten),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
