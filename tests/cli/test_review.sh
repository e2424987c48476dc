#!/bin/sh
# SPDX-License-Identifier: MIT
# test_review.sh - `figaro review FILE` as a user runs it.
#
#   - a game played by `figaro arena --records` (random against greedy) is
#     reviewed for the random seat: the text has the moves graded and the
#     summary; --json parses, its counts agree with its moves, each grade is
#     one of four, the random player is found to have made mistakes;
#   - the same review twice (an iteration budget) is the same;
#   - R14: the review of seat 0 is identical when cards the other seats never
#     played are swapped between them in the record (another deal that agrees
#     with every public action), though the record differs;
#   - the end of a game in plain mode names the command that reviews it;
#   - errors: no file, a missing or unreadable file, an unfinished game (1),
#     bad options and a seat the game has not (2).
# The deliberately bad move (a take of 6+ cards when a card could go down
# harmlessly) is checked in tests/unit/test_review.c, where a game can be made
# to order. Run by tests/run.sh with FIGARO set to the sanitizer build.
FIGARO=${FIGARO:-build/test/figaro}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

expect_status "a game to review" 0 "$FIGARO" arena --players 4 --games 4 --jobs 1 --seed 3 \
    --bot random --bot greedy --bot greedy --bot greedy --records "$tmp/rec"
game="$tmp/rec/game-000001.fgn"   # random at seat 0

expect_status "review, text" 0 "$FIGARO" review "$game" --seat 0 --iters 600
cp "$tmp/out" "$tmp/text"
expect_in "review: header" "$tmp/text" "Review of random (seat 0), 4 players"
expect_in "review: summary" "$tmp/text" " moves. The costliest, your move "
expect_in "review: a graded move, whose and which of theirs" "$tmp/text" "* Your move "

expect_status "review, json" 0 "$FIGARO" review "$game" --seat 0 --iters 600 --json
cp "$tmp/out" "$tmp/a.json"
"$PY" - "$tmp/a.json" <<'EOF' && ok || ko "review --json: fields and counts"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["seat"] == 0 and j["players"] == 4 and j["name"] == "random", j
moves, s = j["moves"], j["summary"]
assert s["moves"] == len(moves) >= 40, s
grades = [m["grade"] for m in moves]
assert set(grades) <= {"good", "inaccuracy", "mistake", "blunder"}, grades
assert s["inaccuracies"] == grades.count("inaccuracy")
assert s["mistakes"] == grades.count("mistake") and s["blunders"] == grades.count("blunder")
assert s["mistakes"] + s["blunders"] >= 1, s            # random plays badly
assert [m["number"] for m in moves] == list(range(1, len(moves) + 1))
for r in (1, 2, 3):   # the seat's moves of each round, numbered from 1
    assert [m["in_round"] for m in moves if m["round"] == r] == \
        list(range(1, sum(m["round"] == r for m in moves) + 1)), r
for m in moves:
    assert 0 <= m["played_win"] <= 1 and 1 <= m["best_place"] <= 4, m
    assert m["loss_win"] >= 0 and m["loss_place"] >= 0, m
    if m["played"] == m["best"]:
        assert m["grade"] == "good", m
worst = max(moves, key=lambda m: ("good inaccuracy mistake blunder".split().index(m["grade"])))
assert s["costliest"] >= 1 and moves[s["costliest"] - 1]["grade"] == worst["grade"], s
EOF
expect_status "review, json again" 0 "$FIGARO" review "$game" --seat 0 --iters 600 --json
cmp -s "$tmp/out" "$tmp/a.json" && ok || ko "the same review twice differs"

# ---- R14: swap cards two other seats never played; seat 0's review stays.
"$PY" - "$game" "$tmp/swapped.fgn" <<'EOF' && ok || ko "test set-up: a swapped deal"
import sys
lines = open(sys.argv[1]).read().split("\n")
rounds, cur = [], None
for i, l in enumerate(lines):
    w = l.split()
    if w[:1] == ["round"]:
        cur = {"hands": {}, "played": {}}
        rounds.append(cur)
    elif cur is not None and w[:1] == ["hand"]:
        cur["hands"][int(w[1])] = (i, w[2:])
    elif cur is not None and len(w) == 2 and w[0].isdigit():
        a = w[1]
        if a != "take":
            cur["played"].setdefault(int(w[0]), []).append(a.split(">")[0])
def left(r, s):
    h = list(r["hands"][s][1])
    for c in r["played"].get(s, []):
        h.remove(c)
    return h
for r in rounds:
  for s1, s2 in ((1, 2), (1, 3), (2, 3)):
    a, b = left(r, s1), left(r, s2)
    pair = next(((x, y) for x in a for y in b if x != y), None)
    if pair:
        x, y = pair
        for s, out, inn in ((s1, x, y), (s2, y, x)):
            i, h = r["hands"][s]
            h = list(h); h.remove(out); h.append(inn)
            lines[i] = "hand %d %s" % (s, " ".join(h))
        open(sys.argv[2], "w").write("\n".join(lines))
        sys.exit(0)
sys.exit(1)
EOF
expect_status "the swapped record is a valid game" 0 "$FIGARO" replay "$tmp/swapped.fgn"
cmp -s "$game" "$tmp/swapped.fgn" && ko "the swapped record is the same" || ok
expect_status "review of the swapped record" 0 "$FIGARO" review "$tmp/swapped.fgn" --seat 0 \
    --iters 600 --json
cmp -s "$tmp/out" "$tmp/a.json" && ok || ko "R14: seat 0's review changed with others' hands"

# ---- the end of a plain game offers the review, and the command works
export XDG_DATA_HOME="$tmp/data"
i=0
while [ "$i" -lt 400 ]; do echo 1; i=$((i + 1)); done >"$tmp/ones"
timeout 60 "$FIGARO" play --plain --bots random,random,random --seed 5 --fast --name Ann \
    <"$tmp/ones" >"$tmp/plain.out" 2>&1 && ok || ko "a plain game to the end"
expect_in "plain mode offers the review" "$tmp/plain.out" \
    "To see where you could have played better: 'figaro review FILE' with that file."
offered=$(sed -n 's/^The game is kept in the history: //p' "$tmp/plain.out")
expect_status "the offered review" 0 "$FIGARO" review "$offered" --iters 100
expect_in "the offered review names the person" "$tmp/out" "Review of Ann (seat 0)"

# ---- errors
expect_status "no file" 2 "$FIGARO" review
expect_in "no file says so" "$tmp/err" "a game record (FILE) is required"
expect_status "missing file" 1 "$FIGARO" review "$tmp/nothing.fgn"
printf 'figaro 1\nplayers 9\n' >"$tmp/bad.fgn"
expect_status "bad file" 1 "$FIGARO" review "$tmp/bad.fgn"
sed '/^round 2$/,$d' "$game" >"$tmp/unfinished.fgn"
expect_status "unfinished game" 1 "$FIGARO" review "$tmp/unfinished.fgn" --iters 10
expect_in "unfinished says so" "$tmp/err" "figaro review: $tmp/unfinished.fgn: the game is not finished"
expect_status "unfinished game, timed" 1 "$FIGARO" review "$tmp/unfinished.fgn" --ms 10
expect_not_in "no search announced for an unfinished game" "$tmp/err" "Reviewing"
expect_in "bad file: the command named" "$tmp/err" "figaro review: "
expect_status "bad file, named" 1 "$FIGARO" review "$tmp/bad.fgn"
expect_in "a bad record: the command named" "$tmp/err" "figaro review: $tmp/bad.fgn:2:"
expect_status "--ms and --iters" 2 "$FIGARO" review "$game" --ms 10 --iters 10
expect_in "--ms and --iters says why" "$tmp/err" "give --ms or --iters, not both"
expect_status "seat out of the game" 2 "$FIGARO" review "$game" --seat 4
expect_status "seat not a number" 2 "$FIGARO" review "$game" --seat x
expect_status "bad ms" 2 "$FIGARO" review "$game" --ms 0
expect_status "bad option" 2 "$FIGARO" review "$game" --frobnicate
expect_status "two files" 2 "$FIGARO" review "$game" "$game"
expect_status "help review" 0 "$FIGARO" help review
expect_in "help review" "$tmp/out" "usage: figaro review FILE"

summary
