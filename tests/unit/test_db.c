/* SPDX-License-Identifier: MIT */
/* test_db.c - the storage interface's contract (src/net/store/db.h), the same
 * tests for every back end: what a table server writes through fig_db_apply
 * it reads back (fig_db_load, fig_db_game_get) whole and exactly, a failed
 * batch changes nothing while the others of its transaction are kept, an
 * action is never stored twice, a seat's review is stored once and read
 * back, a deleted table leaves nothing, who left an open seat during its
 * game is kept there until the next game.
 *
 * The back end is the URL in FIGARO_TEST_DB (tests/cli/test_db_pg.sh starts
 * a throwaway PostgreSQL and runs this binary with its postgresql:// URL);
 * without it, an SQLite file in a temporary folder (`make test`'s unit run).
 * The database may hold other tests' tables: every test makes its own codes
 * (getrandom) and looks at those only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "net/store/db.h"
#include "net/base/token.h"

static char url[4200];
static char dir[64];

static fig_db_t *open_node(const char *node, int lease_ms)
{
    fig_db_t *db;
    fig_msg_t msg;
    fig_db_opts_t o = { false, node, lease_ms };
    if (fig_db_open(&db, url, &o, &msg) != FIG_OK)
        fail_msg("open %s: %s", url, msg.text);
    return db;
}

static fig_db_t *open_db(void) { return open_node(NULL, 0); }

static void new_code(char code[FIG_TABLE_CODE_LEN + 1])
{
    assert_int_equal(fig_code_new(code, FIG_TABLE_CODE_LEN, NULL), FIG_OK);
}

static fig_db_batch_t *batch(fig_db_batch_t *chain_to)
{
    fig_db_batch_t *b = calloc(1, sizeof *b);
    assert_non_null(b);
    if (chain_to)
        chain_to->next = b;
    return b;
}

static void free_chain(fig_db_batch_t *b)
{
    while (b) {
        fig_db_batch_t *n = b->next;
        free(b);
        b = n;
    }
}

/* A table of `players` seats: a person (Zoë, whose name is not ASCII), bots,
 * an engine, the rest open; a seed with its high bit set. */
static void table_row(fig_db_table_t *t, const char *code, int players, long long created)
{
    memset(t, 0, sizeof *t);
    strcpy(t->code, code);
    t->players = players;
    t->move_seconds = 45;
    t->open = true;
    t->hints = true;
    t->listed = true;
    strcpy(t->fill, "normal");
    t->seed = 0xfedcba9876543210ULL;
    t->created = created;
    t->seats[0].kind = FIG_DB_SEAT_PERSON;
    strcpy(t->seats[0].name, "Zo\xc3\xab \xf0\x9f\x8e\xb2");
    memset(t->seats[0].token_hash, 'a', FIG_HASH_HEX);
    t->seats[1].kind = FIG_DB_SEAT_BOT;
    strcpy(t->seats[1].what, "strong");
    t->seats[2].kind = FIG_DB_SEAT_ENGINE;
    strcpy(t->seats[2].what, "greedy-engine");
    for (int i = 3; i < players; i++)
        t->seats[i].kind = FIG_DB_SEAT_OPEN;
}

static fig_err_t apply1(fig_db_t *db, const fig_db_write_t *w)
{
    fig_db_batch_t *b = batch(NULL);
    b->n = 1;
    b->w[0] = *w;
    fig_err_t rc = fig_db_apply(db, b);
    assert_int_equal(rc, FIG_OK);   /* the transaction; the batch's own outcome: */
    rc = b->rc;
    if (rc)
        assert_true(b->msg.text[0] != '\0');
    free_chain(b);
    return rc;
}

static void add_table(fig_db_t *db, const char *code, int players, long long created)
{
    fig_db_write_t w = { .kind = FIG_DBW_TABLE };
    table_row(&w.row, code, players, created);
    assert_int_equal(apply1(db, &w), FIG_OK);
}

/* Tables of the load that are in `codes` (the others are other tests'). */
typedef struct {
    const char *const *codes;
    int ncodes;
    fig_db_table_t got[8];
    fig_db_game_t last[8];
    bool has_last[8];
    int n;
} seen_t;

static fig_err_t on_table(void *ctx, const fig_db_table_t *t, const fig_db_game_t *last,
                          fig_msg_t *msg)
{
    (void)msg;
    seen_t *s = ctx;
    for (int i = 0; i < s->ncodes; i++)
        if (strcmp(s->codes[i], t->code) == 0) {
            assert_true(s->n < 8);
            s->got[s->n] = *t;
            s->has_last[s->n] = last != NULL;
            if (last)
                s->last[s->n] = *last;
            s->n++;
        }
    return FIG_OK;
}

static seen_t *load_codes(fig_db_t *db, const char *const *codes, int n)
{
    seen_t *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->codes = codes;
    s->ncodes = n;
    fig_msg_t msg;
    if (fig_db_load(db, 1000, on_table, s, &msg) != FIG_OK)
        fail_msg("load: %s", msg.text);
    return s;
}

/* Plays the first legal action `n` times from the setup of `seed`, into
 * out (the actions as a server stores them, with event numbers from 10). */
static void some_game(fig_db_game_t *out, int game, uint64_t seed, int n)
{
    memset(out, 0, sizeof *out);
    out->game = game;
    fig_setup_random(&out->setup, 4, seed, NULL);
    out->setup.seed = seed;
    out->setup.has_seed = true;
    out->ev = 9;
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fig_game_init(g, &out->setup);
    for (int i = 0; i < n; i++) {
        if (g->state.phase == FIG_PHASE_DEAL)
            fig_game_deal_seeded(g);
        assert_int_equal(g->state.phase, FIG_PHASE_PLAY);
        fig_action_t legal[FIG_MAX_ACTIONS];
        int k = fig_state_legal(&g->state, legal);
        assert_true(k > 0);
        fig_db_action_t *a = &out->actions[out->nactions++];
        a->seat = g->state.turn;
        a->action = legal[(i * 7) % k];
        a->ev = 10 + i;
        assert_int_equal(fig_game_play(g, a->action, NULL, NULL), FIG_OK);
    }
    free(g);
}

static void store_game(fig_db_t *db, const char *code, const fig_db_game_t *g)
{
    fig_db_write_t w = { .kind = FIG_DBW_GAME, .game = g->game, .ev = g->ev, .setup = g->setup };
    strcpy(w.code, code);
    assert_int_equal(apply1(db, &w), FIG_OK);
    /* The actions in one transaction of one batch each, as the writer sends them. */
    fig_db_batch_t *head = NULL, *b = NULL;
    for (int i = 0; i < g->nactions; i++) {
        b = batch(b);
        if (!head)
            head = b;
        b->n = 1;
        b->w[0].kind = FIG_DBW_ACTION;
        strcpy(b->w[0].code, code);
        b->w[0].game = g->game;
        b->w[0].index = i;
        b->w[0].action = g->actions[i];
    }
    assert_int_equal(fig_db_apply(db, head), FIG_OK);
    for (b = head; b; b = b->next)
        assert_int_equal(b->rc, FIG_OK);
    free_chain(head);
}

static void assert_same_game(const fig_db_game_t *a, const fig_db_game_t *b)
{
    assert_int_equal(a->game, b->game);
    assert_int_equal(a->ev, b->ev);
    assert_int_equal(a->setup.players, b->setup.players);
    assert_int_equal(a->setup.removed, b->setup.removed);
    assert_int_equal(a->setup.king, b->setup.king);
    assert_true(a->setup.seed == b->setup.seed);
    assert_memory_equal(a->setup.roads, b->setup.roads, sizeof a->setup.roads);
    assert_int_equal(a->nactions, b->nactions);
    for (int i = 0; i < a->nactions; i++) {
        assert_int_equal(a->actions[i].seat, b->actions[i].seat);
        assert_int_equal(a->actions[i].action, b->actions[i].action);
        assert_int_equal(a->actions[i].ev, b->actions[i].ev);
    }
}

/* ---- the tests */

static void test_table_round_trip(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8];
    new_code(code);
    fig_db_person_t zoe;   /* the first seat a signed-in person's */
    char key[FIG_TOKEN_HEX + 1], key_hash[FIG_HASH_HEX + 1];
    assert_int_equal(fig_token_new(key, NULL), FIG_OK);
    assert_int_equal(fig_sha256_hex(key, strlen(key), key_hash, NULL), FIG_OK);
    assert_int_equal(fig_db_person_new(db, "Zo\xc3\xab", key_hash, 1700000000, &zoe, NULL),
                     FIG_OK);
    fig_db_write_t w = { .kind = FIG_DBW_TABLE };
    table_row(&w.row, code, 5, 1700000000);
    strcpy(w.row.seats[0].person, zoe.id);
    assert_int_equal(apply1(db, &w), FIG_OK);
    w = (fig_db_write_t){ .kind = FIG_DBW_EVENTS, .ev = 42 };
    strcpy(w.code, code);
    assert_int_equal(apply1(db, &w), FIG_OK);
    char unlisted[8];   /* an invite-only table; its first seat names nobody stored */
    new_code(unlisted);
    fig_db_write_t u = { .kind = FIG_DBW_TABLE };
    table_row(&u.row, unlisted, 3, 1700000001);
    u.row.listed = false;
    strcpy(u.row.seats[0].person, "K7M2QXAB3D");
    assert_int_equal(apply1(db, &u), FIG_OK);
    fig_db_close(db);

    db = open_db();   /* another handle (another connection) reads what was committed */
    const char *codes[] = { code, unlisted };
    seen_t *s = load_codes(db, codes, 2);
    assert_int_equal(s->n, 2);
    assert_true(s->got[0].listed);
    assert_false(s->got[1].listed);
    assert_string_equal(s->got[1].seats[0].person, "");
    fig_db_table_t want;
    table_row(&want, code, 5, 1700000000);
    strcpy(want.seats[0].person, zoe.id);
    const fig_db_table_t *t = &s->got[0];
    assert_string_equal(t->code, code);
    assert_int_equal(t->players, 5);
    assert_int_equal(t->move_seconds, 45);
    assert_true(t->open);
    assert_true(t->hints);
    assert_string_equal(t->fill, "normal");
    assert_true(t->seed == want.seed);
    assert_int_equal(t->created, 1700000000);
    assert_int_equal(t->ev_hw, 42);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(t->seats[i].kind, want.seats[i].kind);
        assert_string_equal(t->seats[i].what, want.seats[i].what);
        assert_string_equal(t->seats[i].name, want.seats[i].name);
        assert_string_equal(t->seats[i].token_hash, want.seats[i].token_hash);
        assert_int_equal(t->seats[i].rematch, 0);
        assert_string_equal(t->seats[i].person, want.seats[i].person);
    }
    assert_false(s->has_last[0]);
    free(s);
    fig_db_close(db);
}

/* Who left an open seat while its game ran is kept with the seat (db.h,
 * fig_db_seat_t.person): read back at load, never one of their seats
 * (fig_db_person_seats), gone when the next game starts and when they are
 * forgotten (the open seat keeps no name). */
static void test_leaver_kept(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8];
    new_code(code);
    fig_db_person_t zoe;
    char key[FIG_TOKEN_HEX + 1], key_hash[FIG_HASH_HEX + 1];
    assert_int_equal(fig_token_new(key, NULL), FIG_OK);
    assert_int_equal(fig_sha256_hex(key, strlen(key), key_hash, NULL), FIG_OK);
    assert_int_equal(fig_db_person_new(db, "Zoe", key_hash, 1700000000, &zoe, NULL), FIG_OK);
    fig_db_write_t w = { .kind = FIG_DBW_TABLE };
    table_row(&w.row, code, 4, 1700000002);
    strcpy(w.row.seats[0].person, zoe.id);
    assert_int_equal(apply1(db, &w), FIG_OK);
    fig_db_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    some_game(g, 1, 5, 3);
    store_game(db, code, g);
    const char *codes[] = { code };
    for (int round = 0; round < 3; round++) {
        /* Zoe leaves seat 0 during the game (again after each check). */
        w = (fig_db_write_t){ .kind = FIG_DBW_SEAT, .seat = 0 };
        strcpy(w.code, code);
        w.seat_row.kind = FIG_DB_SEAT_OPEN;
        strcpy(w.seat_row.person, zoe.id);
        assert_int_equal(apply1(db, &w), FIG_OK);
        fig_db_close(db);
        db = open_db();
        seen_t *s = load_codes(db, codes, 1);
        assert_int_equal(s->n, 1);
        assert_int_equal(s->got[0].seats[0].kind, FIG_DB_SEAT_OPEN);
        assert_string_equal(s->got[0].seats[0].person, zoe.id);
        assert_string_equal(s->got[0].seats[0].name, "");
        assert_string_equal(s->got[0].seats[3].person, "");
        free(s);
        fig_db_person_seat_t seats[FIG_DB_PERSON_SEATS];
        int n = -1;
        assert_int_equal(fig_db_person_seats(db, zoe.id, seats, &n, NULL), FIG_OK);
        assert_int_equal(n, 0);   /* left: not hers */
        if (round == 0) {
            some_game(g, 2, 6, 0);   /* a rematch: she left the game before */
            store_game(db, code, g);
        } else if (round == 1) {
            w = (fig_db_write_t){ .kind = FIG_DBW_SEAT, .seat = 0 };   /* Ann takes it */
            strcpy(w.code, code);
            w.seat_row.kind = FIG_DB_SEAT_PERSON;
            strcpy(w.seat_row.name, "Ann");
            memset(w.seat_row.token_hash, 'b', FIG_HASH_HEX);
            assert_int_equal(apply1(db, &w), FIG_OK);
        } else {
            bool found;
            assert_int_equal(fig_db_person_forget(db, zoe.id, 1800000000, &found, NULL), FIG_OK);
            assert_true(found);
        }
        s = load_codes(db, codes, 1);
        assert_int_equal(s->n, 1);
        assert_string_equal(s->got[0].seats[0].person, "");
        assert_string_equal(s->got[0].seats[0].name, round == 1 ? "Ann" : "");
        assert_int_equal(s->got[0].seats[0].kind,
                         round == 1 ? FIG_DB_SEAT_PERSON : FIG_DB_SEAT_OPEN);
        free(s);
    }
    free(g);
    fig_db_close(db);
}

static void test_game_and_actions(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8];
    new_code(code);
    add_table(db, code, 4, 1700000001);
    fig_db_game_t *g1 = malloc(sizeof *g1), *g2 = malloc(sizeof *g2), *got = malloc(sizeof *got);
    assert_non_null(g1);
    assert_non_null(g2);
    assert_non_null(got);
    some_game(g1, 1, 0x8000000000000001ULL, 40);
    some_game(g2, 2, 77, 5);
    store_game(db, code, g1);
    store_game(db, code, g2);
    fig_msg_t msg;
    assert_int_equal(fig_db_game_get(db, code, 1, got, &msg), FIG_OK);
    assert_same_game(got, g1);
    fig_game_t *rec = malloc(sizeof *rec);
    assert_non_null(rec);
    assert_int_equal(fig_db_game_record(got, rec, &msg), FIG_OK);   /* it replays */
    free(rec);
    assert_int_equal(fig_db_game_get(db, code, 3, got, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "no game 3"));
    fig_db_close(db);

    db = open_db();
    const char *codes[] = { code };
    seen_t *s = load_codes(db, codes, 1);
    assert_int_equal(s->n, 1);
    assert_true(s->has_last[0]);
    assert_same_game(&s->last[0], g2);   /* the latest game */
    free(s);
    free(g1);
    free(g2);
    free(got);
    fig_db_close(db);
}

/* A batch that fails is undone alone, whatever it wrote before failing;
 * the batches around it in the same transaction are kept. */
static void test_failed_batch_alone(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8];
    new_code(code);
    add_table(db, code, 4, 1700000002);
    fig_db_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    some_game(g, 1, 5, 3);
    g->nactions = 1;
    store_game(db, code, g);

    fig_db_batch_t *a = batch(NULL), *b = batch(a), *c = batch(b);
    /* a: action 1, kept */
    a->n = 1;
    a->w[0] = (fig_db_write_t){ .kind = FIG_DBW_ACTION, .game = 1, .index = 1 };
    strcpy(a->w[0].code, code);
    a->w[0].action = g->actions[0];   /* any action: the storage does not play it */
    /* b: the events mark, then action 0 again: refused, and its mark undone */
    b->n = 2;
    b->w[0] = (fig_db_write_t){ .kind = FIG_DBW_EVENTS, .ev = 500 };
    strcpy(b->w[0].code, code);
    b->w[1] = a->w[0];
    b->w[1].index = 0;
    /* c: a seat, kept */
    c->n = 1;
    c->w[0] = (fig_db_write_t){ .kind = FIG_DBW_SEAT, .seat = 3 };
    strcpy(c->w[0].code, code);
    c->w[0].seat_row.kind = FIG_DB_SEAT_PERSON;
    strcpy(c->w[0].seat_row.name, "Bob");
    memset(c->w[0].seat_row.token_hash, 'b', FIG_HASH_HEX);
    c->w[0].seat_row.rematch = 2;
    assert_int_equal(fig_db_apply(db, a), FIG_OK);
    assert_int_equal(a->rc, FIG_OK);
    assert_int_equal(b->rc, FIG_ERR_STATE);   /* already stored */
    assert_non_null(strstr(b->msg.text, "already stored"));
    assert_int_equal(c->rc, FIG_OK);
    free_chain(a);

    fig_db_game_t *got = malloc(sizeof *got);
    assert_non_null(got);
    assert_int_equal(fig_db_game_get(db, code, 1, got, NULL), FIG_OK);
    assert_int_equal(got->nactions, 2);
    const char *codes[] = { code };
    seen_t *s = load_codes(db, codes, 1);
    assert_int_equal(s->n, 1);
    assert_int_equal(s->got[0].ev_hw, 0);
    assert_int_equal(s->got[0].seats[3].kind, FIG_DB_SEAT_PERSON);   /* replaced */
    assert_string_equal(s->got[0].seats[3].name, "Bob");
    assert_int_equal(s->got[0].seats[3].rematch, 2);
    free(s);
    free(got);
    free(g);
    fig_db_close(db);
}

/* A write for a table that is not there fails (a foreign key). */
static void test_orphan_refused(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8];
    new_code(code);
    fig_db_write_t w = { .kind = FIG_DBW_SEAT, .seat = 0 };
    strcpy(w.code, code);
    w.seat_row.kind = FIG_DB_SEAT_OPEN;
    assert_int_not_equal(apply1(db, &w), FIG_OK);
    fig_db_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    some_game(g, 1, 5, 0);
    w = (fig_db_write_t){ .kind = FIG_DBW_GAME, .game = 1, .setup = g->setup };
    strcpy(w.code, code);
    assert_int_not_equal(apply1(db, &w), FIG_OK);
    free(g);
    fig_db_close(db);
}

/* The event numbers' mark only ever rises. */
static void test_events_mark_rises(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8];
    new_code(code);
    add_table(db, code, 3, 1700000003);
    long long marks[] = { 10, 50, 20 };
    for (int i = 0; i < 3; i++) {
        fig_db_write_t w = { .kind = FIG_DBW_EVENTS, .ev = marks[i] };
        strcpy(w.code, code);
        assert_int_equal(apply1(db, &w), FIG_OK);
    }
    const char *codes[] = { code };
    seen_t *s = load_codes(db, codes, 1);
    assert_int_equal(s->n, 1);
    assert_int_equal(s->got[0].ev_hw, 50);
    free(s);
    fig_db_close(db);
}

/* Two new tables made at `created`, each with the same game of n actions
 * from `seed` (returned, the caller frees it). */
static fig_db_game_t *two_tables(fig_db_t *db, char code[8], char other[8], long long created,
                                 uint64_t seed, int n)
{
    new_code(code);
    new_code(other);
    add_table(db, code, 4, created);
    add_table(db, other, 4, created);
    fig_db_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    some_game(g, 1, seed, n);
    store_game(db, code, g);
    store_game(db, other, g);
    return g;
}

static void test_delete(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8], other[8];
    fig_db_game_t *g = two_tables(db, code, other, 1700000004, 9, 12);
    fig_db_write_t w = { .kind = FIG_DBW_EVENTS, .ev = 30 };
    strcpy(w.code, code);
    assert_int_equal(apply1(db, &w), FIG_OK);
    w = (fig_db_write_t){ .kind = FIG_DBW_DELETE };
    strcpy(w.code, code);
    assert_int_equal(apply1(db, &w), FIG_OK);
    fig_db_game_t *got = malloc(sizeof *got);
    assert_non_null(got);
    assert_int_equal(fig_db_game_get(db, code, 1, got, NULL), FIG_ERR_INPUT);
    assert_int_equal(fig_db_game_get(db, other, 1, got, NULL), FIG_OK);
    assert_same_game(got, g);
    const char *codes[] = { code, other };
    seen_t *s = load_codes(db, codes, 2);
    assert_int_equal(s->n, 1);
    assert_string_equal(s->got[0].code, other);
    free(s);
    /* Made again with the same code: nothing of the old one comes back. */
    add_table(db, code, 3, 1700000005);
    assert_int_equal(fig_db_game_get(db, code, 1, got, NULL), FIG_ERR_INPUT);
    free(got);
    free(g);
    fig_db_close(db);
}

static fig_err_t write_review(fig_db_t *db, const char *code, int game, int seat,
                              const char *text, bool *fenced)
{
    fig_db_batch_t *b = batch(NULL);
    b->n = 1;
    b->w[0] = (fig_db_write_t){ .kind = FIG_DBW_REVIEW, .game = game, .seat = seat,
                                .text = text };
    strcpy(b->w[0].code, code);
    assert_int_equal(fig_db_apply(db, b), FIG_OK);
    fig_err_t rc = b->rc;
    *fenced = b->fenced;
    free_chain(b);
    return rc;
}

/* The stored review of a seat, or "-" when there is none. */
static char *review_of(fig_db_t *db, const char *code, int game, int seat)
{
    static char unset[] = "unset";   /* review_get must say "none" itself */
    char *text = unset;
    fig_msg_t msg;
    if (fig_db_review_get(db, code, game, seat, &text, &msg) != FIG_OK)
        fail_msg("review of %s/%d/%d: %s", code, game, seat, msg.text);
    if (!text) {
        text = malloc(2);
        assert_non_null(text);
        strcpy(text, "-");
    }
    return text;
}

static void assert_review(fig_db_t *db, const char *code, int game, int seat, const char *want)
{
    char *got = review_of(db, code, game, seat);
    assert_string_equal(got, want);
    free(got);
}

/* A seat's review of a finished game: stored once (a second leaves the
 * first), read back exactly, kept apart from other seats and games, taken
 * by no game that is not there, fenced like any write on a shared back end,
 * and deleted with its table. */
static void test_review(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char code[8], other[8];
    fig_db_game_t *g = two_tables(db, code, other, 1700000006, 17, 6);
    const char *text = "{\"v\":1,\"moves\":[{\"i\":0,\"grade\":\"blunder\"}],"
                       "\"name\":\"Zo\xc3\xab 'quoted' \\\\ \xf0\x9f\x8e\xb2\"}";
    bool fenced = true;
    assert_review(db, code, 1, 0, "-");
    if (fig_db_shared(db)) {   /* another server's write is refused, and leaves nothing */
        fig_db_t *b = open_node("node-b", 0);
        assert_int_equal(write_review(b, code, 1, 0, "theirs", &fenced), FIG_ERR_STATE);
        assert_true(fenced);
        fig_db_close(b);
        assert_review(db, code, 1, 0, "-");
    }
    assert_int_equal(write_review(db, code, 1, 0, text, &fenced), FIG_OK);
    assert_false(fenced);
    assert_review(db, code, 1, 0, text);
    assert_int_equal(write_review(db, code, 1, 0, "second", &fenced), FIG_OK);
    assert_review(db, code, 1, 0, text);   /* computed once: the first stays */
    assert_int_equal(write_review(db, code, 1, 2, "seat 2", &fenced), FIG_OK);
    assert_int_equal(write_review(db, other, 1, 0, "other table", &fenced), FIG_OK);
    assert_review(db, code, 1, 2, "seat 2");
    assert_review(db, code, 1, 1, "-");
    assert_review(db, other, 1, 0, "other table");
    /* A game that is not there (deleted meanwhile, or never made) takes none. */
    assert_int_equal(write_review(db, code, 2, 0, "no game", &fenced), FIG_OK);
    assert_review(db, code, 2, 0, "-");
    /* Deleted with its table, and not back when the code is made again. */
    fig_db_write_t w = { .kind = FIG_DBW_DELETE };
    strcpy(w.code, code);
    assert_int_equal(apply1(db, &w), FIG_OK);
    assert_review(db, code, 1, 0, "-");
    assert_review(db, code, 1, 2, "-");
    assert_review(db, other, 1, 0, "other table");
    add_table(db, code, 4, 1700000007);
    store_game(db, code, g);
    assert_review(db, code, 1, 0, "-");
    free(g);
    fig_db_close(db);
}

/* Oldest first; tables made in the same second in the order they were made. */
static void test_load_order(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    char c[4][8];
    long long created[4] = { 1600000009, 1600000001, 1600000005, 1600000005 };
    for (int i = 0; i < 4; i++) {
        new_code(c[i]);
        add_table(db, c[i], 3, created[i]);
    }
    const char *codes[] = { c[0], c[1], c[2], c[3] };
    seen_t *s = load_codes(db, codes, 4);
    assert_int_equal(s->n, 4);
    assert_string_equal(s->got[0].code, c[1]);
    assert_string_equal(s->got[1].code, c[2]);
    assert_string_equal(s->got[2].code, c[3]);
    assert_string_equal(s->got[3].code, c[0]);
    free(s);
    fig_db_close(db);
}

/* Many batches in one transaction, as a busy writer sends them. */
static void test_group_commit(void **state)
{
    (void)state;
    fig_db_t *db = open_db();
    enum { N = 6 };
    char c[N][8];
    fig_db_batch_t *head = NULL, *b = NULL;
    for (int i = 0; i < N; i++) {
        new_code(c[i]);
        b = batch(b);
        if (!head)
            head = b;
        b->n = 1;
        b->w[0].kind = FIG_DBW_TABLE;
        table_row(&b->w[0].row, c[i], 3 + i % 4, 1650000000 + i);
    }
    assert_int_equal(fig_db_apply(db, head), FIG_OK);
    for (b = head; b; b = b->next)
        assert_int_equal(b->rc, FIG_OK);
    free_chain(head);
    const char *codes[N];
    for (int i = 0; i < N; i++)
        codes[i] = c[i];
    seen_t *s = load_codes(db, codes, N);
    assert_int_equal(s->n, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(s->got[i].players, 3 + i % 4);
    free(s);
    fig_db_close(db);
}

/* What a server's take callback saw. */
typedef struct {
    char code[8];
    int n;
    bool has_last;
    int nactions;
} took_t;

static fig_err_t on_took(void *ctx, const fig_db_table_t *t, const fig_db_game_t *last,
                         fig_msg_t *msg)
{
    (void)msg;
    took_t *k = ctx;
    if (strcmp(t->code, k->code) == 0) {
        k->n++;
        k->has_last = last != NULL;
        k->nactions = last ? last->nactions : 0;
    }
    return FIG_OK;
}

static fig_err_t write_action(fig_db_t *db, const char *code, int index,
                              const fig_db_action_t *a, bool *fenced)
{
    fig_db_batch_t *b = batch(NULL);
    b->n = 1;
    b->w[0] = (fig_db_write_t){ .kind = FIG_DBW_ACTION, .game = 1, .index = index,
                                .action = *a };
    strcpy(b->w[0].code, code);
    assert_int_equal(fig_db_apply(db, b), FIG_OK);
    fig_err_t rc = b->rc;
    *fenced = b->fenced;
    free_chain(b);
    return rc;
}

/* Two servers (two handles of two node names) on one storage. Shared
 * (PostgreSQL): a table is its creator's; the other can neither take it
 * nor write it while the lease lasts; once the lease ran out unrenewed it
 * takes it (with its game), the first one's renewal says the table is lost
 * and its writes are refused (fenced), and its restart does not get it
 * back. Not shared (SQLite, one server): leases are no-ops, nothing is
 * ever fenced. */
static void test_leases_and_fence(void **state)
{
    (void)state;
    enum { LEASE_MS = 1500 };
    fig_db_t *a = open_node("node-a", LEASE_MS), *b = open_node("node-b", LEASE_MS);
    took_t k = { .n = 0 };
    new_code(k.code);
    add_table(a, k.code, 4, 1700000100);
    fig_db_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    some_game(g, 1, 31, 4);
    g->nactions = 2;
    store_game(a, k.code, g);
    fig_db_code_t codes[1];
    strcpy(codes[0], k.code);
    bool lost[1] = { true }, fenced = true;
    fig_msg_t msg;
    assert_int_equal(fig_db_renew(a, codes, 1, lost, &msg), FIG_OK);
    assert_false(lost[0]);
    assert_int_equal(fig_db_take(b, 100, on_took, &k, &msg), FIG_OK);
    assert_int_equal(k.n, 0);   /* a's, and a is alive */
    if (!fig_db_shared(a)) {
        assert_int_equal(write_action(b, k.code, 2, &g->actions[2], &fenced), FIG_OK);
        assert_false(fenced);
        fig_db_close(a);
        fig_db_close(b);
        free(g);
        return;
    }
    assert_int_equal(write_action(b, k.code, 2, &g->actions[2], &fenced), FIG_ERR_STATE);
    assert_true(fenced);   /* b does not hold it */
    assert_int_equal(write_action(a, k.code, 2, &g->actions[2], &fenced), FIG_OK);
    assert_false(fenced);

    struct timespec pause = { 0, 0 };
    pause.tv_sec = (LEASE_MS + 300) / 1000;
    pause.tv_nsec = (LEASE_MS + 300) % 1000 * 1000000L;
    nanosleep(&pause, NULL);   /* a is "paused": no renewal */
    assert_int_equal(fig_db_take(b, 100, on_took, &k, &msg), FIG_OK);
    assert_int_equal(k.n, 1);   /* b has it now, with the game as a left it */
    assert_true(k.has_last);
    assert_int_equal(k.nactions, 3);
    assert_int_equal(fig_db_renew(a, codes, 1, lost, &msg), FIG_OK);
    assert_true(lost[0]);
    assert_int_equal(write_action(a, k.code, 3, &g->actions[3], &fenced), FIG_ERR_STATE);
    assert_true(fenced);
    assert_int_equal(write_action(b, k.code, 3, &g->actions[3], &fenced), FIG_OK);
    assert_false(fenced);
    assert_int_equal(fig_db_renew(b, codes, 1, lost, &msg), FIG_OK);
    assert_false(lost[0]);
    /* a restarts under its name: b's live lease keeps the table b's */
    fig_db_close(a);
    a = open_node("node-a", LEASE_MS);
    const char *list[] = { k.code };
    seen_t *s = load_codes(a, list, 1);
    assert_int_equal(s->n, 0);
    free(s);
    /* ...and b, restarted under its name, gets it back at once */
    fig_db_close(b);
    b = open_node("node-b", LEASE_MS);
    s = load_codes(b, list, 1);
    assert_int_equal(s->n, 1);
    free(s);
    fig_db_game_t *got = malloc(sizeof *got);
    assert_non_null(got);
    assert_int_equal(fig_db_game_get(a, k.code, 1, got, &msg), FIG_OK);
    assert_int_equal(got->nactions, 4);   /* a's refused write is not there */
    g->nactions = 4;
    assert_same_game(got, g);
    free(got);
    free(g);
    fig_db_close(a);
    fig_db_close(b);
}

static fig_err_t count_all(void *ctx, const fig_db_table_t *t, const fig_db_game_t *last,
                           fig_msg_t *msg)
{
    (void)t, (void)last, (void)msg;
    ++*(int *)ctx;
    return FIG_OK;
}

/* A server's cap (--max-tables) at start: a shared back end loads at most
 * `max` tables, the server's own first (SQLite, one server's, every table).
 * A full server's claim (fn NULL) takes nothing: it says who holds a live
 * lease on the table, or nobody ("": its server is gone, another server
 * may take it). */
static void test_load_cap_and_look(void **state)
{
    (void)state;
    enum { LEASE_MS = 60000 };
    fig_db_t *a = open_node("node-cap", LEASE_MS);
    char codes[3][FIG_TABLE_CODE_LEN + 1];
    const char *list[3];
    for (int i = 0; i < 3; i++) {
        new_code(codes[i]);
        list[i] = codes[i];
        add_table(a, codes[i], 4, 1700000300 + i);
    }
    fig_db_close(a);
    a = open_node("node-cap", LEASE_MS);   /* a restart, with a cap of 2 */
    seen_t *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->codes = list;
    s->ncodes = 3;
    int all = 0;
    fig_msg_t msg;
    assert_int_equal(fig_db_load(a, 2, on_table, s, &msg), FIG_OK);
    assert_int_equal(fig_db_load(a, 2, count_all, &all, &msg), FIG_OK);
    if (!fig_db_shared(a)) {
        assert_int_equal(s->n, 3);
        assert_true(all >= 3);
        free(s);
        fig_db_close(a);
        return;
    }
    assert_int_equal(s->n, 2);   /* two of its own, not a free table of another test */
    assert_int_equal(all, 2);
    free(s);
    fig_db_t *b = open_node("node-full", LEASE_MS);
    char owner[FIG_DB_NODE_MAX + 1] = "x";
    assert_int_equal(fig_db_claim(b, codes[2], NULL, NULL, owner, &msg), FIG_OK);
    assert_string_equal(owner, "node-cap");   /* a's, though a did not load it */
    assert_int_equal(fig_db_claim(b, "ZZZZZZ", NULL, NULL, owner, &msg), FIG_ERR_INPUT);
    /* a table whose server is gone: nobody holds it, a look takes nothing */
    fig_db_t *gone = open_node("node-gone", 300);
    took_t k = { .n = 0 };
    new_code(k.code);
    add_table(gone, k.code, 4, 1700000310);
    fig_db_close(gone);
    struct timespec pause = { 0, 500 * 1000000L };
    nanosleep(&pause, NULL);
    assert_int_equal(fig_db_claim(b, k.code, NULL, NULL, owner, &msg), FIG_OK);
    assert_string_equal(owner, "");
    assert_int_equal(fig_db_claim(b, k.code, on_took, &k, owner, &msg), FIG_OK);
    assert_int_equal(k.n, 1);   /* still there to take */
    fig_db_close(a);
    fig_db_close(b);
}

/* The URL names the back end; anything else is a clear error. */
static void test_urls(void **state)
{
    (void)state;
    fig_db_t *db = (fig_db_t *)1;
    fig_msg_t msg;
    const char *bad[] = { "", "sqlite:", "mysql://x", "/tmp/x.sqlite", "postgresql:/x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(fig_db_url_known(bad[i]));
        assert_int_equal(fig_db_open(&db, bad[i], NULL, &msg), FIG_ERR_INPUT);
        assert_null(db);
        assert_non_null(strstr(msg.text, "sqlite:PATH"));
    }
    assert_true(fig_db_url_known("sqlite:x"));
    assert_true(fig_db_url_known("postgresql://"));
    assert_true(fig_db_url_known("postgres://u@h/d"));
    char shown[128];
    fig_db_url_shown("postgresql://ann:s3cret@db.example:5432/figaro", shown, sizeof shown);
    assert_string_equal(shown, "postgresql://ann:***@db.example:5432/figaro");
    fig_db_url_shown("postgresql://ann@db.example/figaro", shown, sizeof shown);
    assert_string_equal(shown, "postgresql://ann@db.example/figaro");
    fig_db_url_shown("sqlite:/a:b@c", shown, sizeof shown);
    assert_string_equal(shown, "sqlite:/a:b@c");
    /* A PostgreSQL nobody listens on: an error that says so, no handle. */
    assert_int_equal(fig_db_open(&db, "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2",
                                 NULL, &msg), FIG_ERR_INPUT);
    assert_null(db);
    assert_non_null(strstr(msg.text, "database: connection"));
}

int main(void)
{
    const char *env = getenv("FIGARO_TEST_DB");
    if (env && env[0]) {
        snprintf(url, sizeof url, "%s", env);
    } else {
        strcpy(dir, "/tmp/figaro-db-XXXXXX");
        if (!mkdtemp(dir))
            return 1;
        snprintf(url, sizeof url, "sqlite:%s/figaro.sqlite", dir);
    }
    char shown[4200];
    fig_db_url_shown(url, shown, sizeof shown);
    printf("storage: %s\n", shown);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_round_trip),
        cmocka_unit_test(test_game_and_actions),
        cmocka_unit_test(test_leaver_kept),
        cmocka_unit_test(test_failed_batch_alone),
        cmocka_unit_test(test_orphan_refused),
        cmocka_unit_test(test_events_mark_rises),
        cmocka_unit_test(test_delete),
        cmocka_unit_test(test_review),
        cmocka_unit_test(test_load_order),
        cmocka_unit_test(test_group_commit),
        cmocka_unit_test(test_leases_and_fence),
        cmocka_unit_test(test_load_cap_and_look),
        cmocka_unit_test(test_urls),
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
