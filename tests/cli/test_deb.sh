#!/bin/sh
# SPDX-License-Identifier: MIT
# test_deb.sh - the Debian packages as a person meets them: `make deb` builds
# them (dpkg-buildpackage from debian/, lintian without errors) into a folder
# of this test, each package holds what docs/development.md's "Packages" says, and, once
# extracted into a scratch root (dpkg -x), the command plays, replays, counts
# moves and serves (/healthz on a loopback port), also under qemu's baseline
# x86-64 processor (qemu-x86_64 -cpu qemu64: no popcnt, no pdep, no AVX) with
# the same results; a C program builds with pkg-config against libfigaro-dev
# and runs on libfigaro0 (versioned symbols, the match runner of match.h);
# the Python package imports from the root and finds its library; the
# table server's unit is installed, neither enabled nor started, and runs as
# systemd would run it (test_service_unit.sh on the packaged files); the
# hardening flags of dpkg-buildflags reached the build; the man pages render.
# Run by tests/run.sh (FIGARO: the sanitizer build, the reference output);
# prints "cli: N passed, N failed" last.
cd "$(dirname "$0")/../.." || exit 1
src=$(pwd)
tmp=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

FIGARO=${FIGARO:-build/test/figaro}
case $FIGARO in /*) ;; *) FIGARO=$src/$FIGARO ;; esac
unset MAKEFLAGS MFLAGS MAKELEVEL   # a make of its own, not the jobs of `make test`
v=$(sed -n 's/^#define FIG_VERSION "\(.*\)"/\1/p' include/figaro/figaro.h)
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
out=$tmp/out.d
root=$tmp/root
lib=$root/usr/lib/$arch
QEMU="qemu-x86_64 -cpu qemu64"

# ---- build: dpkg-buildpackage, then lintian (errors fail make deb)
make -s deb DEB_OUT="$out" >"$tmp/build.log" 2>&1
st=$?
if [ "$st" -eq 0 ]; then ok; else ko "make deb: exit $st"; tail -n 40 "$tmp/build.log"; fi
grep -E '^[EW]: ' "$tmp/build.log" >"$tmp/lintian"
if [ -s "$tmp/lintian" ]; then ko "lintian errors or warnings:"; cat "$tmp/lintian"; else ok; fi
expect_in "lintian ran" "$tmp/build.log" "lintian: no errors"
expect_in "dh_auto_test counted moves" "$tmp/build.log" "perft: 27 checked"
if [ ! -e debian/files ] && [ ! -e debian/tmp ]; then ok; else ko "make deb built in the source tree"; fi

for p in figaro libfigaro0 libfigaro-ai0 libfigaro-dev; do
    f=$out/${p}_${v}_amd64.deb
    if [ -f "$f" ]; then ok; else ko "$p: no $f"; fi
done
f=$out/python3-figaro_${v}_all.deb
if [ -f "$f" ]; then ok; else ko "python3-figaro: no $f"; fi

# ---- contents: each package holds its part and only it
contents() { dpkg -c "$out/$1" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/$2.list"; }
contents "figaro_${v}_amd64.deb" figaro
contents "libfigaro0_${v}_amd64.deb" lib
contents "libfigaro-ai0_${v}_amd64.deb" libai
contents "libfigaro-dev_${v}_amd64.deb" dev
contents "python3-figaro_${v}_all.deb" py
for f in /usr/games/figaro /usr/share/man/man1/figaro.1.gz /usr/share/man/man5/figaro-fgn.5.gz \
         /usr/share/man/man7/figaro-fep.7.gz /usr/share/figaro/web/index.html \
         /usr/share/figaro/web/i18n/fr.json /usr/share/figaro/web/rules/fr.json \
         /usr/share/figaro/web/lessons/fr.json /usr/share/figaro/web/app.js.gz \
         /usr/share/figaro/web/i18n/fr.json.gz /usr/share/figaro/web/manifest.webmanifest \
         /usr/share/locale/fr/LC_MESSAGES/figaro.mo \
         /usr/share/doc/figaro/fgn.md /usr/share/doc/figaro/copyright; do
    expect_in "figaro holds $f" "$tmp/figaro.list" "$f"
done
expect_not_in "figaro: no library" "$tmp/figaro.list" ".so"
expect_in "libfigaro0 holds the library" "$tmp/lib.list" "/usr/lib/$arch/libfigaro.so.$v"
expect_not_in "libfigaro0: not the bots" "$tmp/lib.list" "libfigaro-ai"
expect_not_in "libfigaro0: no .so link" "$tmp/lib.list" "libfigaro.so "
expect_in "libfigaro-ai0 holds the bots" "$tmp/libai.list" "/usr/lib/$arch/libfigaro-ai.so.$v"
for f in /usr/include/figaro/figaro.h /usr/include/figaro/match.h /usr/lib/$arch/libfigaro.so \
         /usr/lib/$arch/libfigaro-ai.so /usr/lib/$arch/libfigaro-host.a \
         /usr/lib/$arch/pkgconfig/figaro.pc /usr/lib/$arch/pkgconfig/figaro-host.pc \
         /usr/share/man/man3/figaro-game.3.gz /usr/share/man/man3/fig_game_play.3.gz; do
    expect_in "libfigaro-dev holds $f" "$tmp/dev.list" "$f"
done
expect_in "python3-figaro holds the package" "$tmp/py.list" \
    "/usr/lib/python3/dist-packages/figaro/__init__.py"
dpkg -f "$out/libfigaro-dev_${v}_amd64.deb" Depends >"$tmp/deps"
expect_in "libfigaro-dev needs this libfigaro0" "$tmp/deps" "libfigaro0 (= $v)"
dpkg -f "$out/python3-figaro_${v}_all.deb" Depends >"$tmp/deps"
expect_in "python3-figaro needs libfigaro0" "$tmp/deps" "libfigaro0 (>= $v)"
expect_in "python3-figaro needs python3" "$tmp/deps" "python3"
dpkg -f "$out/figaro_${v}_amd64.deb" Depends >"$tmp/deps"
expect_in "figaro needs libwebsockets" "$tmp/deps" "libwebsockets"

mkdir -p "$root"
for d in "$out"/*.deb; do
    case $d in *-dbgsym_*) continue ;; esac
    dpkg -x "$d" "$root" || ko "dpkg -x $d"
done
fig=$root/usr/games/figaro

# ---- the command, here and on the baseline processor
expect_status "figaro --version" 0 "$fig" --version
expect_in "version" "$tmp/out" "figaro $v"
"$FIGARO" random-game --players 4 --seed 7 >"$tmp/ref.fgn" 2>/dev/null
expect_status "random-game" 0 "$fig" random-game --players 4 --seed 7
cmp -s "$tmp/out" "$tmp/ref.fgn" && ok || ko "packaged random-game differs from the build's"
# A processor without popcnt: the loader picks the portable copies (bits.h).
expect_status "random-game under qemu64" 0 $QEMU "$fig" random-game --players 4 --seed 7
cmp -s "$tmp/out" "$tmp/ref.fgn" && ok || ko "random-game under qemu64 differs"
expect_status "replay under qemu64" 0 $QEMU "$fig" replay tests/cases/finished-4p.fgn
"$FIGARO" replay tests/cases/finished-4p.fgn >"$tmp/ref.txt" 2>/dev/null
cmp -s "$tmp/out" "$tmp/ref.txt" && ok || ko "replay under qemu64 differs"
expect_status "perft counts under qemu64" 0 sh tests/perft/check.sh --depth 3 $QEMU "$fig"
expect_in "perft counted" "$tmp/out" "perft: 27 checked"
expect_status "a bot game under qemu64" 0 $QEMU "$fig" arena --players 4 --games 4 \
    --bot greedy --bot random --bot 'ismcts:iters=300' --bot random --seed 3
# qemu64 really refuses what baseline x86-64 lacks: a popcnt build dies there.
printf 'int main(int c, char **v) { (void)v; return __builtin_popcount((unsigned)c * 7u) > 9; }\n' \
    >"$tmp/popcnt.c"
cc -O2 -mpopcnt -o "$tmp/popcnt" "$tmp/popcnt.c"
expect_status "popcnt runs here" 0 "$tmp/popcnt"
$QEMU "$tmp/popcnt" >/dev/null 2>&1
st=$?
if [ "$st" -ne 0 ]; then ok; else ko "qemu64 ran popcnt: the portability checks prove nothing"; fi

# the translations and the browser client, found beside the command
expect_status "rules in French" 0 env -i PATH=/usr/bin:/bin LANGUAGE=fr LANG=C.UTF-8 "$fig" rules
expect_not_in "French, not English" "$tmp/out" "Figaro: the rules in brief"
mkdir -p "$tmp/data"
"$fig" serve --listen 127.0.0.1:0 --data "$tmp/data" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
port=""
for _ in $(seq 50); do
    port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.out")
    [ -n "$port" ] && break
    sleep 0.2
done
if [ -n "$port" ]; then ok; else ko "serve printed no port"; cat "$tmp/serve.err"; fi
http() {
    /usr/bin/python3 - "$port" "$1" <<'PY'
import sys, urllib.request
with urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=10) as r:
    print(r.status)
    sys.stdout.write(r.read().decode("utf-8", "replace"))
PY
}
http /healthz >"$tmp/health" 2>&1
expect_in "serve answers /healthz" "$tmp/health" "200"
http / >"$tmp/index" 2>&1
expect_in "serve serves the packaged browser client" "$tmp/index" "<html"
# Its text files go gzip: the packaged copies are not older than their files.
/usr/bin/python3 - "$port" "$root/usr/share/figaro/web/app.js" >"$tmp/gz" 2>&1 <<'PY'
import gzip, sys, urllib.request
req = urllib.request.Request("http://127.0.0.1:%s/app.js" % sys.argv[1],
                             headers={"Accept-Encoding": "gzip"})
with urllib.request.urlopen(req, timeout=10) as r, open(sys.argv[2], "rb") as f:
    same = gzip.decompress(r.read()) == f.read()
    print(r.headers.get("Content-Encoding"), "same" if same else "differs")
PY
expect_in "serve sends the packaged gzip copies" "$tmp/gz" "gzip same"
kill "$pid" && wait "$pid" 2>/dev/null
pid=""

# ---- the table server as a service: its unit and options file, neither
# enabled nor started on installation, restarted on upgrade if it runs,
# stopped on removal; the packaged unit, file and program as systemd runs
# them (test_service_unit.sh, with the root's copies)
expect_in "figaro holds the unit" "$tmp/figaro.list" "/lib/systemd/system/figaro.service"
expect_in "figaro holds its options file" "$tmp/figaro.list" "/etc/default/figaro"
dpkg-deb -e "$out/figaro_${v}_amd64.deb" "$tmp/ctl"
expect_in "the options file is a conffile" "$tmp/ctl/conffiles" "/etc/default/figaro"
expect_in "enabled on installation only if it was before" "$tmp/ctl/postinst" \
    "deb-systemd-helper debian-installed 'figaro.service'"
expect_not_in "not enabled on installation" "$tmp/ctl/postinst" "new installations run enable"
expect_not_in "not started on installation" "$tmp/ctl/postinst" "deb-systemd-invoke start"
expect_in "restarted on upgrade if it runs" "$tmp/ctl/postinst" "deb-systemd-invoke try-restart"
expect_in "stopped on removal" "$tmp/ctl/prerm" "deb-systemd-invoke stop figaro.service"
if [ -f "$tmp/ctl/preinst" ]; then
    expect_not_in "not stopped before an upgrade" "$tmp/ctl/preinst" "deb-systemd-invoke stop"
else ok; fi
grep -E '^[EWI]: .*(systemd|init\.d|init-d)' "$tmp/build.log" >"$tmp/lintian-unit"
if [ -s "$tmp/lintian-unit" ]; then ko "lintian on the unit:"; cat "$tmp/lintian-unit"; else ok; fi
chmod 755 "$tmp"   # the service's program runs as nobody in test_service_unit.sh
FIGARO=$fig UNIT=$root/lib/systemd/system/figaro.service DEFAULTS=$root/etc/default/figaro \
    sh tests/cli/test_service_unit.sh >"$tmp/unit.log" 2>&1
st=$?
if [ "$st" -eq 0 ]; then ok; else ko "the packaged service (test_service_unit.sh):"; cat "$tmp/unit.log"; fi
sed -n 's/^cli: /the packaged service: /p; /^exposure level/p' "$tmp/unit.log"

# ---- hardening: dpkg-buildflags' CPPFLAGS, CFLAGS and LDFLAGS reached the build
readelf -d "$fig" >"$tmp/dyn"
expect_in "bind now (LDFLAGS)" "$tmp/dyn" "BIND_NOW"
readelf -lW "$fig" >"$tmp/seg"
expect_in "relro (LDFLAGS)" "$tmp/seg" "GNU_RELRO"
nm -D "$fig" >"$tmp/syms"
expect_in "fortified calls (CPPFLAGS -D_FORTIFY_SOURCE)" "$tmp/syms" "_chk"
expect_in "stack protector (CFLAGS)" "$tmp/syms" "__stack_chk_fail"
readelf -d "$lib/libfigaro.so.$v" >"$tmp/dyn"
expect_in "library: bind now" "$tmp/dyn" "BIND_NOW"
expect_in "library soname" "$tmp/dyn" "Library soname: [libfigaro.so.0]"

# ---- a C program against libfigaro-dev, found by pkg-config in the root
pc() {
    PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root pkg-config "$@"
}
expect_in "figaro.pc has a prefix" "$lib/pkgconfig/figaro.pc" "prefix=/usr"
awk '/^```c$/ { on = 1; next } /^```$/ { if (on) exit } on' docs/engine.md >"$tmp/example.c"
flags=$(pc --cflags --libs figaro)
case $flags in *"-I$root/usr/include"*"-L$lib"*) ok ;; *) ko "pkg-config flags: $flags" ;; esac
# shellcheck disable=SC2086
expect_status "engine example builds" 0 cc -std=c11 -Wall -Werror -o "$tmp/example" \
    "$tmp/example.c" $flags
expect_status "engine example runs" 0 env LD_LIBRARY_PATH="$lib" "$tmp/example"
expect_in "engine example output" "$tmp/out" "wins with a road of"
objdump -T "$tmp/example" >"$tmp/dynsyms"
expect_in "bound to the versioned symbols" "$tmp/dynsyms" "FIGARO_0"
expect_status "engine example under qemu64" 0 env LD_LIBRARY_PATH="$lib" $QEMU "$tmp/example"
# match.h: what it promises links (libfigaro-host.a, figaro-host.pc)
cat >"$tmp/match.c" <<'C'
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include "figaro/figaro.h"
#include "figaro/match.h"
int main(void)
{
    fig_match_opts_t o;
    fig_msg_t msg;
    fig_match_t *m;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, 4, 11, NULL);
    for (int s = 0; s < 4; s++)
        if (fig_bot_new(&o.bots[s], s % 2 ? "random" : "greedy", (uint64_t)s, &msg) != FIG_OK)
            return fprintf(stderr, "%s\n", msg.text), 1;
    if (fig_match_new(&m, &o, &msg) != FIG_OK)   /* pool NULL: one worker of its own */
        return fprintf(stderr, "%s\n", msg.text), 1;
    while (fig_match_status(m) != FIG_MATCH_OVER) {
        while (fig_match_step(m, NULL))
            ;
        struct pollfd p = { .fd = fig_match_fd(m), .events = POLLIN };
        if (fig_match_status(m) != FIG_MATCH_OVER && poll(&p, 1, 10000) <= 0)
            return fprintf(stderr, "no progress\n"), 1;
    }
    const fig_game_t *g = fig_match_game(m);
    printf("over after %d moves\n", g->nmoves[0] + g->nmoves[1] + g->nmoves[2]);
    fig_match_free(m);
    return 0;
}
C
flags=$(pc --cflags --libs figaro-host)
# shellcheck disable=SC2086
expect_status "match program builds" 0 cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Werror \
    -o "$tmp/match" "$tmp/match.c" $flags
expect_status "match program runs" 0 env LD_LIBRARY_PATH="$lib" "$tmp/match"
expect_in "match program output" "$tmp/out" "over after"

# ---- the Python package from the root
py() { env PYTHONPATH="$root/usr/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1 "$@"; }
expect_status "python imports the package" 0 py FIGARO_LIBDIR="$lib" /usr/bin/python3 -c \
    'import figaro, sys; print(figaro.core_path); sys.stdout.write(figaro.random_game(4, 7).to_fgn())'
expect_in "python used the packaged library" "$tmp/out" "$lib/libfigaro.so.0"
tail -n +2 "$tmp/out" | cmp -s - "$tmp/ref.fgn" && ok || ko "python's record differs"
expect_in "the package is told no directory" "$root/usr/lib/python3/dist-packages/figaro/_paths.py" \
    "LIBDIR = None"
# as on an installed system: the loader's path finds it (here LD_LIBRARY_PATH), on qemu64 too
expect_status "python with the loader's path, qemu64" 0 py LD_LIBRARY_PATH="$lib" \
    $QEMU /usr/bin/python3 -c 'import figaro; print(figaro.core_path); b = figaro.Bot("greedy", 1)'
expect_in "loader found the packaged library" "$tmp/out" "libfigaro.so.0"

# ---- the man pages render without warnings; fgn(5) points to the installed document
for m in man1/figaro.1.gz man5/figaro-fgn.5.gz man7/figaro-fep.7.gz man3/figaro.3.gz \
         man3/figaro-bot.3.gz man3/fig_game_play.3.gz; do
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$root/usr/share/man/$m" >"$tmp/man" 2>"$tmp/manerr"
    if [ -s "$tmp/man" ] && [ ! -s "$tmp/manerr" ]; then ok
    else ko "man $m: $(head -c 300 "$tmp/manerr")"; fi
done
LC_ALL=C.UTF-8 man -l "$root/usr/share/man/man3/fig_bot_new.3.gz" >"$tmp/man" 2>/dev/null
expect_in "fig_bot_new(3) is bot.h's page" "$tmp/man" "fig_bot_new"
expect_in "fig_bot_new(3) says its library" "$tmp/man" "libfigaro-ai"
LC_ALL=C.UTF-8 man -l "$root/usr/share/man/man5/figaro-fgn.5.gz" >"$tmp/man" 2>/dev/null
expect_in "fgn(5) names the installed document" "$tmp/man" "/usr/share/doc/figaro/fgn.md"
if [ -f "$root/usr/share/doc/figaro/fgn.md" ]; then ok; else ko "fgn.md not installed"; fi

summary
