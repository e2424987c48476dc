#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Load on `figaro serve` (figures in docs/speed.md).

Starts the server(s) itself on loopback, opens --tables tables, each ONE
scripted person and three bots of --bots level, one WebSocket per person, and
plays every person's moves as fast as the server allows: on each event where
it is the person's turn, the first legal action of the view, within the
protocol's limit of 20 messages a second per connection.

The servers (`--listen 127.0.0.1:0`, `--bot-threads` each):
  --db sqlite (the default): one server, a temporary --data folder;
  --db postgresql: a throwaway PostgreSQL 15 cluster (tests/net/pg.sh: initdb
      into a temporary folder, a free loopback port, as `nobody` when run as
      root) and --servers N (1 or 3) servers on it, `--db postgresql://...
      --node webK [--lease S]`; with 3, HAProxy in front with the shipped
      deploy/haproxy.cfg, its ports changed (tests/net/front.py, as
      tests/net/test_pg.py runs it), the servers with --trust-proxy 127.0.0.1,
      and every person connects through it (a new table goes round robin).

Measured, over --seconds (or until every person played --games games):
  - per person action, the latency from sending `act` to receiving the event
    that applies it (client side, perf_counter): p50, p99, max; and the
    servers' own (from the frame to the broadcast, /metrics histogram);
  - actions/s at all tables (people's and bots', counted from the `action`
    events every person receives: each table's events are numbered without gaps);
  - each server's tables and VmRSS (/proc/PID/status) before the tables, once
    every table is created and its game started (each waits for its person),
    and at the peak, per table of that server;
  - CPU seconds of the servers, PostgreSQL, HAProxy and this client.

With --clients K (K > 1), the people are K client processes (this script,
each an asyncio loop of its own, --tables split among them, started after the
servers): one Python process spends most of a core at some thousands of
tables, and would be the limit, not the server. They set up their tables,
start measuring together, and hand their figures back to this process, which
merges them; "this client" is then their CPU added up. With --load-client
build/server_load (bench/server_load.c, `make build/server_load`) the people
are played by that C program instead, the same way and with the same figures
(--clients of them, one by default): it spends about a third of what the
Python clients spend, which at 6,000 tables is the difference between the
load and the server sharing the machine and the server having most of it.

Then, with several servers (unless --no-kill): the server driving the most
tables is killed with SIGKILL while every table plays on (at once, or with
--kill-after-renewal just after its lease round renewed its leases: the
longest wait), and each of its tables' person comes back through HAProxy as
the browser client does
(web/net.js: again after 0.5 s, doubling up to 15 s while no connection
opens, with jitter; `moved`: again naming that node), with its token and the
last event seen. Measured per table, from the SIGKILL: seated again (its
snapshot from the new driver) and playing again (the first new action told);
p50, p99, max, bounded by --failover-wait.

The server allows 16 connections per address: the people connect from
127.0.0.2, 127.0.0.3, ..., 127.0.1.1, ... (15 each; all of 127/8 is loopback on Linux).
Everything started is stopped at the end (SIGTERM; the cluster removed).

Debian's python3, python3-websockets (10.x, asyncio), postgresql-15, haproxy;
builds nothing:
    make -j2 build/figaro
    /usr/bin/python3 bench/server_bench.py [--figaro build/figaro] [--tables 1000]
        [--bots random] [--seconds 20] [--games 1] [--sync full|normal] [--think MS]
        [--db sqlite|postgresql] [--servers 1|3] [--lease S] [--no-kill]
        [--kill-after-renewal] [--clients K] [--load-client build/server_load]
"""
import argparse
import asyncio
import collections
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

try:
    import websockets
except ImportError:
    sys.exit("no websockets module: apt-get install python3-websockets (run /usr/bin/python3)")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
sys.path.insert(0, os.path.join(ROOT, "tests", "net"))
from front import Front  # noqa: E402  (HAProxy as the tests run it)

PG_SH = os.path.join(ROOT, "tests", "net", "pg.sh")
RATE = 19.0     # messages a second per connection (the server allows 20 after a burst of 40)
BURST = 30.0
PER_ADDR = 15   # connections per source address (the server's cap is 16)


def proc_status(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                out[k] = int(v.split()[0])   # kB
    return out


def proc_cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(root):
    """CPU seconds of root and every process under it (PostgreSQL's backends)."""
    kids, cpu = collections.defaultdict(list), {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kids[int(fields[1])].append(int(d))
        cpu[int(d)] = int(fields[11]) + int(fields[12])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0)
        todo += kids.get(pid, [])
    return total / os.sysconf("SC_CLK_TCK")


def machine():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        return "lscpu missing, %d cores" % os.cpu_count()
    model = re.search(r"^Model name:\s*(.+)$", out, re.M)
    cpus = re.search(r"^CPU\(s\):\s*(\d+)$", out, re.M)
    return "%s, %s cores" % (model.group(1).strip() if model else "?",
                             cpus.group(1) if cpus else os.cpu_count())


def metric(text, name):
    m = re.search(r"^%s ([0-9.e+-]+)$" % name, text, re.M)
    return float(m.group(1)) if m else None


def server_latency(texts):
    """p50 and p99 bounds (ms) of the servers' figaro_move_latency_ms histograms, summed."""
    buckets, total = collections.Counter(), 0
    for text in texts:
        for le, n in re.findall(r'^figaro_move_latency_ms_bucket\{le="([^"]+)"\} (\d+)',
                                text, re.M):
            if le != "+Inf":
                buckets[float(le)] += int(n)
        total += int(metric(text, "figaro_move_latency_ms_count") or 0)
    b = sorted(buckets.items())
    if not b or total == 0:
        return "no histogram"

    def q(p):
        for le, n in b:
            if n >= p * total:
                return "<= %g ms" % le
        return "> %g ms" % b[-1][0]
    return "p50 %s, p99 %s (%d actions)" % (q(0.5), q(0.99), total)


def storage_groups(text):
    """Commits and writes of the writer thread (/metrics): writes per commit."""
    c = metric(text, "figaro_storage_commits_total")
    w = metric(text, "figaro_storage_writes_total")
    if c is None or w is None:
        return "one commit per write (no writer thread)"
    t = metric(text, "figaro_storage_commit_ms_total")
    t = " taking %.1f ms each" % (t / c) if t is not None and c else ""
    return "%d writes in %d commits, %.1f a commit%s" % (w, c, w / c if c else 0.0, t)


def psql(url, sql):
    """One statement through psql, its rows as lists of strings."""
    out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                          "-d", url, "-c", sql], stdout=subprocess.PIPE, check=True,
                         timeout=30).stdout.decode()
    return [line.split("\t") for line in out.splitlines() if line]


def pct(xs, p):
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))]


class Serve:
    """One `figaro serve` on a free loopback port; its log in tmp/NAME/stderr.log."""

    def __init__(self, args, tmp, name, db=None, proxied=False):
        self.name = name
        self.dir = os.path.join(tmp, name)
        os.mkdir(self.dir)
        self.err = open(os.path.join(self.dir, "stderr.log"), "wb")
        cmd = [args.figaro, "serve", "--listen", "127.0.0.1:0",
               "--bot-threads", str(args.bot_threads),
               "--max-tables", str(max(1000, args.tables))]
        if db:
            cmd += ["--db", db, "--node", name]
            cmd += ["--lease", str(args.lease)] if args.lease else []
            cmd += ["--trust-proxy", "127.0.0.1"] if proxied else []
        else:
            cmd += ["--data", self.dir, "--sync", args.sync]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.err)
        self.pid = self.proc.pid
        line = self.proc.stdout.readline().decode()
        m = re.search(r"https?://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.stop()
            raise RuntimeError("%s printed no URL: %r" % (name, line))
        self.port = int(m.group(1))
        self.url = "ws://127.0.0.1:%d/ws" % self.port

    def metrics(self):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % self.port,
                                        timeout=10) as r:
                return r.read().decode()
        except OSError:
            return ""

    def kill(self):
        self.proc.kill()
        self.proc.wait(10)

    def stop(self):
        """SIGTERM (SIGKILL after 60 s): its exit status, or why not."""
        rc = self.proc.poll()
        if rc is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                rc = self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
                rc = "killed after 60 s"
        elif rc == -signal.SIGKILL:
            rc = "SIGKILL (the bench's)"
        self.proc.stdout.close()
        self.err.close()
        return rc


class Rig:
    """What the run starts: the servers and, on PostgreSQL, the cluster and
    (several servers) HAProxy in front; close() stops all of it."""

    def __init__(self):
        self.pg_dir = self.db = self.front = self.url = None
        self.servers = []

    def start(self, args, tmp):
        if args.db == "postgresql":
            out = subprocess.run(["sh", PG_SH, "start"], stdout=subprocess.PIPE, check=True,
                                 timeout=120).stdout.decode().split()
            self.pg_dir, self.db = out
            names = ["web%d" % (k + 1) for k in range(args.servers)]
        else:
            names = ["server"]
        proxied = len(names) > 1
        for n in names:
            self.servers.append(Serve(args, tmp, n, self.db, proxied))
        if proxied:
            self.front = Front(tmp, {s.name: s for s in self.servers})
        self.url = self.front.url if self.front else self.servers[0].url

    def pg_pid(self):
        with open(os.path.join(self.pg_dir, "data", "postmaster.pid")) as f:
            return int(f.readline())

    def cpu(self):
        """CPU seconds: each server's, PostgreSQL's (all its processes), HAProxy's."""
        out = {s.name: proc_cpu(s.pid) for s in self.servers if s.proc.poll() is None}
        if self.pg_dir:
            out["PostgreSQL"] = tree_cpu(self.pg_pid())
        if self.front:
            out["HAProxy"] = proc_cpu(self.front.proc.pid)
        return out

    def close(self):
        rcs = {}
        for s in self.servers:
            rcs[s.name] = s.stop()
        if self.front:
            try:
                self.front.stop()
            except subprocess.TimeoutExpired:
                self.front.proc.kill()
                self.front.proc.wait(10)
        if self.pg_dir:
            subprocess.run(["sh", PG_SH, "stop", self.pg_dir], timeout=60)
        return rcs


class Stats:
    def __init__(self):
        self.lat = []          # seconds, per person action
        self.actions = 0       # every action event (people's and bots'), counted once per table
        self.person_actions = 0
        self.games = 0
        self.errors = {}
        self.measuring = False
        self.kill_at = None    # perf_counter of the SIGKILL
        self.victim = set()    # the killed server's tables


class Person:
    def __init__(self, i, args, stats, go):
        self.i, self.args, self.stats, self.go = i, args, stats, go
        k = 1 + i // PER_ADDR     # 127.0.0.2, ..., 127.0.0.250, 127.0.1.1, ...
        self.addr = "127.0.%d.%d" % (k // 250, 1 + k % 250)
        self.ws = self.url = self.table = self.seat = self.token = self.epoch = None
        self.task = None
        self.game_n = 0
        self.n = 0
        self.view = None
        self.over = False
        self.games = 0
        self.acted_on = None
        self.rematched = None
        self.sent_at = None
        self.tokens, self.t = BURST, time.perf_counter()
        self.rng = random.Random(i)   # the think times, the same every run
        self.back = False             # seated again after the SIGKILL, no new action yet
        self.seated_after = self.playing_after = None   # seconds after the SIGKILL
        self.tries = 0                # connections opened to come back

    async def send(self, obj):
        # token bucket under the server's limit (docs/protocol.md "Transport")
        while True:
            now = time.perf_counter()
            self.tokens = min(BURST, self.tokens + (now - self.t) * RATE)
            self.t = now
            if self.tokens >= 1:
                self.tokens -= 1
                break
            await asyncio.sleep((1 - self.tokens) / RATE)
        await self.ws.send(json.dumps(obj))

    async def recv(self):
        m = json.loads(await self.ws.recv())
        if m["type"] == "error":
            self.stats.errors[m["code"]] = self.stats.errors.get(m["code"], 0) + 1
            if m.get("re") == "act":
                self.sent_at = None
        return m

    async def expect(self, typ):
        while True:
            m = await self.recv()
            if m["type"] == typ:
                return m
            if m["type"] == "error":
                raise RuntimeError("table %d: %r while waiting for %s" % (self.i, m, typ))
            self.note(m)

    async def connect(self, url):
        self.ws = await websockets.connect(url, ping_interval=None, max_size=1 << 22,
                                           local_addr=(self.addr, 0), open_timeout=10)

    async def setup(self, url):
        self.url = url
        await self.connect(url)
        await self.send({"type": "hello", "v": 1, "name": "P%d" % self.i})
        await self.expect("welcome")
        bot = {"kind": "bot", "level": self.args.bots}
        await self.send({"type": "create", "seats": [{"kind": "person"}, bot, bot, bot]})
        self.table = (await self.expect("created"))["table"]
        await self.send({"type": "join", "table": self.table})
        seated = await self.expect("seated")
        self.seat, self.token = seated["seat"], seated["token"]

    def note(self, m):
        t = m["type"]
        if t == "welcome":
            self.epoch = m["epoch"]
        elif t == "snapshot":
            self.n, self.game_n, self.epoch = m["n"], m["game_n"], m["epoch"]
            self.view = m.get("view")
            self.over = m["state"] == "over"
        elif t == "event":
            if m["n"] <= self.n:
                return
            self.n = m["n"]
            k = m["kind"]
            if k in ("start", "deal", "action"):
                self.game_n = m["n"]
            if k == "start":
                self.over = False
            if "view" in m:
                self.view = m["view"]
            if k == "action":
                st = self.stats
                if self.back:
                    self.back = False
                    if self.table in st.victim:
                        self.playing_after = time.perf_counter() - st.kill_at
                if st.measuring:
                    st.actions += 1
                if m["seat"] == self.seat:
                    if self.sent_at is not None:
                        if st.measuring:
                            st.lat.append(time.perf_counter() - self.sent_at)
                            st.person_actions += 1
                        self.sent_at = None
                if m.get("record"):
                    self.over = True
                    self.games += 1
                    if st.measuring:
                        st.games += 1

    def my_turn(self):
        v = self.view
        return (v is not None and not self.over and v.get("phase") == "play"
                and v.get("turn") == self.seat and v.get("legal"))

    async def reseat(self):
        """Back at the table through the front after its server died, as the
        browser client comes back (web/net.js): the seat's token and the last
        event seen; `moved`: again, naming that node."""
        st = self.stats
        self.sent_at = self.acted_on = self.rematched = None   # what was sent may be lost
        delay, node = 0.5, None
        while True:
            if time.perf_counter() - st.kill_at > self.args.failover_wait:
                raise RuntimeError("table %s: not back in %g s" % (self.table,
                                                                   self.args.failover_wait))
            url = "%s?table=%s%s" % (self.url, self.table, "&node=" + node if node else "")
            node = None
            try:
                await self.connect(url)
                delay = 0.5
                self.tries += 1
                await self.send({"type": "hello", "v": 1, "name": "P%d" % self.i, "seats": [
                    {"table": self.table, "token": self.token,
                     "since": {"epoch": self.epoch, "n": self.n}}]})
                while True:
                    m = json.loads(await self.ws.recv())
                    if m["type"] == "error":
                        if m["code"] == "moved":
                            node = m.get("node")
                        else:
                            st.errors[m["code"]] = st.errors.get(m["code"], 0) + 1
                        await self.ws.close()
                        break
                    self.note(m)
                    if m["type"] in ("snapshot", "caught_up"):
                        self.back = True
                        if self.table in st.victim:
                            self.seated_after = time.perf_counter() - st.kill_at
                        return
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake,
                    websockets.ConnectionClosed):
                pass
            await asyncio.sleep(delay * self.rng.uniform(0.75, 1.25))
            delay = min(delay * 2, 15.0)

    async def play(self):
        await self.go.wait()
        while True:
            try:
                if self.my_turn() and self.acted_on != self.game_n:
                    self.acted_on = self.game_n
                    if self.args.think:   # a person who thinks: a load below the server's limit
                        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.args.think / 1000)
                    msg = {"type": "act", "table": self.table, "n": self.game_n,
                           "action": self.view["legal"][0]}
                    await self.send(msg)
                    self.sent_at = time.perf_counter()   # after the rate limiter's wait
                elif self.over and self.rematched != self.games:
                    self.rematched = self.games
                    if self.games >= self.args.games:
                        return
                    await self.send({"type": "rematch", "table": self.table, "game": self.games})
                self.note(await self.recv())
            except websockets.ConnectionClosed:
                if self.stats.kill_at is None:
                    raise
                await self.reseat()


async def renewed(db, node):
    """Returns just after node's next lease round renewed its leases: when
    the least time left on them jumps up (polled every 0.1 s, psql run
    without blocking the clients)."""
    sql = ("SELECT extract(epoch FROM min(lease_until) - clock_timestamp()) FROM tables "
           "WHERE owner = '%s'" % node)
    last = None
    while True:
        p = await asyncio.create_subprocess_exec(
            "psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql,
            stdout=subprocess.PIPE)
        out, _ = await p.communicate()
        left = float(out.decode().strip() or "nan")
        if last is not None and left > last + 0.5:
            return
        last = left
        await asyncio.sleep(0.1)


async def failover(args, rig, people, stats):
    """SIGKILL the server driving the most tables; wait until each of its
    tables still playing has its person seated again and a new action, or
    --failover-wait. A report."""
    counts = {s.name: metric(s.metrics(), "figaro_tables") or 0 for s in rig.servers}
    victim = max(rig.servers, key=lambda s: counts[s.name])
    if args.kill_after_renewal:
        await renewed(rig.db, victim.name)
    rows = psql(rig.db, "SELECT code, extract(epoch FROM lease_until - clock_timestamp()) "
                        "FROM tables WHERE owner = '%s'" % victim.name)
    left = sorted(float(r[1]) for r in rows)
    stats.victim = {r[0] for r in rows}
    if not stats.victim:
        return ["SIGKILL: %s drives no table" % victim.name]
    playing = [p for p in people if p.table in stats.victim and not p.task.done()]
    stats.kill_at = time.perf_counter()
    victim.kill()
    while (time.perf_counter() - stats.kill_at < args.failover_wait
           and not all(p.playing_after is not None or p.task.done() for p in playing)):
        await asyncio.sleep(0.25)
    seated = sorted(p.seated_after for p in playing if p.seated_after is not None)
    back = sorted(p.playing_after for p in playing if p.playing_after is not None)
    owners = collections.Counter(
        o for (o,) in psql(rig.db, "SELECT coalesce(owner, '-') FROM tables WHERE code IN (%s)"
                           % ",".join("'%s'" % c for c in stats.victim)))
    taken = sum(metric(s.metrics(), "figaro_takeovers_total") or 0
                for s in rig.servers if s is not victim)
    spread = lambda xs: ("p50 %.2f s, p99 %.2f s, max %.2f s"
                    % (pct(xs, 50), pct(xs, 99), xs[-1]) if xs else "none")
    out = ["SIGKILL of %s (%d tables, %d of them still playing; their leases had %.1f to %.1f s "
           "left, lease %s)" % (victim.name, len(stats.victim), len(playing),
                                left[0] if left else 0, left[-1] if left else 0,
                                "%g s" % args.lease if args.lease else "the default"),
           "  seated again elsewhere: %d tables, %s" % (len(seated), spread(seated)),
           "  playing again (first new action told): %d tables, %s" % (len(back), spread(back)),
           "  connections opened to come back: %d (%.1f a table)"
           % (sum(p.tries for p in playing), sum(p.tries for p in playing) / max(1, len(playing))),
           "  its tables now at: %s; takeovers (/metrics of the others): %d"
           % (", ".join("%s %d" % kv for kv in sorted(owners.items())), taken)]
    missing = len(playing) - len(back)
    if missing:
        out.append("  NOT playing again within %g s: %d tables" % (args.failover_wait, missing))
    return out


async def people_setup(args, url, people):
    sem = asyncio.Semaphore(64)

    async def setup(p):
        async with sem:
            await p.setup(url)

    t0 = time.perf_counter()
    await asyncio.gather(*(setup(p) for p in people))
    return time.perf_counter() - t0


async def people_measure(stats, go, tasks, seconds, sample=None):
    """Measures from go for `seconds` (or until every task is done, if
    tasks); sample() every 0.25 s. Returns the seconds measured."""
    stats.measuring = True
    start = time.perf_counter()
    go.set()
    deadline = start + seconds
    while time.perf_counter() < deadline and not (tasks and all(t.done() for t in tasks)):
        await asyncio.sleep(0.25)
        if sample:
            sample()
    stats.measuring = False
    return time.perf_counter() - start


async def people_stop(tasks):
    """Cancels the tasks; the failures among them (not cancellations)."""
    for t in tasks:
        t.cancel()
    res = await asyncio.gather(*tasks, return_exceptions=True)
    return [r for r in res
            if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]


def people_abort(people):
    """Stops every person's task and drops their connection, whatever state
    the run ended in."""
    for p in people:
        if p.task:
            p.task.cancel()
        if p.ws:
            p.ws.transport.abort()


async def worker(spec):
    """One client process of --clients: the people lo..hi-1. Prints "ready"
    once they sit at their tables, measures from the "go" line on stdin,
    prints its figures as one JSON line."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    args = argparse.Namespace(**spec["args"])
    stats, go = Stats(), asyncio.Event()
    people = [Person(i, args, stats, go) for i in range(spec["lo"], spec["hi"])]
    loop = asyncio.get_running_loop()
    try:
        t_setup = await people_setup(args, spec["url"], people)
        for p in people:
            p.task = asyncio.ensure_future(p.play())
        tasks = [p.task for p in people]
        print("ready %.3f" % t_setup, flush=True)
        # the people read nothing until "go", as in one process (their tasks wait for go)
        await loop.run_in_executor(None, sys.stdin.readline)
        cpu0 = time.process_time()
        elapsed = await people_measure(stats, go, tasks, args.seconds)
        cpu = time.process_time() - cpu0
        failed = await people_stop(tasks)
        print(json.dumps({"lat": stats.lat, "actions": stats.actions,
                          "person_actions": stats.person_actions, "games": stats.games,
                          "errors": stats.errors, "elapsed": elapsed, "cpu": cpu,
                          "failed": len(failed), "failed_e": repr(failed[0]) if failed else ""}),
              flush=True)
    finally:
        people_abort(people)


async def clients_start(args, url):
    """Starts --clients worker processes, the tables split among them;
    returns them once every one is ready, and the longest setup."""
    k, n = args.clients, args.tables
    procs = []
    for j in range(k):
        lo, hi = n * j // k, n * (j + 1) // k
        if args.load_client:   # the people in C (bench/server_load.c), same lines
            hp = urllib.parse.urlsplit(url)
            cmd = [args.load_client, hp.hostname, str(hp.port), str(lo), str(hi - lo),
                   "%d" % args.think, "%g" % args.seconds, args.bots, str(args.games)]
        else:
            spec = {"url": url, "lo": lo, "hi": hi, "args": vars(args)}
            cmd = [sys.executable, os.path.abspath(__file__), "--worker", json.dumps(spec)]
        procs.append(await asyncio.create_subprocess_exec(
            *cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, limit=1 << 26))
    t_setup = 0.0
    for pr in procs:
        line = (await pr.stdout.readline()).decode()
        if not line.startswith("ready "):
            raise RuntimeError("a client process failed in its setup")
        t_setup = max(t_setup, float(line.split()[1]))
    return procs, t_setup


async def clients_results(procs, stats):
    """Reads each client's figures into stats; returns (the longest time
    measured, their CPU seconds, failures as report lines)."""
    elapsed, cpu, failed = 0.0, 0.0, []
    for pr in procs:
        line = await pr.stdout.readline()
        await pr.wait()
        if not line:
            failed.append("a client process ended without its figures (exit %s)" % pr.returncode)
            continue
        r = json.loads(line)
        stats.lat += r["lat"]
        stats.actions += r["actions"]
        stats.person_actions += r["person_actions"]
        stats.games += r["games"]
        for k, v in r["errors"].items():
            stats.errors[k] = stats.errors.get(k, 0) + v
        elapsed, cpu = max(elapsed, r["elapsed"]), cpu + r["cpu"]
        if r["failed"]:
            failed.append("%d clients failed, e.g. %s" % (r["failed"], r["failed_e"]))
    return elapsed, cpu, failed


async def main(args):
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tmp = tempfile.TemporaryDirectory(prefix="figaro-bench-", dir=args.tmp)
    rig, people, report = Rig(), [], []
    try:
        rig.start(args, tmp.name)
        await asyncio.sleep(0.3)
        rss0 = {s.name: proc_status(s.pid)["VmRSS"] for s in rig.servers}

        stats = Stats()
        go = asyncio.Event()
        tasks = []
        if args.clients > 1 or args.load_client:
            procs, t_setup = await clients_start(args, rig.url)
        else:
            people = [Person(i, args, stats, go) for i in range(args.tables)]
            t_setup = await people_setup(args, rig.url, people)
            # every game started: the bots play until each person's first turn
            for p in people:
                p.task = asyncio.ensure_future(p.play())
            tasks = [p.task for p in people]
        await asyncio.sleep(2.0)
        rss1 = {s.name: proc_status(s.pid)["VmRSS"] for s in rig.servers}
        held = {s.name: int(metric(s.metrics(), "figaro_tables") or 0) for s in rig.servers}

        cpu0, cpu_cli0 = rig.cpu(), time.process_time()
        peak = dict(rss1)

        def sample():
            for s in rig.servers:
                peak[s.name] = max(peak[s.name], proc_status(s.pid)["VmRSS"])

        failed_lines = []
        if args.clients > 1 or args.load_client:
            for pr in procs:
                pr.stdin.write(b"go\n")
                await pr.stdin.drain()
            # the servers' CPU over the clients' window: they measure args.seconds from go
            await people_measure(Stats(), asyncio.Event(), [], args.seconds, sample)
            cpu1 = rig.cpu()
            elapsed, cpu_cli, failed_lines = await clients_results(procs, stats)
        else:
            elapsed = await people_measure(stats, go, tasks, args.seconds, sample)
            cpu1, cpu_cli = rig.cpu(), time.process_time() - cpu_cli0
        hwm = {s.name: proc_status(s.pid)["VmHWM"] for s in rig.servers}
        texts = {s.name: s.metrics() for s in rig.servers}

        lat = sorted(stats.lat)
        ms = lambda x: "%.1f" % (x * 1000)
        kib = lambda kb: "%.0f KiB" % kb
        n = len(rig.servers)
        where = ("SQLite (--sync %s, --data in %s)" % (args.sync, os.path.dirname(tmp.name))
                 if not rig.db else "PostgreSQL 15 (a cluster in /tmp), %d server%s%s, lease %s"
                 % (n, "s" if n > 1 else "", " behind HAProxy (deploy/haproxy.cfg)" if n > 1
                    else "", "%g s" % args.lease if args.lease else "the default"))
        report += [
            "figaro serve on %s: %d tables, each 1 person + 3 %s bots, --bot-threads %d a server"
            % (where, args.tables, args.bots, args.bot_threads),
            "machine: %s" % machine(),
            "tables created and joined in %.1f s; held: %s" % (
                t_setup, ", ".join("%s %d" % kv for kv in held.items())),
            "measured %.1f s: %d games over" % (elapsed, stats.games),
            "person actions: %d, latency act -> event p50 %s ms, p99 %s ms, max %s ms"
            % (len(lat), ms(pct(lat, 50)), ms(pct(lat, 99)),
               ms(lat[-1] if lat else float("nan"))),
            "servers' own latency (action -> broadcast, /metrics): %s"
            % server_latency(texts.values()),
            "actions/s (people and bots): %.0f; people's: %.0f"
            % (stats.actions / elapsed, stats.person_actions / elapsed)]
        for s in rig.servers:
            per = max(1, held[s.name])
            report += [
                "%s: storage (whole run): %s" % (s.name, storage_groups(texts[s.name])),
                "%s: VmRSS %s before, %s with its %d tables (%s a table), peak %s (%s a table; "
                "VmHWM %s)" % (s.name, kib(rss0[s.name]), kib(rss1[s.name]), held[s.name],
                               kib((rss1[s.name] - rss0[s.name]) / per), kib(peak[s.name]),
                               kib((peak[s.name] - rss0[s.name]) / per), kib(hwm[s.name]))]
        report.append("CPU during the run (of %.1f s x %d cores): %s, this client %.1f s%s"
                      % (elapsed, os.cpu_count(), ", ".join(
                          "%s %.1f s" % (k, cpu1[k] - cpu0[k]) for k in cpu1), cpu_cli,
                         " (%d processes%s)" % (args.clients, ", in C" if args.load_client else "")
                         if args.clients > 1 or args.load_client else ""))
        served = sum(cpu1[s.name] - cpu0[s.name] for s in rig.servers if s.name in cpu1)
        report.append("servers' CPU per action (people's and bots'): %.0f us"
                      % (1e6 * served / stats.actions if stats.actions else float("nan")))
        if n > 1 and not args.no_kill:
            report += await failover(args, rig, people, stats)
        if stats.errors:
            report.append("errors: %s" % ", ".join("%s %d" % kv
                                                    for kv in sorted(stats.errors.items())))
        failed = await people_stop(tasks)
        if failed:
            report.append("%d clients failed, e.g. %r" % (len(failed), failed[0]))
        report += failed_lines
    finally:
        people_abort(people)
        rcs = rig.close()
        report.append("server exit: %s" % ", ".join("%s %s" % kv for kv in rcs.items()))
        print("\n".join(report))
        tmp.cleanup()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--figaro", default=os.path.join(ROOT, "build", "figaro"))
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--bots", default="random", choices=["random", "easy", "normal", "hard", "max"])
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--games", type=int, default=1, help="games per table (rematch after each)")
    ap.add_argument("--bot-threads", type=int, default=2)
    ap.add_argument("--think", type=float, default=0,
                    help="ms each person thinks before acting (uniform 0.5x to 1.5x); "
                         "0: act at once (the server's limit)")
    ap.add_argument("--sync", default="full", choices=["full", "normal"],
                    help="SQLite: the server's --sync, full (the default) or normal")
    ap.add_argument("--tmp", default=None,
                    help="SQLite: where the --data folder is made (default $TMPDIR or /tmp; "
                         "/dev/shm: no disk)")
    ap.add_argument("--db", default="sqlite", choices=["sqlite", "postgresql"],
                    help="postgresql: a throwaway PostgreSQL 15 (tests/net/pg.sh)")
    ap.add_argument("--servers", type=int, default=1, choices=[1, 3],
                    help="PostgreSQL: servers on it; 3: behind HAProxy (deploy/haproxy.cfg)")
    ap.add_argument("--lease", type=int, default=0,
                    help="PostgreSQL: the servers' --lease in seconds (0: their default)")
    ap.add_argument("--no-kill", action="store_true",
                    help="several servers: no SIGKILL of one after the measurement")
    ap.add_argument("--kill-after-renewal", action="store_true",
                    help="the SIGKILL just after the victim renewed its leases (the worst case)")
    ap.add_argument("--failover-wait", type=float, default=120,
                    help="seconds the killed server's tables may take to play again")
    ap.add_argument("--clients", type=int, default=1,
                    help="client processes the tables are split among (1: this one)")
    ap.add_argument("--load-client", default=None,
                    help="the people played by this program instead (build/server_load, "
                         "bench/server_load.c: make build/server_load), --clients of them")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)   # one of --clients
    a = ap.parse_args()
    if a.worker:
        asyncio.run(worker(json.loads(a.worker)))
        sys.exit(0)
    if a.servers > 1 and a.db != "postgresql":
        ap.error("--servers 3 needs --db postgresql")
    if a.clients < 1 or a.clients > a.tables:
        ap.error("--clients is 1 to --tables")
    if (a.clients > 1 or a.load_client) and a.servers > 1 and not a.no_kill:
        ap.error("--clients above 1 measures no failover: add --no-kill")
    # Descriptors, asked before anything starts (a server out of them accepts
    # no more connections, and its people would wait without an answer): a
    # server holds three a table (the person's socket, its match's pipe), a
    # client process one a person; each raises its limit to the hard one.
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    per_server = -(-a.tables // a.servers) * 3 + 100
    if per_server > nofile:
        ap.error("--tables %d: a server holds three descriptors a table, about %d, above the "
                 "limit of %d here (ulimit -Hn): at most %d tables a server"
                 % (a.tables, per_server, nofile, (nofile - 100) // 3 * a.servers))
    if -(-a.tables // a.clients) + 100 > nofile:
        ap.error("--tables %d: a client process holds a descriptor a person, above the limit "
                 "of %d here (ulimit -Hn): add --clients" % (a.tables, nofile))
    asyncio.run(main(a))
