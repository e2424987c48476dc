#!/bin/sh
# run.sh - runs every test of `make test` and prints one closing line:
#   "tests: N passed, N failed"
# Usage: tests/run.sh BUILD_DIR   (the sanitizer build, e.g. build/test)
T=${1:-build/test}
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

for t in "$T"/test_*; do
    [ -x "$t" ] || continue
    echo "== $(basename "$t")"
    "$t" >"$log" 2>&1
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

# fuzz smoke runs: the seed corpus and a few thousand mutations of each parser
fuzz_smoke() {   # $1: target, $2...: corpus folders
    target=$1
    shift
    [ -x "$T/$target" ] || return 0
    echo "== $target (smoke run over its seed corpus and 20000 mutations)"
    mkdir -p "$scratch/$target"
    if "$T/$target" -runs=20000 -seed=1 -max_len=16384 "$scratch/$target" "$@" >"$log" 2>&1; then
        tail -n 2 "$log"
        passed=$((passed + 1))
    else
        cat "$log"
        failed=$((failed + 1))
        failed_names="$failed_names $target"
    fi
}
fuzz_smoke fuzz_fgn tests/fuzz/corpus tests/cases
fuzz_smoke fuzz_fep tests/fuzz/corpus-fep
fuzz_smoke fuzz_mo -max_len=65536 tests/fuzz/corpus-mo   # catalogues are ~50 KB

[ -z "$failed_names" ] || echo "failing:$failed_names"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
