/* SPDX-License-Identifier: MIT */
/* server_load.c - the people of bench/server_bench.py in C, one process
 * (server_bench.py --load-client build/server_load): a Python client spends
 * more CPU receiving an event than the server spends making it, and on a
 * small machine the load generator would be the limit, not the server.
 *
 *   server_load HOST PORT FIRST COUNT THINK_MS SECONDS BOTS GAMES
 *
 * People FIRST..FIRST+COUNT-1 each open a WebSocket to ws://HOST:PORT/ws
 * from 127.0.K/250.1+K%250 (15 a source address, under the server's cap of
 * 16), say hello, create a table of one person and three BOTS bots, join it
 * (blocking, one after the other), then print "ready SECONDS_OF_SETUP". On a
 * line on stdin ("go") they play for SECONDS, as server_bench.py's people
 * do: at their turn, after thinking THINK_MS x uniform(0.5, 1.5), the first
 * legal action; a rematch after a game, up to GAMES games. Then one JSON
 * line: the latencies act -> its event (s), actions seen, people's actions,
 * games over, errors by code, seconds measured, CPU seconds. Frames are
 * parsed with jansson; the WebSocket framing is the few lines RFC 6455 needs
 * for text frames of a client (masked with a zero key) and a server. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { PER_ADDR = 15, RBUF = 1 << 16 };

typedef struct {
    int i, fd, seat;
    char table[32];
    char *rb;
    size_t rlen, rcap;
    long long n, game_n, acted_on;
    int games, rematched;
    bool over, play_phase;
    int turn;
    json_t *legal0;      /* the view's first legal action; NULL: none */
    double due;          /* when to act (0: not waiting to) */
    double sent_at;      /* the act sent, its event not yet seen (0: none) */
    bool done;           /* played its games */
} person_t;

typedef struct {
    double *lat;
    size_t nlat, cap;
    long actions, person_actions, games;
    json_t *errors;
    bool measuring;
    int think_ms, games_max;
    unsigned rng;
} stats_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, int i)
{
    fprintf(stderr, "server_load: person %d: %s\n", i, what);
    exit(1);
}

/* One masked text (or pong) frame, whole. */
static int ws_send(person_t *p, int opcode, const char *text, size_t len)
{
    unsigned char h[14];
    size_t k = 0;
    h[k++] = (unsigned char)(0x80 | opcode);
    if (len < 126) {
        h[k++] = (unsigned char)(0x80 | len);
    } else {
        h[k++] = 0x80 | 126;
        h[k++] = (unsigned char)(len >> 8);
        h[k++] = (unsigned char)len;
    }
    memset(h + k, 0, 4);   /* the mask key: zero, the payload as it is */
    k += 4;
    char *buf = malloc(k + len);
    if (!buf)
        return -1;
    memcpy(buf, h, k);
    memcpy(buf + k, text, len);
    size_t off = 0;
    while (off < k + len) {
        ssize_t w = write(p->fd, buf + off, k + len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN) {   /* a full socket: rare, wait for it */
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
            continue;
        }
        if (w <= 0) {
            free(buf);
            return -1;
        }
        off += (size_t)w;
    }
    free(buf);
    return 0;
}

static void send_json(person_t *p, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!s || ws_send(p, 1, s, strlen(s)))
        die("cannot send", p->i);
    free(s);
}

static void take_view(person_t *p, json_t *v)
{
    if (!json_is_object(v))
        return;
    json_decref(p->legal0);
    p->legal0 = NULL;
    const char *phase = json_string_value(json_object_get(v, "phase"));
    p->play_phase = phase && strcmp(phase, "play") == 0;
    p->turn = (int)json_integer_value(json_object_get(v, "turn"));
    json_t *legal = json_object_get(v, "legal");
    if (json_is_array(legal) && json_array_size(legal))
        p->legal0 = json_incref(json_array_get(legal, 0));
}

static long long geti(json_t *m, const char *k)
{
    return json_integer_value(json_object_get(m, k));
}

/* What a frame tells the person (server_bench.py's Person.note). */
static void note(person_t *p, stats_t *st, json_t *m)
{
    const char *t = json_string_value(json_object_get(m, "type"));
    if (!t)
        return;
    if (strcmp(t, "error") == 0) {
        const char *code = json_string_value(json_object_get(m, "code"));
        const char *re = json_string_value(json_object_get(m, "re"));
        code = code ? code : "?";
        json_object_set_new(st->errors, code,
                            json_integer(json_integer_value(json_object_get(st->errors, code)) + 1));
        if (re && strcmp(re, "act") == 0)
            p->sent_at = 0;
    } else if (strcmp(t, "snapshot") == 0) {
        p->n = geti(m, "n");
        p->game_n = geti(m, "game_n");
        take_view(p, json_object_get(m, "view"));
        const char *state = json_string_value(json_object_get(m, "state"));
        p->over = state && strcmp(state, "over") == 0;
    } else if (strcmp(t, "event") == 0) {
        long long n = geti(m, "n");
        if (n <= p->n)
            return;
        p->n = n;
        const char *k = json_string_value(json_object_get(m, "kind"));
        k = k ? k : "";
        if (!strcmp(k, "start") || !strcmp(k, "deal") || !strcmp(k, "action"))
            p->game_n = n;
        if (!strcmp(k, "start"))
            p->over = false;
        take_view(p, json_object_get(m, "view"));
        if (strcmp(k, "action") == 0) {
            if (st->measuring)
                st->actions++;
            if (geti(m, "seat") == p->seat && p->sent_at > 0) {
                if (st->measuring) {
                    if (st->nlat == st->cap) {
                        st->cap = st->cap ? 2 * st->cap : 4096;
                        st->lat = realloc(st->lat, st->cap * sizeof *st->lat);
                        if (!st->lat)
                            die("out of memory", p->i);
                    }
                    st->lat[st->nlat++] = now_s() - p->sent_at;
                    st->person_actions++;
                }
                p->sent_at = 0;
            }
            json_t *rec = json_object_get(m, "record");
            if (rec && !json_is_null(rec) && !json_is_false(rec)) {
                p->over = true;
                p->games++;
                if (st->measuring)
                    st->games++;
            }
        }
    }
}

/* After each frame: act (after thinking) or ask for a rematch. */
static void next_step(person_t *p, stats_t *st)
{
    bool my_turn = p->legal0 && !p->over && p->play_phase && p->turn == p->seat;
    if (my_turn && p->acted_on != p->game_n) {
        p->acted_on = p->game_n;
        st->rng = st->rng * 1103515245u + 12345u;
        double u = 0.5 + (st->rng >> 8) / (double)(1u << 24);
        p->due = now_s() + u * st->think_ms / 1000.0;
    } else if (p->over && p->rematched != p->games) {
        p->rematched = p->games;
        if (p->games >= st->games_max) {
            p->done = true;
            return;
        }
        send_json(p, json_pack("{s:s, s:s, s:i}", "type", "rematch", "table", p->table,
                               "game", p->games));
    }
}

static void act(person_t *p)
{
    p->due = 0;
    if (!p->legal0)
        return;
    send_json(p, json_pack("{s:s, s:s, s:I, s:O}", "type", "act", "table", p->table, "n",
                           (json_int_t)p->game_n, "action", p->legal0));
    p->sent_at = now_s();
}

/* Reads what the socket has (blocking: wait for at least one byte). */
static int fill(person_t *p)
{
    if (p->rcap - p->rlen < RBUF) {
        p->rcap = p->rlen + 2 * RBUF;
        p->rb = realloc(p->rb, p->rcap);
        if (!p->rb)
            die("out of memory", p->i);
    }
    ssize_t r = read(p->fd, p->rb + p->rlen, p->rcap - p->rlen - 1);   /* room for a NUL */
    if (r > 0)
        p->rlen += (size_t)r;
    return (int)r;
}

/* The next whole frame in the buffer, parsed (text), or NULL. */
static json_t *take_frame(person_t *p)
{
    for (;;) {
        if (p->rlen < 2)
            return NULL;
        unsigned char *b = (unsigned char *)p->rb;
        int op = b[0] & 0x0f;
        size_t len = b[1] & 0x7f, k = 2;
        if (len == 126) {
            if (p->rlen < 4)
                return NULL;
            len = (size_t)b[2] << 8 | b[3];
            k = 4;
        } else if (len == 127) {
            if (p->rlen < 10)
                return NULL;
            len = 0;
            for (int j = 0; j < 8; j++)
                len = len << 8 | b[2 + j];
            k = 10;
        }
        if (p->rlen < k + len)
            return NULL;
        if (!(b[0] & 0x80))
            die("a fragmented frame", p->i);
        json_t *m = NULL;
        if (op == 1)
            m = json_loadb(p->rb + k, len, 0, NULL);
        else if (op == 9)
            ws_send(p, 10, p->rb + k, len);
        else if (op == 8)
            die("the server closed the connection", p->i);
        memmove(p->rb, p->rb + k + len, p->rlen - k - len);
        p->rlen -= k + len;
        if (m)
            return m;
    }
}

/* What a setup that waited SETUP_WAIT_S for the server says: a server out
 * of descriptors accepts no more connections, and a connection it has not
 * accepted waits in the kernel's queue without an answer. */
#define NO_ANSWER "no answer from the server in 30 s (out of descriptors? it holds three a " \
                  "table: the person's socket and its match's pipe; see `ulimit -Hn`)"
enum { SETUP_WAIT_S = 30 };

/* Blocking, during the setup: frames until one of type typ (others noted). */
static json_t *expect(person_t *p, stats_t *st, const char *typ)
{
    for (;;) {
        json_t *m;
        while ((m = take_frame(p))) {
            const char *t = json_string_value(json_object_get(m, "type"));
            if (t && strcmp(t, typ) == 0)
                return m;
            if (t && strcmp(t, "error") == 0) {
                char why[300];
                snprintf(why, sizeof why, "an error while setting up: %s: %s",
                         json_string_value(json_object_get(m, "code")),
                         json_string_value(json_object_get(m, "text")));
                die(why, p->i);
            }
            note(p, st, m);
            json_decref(m);
        }
        if (fill(p) <= 0)
            die(errno == EAGAIN ? NO_ANSWER : "connection lost while setting up", p->i);
    }
}

static void setup(person_t *p, stats_t *st, const char *host, int port, const char *bots)
{
    int k = 1 + p->i / PER_ADDR;
    char addr[32];
    snprintf(addr, sizeof addr, "127.0.%d.%d", k / 250, 1 + k % 250);
    p->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (p->fd < 0 && (errno == EMFILE || errno == ENFILE))
        die("this process is out of descriptors: one a person (`ulimit -n`; several "
            "--clients share the people)", p->i);
    struct timeval wait = { SETUP_WAIT_S, 0 };   /* the setup's reads are blocking */
    setsockopt(p->fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    struct sockaddr_in me = { .sin_family = AF_INET }, to = { .sin_family = AF_INET };
    inet_pton(AF_INET, addr, &me.sin_addr);
    inet_pton(AF_INET, host, &to.sin_addr);
    to.sin_port = htons((uint16_t)port);
    int one = 1;
    setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (p->fd < 0 || bind(p->fd, (struct sockaddr *)&me, sizeof me) ||
        connect(p->fd, (struct sockaddr *)&to, sizeof to))
        die(strerror(errno), p->i);
    char req[256];
    int n = snprintf(req, sizeof req,
                     "GET /ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n", host, port);
    if (write(p->fd, req, (size_t)n) != n)
        die("cannot send the upgrade", p->i);
    char *end = NULL;
    while (!end) {
        if (fill(p) <= 0)
            die(errno == EAGAIN ? NO_ANSWER : "no answer to the upgrade", p->i);
        p->rb[p->rlen] = '\0';   /* fill leaves room */
        end = strstr(p->rb, "\r\n\r\n");
    }
    if (strncmp(p->rb, "HTTP/1.1 101", 12) != 0)
        die("the upgrade was refused", p->i);
    size_t head = (size_t)(end + 4 - p->rb);
    memmove(p->rb, p->rb + head, p->rlen - head);
    p->rlen -= head;
    char name[32];
    snprintf(name, sizeof name, "P%d", p->i);
    send_json(p, json_pack("{s:s, s:i, s:s}", "type", "hello", "v", 1, "name", name));
    json_decref(expect(p, st, "welcome"));
    json_t *bot = json_pack("{s:s, s:s}", "kind", "bot", "level", bots);
    send_json(p, json_pack("{s:s, s:[{s:s}, O, O, O]}", "type", "create", "seats", "kind",
                           "person", bot, bot, bot));
    json_decref(bot);
    json_t *m = expect(p, st, "created");
    snprintf(p->table, sizeof p->table, "%s", json_string_value(json_object_get(m, "table")));
    json_decref(m);
    send_json(p, json_pack("{s:s, s:s}", "type", "join", "table", p->table));
    m = expect(p, st, "seated");
    p->seat = (int)geti(m, "seat");
    json_decref(m);
    p->acted_on = p->rematched = -1;
}

static void report(stats_t *st, double elapsed, double cpu)
{
    json_t *lat = json_array();
    for (size_t j = 0; j < st->nlat; j++)
        json_array_append_new(lat, json_real(st->lat[j]));
    json_t *o = json_pack("{s:o, s:I, s:I, s:I, s:O, s:f, s:f, s:i, s:s}", "lat", lat,
                          "actions", (json_int_t)st->actions, "person_actions",
                          (json_int_t)st->person_actions, "games", (json_int_t)st->games,
                          "errors", st->errors, "elapsed", elapsed, "cpu", cpu, "failed", 0,
                          "failed_e", "");
    char *s = json_dumps(o, JSON_COMPACT);
    printf("%s\n", s);
    fflush(stdout);
    free(s);
    json_decref(o);
}

int main(int argc, char **argv)
{
    if (argc != 9) {
        fprintf(stderr, "usage: server_load HOST PORT FIRST COUNT THINK_MS SECONDS BOTS GAMES\n");
        return 2;
    }
    const char *host = argv[1];
    int port = atoi(argv[2]), first = atoi(argv[3]), count = atoi(argv[4]);
    double seconds = atof(argv[6]);
    stats_t st = { .errors = json_object(), .think_ms = atoi(argv[5]),
                   .games_max = atoi(argv[8]), .rng = (unsigned)first * 2654435761u + 1 };
    person_t *ps = calloc((size_t)count, sizeof *ps);
    if (!ps || count <= 0)
        die("no people", first);
    double t0 = now_s();
    for (int j = 0; j < count; j++) {
        ps[j].i = first + j;
        setup(&ps[j], &st, host, port, argv[7]);
    }
    printf("ready %.3f\n", now_s() - t0);
    fflush(stdout);
    char line[64];
    if (!fgets(line, sizeof line, stdin))
        return 1;
    int ep = epoll_create1(0);
    for (int j = 0; j < count; j++) {
        fcntl(ps[j].fd, F_SETFL, fcntl(ps[j].fd, F_GETFL) | O_NONBLOCK);
        struct epoll_event e = { .events = EPOLLIN, .data.ptr = &ps[j] };
        epoll_ctl(ep, EPOLL_CTL_ADD, ps[j].fd, &e);
    }
    double c0 = cpu_s(), start = now_s(), deadline = start + seconds;
    st.measuring = true;
    /* what was said before "go" first (the frames the setup left unread) */
    for (int j = 0; j < count; j++)
        next_step(&ps[j], &st);
    struct epoll_event evs[256];
    double t;
    while ((t = now_s()) < deadline) {
        double next = deadline;
        for (int j = 0; j < count; j++) {
            if (ps[j].due > 0 && ps[j].due <= t)
                act(&ps[j]);
            else if (ps[j].due > 0 && ps[j].due < next)
                next = ps[j].due;
        }
        int ms = (int)((next - now_s()) * 1000) + 1;
        int k = epoll_wait(ep, evs, 256, ms < 0 ? 0 : ms > 50 ? 50 : ms);
        for (int e = 0; e < k; e++) {
            person_t *p = evs[e].data.ptr;
            int r;
            while ((r = fill(p)) > 0) {
            }
            if (r == 0)
                die("the server closed the connection", p->i);
            json_t *m;
            while ((m = take_frame(p))) {
                note(p, &st, m);
                json_decref(m);
                if (!p->done)
                    next_step(p, &st);
            }
        }
    }
    st.measuring = false;
    report(&st, now_s() - start, cpu_s() - c0);
    for (int j = 0; j < count; j++) {
        close(ps[j].fd);
        free(ps[j].rb);
        json_decref(ps[j].legal0);
    }
    free(ps);
    free(st.lat);
    json_decref(st.errors);
    return 0;
}
