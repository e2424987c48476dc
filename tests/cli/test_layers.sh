#!/bin/sh
# SPDX-License-Identifier: MIT
# test_layers.sh - the layers of docs/architecture.md, enforced.
#
#   core <- ai <- host <- tui <- cli      (net: the table server, on host,
#                                          beside tui; only cli may include it)
#
#   1. includes: every #include "..." of src/ and include/figaro/ points to its
#      own layer or one below (core 0, ai 1, host 2, tui 3, cli 4; net 3, on
#      host only: never tui or cli, and only cli includes net); include/figaro/*.h are core, but bot.h and bot_batch.h are ai and match.h
#      host, the layers that implement them. System headers: curses only in
#      tui, libintl and getopt only in cli, libwebsockets only in
#      src/net/wire/wire.c and libuv only in src/net/wire/wire_loop.c (the loop lws is
#      lent: the one file that calls each), SQLite only in
#      src/net/store/db_sqlite.c and libpq only in src/net/store/db_pg.c (the storage's
#      back ends, behind net/store/db.h). A violation names the file, the
#      line, what it includes and why that is not allowed.
#   2. circles: no cycle in the include graph of modules (a module is a .c
#      and the .h of the same name beside it: store.c + store.h), e.g. a.c
#      includes b.h while b.c includes a.h. Each cycle is printed with the
#      include lines that make it.
#   4. calls: no cycle in the call graph of the modules of host, net, tui
#      and cli, read with nm from their objects beside $FIGARO (a module
#      calls another when it uses a symbol that one defines); plain mode
#      (cli/play_plain.c, cli/plain_*.c) reaches no module that includes
#      curses, through any path.
#   5. sizes: in src (files of one job each), no file over FILE_MAX lines
#      and no function over FN_MAX (from its opening brace, alone on its
#      line as every function's is, to its closing one); an offender is
#      named with its line count.
#   6. rooms: every file of src/net lives in one of its rooms (a folder a
#      family: base, store, proto, push, table, service, wire), and a room
#      includes and calls only its own and those below it: base <- store,
#      proto <- table <- service <- wire, and base <- push <- service; store,
#      proto and push side by side (none uses another). A violation names
#      the file and line, or the call.
#   3. libfigaro-host.a (LAYERS_HOST_LIB, else libfigaro-host.a beside
#      $FIGARO) references no curses or terminfo symbol (the list is read
#      from the installed libncursesw and libtinfo), no libintl or locale
#      call (gettext & co., setlocale, setenv, putenv), nothing that ends the
#      process or prints (exit, abort, printf, puts, fprintf, perror, stdout,
#      stderr), no getopt, and no symbol of the tui or cli layers. `_exit` is
#      allowed: the FEP host's child calls it after a failed exec. The same
#      for libfigaro-net.a (the table server below the network) when it is
#      there: it logs through a callback, never prints.
#
# The checks are themselves checked first, on small trees and libraries made
# here (a clean one passes, each kind of violation is caught), so that a
# passing run means something. `sh tests/cli/test_layers.sh --check DIR`
# checks the includes of another tree (e.g. a scratch copy) and nothing else.
# Run by tests/run.sh with FIGARO set to the sanitizer build. Prints
# "cli: N passed, N failed" last.
FIGARO=${FIGARO:-build/test/figaro}
export LC_ALL=C   # sort, comm and join must agree on the order
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

# ---- the layers

# layer_of PATH (relative to the tree's root): the layer, or nothing.
layer_of() {
    case $1 in
        include/figaro/bot.h|include/figaro/bot_batch.h) echo ai ;;
        include/figaro/match.h) echo host ;;
        include/figaro/*) echo core ;;
        src/core/*) echo core ;;
        src/ai/*) echo ai ;;
        src/host/*) echo host ;;
        src/tui/*) echo tui ;;
        src/cli/*) echo cli ;;
        src/net/*) echo net ;;
    esac
}

rank_of() {
    case $1 in core) echo 0 ;; ai) echo 1 ;; host) echo 2 ;; tui|net) echo 3 ;; cli) echo 4 ;; esac
}

# What each layer may include (its own layer and those below it).
allowed() {
    case $1 in
        core) echo "core" ;;
        ai) echo "core, ai" ;;
        host) echo "core, ai, host" ;;
        tui) echo "core, ai, host, tui" ;;
        cli) echo "core, ai, host, tui, net, cli" ;;
        net) echo "core, ai, host, net" ;;
    esac
}

# listed LIST ITEM: whether ITEM is one of the comma-separated LIST.
listed() {
    case ", $1," in *", $2,"*) return 0 ;; esac
    return 1
}

may_include() { listed "$(allowed "$1")" "$2"; }   # FROM TO

# ---- the rooms of src/net (docs/architecture.md): a folder a family, the
# calls going down: base <- store, proto <- table <- service <- wire, and
# base <- push (Web Push) <- service.

# room_of PATH: the room of a file of src/net (src/net/store/db.c: store),
# "none" for a file of src/net outside its rooms, nothing for other files.
room_of() {
    case $1 in
        src/net/base/*|src/net/store/*|src/net/proto/*|src/net/push/*|src/net/table/*|\
        src/net/service/*|src/net/wire/*)
            r=${1#src/net/}; echo "${r%%/*}" ;;
        src/net/*) echo none ;;
    esac
}

# What each room may include or call: its own and those below it (store,
# proto and push stand side by side on base, and none uses another).
room_allowed() {
    case $1 in
        base) echo "base" ;;
        store) echo "base, store" ;;
        proto) echo "base, proto" ;;
        push) echo "base, push" ;;
        table) echo "base, store, proto, table" ;;
        service) echo "base, store, proto, push, table, service" ;;
        wire) echo "base, store, proto, push, table, service, wire" ;;
    esac
}

# goes_up_a_room FROM_PATH TO_PATH: whether both are files of rooms and the
# first may not use the second; $ra and $rb are then their rooms.
goes_up_a_room() {
    ra=$(room_of "$1") rb=$(room_of "$2")
    [ -n "$ra" ] && [ -n "$rb" ] && [ "$ra" != none ] && [ "$rb" != none ] &&
        ! listed "$(room_allowed "$ra")" "$rb"
}

# System headers a layer may not include: prints why, or nothing.
system_rule() {   # LAYER HEADER FILE
    case $2 in
        libwebsockets.h|libwebsockets/*)
            [ "$3" = src/net/wire/wire.c ] || echo "only src/net/wire/wire.c calls libwebsockets" ;;
        uv.h|uv/*)
            [ "$3" = src/net/wire/wire_loop.c ] || echo "only src/net/wire/wire_loop.c runs the event loop (libuv)" ;;
        sqlite3.h)
            [ "$3" = src/net/store/db_sqlite.c ] || echo "only src/net/store/db_sqlite.c calls SQLite (others: net/store/db.h)" ;;
        libpq-fe.h|libpq/*|postgres_ext.h|pg_config*.h)
            [ "$3" = src/net/store/db_pg.c ] || echo "only src/net/store/db_pg.c calls libpq (others: net/store/db.h)" ;;
        curses.h|ncurses.h|ncursesw/*|term.h|panel.h|menu.h|form.h)
            [ "$1" = tui ] || echo "only the tui layer uses curses" ;;
        libintl.h)
            case $1 in tui|cli) ;; *) echo "only the front ends (tui, cli) call libintl: below them, a fig_tr_t translator" ;; esac ;;
        getopt.h) [ "$1" = cli ] || echo "only the cli layer parses command lines" ;;
    esac
}

# module PATH: the file without its extension, under its layer's folder
# (src/host/store.c and src/host/store.h are host/store; include/figaro/view.h
# is figaro/view).
module() {
    p=${1%.*}
    case $p in include/*) echo "${p#include/}" ;; src/*) echo "${p#src/}" ;; *) echo "$p" ;; esac
}

# check_includes ROOT: writes violations to $tmp/violations and the module
# graph's cycles to $tmp/cycles; returns 0 when there are none.
check_includes() {
    root=$1
    : >"$tmp/violations"
    : >"$tmp/edges"
    (cd "$root" && find src include -name '*.[ch]' 2>/dev/null | sort) >"$tmp/files"
    while read -r f; do
        from=$(layer_of "$f")
        [ -n "$from" ] || continue
        [ "$(room_of "$f")" != none ] ||
            echo "$f: a file of src/net lives in one of its rooms (base, store, proto, push," \
                 "table, service, wire)" >>"$tmp/violations"
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$root/$f" |
            sed 's/^\([0-9]*\):[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^>"]*\)[>"].*/\1 \2 \3/' \
            >"$tmp/incs"
        while read -r line kind inc; do
            if [ "$kind" = "<" ]; then
                why=$(system_rule "$from" "$inc" "$f")
                [ -z "$why" ] ||
                    echo "$f:$line: includes <$inc>: $why ($f is in the $from layer)" >>"$tmp/violations"
                continue
            fi
            if [ -f "$root/include/$inc" ]; then to_file=include/$inc
            elif [ -f "$root/src/$inc" ]; then to_file=src/$inc
            elif [ -f "$root/$(dirname "$f")/$inc" ]; then to_file=$(dirname "$f")/$inc
            else
                echo "$f:$line: includes \"$inc\", which is not a file of include/ or src/" \
                    >>"$tmp/violations"
                continue
            fi
            to=$(layer_of "$to_file")
            if ! may_include "$from" "$to"; then
                echo "$f:$line: includes \"$inc\" ($to, layer $(rank_of "$to")): $f is in the" \
                     "$from layer (layer $(rank_of "$from")), which may include $(allowed "$from")" \
                     "only" >>"$tmp/violations"
            fi
            if goes_up_a_room "$f" "$to_file"; then
                echo "$f:$line: includes \"$inc\" (room $rb): $f is in the room $ra, which" \
                     "may use $(room_allowed "$ra") only" >>"$tmp/violations"
            fi
            a=$(module "$f")
            b=$(module "$to_file")
            [ "$a" = "$b" ] || echo "$a $b $f:$line" >>"$tmp/edges"
        done <"$tmp/incs"
    done <"$tmp/files"
    find_cycles include <"$tmp/edges" >"$tmp/cycles"
    [ ! -s "$tmp/violations" ] && [ ! -s "$tmp/cycles" ]
}

# find_cycles KIND: reads "A B where" edges; prints each group of modules
# that reach one another (a strongly connected component of more than one
# module), with the edges inside the group ("KIND cycle among modules: ...").
find_cycles() {
    awk -v kind="$1" '
    { if (!(($1, $2) in e)) { e[$1, $2] = $3; r[$1, $2] = 1 } else e[$1, $2] = e[$1, $2] ", " $3
      m[$1] = 1; m[$2] = 1 }
    END {
        n = 0
        for (x in m) name[++n] = x
        for (k = 1; k <= n; k++)            # transitive closure (tens of modules)
            for (i = 1; i <= n; i++) {
                if (!((name[i], name[k]) in r)) continue
                for (j = 1; j <= n; j++)
                    if ((name[k], name[j]) in r) r[name[i], name[j]] = 1
            }
        for (i = 1; i <= n; i++) {
            a = name[i]
            if (done[a] || !((a, a) in r)) continue
            group = ""
            for (j = 1; j <= n; j++) {
                b = name[j]
                if ((a, b) in r && (b, a) in r) { done[b] = 1; members[b] = 1 }
            }
            # members in a stable order, then the edges among them
            cnt = 0
            for (b in members) list[++cnt] = b
            for (x = 1; x <= cnt; x++) for (y = x + 1; y <= cnt; y++)
                if (list[y] < list[x]) { t = list[x]; list[x] = list[y]; list[y] = t }
            for (x = 1; x <= cnt; x++) group = group (x > 1 ? " <-> " : "") list[x]
            print kind " cycle among modules: " group
            for (x = 1; x <= cnt; x++) for (y = 1; y <= cnt; y++)
                if ((list[x], list[y]) in e)
                    print "    " list[x] " -> " list[y] " (" e[list[x], list[y]] ")"
            delete members
            delete list
        }
    }' | awk '/^[a-z]* cycle/ { if (block) print block; block = $0; next }
              { block = block "\n" $0 } END { if (block) print block }'
}

# ---- calls between modules

# check_calls OBJDIR FILE...: the call graph of the modules whose sources are
# given (src/LAYER/NAME.c, compiled to OBJDIR/LAYER/NAME.o): an edge A -> B for
# each global symbol A uses and B defines. Writes its cycles to $tmp/calls
# (a module that calls another which calls it back, through any path, e.g.
# main.c dispatching to the commands that call main.c's helpers); returns 0
# when there are none.
check_calls() {
    dir=$1
    shift
    : >"$tmp/defs"
    : >"$tmp/uses"
    for c in "$@"; do
        m=${c##*/src/}
        m=${m%.c}
        o=$dir/$m.o
        [ -f "$o" ] || { echo "calls: no object $o for $c" >>"$tmp/calls_missing"; continue; }
        nm -g --defined-only "$o" | awk -v m="$m" 'NF == 3 && $2 ~ /[TDBR]/ { print $3, m }' \
            >>"$tmp/defs"
        nm -u "$o" | awk -v m="$m" '{ print $NF, m }' >>"$tmp/uses"
    done
    sort -k1,1 -o "$tmp/defs" "$tmp/defs"
    sort -k1,1 -o "$tmp/uses" "$tmp/uses"
    join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2, $3, $1 }' | sort -u >"$tmp/call_edges"
    find_cycles call <"$tmp/call_edges" >"$tmp/calls"
    # a room of src/net calls only its own and those below it
    while read -r a b sym; do
        ! goes_up_a_room "src/$a.c" "src/$b.c" ||
            echo "call up a room: $a -> $b ($sym): the room $ra may use $(room_allowed "$ra") only"
    done <"$tmp/call_edges" >>"$tmp/calls"
    [ ! -s "$tmp/calls" ]
}

# check_plain ROOT: the modules that plain mode (cli/play_plain, cli/plain_*)
# reaches through its calls ($tmp/call_edges, as check_calls left them) and
# that include curses: none may, plain mode being the game for screen readers
# and for terminals curses cannot drive. Writes them to $tmp/plain_curses;
# returns 0 when there are none.
check_plain() {
    awk '{ to[$1] = to[$1] " " $2 }
         END {
             for (m in to) if (m ~ /^cli\/(play_plain|plain_)/) { seen[m] = 1; q[++n] = m }
             for (i = 1; i <= n; i++) {
                 k = split(to[q[i]], next_, " ")
                 for (j = 1; j <= k; j++)
                     if (!(next_[j] in seen)) { seen[next_[j]] = 1; q[++n] = next_[j] }
             }
             for (m in seen) print m
         }' "$tmp/call_edges" | sort >"$tmp/plain_reach"
    : >"$tmp/plain_curses"
    while read -r m; do
        if grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*<n\{0,1\}curses\.h>' \
                "$1/src/$m.c" 2>/dev/null; then
            echo "plain mode calls $m, which uses curses (src/$m.c)" >>"$tmp/plain_curses"
        fi
    done <"$tmp/plain_reach"
    [ ! -s "$tmp/plain_curses" ]
}

# ---- the host library's symbols

# The curses and terminfo symbols, from the installed libraries: the ones
# `figaro` links, else where the compiler finds them. Falls back to a short
# list of the calls every curses program makes.
curses_symbols() {
    libs=""
    [ -x "$FIGARO" ] && libs=$(ldd "$FIGARO" 2>/dev/null | awk '/ncurses|tinfo/ { print $3 }')
    if [ -z "$libs" ]; then
        for l in libncursesw.so.6 libtinfo.so.6; do
            p=$(${CC:-cc} -print-file-name="$l" 2>/dev/null)
            [ -f "$p" ] && libs="$libs $p"
        done
    fi
    if [ -n "$libs" ]; then
        for l in $libs; do nm -D --defined-only "$l" 2>/dev/null; done |
            awk '$2 ~ /^[TDBRVWi]$/ { sub(/@.*/, "", $3); print $3 }' |
            grep -v '^_' | sort -u
    else
        printf '%s\n' initscr endwin newwin delwin wgetch wget_wch getch get_wch refresh \
            wrefresh noecho cbreak raw keypad curs_set start_color init_pair has_colors \
            mvaddstr waddstr mvwaddstr wmove wattron wattroff stdscr LINES COLS setupterm tigetstr
    fi
}

FORBIDDEN_OTHER='gettext dgettext dcgettext ngettext dngettext dcngettext textdomain
bindtextdomain bind_textdomain_codeset setlocale setenv putenv unsetenv
exit abort printf vprintf puts putchar fprintf vfprintf perror stdout stderr
getopt getopt_long getopt_long_only optarg optind opterr'

# check_lib LIB LAYER_OBJECTS_DIR: writes what LIB must not reference to
# $tmp/bad_symbols; returns 0 when there is nothing.
check_lib() {
    lib=$1 dir=$2
    nm -u "$lib" 2>/dev/null | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$tmp/undef"
    nm --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/own"
    : >"$tmp/bad_symbols"
    curses_symbols >"$tmp/curses"
    comm -12 "$tmp/undef" "$tmp/curses" | sed 's/$/ (curses or terminfo)/' >>"$tmp/bad_symbols"
    printf '%s\n' $FORBIDDEN_OTHER | sort -u >"$tmp/other"
    comm -12 "$tmp/undef" "$tmp/other" | while read -r s; do
        case $s in
            *gettext*|*textdomain*) echo "$s (libintl: translate through a fig_tr_t)" ;;
            setlocale|setenv|putenv|unsetenv) echo "$s (process-wide locale or environment)" ;;
            exit|abort) echo "$s (ends the process: return a fig_err_t)" ;;
            getopt*|opt*) echo "$s (command-line parsing belongs to cli)" ;;
            *) echo "$s (prints: report through fig_msg_t or a callback)" ;;
        esac
    done >>"$tmp/bad_symbols"
    # symbols defined by the layers above (their objects beside the libraries)
    if [ -d "$dir" ]; then
        for o in "$dir"/tui/*.o "$dir"/cli/*.o; do
            [ -f "$o" ] || continue
            nm --defined-only "$o" | awk -v o="${o#"$dir"/}" 'NF == 3 && $2 ~ /[TDBR]/ { print $3, o }'
        done | sort -k1,1 >"$tmp/above"
        comm -23 "$tmp/undef" "$tmp/own" | join - "$tmp/above" |
            awk '{ print $1 " (defined in " $2 ", a layer above host)" }' >>"$tmp/bad_symbols"
    fi
    [ ! -s "$tmp/bad_symbols" ]
}

# ---- sizes in src

FILE_MAX=800
FN_MAX=80

# check_sizes FILE...: the files and functions over their limits into
# $tmp/sizes (one line each); false if there is any.
check_sizes() {
    : >"$tmp/sizes"
    for f in "$@"; do
        n=$(wc -l <"$f")
        [ "$n" -le "$FILE_MAX" ] || echo "$f: $n lines (at most $FILE_MAX)" >>"$tmp/sizes"
        awk -v max="$FN_MAX" -v f="$f" '
            /\(/ { sig = $0 }
            /^\{/ { start = FNR; name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name) }
            /^\}/ && start { n = FNR - start + 1
                if (n > max) printf "%s:%d: %s: %d lines (at most %d)\n", f, start, name, n, max
                start = 0 }' "$f" >>"$tmp/sizes"
    done
    [ ! -s "$tmp/sizes" ]
}

# ---- the checks checked, on trees and libraries made here

if [ "$1" != --check ]; then
    t=$tmp/tree
    mkdir -p "$t/include/figaro" "$t/src/core" "$t/src/ai" "$t/src/host" "$t/src/tui" "$t/src/cli"
    printf '#include "figaro/state.h"\n' >"$t/include/figaro/view.h"
    printf '#include <stdint.h>\n' >"$t/include/figaro/state.h"
    printf '#include "figaro/view.h"\n' >"$t/include/figaro/bot.h"
    printf '#include "figaro/view.h"\n#include "state_internal.h"\n' >"$t/src/core/view.c"
    printf '#include "figaro/state.h"\n' >"$t/src/core/state_internal.h"
    printf '#include "figaro/bot.h"\n' >"$t/src/ai/bot.c"
    printf '#include "figaro/bot.h"\n#include "host/util.h"\n' >"$t/src/host/narrate.c"
    printf '#include <stdio.h>\n' >"$t/src/host/util.h"
    printf '#include "host/util.h"\n' >"$t/src/host/util.c"
    printf '#include "figaro/view.h"\n' >"$t/src/host/narrate.h"
    printf '#include <curses.h>\n#include "host/narrate.h"\n#include "tui/tui.h"\n' >"$t/src/tui/tui.c"
    printf '#include "figaro/view.h"\n' >"$t/src/tui/tui.h"
    printf '#include <getopt.h>\n#include <libintl.h>\n#include "tui/tui.h"\n' >"$t/src/cli/main.c"
    if check_includes "$t"; then ok
    else ko "self-test: a clean tree is refused:"; cat "$tmp/violations" "$tmp/cycles"; fi

    # each kind of violation, one at a time
    cp -R "$t" "$tmp/bad"
    printf '#include "cli/cli.h"\n' >>"$tmp/bad/src/host/narrate.c"
    printf '#include <stdio.h>\n' >"$tmp/bad/src/cli/cli.h"
    printf '#include "host/narrate.h"\n' >>"$tmp/bad/src/core/view.c"
    printf '#include "figaro/match.h"\n' >>"$tmp/bad/src/ai/bot.c"
    printf '#include "figaro/bot.h"\n' >"$tmp/bad/include/figaro/match.h"
    printf '#include <curses.h>\n' >>"$tmp/bad/src/host/util.c"
    printf '#include <libintl.h>\n' >>"$tmp/bad/src/host/narrate.h"
    printf '#include "nowhere.h"\n' >>"$tmp/bad/src/tui/tui.h"
    mkdir -p "$tmp/bad/src/net/service" "$tmp/bad/src/net/proto" "$tmp/bad/src/net/store"
    printf '#include "tui/tui.h"\n' >"$tmp/bad/src/net/service/service.c"
    printf '#include "net/proto/proto.h"\n' >>"$tmp/bad/src/tui/tui.c"
    printf '#include "host/narrate.h"\n' >"$tmp/bad/src/net/proto/proto.h"
    printf '#include <libwebsockets.h>\n' >>"$tmp/bad/src/net/proto/proto.h"
    printf '#include <libpq-fe.h>\n' >>"$tmp/bad/src/net/service/service.c"
    printf '#include <uv.h>\n' >>"$tmp/bad/src/net/service/service.c"
    printf '#include "net/proto/proto.h"\n' >"$tmp/bad/src/net/store/db.h"
    printf '#include "net/store/db.h"\n' >"$tmp/bad/src/net/service/service.h"
    printf '#include "net/store/db.h"\n' >"$tmp/bad/src/net/loose.c"
    check_includes "$tmp/bad"
    for want in 'src/host/narrate.c:3: includes "cli/cli.h" (cli, layer 4): src/host/narrate.c is in the host layer (layer 2), which may include core, ai, host only' \
                'src/core/view.c:3: includes "host/narrate.h" (host, layer 2)' \
                'src/ai/bot.c:2: includes "figaro/match.h" (host, layer 2)' \
                'src/host/util.c:2: includes <curses.h>: only the tui layer uses curses' \
                'src/host/narrate.h:2: includes <libintl.h>: only the front ends (tui, cli) call libintl' \
                'src/tui/tui.h:2: includes "nowhere.h", which is not a file' \
                'src/net/service/service.c:1: includes "tui/tui.h" (tui, layer 3): src/net/service/service.c is in the net layer' \
                'src/tui/tui.c:4: includes "net/proto/proto.h" (net, layer 3): src/tui/tui.c is in the tui layer' \
                'src/net/proto/proto.h:2: includes <libwebsockets.h>: only src/net/wire/wire.c calls libwebsockets' \
                'src/net/service/service.c:2: includes <libpq-fe.h>: only src/net/store/db_pg.c calls libpq' \
                'src/net/service/service.c:3: includes <uv.h>: only src/net/wire/wire_loop.c runs the event loop (libuv)' \
                'src/net/store/db.h:1: includes "net/proto/proto.h" (room proto): src/net/store/db.h is in the room store, which may use base, store only' \
                'src/net/loose.c: a file of src/net lives in one of its rooms'; do
        expect_in "self-test: caught" "$tmp/violations" "$want"
    done
    n=$(wc -l <"$tmp/violations")
    if [ "$n" -eq 13 ]; then ok; else ko "self-test: 13 violations expected, $n found:"; cat "$tmp/violations"; fi

    # a cycle: narrate.c includes util.h, and now util.c (and util.h) narrate.h
    if [ -s "$tmp/cycles" ]; then ko "self-test: a cycle in the clean tree"; cat "$tmp/cycles"; else ok; fi
    cp -R "$t" "$tmp/cyc"
    printf '#include "host/narrate.h"\n' >>"$tmp/cyc/src/host/util.c"
    printf '#include "host/narrate.h"\n' >>"$tmp/cyc/src/host/util.h"
    check_includes "$tmp/cyc"
    expect_in "self-test: the cycle is found" "$tmp/cycles" \
        "include cycle among modules: host/narrate <-> host/util"
    expect_in "self-test: the cycle's lines" "$tmp/cycles" \
        "host/util -> host/narrate (src/host/util.c:2, src/host/util.h:2)"
    expect_in "self-test: the cycle's lines" "$tmp/cycles" \
        "host/narrate -> host/util (src/host/narrate.c:2)"
    if [ ! -s "$tmp/violations" ]; then ok; else ko "self-test: a cycle is not a layer violation"; fi

    cc=${CC:-cc}
    # the sizes: a function of FN_MAX lines passes, one more is named,
    # and so is a file over FILE_MAX
    mkdir -p "$tmp/sz"
    { printf 'static int short_fn(void)\n{\n'
      i=2; while [ $i -lt "$FN_MAX" ]; do printf '    (void)0;\n'; i=$((i + 1)); done
      printf '}\n\nint long_fn(int x)\n{\n'
      i=2; while [ $i -lt "$FN_MAX" ]; do printf '    x++;\n'; i=$((i + 1)); done
      printf '    return x;\n}\n'; } >"$tmp/sz/a.c"
    check_sizes "$tmp/sz/a.c"
    expect_in "self-test: a long function is named" "$tmp/sizes" \
        "$tmp/sz/a.c:$((FN_MAX + 4)): long_fn: $((FN_MAX + 1)) lines"
    if [ "$(wc -l <"$tmp/sizes")" -eq 1 ]; then ok
    else ko "self-test: one function over the limit expected:"; cat "$tmp/sizes"; fi
    i=0; while [ $i -le "$FILE_MAX" ]; do echo "/* $i */"; i=$((i + 1)); done >"$tmp/sz/b.c"
    check_sizes "$tmp/sz/b.c"
    expect_in "self-test: a long file is named" "$tmp/sizes" \
        "$tmp/sz/b.c: $((FILE_MAX + 1)) lines"

    # the call check: a chain passes, a module calling back into its caller
    # is a cycle
    if command -v "$cc" >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
        mkdir -p "$tmp/calls_t/src/cli" "$tmp/calls_t/obj/cli"
        printf 'int cmd_x(void);\nint main(void) { return cmd_x(); }\nint helper(void);\nint helper(void) { return 0; }\n' >"$tmp/calls_t/src/cli/main.c"
        printf 'int helper(void);\nint cmd_x(void);\nint cmd_x(void) { return helper(); }\n' >"$tmp/calls_t/src/cli/x.c"
        printf 'int helper2(void);\nint helper2(void) { return 0; }\n' >"$tmp/calls_t/src/cli/h.c"
        for f in main x h; do
            "$cc" -c "$tmp/calls_t/src/cli/$f.c" -o "$tmp/calls_t/obj/cli/$f.o" 2>>"$tmp/ccerr"
        done
        check_calls "$tmp/calls_t/obj" "$tmp/calls_t/src/cli/main.c" "$tmp/calls_t/src/cli/x.c"
        expect_in "self-test: a call cycle is found" "$tmp/calls" \
            "call cycle among modules: cli/main <-> cli/x"
        expect_in "self-test: the cycle's calls" "$tmp/calls" "cli/x -> cli/main (helper)"
        sed -i 's/helper()/helper2()/; s/int helper(void);/int helper2(void);/' \
            "$tmp/calls_t/src/cli/x.c"
        "$cc" -c "$tmp/calls_t/src/cli/x.c" -o "$tmp/calls_t/obj/cli/x.o" 2>>"$tmp/ccerr"
        if check_calls "$tmp/calls_t/obj" "$tmp/calls_t/src/cli/main.c" \
                       "$tmp/calls_t/src/cli/x.c" "$tmp/calls_t/src/cli/h.c"; then ok
        else ko "self-test: calls without a cycle are refused:"; cat "$tmp/calls"; fi

        # a room of src/net calling one above it (storage calling the
        # service) is named; the service calling the storage is not
        mkdir -p "$tmp/calls_r/src/net/store" "$tmp/calls_r/src/net/service" \
                 "$tmp/calls_r/obj/net/store" "$tmp/calls_r/obj/net/service"
        printf 'int svc_fn(void);\nint db_fn(void);\nint db_fn(void) { return svc_fn(); }\n' \
            >"$tmp/calls_r/src/net/store/db.c"
        printf 'int svc_fn(void);\nint svc_fn(void) { return 1; }\n' >"$tmp/calls_r/src/net/service/svc.c"
        printf 'int db_fn(void);\nint top(void);\nint top(void) { return db_fn(); }\n' \
            >"$tmp/calls_r/src/net/service/top.c"
        for f in store/db service/svc service/top; do
            "$cc" -c "$tmp/calls_r/src/net/$f.c" -o "$tmp/calls_r/obj/net/$f.o" 2>>"$tmp/ccerr"
        done
        check_calls "$tmp/calls_r/obj" "$tmp/calls_r/src/net/store/db.c" \
            "$tmp/calls_r/src/net/service/svc.c" "$tmp/calls_r/src/net/service/top.c"
        expect_in "self-test: a call up a room is found" "$tmp/calls" \
            "call up a room: net/store/db -> net/service/svc (svc_fn): the room store may use base, store only"
        if [ "$(grep -c '^call up a room' "$tmp/calls")" -eq 1 ]; then ok
        else ko "self-test: one call up a room expected:"; cat "$tmp/calls"; fi

        # plain mode reaching a curses module through another is named; the
        # same calls to a module without curses pass
        mkdir -p "$tmp/calls_p/src/cli" "$tmp/calls_p/src/tui" "$tmp/calls_p/obj/cli" \
                 "$tmp/calls_p/obj/tui"
        printf 'int mid(void);\nint play(void);\nint play(void) { return mid(); }\n' \
            >"$tmp/calls_p/src/cli/play_plain.c"
        printf 'int draw(void);\nint mid(void);\nint mid(void) { return draw(); }\n' \
            >"$tmp/calls_p/src/tui/mid.c"
        printf '#include <curses.h>\nint draw(void);\nint draw(void) { return 0; }\n' \
            >"$tmp/calls_p/src/tui/screen.c"
        for f in cli/play_plain tui/mid tui/screen; do
            "$cc" -c "$tmp/calls_p/src/$f.c" -o "$tmp/calls_p/obj/$f.o" 2>>"$tmp/ccerr"
        done
        check_calls "$tmp/calls_p/obj" "$tmp/calls_p/src/cli/play_plain.c" \
            "$tmp/calls_p/src/tui/mid.c" "$tmp/calls_p/src/tui/screen.c"
        check_plain "$tmp/calls_p"
        expect_in "self-test: plain mode reaching curses is found" "$tmp/plain_curses" \
            "plain mode calls tui/screen, which uses curses (src/tui/screen.c)"
        sed -i '/curses/d' "$tmp/calls_p/src/tui/screen.c"
        if check_plain "$tmp/calls_p"; then ok
        else ko "self-test: plain mode without curses is refused:"; cat "$tmp/plain_curses"; fi
    fi

    # the library check: a clean archive passes, a dirty one is caught
    if command -v "$cc" >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
        mkdir -p "$tmp/lib/tui"
        printf '#include <string.h>\nint ok_fn(const char *s);\nint ok_fn(const char *s) { return (int)strlen(s); }\n' >"$tmp/lib/ok.c"
        printf '#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <locale.h>\nvoid tui_thing(void);\nint bad_fn(int);\nint bad_fn(int x) { if (x) { setlocale(LC_ALL, ""); fprintf(stderr, "%%d", x); tui_thing(); exit(1); } _exit(0); }\n' >"$tmp/lib/bad.c"
        printf 'void tui_thing(void);\nvoid tui_thing(void) {}\n' >"$tmp/lib/tui/thing.c"
        (cd "$tmp/lib" && "$cc" -c ok.c -o ok.o && "$cc" -c bad.c -o bad.o &&
         "$cc" -c tui/thing.c -o tui/thing.o && ar rcs libok.a ok.o && ar rcs libbad.a ok.o bad.o) \
            2>"$tmp/ccerr"
        if [ -f "$tmp/lib/libbad.a" ]; then
            if check_lib "$tmp/lib/libok.a" "$tmp/lib"; then ok
            else ko "self-test: a clean library is refused:"; cat "$tmp/bad_symbols"; fi
            check_lib "$tmp/lib/libbad.a" "$tmp/lib"
            for want in "exit (ends the process" "fprintf (prints" "stderr (prints" \
                        "setlocale (process-wide" "tui_thing (defined in tui/thing.o"; do
                expect_in "self-test: library caught" "$tmp/bad_symbols" "$want"
            done
            expect_not_in "self-test: _exit is allowed" "$tmp/bad_symbols" "_exit"
        else
            ko "self-test: could not build the test libraries:"; cat "$tmp/ccerr"
        fi
        if [ "$(curses_symbols | grep -cx 'initscr\|wgetch\|newwin\|endwin')" -eq 4 ]; then ok
        else ko "the curses symbols (initscr, wgetch, newwin, endwin) are not in the list"; fi
    fi
fi

# ---- the real tree

root=$(cd "$(dirname "$0")/../.." && pwd)
[ "$1" = --check ] && root=$2
if check_includes "$root"; then ok
else
    if [ -s "$tmp/violations" ]; then
        ko "includes that go up a layer ($(wc -l <"$tmp/violations")):"
        sed 's/^/    /' "$tmp/violations"
    fi
    if [ -s "$tmp/cycles" ]; then
        ko "include cycles ($(grep -c '^include cycle' "$tmp/cycles")):"
        sed 's/^/    /' "$tmp/cycles"
    fi
fi

if check_sizes "$root"/src/*/*.[ch] "$root"/src/net/*/*.[ch]; then ok
else
    ko "src: files or functions too long ($(wc -l <"$tmp/sizes")):"
    sed 's/^/    /' "$tmp/sizes"
fi

if [ "$1" != --check ]; then
    objdir=$(dirname "$FIGARO")
    if check_calls "$objdir" "$root"/src/host/*.c "$root"/src/net/*/*.c "$root"/src/tui/*.c \
                   "$root"/src/cli/*.c &&
       [ ! -s "$tmp/calls_missing" ]; then ok
    else
        ko "call cycles between modules ($(grep -c 'cycle among' "$tmp/calls")), calls up a room ($(grep -c '^call up a room' "$tmp/calls")):"
        sed 's/^/    /' "$tmp/calls" "$tmp/calls_missing" 2>/dev/null
    fi
    if check_plain "$root"; then ok
    else
        ko "plain mode reaches curses ($(wc -l <"$tmp/plain_curses")):"
        sed 's/^/    /' "$tmp/plain_curses"
    fi
    lib=${LAYERS_HOST_LIB:-$(dirname "$FIGARO")/libfigaro-host.a}
    if [ -f "$lib" ]; then
        if check_lib "$lib" "$(dirname "$lib")"; then ok
        else
            ko "$lib references what the host layer may not use ($(wc -l <"$tmp/bad_symbols")):"
            sed 's/^/    /' "$tmp/bad_symbols"
        fi
    else
        ko "no host library at $lib (set LAYERS_HOST_LIB)"
    fi
    netlib=$(dirname "$lib")/libfigaro-net.a
    if [ -f "$netlib" ]; then
        if check_lib "$netlib" "$(dirname "$lib")"; then ok
        else
            ko "$netlib references what the net layer may not use ($(wc -l <"$tmp/bad_symbols")):"
            sed 's/^/    /' "$tmp/bad_symbols"
        fi
    fi
fi

summary
