/* help.c - what `figaro --help` and `figaro help COMMAND` print: a summary
 * line and the usage text of every command. The texts only: main.c
 * dispatches, so the commands that print their help (--help) depend on this
 * file and not on the dispatcher. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct {
    const char *name;
    const char *summary;   /* one line for `figaro --help` */
    const char *usage;     /* full text for `figaro help NAME` */
} cli_help_t;

static const cli_help_t helps[] = {
    { "play", "play Figaro against bots in the terminal",
      "usage: figaro play [--plain] [--players N] [--name NAME] [--bots L1,L2,...]\n"
      "                   [--level L] [--seed S] [--fast|--pace MS] [--open] [--color]\n"
      "                   [--lang L]\n"
      "       figaro play --resume [N] [--plain] [--fast|--pace MS] [--open] [--color]\n"
      "                   [--lang L]\n"
      "\n"
      "Starts a game of Figaro: you at seat 0 against bots. Full-screen on a terminal;\n"
      "with --plain (or when standard input or output is not a terminal) the game is\n"
      "plain lines: the table and a numbered menu of your moves are printed, and you\n"
      "answer with a move in FGN (R2>1, RING, take) or a menu number; 'help', 'hint',\n"
      "'log', 'show' and 'quit' work too (docs/play.md). The game is saved after every\n"
      "move in $XDG_DATA_HOME/figaro (~/.local/share/figaro): 'quit', the end of the\n"
      "input or a crash leave it there, and the next 'figaro play' asks \"Continue your\n"
      "saved game?\" (a new game keeps it in the history); a finished game goes to the\n"
      "history too. Giving --players, --name, --bots, --level or --seed asks for a new\n"
      "game: the saved one is then kept in the history without asking.\n"
      "\n"
      "  -p, --players N    3 to 6 (default 4, or one more than the bots listed)\n"
      "  -n, --name NAME    your name: 1 to 32 bytes, no spaces (default $USER)\n"
      "  -b, --bots LIST    the opponents, seats 1..N-1, comma-separated: beginner, easy,\n"
      "                     normal, hard, max, random, greedy, ismcts[:k=v,...] (its k=v\n"
      "                     options may follow after commas) or cmd:PROGRAM ARGS (an\n"
      "                     FEP engine); one name alone is used for every seat\n"
      "                     (default normal)\n"
      "      --level L      the same level for every opponent\n"
      "  -s, --seed S       deal the game of seed S: the same seed gives the same road\n"
      "                     pieces, King and hands. Bots without a time limit (the\n"
      "                     levels, random, greedy, ismcts:iters=N) also answer the same\n"
      "                     moves of yours with the same moves; ismcts:ms=N searches\n"
      "                     for a time, so its moves may differ from one game to the\n"
      "                     next. Without --seed the seed is secret until the game is\n"
      "                     over (the save is sealed), then told so it can be replayed.\n"
      "  -f, --fast         no pause after the bots' moves\n"
      "      --pace MS      pause after each bot's move, 0 to 60000 (default 700; plain\n"
      "                     mode reading from a pipe or a file: 0)\n"
      "      --open         show stack counts and every road during play (rules R14)\n"
      "      --color        plain mode: colour the cards with ANSI escape codes\n"
      "      --lang L       en, fr, nl or it (default: the locale)\n"
      "  -r, --resume [N]   continue the saved game (players, bots, seed as saved); with\n"
      "                     N, the unfinished game number N of 'figaro history' (the\n"
      "                     game in progress, if any, is then kept in the history)\n"
      "  -h, --help         show this help\n"
      "\n"
      "Levels, each winning about 60-65% of the games against the one below (two\n"
      "seats each at a 4-player table; docs/bots.md has the measurements):\n"
      "  beginner  makes mistakes a child can catch, never an absurd move\n"
      "  easy      plays sensibly move by move (greedy)\n"
      "  normal    searches 800 iterations a move\n"
      "  hard      searches 8,000 iterations a move\n"
      "  max       searches 100,000 iterations a move\n"
      "\n"
      "Exit status: 0 the game ended or was saved, 1 a damaged save or no save to\n"
      "resume, 2 usage error.\n"
      "Example: figaro play --plain --players 3 --bots easy,hard --seed 42\n" },
    { "history", "list the games played with 'figaro play'",
      "usage: figaro history [--json]\n"
      "\n"
      "Lists the games kept in $XDG_DATA_HOME/figaro/history (~/.local/share/figaro/\n"
      "history), oldest first and numbered: date, the players (you are seat 0), your\n"
      "place (1 is the winner), the winner, and the file, which 'figaro replay FILE'\n"
      "reads. An unfinished game (set aside when a new one started) says so, and\n"
      "'figaro play --resume N' continues game number N; a damaged file is listed\n"
      "with what is wrong in it.\n"
      "\n"
      "  -j, --json   print one JSON array of objects: number, file, date, players,\n"
      "               names, human, seed (null while a game's seed is secret),\n"
      "               finished, and when finished ranking, totals, winner, place\n"
      "  -h, --help   show this help\n"
      "\n"
      "Example: figaro replay \"$(figaro history --json | jq -r '.[-1].file')\"\n" },
    { "replay", "check a game record and show how it went",
      "usage: figaro replay [--json] FILE|-\n"
      "\n"
      "Replays a game record (FGN, docs/fgn.md) and checks every line against the rules.\n"
      "Prints a summary of each finished round and, when the game is finished, the\n"
      "roads and the ranking. FILE may be '-' for standard input.\n"
      "\n"
      "  -j, --json   print one JSON object instead (see docs/fgn.md)\n"
      "  -h, --help   show this help\n"
      "\n"
      "Exit status: 0 valid record (finished or not), 1 invalid record, 2 usage error.\n"
      "Example: figaro random-game --players 4 --seed 7 | figaro replay --json -\n" },
    { "perft", "count the action sequences from a recorded position",
      "usage: figaro perft --depth D [--divide] FILE|-\n"
      "\n"
      "Replays FILE (an unfinished game) and counts the sequences of exactly D legal\n"
      "actions from its last position, within the current round (docs/fgn.md).\n"
      "\n"
      "  -d, --depth D   number of actions, 0 to 20\n"
      "      --divide    first print '<action> <count>' for each legal action\n"
      "  -h, --help      show this help\n"
      "\n"
      "Example: figaro perft --depth 3 tests/perft/p4-s7.fgn\n" },
    { "random-game", "play a game of random legal actions and print its FGN",
      "usage: figaro random-game --players N --seed S\n"
      "\n"
      "Sets up a game from the seed (roads, removed colour, King, deals) and plays it\n"
      "with uniformly random legal actions, then prints the record (FGN). The same\n"
      "seed always gives the same game.\n"
      "\n"
      "  -p, --players N   3 to 6\n"
      "  -s, --seed S      a whole number from 0 to 18446744073709551615\n"
      "  -h, --help        show this help\n"
      "\n"
      "Example: figaro random-game --players 4 --seed 12345 > game.fgn\n" },
    { "arena", "play bots against each other on duplicate deals",
      "usage: figaro arena --players N --games G --bot SPEC... [--seed S] [--records DIR]\n"
      "                    [--jobs J] [--move-ms MS] [--json] [--both-orders]\n"
      "                    [--baseline SPEC [--sprt ELO0,ELO1 [--alpha A] [--beta B]\n"
      "                    [--model trinomial|pentanomial]]] [--round-robin] [--ratings]\n"
      "                    [--anchor SPEC] [--boot B]\n"
      "\n"
      "Plays G games between bots. Exactly N --bot options give the line-up of the first\n"
      "game; each deal is replayed with the line-up rotated through all N seats (duplicate\n"
      "deals, to cut luck), so G must be a multiple of N. Identical specs are one entrant.\n"
      "Prints per entrant: games (seat-games), wins, win rate with a 95% Wilson interval,\n"
      "mean road length, mean rank and faults; a progress bar on a terminal.\n"
      "\n"
      "  -p, --players N    3 to 6\n"
      "  -g, --games G      number of games, a multiple of N (of the deal's games below)\n"
      "  -b, --bot SPEC     random, greedy, ismcts[:ms=,iters=,threads=,c=,win=,mem=],\n"
      "                     beginner, easy, normal, hard, max, or cmd:PROGRAM ARGS (an\n"
      "                     FEP engine)\n"
      "  -s, --seed S       seed of the deals and the bots (default 1)\n"
      "  -r, --records DIR  write every game as FGN into DIR\n"
      "  -j, --jobs J       games played in parallel (default: the cores online)\n"
      "  -m, --move-ms MS   time an FEP engine gets per move (default 1000)\n"
      "      --json         print one JSON object\n"
      "      --both-orders  also play each deal with the line-up's seat order reversed\n"
      "                     (2N games a deal): who plays after whom changes\n"
      "      --baseline SPEC  paired comparison: every game is played twice, the second\n"
      "                     time with SPEC in the first --bot's seat (same cards, same\n"
      "                     field); prints the paired differences with 95% intervals\n"
      "      --sprt E0,E1   sequential test of the first --bot against the baseline:\n"
      "                     H0 'better by E0 Elo' against H1 'better by E1'; stops when\n"
      "                     decided (G is then the most games it may play) and prints the\n"
      "                     verdict, the LLR and its bounds\n"
      "      --alpha A, --beta B  the test's error rates (default 0.05 each)\n"
      "      --model M      trinomial (each pair of games: better, same or worse place)\n"
      "                     or pentanomial (two such pairs together; the default)\n"
      "      --round-robin  the --bot options (2 to 16, all different) are entrants; every\n"
      "                     line-up of N of them gets its deals; implies --ratings\n"
      "      --ratings      Plackett-Luce ratings of every entrant from the finishing\n"
      "                     orders, on one Elo-like scale, with 95% bootstrap intervals\n"
      "      --anchor SPEC  the entrant rated 0 (default greedy, else random, else the\n"
      "                     first)\n"
      "      --boot B       bootstrap replicates of the ratings, 0 to 100000 (default 200)\n"
      "  -h, --help         show this help\n"
      "\n"
      "Example: figaro arena --players 4 --games 400 --bot greedy --bot random \\\n"
      "             --bot random --bot random\n"
      "         figaro arena --players 4 --games 8000 --bot ismcts:ms=100 --bot greedy \\\n"
      "             --bot greedy --bot greedy --baseline greedy --sprt 0,30\n" },
    { "review", "go through a finished game: where could a seat have played better?",
      "usage: figaro review FILE [--seat S] [--json] [--ms N | --iters N] [--seed S] [--all]\n"
      "\n"
      "Goes through the finished game in FILE (FGN, e.g. from 'figaro history') for one\n"
      "seat: before each of its moves, a search (ismcts) thinks from what that seat knew\n"
      "then -- its own hand and the public actions, never another hand -- and the move\n"
      "played is compared with the search's best by the chance to win and the expected\n"
      "final place. A loss of at least 0.10 place or 5 points of win chance is an\n"
      "inaccuracy, 0.25 or 10 points a mistake, 0.50 or 20 points a blunder. Prints those\n"
      "moves and a summary with the costliest one (docs/bots.md, Review).\n"
      "\n"
      "  -s, --seat S    the seat to review, 0 to 5 (default 0: the person in 'figaro\n"
      "                  play')\n"
      "  -m, --ms N      search time per move, 1 to 600000 ms (default 300)\n"
      "  -i, --iters N   search iterations per move instead: the same review every time\n"
      "      --seed S    seed of the searches (default 1)\n"
      "  -a, --all       print every move, not only the graded ones\n"
      "      --json      print one JSON object (docs/bots.md lists its fields)\n"
      "  -h, --help      show this help\n"
      "\n"
      "Exit status: 0 reviewed, 1 the file cannot be read or the game is not finished,\n"
      "2 usage error.\n"
      "Example: figaro review ~/.local/share/figaro/history/20250101-120000-42.fgn\n" },
    { "bench", "measure the speed of the engine",
      "usage: figaro bench [--games G] [--quick] [--json]\n"
      "\n"
      "Measures, best of 3 runs: perft nodes per second on fixed positions, random\n"
      "complete 4-player games (and actions) per second, on one thread; ISMCTS\n"
      "iterations per second from the start of a 4-player game, on one and two\n"
      "threads. Prints the machine it ran on and a signature of the work done, which\n"
      "changes if the engine's behaviour does.\n"
      "\n"
      "  -g, --games G     random games per run, 1 to 100000000 (default 200000)\n"
      "  -q, --quick       a smaller fixed work (one run, perft one ply shallower,\n"
      "                    5000 ISMCTS iterations, 2000 games unless -g): its own\n"
      "                    signature in about a second, for tests\n"
      "  -j, --json        print one JSON object\n"
      "  -h, --help        show this help\n"
      "\n"
      "Example: figaro bench --games 50000\n" },
    { "engine", "run a bot as an FEP engine on standard input and output",
      "usage: figaro engine --bot SPEC [--seed S] [--analysis]\n"
      "\n"
      "Speaks FEP, the Figaro Engine Protocol (docs/fep.md), on standard input and\n"
      "output: a host sends 'fep 1', the game, the hand and every move; 'go MS' asks\n"
      "for an answer, 'play ACTION'. A malformed or out-of-order line is answered with\n"
      "'info error: ...' and ignored. Ends on 'quit' or at the end of the input.\n"
      "\n"
      "  -b, --bot SPEC   random, greedy, ismcts[:k=v,...], beginner, easy, normal,\n"
      "                   hard, max\n"
      "  -s, --seed S     seed of the bot's choices (default 0)\n"
      "  -a, --analysis   before each 'play' of a bot that searches, tell what the\n"
      "                   search saw: 'info analysis', 'info move' (the top 3 moves:\n"
      "                   share, win, place, cards this round, chance to collect\n"
      "                   next) and 'info hint' (docs/bots.md, Hints)\n"
      "  -h, --help       show this help\n"
      "\n"
      "Exit status: 0 after 'quit' or the end of the input, 1 if the output is gone,\n"
      "2 usage error (e.g. an unknown bot).\n"
      "Example: figaro arena --players 4 --games 8 --bot 'cmd:figaro engine --bot greedy' \\\n"
      "             --bot random --bot random --bot random\n" },
    { "serve", "run the table server: play with friends in their browsers",
      "usage: figaro serve [--listen ADDR:PORT] [--data DIR] [--tls-cert F --tls-key F]\n"
      "                    [--engine NAME=CMD]... [--grace S] [--max-tables N]\n"
      "                    [--bot-threads N] [--max-bot-ms MS] [--idle S] [--hello S]\n"
      "                    [--send-queue KIB] [--keep-finished S] [--keep-idle S]\n"
      "                    [--trust-proxy ADDR] [--sync full|normal]\n"
      "\n"
      "Runs the table server on one port: HTTP (the browser client, /healthz,\n"
      "/metrics, finished games' records) and the WebSocket protocol on /ws\n"
      "(docs/protocol.md). People create tables with 3 to 6 seats, invite friends\n"
      "with a code, and bots fill the empty seats. Every table, seat and action is\n"
      "kept in DIR/figaro.sqlite, so a restarted server goes on where it stopped.\n"
      "It prints the URL to open; one line per event goes to standard error.\n"
      "SIGTERM or Ctrl-C stops it cleanly (docs/server.md).\n"
      "\n"
      "  -l, --listen ADDR:PORT  where to listen (default 127.0.0.1:8080; [::]:PORT\n"
      "                          for IPv6; port 0: any free port, printed)\n"
      "  -d, --data DIR          the database's folder, created if missing (default\n"
      "                          $XDG_DATA_HOME/figaro/server)\n"
      "      --tls-cert FILE     HTTPS and WSS with this PEM certificate...\n"
      "      --tls-key FILE      ...and its key (or put a reverse proxy in front)\n"
      "  -e, --engine NAME=CMD   an FEP engine tables may seat by NAME; CMD is a\n"
      "                          program and its arguments, run without a shell\n"
      "                          (repeatable, at most 16)\n"
      "  -g, --grace S           seconds a disconnected person's seat waits before a\n"
      "                          bot plays it, 1 to 86400 (default 30)\n"
      "  -t, --max-tables N      tables the server holds, 1 to 1000000 (default 1000)\n"
      "  -j, --bot-threads N     threads the bots think on, 1 to 256 (default: cores)\n"
      "  -m, --max-bot-ms MS     caps every bot's time per move, 1 to 600000\n"
      "      --idle S            ping a silent connection after S seconds, drop it\n"
      "                          after 2S without an answer (default 30)\n"
      "      --hello S           seconds a connection has to say hello (default 10)\n"
      "      --send-queue KIB    a client that leaves more unread is dropped, 16 to\n"
      "                          1048576 KiB (default 1024)\n"
      "      --keep-finished S   a finished table nobody is at is deleted after S\n"
      "                          seconds, its records with it (default 3600)\n"
      "      --keep-idle S       any other table nobody is at (default 86400)\n"
      "      --trust-proxy ADDR  connections from this reverse proxy count against\n"
      "                          the address its X-Forwarded-For names\n"
      "      --sync full|normal  full (default): every action on the disk before it is\n"
      "                          told; normal: safe when the server is killed, but a\n"
      "                          power cut may lose the last actions (faster)\n"
      "  -h, --help              show this help\n"
      "\n"
      "Exit status: 0 stopped by a signal, 1 cannot listen or open the database,\n"
      "2 usage error.\n"
      "Example: figaro serve --listen 0.0.0.0:8080 --engine 'mybot=python3 bot.py'\n" },
    { "rules", "print the rules of Figaro in English, French, Dutch or Italian",
      "usage: figaro rules [--lang L] [--width W]\n"
      "\n"
      "Prints a summary of the rules of Figaro for players: the cards, a turn, where a\n"
      "card may go, the ring, the King has had enough, the end of a round, the road\n"
      "pieces and ties, the round-3 exchange, the winner. The game shows the same text\n"
      "with '?'. The language follows the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).\n"
      "\n"
      "  -L, --lang L    en, fr, nl or it, whatever the locale says\n"
      "  -w, --width W   wrap the text to W columns, 20 to 1000 (default: the terminal's\n"
      "                  width up to 100, or 78)\n"
      "  -h, --help      show this help\n"
      "\n"
      "Catalogues are looked for next to the program, or in $FIGARO_LOCALEDIR\n"
      "(docs/translations.md).\n"
      "Example: figaro rules --lang fr | less\n" },
};
enum { NHELPS = sizeof helps / sizeof helps[0] };

static const cli_help_t *find(const char *name)
{
    for (int i = 0; i < NHELPS; i++)
        if (strcmp(helps[i].name, name) == 0)
            return &helps[i];
    return NULL;
}

void cli_main_help(FILE *f)
{
    fprintf(f, "usage: figaro COMMAND [OPTIONS] [ARGS]\n"
               "       figaro help COMMAND | --help | --version\n\n"
               "Figaro, Reiner Knizia's card game for 3 to 6 players.\n\nCommands:\n");
    for (int i = 0; i < NHELPS; i++)
        fprintf(f, "  %-12s %s\n", helps[i].name, helps[i].summary);
    fprintf(f, "\n'figaro help COMMAND' explains one command. Exit status: 0 success,\n"
               "1 bad input, 2 usage error.\n");
}

int cli_help(const char *cmd)
{
    const cli_help_t *c = find(cmd);
    if (!c)
        return cli_usage_error(NULL, "unknown command '%s'", cmd);
    fputs(c->usage, stdout);
    return EXIT_OK;
}
