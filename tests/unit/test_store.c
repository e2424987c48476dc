/* SPDX-License-Identifier: MIT */
/* test_store.c - saved games (host/store.h), on real files in a fresh folder
 * made with mkdtemp for every test:
 *
 *   - a save and a load give back the record, a seat table of several people
 *     at any seats and bots' specs (FEP commands included), and front-end
 *     lines exactly as they were (keys, values with their spaces, order);
 *   - files of the previous version (tests/cases/store-v1-*.fgn, written by a
 *     real `figaro play --plain`) load, and are written back byte for byte;
 *   - the history is walked oldest first (by name), skipping other files,
 *     telling damaged files apart; set-aside and finish file the game and
 *     remove current.fgn; a name already taken gets -2;
 *   - damaged files: an error naming the file and the line, and the handle
 *     unchanged;
 *   - reading creates nothing: no folder appears until a game is written;
 *   - allocation failures: fig_store_open, the load and the history walk are
 *     run failing their 1st, 2nd, ... allocation until they succeed; each
 *     failure is a clear error, never a crash, and nothing leaks (ASan's leak
 *     check fails the run). The allocations are counted by alloc_fail.c (the
 *     Makefile links this test with -Wl,--wrap=malloc,...): the libraries
 *     carry no hook. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc_fail.h"
#include "figaro/figaro.h"
#include "host/store.h"
#include "host/util.h"

/* ------------------------------------------------------------- helpers */

typedef struct {
    char dir[256];    /* the test's own folder */
    char root[300];   /* dir/store: the store's root, not created */
} tmp_t;

static int setup(void **state)
{
    tmp_t *t = calloc(1, sizeof *t);
    const char *base = getenv("TMPDIR");
    snprintf(t->dir, sizeof t->dir, "%s/figaro-store-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(t->dir))
        return -1;
    snprintf(t->root, sizeof t->root, "%s/store", t->dir);
    *state = t;
    return 0;
}

static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            remove_tree(sub);
        }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static int teardown(void **state)
{
    tmp_t *t = *state;
    remove_tree(t->dir);
    free(t);
    return 0;
}

static fig_store_t *open_store(const char *root)
{
    fig_store_t *s = NULL;
    fig_msg_t msg;
    if (fig_store_open(&s, root, NULL, &msg) != FIG_OK)
        fail_msg("fig_store_open(%s): %s", root, msg.text);
    return s;
}

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static char *read_text(const char *path, size_t *len)
{
    char *text;
    size_t n;
    fig_msg_t msg;
    if (fig_read_file(path, 1 << 20, &text, &n, NULL, &msg) != FIG_OK)
        fail_msg("%s: %s", path, msg.text);
    if (len)
        *len = n;
    return text;
}

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* A record of `players` seats named names[], played `moves` random legal
 * actions (or to the end with moves < 0) from `seed`. */
static fig_game_t *make_game(int players, uint64_t seed, int moves, const char *const names[])
{
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fig_setup_t setup;
    fig_setup_random(&setup, players, seed, NULL);
    fig_game_init(g, &setup);
    if (names) {
        g->has_names = true;
        for (int s = 0; s < players; s++)
            snprintf(g->names[s], sizeof g->names[s], "%s", names[s]);
    }
    fig_rng_t rng;
    fig_rng_seed(&rng, seed);
    for (int i = 0; (moves < 0 || i < moves) && !fig_game_over(g); i++) {
        if (g->state.phase == FIG_PHASE_DEAL) {
            fig_game_deal_seeded(g);
            continue;
        }
        fig_action_t a = fig_state_random_action(&g->state, &rng);
        assert_int_equal(fig_game_play(g, a, NULL, NULL), FIG_OK);
    }
    return g;
}

static char *fgn_of(const fig_game_t *g)
{
    size_t n = fig_fgn_write(g, NULL, 0);
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    fig_fgn_write(g, buf, n + 1);
    return buf;
}

static void assert_same_game(const fig_game_t *a, const fig_game_t *b)
{
    char *x = fgn_of(a), *y = fgn_of(b);
    assert_string_equal(x, y);
    free(x);
    free(y);
}

/* Seat table: people where spec is NULL. */
static fig_seats_t seats_of(int players, const char *const specs[])
{
    fig_seats_t t;
    memset(&t, 0, sizeof t);
    t.players = players;
    for (int s = 0; s < players; s++)
        if (specs[s]) {
            t.seat[s].bot = true;
            snprintf(t.seat[s].spec, sizeof t.seat[s].spec, "%s", specs[s]);
        }
    return t;
}

static const char *cases_dir(void)
{
    const char *d = getenv("FIGARO_CASES_DIR");
    return d && *d ? d : "tests/cases";
}

/* ---------------------------------------------------------------- tests */

static void test_open_refuses_and_creates_nothing(void **state)
{
    tmp_t *t = *state;
    fig_store_t *s = NULL;
    fig_msg_t msg;
    assert_int_equal(fig_store_open(&s, "", NULL, &msg), FIG_ERR_INPUT);
    assert_null(s);
    assert_non_null(strstr(msg.text, "no folder"));
    char *huge = malloc(FIG_STORE_PATH_MAX);
    memset(huge, 'a', FIG_STORE_PATH_MAX - 1);
    huge[0] = '/';
    huge[FIG_STORE_PATH_MAX - 1] = '\0';
    assert_int_equal(fig_store_open(&s, huge, NULL, &msg), FIG_ERR_INPUT);
    assert_null(s);
    assert_non_null(strstr(msg.text, "too long"));
    free(huge);

    char slash[320];
    snprintf(slash, sizeof slash, "%s///", t->root);
    s = open_store(slash);
    assert_string_equal(fig_store_root(s), t->root);   /* trailing slashes dropped */
    char want[400];
    snprintf(want, sizeof want, "%s/current.fgn", t->root);
    assert_string_equal(fig_store_current_path(s), want);
    snprintf(want, sizeof want, "%s/history", t->root);
    assert_string_equal(fig_store_history_path(s), want);
    assert_false(exists(t->root));
    fig_store_free(s);
    fig_store_free(NULL);
}

static bool count_entry(void *ctx, const fig_store_entry_t *e)
{
    (void)e;
    ++*(int *)ctx;
    return true;
}

static void test_reading_creates_nothing(void **state)
{
    tmp_t *t = *state;
    for (int exists_first = 0; exists_first < 2; exists_first++) {
        if (exists_first)
            assert_int_equal(mkdir(t->root, 0700), 0);   /* the root alone, no history/ */
        fig_store_t *s = open_store(t->root);
        fig_msg_t msg;
        fig_game_t *g = malloc(sizeof *g);
        fig_store_header_t h;
        bool found = true;
        int calls = 0;
        char aside[FIG_STORE_PATH_MAX] = "x";
        assert_false(fig_store_has_current(s));
        assert_int_equal(fig_store_load_current(s, g, &found, &msg), FIG_OK);
        assert_false(found);
        assert_int_equal(fig_store_history(s, count_entry, &calls, &msg), FIG_OK);
        assert_int_equal(calls, 0);
        assert_int_equal(fig_store_set_aside(s, aside, sizeof aside, &msg), FIG_OK);
        assert_string_equal(aside, "");
        assert_int_equal(fig_store_read(s, fig_store_current_path(s), g, &h, &msg),
                         FIG_ERR_INPUT);
        assert_non_null(strstr(msg.text, "current.fgn: cannot open"));
        assert_int_equal(exists(t->root), exists_first);
        assert_false(exists(fig_store_history_path(s)));
        free(g);
        fig_store_free(s);
    }
}

static void test_round_trip_people_and_bots_at_any_seats(void **state)
{
    tmp_t *t = *state;
    static const char *const names[] = { "Ann", "Rosina", "Bob", "Bartolo", "Zoé" };
    static const char *const specs[] = { NULL, "greedy", NULL,
                                         "cmd:figaro engine --bot random  --x=1", NULL };
    fig_game_t *g = make_game(5, 31, 40, names);
    fig_store_t *s = open_store(t->root);
    fig_msg_t msg;
    fig_seats_t seats = seats_of(5, specs);
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_OK);
    assert_int_equal(fig_store_set_line(s, "pace", "250", &msg), FIG_OK);
    assert_int_equal(fig_store_set_line(s, "theme", "dark  blue\t", &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_store_set_line(s, "theme", "dark  blue ", &msg), FIG_OK);
    assert_int_equal(fig_store_set_line(s, "empty", "", &msg), FIG_OK);
    assert_int_equal(fig_store_set_line(s, "pace", "300", &msg), FIG_OK);   /* replaced */
    assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
    assert_true(fig_store_has_current(s));
    assert_false(exists(fig_store_history_path(s)));   /* only what was written */

    char *text = read_text(fig_store_current_path(s), NULL);
    const char *want = "# figaro play: the game in progress; 'figaro play --resume' continues "
                       "it\n#! play 1\n#! seat 0 human\n#! seat 1 bot greedy\n#! seat 2 human\n"
                       "#! seat 3 bot cmd:figaro engine --bot random  --x=1\n#! seat 4 human\n"
                       "#! pace 300\n#! theme dark  blue \n#! empty\nfigaro 1\n";
    assert_memory_equal(text, want, strlen(want));
    free(text);

    fig_store_t *r = open_store(t->root);
    fig_game_t *back = malloc(sizeof *back);
    bool found = false;
    assert_int_equal(fig_store_load_current(r, back, &found, &msg), FIG_OK);
    assert_true(found);
    assert_same_game(g, back);
    const fig_seats_t *got = fig_store_seats(r);
    assert_int_equal(got->players, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(got->seat[i].bot, specs[i] != NULL);
        assert_string_equal(got->seat[i].spec, specs[i] ? specs[i] : "");
        assert_string_equal(got->seat[i].name, names[i]);   /* from the record */
    }
    const fig_store_header_t *h = fig_store_header(r);
    assert_int_equal(h->nlines, 3);
    assert_string_equal(h->lines[0].key, "pace");
    assert_string_equal(h->lines[1].key, "theme");
    assert_string_equal(h->lines[2].key, "empty");
    int line = 0;
    assert_string_equal(fig_store_line(r, "theme", &line), "dark  blue ");
    assert_int_equal(line, 9);
    assert_string_equal(fig_store_line(r, "pace", NULL), "300");
    assert_string_equal(fig_store_line(r, "empty", NULL), "");
    assert_null(fig_store_line(r, "open", &line));
    assert_int_equal(line, 0);

    /* the second handle writes the same file again */
    char *first = read_text(fig_store_current_path(s), NULL);
    assert_int_equal(fig_store_save_current(r, back, &msg), FIG_OK);
    char *second = read_text(fig_store_current_path(s), NULL);
    assert_string_equal(first, second);
    free(first);
    free(second);

    /* a seat table for another number of players is refused, nothing written */
    fig_store_t *other = open_store(t->root);
    assert_int_equal(fig_store_save_current(other, g, &msg), FIG_ERR_STATE);
    assert_non_null(strstr(msg.text, "0 seats but the game 5 players"));
    fig_store_free(other);
    free(back);
    free(g);
    fig_store_free(r);
    fig_store_free(s);
}

static void test_lines_and_seats_are_checked(void **state)
{
    tmp_t *t = *state;
    fig_store_t *s = open_store(t->root);
    fig_msg_t msg;
    static const char *const bad_keys[] = { "seat", "play", "a b", "", "tab\tkey",
                                            "0123456789012345678901234567890123" };
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++)
        assert_int_equal(fig_store_set_line(s, bad_keys[i], "1", &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_store_set_line(s, "k", " leading", &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_store_set_line(s, "k", "new\nline", &msg), FIG_ERR_INPUT);
    for (int i = 0; i < FIG_STORE_LINES_MAX; i++) {
        char key[16];
        snprintf(key, sizeof key, "k%d", i);
        assert_int_equal(fig_store_set_line(s, key, "v", &msg), FIG_OK);
    }
    assert_int_equal(fig_store_set_line(s, "one-more", "v", &msg), FIG_ERR_SPACE);
    assert_int_equal(fig_store_set_line(s, "k3", "w", &msg), FIG_OK);   /* replacing fits */
    fig_store_clear_lines(s);
    assert_int_equal(fig_store_header(s)->nlines, 0);

    static const char *const no_spec[] = { NULL, "", "greedy" };
    fig_seats_t seats = seats_of(3, no_spec);
    seats.seat[1].bot = true;
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_ERR_INPUT);
    snprintf(seats.seat[1].spec, sizeof seats.seat[1].spec, "cmd:a\nb");
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_ERR_INPUT);
    snprintf(seats.seat[1].spec, sizeof seats.seat[1].spec, " random");
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_ERR_INPUT);
    seats.players = 7;
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_store_seats(s)->players, 0);   /* nothing was taken */
    fig_store_free(s);
}

/* The files of the previous version load, and are written back unchanged. */
static void test_previous_version_files(void **state)
{
    tmp_t *t = *state;
    static const struct {
        const char *file;
        int players;
        const char *specs[FIG_MAX_PLAYERS];
        const char *pace, *open, *color;
        const char *first_name;
    } cases[] = {
        { "store-v1-unfinished-4p.fgn", 4, { NULL, "random", "greedy", "random" }, "250", "1",
          "1", "Ann" },
        { "store-v1-finished-3p.fgn", 3, { NULL, "greedy", "random" }, "0", "0", "0", "Zoé" },
        { "store-v1-current-6p.fgn", 6, { NULL, "easy", "easy", "easy", "easy", "easy" }, "0",
          "0", "0", "You" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", cases_dir(), cases[i].file);
        size_t len;
        char *orig = read_text(path, &len);

        fig_store_t *s = open_store(t->root);
        fig_msg_t msg;
        assert_int_equal(mkdir(t->root, 0700), 0);
        write_text(fig_store_current_path(s), orig, len);
        fig_game_t *g = malloc(sizeof *g);
        bool found;
        if (fig_store_load_current(s, g, &found, &msg) != FIG_OK)
            fail_msg("%s: %s", cases[i].file, msg.text);
        assert_true(found);
        const fig_seats_t *seats = fig_store_seats(s);
        assert_int_equal(seats->players, cases[i].players);
        for (int k = 0; k < cases[i].players; k++) {
            assert_int_equal(seats->seat[k].bot, cases[i].specs[k] != NULL);
            if (cases[i].specs[k])
                assert_string_equal(seats->seat[k].spec, cases[i].specs[k]);
        }
        assert_string_equal(seats->seat[0].name, cases[i].first_name);
        assert_string_equal(fig_store_line(s, "pace", NULL), cases[i].pace);
        assert_string_equal(fig_store_line(s, "open", NULL), cases[i].open);
        assert_string_equal(fig_store_line(s, "color", NULL), cases[i].color);

        /* written back byte for byte: as the game in progress, or filed */
        char *again;
        if (fig_game_over(g)) {
            char filed[FIG_STORE_PATH_MAX];
            assert_int_equal(fig_store_finish(s, g, filed, sizeof filed, &msg), FIG_OK);
            assert_false(fig_store_has_current(s));
            again = read_text(filed, NULL);
        } else {
            assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
            again = read_text(fig_store_current_path(s), NULL);
        }
        assert_string_equal(again, orig);
        free(again);
        free(orig);
        free(g);
        fig_store_free(s);
        remove_tree(t->root);
    }
}

typedef struct {
    char files[16][64];
    bool game[16], header[16];
    char error[16][200];
    int n, stop_after;
} walk_t;

static bool collect(void *ctx, const fig_store_entry_t *e)
{
    walk_t *w = ctx;
    assert_true(w->n < 16);
    snprintf(w->files[w->n], sizeof w->files[w->n], "%s", e->file);
    w->game[w->n] = e->game != NULL;
    w->header[w->n] = e->header != NULL;
    snprintf(w->error[w->n], sizeof w->error[w->n], "%s", e->error ? e->error : "");
    assert_true(e->game || e->error);
    assert_non_null(strstr(e->path, e->file));
    w->n++;
    return w->n != w->stop_after;
}

static void test_history_walk_order(void **state)
{
    tmp_t *t = *state;
    fig_store_t *s = open_store(t->root);
    fig_msg_t msg;
    static const char *const specs[] = { NULL, "random", "random", "random" };
    fig_seats_t seats = seats_of(4, specs);
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_OK);
    fig_game_t *g = make_game(4, 5, -1, NULL);
    char filed[FIG_STORE_PATH_MAX];
    assert_int_equal(fig_store_finish(s, g, filed, sizeof filed, &msg), FIG_OK);
    assert_non_null(strstr(filed, "-5.fgn"));
    assert_null(strstr(filed, "unfinished"));

    char path[FIG_STORE_PATH_MAX];
    char *good = read_text(filed, NULL);
    static const char *const names[] = { "20200101-000000-7.fgn", "19991231-235959-1.fgn",
                                         "zzz.fgn", "20000101-000000-1.fgn",
                                         "20100101-000000-2.fgn" };
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", fig_store_history_path(s), names[i]);
        if (i == 3)   /* a damaged record */
            write_text(path, "figaro 1\nplayers 9\n", 19);
        else if (i == 4) {   /* a good record, damaged "#!" lines */
            char *bad = strdup(good);
            char *seat = strstr(bad, "#! seat 2 bot");
            seat[8] = '7';
            write_text(path, bad, strlen(bad));
            free(bad);
        } else {
            write_text(path, good, strlen(good));
        }
    }
    snprintf(path, sizeof path, "%s/notes.txt", fig_store_history_path(s));
    write_text(path, "x", 1);
    snprintf(path, sizeof path, "%s/.hidden.fgn", fig_store_history_path(s));
    write_text(path, good, strlen(good));
    free(good);

    walk_t w;
    memset(&w, 0, sizeof w);
    assert_int_equal(fig_store_history(s, collect, &w, &msg), FIG_OK);
    assert_int_equal(w.n, 6);
    assert_string_equal(w.files[0], "19991231-235959-1.fgn");
    assert_string_equal(w.files[1], "20000101-000000-1.fgn");
    assert_string_equal(w.files[2], "20100101-000000-2.fgn");
    assert_string_equal(w.files[3], "20200101-000000-7.fgn");
    assert_non_null(strstr(filed, w.files[4]));   /* stamped today */
    assert_string_equal(w.files[5], "zzz.fgn");
    assert_false(w.game[1]);
    assert_non_null(strstr(w.error[1], "20000101-000000-1.fgn:2:"));
    assert_true(w.game[2]);
    assert_false(w.header[2]);   /* listed, without its seats */
    assert_true(w.game[0] && w.header[0] && w.header[3] && w.header[5]);

    memset(&w, 0, sizeof w);
    w.stop_after = 2;
    assert_int_equal(fig_store_history(s, collect, &w, &msg), FIG_OK);
    assert_int_equal(w.n, 2);

    /* a store without a history folder has an empty history */
    fig_store_t *odd = open_store(t->dir);
    memset(&w, 0, sizeof w);
    assert_int_equal(fig_store_history(odd, collect, &w, &msg), FIG_OK);
    assert_int_equal(w.n, 0);
    fig_store_free(odd);
    free(g);
    fig_store_free(s);
}

static void test_set_aside_and_finish(void **state)
{
    tmp_t *t = *state;
    fig_store_t *s = open_store(t->root);
    fig_msg_t msg;
    static const char *const specs[] = { "greedy", NULL, "random" };
    fig_seats_t seats = seats_of(3, specs);
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_OK);
    assert_int_equal(fig_store_set_line(s, "open", "1", &msg), FIG_OK);
    fig_game_t *g = make_game(3, 1234, 20, NULL);
    assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
    char *before = read_text(fig_store_current_path(s), NULL);

    char aside[FIG_STORE_PATH_MAX];
    assert_int_equal(fig_store_set_aside(s, aside, sizeof aside, &msg), FIG_OK);
    assert_false(fig_store_has_current(s));
    assert_non_null(strstr(aside, "/history/"));
    assert_non_null(strstr(aside, "-1234-unfinished.fgn"));
    char *moved = read_text(aside, NULL);
    /* the file itself, but its title: it no longer says `figaro play --resume`
     * continues it (that is now --resume N) */
    assert_string_equal(strchr(moved, '\n'), strchr(before, '\n'));
    assert_true(strncmp(moved, "# figaro play: an unfinished game\n", 34) == 0);
    free(moved);

    /* twice in the same second: the second name gets -2 */
    assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
    char aside2[FIG_STORE_PATH_MAX];
    assert_int_equal(fig_store_set_aside(s, aside2, sizeof aside2, &msg), FIG_OK);
    assert_string_not_equal(aside, aside2);
    if (strncmp(aside, aside2, strlen(aside) - 4) == 0)   /* same stamp */
        assert_non_null(strstr(aside2, "-unfinished-2.fgn"));

    /* a damaged game in progress is set aside too, named without a seed */
    write_text(fig_store_current_path(s), "not a game\n", 11);
    assert_int_equal(fig_store_set_aside(s, aside, sizeof aside, &msg), FIG_OK);
    assert_null(strstr(aside, "-1234"));
    assert_non_null(strstr(aside, "-unfinished.fgn"));
    assert_false(fig_store_has_current(s));

    /* finishing an unfinished game files it as unfinished */
    assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
    char filed[FIG_STORE_PATH_MAX];
    assert_int_equal(fig_store_finish(s, g, filed, sizeof filed, &msg), FIG_OK);
    assert_non_null(strstr(filed, "-unfinished"));
    char *text = read_text(filed, NULL);
    assert_non_null(strstr(text, "# figaro play: an unfinished game\n#! play 1\n"
                                 "#! seat 0 bot greedy\n#! seat 1 human\n"
                                 "#! seat 2 bot random\n#! open 1\n"));
    free(text);
    assert_false(fig_store_has_current(s));
    free(before);
    free(g);
    fig_store_free(s);
}

/* A start nobody played in is neither saved nor filed; a table of
 * bots alone is kept from its first move; fig_store_remove takes files of
 * the history only. */
static void test_games_not_worth_keeping(void **state)
{
    tmp_t *t = *state;
    fig_store_t *s = open_store(t->root);
    fig_msg_t msg;
    static const char *const person_first[] = { NULL, "random", "random" };
    static const char *const bots[] = { "random", "random", "random" };
    fig_seats_t people = seats_of(3, person_first), nobody = seats_of(3, bots);
    fig_game_t *g = make_game(3, 77, 1, NULL);   /* the deal only */
    assert_int_equal(g->nmoves[0], 0);
    assert_false(fig_store_worth_keeping(g, &people));
    assert_true(fig_store_worth_keeping(g, &nobody));
    /* the bots move, not written, until seat 0, the person, plays */
    assert_int_equal(fig_store_set_seats(s, &people, &msg), FIG_OK);
    fig_rng_t rng;
    fig_rng_seed(&rng, 5);
    for (bool person = false; !person;) {
        person = g->state.turn == 0;
        assert_int_equal(fig_game_play(g, fig_state_random_action(&g->state, &rng), NULL, NULL),
                         FIG_OK);
        assert_int_equal(fig_store_worth_keeping(g, &people), person);
        assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
        assert_int_equal(fig_store_has_current(s), person);
    }

    /* a save without the person's move (an older figaro's): dropped, not filed */
    fig_game_t *dealt = make_game(3, 77, 1, NULL);
    assert_int_equal(fig_store_set_seats(s, &nobody, &msg), FIG_OK);
    assert_int_equal(fig_store_save_current(s, dealt, &msg), FIG_OK);   /* bots: kept */
    assert_true(fig_store_has_current(s));
    char *text = read_text(fig_store_current_path(s), NULL);
    char *seat0 = strstr(text, "#! seat 0 bot random");
    assert_non_null(seat0);
    memcpy(seat0, "#! seat 0 human     ", 20);   /* same length: a person at seat 0 */
    write_text(fig_store_current_path(s), text, strlen(text));
    free(text);
    char aside[FIG_STORE_PATH_MAX];
    assert_int_equal(fig_store_set_aside(s, aside, sizeof aside, &msg), FIG_OK);
    assert_string_equal(aside, "");
    assert_false(fig_store_has_current(s));
    assert_false(exists(fig_store_history_path(s)));

    /* removing: history files only */
    assert_int_equal(fig_store_set_seats(s, &people, &msg), FIG_OK);
    assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
    assert_true(fig_store_has_current(s));
    assert_int_equal(fig_store_set_aside(s, aside, sizeof aside, &msg), FIG_OK);
    assert_true(exists(aside));
    char bad[FIG_STORE_PATH_MAX + 16];
    snprintf(bad, sizeof bad, "%s/../current.fgn", fig_store_history_path(s));
    assert_int_equal(fig_store_remove(s, bad, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "is not a game of the history"));
    assert_int_equal(fig_store_remove(s, "/etc/passwd", &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_store_remove(s, fig_store_history_path(s), &msg), FIG_ERR_INPUT);
    assert_int_equal(fig_store_remove(s, aside, &msg), FIG_OK);
    assert_false(exists(aside));
    assert_int_equal(fig_store_remove(s, aside, &msg), FIG_ERR_INPUT);   /* gone */
    free(dealt);
    free(g);
    fig_store_free(s);
}

/* Each damaged file: the error names the file and the line. */
static void test_damaged_files_name_file_and_line(void **state)
{
    tmp_t *t = *state;
    char path[512];
    snprintf(path, sizeof path, "%s/store-v1-unfinished-4p.fgn", cases_dir());
    char *good = read_text(path, NULL);
    /* the good file's lines 3..9: seat 0..3, pace, open, color */
    static const struct {
        const char *from, *to;   /* replace the first `from` by `to` */
        const char *want;
        int line;
    } cases[] = {
        { NULL, "this is not a game\n", "current.fgn:1: ", 1 },
        { "#! seat 2 bot greedy", "#! seat 2 robot", "current.fgn:5: expected '#! seat N "
          "human' or '#! seat N bot SPEC'", 5 },
        { "#! seat 2 bot greedy", "#! seat 2 bot", "current.fgn:5: expected", 5 },
        { "#! seat 2 bot greedy", "#! seat 4 human", "with N from 0 to 3", 5 },
        { "#! seat 2 bot greedy", "#! seat x human", "with N from 0 to 3", 5 },
        { "#! seat 2 bot greedy", "#! seat 1 human", "current.fgn:5: seat 1 is described twice",
          5 },
        { "#! seat 3 bot random\n", "", "current.fgn: seat 3 is not described", 0 },
        { "#! pace 250", "#! pace 2\00150", "current.fgn:7: unexpected control byte", 7 },
        { "#! open 1", "#! open\t1\t", "current.fgn:8: this line holds control", 8 },
        { "#! color 1", "#! 0123456789012345678901234567890123456789 1",
          "current.fgn:9: the word after '#!' is too long", 9 },
    };
    fig_store_t *s = open_store(t->root);
    assert_int_equal(mkdir(t->root, 0700), 0);
    fig_msg_t msg;
    static const char *const specs[] = { NULL, "max", "max" };
    fig_seats_t mine = seats_of(3, specs);
    assert_int_equal(fig_store_set_seats(s, &mine, &msg), FIG_OK);
    fig_game_t *g = malloc(sizeof *g);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = malloc(strlen(good) + 200);
        size_t len;
        if (!cases[i].from) {
            len = strlen(cases[i].to);
            memcpy(text, cases[i].to, len);
        } else {
            const char *at = strstr(good, cases[i].from);
            assert_non_null(at);
            size_t pre = (size_t)(at - good), tl = strlen(cases[i].to);
            memcpy(text, good, pre);
            memcpy(text + pre, cases[i].to, tl);
            strcpy(text + pre + tl, at + strlen(cases[i].from));
            len = strlen(text);
        }
        write_text(fig_store_current_path(s), text, len);
        free(text);
        bool found = false;
        memset(&msg, 0, sizeof msg);
        assert_int_equal(fig_store_load_current(s, g, &found, &msg), FIG_ERR_INPUT);
        if (!strstr(msg.text, cases[i].want) || strncmp(msg.text, t->root, strlen(t->root)))
            fail_msg("case %zu: '%s' does not say '%s' with the path", i, msg.text,
                     cases[i].want);
        if (cases[i].line)
            assert_int_equal(msg.line, cases[i].line);
        assert_int_equal(fig_store_seats(s)->players, 3);   /* the handle is unchanged */
    }
    /* binary data, more than 16 front-end lines, a line too long, a file too large */
    write_text(fig_store_current_path(s), good, strlen(good) + 1);   /* its NUL too */
    assert_int_equal(fig_store_load_current(s, g, &(bool){ false }, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "current.fgn: this is not a game record (it holds binary"));
    char *many = malloc(strlen(good) + 17 * 16 + 1);
    strcpy(many, good);
    for (int i = 0; i < 15; i++)   /* 3 already there */
        strcat(many, "#! more x\n");
    write_text(fig_store_current_path(s), many, strlen(many));
    assert_int_equal(fig_store_load_current(s, g, &(bool){ false }, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "too many '#!' lines"));
    free(many);
    char *longline = malloc(strlen(good) + 700);
    strcpy(longline, "#! note ");
    memset(longline + 8, 'x', 600);
    strcpy(longline + 608, "\n");
    strcat(longline, good);
    write_text(fig_store_current_path(s), longline, strlen(longline));
    assert_int_equal(fig_store_load_current(s, g, &(bool){ false }, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "current.fgn:1: this line is too long"));
    free(longline);
    size_t big = FIG_STORE_FILE_MAX + 10;
    char *huge = malloc(big);
    memset(huge, '#', big);
    write_text(fig_store_current_path(s), huge, big);
    free(huge);
    assert_int_equal(fig_store_load_current(s, g, &(bool){ false }, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "current.fgn: larger than"));
    free(g);
    free(good);
    fig_store_free(s);
}

/* The parser from memory: lines in any order, "#!" alone, CRLF. */
static void test_parse_header_from_memory(void **state)
{
    (void)state;
    static const char text[] = "#!\r\n#! seat 1 bot ismcts:ms=50 \r\n#!seat 0 human extra\n"
                               "# a comment\n#!  \tlayout   wide  open\n#! play 1\n"
                               "#! seat 2 human\n";
    fig_store_header_t h;
    fig_msg_t msg;
    assert_int_equal(fig_store_parse_header(text, sizeof text - 1, "mem", 3, &h, NULL, &msg),
                     FIG_OK);
    assert_int_equal(h.seats.players, 3);
    assert_false(h.seats.seat[0].bot);
    assert_true(h.seats.seat[1].bot);
    assert_string_equal(h.seats.seat[1].spec, "ismcts:ms=50 ");
    assert_false(h.seats.seat[2].bot);
    assert_int_equal(h.nlines, 1);
    assert_string_equal(h.lines[0].key, "layout");
    assert_string_equal(h.lines[0].value, "wide  open");
    assert_int_equal(h.lines[0].line, 5);
    char out[512];
    size_t n = fig_store_write_header(&h, out, sizeof out);
    assert_int_equal(n, strlen(out));
    assert_string_equal(out, "#! play 1\n#! seat 0 human\n#! seat 1 bot ismcts:ms=50 \n"
                             "#! seat 2 human\n#! layout wide  open\n");
    char small[10];
    assert_int_equal(fig_store_write_header(&h, small, sizeof small), n);   /* cut, counted */
    assert_string_equal(small, "#! play 1");
    assert_int_equal(fig_store_parse_header(text, sizeof text - 1, "mem", 2, &h, NULL, &msg),
                     FIG_ERR_INPUT);
    assert_int_equal(fig_store_parse_header(text, sizeof text - 1, "mem", 4, &h, NULL, &msg),
                     FIG_ERR_INPUT);
    assert_string_equal(msg.text, "mem: seat 3 is not described (a '#! seat 3 ...' line is "
                                  "missing)");
}

/* A translator turns the store's messages into the reader's language. */
static const char *shout(const fig_tr_t *tr, const char *msgid)
{
    (void)tr;
    return strcmp(msgid, "%s:%d: seat %d is described twice") == 0
               ? "%s:%d: SIÈGE %d DEUX FOIS" : msgid;
}

static void test_messages_go_through_the_translator(void **state)
{
    (void)state;
    static const char text[] = "#! seat 0 human\n#! seat 0 human\n";
    fig_tr_t tr = { shout, NULL, NULL };
    fig_store_header_t h;
    fig_msg_t msg;
    assert_int_equal(fig_store_parse_header(text, sizeof text - 1, "f", 3, &h, &tr, &msg),
                     FIG_ERR_INPUT);
    assert_string_equal(msg.text, "f:2: SIÈGE 0 DEUX FOIS");
    assert_int_equal(msg.line, 2);
}

/* Fails the 1st, 2nd, ... allocation of fig_store_open until it succeeds. */
static void test_open_allocation_failures(void **state)
{
    tmp_t *t = *state;
    int k;
    for (k = 1; k < 100; k++) {
        fig_store_t *s = (fig_store_t *)&k;   /* must be cleared on failure */
        fig_msg_t msg;
        memset(&msg, 0, sizeof msg);
        alloc_fail_arm(k);
        fig_err_t rc = fig_store_open(&s, t->root, NULL, &msg);
        alloc_fail_disarm();
        if (rc == FIG_OK) {
            assert_non_null(s);
            fig_store_free(s);
            break;
        }
        assert_int_equal(rc, FIG_ERR_SPACE);
        assert_null(s);
        assert_string_equal(msg.text, "out of memory");
    }
    assert_true(k > 2);   /* the handle and its paths: several allocations were failed */
    assert_true(k < 100);
}

/* The same for loading, saving, filing and walking the history: each failure
 * is an error and leaves nothing behind. */
static void test_load_save_walk_allocation_failures(void **state)
{
    tmp_t *t = *state;
    fig_store_t *s = open_store(t->root);
    fig_msg_t msg;
    static const char *const specs[] = { NULL, "random", "random", "random" };
    fig_seats_t seats = seats_of(4, specs);
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_OK);
    fig_game_t *g = make_game(4, 9, 30, NULL), *back = malloc(sizeof *back);
    assert_int_equal(fig_store_finish(s, g, NULL, 0, &msg), FIG_OK);
    int failures[4] = { 0 };
    for (int op = 0; op < 4; op++) {
        int k;
        for (k = 1; k < 1000; k++) {
            bool found = false;
            walk_t w;
            memset(&w, 0, sizeof w);
            alloc_fail_arm(k);
            fig_err_t rc = op == 0   ? fig_store_save_current(s, g, &msg)
                           : op == 1 ? fig_store_load_current(s, back, &found, &msg)
                           : op == 2 ? fig_store_history(s, collect, &w, &msg)
                                     : fig_store_set_aside(s, NULL, 0, &msg);
            alloc_fail_disarm();
            if (rc == FIG_OK)
                break;
            failures[op]++;
            assert_int_equal(rc, FIG_ERR_SPACE);
            assert_non_null(strstr(msg.text, "out of memory"));
            if (op == 3)
                assert_true(fig_store_has_current(s));   /* nothing moved */
        }
        assert_true(k < 1000);
        assert_true(failures[op] > 0);
    }
    assert_false(fig_store_has_current(s));   /* the last set-aside went through */
    free(back);
    free(g);
    fig_store_free(s);
}

/* A sealed game (no cheating): no hand and no seed in clear, read
 * back exactly with the folder's key, set aside still sealed, filed in clear
 * once over; without its key, or altered, it is refused. */
static void log_into(void *ctx, const char *line)
{
    snprintf(ctx, FIG_LOG_LINE + 8, "%s", line);
}

/* host/util's one bounded string builder (the store's header, narration,
 * plain mode, the server's lists) and one log line (the server's parts). */
static void test_putf_and_logf(void **state)
{
    (void)state;
    char buf[8];
    size_t len = 0;
    fig_putf(buf, sizeof buf, &len, "%s", "abc");
    assert_string_equal(buf, "abc");
    assert_int_equal(len, 3);
    fig_putf(buf, sizeof buf, &len, "-%d-", 1234);   /* cut: 4 of 6 fit */
    assert_string_equal(buf, "abc-123");
    assert_int_equal(len, 9);                         /* >= cap: it was cut */
    fig_putf(buf, sizeof buf, &len, "%s", "xyz");     /* past the end: counted only */
    assert_string_equal(buf, "abc-123");
    assert_int_equal(len, 12);

    char line[FIG_LOG_LINE + 8] = "";
    fig_logf(NULL, line, "p: ", "%d", 1);             /* no callback: nothing */
    fig_logf(log_into, line, "table K7M2QX: ", "game %d starts", 2);
    assert_string_equal(line, "table K7M2QX: game 2 starts");
    char big[2 * FIG_LOG_LINE];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    fig_logf(log_into, line, "", "%s", big);
    assert_int_equal(strlen(line), FIG_LOG_LINE - 1);
}

static void test_sealed_games(void **state)
{
    tmp_t *t = *state;
    fig_store_t *s = open_store(t->root);
    fig_msg_t msg;
    static const char *const specs[] = { NULL, "greedy", "random", "greedy" };
    fig_seats_t seats = seats_of(4, specs);
    assert_int_equal(fig_store_set_seats(s, &seats, &msg), FIG_OK);
    fig_store_set_sealed(s, true);
    fig_game_t *g = make_game(4, 987654321, 30, NULL);
    assert_int_equal(fig_store_save_current(s, g, &msg), FIG_OK);
    char *text = read_text(fig_store_current_path(s), NULL);
    assert_null(strstr(text, "\nhand "));
    assert_null(strstr(text, "987654321"));
    assert_non_null(strstr(text, "\n#= sealed 1 "));
    assert_non_null(strstr(text, "#! seat 1 bot greedy\n"));

    fig_game_t *back = malloc(sizeof *back);
    assert_non_null(back);
    fig_store_t *s2 = open_store(t->root);
    bool found;
    assert_int_equal(fig_store_load_current(s2, back, &found, &msg), FIG_OK);
    assert_true(found);
    assert_true(fig_store_header(s2)->sealed);
    assert_memory_equal(&back->state, &g->state, sizeof g->state);
    assert_int_equal(back->setup.seed, 987654321);

    /* each save draws its own nonce: the same game never reads the same */
    assert_int_equal(fig_store_save_current(s2, back, &msg), FIG_OK);
    char *again = read_text(fig_store_current_path(s), NULL);
    assert_string_not_equal(text, again);
    free(again);

    /* altered, or without the key: refused, with why */
    char *altered = strdup(text);
    char *hex = strstr(altered, "\n#= ") + 4;
    hex = strstr(hex, "\n#= ") + 4;   /* the first line of hex */
    hex[0] = hex[0] == '0' ? '1' : '0';
    write_text(fig_store_current_path(s), altered, strlen(altered));
    free(altered);
    assert_int_equal(fig_store_load_current(s2, back, &found, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "sealed record is damaged"));
    write_text(fig_store_current_path(s), text, strlen(text));
    char key[FIG_STORE_PATH_MAX], moved[FIG_STORE_PATH_MAX + 8];
    snprintf(key, sizeof key, "%s/key", fig_store_root(s));
    snprintf(moved, sizeof moved, "%s.away", key);
    assert_int_equal(rename(key, moved), 0);
    assert_int_equal(fig_store_load_current(s2, back, &found, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "is missing"));
    assert_int_equal(rename(moved, key), 0);

    /* set aside: sealed still, and no seed in its name; finished: in clear */
    char aside[FIG_STORE_PATH_MAX];
    assert_int_equal(fig_store_set_aside(s, aside, sizeof aside, &msg), FIG_OK);
    assert_null(strstr(aside, "987654321"));
    char *kept = read_text(aside, NULL);
    assert_non_null(strstr(kept, "\n#= sealed 1 "));
    free(kept);
    assert_int_equal(fig_store_reopen(s, aside, back, NULL, 0, &msg), FIG_OK);
    assert_true(fig_store_header(s)->sealed);
    assert_memory_equal(&back->state, &g->state, sizeof g->state);
    assert_false(exists(aside));
    fig_game_t *over = make_game(4, 987654321, -1, NULL);
    char path[FIG_STORE_PATH_MAX];
    assert_int_equal(fig_store_finish(s, over, path, sizeof path, &msg), FIG_OK);
    assert_non_null(strstr(path, "-987654321.fgn"));
    char *filed = read_text(path, NULL);
    assert_non_null(strstr(filed, "\nhand 0 "));
    assert_null(strstr(filed, "#= sealed"));
    free(filed);
    free(over);
    free(text);
    free(back);
    free(g);
    fig_store_free(s2);
    fig_store_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_open_refuses_and_creates_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reading_creates_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_people_and_bots_at_any_seats, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_lines_and_seats_are_checked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_previous_version_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_history_walk_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_aside_and_finish, setup, teardown),
        cmocka_unit_test_setup_teardown(test_games_not_worth_keeping, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sealed_games, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_files_name_file_and_line, setup, teardown),
        cmocka_unit_test(test_parse_header_from_memory),
        cmocka_unit_test(test_putf_and_logf),
        cmocka_unit_test(test_messages_go_through_the_translator),
        cmocka_unit_test_setup_teardown(test_open_allocation_failures, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_save_walk_allocation_failures, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
