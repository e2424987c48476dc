/* SPDX-License-Identifier: MIT */
/* people.c - `figaro people`: the operator's look at the table server's
 * people (docs/server.md, "People"): list them, or remove one as their
 * own "forget me" does (net/store/db.h: fig_db_people_list, fig_db_person_forget).
 * On the database `figaro serve` keeps (--data DIR, --db URL); the keys and
 * codes are stored hashed and never shown. What it says is for the
 * operator, in English. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "net/store/db.h"

static fig_err_t print_person(void *ctx, const fig_db_person_t *p, fig_msg_t *msg)
{
    (void)ctx;
    (void)msg;
    char when[32] = "?";
    time_t t = (time_t)p->created;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    printf("%s\t%s\t%s\t%d\t%.3f\t%.3f\t%s\n", p->id, p->name, when, p->rated, p->mu, p->sigma,
           p->hidden ? "hidden" : "shown");
    return FIG_OK;
}

/* Whether id looks like a person's: FIG_PERSON_ID_LEN signs of the codes'
 * alphabet (net/base/token.h: fig_code_new). */
static bool id_ok(const char *id)
{
    return strlen(id) == FIG_PERSON_ID_LEN &&
           strspn(id, "23456789ABCDEFGHJKMNPQRSTUVWXYZ") == FIG_PERSON_ID_LEN;
}

/* The storage's URL from --db or --data (or the default folder), into url;
 * an SQLite file must be there already (the command makes none). */
static int where(const char *db, const char *data, char *url, size_t cap)
{
    char dir[PATH_MAX];
    if (db && data)
        return cli_usage_error("people", "--db and --data: give one (--data DIR is --db "
                                         "sqlite:DIR/figaro.sqlite)");
    if (db) {
        snprintf(url, cap, "%s", db);
    } else {
        if (data)
            snprintf(dir, sizeof dir - 32, "%s", data);
        else if (cli_server_data(dir, sizeof dir - 32))
            return cli_usage_error("people", "cannot tell where the tables are: give --data, "
                                             "--db, or set HOME or XDG_DATA_HOME");
        snprintf(url, cap, "sqlite:%s/figaro.sqlite", dir);
    }
    struct stat st;
    if (strncmp(url, "sqlite:", 7) == 0 && stat(url + 7, &st) != 0) {
        fprintf(stderr, "figaro people: no database at %s\n", url + 7);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

static int run(const char *url, const char *action, const char *id)
{
    fig_db_t *db;
    fig_msg_t msg;
    if (fig_db_open(&db, url, NULL, &msg) != FIG_OK) {
        fprintf(stderr, "figaro people: %s\n", msg.text);
        return EXIT_INPUT;
    }
    fig_err_t rc;
    bool found = true;
    if (strcmp(action, "list") == 0)
        rc = fig_db_people_list(db, print_person, NULL, &msg);
    else
        rc = fig_db_person_forget(db, id, (long long)time(NULL), &found, &msg);
    fig_db_close(db);
    if (rc) {
        fprintf(stderr, "figaro people: %s\n", msg.text);
        return EXIT_INPUT;
    }
    if (!found) {
        fprintf(stderr, "figaro people: there is no person %s\n", id);
        return EXIT_INPUT;
    }
    if (id)
        printf("removed %s\n", id);
    return EXIT_OK;
}

int cmd_people(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "data", required_argument, NULL, 'd' },
        { "db", required_argument, NULL, 'D' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *db = NULL, *data = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (!optarg[0] || strlen(optarg) >= PATH_MAX - 32)
                return cli_usage_error("people", "--data: give a folder");
            data = optarg;
            break;
        case 'D':
            if (strlen(optarg) > 4000 || !fig_db_url_known(optarg))
                return cli_usage_error("people", "--db: '%.80s' is neither sqlite:PATH nor "
                                       "postgresql://USER@HOST:PORT/DATABASE", optarg);
            db = optarg;
            break;
        case 'h':
            return cli_help("people");
        case ':':
            return cli_usage_error("people", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("people", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_usage_error("people", "give what to do: list, or remove ID");
    const char *action = argv[optind++], *id = NULL;
    if (strcmp(action, "list") == 0) {
        if (optind < argc)
            return cli_usage_error("people", "list: unexpected argument '%.80s'", argv[optind]);
    } else if (strcmp(action, "remove") == 0) {
        if (optind >= argc)
            return cli_usage_error("people", "remove: give the person's ID (figaro people list)");
        id = argv[optind++];
        if (!id_ok(id))
            return cli_usage_error("people", "remove: '%.80s' is not a person's ID (%d letters "
                                   "and digits, as figaro people list shows)", id,
                                   FIG_PERSON_ID_LEN);
        if (optind < argc)
            return cli_usage_error("people", "remove: unexpected argument '%.80s'",
                                   argv[optind]);
    } else {
        return cli_usage_error("people", "unknown action '%.80s': give list, or remove ID",
                               action);
    }
    char url[PATH_MAX + 4100];
    int rc = where(db, data, url, sizeof url);
    return rc ? rc : run(url, action, id);
}
