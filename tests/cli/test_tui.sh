#!/bin/sh
# SPDX-License-Identifier: MIT
# test_tui.sh - the full-screen game (`figaro play`) driven for real through
# tmux: start screen, table, a card played and seen on the table, the help,
# the hint, the log, quitting (the game is saved), --resume showing the same
# game, a terminal too small, the quit question over a round's summary, and
# no other player's hand on the screen (R14).
# Run by tests/run.sh with FIGARO set to the sanitizer build. Prints
# "cli: N passed, N failed" last; skips (0 passed) when tmux is missing.
FIGARO=${FIGARO:-build/test/figaro}
case $FIGARO in /*) ;; *) FIGARO=$(pwd)/$FIGARO ;; esac
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed: the full-screen tests are skipped"
    echo "cli: 0 passed, 0 failed"
    exit 0
fi

tmp=$(mktemp -d)
sock="$tmp/tmux.sock"   # a server of our own, away from the user's tmux
tm() { tmux -S "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
data="$tmp/data"
mkdir -p "$data"
# a session that lives as long as the test, so that killing the others never
# leaves the server empty (it would exit, racing with the next new-session)
tm new-session -d -s keep "sleep 600"

# start NAME COLS LINES ARGS... : runs `figaro play ARGS` in a detached
# session; when it exits the pane says "EXITED <status>" and stays.
start() {
    name=$1 cols=$2 lines=$3
    shift 3
    tm new-session -d -s "$name" -x "$cols" -y "$lines" \
        "env XDG_DATA_HOME='$data' LC_ALL=C.UTF-8 LANG=C.UTF-8 LANGUAGE= TERM=screen \
         '$FIGARO' play $* 2>'$tmp/$name.err'; echo EXITED \$?; sleep 60"
}
screen() { tm capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null; }
# wait_for NAME TEXT [TENTHS] : polls the screen until it shows TEXT (fixed
# string); 10 s by default. The screen stays in $tmp/screen.
wait_for() {
    i=0
    while [ "$i" -lt "${3:-100}" ]; do
        screen "$1"
        grep -qF -- "$2" "$tmp/screen" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# expect NAME TEXT WHAT : waits for TEXT and counts a pass or a failure.
expect() {
    if wait_for "$1" "$2"; then ok; else ko "$3: '$2' not on the screen:"; cat "$tmp/screen"; fi
}
keys() { tm send-keys -t "$@"; }
# the lines above "What happened": the table, the hand, the prompt
upper() { sed '/What happened/,$d' "$tmp/screen"; }

# ---- a game: seed 3 gives the person (seat 0) the King, so it starts at once
start g1 100 32 --seed 3 --name Ann --bots random,random,random --pace 3000
expect g1 "Figaro: a new game" "start screen"
expect g1 "random" "start screen shows the --bots levels"
keys g1 Enter
expect g1 "Your turn:" "the table after Enter"
upper >"$tmp/table0"
for text in "# player" "0 Ann" "Rosina" "Bartolo" "Basilio" "♔" "Your hand, 15 cards:" \
            "Road pieces this round"; do
    if grep -qF -- "$text" "$tmp/table0"; then ok; else ko "table shows '$text'"; fi
done
if grep -q "0 Ann *♔" "$tmp/table0"; then ok; else ko "the King is at Ann's row"; fi
# the README's sample screen has the real keys bar (it had drifted)
readme_keys=$(sed -n '/^ ←→ card/p' "$(dirname "$0")/../../README.md" | head -n 1)
if [ -n "$readme_keys" ] && grep -qxF -- "$readme_keys" "$tmp/screen"; then ok
else ko "the README's keys bar '$readme_keys' is not the game's:"; tail -n 1 "$tmp/screen"; fi

# R14: the hand on the screen is seat 0's as dealt, and nothing else shows
# cards but the face-up ones (none yet) and the one card named in the prompt.
# (the deal: seed 3's, as `figaro random-game` deals it; nothing is
# saved before the person's first move)
if [ ! -e "$data/figaro/current.fgn" ]; then ok; else ko "a game was saved before Ann played"; fi
save="$tmp/deal3.fgn"
"$FIGARO" random-game --players 4 --seed 3 >"$save"
render() {   # the hand line as the game draws it: equal cards together
    sed -n "s/^hand $1 //p" "$save" | head -n 1 |   # round 1's
        awk '{ s = "  "; for (i = 1; i <= NF; i++) s = s (i > 1 && $i != $(i-1) ? " " : "") "[" $i "]"; print s }'
}
mine=$(render 0)
if [ -n "$mine" ] && grep -qxF -- "$mine" "$tmp/table0"; then ok
else ko "the person's hand '$mine' is on the screen"; cat "$tmp/table0"; fi
cards=$(grep -o '\[[RBGYPJ][123]\]\|\[RING\]' "$tmp/table0" | wc -l)
if [ "$cards" -eq 16 ]; then ok
else ko "16 cards above the log (15 in hand, 1 in the prompt), not $cards"; fi
for s in 1 2 3; do
    theirs=$(render $s)
    if [ -n "$theirs" ] && ! grep -qF -- "$theirs" "$tmp/screen"; then ok
    else ko "seat $s's hand is not on the screen"; fi
done

# help, and back
keys g1 '?'
expect g1 "Help: keys and rules" "? opens the help"
expect g1 "the rules in brief" "the help holds the rules"
keys g1 NPage
keys g1 Escape
if wait_for g1 "Your turn:" && ! grep -qF "Help: keys" "$tmp/screen"; then ok
else ko "Esc closes the help"; fi

# hint (the max level's search, in a thread: seconds under the sanitizers)
keys g1 h
if wait_for g1 "Hint: " 300; then ok; else ko "h gives a hint: 'Hint: ' not on the screen:"; cat "$tmp/screen"; fi

# play: the first card of the hand, in front of the seat it goes to by default
first=$(sed -n 's/^hand 0 \([A-Z0-9]*\).*/[\1]/p' "$save")
keys g1 1
# (the hint's search may still hold a core under the sanitizers: the key can take seconds)
if wait_for g1 "Your turn: play $first in front of" 300; then ok
else ko "1 chooses the first card, $first:"; cat "$tmp/screen"; fi
prompt=$(grep -o 'Your turn: play \[[A-Z0-9]*\] in front of [^?]*?' "$tmp/screen" | head -n 1)
card=$(echo "$prompt" | sed 's/.*play \(\[[A-Z0-9]*\]\).*/\1/')
who=$(echo "$prompt" | sed 's/.* in front of \([^?]*\)?.*/\1/')
if [ -n "$card" ] && [ -n "$who" ]; then ok; else ko "a card and a player in the prompt: '$prompt'"; fi
# (the hint may have chosen the person's own pile for that card)
if [ "$who" = yourself ]; then told="You play $card in front of yourself." row=Ann
else told="You play $card in front of $who." row=$who; fi
keys g1 Enter
expect g1 "$told" "the move is told"
if grep "[0-9] $row " "$tmp/screen" | grep -qF -- "$card"; then ok
else ko "$card is on $row's pile:"; cat "$tmp/screen"; fi
expect g1 "Your hand, 14 cards:" "the hand holds one card less"
upper | sed -n '3,7p;9,11p' >"$tmp/before"

# the log
keys g1 l
expect g1 "┌─What happened" "l opens the log"
expect g1 "$told" "the log has the move"
keys g1 Escape

# quit: asks, then saves
keys g1 q
expect g1 "Quit now?" "q asks"
keys g1 y
expect g1 "EXITED 0" "y quits with status 0"
expect g1 "figaro play --resume" "says how to go on"
if grep -q "^0 [A-Z0-9]*>[0-3]" "$save"; then ok; else ko "the save holds the move"; cat "$save"; fi
if [ -s "$tmp/g1.err" ]; then ko "no errors:"; cat "$tmp/g1.err"; else ok; fi
tm kill-session -t g1

# ---- resume: the same game (the bots wait one pace before moving on)
start g2 100 32 --resume --pace 3000
expect g2 "The saved game goes on" "--resume goes on"
screen g2
upper | sed -n '3,7p;9,11p' >"$tmp/after"
if cmp -s "$tmp/before" "$tmp/after"; then ok
else ko "the resumed table is the one left"; diff "$tmp/before" "$tmp/after"; fi
expect g2 "$told" "the resumed log tells the game so far"
keys g2 q
expect g2 "Quit now?" "q asks after resuming"
keys g2 y
expect g2 "EXITED 0" "quits after resuming"
if [ -s "$tmp/g2.err" ]; then ko "no errors:"; cat "$tmp/g2.err"; else ok; fi
tm kill-session -t g2

# ---- a terminal too small, then large enough
start g3 60 20 --resume --fast
expect g3 "This terminal is 60 columns by 20 lines." "too small is said"
expect g3 "80 by 24" "the size needed is said"
tm resize-window -t g3 -x 100 -y 32
expect g3 "# player" "the table once the terminal is large enough"

# the mouse (X10 reports, as the screen terminal sends them): click the
# second card of the hand, then the row of the player it goes to
click() {   # COLUMN LINE, both from 0 and below 94
    b=$(printf '\\%o\\%o' $((33 + $1)) $((33 + $2)))
    tm send-keys -t g3 -l "$(printf "\033[M %b" "$b")"
    tm send-keys -t g3 -l "$(printf "\033[M#%b" "$b")"
}
expect g3 "Your turn: play" "the person's turn again"
hand_y=$(grep -n '^   1 ' "$tmp/screen" | head -n 1 | cut -d: -f1)   # the numbers under the hand
if [ -n "$hand_y" ]; then
    x=$(sed -n "${hand_y}p" "$tmp/screen" | awk '{ print index($0, " 2 ") }')
    click "$x" $((hand_y - 2))
    sleep 0.3
    screen g3
    card2=$(sed -n "$((hand_y - 1))p" "$tmp/screen" | grep -o '\[[A-Z0-9]*\]' | uniq | sed -n 2p)
    if grep -qF "Your turn: play $card2" "$tmp/screen" ||
       grep -qF "Your turn: play the ring $card2" "$tmp/screen" ||
       grep -qF "Your turn: $card2 cannot be played" "$tmp/screen"; then ok
    else ko "a click selects the card $card2:"; cat "$tmp/screen"; fi
    target=$(grep -o 'in front of [^?]*?' "$tmp/screen" | head -n 1 | sed 's/in front of \(.*\)?/\1/')
    [ "$target" = yourself ] && target=Ann
    row=$(grep -n "[0-9] $target " "$tmp/screen" | head -n 1 | cut -d: -f1)
    if [ -n "$row" ]; then
        click 10 $((row - 1))
        expect g3 "You play $card2" "a click on a player's row plays the card there"
    else
        ko "a player to click for $card2"
    fi
else
    ko "the hand's numbers on the screen"; cat "$tmp/screen"
fi
keys g3 q
expect g3 "Quit now?" "q asks"
keys g3 y
expect g3 "EXITED 0" "quits"
if [ -f "$save" ]; then ok; else ko "the game is still saved"; fi
tm kill-session -t g3

# ---- a plain `figaro play` over a saved game asks first:
# n goes to the start screen (Esc there leaves the save alone), y continues
start g5 100 32 --pace 3000
expect g5 "Continue your saved game?" "the saved game is offered"
expect g5 "against Rosina, Bartolo and Basilio" "the offer says which game"
keys g5 n
expect g5 "Figaro: a new game" "n goes to the start screen"
keys g5 Up
keys g5 x
expect g5 "The seed takes digits only" "a letter in the seed field is refused with a word"
keys g5 Escape
expect g5 "EXITED 0" "Esc on the start screen leaves"
if [ -f "$save" ] && [ ! -d "$data/figaro/history" ]; then ok
else ko "leaving the start screen keeps the saved game"; fi
tm kill-session -t g5
start g6 100 32 --pace 3000
expect g6 "Continue your saved game?" "the saved game is offered again"
keys g6 y
expect g6 "The saved game goes on" "y continues the saved game"
keys g6 q
expect g6 "Quit now?" "q asks in the continued game"
keys g6 y
expect g6 "EXITED 0" "quits the continued game"
tm kill-session -t g6

# ---- safe preselection, unambiguous keys, short-lived messages,
# the score sheet and the last move, from a saved position (seed 1, round 1):
# the first card of the hand, [R2], can only go on the person's own pile of 4
# and would make them collect 9 cards, while [B2] and [G2] are harmless
data="$tmp/data-pre"
mkdir -p "$data/figaro"
{
    printf '#! play 1\n#! seat 0 human\n#! seat 1 bot random\n#! seat 2 bot random\n'
    printf '#! seat 3 bot random\n'
    "$FIGARO" random-game --players 4 --seed 1 | sed -n '1,/^hand 3/p'
    echo "3 B3>0 0 Y3>2 1 R1>3 2 B2>0 3 R2>3 0 P1>1 1 J2>0 0 J2>2 1 Y2>3 2 G2>2 3 Y1>3 0 R1>0
          1 RING 2 take 2 P2>0 3 Y2>1 0 P2>0 1 take 1 P3>2 2 Y2>1 3 G1>3 0 Y2>1 1 RING 2 R3>1
          3 G2>0 0 G2>0 1 take 1 R2>0 2 take 2 J1>0 3 P2>0 0 take 0 Y1>0 1 B1>3 2 Y2>0 3 J1>1
          0 take 0 G2>0 1 R2>3 2 P1>1 3 J1>1 0 RING 1 B2>3 2 R2>0 3 B1>3" | xargs -n 2
} >"$data/figaro/current.fgn"
start g7 100 32 --resume --pace 3000
expect g7 "Your turn: play" "the saved position is the person's turn"
if grep -qF "Your turn: play [R2] in front of yourself?" "$tmp/screen"; then
    ko "the preselection makes the person collect although [B2] is harmless"; cat "$tmp/screen"
else ok; fi
expect_line() {   # expect_line NAME TEXT WHAT: TEXT shows within 3 s
    if wait_for "$1" "$2" 30; then ok; else ko "$3: '$2' not on the screen:"; cat "$tmp/screen"; fi
}
keys g7 1
expect_line g7 "Your turn: play [R2] in front of yourself?" "1 picks the first card"
expect_line g7 "Careful: your pile reaches 6 and you collect 9 cards." "the prompt says what the move does"
keys g7 3
expect_line g7 "Your turn: play [G2] in front of" "a digit after a card picks another card, not a seat"
keys g7 9
expect_line g7 "There is no card 9: your hand has 3 kinds of card, keys 1 to 3." "an unknown card key is said"
keys g7 Left
sleep 0.4
screen g7
if grep -qF "There is no card 9" "$tmp/screen"; then ko "the message goes with the next key"; else ok; fi
keys g7 t
expect_line g7 "Take the 8 face-up cards? You collect them." "t asks first"
keys g7 x
sleep 0.4
screen g7
if grep -qF "Your hand, 5 cards:" "$tmp/screen" && ! grep -qF "Take the 8" "$tmp/screen"; then ok
else ko "any other key than t or y does not take"; cat "$tmp/screen"; fi
keys g7 s
expect_line g7 "Score sheet" "s opens the score sheet"
expect_line g7 "During play the rules (R14) hide" "the sheet says what it hides"
keys g7 Escape
sleep 0.3
keys g7 '?'
expect_line g7 "another player's road piece: its length stays hidden" "the help explains the signs"
keys g7 Escape
sleep 0.3   # Esc and q at once would read as Alt-q
keys g7 q
expect_line g7 "Quit now?" "q asks"
if grep -q "│ *figaro play --resume *│" "$tmp/screen"; then ok
else ko "the quit box keeps 'figaro play --resume' on one line"; cat "$tmp/screen"; fi
keys g7 n
keys g7 2 Enter
expect_line g7 "You play [B2] in front of Basilio." "the harmless card is played"
# the last card played is underlined, who collects is marked +N
i=0
while [ "$i" -lt 60 ]; do
    tm capture-pane -e -p -t g7 >"$tmp/escreen" 2>/dev/null
    screen g7
    grep -q "collects\|take all" "$tmp/screen" && grep -q "+[0-9]" "$tmp/screen" && break
    if grep -qF "Your turn: play" "$tmp/screen"; then keys g7 Enter
    elif grep -qF "press t to take" "$tmp/screen"; then keys g7 t t; fi
    sleep 0.3
    i=$((i + 1))
done
if grep -q "[0-9] [A-Za-z]*  .* +[0-9]" "$tmp/screen"; then ok
else ko "who just collected is marked +N on the table"; cat "$tmp/screen"; fi
if grep -q "$(printf '\033')\[[0-9;]*4[0-9;]*m\[*[A-Z]" "$tmp/escreen"; then ok
else ko "the card just played is underlined"; fi
keys g7 q
expect_line g7 "Quit now?" "q asks (the preselection game)"
keys g7 y
expect g7 "EXITED 0" "quits (the preselection game)"
tm kill-session -t g7

# ---- the end of the game: the keys say what can be
# done, t says the game is over, n starts another game, and leaving prints
# the result. A saved game one move from its end (a finished record, its
# last move cut).
data="$tmp/data-end"
mkdir -p "$data/figaro"
{
    printf '#! play 1\n#! seat 0 human\n#! seat 1 bot random\n#! seat 2 bot random\n'
    printf '#! seat 3 bot random\n'
    "$FIGARO" random-game --players 4 --seed 5 | sed '$d'
} >"$data/figaro/current.fgn"
start g8 100 32 --resume --pace 0
i=0
while [ "$i" -lt 60 ]; do
    screen g8
    grep -qF "The game is over" "$tmp/screen" && break
    if grep -qF "press t to take" "$tmp/screen"; then keys g8 t t
    elif grep -qF "Your turn:" "$tmp/screen"; then keys g8 Enter; fi
    sleep 0.3
    i=$((i + 1))
done
expect g8 "The game is over" "the game ends"
keys g8 Enter
expect_line g8 "n a new game" "the keys at the end offer a new game"
screen g8
if grep -qF "Enter play" "$tmp/screen"; then ko "the keys at the end offer no play keys"; else ok; fi
keys g8 t
expect_line g8 "The game is over: v reviews your moves, n starts a new game, q leaves." \
    "t at the end says so"
keys g8 v
# the review searches every move of the person again: up to 40 s under the sanitizers
if wait_for g8 "Review of your moves" 400; then ok
else ko "v at the end reviews the person's moves into the log"; cat "$tmp/screen"; fi
if grep -qE "blunders?, [0-9]+ mistakes?, [0-9]+ inaccurac(y|ies) in [0-9]+ moves?\." "$tmp/screen"
then ok; else ko "the review ends with its summary"; cat "$tmp/screen"; fi
keys g8 Escape
keys g8 n
expect_line g8 "Figaro: a new game" "n at the end goes to the start screen"
keys g8 Escape
expect g8 "EXITED 0" "leaves from the start screen"
expect_line g8 "wins with the shortest road" "the result is printed on leaving"
expect_line g8 "Its seed was 5: figaro play --seed 5 deals it again." "the seed is told on leaving"
tm kill-session -t g8

# ---- road pieces of 6 players in French at 80 columns
data="$tmp/data-fr"
mkdir -p "$data"
start g9 80 24 --lang fr --players 6 --seed 11 --bots random --pace 3000
expect g9 "Joueurs" "the start screen in French"
keys g9 Enter
groups=$("$FIGARO" random-game --players 6 --seed 11 | sed -n 's/^roads \([0-9 ]*\) \/.*/\1/p' |
         tr ' ' '\n' | sort -rn | tr '\n' ' ' | sed 's/ $//; s/ /, /g')
expect g9 "$groups." "every road piece of the round is shown, none cut"
keys g9 q
keys g9 y
tm kill-session -t g9

# ---- the Italian help at 80 columns keeps its descriptions in one column
# (a long key name pushed its line right)
data="$tmp/data-it"
mkdir -p "$data"
start g10 80 24 --lang it --seed 3 --bots random --pace 3000
expect g10 "Giocatori" "the start screen in Italian"
keys g10 Enter
sleep 0.5
keys g10 '?'
expect g10 "gioca la carta" "the Italian help"
c1=$(awk '{ i = index($0, "scegli una carta della tua mano"); if (i) print i }' "$tmp/screen")
c2=$(awk '{ i = index($0, "gioca la carta"); if (i) print i }' "$tmp/screen")
if [ -n "$c1" ] && [ "$c1" = "$c2" ]; then ok
else ko "the Italian help's descriptions start in one column ($c1, $c2)"; cat "$tmp/screen"; fi
tm kill-session -t g10

# ---- at 80x24, in every language, the widest hand (seed 526 deals
# Ann 14 kinds: RING twice) shows every card with the key under it, and the
# keys bar keeps its help and quit items (the pane is 80 wide: what does
# not fit is cut, so the ends are what to look for)
for l in en fr nl it; do
    data="$tmp/data-wide-$l"
    mkdir -p "$data"
    start "w$l" 80 24 --lang $l --seed 526 --name Ann --bots random,random,random --pace 0
    case $l in en) ring="RING]" quit="q quit" help="? rules" ;; fr) ring=RONDE quit="q quitter" help="? règle" ;;
               nl) ring=RONDE quit="q stoppen" help="? regels" ;; it) ring=GIRO quit="q esci" help="? regole" ;; esac
    sleep 1
    keys "w$l" Enter
    if wait_for "w$l" "${ring}×2"; then ok; else ko "$l: the widest hand's last card at 80 columns:"; cat "$tmp/screen"; fi
    hand=$(grep -n "${ring}×2" "$tmp/screen" | head -n 1 | cut -d: -f1)
    under=$(sed -n "$((hand + 1))p" "$tmp/screen")
    case "$under" in *" d"*) ok ;; *) ko "$l: the 14th card's key 'd' is not under the hand: '$under'" ;; esac
    bar=$(tail -n 1 "$tmp/screen")
    case "$bar" in *"$help  $quit") ok ;; *) ko "$l: the keys bar lost its end: '$bar'" ;; esac
    # the hint is wrapped under the prompt, whole (the move and its one
    # reason, ending with a full stop), and the log says the same words
    case $l in en) hint="Hint: " ;; fr) hint=$(printf 'Conseil\302\240: ') ;; nl) hint="Tip: " ;;
               it) hint="Consiglio: " ;; esac
    keys "w$l" h
    if wait_for "w$l" "$hint" 300; then ok; else ko "$l: h gives a hint:"; cat "$tmp/screen"; fi
    sleep 0.3
    screen "w$l"
    cp "$tmp/screen" "$tmp/hint-$l"
    keys "w$l" l
    wait_for "w$l" "┌─" 300
    "$PY" - "$tmp/hint-$l" "$tmp/screen" "$hint" <<'EOF' && ok || { ko "$l: the hint on the screen is whole and the log's:"; cat "$tmp/hint-$l" "$tmp/screen"; }
import sys
screen = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(screen) if sys.argv[3] in l)
lines = []
for l in screen[start:]:
    if l.strip().startswith("─"):   # the rule over what happened
        break
    lines.append(l.strip())
text = " ".join(" ".join(lines).split())
log = " ".join(open(sys.argv[2]).read().replace("│", " ").split())
assert text.endswith("."), lines   # wrapped, not cut
assert text in log, (text, log)
EOF
    keys "w$l" Escape
    tm kill-session -t "w$l"
done

# ---- the end of a round: q on its summary asks, and "n" goes back to the
# summary (not on to the next round); a game of its own, played card by card
data="$tmp/data4"
mkdir -p "$data"
start g4 100 32 --seed 3 --name Ann --bots random,random,random --pace 0
expect g4 "Figaro: a new game" "start screen (round-end game)"
keys g4 Enter
i=0
while [ "$i" -lt 120 ]; do
    screen g4
    grep -qF "Round 1 is over" "$tmp/screen" && break
    if grep -qF "press t to take" "$tmp/screen"; then keys g4 t
    elif grep -qF "Your turn:" "$tmp/screen"; then keys g4 $((1 + i % 9)) Enter
    fi
    sleep 0.2
    i=$((i + 1))
done
expect g4 "Round 1 is over" "the round ends with its summary"
keys g4 q
expect g4 "Quit now?" "q on the round's summary asks"
keys g4 n
sleep 0.5
if wait_for g4 "Press Enter to deal the next round." && ! grep -qF "Quit now?" "$tmp/screen"
then ok; else ko "n goes back to the round's summary"; cat "$tmp/screen"; fi
keys g4 Enter
expect g4 "Round 2: the cards are dealt" "Enter deals the next round"
keys g4 q
expect g4 "Quit now?" "q asks in round 2"
keys g4 y
expect g4 "EXITED 0" "quits in round 2"
if [ -s "$tmp/g4.err" ]; then ko "no errors:"; cat "$tmp/g4.err"; else ok; fi
tm kill-session -t g4

summary
