/* SPDX-License-Identifier: MIT */
/* serve.c - `figaro serve`: the table server on one port (docs/server.md).
 *
 * Options, the data folder, the web folder, the signals and the log; the
 * rest is the service (net/service/service.h: tables, storage, bots) behind the wire
 * (net/wire/wire.h: libwebsockets, HTTP and WebSocket). What it says is for the
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
#include "net/store/db.h"
#include "net/service/service.h"
#include "net/wire/wire.h"

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

/* What the command line asks for. A number left at 0 is the service's
 * default (net/service.h). */
typedef struct {
    char listen[300], data[PATH_MAX], db_url[PATH_MAX + 32];
    const char *addr, *cert, *key, *proxy, *hosts, *db, *node;
    int port;
    fig_engine_def_t engines[MAX_ENGINES];
    int nengines;
    long long grace, max_tables, threads, max_bot_ms, idle, hello, queue_kib;
    long long keep_finished, keep_idle, lease;
    bool normal_sync;
} serve_opts_t;

static const struct option serve_longopts[] = {
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

/* --engine NAME=COMMAND: EXIT_OK or a usage error. Cuts arg at its '='. */
static int add_engine(serve_opts_t *o, char *arg)
{
    char *eq = strchr(arg, '=');
    size_t nl = eq ? (size_t)(eq - arg) : 0;
    if (!eq || nl == 0 || nl > 32 || strspn(arg, "abcdefghijklmnopqrstuvwxyz"
                                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                 "0123456789_-") != nl ||
        !eq[1])
        return cli_usage_error("serve", "--engine: '%s' is not NAME=COMMAND (NAME: "
                               "1 to 32 letters, digits, '-' or '_')", arg);
    if (o->nengines == MAX_ENGINES)
        return cli_usage_error("serve", "--engine: at most %d engines", MAX_ENGINES);
    *eq = '\0';
    for (int i = 0; i < o->nengines; i++)
        if (strcmp(o->engines[i].name, arg) == 0)
            return cli_usage_error("serve", "--engine: '%s' is given twice", arg);
    o->engines[o->nengines].name = arg;
    o->engines[o->nengines].cmd = eq + 1;
    o->nengines++;
    return EXIT_OK;
}

/* The options that take a whole number: EXIT_OK, a usage error, or CLI_GO_ON
 * when c is none of them. */
static int number_option(serve_opts_t *o, int c, const char *arg)
{
    const long long year = 365LL * 86400;
    switch (c) {
    case 'L': return cli_opt_amount("serve", "--lease", arg, 1, 3600, "seconds", &o->lease);
    case 'g': return cli_opt_amount("serve", "--grace", arg, 1, 86400, "seconds", &o->grace);
    case 't':
        return cli_opt_amount("serve", "--max-tables", arg, 1, 1000000, NULL, &o->max_tables);
    case 'j': return cli_opt_amount("serve", "--bot-threads", arg, 1, 256, NULL, &o->threads);
    case 'm':
        return cli_opt_amount("serve", "--max-bot-ms", arg, 1, 600000, NULL, &o->max_bot_ms);
    case 'I': return cli_opt_amount("serve", "--idle", arg, 1, 3600, "seconds", &o->idle);
    case 'H': return cli_opt_amount("serve", "--hello", arg, 1, 3600, "seconds", &o->hello);
    case 'Q':
        return cli_opt_amount("serve", "--send-queue", arg, 16, 1 << 20, "KiB", &o->queue_kib);
    case 'F':
        return cli_opt_amount("serve", "--keep-finished", arg, 1, year, "seconds",
                              &o->keep_finished);
    case 'A':
        return cli_opt_amount("serve", "--keep-idle", arg, 1, year, "seconds", &o->keep_idle);
    }
    return CLI_GO_ON;
}

/* The options that take a name, an address or a word: EXIT_OK, or a usage
 * error (c is one of serve_longopts' letters). */
static int text_option(serve_opts_t *o, int c, char *arg)
{
    switch (c) {
    case 'l':
        if (strlen(arg) >= sizeof o->listen)
            return cli_usage_error("serve", "--listen: '%s' is too long", arg);
        snprintf(o->listen, sizeof o->listen, "%s", arg);
        break;
    case 'd':
        if (!arg[0] || strlen(arg) >= sizeof o->data - 32)
            return cli_usage_error("serve", "--data: give a folder");
        snprintf(o->data, sizeof o->data, "%s", arg);
        break;
    case 'D':
        if (strlen(arg) > 4000 || !fig_db_url_known(arg))
            return cli_usage_error("serve", "--db: '%.80s' is neither sqlite:PATH nor "
                                   "postgresql://USER@HOST:PORT/DATABASE", arg);
        o->db = arg;
        break;
    case 'N':
        if (!arg[0] || strlen(arg) > FIG_DB_NODE_MAX ||
            strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789.-_:[]") != strlen(arg))
            return cli_usage_error("serve", "--node: '%.80s' is not 1 to %d letters, "
                                   "digits or .-_:[]", arg, FIG_DB_NODE_MAX);
        o->node = arg;
        break;
    case 'C': o->cert = arg; break;
    case 'K': o->key = arg; break;
    case 'e': return add_engine(o, arg);
    case 'P':
        if (!arg[0] || strlen(arg) > 45 ||
            strspn(arg, "0123456789abcdefABCDEF.:") != strlen(arg))
            return cli_usage_error("serve", "--trust-proxy: '%s' is not an IP address", arg);
        o->proxy = arg;
        break;
    case 'O':
        if (!arg[0] || strlen(arg) > 2000 ||
            strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789.-:[]*,") != strlen(arg) ||
            strstr(arg, ",,") || arg[0] == ',' || arg[strlen(arg) - 1] == ',')
            return cli_usage_error("serve", "--allowed-hosts: '%s' is not a comma list of "
                                   "host names", arg);
        o->hosts = arg;
        break;
    case 'S':
        if (strcmp(arg, "full") != 0 && strcmp(arg, "normal") != 0)
            return cli_usage_error("serve", "--sync: '%s' is neither 'full' nor 'normal'", arg);
        o->normal_sync = strcmp(arg, "normal") == 0;
        break;
    }
    return EXIT_OK;
}

/* Reads the command line into o: CLI_GO_ON, or the status to exit with. */
static int read_options(int argc, char **argv, serve_opts_t *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->listen, sizeof o->listen, "127.0.0.1:8080");
    int c, rc;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":l:d:e:g:t:j:m:h", serve_longopts, NULL)) != -1) {
        if (c == 'h')
            return cli_help("serve");
        if (c == ':')
            return cli_usage_error("serve", "option '%s' needs a value", argv[optind - 1]);
        if (c == '?')
            return cli_usage_error("serve", "unknown option '%s'", argv[optind - 1]);
        if ((rc = number_option(o, c, optarg)) == CLI_GO_ON)
            rc = text_option(o, c, optarg);
        if (rc != EXIT_OK)
            return rc;
    }
    if (optind < argc)
        return cli_usage_error("serve", "unexpected argument '%s'", argv[optind]);
    if (parse_listen(o->listen, &o->addr, &o->port))
        return cli_usage_error("serve", "--listen: give ADDRESS:PORT (e.g. 127.0.0.1:8080, "
                                        "[::1]:8080), the port 0 to 65535");
    if (!!o->cert != !!o->key)
        return cli_usage_error("serve", "--tls-cert and --tls-key go together");
    return CLI_GO_ON;
}

/* Where the tables are kept: --db, else SQLite in --data or the default
 * folder, made if need be. CLI_GO_ON, or the status to exit with. */
static int choose_db(serve_opts_t *o)
{
    if (o->db && o->data[0])
        return cli_usage_error("serve", "--db and --data: give one (--data DIR is --db "
                                        "sqlite:DIR/figaro.sqlite)");
    if (o->db)
        return CLI_GO_ON;
    if (!o->data[0] && cli_server_data(o->data, sizeof o->data - 32))
        return cli_usage_error("serve", "cannot tell where to keep the tables: give --data, "
                                        "--db, or set HOME or XDG_DATA_HOME");
    if (make_dirs(o->data)) {
        fprintf(stderr, "figaro serve: cannot create %s: %s\n", o->data, strerror(errno));
        return EXIT_INPUT;
    }
    snprintf(o->db_url, sizeof o->db_url, "sqlite:%s/figaro.sqlite", o->data);
    o->db = o->db_url;
    return CLI_GO_ON;
}

/* The service's options from the command line's; node: the server's name. */
static void service_opts(const serve_opts_t *o, const char *node, fig_service_opts_t *so)
{
    memset(so, 0, sizeof *so);
    so->db = o->db;
    so->node = node;
    so->lease_ms = (int)o->lease * 1000;
    so->forgotten_ms = FIG_SVC_FORGOTTEN_MS;   /* docs/server.md, "Forget me everywhere" */
    so->localedir = cli_i18n_localedir()[0] ? cli_i18n_localedir() : NULL;
    so->grace_ms = (int)o->grace * 1000;
    so->max_tables = (int)o->max_tables;
    so->bot_threads = (int)o->threads;
    so->max_bot_ms = (int)o->max_bot_ms;
    so->hello_ms = (int)o->hello * 1000;
    so->keep_finished_ms = o->keep_finished * 1000;
    so->keep_idle_ms = o->keep_idle * 1000;
    so->normal_sync = o->normal_sync;
    so->engines = o->engines;
    so->nengines = o->nengines;
    so->log = log_line;
}

/* The server listens: said in the log, on standard output (the URL to
 * open) and to the service manager. Ready once the port is bound and
 * listening (fig_wire_new): the kernel queues connections until the loop
 * takes them. */
static void announce(const serve_opts_t *o, fig_wire_t *wire, const char *node)
{
    const char *addr = o->addr;
    const char *host = strcmp(addr, "0.0.0.0") == 0 ? "localhost"
                       : strcmp(addr, "::") == 0    ? "localhost"
                                                    : addr;
    bool v6 = strchr(host, ':') != NULL;
    log_line(NULL, "serve: listening");
    char shown[PATH_MAX + 32];
    fig_db_url_shown(o->db, shown, sizeof shown);
    printf("figaro serve: open %s://%s%s%s:%d/ in a browser (tables in %s, node %s)\n",
           o->cert ? "https" : "http", v6 ? "[" : "", host, v6 ? "]" : "",
           fig_wire_port(wire), shown, node);
    fflush(stdout);
    char ready[64];
    snprintf(ready, sizeof ready, "READY=1\nSTATUS=listening on port %d", fig_wire_port(wire));
    tell_manager(ready);
}

int cmd_serve(int argc, char **argv)
{
    serve_opts_t o;
    int status = read_options(argc, argv, &o);
    if (status == CLI_GO_ON)
        status = choose_db(&o);
    if (status != CLI_GO_ON)
        return status;

    char err[256];
    cli_i18n_init(NULL, err, sizeof err);   /* only finds the catalogues for the service */
    raise_nofile();
    signal(SIGPIPE, SIG_IGN);

    char web[PATH_MAX];
    bool have_web = cli_find_data("web", "index.html", FIG_WEBDIR, web, sizeof web) == 0;
    if (!have_web)
        log_line(NULL, "serve: no web folder found (index.html): only the protocol is served");

    fig_msg_t msg;
    fig_wire_opts_t wo = { o.addr, o.port, o.cert, o.key, have_web ? web : NULL,
                           (size_t)o.queue_kib << 10, (int)o.idle, o.proxy, log_line, NULL,
                           o.hosts };
    fig_wire_t *wire;
    if (fig_wire_new(&wire, &wo, &msg)) {
        fprintf(stderr, "figaro serve: %s\n", msg.text);
        return EXIT_INPUT;
    }
    /* The server's name among those sharing the database: its address by
     * default, the port it took. */
    char node[FIG_DB_NODE_MAX + 1];
    if (o.node)
        snprintf(node, sizeof node, "%s", o.node);
    else
        snprintf(node, sizeof node, "%s%.50s%s:%d", strchr(o.addr, ':') ? "[" : "", o.addr,
                 strchr(o.addr, ':') ? "]" : "", fig_wire_port(wire));
    fig_service_opts_t so;
    service_opts(&o, node, &so);
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

    announce(&o, wire, node);

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
