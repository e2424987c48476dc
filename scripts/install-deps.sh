#!/bin/sh
# install-deps.sh - installs the Debian packages figaro needs to build and test,
# if any is missing. Run by `make` before the first build; safe to run again.
set -eu

# package: what it is for
PACKAGES="gcc make pkg-config libcmocka-dev libjansson-dev clang libclang-rt-14-dev libncurses-dev gettext tmux python3 locales python3-pytest python3-numpy libsqlite3-dev libssl-dev libwebsockets-dev python3-websockets"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

echo "figaro: installing missing Debian packages:$missing"
echo "  (cmocka: unit tests; jansson: JSON; clang + libclang-rt: fuzzing; ncurses: the terminal game;"
echo "   gettext: translations; tmux: tests of the terminal game; python3: the example engine;"
echo "   python3-pytest: tests of the Python binding; python3-numpy: its arrays, examples and bench;"
echo "   libsqlite3-dev: the table server's storage; libssl-dev: SHA-256 of its seat tokens;"
echo "   libwebsockets-dev: its HTTP and WebSocket port; python3-websockets: tests of that port)"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
    echo "  using sudo for apt-get"
else
    echo "figaro: please install as root: apt-get install$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
