#!/bin/sh
# SPDX-License-Identifier: MIT
# test_fep.sh - FEP (docs/fep.md), both sides, through the figaro command:
#   1. `figaro engine` answers a scripted session, and every malformed or
#      out-of-order line with one `info error`, never crashing;
#   2. the project's own host (the arena) plays whole games against
#      `figaro engine`, examples/engine.py and bench/opponents/sensible.py
#      with 0 faults, and says the right things (a transcript through
#      tests/fep/log.sh);
#   3. deliberately broken engines (tests/fep/*.sh) are survived: every game
#      completes, one fault per game is counted, nothing hangs, no zombie and
#      no engine process is left behind.
# Run by tests/run.sh with FIGARO set to the sanitizer build; prints
# "cli: N passed, N failed". The slow parts (a silent engine costs the 5 s
# handshake limit) run in parallel: about 7 s in all.
FIGARO=${FIGARO:-build/test/figaro}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)

. "$(dirname "$0")/lib.sh"

# A hung host must fail the test, not stall it.
TO=""   # words on purpose: "timeout 60", or nothing
command -v timeout >/dev/null 2>&1 && TO="timeout 60"

expect_eq() {
    if [ "$2" = "$3" ]; then ok; else ko "$1: got '$2', expected '$3'"; fi
}

# The broken engines run from a copy whose path is unique to this run, so
# that leftover processes can be found by their command line.
E=$tmp/fep
mkdir "$E"
cp -p tests/fep/*.sh "$E/"
cp -p examples/engine.py "$tmp/engine.py"

# ---- 1. `figaro engine`: options
expect_status "help engine" 0 "$FIGARO" help engine
expect_in "help engine" "$tmp/out" "usage: figaro engine"
expect_status "engine --help" 0 "$FIGARO" engine --help
expect_status "engine without --bot" 2 "$FIGARO" engine
expect_status "engine unknown bot" 2 "$FIGARO" engine --bot nonsense
expect_in "engine unknown bot says so" "$tmp/err" "'nonsense' is not a bot"
expect_status "engine bad option" 2 "$FIGARO" engine --bot random --ismcts
expect_status "engine extra argument" 2 "$FIGARO" engine --bot random extra
expect_status "engine bad seed" 2 "$FIGARO" engine --bot random --seed x

# ---- 1. a scripted session built from a real game record: the engine plays
# the seat of the first action not by the King, after being told the actions
# before it; its answer must replay as a legal move.
"$FIGARO" random-game --players 4 --seed 7 >"$tmp/rec.fgn"
king=$(awk '$1 == "king" { print $2 }' "$tmp/rec.fgn")
roads=$(sed -n 's/^roads //p' "$tmp/rec.fgn")
awk '/^round 2/ { exit } /^[0-9] / { print }' "$tmp/rec.fgn" >"$tmp/all-moves"
before=$(awk -v k="$king" '$1 != k { print NR - 1; exit }' "$tmp/all-moves")
head -n "$before" "$tmp/all-moves" >"$tmp/moves"   # the actions before the engine's turn
seat=$(sed -n "$((before + 1))s/ .*//p" "$tmp/all-moves")
hand=$(sed -n "s/^hand $seat //p" "$tmp/rec.fgn" | head -n 1)   # round 1's
wrong=$(( (king + 1) % 4 ))   # not the King, who is to move first
{
    echo "fep 1"
    echo "game players 4 seat $seat king $king removed - roads $roads"
    echo "names Ann Bob Cid Dee"
    echo "round 1 hand $hand"
    sed 's/^/move /' "$tmp/moves"
    echo "go 50"
} >"$tmp/session"
expect_status "engine session" 0 sh -c "\"$FIGARO\" engine --bot greedy <\"$tmp/session\""
cp "$tmp/out" "$tmp/session.out"
expect_eq "engine handshake" "$(sed -n 3p "$tmp/session.out")" "fepok"
expect_in "engine id name" "$tmp/session.out" "id name figaro greedy"
expect_eq "engine answers once" "$(grep -c '^play ' "$tmp/session.out")" 1
expect_eq "engine has no complaint" "$(grep -c '^info error' "$tmp/session.out")" 0
play=$(sed -n 's/^play //p' "$tmp/session.out")
{
    sed '/^[0-9] /,$d' "$tmp/rec.fgn"   # the header and round 1's hands
    cat "$tmp/moves"
    echo "$seat $play"
} >"$tmp/answer.fgn"
expect_status "engine answer is legal ($seat $play)" 0 "$FIGARO" replay "$tmp/answer.fgn"

# Every bad line gets exactly one `info error`, the session goes on, and the
# answer at the end is still legal. One bad line per row of this list.
long=$(head -c 5000 /dev/zero | tr '\000' x)
words=$(i=0; while [ $i -lt 120 ]; do printf 'w '; i=$((i + 1)); done)
cards=$(i=0; while [ $i -lt 70 ]; do printf 'R1 '; i=$((i + 1)); done)
{
    echo "game players 4 seat $seat king $king removed - roads $roads"   # before fep 1
    echo "go 100"                                                         # before fep 1
    echo "fep 2"
    echo "fep 1"
    echo "bonjour"
    echo "$long"
    printf 'mo\001ve \002\n'
    echo "$words"
    echo "round 1 hand $hand"                                             # before game
    echo "move 0 R1>0"                                                    # before game
    echo "go 100"                                                         # before game
    echo "gameover 1 2 3 4"                                               # before game
    echo "names A B C D"                                                  # before game
    echo "game players 9 seat 0 king 0 removed - roads $roads"
    echo "game players 4 seat 7 king 0 removed - roads $roads"
    echo "game players 4 seat 0 king 0 removed - roads 1 2 3 / 4 5"
    echo "game players 4 seat 0 king 0 removed R roads $roads"
    echo "game players 4 seat 0 king 0 removed Q roads $roads"
    echo "game players 4 seat 0 king 0 removed - roads 1 2 3 / 4 5 6 / 7 8 x"
    echo "game players 4 seat 0 king 0 removed - roads 1 2 3 / 4 5 6 / 7 8 8"
    echo "game players 4 seat 0 seat 1 king 0 removed - roads $roads"
    echo "game players 4 seat 0 colour 3 king 0 removed - roads $roads"
    echo "game players 4 seat"
    echo "game players 4 seat 0 king 0"
    echo "game players 4 seat $seat king $king removed - roads $roads"   # good
    echo "names A B"
    echo "move 0 R1>0"                                                    # before the deal
    echo "round 2 hand $hand"
    echo "round 1 hand R1 R1 R1"
    echo "round 1 hand $cards"
    echo "round 1 hand XX $hand"
    echo "round 1 cards $hand"
    echo "round 1 hand $hand"                                             # good
    echo "round 1 hand $hand"                                             # round 1 is on
    echo "go 100"                                                         # the King's turn
    echo "move $wrong J1>0"                                               # wrong seat
    echo "move 0"
    echo "move 0 R9>0"
    echo "move x R1>0"
    echo "move 9 R1>0"
    sed 's/^/move /; s/$/\r/' "$tmp/moves"                               # good, CRLF
    echo "move $seat G9>0"
    echo "go"
    echo "go -5"
    echo "go soon"
    echo "go 100 200"
    echo "go 99999999999"
    echo "  go   50  "                                                    # good, spaced
} >"$tmp/bad"
bad_lines=$(grep -c . "$tmp/bad")
expect_status "engine survives bad lines" 0 sh -c "\"$FIGARO\" engine --bot random <\"$tmp/bad\""
cp "$tmp/out" "$tmp/bad.out"
expect_eq "engine stderr is empty" "$(wc -c <"$tmp/err" | tr -d ' ')" 0
# good lines: fep 1, game, round, the moves and the last go
expect_eq "one info error per bad line" "$(grep -c '^info error: ' "$tmp/bad.out")" \
    "$((bad_lines - 4 - before))"
expect_eq "nothing but FEP on stdout" \
    "$(grep -cv '^info error: \|^id name \|^id author \|^fepok$\|^play ' "$tmp/bad.out")" 0
expect_in "bad line is quoted" "$tmp/bad.out" "info error: unknown command 'bonjour'"
expect_in "long line is refused" "$tmp/bad.out" "line longer than 4095 bytes"
expect_in "out-of-order move" "$tmp/bad.out" "move: no game has started"
expect_in "wrong seat" "$tmp/bad.out" "it is seat"
expect_in "setup checked" "$tmp/bad.out" "game: only a 3-player game leaves a colour out"
play=$(sed -n 's/^play //p' "$tmp/bad.out")
{
    sed '/^[0-9] /,$d' "$tmp/rec.fgn"
    cat "$tmp/moves"
    echo "$seat $play"
} >"$tmp/answer2.fgn"
expect_status "answer after bad lines is legal ($seat $play)" 0 "$FIGARO" replay "$tmp/answer2.fgn"

# A smoke fuzz: 3000 lines made by mutating the lines of both sessions
# (characters changed, dropped or doubled, words swapped, lines cut), fed to
# one engine. Under the sanitizers any memory error fails the exit status.
cat "$tmp/session" "$tmp/bad" | grep -v "^$long\$" |
    awk 'BEGIN { srand(11); chars = "0123456789RBGYPJINGrt>/- \t#xe" }
         { pool[n++] = $0 }
         END {
             for (i = 0; i < 3000; i++) {
                 line = pool[int(rand() * n)]
                 for (k = int(rand() * 4); k > 0; k--) {
                     p = int(rand() * (length(line) + 1)); r = rand()
                     c = substr(chars, int(rand() * length(chars)) + 1, 1)
                     if (r < 0.4) line = substr(line, 1, p - 1) c substr(line, p + 1)
                     else if (r < 0.6) line = substr(line, 1, p - 1) substr(line, p + 1)
                     else if (r < 0.8) line = substr(line, 1, p) substr(line, p)
                     else if (r < 0.9) line = substr(line, 1, p)
                     else {
                         split(line, w, " ")
                         line = w[2] " " w[1] substr(line, length(w[1] w[2]) + 2)
                     }
                 }
                 print line
             }
         }' >"$tmp/fuzz"
expect_status "engine smoke fuzz" 0 sh -c "\"$FIGARO\" engine --bot greedy <\"$tmp/fuzz\""
cp "$tmp/out" "$tmp/fuzz.out"
expect_eq "fuzz: stderr is empty" "$(wc -c <"$tmp/err" | tr -d ' ')" 0
expect_eq "fuzz: nothing but FEP on stdout" \
    "$(grep -cv '^info error: \|^id name \|^id author \|^fepok$\|^play ' "$tmp/fuzz.out")" 0

expect_eq "answers are printable" \
    "$(cat "$tmp/bad.out" "$tmp/fuzz.out" | LC_ALL=C grep -c '[^[:print:]]')" 0

# quit ends the engine at once; so does the end of input, with or without a
# last newline; nothing after quit is read.
expect_status "engine quit" 0 \
    sh -c "printf 'fep 1\nquit\nfep 1\n' | \"$FIGARO\" engine --bot random"
expect_eq "engine quit stops reading" "$(grep -c fepok "$tmp/out")" 1
expect_status "engine EOF" 0 sh -c "printf 'fep 1\ngame' | \"$FIGARO\" engine --bot random"
expect_in "engine EOF mid-line" "$tmp/out" "info error: game: players, seat, king and roads"
expect_status "engine empty input" 0 sh -c "\"$FIGARO\" engine --bot random </dev/null"
expect_status "engine binary input" 0 \
    sh -c "head -c 20000 \"$FIGARO\" | \"$FIGARO\" engine --bot random"

# ---- 2. the project's host against `figaro engine` and the example: whole
# games with no fault. JSON: the cmd entrant's "games" and "faults".
cmd_result() {   # FILE -> "games faults" of the first cmd: entrant
    sed -n 's/.*{"spec": "cmd:[^"]*", "games": \([0-9]*\),[^}]*"faults": \([0-9]*\)}.*/\1 \2/p' \
        "$1" |
        head -n 1
}
# The move time: 100 ms for the broken engines (slow.sh is late after 1100
# ms). The good engines answer in milliseconds whatever they are told, so
# they get 3000 (late after 4 s): under load (this script runs some twenty
# arenas at once, beside other tests) a sanitized engine could be scheduled
# past 1100 ms and counted late, a fault of the machine, not of the engine;
# every other fault (a bad line, an illegal move, an exit) is still caught.
move_ms=100
arena() {   # NAME PLAYERS GAMES ARGS... : runs the arena into $tmp/NAME.{json,err,rc}
    name=$1 players=$2 games=$3
    shift 3
    $TO "$FIGARO" arena --players "$players" --games "$games" --move-ms "$move_ms" --json "$@" \
        >"$tmp/$name.json" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}
expect_games() {   # NAME GAMES FAULTS
    rc=$(cat "$tmp/$1.rc")
    if [ "$rc" -eq 0 ]; then ok; else ko "$1: arena exit $rc"; head -c 800 "$tmp/$1.err"; fi
    expect_eq "$1: games and faults" "$(cmd_result "$tmp/$1.json")" "$2 $3"
}

# The broken engines start first, in the background: they are the slow part.
# Three games each (3 players), played in parallel, one fault per game.
for spec in "silent.sh" "garbage.sh junk" "garbage.sh word" "garbage.sh empty" \
    "garbage.sh two" "garbage.sh binary" "garbage.sh id" "illegal.sh ring9" \
    "illegal.sh nocard" "illegal.sh ring" "slow.sh 30" "crash.sh handshake" "crash.sh go" \
    "crash.sh signal" "crash.sh deaf" "noisy.sh flood" "noisy.sh huge"; do
    name=$(echo "$spec" | tr ' .' '__')
    arena "$name" 3 3 --jobs 3 --bot "cmd:$E/$spec" --bot random --bot greedy &
done
# A fresh process for every game after a fault: one worker, three games.
arena crash_log 3 3 --jobs 1 --bot "cmd:$E/log.sh $tmp/crash.log $E/crash.sh go" \
    --bot random --bot greedy &
# Zombies: while a slow engine is faulted game after game, no child of the
# arena may stay a zombie (they are reaped at once).
arena slow_zombie 3 3 --jobs 1 --bot "cmd:$E/slow.sh 30" --bot random --bot random &
zpid=$!
zombies=0
while kill -0 "$zpid" 2>/dev/null; do
    # /proc/PID/stat after the command name: state, parent. A zombie whose
    # parent is this arena is a child the host did not reap. (Only this one:
    # an engine that exits by itself is a zombie for the moment it takes the
    # host to notice, which the crash tests running beside it would show.)
    for ppid in $(cat /proc/[0-9]*/stat 2>/dev/null |
                  awk '{ sub(/.*\) /, ""); if ($1 == "Z") print $2 }'); do
        if tr '\000' ' ' 2>/dev/null <"/proc/$ppid/cmdline" |
            grep -qF -- "--jobs 1 --bot cmd:$E/slow.sh 30 "; then
            zombies=$((zombies + 1))
            ps -o pid,ppid,stat,args --ppid "$ppid" 2>/dev/null
        fi
    done
    sleep 0.2
done

# Meanwhile, the good engines, in the foreground, with time to spare.
move_ms=3000
arena random4 4 4 --bot "cmd:$FIGARO engine --bot random" --bot random --bot random --bot random
expect_games random4 4 0
arena greedy3 3 6 --bot "cmd:$FIGARO engine --bot greedy --seed 5" --bot greedy --bot random
expect_games greedy3 6 0
arena mixed6 6 6 --bot "cmd:$FIGARO engine --bot ismcts:iters=30" --bot greedy --bot random \
    --bot "cmd:$FIGARO engine --bot easy" --bot random --bot random
expect_games mixed6 6 0
if grep -q fault "$tmp/mixed6.err"; then ko "mixed6: a fault reported:"; grep fault "$tmp/mixed6.err" | head -n 5
else ok; fi
arena chatty 4 4 --bot "cmd:$E/noisy.sh chatty $FIGARO engine --bot random" --bot random \
    --bot random --bot random
expect_games chatty 4 0

# What the host says, through a wrapper that records it: one process for all
# games of a worker, the game line, 15 cards a hand, go with the move time,
# gameover with 4 totals, quit at the end.
arena logged 4 8 --jobs 1 --bot "cmd:$E/log.sh $tmp/host.log $FIGARO engine --bot greedy" \
    --bot random --bot random --bot random
expect_games logged 8 0
expect_eq "host: one process for 8 games" "$(grep -c '^start$' "$tmp/host.log")" 1
expect_eq "host: handshake first" "$(sed -n 2p "$tmp/host.log")" "> fep 1"
game_re='^> game players 4 seat [0-3] king [0-3] removed - roads [0-9 ]* / [0-9 ]* / [0-9 ]*$'
expect_eq "host: 8 game lines" "$(grep -c "$game_re" "$tmp/host.log")" 8
expect_eq "host: 24 hands of 15 cards" \
    "$(grep '^> round [1-3] hand ' "$tmp/host.log" | awk 'NF == 19' | wc -l | tr -d ' ')" 24
expect_eq "host: 8 gameover lines" \
    "$(grep -c '^> gameover [0-9]* [0-9]* [0-9]* [0-9]*$' "$tmp/host.log")" 8
expect_eq "host: go with the move time" "$(grep '^> go ' "$tmp/host.log" | sort -u)" "> go $move_ms"
expect_eq "host: quit last" "$(tail -n 1 "$tmp/host.log")" "> quit"
if grep -q '^> names' "$tmp/host.log"; then ko "host: sends no names"; else ok; fi
# 3 players: the removed colour is named
arena logged3 3 3 --jobs 1 --bot "cmd:$E/log.sh $tmp/host3.log $FIGARO engine --bot random" \
    --bot random --bot random
expect_games logged3 3 0
expect_eq "host: 3 players name the removed colour" \
    "$(grep -c '^> game players 3 seat [0-2] king [0-2] removed [RBGYP] roads' "$tmp/host3.log")" 3

# The example engine of the README, in Python.
if command -v python3 >/dev/null 2>&1; then
    arena python 4 8 --bot "cmd:python3 $tmp/engine.py" --bot greedy --bot random --bot random
    expect_games python 8 0
    arena python3p 3 6 --bot "cmd:python3 $tmp/engine.py" --bot random --bot random
    expect_games python3p 6 0
    # The opponent kept out of tuning (docs/bots.md), two seats of it at 4 and
    # 6 players (an entrant's games count each seat it played).
    arena sensible 4 8 --bot "cmd:python3 bench/opponents/sensible.py" --bot greedy \
        --bot "cmd:python3 bench/opponents/sensible.py" --bot random
    expect_games sensible 16 0
    arena sensible6 6 6 --bot "cmd:python3 bench/opponents/sensible.py" --bot random --bot random \
        --bot random --bot random --bot "cmd:python3 bench/opponents/sensible.py"
    expect_games sensible6 12 0
else
    echo "SKIPPED: the Python engines (python3 is not installed)"
fi

# Programs that are no FEP engine at all: cat echoes `fep 1` back, true
# exits at once, a script whose interpreter does not exist cannot start.
printf '#!/no/such/interpreter\n' >"$E/badinterp.sh"
chmod +x "$E/badinterp.sh"
arena cat 3 3 --jobs 1 --bot "cmd:cat" --bot random --bot random
expect_games cat 3 3
expect_in "cat: says why" "$tmp/cat.err" "answered 'fep 1' with 'fep 1', not 'fepok'"
arena true 3 3 --jobs 1 --bot "cmd:true" --bot random --bot random
expect_games true 3 3
arena badinterp 3 3 --jobs 1 --bot "cmd:$E/badinterp.sh" --bot random --bot random
expect_games badinterp 3 3
expect_in "bad interpreter: exec failed" "$tmp/badinterp.err" "exit status 127"

# Specs that name no program are errors at once, not faults.
expect_status "cmd: missing program" 1 $TO "$FIGARO" arena --players 3 --games 3 \
    --bot "cmd:$tmp/no-such-engine" --bot random --bot random
expect_in "cmd: missing program says so" "$tmp/err" "not an executable file"
expect_status "cmd: not on PATH" 1 $TO "$FIGARO" arena --players 3 --games 3 \
    --bot "cmd:no-such-engine-anywhere" --bot random --bot random
expect_in "cmd: not on PATH says so" "$tmp/err" "not found in PATH"
expect_status "cmd: empty" 1 $TO "$FIGARO" arena --players 3 --games 3 \
    --bot "cmd:" --bot random --bot random
expect_status "cmd: a folder" 1 $TO "$FIGARO" arena --players 3 --games 3 \
    --bot "cmd:$tmp" --bot random --bot random

# ---- 3. the broken engines' results
move_ms=100
wait
for spec in "silent.sh" "garbage.sh junk" "garbage.sh word" "garbage.sh empty" \
    "garbage.sh two" "garbage.sh binary" "garbage.sh id" "illegal.sh ring9" \
    "illegal.sh nocard" "illegal.sh ring" "slow.sh 30" "crash.sh handshake" "crash.sh go" \
    "crash.sh signal" "crash.sh deaf" "noisy.sh flood" "noisy.sh huge"; do
    name=$(echo "$spec" | tr ' .' '__')
    expect_games "$name" 3 3
    expect_eq "$spec: one message per fault" "$(grep -c 'fault: ' "$tmp/$name.err")" 3
done
expect_in "silent: says why" "$tmp/silent_sh.err" "no 'fepok' within 5 s"
expect_in "illegal: says why" "$tmp/illegal_sh_nocard.err" "illegal answer"
expect_in "slow: says why" "$tmp/slow_sh_30.err" "no answer to 'go 100' within 1100 ms"
expect_in "crash: exit status" "$tmp/crash_sh_go.err" "exit status 3"
expect_in "crash: signal" "$tmp/crash_sh_signal.err" "killed by signal"
expect_in "deaf: a closed pipe, no SIGPIPE" "$tmp/crash_sh_deaf.err" "closed its input"
expect_in "huge: says why" "$tmp/noisy_sh_huge.err" "longer than 4095 bytes"
expect_games crash_log 3 3
expect_eq "a fresh process for each game after a fault" "$(grep -c '^start$' "$tmp/crash.log")" 3
expect_games slow_zombie 3 3
expect_eq "no zombie while the arena runs" "$zombies" 0

# Nothing of this run is left running: engines, their shells, their sleeps.
sleep 0.2
left=0
for f in /proc/[0-9]*/cmdline; do
    if tr '\000' ' ' 2>/dev/null <"$f" | grep -qF "$tmp/"; then left=$((left + 1)); fi
done
expect_eq "no engine process left" "$left" 0

echo "time: $(( $(date +%s) - start )) s"
summary
