#!/bin/sh
# SPDX-License-Identifier: MIT
# test_make.sh - the Makefile and its parts (mk/*.mk):
#   1. every static library, in every flavour that makes one (release,
#      sanitizer, fuzz), is archived afresh: the object of a source renamed
#      or removed leaves it at the next build (`ar rcs` alone keeps it), and
#      the table server's sources are found in src/net's subfolders too. On a
#      scratch tree of a few one-line sources, which builds in seconds;
#   2. `make help` lists the targets, each a target of the Makefile, and every
#      target that names no file (.PHONY) has its line.
# Run by tests/run.sh; prints "cli: N passed, N failed" last.
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

# A make of its own: not the jobs of an enclosing `make test`.
unset MAKEFLAGS MFLAGS MAKELEVEL

# ---- 1. archives made afresh
s=$tmp/tree
mkdir -p "$s/include/figaro" "$s/scripts" "$s/tests/fuzz"
cp Makefile "$s/"
cp -R mk "$s/"
cp include/figaro/figaro.h "$s/include/figaro/"
cp scripts/install-deps.sh "$s/scripts/"
cp tests/fuzz/targets "$s/tests/fuzz/"
# (A unit test's source, never built here: with none, the Makefile's
# .SECONDARY of their objects would name no file and so mean every file.)
mkdir -p "$s/tests/unit"
: >"$s/tests/unit/test_none.c"
# src/LIB/NAME.c: a function of its own, so that every object has a symbol.
source() {
    mkdir -p "$s/src/$(dirname "$1")"
    fn=fig_test_$(echo "$1" | tr '/.' '__')
    printf 'int %s(void);\nint %s(void) { return 1; }\n' "$fn" "$fn" >"$s/src/$1.c"
}
for lib in core ai host net; do
    source "$lib/keep"
    source "$lib/old"
done
source net/base/sub
archives="build/libfigaro.a build/libfigaro-ai.a build/libfigaro-host.a build/libfigaro-net.a"
archives="$archives build/test/libfigaro.a build/test/libfigaro-ai.a build/test/libfigaro-host.a"
archives="$archives build/test/libfigaro-net.a build/test/fuzz/libfigaro.a"
archives="$archives build/test/fuzz/libfigaro-ai.a build/test/fuzz/libfigaro-host.a"
archives="$archives build/test/fuzz/libfigaro-net.a"
build() {
    # shellcheck disable=SC2086
    expect_status "make the archives ($1)" 0 make -C "$s" -j2 INSTALL_DEPS=no $archives
}
# members NAME WANT: every archive holds exactly WANT (and net/base/sub.o in net's).
members() {
    for a in $archives; do
        want=$2
        case $a in *-net.a) want="$want sub.o" ;; esac
        got=$(ar t "$s/$a" 2>&1 | sort | tr '\n' ' ')
        want=$(printf '%s\n' $want | sort | tr '\n' ' ')
        if [ "$got" = "$want" ]; then ok; else ko "$1: $a holds '$got', not '$want'"; fi
    done
}
build "first"
members "first build" "keep.o old.o"
for lib in core ai host net; do mv "$s/src/$lib/old.c" "$s/src/$lib/renamed.c"; done
build "a source renamed"
members "a source renamed" "keep.o renamed.o"
for lib in core ai host net; do rm "$s/src/$lib/renamed.c"; done
build "a source removed"
members "a source removed" "keep.o"

# ---- 2. make help
expect_status "make help" 0 make -s help
cp "$tmp/out" "$tmp/help"
n=$(grep -c '^  make [a-z-]* ' "$tmp/help")
if [ "$n" -ge 20 ] && [ "$n" -eq "$(wc -l <"$tmp/help")" ]; then ok
else ko "make help: $n lines of 'make TARGET  what it does' out of $(wc -l <"$tmp/help")"; fi
for t in all test check-quick test-tsan fuzz install uninstall deb pot pot-to help; do
    expect_in "make help lists $t" "$tmp/help" "  make $t "
done
# The rules' database: the targets, and those that name no file.
make -pq B="$tmp/b" T="$tmp/b/test" >"$tmp/db" 2>/dev/null
sed -n 's/^\.PHONY: //p' "$tmp/db" | tr ' ' '\n' | grep -v -e / -e '^FORCE$' -e '^$' | sort -u \
    >"$tmp/phony"
sed -n 's/^  make \([a-z-]*\) .*/\1/p' "$tmp/help" | sort >"$tmp/listed"
for t in $(cat "$tmp/listed"); do
    if grep -q "^$t:" "$tmp/db"; then ok; else ko "make help lists $t, which is no target"; fi
done
missing=$(comm -23 "$tmp/phony" "$tmp/listed" | tr '\n' ' ')
if [ -z "$missing" ]; then ok; else ko "targets without a line in make help: $missing"; fi
cd "$root" || exit 1

summary
