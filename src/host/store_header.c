/* SPDX-License-Identifier: MIT */
/* store_header.c - the "#!" lines of a saved game (store_header.h).
 *
 * A "#!" line is a word (its key) and the rest of the line (its value),
 * separated by spaces or tabs; "seat" lines are the seat table, "play" marks
 * the format, every other key belongs to the front end and is kept as it is.
 * fig_fgn_read() checks the record itself and reports its errors with the
 * file's own line numbers, which the "#!" lines, being FGN comments, do not
 * shift. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host/store_header.h"
#include "host/util.h"

enum { BANG_LINE_MAX = 512 };   /* a "#!" line, "#!" excluded; longer is damage */

fig_err_t store_fail(fig_msg_t *msg, const fig_tr_t *tr, int line, fig_err_t err,
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

bool store_has_control(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] < ' ' || p[i] == 0x7F)
            return true;
    return false;
}

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
    return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
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
            return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                              N_("%s:%d: the bot spec is too long"), w->name, w->line);
        st->bot = true;
        memcpy(st->spec, v + i, n - i);
        st->spec[n - i] = '\0';
    } else {
        return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                          N_("%s:%d: expected '#! seat N human' or '#! seat N bot SPEC'"), w->name,
                          w->line);
    }
    if (seen[seat])
        return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                          N_("%s:%d: seat %d is described twice"), w->name, w->line, seat);
    seen[seat] = true;
    return FIG_OK;
}

/* One "#!" line, "#!" excluded (p: n bytes). */
static fig_err_t bang_line(const where_t *w, const char *p, size_t n, fig_store_header_t *h,
                           bool seen[])
{
    if (n >= BANG_LINE_MAX)
        return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT, N_("%s:%d: this line is too long"),
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
    if (store_has_control(p + key, kn) || store_has_control(v, vn))
        return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                          N_("%s:%d: this line holds control characters"), w->name, w->line);
    if (kn >= FIG_STORE_KEY_MAX)
        return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                          N_("%s:%d: the word after '#!' is too long"), w->name, w->line);
    if (kn == 4 && memcmp(p + key, "seat", 4) == 0)
        return seat_line(w, v, vn, h, seen);
    if (kn == 4 && memcmp(p + key, "play", 4) == 0)
        return FIG_OK;   /* the format's mark, written back by the store itself */
    if (h->nlines == FIG_STORE_LINES_MAX)
        return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT,
                          N_("%s:%d: too many '#!' lines (at most %d besides the seats)"), w->name,
                          w->line, FIG_STORE_LINES_MAX);
    if (vn >= FIG_STORE_VALUE_MAX)
        return store_fail(w->msg, w->tr, w->line, FIG_ERR_INPUT, N_("%s:%d: this line is too long"),
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
        return store_fail(msg, tr, 0, FIG_ERR_INPUT, N_("%s: a game has 3 to 6 players, not %d"),
                          name, players);
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
                return store_fail(msg, tr, w.line, FIG_ERR_INPUT,
                                  N_("%s:%d: this line holds control characters"), name, w.line);
            fig_err_t rc = bang_line(&w, text + i + 2, n - 2, h, seen);
            if (rc != FIG_OK)
                return rc;
        }
        i = end + 1;
    }
    for (int s = 0; s < players; s++)
        if (!seen[s])
            return store_fail(msg, tr, 0, FIG_ERR_INPUT,
                              N_("%s: seat %d is not described (a '#! seat %d ...' line is "
                                 "missing)"),
                              name, s, s);
    return FIG_OK;
}

/* The FGN record of a file's text into g; msg as "NAME:LINE: ...". */
static fig_err_t parse_record(const char *text, size_t len, const char *name, fig_game_t *g,
                              const fig_tr_t *tr, fig_msg_t *msg)
{
    if (memchr(text, '\0', len))
        return store_fail(msg, tr, 0, FIG_ERR_INPUT,
                          N_("%s: this is not a game record (it holds binary data)"), name);
    fig_msg_t why;
    if (fig_fgn_read(g, text, len, &why) != FIG_OK)   /* the core's own words */
        return store_fail(msg, tr, why.line, FIG_ERR_INPUT, "%s:%d: %s", name, why.line, why.text);
    return FIG_OK;
}

static void names_from(fig_store_header_t *h, const fig_game_t *g)
{
    if (!g->has_names)
        return;
    for (int t = 0; t < h->seats.players; t++)
        memcpy(h->seats.seat[t].name, g->names[t], sizeof h->seats.seat[t].name);
}

fig_err_t store_parse_file(const char *text, size_t len, const char *name, bool strict,
                           bool *header_ok, fig_game_t *g, fig_store_header_t *h,
                           const fig_tr_t *tr, fig_msg_t *msg)
{
    fig_err_t rc = parse_record(text, len, name, g, tr, msg);
    if (rc != FIG_OK)
        return rc;
    rc = fig_store_parse_header(text, len, name, g->setup.players, h, tr, strict ? msg : NULL);
    if (header_ok)
        *header_ok = rc == FIG_OK;
    if (rc == FIG_OK)
        names_from(h, g);
    return strict ? rc : FIG_OK;
}

fig_err_t fig_store_parse(const char *text, size_t len, const char *name, fig_game_t *g,
                          fig_store_header_t *h, const fig_tr_t *tr, fig_msg_t *msg)
{
    return store_parse_file(text, len, name, true, NULL, g, h, tr, msg);
}
