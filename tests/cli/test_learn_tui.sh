#!/bin/sh
# SPDX-License-Identifier: MIT
# test_learn_tui.sh - `figaro learn` full screen, driven for real through tmux
# at 80x24: a newcomer goes through every lesson with the keys (a card's key,
# then a seat's number), a refused move shows its reason and the lesson goes
# on, the end of each lesson shows how it ended, the first game is offered at
# the end; quitting keeps the step, a second run goes on there; French; a
# terminal too small says so.
# Run by tests/run.sh with FIGARO set to the sanitizer build. Prints
# "cli: N passed, N failed" last; skips (0 passed) when tmux is missing.
FIGARO=${FIGARO:-build/test/figaro}
case $FIGARO in /*) ;; *) FIGARO=$(pwd)/$FIGARO ;; esac
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
tm new-session -d -s keep "sleep 600"

# start NAME COLS LINES LANG ARGS...: `figaro learn ARGS` in a detached session;
# when it exits the pane says "EXITED <status>" and stays.
start() {
    name=$1 cols=$2 lines=$3 lang=$4
    shift 4
    tm new-session -d -s "$name" -x "$cols" -y "$lines" \
        "env XDG_DATA_HOME='$data' LC_ALL=C.UTF-8 LANG=C.UTF-8 LANGUAGE=$lang TERM=screen \
         '$FIGARO' learn $* 2>'$tmp/$name.err'; echo EXITED \$?; sleep 60"
}
screen() { tm capture-pane -p -t "$1" >"$tmp/screen" 2>/dev/null; }
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
expect() {
    if wait_for "$1" "$2"; then ok; else ko "$3: '$2' not on the screen:"; cat "$tmp/screen"; fi
}
keys() { tm send-keys -t "$@"; }

# ---- every lesson, in English
start e 80 24 en --restart
expect e "Lesson 1 of 8: The goal, and a turn" "lesson 1"
expect e "Play your yellow 1 in front of Bartolo" "lesson 1's task"
expect e "1-9 a-i a card" "the keys"
keys e h
expect e "Try Y1>2." "the hint"
keys e 7 3
expect e "This time, play your yellow 1 in front of Bartolo. Try again." "not asked"
keys e t
expect e "There are no face-up cards to take. Try again." "refused, lesson 1"
keys e 7 2
expect e "Basilio plays [R1] in front of you." "the others answer"
expect e "Enter: go on" "the end screen"
keys e Enter
expect e "Lesson 2 of 8: One colour per pile" "lesson 2"
keys e 4 3
expect e "[B2] cannot go in front of Basilio: Rosina already has blue." "refused, lesson 2"
keys e 4 1
expect e "Play your red 2 where it belongs." "lesson 2, step 2"
keys e 1 0
expect e "Enter: go on" "lesson 2's end"
keys e Enter
expect e "Lesson 3 of 8: Jesters" "lesson 3"
keys e 0 2
expect e "Play your jester 2 in front of yourself." "lesson 3, step 2"
keys e 0 0
expect e "Enter: go on" "lesson 3's end"
keys e Enter
expect e "Lesson 4 of 8: Rings" "lesson 4"
keys e 0
expect e "Enter: go on" "lesson 4's end"
expect e "You play a ring: every pile moves one seat to the left." "the ring told"
keys e Enter
expect e "Lesson 5 of 8: The King has had enough" "lesson 5"
keys e 7 2
expect e "[Y2] cannot go in front of Bartolo: that pile is green." "refused, lesson 5"
keys e 5 2
expect e "Bartolo collects all 4 face-up cards" "lesson 5's collection"
keys e Enter
expect e "Lesson 6 of 8: Taking" "lesson 6"
keys e 1 0
expect e "[P1] cannot go in front of you: that pile is yellow." "refused, lesson 6"
keys e t
expect e "You take all 20 face-up cards" "lesson 6: the take"
expect e "Enter: go on" "lesson 6's end"
keys e Enter
expect e "Lesson 7 of 8: The end of a round" "lesson 7"
keys e 1 3
expect e "[P2] cannot go in front of Basilio: that pile is green." "refused, lesson 7"
keys e 1 0
expect e "the longest road piece" "lesson 7: the pieces"
keys e Enter
expect e "Lesson 8 of 8: The last round and the winner" "lesson 8"
keys e 1 2
expect e "you win with the shortest road" "lesson 8: the winner"
keys e Enter
expect e "Play a first game now, against 3 bots of level beginner?" "the first game offered"
keys e n
expect e "EXITED 0" "exit after the lessons"
printf 'done %s\n' turn colours jesters rings six take round-end winner >"$tmp/want"
grep '^done' "$data/figaro/lessons" | cmp -s - "$tmp/want" && ok || ko "not every lesson is done"

# ---- leaving midway, then going on; French
rm -rf "$data/figaro"
start f 80 24 fr --lesson 2
expect f "Leçon 2 sur 8 : Une couleur par pile" "French lesson"
keys f 4 3
expect f "[B2] ne peut pas aller devant Basilio : Rosina a déjà le bleu." "French reason"
keys f 4 1
expect f "Jouez votre rouge 2" "French step 2"
keys f q
expect f "EXITED 0" "quit"
expect_in "progress kept" "$data/figaro/lessons" "at colours 1"
start g 80 24 en
expect g "Lesson 2 of 8: One colour per pile" "going on at the lesson"
expect g "Play your red 2 where it belongs." "going on at the step"
keys g q
expect g "EXITED 0" "quit again"

# ---- every lesson done: the first game, full screen, against beginner bots
printf 'done %s\n' turn colours jesters rings six take round-end winner >"$data/figaro/lessons"
start y 80 24 en
expect y "Play a first game now, against 3 bots of level beginner?" "all done: the game offered"
keys y y
expect y "Figaro: a new game" "the game's start screen"
expect y "beginner" "the start screen has the beginner level"
keys y Escape
expect y "EXITED 0" "leaving the start screen"

# ---- too small
start s 60 20 en --lesson 1
expect s "The lessons need" "too small"
keys s q
expect s "EXITED 0" "quit when too small"

summary
