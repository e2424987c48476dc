/* SPDX-License-Identifier: MIT */
/* service_http.c - the service's HTTP answers (service.h: fig_service_http,
 * fig_service_http_post, fig_service_http_gone): /healthz, /metrics, a
 * finished game's record and replay (an earlier game's read off the loop,
 * by the writer thread, and answered later), POST /replay, and the rate
 * limits per address of what builds a replay on the loop. The paths are
 * read by http_path.c; the replays themselves are service_replay.c's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/util.h"
#include "net/proto/replay_json.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_people.h"
#include "net/service/service_replay.h"

static void answer(fig_http_answer_t *out, int status, const char *type, char *body)
{
    memset(out, 0, sizeof *out);   /* no Content-Disposition, no Retry-After */
    out->status = status;
    out->type = type;
    out->body = body;
    out->len = body ? strlen(body) : 0;
}

/* A metric's lines before its value, in Prometheus's text format: its help,
 * its type, its name; the caller writes the value and the line's end. */
static void metric(fig_buf_t *t, const char *name, const char *type, const char *help)
{
    fig_buf_appendf(t, "# HELP %s %s\n# TYPE %s %s\n%s ", name, help, name, type, name);
}

static void counter(fig_buf_t *t, const char *name, const char *help, unsigned long long v)
{
    metric(t, name, "counter", help);
    fig_buf_appendf(t, "%llu\n", v);
}

static void gauge(fig_buf_t *t, const char *name, const char *help, int v)
{
    metric(t, name, "gauge", help);
    fig_buf_appendf(t, "%d\n", v);
}

/* The storage's lines of /metrics. */
static void storage_metrics(fig_buf_t *t, fig_service_t *s)
{
    counter(t, "figaro_storage_errors_total", "Writes the database refused.",
            s->stats.storage_errors);
    gauge(t, "figaro_storage_record_reads",
          "Earlier games' records being read for a download now (by the writer thread).",
          s->nwaits);
    gauge(t, "figaro_people_calls",
          "People's calls to the storage on their way now (signing in, device codes, pages; "
          "by the writer thread).", s->npjobs);
    fig_writer_stats_t ws;
    fig_writer_stats(s->writer, &ws);
    counter(t, "figaro_storage_commits_total",
            "Transactions the writer committed (each one sync to the disk).", ws.commits);
    counter(t, "figaro_storage_writes_total",
            "Requests' writes committed in them (group commit: several a transaction).",
            ws.batches);
    counter(t, "figaro_storage_loop_commits_total",
            "Of those, the transactions the event loop committed itself (a small group that "
            "does not wait for the disk, the writer idle).", ws.loop_commits);
    metric(t, "figaro_storage_commit_ms_total", "counter",
           "Time the writer spent in transactions (writing and syncing), ms.");
    fig_buf_appendf(t, "%.1f\n", ws.commit_ms);
    gauge(t, "figaro_storage_queue", "Writes on their way to the disk.",
          fig_writer_pending(s->writer));
}

static void metrics(fig_service_t *s, fig_http_answer_t *out)
{
    fig_buf_t t;
    fig_buf_init(&t);
    int thinking = 0;
    for (int i = 0; i < s->ntables; i++)
        thinking += fig_table_thinking(s->tabs[i]->t);
    const fig_table_stats_t *st = &s->stats;
    gauge(&t, "figaro_tables", "Tables the server holds.", s->ntables);
    gauge(&t, "figaro_leases_held",
          "Tables this server holds a lease on (a database several servers share; 0 on SQLite).",
          s->shared ? s->ntables : 0);
    counter(&t, "figaro_takeovers_total", "Tables taken over from a server that was gone.",
            s->takeovers);
    counter(&t, "figaro_leases_lost_total",
            "Tables dropped: their lease ran out or another server took them.", s->leases_lost);
    counter(&t, "figaro_fenced_writes_total",
            "Writes refused: their table's lease was another server's.", s->fenced);
    gauge(&t, "figaro_connections", "Open WebSocket connections.", s->nconns);
    counter(&t, "figaro_actions_total",
            "Actions applied, by people and bots (rate() gives actions/s).", st->actions);
    counter(&t, "figaro_events_total", "Table events told.", st->events);
    counter(&t, "figaro_frames_total", "Frames sent to connections.", st->frames);
    storage_metrics(&t, s);
    counter(&t, "figaro_tables_deleted_total", "Tables deleted after nobody was there for long.",
            s->deleted);
    gauge(&t, "figaro_bot_queue", "Bots asked to think and not answered yet.", thinking);
    gauge(&t, "figaro_bot_threads", "Worker threads the bots think on.", fig_pool_threads(s->pool));
    fig_buf_appendf(&t,
        "# HELP figaro_move_latency_ms From a person's action to the broadcast of its "
        "result.\n# TYPE figaro_move_latency_ms histogram\n");
    unsigned long long cum = 0;
    for (int b = 0; b < FIG_TABLE_LATENCY_BUCKETS; b++) {
        cum += st->latency[b];
        if (b < FIG_TABLE_LATENCY_BUCKETS - 1)
            fig_buf_appendf(&t,
                "figaro_move_latency_ms_bucket{le=\"%g\"} %llu\n", fig_table_latency_le[b], cum);
        else
            fig_buf_appendf(&t, "figaro_move_latency_ms_bucket{le=\"+Inf\"} %llu\n", cum);
    }
    fig_buf_appendf(&t,
        "figaro_move_latency_ms_sum %.3f\nfigaro_move_latency_ms_count %llu\n",
        st->latency_sum_ms, st->latency_count);
    char *text = fig_buf_take(&t);
    if (!text)
        answer(out, 503, "text/plain; charset=utf-8", NULL);
    else
        answer(out, 200, "text/plain; version=0.0.4; charset=utf-8", text);
}

/* The answer for record g (.json: its replay in tr's language; else its
 * FGN), or the error that kept it: rc, msg. */
static void record_answer(fig_http_answer_t *out, fig_err_t rc, const fig_msg_t *msg,
                          const fig_game_t *g, bool json, const fig_tr_t *tr)
{
    if (rc) {
        char text[sizeof msg->text + 2];
        snprintf(text, sizeof text, "%s\n", msg->text);
        fig_svc_http_text(out, rc == FIG_ERR_STATE ? 409 : rc == FIG_ERR_INPUT ? 404 : 503, text);
        return;
    }
    if (json) {
        fig_svc_replay_answer(out, g, tr, 400);
        return;
    }
    size_t n = fig_fgn_write(g, NULL, 0);
    char *body = malloc(n + 1);
    if (body)
        fig_fgn_write(g, body, n + 1);
    answer(out, body ? 200 : 503, "text/plain; charset=utf-8", body);
}

static void record_read(void *ctx, fig_db_batch_t *b);   /* the batch is back */

/* An earlier game's record: read by the writer thread (the loop never
 * reads the storage), answered when the read comes back (record_read). */
static void record_later(fig_service_t *s, fig_conn_t *conn, const char *code, int game,
                         const fig_game_t *names, bool json, const fig_tr_t *tr,
                         fig_http_answer_t *out)
{
    http_wait_t *h = NULL;
    if (s->nwaits < HTTP_WAITS_MAX && (h = calloc(1, sizeof *h))) {
        h->b.back = record_read;
        h->b.ctx = s;
        h->b.read.out = &h->g;
        snprintf(h->b.read.code, sizeof h->b.read.code, "%s", code);
        h->b.read.game = game;
        h->conn = conn;
        h->json = json;
        h->tr = tr;
        memcpy(h->names, names->names, sizeof h->names);
        h->next = s->waits;
        s->waits = h;
        s->nwaits++;
        fig_writer_submit(s->writer, &h->b);
        out->status = 0;   /* later: wire.answer */
        return;
    }
    fig_svc_http_text(out, 503,
                      h ? "out of memory\n" : "too many records on their way: try again\n");
}

/* The read of record_later came back: the answer goes to its connection,
 * unless it closed meanwhile. */
static void record_read(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    http_wait_t *h = (http_wait_t *)b;
    http_wait_t **p = &s->waits;
    while (*p != h)
        p = &(*p)->next;
    *p = h->next;
    s->nwaits--;
    if (h->conn) {
        fig_http_answer_t a;
        fig_game_t *g = malloc(sizeof *g);
        fig_msg_t msg = h->b.msg;
        fig_err_t rc = !g ? fig_fail(&msg, FIG_ERR_SPACE, "out of memory") : h->b.rc ? h->b.rc
                       : fig_table_record_stored(&h->g, h->b.read.game, h->names, g, &msg);
        record_answer(&a, rc, &msg, g, h->json, h->tr);
        free(g);
        s->wire.answer(s->wire.wire, h->conn, &a);
    }
    free(h);
}

void fig_service_http_gone(fig_service_t *s, fig_conn_t *conn)
{
    fig_svc_people_http_gone(s, conn);
    for (http_wait_t *h = s->waits; h; h = h->next)
        if (h->conn == conn)
            h->conn = NULL;
}

/* Whether addr may have one more of what buckets[] limit (burst at most,
 * then one every every_ms): a token taken, or false with the seconds until
 * the next one in *retry_s. */
static bool bucket_take(fig_service_t *s, addr_bucket_t buckets[], const char *addr, int burst,
                        int every_ms, int *retry_s)
{
    long long now = fig_svc_now(s);
    int i, oldest = 0;
    for (i = 0; i < REPLAY_ADDRS; i++) {
        if (strcmp(buckets[i].addr, addr) == 0)
            break;
        if (buckets[i].at < buckets[oldest].at)
            oldest = i;
    }
    if (i == REPLAY_ADDRS) {   /* a new address takes the longest unused bucket */
        i = oldest;
        snprintf(buckets[i].addr, sizeof buckets[i].addr, "%s", addr);
        buckets[i].tokens = burst;
        buckets[i].at = now;
    }
    if (fig_svc_take_token(&buckets[i].tokens, &buckets[i].at, now, burst, 1.0 / every_ms))
        return true;
    long long ms = (long long)((1.0 - buckets[i].tokens) * every_ms + 0.999);
    *retry_s = ms < 1000 ? 1 : (int)((ms + 999) / 1000);
    return false;
}

static void too_many(fig_http_answer_t *out, int retry_s, const char *text)
{
    fig_svc_http_text(out, 429, text);
    out->retry_after = retry_s;
}

/* GET /tables/CODE/games/N.fgn or .json. */
static void table_game(fig_service_t *s, fig_conn_t *conn, const fig_http_path_t *p,
                       fig_http_answer_t *out)
{
    fig_table_t *t = fig_svc_find_table(s, p->code);
    if (!t) {
        fig_svc_http_text(out, 404, "not found\n");
        return;
    }
    bool stored;
    fig_game_t *g = malloc(sizeof *g);
    fig_msg_t msg;
    fig_err_t rc = g ? fig_table_record(t, p->game, g, &stored, &msg)
                     : fig_fail(&msg, FIG_ERR_SPACE, "out of memory");
    const fig_tr_t *tr = fig_svc_lang_tr(s, p->lang);
    if (!rc && stored)
        record_later(s, conn, p->code, p->game, g, p->json, tr, out);
    else
        record_answer(out, rc, &msg, g, p->json, tr);
    free(g);
}

void fig_service_http(fig_service_t *s, fig_conn_t *conn, const char *addr, const char *path,
                      fig_http_answer_t *out)
{
    fig_http_path_t p;
    fig_http_path_parse(path, &p);
    int retry_s = 1;
    if (fig_http_path_replays(&p) &&
        !bucket_take(s, s->viewers, addr ? addr : "", VIEW_BURST, VIEW_EVERY_MS, &retry_s)) {
        too_many(out, retry_s, "too many replays from your address: wait a second\n");
        return;
    }
    switch (p.route) {
    case FIG_HTTP_HEALTHZ:
        fig_svc_http_text(out, 200, "ok\n");
        return;
    case FIG_HTTP_METRICS:
        metrics(s, out);
        return;
    case FIG_HTTP_TABLE_GAME:
        table_game(s, conn, &p, out);
        return;
    case FIG_HTTP_PERSON:
    case FIG_HTTP_PERSON_GAME:
    case FIG_HTTP_LEADERBOARD:
        fig_svc_people_http(s, conn, &p, out);
        return;
    case FIG_HTTP_NONE:
    case FIG_HTTP_REPLAY:   /* POST's alone */
        break;
    }
    fig_svc_http_text(out, 404, "not found\n");
}

void fig_service_http_post(fig_service_t *s, const char *addr, const char *path,
                           const char *body, size_t len, fig_http_answer_t *out)
{
    fig_http_path_t p;
    if (fig_http_path_parse(path, &p) != FIG_HTTP_REPLAY) {
        fig_svc_http_text(out, 404, "not found\n");
        return;
    }
    int retry_s = 1;
    if (!bucket_take(s, s->replayers, addr ? addr : "", REPLAY_BURST, REPLAY_EVERY_MS, &retry_s)) {
        too_many(out, retry_s, "too many records from your address: wait a second\n");
        return;
    }
    if (len > FIG_NET_RECORD_MAX) {
        char text[80];
        snprintf(text, sizeof text, "a record is at most %d bytes\n", FIG_NET_RECORD_MAX);
        fig_svc_http_text(out, 413, text);
        return;
    }
    /* Never stored: the record is read, played again and forgotten. */
    fig_game_t *g = malloc(sizeof *g);
    if (!g) {
        fig_svc_http_text(out, 503, "out of memory\n");
        return;
    }
    fig_msg_t msg;
    if (fig_fgn_read(g, body ? body : "", len, &msg) != FIG_OK) {
        char text[sizeof msg.text + 32];
        if (msg.line > 0)
            snprintf(text, sizeof text, "line %d: %s\n", msg.line, msg.text);
        else
            snprintf(text, sizeof text, "%s\n", msg.text);
        fig_svc_http_text(out, 400, text);
        free(g);
        return;
    }
    fig_svc_replay_answer(out, g, fig_svc_lang_tr(s, p.lang), 400);
    free(g);
}
