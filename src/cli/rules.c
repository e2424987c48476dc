/* rules.c - `figaro rules`: the rules text (host/rules_text.h) printed to
 * standard output, wrapped to the terminal's width or --width. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "host/rules_text.h"

int cli_print_rules(int width)
{
    char *text = fig_rules_render(width, cli_i18n_tr());
    if (!text) {
        fprintf(stderr, "figaro: %s\n", _("out of memory"));
        return EXIT_INPUT;
    }
    fputs(text, stdout);
    free(text);
    return EXIT_OK;
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
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *lang = NULL, *width_arg = NULL;
    int bad = 0, help = 0, c;
    char bad_opt[64] = "";
    opterr = 0;   /* errors are reported below, in the chosen language */
    optind = 1;
    while ((c = getopt_long(argc, argv, ":L:w:h", opts, NULL)) != -1) {
        if (c == 'L')
            lang = optarg;
        else if (c == 'w')
            width_arg = optarg;
        else if (c == 'h')
            help = 1;
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

    long long width = 0;
    if (width_arg && cli_parse_int(width_arg, 20, 1000, &width) != 0)
        return cli_usage_error("rules", _("--width takes a number of columns from 20 to 1000"));
    if (!width_arg) {
        width = terminal_width();
        width = width == 0 ? 78 : width > 100 ? 100 : width - 1;
    }
    int rc = cli_print_rules((int)width);
    return fflush(stdout) == 0 ? rc : EXIT_INPUT;
}
