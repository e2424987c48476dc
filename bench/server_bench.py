#!/usr/bin/python3
"""Load on `figaro serve` (issue 9, "Speed, measured"; figures in the README).

Starts `figaro serve --listen 127.0.0.1:0 --data TMPDIR --bot-threads 2`, opens
--tables tables, each ONE scripted person and three bots of --bots level, one
WebSocket per person, and plays every person's moves as fast as the server
allows: on each event where it is the person's turn, the first legal action of
the view, within the protocol's limit of 20 messages a second per connection.

Measured, over --seconds (or until every person played --games games):
  - per person action, the latency from sending `act` to receiving the event
    that applies it (client side, perf_counter): p50, p99, max;
  - actions/s at all tables (people's and bots', counted from the `action`
    events every person receives: each table's events are numbered without gaps);
  - the server's VmRSS (/proc/PID/status) before the tables, once every table
    is created and its game started (each waits for its person), and at the peak
    (VmHWM), per table.

The server allows 16 connections per address: the people connect from
127.0.0.2, 127.0.0.3, ... (15 each; all of 127/8 is loopback on Linux).

Debian's python3 and python3-websockets (10.x, asyncio); builds nothing:
    make -j2 build/figaro
    /usr/bin/python3 bench/server_bench.py [--figaro build/figaro] [--tables 1000]
        [--bots random] [--seconds 20] [--games 1] [--sync full|normal] [--think MS]
"""
import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

try:
    import websockets
except ImportError:
    sys.exit("no websockets module: apt-get install python3-websockets (run /usr/bin/python3)")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
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


def machine():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        return "lscpu missing, %d cores" % os.cpu_count()
    model = re.search(r"^Model name:\s*(.+)$", out, re.M)
    cpus = re.search(r"^CPU\(s\):\s*(\d+)$", out, re.M)
    return "%s, %s cores" % (model.group(1).strip() if model else "?",
                             cpus.group(1) if cpus else os.cpu_count())


def server_latency(port):
    """p50 and p99 bounds (ms) of the server's own figaro_move_latency_ms histogram."""
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10) as r:
            text = r.read().decode()
    except OSError as e:
        return "no /metrics: %s" % e
    b = [(float(le), int(n)) for le, n in
         re.findall(r'^figaro_move_latency_ms_bucket\{le="([^"]+)"\} (\d+)', text, re.M)
         if le != "+Inf"]
    total = re.search(r"^figaro_move_latency_ms_count (\d+)", text, re.M)
    if not b or not total or int(total.group(1)) == 0:
        return "no histogram"
    total = int(total.group(1))
    def q(p):
        for le, n in b:
            if n >= p * total:
                return "<= %g ms" % le
        return "> %g ms" % b[-1][0]
    return "p50 %s, p99 %s (%d actions)" % (q(0.5), q(0.99), total)


def storage_groups(port):
    """Commits and writes of the writer thread (/metrics): writes per disk sync."""
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10) as r:
            text = r.read().decode()
    except OSError as e:
        return "no /metrics: %s" % e
    c = re.search(r"^figaro_storage_commits_total (\d+)", text, re.M)
    w = re.search(r"^figaro_storage_writes_total (\d+)", text, re.M)
    if not c or not w:
        return "one commit per write (no writer thread)"
    c, w = int(c.group(1)), int(w.group(1))
    t = re.search(r"^figaro_storage_commit_ms_total ([0-9.]+)", text, re.M)
    t = " taking %.1f ms each" % (float(t.group(1)) / c) if t and c else ""
    return "%d writes in %d commits, %.1f a commit%s" % (w, c, w / c if c else 0.0, t)


def pct(xs, p):
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))]


class Stats:
    def __init__(self):
        self.lat = []          # seconds, per person action
        self.actions = 0       # every action event (people's and bots'), counted once per table
        self.person_actions = 0
        self.games = 0
        self.errors = {}
        self.measuring = False


class Person:
    def __init__(self, i, args, stats, go):
        self.i, self.args, self.stats, self.go = i, args, stats, go
        self.table = self.seat = None
        self.game_n = 0
        self.n = 0
        self.view = None
        self.over = False
        self.games = 0
        self.acted_on = None
        self.sent_at = None
        self.tokens, self.t = BURST, time.perf_counter()
        self.rng = random.Random(i)   # the think times, the same every run

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

    async def setup(self, url):
        addr = "127.0.0.%d" % (2 + self.i // PER_ADDR)
        self.ws = await websockets.connect(url, ping_interval=None, max_size=1 << 22,
                                           local_addr=(addr, 0))
        await self.send({"type": "hello", "v": 1, "name": "P%d" % self.i})
        await self.expect("welcome")
        bot = {"kind": "bot", "level": self.args.bots}
        await self.send({"type": "create", "seats": [{"kind": "person"}, bot, bot, bot]})
        self.table = (await self.expect("created"))["table"]
        await self.send({"type": "join", "table": self.table})
        self.seat = (await self.expect("seated"))["seat"]

    def note(self, m):
        t = m["type"]
        if t == "snapshot":
            self.n, self.game_n = m["n"], m["game_n"]
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

    async def play(self):
        await self.go.wait()
        game = None
        while True:
            if self.my_turn() and self.acted_on != self.game_n:
                self.acted_on = self.game_n
                if self.args.think:   # a person who thinks: a load below the server's limit
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.args.think / 1000)
                msg = {"type": "act", "table": self.table, "n": self.game_n,
                       "action": self.view["legal"][0]}
                await self.send(msg)
                self.sent_at = time.perf_counter()   # after the rate limiter's wait
            elif self.over and game != self.games:
                game = self.games
                if self.games >= self.args.games:
                    return
                await self.send({"type": "rematch", "table": self.table, "game": self.games})
            self.note(await self.recv())


async def main(args):
    tmp = tempfile.TemporaryDirectory(prefix="figaro-bench-", dir=args.tmp)
    err = open(os.path.join(tmp.name, "stderr.log"), "wb")
    proc = subprocess.Popen([args.figaro, "serve", "--listen", "127.0.0.1:0", "--data", tmp.name,
                             "--bot-threads", str(args.bot_threads), "--sync", args.sync,
                             "--max-tables", str(max(1000, args.tables))],
                            stdout=subprocess.PIPE, stderr=err)
    line = proc.stdout.readline().decode()
    m = re.search(r"https?://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        sys.exit("serve printed no URL: %r" % line)
    url = "ws://127.0.0.1:%s/ws" % m.group(1)
    await asyncio.sleep(0.3)
    rss0 = proc_status(proc.pid)["VmRSS"]

    stats = Stats()
    go = asyncio.Event()
    people = [Person(i, args, stats, go) for i in range(args.tables)]
    sem = asyncio.Semaphore(64)

    async def setup(p):
        async with sem:
            await p.setup(url)

    t0 = time.perf_counter()
    await asyncio.gather(*(setup(p) for p in people))
    t_setup = time.perf_counter() - t0
    # every game started: the bots play until each person's first turn
    tasks = [asyncio.ensure_future(p.play()) for p in people]
    await asyncio.sleep(2.0)
    rss1 = proc_status(proc.pid)["VmRSS"]

    cpu_srv0, cpu_cli0 = proc_cpu(proc.pid), time.process_time()
    stats.measuring = True
    start = time.perf_counter()
    go.set()
    peak = rss1
    deadline = start + args.seconds
    while time.perf_counter() < deadline and not all(t.done() for t in tasks):
        await asyncio.sleep(0.25)
        peak = max(peak, proc_status(proc.pid)["VmRSS"])
    stats.measuring = False
    elapsed = time.perf_counter() - start
    cpu_srv, cpu_cli = proc_cpu(proc.pid) - cpu_srv0, time.process_time() - cpu_cli0
    hwm = proc_status(proc.pid)["VmHWM"]
    srv_lat = server_latency(int(m.group(1)))
    groups = storage_groups(int(m.group(1)))
    for t in tasks:
        t.cancel()
    res = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [r for r in res if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]

    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = "killed after 60 s"
    for p in people:
        p.ws.transport.abort()
    err.close()

    lat = sorted(stats.lat)
    ms = lambda x: "%.1f" % (x * 1000)
    kib = lambda kb: "%.0f KiB" % kb
    print("figaro serve: %d tables, each 1 person + 3 %s bots, --bot-threads %d"
          % (args.tables, args.bots, args.bot_threads))
    print("machine: %s; --data in %s" % (machine(), os.path.dirname(tmp.name)))
    print("tables created and joined in %.1f s" % t_setup)
    print("measured %.1f s: %d games over" % (elapsed, stats.games))
    print("person actions: %d, latency act -> event p50 %s ms, p99 %s ms, max %s ms"
          % (len(lat), ms(pct(lat, 50)), ms(pct(lat, 99)), ms(lat[-1] if lat else float("nan"))))
    print("server's own latency (action -> broadcast, /metrics): %s" % srv_lat)
    print("storage (whole run): %s" % groups)
    print("actions/s (people and bots): %.0f; people's: %.0f"
          % (stats.actions / elapsed, stats.person_actions / elapsed))
    print("server VmRSS: %s before, %s with the tables (%s a table), peak %s (%s a table; VmHWM %s)"
          % (kib(rss0), kib(rss1), kib((rss1 - rss0) / args.tables), kib(peak),
             kib((peak - rss0) / args.tables), kib(hwm)))
    print("CPU during the run: server %.1f s, this client %.1f s (of %.1f s x %d cores)"
          % (cpu_srv, cpu_cli, elapsed, os.cpu_count()))
    if stats.errors:
        print("errors: %s" % ", ".join("%s %d" % kv for kv in sorted(stats.errors.items())))
    if failed:
        print("%d clients failed, e.g. %r" % (len(failed), failed[0]))
    print("server exit: %s" % rc)
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
                    help="the server's --sync: full (the default) or normal")
    ap.add_argument("--tmp", default=None,
                    help="where the --data folder is made (default $TMPDIR or /tmp; /dev/shm: no disk)")
    asyncio.run(main(ap.parse_args()))
