#!/bin/sh
# SPDX-License-Identifier: MIT
# test_cli.sh - the figaro command as a user runs it: exit codes, outputs and
# error messages of every subcommand. Run by tests/run.sh with FIGARO set to
# the sanitizer build. Prints "cli: N passed, N failed".
FIGARO=${FIGARO:-build/test/figaro}
LIB=${LIB:-build/libfigaro.a}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

expect_same() {
    if cmp -s "$2" "$3"; then ok; else ko "$1: $2 and $3 differ"; diff "$2" "$3" | head -10; fi
}

# ---- global options and help
expect_status "--help" 0 "$FIGARO" --help
expect_in "--help lists replay" "$tmp/out" "replay"
expect_status "--version" 0 "$FIGARO" --version
expect_in "--version" "$tmp/out" "figaro "
expect_status "no command" 2 "$FIGARO"
expect_status "unknown command" 2 "$FIGARO" frobnicate
expect_in "unknown command says so" "$tmp/err" "unknown command 'frobnicate'"
for c in replay perft random-game bench; do
    expect_status "help $c" 0 "$FIGARO" help "$c"
    expect_in "help $c" "$tmp/out" "usage: figaro $c"
    expect_status "$c --help" 0 "$FIGARO" "$c" --help
done
expect_status "help unknown" 2 "$FIGARO" help nothing

# ---- random-game
expect_status "random-game" 0 "$FIGARO" random-game --players 4 --seed 12345
cp "$tmp/out" "$tmp/g1.fgn"
"$FIGARO" random-game --players 4 --seed 12345 >"$tmp/g2.fgn"
expect_same "same seed, same game" "$tmp/g1.fgn" "$tmp/g2.fgn"
"$FIGARO" random-game -p 4 -s 12346 >"$tmp/g3.fgn"
if cmp -s "$tmp/g1.fgn" "$tmp/g3.fgn"; then ko "another seed gives another game"; else ok; fi
expect_status "random-game no seed" 2 "$FIGARO" random-game --players 4
expect_status "random-game 7 players" 2 "$FIGARO" random-game --players 7 --seed 1
expect_in "random-game 7 players message" "$tmp/err" "--players takes 3 to 6"
expect_status "random-game bad seed" 2 "$FIGARO" random-game --players 4 --seed -1
expect_status "random-game seed overflow" 2 "$FIGARO" random-game -p 4 -s 18446744073709551616
expect_status "random-game extra" 2 "$FIGARO" random-game -p 4 -s 1 extra
expect_status "random-game unknown option" 2 "$FIGARO" random-game -p 4 -s 1 --colour

# ---- replay: valid records of every size
for n in 3 4 5 6; do
    "$FIGARO" random-game --players $n --seed $n >"$tmp/p$n.fgn"
    expect_status "replay $n players" 0 "$FIGARO" replay "$tmp/p$n.fgn"
    expect_in "replay $n players winner" "$tmp/out" "Winner:"
    expect_status "replay --json $n players" 0 "$FIGARO" replay --json "$tmp/p$n.fgn"
    expect_in "replay --json $n ok" "$tmp/out" '"ok": true, "finished": true, "players": '$n
done
expect_status "replay stdin" 0 sh -c "\"$FIGARO\" replay --json - < \"$tmp/p4.fgn\""
expect_in "replay stdin ok" "$tmp/out" '"ok": true'
head -n 30 "$tmp/p4.fgn" >"$tmp/cut.fgn"
expect_status "replay unfinished" 0 "$FIGARO" replay --json "$tmp/cut.fgn"
expect_in "replay unfinished" "$tmp/out" '"finished": false'
if grep -q '"winner"' "$tmp/out"; then ko "unfinished game has no winner"; else ok; fi

# the example of docs/fgn.md, reproduced exactly
if [ -f tests/cases/fgn-example.fgn ]; then
    expect_status "replay fgn.md example" 0 "$FIGARO" replay --json tests/cases/fgn-example.fgn
    expect_same "fgn.md example JSON" "$tmp/out" tests/cases/fgn-example.json
fi

# ---- replay: invalid input is an error with its line, never a crash
printf 'figaro 1\nplayers 4\nroads 9 5 2 / 14 11 1 / 13 8 3\nking 0\nround 1\nhand 0 R1\n' >"$tmp/bad.fgn"
expect_status "replay bad deal" 1 "$FIGARO" replay "$tmp/bad.fgn"
expect_in "replay bad deal message" "$tmp/err" "bad.fgn:6: seat 0 is dealt 1 cards"
expect_status "replay --json bad deal" 1 "$FIGARO" replay --json "$tmp/bad.fgn"
expect_in "replay --json error object" "$tmp/out" '{"ok": false, "error": {"line": 6, "message": "seat 0 is dealt 1 cards'
sed 's/^3 \(.*\)$/2 \1/' "$tmp/p4.fgn" >"$tmp/seat.fgn"
expect_status "replay wrong seat" 1 "$FIGARO" replay --json "$tmp/seat.fgn"
expect_in "replay wrong seat" "$tmp/out" "turn, not seat 2's"
expect_status "replay missing file" 1 "$FIGARO" replay "$tmp/nothing.fgn"
expect_in "replay missing file" "$tmp/err" "cannot open"
expect_status "replay --json missing file" 1 "$FIGARO" replay --json "$tmp/nothing.fgn"
expect_in "replay --json missing file" "$tmp/out" '"ok": false'
head -c 3000 /dev/urandom >"$tmp/junk.fgn" 2>/dev/null || printf '\001\002\377' >"$tmp/junk.fgn"
expect_status "replay binary junk" 1 "$FIGARO" replay --json "$tmp/junk.fgn"
expect_in "replay binary junk" "$tmp/out" '"ok": false'
head -c 2000000 /dev/zero >"$tmp/huge.fgn"
expect_status "replay huge file" 1 "$FIGARO" replay "$tmp/huge.fgn"
expect_in "replay huge file" "$tmp/err" "not a game record"
expect_status "replay no file" 2 "$FIGARO" replay
expect_status "replay two files" 2 "$FIGARO" replay a b
expect_status "replay bad option" 2 "$FIGARO" replay --yaml x

# ---- perft
awk '/^round 1/{r=1} {print} r&&/^[0-9] /{if(++m==5) exit}' "$tmp/p4.fgn" >"$tmp/mid.fgn"
expect_status "perft depth 2" 0 "$FIGARO" perft --depth 2 "$tmp/mid.fgn"
total=$(cat "$tmp/out")
expect_status "perft divide" 0 "$FIGARO" perft --depth 2 --divide "$tmp/mid.fgn"
sum=$(awk 'NF==2{s+=$2} END{print s}' "$tmp/out")
last=$(tail -n 1 "$tmp/out")
if [ "$sum" = "$total" ] && [ "$last" = "$total" ]; then ok; else ko "perft --divide sums to perft ($sum, $last, $total)"; fi
expect_status "perft depth 0" 0 "$FIGARO" perft --depth 0 "$tmp/mid.fgn"
if [ "$(cat "$tmp/out")" = 1 ]; then ok; else ko "perft depth 0 is 1"; fi
expect_status "perft finished game" 1 "$FIGARO" perft --depth 1 "$tmp/p4.fgn"
expect_in "perft finished game" "$tmp/err" "finished"
expect_status "perft no depth" 2 "$FIGARO" perft "$tmp/mid.fgn"
expect_status "perft bad depth" 2 "$FIGARO" perft --depth x "$tmp/mid.fgn"
expect_status "perft deep" 2 "$FIGARO" perft --depth 99 "$tmp/mid.fgn"
expect_status "perft bad record" 1 "$FIGARO" perft --depth 1 "$tmp/bad.fgn"
expect_in "perft bad record" "$tmp/err" ":6:"
if [ -f tests/perft/perft.txt ]; then
    while read -r file depth count; do
        case "$file" in ''|\#*) continue ;; esac
        got=$("$FIGARO" perft --depth "$depth" "tests/perft/$file")
        if [ "$got" = "$count" ]; then ok; else ko "perft $file depth $depth: $got, expected $count"; fi
    done <tests/perft/perft.txt
fi

# ---- bench (tiny run: correctness of the output, not speed)
expect_status "bench" 0 "$FIGARO" bench --games 50
expect_in "bench games/s" "$tmp/out" "games/s"
expect_in "bench signature" "$tmp/out" "signature"
"$FIGARO" bench --games 50 | grep signature >"$tmp/sig1"
"$FIGARO" bench --games 50 | grep signature >"$tmp/sig2"
expect_same "bench signature is deterministic" "$tmp/sig1" "$tmp/sig2"
expect_status "bench --json" 0 "$FIGARO" bench --games 50 --json
expect_in "bench --json" "$tmp/out" '"games_per_second"'
expect_status "bench bad games" 2 "$FIGARO" bench --games 0

# ---- libfigaro depends on libc only and never allocates (style.md)
if [ -f "$LIB" ]; then
    undefined=$(nm -u "$LIB" | awk '{print $2}' | sort -u)
    bad=$(echo "$undefined" | grep -E '^(malloc|calloc|realloc|free|fopen|printf|puts|exit|abort)$')
    if [ -z "$bad" ]; then ok; else ko "libfigaro calls $bad"; fi
fi

# ---- usage errors name what to try; a bad option value
# is a usage error (2) in every command; counts agree with their numbers
expect_status "unknown command" 2 "$FIGARO" frobnicate
expect_in "unknown command says what to try" "$tmp/err" "Try 'figaro --help'."
expect_not_in "unknown command names no empty command" "$tmp/err" "figaro help '"
expect_status "unknown option before a command" 2 "$FIGARO" --bogus
expect_in "unknown option before a command" "$tmp/err" "unknown option '--bogus'"
expect_status "arena --bot foo" 2 "$FIGARO" arena --players 3 --games 3 --bot foo --bot random \
    --bot random
expect_in "arena --bot foo says why" "$tmp/err" "'foo' is not a bot"
expect_status "arena, one deal" 0 "$FIGARO" arena --players 3 --games 3 --jobs 1 --bot greedy \
    --bot random --bot random
expect_in "arena, one deal" "$tmp/out" "3 games (1 deal x 3 seatings)"

summary
