/* SPDX-License-Identifier: MIT */
/* store.c - saved games (store.h).
 *
 * A saved file is a title comment, the "#!" lines, then the FGN record. The
 * "#!" lines are ordinary FGN comments, so fig_fgn_read() checks the record
 * and reports its errors with the file's own line numbers; this file checks
 * the "#!" lines itself: a "#!" line is a word (its key) and the rest of the
 * line (its value), separated by spaces or tabs; "seat" lines are the seat
 * table, "play" marks the format, every other key belongs to the front end and
 * is kept as it is. No control character may stand in a key or a value, so
 * whatever is read can be written back unchanged.
 *
 * A sealed file (store.h) holds the record as hex on "#=" lines instead,
 * XORed with a keystream from the folder's key file and the file's nonce;
 * load_file opens it into the clear text (the "#!" lines, then the record)
 * before anything reads it, so the parsers never meet a sealed file.
 *
 * Writes go to a temporary file made with mkstemp() in the target folder,
 * then renamed over the target: rename() within one file system is atomic, so
 * a reader sees the old record or the new one, never a mix. Nothing is created
 * on disk before something is written. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host/store.h"
#include "host/util.h"

enum { BANG_LINE_MAX = 512 };   /* a "#!" line, "#!" excluded; longer is damage */

struct fig_store {
    const fig_tr_t *tr;
    char *root;                 /* as given, without a trailing '/' */
    char *current;              /* root/current.fgn */
    char *history;              /* root/history */
    char *keyfile;              /* root/key: the key of sealed games */
    fig_store_header_t header;  /* the game in progress: seats.players 0 until set */
};

/* Formats a message in tr's language into msg, with its line. */
static fig_err_t fail(fig_msg_t *msg, const fig_tr_t *tr, int line, fig_err_t err,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static fig_err_t fail(fig_msg_t *msg, const fig_tr_t *tr, int line, fig_err_t err,
                      const char *fmt, ...)
{
    if (msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg->text, sizeof msg->text, fig_tr_text(tr, fmt), ap);
        va_end(ap);
        msg->line = line;
    }
    return err;
}

static fig_err_t no_memory(const fig_store_t *s, fig_msg_t *msg)
{
    return fail(msg, s->tr, 0, FIG_ERR_SPACE, N_("out of memory"));
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
        return fail(msg, tr, 0, FIG_ERR_INPUT, N_("no folder was given to keep the games in"));
    /* room for history/YYYYMMDD-HHMMSS-SEED-unfinished-NN.fgn.XXXXXX */
    if (n + 80 >= FIG_STORE_PATH_MAX)
        return fail(msg, tr, 0, FIG_ERR_INPUT, N_("the folder name for saved games is too long"));
    fig_store_t *s = calloc(1, sizeof *s);
    if (!s)
        return fail(msg, tr, 0, FIG_ERR_SPACE, N_("out of memory"));
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
        return fail(msg, tr, 0, FIG_ERR_SPACE, N_("out of memory"));
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

static bool has_control(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] < ' ' || p[i] == 0x7F)
            return true;
    return false;
}

static fig_err_t check_seats(const fig_store_t *s, const fig_seats_t *seats, fig_msg_t *msg)
{
    if (seats->players < FIG_MIN_PLAYERS || seats->players > FIG_MAX_PLAYERS)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("a game has 3 to 6 players, not %d"),
                    seats->players);
    for (int t = 0; t < seats->players; t++) {
        const fig_seat_t *st = &seats->seat[t];
        if (!st->bot)
            continue;
        size_t n = strnlen(st->spec, sizeof st->spec);
        if (n == 0 || n == sizeof st->spec || has_control(st->spec, n) || st->spec[0] == ' ')
            return fail(msg, s->tr, 0, FIG_ERR_INPUT,
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
    if (nk == 0 || nk >= FIG_STORE_KEY_MAX || has_control(key, nk) || strchr(key, ' ') ||
        strcmp(key, "seat") == 0 || strcmp(key, "play") == 0)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT,
                    N_("'%s' cannot be the key of a saved line (a word of 1 to %d bytes, "
                       "not 'seat' or 'play')"),
                    key, FIG_STORE_KEY_MAX - 1);
    if (nv >= FIG_STORE_VALUE_MAX || has_control(value, nv) || value[0] == ' ')
        return fail(msg, s->tr, 0, FIG_ERR_INPUT,
                    N_("the value of '%s' cannot be saved (at most %d bytes, without control "
                       "characters, not starting with a space)"),
                    key, FIG_STORE_VALUE_MAX - 1);
    fig_store_header_t *h = &s->header;
    int i = 0;
    while (i < h->nlines && strcmp(h->lines[i].key, key) != 0)
        i++;
    if (i == FIG_STORE_LINES_MAX)
        return fail(msg, s->tr, 0, FIG_ERR_SPACE, N_("at most %d lines can be saved"),
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

/* ---- the format */

size_t fig_store_write_header(const fig_store_header_t *h, char *buf, size_t cap)
{
    size_t n = 0;
    if (cap)
        buf[0] = '\0';
    fig_putf(buf, cap, &n, "#! play 1\n");
    for (int t = 0; t < h->seats.players && t < FIG_MAX_PLAYERS; t++) {
        if (h->seats.seat[t].bot)
            fig_putf(buf, cap, &n, "#! seat %d bot %s\n", t, h->seats.seat[t].spec);
        else
            fig_putf(buf, cap, &n, "#! seat %d human\n", t);
    }
    for (int i = 0; i < h->nlines && i < FIG_STORE_LINES_MAX; i++)
        fig_putf(buf, cap, &n, h->lines[i].value[0] ? "#! %s %s\n" : "#! %s%s\n", h->lines[i].key,
                 h->lines[i].value);
    return n;
}

typedef struct {
    const char *name;     /* for messages */
    int line;
    const fig_tr_t *tr;
    fig_msg_t *msg;
} where_t;

static fig_err_t bad_seat(const where_t *w, int players)
{
    return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                N_("%s:%d: expected '#! seat N human' or '#! seat N bot SPEC' with N from 0 "
                   "to %d"),
                w->name, w->line, players - 1);
}

/* "N human" or "N bot SPEC" (v: n bytes, no control character). */
static fig_err_t seat_line(const where_t *w, const char *v, size_t n, fig_store_header_t *h,
                           bool seen[])
{
    int players = h->seats.players;
    size_t i = 0;
    int seat = 0;
    while (i < n && v[i] >= '0' && v[i] <= '9') {
        seat = seat * 10 + (v[i] - '0');
        if (seat >= players)
            return bad_seat(w, players);
        i++;
    }
    if (i == 0 || i == n || v[i] != ' ')
        return bad_seat(w, players);
    while (i < n && v[i] == ' ')
        i++;
    size_t kind = i;
    while (i < n && v[i] != ' ')
        i++;
    size_t kn = i - kind;
    while (i < n && v[i] == ' ')
        i++;
    fig_seat_t *st = &h->seats.seat[seat];
    if (kn == 5 && memcmp(v + kind, "human", 5) == 0) {
        st->bot = false;   /* anything after "human" is a later version's: skipped */
    } else if (kn == 3 && memcmp(v + kind, "bot", 3) == 0 && i < n) {
        if (n - i >= sizeof st->spec)
            return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                        N_("%s:%d: the bot spec is too long"), w->name, w->line);
        st->bot = true;
        memcpy(st->spec, v + i, n - i);
        st->spec[n - i] = '\0';
    } else {
        return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                    N_("%s:%d: expected '#! seat N human' or '#! seat N bot SPEC'"), w->name,
                    w->line);
    }
    if (seen[seat])
        return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT, N_("%s:%d: seat %d is described twice"),
                    w->name, w->line, seat);
    seen[seat] = true;
    return FIG_OK;
}

/* One "#!" line, "#!" excluded (p: n bytes). */
static fig_err_t bang_line(const where_t *w, const char *p, size_t n, fig_store_header_t *h,
                           bool seen[])
{
    if (n >= BANG_LINE_MAX)
        return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT, N_("%s:%d: this line is too long"),
                    w->name, w->line);
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    size_t key = i;
    while (i < n && p[i] != ' ' && p[i] != '\t')
        i++;
    size_t kn = i - key;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    const char *v = p + i;
    size_t vn = n - i;
    if (kn == 0)
        return FIG_OK;   /* "#!" alone: a comment like any other */
    if (has_control(p + key, kn) || has_control(v, vn))
        return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                    N_("%s:%d: this line holds control characters"), w->name, w->line);
    if (kn >= FIG_STORE_KEY_MAX)
        return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                    N_("%s:%d: the word after '#!' is too long"), w->name, w->line);
    if (kn == 4 && memcmp(p + key, "seat", 4) == 0)
        return seat_line(w, v, vn, h, seen);
    if (kn == 4 && memcmp(p + key, "play", 4) == 0)
        return FIG_OK;   /* the format's mark, written back by the store itself */
    if (h->nlines == FIG_STORE_LINES_MAX)
        return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                    N_("%s:%d: too many '#!' lines (at most %d besides the seats)"), w->name,
                    w->line, FIG_STORE_LINES_MAX);
    if (vn >= FIG_STORE_VALUE_MAX)
        return fail(w->msg, w->tr, w->line, FIG_ERR_INPUT, N_("%s:%d: this line is too long"),
                    w->name, w->line);
    fig_store_line_t *l = &h->lines[h->nlines++];
    memcpy(l->key, p + key, kn);
    l->key[kn] = '\0';
    memcpy(l->value, v, vn);
    l->value[vn] = '\0';
    l->line = w->line;
    return FIG_OK;
}

fig_err_t fig_store_parse_header(const char *text, size_t len, const char *name, int players,
                                 fig_store_header_t *h, const fig_tr_t *tr, fig_msg_t *msg)
{
    memset(h, 0, sizeof *h);
    if (msg)
        msg->line = 0;
    if (players < FIG_MIN_PLAYERS || players > FIG_MAX_PLAYERS)
        return fail(msg, tr, 0, FIG_ERR_INPUT, N_("%s: a game has 3 to 6 players, not %d"), name,
                    players);
    h->seats.players = players;
    bool seen[FIG_MAX_PLAYERS] = { false };
    where_t w = { name, 0, tr, msg };
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t n = end - i;
        w.line++;
        if (n > 0 && text[i + n - 1] == '\r')
            n--;
        if (n >= 2 && text[i] == '#' && text[i + 1] == '!') {
            if (memchr(text + i, '\0', n))
                return fail(msg, tr, w.line, FIG_ERR_INPUT,
                            N_("%s:%d: this line holds control characters"), name, w.line);
            fig_err_t rc = bang_line(&w, text + i + 2, n - 2, h, seen);
            if (rc != FIG_OK)
                return rc;
        }
        i = end + 1;
    }
    for (int s = 0; s < players; s++)
        if (!seen[s])
            return fail(msg, tr, 0, FIG_ERR_INPUT,
                        N_("%s: seat %d is not described (a '#! seat %d ...' line is missing)"),
                        name, s, s);
    return FIG_OK;
}

/* The FGN record of a file's text into g; msg as "NAME:LINE: ...". */
static fig_err_t parse_record(const char *text, size_t len, const char *name, fig_game_t *g,
                              const fig_tr_t *tr, fig_msg_t *msg)
{
    if (memchr(text, '\0', len))
        return fail(msg, tr, 0, FIG_ERR_INPUT,
                    N_("%s: this is not a game record (it holds binary data)"), name);
    fig_msg_t why;
    if (fig_fgn_read(g, text, len, &why) != FIG_OK)   /* the core's own words */
        return fail(msg, tr, why.line, FIG_ERR_INPUT, "%s:%d: %s", name, why.line, why.text);
    return FIG_OK;
}

static void names_from(fig_store_header_t *h, const fig_game_t *g)
{
    if (!g->has_names)
        return;
    for (int t = 0; t < h->seats.players; t++)
        memcpy(h->seats.seat[t].name, g->names[t], sizeof h->seats.seat[t].name);
}

fig_err_t fig_store_parse(const char *text, size_t len, const char *name, fig_game_t *g,
                          fig_store_header_t *h, const fig_tr_t *tr, fig_msg_t *msg)
{
    fig_err_t rc = parse_record(text, len, name, g, tr, msg);
    if (rc == FIG_OK)
        rc = fig_store_parse_header(text, len, name, g->setup.players, h, tr, msg);
    if (rc == FIG_OK)
        names_from(h, g);
    return rc;
}

/* ---- sealing (store.h: sealed games) */

enum { KEY_WORDS = 4, SEAL_BYTES_PER_LINE = 32 };

static const char seal_tag[] = "#= sealed 1 ";

/* Word i of the keystream of key k and nonce n: two rounds of the one seed
 * derivation, so that every word depends on all of the key. */
static uint64_t stream_word(const uint64_t k[KEY_WORDS], uint64_t nonce, uint64_t i)
{
    return fig_seed_derive(fig_seed_derive(k[0] ^ nonce, k[1], i) ^ k[2], k[3], i);
}

static void xor_stream(const uint64_t k[KEY_WORDS], uint64_t nonce, unsigned char *p, size_t n)
{
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            w = stream_word(k, nonce, i / 8);
        p[i] ^= (unsigned char)(w >> (8 * (i % 8)));
    }
}

/* A check of the clear record: a wrong key or an altered byte changes it. */
static uint64_t record_check(const uint64_t k[KEY_WORDS], const unsigned char *p, size_t n)
{
    uint64_t h = k[3];
    for (size_t i = 0; i < n; i++)
        h = fig_seed_derive(h, p[i], i);
    return h;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parses exactly 16 hex digits at p into *v. */
static bool hex_word(const char *p, uint64_t *v)
{
    *v = 0;
    for (int i = 0; i < 16; i++) {
        int d = hex_digit(p[i]);
        if (d < 0)
            return false;
        *v = *v << 4 | (uint64_t)d;
    }
    return true;
}

/* Reads the folder's key ("figaro key 1 HEX64"); with `create`, makes one
 * if there is none. FIG_ERR_INPUT with a message if it is missing or
 * damaged. */
static fig_err_t get_key(const fig_store_t *s, bool create, uint64_t k[KEY_WORDS],
                         fig_msg_t *msg);

static fig_err_t read_key(const fig_store_t *s, uint64_t k[KEY_WORDS], bool *missing,
                          fig_msg_t *msg)
{
    char *text;
    size_t len;
    fig_msg_t why;
    *missing = false;
    if (access(s->keyfile, F_OK) != 0 && errno == ENOENT) {
        *missing = true;
        return fail(msg, s->tr, 0, FIG_ERR_INPUT,
                    N_("the key of sealed games, %s, is missing"), s->keyfile);
    }
    fig_err_t rc = fig_read_file(s->keyfile, 256, &text, &len, s->tr, &why);
    if (rc != FIG_OK)
        return fail(msg, s->tr, 0, rc, "%s: %s", s->keyfile, why.text);
    static const char magic[] = "figaro key 1 ";
    bool ok = len >= sizeof magic - 1 + 16 * KEY_WORDS &&
              memcmp(text, magic, sizeof magic - 1) == 0;
    for (int i = 0; i < KEY_WORDS && ok; i++)
        ok = hex_word(text + sizeof magic - 1 + 16 * i, &k[i]);
    free(text);
    if (!ok)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("%s is not a key of sealed games"),
                    s->keyfile);
    return FIG_OK;
}

static fig_err_t make_dirs(const fig_store_t *s, const char *path, fig_msg_t *msg);
static fig_err_t write_atomic(const fig_store_t *s, const char *path, const char *text,
                              bool exclusive, fig_msg_t *msg);

static fig_err_t get_key(const fig_store_t *s, bool create, uint64_t k[KEY_WORDS],
                         fig_msg_t *msg)
{
    bool missing;
    fig_err_t rc = read_key(s, k, &missing, msg);
    if (rc == FIG_OK || !missing || !create)
        return rc;
    if ((rc = make_dirs(s, s->root, msg)) != FIG_OK)
        return rc;
    char text[16 + 16 * KEY_WORDS + 2];
    size_t n = (size_t)snprintf(text, sizeof text, "figaro key 1 ");
    for (int i = 0; i < KEY_WORDS; i++) {
        uint64_t word;
        if ((rc = fig_random_u64(&word, msg)) != FIG_OK)
            return rc;
        fig_putf(text, sizeof text, &n, "%016" PRIx64, word);
    }
    fig_putf(text, sizeof text, &n, "\n");
    rc = write_atomic(s, s->keyfile, text, true, msg);   /* mkstemp: mode 0600 */
    if (rc != FIG_OK && rc != FIG_ERR_STATE)
        return rc;
    return read_key(s, k, &missing, msg);   /* ours, or one made at the same moment */
}

/* The line where text's sealed record starts, or NULL. */
static const char *seal_line(const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (end - i >= sizeof seal_tag - 1 && memcmp(text + i, seal_tag, sizeof seal_tag - 1) == 0)
            return text + i;
        i = end + 1;
    }
    return NULL;
}

bool fig_store_is_sealed(const char *text, size_t len)
{
    return !memchr(text, '\0', len) && seal_line(text, len);
}

/* The clear text of a sealed file: its lines but the "#=" ones, then the
 * record opened with the key. *out is malloc'ed and NUL-terminated. */
static fig_err_t unseal(const fig_store_t *s, const char *path, const char *text, size_t len,
                        char **out, size_t *outlen, fig_msg_t *msg)
{
    const char *tag = seal_line(text, len);
    uint64_t nonce, check, k[KEY_WORDS];
    unsigned long long rlen = 0;
    char *end;
    const char *p = tag + sizeof seal_tag - 1;
    if (!hex_word(p, &nonce) || p[16] != ' ' ||
        (errno = 0, rlen = strtoull(p + 17, &end, 10), errno) || rlen > FIG_STORE_FILE_MAX ||
        *end != ' ' || !hex_word(end + 1, &check) ||
        (end[17] != '\n' && end[17] != '\r' && end[17] != '\0'))
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("%s: its sealed record is damaged"), path);
    fig_err_t rc = get_key(s, false, k, msg);
    if (rc != FIG_OK)
        return rc;
    char *clear = malloc(len + rlen + 2);
    if (!clear)
        return no_memory(s, msg);
    size_t n = 0, got = 0;
    unsigned char *rec = (unsigned char *)clear + len + 1;   /* the record, then moved */
    bool damaged = false;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        if (e - i >= 2 && text[i] == '#' && text[i + 1] == '=') {
            size_t j = i + 3, stop = e > i && text[e - 1] == '\r' ? e - 1 : e;
            if (text + i == tag)
                j = stop;   /* the tag line itself */
            else if (stop < j || (stop - j) % 2 || got + (stop - j) / 2 > rlen)
                damaged = true;
            for (; j < stop && !damaged; j += 2) {
                int hi = hex_digit(text[j]), lo = hex_digit(text[j + 1]);
                if (hi < 0 || lo < 0)
                    damaged = true;
                else
                    rec[got++] = (unsigned char)(hi << 4 | lo);
            }
        } else {
            memcpy(clear + n, text + i, e - i);
            n += e - i;
            clear[n++] = '\n';
        }
        i = e + 1;
    }
    static const char magic[] = "figaro 1";
    if (!damaged && got == rlen)
        xor_stream(k, nonce, rec, got);
    if (damaged || got != rlen || got < sizeof magic - 1 || memcmp(rec, magic, sizeof magic - 1) ||
        record_check(k, rec, got) != check) {
        free(clear);
        return fail(msg, s->tr, 0, FIG_ERR_INPUT,
                    N_("%s: its sealed record is damaged, or %s is not the key it was sealed "
                       "with"),
                    path, s->keyfile);
    }
    memmove(clear + n, rec, got);
    n += got;
    clear[n] = '\0';
    *out = clear;
    *outlen = n;
    return FIG_OK;
}

/* The whole file: the title, the "#!" lines, then the record, sealed if h
 * says so and the game is not over. *out is malloc'ed. */
static fig_err_t render(const fig_store_t *s, const fig_store_header_t *h, const fig_game_t *g,
                        const char *title, char **out, fig_msg_t *msg)
{
    bool sealed = h->sealed && !fig_game_over(g);
    uint64_t k[KEY_WORDS];
    *out = NULL;
    if (sealed) {
        fig_err_t rc = get_key(s, true, k, msg);
        if (rc != FIG_OK)
            return rc;
    }
    size_t head = fig_store_write_header(h, NULL, 0);
    size_t rec = fig_fgn_write(g, NULL, 0);
    size_t body = sealed ? sizeof seal_tag + 72 + rec * 2 + (rec / SEAL_BYTES_PER_LINE + 1) * 4
                         : rec;
    size_t cap = strlen(title) + 4 + head + body + 1;
    char *buf = malloc(cap);
    unsigned char *clear = sealed ? malloc(rec + 1) : NULL;
    if (!buf || (sealed && !clear)) {
        free(buf);
        free(clear);
        return no_memory(s, msg);
    }
    size_t n = (size_t)snprintf(buf, cap, "# %s\n", title);
    n += fig_store_write_header(h, buf + n, cap - n);
    if (!sealed) {
        fig_fgn_write(g, buf + n, cap - n);
        *out = buf;
        return FIG_OK;
    }
    fig_fgn_write(g, (char *)clear, rec + 1);
    uint64_t nonce, check = record_check(k, clear, rec);
    fig_err_t rc = fig_random_u64(&nonce, msg);
    if (rc != FIG_OK) {
        free(buf);
        free(clear);
        return rc;
    }
    xor_stream(k, nonce, clear, rec);
    fig_putf(buf, cap, &n, "%s%016" PRIx64 " %zu %016" PRIx64 "\n", seal_tag, nonce, rec, check);
    for (size_t i = 0; i < rec; i += SEAL_BYTES_PER_LINE) {
        fig_putf(buf, cap, &n, "#= ");
        for (size_t j = i; j < rec && j < i + SEAL_BYTES_PER_LINE; j++)
            fig_putf(buf, cap, &n, "%02x", clear[j]);
        fig_putf(buf, cap, &n, "\n");
    }
    free(clear);
    *out = buf;
    return FIG_OK;
}

/* ---- writing */

/* mkdir -p with mode 0700 (the XDG folders are private). */
static fig_err_t make_dirs(const fig_store_t *s, const char *path, fig_msg_t *msg)
{
    char buf[FIG_STORE_PATH_MAX], why[128];
    size_t len = strlen(path);
    if (len >= sizeof buf)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("the folder name %s is too long"), path);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char keep = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot create the folder %s: %s"), buf,
                        fig_strerror(errno, why, sizeof why));
        buf[i] = keep;
    }
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("%s is not a folder"), path);
    return FIG_OK;
}

/* Writes text to path through a temporary file and rename(). With
 * exclusive, an existing path is not replaced: FIG_ERR_STATE then. */
static fig_err_t write_atomic(const fig_store_t *s, const char *path, const char *text,
                              bool exclusive, fig_msg_t *msg)
{
    char tmp[FIG_STORE_PATH_MAX], why[128];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("the file name %s is too long"), path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                    fig_strerror(errno, why, sizeof why));
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : ENOSPC;
            close(fd);
            unlink(tmp);
            return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                        fig_strerror(e, why, sizeof why));
        }
        done += (size_t)w;
    }
    /* A finished game is flushed to the disk before it is linked in, so a
     * power cut cannot leave an empty file in the history. The game in
     * progress is not: it is rewritten after every move, a flush costs
     * milliseconds each time, and rename() alone already keeps it whole
     * through any crash of the program (ext4 and others also flush a file
     * renamed over an old one). */
    if ((exclusive && fsync(fd) != 0) || close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                    fig_strerror(e, why, sizeof why));
    }
    if (exclusive) {
        /* link() fails rather than replace; the temporary name then goes. */
        int rc = link(tmp, path);
        int e = errno;
        unlink(tmp);
        if (rc != 0)
            return e == EEXIST ? FIG_ERR_STATE
                               : fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"),
                                      path, fig_strerror(e, why, sizeof why));
        return FIG_OK;
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                    fig_strerror(e, why, sizeof why));
    }
    return FIG_OK;
}

static fig_err_t need_seats(const fig_store_t *s, const fig_game_t *g, fig_msg_t *msg)
{
    if (s->header.seats.players != g->setup.players)
        return fail(msg, s->tr, 0, FIG_ERR_STATE,
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
    if ((rc = make_dirs(s, s->root, msg)) != FIG_OK)
        return rc;
    char *text;
    if ((rc = render(s, &s->header, g,
                     s->header.sealed ? "figaro play: the game in progress, sealed until it "
                                        "ends; 'figaro play --resume' continues it"
                                      : "figaro play: the game in progress; "
                                        "'figaro play --resume' continues it",
                     &text, msg)) != FIG_OK)
        return rc;
    rc = write_atomic(s, s->current, text, false, msg);
    free(text);
    return rc;
}

/* history/STAMP-SEED[-unfinished][-K].fgn that does not exist yet: writes
 * text there (exclusive), trying -2, -3... on a clash. */
static fig_err_t write_history(const fig_store_t *s, const char *text, uint64_t seed,
                               bool has_seed, bool finished, char *path, size_t pathcap,
                               fig_msg_t *msg)
{
    fig_err_t rc = make_dirs(s, s->history, msg);
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
        rc = write_atomic(s, name, text, true, msg);
        if (rc == FIG_OK) {
            if (path && pathcap)
                snprintf(path, pathcap, "%s", name);
            return FIG_OK;
        }
        if (rc != FIG_ERR_STATE)
            return rc;
    }
    return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot find a free file name in %s"),
                s->history);
}

static fig_err_t remove_current(const fig_store_t *s, fig_msg_t *msg)
{
    char why[128];
    if (unlink(s->current) != 0 && errno != ENOENT)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot remove %s: %s"), s->current,
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
        return fail(msg, s->tr, 0, rc, "%s: %s", s->current, why.text);
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
        return fail(msg, s->tr, 0, rc, "%s: %s", path, why.text);
    bool sealed = fig_store_is_sealed(text, len);
    if (sealed) {
        char *clear = NULL;
        size_t clen = 0;
        rc = unseal(s, path, text, len, &clear, &clen, msg);
        free(text);
        if (rc != FIG_OK)
            return rc;
        text = clear;
        len = clen;
    }
    rc = parse_record(text, len, path, g, s->tr, msg);
    if (rc == FIG_OK) {
        fig_err_t hr = fig_store_parse_header(text, len, path, g->setup.players, h, s->tr,
                                              strict ? msg : NULL);
        if (header_ok)
            *header_ok = hr == FIG_OK;
        if (hr == FIG_OK)
            names_from(h, g);
        else if (strict)
            rc = hr;
        h->sealed = sealed;
    }
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
        rc = fail(msg, s->tr, 0, FIG_ERR_STATE, N_("%s: this game is over"), path);
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
        rc = fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot remove %s: %s"), path,
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
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("%s is not a game of the history"), path);
    char why[128];
    if (unlink(path) != 0)
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot remove %s: %s"), path,
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
        return fail(msg, s->tr, 0, FIG_ERR_INPUT, N_("cannot read the folder %s: %s"),
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
