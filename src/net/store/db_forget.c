/* SPDX-License-Identifier: MIT */
/* db_forget.c - forget me (fig_db_person_forget, db.h): a person and all
 * that is theirs deleted in one transaction; what others keep of the games
 * they played together (the seats of tables still there, the others'
 * played rows, the kept records) names them "Anonymous" instead; and the
 * log of those forgotten (fig_db_forgotten_since), which tells every
 * running server to do the same at the tables it holds in memory. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/store/db_sql.h"

/* A row that mentions the person: a seat (code, n = seat) or a played row
 * of theirs (n = record, seat). */
typedef struct {
    char s[FIG_PERSON_ID_LEN + 1];          /* a table's code, a person's id */
    long long n;
    int seat;
} ref_t;

typedef struct {
    ref_t *v;
    int n, cap;
} refs_t;

static fig_err_t ref_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    refs_t *l = ctx;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        ref_t *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
        l->v = v;
        l->cap = cap;
    }
    ref_t *x = &l->v[l->n++];
    snprintf(x->s, sizeof x->s, "%s", col[0]);
    x->n = fig_db_col_ll(col[0]);
    x->seat = n > 1 ? (int)fig_db_col_ll(col[1]) : 0;
    return FIG_OK;
}

/* The names of a table's seats but `seat`. */
typedef struct {
    int seat;
    char names[FIG_MAX_PLAYERS][FIG_PERSON_NAME_BYTES + 1];
    const char *p[FIG_MAX_PLAYERS];
    int n;
} names_t;

static fig_err_t name_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    names_t *x = ctx;
    if (n >= 2 && fig_db_col_ll(col[0]) != x->seat && x->n < FIG_MAX_PLAYERS) {
        snprintf(x->names[x->n], sizeof x->names[0], "%s", col[1]);
        x->p[x->n] = x->names[x->n];
        x->n++;
    }
    return FIG_OK;
}

/* Every seat of theirs: no person, named Anonymous (numbered on a clash);
 * an open seat they left: no person (it has no name). */
static fig_err_t forget_seats(fig_db_t *db, const char *id, fig_msg_t *msg)
{
    refs_t l = { NULL, 0, 0 };
    fig_dbp_t p[] = { FIG_DBP_T(id) };
    fig_err_t rc = fig_dbq(db, "UPDATE seats SET person = NULL WHERE person = $1 AND "
                           "kind = 'open'", p, 1, NULL, NULL, msg);
    if (!rc)
        rc = fig_dbq(db, "SELECT code, seat FROM seats WHERE person = $1", p, 1, ref_row, &l,
                     msg);
    for (int i = 0; i < l.n && !rc; i++) {
        names_t x = { .seat = l.v[i].seat };
        char anon[FIG_PERSON_NAME_BYTES + 1];
        fig_dbp_t q[] = { FIG_DBP_T(l.v[i].s), FIG_DBP_I(l.v[i].seat), FIG_DBP_T(anon) };
        rc = fig_dbq(db, "SELECT seat, name FROM seats WHERE code = $1", q, 1, name_row, &x, msg);
        fig_db_anonymous(x.p, x.n, anon);
        if (!rc)
            rc = fig_dbq(db, "UPDATE seats SET person = NULL, name = $3 WHERE code = $1 AND "
                         "seat = $2", q, 3, NULL, NULL, msg);
    }
    free(l.v);
    return rc;
}

/* fgn with the name of seat `seat` on its `names` line made anonymous (a
 * record's name: one word); NULL when out of memory. */
static char *record_anonymous(const char *fgn, int seat)
{
    const char *line = fgn;
    while (line && strncmp(line, "names ", 6) != 0) {
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    char *out = malloc(strlen(fgn) + FIG_PERSON_NAME_BYTES + 2);
    if (!out || !line) {
        if (out)
            strcpy(out, fgn);
        return out;
    }
    const char *end = line + strcspn(line, "\n#");
    char words[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    const char *p[FIG_MAX_PLAYERS];
    const char *w[FIG_MAX_PLAYERS + 1], *q = line + 6;
    int n = 0;
    while (n < FIG_MAX_PLAYERS && q < end) {
        q += strspn(q, " ");
        size_t len = strcspn(q, " \n#");
        if (!len || q >= end)
            break;
        w[n] = q;
        snprintf(words[n], sizeof words[0], "%.*s", (int)len, q);
        p[n] = n == seat ? NULL : words[n];
        n++;
        q += len;
    }
    if (seat >= n) {
        strcpy(out, fgn);
        return out;
    }
    char anon[FIG_PERSON_NAME_BYTES + 1];
    fig_db_anonymous(p, n, anon);
    size_t at = (size_t)(w[seat] - fgn), len = strlen(words[seat]);
    sprintf(out, "%.*s%s%s", (int)at, fgn, anon, fgn + at + len);
    return out;
}

static fig_err_t text_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    char **out = ctx;
    if (n >= 1 && !*out && !(*out = strdup(col[0])))
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    return FIG_OK;
}

/* Record r (a game they played) kept for others: their name in it made
 * anonymous. */
static fig_err_t forget_in_record(fig_db_t *db, const ref_t *r, fig_msg_t *msg)
{
    char *fgn = NULL, *again = NULL;
    fig_dbp_t p[] = { FIG_DBP_I(r->n), FIG_DBP_T("") };
    fig_err_t rc = fig_dbq(db, "SELECT fgn FROM records WHERE id = $1", p, 1, text_row, &fgn,
                           msg);
    if (!rc && fgn && !(again = record_anonymous(fgn, r->seat)))
        rc = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    p[1].s = again;
    if (!rc && again)
        rc = fig_dbq(db, "UPDATE records SET fgn = $2 WHERE id = $1", p, 2, NULL, NULL, msg);
    free(fgn);
    free(again);
    return rc;
}

/* The seats' JSON of a played row with person id's seat anonymous; NULL
 * when out of memory or not JSON. */
static char *seats_anonymous(const char *seats, const char *id)
{
    json_t *a = json_loads(seats, 0, NULL);
    size_t n = json_array_size(a);
    const char *names[FIG_MAX_PLAYERS];
    for (size_t i = 0; i < n && i < FIG_MAX_PLAYERS; i++)
        names[i] = json_string_value(json_object_get(json_array_get(a, i), "name"));
    for (size_t i = 0; i < n && i < FIG_MAX_PLAYERS; i++) {
        json_t *o = json_array_get(a, i);
        const char *who = json_string_value(json_object_get(o, "id"));
        if (!who || strcmp(who, id) != 0)
            continue;
        char anon[FIG_PERSON_NAME_BYTES + 1];
        names[i] = NULL;
        fig_db_anonymous(names, (int)n, anon);
        json_t *x = json_pack("{s:s, s:s, s:O}", "kind", "anonymous", "name", anon, "place",
                              json_object_get(o, "place"));
        if (!x || json_array_set_new(a, i, x)) {
            json_decref(a);
            return NULL;
        }
        names[i] = json_string_value(json_object_get(x, "name"));
    }
    char *text = a ? json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(a);
    return text;
}

/* The others' played rows of record r: their seat made anonymous. */
static fig_err_t forget_in_played(fig_db_t *db, const char *id, const ref_t *r,
                                  fig_msg_t *msg)
{
    refs_t l = { NULL, 0, 0 };
    fig_dbp_t p[] = { FIG_DBP_I(r->n), FIG_DBP_T(id) };
    fig_err_t rc = fig_dbq(db, "SELECT person, idx FROM played WHERE record = $1 AND "
                           "person <> $2", p, 2, ref_row, &l, msg);
    for (int i = 0; i < l.n && !rc; i++) {
        char *seats = NULL, *again = NULL;
        fig_dbp_t q[] = { FIG_DBP_T(l.v[i].s), FIG_DBP_I(l.v[i].seat), FIG_DBP_T("") };
        rc = fig_dbq(db, "SELECT seats FROM played WHERE person = $1 AND idx = $2", q, 2,
                     text_row, &seats, msg);
        if (!rc && seats && !(again = seats_anonymous(seats, id)))
            rc = fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "bad seats of a game played");
        q[2].s = again;
        if (!rc && again)
            rc = fig_dbq(db, "UPDATE played SET seats = $3 WHERE person = $1 AND idx = $2", q,
                         3, NULL, NULL, msg);
        free(seats);
        free(again);
    }
    free(l.v);
    return rc;
}

typedef struct {
    const char *id;
    long long now;
    bool found;
} forget_t;

static fig_err_t found_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)col;
    (void)n;
    (void)msg;
    ((forget_t *)ctx)->found = true;
    return FIG_OK;
}

/* The log's row of this forget, the rows older than FIG_DB_FORGOTTEN_KEEP_S
 * pruned. PostgreSQL: under a lock held until the commit, so that the rows
 * commit in the order of their numbers and a reader that sees one has seen
 * every one before it (fig_db_forgotten_since reads after a mark); SQLite
 * has one writer at a time anyway. */
static fig_err_t log_forgotten(fig_db_t *db, const forget_t *f, fig_msg_t *msg)
{
    fig_dbp_t p[] = { FIG_DBP_T(f->id), FIG_DBP_I(f->now) };
    fig_dbp_t old[] = { FIG_DBP_I(f->now - FIG_DB_FORGOTTEN_KEEP_S) };
    fig_err_t rc = db->ops->sql->pg ? fig_dbq(db, "SELECT pg_advisory_xact_lock(hashtext("
                                              "'figaro forgotten'))", NULL, 0, NULL, NULL, msg)
                                    : FIG_OK;
    if (!rc)
        rc = fig_dbq(db, "DELETE FROM forgotten WHERE at < $1", old, 1, NULL, NULL, msg);
    if (!rc)
        rc = fig_dbq(db, "INSERT INTO forgotten (person, at) VALUES ($1, $2)", p, 2, NULL, NULL,
                     msg);
    return rc;
}

static fig_err_t forget_body(fig_db_t *db, void *ctx, fig_msg_t *msg)
{
    forget_t *f = ctx;
    fig_dbp_t p[] = { FIG_DBP_T(f->id) };
    fig_err_t rc = fig_dbq(db, db->ops->sql->pg ? "SELECT 1 FROM people WHERE id = $1 FOR UPDATE"
                                                 : "SELECT 1 FROM people WHERE id = $1",
                           p, 1, found_row, f, msg);
    if (rc || !f->found || (rc = forget_seats(db, f->id, msg)))
        return rc;
    refs_t l = { NULL, 0, 0 };
    rc = fig_dbq(db, "SELECT record, seat FROM played WHERE person = $1", p, 1, ref_row, &l,
                 msg);
    for (int i = 0; i < l.n && !rc; i++)
        if (!(rc = forget_in_record(db, &l.v[i], msg)))
            rc = forget_in_played(db, f->id, &l.v[i], msg);
    static const char *const gone[] = {
        "DELETE FROM played WHERE person = $1", "DELETE FROM person_keys WHERE person = $1",
        "DELETE FROM device_codes WHERE person = $1", "DELETE FROM people WHERE id = $1",
    };
    for (size_t i = 0; i < sizeof gone / sizeof gone[0] && !rc; i++)
        rc = fig_dbq(db, gone[i], p, 1, NULL, NULL, msg);
    if (!rc)
        rc = log_forgotten(db, f, msg);
    for (int i = 0; i < l.n && !rc; i++) {   /* the records nobody keeps now */
        fig_dbp_t r[] = { FIG_DBP_I(l.v[i].n) };
        rc = fig_dbq(db, "DELETE FROM records WHERE id = $1 AND NOT EXISTS "
                     "(SELECT 1 FROM played WHERE record = $1)", r, 1, NULL, NULL, msg);
    }
    free(l.v);
    return rc;
}

fig_err_t fig_db_person_forget(fig_db_t *db, const char *id, long long now, bool *found,
                               fig_msg_t *msg)
{
    forget_t f = { id, now, false };
    *found = false;
    if (strlen(id) != FIG_PERSON_ID_LEN)
        return FIG_OK;
    fig_err_t rc = fig_db_txn(db, forget_body, &f, msg);
    *found = !rc && f.found;
    return rc;
}

static fig_err_t last_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    if (n >= 1)
        *(long long *)ctx = fig_db_col_ll(col[0]);
    return FIG_OK;
}

fig_err_t fig_db_forgotten_last(fig_db_t *db, long long *seq, fig_msg_t *msg)
{
    *seq = 0;
    return fig_dbq(db, "SELECT COALESCE(MAX(seq), 0) FROM forgotten", NULL, 0, last_row, seq,
                   msg);
}

typedef struct {
    fig_db_forgotten_t *out;
    int max, n;
} since_t;

static fig_err_t since_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    since_t *x = ctx;
    if (n >= 2 && x->n < x->max) {
        fig_db_forgotten_t *o = &x->out[x->n++];
        o->seq = fig_db_col_ll(col[0]);
        snprintf(o->person, sizeof o->person, "%s", col[1]);
    }
    return FIG_OK;
}

fig_err_t fig_db_forgotten_since(fig_db_t *db, long long after, fig_db_forgotten_t *out, int max,
                                 int *n, fig_msg_t *msg)
{
    since_t x = { out, max, 0 };
    fig_dbp_t p[] = { FIG_DBP_I(after), FIG_DBP_I(max) };
    fig_err_t rc = fig_dbq(db, "SELECT seq, person FROM forgotten WHERE seq > $1 ORDER BY seq "
                           "LIMIT $2", p, 2, since_row, &x, msg);
    *n = rc ? 0 : x.n;
    return rc;
}
