/* SPDX-License-Identifier: MIT */
/* cli.c - what the subcommands share: usage errors, whole numbers from
 * options, reading a file or standard input, loading a game record, finding
 * the data folders. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "host/store.h"
#include "host/util.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "figaro%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "\nTry 'figaro help %s'.\n", cmd);
    else
        fprintf(stderr, "\nTry 'figaro --help'.\n");
    return EXIT_USAGE;
}

int cli_parse_int(const char *s, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    if (!s || !*s)
        return -1;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int cli_opt_int(const char *cmd, const char *opt, const char *arg, long long min,
                long long max, long long *out)
{
    if (cli_parse_int(arg, min, max, out) == 0)
        return EXIT_OK;
    return cli_usage_error(cmd, "%s takes %lld to %lld, not '%s'", opt, min, max, arg);
}

int cli_opt_amount(const char *cmd, const char *opt, const char *arg, long long min,
                   long long max, const char *unit, long long *out)
{
    if (cli_parse_int(arg, min, max, out) == 0)
        return EXIT_OK;
    return cli_usage_error(cmd, "%s: '%s' is not %lld to %lld%s%s", opt, arg, min, max,
                           unit ? " " : "", unit ? unit : "");
}

int cli_read_file(const char *path, size_t limit, char **data, size_t *len, char *err,
                  size_t errcap)
{
    fig_msg_t msg;
    fig_err_t rc = strcmp(path, "-") == 0
                       ? fig_read_stream(stdin, limit, data, len, NULL, &msg)
                       : fig_read_file(path, limit, data, len, NULL, &msg);
    if (rc != FIG_OK) {
        snprintf(err, errcap, "%s", msg.text);
        return -1;
    }
    return 0;
}

const char *cli_sealed_text(void)
{
    return "this game is still being played, and sealed until it is over (rule R14: nobody "
           "sees another player's hand): 'figaro play --resume' continues it";
}

int cli_load_game(const char *cmd, const char *path, fig_game_t *g)
{
    char *data, err[256];
    size_t len;
    if (cli_read_file(path, 1 << 20, &data, &len, err, sizeof err)) {
        fprintf(stderr, "figaro %s: %s: %s\n", cmd, path, err);
        return EXIT_INPUT;
    }
    if (fig_store_is_sealed(data, len)) {
        free(data);
        fprintf(stderr, "figaro %s: %s: %s\n", cmd, path, cli_sealed_text());
        return EXIT_INPUT;
    }
    fig_msg_t msg;
    fig_err_t rc = fig_fgn_read(g, data, len, &msg);
    free(data);
    if (rc != FIG_OK) {
        fprintf(stderr, "figaro %s: %s:%d: %s\n", cmd, path, msg.line, msg.text);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

int cli_find_data(const char *name, const char *marker, const char *installed, char *out,
                  size_t cap)
{
    char exe[PATH_MAX], cand[PATH_MAX + 64], f[PATH_MAX + 128];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *rel[] = { "/..", "/../..", "/../share/figaro" };
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            snprintf(cand, sizeof cand, "%s%s/%s", exe, rel[i], name);
            snprintf(f, sizeof f, "%s/%s", cand, marker);
            if (access(f, R_OK) == 0 && strlen(cand) < cap) {
                memcpy(out, cand, strlen(cand) + 1);
                return 0;
            }
        }
    }
    snprintf(f, sizeof f, "%s/%s", installed, marker);
    if (access(f, R_OK) != 0 || strlen(installed) >= cap)
        return -1;
    memcpy(out, installed, strlen(installed) + 1);
    return 0;
}
