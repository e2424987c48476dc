#!/bin/sh
# SPDX-License-Identifier: MIT
# test_play_plain.sh - `figaro play --plain` driven from scripts, the saved
# games and `figaro history`: complete games against random bots, refused
# inputs explained, quit/end of input then --resume, damaged saves, an FEP
# engine seat, and no other player's hand ever shown (R14).
# Run by tests/run.sh with FIGARO set to the sanitizer build. Prints
# "cli: N passed, N failed" last.
FIGARO=${FIGARO:-build/test/figaro}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=C.UTF-8
STORE="$XDG_DATA_HOME/figaro"
BOTS="--bots random,random,random --seed 5 --fast --name Ann"

. "$(dirname "$0")/lib.sh"

# play NAME STATUS INPUTFILE ARGS... : runs `figaro play ARGS` on INPUTFILE
# (at most 60 s), checks the exit status; stdout in $tmp/out, stderr in $tmp/err.
play() {
    name=$1 want=$2 input=$3
    shift 3
    timeout "${limit:-60}" "$FIGARO" play "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else ko "$name: exit $got, expected $want"; tail -n 5 "$tmp/err"; fi
}
# answers N TEXT...: N copies of the lines TEXT..., one per line
answers() {
    n=$1
    shift
    i=0
    while [ "$i" -lt "$n" ]; do printf '%s\n' "$@"; i=$((i + 1)); done
}
answers 400 1 >"$tmp/ones"     # enough for any game: always the first move in the menu

# ---- usage errors: exit 2 and a message
: >"$tmp/empty"
play "--players 7" 2 "$tmp/empty" --plain --players 7
expect_in "--players 7 says why" "$tmp/err" "--players takes 3 to 6"
play "--bots unknown" 2 "$tmp/empty" --plain --bots random,frobnicator,random
expect_in "--bots unknown says why" "$tmp/err" "'frobnicator' is not a bot"
play "--bots count" 2 "$tmp/empty" --plain --players 5 --bots random,random
expect_in "--bots count says why" "$tmp/err" "--bots names 2 opponents but 5 players need 4"
play "--resume --seed" 2 "$tmp/empty" --plain --resume --seed 3
expect_in "--resume --seed says why" "$tmp/err" "--seed cannot change it"
play "--lang xx" 2 "$tmp/empty" --plain --lang xx
play "--pace -1" 2 "$tmp/empty" --plain --pace -1
play "--name with a space" 2 "$tmp/empty" --plain --name "A B"
play "--bots and --level" 2 "$tmp/empty" --plain --bots random,random,random --level easy
play "--fast and --pace" 2 "$tmp/empty" --plain --fast --pace 10
expect_in "--fast and --pace says why" "$tmp/err" "give --fast or --pace, not both"
play "unknown option" 2 "$tmp/empty" --plain --frobnicate
play "extra argument" 2 "$tmp/empty" --plain extra
expect_status "help play" 0 "$FIGARO" help play
expect_in "help play" "$tmp/out" "usage: figaro play"
expect_status "history --help" 0 "$FIGARO" history --help
expect_in "history --help" "$tmp/out" "usage: figaro history"
expect_status "history extra" 2 "$FIGARO" history extra
[ ! -e "$STORE/current.fgn" ] && ok || ko "a usage error saved a game"

# ---- nothing to resume
play "--resume without a save" 1 "$tmp/empty" --plain --resume
expect_in "--resume without a save says so" "$tmp/err" "no saved game to resume"

# ---- a complete game, always answering 1
play "complete game" 0 "$tmp/ones" --plain $BOTS
cp "$tmp/out" "$tmp/game1.out"
expect_in "seed printed" "$tmp/out" "Seed 5: 'figaro play --seed 5'"
expect_in "opponents named" "$tmp/out" "against Rosina (random), Bartolo (random), Basilio (random)"
expect_in "a deal told" "$tmp/out" "Round 1: the cards are dealt, 15 each."
expect_in "a menu" "$tmp/out" " 1. "
expect_in "round 3 ends" "$tmp/out" "Round 3 is over:"
expect_in "road pieces told" "$tmp/out" "receives a road piece of length"
expect_in "the end told" "$tmp/out" "The game is over: "
grep -q '^4\. [A-Za-z]*: \(road [0-9]* (\|no road pieces\)' "$tmp/out" && ok || ko "final ranking: no 4th place"
expect_in "a winner" "$tmp/out" "with the shortest road"
expect_in "filed" "$tmp/out" "The game is kept in the history: $STORE/history/"
if grep -q "$(printf '\033')" "$tmp/out"; then ko "escape codes without --color"; else ok; fi
[ ! -e "$STORE/current.fgn" ] && ok || ko "current.fgn left behind after the end"
hist=$(ls "$STORE"/history/*-5.fgn 2>/dev/null | head -n 1)
[ -n "$hist" ] && ok || ko "no history file *-5.fgn"
expect_status "the history file replays" 0 "$FIGARO" replay --json "$hist"
expect_in "the history file is a finished game" "$tmp/out" '"finished": true'
expect_in "the history file says who played" "$hist" "#! seat 1 bot random"
expect_in "the history file says who played" "$hist" "#! seat 0 human"

# the same seed and answers give the same game
play "same seed again" 0 "$tmp/ones" --plain $BOTS
grep -v "kept in the history" "$tmp/game1.out" >"$tmp/a"
grep -v "kept in the history" "$tmp/out" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || ko "the same seed and answers gave another game"

# R14: no other seat's hand is ever shown. From the record, every hand seats
# 1..3 held during the game (as dealt, then after each of their plays) is
# written as the game writes a hand, [R1][R2]...; none of 5 cards or more may
# appear in the output (shorter ones could be piles). The person's own hands
# must appear (so the check does see hands).
hands_held() {   # hands_held RECORD WANT: WANT "mine" for seat 0's, else the others'
    awk -v want="$2" '
    function show(s,   out, i, k) {
        out = ""
        for (i = 1; i <= nk; i++)
            for (k = 0; k < held[s, order[i]]; k++)
                out = out "[" order[i] "]"
        if (size[s] >= 5 && ((want == "mine") == (s == 0)))
            print out
    }
    BEGIN {
        nk = split("R1 R2 R3 B1 B2 B3 G1 G2 G3 Y1 Y2 Y3 P1 P2 P3 J1 J2 RING", order, " ")
    }
    /^#/ { next }
    $1 == "hand" {
        s = $2
        for (i = 1; i <= nk; i++) held[s, order[i]] = 0
        size[s] = NF - 2
        for (i = 3; i <= NF; i++) held[s, toupper($i)]++
        show(s)
        next
    }
    $1 ~ /^[0-9]$/ && NF == 2 {
        s = $1
        c = toupper($2)
        if (c == "TAKE") next
        sub(/>.*/, "", c)
        held[s, c]--
        size[s]--
        show(s)
    }' "$1" | sort -u
}
hands_held "$hist" others >"$tmp/others"
hands_held "$hist" mine >"$tmp/mine"
[ "$(wc -l <"$tmp/others")" -gt 60 ] && ok || ko "test set-up: few hands in the record"
if grep -qF -f "$tmp/others" "$tmp/game1.out"; then
    ko "R14: another seat's hand appears in the output:"
    grep -F -f "$tmp/others" "$tmp/game1.out" | head -n 3
else ok; fi
sed -n 's/^hand [1-9] //p' "$hist" >"$tmp/dealt"   # the record's own words, too
[ "$(wc -l <"$tmp/dealt")" -eq 9 ] && ok || ko "test set-up: not 9 hand lines for seats 1-3"
if grep -qF -f "$tmp/dealt" "$tmp/game1.out"; then ko "R14: a dealt hand line appears"; else ok; fi
grep -F -f "$tmp/mine" "$tmp/game1.out" | grep -c '^Your hand: ' >"$tmp/count"
[ "$(cat "$tmp/count")" -gt 10 ] && ok || ko "the person's hands were not found in the output"
expect_not_in "R14: no stack counts without --open" "$tmp/game1.out" "; stack "

# ---- the score sheet: `score` (or `s`) prints the full-screen sheet's lines,
# with what R14 hides hidden the same way (host/sheet.h): during play the
# person's own numbers, the others' as marks; all of them with --open.
printf 'help\nquit\n' >"$tmp/help.in"
play "help" 0 "$tmp/help.in" --plain $BOTS
expect_in "help names score" "$tmp/out" "'score' the score sheet"
rm -f "$STORE/current.fgn"
{ answers 40 1; printf 'score\ns\nquit\n'; } >"$tmp/sheet.in"
play "score sheet" 0 "$tmp/sheet.in" --plain $BOTS
cp "$tmp/out" "$tmp/sheet.out"
grep -A 6 '^Score sheet$' "$tmp/sheet.out" | tail -n 7 >"$tmp/sheet1"
grep -c '^Score sheet$' "$tmp/sheet.out" | grep -qx 2 && ok || ko "score and s: not two sheets"
grep -q '^  player  *Round 1  *Round 2  *Round 3  *road$' "$tmp/sheet1" && ok || ko "sheet: no heading"
grep -q '^  Ann  *[0-9][0-9]*  *\([0-9][0-9]*\|-\)  *?  *[0-9][0-9]*$' "$tmp/sheet1" && ok \
    || { ko "sheet: the person's round 1, the current round and road"; cat "$tmp/sheet1"; }
grep -E '^  (Rosina|Bartolo|Basilio) ' "$tmp/sheet1" >"$tmp/others_rows"
[ "$(wc -l <"$tmp/others_rows")" -eq 3 ] && ok || ko "sheet: not three other rows"
if grep -q '[0-9]' "$tmp/others_rows"; then ko "R14: the sheet shows another seat's number:"; cat "$tmp/others_rows"
else ok; fi
grep -q '▮' "$tmp/others_rows" && ok || ko "sheet: no other seat's piece shown as a block"
expect_in "sheet: the R14 note" "$tmp/sheet.out" "During play the rules (R14) hide the others'"
# the same game with --open: every number, the person's the same as above
rm -f "$STORE/current.fgn"
play "score sheet, --open" 0 "$tmp/sheet.in" --plain $BOTS --open
grep -A 6 '^Score sheet$' "$tmp/out" | tail -n 7 >"$tmp/sheet2"
grep -E '^  (Rosina|Bartolo|Basilio)  *[0-9]+  *([0-9]+|-)  *[0-9]+  .*[0-9]+$' "$tmp/sheet2" \
    | wc -l | grep -qx 3 && ok || { ko "--open: the sheet shows every number"; cat "$tmp/sheet2"; }
[ "$(grep '^  Ann ' "$tmp/sheet2" | sed 's/  */ /g' | cut -d' ' -f2-4)" = \
  "$(grep '^  Ann ' "$tmp/sheet1" | sed 's/  */ /g' | cut -d' ' -f2-4)" ] && ok \
    || ko "--open and not: the person's numbers differ"
expect_not_in "--open: no R14 note" "$tmp/out" "During play the rules (R14) hide the others'"
rm -f "$STORE/current.fgn"

# ---- the review at the end: offered, done on "y" as `figaro review` prints
# it; the end of the input or another answer ("1" above) does nothing
expect_in "review offered" "$tmp/game1.out" "Review your moves? (y/n) 1"
expect_not_in "review: another answer does nothing" "$tmp/game1.out" "Review of "
nmoves=$(grep -c '^Your move (' "$tmp/game1.out")
answers "$nmoves" 1 >"$tmp/upto"
play "review: end of input" 0 "$tmp/upto" --plain $BOTS
tail -n 1 "$tmp/out" | grep -qx 'Review your moves? (y/n) ' && ok || { ko "review: the question is not last"; tail -n 3 "$tmp/out"; }
expect_not_in "review: the end of the input does nothing" "$tmp/out" "Review of "
{ answers "$nmoves" 1; echo y; } >"$tmp/review.in"
# (the review's own search: two of 20,000 iterations a move, seconds under the sanitizers)
limit=600 play "review: y" 0 "$tmp/review.in" --plain $BOTS
expect_in "review: y reviews" "$tmp/out" "Review of Ann (seat 0), 4 players, each move against ismcts:iters="
grep -Eq '^[0-9]+ blunders?, [0-9]+ mistakes?, [0-9]+ inaccurac(y|ies) in [0-9]+ moves\.' "$tmp/out" && ok \
    || { ko "review: no summary"; tail -n 5 "$tmp/out"; }

# ---- refused inputs, explained. The first table tells what to try: a card
# not in hand, a colour card where the colour rule (R6) forbids it.
printf 'quit\n' >"$tmp/quit"
printf '1\nquit\n' >"$tmp/onequit"
# A game left before the person's first move is not kept
nhist=$(ls "$STORE/history" | wc -l)
play "quit at once" 0 "$tmp/quit" --plain $BOTS
expect_in "quit at once saves nothing" "$tmp/out" "You had not played yet: nothing is saved."
[ ! -e "$STORE/current.fgn" ] && ok || ko "quit at once left a current.fgn"
[ "$(ls "$STORE/history" | wc -l)" -eq "$nhist" ] && ok || ko "quit at once filed a game"
# one move, then quit (seed 7: the table then refuses a colour card somewhere)
play "first look" 0 "$tmp/onequit" --plain --bots random,random,random --seed 7 --fast --name Ann
expect_in "quit saves" "$tmp/out" "The game is saved. 'figaro play --resume' continues it."
[ -e "$STORE/current.fgn" ] && ok || ko "quit left no current.fgn"
# the table the person quit at: the last one shown
awk '/^Round [0-9]*\. Your turn/ { t = "" } { t = t $0 "\n" } END { printf "%s", t }' \
    "$tmp/out" >"$tmp/table"
cp "$tmp/table" "$tmp/out"
hand=$(sed -n 's/^Your hand: //p' "$tmp/out" | head -n 1)
missing=""
for c in R1 R2 R3 B1 B2 B3 G1 G2 G3 Y1 Y2 Y3 P1 P2 P3 J1 J2; do
    case "$hand" in *"[$c]"*) ;; *) missing=$c; break ;; esac
done
colour_bad=""
for c in $(printf '%s' "$hand" | tr '[]' '  '); do
    case "$c" in [RBGYP][123]) ;; *) continue ;; esac
    for t in 0 1 2 3; do
        if ! grep -q "^ *[0-9]*\. $c>$t " "$tmp/out"; then colour_bad="$c>$t"; break 2; fi
    done
done
[ -n "$missing" ] && ok || ko "test set-up: the hand holds every kind: $hand"
[ -n "$colour_bad" ] && ok || ko "test set-up: no colour card is refused anywhere in the first table"
{
    printf '%s\n' "$missing>0" "$colour_bad" hello 0 99 R2 "J1>9" take take help rules \
        "G2>2 extra" hint
    answers 400 'what?' 1
} >"$tmp/mixed"
play "mixed input, resumed" 0 "$tmp/mixed" --plain --resume
expect_in "resume says so" "$tmp/out" "Resuming the saved game."
# Refusals in a player's words, not the engine's
expect_in "card not in hand" "$tmp/out" "$missing>0 is refused: You have no $missing in your hand."
expect_in "colour rule" "$tmp/out" "$colour_bad is refused: ${colour_bad%>*} cannot go in front of "
expect_not_in "no seat numbers in refusals" "$tmp/out" "seat 0 cannot play"
expect_in "garbage" "$tmp/out" "'hello' is not a move."
expect_in "menu number 0" "$tmp/out" "There is no move 0 in the menu: choose 1 to"
expect_in "menu number 99" "$tmp/out" "There is no move 99 in the menu"
expect_in "a card without a seat" "$tmp/out" "'R2' needs a player: type R2>N"
expect_in "no such seat" "$tmp/out" "'J1>9' names no seat: the seats are 0 to 3."
expect_in "take on an empty table" "$tmp/out" "take is refused: There are no face-up cards to take."
# Help lists the commands (the rules on request), a hint,
# one move a line
sed -n '/^Your move.*: help$/,/^Your move/p' "$tmp/out" >"$tmp/help"
expect_in "help lists the commands" "$tmp/help" "Commands: a move in FGN"
expect_not_in "help is not the rules" "$tmp/help" "the rules in brief"
expect_in "rules prints the rules" "$tmp/out" "Figaro: the rules in brief"
expect_in "G2>2 extra" "$tmp/out" "'G2>2 extra': type one move at a time, nothing after it (e.g. G2>2)."
expect_in "hint" "$tmp/out" "Hint: "
grep -q "^Hint: .*(type \(take\|RING\|[A-Z][0-9]>[0-3]\) to play it)$" "$tmp/out" && ok ||
    ko "the hint says what to type"
expect_in "mixed input reaches the end" "$tmp/out" "The game is over: "

# ---- quit in the middle, then --resume goes on with the same game
answers 12 1 >"$tmp/some"
printf 'quit\n' >>"$tmp/some"
play "quit mid-game" 0 "$tmp/some" --plain --bots random,random,random --seed 77 --fast --name Ann
sed '/^#/d' "$STORE/current.fgn" >"$tmp/saved.fgn"
moves_saved=$(grep -c '^[0-9] ' "$tmp/saved.fgn")
[ "$moves_saved" -gt 12 ] && ok || ko "the saved game holds $moves_saved moves"
play "resume to the end" 0 "$tmp/ones" --plain --resume
expect_in "resumed game ends" "$tmp/out" "The game is over: "
expect_in "resumed game keeps the names" "$tmp/out" "Ann (you, seat 0) against Rosina (random)"
expect_in "resumed game keeps the seed" "$tmp/out" "Seed 77:"
hist77=$(ls "$STORE"/history/*-77.fgn | head -n 1)
sed '/^#/d' "$hist77" | head -c "$(wc -c <"$tmp/saved.fgn")" >"$tmp/prefix.fgn"
cmp -s "$tmp/saved.fgn" "$tmp/prefix.fgn" && ok || ko "the finished game does not continue the saved one"

# ---- the end of the input saves too; `log` tells the game so far after resuming
answers 5 1 >"$tmp/five"
play "end of input" 0 "$tmp/five" --plain --bots random,random,random --seed 78 --fast
expect_in "end of input saves" "$tmp/out" "End of input: the game is saved."
printf 'log\nquit\n' >"$tmp/log"
play "log after resume" 0 "$tmp/log" --plain --resume
expect_in "log tells the deal" "$tmp/out" "Round 1: the cards are dealt, 15 each."
expect_in "log tells the person's moves" "$tmp/out" "You play "

# ---- a new game sets an unfinished one aside instead of overwriting it
play "new game over a saved one" 0 "$tmp/onequit" --plain --bots random,random,random --seed 79 --fast
expect_in "set aside" "$tmp/out" "The unfinished game you had saved is kept as $STORE/history/"
ls "$STORE"/history/*-78-unfinished.fgn >/dev/null 2>&1 && ok || ko "no *-78-unfinished.fgn"

# ---- damaged saves: exit 1 and a message, never a crash
cp "$STORE/current.fgn" "$tmp/good.fgn"
printf 'this is not a game\n' >"$STORE/current.fgn"
play "garbage save" 1 "$tmp/ones" --plain --resume
expect_in "garbage save says where" "$tmp/err" "current.fgn:1:"
sed '/^hand 1 /q' "$tmp/good.fgn" | sed '$ s/ [^ ]* [^ ]*$//' >"$STORE/current.fgn"   # a deal cut short
play "cut save" 1 "$tmp/ones" --plain --resume
expect_in "cut save says where" "$tmp/err" "current.fgn:"
sed 's/^#! seat 2 bot random$/#! seat 2 robot/' "$tmp/good.fgn" >"$STORE/current.fgn"
play "bad seat line" 1 "$tmp/ones" --plain --resume
expect_in "bad seat line says why" "$tmp/err" "expected '#! seat N human' or '#! seat N bot SPEC'"
grep -v '^#! seat 3' "$tmp/good.fgn" >"$STORE/current.fgn"
play "missing seat line" 1 "$tmp/ones" --plain --resume
expect_in "missing seat line says why" "$tmp/err" "seat 3 is not described"
sed 's/^#! seat 1 bot random$/#! seat 1 bot nonsense/' "$tmp/good.fgn" >"$STORE/current.fgn"
play "unknown bot in save" 1 "$tmp/ones" --plain --resume
expect_in "unknown bot in save says why" "$tmp/err" "'nonsense' is not a bot"
head -c 3000 /dev/urandom >"$STORE/current.fgn"
play "random bytes" 1 "$tmp/ones" --plain --resume
# Without --resume too, a damaged save stops the game at once, and
# stays where it is: neither offered, nor quietly filed by a new game
cp "$STORE/current.fgn" "$tmp/damaged.fgn"
nhist=$(ls "$STORE/history" | wc -l)
play "damaged save, plain play" 1 "$tmp/ones" --plain
expect_in "damaged save, plain play says so" "$tmp/err" "Move the file away (or delete it)"
play "damaged save, a new game" 1 "$tmp/ones" --plain --seed 9 --bots random
expect_in "damaged save, a new game says so" "$tmp/err" "current.fgn"
cmp -s "$STORE/current.fgn" "$tmp/damaged.fgn" && ok || ko "the damaged save was changed"
[ "$(ls "$STORE/history" | wc -l)" -eq "$nhist" ] && ok || ko "the damaged save was filed"
cp "$tmp/good.fgn" "$STORE/current.fgn"
play "the good save still resumes" 0 "$tmp/quit" --plain --resume

# a save of a finished game (a crash before it was filed) is filed at once
cp "$hist" "$STORE/current.fgn"
play "resume a finished game" 0 "$tmp/empty" --plain --resume
expect_in "resume a finished game" "$tmp/out" "The saved game was already over."
expect_in "resume a finished game tells the end" "$tmp/out" "The game is over: "
expect_not_in "resume a finished game tells only the end" "$tmp/out" "Round 3 is over:"
expect_in "resume a finished game files it" "$tmp/out" "The game is kept in the history"
[ ! -e "$STORE/current.fgn" ] && ok || ko "a finished save stayed current"
cp "$tmp/good.fgn" "$STORE/current.fgn"

# ---- figaro history
expect_status "history" 0 "$FIGARO" history
expect_in "history lists the game" "$tmp/out" "$hist"
expect_in "history lists names" "$tmp/out" "Ann Rosina Bartolo Basilio"
expect_in "history marks unfinished games" "$tmp/out" "(unfinished)"
expect_status "history --json" 0 "$FIGARO" history --json
expect_in "history --json" "$tmp/out" "\"file\": \"$hist\""
expect_in "history --json finished" "$tmp/out" '"finished": true'
printf 'figaro 1\nplayers 9\n' >"$STORE/history/20000101-000000-1.fgn"
expect_status "history with a damaged file" 0 "$FIGARO" history
expect_in "history shows the damage" "$tmp/out" "20000101-000000-1.fgn:2:"
XDG_DATA_HOME="$tmp/empty-store" expect_status "history when empty" 0 "$FIGARO" history
expect_in "history when empty says so" "$tmp/out" "No games yet"

# ---- a saved game is offered again: a plain `figaro play`
# over a saved game asks first; `figaro history` numbers the unfinished games
# and `figaro play --resume N` continues one
(
    export XDG_DATA_HOME="$tmp/offer"
    S="$XDG_DATA_HOME/figaro"
    printf '1\n1\nquit\n' >"$tmp/two"
    play "offer: a game to save" 0 "$tmp/two" --plain --bots random --fast --name Ann
    printf 'y\nquit\n' >"$tmp/yes"
    play "offer: continue" 0 "$tmp/yes" --plain
    expect_in "offer: the question" "$tmp/out" "Continue your saved game?"
    expect_in "offer: what the saved game is" "$tmp/out" "Round 1 of 3, Ann against Rosina, Bartolo and Basilio, "
    expect_in "offer: y continues it" "$tmp/out" "Resuming the saved game."
    [ ! -d "$S/history" ] && ok || ko "offer: y set nothing aside"
    printf 'maybe\nn\n1\nquit\n' >"$tmp/no"
    play "offer: a new game" 0 "$tmp/no" --plain --fast
    expect_in "offer: other answers are asked again" "$tmp/out" "Please answer y or n."
    expect_in "offer: n sets it aside" "$tmp/out" "The unfinished game you had saved is kept as $S/history/"
    expect_not_in "offer: n starts a new game" "$tmp/out" "Resuming the saved game."
    play "offer: end of input" 0 "$tmp/empty" --plain
    expect_in "offer: end of input changes nothing" "$tmp/out" "nothing was changed"
    expect_status "offer: history numbers the games" 0 "$FIGARO" history
    expect_in "offer: history has a number column" "$tmp/out" "1  "
    expect_in "offer: history says how to resume" "$tmp/out" "'figaro play --resume N' continues the unfinished game number N."
    expect_in "offer: history tells the game in progress" "$tmp/out" "A game is in progress"
    grep -q "^1  .*Ann Rosina Bartolo Basilio .*(unfinished)" "$tmp/out" && ok || { ko "offer: game 1 is Ann's unfinished game"; cat "$tmp/out"; }
    play "resume N" 0 "$tmp/quit" --plain --resume 1
    expect_in "resume N continues Ann's game" "$tmp/out" "Ann (you, seat 0) against Rosina (random)"
    expect_in "resume N sets the game in progress aside" "$tmp/out" "The game you had in progress is kept in the history: $S/history/"
    play "resume=N" 0 "$tmp/quit" --plain --resume=1
    expect_in "resume=N works too" "$tmp/out" "Resuming the saved game."
    play "resume N too large" 1 "$tmp/quit" --plain --resume 9
    expect_in "resume N too large says why" "$tmp/err" "there is no game 9"
    play "resume N not a number" 2 "$tmp/quit" --plain --resume x1
    expect_in "resume N not a number says why" "$tmp/err" "--resume takes the number of a game"
    expect_status "help play tells --resume N" 0 "$FIGARO" help play
    expect_in "help play tells --resume N" "$tmp/out" "--resume [N]"
    expect_status "help history tells --resume N" 0 "$FIGARO" help history
    expect_in "help history tells --resume N" "$tmp/out" "figaro play --resume N"
    echo "$pass $fail" >"$tmp/counts"
)
read p f <"$tmp/counts" && pass=$p && fail=$f

# ---- no cheating: a game nobody gave a seed keeps it
# secret until the end; its save is sealed (no hand, no seed in clear), and
# neither `figaro replay` nor the history tells them; at the end the seed is
# told, and it deals that very game
(
    export XDG_DATA_HOME="$tmp/secret"
    S="$XDG_DATA_HOME/figaro"
    answers 6 1 >"$tmp/six"
    printf 'quit\n' >>"$tmp/six"
    play "secret: a game without a seed" 0 "$tmp/six" --plain --bots random --fast --name Ann
    expect_not_in "secret: no seed during play" "$tmp/out" "eed"
    if grep -q '^ *\(seed\|hand\) ' "$S/current.fgn"; then ko "secret: the save holds hands or the seed in clear"; else ok; fi
    expect_in "secret: the save is sealed" "$S/current.fgn" "#= sealed 1 "
    expect_in "secret: the save still says who plays" "$S/current.fgn" "#! seat 1 bot random"
    [ "$(stat -c %a "$S/key")" = 600 ] && ok || ko "secret: the key is the owner's alone"
    expect_status "secret: replay refuses a sealed game" 1 "$FIGARO" replay "$S/current.fgn"
    expect_in "secret: replay says why" "$tmp/err" "sealed until it is over"
    expect_status "secret: review refuses a sealed game" 1 "$FIGARO" review "$S/current.fgn"
    expect_in "secret: review says why" "$tmp/err" "figaro review: $S/current.fgn: this game is still being played, and sealed"
    expect_status "secret: history --json" 0 "$FIGARO" history --json
    cp "$S/current.fgn" "$tmp/sealed.fgn"
    play "secret: a new game sets it aside" 0 "$tmp/quit" --plain --bots random --fast --seed 4
    aside=$(ls "$S"/history/*-unfinished.fgn)
    case "$aside" in *-unfinished.fgn) ok ;; *) ko "secret: set aside: $aside" ;; esac
    expect_in "secret: still sealed in the history" "$aside" "#= sealed 1 "
    expect_status "secret: history --json hides the seed" 0 "$FIGARO" history --json
    expect_in "secret: history --json hides the seed" "$tmp/out" '"seed": null'
    play "secret: resume the sealed game to its end" 0 "$tmp/ones" --plain --resume 1
    expect_in "secret: resumed" "$tmp/out" "Ann (you, seat 0) against Rosina (random)"
    expect_in "secret: the end tells the seed" "$tmp/out" "' deals the same cards again."
    seed=$(sed -n "s/^Seed \([0-9]*\): 'figaro play --seed .*/\1/p" "$tmp/out")
    hist=$(ls "$S"/history/*-"$seed".fgn 2>/dev/null | head -n 1)
    [ -n "$seed" ] && [ -n "$hist" ] && ok || ko "secret: the finished game is filed with its seed '$seed'"
    expect_in "secret: filed in clear" "$hist" "seed $seed"
    "$FIGARO" random-game --players 4 --seed "$seed" | grep '^hand' >"$tmp/dealt-by-seed"
    grep '^hand' "$hist" >"$tmp/dealt-in-game"
    cmp -s "$tmp/dealt-by-seed" "$tmp/dealt-in-game" && ok || ko "secret: the seed told deals that game"
    # a sealed save whose key is gone, or altered, is refused with a reason
    cp "$tmp/sealed.fgn" "$S/current.fgn"
    mv "$S/key" "$tmp/key"
    play "secret: no key" 1 "$tmp/quit" --plain --resume
    expect_in "secret: no key says so" "$tmp/err" "is missing"
    mv "$tmp/key" "$S/key"
    awk '!done && /^#= [0-9a-f]/ { c = substr($2, 1, 1); $2 = (c == "0" ? "1" : "0") substr($2, 2); done = 1 }
         { print }' "$tmp/sealed.fgn" >"$S/current.fgn"
    play "secret: altered" 1 "$tmp/quit" --plain --resume
    expect_in "secret: altered says so" "$tmp/err" "sealed record is damaged"
    # a sealed save cut in half: refused at once, kept, never filed
    head -c $(($(wc -c <"$tmp/sealed.fgn") / 2)) "$tmp/sealed.fgn" >"$S/current.fgn"
    cp "$S/current.fgn" "$tmp/halved.fgn"
    nhist=$(ls "$S/history" | wc -l)
    play "secret: a halved sealed save" 1 "$tmp/ones" --plain
    expect_in "secret: a halved sealed save says so" "$tmp/err" "sealed record is damaged"
    play "secret: a halved sealed save, a new game" 1 "$tmp/ones" --plain --seed 3
    cmp -s "$S/current.fgn" "$tmp/halved.fgn" && ok || ko "secret: the halved save was changed"
    [ "$(ls "$S/history" | wc -l)" -eq "$nhist" ] && ok || ko "secret: the halved save was filed"
    cp "$tmp/sealed.fgn" "$S/current.fgn"
    play "secret: the sealed save resumes" 0 "$tmp/quit" --plain --resume
    echo "$pass $fail" >"$tmp/counts"
)
read p f <"$tmp/counts" && pass=$p && fail=$f

# ---- other set-ups: 3 and 6 players, --open, --color, an FEP engine seat
rm -f "$STORE/current.fgn"
play "3 players" 0 "$tmp/ones" --plain --players 3 --level random --seed 3 --fast --open
expect_in "3 players end" "$tmp/out" "The game is over: "
expect_in "3 players: the colour left out is told" "$tmp/out" "With three players the "
expect_in "--open shows stacks" "$tmp/out" "; stack "
play "6 players, colour" 0 "$tmp/ones" --plain --players 6 --bots random --seed 6 --fast --color
expect_in "6 players end" "$tmp/out" "The game is over: "
if grep -q "$(printf '\033')\[31m" "$tmp/out"; then ok; else ko "--color gave no ANSI colour"; fi
# The history's columns hold six names, and say your place
expect_status "history with six names" 0 "$FIGARO" history
col=$(head -n 1 "$tmp/out" | awk '{ print index($0, "file") }')
bad=$(awk -v col="$col" 'NR > 1 && /^ *[0-9]/ && / [1-6] of |unfinished/ { if (index($0, " /") + 1 != col) print }' "$tmp/out")
[ -n "$col" ] && [ -z "$bad" ] && ok || { ko "history: the file column is aligned at $col:"; echo "$bad"; }
grep -q "Ann Rosina Bartolo Basilio Don_Figaro\|[A-Za-z]* [A-Za-z]* [A-Za-z]* [A-Za-z]* [A-Za-z]* [A-Za-z]*  " "$tmp/out" && ok ||
    ko "history: six names in the players column"
expect_in "history: your place" "$tmp/out" "your place"
grep -q " [1-6] of [3-6] " "$tmp/out" && ok || ko "history: your place in a finished game"
expect_status "history --json: your place" 0 "$FIGARO" history --json
expect_in "history --json: your place" "$tmp/out" '"place": '
ln -s "$(cd "$(dirname "$FIGARO")" && pwd)/$(basename "$FIGARO")" "$tmp/fig"
play "an engine seat" 0 "$tmp/ones" --plain --bots "cmd:$tmp/fig engine --bot random,random,random" \
    --seed 8 --fast
expect_in "the engine seat is named" "$tmp/out" "(cmd:$tmp/fig engine --bot random)"
expect_in "a game with an engine ends" "$tmp/out" "The game is over: "
expect_not_in "no engine fault" "$tmp/err" "fault"
hist8=$(ls "$STORE"/history/*-8.fgn | head -n 1)
expect_in "the engine seat is recorded" "$hist8" "#! seat 1 bot cmd:$tmp/fig engine --bot random"

play "one bot spec for every seat" 0 "$tmp/quit" --plain --bots random --seed 10 --fast
expect_in "one bot spec for every seat" "$tmp/out" \
    "against Rosina (random), Bartolo (random), Basilio (random)."
play "--bots sets the number of players" 0 "$tmp/quit" --plain --bots random,greedy --seed 11
expect_in "--bots sets the number of players" "$tmp/out" \
    "against Rosina (random), Bartolo (greedy)."
play "--bots keeps ismcts options" 0 "$tmp/quit" --plain --seed 12 \
    --bots ismcts:iters=10,threads=1,random,greedy
expect_in "--bots keeps ismcts options" "$tmp/out" \
    "against Rosina (ismcts:iters=10,threads=1), Bartolo (random), Basilio (greedy)."

# ---- not a terminal without --plain: plain lines, with a note
play "no terminal" 0 "$tmp/quit" --bots random,random,random --seed 9 --fast
expect_in "no terminal note" "$tmp/err" "plain lines (--plain)"
expect_in "no terminal plays plain" "$tmp/out" "Your moves:"

# ---- a start nobody played in is dropped, not filed; `figaro
# history --delete N` and `--prune` clear the history
(
    export XDG_DATA_HOME="$tmp/cull"
    S="$XDG_DATA_HOME/figaro"
    play "cull: a game to keep" 0 "$tmp/onequit" --plain --bots random --seed 11 --fast --name Ann
    cp "$S/current.fgn" "$tmp/kept.fgn"
    grep -v '^[0-9] [^ ]*$' "$tmp/kept.fgn" >"$tmp/nomove.fgn"   # the deal, no move
    expect_status "cull: a save without a move is a game" 0 "$FIGARO" replay "$tmp/nomove.fgn"
    cp "$tmp/nomove.fgn" "$S/current.fgn"
    play "cull: a new game over a save without a move" 0 "$tmp/onequit" --plain --bots random \
        --seed 12 --fast
    expect_not_in "cull: the save without a move is not kept" "$tmp/out" "is kept as"
    [ ! -d "$S/history" ] && ok || ko "cull: the save without a move was filed"
    mkdir -p "$S/history"
    cp "$tmp/kept.fgn" "$S/history/20260101-000000-11-unfinished.fgn"
    cp "$tmp/nomove.fgn" "$S/history/20260102-000000-11-unfinished.fgn"
    printf 'not a game\n' >"$S/history/20260103-000000-unfinished.fgn"
    expect_status "cull: --prune" 0 "$FIGARO" history --prune
    expect_in "cull: --prune names what it deletes" "$tmp/out" \
        "Deleted $S/history/20260102-000000-11-unfinished.fgn"
    expect_in "cull: --prune counts" "$tmp/out" \
        "1 unfinished game in which you had not played was deleted."
    [ -e "$S/history/20260101-000000-11-unfinished.fgn" ] && ok || ko "cull: --prune deleted a game played in"
    [ -e "$S/history/20260103-000000-unfinished.fgn" ] && ok || ko "cull: --prune deleted a damaged file"
    [ ! -e "$S/history/20260102-000000-11-unfinished.fgn" ] && ok || ko "cull: --prune kept the game without a move"
    expect_status "cull: --delete out of the list" 1 "$FIGARO" history --delete 9
    expect_in "cull: --delete out of the list says why" "$tmp/err" "there is no game 9: 'figaro history' lists 2 games"
    expect_status "cull: --delete 2" 0 "$FIGARO" history --delete 2
    [ ! -e "$S/history/20260103-000000-unfinished.fgn" ] && ok || ko "cull: --delete 2 kept game 2"
    [ -e "$S/history/20260101-000000-11-unfinished.fgn" ] && ok || ko "cull: --delete 2 deleted game 1"
    expect_status "cull: --delete x" 2 "$FIGARO" history --delete x
    expect_status "cull: --delete with --prune" 2 "$FIGARO" history --delete 1 --prune
    expect_status "cull: --prune with --json" 2 "$FIGARO" history --prune --json
    expect_status "cull: --delete needs N" 2 "$FIGARO" history --delete
    expect_status "cull: the list after" 0 "$FIGARO" history
    grep -c '(unfinished)' "$tmp/out" | grep -qx 1 && ok || ko "cull: one game left"
    echo "$pass $fail" >"$tmp/counts"
)
read p f <"$tmp/counts" && pass=$p && fail=$f

summary
