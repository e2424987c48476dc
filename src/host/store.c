/* SPDX-License-Identifier: MIT */
/* store.c - saved games (store.h): the handle on a folder, the game in
 * progress, the history.
 *
 * A saved file is a title comment, the "#!" lines (store_header.c), then the
 * FGN record, in clear or sealed (store_seal.c); load_file opens a sealed one
 * into the clear text (the "#!" lines, then the record) before anything reads
 * it, so the parsers never meet a sealed file. Every file is written through
 * store_file.c (a temporary file renamed into place); nothing is created on
 * disk before something is written. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host/store.h"
#include "host/store_file.h"
#include "host/util.h"

struct fig_store {
    const fig_tr_t *tr;
    char *root;                 /* as given, without a trailing '/' */
    char *current;              /* root/current.fgn */
    char *history;              /* root/history */
    char *keyfile;              /* root/key: the key of sealed games */
    fig_store_header_t header;  /* the game in progress: seats.players 0 until set */
};

static fig_err_t no_memory(const fig_store_t *s, fig_msg_t *msg)
{
    return store_fail(msg, s->tr, 0, FIG_ERR_SPACE, N_("out of memory"));
}

/* ---- the handle */

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = malloc(na + nb + 2);
    if (p) {
        memcpy(p, a, na);
        p[na] = '/';
        memcpy(p + na + 1, b, nb + 1);
    }
    return p;
}

fig_err_t fig_store_open(fig_store_t **out, const char *root, const fig_tr_t *tr,
                         fig_msg_t *msg)
{
    *out = NULL;
    size_t n = root ? strlen(root) : 0;
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (n == 0)
        return store_fail(msg, tr, 0, FIG_ERR_INPUT,
                          N_("no folder was given to keep the games in"));
    /* room for history/YYYYMMDD-HHMMSS-SEED-unfinished-NN.fgn.XXXXXX */
    if (n + 80 >= FIG_STORE_PATH_MAX)
        return store_fail(msg, tr, 0, FIG_ERR_INPUT,
                          N_("the folder name for saved games is too long"));
    fig_store_t *s = calloc(1, sizeof *s);
    if (!s)
        return store_fail(msg, tr, 0, FIG_ERR_SPACE, N_("out of memory"));
    s->tr = tr;
    if ((s->root = malloc(n + 1)) != NULL) {
        memcpy(s->root, root, n);
        s->root[n] = '\0';
        s->current = join(s->root, "current.fgn");
        s->history = join(s->root, "history");
        s->keyfile = join(s->root, "key");
    }
    if (!s->root || !s->current || !s->history || !s->keyfile) {
        fig_store_free(s);
        return store_fail(msg, tr, 0, FIG_ERR_SPACE, N_("out of memory"));
    }
    *out = s;
    return FIG_OK;
}

void fig_store_free(fig_store_t *s)
{
    if (!s)
        return;
    free(s->root);
    free(s->current);
    free(s->history);
    free(s->keyfile);
    free(s);
}

const char *fig_store_root(const fig_store_t *s) { return s->root; }
const char *fig_store_current_path(const fig_store_t *s) { return s->current; }
const char *fig_store_history_path(const fig_store_t *s) { return s->history; }

bool fig_store_has_current(const fig_store_t *s)
{
    return access(s->current, F_OK) == 0;
}

/* ---- the seat table and front-end lines */

static fig_err_t check_seats(const fig_store_t *s, const fig_seats_t *seats, fig_msg_t *msg)
{
    if (seats->players < FIG_MIN_PLAYERS || seats->players > FIG_MAX_PLAYERS)
        return store_fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("a game has 3 to 6 players, not %d"),
                          seats->players);
    for (int t = 0; t < seats->players; t++) {
        const fig_seat_t *st = &seats->seat[t];
        if (!st->bot)
            continue;
        size_t n = strnlen(st->spec, sizeof st->spec);
        if (n == 0 || n == sizeof st->spec || store_has_control(st->spec, n) || st->spec[0] == ' ')
            return store_fail(msg, s->tr, 0, FIG_ERR_INPUT,
                              N_("seat %d: a bot spec is 1 to %d characters, without control "
                                 "characters, not starting with a space"),
                              t, (int)sizeof st->spec - 1);
    }
    return FIG_OK;
}

fig_err_t fig_store_set_seats(fig_store_t *s, const fig_seats_t *seats, fig_msg_t *msg)
{
    fig_err_t rc = check_seats(s, seats, msg);
    if (rc == FIG_OK)
        s->header.seats = *seats;
    return rc;
}

void fig_store_set_sealed(fig_store_t *s, bool sealed) { s->header.sealed = sealed; }
const fig_seats_t *fig_store_seats(const fig_store_t *s) { return &s->header.seats; }
const fig_store_header_t *fig_store_header(const fig_store_t *s) { return &s->header; }
void fig_store_clear_lines(fig_store_t *s) { s->header.nlines = 0; }

fig_err_t fig_store_set_line(fig_store_t *s, const char *key, const char *value,
                             fig_msg_t *msg)
{
    size_t nk = strlen(key), nv = strlen(value);
    if (nk == 0 || nk >= FIG_STORE_KEY_MAX || store_has_control(key, nk) || strchr(key, ' ') ||
        strcmp(key, "seat") == 0 || strcmp(key, "play") == 0)
        return store_fail(msg, s->tr, 0, FIG_ERR_INPUT,
                          N_("'%s' cannot be the key of a saved line (a word of 1 to %d bytes, "
                             "not 'seat' or 'play')"),
                          key, FIG_STORE_KEY_MAX - 1);
    if (nv >= FIG_STORE_VALUE_MAX || store_has_control(value, nv) || value[0] == ' ')
        return store_fail(msg, s->tr, 0, FIG_ERR_INPUT,
                          N_("the value of '%s' cannot be saved (at most %d bytes, without control "
                             "characters, not starting with a space)"),
                          key, FIG_STORE_VALUE_MAX - 1);
    fig_store_header_t *h = &s->header;
    int i = 0;
    while (i < h->nlines && strcmp(h->lines[i].key, key) != 0)
        i++;
    if (i == FIG_STORE_LINES_MAX)
        return store_fail(msg, s->tr, 0, FIG_ERR_SPACE, N_("at most %d lines can be saved"),
                          FIG_STORE_LINES_MAX);
    if (i == h->nlines) {
        memset(&h->lines[i], 0, sizeof h->lines[i]);
        memcpy(h->lines[i].key, key, nk + 1);
        h->nlines++;
    }
    memcpy(h->lines[i].value, value, nv + 1);
    h->lines[i].line = 0;
    return FIG_OK;
}

const char *fig_store_line(const fig_store_t *s, const char *key, int *line)
{
    const fig_store_header_t *h = &s->header;
    for (int i = h->nlines - 1; i >= 0; i--)
        if (strcmp(h->lines[i].key, key) == 0) {
            if (line)
                *line = h->lines[i].line;
            return h->lines[i].value;
        }
    if (line)
        *line = 0;
    return NULL;
}

/* ---- writing */

/* The whole file: the title, the "#!" lines, then the record, sealed if h
 * says so and the game is not over. *out is malloc'ed. */
static fig_err_t render(const fig_store_t *s, const fig_store_header_t *h, const fig_game_t *g,
                        const char *title, char **out, fig_msg_t *msg)
{
    bool sealed = h->sealed && !fig_game_over(g);
    uint64_t k[STORE_KEY_WORDS];
    *out = NULL;
    if (sealed) {
        fig_err_t rc = store_seal_key(s->keyfile, s->root, true, k, s->tr, msg);
        if (rc != FIG_OK)
            return rc;
    }
    size_t head = fig_store_write_header(h, NULL, 0);
    size_t rec = fig_fgn_write(g, NULL, 0);
    size_t cap = strlen(title) + 4 + head + (sealed ? store_seal_size(rec) : rec) + 1;
    char *buf = malloc(cap);
    if (!buf)
        return no_memory(s, msg);
    size_t n = (size_t)snprintf(buf, cap, "# %s\n", title);
    n += fig_store_write_header(h, buf + n, cap - n);
    if (!sealed) {
        fig_fgn_write(g, buf + n, cap - n);
    } else {
        fig_err_t rc = store_seal_write(k, g, rec, buf, cap, &n, s->tr, msg);
        if (rc != FIG_OK) {
            free(buf);
            return rc;
        }
    }
    *out = buf;
    return FIG_OK;
}

static fig_err_t need_seats(const fig_store_t *s, const fig_game_t *g, fig_msg_t *msg)
{
    if (s->header.seats.players != g->setup.players)
        return store_fail(msg, s->tr, 0, FIG_ERR_STATE,
                          N_("the seat table has %d seats but the game %d players"),
                          s->header.seats.players, g->setup.players);
    return FIG_OK;
}

bool fig_store_worth_keeping(const fig_game_t *g, const fig_seats_t *seats)
{
    bool people = false;
    for (int s = 0; s < seats->players && s < FIG_MAX_PLAYERS; s++)
        people = people || !seats->seat[s].bot;
    if (!people)
        return true;
    for (int r = 0; r < g->dealt && r < FIG_ROUNDS; r++)
        for (int i = 0; i < g->nmoves[r]; i++) {
            int seat = g->moves[r][i].seat;
            if (seat < seats->players && !seats->seat[seat].bot)
                return true;
        }
    return false;
}

fig_err_t fig_store_save_current(fig_store_t *s, const fig_game_t *g, fig_msg_t *msg)
{
    fig_err_t rc = need_seats(s, g, msg);
    if (rc != FIG_OK)
        return rc;
    if (!fig_store_worth_keeping(g, &s->header.seats))
        return FIG_OK;   /* nobody has played yet: nothing to resume */
    if ((rc = store_file_make_dirs(s->root, s->tr, msg)) != FIG_OK)
        return rc;
    char *text;
    if ((rc = render(s, &s->header, g,
                     s->header.sealed ? "figaro play: the game in progress, sealed until it "
                                        "ends; 'figaro play --resume' continues it"
                                      : "figaro play: the game in progress; "
                                        "'figaro play --resume' continues it",
                     &text, msg)) != FIG_OK)
        return rc;
    rc = store_file_write(s->current, text, false, s->tr, msg);
    free(text);
    return rc;
}

/* history/STAMP-SEED[-unfinished][-K].fgn that does not exist yet: writes
 * text there (exclusive), trying -2, -3... on a clash. */
static fig_err_t write_history(const fig_store_t *s, const char *text, uint64_t seed,
                               bool has_seed, bool finished, char *path, size_t pathcap,
                               fig_msg_t *msg)
{
    fig_err_t rc = store_file_make_dirs(s->history, s->tr, msg);
    if (rc != FIG_OK)
        return rc;
    char stamp[32], base[96], name[FIG_STORE_PATH_MAX];
    time_t now = time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
        snprintf(stamp, sizeof stamp, "%lld", (long long)now);
    if (has_seed)
        snprintf(base, sizeof base, "%s-%llu", stamp, (unsigned long long)seed);
    else
        snprintf(base, sizeof base, "%s", stamp);
    for (int k = 1; k < 100; k++) {
        char suffix[16] = "";
        if (k > 1)
            snprintf(suffix, sizeof suffix, "-%d", k);
        snprintf(name, sizeof name, "%s/%s%s%s.fgn", s->history, base,
                 finished ? "" : "-unfinished", suffix);   /* fits: fig_store_open checked */
        rc = store_file_write(name, text, true, s->tr, msg);
        if (rc == FIG_OK) {
            if (path && pathcap)
                snprintf(path, pathcap, "%s", name);
            return FIG_OK;
        }
        if (rc != FIG_ERR_STATE)
            return rc;
    }
    return store_fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot find a free file name in %s"),
                      s->history);
}

static fig_err_t remove_current(const fig_store_t *s, fig_msg_t *msg)
{
    char why[128];
    if (unlink(s->current) != 0 && errno != ENOENT)
        return store_fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot remove %s: %s"), s->current,
                          fig_strerror(errno, why, sizeof why));
    return FIG_OK;
}

fig_err_t fig_store_finish(fig_store_t *s, const fig_game_t *g, char *path, size_t pathcap,
                           fig_msg_t *msg)
{
    if (path && pathcap)
        path[0] = '\0';
    fig_err_t rc = need_seats(s, g, msg);
    if (rc != FIG_OK)
        return rc;
    char *text;
    if ((rc = render(s, &s->header, g,
                     fig_game_over(g) ? "figaro play: a finished game"
                                      : "figaro play: an unfinished game",
                     &text, msg)) != FIG_OK)
        return rc;
    bool secret = s->header.sealed && !fig_game_over(g);   /* no seed in the name */
    rc = write_history(s, text, g->setup.seed, g->setup.has_seed && !secret, fig_game_over(g),
                       path, pathcap, msg);
    free(text);
    return rc == FIG_OK ? remove_current(s, msg) : rc;
}

static fig_err_t load_file(const fig_store_t *s, const char *path, fig_game_t *g,
                           fig_store_header_t *h, bool strict, bool *header_ok, fig_msg_t *msg);

fig_err_t fig_store_set_aside(fig_store_t *s, char *path, size_t pathcap, fig_msg_t *msg)
{
    if (path && pathcap)
        path[0] = '\0';
    if (!fig_store_has_current(s))
        return FIG_OK;
    fig_game_t *g = malloc(sizeof *g);
    fig_store_header_t *h = malloc(sizeof *h);
    if (!g || !h) {
        free(g);
        free(h);
        return no_memory(s, msg);
    }
    fig_msg_t why;
    bool header_ok = false;
    bool read = load_file(s, s->current, g, h, false, &header_ok, &why) == FIG_OK;
    bool drop = read && header_ok && !fig_store_worth_keeping(g, &h->seats);
    /* A damaged file goes aside too, named without its seed; so does a
     * sealed one (its seed stays secret). */
    bool readable = read && !h->sealed;
    free(h);
    if (drop) {
        free(g);
        return remove_current(s, msg);   /* a start abandoned before anyone played */
    }
    char *text;
    size_t len;
    fig_err_t rc = fig_read_file(s->current, FIG_STORE_FILE_MAX, &text, &len, s->tr, &why);
    if (rc != FIG_OK) {
        free(g);
        return store_fail(msg, s->tr, 0, rc, "%s: %s", s->current, why.text);
    }
    /* its title said 'figaro play --resume' continues it: no longer true */
    static const char title[] = "# figaro play: the game in progress";
    if (!memchr(text, '\0', len) && strncmp(text, title, sizeof title - 1) == 0) {
        const char *nl = strchr(text, '\n');
        static const char aside[] = "# figaro play: an unfinished game";
        size_t rest = nl ? strlen(nl) : 0;
        char *fixed = malloc(sizeof aside + rest);
        if (fixed) {
            memcpy(fixed, aside, sizeof aside - 1);
            memcpy(fixed + sizeof aside - 1, nl ? nl : "", rest + 1);
            free(text);
            text = fixed;
        }
    }
    rc = write_history(s, text, readable ? g->setup.seed : 0,
                                 readable && g->setup.has_seed, false, path, pathcap, msg);
    free(g);
    free(text);
    return rc == FIG_OK ? remove_current(s, msg) : rc;
}

/* ---- reading */

/* Reads and checks one saved file into g and h. Unless strict, damaged "#!"
 * lines only set *header_ok false (a history file is still a game worth
 * listing). */
static fig_err_t load_file(const fig_store_t *s, const char *path, fig_game_t *g,
                           fig_store_header_t *h, bool strict, bool *header_ok, fig_msg_t *msg)
{
    char *text;
    size_t len;
    fig_msg_t why;
    fig_err_t rc = fig_read_file(path, FIG_STORE_FILE_MAX, &text, &len, s->tr, &why);
    if (rc != FIG_OK)
        return store_fail(msg, s->tr, 0, rc, "%s: %s", path, why.text);
    bool sealed = fig_store_is_sealed(text, len);
    if (sealed) {
        char *clear = NULL;
        size_t clen = 0;
        rc = store_unseal(s->keyfile, path, text, len, &clear, &clen, s->tr, msg);
        free(text);
        if (rc != FIG_OK)
            return rc;
        text = clear;
        len = clen;
    }
    rc = store_parse_file(text, len, path, strict, header_ok, g, h, s->tr, msg);
    h->sealed = sealed;
    free(text);
    return rc;
}

fig_err_t fig_store_read(const fig_store_t *s, const char *path, fig_game_t *g,
                         fig_store_header_t *h, fig_msg_t *msg)
{
    return load_file(s, path, g, h, true, NULL, msg);
}

fig_err_t fig_store_load_current(fig_store_t *s, fig_game_t *g, bool *found, fig_msg_t *msg)
{
    *found = fig_store_has_current(s);
    if (!*found)
        return FIG_OK;
    fig_store_header_t *h = malloc(sizeof *h);
    if (!h)
        return no_memory(s, msg);
    fig_err_t rc = load_file(s, s->current, g, h, true, NULL, msg);
    if (rc == FIG_OK)
        s->header = *h;
    free(h);
    return rc;
}

fig_err_t fig_store_reopen(fig_store_t *s, const char *path, fig_game_t *g, char *aside,
                           size_t asidecap, fig_msg_t *msg)
{
    if (aside && asidecap)
        aside[0] = '\0';
    fig_store_header_t *h = malloc(sizeof *h);
    if (!h)
        return no_memory(s, msg);
    fig_err_t rc = load_file(s, path, g, h, true, NULL, msg);
    if (rc == FIG_OK && fig_game_over(g))
        rc = store_fail(msg, s->tr, 0, FIG_ERR_STATE, N_("%s: this game is over"), path);
    if (rc == FIG_OK)
        rc = fig_store_set_aside(s, aside, asidecap, msg);
    if (rc == FIG_OK) {
        fig_store_header_t keep = s->header;
        s->header = *h;
        if ((rc = fig_store_save_current(s, g, msg)) != FIG_OK)
            s->header = keep;
    }
    free(h);
    char why[128];
    if (rc == FIG_OK && unlink(path) != 0)
        rc = store_fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot remove %s: %s"), path,
                        fig_strerror(errno, why, sizeof why));
    return rc;
}

/* ---- the history */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

fig_err_t fig_store_remove(const fig_store_t *s, const char *path, fig_msg_t *msg)
{
    size_t n = strlen(s->history);
    const char *file = path + n + 1;
    if (strncmp(path, s->history, n) != 0 || path[n] != '/' || !*file || strchr(file, '/') ||
        !ends_with(file, ".fgn"))
        return store_fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("%s is not a game of the history"),
                          path);
    char why[128];
    if (unlink(path) != 0)
        return store_fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot remove %s: %s"), path,
                          fig_strerror(errno, why, sizeof why));
    return FIG_OK;
}

/* "YYYYMMDD-HHMMSS..." -> "YYYY-MM-DD HH:MM:SS"; else the file's time. */
static void entry_date(const char *file, const char *path, char date[20])
{
    bool stamped = strlen(file) >= 15 && file[8] == '-';
    for (int i = 0; i < 15 && stamped; i++)
        if (i != 8 && (file[i] < '0' || file[i] > '9'))
            stamped = false;
    if (stamped) {
        snprintf(date, 20, "%.4s-%.2s-%.2s %.2s:%.2s:%.2s", file, file + 4, file + 6, file + 9,
                 file + 11, file + 13);
        return;
    }
    struct stat sb;
    struct tm tm;
    if (stat(path, &sb) == 0 && localtime_r(&sb.st_mtime, &tm) &&
        strftime(date, 20, "%Y-%m-%d %H:%M:%S", &tm))
        return;
    snprintf(date, 20, "?");
}

/* The .fgn names of the history, sorted, into *out (malloc'ed, with each
 * name); a missing folder is an empty history. */
static fig_err_t list_history(const fig_store_t *s, char ***out, size_t *count, fig_msg_t *msg)
{
    *out = NULL;
    *count = 0;
    DIR *d = opendir(s->history);
    if (!d) {
        char why[128];
        if (errno == ENOENT)
            return FIG_OK;
        return store_fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot read the folder %s: %s"),
                          s->history, fig_strerror(errno, why, sizeof why));
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    fig_err_t rc = FIG_OK;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || !ends_with(de->d_name, ".fgn"))
            continue;
        if (n == cap) {
            size_t bigger = cap ? cap * 2 : 32;
            char **grown = realloc(names, bigger * sizeof *names);
            if (!grown) {
                rc = no_memory(s, msg);
                break;
            }
            names = grown;
            cap = bigger;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = no_memory(s, msg);
            break;
        }
        n++;
    }
    closedir(d);
    if (rc != FIG_OK) {
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return rc;
    }
    if (n)
        qsort(names, n, sizeof *names, by_name);
    *out = names;
    *count = n;
    return FIG_OK;
}

fig_err_t fig_store_history(const fig_store_t *s, fig_store_walk_fn *fn, void *ctx,
                            fig_msg_t *msg)
{
    char **names;
    size_t n;
    fig_err_t rc = list_history(s, &names, &n, msg);
    if (rc != FIG_OK)
        return rc;
    fig_game_t *g = n ? malloc(sizeof *g) : NULL;
    fig_store_header_t *h = n ? malloc(sizeof *h) : NULL;
    if (n && (!g || !h))
        rc = no_memory(s, msg);
    for (size_t i = 0; i < n && rc == FIG_OK; i++) {
        char path[FIG_STORE_PATH_MAX];
        fig_msg_t why;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", s->history, names[i]) >= sizeof path)
            continue;
        fig_store_entry_t e = { .path = path, .file = names[i] };
        bool header_ok = false;
        entry_date(names[i], path, e.date);
        if (load_file(s, path, g, h, false, &header_ok, &why) == FIG_OK) {
            e.game = g;
            e.header = header_ok ? h : NULL;
            e.sealed = h->sealed;
        } else {
            e.error = why.text;
        }
        if (!fn(ctx, &e))
            break;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(g);
    free(h);
    return rc;
}
