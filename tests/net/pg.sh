#!/bin/sh
# SPDX-License-Identifier: MIT
# pg.sh - a throwaway PostgreSQL 15 for the tests: Debian's own server
# (postgresql-15), a cluster of its own in a temporary folder, gone after.
#
#   sh tests/net/pg.sh start     prints "DIR URL": the cluster's folder and a
#                                libpq URL for its database `figaro`
#   sh tests/net/pg.sh stop DIR  stops it at once and removes DIR
#
# initdb makes the cluster in DIR/data (user `figaro`, a random password,
# scram-sha-256 on TCP, trust on the unix socket, which lives in DIR, 0700);
# pg_ctl starts it on 127.0.0.1 and a random free port (tried again on
# another if the port was taken meanwhile). PostgreSQL refuses to run as
# root: run as root (CI, this sandbox), the cluster belongs to `nobody`,
# and every PostgreSQL program runs as that user (setpriv).
set -eu

bindir() {
    for d in /usr/lib/postgresql/15/bin "$(pg_config --bindir 2>/dev/null || true)"; do
        [ -x "$d/initdb" ] && { echo "$d"; return 0; }
    done
    echo "pg.sh: no PostgreSQL 15 (initdb): apt-get install postgresql" >&2
    exit 1
}

# as_owner CMD...: CMD as the cluster's owner (nobody when we are root).
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    bin=$(bindir)
    dir=$(mktemp -d /tmp/figaro-pg-XXXXXX)
    chmod 700 "$dir"
    [ "$(id -u)" -eq 0 ] && chown nobody:nogroup "$dir"
    cd "$dir"
    pw=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    printf '%s\n' "$pw" >"$dir/pw"
    chmod 600 "$dir/pw"
    [ "$(id -u)" -eq 0 ] && chown nobody:nogroup "$dir/pw"
    if ! as_owner "$bin/initdb" -D "$dir/data" -U figaro --pwfile="$dir/pw" -E UTF8 \
            --no-locale --auth-local=trust --auth-host=scram-sha-256 --no-sync \
            >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        rm -rf "$dir"
        exit 1
    fi
    tries=0
    while :; do
        port=$(free_port)
        if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
                -o "-c listen_addresses=127.0.0.1 -p $port -k $dir" start >/dev/null 2>&1; then
            break
        fi
        tries=$((tries + 1))
        if [ "$tries" -ge 5 ]; then
            echo "pg.sh: PostgreSQL did not start:" >&2
            tail -n 20 "$dir/log" >&2
            rm -rf "$dir"
            exit 1
        fi
    done
    as_owner "$bin/createdb" -h "$dir" -p "$port" -U figaro figaro
    echo "$dir postgresql://figaro:$pw@127.0.0.1:$port/figaro"
}

stop() {
    dir=$1
    case $dir in /tmp/figaro-pg-*) ;; *) echo "pg.sh: '$dir' is not a cluster of pg.sh" >&2; exit 2 ;; esac
    [ -d "$dir/data" ] && (cd "$dir" && as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m immediate \
        -w stop >/dev/null 2>&1) || true
    rm -rf "$dir"
}

case ${1:-} in
    start) start ;;
    stop) stop "${2:?pg.sh stop DIR}" ;;
    *) echo "usage: pg.sh start | pg.sh stop DIR" >&2; exit 2 ;;
esac
