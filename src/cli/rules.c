/* SPDX-License-Identifier: MIT */
/* rules.c - `figaro rules`: the rules text (host/rules_text.h) printed to
 * standard output, wrapped to the terminal's width or --width; or the player
 * aid (--aid); or both as JSON (--json), the paragraphs unwrapped, which the
 * build writes for the browser client (web/rules/LANG.json). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "host/rules_text.h"

/* A part's paragraphs as JSON: kind, text, and the rules (numbers) each tells. */
static json_t *part_json(fig_rules_part_t part)
{
    static const char *const kinds[] = { [FIG_RULES_TITLE] = "title", [FIG_RULES_HEADING] = "heading",
                                         [FIG_RULES_TEXT] = "text", [FIG_RULES_ITEM] = "item" };
    json_t *list = json_array();
    int n = fig_rules_part_count(part);
    for (int i = 0; list && i < n; i++) {
        fig_rules_para_t p = fig_rules_part_get(part, i, cli_i18n_tr());
        json_t *rules = json_array();
        for (int k = 1; rules && k <= 14; k++)
            if (p.rules & FIG_RULE(k))
                json_array_append_new(rules, json_integer(k));
        json_t *o = json_pack("{s:s, s:s, s:o*}", "kind", kinds[p.kind], "text", p.text, "rules", rules);
        if (!o || json_array_append_new(list, o) != 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

static int print_rules_json(void)
{
    json_t *o = json_pack("{s:o*, s:o*}", "rules", part_json(FIG_RULES_BRIEF), "aid", part_json(FIG_RULES_AID));
    char *text = o ? json_dumps(o, JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (!text) {
        fprintf(stderr, "figaro: %s\n", _("out of memory"));
        return EXIT_INPUT;
    }
    puts(text);
    free(text);
    return EXIT_OK;
}

static int print_part(fig_rules_part_t part, int width)
{
    char *text = fig_rules_part_render(part, width, cli_i18n_tr());
    if (!text) {
        fprintf(stderr, "figaro: %s\n", _("out of memory"));
        return EXIT_INPUT;
    }
    fputs(text, stdout);
    free(text);
    return EXIT_OK;
}

int cli_print_rules(int width)
{
    return print_part(FIG_RULES_BRIEF, width);
}

/* The width of the terminal on standard output, or 0 if it is not one. */
static int terminal_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 0;
}

int cmd_rules(int argc, char **argv)
{
    static const struct option opts[] = {
        { "lang", required_argument, NULL, 'L' },
        { "width", required_argument, NULL, 'w' },
        { "aid", no_argument, NULL, 'a' },
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *lang = NULL, *width_arg = NULL;
    int bad = 0, help = 0, aid = 0, json = 0, c;
    char bad_opt[64] = "";
    opterr = 0;   /* errors are reported below, in the chosen language */
    optind = 1;
    while ((c = getopt_long(argc, argv, ":L:w:ajh", opts, NULL)) != -1) {
        if (c == 'L')
            lang = optarg;
        else if (c == 'w')
            width_arg = optarg;
        else if (c == 'h')
            help = 1;
        else if (c == 'a')
            aid = 1;
        else if (c == 'j')
            json = 1;
        else if (!bad) {
            bad = c;
            snprintf(bad_opt, sizeof bad_opt, "%s", argv[optind - 1]);
        }
    }

    char err[200];
    if (cli_i18n_init(lang, err, sizeof err) != 0)
        return cli_usage_error("rules", "%s", err);
    if (help)
        return cli_help("rules");
    if (bad == ':')
        return cli_usage_error("rules", _("option '%s' needs a value"), bad_opt);
    if (bad)
        return cli_usage_error("rules", _("unknown option '%s'"), bad_opt);
    if (optind < argc)
        return cli_usage_error("rules", _("unexpected argument '%s'"), argv[optind]);

    if (json && (aid || width_arg))
        return cli_usage_error("rules", _("--json prints every paragraph unwrapped: no --aid or --width"));
    if (json) {
        int rc = print_rules_json();
        return fflush(stdout) == 0 ? rc : EXIT_INPUT;
    }
    long long width = 0;
    if (width_arg && cli_parse_int(width_arg, 20, 1000, &width) != 0)
        return cli_usage_error("rules", _("--width takes a number of columns from 20 to 1000"));
    if (!width_arg) {
        width = terminal_width();
        width = width == 0 ? 78 : width > 100 ? 100 : width - 1;
    }
    int rc = print_part(aid ? FIG_RULES_AID : FIG_RULES_BRIEF, (int)width);
    return fflush(stdout) == 0 ? rc : EXIT_INPUT;
}
