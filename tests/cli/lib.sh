# SPDX-License-Identifier: MIT
# lib.sh - what every tests/cli script shares: the pass and fail counts, the
# checks that feed them, and the closing line tests/run.sh reads. Sourced by
# each script; the checks keep their output in the script's folder $tmp.
pass=0
fail=0

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_status NAME STATUS CMD... : runs CMD, checks its exit status; keeps
# stdout in $tmp/out and stderr in $tmp/err for later checks.
expect_status() {
    name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else ko "$name: exit $got, expected $want"; tail -n 20 "$tmp/err"; fi
}

# expect_in / expect_not_in NAME FILE TEXT : FILE does (not) contain TEXT, a fixed string.
expect_in() {
    if grep -qF -- "$3" "$2"; then ok; else ko "$1: '$3' not in $(basename "$2"):"; head -c 600 "$2"; echo; fi
}
expect_not_in() {
    if grep -qF -- "$3" "$2"; then ko "$1: '$3' should not be in $(basename "$2")"; else ok; fi
}

# The closing line; the script's exit status says whether every check passed.
summary() {
    echo "cli: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
