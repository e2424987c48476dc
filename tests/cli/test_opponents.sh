#!/bin/sh
# SPDX-License-Identifier: MIT
# test_opponents.sh - the held-out opponents of docs/bots.md ("How strength
# is measured"), built next to $FIGARO from bench/opponents/:
#   textbook_ismcts.c  textbook ISMCTS (now a development opponent),
#   expert.c           a rule-based expert, no search (never used in tuning),
#   pimc.c             Perfect-Information Monte Carlo, the expert's rules in
#                      its playouts (never used in tuning).
# Each speaks FEP to the arena without a fault, plays well enough to beat
# random players, plays the same games again for the same seed (the searches
# when they count iterations), and refuses bad options with a reason; a bad
# FEP line is answered, not a crash.
FIGARO=${FIGARO:-build/test/figaro}
DIR=$(dirname "$FIGARO")
export PYTHONDONTWRITEBYTECODE=1   # bench/round_stats.py's import leaves no cache in bench/
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

# opponent NAME 'ENGINE ARGS' MIN_WINS: against three random players, 2 deals
# x 4 seatings: every game played, no fault, at least MIN_WINS of 8 won
# (random wins about a quarter) and a mean rank of 1.75 or better (random's
# is 2.5), its wins kept in $tmp/NAME.wins; then the same 8 records again.
opponent() {
    who=$1 engine="$DIR/$2" min=$3
    arena() {
        "$FIGARO" arena --players 4 --games 8 --jobs 1 --seed "$1" --move-ms 5000 --json \
            --records "$2" --bot "cmd:$engine" --bot random --bot random --bot random
    }
    expect_status "$who: arena against random" 0 arena 11 "$tmp/$who.r1"
    cp "$tmp/out" "$tmp/json"
    expect_in "$who: eight games" "$tmp/json" '"games": 8'
    if python3 - "$tmp/json" "$min" >"$tmp/$who.wins" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = next(e for e in d["entrants"] if e["spec"].startswith("cmd:"))
assert e["faults"] == 0, e
assert e["games"] == 8 and e["wins"] >= int(sys.argv[2]), e
assert e["mean_rank"] <= 1.75, e
print(e["wins"])
PY
    then ok; else ko "$who played faultlessly, won at least $min of 8 against random, ranked 1.75 or better"; fi
    expect_status "$who: arena again" 0 arena 11 "$tmp/$who.r2"
    if diff -r "$tmp/$who.r1" "$tmp/$who.r2" >/dev/null && [ "$(ls "$tmp/$who.r1" | wc -l)" -eq 8 ]
    then ok; else ko "$who: the same seeds did not give the same 8 records"; fi
}

# fep_line NAME PROGRAM: the handshake, then a bad line answered, not a crash.
fep_line() {
    printf 'fep 1\ngo x\nquit\n' | "$2" >"$tmp/out" 2>"$tmp/err"
    expect_in "$1: handshake" "$tmp/out" "fepok"
    expect_in "$1: a bad line is answered" "$tmp/out" "info error"
}

for prog in textbook_ismcts expert pimc; do
    if [ ! -x "$DIR/$prog" ]; then
        ko "no engine at $DIR/$prog (make test builds it)"
        summary
        exit
    fi
done

opponent textbook "textbook_ismcts --iters 1500 --seed 7" 6

# --ms caps a search's time below the host's: four games where the host
# allows a minute a move end within two minutes only if it is obeyed.
expect_status "textbook_ismcts --ms 2 where the host allows a minute" 0 \
    timeout 120 "$FIGARO" arena --players 4 --games 4 --jobs 1 --seed 3 --move-ms 60000 \
    --bot "cmd:$DIR/textbook_ismcts --ms 2" --bot random --bot random --bot random

opponent expert "expert --seed 7" 6

# bench/round_stats.py (docs/bots.md) reads the expert's records: the games and wins
# the arena counted, and each round's pieces over all 8 games; a record
# without the seat asked for is refused with its name.
wins=$(cat "$tmp/expert.wins")   # as the arena counted them (opponent, above)
expect_status "round_stats over the expert's records" 0 \
    python3 bench/round_stats.py --figaro "$FIGARO" --name cmd: "$tmp"/expert.r1/*.fgn
expect_in "round_stats: the arena's games and wins" "$tmp/out" "8 games of cmd:*: won $wins ("
if [ "$(awk '$1 ~ /^[123]$/ && NF >= 4 { n[$1] += $(NF - 2) } END { print n[1], n[2], n[3] }' \
        "$tmp/out")" = "8 8 8" ]; then ok
else ko "round_stats: each round's pieces should add up to the 8 games"; cat "$tmp/out"; fi
expect_status "round_stats without the seat" 1 \
    python3 bench/round_stats.py --figaro "$FIGARO" --name nobody "$tmp"/expert.r1/game-000001.fgn
expect_in "round_stats: says which record" "$tmp/err" "game-000001.fgn: 0 seats named nobody*"
opponent pimc "pimc --iters 48 --seed 7" 5

# Their own options: refused with what is wrong, exit 2.
for prog in textbook_ismcts pimc; do
    expect_status "$prog: bad --iters" 2 "$DIR/$prog" --iters 0
    expect_in "$prog: says what --iters takes" "$tmp/err" "--iters takes a whole number"
    expect_status "$prog: bad --c" 2 "$DIR/$prog" --c x
    expect_in "$prog: says what --c takes" "$tmp/err" "--c takes a number"
    expect_status "$prog: bad --ms" 2 "$DIR/$prog" --ms 0
    expect_in "$prog: says what --ms takes" "$tmp/err" "--ms takes a whole number"
    expect_status "$prog: --iters with --ms" 2 "$DIR/$prog" --iters 10 --ms 10
    expect_in "$prog: says they do not mix" "$tmp/err" "do not mix"
done
for prog in textbook_ismcts expert pimc; do
    expect_status "$prog: bad --seed" 2 "$DIR/$prog" --seed -x
    expect_in "$prog: says what --seed takes" "$tmp/err" "--seed takes a whole number"
    expect_status "$prog: unknown option" 2 "$DIR/$prog" --frobnicate
    expect_in "$prog: says it is unknown" "$tmp/err" "unknown option"
    expect_status "$prog: an argument" 2 "$DIR/$prog" stray
    expect_in "$prog: says it is unexpected" "$tmp/err" "unexpected argument"
    fep_line "$prog" "$DIR/$prog"
done
summary
