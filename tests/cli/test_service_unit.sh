#!/bin/sh
# SPDX-License-Identifier: MIT
# test_service_unit.sh - the table server as systemd runs it (debian/figaro.service,
# debian/figaro.default, docs/server.md "Running it"), without systemd as
# PID 1: `systemd-analyze verify` finds nothing to say about the unit (in a
# scratch root holding it, the program and the system's units);
# `systemd-analyze security --offline` rates its exposure 3.0 or lower; the
# defaults /etc/default/figaro shows commented out are the unit's own; then
# the unit's command line, built by tests/cli/unit_run.py as systemd builds it
# (Environment=, the environment file, ${VAR} and $VAR, $STATE_DIRECTORY) and
# run inside the sandbox's seccomp filters, as nobody, with NOTIFY_SOCKET on
# a datagram socket of this test: READY=1 comes once the port answers
# /healthz, the port listens on 127.0.0.1 alone, the tables are kept in the
# state folder, STOPPING=1 comes on SIGTERM and the exit status is 0; the
# options of the environment file reach the command; a NOTIFY_SOCKET that
# names no socket, or one too long, is logged and the server serves on.
# Run by tests/run.sh (FIGARO: the sanitizer build), and by test_deb.sh on
# the packaged program, unit and file (FIGARO, UNIT, DEFAULTS); prints
# "cli: N passed, N failed" last.
cd "$(dirname "$0")/../.." || exit 1
FIGARO=${FIGARO:-build/test/figaro}
case $FIGARO in /*) ;; *) FIGARO=$(pwd)/$FIGARO ;; esac
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
chmod 755 "$tmp"   # the server runs as nobody: it reaches its state folder
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
unit=${UNIT:-debian/figaro.service}
defaults=${DEFAULTS:-debian/figaro.default}

. "$(dirname "$0")/lib.sh"

# ---- systemd-analyze verify: no word about the unit, in a root that has it
root=$tmp/root
mkdir -p "$root/usr/games" "$root/lib/systemd"
cp -a /lib/systemd/system "$root/lib/systemd/"
cp "$unit" "$root/lib/systemd/system/figaro.service"
cp "$FIGARO" "$root/usr/games/figaro"
# (--man=no: figaro(1) is the package's, not this machine's; test_deb.sh renders it)
systemd-analyze verify --man=no --root="$root" "$root/lib/systemd/system/figaro.service" \
    >"$tmp/verify" 2>&1
st=$?
if [ "$st" -eq 0 ] && [ ! -s "$tmp/verify" ]; then ok
else ko "systemd-analyze verify: exit $st:"; cat "$tmp/verify"; fi
# it does speak up: a misspelt key, or a program that is not there
sed 's/^UMask=/UMassk=/' "$unit" >"$root/lib/systemd/system/figaro.service"
systemd-analyze verify --man=no --root="$root" "$root/lib/systemd/system/figaro.service" \
    >"$tmp/verify" 2>&1
expect_in "verify names a bad key" "$tmp/verify" "Unknown key 'UMassk'"
cp "$unit" "$root/lib/systemd/system/figaro.service"
rm "$root/usr/games/figaro"
systemd-analyze verify --man=no --root="$root" "$root/lib/systemd/system/figaro.service" \
    >"$tmp/verify" 2>&1
expect_in "verify needs the program" "$tmp/verify" "/usr/games/figaro"

# ---- the sandbox's exposure, as systemd-analyze rates it (10: none at all)
systemd-analyze security --offline=yes --no-pager "$unit" >"$tmp/security" 2>&1
level=$(sed -n 's/.*Overall exposure level for figaro.service: \([0-9.]*\).*/\1/p' "$tmp/security")
if [ -n "$level" ] && awk -v l="$level" 'BEGIN { exit !(l <= 3.0) }'; then ok
else ko "exposure level '$level', above 3.0:"; grep -F '✗' "$tmp/security"; fi
echo "exposure level: $level"

# ---- /etc/default/figaro shows the unit's defaults, commented out
for k in FIGARO_LISTEN FIGARO_ALLOWED_HOSTS FIGARO_OPTIONS; do
    want=$(sed -n "s/^Environment=.*\<$k=\([^ ]*\).*/\1/p" "$unit")
    shown=$(sed -n "s/^#$k=//p" "$defaults")
    if [ "$want" = "$shown" ]; then ok; else ko "$k: the unit says '$want', the file '$shown'"; fi
    grep -q "^$k=" "$defaults" && ko "$k set in $defaults" || ok
done

# ---- the unit's command in its sandbox, told to systemd's socket
# serve.py UNIT ENVFILE STATE PROGRAM path|abstract: starts unit_run.py with
# NOTIFY_SOCKET on a socket of its own (a path, or an abstract name) and
# prints what it saw, one line each: "ready-answered", "listens 127.0.0.1",
# "args ...", "stopping", "exit N", "stopped in S s", or "FAIL: ..." lines.
cat >"$tmp/serve.py" <<'PY'
import os, re, signal, socket, subprocess, sys, time, urllib.request
unit, env_file, state, program, notify = sys.argv[1:6]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
name = "@figaro-test-%d" % os.getpid() if notify == "abstract" else os.path.join(state, "..", "notify")
s.bind("\0" + name[1:] if name[0] == "@" else name)
if name[0] != "@":
    os.chmod(name, 0o777)   # the server runs as nobody
# (LeakSanitizer needs ptrace, which the sandbox refuses; the rest stays)
env = dict(os.environ, NOTIFY_SOCKET=name, ASAN_OPTIONS="detect_leaks=0")
err = open(os.path.join(state, "..", "serve.err"), "wb")
p = subprocess.Popen([sys.executable, "tests/cli/unit_run.py", unit, env_file, state, program],
                     env=env, stdout=subprocess.DEVNULL, stderr=err)
s.settimeout(30)
def datagram():
    try:
        return s.recv(4096).decode()
    except socket.timeout:
        return ""
msg = datagram()
m = re.search(r"STATUS=listening on port (\d+)", msg)
if "READY=1" not in msg.split("\n") or not m:
    print("FAIL: no READY=1 with the port: %r" % msg)
    p.kill()
    sys.exit(0)
port = int(m.group(1))
try:   # at once: the port answers when READY=1 comes
    with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port, timeout=10) as r:
        if r.status == 200 and r.read().strip() == b"ok":
            print("ready-answered")
except OSError as e:
    print("FAIL: READY=1 came but /healthz did not answer: %s" % e)
# the listening sockets of that port (/proc/net: hex address and port, state 0A)
for f, fam in (("/proc/net/tcp", "4"), ("/proc/net/tcp6", "6")):
    for line in open(f).read().splitlines()[1:]:
        local, st = line.split()[1], line.split()[3]
        a, _, pt = local.partition(":")
        if st == "0A" and int(pt, 16) == port:
            print("listens", socket.inet_ntop(socket.AF_INET, bytes.fromhex(a)[::-1])
                  if fam == "4" else "IPv6 " + a)
print("args", open("/proc/%d/cmdline" % p.pid).read().replace("\0", " ").strip())
t0 = time.monotonic()
p.send_signal(signal.SIGTERM)
msg = datagram()
if "STOPPING=1" in msg.split("\n"):
    print("stopping")
else:
    print("FAIL: no STOPPING=1 on SIGTERM: %r" % msg)
try:
    print("exit", p.wait(30))
    print("stopped in %.2f s" % (time.monotonic() - t0))
except subprocess.TimeoutExpired:
    p.kill()
    print("FAIL: still running 30 s after SIGTERM")
PY

# run ENVFILE NOTIFY: the unit's command as nobody in the sandbox; $tmp/saw
run() {
    rm -rf "$tmp/state" && mkdir "$tmp/state"
    "$PY" "$tmp/serve.py" "$unit" "$1" "$tmp/state" "$FIGARO" "$2" >"$tmp/saw" 2>&1
    if grep '^FAIL: ' "$tmp/saw"; then ko "the unit's command (above)"; cat "$tmp/serve.err"; fi
}
# The port: 0 (any free one), from the environment file as an operator writes it.
printf '# a comment\nFIGARO_LISTEN=127.0.0.1:0\nFIGARO_OPTIONS="--grace 7  --idle 9"\n' >"$tmp/default"
run "$tmp/default" path
expect_in "READY=1 once /healthz answers" "$tmp/saw" "ready-answered"
expect_in "listens on 127.0.0.1" "$tmp/saw" "listens 127.0.0.1"
expect_not_in "and nowhere else" "$tmp/saw" "IPv6"
[ "$(grep -c '^listens' "$tmp/saw")" -eq 1 ] && ok || ko "listening sockets: $(grep '^listens' "$tmp/saw")"
expect_in "the state folder, ExecStart's \${VAR} and \$VAR split" "$tmp/saw" \
    "serve --data $tmp/state --listen 127.0.0.1:0 --allowed-hosts localhost,127.0.0.1,[::1] --grace 7 --idle 9"
expect_in "STOPPING=1 on SIGTERM" "$tmp/saw" "stopping"
expect_in "exit 0 on SIGTERM" "$tmp/saw" "exit 0"
grep '^stopped in' "$tmp/saw"
expect_in "it stopped cleanly" "$tmp/serve.err" "serve: stopped"
expect_not_in "nothing from the sanitizers" "$tmp/serve.err" "runtime error"
expect_not_in "no refused system call" "$tmp/serve.err" "Operation not permitted"
[ -f "$tmp/state/figaro.sqlite" ] && ok || ko "no figaro.sqlite in the state folder"
if [ "$(id -u)" -eq 0 ]; then   # DynamicUser made here as nobody
    [ "$(stat -c %U "$tmp/state/figaro.sqlite")" = nobody ] && ok || ko "figaro.sqlite not nobody's"
fi
# an abstract socket name (systemd's own is a path; both are the protocol)
printf 'FIGARO_LISTEN=127.0.0.1:0\n' >"$tmp/default"
run "$tmp/default" abstract
expect_in "abstract NOTIFY_SOCKET: READY=1" "$tmp/saw" "ready-answered"
expect_in "abstract NOTIFY_SOCKET: STOPPING=1" "$tmp/saw" "stopping"
# without the environment file, the unit's defaults
expect_status "the command line without /etc/default/figaro" 0 "$PY" tests/cli/unit_run.py \
    --print "$unit" /nonexistent/default /var/lib/figaro /usr/games/figaro
expect_in "the unit's defaults" "$tmp/out" "/usr/games/figaro serve --data /var/lib/figaro \
--listen 127.0.0.1:8080 --allowed-hosts localhost,127.0.0.1,[::1]"
# with the packaged file, commented out as it is, the same
expect_status "the command line with the packaged file" 0 "$PY" tests/cli/unit_run.py \
    --print "$unit" "$defaults" /var/lib/figaro /usr/games/figaro
expect_in "the packaged file changes nothing" "$tmp/out" "/usr/games/figaro serve --data \
/var/lib/figaro --listen 127.0.0.1:8080 --allowed-hosts localhost,127.0.0.1,[::1]"

# ---- a NOTIFY_SOCKET that cannot be told is logged, never fatal
bad_notify() {   # NAME VALUE TEXT: the server serves with NOTIFY_SOCKET=VALUE and logs TEXT
    mkdir -p "$tmp/d"
    rm -f "$tmp/bad.out" "$tmp/bad.err"   # the last call's port is not this server's
    NOTIFY_SOCKET=$2 "$FIGARO" serve --listen 127.0.0.1:0 --data "$tmp/d" >"$tmp/bad.out" \
        2>"$tmp/bad.err" &
    pid=$!
    port=""
    for _ in $(seq 300); do
        port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$tmp/bad.out" 2>/dev/null)
        [ -n "$port" ] && grep -q "NOTIFY_SOCKET" "$tmp/bad.err" 2>/dev/null && break
        sleep 0.1
    done
    "$PY" -c 'import sys, urllib.request
print(urllib.request.urlopen("http://127.0.0.1:%s/healthz" % sys.argv[1], timeout=10).status)' \
        "$port" >"$tmp/bad.health" 2>&1
    if grep -q '^200$' "$tmp/bad.health"; then ok
    else ko "$1: /healthz: $(tail -n 1 "$tmp/bad.health")"; cat "$tmp/bad.err"; fi
    kill "$pid"
    wait "$pid"
    st=$?
    pid=""
    [ "$st" -eq 0 ] && ok || ko "$1: exit $st on SIGTERM"
    expect_in "$1: logged" "$tmp/bad.err" "$3"
}
bad_notify "no such socket" "$tmp/none/notify" "serve: NOTIFY_SOCKET $tmp/none/notify: cannot tell"
long=/$(printf '%0200d' 0)
bad_notify "too long" "$long" "more than a socket address holds"
bad_notify "not a name" "notify" "neither a path nor an abstract name"

summary
