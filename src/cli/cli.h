/* SPDX-License-Identifier: MIT */
/* cli.h - what the figaro subcommands share: exit codes, help texts (help.c),
 * option parsing helpers and file reading (cli.c). */
#ifndef FIGARO_CLI_H
#define FIGARO_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "figaro/figaro.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* What a command's option reader returns when the command is to go on; any
 * other value is the exit status to end with (a usage error, or --help). */
enum { CLI_GO_ON = -1 };

int cmd_replay(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_random_game(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_arena(int argc, char **argv);
int cmd_review(int argc, char **argv);  /* review.c */
int cmd_rules(int argc, char **argv);   /* rules.c */
int cmd_serve(int argc, char **argv);   /* serve.c */
int cmd_learn(int argc, char **argv);   /* learn.c */
int cmd_rate(int argc, char **argv);    /* rate.c */
int cmd_people(int argc, char **argv);  /* people.c */

/* The table server's default data folder, $XDG_DATA_HOME/figaro/server
 * (serve.c): 0, or -1 when neither XDG_DATA_HOME nor HOME tells it. */
int cli_server_data(char *out, size_t cap);

/* Prints the rules for players (host/rules_text.h) wrapped to `width` in the
 * process's language to standard output; returns EXIT_OK or EXIT_INPUT. */
int cli_print_rules(int width);

/* Prints a usage error for `cmd` to stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints the usage text of a command to stdout; returns EXIT_OK (help.c). */
int cli_help(const char *cmd);

/* Prints the command's usage and the list of commands to f (help.c). */
void cli_main_help(FILE *f);

/* Parses a whole decimal number in [min, max]; 0 on success, -1 otherwise. */
int cli_parse_int(const char *s, long long min, long long max, long long *out);
int cli_parse_u64(const char *s, uint64_t *out);

/* Reads `arg`, the value of option `opt` ("--games") of command `cmd`, as a
 * whole number in [min, max] into *out and returns EXIT_OK; else prints the
 * usage error "--games takes 1 to 100, not 'x'" and returns EXIT_USAGE. */
int cli_opt_int(const char *cmd, const char *opt, const char *arg, long long min,
                long long max, long long *out);

/* The same in the words of `figaro serve`, whose errors name the value first
 * and then the range, with its unit when it has one ("seconds", or NULL):
 * "--grace: 'x' is not 1 to 86400 seconds". */
int cli_opt_amount(const char *cmd, const char *opt, const char *arg, long long min,
                   long long max, const char *unit, long long *out);

/* Reads a whole file ("-" is standard input), at most `limit` bytes. On
 * success *data is malloc'ed (caller frees) and NUL-terminated. On failure
 * writes a message into err and returns -1. */
int cli_read_file(const char *path, size_t limit, char **data, size_t *len, char *err,
                  size_t errcap);

/* A data folder of figaro's, `name` ("web", "lessons"), found by the file
 * `marker` in it: next to the program in the source tree (build/figaro,
 * build/test/figaro), installed beside it (../share/figaro/NAME), or at
 * `installed` (the folder make install gave). Writes it to out; 0, or -1 if
 * there is none. */
int cli_find_data(const char *name, const char *marker, const char *installed, char *out,
                  size_t cap);

/* Why a sealed save (host/store.h: fig_store_is_sealed) cannot be read. */
const char *cli_sealed_text(void);

/* Reads and checks a game record for command cmd ("review"); on error prints
 * "figaro CMD: PATH:LINE: message" to stderr and returns EXIT_INPUT. A
 * sealed save (the terminal game's current.fgn) is named as such. */
int cli_load_game(const char *cmd, const char *path, fig_game_t *g);

#endif
