#!/bin/sh
# SPDX-License-Identifier: MIT
# test_runner.sh - tests/run.sh itself, on small test programs of our own
# making (shell scripts that print what cmocka prints): the counts of its
# closing line, its exit status, a test that hangs stopped by its time limit
# and counted as a failure, a test that crashes before its summary counted as
# one, and the "what failed:" lines that name the failing tests at the end of
# the output (where a CI summary that keeps only the last lines still shows
# them). Run by tests/run.sh; prints "cli: N passed, N failed" last.
. "$(dirname "$0")/lib.sh"
runner="$(cd "$(dirname "$0")/../.." && pwd)/tests/run.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# unit NAME PASSED FAILED-TEST... : a test program with cmocka's summary.
unit() {
    f="$tmp/bin/$1" n=$2
    shift 2
    {
        echo '#!/bin/sh'
        echo "echo '[==========] tests: Running $((n + $#)) test(s).'"
        for t in "$@"; do
            echo "echo '[ RUN      ] $t'"
            echo "echo '[  ERROR   ] --- 1 != 2'"
            echo "echo '[  FAILED  ] $t'"
        done
        echo "echo '[  PASSED  ] $n test(s).'"
        if [ $# -gt 0 ]; then
            echo "echo '[  FAILED  ] $# test(s), listed below:'"
            for t in "$@"; do echo "echo '[  FAILED  ] $t'"; done
            echo 'exit 1'
        fi
    } >"$f"
    chmod +x "$f"
}
mkdir "$tmp/bin"
unit test_good 3
unit test_bad 2 test_adds_up test_rounds_down
printf '#!/bin/sh\nsleep 30\n' >"$tmp/bin/test_hangs"
printf '#!/bin/sh\necho "[ RUN      ] test_x"\nkill -SEGV $$\n' >"$tmp/bin/test_crashes"
chmod +x "$tmp/bin/test_hangs" "$tmp/bin/test_crashes"

# All good: the counts, status 0, nothing said to have failed.
expect_status "a run that passes" 0 env TEST_KINDS=unit sh "$runner" "$tmp/bin" "$tmp/bin/test_good"
expect_in "its closing line" "$tmp/out" "tests: 3 passed, 0 failed"
expect_not_in "nothing failed" "$tmp/out" "what failed:"
expect_not_in "no job failed" "$tmp/out" "failing:"

# Failures of each kind, side by side.
expect_status "a run with failures" 1 env TEST_KINDS=unit TEST_TIMEOUT=2 TEST_JOBS=2 sh "$runner" \
    "$tmp/bin" "$tmp/bin/test_good" "$tmp/bin/test_bad" "$tmp/bin/test_hangs" "$tmp/bin/test_crashes"
expect_in "the counts: failed tests, the hung and the crashed one" "$tmp/out" "tests: 5 passed, 4 failed"
expect_in "the hung test is stopped" "$tmp/out" "== test_hangs: stopped after its time limit"
expect_in "the jobs that failed" "$tmp/out" "failing: test_bad test_hangs test_crashes"
tail -n 7 "$tmp/out" >"$tmp/last"   # what a summary that keeps the last lines would show
expect_in "the last lines name a failing test" "$tmp/last" "   test_bad: [  FAILED  ] test_adds_up"
expect_in "and the other" "$tmp/last" "   test_bad: [  FAILED  ] test_rounds_down"
expect_in "and the hung one" "$tmp/last" "   test_hangs: stopped after its time limit"
expect_in "in a block of their own" "$tmp/last" "what failed:"
if [ "$(grep -c 'test_adds_up' "$tmp/last")" -eq 1 ]; then ok; else ko "a failing test is named once"; fi

# A test named but not built is a failure, not a silent skip.
expect_status "a missing test" 1 env TEST_KINDS=unit sh "$runner" "$tmp/bin" "$tmp/bin/test_gone"
expect_in "said missing" "$tmp/out" "== test_gone: missing"
expect_in "and counted" "$tmp/out" "tests: 0 passed, 1 failed"

summary
