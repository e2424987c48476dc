#!/bin/sh
# SPDX-License-Identifier: MIT
# test_learn.sh - `figaro learn`: a scripted newcomer does every lesson with
# --plain in each language (English, French, Dutch, Italian), a wrong move in
# each lesson is answered with its reason (and the lesson goes on), a legal
# move the step does not teach with the step's hint; progress kept between
# runs (quit, then go on at the same step; --restart; --lesson); the first
# game offered at the end starts; --json; bad lessons and usage errors.
# Run by tests/run.sh with FIGARO set to the sanitizer build. Prints
# "cli: N passed, N failed" last.
FIGARO=${FIGARO:-build/test/figaro}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=C.UTF-8

. "$(dirname "$0")/lib.sh"

# learn NAME STATUS INPUTFILE ARGS...: `figaro learn ARGS` on INPUTFILE (at
# most 60 s); stdout in $tmp/out, stderr in $tmp/err.
learn() {
    name=$1 want=$2 input=$3
    shift 3
    timeout 60 "$FIGARO" learn "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else ko "$name: exit $got, expected $want"; tail -n 5 "$tmp/err"; fi
}

# The newcomer: in each lesson first a move the rules refuse, then (where the
# step names its move) a legal one it does not ask for, then the right one.
# FGN codes: every language reads them (R2>1 and Ve2>1 are the same in French).
cat >"$tmp/newcomer" <<'ANSWERS'
hint
Y3>2
G1>1
Y1>2
B2>3
R2>0
B2>1
R2>1
R2>0
R3>2
J1>2
J2>0
RING>2
RING
Y2>2
G2>2
P1>0
take
P2>3
P2>1
P2>0
Y2>1
Y2>2
n
ANSWERS

for lang in en fr nl it; do
    rm -rf "$XDG_DATA_HOME"
    learn "newcomer in $lang" 0 "$tmp/newcomer" --plain --lang "$lang"
    cp "$tmp/out" "$tmp/out.$lang"
    n=$(grep -c '^Lesson [0-9] of 8\|^Leçon [0-9] sur 8\|^Les [0-9] van 8\|^Lezione [0-9] di 8' "$tmp/out")
    [ "$n" -eq 8 ] && ok || ko "$lang: $n lessons shown, not 8"
    printf 'done %s\n' turn colours jesters rings six take round-end winner >"$tmp/want"
    grep '^done' "$XDG_DATA_HOME/figaro/lessons" | cmp -s - "$tmp/want" && ok ||
        ko "$lang: the progress does not list every lesson done"
done
# English: the reasons, in the learner's words.
o=$tmp/out.en
expect_in "hint" "$o" "Try Y1>2."
expect_in "turn: refused" "$o" "Y3>2 is refused: You have no Y3 in your hand."
expect_in "turn: not asked" "$o" "G1>1 is allowed, but not what this step asks."
expect_in "turn: the hint" "$o" "This time, play your yellow 1 in front of Bartolo."
expect_in "turn: others play" "$o" "Basilio plays R1 in front of you."
expect_in "colours: refused" "$o" "B2>3 is refused: B2 cannot go in front of Basilio: Rosina already has blue."
expect_in "colours: red" "$o" "R2>1 is refused: R2 cannot go in front of Rosina: that pile is blue."
expect_in "jesters: refused" "$o" "R3>2 is refused: R3 cannot go in front of Bartolo: that pile is green."
expect_in "rings: refused" "$o" "RING is refused: A ring is always played in front of yourself."
expect_in "rings: played" "$o" "You play a ring: every pile moves one seat to the left."
expect_in "six: refused" "$o" "Y2>2 is refused: Y2 cannot go in front of Bartolo: that pile is green."
expect_in "six: collected" "$o" "Bartolo's pile reaches 6: Bartolo collects all 4 face-up cards"
expect_in "take: refused" "$o" "P1>0 is refused: P1 cannot go in front of you: that pile is yellow."
expect_in "take: taken" "$o" "You take all 20 face-up cards and play again."
expect_in "round-end: refused" "$o" "P2>3 is refused: P2 cannot go in front of Basilio: that pile is green."
expect_in "round-end: not asked" "$o" "P2>1 is allowed, but not what this step asks."
expect_in "round-end: piece" "$o" "Basilio collected the most cards, 25, and receives the longest road piece, 15."
expect_in "winner: refused" "$o" "Y2>1 is refused: Y2 cannot go in front of Rosina"
expect_in "winner: won" "$o" "The game is over: you win with the shortest road, 11!"
expect_in "the first game is offered" "$o" "Play a first game now, against 3 bots of level beginner?"
n=$(grep -c "is refused" "$o")
[ "$n" -ge 9 ] && ok || ko "en: $n refusals, expected one per lesson at least"
# The other languages: the editions' words and the reasons translated.
expect_in "fr: lesson" "$tmp/out.fr" "Leçon 3 sur 8 : Les jongleurs"
expect_in "fr: reason" "$tmp/out.fr" "B2 ne peut pas aller devant Basilio : Rosina a déjà le bleu."
expect_in "fr: ring" "$tmp/out.fr" "Vous jouez une ronde"
expect_in "nl: lesson" "$tmp/out.nl" "Les 4 van 8: Rondedansen"
expect_in "nl: reason" "$tmp/out.nl" "B2 mag niet voor Basilio: Rosina heeft al blauw."
expect_in "it: lesson" "$tmp/out.it" "Lezione 4 di 8: I girotondi"
expect_in "it: reason" "$tmp/out.it" "B2 non può andare davanti a Basilio: Rosina ha già il blu."
for lang in fr nl it; do
    expect_not_in "$lang: no English lesson text" "$tmp/out.$lang" "This step is about"
    expect_not_in "$lang: no English task" "$tmp/out.$lang" "Play your yellow 1"
done

# ---- leaving and coming back: quit at lesson 2's second step, then go on there
rm -rf "$XDG_DATA_HOME"
printf 'Y1>2\nR2>0\nB2>1\nquit\n' >"$tmp/part"
learn "quit" 0 "$tmp/part" --plain
expect_in "quit says how to go on" "$tmp/out" "Stopped: 'figaro learn' goes on from here."
expect_in "progress: at" "$XDG_DATA_HOME/figaro/lessons" "at colours 1"
printf 'R2>0\nskip\nquit\n' >"$tmp/rest"
learn "resume" 0 "$tmp/rest" --plain
expect_in "resumed at the step" "$tmp/out" "Going on from lesson 2, step 2"
expect_in "resumed: the task" "$tmp/out" "Play your red 2 where it belongs."
expect_in "skip: next lesson" "$tmp/out" "Lesson 4 of 8: Rings"
expect_in "skip: not done" "$XDG_DATA_HOME/figaro/lessons" "done colours"
expect_not_in "skip: the skipped one is not done" "$XDG_DATA_HOME/figaro/lessons" "done jesters"
printf 'quit\n' >"$tmp/q"
learn "restart" 0 "$tmp/q" --plain --restart
expect_in "restart: lesson 1" "$tmp/out" "Lesson 1 of 8"
learn "--lesson by id" 0 "$tmp/q" --plain --lesson take
expect_in "--lesson take" "$tmp/out" "Lesson 6 of 8: Taking"
learn "--lesson by number" 0 "$tmp/q" --plain --lesson 7
expect_in "--lesson 7" "$tmp/out" "Lesson 7 of 8: The end of a round"
printf 'again\nquit\n' >"$tmp/again"
learn "again" 0 "$tmp/again" --plain --lesson rings
n=$(grep -c "^Lesson 4 of 8" "$tmp/out")
[ "$n" -eq 2 ] && ok || ko "again: lesson shown $n times"
: >"$tmp/empty"
learn "end of input" 0 "$tmp/empty" --plain --lesson rings

# ---- all done: the first real game against the level the lessons name
printf 'done %s\n' turn colours jesters rings six take round-end winner >"$XDG_DATA_HOME/figaro/lessons"
printf 'y\nquit\n' >"$tmp/game"
learn "the first game" 0 "$tmp/game" --plain
expect_in "all done" "$tmp/out" "You have done every lesson."
expect_in "the game starts" "$tmp/out" "Round 1"
[ -s "$XDG_DATA_HOME/figaro/current.fgn" ] || grep -q "nothing is saved" "$tmp/out" && ok ||
    ko "the first game did not start"
grep -q "bot beginner" "$XDG_DATA_HOME/figaro/current.fgn" 2>/dev/null ||
    grep -q "nothing is saved" "$tmp/out" && ok || ko "the first game's bots are not beginner"

# ---- damaged progress: said, then a fresh start
printf 'garbage here\n' >"$XDG_DATA_HOME/figaro/lessons"
learn "damaged progress" 0 "$tmp/q" --plain
expect_in "damaged progress said" "$tmp/err" "line 1 is damaged"
expect_in "damaged progress: lesson 1" "$tmp/out" "Lesson 1 of 8"

# ---- --json: every lesson, in the language asked for
expect_status "--json" 0 "$FIGARO" learn --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["lessons"]) == 8, d; assert d["first_game"]["level"] == "beginner"; assert all(l["position"].startswith("# figaro learn") or "figaro 1" in l["position"] for l in d["lessons"])' "$tmp/out" && ok || ko "--json is not the lessons"
expect_status "--json fr" 0 "$FIGARO" learn --json --lang fr
expect_in "--json fr" "$tmp/out" "\"title\": \"Les jongleurs\""

# ---- --played: each step played out for the browser; no hand but the learner's (R14)
expect_status "--json, the positions" 0 "$FIGARO" learn --json
cp "$tmp/out" "$tmp/positions.json"
expect_status "--played it" 0 "$FIGARO" learn --played --lang it
python3 - "$tmp/positions.json" "$tmp/out" <<'PY' && ok || ko "--played shows a hand it should not, or is not the lessons played out"
import json, sys
pos = json.load(open(sys.argv[1]))["lessons"]
d = json.load(open(sys.argv[2]))
text = open(sys.argv[2]).read()
assert "position" not in text and "\nhand " not in text, "a record with every hand"
assert len(d["lessons"]) == len(pos) == 8
for l, p in zip(d["lessons"], pos):
    # the record's first deal: every hand of the lesson's start
    hands = {int(x.split()[1]): x.split()[2:] for x in p["position"].splitlines() if x.startswith("hand ")}
    for k, s in enumerate(l["steps"]):
        # the step's view, and the view after each move it accepts
        for v in [s["view"]] + [t["after"] for t in s["tries"].values() if t["verdict"] == "ok"]:
            assert v["seat"] == l["you"], (l["id"], k)
            assert set(v) == {"players", "round", "phase", "turn", "king", "seat", "removed", "hand",
                              "hand_sizes", "stacks", "road_pieces", "roads", "road_groups", "piles"}, set(v)
            assert len(v["hand"]) == v["hand_sizes"][l["you"]]
            for seat, roads in enumerate(v["roads"]):
                assert roads is None or seat == l["you"] or v["phase"] == "over"
        if k == 0:
            for seat, h in hands.items():
                if seat != l["you"] and len(h) > 3:
                    assert json.dumps(h) not in text, ("seat %d's hand" % seat, l["id"])
        verdicts = [t["verdict"] for t in s["tries"].values()]
        assert "ok" in verdicts and s["tries"][s["answer"]]["verdict"] == "ok", (l["id"], k)
        assert all(t["why"] for t in s["tries"].values() if t["verdict"] == "refused")
        assert all(t["told"] for t in s["tries"].values() if t["verdict"] == "ok")
    assert any(t["verdict"] == "refused" for s in l["steps"] for t in s["tries"].values()), l["id"]
assert "non può andare davanti a" in text, "the reasons in Italian"
PY

# ---- bad lessons and usage errors
mkdir "$tmp/bad"
cp lessons/*.fgn "$tmp/bad/"
sed 's/^do Y1>2$/do Y1>9/' lessons/lessons.steps >"$tmp/bad/lessons.steps"
learn "bad lessons" 1 "$tmp/q" --plain --lessons "$tmp/bad"
expect_in "bad lessons say where" "$tmp/err" "lessons.steps: line"
expect_in "bad lessons say what" "$tmp/err" "'Y1>9' is not a move"
learn "no lessons" 1 "$tmp/q" --plain --lessons "$tmp/nowhere"
expect_in "no lessons" "$tmp/err" "lessons.steps"
learn "unknown lesson" 2 "$tmp/q" --plain --lesson nosuch
expect_in "unknown lesson" "$tmp/err" "there is no lesson 'nosuch'"
learn "unknown option" 2 "$tmp/q" --frobnicate
learn "extra argument" 2 "$tmp/q" extra
learn "--lang xx" 2 "$tmp/q" --lang xx
expect_status "help learn" 0 "$FIGARO" help learn
expect_in "help learn" "$tmp/out" "usage: figaro learn"
expect_status "figaro --help" 0 "$FIGARO" --help
expect_in "figaro --help names learn" "$tmp/out" "learn"

summary
