#!/bin/sh
# SPDX-License-Identifier: MIT
# install-deps.sh - installs the Debian packages figaro needs to build and test,
# if any is missing. Run by `make` before the first build; safe to run again.
set -eu

# package: what it is for
PACKAGES="gcc make pkg-config libcmocka-dev libjansson-dev clang libclang-rt-14-dev libncurses-dev gettext tmux python3 locales python3-pytest python3-numpy libsqlite3-dev libssl-dev libwebsockets-dev libwebsockets-evlib-uv libuv1-dev python3-websockets chromium debhelper dh-python lintian qemu-user libpq-dev postgresql haproxy zbar-tools"
# The Python package installed with pip into a virtual environment (tests/python/test_install.py).
PACKAGES="$PACKAGES python3-venv"
# PyTorch: the PPO training example and its test (examples/python/ppo_train.py).
PACKAGES="$PACKAGES python3-torch"
# The table server's systemd unit (tests/cli/test_service_unit.sh): systemd-analyze
# verifies and rates it; libseccomp2, which systemd needs, makes its sandbox's filters.
PACKAGES="$PACKAGES systemd libseccomp2"
# Web Push's encryption and VAPID signatures checked by another implementation
# (tests/net/test_push_crypt.py).
PACKAGES="$PACKAGES python3-cryptography"

# The browser client's tests (tests/web): Playwright, axe and TypeScript from
# npm, exact versions in tests/web/package-lock.json; no browser download:
# they drive Debian's chromium (below). Needs the machine's Node.js (>= 20).
web_deps() {
    dir=$(dirname "$0")/../tests/web
    if [ ! -x "$dir/node_modules/.bin/playwright" ] && command -v npm >/dev/null 2>&1; then
        echo "figaro: installing the browser tests' npm packages (tests/web, npm ci)"
        (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund) || \
            echo "figaro: npm ci failed in tests/web: the browser tests will not run" >&2
    fi
}
web_deps

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
echo "   libwebsockets-dev: its HTTP and WebSocket port; python3-websockets: tests of that port;"
echo "   libwebsockets-evlib-uv, libuv1-dev: the server's event loop (libuv, epoll), which"
echo "     libwebsockets joins through that plugin: a turn costs what is ready, not what is open;"
echo "   chromium: the browser client's tests, driven by Playwright;"
echo "   debhelper, dh-python: make deb (the Debian packages); lintian: their test checks them;"
echo "   qemu-user: that test runs the packaged command on a baseline x86-64 processor;"
echo "   libpq-dev: the table server's PostgreSQL storage, for several servers on one database;"
echo "   postgresql: PostgreSQL 15, which the tests start in a temporary folder of their own;"
echo "   haproxy: the front of several table servers (deploy/haproxy.cfg), tested in front of three;"
echo "   zbar-tools: zbarimg reads the QR code the page draws (web/qr.js) off a screenshot;"
echo "   python3-venv: pip install of the Python package, tested in a fresh virtual environment;"
echo "   systemd, libseccomp2: systemd-analyze checks the table server's unit, whose sandbox's"
echo "     filters the tests make with libseccomp;"
echo "   python3-cryptography: checks Web Push's encryption and VAPID signatures;"
echo "   python3-torch: PyTorch, for the PPO training example and its test)"
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
