/* store.c - saved games of `figaro play` (store.h).
 *
 * A saved file is the "#!" lines, then the FGN record. The "#!" lines are
 * ordinary FGN comments, so fig_fgn_read() checks the record and reports its
 * errors with the file's own line numbers; this file checks the "#!" lines
 * itself. Writes go to a temporary file made with mkstemp() in the target
 * folder, flushed to disk, then renamed over the target: rename() within one
 * file system is atomic, so a reader sees the old record or the new one,
 * never a mix. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "host/store.h"

enum { SAVE_LIMIT = 1 << 20 };   /* a record is a few kilobytes; anything larger is not ours */

static int failf(char *err, size_t errcap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int failf(char *err, size_t errcap, const char *fmt, ...)
{
    if (err && errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errcap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* mkdir -p with mode 0700 (the XDG folders are private). */
static int make_dirs(const char *path, char *err, size_t errcap)
{
    char buf[STORE_PATH_MAX];
    size_t len = strlen(path);
    if (len >= sizeof buf)
        return failf(err, errcap, _("the folder name %s is too long"), path);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char keep = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return failf(err, errcap, _("cannot create the folder %s: %s"), buf, strerror(errno));
        buf[i] = keep;
    }
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return failf(err, errcap, _("%s is not a folder"), path);
    return 0;
}

int store_dir(char *dir, size_t cap, char *err, size_t errcap)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')   /* the XDG spec: a relative path is to be ignored */
        n = snprintf(dir, cap, "%s/figaro", xdg);
    else if (home && home[0])
        n = snprintf(dir, cap, "%s/.local/share/figaro", home);
    else
        return failf(err, errcap, _("cannot tell where to save games: set HOME or XDG_DATA_HOME"));
    if (n < 0 || (size_t)n + sizeof "/history/current.fgn.XXXXXX" + 32 >= cap)
        return failf(err, errcap, _("the folder name for saved games is too long"));
    char hist[STORE_PATH_MAX];
    snprintf(hist, sizeof hist, "%s/history", dir);
    return make_dirs(hist, err, errcap);
}

int store_current_path(char *path, size_t cap, char *err, size_t errcap)
{
    char dir[STORE_PATH_MAX];
    if (store_dir(dir, sizeof dir, err, errcap))
        return -1;
    if ((size_t)snprintf(path, cap, "%s/current.fgn", dir) >= cap)
        return failf(err, errcap, _("the folder name for saved games is too long"));
    return 0;
}

bool store_has_current(void)
{
    char path[STORE_PATH_MAX], err[256];
    return store_current_path(path, sizeof path, err, sizeof err) == 0 && access(path, F_OK) == 0;
}

/* ---- writing */

/* The whole file: "#!" lines, then the record. Returns malloc'ed text. */
static char *render(const fig_match_t *m, const play_opts_t *opts, const char *title)
{
    const fig_game_t *g = fig_match_game(m);
    size_t rec = fig_fgn_write(g, NULL, 0);
    size_t cap = rec + 2048 + (size_t)g->setup.players * 160;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    size_t n = (size_t)snprintf(buf, cap, "# %s\n#! play 1\n", title);
    for (int s = 0; s < g->setup.players && n < cap; s++) {
        const char *spec = fig_match_bot_spec(m, s);
        if (spec)
            n += (size_t)snprintf(buf + n, cap - n, "#! seat %d bot %s\n", s, spec);
        else
            n += (size_t)snprintf(buf + n, cap - n, "#! seat %d human\n", s);
    }
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "#! pace %d\n#! open %d\n#! color %d\n",
                              opts->pace_ms, opts->open ? 1 : 0, opts->color ? 1 : 0);
    if (n >= cap) {
        free(buf);
        return NULL;
    }
    fig_fgn_write(g, buf + n, cap - n);
    return buf;
}

/* Writes text to path through a temporary file and rename(). With
 * exclusive, an existing path is not replaced (EEXIST). */
static int write_atomic(const char *path, const char *text, bool exclusive, char *err,
                        size_t errcap)
{
    char tmp[STORE_PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp)
        return failf(err, errcap, _("the file name %s is too long"), path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return failf(err, errcap, _("cannot write %s: %s"), path, strerror(errno));
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(tmp);
            return failf(err, errcap, _("cannot write %s: %s"), path, strerror(e));
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
        return failf(err, errcap, _("cannot write %s: %s"), path, strerror(e));
    }
    if (exclusive) {
        /* link() fails rather than replace; the temporary name then goes. */
        int rc = link(tmp, path);
        int e = errno;
        unlink(tmp);
        if (rc != 0)
            return e == EEXIST ? 1 : failf(err, errcap, _("cannot write %s: %s"), path,
                                           strerror(e));
        return 0;
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return failf(err, errcap, _("cannot write %s: %s"), path, strerror(e));
    }
    return 0;
}

int store_save_current(const fig_match_t *m, const play_opts_t *opts, char *err, size_t errcap)
{
    char path[STORE_PATH_MAX];
    if (store_current_path(path, sizeof path, err, errcap))
        return -1;
    char *text = render(m, opts, "figaro play: the game in progress; "
                                 "'figaro play --resume' continues it");
    if (!text)
        return failf(err, errcap, _("out of memory"));
    int rc = write_atomic(path, text, false, err, errcap);
    free(text);
    return rc;
}

/* history/STAMP-SEED[-unfinished][-K].fgn that does not exist yet: writes
 * text there (exclusive), trying -2, -3... on a clash. */
static int write_history(const char *text, uint64_t seed, bool has_seed, bool finished,
                         char *path, size_t pathcap, char *err, size_t errcap)
{
    char dir[STORE_PATH_MAX], stamp[32], name[STORE_PATH_MAX];
    if (store_dir(dir, sizeof dir, err, errcap))
        return -1;
    time_t now = time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
        snprintf(stamp, sizeof stamp, "%lld", (long long)now);
    char base[96];
    if (has_seed)
        snprintf(base, sizeof base, "%s-%llu", stamp, (unsigned long long)seed);
    else
        snprintf(base, sizeof base, "%s", stamp);
    for (int k = 1; k < 100; k++) {
        char suffix[16] = "";
        if (k > 1)
            snprintf(suffix, sizeof suffix, "-%d", k);
        if ((size_t)snprintf(name, sizeof name, "%s/history/%s%s%s.fgn", dir, base,
                             finished ? "" : "-unfinished", suffix) >= sizeof name)
            return failf(err, errcap, _("the folder name for saved games is too long"));
        int rc = write_atomic(name, text, true, err, errcap);
        if (rc == 0) {
            if (path)
                snprintf(path, pathcap, "%s", name);
            return 0;
        }
        if (rc < 0)
            return -1;
    }
    return failf(err, errcap, _("cannot find a free file name in %s/history"), dir);
}

int store_finish(const fig_match_t *m, const play_opts_t *opts, char *path, size_t pathcap,
                 char *err, size_t errcap)
{
    const fig_game_t *g = fig_match_game(m);
    char *text = render(m, opts, fig_game_over(g) ? "figaro play: a finished game"
                                                  : "figaro play: an unfinished game");
    if (!text)
        return failf(err, errcap, _("out of memory"));
    int rc = write_history(text, g->setup.seed, g->setup.has_seed, fig_game_over(g), path,
                           pathcap, err, errcap);
    free(text);
    if (rc)
        return rc;
    char cur[STORE_PATH_MAX];
    if (store_current_path(cur, sizeof cur, err, errcap))
        return -1;
    if (unlink(cur) != 0 && errno != ENOENT)
        return failf(err, errcap, _("cannot remove %s: %s"), cur, strerror(errno));
    return 0;
}

/* ---- reading */

static void default_opts(play_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->players = 4;
    o->pace_ms = 700;
    snprintf(o->name, sizeof o->name, "You");
}

/* Parses the "#!" lines of a saved file into o (players, levels, pace, open,
 * colour) and *human. Unknown keys are skipped (a later version may add
 * some). Returns 0 or -1 with the line in err. */
static int parse_bang(const char *text, size_t len, const char *path, int players,
                      play_opts_t *o, int *human, char *err, size_t errcap)
{
    bool seen[FIG_MAX_PLAYERS] = { false };
    int line = 0;
    *human = -1;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        size_t n = end - i;
        if (n > 0 && text[i + n - 1] == '\r')
            n--;
        if (n >= 2 && text[i] == '#' && text[i + 1] == '!') {
            char buf[512];
            if (n - 2 >= sizeof buf)
                return failf(err, errcap, _("%s:%d: this line is too long"), path, line);
            memcpy(buf, text + i + 2, n - 2);
            buf[n - 2] = '\0';
            char key[16], kind[16];
            int seat, off = 0;
            long long v;
            if (sscanf(buf, " %15s%n", key, &off) != 1) {
                i = end + 1;
                continue;
            }
            const char *rest = buf + off;
            while (*rest == ' ' || *rest == '\t')
                rest++;
            if (strcmp(key, "seat") == 0) {
                int used = 0;
                if (sscanf(rest, "%d %15s %n", &seat, kind, &used) < 2 || seat < 0 ||
                    seat >= players)
                    return failf(err, errcap, _("%s:%d: expected '#! seat N human' or "
                                                "'#! seat N bot SPEC' with N from 0 to %d"),
                                 path, line, players - 1);
                if (seen[seat])
                    return failf(err, errcap, _("%s:%d: seat %d is described twice"), path,
                                 line, seat);
                seen[seat] = true;
                const char *spec = rest + used;
                if (strcmp(kind, "human") == 0) {
                    if (*human >= 0)
                        return failf(err, errcap, _("%s:%d: only one seat can be a person"),
                                     path, line);
                    *human = seat;
                } else if (strcmp(kind, "bot") == 0 && *spec) {
                    if (strlen(spec) >= sizeof o->levels[0])
                        return failf(err, errcap, _("%s:%d: the bot spec is too long"), path,
                                     line);
                    snprintf(o->levels[seat], sizeof o->levels[seat], "%s", spec);
                } else {
                    return failf(err, errcap, _("%s:%d: expected '#! seat N human' or "
                                                "'#! seat N bot SPEC'"), path, line);
                }
            } else if (strcmp(key, "pace") == 0 || strcmp(key, "open") == 0 ||
                       strcmp(key, "color") == 0) {
                if (cli_parse_int(rest, 0, 60000, &v))
                    return failf(err, errcap, _("%s:%d: '%s' needs a number"), path, line, key);
                if (key[0] == 'p')
                    o->pace_ms = (int)v;
                else if (key[0] == 'o')
                    o->open = v != 0;
                else
                    o->color = v != 0;
            }
        }
        i = end + 1;
    }
    for (int s = 0; s < players; s++)
        if (!seen[s])
            return failf(err, errcap, _("%s: seat %d is not described (a '#! seat %d ...' "
                                        "line is missing)"), path, s, s);
    if (*human != 0)
        return failf(err, errcap, _("%s: seat 0 must be the person's"), path);
    return 0;
}

/* Reads and checks one saved file. Returns 0, or -1 with err. Unless
 * strict, damaged "#!" lines only leave *human at -1 (a history file is
 * still a game worth listing). */
static int load_file(const char *path, fig_game_t *g, play_opts_t *o, int *human, bool strict,
                     char *err, size_t errcap)
{
    char *text, why[256];
    size_t len;
    if (cli_read_file(path, SAVE_LIMIT, &text, &len, why, sizeof why))
        return failf(err, errcap, "%s: %s", path, why);
    fig_msg_t msg;
    int rc = 0;
    if (memchr(text, '\0', len))
        rc = failf(err, errcap, _("%s: this is not a game record (it holds binary data)"), path);
    else if (fig_fgn_read(g, text, len, &msg) != FIG_OK)
        rc = failf(err, errcap, "%s:%d: %s", path, msg.line, msg.text);
    if (rc == 0 && o) {
        default_opts(o);
        o->players = g->setup.players;
        rc = parse_bang(text, len, path, g->setup.players, o, human, err, errcap);
        if (rc && !strict) {
            *human = -1;
            rc = 0;
        }
    }
    free(text);
    return rc;
}

int store_load_current(fig_game_t *g, play_opts_t *opts, char *err, size_t errcap)
{
    char path[STORE_PATH_MAX];
    if (store_current_path(path, sizeof path, err, errcap))
        return -1;
    if (access(path, F_OK) != 0)
        return 1;
    int human;
    if (load_file(path, g, opts, &human, true, err, errcap))
        return -1;
    opts->resume = true;
    if (g->has_names)
        snprintf(opts->name, sizeof opts->name, "%s", g->names[0]);
    opts->seed = g->setup.seed;
    opts->has_seed = g->setup.has_seed;
    return 0;
}

int store_set_aside(char *path, size_t cap, char *err, size_t errcap)
{
    char cur[STORE_PATH_MAX];
    if (path && cap)
        path[0] = '\0';
    if (store_current_path(cur, sizeof cur, err, errcap))
        return -1;
    char *text, why[256];
    size_t len;
    if (access(cur, F_OK) != 0)
        return 0;
    if (cli_read_file(cur, SAVE_LIMIT, &text, &len, why, sizeof why))
        return failf(err, errcap, "%s: %s", cur, why);
    fig_game_t *g = malloc(sizeof *g);
    fig_msg_t msg;
    bool readable = g && !memchr(text, '\0', len) && fig_fgn_read(g, text, len, &msg) == FIG_OK;
    int rc = write_history(text, readable ? g->setup.seed : 0, readable && g->setup.has_seed,
                           false, path, cap, err, errcap);
    free(g);
    free(text);
    if (rc)
        return rc;
    if (unlink(cur) != 0 && errno != ENOENT)
        return failf(err, errcap, _("cannot remove %s: %s"), cur, strerror(errno));
    return 0;
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

int store_history(int (*fn)(void *ctx, const store_entry_t *e), void *ctx, char *err,
                  size_t errcap)
{
    char dir[STORE_PATH_MAX], hist[STORE_PATH_MAX];
    if (store_dir(dir, sizeof dir, err, errcap))
        return -1;
    if ((size_t)snprintf(hist, sizeof hist, "%s/history", dir) >= sizeof hist)
        return failf(err, errcap, _("the folder name for saved games is too long"));
    DIR *d = opendir(hist);
    if (!d)
        return failf(err, errcap, _("cannot read the folder %s: %s"), hist, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || !ends_with(de->d_name, ".fgn"))
            continue;
        if (n == cap) {
            size_t bigger = cap ? cap * 2 : 32;
            char **grown = realloc(names, bigger * sizeof *names);
            if (!grown) {
                rc = failf(err, errcap, _("out of memory"));
                break;
            }
            names = grown;
            cap = bigger;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = failf(err, errcap, _("out of memory"));
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == 0 && n)
        qsort(names, n, sizeof *names, by_name);
    fig_game_t *g = rc == 0 ? malloc(sizeof *g) : NULL;
    if (rc == 0 && !g)
        rc = failf(err, errcap, _("out of memory"));
    for (size_t i = 0; i < n && rc == 0; i++) {
        char path[STORE_PATH_MAX], why[512];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", hist, names[i]) >= sizeof path)
            continue;
        play_opts_t o;
        store_entry_t e = { .path = path, .file = names[i], .human = -1 };
        entry_date(names[i], path, e.date);
        if (load_file(path, g, &o, &e.human, false, why, sizeof why) == 0) {
            e.game = g;
        } else {
            e.error = why;
            e.human = -1;
        }
        rc = fn(ctx, &e);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(g);
    return rc;
}
