#!/bin/sh
# SPDX-License-Identifier: MIT
# test_arena_measure.sh - the arena's measuring options:
# paired games (--baseline), the sequential test (--sprt), both seat orders,
# round robins and Plackett-Luce ratings. Quick bots only (random, greedy).
#
#   - greedy against random as the baseline is accepted as better (H1) well
#     before the cap, random against greedy rejected (H0); the verdict and
#     the games it took are the same with 1 and 2 jobs; the LLR is past the
#     bound it names;
#   - the paired counts add up to the units, every unit is two games;
#   - --both-orders plays reversed seatings (the records say so) and twice
#     the games per deal;
#   - a round robin rates every entrant, the anchor 0, greedy above random,
#     each rating inside its interval;
#   - bad values are usage errors (2) that say why.
# Run by tests/run.sh with FIGARO set to the sanitizer build.
FIGARO=${FIGARO:-build/test/figaro}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

# py NAME FILE EXPR : the Python expression on the JSON in FILE (as j) is true.
py() {
    if "$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($3) else 1)" \
        "$2" 2>"$tmp/pyerr"; then ok; else ko "$1: not ($3)"; head -c 600 "$2"; cat "$tmp/pyerr"; fi
}

A="arena --players 4 --bot greedy --bot random --bot random --bot random"

# ---- the sequential test
expect_status "sprt H1" 0 "$FIGARO" $A --games 800 --jobs 2 --baseline random --sprt 0,100 --json
cp "$tmp/out" "$tmp/h1.json"
py "sprt H1 accepted" "$tmp/h1.json" "j['sprt']['verdict'] == 'H1'"
py "sprt H1 early" "$tmp/h1.json" "j['games'] < 800 and j['sprt']['games'] == j['games']"
py "sprt LLR past the upper bound" "$tmp/h1.json" "j['sprt']['llr'] >= j['sprt']['upper'] > 2.9"
py "sprt pentanomial counts pairs of units" "$tmp/h1.json" \
    "len(j['sprt']['counts']) == 5 and 4 * sum(j['sprt']['counts']) == j['games']"
expect_status "sprt H1, one job" 0 "$FIGARO" $A --games 800 --jobs 1 --baseline random \
    --sprt 0,100 --json
"$PY" -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]));
sys.exit(0 if a == b else 1)" "$tmp/h1.json" "$tmp/out" && ok || ko "sprt: --jobs changed the result"

expect_status "sprt H0" 0 "$FIGARO" arena --players 4 --bot random --bot greedy --bot greedy \
    --bot greedy --games 800 --baseline greedy --sprt 0,50 --model trinomial --json
cp "$tmp/out" "$tmp/h0.json"
py "sprt H0 accepted" "$tmp/h0.json" "j['sprt']['verdict'] == 'H0' and j['sprt']['llr'] <= j['sprt']['lower']"
py "sprt trinomial counts units" "$tmp/h0.json" \
    "len(j['sprt']['counts']) == 3 and 2 * sum(j['sprt']['counts']) == j['games']"
py "paired: better + same + worse = units = games / 2" "$tmp/h0.json" \
    "(lambda p: p['better'] + p['same'] + p['worse'] == p['units'] == j['games'] // 2)(j['paired'])"
py "paired: random is worse than greedy" "$tmp/h0.json" \
    "j['paired']['win_diff'] < 0 and j['paired']['rank_diff'] > 0 and j['paired']['elo'] < 0"

expect_status "sprt text" 0 "$FIGARO" $A --games 800 --baseline random --sprt 0,100
expect_in "sprt text: verdict" "$tmp/out" "H1 accepted"
expect_in "sprt text: bounds" "$tmp/out" "bounds [-2.944, 2.944]"
expect_in "sprt text: paired section" "$tmp/out" "Paired by deal: greedy in the seat of random"
expect_in "sprt text: header" "$tmp/out" "the candidate, then the baseline in its place"

# ---- paired games without a test, both seat orders, records
expect_status "paired, both orders" 0 "$FIGARO" arena --players 3 --games 12 --bot greedy \
    --bot random --bot greedy --baseline random --both-orders --records "$tmp/rec" --json
cp "$tmp/out" "$tmp/p.json"
py "paired: 12 games, 6 units, 1 deal" "$tmp/p.json" \
    "j['games'] == 12 and j['paired']['units'] == 6 and j['paired']['deals'] == 1"
py "paired: no sprt, no ratings unless asked" "$tmp/p.json" "'sprt' not in j and 'ratings' not in j"
n=$(grep -l "seat order reversed" "$tmp"/rec/*.fgn | wc -l)
[ "$n" -eq 6 ] && ok || ko "both orders: $n reversed records, expected 6"
n=$(grep -l "the baseline in the candidate's place" "$tmp"/rec/*.fgn | wc -l)
[ "$n" -eq 6 ] && ok || ko "baseline: $n twin records, expected 6"
expect_status "paired: multiple of 12" 2 "$FIGARO" arena --players 3 --games 6 --bot greedy \
    --bot random --bot greedy --baseline random --both-orders
expect_in "paired: says the multiple" "$tmp/err" "multiple of 12"

# ---- round robin and ratings
expect_status "round robin" 0 "$FIGARO" arena --players 3 --games 24 --round-robin \
    --bot random --bot greedy --bot ismcts:iters=20 --bot ismcts:iters=60 --anchor random --json
cp "$tmp/out" "$tmp/rr.json"
py "round robin: 4 line-ups x 3 seatings" "$tmp/rr.json" "len(j['entrants']) == 4 and j['games'] == 24"
py "round robin: every entrant rated" "$tmp/rr.json" "len(j['ratings']['entrants']) == 4"
py "round robin: the anchor is 0" "$tmp/rr.json" \
    "j['ratings']['anchor'] == 'random' and j['ratings']['entrants'][0]['rating'] == 0"
py "round robin: greedy above random" "$tmp/rr.json" "j['ratings']['entrants'][1]['rating'] > 100"
py "round robin: ratings inside their intervals" "$tmp/rr.json" \
    "all(e['ci95'][0] <= e['rating'] <= e['ci95'][1] for e in j['ratings']['entrants'])"
expect_status "ratings text" 0 "$FIGARO" $A --games 8 --ratings
expect_in "ratings text" "$tmp/out" "Ratings (Plackett-Luce on finishing orders, greedy = 0"

# ---- usage errors
expect_status "sprt without baseline" 2 "$FIGARO" $A --games 8 --sprt 0,10
expect_in "sprt without baseline says why" "$tmp/err" "--sprt needs --baseline"
expect_status "sprt bad" 2 "$FIGARO" $A --games 8 --baseline random --sprt 10
expect_status "sprt reversed" 2 "$FIGARO" $A --games 8 --baseline random --sprt 10,0
expect_status "alpha bad" 2 "$FIGARO" $A --games 8 --baseline random --sprt 0,10 --alpha 0.7
expect_status "model bad" 2 "$FIGARO" $A --games 8 --baseline random --model binomial
expect_status "baseline bad" 2 "$FIGARO" $A --games 8 --baseline foo
expect_in "baseline bad says why" "$tmp/err" "'foo' is not a bot"
expect_status "round robin twice" 2 "$FIGARO" arena --players 3 --games 3 --round-robin \
    --bot greedy --bot greedy
expect_status "round robin and baseline" 2 "$FIGARO" arena --players 3 --games 6 --round-robin \
    --bot greedy --bot random --baseline random
expect_status "anchor not an entrant" 2 "$FIGARO" $A --games 8 --ratings --anchor ismcts

summary
