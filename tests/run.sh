#!/bin/sh
# run.sh - runs every test of `make test` and prints one closing line:
#   "tests: N passed, N failed"
# Usage: tests/run.sh BUILD_DIR [TEST_BINARY...]
#   BUILD_DIR is the sanitizer build (e.g. build/test); the unit test binaries
#   to run are named by `make test` (those of the current tests/unit/*.c), so
#   that a stale binary left in BUILD_DIR by a deleted test is not counted.
#   Without them, every BUILD_DIR/test_* is run.
T=${1:-build/test}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$T"/test_*
passed=0
failed=0
failed_names=""
log=$(mktemp)
scratch=$(mktemp -d)   # libFuzzer writes new inputs into its first corpus folder
trap 'rm -rf "$log" "$scratch"' EXIT

count() {   # $1: name, $2: status, reads cmocka's summary from $log
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed before its summary
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" -eq 0 ] || failed_names="$failed_names $1"
}

for t in "$@"; do
    if [ ! -x "$t" ]; then   # named but not built: a failure, not a silent skip
        echo "== $(basename "$t"): missing"
        failed=$((failed + 1))
        failed_names="$failed_names $(basename "$t")"
        continue
    fi
    echo "== $(basename "$t")"
    FIGARO="$T/figaro" "$t" >"$log" 2>&1   # test_fep_host runs it as an engine
    status=$?
    cat "$log"
    count "$(basename "$t")" "$status"
done

for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    echo "== $(basename "$s")"
    FIGARO="$T/figaro" sh "$s" >"$log" 2>&1
    status=$?
    cat "$log"
    p=$(sed -n 's/^cli: \([0-9]*\) passed.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^cli: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$log" | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" -eq 0 ] || failed_names="$failed_names $(basename "$s")"
done

# The Python binding (python/figaro, tests/python) and `figaro serve` over real
# sockets (tests/net, with python3-websockets) with Debian's python3-pytest.
# It loads the plain -O2 shared libraries of the release build, next to
# $T (`make test` builds them): a sanitized library would need libasan
# preloaded into python3. pytest's closing line ("3 failed, 49 passed in
# 1.2s") gives the counts; exit status 5 (no tests collected) is a failure.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
echo "== pytest tests/python tests/net"
FIGARO="$T/figaro" FIGARO_LIBDIR="$(dirname "$T")" PYTHONDONTWRITEBYTECODE=1 \
    "$PY" -m pytest -q -p no:cacheprovider tests/python tests/net >"$log" 2>&1
status=$?
cat "$log"
last=$(grep -E '^=* ?[0-9].* in [0-9.]+s' "$log" | tail -n 1)
p=$(printf '%s\n' "$last" | grep -oE '[0-9]+ passed' | cut -d' ' -f1)
f=0
for n in $(printf '%s\n' "$last" | grep -oE '[0-9]+ (failed|errors?)' | cut -d' ' -f1); do
    f=$((f + n))
done
p=${p:-0}
if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # no tests (5), crash, bad usage
passed=$((passed + p))
failed=$((failed + f))
[ "$f" -eq 0 ] || failed_names="$failed_names pytest"

# The browser client (web/): tsc --checkJs and the Playwright tests on Debian's
# chromium against a real `figaro serve` (tests/web/run.sh; its closing line
# "web: N passed, N failed").
echo "== tests/web (tsc, Playwright)"
FIGARO="$T/figaro" sh tests/web/run.sh >"$log" 2>&1
status=$?
cat "$log"
p=$(sed -n 's/^web: \([0-9]*\) passed.*/\1/p' "$log" | tail -n 1)
f=$(sed -n 's/^web: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$log" | tail -n 1)
p=${p:-0}
f=${f:-0}
if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
passed=$((passed + p))
failed=$((failed + f))
[ "$f" -eq 0 ] || failed_names="$failed_names tests/web"

# fuzz smoke runs: the seed corpus and a few thousand mutations of each parser
# (tests/fuzz/targets lists them; `make fuzz` runs them for long)
fuzz_smoke() {   # $1: target, $2: max_len, $3...: corpus folders
    target=$1
    max_len=$2
    shift 2
    if [ ! -x "$T/$target" ]; then
        echo "== $target: not built"
        failed=$((failed + 1))
        failed_names="$failed_names $target"
        return
    fi
    echo "== $target (smoke run over its seed corpus and 20000 mutations)"
    mkdir -p "$scratch/$target"
    if "$T/$target" -runs=20000 -seed=1 -max_len="$max_len" "$scratch/$target" "$@" >"$log" 2>&1
    then
        tail -n 2 "$log"
        passed=$((passed + 1))
    else
        cat "$log"
        failed=$((failed + 1))
        failed_names="$failed_names $target"
    fi
}
targets=$(grep '^fuzz_' tests/fuzz/targets)
while read -r target max_len corpora; do
    # the corpora are separate words
    fuzz_smoke "$target" "$max_len" $corpora
done <<EOF
$targets
EOF

[ -z "$failed_names" ] || echo "failing:$failed_names"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
