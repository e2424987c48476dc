/* SPDX-License-Identifier: MIT */
/* http_path.h - the paths the service answers over HTTP (docs/protocol.md,
 * "HTTP"), read in this one place: a request's target ("PATH" or
 * "PATH?QUERY", as the wire hands it over, already percent-decoded by
 * libwebsockets) becomes a route and its fields. Pure: no state, no
 * allocation, nothing but the text; the service (service_http.c,
 * service_people.c) answers the route, and a target of no route is 404.
 *
 * The one spelling of each:
 *   /healthz, /metrics                  exactly, without a query
 *   /tables/CODE/games/N.fgn|.json      CODE: FIG_TABLE_CODE_LEN capitals
 *                                       or digits; N: 1 to 9 digits (leading
 *                                       zeros allowed: 01 is game 1), >= 1
 *   /api/people/ID                      ID: FIG_PERSON_ID_LEN capitals or digits
 *   /api/people/ID/games/I.fgn|.json    I: as %d writes it (0, 17: no sign,
 *                                       no leading zero), at most 9 digits
 *   /api/leaderboard
 *   /replay                             (POST's; any query)
 * Query: parameters split at '&'; the first "lang=" gives `lang` when its
 * value is 1 to FIG_HTTP_LANG_MAX of a-z and '_' (else "": English), a
 * parameter "download=1" exactly sets `download`; the rest is ignored. */
#ifndef FIGARO_NET_HTTP_PATH_H
#define FIGARO_NET_HTTP_PATH_H

#include <stdbool.h>

#include "net/base/names.h"

enum {
    FIG_HTTP_LANG_MAX = 15,          /* bytes of a query's language code */
    FIG_HTTP_NUMBER_DIGITS = 9       /* a game's number or index, at most */
};

typedef enum {
    FIG_HTTP_NONE,                   /* none of the service's: 404 */
    FIG_HTTP_HEALTHZ,
    FIG_HTTP_METRICS,
    FIG_HTTP_TABLE_GAME,             /* code, game (>= 1), json */
    FIG_HTTP_PERSON,                 /* person (their page; download) */
    FIG_HTTP_PERSON_GAME,            /* person, game (the index, >= 0), json */
    FIG_HTTP_LEADERBOARD,
    FIG_HTTP_REPLAY                  /* POST /replay */
} fig_http_route_t;

typedef struct {
    fig_http_route_t route;
    char code[FIG_TABLE_CODE_LEN + 1];     /* TABLE_GAME's; "" else */
    char person[FIG_PERSON_ID_LEN + 1];     /* PERSON's, PERSON_GAME's; "" else */
    int game;                              /* TABLE_GAME's N, PERSON_GAME's I; -1 else */
    bool json;                             /* .json: the replay, not the FGN record */
    char lang[FIG_HTTP_LANG_MAX + 1];      /* the query's language; "" none */
    bool download;                         /* the query's download=1 */
} fig_http_path_t;

/* Reads target (NUL-terminated) into out; returns out->route. NULL is no
 * route. */
fig_http_route_t fig_http_path_parse(const char *target, fig_http_path_t *out);

/* Whether the route builds a replay on the service's loop (the .json of a
 * table's game or a person's kept game): limited per address. */
bool fig_http_path_replays(const fig_http_path_t *p);

#endif
