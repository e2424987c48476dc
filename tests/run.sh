#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh - runs every test of `make test` and prints one closing line:
#   "tests: N passed, N failed"
# Usage: tests/run.sh BUILD_DIR [TEST_BINARY...]
#   BUILD_DIR is the sanitizer build (e.g. build/test); the unit test binaries
#   to run are named by `make test` (those of the current tests/unit/*.c), so
#   that a stale binary left in BUILD_DIR by a deleted test is not counted.
#   Without them, every BUILD_DIR/test_* is run.
# The tests are independent (each has its own temporary folders, servers
# listen on port 0, tmux on a socket of its own), so they run side by side:
# TEST_JOBS at once (default: the number of processors), each stopped after
# TEST_TIMEOUT seconds (default 600; the browser tests twice that), a
# time-out counting as a failure. Each test's output is kept apart and
# printed whole, in a fixed order, under its "== name" line.
# TEST_KINDS picks what runs (default "unit cli pytest web fuzz"; `make
# check-quick` runs "unit" alone).
T=${1:-build/test}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$T"/test_*
JOBS=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
LIMIT=${TEST_TIMEOUT:-600}
KINDS=${TEST_KINDS:-unit cli pytest web fuzz}
passed=0
failed=0
failed_names=""
scratch=$(mktemp -d)   # the jobs, their logs; libFuzzer's new inputs (fuzz/)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/jobs" "$scratch/fuzz"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

wants() { case " $KINDS " in *" $1 "*) return 0 ;; esac; return 1; }

# add KIND NAME SECONDS COMMAND: a job, as a script of its own; the jobs run
# in the order they are added (the long ones first, so that the short ones
# fill the gaps) and are reported in that order.
njobs=0
add() {
    njobs=$((njobs + 1))
    id=$(printf '%03d' "$njobs")
    printf '%s\n%s\n' "$1" "$2" >"$scratch/jobs/$id.what"
    printf '%s\n' "$4" >"$scratch/jobs/$id.cmd"
    printf 'timeout -k 10 %s sh %s/jobs/%s.cmd\n' "$3" "$scratch" "$id" >"$scratch/jobs/$id.sh"
}
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }   # quoted for sh

# The browser client (web/): tsc --checkJs and the Playwright tests on Debian's
# chromium against a real `figaro serve` (tests/web/run.sh; its closing line
# "web: N passed, N failed").
wants web && add web "tests/web (tsc, Playwright)" $((LIMIT * 2)) \
    "FIGARO=$(q "$T/figaro") sh tests/web/run.sh"

# The Python binding (python/figaro, tests/python) and `figaro serve` over real
# sockets (tests/net, with python3-websockets) with Debian's python3-pytest.
# It loads the plain -O2 shared libraries of the release build, next to
# $T (`make test` builds them): a sanitized library would need libasan
# preloaded into python3. pytest's closing line ("3 failed, 49 passed in
# 1.2s") gives the counts; exit status 5 (no tests collected) is a failure.
wants pytest && add pytest "pytest tests/python tests/net" "$LIMIT" \
    "FIGARO=$(q "$T/figaro") FIGARO_LIBDIR=$(q "$(dirname "$T")") PYTHONDONTWRITEBYTECODE=1 \
    $(q "$PY") -m pytest -q -p no:cacheprovider tests/python tests/net \
    --ignore=tests/net/test_pg.py"
# Several servers on PostgreSQL, with HAProxy (tests/net/test_pg.py: a throwaway
# PostgreSQL of its own, tests/net/pg.sh) is a job of its own, beside the rest.
wants pytest && add pytest "pytest tests/net/test_pg.py" "$LIMIT" \
    "FIGARO=$(q "$T/figaro") PYTHONDONTWRITEBYTECODE=1 \
    $(q "$PY") -m pytest -q -p no:cacheprovider tests/net/test_pg.py"

# The command's scripts (closing line "cli: N passed, N failed").
if wants cli; then
    for s in tests/cli/*.sh; do
        [ -f "$s" ] || continue
        [ "$(basename "$s")" = lib.sh ] && continue
        add cli "$(basename "$s")" "$LIMIT" "FIGARO=$(q "$T/figaro") sh $(q "$s")"
    done
fi

# The unit tests (cmocka's summary); test_fep_host runs the command as an engine.
if wants unit; then
    for t in "$@"; do
        if [ ! -x "$t" ]; then   # named but not built: a failure, not a silent skip
            add missing "$(basename "$t")" 1 true
            continue
        fi
        n=$(basename "$t")
        [ "$(dirname "$t")" = "$T" ] || n=$(basename "$(dirname "$t")")/$n   # tsan/test_match
        add unit "$n" "$LIMIT" "FIGARO=$(q "$T/figaro") $(q "$t")"
    done
fi

# fuzz smoke runs: the seed corpus and a few thousand mutations of each parser
# (tests/fuzz/targets lists them; `make fuzz` runs them for long)
if wants fuzz; then
    targets=$(grep '^fuzz_' tests/fuzz/targets)
    while read -r target max_len corpora; do
        [ -n "$target" ] || continue
        if [ ! -x "$T/$target" ]; then
            add notbuilt "$target" 1 true
            continue
        fi
        mkdir -p "$scratch/fuzz/$target"
        # the corpora are separate words
        add fuzz "$target (smoke run over its seed corpus and 20000 mutations)" "$LIMIT" \
            "$(q "$T/$target") -runs=20000 -seed=1 -max_len=$max_len \
            $(q "$scratch/fuzz/$target") $corpora"
    done <<EOF
$targets
EOF
fi

# Run them, JOBS at a time; each leaves its output in .log, its status in .rc
# and its wall-clock seconds in .sec (printed after its name: what to trim
# when the run grows).
[ "$njobs" -eq 0 ] || ls "$scratch"/jobs/*.sh | xargs -P "$JOBS" -I{} \
    sh -c 'f=$1; s=$(date +%s); sh "$f" >"${f%.sh}.log" 2>&1; echo $? >"${f%.sh}.rc"
           echo $(($(date +%s) - s)) >"${f%.sh}.sec"' sh {}

# The counts, in the order the jobs were added.
sum() {   # NAME PASSED FAILED STATUS
    p=${2:-0}
    f=${3:-0}
    if [ "$4" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed before its summary
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" -eq 0 ] || failed_names="$failed_names $1"
}
# A failing job's own failure lines, gathered for the end of the output: when
# only the last lines of a long run are kept (a CI summary), they still say
# which test failed, not only which job. KIND LOG NAME; at most 10 lines a job.
what_failed() {
    case $1 in
    unit) grep -E '^\[  FAILED  \] [a-z_]' "$2" ;;
    cli) grep -E '^FAIL: ' "$2" ;;
    web) grep -E '^ *([0-9]+\) |Error: )|: error TS' "$2" | sed 's/ ─*$//' ;;
    pytest) grep -E '^(FAILED|ERROR) ' "$2" ;;
    fuzz) grep -E '^SUMMARY: ' "$2" ;;
    esac | sed 's/^ *//' | awk '!seen[$0]++' | head -n 10 |
        while IFS= read -r line; do printf '   %s: %s\n' "$3" "$line"; done >>"$scratch/what_failed"
}
for w in "$scratch"/jobs/*.what; do
    job=${w%.what}
    kind=$(sed -n 1p "$w")
    name=$(sed -n 2p "$w")
    short=${name%% *}
    log=$job.log
    status=$(cat "$job.rc" 2>/dev/null || echo 1)
    case $kind in
    missing) echo "== $name: missing"; sum "$name" 0 1 1; continue ;;
    notbuilt) echo "== $name: not built"; sum "$name" 0 1 1; continue ;;
    esac
    echo "== $name ($(cat "$job.sec" 2>/dev/null || echo ?) s)"
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        cat "$log"
        echo "== $short: stopped after its time limit"
        echo "   $short: stopped after its time limit" >>"$scratch/what_failed"
        sum "$short" 0 1 1
        continue
    fi
    case $kind in
    unit)
        cat "$log"
        sum "$name" "$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)" \
            "$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)" "$status" ;;
    cli)
        cat "$log"
        sum "$name" "$(sed -n 's/^cli: \([0-9]*\) passed.*/\1/p' "$log" | tail -n 1)" \
            "$(sed -n 's/^cli: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$log" | tail -n 1)" \
            "$status" ;;
    web)
        cat "$log"
        sum tests/web "$(sed -n 's/^web: \([0-9]*\) passed.*/\1/p' "$log" | tail -n 1)" \
            "$(sed -n 's/^web: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$log" | tail -n 1)" \
            "$status" ;;
    pytest)
        cat "$log"
        last=$(grep -E '^=* ?[0-9].* in [0-9.]+s' "$log" | tail -n 1)
        f=0
        for n in $(printf '%s\n' "$last" | grep -oE '[0-9]+ (failed|errors?)' | cut -d' ' -f1); do
            f=$((f + n))
        done
        sum pytest "$(printf '%s\n' "$last" | grep -oE '[0-9]+ passed' | cut -d' ' -f1)" "$f" \
            "$status" ;;
    fuzz)
        if [ "$status" -eq 0 ]; then tail -n 2 "$log"; sum "$short" 1 0 0
        else cat "$log"; sum "$short" 0 1 1; fi ;;
    esac
    [ "$status" -eq 0 ] || what_failed "$kind" "$log" "$short"
done

if [ -n "$failed_names" ]; then
    [ ! -s "$scratch/what_failed" ] || { echo "what failed:"; cat "$scratch/what_failed"; }
    echo "failing:$failed_names"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
