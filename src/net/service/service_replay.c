/* SPDX-License-Identifier: MIT */
/* service_replay.c - replays as HTTP answers (docs/protocol.md, "Replays"),
 * for every path that gives one: a table's game (GET /tables/CODE/games/
 * N.json), a record sent (POST /replay; service_http.c) and a person's kept
 * game (GET /api/people/ID/games/I.json; service_people.c), so that the
 * three answer the same bytes for the same record; and the language a
 * query asks for (http_path.h reads it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/util.h"
#include "net/proto/replay_json.h"
#include "net/service/service_replay.h"

const fig_tr_t *fig_svc_lang_tr(const fig_service_t *s, const char *lang)
{
    for (int i = 1; i < fig_lang_count(); i++)
        if (strcmp(lang, fig_lang_code(i)) == 0 && s->cat[i])
            return fig_catalog_tr(s->cat[i]);
    return NULL;
}

void fig_svc_http_text(fig_http_answer_t *out, int status, const char *text)
{
    memset(out, 0, sizeof *out);
    out->status = status;
    out->type = "text/plain; charset=utf-8";
    out->body = malloc(strlen(text) + 1);
    if (out->body)
        strcpy(out->body, text);
    out->len = out->body ? strlen(out->body) : 0;
}

void fig_svc_replay_answer(fig_http_answer_t *out, const fig_game_t *g, const fig_tr_t *tr,
                           int bad_status)
{
    char *text;
    size_t len;
    fig_msg_t msg;
    fig_err_t rc = fig_replay_json(g, tr, &text, &len, &msg);
    if (rc != FIG_OK) {
        char line[sizeof msg.text + 2];
        snprintf(line, sizeof line, "%s\n", msg.text);
        fig_svc_http_text(out, rc == FIG_ERR_INPUT ? bad_status : 503, line);
        return;
    }
    memset(out, 0, sizeof *out);
    out->status = 200;
    out->type = "application/json";
    out->body = text;
    out->len = len;
}

void fig_svc_kept_replay(fig_http_answer_t *out, const char *fgn, const fig_tr_t *tr)
{
    fig_game_t *g = malloc(sizeof *g);
    fig_msg_t msg;
    if (!g) {
        fig_svc_http_text(out, 503, "out of memory\n");
        return;
    }
    /* The server wrote it from a game its engine played: not reading or
     * not replaying it is the server's fault (500), never the asker's. */
    if (fig_fgn_read(g, fgn, strlen(fgn), &msg) != FIG_OK) {
        char text[sizeof msg.text + 48];
        snprintf(text, sizeof text, "the kept record does not read: %s (line %d)\n", msg.text,
                 msg.line);
        fig_svc_http_text(out, 500, text);
    } else {
        fig_svc_replay_answer(out, g, tr, 500);
    }
    free(g);
}
