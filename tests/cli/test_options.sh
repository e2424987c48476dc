#!/bin/sh
# SPDX-License-Identifier: MIT
# test_options.sh - the whole numbers the commands' options take: each bound
# accepted, a value past it or not a number refused with exit status 2 and
# the exact usage error naming the option, its range and the value (the
# commands share one reader, cli_opt_int and cli_opt_amount in
# src/cli/cli.c; `figaro serve` says the value first, as its other errors
# do). A value accepted shows as the next check's error, about another
# option, or as the command's own run. Run by tests/run.sh with FIGARO set;
# prints "cli: N passed, N failed" last.
FIGARO=${FIGARO:-build/test/figaro}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

# refused ARGS|FIRST LINE OF STDERR, one a line: exit 2, and stderr is that
# line then the command's "Try 'figaro help CMD'." (ARGS split on spaces).
check_refused() {
    while IFS='|' read -r args line; do
        [ -n "$args" ] || continue
        cmd=${args%% *}
        # shellcheck disable=SC2086 # ARGS is a list of words
        HOME=$tmp "$FIGARO" $args </dev/null >"$tmp/out" 2>"$tmp/err"
        got=$?
        if [ "$got" -eq 2 ]; then ok; else ko "$args: exit $got, expected 2"; fi
        printf 'figaro %s: %s\nTry '\''figaro help %s'\''.\n' "$cmd" "$line" "$cmd" >"$tmp/want"
        if cmp -s "$tmp/want" "$tmp/err"; then ok; else
            ko "$args: stderr is not the usage error"; diff "$tmp/want" "$tmp/err"; fi
    done
}

check_refused <<'EOF'
serve --lease 0|--lease: '0' is not 1 to 3600 seconds
serve --lease 3601|--lease: '3601' is not 1 to 3600 seconds
serve --grace x|--grace: 'x' is not 1 to 86400 seconds
serve --grace 86401|--grace: '86401' is not 1 to 86400 seconds
serve --max-tables 0|--max-tables: '0' is not 1 to 1000000
serve --max-tables 1e3|--max-tables: '1e3' is not 1 to 1000000
serve --bot-threads 257|--bot-threads: '257' is not 1 to 256
serve --max-bot-ms 600001|--max-bot-ms: '600001' is not 1 to 600000
serve --idle -1|--idle: '-1' is not 1 to 3600 seconds
serve --hello 3601|--hello: '3601' is not 1 to 3600 seconds
serve --send-queue 15|--send-queue: '15' is not 16 to 1048576 KiB
serve --send-queue 1048577|--send-queue: '1048577' is not 16 to 1048576 KiB
serve --keep-finished 31536001|--keep-finished: '31536001' is not 1 to 31536000 seconds
serve --keep-idle 99999999999999999999|--keep-idle: '99999999999999999999' is not 1 to 31536000 seconds
serve --lease 1 --grace 86400 --max-tables 1000000 --bot-threads 256 --max-bot-ms 600000 --idle 3600 --hello 1 --send-queue 1048576 --keep-finished 31536000 --keep-idle 1 --listen nowhere|--listen: give ADDRESS:PORT (e.g. 127.0.0.1:8080, [::1]:8080), the port 0 to 65535
serve --send-queue 16 --listen nowhere|--listen: give ADDRESS:PORT (e.g. 127.0.0.1:8080, [::1]:8080), the port 0 to 65535
arena --players 2|--players takes 3 to 6, not '2'
arena --players 7|--players takes 3 to 6, not '7'
arena --games 0|--games takes 1 to 10000000, not '0'
arena --jobs 65|--jobs takes 1 to 64, not '65'
arena --move-ms 3600001|--move-ms takes 1 to 3600000, not '3600001'
arena --boot -1|--boot takes 0 to 100000, not '-1'
arena --players 6 --jobs 64 --move-ms 3600000 --boot 0|--players N and --games G are required
arena --players 3 --games 10000000 --boot 100000|give exactly 3 --bot options (one per seat), not 0
bench --games 0|--games takes 1 to 100000000, not '0'
bench --games 100000001|--games takes 1 to 100000000, not '100000001'
bench --games 1 extra|unexpected argument 'extra'
review --seat 6|--seat takes 0 to 5, not '6'
review --ms 0|--ms takes 1 to 600000, not '0'
review --iters 100000001|--iters takes 1 to 100000000, not '100000001'
review --seat 5 --iters 100000000|a game record (FILE) is required
review --ms 600000 --iters 1|give --ms or --iters, not both
random-game --players 2|--players takes 3 to 6, not '2'
random-game --players 6 extra|unexpected argument 'extra'
EOF

# A number is its own argument too (getopt's --opt=VALUE), and the option
# given last counts.
expect_status "random-game --players=6" 0 "$FIGARO" random-game --players=6 --players 5 --seed 3
expect_in "the last --players counts" "$tmp/out" "players 5"

summary
