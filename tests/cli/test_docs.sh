#!/bin/sh
# SPDX-License-Identifier: MIT
# test_docs.sh - the README and the documents speak of the project, not of how
# it was developed (git history keeps that), and the README stays a front page:
#   1. README.md, docs/, the sources, tests and scripts never name a development step: "issue
#      N", "the sixth session", "this session", "the ninth section" (session.c,
#      a PostgreSQL or FEP session and the like are words of the project and
#      pass: only the ordinal or "this" before "session" is history);
#   2. README.md has at most 300 lines (the rest belongs in docs/);
#   3. every document of docs/ is in the index, docs/README.md, and every
#      relative link of README.md and docs/*.md names a file that exists.
# The patterns are checked against lines that must match and must not, so a
# broken pattern fails too. Prints "cli: N passed, N failed" last.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/cli/lib.sh

ordinal='first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|this|last|next|previous'
history="\\bissues? #?[0-9]|\\b($ordinal) (session|section)s?\\b"

# ---- 1. the pattern itself, then the tree
printf '%s\n' "issue 28's sixth session" "(issue 10, item 2)" "Issue 28, ninth section" \
    "this session had no time" "see issues 9 and 26" >"$tmp/history"
printf '%s\n' "src/host/session.c" "the session runs synchronous_commit = on" \
    "## Example session" "a session's statements" "tmux new-session" >"$tmp/words"
[ "$(grep -ciE "$history" "$tmp/history")" -eq 5 ] && ok ||
    ko "test set-up: the history pattern misses a line of $tmp/history"
if grep -qiE "$history" "$tmp/words"; then ko "test set-up: the history pattern takes a word of the project"; else ok; fi

find README.md docs src web tests bench scripts python examples lessons -type f \
    \( -name '*.md' -o -name '*.c' -o -name '*.h' -o -name '*.js' -o -name '*.mjs' -o -name '*.html' \
    -o -name '*.css' -o -name '*.json' -o -name '*.py' -o -name '*.sh' -o -name '*.steps' \) \
    -not -path '*/node_modules/*' -not -path tests/cli/test_docs.sh 2>/dev/null |
    sort >"$tmp/files"
[ "$(wc -l <"$tmp/files")" -ge 50 ] && ok || ko "test set-up: only $(wc -l <"$tmp/files") files to read"
: >"$tmp/hits"
while read -r f; do
    grep -niE "$history" "$f" | sed "s|^|$f:|" >>"$tmp/hits"
done <"$tmp/files"
if [ -s "$tmp/hits" ]; then
    ko "the documents and the code speak of their development (git history keeps it):"
    head -n 20 "$tmp/hits"
else ok; fi

# ---- 2. the README, a front page
lines=$(wc -l <README.md)
[ "$lines" -le 300 ] && ok || ko "README.md has $lines lines, at most 300: move the details to docs/"

# ---- 3. the index and the links
for f in docs/*.md; do
    b=$(basename "$f")
    [ "$b" = README.md ] && continue
    grep -qF "($b)" docs/README.md && ok || ko "docs/README.md does not list $b"
done
for f in README.md docs/*.md; do
    dir=$(dirname "$f")
    # [text](target) with a relative target: no scheme, no pure anchor
    grep -oE '\]\([^)#[:space:]]+(#[^)]*)?\)' "$f" | sed 's/^](//; s/)$//; s/#.*//' |
        grep -vE '^[a-z]+:' | sort -u | while read -r target; do
        [ -e "$dir/$target" ] || echo "$f: $target"
    done
done >"$tmp/broken"
if [ -s "$tmp/broken" ]; then ko "links to files that do not exist:"; cat "$tmp/broken"; else ok; fi
summary
