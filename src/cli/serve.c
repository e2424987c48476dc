/* SPDX-License-Identifier: MIT */
/* serve.c - `figaro serve`: the table server on one port (docs/server.md).
 *
 * Options, the data folder, the web folder, the signals and the log; the
 * rest is the service (net/service.h: tables, storage, bots) behind the wire
 * (net/wire.h: libwebsockets, HTTP and WebSocket). What it says is for the
 * operator, in English: one line per significant event on standard error,
 * the URL to open on standard output.
 *
 * SIGTERM and SIGINT write a byte to the wire's wake pipe; the loop then
 * ends and everything is freed in order: the service (its matches, the bots'
 * pool, the database, closed cleanly) before the wire. */
#define _DEFAULT_SOURCE   /* realpath */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/notify.h"
#include "net/db.h"
#include "net/service.h"
#include "net/wire.h"

#ifndef FIG_WEBDIR
#define FIG_WEBDIR "/usr/local/share/figaro/web"
#endif

enum { MAX_ENGINES = 16 };

/* The wire's wake pipe, for the signal handler (the one process-wide value). */
static volatile int wake_fd = -1;

static void on_signal(int sig)
{
    (void)sig;
    int saved = errno;
    if (wake_fd >= 0) {
        ssize_t r = write(wake_fd, "x", 1);
        (void)r;
    }
    errno = saved;
}

static void log_line(void *ctx, const char *line)
{
    (void)ctx;
    char when[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(stderr, "%s %s\n", when, line);
}

/* Tells systemd, when it started us (Type=notify), how the server is doing. */
static void tell_manager(const char *state)
{
    char why[240], line[256];
    if (cli_notify_send(getenv("NOTIFY_SOCKET"), state, why, sizeof why) < 0) {
        snprintf(line, sizeof line, "serve: %s", why);
        log_line(NULL, line);
    }
}

/* mkdir -p; 0 or -1 (errno set). */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0700) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

int cli_server_data(char *out, size_t cap)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(out, cap, "%s/figaro/server", xdg);
    else if (home && home[0])
        n = snprintf(out, cap, "%s/.local/share/figaro/server", home);
    else
        return -1;
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* "ADDR:PORT", "[V6]:PORT" or ":PORT"; 0 or -1. */
static int parse_listen(char *s, const char **addr, int *port)
{
    char *colon = strrchr(s, ':');
    if (!colon)
        return -1;
    long long p;
    if (cli_parse_int(colon + 1, 0, 65535, &p))
        return -1;
    *colon = '\0';
    if (s[0] == '[') {
        size_t n = strlen(s);
        if (n < 3 || s[n - 1] != ']')
            return -1;
        s[n - 1] = '\0';
        s++;
    } else if (strchr(s, ':')) {
        return -1;   /* an IPv6 address needs its brackets */
    }
    *addr = s[0] ? s : "0.0.0.0";
    *port = (int)p;
    return 0;
}

/* Raises the soft limit on descriptors to the hard one: each match holds two. */
static void raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return;
    rlim_t want = rl.rlim_max;
    if (want == RLIM_INFINITY || want > (rlim_t)1 << 20)
        want = (rlim_t)1 << 20;   /* lws keeps a table as large as the limit */
    if (rl.rlim_cur < want) {
        rl.rlim_cur = want;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int cmd_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "listen", required_argument, NULL, 'l' },
        { "data", required_argument, NULL, 'd' },
        { "db", required_argument, NULL, 'D' },
        { "node", required_argument, NULL, 'N' },
        { "lease", required_argument, NULL, 'L' },
        { "tls-cert", required_argument, NULL, 'C' },
        { "tls-key", required_argument, NULL, 'K' },
        { "engine", required_argument, NULL, 'e' },
        { "grace", required_argument, NULL, 'g' },
        { "max-tables", required_argument, NULL, 't' },
        { "bot-threads", required_argument, NULL, 'j' },
        { "max-bot-ms", required_argument, NULL, 'm' },
        { "idle", required_argument, NULL, 'I' },
        { "hello", required_argument, NULL, 'H' },
        { "send-queue", required_argument, NULL, 'Q' },
        { "keep-finished", required_argument, NULL, 'F' },
        { "keep-idle", required_argument, NULL, 'A' },
        { "trust-proxy", required_argument, NULL, 'P' },
        { "sync", required_argument, NULL, 'S' },
        { "allowed-hosts", required_argument, NULL, 'O' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    char listen_buf[300] = "127.0.0.1:8080", data[PATH_MAX] = "";
    const char *addr = NULL, *cert = NULL, *key = NULL;
    int port = 0;
    fig_engine_def_t engines[MAX_ENGINES];
    int nengines = 0;
    long long grace = 0, max_tables = 0, threads = 0, max_bot_ms = 0;
    long long idle = 0, hello = 0, queue_kib = 0, keep_finished = 0, keep_idle = 0, lease = 0;
    const char *proxy = NULL, *hosts = NULL, *db = NULL, *node_arg = NULL;
    bool normal_sync = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":l:d:e:g:t:j:m:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            if (strlen(optarg) >= sizeof listen_buf)
                return cli_usage_error("serve", "--listen: '%s' is too long", optarg);
            snprintf(listen_buf, sizeof listen_buf, "%s", optarg);
            break;
        case 'd':
            if (!optarg[0] || strlen(optarg) >= sizeof data - 32)
                return cli_usage_error("serve", "--data: give a folder");
            snprintf(data, sizeof data, "%s", optarg);
            break;
        case 'D':
            if (strlen(optarg) > 4000 || !fig_db_url_known(optarg))
                return cli_usage_error("serve", "--db: '%.80s' is neither sqlite:PATH nor "
                                       "postgresql://USER@HOST:PORT/DATABASE", optarg);
            db = optarg;
            break;
        case 'N':
            if (!optarg[0] || strlen(optarg) > FIG_DB_NODE_MAX ||
                strspn(optarg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789.-_:[]") != strlen(optarg))
                return cli_usage_error("serve", "--node: '%.80s' is not 1 to %d letters, "
                                       "digits or .-_:[]", optarg, FIG_DB_NODE_MAX);
            node_arg = optarg;
            break;
        case 'L':
            if (cli_parse_int(optarg, 1, 3600, &lease))
                return cli_usage_error("serve", "--lease: '%s' is not 1 to 3600 seconds", optarg);
            break;
        case 'C':
            cert = optarg;
            break;
        case 'K':
            key = optarg;
            break;
        case 'e': {
            char *eq = strchr(optarg, '=');
            size_t nl = eq ? (size_t)(eq - optarg) : 0;
            if (!eq || nl == 0 || nl > 32 || strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
                                                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                            "0123456789_-") != nl ||
                !eq[1])
                return cli_usage_error("serve", "--engine: '%s' is not NAME=COMMAND (NAME: "
                                       "1 to 32 letters, digits, '-' or '_')", optarg);
            if (nengines == MAX_ENGINES)
                return cli_usage_error("serve", "--engine: at most %d engines", MAX_ENGINES);
            *eq = '\0';
            for (int i = 0; i < nengines; i++)
                if (strcmp(engines[i].name, optarg) == 0)
                    return cli_usage_error("serve", "--engine: '%s' is given twice", optarg);
            engines[nengines].name = optarg;
            engines[nengines].cmd = eq + 1;
            nengines++;
            break;
        }
        case 'g':
            if (cli_parse_int(optarg, 1, 86400, &grace))
                return cli_usage_error("serve", "--grace: '%s' is not 1 to 86400 seconds",
                                       optarg);
            break;
        case 't':
            if (cli_parse_int(optarg, 1, 1000000, &max_tables))
                return cli_usage_error("serve", "--max-tables: '%s' is not 1 to 1000000",
                                       optarg);
            break;
        case 'j':
            if (cli_parse_int(optarg, 1, 256, &threads))
                return cli_usage_error("serve", "--bot-threads: '%s' is not 1 to 256", optarg);
            break;
        case 'm':
            if (cli_parse_int(optarg, 1, 600000, &max_bot_ms))
                return cli_usage_error("serve", "--max-bot-ms: '%s' is not 1 to 600000",
                                       optarg);
            break;
        case 'I':
            if (cli_parse_int(optarg, 1, 3600, &idle))
                return cli_usage_error("serve", "--idle: '%s' is not 1 to 3600 seconds", optarg);
            break;
        case 'H':
            if (cli_parse_int(optarg, 1, 3600, &hello))
                return cli_usage_error("serve", "--hello: '%s' is not 1 to 3600 seconds",
                                       optarg);
            break;
        case 'Q':
            if (cli_parse_int(optarg, 16, 1 << 20, &queue_kib))
                return cli_usage_error("serve", "--send-queue: '%s' is not 16 to 1048576 KiB",
                                       optarg);
            break;
        case 'F':
            if (cli_parse_int(optarg, 1, 365LL * 86400, &keep_finished))
                return cli_usage_error("serve", "--keep-finished: '%s' is not 1 to 31536000 "
                                       "seconds", optarg);
            break;
        case 'A':
            if (cli_parse_int(optarg, 1, 365LL * 86400, &keep_idle))
                return cli_usage_error("serve", "--keep-idle: '%s' is not 1 to 31536000 "
                                       "seconds", optarg);
            break;
        case 'P':
            if (!optarg[0] || strlen(optarg) > 45 ||
                strspn(optarg, "0123456789abcdefABCDEF.:") != strlen(optarg))
                return cli_usage_error("serve", "--trust-proxy: '%s' is not an IP address",
                                       optarg);
            proxy = optarg;
            break;
        case 'O':
            if (!optarg[0] || strlen(optarg) > 2000 ||
                strspn(optarg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789.-:[]*,") != strlen(optarg) ||
                strstr(optarg, ",,") || optarg[0] == ',' || optarg[strlen(optarg) - 1] == ',')
                return cli_usage_error("serve", "--allowed-hosts: '%s' is not a comma list of "
                                       "host names", optarg);
            hosts = optarg;
            break;
        case 'S':
            if (strcmp(optarg, "full") != 0 && strcmp(optarg, "normal") != 0)
                return cli_usage_error("serve", "--sync: '%s' is neither 'full' nor 'normal'",
                                       optarg);
            normal_sync = strcmp(optarg, "normal") == 0;
            break;
        case 'h':
            return cli_help("serve");
        case ':':
            return cli_usage_error("serve", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("serve", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error("serve", "unexpected argument '%s'", argv[optind]);
    if (parse_listen(listen_buf, &addr, &port))
        return cli_usage_error("serve", "--listen: give ADDRESS:PORT (e.g. 127.0.0.1:8080, "
                                        "[::1]:8080), the port 0 to 65535");
    if (!!cert != !!key)
        return cli_usage_error("serve", "--tls-cert and --tls-key go together");

    if (db && data[0])
        return cli_usage_error("serve", "--db and --data: give one (--data DIR is --db "
                                        "sqlite:DIR/figaro.sqlite)");
    char db_url[PATH_MAX + 32];
    if (!db) {
        if (!data[0] && cli_server_data(data, sizeof data - 32))
            return cli_usage_error("serve", "cannot tell where to keep the tables: give --data, "
                                            "--db, or set HOME or XDG_DATA_HOME");
        if (make_dirs(data)) {
            fprintf(stderr, "figaro serve: cannot create %s: %s\n", data, strerror(errno));
            return EXIT_INPUT;
        }
        snprintf(db_url, sizeof db_url, "sqlite:%s/figaro.sqlite", data);
        db = db_url;
    }

    char err[256];
    cli_i18n_init(NULL, err, sizeof err);   /* only finds the catalogues for the service */
    raise_nofile();
    signal(SIGPIPE, SIG_IGN);

    char web[PATH_MAX];
    bool have_web = cli_find_data("web", "index.html", FIG_WEBDIR, web, sizeof web) == 0;
    if (!have_web)
        log_line(NULL, "serve: no web folder found (index.html): only the protocol is served");

    fig_msg_t msg;
    fig_wire_opts_t wo = { addr, port, cert, key, have_web ? web : NULL, (size_t)queue_kib << 10,
                           (int)idle, proxy, log_line, NULL, hosts };
    fig_wire_t *wire;
    if (fig_wire_new(&wire, &wo, &msg)) {
        fprintf(stderr, "figaro serve: %s\n", msg.text);
        return EXIT_INPUT;
    }
    fig_service_opts_t so;
    memset(&so, 0, sizeof so);
    /* The server's name among those sharing the database: its address by
     * default, the port it took. */
    char node[FIG_DB_NODE_MAX + 1];
    if (node_arg)
        snprintf(node, sizeof node, "%s", node_arg);
    else
        snprintf(node, sizeof node, "%s%.50s%s:%d", strchr(addr, ':') ? "[" : "", addr,
                 strchr(addr, ':') ? "]" : "", fig_wire_port(wire));
    so.db = db;
    so.node = node;
    so.lease_ms = (int)lease * 1000;
    so.forgotten_ms = FIG_SVC_FORGOTTEN_MS;   /* docs/server.md, "Forget me everywhere" */
    so.localedir = cli_i18n_localedir()[0] ? cli_i18n_localedir() : NULL;
    so.grace_ms = (int)grace * 1000;
    so.max_tables = (int)max_tables;
    so.bot_threads = (int)threads;
    so.max_bot_ms = (int)max_bot_ms;
    so.hello_ms = (int)hello * 1000;
    so.keep_finished_ms = keep_finished * 1000;
    so.keep_idle_ms = keep_idle * 1000;
    so.normal_sync = normal_sync;
    so.engines = engines;
    so.nengines = nengines;
    so.log = log_line;
    fig_service_t *svc;
    if (fig_service_new(&svc, &so, fig_wire_ops(wire), &msg)) {
        fprintf(stderr, "figaro serve: %s\n", msg.text);
        fig_wire_free(wire);
        return EXIT_INPUT;
    }
    fig_wire_attach(wire, svc);

    wake_fd = fig_wire_wake_fd(wire);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    const char *host = strcmp(addr, "0.0.0.0") == 0 ? "localhost"
                       : strcmp(addr, "::") == 0    ? "localhost"
                                                    : addr;
    bool v6 = strchr(host, ':') != NULL;
    log_line(NULL, "serve: listening");
    char shown[PATH_MAX + 32];
    fig_db_url_shown(db, shown, sizeof shown);
    printf("figaro serve: open %s://%s%s%s:%d/ in a browser (tables in %s, node %s)\n",
           cert ? "https" : "http", v6 ? "[" : "", host, v6 ? "]" : "",
           fig_wire_port(wire), shown, node);
    fflush(stdout);
    /* Ready once the port is bound and listening (fig_wire_new): the kernel
     * queues connections until the loop takes them. */
    char ready[64];
    snprintf(ready, sizeof ready, "READY=1\nSTATUS=listening on port %d", fig_wire_port(wire));
    tell_manager(ready);

    int rc = fig_wire_run(wire);
    tell_manager("STOPPING=1\nSTATUS=shutting down");
    log_line(NULL, rc ? "serve: the event loop failed: shutting down"
                      : "serve: signal received: shutting down");
    wake_fd = -1;   /* a second signal now does nothing: the shutdown goes on */
    fig_wire_attach(wire, NULL);
    fig_service_free(svc);
    fig_wire_free(wire);
    log_line(NULL, "serve: stopped");
    return rc ? EXIT_INPUT : EXIT_OK;
}
